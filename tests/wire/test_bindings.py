"""The bindings, pure: encoding a call into an HTTP request description and reading answers,
events and errors back (no I/O: answers are small stand-ins)."""

from __future__ import annotations

import json

import pytest

from a2acli.errors import AuthError, HttpError, InvalidResponseError, RpcError, UsageError
from a2acli.wire import Wire
from a2acli.wire.bindings import binding_info, get_binding, parse_transport
from a2acli.wire.bindings.rest import decode_answer, decode_request, transcode
from a2acli.wire.dialects import DIALECTS
from a2acli.wire.methods import METHODS, NoV0FormError

SPEC = DIALECTS["spec"]
REST = get_binding(parse_transport("rest"))
JSONRPC = get_binding(parse_transport("JSONRPC"))


class Answer:
    def __init__(self, status: int, body: bytes, content_type: str = "application/json", version: str = "1.0") -> None:
        self.status, self.response_body, self.reason, self.url = status, body, "", "http://agent.test/x"
        self._headers = {"content-type": content_type}
        self._version = version

    @property
    def content_type(self) -> str:
        return self._headers["content-type"]

    @property
    def request_id(self) -> str | None:
        return None

    def header(self, name: str, *, sent: bool = False) -> str | None:
        return self._version if sent and name.lower() == "a2a-version" else self._headers.get(name.lower())


@pytest.mark.parametrize("spelling,flag", [("JSONRPC", "jsonrpc"), ("json-rpc", "jsonrpc"), ("HTTP+JSON", "rest"), ("rest", "rest"), ("GRPC", "grpc"), ("Rest", "rest")])
def test_transport_spellings(spelling, flag):
    assert binding_info(spelling).flag == flag


def test_an_unknown_transport_is_a_usage_error():
    with pytest.raises(UsageError, match="unknown transport 'pigeon'"):
        parse_transport("pigeon")


def test_v1_get_task_puts_the_id_in_the_path_and_history_length_in_the_query():
    enc = REST.encode(METHODS["GetTask"], {"id": "a/b c", "historyLength": 2}, wire=Wire.V1, dialect=SPEC, tenant="t1")
    assert (enc.request.verb, enc.request.path, enc.request.query, enc.request.body) == ("GET", "/t1/tasks/a%2Fb%20c", (("historyLength", "2"),), None)
    assert dict(enc.request.headers)["Accept"] == "application/a2a+json"


def test_v1_list_tasks_query_is_camel_case_with_booleans_spelt_out():
    enc = REST.encode(METHODS["ListTasks"], {"pageSize": 5, "includeArtifacts": True, "status": "TASK_STATE_WORKING"}, wire=Wire.V1, dialect=SPEC)
    assert enc.request.query == (("pageSize", "5"), ("includeArtifacts", "true"), ("status", "TASK_STATE_WORKING"))


def test_v0_send_body_is_03_proto_json_and_streams_ask_for_sse():
    params = {"message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "hi"}]}}
    enc = REST.encode(METHODS["SendStreamingMessage"], params, wire=Wire.V0, dialect=SPEC)
    body = json.loads(enc.request.body)
    assert enc.request.path == "/v1/message:stream" and body["message"]["content"] == [{"text": "hi"}]
    assert dict(enc.request.headers)["Accept"] == "text/event-stream" and enc.stream


def test_v0_create_push_config_body_is_the_config_as_the_proto_route_says_and_the_other_form_the_whole_request():
    """0.3 proto: `body: "config"`: the TaskPushNotificationConfig is the body, configId (a field
    neither the path nor the body takes) the query; the other form (a2a-sdk's) the whole request."""
    params = {"taskId": "t1", "id": "p1", "url": "http://h/"}
    enc = REST.encode(METHODS["CreateTaskPushNotificationConfig"], params, wire=Wire.V0, dialect=SPEC)
    assert enc.request.path == "/v1/tasks/t1/pushNotificationConfigs" and enc.request.query == (("configId", "p1"),)
    assert json.loads(enc.request.body) == {"name": "tasks/t1/pushNotificationConfigs/p1", "pushNotificationConfig": {"id": "p1", "url": "http://h/"}}
    other = REST.encode_other(METHODS["CreateTaskPushNotificationConfig"], params, wire=Wire.V0, dialect=SPEC)
    assert other is not None and other.request.path == enc.request.path and other.request.query == ()
    assert json.loads(other.request.body) == {"parent": "tasks/t1", "configId": "p1", "config": json.loads(enc.request.body)}
    for sent in (enc, other):  # a recorded request reads back in either form (`a2a diff`, `translate`)
        target = "/api" + sent.request.path + ("?" + "&".join(f"{k}={v}" for k, v in sent.request.query) if sent.request.query else "")
        assert decode_request(METHODS["CreateTaskPushNotificationConfig"], Wire.V0, target, sent.request.body or b"") == params
    assert REST.encode_other(METHODS["CreateTaskPushNotificationConfig"], params, wire=Wire.V1, dialect=SPEC) is None
    assert REST.encode_other(METHODS["GetTask"], {"id": "t1"}, wire=Wire.V0, dialect=SPEC) is None


def test_v0_list_tasks_with_parameters_is_a_usage_error():
    with pytest.raises(UsageError, match="no form for pageSize"):
        REST.encode(METHODS["ListTasks"], {"pageSize": 3}, wire=Wire.V0, dialect=SPEC._replace(v0_list_tasks=True))


@pytest.mark.parametrize("transport,form", [("jsonrpc", "tasks/list (limit/offset)"), ("rest", "GET /v1/tasks"), ("grpc", "")])
def test_v0_list_tasks_is_refused_in_the_spec_dialect_on_every_binding(transport, form):
    """0.3 has no ListTasks: one rule for every binding, and a hint naming what --force sends."""
    with pytest.raises(NoV0FormError, match="has no V0 \\(0.3\\) form in the `spec` dialect") as caught:
        get_binding(parse_transport(transport)).encode(METHODS["ListTasks"], {}, wire=Wire.V0, dialect=SPEC)
    assert (f"--force sends the extension {form} anyway" if form else "with --transport jsonrpc or rest, --force sends") in (caught.value.hint or "")


def test_a_missing_path_field_is_a_usage_error():
    with pytest.raises(UsageError, match="needs a non-empty `id`"):
        transcode(METHODS["GetTask"], METHODS["GetTask"].rest, {})


@pytest.mark.parametrize("name,params", [
    ("GetTask", {"id": "t-1", "historyLength": 3}),
    ("ListTasks", {"pageSize": 2, "pageToken": "x", "includeArtifacts": True}),
    ("CancelTask", {"id": "t-1"}),
    ("GetTaskPushNotificationConfig", {"taskId": "t-1", "id": "p-1"}),
    ("SendMessage", {"message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "x"}]}}),
])
def test_a_recorded_v1_request_reads_back_as_its_params(name, params):
    enc = REST.encode(METHODS[name], params, wire=Wire.V1, dialect=SPEC)
    target = "/api" + enc.request.path + ("?" + "&".join(f"{k}={v}" for k, v in enc.request.query) if enc.request.query else "")
    assert decode_request(METHODS[name], Wire.V1, target, enc.request.body or b"") == params


def test_a_recorded_v0_request_reads_back_as_v1_params():
    params = {"taskId": "t-1", "id": "p-1", "url": "http://h/"}
    enc = REST.encode(METHODS["CreateTaskPushNotificationConfig"], params, wire=Wire.V0, dialect=SPEC)
    assert decode_request(METHODS["CreateTaskPushNotificationConfig"], Wire.V0, enc.request.path, enc.request.body) == params


STATUS = {"error": {"code": 404, "status": "NOT_FOUND", "message": "Task not found",
                    "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "TASK_NOT_FOUND", "domain": "a2a-protocol.org"}]}}


@pytest.mark.parametrize("version,name", [("1.0", "TaskNotFoundError"), ("0.3", "TaskNotFoundError")])
def test_a_status_body_is_the_a2a_error_its_reason_names(version, name):
    err = REST.error(Answer(404, json.dumps(STATUS).encode(), version=version))
    assert isinstance(err, RpcError) and err.a2a_code == -32001 and err.message == f"{name}: Task not found"


def test_the_same_error_over_json_rpc_reads_the_same():
    rpc = {"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "Task not found"}}
    enc = JSONRPC.encode(METHODS["GetTask"], {"id": "x"}, wire=Wire.V1, dialect=SPEC, request_id=1)
    with pytest.raises(RpcError) as over_rpc:
        JSONRPC.read_unary(enc, Answer(200, json.dumps(rpc).encode()))
    assert str(REST.error(Answer(404, json.dumps(STATUS).encode()))) == str(over_rpc.value)


def test_extended_card_error_is_named_as_the_version_calls_it():
    body = {"error": {"code": 400, "status": "FAILED_PRECONDITION", "message": "no card",
                      "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "EXTENDED_AGENT_CARD_NOT_CONFIGURED"}]}}
    assert "AuthenticatedExtendedCardNotConfiguredError" in REST.error(Answer(400, json.dumps(body).encode(), version="0.3")).message
    assert "ExtendedAgentCardNotConfiguredError" in REST.error(Answer(400, json.dumps(body).encode())).message


@pytest.mark.parametrize("status,body,kind", [
    (401, json.dumps(STATUS).encode(), AuthError),  # auth wins over whatever the body says
    (404, b"<html>no</html>", HttpError),
    (500, b"", HttpError),
    (503, b'{"error": "down"}', HttpError),  # JSON, but no google.rpc.Status
])
def test_errors_without_an_a2a_status_keep_the_http_error(status, body, kind):
    err = REST.error(Answer(status, body, content_type="text/html" if body.startswith(b"<") else "application/json"))
    assert type(err) is kind


def test_an_empty_2xx_answer_is_no_result_for_a_delete_and_an_error_otherwise():
    enc = REST.encode(METHODS["DeleteTaskPushNotificationConfig"], {"taskId": "t", "id": "p"}, wire=Wire.V1, dialect=SPEC)
    assert REST.read_unary(enc, Answer(200, b"")) is None  # as JSON-RPC's `"result": null`
    get = REST.encode(METHODS["GetTask"], {"id": "t"}, wire=Wire.V1, dialect=SPEC)
    with pytest.raises(InvalidResponseError, match="the answer to GetTask is empty"):
        REST.read_unary(get, Answer(200, b""))


def test_a_json_rpc_answer_to_a_rest_call_names_the_other_binding():
    enc = REST.encode(METHODS["SendMessage"], {"message": {}}, wire=Wire.V1, dialect=SPEC)
    envelope = {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}}
    with pytest.raises(InvalidResponseError, match="speaks JSON-RPC") as e:
        REST.read_unary(enc, Answer(200, json.dumps(envelope).encode()))
    assert e.value.hint == "use --transport jsonrpc"


@pytest.mark.parametrize("status,body,words", [
    (500, {"error": {"code": 500, "status": "INTERNAL", "message": "boom"}}, "the agent answered HTTP 500 INTERNAL: boom"),
    (400, {"code": 3, "message": "bad thing", "details": []}, "the agent answered HTTP 400: bad thing"),
])
def test_a_status_naming_no_a2a_error_is_an_http_error(status, body, words):
    err = REST.error(Answer(status, json.dumps(body).encode()))
    assert type(err) is HttpError and err.message == words and err.a2a_code is None and err.hint


@pytest.mark.parametrize("status,body,name", [
    (404, {"code": -32001, "message": "Task not found: x"}, "TaskNotFoundError: Task not found: x"),
    (409, {"code": -32002, "message": "Task not cancelable: t"}, "TaskNotCancelableError: Task not cancelable: t"),
    (400, {"code": -32602, "message": "bad", "data": {"field": "message"}}, "InvalidParamsError: bad"),
])
def test_an_a2a_js_error_body_is_read_by_its_a2a_code(status, body, name):
    """@a2a-js/sdk's HTTP+JSON errors: an HTTP status with {"code": <A2A code>, "message"} (issue 24)."""
    err = REST.error(Answer(status, json.dumps(body).encode(), version="0.3"))
    assert err.message == name and err.a2a_code == body["code"] and err.wire_code == status
    assert err.data == body.get("data")


def test_a_non_json_rpc_error_object_over_json_rpc_keeps_its_http_status():
    err = JSONRPC.error(Answer(500, json.dumps({"error": {"code": 500, "message": "boom"}}).encode()))
    assert type(err) is HttpError and "HTTP 500" in err.message and err.a2a_code is None


@pytest.mark.parametrize("version,hint", [("1.0", "try --a2a-version 0.3"), ("0.3", "try --a2a-version 1.0 (a 0.3 route the agent lacks answers as a 1.0 one)")])
def test_version_not_supported_points_at_the_other_version(version, hint):
    body = {"error": {"code": 400, "status": "FAILED_PRECONDITION", "message": "no", "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "VERSION_NOT_SUPPORTED"}]}}
    assert REST.error(Answer(400, json.dumps(body).encode(), version=version)).hint == hint


def test_stream_events_are_bare_and_an_error_event_is_the_a2a_error():
    enc = REST.encode(METHODS["SubscribeToTask"], {"id": "t"}, wire=Wire.V1, dialect=SPEC)
    event = {"statusUpdate": {"taskId": "t", "status": {"state": "TASK_STATE_WORKING"}}}
    assert REST.read_event(enc, Answer(200, b""), "message", json.dumps(event)) == event
    with pytest.raises(RpcError, match="TaskNotFoundError"):
        REST.read_event(enc, Answer(200, b""), "error", json.dumps(STATUS))
    with pytest.raises(RpcError, match="gone away"):
        REST.read_event(enc, Answer(200, b""), "error", "gone away")


@pytest.mark.parametrize(
    "status,said,hint",
    [
        ({"code": 500, "status": "INTERNAL", "message": "boom"}, "error INTERNAL (HTTP 500): boom", "retry later"),
        ({"code": 429, "status": "RESOURCE_EXHAUSTED", "message": "slow"}, "(HTTP 429): slow", "-o raw"),
        ({"status": "UNAVAILABLE", "message": "later"}, "error UNAVAILABLE: later", "retry later"),
    ],
)
def test_a_status_without_an_a2a_reason_in_a_stream_reads_its_own_code_not_the_streams_200(status, said, hint):
    enc = REST.encode(METHODS["SubscribeToTask"], {"id": "t"}, wire=Wire.V1, dialect=SPEC)
    for event in ("error", "message"):
        with pytest.raises(HttpError) as caught:
            REST.read_event(enc, Answer(200, b""), event, json.dumps({"error": status}))
        err = caught.value
        assert "HTTP 200" not in err.message and "ended the stream" in err.message and said in err.message
        assert hint in (err.hint or "")
        assert err.wire_code == status.get("code", 200)


def test_recorded_answers_read_the_same_whatever_the_binding():
    assert decode_answer(METHODS["GetTask"], Wire.V1, 404, STATUS)["error"]["code"] == -32001
    task = {"id": "t", "status": {"state": "TASK_STATE_CANCELLED"}}
    assert decode_answer(METHODS["GetTask"], Wire.V0, 200, task)["result"]["status"]["state"] == "TASK_STATE_CANCELED"


def test_call_over_rest_takes_v1_names_only():
    with pytest.raises(UsageError, match="V1 method names"):
        REST.encode_call("x-vendor/ping", {}, wire=Wire.V1, dialect=SPEC)
    with pytest.raises(UsageError) as v0_name:
        REST.encode_call("tasks/get", {"id": "t"}, wire=Wire.V0, dialect=SPEC)
    assert v0_name.value.hint == "call GetTask (params in V1 form)"
    assert REST.encode_call("GetTask", {"id": "t"}, wire=Wire.V0, dialect=SPEC).request.path == "/v1/tasks/t"


GRPC = get_binding(parse_transport("grpc"))


@pytest.mark.parametrize("version,path", [("1.0", "/lf.a2a.v1.A2AService/SubscribeToTask"), ("0.3", "/a2a.v1.A2AService/TaskSubscription")])
def test_grpc_encodes_the_rpc_path_and_the_message_as_protojson(version, path):
    wire = Wire.V1 if version == "1.0" else Wire.V0
    enc = GRPC.encode(METHODS["SubscribeToTask"], {"id": "t-1"}, wire=wire, dialect=SPEC, tenant="acme")
    assert enc.request.path == path and enc.stream
    assert json.loads(enc.request.body) == ({"id": "t-1", "tenant": "acme"} if version == "1.0" else {"name": "tasks/t-1"})


def test_grpc_03_has_no_list_tasks():
    with pytest.raises(UsageError, match="no gRPC form under A2A 0.3"):
        GRPC.encode(METHODS["ListTasks"], {}, wire=Wire.V0, dialect=SPEC._replace(v0_list_tasks=True))


@pytest.mark.parametrize("status,details,code", [
    ({"code": 404, "status": "NOT_FOUND", "message": "Task not found", "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "TASK_NOT_FOUND"}]}, None, -32001),
    ({"code": 400, "status": "FAILED_PRECONDITION", "message": "TaskNotCancelableError: Task cannot be canceled"}, None, -32002),  # a2a-sdk's 0.3 service
])
def test_grpc_statuses_are_the_a2a_errors_they_name(status, details, code):
    err = GRPC.error(Answer(status["code"], json.dumps({"error": status}).encode()))
    assert isinstance(err, RpcError) and err.a2a_code == code


def test_grpc_unimplemented_is_an_http_twin_error():
    err = GRPC.error(Answer(501, json.dumps({"error": {"code": 501, "status": "UNIMPLEMENTED", "message": "Method not found!"}}).encode()))
    assert type(err) is HttpError and "UNIMPLEMENTED: Method not found!" in err.message


def test_grpc_targets():
    grpc_transport = pytest.importorskip("a2acli.transport.grpc")
    assert grpc_transport.grpc_target("127.0.0.1:50051", False) == ("127.0.0.1:50051", True)
    assert grpc_transport.grpc_target("127.0.0.1:50051", True) == ("127.0.0.1:50051", False)
    assert grpc_transport.grpc_target("grpc://h:1", False) == ("h:1", False)
    assert grpc_transport.grpc_target("https://h", False) == ("h:443", True)
    with pytest.raises(UsageError):
        grpc_transport.grpc_target("ftp://h:1", False)
