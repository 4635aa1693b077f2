"""`a2a mock` and `a2a replay`'s flows (flows.recorded) called directly with an Invocation, no CLI
runner: a dump recorded by a unary flow under --dump, served by the mock on a real port and asked
while it serves, then replayed against an agent that answers the same, and one that does not."""

from __future__ import annotations

import json

import httpx
import pytest
import respx
from a2a_testkit import AGENT, RPC, rpc_result, v1_card

from a2acli.errors import UsageError
from a2acli.flows import recorded, runs
from a2acli.flows.invocation import Invocation

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}


def agent(state: str = "TASK_STATE_COMPLETED") -> respx.MockRouter:
    router = respx.mock(assert_all_called=False)
    router.get(CARD_URL).respond(json=v1_card())
    router.post(RPC).respond(json=rpc_result({**TASK, "status": {"state": state}}))
    return router


@pytest.fixture
def dump(tmp_path):
    path = tmp_path / "rec"
    with agent():
        assert (
            runs.run_unary(Invocation({"url": AGENT, "output": "json", "dump": str(path)}), "GetTask", {"id": "t-1"})
            == 0
        )
    return path


def test_the_mock_serves_the_recorded_answer_while_it_waits(dump, capsys):
    answered: list[dict] = []

    def ask(seconds: float | None) -> None:  # while it serves: the URL is on stdout already
        url = json.loads(capsys.readouterr().out)["url"]
        body = {"jsonrpc": "2.0", "id": 7, "method": "GetTask", "params": {"id": "t-1"}}
        answered.append(httpx.post(url + "/", json=body, headers={"A2A-Version": "1.0"}).json())
        assert seconds == 0.0  # --timeout 0: stop at once

    assert recorded.run_mock(Invocation({"output": "json"}), [str(dump)], duration="0", wait=ask) == 0
    assert answered[0]["id"] == 7 and answered[0]["result"]["status"]["state"] == "TASK_STATE_COMPLETED"


def test_a_ctrl_c_stops_the_mock_with_exit_130(dump, capsys):
    def interrupted(seconds: float | None) -> None:
        raise KeyboardInterrupt

    assert recorded.run_mock(Invocation({"output": "json"}), [str(dump)], wait=interrupted) == 130
    assert "interrupted: the mock stopped" in capsys.readouterr().err


def test_replay_against_an_agent_answering_the_same_is_0_and_one_that_differs_1(dump, tmp_path, capsys):
    with agent():
        inv = Invocation({"output": "json"})
        assert recorded.run_replay(inv, str(dump), to=AGENT, save=str(tmp_path / "again")) == 0
    assert inv.verdict == 0 and json.loads(capsys.readouterr().out)["answersEqual"] is True
    assert (tmp_path / "again").is_dir()
    with agent("TASK_STATE_FAILED"):
        inv = Invocation({"output": "json"})
        assert recorded.run_replay(inv, str(dump), to=AGENT) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["answersEqual"] is False and inv.verdict == 1


def test_replay_without_an_agent_is_a_usage_error(dump, monkeypatch):
    monkeypatch.delenv("A2ACLI_URL", raising=False)
    with pytest.raises(UsageError, match="replay needs the agent"):
        recorded.run_replay(Invocation({"output": "json"}), str(dump))


def test_replay_loads_the_http_stack_before_it_sends(dump, tmp_path, monkeypatch, capsys):
    """`a2a replay` sends every recorded request again: httpx and httpcore are loaded from the
    flow's first frames (transport.load, as flows.runs.session does), not 90 frames deep inside its
    first request (a frame-stack chunk mapped and unmapped 284 times a replay, now 21)."""
    from a2acli import transport

    loads: list[int] = []
    monkeypatch.setattr(transport, "load", lambda: loads.append(1))
    with agent():
        assert recorded.run_replay(Invocation({"output": "json"}), str(dump), to=AGENT, save=str(tmp_path / "again")) == 0
    assert loads == [1]
    assert json.loads(capsys.readouterr().out)["answersEqual"] is True
