"""A2ACLI_TASK_CANCEL_001: a cancel the agent refuses (TaskNotCancelableError) reports the task's
resulting state, read with one GetTask after the refusal, and still exits 1."""

from __future__ import annotations

import json

import httpx
import pytest
from a2a_testkit import AGENT, RPC, rpc_result, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
DONE = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}
REFUSED = {"jsonrpc": "2.0", "id": 1, "error": {"code": -32002, "message": "Task cannot be canceled"}}


@pytest.fixture
def agent(respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    return respx_mock


def methods(agent) -> list[str]:
    return [json.loads(c.request.content)["method"] for c in agent.calls if c.request.method == "POST"]


@pytest.mark.spec("A2ACLI_TASK_CANCEL_001")
def test_a_refused_cancel_reports_the_state_in_text_and_exits_1(cli, agent):
    agent.post(RPC, json__method="CancelTask").respond(json=REFUSED)
    agent.post(RPC, json__method="GetTask").respond(json=rpc_result(DONE))
    result = cli("tasks", "cancel", "t-1", "-u", AGENT)
    assert result.exit_code == 1
    assert methods(agent) == ["CancelTask", "GetTask"]
    assert result.stdout == "Task: t-1\nContext: c-1\nState: completed\n\n"  # the record, closed by a blank line
    assert "TaskNotCancelableError: Task cannot be canceled: task t-1 is completed" in result.stderr


@pytest.mark.spec("A2ACLI_TASK_CANCEL_001", "A2ACLI_OUT_002")
def test_a_refused_cancel_under_json_is_one_error_document_naming_the_state(cli, agent):
    agent.post(RPC, json__method="CancelTask").respond(json=REFUSED)
    agent.post(RPC, json__method="GetTask").respond(json=rpc_result(DONE))
    result = cli("tasks", "cancel", "t-1", "-u", AGENT, "-o", "json")
    assert result.exit_code == 1
    err = json.loads(result.stdout)["error"]  # exactly one document
    assert err["code"] == "TaskNotCancelableError" and err["a2aCode"] == -32002
    assert err["message"].endswith(": task t-1 is completed")


def test_when_the_task_cannot_be_read_either_the_refusal_stands_alone(cli, agent):
    agent.post(RPC, json__method="CancelTask").respond(json=REFUSED)
    agent.post(RPC, json__method="GetTask").mock(return_value=httpx.Response(500, text="down"))
    result = cli("tasks", "cancel", "t-1", "-u", AGENT)
    assert result.exit_code == 1 and result.stdout == ""
    assert "Task cannot be canceled" in result.stderr and "HTTP 500" not in result.stderr


def test_another_refusal_reads_nothing_more(cli, agent):
    agent.post(RPC, json__method="CancelTask").respond(json={"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "Task not found"}})
    result = cli("tasks", "cancel", "t-1", "-u", AGENT)
    assert result.exit_code == 1 and methods(agent) == ["CancelTask"]
