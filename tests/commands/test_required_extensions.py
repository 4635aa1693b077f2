"""A2ACLI_VER_002: an extension the Agent Card marks required (A2A §4.6) is named before the call
when --extension does not declare it (the agent may refuse), with the flag that does; the card
view lists the card's extensions and which are required."""

from __future__ import annotations

import json

import pytest
from a2a_testkit import AGENT, RPC, rpc_result, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
URI = "https://ext.test/trace/v1"
EXTS = [{"uri": URI, "required": True, "description": "traces"}, {"uri": "https://ext.test/opt", "required": False}]
DONE = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}


@pytest.fixture
def agent(respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card(capabilities={"streaming": True, "extensions": EXTS}))
    return respx_mock


@pytest.mark.spec("A2ACLI_VER_002")
def test_a_required_extension_not_declared_is_named_before_the_call(cli, agent):
    route = agent.post(RPC).respond(json=rpc_result({"task": DONE}))
    result = cli("send", "hi", "-u", AGENT, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert f"warning: the Agent Card requires the extension {URI}, which this call does not declare: the agent may refuse it; pass --extension {URI}" in result.stderr
    assert "ext.test/opt" not in result.stderr  # not required: nothing to say
    assert "A2A-Extensions" not in route.calls.last.request.headers


@pytest.mark.spec("A2ACLI_VER_002")
def test_declared_with_extension_it_is_sent_and_nothing_is_said(cli, agent):
    route = agent.post(RPC).respond(json=rpc_result({"task": DONE}))
    result = cli("send", "hi", "-u", AGENT, "--extension", URI, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert "requires the extension" not in result.stderr
    assert route.calls.last.request.headers["A2A-Extensions"] == URI


@pytest.mark.spec("A2ACLI_VER_002")
def test_the_card_view_lists_the_extensions_and_which_are_required(cli, agent):
    result = cli("card", "fetch", "-u", AGENT, "-o", "text")
    assert result.exit_code == 0, result.stderr
    assert f"Extension: {URI}\nExtension required: true\nExtension: https://ext.test/opt\nExtension required: false\n" in result.stdout
    assert json.loads(cli("card", "fetch", "-u", AGENT, "-o", "json").stdout)["capabilities"]["extensions"] == EXTS
