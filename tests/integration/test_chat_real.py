"""`a2a chat` against the demo agent (a real a2a-sdk server) over JSON-RPC and HTTP+JSON, its
lines piped in: each line one turn, the context carried from one turn to the next, `/new`
starting afresh, one JSON line per turn under -o json."""

from __future__ import annotations

import json

import pytest
from a2a_testkit import assert_floor

pytestmark = [pytest.mark.integration, pytest.mark.spec("A2ACLI_CHAT_001")]


@pytest.fixture(params=["jsonrpc", "rest"])
def a2a(request, run_a2a, demo_agent):
    return run_a2a.at(demo_agent.url, "--transport", request.param)


def test_turns_share_the_context_until_new(a2a):
    out = a2a("chat", "-o", "json", input="hello\nagain\n/new\nfresh\n")
    tasks = [json.loads(line)["task"] for line in out.stdout.splitlines()]
    assert [t["status"]["state"] for t in tasks] == ["TASK_STATE_COMPLETED"] * 3
    assert tasks[0]["contextId"] == tasks[1]["contextId"] != tasks[2]["contextId"]
    assert len({t["id"] for t in tasks}) == 3
    assert [t["artifacts"][0]["parts"][0]["text"] for t in tasks] == ["echo: hello", "echo: again", "echo: fresh"]


def test_chat_off_a_terminal_prints_the_text_floor(a2a):
    out = a2a("chat", input="hi\n")
    labels = assert_floor(out.stdout)
    assert labels[:3] == ["Task", "Context", "State"] and "State: completed\n" in out.stdout


def test_piped_slash_commands_stay_here_and_skill_reaches_every_skill(a2a):
    """/help piped is said, not sent; /skill and /data reach the demo's skills beyond echo."""
    out = a2a("chat", "-o", "json", input='/help\n/skill create-user projectUserId=u1\n/data {"skill": "fail"}\n')
    tasks = [json.loads(line)["task"] for line in out.stdout.splitlines()]
    assert len(tasks) == 2, out.stdout  # /help was not a turn
    assert tasks[0]["status"]["state"] == "TASK_STATE_COMPLETED"
    assert tasks[0]["artifacts"][0]["parts"][0]["data"]["projectUserId"] == "u1"
    assert tasks[1]["status"]["state"] == "TASK_STATE_FAILED"
    assert "  /skill" in out.stderr
