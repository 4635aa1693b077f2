"""`a2a webhook listen`'s flow (flows.webhook) called directly with an Invocation, no CLI runner:
a real receiver on a free local port, fed by an httpx client in a thread; its exit code."""

from __future__ import annotations

import json
import socket
import threading
import time

import httpx
import pytest

from a2acli.errors import TimeoutExpired, UsageError
from a2acli.flows.invocation import Invocation
from a2acli.flows.webhook import run_listen

V0_TASK = {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "completed"}}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def deliver(url: str, statuses: list[int]) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            statuses.append(
                httpx.post(
                    url + "/hook", json=V0_TASK, headers={"X-A2A-Notification-Token": "t1"}, timeout=5
                ).status_code
            )
            return
        except httpx.TransportError:
            time.sleep(0.02)


def test_a_delivery_is_written_as_canonical_v1_and_the_count_ends_it_with_0(capsys):
    port = free_port()
    statuses: list[int] = []
    thread = threading.Thread(target=deliver, args=(f"http://127.0.0.1:{port}", statuses), daemon=True)
    thread.start()
    code = run_listen(Invocation({"output": "json"}), port=port, count=1, timeout="10", token="t1", as_v="v1")
    thread.join(10)
    assert code == 0 and statuses == [200]
    assert json.loads(capsys.readouterr().out) == {
        "task": {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}
    }


def test_nothing_before_the_timeout_is_exit_5():
    with pytest.raises(TimeoutExpired):
        run_listen(Invocation({"output": "json"}), port=0, count=1, timeout="50ms")


@pytest.mark.parametrize(
    ("kw", "says"), [({"output": "yaml"}, "unknown output mode"), ({"as_v": "v0"}, "--as 'v0' is not supported")]
)
def test_bad_options_are_usage_errors_before_it_listens(kw, says):
    with pytest.raises(UsageError, match=says):
        run_listen(Invocation(), port=0, **kw)


def test_the_agent_is_looked_for_in_the_profile_and_config_file_given_before_the_command(tmp_path, monkeypatch):
    """Issue 43's review: `_agent_set` read the default files only, so `a2a --profile p --config F
    webhook listen` printed `-u AGENT_URL` although that profile names the agent."""
    from a2acli.flows.webhook import _agent_set

    monkeypatch.delenv("A2ACLI_URL", raising=False)
    local = tmp_path / "a2a.toml"
    local.write_text('[profiles.staging]\nurl = "http://127.0.0.1:41241"\n')
    assert _agent_set(Invocation({"profile": "staging", "config": str(local)})) is True
    assert _agent_set(Invocation({"config": str(local)})) is False  # the file's top level names none
