"""Choosing the binding (card order, --transport, env, --endpoint) and the HTTP+JSON binding end
to end against respx-mocked agents: what is sent, what is printed, the exit codes."""

from __future__ import annotations

import json
import sys

import httpx
import pytest
from a2a_testkit import AGENT, RPC, rpc_result, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
REST = f"{AGENT}/api"
TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}


def card(*interfaces: tuple[str, str, str], **extra) -> dict:
    return v1_card(supportedInterfaces=[{"url": url, "protocolBinding": b, "protocolVersion": v} for b, v, url in interfaces], **extra)


BOTH = card(("JSONRPC", "1.0", RPC), ("HTTP+JSON", "1.0", REST), ("JSONRPC", "0.3", RPC), ("HTTP+JSON", "0.3", REST))


@pytest.mark.spec("A2ACLI_TX_001", "A2ACLI_TX_002")
def test_the_first_interface_the_card_lists_is_used(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=card(("HTTP+JSON", "1.0", REST), ("JSONRPC", "1.0", RPC)))
    route = respx_mock.get(f"{REST}/tasks/t-1").respond(json=TASK)
    result = cli("tasks", "get", "t-1", "-u", AGENT, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert route.called and json.loads(result.stdout) == TASK


@pytest.mark.spec("A2ACLI_TX_002", "A2ACLI_TX_004")
@pytest.mark.parametrize("how", [["--transport", "rest"], ["--transport", "HTTP+JSON"], ["--transport", "grpc", "--transport", "rest"]])
def test_transport_picks_the_binding(cli, respx_mock, how):
    respx_mock.get(CARD_URL).respond(json=BOTH)
    route = respx_mock.get(f"{REST}/tasks/t-1").respond(json=TASK)
    result = cli("tasks", "get", "t-1", "-u", AGENT, *how)
    assert result.exit_code == 0, result.stderr
    assert route.called


@pytest.mark.spec("A2ACLI_TX_002")
def test_the_transport_env_var_and_its_order_of_preference(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=BOTH)
    rpc = respx_mock.post(RPC).respond(json=rpc_result(TASK))
    result = cli("tasks", "get", "t-1", "-u", AGENT, env={"A2ACLI_TRANSPORT": "jsonrpc,rest"})
    assert result.exit_code == 0, result.stderr
    assert rpc.called


@pytest.mark.spec("A2ACLI_TX_002")
@pytest.mark.parametrize("how", [{"args": ["--transport", "grpc"]}, {"env": {"A2ACLI_TRANSPORT": "grpc"}}, {"args": ["--transport", "grpc", "--transport", "rest"]}])
def test_a_preference_the_card_does_not_offer_falls_back_to_the_cards_order_with_a_note(cli, respx_mock, how):
    respx_mock.get(CARD_URL).respond(json=card(("JSONRPC", "1.0", RPC), ("JSONRPC", "0.3", RPC)))
    rpc = respx_mock.post(RPC).respond(json=rpc_result(TASK))
    result = cli("tasks", "get", "t-1", "-u", AGENT, "-o", "json", *how.get("args", []), env=how.get("env", {}))
    assert result.exit_code == 0, result.stderr
    assert rpc.call_count == 1 and json.loads(result.stdout) == TASK
    asked = "GRPC, HTTP+JSON" if len(how.get("args", [])) > 2 else "GRPC"
    assert f"the Agent Card offers no {asked} interface for A2A 1.0: using its own first choice, JSONRPC at {RPC}" in result.stderr


@pytest.mark.spec("A2ACLI_TX_002")
def test_endpoint_with_transport_stays_exact(cli, respx_mock):
    card_route = respx_mock.get(CARD_URL).respond(json=card(("JSONRPC", "1.0", RPC)))
    route = respx_mock.get(f"{REST}/tasks/t-1").respond(json=TASK)
    result = cli("tasks", "get", "t-1", "--endpoint", REST, "--transport", "rest", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert route.called and not card_route.called and "first choice" not in result.stderr


def test_a_binding_the_card_lacks_for_the_version_is_named_with_what_it_offers(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=card(("CARRIER-PIGEON", "1.0", RPC), ("JSONRPC", "0.3", RPC)))
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--transport", "rest")
    assert result.exit_code == 1
    assert "offers no HTTP+JSON interface for A2A 1.0; it offers: CARRIER-PIGEON 1.0, JSONRPC 0.3" in result.stderr
    assert "--transport" in result.stderr.splitlines()[-1]


def test_a_card_that_offers_only_grpc_is_called_over_grpc(cli, tmp_path):
    path = tmp_path / "card.json"
    path.write_text(json.dumps(card(("GRPC", "1.0", "agent.test:50051"))))
    result = cli("tasks", "get", "t-1", "-u", path.as_uri(), "--offline")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("POST grpcs://agent.test:50051/lf.a2a.v1.A2AService/GetTask\n")


GRPC_FIRST = card(("GRPC", "1.0", "grpc://agent.test:50051"), ("JSONRPC", "1.0", RPC), ("HTTP+JSON", "1.0", REST))


@pytest.fixture
def no_grpc_extra(monkeypatch):
    """A core install, as a2a finds out: `grpc` cannot be found (transport.grpc.installed)."""
    monkeypatch.setitem(sys.modules, "grpc", None)


def test_a_core_install_skips_a_grpc_interface_listed_first_for_the_next_in_card_order(cli, respx_mock, no_grpc_extra):
    respx_mock.get(CARD_URL).respond(json=GRPC_FIRST)
    rpc = respx_mock.post(RPC).respond(json=rpc_result(TASK))
    result = cli("tasks", "get", "t-1", "-u", AGENT, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert rpc.call_count == 1 and json.loads(result.stdout) == TASK
    note = result.stderr.splitlines()[0]
    assert note.startswith("skipping the Agent Card's gRPC interface grpc://agent.test:50051: the grpc extra is not installed (add the grpc extra: ")
    assert "-m pip install 'a2a-sdk[grpc]<1.4,>=1.3'" in note and note.endswith(f"); using JSONRPC at {RPC}")


def test_a_core_install_asked_for_grpc_or_offered_nothing_else_names_the_extra(cli, respx_mock, no_grpc_extra, tmp_path):
    respx_mock.get(CARD_URL).respond(json=GRPC_FIRST)
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--transport", "grpc")
    assert result.exit_code == 1 and "gRPC needs the grpc extra" in result.stderr and "skipping" not in result.stderr
    only = tmp_path / "card.json"
    only.write_text(json.dumps(card(("GRPC", "1.0", "grpc://127.0.0.1:9"))))
    result = cli("tasks", "get", "t-1", "-u", str(only))
    assert result.exit_code == 1 and "gRPC needs the grpc extra" in result.stderr and "skipping" not in result.stderr


def test_with_the_grpc_extra_the_cards_grpc_interface_stays_first(cli, no_grpc_extra, monkeypatch, tmp_path):
    monkeypatch.delitem(sys.modules, "grpc")
    from a2acli.transport import grpc

    if not grpc.installed():
        pytest.skip("needs the grpc extra (a core install runs the test above instead)")
    path = tmp_path / "card.json"
    path.write_text(json.dumps(GRPC_FIRST))
    result = cli("tasks", "get", "t-1", "-u", str(path), "--offline")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("POST grpc://agent.test:50051/lf.a2a.v1.A2AService/GetTask\n") and "skipping" not in result.stderr


def test_a_card_that_offers_only_bindings_a2a_lacks_says_so(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=card(("CARRIER-PIGEON", "1.0", "http://agent.test/coop")))
    result = cli("tasks", "get", "t-1", "-u", AGENT)
    assert result.exit_code == 1 and "it offers: CARRIER-PIGEON 1.0" in result.stderr


def test_an_unknown_transport_is_a_usage_error(cli):
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--transport", "smoke-signals")
    assert result.exit_code == 2 and "unknown transport 'smoke-signals'" in result.stderr


def test_a_v0_card_names_its_binding_in_preferred_transport(cli, respx_mock):
    v0_card = {"name": "v0", "description": "d", "version": "1", "protocolVersion": "0.3.0", "url": REST, "preferredTransport": "HTTP+JSON",
               "capabilities": {}, "defaultInputModes": [], "defaultOutputModes": [], "skills": []}
    respx_mock.get(CARD_URL).respond(json=v0_card)
    route = respx_mock.get(f"{REST}/v1/tasks/t-1").respond(json={"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_CANCELLED"}})
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--a2a-version", "0.3", "-o", "json", "--as", "v1")
    assert result.exit_code == 0, result.stderr
    assert route.called and json.loads(result.stdout)["status"]["state"] == "TASK_STATE_CANCELED"


@pytest.mark.spec("A2ACLI_TX_003")
def test_a_tenant_is_the_path_prefix_over_v1_rest(cli, respx_mock):
    c = v1_card(supportedInterfaces=[{"url": REST, "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0", "tenant": "acme"}])
    respx_mock.get(CARD_URL).respond(json=c)
    route = respx_mock.post(f"{REST}/acme/message:send").respond(json={"task": TASK})
    result = cli("send", "hi", "-u", AGENT)
    assert result.exit_code == 0, result.stderr
    assert "tenant" not in json.loads(route.calls.last.request.content)


def test_endpoint_with_rest_skips_the_card(cli, respx_mock):
    route = respx_mock.post(f"{REST}/tasks/t-1:cancel").respond(json=TASK)
    result = cli("tasks", "cancel", "t-1", "--endpoint", REST, "--transport", "rest")
    assert result.exit_code == 0, result.stderr
    assert route.called and route.calls.last.request.headers["Content-Type"] == "application/a2a+json"


@pytest.mark.spec("A2ACLI_AUTH_001")
def test_the_api_key_goes_where_the_card_says_over_rest_too(cli, respx_mock):
    schemes = {"key": {"apiKeySecurityScheme": {"location": "query", "name": "key"}}}
    respx_mock.get(CARD_URL).respond(json=card(("HTTP+JSON", "1.0", REST), securitySchemes=schemes))
    route = respx_mock.get(f"{REST}/tasks/t-1").respond(json=TASK)
    result = cli("tasks", "get", "t-1", "--history-length", "1", "-u", AGENT, "--api-key", "s3cret-value", "--debug")
    assert result.exit_code == 0, result.stderr
    assert dict(route.calls.last.request.url.params) == {"historyLength": "1", "key": "s3cret-value"}
    assert "s3cret-value" not in result.stderr


def test_a_rest_get_follows_no_redirect_to_another_origin(cli, respx_mock):
    respx_mock.get(f"{REST}/tasks/t-1").respond(307, headers={"Location": "http://elsewhere.test/tasks/t-1"})
    elsewhere = respx_mock.get("http://elsewhere.test/tasks/t-1").respond(json=TASK)
    result = cli("tasks", "get", "t-1", "--endpoint", REST, "--transport", "rest", "--bearer", "tok")
    assert result.exit_code == 1 and not elsewhere.called
    assert "another origin" in result.stderr


STATUS = {"error": {"code": 404, "status": "NOT_FOUND", "message": "Task not found",
                    "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "TASK_NOT_FOUND"}]}}


@pytest.mark.parametrize("answer,code,words", [
    (httpx.Response(404, json=STATUS), 1, "TaskNotFoundError: Task not found"),
    (httpx.Response(401, headers={"WWW-Authenticate": "Bearer"}), 4, "the agent requires credentials and none were sent"),
    (httpx.Response(404, text="Not Found"), 1, "HTTP 404"),
    (httpx.Response(502, html="<html>bad gateway</html>"), 1, "HTTP 502"),
    (httpx.Response(200, text="not json"), 1, "not JSON"),
])
def test_rest_failures_exit_as_over_json_rpc(cli, respx_mock, answer, code, words):
    respx_mock.get(f"{REST}/tasks/t-1").mock(return_value=answer)
    result = cli("tasks", "get", "t-1", "--endpoint", REST, "--transport", "rest")
    assert result.exit_code == code, result.stderr
    assert words in result.stderr and "Traceback" not in result.stderr


def test_raw_prints_a_rest_error_body_as_it_came(cli, respx_mock):
    respx_mock.get(f"{REST}/tasks/t-1").respond(404, json=STATUS)
    result = cli("tasks", "get", "t-1", "--endpoint", REST, "--transport", "rest", "-o", "raw")
    assert result.exit_code == 1 and json.loads(result.stdout) == STATUS


def test_a_rest_stream_of_bare_events_ends_at_the_final_one(cli, respx_mock):
    events = [{"task": {**TASK, "status": {"state": "TASK_STATE_WORKING"}}},
              {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}}]
    body = "".join(f"data: {json.dumps(e)}\r\n\r\n" for e in events).encode()
    route = respx_mock.post(f"{REST}/message:stream").respond(headers={"Content-Type": "text/event-stream"}, content=body)
    result = cli("stream", "hi", "--endpoint", REST, "--transport", "rest", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert [json.loads(line) for line in result.stdout.splitlines()] == events
    assert route.calls.last.request.headers["Accept"] == "text/event-stream"


def test_send_retries_a_rest_503_with_the_same_idempotency_key(cli, respx_mock):
    route = respx_mock.post(f"{REST}/message:send").mock(side_effect=[httpx.Response(503), httpx.Response(200, json={"task": TASK})])
    result = cli("send", "hi", "--endpoint", REST, "--transport", "rest", "--retry", "1", "--idempotency-key", "k-1")
    assert result.exit_code == 0, result.stderr
    keys = {c.request.headers["Idempotency-Key"] for c in route.calls}
    assert route.call_count == 2 and keys == {"k-1"}


def test_list_all_pages_over_rest(cli, respx_mock):
    route = respx_mock.get(f"{REST}/tasks").mock(side_effect=[
        httpx.Response(200, json={"tasks": [TASK], "nextPageToken": "p2"}),
        httpx.Response(200, json={"tasks": [{**TASK, "id": "t-2"}], "nextPageToken": ""}),
    ])
    result = cli("tasks", "list", "--all", "--page-size", "1", "--endpoint", REST, "--transport", "rest", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert [t["id"] for t in json.loads(result.stdout)["tasks"]] == ["t-1", "t-2"]
    assert route.calls[1].request.url.params["pageToken"] == "p2"


def test_offline_json_over_rest_is_the_whole_request(cli):
    result = cli("tasks", "get", "t-1", "--history-length", "2", "--endpoint", REST, "--transport", "rest", "--offline", "-o", "json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["method"] == "GET" and doc["url"] == f"{REST}/tasks/t-1?historyLength=2" and doc["body"] is None
    assert doc["headers"]["A2A-Version"] == "1.0"


def test_offline_without_the_card_says_which_binding_it_shows(cli):
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--offline")
    assert result.exit_code == 0 and "--offline does not read: showing JSONRPC" in result.stderr


def test_request_id_over_rest_is_named_as_not_sent(cli, respx_mock):
    respx_mock.get(f"{REST}/tasks/t-1").respond(json=TASK)
    result = cli("tasks", "get", "t-1", "--endpoint", REST, "--transport", "rest", "--request-id", "r-1")
    assert result.exit_code == 0 and "--request-id is the JSON-RPC id: HTTP+JSON has none" in result.stderr


def test_a_bad_transport_from_the_environment_names_its_source(cli):
    result = cli("tasks", "get", "t-1", "-u", AGENT, env={"A2ACLI_TRANSPORT": "bogus"})
    assert result.exit_code == 2 and "unknown transport 'bogus' (env A2ACLI_TRANSPORT)" in result.stderr


def test_diff_refuses_the_same_transport_twice(cli):
    result = cli("diff", "-u", AGENT, "--transport", "rest", "--transport", "HTTP+JSON", "--", "tasks", "get", "t-1")
    assert result.exit_code == 2 and "both --transport values name rest" in result.stderr
