"""Issue 10, against respx agents shaped like the real ones (the integration tests start the real
servers): old cards, --a2a-version auto, the card fetch note, hints derived from the card and the
answer, answers that are neither V1 nor V0, and the smaller items (-o raw on failure, refused
runs in the dump)."""

from __future__ import annotations

import json

import httpx
import pytest
from a2a_testkit import AGENT, RPC, rpc_result, v1_card

CARD = f"{AGENT}/.well-known/agent-card.json"
OLD_CARD = f"{AGENT}/.well-known/agent.json"


def v0_card(version: str = "0.3.0", **extra) -> dict:
    return {"name": "old", "description": "d", "version": "1", "protocolVersion": version, "url": RPC, "preferredTransport": "JSONRPC",
            "capabilities": {}, "defaultInputModes": [], "defaultOutputModes": [], "skills": [], **extra}


V0_TASK = {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "completed"}}
V1_TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}


def method(route, n: int = -1) -> str:
    return json.loads(route.calls[n].request.content)["method"]


# -- cards of older agents ------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["0.2.6", "0.1.0"])
def test_a_card_from_before_0_3_is_read_as_v0_with_one_note(cli, respx_mock, version):
    """a2a-sdk 0.2.x: card only at agent.json, protocolVersion 0.2.x, no additionalInterfaces."""
    respx_mock.get(CARD).respond(404)
    respx_mock.get(OLD_CARD).respond(json=v0_card(version))
    rpc = respx_mock.post(RPC).respond(json=rpc_result(V0_TASK))
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--a2a-version", "0.3")
    assert result.exit_code == 0, result.stderr
    assert method(rpc) == "tasks/get"
    assert result.stderr.count(f"protocolVersion {version} (before 0.3): read as 0.3") == 1
    under_v1 = cli("tasks", "get", "t-1", "-u", AGENT)
    assert under_v1.exit_code == 1 and "pass --a2a-version 0.3" in under_v1.stderr


def test_additional_interfaces_take_the_cards_version_and_are_not_listed_twice(cli, respx_mock):
    card = v0_card(additionalInterfaces=[{"url": RPC, "transport": "JSONRPC"}])
    respx_mock.get(CARD).respond(json=card)
    result = cli("card", "fetch", "-u", AGENT, "-o", "json", "--as", "v1")
    assert json.loads(result.stdout)["supportedInterfaces"] == [{"url": RPC, "protocolBinding": "JSONRPC", "protocolVersion": "0.3.0"}]
    refused = cli("tasks", "get", "t-1", "-u", AGENT)
    assert "it offers: JSONRPC 0.3.0" in refused.stderr and "0.3, 0.3.0" not in refused.stderr


def test_a_card_from_the_host_root_is_named_when_the_url_has_a_path(cli, respx_mock):
    respx_mock.get(f"{AGENT}/agents/billing").respond(405)  # the URL as-is first: not a card
    respx_mock.get(f"{AGENT}/agents/billing/.well-known/agent-card.json").respond(404)
    respx_mock.get(f"{AGENT}/agents/billing/.well-known/agent.json").respond(404)
    respx_mock.get(CARD).respond(json=v1_card(name="Support agent"))
    respx_mock.post(RPC).respond(json=rpc_result(V1_TASK))
    result = cli("tasks", "get", "t-1", "-u", f"{AGENT}/agents/billing")
    assert result.exit_code == 0, result.stderr
    assert f"no Agent Card under {AGENT}/agents/billing (HTTP 404): using the host's card at {CARD} ('Support agent')" in result.stderr


def test_a_card_found_under_the_path_says_nothing(cli, respx_mock):
    respx_mock.get(f"{AGENT}/agents/billing").respond(404)
    respx_mock.get(f"{AGENT}/agents/billing/.well-known/agent-card.json").respond(json=v1_card())
    respx_mock.post(RPC).respond(json=rpc_result(V1_TASK))
    result = cli("tasks", "get", "t-1", "-u", f"{AGENT}/agents/billing")
    assert result.exit_code == 0 and "Agent Card" not in result.stderr


# -- choosing the version -------------------------------------------------------------------------


@pytest.mark.parametrize(("card", "chosen", "wire_method"), [
    (v1_card(), "1.0", "GetTask"),
    (v0_card(), "0.3", "tasks/get"),
])
def test_auto_uses_1_0_when_offered_else_0_3_and_says_so(cli, respx_mock, tmp_path, card, chosen, wire_method):
    respx_mock.get(CARD).respond(json=card)
    rpc = respx_mock.post(RPC).respond(json=rpc_result(V1_TASK if chosen == "1.0" else V0_TASK))
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--a2a-version", "auto", "--dump", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert f"--a2a-version auto: using {chosen}" in result.stderr
    assert method(rpc) == wire_method and rpc.calls[-1].request.headers["A2A-Version"] == chosen
    entries = [json.loads(line) for line in (tmp_path / "index.jsonl").read_text().splitlines()]
    call = next(e for e in entries if e["method"] == wire_method)
    assert call["version"] == chosen and call["versionChoice"].startswith("--a2a-version auto: using")


def test_auto_from_the_environment_and_refused_with_endpoint_alone(cli, respx_mock):
    respx_mock.get(CARD).respond(json=v0_card())
    respx_mock.post(RPC).respond(json=rpc_result(V0_TASK))
    result = cli("tasks", "get", "t-1", "-u", AGENT, env={"A2ACLI_A2A_VERSION": "auto"})
    assert result.exit_code == 0 and "--a2a-version auto: using 0.3" in result.stderr
    refused = cli("tasks", "get", "t-1", "--endpoint", RPC, "--a2a-version", "auto")
    assert refused.exit_code == 2 and "--endpoint skips it" in refused.stderr


def test_auto_is_never_silent_offline(cli):
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--a2a-version", "auto", "--offline")
    assert result.exit_code == 0 and "--a2a-version auto: the version comes from the Agent Card, which --offline does not read: showing 1.0" in result.stderr


def test_auto_in_a_profile_is_a_valid_value():
    from a2acli import settings

    assert settings.check_value("a2a-version", "AUTO") == "auto"


def test_card_fetch_notes_a_version_the_card_does_not_offer(cli, respx_mock):
    respx_mock.get(CARD).respond(json=v0_card())
    result = cli("card", "fetch", "-u", AGENT)
    assert result.exit_code == 0
    assert "offers no interface for A2A 1.0 (it offers 0.3.0): calls need --a2a-version 0.3, e.g. a2a send -u http://agent.test --a2a-version 0.3 hello" in result.stderr
    assert "offers no interface" not in cli("card", "fetch", "-u", AGENT, "--a2a-version", "0.3").stderr


# -- hints that lead somewhere --------------------------------------------------------------------


def test_v0_tasks_list_on_a_0_3_only_agent_does_not_suggest_1_0(cli, respx_mock):
    respx_mock.get(CARD).respond(json=v0_card())
    result = cli("tasks", "list", "-u", AGENT, "--a2a-version", "0.3")
    assert result.exit_code == 2
    assert "--a2a-version 1.0" not in result.stderr
    assert "offers only 0.3" in result.stderr and "--force sends the extension tasks/list (limit/offset) anyway" in result.stderr


def test_v0_tasks_list_on_an_agent_whose_card_varies_by_version_does_not_claim_0_3_only(cli, respx_mock):
    # asked with A2A-Version: 0.3, an agent serving both versions answers with its 0.3 card
    respx_mock.get(CARD).respond(json=v0_card(), headers={"Vary": "A2A-Version"})
    result = cli("tasks", "list", "-u", AGENT, "--a2a-version", "0.3")
    assert result.exit_code == 2
    assert "offers only 0.3" not in result.stderr and "use --a2a-version 1.0 if the agent offers it" in result.stderr


def test_v0_tasks_list_on_an_agent_offering_1_0_suggests_it(cli, respx_mock):
    respx_mock.get(CARD).respond(json={**v1_card(), "supportedInterfaces": [*v1_card()["supportedInterfaces"], {"url": RPC, "protocolBinding": "JSONRPC", "protocolVersion": "0.3"}]})
    result = cli("tasks", "list", "-u", AGENT, "--a2a-version", "0.3")
    assert "use --a2a-version 1.0 (the card offers it)" in result.stderr


def test_task_not_found_under_0_3_does_not_suggest_tasks_list(cli, respx_mock):
    respx_mock.post(RPC).respond(json={"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "Task not found"}})
    v0 = cli("tasks", "get", "nope", "--endpoint", RPC, "--a2a-version", "0.3")
    assert "TaskNotFoundError" in v0.stderr and "tasks list" not in v0.stderr
    assert "a2a tasks list" in cli("tasks", "get", "nope", "--endpoint", RPC).stderr


@pytest.mark.parametrize(("version", "other"), [("1.0", "0.3"), ("0.3", "1.0")])
def test_method_not_found_names_the_other_version(cli, respx_mock, version, other):
    respx_mock.post(RPC).respond(json={"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}})
    result = cli("tasks", "get", "t", "--rpc-url", RPC, "--a2a-version", version)
    assert f"pass --a2a-version {other}" in result.stderr


def test_a_5xx_that_is_no_json_rpc_answer_asks_whether_the_url_is_the_endpoint(cli, respx_mock):
    respx_mock.post(RPC).respond(500, text="Internal Server Error")
    result = cli("tasks", "get", "t", "--endpoint", RPC)
    assert result.exit_code == 1
    assert "(not a JSON-RPC answer)" in result.stderr and f"is {RPC} the agent's JSON-RPC endpoint" in result.stderr
    assert "retry later" not in result.stderr


def test_a_5xx_from_an_endpoint_that_answered_another_method_in_this_run_blames_the_method(cli, respx_mock, no_sleep):
    """Issue 24 item 9: the endpoint served SendMessage, then fails GetTask with a bare 500: the
    agent lacks the method; the URL is not in doubt."""
    working = {"task": {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}}}
    respx_mock.post(RPC, json__method="SendMessage").respond(json=rpc_result(working))
    respx_mock.post(RPC).respond(500, text="Internal Server Error")  # SubscribeToTask, then GetTask
    result = cli("send", "hi", "--endpoint", RPC)
    assert result.exit_code == 1
    assert f"hint: {RPC} answered SendMessage in this run: the agent probably does not implement GetTask" in result.stderr, result.stderr
    assert "the agent's JSON-RPC endpoint" not in result.stderr


def test_subscribe_refused_with_invalid_params_terminal_state_shows_the_finished_task(cli, respx_mock):
    """a2a-sdk 0.3 answers tasks/resubscribe of a finished task -32602 "... terminal state"."""
    respx_mock.post(RPC, json__method="tasks/resubscribe").respond(
        headers={"Content-Type": "text/event-stream"},
        content=b'data: {"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Task t-1 is in terminal state: completed"}}\n\n')
    respx_mock.post(RPC, json__method="tasks/get").respond(json=rpc_result(V0_TASK))
    result = cli("tasks", "subscribe", "t-1", "--endpoint", RPC, "--a2a-version", "0.3")
    assert result.exit_code == 0, result.stderr
    assert "task t-1 is already finished (completed)" in result.stderr


def test_push_config_get_answered_with_another_id_is_warned_and_delete_said_plainly(cli, respx_mock):
    other = {"taskId": "t-1", "pushNotificationConfig": {"id": "t-1", "url": "http://hook"}}
    respx_mock.post(RPC, json__method="tasks/pushNotificationConfig/get").respond(json=rpc_result(other))
    respx_mock.post(RPC, json__method="tasks/pushNotificationConfig/delete").respond(json=rpc_result(None))
    got = cli("push-config", "get", "t-1", "cfg-9", "--endpoint", RPC, "--a2a-version", "0.3")
    assert "asked for push config 'cfg-9', the agent answered config 't-1'" in got.stderr
    deleted = cli("push-config", "delete", "t-1", "unknown", "--endpoint", RPC, "--a2a-version", "0.3")
    assert deleted.exit_code == 0 and "agents report this for an id they do not know as well" in deleted.stderr


# -- answers that are neither V1 nor V0 -----------------------------------------------------------


def test_a_v1_shaped_answer_under_0_3_is_warned_once_and_recorded(cli, respx_mock, tmp_path):
    """fasta2a: a {"task": …} wrapper without `kind`, lowercase enums, to a 0.3 message/send."""
    fasta2a = {"task": {"id": "t-1", "contextId": "c-1", "status": {"state": "completed"}}}
    respx_mock.post(RPC).respond(json=rpc_result(fasta2a))
    result = cli("send", "hi", "--endpoint", RPC, "--a2a-version", "0.3", "--dump", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert result.stderr.count("answer is V1-shaped under 0.3") == 1
    assert "lowercase enum values: this agent speaks the clix dialect" in result.stderr
    shapes = [json.loads(line)["shape"] for line in (tmp_path / "index.jsonl").read_text().splitlines() if "shape" in json.loads(line)]
    assert any("V1-shaped under 0.3" in s for s in shapes)


def test_a_task_without_context_id_is_named(cli, respx_mock):
    """python-a2a: tasks without contextId, parts typed with `type`."""
    task = {"id": "t-1", "status": {"state": "completed"}, "artifacts": [{"parts": [{"type": "text", "text": "hi"}]}]}
    respx_mock.post(RPC).respond(json=rpc_result(task))
    result = cli("tasks", "get", "t-1", "--endpoint", RPC, "--a2a-version", "0.3")
    assert "task t-1 has no contextId" in result.stderr and "parts carry `type`" in result.stderr


def test_answers_of_their_own_version_raise_no_warning(cli, respx_mock):
    respx_mock.post(RPC).respond(json=rpc_result(V0_TASK))
    v0 = cli("tasks", "get", "t-1", "--endpoint", RPC, "--a2a-version", "0.3", "-o", "json")
    assert v0.exit_code == 0 and json.loads(v0.stdout)["id"] == V0_TASK["id"], v0.stderr
    assert "shaped" not in v0.stderr
    respx_mock.post(RPC).respond(json=rpc_result(V1_TASK))
    v1 = cli("tasks", "get", "t-1", "--endpoint", RPC, "-o", "json")
    assert v1.exit_code == 0 and json.loads(v1.stdout)["id"] == V1_TASK["id"], v1.stderr
    assert "shaped" not in v1.stderr and "enum" not in v1.stderr


# -- smaller --------------------------------------------------------------------------------------


def test_raw_output_prints_the_error_body_as_received(cli, respx_mock):
    respx_mock.post(RPC).mock(return_value=httpx.Response(500, text="Internal Server Error"))
    result = cli("tasks", "get", "t", "--endpoint", RPC, "-o", "raw")
    assert result.exit_code == 1 and result.stdout.strip() == "Internal Server Error"


def test_a_dump_of_a_run_refused_before_sending_records_why(cli, respx_mock, tmp_path):
    respx_mock.get(CARD).respond(json=v0_card())
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--dump", str(tmp_path))
    assert result.exit_code == 1
    entries = [json.loads(line) for line in (tmp_path / "index.jsonl").read_text().splitlines()]
    assert entries[-1]["refused"].startswith("the Agent Card offers no interface") and entries[-1]["error"] == entries[-1]["refused"]


def test_a_card_unfit_for_calls_is_shown_with_a_warning(cli, tmp_path):
    card = tmp_path / "bad.json"
    card.write_text(json.dumps({"name": 5, "skills": [{"id": 7}]}))
    result = cli("card", "get", "-a", str(card))
    assert result.exit_code == 0 and "Agent: 5" in result.stdout  # shown: a debugging tool shows what it got
    assert "the Agent Card at" in result.stderr and "is not valid: $.name is a number, not a string (and 1 more); `a2a card fetch --validate` lists every finding" in result.stderr


def test_a_valid_card_gets_no_such_warning(cli, tmp_path):
    card = tmp_path / "good.json"
    card.write_text(json.dumps(v1_card()))
    result = cli("card", "get", "-a", str(card), "-o", "json")
    assert result.exit_code == 0 and json.loads(result.stdout)["name"] == v1_card()["name"], result.stderr
    assert "is not valid" not in result.stderr


# -- issue 24 item 7: a 0.3 HTTP+JSON push-config create in the proto's form, then the other ------

REST_V0 = f"{AGENT}/rest"
CREATE = f"{REST_V0}/v1/tasks/t-1/pushNotificationConfigs"
CREATED = {"name": "tasks/t-1/pushNotificationConfigs/c-1", "pushNotificationConfig": {"id": "c-1", "url": "http://127.0.0.1:9/h"}}
CREATE_ARGV = ("push-config", "create", "t-1", "--webhook-url", "http://127.0.0.1:9/h", "--config-id", "c-1", "--endpoint", REST_V0, "--transport", "rest", "--a2a-version", "0.3")


def test_v0_rest_create_refused_in_the_proto_form_is_sent_once_in_the_whole_request_form(cli, respx_mock):
    route = respx_mock.post(CREATE).mock(side_effect=[
        httpx.Response(400, json={"code": -32602, "message": "Request must include a `config` object with a `pushNotificationConfig`"}),
        httpx.Response(200, json=CREATED),
    ])
    result = cli(*CREATE_ARGV, "-o", "json")
    assert result.exit_code == 0, result.stderr
    first, second = (json.loads(c.request.content) for c in route.calls)
    assert first == CREATED and route.calls[0].request.url.params["configId"] == "c-1"
    assert second == {"parent": "tasks/t-1", "configId": "c-1", "config": CREATED} and "configId" not in route.calls[1].request.url.params
    assert "refused the body the 0.3 proto's route defines (InvalidParamsError: Request must include" in result.stderr
    assert "sending it once more with the whole request as the body" in result.stderr


def test_v0_rest_create_refused_in_both_forms_is_sent_twice_at_most(cli, respx_mock):
    route = respx_mock.post(CREATE).respond(500, json={"message": "unknown exception"})
    result = cli(*CREATE_ARGV)
    assert result.exit_code == 1 and route.call_count == 2
    assert result.stderr.count("sending it once more") == 1


def test_v0_rest_create_refused_for_another_reason_is_not_sent_again(cli, respx_mock):
    route = respx_mock.post(CREATE).respond(404, json={"code": -32001, "message": "Task not found"})
    result = cli(*CREATE_ARGV)
    assert result.exit_code == 1 and route.call_count == 1
    assert "TaskNotFoundError" in result.stderr and "once more" not in result.stderr
