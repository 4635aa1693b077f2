"""`a2a chat`'s flow (flows.chat) called directly with an Invocation and the lines to say, no CLI
runner and no terminal: each line one SendMessage, the context carried, slash commands handled
here, a credential read through the `secret` callable given."""

from __future__ import annotations

import io
import json

import httpx
import pytest
from a2a_testkit import AGENT, RPC, rpc_result, v1_card

from a2acli.errors import UsageError
from a2acli.flows import chat
from a2acli.flows.invocation import Environment, Invocation

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
KEY_CARD = {"key": {"apiKeySecurityScheme": {"location": "header", "name": "X-API-Key"}}}


def task(tid: str, state: str = "TASK_STATE_COMPLETED", ctx: str = "c-1") -> dict:
    return {"task": {"id": tid, "contextId": ctx, "status": {"state": state}}}


def answers(*results) -> list[httpx.Response]:
    return [httpx.Response(200, json=rpc_result(r)) for r in results]


def sent(route) -> list[dict]:
    return [json.loads(c.request.content)["params"]["message"] for c in route.calls]


@pytest.fixture
def agent(respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card(capabilities={"streaming": False}, securitySchemes=KEY_CARD))
    return respx_mock


def test_each_line_is_a_turn_and_the_context_carries_until_new(agent, capsys):
    route = agent.post(RPC).mock(side_effect=answers(task("t-1"), task("t-2"), task("t-3", ctx="c-2")))
    inv = Invocation({"url": AGENT, "output": "json"})
    chat.run_chat(inv, ["hello", "", "again", "/new", "fresh", "/quit", "never"])
    first, second, third = sent(route)
    assert first["parts"] == [{"text": "hello"}] and "contextId" not in first
    assert second["contextId"] == "c-1" and "contextId" not in third
    assert [json.loads(line)["task"]["id"] for line in capsys.readouterr().out.splitlines()] == ["t-1", "t-2", "t-3"]


def test_slash_lines_become_data_parts_and_a_double_slash_is_text(agent):
    route = agent.post(RPC).mock(side_effect=answers(task("t-1"), task("t-2")))
    chat.run_chat(Invocation({"url": AGENT, "output": "json"}), ["/skill make-user id=u1", "//not a command"])
    assert [m["parts"] for m in sent(route)] == [
        [{"data": {"skill": "make-user", "id": "u1"}}],
        [{"text": "/not a command"}],
    ]


def test_piped_a_bad_slash_command_ends_the_session_as_a_usage_error(agent):
    route = agent.post(RPC)
    with pytest.raises(UsageError, match="/data takes a JSON object"):
        chat.run_chat(Invocation({"url": AGENT, "output": "json"}), ["/data [1]", "hello"])
    assert not route.called


def test_an_auth_required_task_reads_the_credential_through_the_callable_for_one_turn(agent, capsys):
    ask = {"task": {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_AUTH_REQUIRED"}}}
    route = agent.post(RPC).mock(side_effect=answers(ask, task("t-1"), task("t-2")))
    prompts: list[str] = []
    inv = Invocation({"url": AGENT, "output": "json"})
    chat.run_chat(inv, ["hi", "here it is", "later"], secret=lambda p: prompts.append(p) or "k-123")
    keys = [c.request.headers.get("X-API-Key") for c in route.calls]
    assert keys == [None, "k-123", None] and len(prompts) == 1
    assert sent(route)[1]["taskId"] == "t-1"


def test_the_session_reads_stdin_off_a_terminal_and_refuses_a_terminal_into_a_pipe(agent, monkeypatch, capsys):
    route = agent.post(RPC).mock(side_effect=answers(task("t-1")))
    monkeypatch.setattr(chat, "_ttys", lambda: (False, False))
    chat.chat(Invocation({"url": AGENT, "output": "json"}, env=Environment(stdin=io.StringIO("from stdin\n"))))
    assert sent(route)[0]["parts"] == [{"text": "from stdin"}]
    monkeypatch.setattr(chat, "_ttys", lambda: (True, False))
    with pytest.raises(UsageError, match="answers go to a pipe"):
        chat.chat(Invocation({"url": AGENT, "output": "json"}))
    assert route.call_count == 1
