"""Errors name the A2A error, show error.data in both forms and the X-Request-ID; tracebacks only
with --debug; idempotent retries (one key for every attempt, backoff, Retry-After, 409)."""

from __future__ import annotations

import json

import httpx
import pytest
from a2a_testkit import AGENT, RPC, rpc_result, sse, v1_card

from a2acli.wire.translate import A2A_ERRORS

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
V1_TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}
ERROR_INFO = [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "TASK_NOT_FOUND", "domain": "a2a-protocol.org", "metadata": {"taskId": "t-9"}}]


@pytest.fixture
def agent(respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    return respx_mock


def rpc_error(code: int, message: str, data=None, request_id="1") -> dict:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message} | ({"data": data} if data is not None else {})}


# -- errors -----------------------------------------------------------------------------------------


def test_v1_error_with_errorinfo_details(cli, agent):
    agent.post(RPC).respond(json=rpc_error(-32001, "Task not found", ERROR_INFO), headers={"X-Request-ID": "rq-v1"})
    result = cli("tasks", "get", "t-9", "-u", AGENT)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-3:] == [  # (issue 46: the ErrorInfo restates the error: --debug shows it)
        "error: TaskNotFoundError: Task not found",
        "hint: check the task id (`a2a tasks list` shows recent ones)",
        "X-Request-ID: rq-v1",
    ]
    assert "data:" not in result.stderr
    debug = cli("tasks", "get", "t-9", "-u", AGENT, "--debug")
    assert f"  data: {json.dumps(ERROR_INFO)}" in debug.stderr
    err = json.loads(cli("tasks", "get", "t-9", "-u", AGENT, "-o", "json").stdout)["error"]
    assert err == {"code": "TaskNotFoundError", "message": "TaskNotFoundError: Task not found", "hint": "check the task id (`a2a tasks list` shows recent ones)",
                   "a2aCode": -32001, "data": ERROR_INFO, "requestId": "rq-v1"}


def test_v0_error_with_free_form_data(cli, agent):
    agent.post(RPC).respond(json=rpc_error(-32002, "Task cannot be canceled", {"state": "completed", "since": 3}), headers={"X-Request-ID": "rq-v0"})
    result = cli("tasks", "cancel", "t-1", "-u", AGENT, "--a2a-version", "0.3")
    assert result.exit_code == 1
    assert "error: TaskNotCancelableError: Task cannot be canceled" in result.stderr
    assert '  data: {"state": "completed", "since": 3}' in result.stderr and "X-Request-ID: rq-v0" in result.stderr
    err = json.loads(cli("tasks", "cancel", "t-1", "-u", AGENT, "--a2a-version", "0.3", "-o", "json").stdout)["error"]
    assert err["data"] == {"state": "completed", "since": 3} and err["a2aCode"] == -32002 and err["requestId"] == "rq-v0"


@pytest.mark.parametrize("code", sorted(c for c in A2A_ERRORS if -32009 <= c <= -32001))
def test_every_a2a_error_is_named(cli, agent, code):
    agent.post(RPC).respond(json=rpc_error(code, "nope"))
    result = cli("tasks", "get", "t-1", "-u", AGENT)
    assert result.exit_code == 1
    assert f"error: {A2A_ERRORS[code][0]}: nope" in result.stderr and "hint:" in result.stderr


def test_version_not_supported_says_what_to_try(cli, agent):
    agent.post(RPC).respond(json=rpc_error(-32009, "Version 1.0 not supported"))
    result = cli("tasks", "get", "t-1", "-u", AGENT)
    assert "VersionNotSupportedError" in result.stderr and "--a2a-version 0.3" in result.stderr


def test_error_in_a_non_2xx_answer_and_in_a_stream_is_named_too(cli, agent):
    agent.post(RPC, json__method="GetTask").respond(400, json=rpc_error(-32602, "Invalid params", [{"@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": [{"field": "id"}]}]), headers={"X-Request-ID": "rq-400"})
    bad = cli("tasks", "get", "t-1", "-u", AGENT)
    assert bad.exit_code == 1 and "InvalidParamsError: Invalid params" in bad.stderr and "fieldViolations" in bad.stderr and "X-Request-ID: rq-400" in bad.stderr
    body = sse(error={"code": -32603, "message": "Internal error", "data": {"where": "db"}})  # before any event (mid-stream, the task is polled)
    agent.post(RPC, json__method="SendStreamingMessage").respond(content=body, headers={"Content-Type": "text/event-stream", "X-Request-ID": "rq-sse"})
    streamed = cli("stream", "hi", "-u", AGENT)
    assert streamed.exit_code == 1
    assert "InternalError: Internal error" in streamed.stderr and '"where": "db"' in streamed.stderr and "X-Request-ID: rq-sse" in streamed.stderr


def test_traceback_only_with_debug(cli, agent):
    agent.post(RPC).mock(side_effect=RuntimeError("boom"))
    plain = cli("tasks", "get", "t-1", "-u", AGENT)
    assert plain.exit_code == 1
    assert "internal error: RuntimeError: boom" in plain.stderr and "--debug" in plain.stderr
    assert "Traceback" not in plain.stderr + plain.stdout
    debug = cli("tasks", "get", "t-1", "-u", AGENT, "--debug")
    assert isinstance(debug.exception, RuntimeError)  # re-raised: Python prints the traceback
    agent.post(RPC).respond(json=rpc_error(-32001, "Task not found"))
    known = cli("tasks", "get", "t-1", "-u", AGENT)
    assert "Traceback" not in known.stderr
    traced = cli("tasks", "get", "t-1", "-u", AGENT, "--debug")
    assert traced.exit_code == 1 and "Traceback (most recent call last)" in traced.stderr and "RpcError" in traced.stderr


@pytest.mark.parametrize("command", [["tasks", "get", "t-1"], ["send", "hi"]])
@pytest.mark.parametrize("where", ["message", "data", "http"])
def test_debug_escapes_the_agents_error_text(cli, agent, command, where):
    """Issue 35: --debug printed an agent's error text raw (ESC, BEL: a terminal's title or
    clipboard rewritten); it is escaped as every other view escapes it."""
    hostile = "boom \x1b]0;pwned\x07 \x1b[2J \x9b done"
    if where == "http":
        agent.post(RPC).respond(500, text=hostile)
    else:
        agent.post(RPC).respond(json=rpc_error(-32603, hostile if where == "message" else "m", data=hostile if where == "data" else None))
    result = cli(*command, "-u", AGENT, "--debug")
    assert result.exit_code == 1, result.stderr
    for raw in ("\x1b", "\x07", "\x9b"):
        assert raw not in result.stderr + result.stdout
    assert "pwned" in result.stderr  # shown, escaped (or JSON-escaped in a body)


# -- retries ----------------------------------------------------------------------------------------


@pytest.fixture
def sleeps(monkeypatch):
    slept: list[float] = []
    monkeypatch.setattr("time.sleep", slept.append)
    return slept


def test_a_retry_is_never_a_second_task(cli, agent, sleeps):
    """409 (the first attempt is still running), 503 and a broken connection are retried with the
    same idempotency key and the same bytes: the agent can tell it is one request."""
    route = agent.post(RPC).mock(side_effect=[
        httpx.Response(503), httpx.Response(409), httpx.RemoteProtocolError("peer closed"),
        httpx.Response(200, json=rpc_result({"task": V1_TASK})),
    ])
    result = cli("send", "hi", "-u", AGENT, "--retry", "3", "--idempotency-key", "k-1")
    assert result.exit_code == 0, result.stderr
    assert route.call_count == 4
    assert {c.request.headers["Idempotency-Key"] for c in route.calls} == {"k-1"}
    assert len({c.request.content for c in route.calls}) == 1  # same JSON-RPC id, same messageId
    assert sleeps == [0.5, 1.0, 2.0]
    assert "retry 1/3 in 0.5s (same Idempotency-Key: k-1): HTTP 503 Service Unavailable" in result.stderr
    assert "retry 2/3 in 1s (same Idempotency-Key: k-1): HTTP 409 Conflict" in result.stderr
    assert "retry 3/3 in 2s" in result.stderr and "broke" in result.stderr


def test_retry_generates_one_key_and_honours_retry_after(cli, agent, sleeps):
    route = agent.post(RPC).mock(side_effect=[httpx.Response(429, headers={"Retry-After": "7"}), httpx.Response(200, json=rpc_result({"task": V1_TASK}))])
    result = cli("send", "hi", "-u", AGENT, "--retry", "1", "--dialect", "clix")
    assert result.exit_code == 0, result.stderr
    keys = [c.request.headers["X-Clix-Idempotency-Key"] for c in route.calls]
    assert len(keys) == 2 and keys[0] == keys[1] and len(keys[0]) == 36
    assert sleeps == [7.0]


def test_a_retry_wait_longer_than_the_time_left_ends_the_call(cli, agent, sleeps):
    route = agent.post(RPC).mock(side_effect=[httpx.Response(503, headers={"Retry-After": "10"}), httpx.Response(200, json=rpc_result({"task": V1_TASK}))])
    result = cli("send", "hi", "-u", AGENT, "--retry", "2", "--timeout", "3")
    assert result.exit_code == 5
    assert route.call_count == 1 and sleeps == []
    assert "would expire during the 10s wait before retry 1/2" in result.stderr


def test_409_after_the_last_retry_is_explained(cli, agent, sleeps):
    route = agent.post(RPC).respond(409, headers={"X-Request-ID": "rq-409"})
    result = cli("send", "hi", "-u", AGENT, "--retry", "2", "--idempotency-key", "k-2")
    assert result.exit_code == 1
    assert route.call_count == 3 and sleeps == [0.5, 1.0]
    assert "still running, or the key was used with a different body" in result.stderr
    assert "X-Request-ID: rq-409" in result.stderr


def test_no_retry_without_retry_and_never_for_an_answer(cli, agent, sleeps):
    route = agent.post(RPC).respond(json=rpc_error(-32603, "Internal error"))
    result = cli("send", "hi", "-u", AGENT, "--retry", "3")
    assert result.exit_code == 1 and route.call_count == 1 and sleeps == []  # the agent answered: not a transport fault
    route.reset()
    route.respond(503)
    once = cli("send", "hi", "-u", AGENT)
    assert once.exit_code == 1 and route.call_count == 1 and "Idempotency-Key" not in route.calls.last.request.headers
    assert sleeps == []


def test_retry_with_stream_is_said_to_do_nothing(cli, agent):
    agent.post(RPC).respond(content=sse({"task": V1_TASK}), headers={"Content-Type": "text/event-stream"})
    result = cli("send", "hi", "-u", AGENT, "--stream", "--retry", "2")
    assert result.exit_code == 0
    assert "--retry applies to `send` without --stream" in result.stderr
