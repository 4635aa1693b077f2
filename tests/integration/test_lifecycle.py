"""The task lifecycle with the installed `a2a` against the demo agent (a real a2a-sdk server), in
both versions: streams, subscribe, waiting, cancel mid-stream, Ctrl-C, webhook delivery into
`a2a webhook listen`, and artifact download."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
from typing import Any

import pytest

pytestmark = pytest.mark.integration
VERSIONS = ["1.0", "0.3"]


@pytest.fixture(scope="module")
def env(a2a_env) -> dict[str, str]:
    """The background commands' (spawn's) environment: the user's settings and FORCE_COLOR off."""
    return a2a_env(A2ACLI_GLOBAL_CONFIG=os.devnull, FORCE_COLOR=None)


@pytest.fixture(scope="module")
def a2a(run_a2a, demo_agent):
    """`a2a ARGS… -u DEMO_URL` without the user's settings or FORCE_COLOR; asserts exit 0 unless told."""
    return run_a2a.bound("-u", demo_agent.url, env={"A2ACLI_GLOBAL_CONFIG": os.devnull, "FORCE_COLOR": None}, check=0, timeout=30)


@pytest.fixture(scope="module")
def spawn(a2a_bin, env):
    procs: list[subprocess.Popen[str]] = []

    def start(*args: str) -> subprocess.Popen[str]:
        proc = subprocess.Popen([*a2a_bin, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1, env=env)
        procs.append(proc)
        return proc

    yield start
    for p in procs:
        if p.poll() is None:
            p.kill()
            p.wait(5)


def lines(text: str) -> list[Any]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def state(event: dict[str, Any]) -> str:
    for key in ("statusUpdate", "task"):
        if key in event:
            return event[key]["status"]["state"]
    return ""


def start_slow(a2a, version: str, steps: int, delay: float) -> str:
    out = a2a("send", "--skill", "slow", "-f", f"steps:={steps}", "-f", f"delay:={delay}", "--async", "-o", "json", "--as", "v1", "--a2a-version", version)
    return json.loads(out.stdout)["task"]["id"]


@pytest.mark.parametrize("version", VERSIONS)
def test_stream_json_lines_and_text(a2a, version):
    events = lines(a2a("stream", "--skill", "slow", "-f", "steps:=2", "-f", "delay:=0.05", "-o", "json", "--as", "v1", "--a2a-version", version).stdout)
    assert [next(iter(e)) for e in events] == ["task", "statusUpdate", "statusUpdate", "artifactUpdate", "statusUpdate"]
    assert state(events[-1]) == "TASK_STATE_COMPLETED"
    assert events[3]["artifactUpdate"]["artifact"]["parts"] == [{"text": "done after 2 steps"}]
    text = a2a("stream", "--skill", "slow", "-f", "steps:=1", "-f", "delay:=0", "--a2a-version", version, "--expect-state", "completed")
    assert "Status message:\n  step 1/1\n\n" in text.stdout and "Artifact: result\nText:\n  done after 1 steps\n\n" in text.stdout
    assert re.search(r"\n\nTask: \S+\nContext: \S+\nState: completed\nEvents: 4\n\n$", text.stdout)


@pytest.mark.spec("A2ACLI_TASK_SUBSCRIBE_001")
@pytest.mark.parametrize("version", VERSIONS)
def test_subscribe_live_then_finished(a2a, version):
    task_id = start_slow(a2a, version, steps=16, delay=0.25)  # still running when the subscribe lands, a busy machine included (4 s)
    live = a2a("tasks", "subscribe", task_id, "--stream", "-o", "json", "--as", "v1", "--a2a-version", version, "--expect-state", "completed")
    events = lines(live.stdout)
    assert events[0]["task"]["id"] == task_id and state(events[-1]) == "TASK_STATE_COMPLETED"
    assert "subscribe: full stream" in live.stderr
    done = a2a("tasks", "subscribe", task_id, "--a2a-version", version, "--expect-state", "completed")
    how = "as a plain JSON answer" if version == "1.0" else "as an SSE event"  # the SDK differs per version
    assert f"subscribe: task {task_id} is already finished (completed)" in done.stderr and how in done.stderr
    assert f"Task: {task_id}" in done.stdout and "State: completed" in done.stdout


@pytest.mark.spec("A2ACLI_TASK_POLL_001")
@pytest.mark.parametrize("version", VERSIONS)
def test_tasks_get_wait(a2a, version):
    task_id = start_slow(a2a, version, steps=3, delay=0.15)
    got = a2a("tasks", "get", task_id, "--wait", "--poll-interval", "0.1", "--a2a-version", version, "--expect-state", "completed", "-o", "json", "--as", "v1")
    assert json.loads(got.stdout)["status"]["state"] == "TASK_STATE_COMPLETED"
    short = a2a("tasks", "get", start_slow(a2a, version, steps=20, delay=0.2), "--wait", "--poll-interval", "0.1", "--timeout", "0.6", "--a2a-version", version, check=5)
    assert "timed out: task" in short.stderr and "resume with one of:\n  a2a tasks subscribe" in short.stderr


@pytest.mark.spec("A2ACLI_INTERACT_004", "A2ACLI_TASK_POLL_003")
def test_wait_stops_at_input_required_with_the_command_to_continue(a2a):
    asked = a2a("send", "--skill", "ask", "-o", "json", "--as", "v1")
    task = json.loads(asked.stdout)["task"]
    assert task["status"]["state"] == "TASK_STATE_INPUT_REQUIRED"
    command = re.search(r"continue with:\n  (a2a send .*) 'your reply'", asked.stderr)
    assert command and f"--task-id {task['id']} --context-id {task['contextId']}" in command.group(1)
    argv = command.group(1).split()[1:]
    argv = argv[: argv.index("-u")]  # the fixture adds -u
    done = a2a(*argv, "blue", "--expect-state", "completed")
    assert "Artifact: answer\nText:\n  got: blue\n\n" in done.stdout


@pytest.mark.parametrize("version", VERSIONS)
def test_cancel_mid_stream_ends_the_stream_canceled(a2a, spawn, demo_agent, version):
    proc = spawn("stream", "--skill", "slow", "-f", "steps:=20", "-f", "delay:=0.2", "-o", "json", "--as", "v1",
                 "-u", demo_agent.url, "--a2a-version", version, "--expect-state", "canceled")
    first = json.loads(proc.stdout.readline())
    task_id = first["task"]["id"]
    a2a("tasks", "cancel", task_id, "--a2a-version", version, "--expect-state", "canceled")
    out, err = proc.communicate(timeout=15)
    assert proc.returncode == 0, err
    events = [first, *lines(out)]
    assert state(events[-1]) == "TASK_STATE_CANCELED"
    assert len(events) < 15  # it ended at the cancel, not after 20 steps


def test_ctrl_c_during_a_stream_prints_how_to_resume(spawn, demo_agent):
    proc = spawn("stream", "--skill", "slow", "-f", "steps:=20", "-u", demo_agent.url)
    assert proc.stdout.readline() == "Event: task\n"  # the first event is on screen
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=10)
    assert proc.returncode == 130, err
    m = re.search(r"interrupted: task (\S+) \(context (\S+)\) was ([\w-]+)", err)
    assert m and m.group(3) in ("submitted", "working")
    assert f"resume with one of:\n  a2a tasks subscribe {m.group(1)} --stream -u {demo_agent.url}\n  a2a tasks get {m.group(1)} --wait -u {demo_agent.url}\n" in err
    assert "Traceback" not in err


@pytest.mark.spec("A2ACLI_PUSH_002")
@pytest.mark.parametrize("version", VERSIONS)
def test_webhook_delivery_into_the_listener(a2a, spawn, version):
    listener = spawn("webhook", "listen", "--port", "0", "--count", "1", "--timeout", "30", "-o", "json", "--token", "t1")
    url = re.search(r"on (http://127\.0\.0\.1:\d+)", listener.stderr.readline()).group(1)
    sent = a2a("send", "--skill", "create-user", "-f", "projectUserId=user_123", "--push-url", f"{url}/hook", "--push-token", "t1", "--a2a-version", version, "-o", "json", "--as", "v1")
    task_id = json.loads(sent.stdout)["task"]["id"]
    out, err = listener.communicate(timeout=15)
    assert listener.returncode == 0, err
    (note,) = lines(out)  # the demo pushes each event (Task, status and artifact updates), in parallel
    ((kind, event),) = note.items()
    assert kind in ("task", "statusUpdate", "artifactUpdate")
    assert (event["id"] if kind == "task" else event["taskId"]) == task_id


def test_webhook_listener_text_and_push_config_create(a2a, spawn):
    listener = spawn("webhook", "listen", "--port", "0", "--count", "2", "--timeout", "30", "--auth", "Bearer s3cret")
    url = re.search(r"on (http://127\.0\.0\.1:\d+)", listener.stderr.readline()).group(1)
    asked = json.loads(a2a("send", "--skill", "ask", "-o", "json", "--as", "v1").stdout)["task"]
    a2a("push-config", "create", asked["id"], "--webhook-url", f"{url}/hook", "--auth-scheme", "Bearer", "--auth-credentials", "s3cret")
    a2a("send", "--task-id", asked["id"], "--context-id", asked["contextId"], "blue")
    out, err = listener.communicate(timeout=15)
    assert listener.returncode == 0, err
    assert out.count("Notification: #") == 2 and "Credentials: Authorization" in out
    assert f"Task: {asked['id']}" in out and "Shape: V1 StreamResponse" in out


@pytest.mark.spec("A2ACLI_DOWNLOAD_001")
def test_download_artifacts(a2a, tmp_path):
    sent = json.loads(a2a("send", "--skill", "create-user", "-f", "projectUserId=user_123", "-o", "json", "--as", "v1").stdout)
    got = a2a("tasks", "download", sent["task"]["id"], "--dir", str(tmp_path), "-o", "json")
    (saved,) = json.loads(got.stdout)["files"]
    assert saved["path"] == str(tmp_path / "user.json")
    assert json.loads((tmp_path / "user.json").read_text())["projectUserId"] == "user_123"
