"""Every command against respx-mocked agents, in both versions: what is sent, what is printed,
and the exit code of every failure class."""

from __future__ import annotations

import json
import time

import httpx
import pytest
from a2a_testkit import AGENT, ANY_CREDENTIAL, RPC, rpc_result, sse, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
V1_TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED", "timestamp": "2026-01-01T00:00:00Z"},
           "artifacts": [{"artifactId": "a-1", "name": "user", "parts": [{"data": {"id": "user-1"}}]}]}
V0_TASK = {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "completed", "timestamp": "2026-01-01T00:00:00Z"},
           "artifacts": [{"artifactId": "a-1", "name": "user", "parts": [{"kind": "data", "data": {"id": "user-1"}}]}]}
VERSIONS = [("1.0", "v1"), ("0.3", "v0")]


@pytest.fixture
def agent(respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card(), headers={"X-Request-ID": "card-req"})
    return respx_mock


def sent(route, n: int = -1) -> dict:
    return json.loads(route.calls[n].request.content)


# -- card -----------------------------------------------------------------------------------------


@pytest.mark.spec("A2ACLI_VER_001")
@pytest.mark.parametrize("version", ["1.0", "0.3"])
def test_card_fetch_sends_version_and_no_credentials(cli, agent, version):
    result = cli("card", "fetch", "-u", AGENT, "--a2a-version", version, "--api-key", "sekret", "--bearer", "tok")
    assert result.exit_code == 0, result.stderr
    req = agent.calls.last.request
    assert req.headers["A2A-Version"] == version
    assert "X-API-Key" not in req.headers and "Authorization" not in req.headers
    assert "Agent: Test agent" in result.stdout
    assert "Skill: echo\nSkill name: Echo\nSkill description: Repeats input\n" in result.stdout
    assert "X-Request-ID: card-req" in result.stderr


def test_card_fetch_json_is_the_card_as_served(cli, agent):
    result = cli("card", "fetch", "-u", AGENT, "-o", "json")
    assert json.loads(result.stdout) == v1_card()


def test_card_fetch_falls_back_to_agent_json(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(404)
    legacy = respx_mock.get(f"{AGENT}/.well-known/agent.json").respond(json={"name": "Old", "description": "d", "version": "1", "url": RPC, "protocolVersion": "0.3.0"})
    result = cli("card", "fetch", "-u", AGENT, "-o", "raw")
    assert result.exit_code == 0, result.stderr
    assert legacy.called and json.loads(result.stdout)["name"] == "Old"


@pytest.mark.spec("A2ACLI_CARD_GET_001")
def test_card_from_file(cli, tmp_path, respx_mock):
    path = tmp_path / "card.json"
    path.write_text(json.dumps(v1_card()))
    route = respx_mock.post(RPC, json__method="GetTask").respond(json=rpc_result(V1_TASK))
    result = cli("tasks", "get", "t-1", "-u", path.as_uri())
    assert result.exit_code == 0, result.stderr
    assert route.called


@pytest.mark.spec("A2ACLI_EXIT_001")
def test_no_card_is_exit_3(cli, respx_mock):
    respx_mock.get(url__startswith=AGENT).respond(404)
    result = cli("card", "fetch", "-u", AGENT)
    assert result.exit_code == 3
    assert "no Agent Card" in result.stderr and "--endpoint" in result.stderr


def test_a_page_at_the_well_known_path_is_an_error_naming_it(cli, respx_mock):
    """Issue 27: something at a card's place that is no card is not passed over (it was, before:
    the next place could be another agent's card); only nothing there (404, 410) is."""
    page = "<!doctype html><title>app</title>"
    respx_mock.get(CARD_URL).respond(200, text=page, headers={"Content-Type": "text/html"})
    legacy = respx_mock.get(f"{AGENT}/.well-known/agent.json").respond(json=v1_card())
    result = cli("card", "fetch", "-u", AGENT, "-o", "json")
    assert result.exit_code == 1, result.stderr
    assert not legacy.called
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "A2ACLI_ERR_CARD_INVALID" and error["message"] == f"the Agent Card at {CARD_URL} is an HTML page (text/html), not JSON"
    respx_mock.get(CARD_URL).respond(410)
    moved = cli("card", "fetch", "-u", AGENT, "-o", "json")
    assert moved.exit_code == 0 and legacy.called and json.loads(moved.stdout) == v1_card()


@pytest.mark.spec("A2ACLI_VER_001")
def test_v0_only_card_is_never_downgraded(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json={"name": "Old", "description": "d", "version": "1", "url": RPC, "protocolVersion": "0.3.0", "preferredTransport": "JSONRPC"})
    result = cli("tasks", "get", "t-1", "-u", AGENT)
    assert result.exit_code == 1
    assert "for A2A 1.0" in result.stderr and "it offers: JSONRPC 0.3" in result.stderr and "--a2a-version 0.3" in result.stderr
    ok = cli("tasks", "get", "t-1", "-u", AGENT, "--a2a-version", "0.3", "--offline")
    assert ok.exit_code == 0


@pytest.mark.spec("A2ACLI_TX_003")
def test_tenant_is_copied_into_v1_requests(cli, respx_mock):
    card = v1_card(supportedInterfaces=[{"url": RPC, "protocolBinding": "JSONRPC", "protocolVersion": "1.0", "tenant": "acme"}])
    respx_mock.get(CARD_URL).respond(json=card)
    route = respx_mock.post(RPC).respond(json=rpc_result(V1_TASK))
    assert cli("tasks", "get", "t-1", "-u", AGENT).exit_code == 0
    assert sent(route)["params"] == {"id": "t-1", "tenant": "acme"}


# -- send -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("version,wire", VERSIONS)
def test_send_create_user(cli, agent, version, wire):
    route = agent.post(RPC).respond(json=rpc_result({"task": V1_TASK} if wire == "v1" else V0_TASK), headers={"X-Request-ID": "r-42"})
    result = cli("send", "--skill", "create-user", "-f", "projectUserId=user_123", "-u", AGENT, "--a2a-version", version)
    assert result.exit_code == 0, result.stderr
    body = sent(route)
    assert body["method"] == ("SendMessage" if wire == "v1" else "message/send")
    assert route.calls.last.request.headers["A2A-Version"] == version
    assert "Task: t-1" in result.stdout and "Context: c-1" in result.stdout and "State: completed" in result.stdout
    assert 'Artifact: user\nData:\n  {\n    "id": "user-1"\n  }\n\n' in result.stdout
    assert "X-Request-ID: r-42" in result.stderr


@pytest.mark.parametrize("version,wire", VERSIONS)
def test_send_json_is_as_the_wire_spelt_it_and_as_v1_converts(cli, agent, version, wire):
    agent.post(RPC).respond(json=rpc_result({"task": V1_TASK} if wire == "v1" else V0_TASK))
    raw = cli("send", "hi", "-u", AGENT, "--a2a-version", version, "-o", "json")
    assert json.loads(raw.stdout) == ({"task": V1_TASK} if wire == "v1" else V0_TASK)
    canon = cli("send", "hi", "-u", AGENT, "--a2a-version", version, "-o", "json", "--as", "v1")
    assert json.loads(canon.stdout) == {"task": V1_TASK}


def test_send_direct_message_reply(cli, agent):
    agent.post(RPC).respond(json=rpc_result({"kind": "message", "messageId": "m-2", "role": "agent", "parts": [{"kind": "text", "text": "Hello"}]}))
    result = cli("send", "hi", "-u", AGENT, "--a2a-version", "0.3")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "Message: m-2\nRole: agent\nText:\n  Hello\n\n"


@pytest.mark.spec("A2ACLI_SEND_002")
def test_send_waits_by_polling_when_the_agent_answers_early(cli, agent):
    agent.get(CARD_URL).respond(json=v1_card(capabilities={}))  # no streaming claimed: the task is polled
    working = dict(V1_TASK, status={"state": "TASK_STATE_WORKING"})
    send = agent.post(RPC, json__method="SendMessage").respond(json=rpc_result({"task": working}))
    poll = agent.post(RPC, json__method="GetTask").mock(side_effect=[
        httpx.Response(200, json=rpc_result(working)), httpx.Response(200, json=rpc_result(V1_TASK))])
    result = cli("send", "hi", "-u", AGENT, "--poll-interval", "0.05", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert "configuration" not in sent(send)["params"]  # one blocking send; the agent answered early, so a2a waits
    assert poll.call_count == 2
    assert json.loads(result.stdout) == {"task": V1_TASK}


@pytest.mark.spec("A2ACLI_SEND_002", "A2ACLI_OUT_006")
def test_send_async_does_not_wait(cli, agent):
    route = agent.post(RPC).respond(json=rpc_result({"task": dict(V1_TASK, status={"state": "TASK_STATE_SUBMITTED"})}))
    result = cli("send", "hi", "-u", AGENT, "--async")
    assert result.exit_code == 0 and route.call_count == 1
    assert sent(route)["params"]["configuration"] == {"returnImmediately": True}
    assert "State: submitted" in result.stdout


@pytest.mark.parametrize("state,code,says", [("TASK_STATE_FAILED", 0, "warning: task t-1 ended failed"),
                                             ("TASK_STATE_INPUT_REQUIRED", 0, "a2a send --task-id t-1 --context-id c-1")])
@pytest.mark.spec("A2ACLI_EXIT_002")
def test_task_outcomes_are_named_on_stderr_not_in_the_exit_code(cli, agent, state, code, says):
    agent.post(RPC).respond(json=rpc_result({"task": dict(V1_TASK, status={"state": state})}))
    result = cli("send", "hi", "-u", AGENT)
    assert result.exit_code == code
    assert says in result.stderr


def test_expect_state_gates_ci(cli, agent):
    agent.post(RPC).respond(json=rpc_result({"task": dict(V1_TASK, status={"state": "TASK_STATE_FAILED"})}))
    assert cli("send", "hi", "-u", AGENT, "--expect-state", "completed").exit_code == 6
    assert cli("send", "hi", "-u", AGENT, "--expect-state", "completed,failed").exit_code == 0
    bad = cli("send", "hi", "-u", AGENT, "--expect-state", "finished")
    assert bad.exit_code == 2 and "unknown task state" in bad.stderr


def test_a_task_that_fails_expect_state_is_said_once(cli, agent):
    """Issue 46's CI journey: a failed task under --expect-state completed said it twice, a warning
    (`task t-1 ended failed`) and then the error (`task t-1 ended failed, expected completed`)."""
    agent.post(RPC).respond(json=rpc_result({"task": dict(V1_TASK, status={"state": "TASK_STATE_FAILED"})}))
    result = cli("send", "hi", "-u", AGENT, "--expect-state", "completed")
    assert result.exit_code == 6
    assert result.stderr.count("ended failed") == 1 and "ended failed, expected completed" in result.stderr
    assert "warning: task t-1 ended failed" in cli("send", "hi", "-u", AGENT, "--expect-state", "completed,failed").stderr
    assert "warning: task t-1 ended failed" in cli("send", "hi", "-u", AGENT).stderr


def test_expect_state_on_a_task_still_running_says_it_has_not_ended(cli, agent):
    """--async (or tasks get without --wait) answers before the task ends: exit 6 all the same, but
    not "ended submitted", and the hint says how to wait for the end rather than to drop the gate."""
    agent.post(RPC).respond(json=rpc_result({"task": dict(V1_TASK, status={"state": "TASK_STATE_SUBMITTED"})}))
    result = cli("send", "hi", "-u", AGENT, "--async", "--expect-state", "completed")
    assert result.exit_code == 6
    assert "ended submitted" not in result.stderr and "task t-1 is submitted, not ended: expected completed" in result.stderr
    assert "--async returns before the task ends" in result.stderr
    assert f"a2a tasks get t-1 --wait --expect-state completed -u {AGENT}" in result.stderr
    agent.post(RPC).respond(json=rpc_result(dict(V1_TASK, status={"state": "TASK_STATE_WORKING"})))
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--expect-state", "completed,failed")
    assert result.exit_code == 6
    assert "task t-1 is working, not ended: expected completed, failed" in result.stderr
    assert f"a2a tasks get t-1 --wait --expect-state completed,failed -u {AGENT}" in result.stderr


def test_idempotency_header_follows_the_dialect(cli, agent):
    route = agent.post(RPC).respond(json=rpc_result({"task": V1_TASK}))
    cli("send", "hi", "-u", AGENT, "--idempotency-key", "k-1")
    assert route.calls.last.request.headers["Idempotency-Key"] == "k-1"
    cli("send", "hi", "-u", AGENT, "--idempotency-key", "k-2", "--dialect", "clix")
    assert route.calls.last.request.headers["X-Clix-Idempotency-Key"] == "k-2"
    assert sent(route)["params"]["message"]["role"] == "user"


def test_retry_reuses_one_idempotency_key(cli, agent, no_sleep):
    route = agent.post(RPC).mock(side_effect=[httpx.Response(503), httpx.ConnectError("refused"), httpx.Response(200, json=rpc_result({"task": V1_TASK}))])
    result = cli("send", "hi", "-u", AGENT, "--retry", "2")
    assert result.exit_code == 0, result.stderr
    keys = {c.request.headers["Idempotency-Key"] for c in route.calls}
    assert route.call_count == 3 and len(keys) == 1
    assert "retry 1/2" in result.stderr


def test_http_409_is_explained(cli, agent):
    agent.post(RPC).respond(409)
    result = cli("send", "hi", "-u", AGENT, "--idempotency-key", "k")
    assert result.exit_code == 1 and "idempotency key" in result.stderr


# -- errors and exit codes ------------------------------------------------------------------------


def test_jsonrpc_error_names_the_a2a_error(cli, agent):
    agent.post(RPC).respond(json={"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "Task not found", "data": {"taskId": "t-9"}}}, headers={"X-Request-ID": "r-9"})
    result = cli("tasks", "get", "t-9", "-u", AGENT)
    assert result.exit_code == 1
    assert "TaskNotFoundError: Task not found" in result.stderr
    assert '"taskId": "t-9"' in result.stderr and "X-Request-ID: r-9" in result.stderr
    as_json = cli("tasks", "get", "t-9", "-u", AGENT, "-o", "json")
    err = json.loads(as_json.stdout)["error"]
    assert err["a2aCode"] == -32001 and err["code"] == "TaskNotFoundError" and err["hint"] and err["requestId"] == "r-9"


@pytest.mark.parametrize("version,name", [("1.0", "ExtendedAgentCardNotConfiguredError"), ("0.3", "AuthenticatedExtendedCardNotConfiguredError")])
def test_an_error_is_named_as_the_version_of_the_request_calls_it(cli, agent, version, name):
    agent.post(RPC).respond(json={"jsonrpc": "2.0", "id": 1, "error": {"code": -32007, "message": "no extended card"}})
    result = cli("card", "extended", "-u", AGENT, "--a2a-version", version, "--force")  # the card does not claim it; the agent agrees
    assert result.exit_code == 1
    assert f"error: {name}: no extended card" in result.stderr


@pytest.mark.parametrize("response,code,says", [
    (httpx.Response(401, headers={"WWW-Authenticate": "Bearer"}), 4, "the agent requires credentials and none were sent"),
    (httpx.Response(403), 4, "the agent requires credentials and none were sent (HTTP 403 Forbidden) [A2ACLI_ERR_CREDENTIALS_MISSING]"),
    (httpx.Response(500, text="boom"), 1, "HTTP 500"),
    (httpx.Response(502, html="<html><body>Bad gateway</body></html>"), 1, "an HTML page"),
    (httpx.Response(200, html="<html>login</html>"), 1, "not JSON"),
    (httpx.Response(200, text=""), 1, "empty"),
    (httpx.Response(200, json={"hello": "world"}), 1, "not a JSON-RPC response"),
    (httpx.Response(404), 1, "HTTP 404"),
])
def test_http_faults(cli, agent, response, code, says):
    agent.post(RPC).mock(return_value=response)
    result = cli("tasks", "get", "t-1", "-u", AGENT)
    assert result.exit_code == code, result.stderr
    assert says in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


@pytest.mark.parametrize("exc,code", [(httpx.ConnectError("Connection refused"), 3), (httpx.ReadTimeout("slow"), 5), (httpx.ConnectTimeout("slow"), 5)])
def test_transport_faults(cli, respx_mock, exc, code):
    respx_mock.get(CARD_URL).mock(side_effect=exc)
    result = cli("card", "fetch", "-u", AGENT, "--timeout", "2")
    assert result.exit_code == code
    assert "hint:" in result.stderr


@pytest.mark.spec("A2ACLI_EXIT_001")
def test_dns_failure_is_unreachable(cli, respx_mock):
    respx_mock.get(CARD_URL).mock(side_effect=httpx.ConnectError("[Errno -2] Name or service not known"))
    result = cli("card", "fetch", "-u", AGENT)
    assert result.exit_code == 3 and "cannot resolve" in result.stderr


@pytest.mark.parametrize("argv,says", [
    (["send", "hi", "--a2a-version", "2.0"], "unknown A2A version"),
    (["send", "hi", "--dialect", "acme"], "unknown dialect"),
    (["send", "hi", "-H", "NoColon"], "is not 'Name: value'"),
    (["send", "--data", "{bad"], "not valid JSON"),
    (["send", "--data", "@/no/such/file.json"], "no such file"),
    (["send", "--file", "/no/such/file.bin"], "no such file"),
    (["send", "-f", "novalue"], "is not key=value"),
    (["send", "-f", "n:={x"], "not valid JSON"),
    (["send"], "nothing to send"),
    (["send", "hi", "--metadata", "[1]"], "must be a JSON object"),
    (["send", "hi", "-o", "yaml"], "unknown output mode"),
    (["tasks", "list", "--a2a-version", "0.3"], "ListTasks has no V0"),
    (["tasks", "get"], "missing argument 'TASK_ID'"),
    (["send", "--media-type", "text/plain", "--text", "hi"], "comes before any part"),
])
@pytest.mark.spec("A2ACLI_EXIT_001")
def test_usage_errors_exit_2(cli, argv, says):
    result = cli(*argv, "--rpc-url", RPC, "--offline")
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert says in result.stderr


def test_no_agent_given(cli):
    result = cli("tasks", "get", "t-1")
    assert result.exit_code == 2 and "--url" in result.stderr


# -- tasks ----------------------------------------------------------------------------------------


@pytest.mark.spec("A2ACLI_TASK_LIST_001")
def test_tasks_list_all_pages_v1(cli, agent):
    route = agent.post(RPC).mock(side_effect=[
        httpx.Response(200, json=rpc_result({"tasks": [V1_TASK], "nextPageToken": "p2", "pageSize": 1, "totalSize": 2})),
        httpx.Response(200, json=rpc_result({"tasks": [dict(V1_TASK, id="t-2")], "nextPageToken": "", "pageSize": 1})),
    ])
    result = cli("tasks", "list", "--page-size", "1", "--all", "-u", AGENT, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert [t["id"] for t in json.loads(result.stdout)["tasks"]] == ["t-1", "t-2"]
    assert sent(route, 0)["params"] == {"pageSize": 1} and sent(route, 1)["params"] == {"pageSize": 1, "pageToken": "p2"}


def test_tasks_list_v0_clix_limit_offset(cli, agent):
    route = agent.post(RPC).mock(side_effect=[
        httpx.Response(200, json=rpc_result([V0_TASK, dict(V0_TASK, id="t-2")])),
        httpx.Response(200, json=rpc_result([dict(V0_TASK, id="t-3")])),
    ])
    result = cli("tasks", "list", "--page-size", "2", "--status", "completed", "--all", "-u", AGENT, "--a2a-version", "0.3", "--dialect", "clix")
    assert result.exit_code == 0, result.stderr
    assert sent(route, 0) | {"id": 0} == {"jsonrpc": "2.0", "id": 0, "method": "tasks/list", "params": {"limit": 2, "offset": 0, "status": "completed"}} or sent(route, 0)["params"]["limit"] == 2
    assert sent(route, 1)["params"]["offset"] == 2
    assert result.stdout.count("Task: ") == 3


def test_tasks_list_text_table(cli, agent):
    agent.post(RPC).respond(json=rpc_result({"tasks": [V1_TASK], "nextPageToken": "n2"}))
    result = cli("tasks", "list", "-u", AGENT)
    assert "Task: t-1" in result.stdout and "State: completed" in result.stdout
    assert "--page-token n2" in result.stderr


@pytest.mark.spec("A2ACLI_TASK_CANCEL_001")
@pytest.mark.parametrize("version,wire", VERSIONS)
def test_tasks_cancel(cli, agent, version, wire):
    canceled = dict(V1_TASK, status={"state": "TASK_STATE_CANCELED"}) if wire == "v1" else dict(V0_TASK, status={"state": "canceled"})
    route = agent.post(RPC).respond(json=rpc_result(canceled))
    result = cli("tasks", "cancel", "t-1", "-u", AGENT, "--a2a-version", version, "--expect-state", "canceled")
    assert result.exit_code == 0, result.stderr
    assert sent(route)["method"] == ("CancelTask" if wire == "v1" else "tasks/cancel")
    assert "State: canceled" in result.stdout


@pytest.mark.spec("A2ACLI_TASK_POLL_001")
def test_tasks_get_wait(cli, agent):
    agent.post(RPC).mock(side_effect=[
        httpx.Response(200, json=rpc_result(dict(V1_TASK, status={"state": "TASK_STATE_WORKING"}))),
        httpx.Response(200, json=rpc_result(V1_TASK)),
    ])
    result = cli("tasks", "get", "t-1", "--wait", "--poll-interval", "0.05", "-u", AGENT, "--expect-state", "completed")
    assert result.exit_code == 0, result.stderr
    assert "State: completed" in result.stdout


# -- streams --------------------------------------------------------------------------------------

V1_EVENTS = [
    {"task": {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_SUBMITTED"}}},
    {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}}},
    {"artifactUpdate": {"taskId": "t-1", "contextId": "c-1", "artifact": {"artifactId": "a-1", "parts": [{"text": "done"}]}}},
    {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}},
]
V0_EVENTS = [
    {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "submitted"}},
    {"kind": "status-update", "taskId": "t-1", "contextId": "c-1", "status": {"state": "working"}, "final": False},
    {"kind": "artifact-update", "taskId": "t-1", "contextId": "c-1", "artifact": {"artifactId": "a-1", "parts": [{"kind": "text", "text": "done"}]}},
    {"kind": "status-update", "taskId": "t-1", "contextId": "c-1", "status": {"state": "completed"}, "final": True},
]


@pytest.mark.spec("A2ACLI_OUT_003")
@pytest.mark.parametrize("version,wire", VERSIONS)
def test_stream_json_lines(cli, agent, version, wire):
    events = V1_EVENTS if wire == "v1" else V0_EVENTS
    route = agent.post(RPC).respond(content=sse(*events), headers={"Content-Type": "text/event-stream"})
    result = cli("stream", "hi", "-u", AGENT, "--a2a-version", version, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert [json.loads(line) for line in result.stdout.splitlines()] == events
    assert route.calls.last.request.headers["Accept"] == "text/event-stream"
    assert sent(route)["method"] == ("SendStreamingMessage" if wire == "v1" else "message/stream")
    canon = cli("stream", "hi", "-u", AGENT, "--a2a-version", version, "-o", "json", "--as", "v1")
    assert [json.loads(line) for line in canon.stdout.splitlines()] == V1_EVENTS


def test_stream_text_and_summary(cli, agent):
    agent.post(RPC).respond(content=sse(*V1_EVENTS), headers={"Content-Type": "text/event-stream"})
    result = cli("send", "hi", "--stream", "-u", AGENT)
    assert result.exit_code == 0, result.stderr
    assert "Event: status-update\nTask: t-1\nContext: c-1\nState: working\n" in result.stdout and "Artifact: a-1\nText:\n  done\n\n" in result.stdout
    assert result.stdout.endswith("Task: t-1\nContext: c-1\nState: completed\nEvents: 4\n\n")


def test_stream_raw_is_each_data_payload(cli, agent):
    body = sse(*V1_EVENTS)
    agent.post(RPC).respond(content=body, headers={"Content-Type": "text/event-stream"})
    result = cli("stream", "hi", "-u", AGENT, "-o", "raw")
    payloads = [line[len("data: "):] for line in body.decode().splitlines() if line.startswith("data: ")]
    assert result.stdout.splitlines() == payloads


def test_stream_survives_crlf_comments_and_split_chunks(cli, agent):
    text = sse(*V1_EVENTS).decode().replace("\n", "\r\n")
    text = ": keep-alive\r\n\r\n" + text
    chunks = [text[i:i + 7].encode() for i in range(0, len(text), 7)]
    agent.post(RPC).mock(return_value=httpx.Response(200, headers={"Content-Type": "text/event-stream"}, content=iter(chunks)))
    result = cli("stream", "hi", "-u", AGENT, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert [json.loads(line) for line in result.stdout.splitlines()] == V1_EVENTS


def test_stream_with_a_bom_and_a_media_type_in_capitals_keeps_every_event(cli, agent):
    body = b"\xef\xbb\xbf" + sse(*V1_EVENTS)
    chunks = [body[:2], body[2:9], body[9:]]  # the BOM split across chunks too
    agent.post(RPC).mock(return_value=httpx.Response(200, headers={"Content-Type": "Text/Event-Stream; charset=UTF-8"}, content=iter(chunks)))
    result = cli("stream", "hi", "-u", AGENT, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert [json.loads(line) for line in result.stdout.splitlines()] == V1_EVENTS


def test_stream_error_event_exits_1_after_showing_events(cli, agent):
    """An error event mid-stream: the task is polled (A2ACLI_TASK_POLL_004); when that fails too,
    exit 1 with the error after the events shown."""
    agent.post(RPC, json__method="SendStreamingMessage").respond(content=sse(V1_EVENTS[0], error={"code": -32603, "message": "Internal error"}), headers={"Content-Type": "text/event-stream"})
    agent.post(RPC, json__method="GetTask").respond(json={"jsonrpc": "2.0", "id": 1, "error": {"code": -32603, "message": "Internal error"}})
    result = cli("stream", "hi", "-u", AGENT, "-o", "json", "--poll-interval", "50ms")
    assert result.exit_code == 1
    assert json.loads(result.stdout.splitlines()[0]) == V1_EVENTS[0]
    assert "InternalError" in result.stdout
    assert "the stream ended with an error from the agent (InternalError: Internal error); polling task t-1" in result.stderr


@pytest.mark.parametrize("data,says", [('{"message": "kaput"}', "kaput"), ("plain words", "plain words")])
def test_an_error_event_that_is_not_an_envelope_keeps_its_words(cli, agent, no_sleep, data, says):
    body = sse(V1_EVENTS[0]) + f"event: error\ndata: {data}\n\n".encode()
    agent.post(RPC).respond(content=body, headers={"Content-Type": "text/event-stream"})
    result = cli("stream", "hi", "-u", AGENT)
    assert result.exit_code == 1 and f"error: {data}" in result.stderr and says in result.stderr


def test_an_http_error_with_a_json_body_that_is_not_jsonrpc_keeps_its_status(cli, agent):
    agent.post(RPC).respond(503, json={"error": "down"})
    result = cli("tasks", "get", "t-1", "-u", AGENT)
    assert result.exit_code == 1
    assert "HTTP 503" in result.stderr and "None:" not in result.stderr


def test_a_unary_call_answered_with_one_sse_event_is_read(cli, agent):
    agent.post(RPC).respond(content=sse(V1_TASK), headers={"Content-Type": "text/event-stream"})
    result = cli("tasks", "get", "t-1", "-u", AGENT, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == V1_TASK
    agent.post(RPC).respond(content=sse(V1_TASK, V1_TASK), headers={"Content-Type": "text/event-stream"})
    two = cli("tasks", "get", "t-1", "-u", AGENT)
    assert two.exit_code == 1 and "a stream of 2 events where one answer was expected" in two.stderr


def test_stream_answered_with_plain_json(cli, agent):
    agent.post(RPC).respond(json={"jsonrpc": "2.0", "id": 1, "error": {"code": -32004, "message": "Streaming is not supported"}})
    result = cli("stream", "hi", "-u", AGENT)
    assert result.exit_code == 1 and "UnsupportedOperationError" in result.stderr


@pytest.mark.spec("A2ACLI_TASK_POLL_004")
def test_truncated_stream_falls_back_to_polling(cli, agent, no_sleep):
    agent.post(RPC, json__method="SendStreamingMessage").respond(content=sse(*V1_EVENTS[:2]), headers={"Content-Type": "text/event-stream"})
    agent.post(RPC, json__method="GetTask").respond(json=rpc_result(V1_TASK))
    result = cli("stream", "hi", "-u", AGENT)
    assert result.exit_code == 0, result.stderr
    assert "closed the stream before the task finished" in result.stderr
    assert "State: completed" in result.stdout


@pytest.mark.parametrize("command,result,says", [
    (("send", "hi"), None, "result is null"),
    (("send", "hi"), {"task": "x"}, "result.task is a string"),
    (("send", "hi"), {"foo": 1}, "holds none of task, message"),
    (("tasks", "get", "t-1"), "str", "result is a string"),
    (("tasks", "get", "t-1"), {"id": "t-1", "status": "x"}, "result.status is a string"),
    (("tasks", "list"), {"tasks": "x"}, "result.tasks is a string"),
])
@pytest.mark.parametrize("output", ["text", "json"])
def test_an_answer_that_is_not_what_the_method_promises_exits_1(cli, agent, command, result, says, output):
    agent.post(RPC).respond(json=rpc_result(result))
    out = cli(*command, "-u", AGENT, "-o", output)
    assert out.exit_code == 1
    shown = out.stdout + out.stderr
    assert "is not valid" in shown and says in shown and "internal error" not in shown


def test_an_answer_without_result_or_error_is_invalid_except_for_a_delete(cli, agent):
    agent.post(RPC, json__method="GetTask").respond(json={"jsonrpc": "2.0", "id": 1})
    assert cli("tasks", "get", "t-1", "-u", AGENT).exit_code == 1
    agent.post(RPC, json__method="DeleteTaskPushNotificationConfig").respond(json={"jsonrpc": "2.0", "id": 1})
    assert cli("push-config", "delete", "t-1", "p-1", "-u", AGENT).exit_code == 0


def test_an_answer_with_another_id_is_named(cli, agent):
    agent.post(RPC).respond(json=rpc_result(V1_TASK, request_id="not-yours"))
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--request-id", "req-1", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert "the answer's id 'not-yours' is not the request's 'req-1'" in result.stderr


def test_a_stream_event_that_is_not_an_event_exits_1(cli, agent):
    agent.post(RPC).respond(content=sse(V1_EVENTS[0], {"statusUpdate": "x"}), headers={"Content-Type": "text/event-stream"})
    result = cli("stream", "hi", "-u", AGENT, "-o", "json")
    assert result.exit_code == 1
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[0] == V1_EVENTS[0] and "result.statusUpdate is a string" in lines[-1]["error"]["message"]


def test_a_stream_without_any_event_exits_1(cli, agent):
    agent.post(RPC).respond(content=b": nothing to say\n\n", headers={"Content-Type": "text/event-stream"})
    result = cli("stream", "hi", "-u", AGENT)
    assert result.exit_code == 1 and "closed without a single event" in result.stderr


@pytest.mark.parametrize("version,last", [
    ("1.0", {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}}),
    ("0.3", {"kind": "status-update", "taskId": "t-1", "contextId": "c-1", "status": {"state": "input-required"}, "final": True}),
])
def test_a_stream_ends_at_its_final_event_even_if_the_agent_keeps_it_open(cli, agent, version, last):
    first = V1_EVENTS[0] if version == "1.0" else {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "submitted"}}

    def body():
        yield sse(first, last)
        time.sleep(30)  # an agent that never closes: reading on would hang
        yield b""

    agent.post(RPC).mock(return_value=httpx.Response(200, headers={"Content-Type": "text/event-stream"}, content=body()))
    started = time.monotonic()
    result = cli("stream", "hi", "-u", AGENT, "--a2a-version", version, "-o", "json", "--timeout", "20")
    assert result.exit_code == 0, result.stderr
    assert [json.loads(line) for line in result.stdout.splitlines()] == [first, last]
    assert time.monotonic() - started < 15


def test_an_answer_that_trickles_in_still_ends_at_the_timeout(cli):
    """httpx's read timeout bounds each read; --timeout bounds the whole call (a real socket:
    the server sends its head, then one byte every 0.2 s)."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()

    def serve() -> None:
        conn, _ = server.accept()
        with conn:
            conn.recv(65536)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n")
            try:
                for _ in range(100):
                    conn.sendall(b" ")
                    time.sleep(0.2)
            except OSError:
                pass

    threading.Thread(target=serve, daemon=True).start()
    started = time.monotonic()
    result = cli("tasks", "get", "t-1", "--rpc-url", f"http://127.0.0.1:{server.getsockname()[1]}/", "--timeout", "1")
    server.close()
    assert result.exit_code == 5, result.stderr
    assert time.monotonic() - started < 8


def test_a_header_given_with_h_replaces_ours_in_any_spelling(cli, agent):
    route = agent.post(RPC).respond(json=rpc_result(V1_TASK))
    result = cli("tasks", "get", "t-1", "-u", AGENT, "-H", "a2a-version: 9.9", "--bearer", "tok-0123456789", "-H", "authorization: Bearer other-0123")
    assert result.exit_code == 0, result.stderr
    sent_headers = route.calls.last.request.headers
    assert sent_headers.get_list("A2A-Version") == ["9.9"] and sent_headers.get_list("Authorization") == ["Bearer other-0123"]


def test_a_header_that_is_not_ascii_is_a_usage_error(cli):
    result = cli("tasks", "get", "t-1", "--rpc-url", RPC, "-H", "X-Name: h\u00e9llo", "--offline")
    assert result.exit_code == 2 and "is not ASCII" in result.stderr


def test_raw_output_of_an_error_answer_is_the_envelope_as_received(cli, agent):
    answer = b'{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"Task not found"}}'
    agent.post(RPC).respond(content=answer, headers={"Content-Type": "application/json"})
    result = cli("tasks", "get", "t-9", "-u", AGENT, "-o", "raw")
    assert result.exit_code == 1
    assert result.stdout == answer.decode() + "\n" and "TaskNotFoundError" in result.stderr


def test_json_output_is_one_document_when_expect_state_fails(cli, agent):
    agent.post(RPC).respond(json=rpc_result({"task": {**V1_TASK, "status": {"state": "TASK_STATE_FAILED"}}}))
    result = cli("send", "hi", "-u", AGENT, "-o", "json", "--expect-state", "completed")
    assert result.exit_code == 6
    assert json.loads(result.stdout)["task"]["id"] == "t-1"  # one document: the payload
    assert "expected completed" in result.stderr


def test_subscribe_snapshot_then_close(cli, agent, no_sleep):
    snapshot = {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "working"}}}
    route = agent.post(RPC, json__method="SubscribeToTask").respond(content=sse(snapshot), headers={"Content-Type": "text/event-stream"})
    agent.post(RPC, json__method="GetTask").respond(json=rpc_result(V1_TASK))
    result = cli("tasks", "subscribe", "t-1", "-u", AGENT, "--dialect", "clix")
    assert result.exit_code == 0, result.stderr
    assert sent(route)["params"] == {"id": "t-1"}
    assert result.stdout.startswith("Task: t-1\nContext: c-1\nState: completed\n") and "Event:" not in result.stdout  # the task the stream left (polled)


# -- push configs ---------------------------------------------------------------------------------


def test_push_config_create_v0_nests(cli, agent):
    stored = {"taskId": "t-1", "pushNotificationConfig": {"id": "p-1", "url": "https://cb.example/h", "token": "tok-1"}}
    route = agent.post(RPC).respond(json=rpc_result(stored))
    result = cli("push-config", "create", "t-1", "--webhook-url", "https://cb.example/h", "--token", "tok-1", "-u", AGENT, "--a2a-version", "0.3")
    assert result.exit_code == 0, result.stderr
    assert sent(route)["params"] == {"taskId": "t-1", "pushNotificationConfig": {"url": "https://cb.example/h", "token": "tok-1"}}
    assert "Config: p-1" in result.stdout and "Webhook: https://cb.example/h" in result.stdout


@pytest.mark.spec("A2ACLI_PUSH_001")
@pytest.mark.parametrize("version,wire", VERSIONS)
def test_push_config_list_and_delete(cli, agent, version, wire):
    listing = {"configs": [{"id": "p-1", "taskId": "t-1", "url": "https://cb.example/h"}], "nextPageToken": ""} if wire == "v1" else \
        [{"taskId": "t-1", "pushNotificationConfig": {"id": "p-1", "url": "https://cb.example/h"}}]
    agent.post(RPC).mock(side_effect=[httpx.Response(200, json=rpc_result(listing)), httpx.Response(200, json=rpc_result(None))])
    listed = cli("push-config", "list", "t-1", "-u", AGENT, "--a2a-version", version)
    assert listed.exit_code == 0 and "Config: p-1" in listed.stdout
    deleted = cli("push-config", "delete", "t-1", "p-1", "-u", AGENT, "--a2a-version", version)
    assert deleted.exit_code == 0 and deleted.stdout == "Deleted: true\n\n"


def test_push_config_delete_is_one_json_shape_on_every_binding(cli, respx_mock):
    """google.protobuf.Empty: `null` as a JSON-RPC result, `{}` as a REST body; -o json says `{}` for both (SPEC §4.4)."""
    card = v1_card(supportedInterfaces=[{"url": RPC, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}, {"url": AGENT, "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}])
    respx_mock.get(CARD_URL).respond(json=card)
    respx_mock.post(RPC).respond(json=rpc_result(None))
    respx_mock.delete(f"{AGENT}/tasks/t-1/pushNotificationConfigs/p-1").respond(json={})
    for binding in ("jsonrpc", "rest"):
        deleted = cli("push-config", "delete", "t-1", "p-1", "-u", AGENT, "--transport", binding, "-o", "json")
        assert deleted.exit_code == 0 and deleted.stdout == "{}\n", (binding, deleted.stderr)


# -- auth -----------------------------------------------------------------------------------------


def test_api_key_goes_where_the_card_says(cli, respx_mock):
    card = v1_card(securitySchemes={"key": {"apiKeySecurityScheme": {"location": "query", "name": "key"}}})
    respx_mock.get(CARD_URL).respond(json=card)
    route = respx_mock.post(url__startswith=RPC).respond(json=rpc_result(V1_TASK))
    assert cli("tasks", "get", "t-1", "-u", AGENT, "--api-key", "sekret").exit_code == 0
    req = route.calls.last.request
    assert req.url.params["key"] == "sekret" and "X-API-Key" not in req.headers


@pytest.mark.spec("A2ACLI_AUTH_001")
def test_api_key_default_header_and_bearer(cli, agent):
    """No card (--endpoint): the API key in the default header X-API-Key, the bearer token as given."""
    route = agent.post(RPC).respond(json=rpc_result(V1_TASK))
    assert cli("tasks", "get", "t-1", "--endpoint", RPC, "--api-key", "k1", "--bearer", "b1").exit_code == 0
    h = route.calls.last.request.headers
    assert h["X-API-Key"] == "k1" and h["Authorization"] == "Bearer b1"


@pytest.mark.spec("A2ACLI_AUTH_002")
def test_env_and_root_options(cli, agent):
    agent.get(CARD_URL).respond(json=v1_card(securitySchemes=ANY_CREDENTIAL))  # a card that takes an API key
    route = agent.post(RPC).respond(json=rpc_result(V1_TASK))
    result = cli("-u", AGENT, "tasks", "get", "t-1", env={"A2ACLI_API_KEY": "from-env"})
    assert result.exit_code == 0, result.stderr
    assert route.calls.last.request.headers["X-API-Key"] == "from-env"


# -- call -----------------------------------------------------------------------------------------


def test_call_translates_v1_names_under_v0(cli, agent):
    route = agent.post(RPC).respond(json=rpc_result(V0_TASK))
    result = cli("call", "GetTask", '{"id": "t-1"}', "-u", AGENT, "--a2a-version", "0.3", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert sent(route)["method"] == "tasks/get" and json.loads(result.stdout) == V0_TASK


def test_call_unknown_method_is_sent_as_given(cli, agent):
    route = agent.post(RPC).respond(json=rpc_result({"pong": True}))
    result = cli("call", "x-vendor/ping", "-", "-u", AGENT, input='{"a": 1}')
    assert result.exit_code == 0, result.stderr
    assert sent(route)["method"] == "x-vendor/ping" and sent(route)["params"] == {"a": 1}
    assert '"pong": true' in result.stdout


def test_call_v0_name_is_sent_as_given_under_v0_and_refused_under_v1(cli, agent):
    route = agent.post(RPC).respond(json=rpc_result(V0_TASK))
    result = cli("call", "tasks/get", '{"id": "t-1"}', "-u", AGENT, "--a2a-version", "0.3", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert sent(route)["method"] == "tasks/get"
    refused = cli("call", "tasks/get", '{"id": "t-1"}', "-u", AGENT)
    assert refused.exit_code == 2 and route.call_count == 1
    assert "tasks/get is the 0.3 name of GetTask" in refused.stderr and "--a2a-version 0.3" in refused.stderr


@pytest.mark.parametrize("params,kind", [("[1]", "an array"), ('"x"', "a string"), ("5", "a number")])
def test_call_params_of_a_known_method_must_be_an_object(cli, agent, params, kind):
    route = agent.post(RPC).respond(json=rpc_result(V0_TASK))
    result = cli("call", "GetTask", params, "-u", AGENT)
    assert result.exit_code == 2 and not route.called
    assert f"the params of GetTask are a JSON object, not {kind}" in result.stderr


def test_call_redacts_push_secrets_in_dumps_like_the_commands(cli, agent, tmp_path):
    agent.post(RPC).respond(json=rpc_result({"id": "p-1", "taskId": "t-1", "url": "https://cb.example/h", "token": "tok-SECRET-9"}))
    params = '{"taskId": "t-1", "url": "https://cb.example/h", "token": "tok-SECRET-9"}'
    result = cli("call", "CreateTaskPushNotificationConfig", params, "-u", AGENT, "--dump", str(tmp_path), "-o", "json")
    assert result.exit_code == 0, result.stderr
    files = [p for p in tmp_path.iterdir() if p.is_file()]
    assert any(p.name.endswith("request.body") for p in files)
    assert not [p.name for p in files if b"tok-SECRET-9" in p.read_bytes()]


@pytest.mark.parametrize("argv,env", [
    (["diff", "-o", "yaml", "a", "b"], {}),
    (["auth", "status", "-o", "yaml"], {}),
    (["diff", "a", "b"], {"A2ACLI_OUTPUT": "yaml"}),
])  # fmt: skip
def test_an_unknown_output_mode_is_refused_by_commands_that_resolve_no_options(cli, argv, env):
    """`diff` of two dumps and `auth` build their output without the call options: an unknown mode
    is a usage error there too, not read as auto."""
    result = cli(*argv, env=env)
    assert result.exit_code == 2 and "unknown output mode 'yaml'" in result.stderr, result.stderr
