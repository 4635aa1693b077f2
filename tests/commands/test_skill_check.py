"""Issue 46: `--skill` against the Agent Card. A skill the card does not list is said on stderr with
the closest ids (sent anyway), and refused before sending under --strict (exit 2); so is a part the
skill's own input modes do not take. A card with no skills, and --offline, check nothing."""

from __future__ import annotations

import json

import pytest
from a2a_testkit import AGENT, RPC, rpc_result, sse, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
SKILLS = [
    {"id": "create-user", "name": "Create user", "description": "d", "tags": []},
    {"id": "echo", "name": "Echo", "description": "d", "tags": [], "inputModes": ["text/plain"]},
    {"id": "anything", "name": "Any", "description": "d", "tags": [], "inputModes": ["text/*", "application/json"]},
]
DONE = {"task": {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}}


@pytest.fixture
def agent(respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card(skills=SKILLS))
    return respx_mock.post(RPC).respond(json=rpc_result(DONE))


def test_an_unknown_skill_is_warned_of_with_the_closest_ids_and_sent(cli, agent):
    result = cli("send", "--skill", "creat-user", "-u", AGENT)
    assert result.exit_code == 0, result.stderr
    assert agent.call_count == 1
    assert (
        "warning: the Agent Card lists no skill 'creat-user' (did you mean create-user?); sent anyway" in result.stderr
    )
    assert "--strict refuses such a send" in result.stderr


@pytest.mark.parametrize("command", ["send", "stream"])
def test_under_strict_an_unknown_skill_is_a_usage_error_before_sending(cli, agent, command):
    result = cli(command, "--skill", "creat-user", "--strict", "-u", AGENT)
    assert result.exit_code == 2, result.stderr
    assert agent.call_count == 0
    assert "error: the Agent Card lists no skill 'creat-user' (did you mean create-user?)" in result.stderr
    assert "hint: its skills: create-user, echo, anything" in result.stderr


def test_under_strict_and_o_json_the_error_is_the_envelope(cli, agent):
    result = cli("send", "--skill", "nope", "--strict", "-u", AGENT, "-o", "json")
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "A2ACLI_ERR_USAGE" and error["message"] == "the Agent Card lists no skill 'nope'"


def test_a_listed_skill_is_sent_without_a_word(cli, agent):
    result = cli("send", "--skill", "create-user", "-f", "projectUserId=u1", "-u", AGENT)
    assert result.exit_code == 0 and agent.call_count == 1
    assert "skill" not in result.stderr


def test_the_skills_own_input_modes_are_checked(cli, agent):
    result = cli("send", "hi", "--skill", "echo", "-u", AGENT)
    assert result.exit_code == 0 and agent.call_count == 1
    assert "skill 'echo' takes text/plain (its inputModes on the card), not application/json" in result.stderr
    refused = cli("send", "hi", "--skill", "echo", "--strict", "-u", AGENT)
    assert refused.exit_code == 2 and agent.call_count == 1
    taken = cli("send", "hi", "--skill", "anything", "--strict", "-u", AGENT)
    assert taken.exit_code == 0 and "skill" not in taken.stderr


def test_a_card_without_skills_and_offline_check_nothing(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card(skills=[]))
    route = respx_mock.post(RPC).respond(json=rpc_result(DONE))
    result = cli("send", "--skill", "whatever", "--strict", "-u", AGENT)
    assert result.exit_code == 0 and route.call_count == 1 and "skill" not in result.stderr
    offline = cli("send", "--skill", "whatever", "--strict", "--offline", "--rpc-url", RPC)
    assert offline.exit_code == 0, offline.stderr


def test_a_streamed_send_is_checked_too(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card(skills=SKILLS))
    route = respx_mock.post(RPC).respond(content=sse(DONE), headers={"Content-Type": "text/event-stream"})
    result = cli("stream", "--skill", "creat-user", "-u", AGENT)
    assert result.exit_code == 0, result.stderr
    assert route.call_count == 1 and "did you mean create-user?" in result.stderr
