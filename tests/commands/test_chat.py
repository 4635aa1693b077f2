"""`a2a chat` against respx agents: one SendMessage per line, the context (and the task while it
waits for input) carried to the next turn, the terminal gate, and errors in and out of a terminal."""

from __future__ import annotations

import json

import httpx
import pytest

from a2a_testkit import AGENT, RPC, rpc_result, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
pytestmark = pytest.mark.spec("A2ACLI_CHAT_001")


def rpc_error(code: int, message: str) -> dict:
    return {"jsonrpc": "2.0", "id": 1, "error": {"code": code, "message": message}}


def task(tid: str, state: str, ctx: str = "c-1") -> dict:
    return {"task": {"id": tid, "contextId": ctx, "status": {"state": state}}}


@pytest.fixture
def agent(respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    return respx_mock


def sent(route) -> list[dict]:
    """The messages of every SendMessage the agent received, in order."""
    return [json.loads(call.request.content)["params"]["message"] for call in route.calls]


def answers(*results):
    return [httpx.Response(200, json=rpc_result(r)) for r in results]


def test_the_context_carries_over_and_new_starts_afresh(cli, agent):
    route = agent.post(RPC, json__method="SendMessage").mock(side_effect=answers(task("t-1", "TASK_STATE_COMPLETED"), task("t-2", "TASK_STATE_COMPLETED"), task("t-3", "TASK_STATE_COMPLETED", ctx="c-2")))
    result = cli("chat", "-u", AGENT, input="hello\nagain\n/new\nfresh\n")
    assert result.exit_code == 0, result.stderr
    first, second, third = sent(route)
    assert "contextId" not in first and "taskId" not in first  # never invented
    assert second["contextId"] == "c-1" and "taskId" not in second  # the task ended: only the context carries
    assert "contextId" not in third  # /new
    assert [t for t in ("t-1", "t-2", "t-3") if f"Task: {t}" in result.stdout] == ["t-1", "t-2", "t-3"]
    assert "you>" not in result.stderr  # not a terminal: no prompt


def test_a_task_waiting_for_input_is_answered_by_the_next_line(cli, agent):
    route = agent.post(RPC, json__method="SendMessage").mock(side_effect=answers(task("t-1", "TASK_STATE_INPUT_REQUIRED"), task("t-1", "TASK_STATE_COMPLETED"), task("t-2", "TASK_STATE_COMPLETED")))
    result = cli("chat", "-u", AGENT, input="book a table\nfor two\nthanks\n")
    assert result.exit_code == 0, result.stderr
    ask, reply, after = sent(route)
    assert reply["taskId"] == "t-1" and reply["contextId"] == "c-1"
    assert "taskId" not in after and after["contextId"] == "c-1"
    assert "task t-1 waits for you: your next line answers it" in result.stderr


def test_a_message_answer_carries_its_context(cli, agent):
    message = {"message": {"messageId": "m-1", "contextId": "c-9", "role": "ROLE_AGENT", "parts": [{"text": "hi there"}]}}
    route = agent.post(RPC, json__method="SendMessage").mock(side_effect=answers(message, message))
    result = cli("chat", "-u", AGENT, input="hi\nhi again\n")
    assert result.exit_code == 0, result.stderr
    assert sent(route)[1]["contextId"] == "c-9"
    assert "hi there" in result.stdout


def test_json_is_one_line_per_turn(cli, agent):
    agent.post(RPC, json__method="SendMessage").mock(side_effect=answers(task("t-1", "TASK_STATE_COMPLETED"), task("t-2", "TASK_STATE_COMPLETED")))
    result = cli("chat", "-u", AGENT, "-o", "json", input="a\nb\n")
    assert result.exit_code == 0, result.stderr
    assert [json.loads(line)["task"]["id"] for line in result.stdout.splitlines()] == ["t-1", "t-2"]


def test_an_unfinished_task_is_waited_for_before_the_next_turn(cli, agent, monkeypatch):
    monkeypatch.setattr("time.sleep", lambda s: None)
    agent.post(RPC, json__method="SendMessage").mock(side_effect=answers(task("t-1", "TASK_STATE_WORKING")))
    poll = agent.post(RPC, json__method="GetTask").mock(side_effect=answers(task("t-1", "TASK_STATE_COMPLETED")["task"]))
    result = cli("chat", "-u", AGENT, input="slow one\n")
    assert result.exit_code == 0, result.stderr
    assert poll.call_count == 1 and "State: completed" in result.stdout


def test_off_a_terminal_the_first_error_ends_the_session_with_its_exit_code(cli, agent):
    route = agent.post(RPC, json__method="SendMessage").mock(side_effect=[httpx.Response(200, json=rpc_error(-32001, "Task not found"))])
    result = cli("chat", "-u", AGENT, "--task-id", "nope", input="hello\nnever sent\n")
    assert result.exit_code == 1
    assert route.call_count == 1 and sent(route)[0]["taskId"] == "nope"
    assert "TaskNotFoundError" in result.stderr


def test_at_a_terminal_an_error_is_said_and_the_session_goes_on(cli, agent, monkeypatch):
    monkeypatch.setattr("a2acli.commands.chat._ttys", lambda: (True, True))
    route = agent.post(RPC, json__method="SendMessage").mock(side_effect=[httpx.Response(200, json=rpc_error(-32001, "Task not found")), *answers(task("t-1", "TASK_STATE_COMPLETED"))])
    result = cli("chat", "-u", AGENT, "--task-id", "nope", input="hello\nagain\n/quit\nnot sent\n")
    assert result.exit_code == 0, result.stderr
    assert route.call_count == 2 and "TaskNotFoundError" in result.stderr and "Task: t-1" in result.stdout
    assert result.stderr.count("you> ") == 3  # the prompt, on stderr, before each line read


def test_a_terminal_reading_into_a_pipe_is_refused_rather_than_left_waiting(cli, agent, monkeypatch):
    monkeypatch.setattr("a2acli.commands.chat._ttys", lambda: (True, False))
    route = agent.post(RPC)
    result = cli("chat", "-u", AGENT, "-o", "json")
    assert result.exit_code == 2 and not route.called
    assert json.loads(result.stdout)["error"]["code"] == "A2ACLI_ERR_USAGE"


def test_offline_prints_each_turns_request(cli, agent):
    result = cli("chat", "-u", AGENT, "--offline", input="one\ntwo\n")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.count("POST <JSONRPC URL") == 2 and '"one"' in result.stdout and '"two"' in result.stdout
