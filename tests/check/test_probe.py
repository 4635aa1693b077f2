"""The live probe (a2acli/check/probe.py) against respx-mocked agents that break the protocol in
one way each: every expected check fails with the right detail; and the report's forms (-o json,
text, --junit) and exit codes."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import httpx
import pytest
from a2a_testkit import AGENT, RPC, rpc_result, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
V1_ONLY = [{"url": RPC, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]
GOOD_TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}


def err(code: int, message: str = "nope", request_id: object = 1) -> dict:
    """A JSON-RPC error; an A2A one carries its google.rpc.ErrorInfo in `data` (A2A 1.0 §9.5)."""
    from a2acli.wire.translate.errors import error_reason

    error: dict = {"code": code, "message": message}
    if -32099 <= code <= -32001:
        error["data"] = [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": error_reason(code), "domain": "a2a-protocol.org"}]
    return {"jsonrpc": "2.0", "id": request_id, "error": error}


def echo_id(answer):
    """A side effect answering with the request's own JSON-RPC id."""

    def respond(request: httpx.Request) -> httpx.Response:
        body = answer(json.loads(request.content))
        body["id"] = json.loads(request.content)["id"]
        return httpx.Response(200, json=body, headers={"X-Request-ID": f"req-{body['id']}"})

    return respond


def serve(respx_mock, card: dict, methods: dict) -> None:
    """The card at both paths; each JSON-RPC method answered by methods[name](request body)."""
    respx_mock.get(CARD_URL).respond(json=card, headers={"Cache-Control": "max-age=60"})
    respx_mock.get(f"{AGENT}/.well-known/agent.json").respond(404)

    def route(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        if body.get("jsonrpc") != "2.0" or "method" not in body:  # JSON-RPC 2.0 §4
            return echo_id(lambda b: err(-32600, "Invalid Request"))(request)
        fn = methods.get(body["method"], lambda b, r: err(-32601, "Method not found"))
        return echo_id(lambda b: fn(b, request))(request)

    respx_mock.post(RPC).mock(side_effect=route)


def good_methods() -> dict:
    """A conforming agent: one completed task, t-1; every rule check/rules.py holds it to kept."""

    def get_task(body, request):
        if request.headers.get("A2A-Version") == "99.0":
            return err(-32009, "VersionNotSupportedError")
        return rpc_result(GOOD_TASK) if body["params"].get("id") == "t-1" else err(-32001, "Task not found")

    def send(body, request):
        message = body["params"].get("message")
        if not isinstance(message, dict) or "role" not in message or not message.get("parts"):
            return err(-32602, "Invalid params")
        if "taskId" in message:  # t-1 is completed; any other is unknown
            return err(-32004, "task is terminal") if message["taskId"] == "t-1" else err(-32001, "Task not found")
        return rpc_result({"task": GOOD_TASK})

    def cancel(body, request):
        return err(-32002, "not cancelable") if body["params"].get("id") == "t-1" else err(-32001, "Task not found")

    return {
        "GetTask": get_task,
        "SendMessage": send,
        "CancelTask": cancel,
        # what the card does not claim (A2A 1.0 §3.3.4); push_methods serves push configs instead
        "SubscribeToTask": lambda b, r: err(-32004, "streaming is not supported"),
        "GetTaskPushNotificationConfig": lambda b, r: err(-32003, "push notifications are not supported"),
        "GetExtendedAgentCard": lambda b, r: err(-32004, "no extended card"),
        "ListTasks": lambda b, r: rpc_result({"tasks": [GOOD_TASK], "nextPageToken": "", "pageSize": 1, "totalSize": 1}),
    }


def checks_of(result) -> dict[str, dict]:
    doc = json.loads(result.stdout)
    return {c["id"].removeprefix("jsonrpc-1.0."): c for c in doc["checks"]}


def run_check(cli, *args: str):
    return cli("check", AGENT, "-o", "json", *args)


def test_a_conforming_agent_passes(cli, respx_mock):
    skills = [{"id": "echo", "name": "Echo", "description": "Repeats input", "tags": ["demo"], "examples": ["hi"]}]
    serve(respx_mock, v1_card(supportedInterfaces=V1_ONLY, capabilities={}, skills=skills), good_methods())
    result = run_check(cli)
    assert result.exit_code == 0, result.stdout
    checks = checks_of(result)
    for name in ("reachable", "task-not-found", "version-unsupported", "method-not-found", "invalid-params", "message-send", "list-tasks", "card.fetch", "card.valid.1.0"):
        assert checks[name]["status"] == "pass", checks[name]
    assert checks["streaming"]["status"] == "skip" and "does not claim" in checks["streaming"]["detail"]
    assert checks["card.cache-control"]["detail"] == "Cache-Control: max-age=60"
    assert checks["card.etag"]["status"] == "warn" and checks["card.etag"]["spec"] == "A2A 1.0 §8.6.1 (SHOULD); TCK CARD-CACHE-002"
    for name in ("error-info", "message-no-role", "message-empty-parts", "send-unknown-task", "get-task", "continue-terminal", "cancel-unknown", "cancel-terminal", "list-tasks-last-page", "list-tasks-artifacts", "list-tasks-filter", "data-model", "blocking", "unclaimed-streaming", "unclaimed-push", "unclaimed-extended-card"):
        assert checks[name]["status"] == "pass", checks[name]
    assert checks["task-not-found"]["requestIds"]  # the exchange's X-Request-ID
    assert json.loads(result.stdout)["passed"] is True


def test_wrong_error_codes_fail_each_with_the_code_received(cli, respx_mock):
    methods = good_methods()
    methods["GetTask"] = lambda b, r: err(-32603, "Internal error")  # never TaskNotFound, never VersionNotSupported
    methods.pop("SendMessage")
    serve(respx_mock, v1_card(supportedInterfaces=V1_ONLY, capabilities={}), {**methods, "x-a2acli/no-such-method": lambda b, r: err(-32600)})
    result = run_check(cli, "--read-only")
    assert result.exit_code == 1
    checks = checks_of(result)
    assert checks["task-not-found"]["status"] == "fail" and "-32603" in checks["task-not-found"]["detail"] and "-32001" in checks["task-not-found"]["detail"]
    assert checks["version-unsupported"]["status"] == "fail" and "expected -32009" in checks["version-unsupported"]["detail"]
    assert checks["method-not-found"]["status"] == "fail" and "-32600" in checks["method-not-found"]["detail"]
    assert checks["invalid-params"]["status"] == "fail" and "-32601" in checks["invalid-params"]["detail"]
    assert checks["message-send"]["status"] == "skip"  # --read-only


@pytest.mark.parametrize(
    ("task", "words"),
    [
        ({**GOOD_TASK, "status": {"state": "completed"}}, "lowercase"),  # a V1 enum spelt the V0 (clix) way
        ({**GOOD_TASK, "kind": "task"}, "kind"),  # V0's discriminator in a V1 answer
    ],
)
def test_a_v1_answer_shaped_the_v0_way_fails_the_round_trip(cli, respx_mock, task, words):
    methods = good_methods()
    methods["SendMessage"] = lambda b, r: rpc_result({"task": task})
    serve(respx_mock, v1_card(supportedInterfaces=V1_ONLY, capabilities={}), methods)
    result = run_check(cli)
    check = checks_of(result)["message-send"]
    assert result.exit_code == 1
    assert check["status"] == "fail" and words in check["detail"].lower(), check


def test_a_v0_answer_without_kind_fails_the_round_trip(cli, respx_mock):
    card = v1_card(supportedInterfaces=[{"url": RPC, "protocolBinding": "JSONRPC", "protocolVersion": "0.3"}], capabilities={})
    serve(
        respx_mock,
        card,
        {
            "tasks/get": lambda b, r: err(-32001) if r.headers.get("A2A-Version", "0.3") == "0.3" else err(-32009),
            "message/send": lambda b, r: rpc_result({"id": "t-1", "contextId": "c-1", "status": {"state": "completed"}}),
        },
    )
    result = cli("check", AGENT, "-o", "json")
    checks = {c["id"]: c for c in json.loads(result.stdout)["checks"]}
    send = checks["jsonrpc-0.3.message-send"]
    assert send["status"] == "fail" and "kind" in send["detail"], send
    assert checks["jsonrpc-0.3.version-missing"]["status"] == "pass"


def test_capabilities_claimed_but_not_served(cli, respx_mock):
    methods = good_methods()
    methods["SendStreamingMessage"] = lambda b, r: err(-32004, "Unsupported operation")
    methods["CreateTaskPushNotificationConfig"] = lambda b, r: err(-32003, "Push notifications not supported")
    methods["GetExtendedAgentCard"] = lambda b, r: rpc_result(v1_card())  # answers without credentials
    methods["ListTasks"] = lambda b, r: rpc_result({"tasks": [GOOD_TASK, {**GOOD_TASK, "id": "t-2"}]})
    card = v1_card(supportedInterfaces=V1_ONLY, capabilities={"streaming": True, "pushNotifications": True, "extendedAgentCard": True})
    serve(respx_mock, card, methods)
    result = run_check(cli)
    assert result.exit_code == 1
    checks = checks_of(result)
    assert checks["streaming"]["status"] == "fail" and "UnsupportedOperationError" in checks["streaming"]["detail"]
    assert checks["push-config"]["status"] == "fail" and "CreateTaskPushNotificationConfig refused" in checks["push-config"]["detail"]
    assert checks["extended-card"]["status"] == "fail" and "WITHOUT credentials" in checks["extended-card"]["detail"]
    assert checks["list-tasks"]["status"] == "fail" and "pageSize 1 gave 2 tasks" in checks["list-tasks"]["detail"]


def test_a_stream_that_ends_without_a_final_event_fails(cli, respx_mock):
    methods = good_methods()
    card = v1_card(supportedInterfaces=V1_ONLY, capabilities={"streaming": True})
    working = {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}}}
    respx_mock.post(RPC, json__method="SendStreamingMessage").respond(
        200, headers={"Content-Type": "text/event-stream"}, content=f"data: {json.dumps({'jsonrpc': '2.0', 'id': 1, 'result': working})}\n\n".encode()
    )
    serve(respx_mock, card, methods)  # after: routes match in the order added
    result = run_check(cli)
    check = checks_of(result)["streaming"]
    assert check["status"] == "fail" and "without a final event" in check["detail"], check


def test_an_invalid_card_fails_the_card_check(cli, respx_mock):
    card = v1_card(supportedInterfaces=V1_ONLY, capabilities={})
    del card["description"]
    serve(respx_mock, card, good_methods())
    result = run_check(cli)
    doc = json.loads(result.stdout)
    assert result.exit_code == 1
    valid = next(c for c in doc["checks"] if c["id"] == "card.valid.1.0")
    assert valid["status"] == "fail" and "$.description" in valid["detail"]
    assert {"severity": "error", "path": "$.description"}.items() <= doc["cards"][0]["findings"][0].items()


def test_warnings_pass_unless_strict(cli, respx_mock):
    methods = good_methods()
    send = methods["SendMessage"]
    methods["SendMessage"] = lambda b, r: err(-32600) if not isinstance(b["params"].get("message"), dict) else send(b, r)
    serve(respx_mock, v1_card(supportedInterfaces=V1_ONLY, capabilities={}), methods)
    assert run_check(cli).exit_code == 0
    assert checks_of(run_check(cli))["invalid-params"]["status"] == "warn"
    assert run_check(cli, "--strict").exit_code == 1


def test_junit_and_text(cli, respx_mock, tmp_path):
    methods = good_methods()
    methods["GetTask"] = lambda b, r: err(-32603)
    serve(respx_mock, v1_card(supportedInterfaces=V1_ONLY, capabilities={}), methods)
    junit = tmp_path / "check.xml"
    result = cli("check", AGENT, "--junit", str(junit))
    assert result.exit_code == 1
    assert "JSONRPC 1.0 http://agent.test/rpc" in result.stdout
    assert "  FAIL  GetTask of an unknown id: -32603" in result.stdout
    assert result.stdout.rstrip().splitlines()[-1].startswith("FAILED: ")
    root = ET.parse(junit).getroot()
    cases = {c.get("name").split(":")[0]: c for c in root.iter("testcase")}
    assert cases["jsonrpc-1.0.task-not-found"].find("failure") is not None
    assert cases["jsonrpc-1.0.method-not-found"].find("failure") is None
    level = cases["jsonrpc-1.0.task-not-found"].find("properties/property[@name='level']")
    assert level is not None and level.get("value") == "MUST"
    assert int(root.get("failures")) >= 1


def test_unreachable_agent_exits_3_with_the_report(cli, respx_mock, tmp_path):
    """Issue 36 item 5: no card is the report's one finding, in every form asked for."""
    respx_mock.get(url__startswith=AGENT).mock(side_effect=httpx.ConnectError("refused"))
    junit = tmp_path / "check.xml"
    result = run_check(cli, "--junit", str(junit))
    assert result.exit_code == 3
    doc = json.loads(result.stdout)
    assert doc["passed"] is False and [c["id"] for c in doc["checks"]] == ["card.fetch"]
    assert doc["checks"][0]["status"] == "fail" and "refused" in doc["checks"][0]["detail"]
    assert ET.parse(junit).getroot().get("failures") == "1"


def test_a_card_file_is_validated_offline(cli, tmp_path, respx_mock):
    card = v1_card(kind="agent-card")
    path = tmp_path / "card.json"
    path.write_text(json.dumps(card))
    result = cli("check", "card", str(path), "-o", "json")
    assert result.exit_code == 0, result.stdout
    doc = json.loads(result.stdout)
    assert any(f["rule"] == "v1-kind" for f in doc["cards"][0]["findings"])
    assert not respx_mock.calls
    broken = cli("check", "card", "-", input=json.dumps({"name": "x"}))
    assert broken.exit_code == 1
    assert "missing required field 'description'" in broken.stdout



@pytest.mark.parametrize("card_of", [lambda: {"name": "x"}, lambda: v1_card()])
def test_a_check_whose_reader_leaves_early_is_no_pass(tmp_path, card_of):
    """`a2a check … | head -3` under `set -o pipefail`: the rows are written as the checks run, so
    a reader that has left cuts the check short, and a check cut short is not a pass (exit 1)."""
    import os
    import subprocess
    import sys

    path = tmp_path / "card.json"
    path.write_text(json.dumps(card_of()))
    r, w = os.pipe()
    os.close(r)
    try:
        out = subprocess.run([sys.executable, "-m", "a2acli", "check", "card", str(path)], stdout=w, stderr=subprocess.PIPE, text=True, timeout=60)
    finally:
        os.close(w)
    assert out.returncode == 1, out.stderr
    assert "Traceback" not in out.stderr and "internal error" not in out.stderr


def test_a_card_that_is_no_json_object_is_said_as_such_from_a_file_and_from_stdin(cli, tmp_path):
    path = tmp_path / "card.json"
    path.write_text("[1]")
    from_file = cli("check", "card", str(path))
    assert from_file.exit_code == 1
    assert "is not an Agent Card (a JSON list)" in from_file.stderr
    assert "hint: an Agent Card is one JSON object: check the file" in from_file.stderr  # not --url: none was given
    from_stdin = cli("check", "card", "-", "-o", "json", input="[1]")
    assert from_stdin.exit_code == 1
    (row,) = [c for c in json.loads(from_stdin.stdout)["checks"] if c["id"].startswith("card.schema.")]
    assert row["id"] == "card.schema.unknown" and row["title"] == "card valid as an A2A Agent Card" and row["status"] == "fail"


@pytest.mark.parametrize(("stdin", "says"), [("", "the card on stdin is empty"), ("{bad", "the card on stdin is not JSON")])
def test_a_card_on_stdin_that_is_no_json_is_an_invalid_card(cli, stdin, says):
    """Like a card file that is no JSON: A2ACLI_ERR_CARD_INVALID, said once, with a hint about the
    input (not about --url: no agent was called)."""
    result = cli("check", "card", "-", "-o", "json", input=stdin)
    assert result.exit_code == 1
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "A2ACLI_ERR_CARD_INVALID"
    assert error["message"].startswith(says) and "the the" not in error["message"]
    assert "--url" not in error["hint"] and "stdin" in error["hint"]

@pytest.mark.spec("A2ACLI_CONFORM_001")
def test_conformance_is_an_alias(cli, tmp_path):
    path = tmp_path / "card.json"
    path.write_text(json.dumps(v1_card()))
    assert cli("conformance", "card", path.as_uri()).exit_code == 0


@pytest.mark.spec("A2ACLI_CARD_GET_002")
def test_card_fetch_validate(cli, respx_mock):
    card = v1_card()
    card["supportedInterfaces"][0]["url"] = "/rpc"
    respx_mock.get(CARD_URL).respond(json=card)
    text = cli("card", "fetch", "-u", AGENT, "--validate")
    assert text.exit_code == 1 and "Test agent" in text.stdout  # text: the card, then its findings
    assert "\nerror: card (1.0) $.supportedInterfaces[0].url: relative URL" in "\n" + text.stderr  # an error, labelled so
    assert "warning: card error" not in text.stderr
    # -o json: one document, the spec's error object standing for the invalid card, its findings in data
    result = cli("card", "fetch", "-u", AGENT, "--validate", "-o", "json")
    assert result.exit_code == 1
    err = json.loads(result.stdout)["error"]
    assert err["code"] == "A2ACLI_ERR_CARD_INVALID" and "$.supportedInterfaces[0].url" in err["message"]
    assert any(f["path"] == "$.supportedInterfaces[0].url" and f["severity"] == "error" for f in err["data"]["findings"])
    respx_mock.get(CARD_URL).respond(json=v1_card())
    assert cli("card", "fetch", "-u", AGENT, "--validate").exit_code == 0
    assert json.loads(cli("card", "fetch", "-u", AGENT, "--validate", "-o", "json").stdout)["name"] == "Test agent"  # a valid card is the document


# -- push delivery (--webhook) ------------------------------------------------------------------------

PUSH_CARD = {"pushNotifications": True}


def push_methods(deliver=None) -> tuple[dict, list[dict]]:
    """good_methods with push configs accepted, and the push configs SendMessage got; SendMessage
    with a push config calls deliver(url, token) (from inside the mocked agent, as the agent
    would POST) before answering."""
    methods = good_methods()
    sent = methods["SendMessage"]
    seen: list[dict] = []

    def send(body, request):
        config = (body["params"].get("configuration") or {}).get("taskPushNotificationConfig")
        if config:
            seen.append(config)
            if deliver is not None:
                deliver(config["url"], config["token"])
        return sent(body, request)

    configs: dict[str, dict] = {}  # kept as a conforming agent keeps them: a deleted one is gone

    def create(body, request):
        configs[body["params"]["id"]] = {"taskId": "t-1", "id": body["params"]["id"], "url": body["params"]["url"]}
        return rpc_result(configs[body["params"]["id"]])

    def get(body, request):
        config = configs.get(body["params"]["id"])
        return rpc_result(config) if config else err(-32001, "no such config")

    methods["SendMessage"] = send
    methods["CreateTaskPushNotificationConfig"] = create
    methods["GetTaskPushNotificationConfig"] = get
    methods["ListTaskPushNotificationConfigs"] = lambda b, r: rpc_result({"configs": list(configs.values())})
    methods["DeleteTaskPushNotificationConfig"] = lambda b, r: rpc_result({}) if configs.pop(b["params"]["id"], None) else err(-32001)
    return methods, seen


def post(url: str, body: dict, headers: dict) -> int:
    """A delivery over a real socket (respx mocks httpx only), as the agent makes it."""
    import urllib.error
    import urllib.request

    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json", **headers}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=5) as resp:
            return resp.status
    except urllib.error.HTTPError as e:
        return e.code


def test_push_delivery_that_never_comes_fails_with_the_task_and_the_wait(cli, respx_mock):
    methods, seen = push_methods()
    serve(respx_mock, v1_card(supportedInterfaces=V1_ONLY, capabilities=PUSH_CARD), methods)
    result = run_check(cli, "--webhook", "--timeout", "0.5")
    assert result.exit_code == 1
    check = checks_of(result)["push-delivery"]
    (config,) = seen
    receiver = config["url"].rsplit("/a2a-check/", 1)[0]
    assert receiver.startswith("http://127.0.0.1:") and config["url"].endswith("/a2a-check/jsonrpc-1.0") and len(config["token"]) >= 16
    assert check["status"] == "fail"
    assert check["detail"] == (
        f"no delivery about task t-1 with its token reached {receiver} within 0.5s; the receiver got no request at all (can the agent reach 127.0.0.1 on this machine?)"
    )
    assert checks_of(result)["push-config"]["status"] == "pass"


def test_push_delivery_with_a_wrong_token_or_for_another_task_fails(cli, respx_mock):
    def deliver(url, token):
        other = {"statusUpdate": {"taskId": "t-other", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}}}
        assert post(url, other, {"X-A2A-Notification-Token": token}) == 200
        mine = {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}}
        post(url, mine, {"X-A2A-Notification-Token": "not-" + token})

    methods, _ = push_methods(deliver)
    serve(respx_mock, v1_card(supportedInterfaces=V1_ONLY, capabilities=PUSH_CARD), methods)
    result = run_check(cli, "--webhook", "--timeout", "2")  # (each call's deadline too: room for a loaded machine)
    check = checks_of(result)["push-delivery"]
    assert result.exit_code == 1
    assert check["status"] == "fail"
    assert "; 1 about it without the right token (first: X-A2A-Notification-Token does not match the config's token)" in check["detail"]
    assert "; 1 other request(s) (other tasks, or not A2A events)" in check["detail"]


def test_push_delivery_with_the_token_passes(cli, respx_mock):
    def deliver(url, token):
        task = {"task": {**GOOD_TASK}}
        assert post(url, task, {"X-A2A-Notification-Token": token}) == 200

    methods, _ = push_methods(deliver)
    serve(respx_mock, v1_card(supportedInterfaces=V1_ONLY, capabilities=PUSH_CARD), methods)
    result = run_check(cli, "--webhook", "--timeout", "5")
    assert result.exit_code == 0, result.stdout
    check = checks_of(result)["push-delivery"]
    assert check["status"] == "pass", check
    assert check["detail"].startswith("V1 StreamResponse (task) about task t-1, token in X-A2A-Notification-Token")


def test_push_delivery_is_skipped_with_a_reason(cli, respx_mock):
    methods, _ = push_methods()
    serve(respx_mock, v1_card(supportedInterfaces=V1_ONLY, capabilities=PUSH_CARD), methods)
    check = checks_of(run_check(cli))["push-delivery"]
    assert check["status"] == "skip" and check["detail"] == "needs --webhook (a receiver on 127.0.0.1; creates a task)"
    serve(respx_mock, v1_card(supportedInterfaces=V1_ONLY, capabilities={"pushNotifications": False}), methods)
    result = run_check(cli, "--webhook")
    assert result.exit_code == 0
    check = checks_of(result)["push-delivery"]
    assert check["status"] == "skip" and check["detail"] == "the card does not claim push notifications"
    assert not [c for c in respx_mock.calls if b"taskPushNotificationConfig" in c.request.content]  # no task created for it


def test_webhook_and_read_only_do_not_mix(cli):
    result = cli("check", AGENT, "--webhook", "--read-only")
    assert result.exit_code == 2
    assert "--webhook creates a task, --read-only creates none" in result.stderr


def test_an_unreachable_interface_fails_reachable_with_the_hint(cli, respx_mock):
    serve(respx_mock, v1_card(supportedInterfaces=V1_ONLY, capabilities={}), {})
    respx_mock.post(RPC).mock(side_effect=httpx.ConnectError("connection refused"))
    result = run_check(cli)
    assert result.exit_code != 0
    detail = checks_of(result)["reachable"]["detail"]
    assert checks_of(result)["reachable"]["status"] == "fail" and "(hint: " in detail, detail


def test_a_check_dumps_all_its_calls_into_one_new_directory_and_says_where(cli, respx_mock, tmp_path):
    """One run, a call per interface and probe: one dump; a second run into it is refused (issue 25)."""
    serve(respx_mock, v1_card(), good_methods())  # two interfaces (1.0 and 0.3): a Call each (this agent fails some checks: exit 1)
    where = tmp_path / "check-dump"
    result = run_check(cli, "--dump", str(where))
    assert result.exit_code == 1 and json.loads(result.stdout)["summary"]["pass"] > 0, result.stdout
    entries = [json.loads(line) for line in (where / "index.jsonl").read_text().splitlines()]
    assert {e["version"] for e in entries if e.get("files")} >= {"1.0", "0.3"}  # every interface's calls, one dump
    written = len(list(where.glob("*.request.http")))
    assert f"dump: {written} exchange(s) written to {where}; compare it with another run's: a2a diff {where} OTHER_DUMP" in result.stderr
    again = run_check(cli, "--dump", str(where))
    assert again.exit_code == 2 and "already holds a dump" in json.loads(again.stdout)["error"]["message"]


@pytest.mark.spec("A2ACLI_CONFORM_001")
def test_a_deviating_agent_fails_each_rule_it_breaks_with_its_section(cli, respx_mock):
    """Issue 37: each area's rule, broken by a mocked agent, is a finding citing A2A 1.0 and the TCK."""
    methods = good_methods()
    offset_task = {**GOOD_TASK, "status": {"state": "TASK_STATE_COMPLETED", "timestamp": "2025-01-01T10:00:00+00:00"}, "artifacts": []}
    methods["SendMessage"] = lambda b, r: rpc_result({"task": offset_task})  # accepts anything, even no role
    methods["GetTask"] = lambda b, r: err(-32009) if r.headers.get("A2A-Version") == "99.0" else {"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "gone"}}
    methods["ListTasks"] = lambda b, r: rpc_result({"tasks": [offset_task]})  # no nextPageToken, artifacts without includeArtifacts
    methods["CancelTask"] = lambda b, r: err(-32603, "boom")
    serve(respx_mock, v1_card(supportedInterfaces=V1_ONLY, capabilities={}), methods)
    result = run_check(cli)
    assert result.exit_code == 1
    checks = checks_of(result)
    expect = {
        "data-model": "offset +00:00 (1.0 allows only 'Z')",
        "message-no-role": "answered with success",
        "message-empty-parts": "answered with success",
        "send-unknown-task": "answered with success",
        "continue-terminal": "answered with success",
        "list-tasks-last-page": "no nextPageToken field",
        "list-tasks-artifacts": "carry artifacts without includeArtifacts",
        "cancel-unknown": "-32603",
        "cancel-terminal": "-32603",
    }
    for name, words in expect.items():
        assert checks[name]["status"] == "fail" and words in checks[name]["detail"], checks[name]
    assert checks["data-model"]["spec"].startswith("A2A 1.0 §4.1, §5.5, §5.6.1 (MUST); TCK DM-TASK-001")
    info = checks["error-info"]  # ErrorInfo is a SHOULD in JSON-RPC's error.data (§9.5)
    assert info["status"] == "warn" and "no google.rpc.ErrorInfo in error.data" in info["detail"] and info["spec"] == "A2A 1.0 §9.5 (SHOULD); TCK JSONRPC-ERR-003"
    assert checks["message-no-role"]["spec"] == "A2A 1.0 §3.3.2 (MUST); TCK CORE-ERR-002"
    assert_graded_by_level(checks.values())


def assert_graded_by_level(checks) -> None:
    """Issue 45: each result names its row of check/rules.py and the level its grade follows."""
    from a2acli.check.rules import RULES

    for c in checks:
        assert c["rule"] in RULES and c["level"] in ("MUST", "SHOULD", "MAY"), c
        assert c["status"] != "fail" or c["level"] == "MUST", c
        assert c["status"] != "warn" or c["level"] == "SHOULD", c
        assert f"({c['level']}" in c["spec"], c


def test_the_same_card_keeps_its_verdict_and_counts_are_plural(cli, respx_mock):
    """Issue 36 item 5: a card that fails under 1.0 does not pass under 0.3; `1 warning`."""
    card = v1_card(supportedInterfaces=V1_ONLY, capabilities={})
    del card["description"]
    serve(respx_mock, card, good_methods())
    doc = json.loads(run_check(cli).stdout)
    valid = {c["id"]: c for c in doc["checks"] if c["id"].startswith("card.valid")}
    assert valid["card.valid.0.3"]["status"] == valid["card.valid.1.0"]["status"] == "fail"
    assert "1 error," in valid["card.valid.1.0"]["detail"]
    text = run_check(cli, "-o", "text").stdout
    assert "FAIL  card valid (A2A-Version 0.3): the same card as under 1.0: " in text
    assert ", 1 warning, " in text.splitlines()[-1]


def test_a_bare_host_port_given_to_check_is_read_as_url_reads_it(cli):
    """`a2a check localhost:PORT` reads the agent as `-u localhost:PORT` does (http on loopback),
    not as a malformed --url (exit 2): nothing listens there, so discovery fails (exit 3)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    result = cli("check", f"localhost:{port}")
    assert result.exit_code == 3, result.stdout + result.stderr
    assert f"http://localhost:{port}/.well-known/agent-card.json" in result.stdout + result.stderr
    assert "must be http(s)://" not in result.stdout + result.stderr


# -- issue 45: what the TCK finds, no false alarms, grades that follow the level ----------------------

V03_ONLY = [{"url": RPC, "protocolBinding": "JSONRPC", "protocolVersion": "0.3"}]
V0_TASK = {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "completed"}}


def v03_methods() -> dict:
    """A conforming 0.3 JSON-RPC agent (V0 method names): one completed task t-1, push configs kept."""
    configs: dict[str, dict] = {}

    def config_id(b):
        return (b["params"].get("pushNotificationConfig") or {}).get("id") or b["params"].get(
            "pushNotificationConfigId"
        )

    def create(b, r):
        configs[config_id(b)] = {"taskId": "t-1", "pushNotificationConfig": b["params"]["pushNotificationConfig"]}
        return rpc_result(configs[config_id(b)])

    def send(b, r):
        message = b["params"].get("message")
        if not isinstance(message, dict) or not message.get("parts") or "role" not in message:
            return err(-32602)
        return err(-32001) if "taskId" in message else rpc_result(V0_TASK)

    return {
        "tasks/get": lambda b, r: (
            rpc_result(V0_TASK) if b["params"].get("id") == "t-1" else err(-32001, "Task not found")
        ),
        "message/send": send,
        "tasks/cancel": lambda b, r: err(-32002) if b["params"].get("id") == "t-1" else err(-32001),
        "tasks/pushNotificationConfig/set": create,
        "tasks/pushNotificationConfig/get": lambda b, r: (
            rpc_result(configs[config_id(b)]) if config_id(b) in configs else err(-32001)
        ),
        "tasks/pushNotificationConfig/list": lambda b, r: rpc_result(list(configs.values())),
        "tasks/pushNotificationConfig/delete": lambda b, r: (
            {"jsonrpc": "2.0", "result": None} if configs.pop(config_id(b), None) else err(-32001)
        ),
    }


def all_checks(result) -> dict[str, dict]:
    doc = json.loads(result.stdout)
    assert "checks" in doc, doc
    return {c["id"]: c for c in doc["checks"]}


@pytest.mark.parametrize(
    ("answer", "status", "words"),
    [({"jsonrpc": "2.0"}, "fail", "no `result` member"), ({"jsonrpc": "2.0", "result": None}, "pass", "null")],
)
def test_a_03_push_config_delete_without_a_result_member_fails(cli, respx_mock, answer, status, words):
    """a2a-sdk 0.3.26 / 0.2.16 answer `{"id":3,"jsonrpc":"2.0"}`: JSON-RPC 2.0 §5 requires `result`
    on success (the client reads it as null; check must not)."""
    methods = v03_methods()
    delete = methods["tasks/pushNotificationConfig/delete"]
    methods["tasks/pushNotificationConfig/delete"] = lambda b, r: (
        {**answer} if delete(b, r).get("result", 1) is None else err(-32001)
    )
    serve(respx_mock, v1_card(supportedInterfaces=V03_ONLY, capabilities={"pushNotifications": True}), methods)
    check = all_checks(run_check(cli))["jsonrpc-0.3.push-delete-result"]
    assert check["status"] == status and words in check["detail"], check
    assert check["level"] == "MUST" and "JSON-RPC 2.0 §5" in check["spec"]


def sloppy_route(methods: dict):
    """As a2a-sdk 0.2.16: a request without `method` is run as message/send, and error replies to a
    wrong jsonrpc version, an unknown method and malformed params carry no id."""

    def route(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        if body.get("jsonrpc") != "2.0":
            return httpx.Response(
                200, json={"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}}
            )
        method = body.get("method", "SendMessage")
        if method not in methods:
            return httpx.Response(
                200, json={"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}}
            )
        if method == "SendMessage" and not isinstance(body["params"].get("message"), dict):
            if "method" not in body:  # executed as a message
                return httpx.Response(200, json=rpc_result({"task": GOOD_TASK}, body["id"]))
            return httpx.Response(200, json={"jsonrpc": "2.0", "error": {"code": -32602, "message": "Invalid params"}})
        return echo_id(lambda b: methods[method](b, request))(request)

    return route


@pytest.mark.spec("A2ACLI_CONFORM_001")
def test_a_request_without_method_executed_and_error_replies_without_the_id_fail(cli, respx_mock):
    """JSON-RPC 2.0 §4: no `method` is -32600, not a message/send; §5: an error reply carries the
    request's id (null only when it could not be read)."""
    serve(respx_mock, v1_card(supportedInterfaces=V1_ONLY, capabilities={}), {})
    respx_mock.post(RPC).mock(side_effect=sloppy_route(good_methods()))
    result = run_check(cli)
    assert result.exit_code == 1
    checks = checks_of(result)
    assert checks["no-method"]["status"] == "fail" and "answered with success" in checks["no-method"]["detail"], checks[
        "no-method"
    ]
    assert checks["jsonrpc-version"]["status"] == "pass"  # the code is right...
    ids = checks["error-id"]  # ...the id is not
    assert ids["status"] == "fail" and ids["level"] == "MUST", ids
    assert (
        "jsonrpc-version: id None, the request's was" in ids["detail"]
        and "method-not-found: id missing" in ids["detail"]
        and "invalid-params: id missing" in ids["detail"]
    )
    assert checks["method-not-found"]["status"] == "pass" and checks["invalid-params"]["status"] == "pass"


def test_a_conforming_agent_passes_the_envelope_probes(cli, respx_mock):
    serve(respx_mock, v1_card(supportedInterfaces=V1_ONLY, capabilities={}), good_methods())
    checks = checks_of(run_check(cli))
    for name in ("no-method", "jsonrpc-version", "error-id"):
        assert checks[name]["status"] == "pass", checks[name]
    assert "4 error replies" in checks["error-id"]["detail"]


REST03 = f"{AGENT}/rest"
NOT_FOUND_03 = {
    "error": {
        "code": 404,
        "status": "NOT_FOUND",
        "message": "Task not found",
        "details": [
            {
                "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": "TASK_NOT_FOUND",
                "domain": "a2a-protocol.org",
            }
        ],
    }
}


@pytest.mark.spec("A2ACLI_CONFORM_001")
@pytest.mark.parametrize(
    ("post", "status"), [((200, {"Content-Type": "text/event-stream"}, b""), "warn"), ((404, {}, NOT_FOUND_03), "pass")]
)
def test_a_03_rest_subscribe_by_post_to_an_unknown_task_is_probed(cli, respx_mock, post, status):
    """0.3 §7.9 and §3.5.3 give POST …:subscribe, the proto GET: both are probed; an empty stream
    for an unknown task (the demo's, before) is a finding."""
    card = v1_card(
        supportedInterfaces=[{"url": REST03, "protocolBinding": "HTTP+JSON", "protocolVersion": "0.3"}],
        capabilities={"streaming": True},
    )
    respx_mock.get(CARD_URL).respond(json=card, headers={"Cache-Control": "max-age=60"})
    respx_mock.get(f"{AGENT}/.well-known/agent.json").respond(404)
    code, headers, body = post
    respx_mock.post(url__regex=r".*/v1/tasks/[^/]+:subscribe$").respond(
        code, headers=headers, **({"json": body} if isinstance(body, dict) else {"content": body})
    )
    respx_mock.route(url__startswith=REST03).respond(404, json=NOT_FOUND_03)
    checks = all_checks(run_check(cli, "--read-only"))
    assert checks["rest-0.3.subscribe-unknown"]["status"] == "pass"
    post_check = checks["rest-0.3.subscribe-unknown-post"]
    assert post_check["status"] == status, post_check
    assert post_check["spec"].startswith("A2A 0.3 §7.9, §3.5.3 (")
    if status == "warn":  # 0.3 names the error without a MUST: a SHOULD
        assert post_check["level"] == "SHOULD" and "closed without a single event" in post_check["detail"]


def test_a_version_99_answered_as_if_served_is_a_must_broken(cli, respx_mock):
    """1.0 §3.6.2: MUST refuse a version the interface does not serve: a failure (it was a
    warning over gRPC, whose services are versioned by package)."""
    methods = good_methods()
    methods["GetTask"] = lambda b, r: err(-32001, "Task not found")  # the header is never read
    serve(respx_mock, v1_card(supportedInterfaces=V1_ONLY, capabilities={}), methods)
    check = checks_of(run_check(cli, "--read-only"))["version-unsupported"]
    assert check["status"] == "fail" and check["level"] == "MUST" and check["spec"].startswith("A2A 1.0 §3.6.2 (MUST)")


V0_CARD = {
    "protocolVersion": "0.3.0",
    "name": "Old agent",
    "description": "0.3 only",
    "url": RPC,
    "preferredTransport": "JSONRPC",
    "version": "1",
    "capabilities": {},
    "defaultInputModes": ["text/plain"],
    "defaultOutputModes": ["text/plain"],
    "skills": [{"id": "echo", "name": "Echo", "description": "Repeats input", "tags": ["demo"]}],
}


def test_caching_rules_of_1_0_are_not_applied_to_a_card_that_declares_only_0_3(cli, respx_mock):
    """1.0 §8.6.1's SHOULDs (Cache-Control, ETag) on a 0.3-only card were false alarms."""
    respx_mock.get(CARD_URL).respond(json=V0_CARD)  # no caching header at all
    respx_mock.get(f"{AGENT}/.well-known/agent.json").respond(json=V0_CARD)
    respx_mock.post(RPC).mock(side_effect=lambda r: echo_id(lambda b: err(-32001))(r))
    checks = all_checks(run_check(cli, "--read-only"))
    for name in ("card.cache-control", "card.etag", "card.last-modified"):
        assert checks[name]["status"] == "skip" and "A2A 0.3 has no caching rule" in checks[name]["detail"], checks[
            name
        ]


def test_a_card_without_skill_examples_is_valid_without_a_warning(cli, respx_mock):
    serve(
        respx_mock, v1_card(supportedInterfaces=V1_ONLY, capabilities={}), good_methods()
    )  # its skill has no examples
    check = checks_of(run_check(cli))["card.valid.1.0"]
    assert check["status"] == "pass" and "0 warnings" in check["detail"], check


def test_an_agent_that_declares_0_2_is_held_to_agent_json_not_agent_card_json(cli, respx_mock):
    old = {**V0_CARD, "protocolVersion": "0.2.6"}
    respx_mock.get(CARD_URL).respond(404)
    respx_mock.get(f"{AGENT}/.well-known/agent.json").respond(json=old)
    respx_mock.post(RPC).mock(side_effect=lambda r: echo_id(lambda b: err(-32001))(r))
    checks = all_checks(run_check(cli, "--read-only"))
    new, legacy = checks["card.path.agent-card.json"], checks["card.path.agent.json"]
    assert (
        new["status"] == "skip" and "the card declares 0.2.6, whose path is /.well-known/agent.json" in new["detail"]
    ), new
    assert legacy["status"] == "pass", legacy
    assert not [c for c in checks.values() if c["status"] == "fail" and c["id"].startswith("card.path")]


def test_an_extended_card_refused_with_an_internal_error_is_a_finding(cli, respx_mock):
    """a2a-sdk 1.3's 0.3 side refuses the extended card without credentials with -32603, not an auth
    error: graded SKIP before, a warning now (the refusal's form)."""
    methods = good_methods()
    methods["GetExtendedAgentCard"] = lambda b, r: err(-32603, "Internal error")
    serve(respx_mock, v1_card(supportedInterfaces=V1_ONLY, capabilities={"extendedAgentCard": True}), methods)
    check = checks_of(run_check(cli))["extended-card"]
    assert check["status"] == "warn" and check["level"] == "SHOULD", check
    assert "-32603" in check["detail"] and "instead of an auth refusal" in check["detail"]
    assert check["spec"].startswith("A2A 1.0 §3.1.11 (SHOULD)")
    assert_graded_by_level(checks_of(run_check(cli)).values())


def test_the_text_report_ends_with_a_recap_of_every_failure_and_warning_with_its_id(cli, respx_mock):
    methods = good_methods()
    methods["GetTask"] = lambda b, r: err(-32603)  # task-not-found and version-unsupported fail
    send = methods["SendMessage"]
    methods["SendMessage"] = lambda b, r: err(-32600) if not isinstance(b["params"].get("message"), dict) else send(b, r)
    serve(respx_mock, v1_card(supportedInterfaces=V1_ONLY, capabilities={}), methods)
    result = cli("check", AGENT, "-o", "text")
    lines = result.stdout.rstrip().splitlines()
    recap = lines[lines.index(next(x for x in lines if x.endswith(("warnings:", "warning:")))) :]
    assert recap[0] == "3 failures and 2 warnings:" and lines[-1].startswith("FAILED: "), recap
    assert "  FAIL  jsonrpc-1.0.task-not-found (MUST): GetTask of an unknown id: -32603" in recap[1]
    assert any(x.startswith("  WARN  jsonrpc-1.0.invalid-params (SHOULD): malformed params: -32600") for x in recap)
    assert any(x.startswith("  WARN  card.etag (SHOULD): ") for x in recap)
    # --only-problems: the failures and warnings alone, the verdict's counts unchanged
    only = cli("check", AGENT, "-o", "text", "--only-problems")
    assert "  PASS  " not in only.stdout and "  skip  " not in only.stdout
    assert only.stdout.strip().splitlines() == recap  # the recap and the verdict alone
    doc = json.loads(cli("check", AGENT, "-o", "json", "--only-problems").stdout)
    assert {c["status"] for c in doc["checks"]} == {"fail", "warn"} and doc["summary"]["pass"] > 0


def test_a_passing_report_has_no_recap(cli, respx_mock):
    serve(respx_mock, v1_card(supportedInterfaces=V1_ONLY, capabilities={}), good_methods())
    respx_mock.get(CARD_URL).respond(json=v1_card(supportedInterfaces=V1_ONLY, capabilities={}), headers={"Cache-Control": "max-age=60", "ETag": '"1"'})
    result = cli("check", AGENT, "-o", "text")
    assert result.exit_code == 0, result.stdout
    assert "failure" not in result.stdout and result.stdout.rstrip().splitlines()[-1].startswith("passed: ")


def test_progress_goes_to_stderr_at_a_terminal_only(tmp_path):
    """One line per binding x version while probing, on stderr when it is a terminal; a pipe or
    a log gets the report alone. Against a stand-in on 127.0.0.1 (tests/hostile_server.py)."""
    import os
    import subprocess
    import sys

    from hostile_server import hostile
    from pty_terminal import Terminal

    def refuse(handler, seen):
        rid = json.loads(seen.body or b"{}").get("id")
        handler._send(200, {"Content-Type": "application/json"}, json.dumps({"jsonrpc": "2.0", "id": rid, "error": {"code": -32001, "message": "Task not found"}}).encode())

    env = {**os.environ, "A2ACLI_GLOBAL_CONFIG": os.devnull, "A2ACLI_LOCAL_CONFIG": os.devnull}
    with hostile() as agent:
        agent.card(v1_card(url=f"{agent.url}/rpc", capabilities={}))
        agent.rpc(refuse)
        argv = [sys.executable, "-m", "a2acli", "check", agent.url, "-o", "text", "--read-only"]
        at = Terminal(argv, {**env, "TERM": "xterm"})  # stdout and stderr on a terminal
        assert at.finish(60) in (0, 1)
        text = at.text()
        assert f"probing JSONRPC 1.0 {agent.url}/rpc (1 of 2)" in text and f"probing JSONRPC 0.3 {agent.url}/rpc (2 of 2)" in text, text
        piped = subprocess.run(argv, capture_output=True, env=env, timeout=60)
        assert "probing" not in piped.stderr.decode() and "checking the Agent Card" not in piped.stderr.decode()
        assert "probing" not in piped.stdout.decode()  # never on stdout
        assert piped.stdout.decode().rstrip().splitlines()[-1].startswith(("passed: ", "FAILED: "))


def test_a_grpc_agent_that_serves_a2a_version_99_fails_version_unsupported(cli):
    """Issue 45: a gRPC stand-in (its services versioned by package) that never reads the
    a2a-version metadata: every call is TaskNotFoundError, version 99 too. 1.0 §3.6.2 says MUST:
    a failure, no longer a warning."""
    grpc = pytest.importorskip("grpc")
    from google.protobuf import any_pb2
    from google.rpc import error_details_pb2, status_pb2
    from hostile_server import hostile

    seen: list[str] = []  # the a2a-version of each call

    def not_found(request, context):
        seen.append(dict(context.invocation_metadata() or ()).get("a2a-version", ""))
        detail = any_pb2.Any()
        detail.Pack(error_details_pb2.ErrorInfo(reason="TASK_NOT_FOUND", domain="a2a-protocol.org"))
        status = status_pb2.Status(code=grpc.StatusCode.NOT_FOUND.value[0], message="task not found", details=[detail])
        context.set_trailing_metadata((("grpc-status-details-bin", status.SerializeToString()),))
        context.abort(grpc.StatusCode.NOT_FOUND, "task not found")

    def streamed(request, context):
        not_found(request, context)
        yield b""

    class AnyMethod(grpc.GenericRpcHandler):
        def service(self, details):
            if "Subscribe" in details.method or "Stream" in details.method:
                return grpc.unary_stream_rpc_method_handler(streamed)
            return grpc.unary_unary_rpc_method_handler(not_found)

    from concurrent import futures

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    server.add_generic_rpc_handlers((AnyMethod(),))
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        with hostile() as agent:
            card = v1_card(supportedInterfaces=[{"url": f"grpc://127.0.0.1:{port}", "protocolBinding": "GRPC", "protocolVersion": "1.0"}], capabilities={})
            agent.card(card)
            result = cli("check", agent.url, "-o", "json", "--read-only")
    finally:
        server.stop(0)
    checks = all_checks(result)
    assert checks["grpc-1.0.task-not-found"]["status"] == "pass", checks["grpc-1.0.task-not-found"]
    check = checks["grpc-1.0.version-unsupported"]
    assert check["status"] == "fail" and check["level"] == "MUST" and "-32001" in check["detail"], check
    assert "99.0" in seen  # the probe did send it, as metadata
