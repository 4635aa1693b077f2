"""Issue 27, internal errors of the second audit: each shape an agent (or a user) sent that ended
in `internal error: …` is now a clean error with its exit code, over respx (a server adds nothing
to these: the bytes are what matter)."""

from __future__ import annotations

import json

import pytest
from a2a_testkit import AGENT, RPC, rpc_result, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
TASK = {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_COMPLETED"}}
DEEP_EVENT = ("data: " + json.dumps(rpc_result({"task": {**TASK, "metadata": "X"}})).replace('"X"', "[" * 5000 + "]" * 5000) + "\n\n").encode()
V0_CARD = {"name": "x", "description": "d", "version": "1", "url": RPC, "protocolVersion": "0.3.0", "capabilities": {}, "defaultInputModes": [], "defaultOutputModes": [], "skills": []}


def _card_with_interface(**itf):
    card = v1_card()
    card["supportedInterfaces"] = [{"url": RPC, "protocolBinding": "JSONRPC", "protocolVersion": "1.0", **itf}]
    return card


CASES = {
    "deep stream event": (v1_card(), DEEP_EVENT, ["stream", "hi"], 1, "nested too deeply"),
    "deep subscribe event": (v1_card(), DEEP_EVENT, ["tasks", "subscribe", "t"], 1, "nested too deeply"),
    "deep subscribe event -o json": (v1_card(), DEEP_EVENT, ["tasks", "subscribe", "t", "-o", "json"], 1, "nested too deeply"),
    "interface url a number": (_card_with_interface(url=5), None, ["tasks", "get", "t"], 1, "interface URL is int, not a string"),
    "interface url a list": (_card_with_interface(url=["x"]), None, ["tasks", "get", "t"], 1, "not a string"),
    "interface binding a list": (_card_with_interface(protocolBinding=["JSONRPC"]), None, ["tasks", "get", "t"], 1, "offers no interface"),
    "interface url invalid IPv6": (_card_with_interface(url="http://[::1"), None, ["tasks", "get", "t"], 1, "Invalid IPv6 URL"),
    "interface url bad punycode": (_card_with_interface(url="http://xn--a.com/rpc"), None, ["tasks", "get", "t"], 1, "is not a valid URL"),
    "rpc error code a list": (v1_card(), {"jsonrpc": "2.0", "id": 1, "error": {"code": [1], "message": "m"}}, ["tasks", "get", "t"], 1, "error: [1]: m"),
    "rpc error code an object": (v1_card(), {"jsonrpc": "2.0", "id": 1, "error": {"code": {"a": 1}, "message": "m"}}, ["tasks", "get", "t"], 1, '{"a": 1}: m'),
    "0.3 preferredTransport [null]": ({**V0_CARD, "preferredTransport": [None]}, rpc_result({**TASK, "kind": "task", "status": {"state": "completed"}}), ["tasks", "get", "t", "--a2a-version", "0.3"], 0, ""),
    "0.3 url a list": ({**V0_CARD, "url": [RPC]}, None, ["tasks", "get", "t", "--a2a-version", "0.3"], 1, "not a string"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_no_internal_error(cli, respx_mock, name):
    card, answer, args, code, said = CASES[name]
    respx_mock.get(CARD_URL).respond(json=card)
    if isinstance(answer, bytes):
        respx_mock.post(RPC).respond(content=answer, headers={"content-type": "text/event-stream"})
    elif answer is not None:
        respx_mock.post(RPC).respond(json=answer)
    result = cli(*args, "-u", AGENT)
    assert "internal error" not in result.stderr + result.stdout, result.stderr
    assert result.exit_code == code, result.stderr
    assert said in result.stderr + result.stdout


def test_a_punycode_host_that_is_no_host_is_a_usage_error(cli):
    result = cli("tasks", "get", "t", "-u", "http://xn--a.com/")
    assert result.exit_code == 2 and "is not a valid internationalized host name" in result.stderr
