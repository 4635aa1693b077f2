"""Waiting, polling and capability checks with the installed `a2a` against the demo agent (a real
a2a-sdk server), over JSON-RPC and HTTP+JSON: `tasks get --wait --poll-interval` on the slow
skill, `send --async` then `tasks get --wait`, a card that does not claim streaming or push
(the demo's own card, served from a file with those capabilities turned off), and Ctrl-C during
a blocking send."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from a2a_testkit import wait_until

from tests.integration.conftest import HAS_GRPC

pytestmark = pytest.mark.integration
TRANSPORTS = ["jsonrpc", "rest"]
SLOW = ["--skill", "slow", "-f", "steps:=3", "-f", "delay:=0.3"]


@pytest.fixture(scope="module", params=TRANSPORTS)
def a2a(request, run_a2a, demo_agent):
    return run_a2a.at(demo_agent.url, "--transport", request.param)


@pytest.fixture(scope="module")
def card_file(demo_agent, tmp_path_factory) -> Any:
    """The demo's card with some capabilities turned off, as a file:// card (its interfaces still
    point at the demo agent)."""
    card = httpx.get(demo_agent.card_url, timeout=10).json()
    folder = tmp_path_factory.mktemp("cards")

    def make(**caps: Any) -> str:
        doc = json.loads(json.dumps(card))
        for key, value in caps.items():
            if value is None:
                doc["capabilities"].pop(key, None)
            else:
                doc["capabilities"][key] = value
        path = folder / ("card-" + "-".join(f"{k}-{v}" for k, v in caps.items()) + ".json")
        path.write_text(json.dumps(doc))
        return path.as_uri()

    return make


def task_of(doc: dict[str, Any]) -> dict[str, Any]:
    return doc.get("task", doc)


@pytest.mark.spec("A2ACLI_TASK_POLL_001", "A2ACLI_TASK_POLL_002")
def test_send_async_then_tasks_get_wait_with_a_poll_interval(a2a):
    started = a2a("send", *SLOW, "--async", "-o", "json")
    task = task_of(json.loads(started.stdout))
    assert task["id"] and task["contextId"]
    t0 = time.monotonic()
    waited = a2a("tasks", "get", task["id"], "--wait", "--poll-interval", "0.2", "--timeout", "30s", "-o", "json")
    done = json.loads(waited.stdout)
    assert done["id"] == task["id"] and done["status"]["state"] == "TASK_STATE_COMPLETED"
    assert time.monotonic() - t0 < 20
    assert any(a.get("parts") for a in done.get("artifacts") or [])


@pytest.mark.spec("A2ACLI_TASK_POLL_002")
def test_poll_interval_takes_durations_and_timeout_expires_on_a_running_task(a2a):
    started = json.loads(a2a("send", "--skill", "slow", "-f", "steps:=20", "-f", "delay:=0.5", "--async", "-o", "json").stdout)
    tid = task_of(started)["id"]
    timed_out = a2a("tasks", "get", tid, "--wait", "--poll-interval", "200ms", "--timeout", "1s", check=5)
    assert "timed out: task " + tid in timed_out.stderr and f"a2a tasks get {tid} --wait" in timed_out.stderr
    a2a("tasks", "cancel", tid, check=None)


@pytest.mark.spec("A2ACLI_VER_003")
@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("value", [False, None])
def test_stream_falls_back_to_send_and_wait_when_the_card_does_not_claim_streaming(run_a2a, card_file, transport, value):
    run = run_a2a.at(card_file(streaming=value), "--transport", transport)
    result = run("stream", *SLOW, "-o", "json", "--expect-state", "completed")
    assert "capabilities.streaming" in result.stderr and "sending the message with SendMessage and polling its task instead of streaming" in result.stderr
    last = json.loads(result.stdout.splitlines()[-1])
    assert task_of(last)["status"]["state"] == "TASK_STATE_COMPLETED"


@pytest.mark.spec("A2ACLI_VER_003")
@pytest.mark.parametrize("transport", TRANSPORTS)
def test_subscribe_polls_when_the_card_does_not_claim_streaming(run_a2a, demo_agent, card_file, transport):
    started = json.loads(run_a2a.at(demo_agent.url, "--transport", transport)("send", *SLOW, "--async", "-o", "json").stdout)
    tid = task_of(started)["id"]
    run = run_a2a.at(card_file(streaming=False), "--transport", transport)
    result = run("tasks", "subscribe", tid, "--poll-interval", "0.2", "--expect-state", "completed")
    assert f"the card says capabilities.streaming is false: polling task {tid} instead of subscribing" in result.stderr
    assert "State: completed" in result.stdout


@pytest.mark.spec("A2ACLI_VER_003")
@pytest.mark.parametrize("transport", TRANSPORTS)
def test_push_config_is_refused_unless_claimed_or_forced(run_a2a, demo_agent, card_file, transport):
    started = json.loads(run_a2a.at(demo_agent.url, "--transport", transport)("send", "hello", "--async", "-o", "json").stdout)
    tid = task_of(started)["id"]
    run = run_a2a.at(card_file(pushNotifications=False), "--transport", transport)
    refused = run("push-config", "list", tid, check=1)
    assert "hint: the card says capabilities.pushNotifications is false; --force sends anyway" in refused.stderr
    forced = run("push-config", "list", tid, "--force", "-o", "json")
    assert "--force: calling ListTaskPushNotificationConfigs anyway" in forced.stderr
    json.loads(forced.stdout)


@pytest.mark.spec("A2ACLI_VER_003")
def test_extended_card_is_refused_unless_claimed(run_a2a, demo_agent, card_file):
    run = run_a2a.at(card_file(extendedAgentCard=False), "--api-key", demo_agent.api_key)
    refused = run("card", "extended", check=1)
    assert "the card says capabilities.extendedAgentCard is false; --force sends anyway" in refused.stderr
    forced = run("card", "extended", "--force", "-o", "json")
    assert json.loads(forced.stdout)["name"]


def task_started(agent: Any, ctx: str) -> str:
    """Once the demo agent lists a task in context `ctx` (it took the message; asked over 1.0,
    whatever the command under test speaks): ""."""

    def listed() -> bool:
        answer = httpx.post(agent.rpc_url, json={"jsonrpc": "2.0", "id": 1, "method": "ListTasks", "params": {"contextId": ctx}}, headers={"A2A-Version": "1.0"}, timeout=5)
        return bool(answer.json()["result"].get("tasks"))

    wait_until(listed, timeout=20, what=f"a task in context {ctx}")
    return ""


def interrupted(argv: list[str], env: dict[str, str], ready: Callable[[subprocess.Popen[str]], str]) -> tuple[int, str, str]:
    """Run `argv` and press Ctrl-C once `ready(proc)` returns (what it read of stderr); the exit
    code, stdout and stderr."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        read = ready(proc)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
    return proc.returncode, out, read + err


@pytest.mark.spec("A2ACLI_TASK_POLL_002")
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("transport", TRANSPORTS)
def test_ctrl_c_during_a_blocking_call_names_the_message_and_how_to_find_the_task(a2a_bin, a2a_env, run_a2a, demo_agent, transport):
    env = a2a_env(A2ACLI_GLOBAL_CONFIG=os.devnull)
    ctx = f"c-ctrl-c-{uuid.uuid4().hex[:8]}"  # this run's own: the demo agent lives for the session
    argv = [*a2a_bin, "send", "--skill", "slow", "-f", "steps:=20", "-f", "delay:=0.5", "--message-id", "m-ctrl-c", "--context-id", ctx, "-u", demo_agent.url, "--transport", transport]
    # Ctrl-C once the agent has the message (its task listed): the blocking answer comes only when the task ends (10 s)
    code, _, err = interrupted(argv, env, lambda proc: task_started(demo_agent, ctx))
    assert code == 130, err
    assert f"interrupted before the agent answered: message m-ctrl-c (context {ctx}) was sent" in err
    assert f"a2a tasks list --context-id {ctx} -u {demo_agent.url} --transport {transport}" in err
    assert "Traceback" not in err
    found = run_a2a.at(demo_agent.url, "--transport", transport)("tasks", "list", "--context-id", ctx, "-o", "json")
    assert json.loads(found.stdout)["tasks"]  # the command printed does find it


@pytest.mark.spec("A2ACLI_TASK_POLL_002")
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_during_a_blocking_call_under_0_3_says_tasks_cannot_be_listed(a2a_bin, a2a_env, demo_agent):
    env = a2a_env(A2ACLI_GLOBAL_CONFIG=os.devnull)
    ctx = f"c-ctrl-c-03-{uuid.uuid4().hex[:8]}"  # named so the test can see the agent took the message (over 1.0)
    argv = [*a2a_bin, "send", "--skill", "slow", "-f", "steps:=20", "-f", "delay:=0.5", "--message-id", "m-ctrl-c-03", "--context-id", ctx, "-u", demo_agent.url, "--a2a-version", "0.3"]
    code, _, err = interrupted(argv, env, lambda proc: task_started(demo_agent, ctx))
    assert code == 130, err
    assert f"interrupted before the agent answered: message m-ctrl-c-03 (context {ctx}) was sent; A2A 0.3 has no way to list tasks" in err
    assert "a2a tasks list" not in err and "Traceback" not in err


@pytest.mark.spec("A2ACLI_SEND_002")
@pytest.mark.parametrize("transport", ["jsonrpc", "rest", *(["grpc"] if HAS_GRPC else [])])
@pytest.mark.parametrize("version", ["1.0", "0.3"])
def test_a_default_send_that_settles_is_one_call_and_the_agent_warns_of_nothing(run_a2a, demo_agent, transport, version, tmp_path):
    """Issue 21: what the user typed is what goes on the wire, once: no SubscribeToTask refused
    with -32004 and no GetTask after a task that settled within the call."""
    logged = demo_agent.log.stat().st_size
    dump = tmp_path / "dump"
    run = run_a2a.at(demo_agent.url, "--transport", transport, "--a2a-version", version, *(["--plaintext"] if transport == "grpc" else []))
    result = run("send", "--skill", "create-user", "-f", "projectUserId=u1", "-o", "json", "--dump", str(dump))
    assert task_of(json.loads(result.stdout))["status"]["state"] in ("TASK_STATE_COMPLETED", "completed")
    calls = [json.loads(line) for line in (dump / "index.jsonl").read_text().splitlines()]
    sent = [c["method"] for c in calls if c.get("method") not in (None, "card")]
    assert sent == [{"1.0": "SendMessage", "0.3": "message/send" if transport == "jsonrpc" else "SendMessage"}[version]], calls
    # A negative, so a wait of a set time: the SDK would log its warning after the answer is sent
    # (the agent logs nothing else at its level, so there is no line to wait for)
    time.sleep(0.2)
    with demo_agent.log.open("rb") as log:
        log.seek(logged)
        new = log.read().decode(errors="replace")
    assert "WARNING" not in new and "terminal state" not in new, new



# -- --follow: returnImmediately, then the task followed (SubscribeToTask, or polls) -----------------


def waiting_said(dump: Path) -> Callable[[subprocess.Popen[str]], str]:
    """The first line on stderr (the note that names the task, said as soon as the agent answers),
    read once `a2a` is in the wait: its --dump DIR holds the request that follows the task
    (SubscribeToTask, or a GetTask poll)."""

    def ready(proc: subprocess.Popen[str]) -> str:
        assert proc.stderr is not None
        first = proc.stderr.readline()
        assert "waiting for it" in first, first
        wait_until(lambda: [*dump.glob("*-SubscribeToTask.request.http"), *dump.glob("*-GetTask.request.http")], what="the follow-up request in the dump")
        return first

    return ready


@pytest.mark.spec("A2ACLI_TASK_POLL_002", "A2ACLI_INTERACT_004")
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("streaming", [True, False])
def test_ctrl_c_during_the_wait_names_the_task_and_its_resume_command_resumes_it(a2a_bin, a2a_env, run_a2a, demo_agent, card_file, transport, streaming, tmp_path):
    env = a2a_env(A2ACLI_GLOBAL_CONFIG=os.devnull)
    url = demo_agent.url if streaming else card_file(streaming=False)  # subscribed to, or polled
    dump = tmp_path / "dump"
    argv = [*a2a_bin, "send", "--follow", "--skill", "slow", "-f", "steps:=8", "-f", "delay:=0.3", "-u", url, "--transport", transport, "--dump", str(dump)]
    code, out, err = interrupted(argv, env, waiting_said(dump))
    assert code == 130, err
    named = re.match(r"task (\S+) \(context (\S+)\) is (submitted|working); waiting for it", err)
    assert named, err
    tid, ctx = named.group(1), named.group(2)
    if streaming:
        assert re.search(rf"interrupted: task {tid} \(context {ctx}\) was (submitted|working); resume with one of:\n  a2a tasks subscribe {tid} -u \S+ --transport {transport}\n  a2a tasks get {tid} --wait -u", err), err
    else:  # the card claims no streaming: only the command that polls (issue 23)
        assert re.search(rf"interrupted: task {tid} \(context {ctx}\) was (submitted|working); resume with this \(the Agent Card claims no streaming\):\n  a2a tasks get {tid} --wait -u", err), err
    assert "before the agent answered" not in err and "Traceback" not in err and out == ""
    resumed = run_a2a.at(demo_agent.url, "--transport", transport)("tasks", "get", tid, "--wait", "--poll-interval", "200ms", "-o", "json")
    done = json.loads(resumed.stdout)
    assert (done["id"], done["contextId"], done["status"]["state"]) == (tid, ctx, "TASK_STATE_COMPLETED")  # the task went on


@pytest.mark.spec("A2ACLI_TASK_POLL_002", "A2ACLI_INTERACT_004")
@pytest.mark.parametrize("streaming", [True, False])
def test_timeout_during_the_wait_exits_5_naming_the_task(a2a, run_a2a, card_file, streaming):
    run = a2a if streaming else run_a2a.at(card_file(streaming=False))
    result = run("send", "--follow", "--skill", "slow", "-f", "steps:=10", "-f", "delay:=0.5", "--timeout", "2", "-o", "json", check=5)
    tid = re.match(r"task (\S+) \(context \S+\) is \w+; waiting for it", result.stderr).group(1)
    assert json.loads(result.stdout)["error"]["code"] == "A2ACLI_ERR_TIMEOUT"
    assert f"timed out: task {tid} (context " in result.stderr and f"a2a tasks get {tid} --wait" in result.stderr
    assert (f"a2a tasks subscribe {tid}" in result.stderr) is streaming  # offered only where the card claims streaming (issue 23)
    a2a("tasks", "cancel", tid, check=None)


@pytest.mark.spec("A2ACLI_TASK_POLL_002", "A2ACLI_OUT_002")
@pytest.mark.parametrize("version", ["1.0", "0.3"])
@pytest.mark.parametrize("skill", [["--skill", "slow", "-f", "steps:=2", "-f", "delay:=0.2"], ["--skill", "ask"], ["--skill", "fail"], ["hello"], ["message"]])
def test_the_answer_is_the_one_a_blocking_call_gives(a2a, version, skill, tmp_path):
    """--follow (returnImmediately, then the task followed and fetched) prints the same document
    as the default, one blocking SendMessage, generated ids and times aside."""

    def shape(text: str) -> str:
        text = re.sub(r'"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"', '"ID"', text)
        return re.sub(r'"20\d\d-[^"]*"', '"TIME"', text)

    dump = tmp_path / "dump"
    followed = a2a("send", *skill, "-o", "json", "--a2a-version", version, "--dump", str(dump), "--follow")
    blocking = a2a("send", *skill, "-o", "json", "--a2a-version", version)
    # as JSON values: the agent's protobuf Struct (a data part) keeps no key order between its answers
    assert json.loads(shape(followed.stdout)) == json.loads(shape(blocking.stdout))
    sent = [json.loads(line) for line in (dump / "index.jsonl").read_text().splitlines()]
    first = next(e for e in sent if e["method"] in ("SendMessage", "message/send"))
    request = json.loads((dump / f"{first['files']}.request.body").read_text())
    config = (request.get("params") or request)["configuration"]
    assert config == ({"returnImmediately": True} if version == "1.0" else {"blocking": False})


@pytest.mark.spec("A2ACLI_SEND_003")
def test_stream_answered_with_a_direct_message_exits_0(a2a):
    result = a2a("send", "message", "--stream", "-o", "json", "--timeout", "20s")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 1 and "echo: message (a direct Message, no task)" in json.dumps(lines[0])
