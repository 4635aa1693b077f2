"""The output contract against the demo agent (a real a2a-sdk server) over JSON-RPC and HTTP+JSON:
the text floor of send and tasks get with artifacts, --verbose, `tasks subscribe` as one JSON
document and as JSON Lines under --stream, `send --async -o json`, the resume hint of a task that
needs input, and a failed task's exit 0 with its warning."""

from __future__ import annotations

import json

import pytest
from a2a_testkit import assert_floor as _assert_floor
from a2a_testkit import floor_block as _blocks

pytestmark = pytest.mark.integration
TRANSPORTS = ["jsonrpc", "rest"]


@pytest.fixture(params=TRANSPORTS)
def a2a(request, run_a2a, demo_agent):
    return run_a2a.at(demo_agent.url, "--transport", request.param)


@pytest.mark.spec("A2ACLI_OUT_005", "A2ACLI_SEND_004", "A2ACLI_OUT_001")
def test_send_text_floor_with_a_text_artifact(a2a):
    done = a2a("send", "hi")
    labels = _assert_floor(done.stdout)
    assert labels[:3] == ["Task", "Context", "State"] and "State: completed\n" in done.stdout
    assert "Artifact: echo\n" in done.stdout and _blocks(done.stdout, "Text") == ["echo: hi"]
    assert "History messages: 1\n" in done.stdout


@pytest.mark.spec("A2ACLI_OUT_005", "A2ACLI_SEND_004", "A2ACLI_TASK_GET_001")
def test_send_and_tasks_get_render_a_data_part_as_formatted_json(a2a):
    sent = a2a("send", "--skill", "create-user", "-f", "projectUserId=user_123", "-o", "json")
    task = json.loads(sent.stdout)["task"]
    got = a2a("tasks", "get", task["id"])
    _assert_floor(got.stdout)
    assert got.stdout.startswith(f"Task: {task['id']}\nContext: {task['contextId']}\nState: completed\n")
    assert "Artifact: user\n" in got.stdout
    (data,) = _blocks(got.stdout, "Data")
    assert json.loads(data)["projectUserId"] == "user_123" and data.startswith("{\n  ")


@pytest.mark.spec("A2ACLI_OUT_005")
def test_verbose_shows_the_history(a2a):
    concise = a2a("send", "--skill", "create-user", "-f", "projectUserId=u9")
    assert "History message:" not in concise.stdout
    verbose = a2a("send", "--skill", "create-user", "-f", "projectUserId=u9", "--verbose")
    _assert_floor(verbose.stdout)
    assert "History message: " in verbose.stdout and "Role: user\n" in verbose.stdout
    assert any('"skill": "create-user"' in d for d in _blocks(verbose.stdout, "Data"))  # the message sent, part by part


@pytest.mark.spec("A2ACLI_OUT_002", "A2ACLI_TASK_SUBSCRIBE_001")
def test_subscribe_json_is_one_document_the_terminal_task(a2a):
    started = json.loads(a2a("send", "--async", "--skill", "slow", "-f", "steps:=3", "-f", "delay:=0.3", "-o", "json").stdout)
    tid = started["task"]["id"]
    result = a2a("tasks", "subscribe", tid, "-o", "json")
    task = json.loads(result.stdout)  # one document
    assert task["id"] == tid and task["status"]["state"] == "TASK_STATE_COMPLETED"
    assert [a["name"] for a in task["artifacts"]] == ["result"]


@pytest.mark.spec("A2ACLI_OUT_003", "A2ACLI_TASK_SUBSCRIBE_001")
def test_subscribe_stream_json_is_json_lines(a2a):
    started = json.loads(a2a("send", "--async", "--skill", "slow", "-f", "steps:=6", "-f", "delay:=0.5", "-o", "json").stdout)
    tid = started["task"]["id"]
    result = a2a("tasks", "subscribe", tid, "--stream", "-o", "json")
    lines = result.stdout.splitlines()
    events = [json.loads(line) for line in lines]
    assert len(events) >= 2 and all(len(set(e) & {"task", "statusUpdate", "artifactUpdate", "message"}) == 1 for e in events)
    last = events[-1]
    final = last.get("statusUpdate") or last.get("task")
    assert final["status"]["state"] == "TASK_STATE_COMPLETED"


@pytest.mark.spec("A2ACLI_OUT_006")
def test_send_async_json_carries_task_and_context_ids(a2a):
    result = a2a("send", "--async", "--skill", "slow", "-f", "steps:=2", "-f", "delay:=0.2", "-o", "json")
    task = json.loads(result.stdout)["task"]
    assert task["id"] and task["contextId"]
    text = a2a("send", "--async", "--skill", "slow", "-f", "steps:=2", "-f", "delay:=0.2")
    labels = _assert_floor(text.stdout)
    assert labels[:3] == ["Task", "Context", "State"]
    assert "a2a tasks get " in text.stderr and " --wait" in text.stderr


@pytest.mark.spec("A2ACLI_INTERACT_004", "A2ACLI_EXIT_002")
def test_input_required_prints_ids_state_and_the_resume_command(a2a):
    asked = a2a("send", "--skill", "ask")
    _assert_floor(asked.stdout)
    assert "State: input-required\n" in asked.stdout
    tid = asked.stdout.split("Task: ", 1)[1].split("\n", 1)[0]
    ctx = asked.stdout.split("Context: ", 1)[1].split("\n", 1)[0]
    assert f"task {tid} is input-required" in asked.stderr and "warning:" not in asked.stderr  # a normal pause: a note
    assert f"a2a send --task-id {tid} --context-id {ctx} " in asked.stderr and "'your reply'" in asked.stderr
    answered = a2a("send", "--task-id", tid, "--context-id", ctx, "blue")
    assert "State: completed\n" in answered.stdout


@pytest.mark.spec("A2ACLI_EXIT_002")
def test_failed_task_exits_0_with_a_warning(a2a):
    for output in ("text", "json"):
        failed = a2a("send", "--skill", "fail", "-o", output)  # exit 0 asserted by the runner
        assert "warning: task " in failed.stderr and "ended failed" in failed.stderr
    assert "State: failed\n" in failed.stdout.replace('"', "") or json.loads(failed.stdout)["task"]["status"]["state"] == "TASK_STATE_FAILED"


def test_the_demo_cards_view_at_80_columns_fits_45_lines_with_a_command_per_skill(run_a2a, demo_agent):
    """The card as a terminal 80 columns wide shows it (FORCE_COLOR: rich, though piped here):
    at most 45 rows, counting the rows a long command takes when the terminal wraps it; each
    skill's command runs as printed."""
    import math
    import os
    import re
    import shlex

    a2a = run_a2a.bound(env={"TERMINAL_WIDTH": None, "FORCE_COLOR": "1", "NO_COLOR": "1", "COLUMNS": "80", "A2ACLI_GLOBAL_CONFIG": os.devnull})
    out = a2a("card", "fetch", "-u", demo_agent.url)
    assert out.returncode == 0, out.stderr
    lines = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out.stdout).splitlines()
    assert sum(max(1, math.ceil(len(line) / 80)) for line in lines) <= 45, "\n".join(lines)
    commands = [line.strip() for line in lines if line.startswith("    a2a send ")]
    assert len(commands) == 6  # one per skill of the demo
    assert f"a2a send --skill create-user -f projectUserId=user_123 -u {demo_agent.url}" in commands
    ran = a2a(*shlex.split(commands[0])[1:], "-o", "json", env={"FORCE_COLOR": ""})
    assert ran.returncode == 0 and json.loads(ran.stdout)["task"]["status"]["state"] == "TASK_STATE_COMPLETED", ran.stderr
