"""A value the dump redacted (a push token in a request body: a credential the dump does not hold)
is never sent as the placeholder: `a2a replay` leaves that request unsent and says so (exit 1), and
`a2a mock` takes any value there as the recorded one (playback.differences)."""

from __future__ import annotations

import json

import pytest
from a2a_testkit import AGENT, RPC, rpc_result, v1_card

from a2acli.recording.playback import differences, redacted_paths

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
CONFIG = {"taskId": "t-1", "id": "c-1", "url": "http://127.0.0.1:9000/hook", "token": "real-t0k"}


@pytest.fixture
def agent(respx_mock):
    card = v1_card()
    card["capabilities"] = {**card.get("capabilities", {}), "pushNotifications": True}
    respx_mock.get(CARD_URL).respond(json=card)
    return respx_mock


def test_replay_never_sends_the_redaction_placeholder_to_the_agent(cli, agent, tmp_path):
    created = agent.post(RPC).respond(json=rpc_result(CONFIG))
    recorded = cli("push-config", "create", "t-1", "--webhook-url", CONFIG["url"], "--push-token", "real-t0k",
                   "-u", AGENT, "--dump", str(tmp_path / "d"))  # fmt: skip
    assert recorded.exit_code == 0, recorded.stderr
    body = next((tmp_path / "d").glob("*-CreateTaskPushNotificationConfig.request.body")).read_text()
    assert "real-t0k" not in body and "<redacted>" in body  # the dump holds no credential
    sent_before = created.call_count
    replayed = cli("replay", str(tmp_path / "d"), "--to", AGENT)
    assert created.call_count == sent_before  # nothing sent: not the placeholder, not without the token
    assert replayed.exit_code == 1, replayed.stdout + replayed.stderr
    assert "not sent: params" in replayed.stdout + replayed.stderr and "token redacted in the dump" in replayed.stdout + replayed.stderr


def test_a_redacted_recorded_value_matches_whatever_is_given_there():
    recorded = {"taskId": "t-1", "url": "https://h/hook", "token": "<redacted>", "auth": "https://u:<redacted>@h/x"}
    given = {"taskId": "t-1", "url": "https://h/hook", "token": "t0k", "auth": "https://u:pw@h/x"}
    assert differences(recorded, given) == []
    assert [p for p, _, _ in differences(recorded, {**given, "url": "https://other/hook"})] == ["params.url"]
    assert [p for p, _, _ in differences(recorded, {**given, "auth": "https://v:pw@h/x"})] == ["params.auth"]
    assert redacted_paths({"a": [{"token": "<redacted>"}], "b": "x"}) == ["params.a[0].token"]


def test_the_dump_of_the_create_names_the_redacted_field_in_its_body(cli, agent, tmp_path):
    agent.post(RPC).respond(json=rpc_result(CONFIG))
    cli("push-config", "create", "t-1", "--webhook-url", CONFIG["url"], "--push-token", "real-t0k", "-u", AGENT, "--dump", str(tmp_path / "d"))
    body = json.loads(next((tmp_path / "d").glob("*-CreateTaskPushNotificationConfig.request.body")).read_text())
    assert redacted_paths(body["params"]) and all(p.endswith("token") for p in redacted_paths(body["params"]))


def test_replay_takes_the_agent_from_a2acli_url_when_to_is_not_given(cli, agent, tmp_path):
    """Issue 46: `--to` was required even with A2ACLI_URL (or -u, a profile) naming the agent."""
    task = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}
    route = agent.post(RPC).respond(json=rpc_result(task))
    assert cli("tasks", "get", "t-1", "-u", AGENT, "--dump", str(tmp_path / "d")).exit_code == 0
    replayed = cli("replay", str(tmp_path / "d"), env={"A2ACLI_URL": AGENT})
    assert replayed.exit_code == 0, replayed.stderr
    assert route.call_count == 2 and "same: the answers agree" in replayed.stderr.splitlines()[-1]
    by_flag = cli("replay", str(tmp_path / "d"), "-u", AGENT)
    assert by_flag.exit_code == 0 and route.call_count == 3


def test_replay_without_any_agent_says_how_to_name_one(cli, tmp_path):
    result = cli("replay", str(tmp_path))
    assert result.exit_code == 2
    assert "error: replay needs the agent to replay against" in result.stderr
    assert "hint: pass --to URL (or -u URL, A2ACLI_URL, a profile's url)" in result.stderr
