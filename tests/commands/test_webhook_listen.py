"""`a2a webhook listen` in-process on a real local port, fed by an httpx client in a thread:
every body shape, the credential checks, bad bodies, --dump, --count, --timeout and Ctrl-C."""

from __future__ import annotations

import _thread
import json
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

V1_STATUS = {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING", "timestamp": "2026-01-01T00:00:00Z"}}}
V1_TASK = {"task": {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_SUBMITTED"}}}
V0_TASK = {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "completed"}}
V0_ARTIFACT = {"kind": "artifact-update", "taskId": "t-1", "contextId": "c-1", "artifact": {"artifactId": "a-1", "parts": [{"kind": "text", "text": "hi"}]}, "lastChunk": True}
VENDOR = {"jsonrpc": "2.0", "method": "tasks/pushNotification",
          "params": {"result": {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "completed", "timestamp": "2026-03-11T12:00:00Z"}}}}}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_up(url: str) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.TransportError:
            time.sleep(0.02)
    raise RuntimeError("listener did not start")


def run(cli, *args: str, send: Callable[[str], Any] | None = None) -> tuple[Any, list[Any]]:
    """Start `a2a webhook listen --port P ARGS` and, in a thread once it is up, `send(base_url)`."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    answers: list[Any] = []

    def client() -> None:
        wait_up(url)
        answers.extend(send(url) or [])

    thread = threading.Thread(target=client, daemon=True)
    if send:
        thread.start()
    result = cli("webhook", "listen", "--port", str(port), *args)
    if send:
        thread.join(10)
    return result, answers


def post(url: str, body: Any, headers: dict[str, str] | None = None, path: str = "/hook") -> httpx.Response:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    return httpx.post(url + path, content=data, headers={"Content-Type": "application/json", **(headers or {})}, timeout=5)


SHAPES = [V1_STATUS, V0_TASK, V0_ARTIFACT, VENDOR]


@pytest.mark.spec("A2ACLI_PUSH_002")
def test_every_body_shape_as_received_in_json_lines(cli):
    result, answers = run(cli, "--count", "4", "-o", "json", send=lambda url: [post(url, b) for b in SHAPES])
    assert result.exit_code == 0, result.stderr
    assert [a.status_code for a in answers] == [200] * 4
    assert [json.loads(line) for line in result.stdout.splitlines()] == SHAPES
    assert "listening for A2A push notifications on http://127.0.0.1:" in result.stderr


def test_as_v1_gives_one_canonical_shape(cli):
    result, _ = run(cli, "--count", "4", "-o", "json", "--as", "v1", send=lambda url: [post(url, b) for b in SHAPES])
    assert result.exit_code == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[0] == V1_STATUS
    assert lines[1] == {"task": {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}}
    assert lines[2]["artifactUpdate"]["artifact"]["parts"] == [{"text": "hi"}] and lines[2]["artifactUpdate"]["lastChunk"] is True
    assert lines[3] == {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED", "timestamp": "2026-03-11T12:00:00Z"}}}


def test_as_v1_names_a_body_that_is_no_a2a_event(cli):
    result, _ = run(cli, "--count", "1", "-o", "json", "--as", "v1", send=lambda url: [post(url, {"weird": 1})])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == {"weird": 1}
    assert "delivery #1 is not an A2A event" in result.stderr and "shown as received" in result.stderr


def test_text_names_each_shape(cli):
    result, _ = run(cli, "--count", "4", send=lambda url: [post(url, b) for b in SHAPES])
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "Notification: #1 POST /hook from 127.0.0.1\nShape: V1 StreamResponse (statusUpdate)\nEvent: status-update\nTask: t-1\n" in out
    assert "Shape: V0 task (kind)\nEvent: task\nTask: t-1\nContext: c-1\nState: completed" in out
    assert "Shape: V0 artifact-update (kind)\nEvent: artifact-update\nTask: t-1\n" in out and "Text:\n  hi\n\n" in out
    assert "Shape: JSON-RPC tasks/pushNotification, params.result: V1 StreamResponse (statusUpdate)\nEvent: status-update\n" in out and "State: completed" in out
    assert "4 notification(s) received" in result.stderr


def test_raw_is_each_body_as_received(cli):
    body = b'{"statusUpdate":  {"taskId": "t-1", "status": {"state": "TASK_STATE_WORKING"}}}'
    result, _ = run(cli, "--count", "1", "-o", "raw", send=lambda url: [post(url, body)])
    assert result.stdout == body.decode() + "\n"


@pytest.mark.spec("A2ACLI_PUSH_002")
def test_token_is_checked_and_a_mismatch_answers_401(cli):
    def send(url):
        return [post(url, V1_STATUS), post(url, V1_STATUS, {"X-A2A-Notification-Token": "wrong"}),
                post(url, V1_STATUS, {"X-A2A-Token": "t1"}), post(url, V1_STATUS, {"X-A2A-Notification-Token": "t1"})]

    result, answers = run(cli, "--count", "2", "--token", "t1", "-o", "json", send=send)
    assert result.exit_code == 0, result.stderr
    assert [a.status_code for a in answers] == [401, 401, 200, 200]
    assert "refused delivery #1 POST /hook from 127.0.0.1: HTTP 401, no X-A2A-Notification-Token or X-A2A-Token header" in result.stderr
    assert "refused delivery #2 POST /hook from 127.0.0.1: HTTP 401, X-A2A-Notification-Token does not match --token" in result.stderr
    assert "wrong" not in result.stderr  # what was sent is never echoed
    assert len(result.stdout.splitlines()) == 2


def test_authorization_is_checked(cli):
    def send(url):
        return [post(url, V0_TASK, {"Authorization": "Bearer nope"}), post(url, V0_TASK, {"Authorization": "bearer s3cret"})]

    result, answers = run(cli, "--count", "1", "--auth", "Bearer s3cret", send=send)
    assert result.exit_code == 0, result.stderr
    assert [a.status_code for a in answers] == [401, 200]
    assert "Authorization does not match --auth" in result.stderr
    assert "Credentials: Authorization" in result.stdout


def test_a_body_that_is_not_json_gets_400(cli):
    result, answers = run(cli, "--count", "1", "-o", "json", send=lambda url: [post(url, b"hello"), post(url, V1_TASK)])
    assert result.exit_code == 0, result.stderr
    assert [a.status_code for a in answers] == [400, 200]
    assert "refused delivery #1 POST /hook from 127.0.0.1: HTTP 400, the body is not JSON" in result.stderr
    assert [json.loads(line) for line in result.stdout.splitlines()] == [V1_TASK]


def test_dump_keeps_each_delivery_with_credentials_redacted(cli, tmp_path):
    body = json.dumps(V1_STATUS, indent=3).encode()
    result, _ = run(cli, "--count", "1", "--token", "tok-123", "--dump", str(tmp_path), "-o", "json",
                    send=lambda url: [post(url, b"oops", {"X-A2A-Notification-Token": "tok-123"}), post(url, body, {"X-A2A-Notification-Token": "tok-123"}, path="/h?x=1")])
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "002-webhook.request.body").read_bytes() == body  # byte for byte
    head = (tmp_path / "002-webhook.request.http").read_bytes().decode()
    assert head.startswith("POST /h?x=1 HTTP/1.1\r\n") and "X-A2A-Notification-Token: <redacted>" in head and "tok-123" not in head
    assert (tmp_path / "001-webhook.request.body").read_bytes() == b"oops"
    index = [json.loads(line) for line in (tmp_path / "index.jsonl").read_text().splitlines()]
    assert [(e["seq"], e["status"]) for e in index] == [(1, 400), (2, 200)]
    assert index[1]["shape"] == "V1 StreamResponse (statusUpdate)" and index[1]["bytes"] == len(body)


def test_timeout_with_nothing_received_exits_5(cli):
    started = time.monotonic()
    result, _ = run(cli, "--count", "1", "--timeout", "0.3")
    assert result.exit_code == 5
    assert time.monotonic() - started < 3
    assert "error: no notification within --timeout 0.3s" in result.stderr and "hint:" in result.stderr


def test_timeout_before_the_count_is_reached_exits_5(cli):
    result, _ = run(cli, "--count", "2", "--timeout", "1", "-o", "json", send=lambda url: [post(url, V1_STATUS)])
    assert result.exit_code == 5
    assert json.loads(result.stdout.splitlines()[0]) == V1_STATUS
    assert json.loads(result.stdout.split("\n", 1)[1])["error"]["message"] == "1 of 2 notification(s) within --timeout 1s"


def test_timeout_without_count_is_fine_once_something_arrived(cli):
    result, _ = run(cli, "--timeout", "1", send=lambda url: [post(url, V1_STATUS)])
    assert result.exit_code == 0, result.stderr
    assert "--timeout 1s: 1 notification(s) received" in result.stderr


def test_ctrl_c_exits_130_saying_how_many_arrived(cli, monkeypatch):
    import a2acli.webhook

    shown = threading.Event()  # the receiving loop took the delivery and showed it
    show = a2acli.webhook._show
    monkeypatch.setattr(a2acli.webhook, "_show", lambda *args: (show(*args), shown.set()))

    def send(url):
        answers = [post(url, V1_STATUS), shown.wait(10)]
        _thread.interrupt_main()  # in any case: nothing else ends this listener
        return answers

    result, (answer, was_shown) = run(cli, send=send)
    assert answer.status_code == 200 and was_shown
    assert result.exit_code == 130
    assert "interrupted: 1 notification(s) received" in result.stderr
    assert "State: working" in result.stdout


def test_another_host_only_with_a_warning(cli):
    result, _ = run(cli, "--host", "0.0.0.0", "--count", "1", send=lambda url: [post(url, V1_STATUS)])
    assert result.exit_code == 0, result.stderr
    assert "warning: listening on 0.0.0.0: other machines can reach this receiver" in result.stderr
    assert "set --token or --auth" in result.stderr


def test_a_port_in_use_is_a_clear_error(cli):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = cli("webhook", "listen", "--port", str(port), "--timeout", "1")
    assert result.exit_code == 1
    assert f"cannot listen on 127.0.0.1:{port}: address already in use" in result.stderr and "--port 0" in result.stderr


def test_port_zero_prints_the_real_url(cli):
    result = cli("webhook", "listen", "--port", "0", "--timeout", "0.1")
    assert result.exit_code == 5
    line = result.stderr.splitlines()[0]
    assert line.startswith("listening for A2A push notifications on http://127.0.0.1:") and ":0 " not in line


@pytest.mark.parametrize("argv,says", [(["-o", "yaml"], "unknown output mode"), (["--as", "v0"], "--as 'v0' is not supported"), (["--port", "70000"], "--port")])
def test_usage_errors(cli, argv, says):
    result = cli("webhook", "listen", *argv)
    assert result.exit_code == 2 and says in result.stderr


def test_a_host_this_machine_does_not_have_is_a_usage_error(cli):
    result = cli("webhook", "listen", "--host", "999.1.1.1", "--port", "0", "--timeout", "1", "--token", "t0k3n")
    assert result.exit_code == 2
    assert "cannot listen on 999.1.1.1" in result.stderr and "--host takes an address of this machine" in result.stderr


def test_a_script_that_stops_it_as_soon_as_it_listens_gets_the_same_quiet_130():
    """A script reads the URL from the first line, then sends SIGINT at once: the interruption
    is said as for a person's Ctrl-C (exit 130), never an error (the window before the wait)."""
    import os
    import signal
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("A2ACLI_")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "a2acli", "webhook", "listen", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**env, "A2ACLI_GLOBAL_CONFIG": os.devnull},
    )  # fmt: skip
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline()
        assert b"listening for A2A push notifications on http://127.0.0.1:" in first, first
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert b"interrupted: 0 notification(s) received" in err and b"error:" not in err


def test_timeout_takes_a_duration_as_every_timeout_does(cli):
    result, _ = run(cli, "--count", "1", "--timeout", "5000ms", send=lambda url: [post(url, V1_STATUS)])
    assert result.exit_code == 0, result.stderr
    bad = cli("webhook", "listen", "--port", "0", "--timeout", "soon")
    assert bad.exit_code == 2 and "--timeout 'soon' is not a duration" in bad.stderr


def test_the_printed_send_carries_the_token_the_receiver_checks(cli):
    """Pasted, the example is accepted: it carries --push-token (issue 36)."""
    result, answers = run(cli, "--count", "1", "--timeout", "5s", "--token", "t0k", send=lambda url: [post(url, V1_STATUS, {"X-A2A-Notification-Token": "t0k"})])
    assert result.exit_code == 0, result.stderr
    (example,) = [line.strip() for line in result.stderr.splitlines() if line.strip().startswith("a2a send ")]
    assert "/hook --push-token t0k" in example and answers[0].status_code == 200


@pytest.mark.parametrize("url,tail", [(None, "/hook -u AGENT_URL"), ("http://127.0.0.1:9/", "/hook")])
def test_the_printed_send_names_the_agent_only_when_nothing_else_does(cli, url, tail):
    """No agent in the environment or a config file: the example says where -u goes."""
    result = cli("webhook", "listen", "--port", "0", "--timeout", "0", env={"A2ACLI_URL": url})
    (example,) = [line.strip() for line in result.stderr.splitlines() if line.strip().startswith("a2a send ")]
    assert example.endswith(tail), example


def test_a_port_in_use_has_its_own_code_under_json(cli):
    """Not A2ACLI_ERR_INTERNAL (a bug of a2a's): the machine's state, named as such (exit 1)."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = cli("webhook", "listen", "--port", str(port), "--timeout", "1", "-o", "json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"]["code"] == "X_A2A_CANNOT_LISTEN"


def test_the_listen_sample_of_docs_webhooks_is_what_listen_says():
    """Issue 46: docs/webhooks.md showed two lines where `listen` says three (its port as the page's)."""
    import os
    import re
    import subprocess
    import sys
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "webhooks.md").read_text()
    shown = re.search(r"a2a webhook listen --port 9000 --token t1\n```\n\n```text\n(.*?)```", page, re.S)
    assert shown
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "a2acli", "webhook", "listen", "--port", str(port), "--token", "t1", "--count", "1"], stderr=subprocess.PIPE, text=True, env={**os.environ, "A2ACLI_URL": "http://127.0.0.1:41241"})  # the page sets A2ACLI_URL
    try:
        said = [proc.stderr.readline() for _ in range(3)] if proc.stderr else []
    finally:
        proc.kill()
        proc.wait()
    assert [line.replace(str(port), "9000") for line in said] == shown.group(1).splitlines(keepends=True)
