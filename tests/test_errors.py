"""The error contract (official CLI spec §9.4, §9.6, Appendix B, Appendix E): every condition has
one `code` and an exit code that agrees with it; a protocol failure carries the A2A error's name
whichever binding carried it; CLI-local failures carry an Appendix E code; ours a vendor code.
HTTP is mocked with respx; gRPC is read through the binding's decode functions."""

from __future__ import annotations

import json

import httpx
import pytest
from a2a_testkit import AGENT, ANY_CREDENTIAL, RPC, rpc_result, sse, v1_card

from a2acli import errors
from a2acli.errors import A2acliError
from a2acli.wire.bindings import get_binding, parse_transport
from a2acli.wire.bindings.base import HINTS
from a2acli.wire.translate.errors import A2A_ERRORS, error_name, error_reason

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
REST = f"{AGENT}/api"
TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}}

# The official CLI spec's Appendix E, as published (code -> exit code)
SPEC_APPENDIX_E = {
    "A2ACLI_ERR_USAGE": 2,
    "A2ACLI_ERR_CARD_NOT_FOUND": 3,
    "A2ACLI_ERR_CARD_INVALID": 1,
    "A2ACLI_ERR_UNREACHABLE": 3,
    "A2ACLI_ERR_CREDENTIALS_MISSING": 4,
    "A2ACLI_ERR_AUTH_FAILED": 4,
    "A2ACLI_ERR_TIMEOUT": 5,
    "A2ACLI_ERR_INTERNAL": 1,
}


def _classes(cls: type = A2acliError) -> list[type]:
    out = [cls]
    for sub in cls.__subclasses__():
        out += _classes(sub)
    return out


def envelope(result) -> dict:
    """The -o json error envelope: one compact line, the last of stdout."""
    last = result.stdout.rstrip("\n").splitlines()[-1]
    assert last.startswith('{"error": {') and "\n" not in last
    return json.loads(last)["error"]


# -- the code table ---------------------------------------------------------------------------------


@pytest.mark.spec("A2ACLI_OUT_004", "A2ACLI_EXIT_001")
def test_appendix_e_is_the_spec_s_set_with_its_exit_codes():
    assert {code: int(exit) for code, exit in errors.APPENDIX_E.items()} == SPEC_APPENDIX_E


@pytest.mark.spec("A2ACLI_OUT_004")
def test_no_code_is_invented_in_the_a2acli_err_namespace():
    for code in errors.VENDOR:
        assert code.startswith(errors.VENDOR_PREFIX) and not code.startswith("A2ACLI_ERR_")
    import a2acli.wire.endpoints  # noqa: F401 - VersionNotOfferedError
    import a2acli.wire.methods  # noqa: F401 - NoV0FormError

    for cls in _classes():
        assert cls.code in errors.APPENDIX_E or cls.code in errors.VENDOR or cls.code in {n for pair in A2A_ERRORS.values() for n in pair}, cls


# Every class: its code and its exit code, which agree with the code's (Appendix E's, or ours).
CLASS_TABLE = [
    (errors.UsageError, "A2ACLI_ERR_USAGE", 2),
    (errors.UnreachableError, "A2ACLI_ERR_UNREACHABLE", 3),
    (errors.CardNotFoundError, "A2ACLI_ERR_CARD_NOT_FOUND", 3),
    (errors.CardInvalidError, "A2ACLI_ERR_CARD_INVALID", 1),
    (errors.AuthError, "A2ACLI_ERR_AUTH_FAILED", 4),
    (errors.CredentialsMissingError, "A2ACLI_ERR_CREDENTIALS_MISSING", 4),
    (errors.CredentialsWithheldError, "X_A2A_CREDENTIALS_WITHHELD", 4),
    (errors.TimeoutExpired, "A2ACLI_ERR_TIMEOUT", 5),
    (errors.A2acliError, "A2ACLI_ERR_INTERNAL", 1),
    (errors.HttpError, "X_A2A_HTTP_ERROR", 1),
    (errors.InvalidResponseError, "InvalidAgentResponseError", 1),
    (errors.BodyTooLargeError, "X_A2A_BODY_TOO_LARGE", 1),
    (errors.ConnectionBrokenError, "X_A2A_CONNECTION_BROKEN", 1),
    (errors.RpcError, "X_A2A_RPC_ERROR", 1),
    (errors.UnexpectedStateError, "X_A2A_EXPECT_STATE", 6),
    (errors.Interrupted, "X_A2A_INTERRUPTED", 130),
    (errors.MissingExtraError, "X_A2A_MISSING_EXTRA", 1),
]


@pytest.mark.spec("A2ACLI_OUT_004", "A2ACLI_EXIT_001")
@pytest.mark.parametrize("cls,code,exit", CLASS_TABLE, ids=[c.__name__ for c, _, _ in CLASS_TABLE])
def test_each_error_class_has_its_code_and_an_exit_code_that_agrees(cls, code, exit):
    assert cls.code == code and int(cls.exit_code) == exit
    assert errors.exit_code_of(code) == cls.exit_code


@pytest.mark.spec("A2ACLI_EXIT_001")
def test_every_class_s_exit_code_agrees_with_its_code():
    import a2acli.wire.endpoints  # noqa: F401
    import a2acli.wire.methods  # noqa: F401

    for cls in _classes():
        assert errors.exit_code_of(cls.code) == cls.exit_code, cls


# -- each condition, end to end: code, a2aCode, exit code ---------------------------------------------


@pytest.fixture
def agent(respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    return respx_mock


def rpc_error(code, message="nope", data=None) -> dict:
    return {"jsonrpc": "2.0", "id": "1", "error": {"code": code, "message": message} | ({"data": data} if data is not None else {})}


def _card_404(mock):
    mock.get(url__startswith=AGENT).respond(404)


def _card_list(mock):
    mock.get(CARD_URL).respond(json=["not", "a", "card"])


def _only_v0(mock):
    mock.get(CARD_URL).respond(json=v1_card(supportedInterfaces=[{"url": RPC, "protocolBinding": "JSONRPC", "protocolVersion": "0.3"}]))


def _only_unspoken(mock):  # 1.0 only on a binding a2a does not speak: --transport cannot fall back to the card's order
    mock.get(CARD_URL).respond(json=v1_card(supportedInterfaces=[{"url": RPC, "protocolBinding": "CARRIER-PIGEON", "protocolVersion": "1.0"}]))


def _card(mock):
    mock.get(CARD_URL).respond(json=v1_card(securitySchemes=ANY_CREDENTIAL))  # it takes every credential: none is withheld


def _answer(**kw):
    def setup(mock):
        _card(mock)
        mock.post(RPC).mock(**kw)

    return setup


def _ctrl_c(request):
    raise KeyboardInterrupt


def _bug(request):
    raise RuntimeError("a bug")


CONDITIONS = [
    # (id, setup of the mocked agent, extra args, code, a2aCode, exit)
    ("unreachable", _answer(side_effect=httpx.ConnectError("Connection refused")), [], "A2ACLI_ERR_UNREACHABLE", None, 3),
    ("card-not-found", _card_404, [], "A2ACLI_ERR_CARD_NOT_FOUND", None, 3),
    ("card-invalid", _card_list, [], "A2ACLI_ERR_CARD_INVALID", None, 1),
    ("timeout", _answer(side_effect=httpx.ReadTimeout("slow")), [], "A2ACLI_ERR_TIMEOUT", None, 5),
    ("credentials-missing", _answer(return_value=httpx.Response(401, headers={"WWW-Authenticate": "Bearer"})), [], "A2ACLI_ERR_CREDENTIALS_MISSING", 401, 4),
    ("auth-failed", _answer(return_value=httpx.Response(401)), ["--bearer", "wrong"], "A2ACLI_ERR_AUTH_FAILED", 401, 4),
    ("forbidden", _answer(return_value=httpx.Response(403)), ["--api-key", "k"], "A2ACLI_ERR_AUTH_FAILED", 403, 4),
    ("internal", _answer(side_effect=_bug), [], "A2ACLI_ERR_INTERNAL", None, 1),
    ("protocol-error", _answer(return_value=httpx.Response(200, json=rpc_error(-32001, "Task not found"))), [], "TaskNotFoundError", -32001, 1),
    ("json-rpc-standard-error", _answer(return_value=httpx.Response(200, json=rpc_error(-32602, "Invalid params"))), [], "InvalidParamsError", -32602, 1),
    ("unknown-rpc-code", _answer(return_value=httpx.Response(200, json=rpc_error(-32050, "agent's own"))), [], "X_A2A_RPC_ERROR", -32050, 1),
    ("http-5xx", _answer(return_value=httpx.Response(503, text="down")), [], "X_A2A_HTTP_ERROR", 503, 1),
    ("http-404", _answer(return_value=httpx.Response(404, text="no")), [], "X_A2A_HTTP_ERROR", 404, 1),
    ("invalid-answer", _answer(return_value=httpx.Response(200, text="not json")), [], "InvalidAgentResponseError", None, 1),
    ("invalid-result", _answer(return_value=httpx.Response(200, json=rpc_result("a string, not a task"))), [], "InvalidAgentResponseError", None, 1),
    ("body-too-large", _answer(return_value=httpx.Response(200, json=rpc_result({**TASK, "pad": "x" * 4096}))), ["--max-body", "1K"], "X_A2A_BODY_TOO_LARGE", None, 1),
    ("broken-connection", _answer(side_effect=httpx.RemoteProtocolError("peer closed connection without sending complete message body: incomplete chunked read")), [], "X_A2A_CONNECTION_BROKEN", None, 1),
    ("version-not-offered", _only_v0, [], "VersionNotSupportedError", None, 1),
    ("transport-not-offered", _only_unspoken, ["--transport", "rest"], "X_A2A_TRANSPORT_NOT_OFFERED", None, 1),
    ("ctrl-c", _answer(side_effect=_ctrl_c), [], "X_A2A_INTERRUPTED", None, 130),
]


@pytest.mark.spec("A2ACLI_OUT_004", "A2ACLI_EXIT_001")
@pytest.mark.parametrize("setup,extra,code,a2a_code,exit", [c[1:] for c in CONDITIONS], ids=[c[0] for c in CONDITIONS])
def test_each_condition_yields_its_code_and_exit_code(cli, respx_mock, setup, extra, code, a2a_code, exit):
    setup(respx_mock)
    result = cli("tasks", "get", "t-1", "-u", AGENT, "-o", "json", *extra)
    assert result.exit_code == exit, result.stderr
    err = envelope(result)
    assert err["code"] == code and err["a2aCode"] == a2a_code, err
    assert set(err) >= {"code", "message", "hint", "a2aCode"} and err["message"]
    assert errors.exit_code_of(code) == exit
    text = cli("tasks", "get", "t-1", "-u", AGENT, *extra)  # the text line on stderr names it too
    assert text.exit_code == exit
    if code != "X_A2A_INTERRUPTED":  # Ctrl-C in text: the note `interrupted` (and the resume commands)
        line = next(li for li in text.stderr.splitlines() if li.startswith("error: "))
        assert f" {code}: " in line or line.endswith(f" [{code}]"), line


@pytest.mark.spec("A2ACLI_OUT_004", "A2ACLI_EXIT_001")
def test_usage_errors_are_a2acli_err_usage_exit_2(cli):
    for args in (["tasks", "get", "-o", "json"], ["tasks", "get", "t-1", "--bogus", "-o", "json"], ["send", "--data", "{not json", "-u", AGENT, "-o", "json"]):
        result = cli(*args)
        assert result.exit_code == 2, args
        assert envelope(result)["code"] == "A2ACLI_ERR_USAGE", args


@pytest.mark.spec("A2ACLI_OUT_004", "A2ACLI_EXIT_001")
def test_a_card_file_missing_or_malformed(cli, tmp_path):
    missing = cli("card", "fetch", "-u", f"file://{tmp_path}/nope.json", "-o", "json")
    assert missing.exit_code == 3 and envelope(missing)["code"] == "A2ACLI_ERR_CARD_NOT_FOUND"
    bad = tmp_path / "card.json"
    bad.write_text("{not json")
    malformed = cli("card", "fetch", "-u", f"file://{bad}", "-o", "json")
    assert malformed.exit_code == 1 and envelope(malformed)["code"] == "A2ACLI_ERR_CARD_INVALID"


@pytest.mark.spec("A2ACLI_OUT_004", "A2ACLI_EXIT_001")
def test_expect_state_unmet_is_a_vendor_code_exit_6(cli, agent):
    agent.post(RPC).respond(json=rpc_result({**TASK, "status": {"state": "TASK_STATE_FAILED"}}))
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--expect-state", "completed")
    assert result.exit_code == 6
    assert "ended failed, expected completed [X_A2A_EXPECT_STATE]" in result.stderr


@pytest.mark.spec("A2ACLI_OUT_004")
def test_the_text_line_of_a_protocol_error_names_it_once(cli, agent):
    agent.post(RPC).respond(json=rpc_error(-32001, "Task not found"))
    result = cli("tasks", "get", "t-9", "-u", AGENT)
    assert "error: TaskNotFoundError: Task not found\n" in result.stderr


@pytest.mark.spec("A2ACLI_OUT_004")
def test_a_0_3_name_is_in_the_message_and_the_1_0_name_is_the_code(cli, agent):
    agent.post(RPC).respond(json=rpc_error(-32007, "no extended card"))
    err = envelope(cli("card", "extended", "-u", AGENT, "--a2a-version", "0.3", "-o", "json", "--force"))  # the mocked card claims no extended card
    assert err["code"] == "ExtendedAgentCardNotConfiguredError" and err["message"].startswith("AuthenticatedExtendedCardNotConfiguredError: ")


# -- the same A2A error over the three bindings -------------------------------------------------------

NAMED = sorted(A2A_ERRORS)  # every A2A error: -32001…-32009 and the JSON-RPC standard ones
GRPC_STATUS = {-32001: ("NOT_FOUND", 404), -32603: ("INTERNAL", 500), -32006: ("INTERNAL", 500), -32602: ("INVALID_ARGUMENT", 400), -32005: ("INVALID_ARGUMENT", 400)}


def _rest_card(mock):
    mock.get(CARD_URL).respond(json=v1_card(supportedInterfaces=[{"url": REST, "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}]))


def _status_body(code: int, http: int, grpc: str) -> dict:
    return {"error": {"code": http, "status": grpc, "message": "nope", "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": error_reason(code), "domain": "a2a-protocol.org"}]}}


class _GrpcAnswer:
    """A failed gRPC call as the carrier (transport/grpc.py) leaves it in the exchange."""

    url = "127.0.0.1:1"
    request_id = None
    content_type = "application/grpc"

    def __init__(self, status: str, http: int, body: dict) -> None:
        self.status, self.reason, self.response_body = http, status, json.dumps(body).encode()

    def header(self, name: str, *, sent: bool = False) -> str | None:
        return "1.0" if sent and name.lower() == "a2a-version" else None


@pytest.mark.spec("A2ACLI_OUT_004")
@pytest.mark.parametrize("code", NAMED, ids=[error_name(c) for c in NAMED])
def test_the_same_a2a_error_has_the_same_code_over_every_binding(cli, respx_mock, code):
    name = error_name(code)
    grpc, http = GRPC_STATUS.get(code, ("FAILED_PRECONDITION", 400))
    respx_mock.get(CARD_URL).respond(json=v1_card())
    respx_mock.post(RPC).respond(json=rpc_error(code))
    over_rpc = cli("tasks", "get", "t-1", "-u", AGENT, "-o", "json")
    respx_mock.reset()
    _rest_card(respx_mock)
    respx_mock.get(f"{REST}/tasks/t-1").respond(http, json=_status_body(code, http, grpc))
    over_rest = cli("tasks", "get", "t-1", "-u", AGENT, "-o", "json")
    over_grpc = get_binding(parse_transport("grpc")).error(_GrpcAnswer(grpc, http, _status_body(code, http, grpc)))
    a, b = envelope(over_rpc), envelope(over_rest)
    assert a["code"] == b["code"] == over_grpc.code == name
    assert a["hint"] == b["hint"] == over_grpc.hint
    assert over_rpc.exit_code == over_rest.exit_code == int(over_grpc.exit_code) == 1
    assert (a["a2aCode"], b["a2aCode"], over_grpc.wire_code) == (code, http, grpc)  # each binding's own code


@pytest.mark.spec("A2ACLI_OUT_004")
def test_a_0_3_grpc_details_string_names_the_same_error():
    body = {"error": {"code": 404, "status": "NOT_FOUND", "message": "TaskNotFoundError: Task not found"}}
    err = get_binding(parse_transport("grpc")).error(_GrpcAnswer("NOT_FOUND", 404, body))
    assert (err.code, err.wire_code, err.message) == ("TaskNotFoundError", "NOT_FOUND", "TaskNotFoundError: Task not found")


@pytest.mark.spec("A2ACLI_OUT_004")
def test_a_grpc_error_ending_a_stream_is_the_a2a_error():
    from a2acli.errors import RpcError
    from a2acli.wire import Wire
    from a2acli.wire.dialects import DIALECTS
    from a2acli.wire.methods import METHODS

    binding = get_binding(parse_transport("grpc"))
    enc = binding.encode(METHODS["SubscribeToTask"], {"id": "t"}, wire=Wire.V1, dialect=DIALECTS["spec"])
    with pytest.raises(RpcError) as e:
        binding.read_event(enc, _GrpcAnswer("OK", 200, {}), "error", json.dumps(_status_body(-32004, 400, "FAILED_PRECONDITION")))
    assert (e.value.code, e.value.wire_code) == ("UnsupportedOperationError", "FAILED_PRECONDITION")


@pytest.mark.spec("A2ACLI_OUT_004")
def test_a_status_with_no_a2a_error_is_an_http_error_over_rest_and_grpc(cli, respx_mock):
    _rest_card(respx_mock)
    respx_mock.get(f"{REST}/tasks/t-1").respond(500, json={"error": {"code": 500, "status": "INTERNAL", "message": "boom"}})
    err = envelope(cli("tasks", "get", "t-1", "-u", AGENT, "-o", "json"))
    assert (err["code"], err["a2aCode"]) == ("X_A2A_HTTP_ERROR", 500)
    over_grpc = get_binding(parse_transport("grpc")).error(_GrpcAnswer("UNIMPLEMENTED", 501, {"error": {"code": 501, "status": "UNIMPLEMENTED", "message": "Method not found!"}}))
    assert (over_grpc.code, over_grpc.wire_code) == ("X_A2A_HTTP_ERROR", "UNIMPLEMENTED")


def test_an_http_json_5xx_hint_can_be_followed(cli, respx_mock):
    """A server that is no agent (python -m http.server answers a POST 501 with an HTML page) is
    asked about, as a 404 or 405 is; a 5xx without an X-Request-ID is not told to quote one."""
    _rest_card(respx_mock)
    respx_mock.post(f"{REST}/message:send").respond(501, html="<html>Unsupported method</html>")
    err = envelope(cli("send", "hi", "-u", AGENT, "-o", "json"))
    assert (err["code"], err["a2aCode"]) == ("X_A2A_HTTP_ERROR", 501)
    assert "the agent probably does not implement SendMessage (POST /message:send)" in err["hint"]  # the card's endpoint
    respx_mock.get(f"{REST}/tasks/t-1").respond(503, text="down")
    err = envelope(cli("tasks", "get", "t-1", "-u", AGENT, "-o", "json"))
    assert err["a2aCode"] == 503 and "X-Request-ID" not in err["hint"] and "retry later" in err["hint"]
    respx_mock.get(f"{REST}/tasks/t-2").respond(503, text="down", headers={"X-Request-ID": "r-9"})
    err = envelope(cli("tasks", "get", "t-2", "-u", AGENT, "-o", "json"))
    assert "quote the X-Request-ID r-9" in err["hint"]


# -- OUT_003: an error that ends a stream is one compact line after the events -------------------------


@pytest.mark.spec("A2ACLI_OUT_003")
@pytest.mark.parametrize("args", [["stream", "hi"], ["send", "hi", "--stream"], ["tasks", "subscribe", "t-1", "--stream"]])
def test_an_error_ending_a_stream_is_the_last_json_line(cli, agent, args, monkeypatch):
    # An error event mid-stream is said on stderr and the task is polled (A2ACLI_TASK_POLL_004);
    # when the poll fails too, that error ends the output: one compact line after the events.
    monkeypatch.setattr("time.sleep", lambda s: None)
    body = sse({"kind": "task", **TASK}, error={"code": -32603, "message": "agent crashed"})
    for method in ("message/stream", "tasks/resubscribe"):
        agent.post(RPC, json__method=method).respond(headers={"content-type": "text/event-stream"}, content=body)
    agent.post(RPC, json__method="tasks/get").respond(json=rpc_error(-32603, "store down"))
    result = cli(*args, "-u", AGENT, "-o", "json", "--a2a-version", "0.3")
    assert result.exit_code == 1, result.stderr
    assert "agent crashed" in result.stderr  # the agent's error event is not lost
    lines = result.stdout.splitlines()
    assert len(lines) == 2 and json.loads(lines[0])["id"] == "t-1"
    assert json.loads(lines[1]) == {"error": {"code": "InternalError", "message": "InternalError: store down", "hint": HINTS[-32603], "a2aCode": -32603}}


@pytest.mark.spec("A2ACLI_OUT_003")
@pytest.mark.parametrize("args", [["stream", "hi"], ["send", "hi", "--stream"], ["tasks", "subscribe", "t-9", "--stream"]])
def test_an_error_before_the_first_event_is_one_compact_line(cli, agent, args):
    agent.post(RPC).respond(json=rpc_error(-32001, "Task not found"))
    result = cli(*args, "-u", AGENT, "-o", "json")
    assert result.exit_code == 1, result.stderr
    assert len(result.stdout.splitlines()) == 1 and envelope(result)["code"] == "TaskNotFoundError"


@pytest.mark.spec("A2ACLI_OUT_003", "A2ACLI_OUT_004")
def test_without_a_stream_the_error_is_one_document(cli, agent):
    agent.post(RPC).respond(json=rpc_error(-32001, "Task not found"))
    result = cli("tasks", "get", "t-9", "-u", AGENT, "-o", "json")
    assert len(result.stdout.splitlines()) == 1 and json.loads(result.stdout)["error"]["code"] == "TaskNotFoundError"


# -- INTERACT_002: a rejected --task-id / --context-id points at --debug ---------------------------------


@pytest.mark.spec("A2ACLI_INTERACT_002")
@pytest.mark.parametrize("ids,error", [
    (["--task-id", "t-9"], (-32001, "Task not found")),
    (["--task-id", "t-1"], (-32004, "Task t-1 is in terminal state: completed")),
    (["--task-id", "t-1", "--context-id", "c-other"], (-32602, "contextId does not match the task's")),
    (["--context-id", "c-9"], (-32050, "unknown context")),
])
@pytest.mark.parametrize("command", [["send"], ["stream"]])
def test_a_rejected_task_or_context_id_points_at_debug_and_starts_nothing(cli, agent, ids, error, command):
    route = agent.post(RPC).respond(json=rpc_error(*error))
    result = cli(*command, "more", *ids, "-u", AGENT, "-o", "json")
    assert result.exit_code == 1, result.stderr
    err = envelope(result)
    given = " and ".join(f"{a} {b}" for a, b in zip(ids[::2], ids[1::2], strict=True))
    assert err["hint"].startswith(f"rerun with --debug to see the request that carried {given} and the agent's answer; nothing was retried and no new task started")
    assert route.call_count == 1  # no retry, no second send without the ids
    sent = json.loads(route.calls[0].request.content)["params"]["message"]
    assert {k: sent.get(k) for k in ("taskId", "contextId")} == {"taskId": dict(zip(ids[::2], ids[1::2], strict=True)).get("--task-id"), "contextId": dict(zip(ids[::2], ids[1::2], strict=True)).get("--context-id")}


@pytest.mark.spec("A2ACLI_INTERACT_002")
@pytest.mark.parametrize("ctx", [[], ["--context-id", "c-1"]])
def test_a_message_to_an_ended_task_is_pointed_at_a_new_task_of_its_context(cli, agent, ctx):
    agent.post(RPC).respond(json=rpc_error(-32004, "Task t-1 is in terminal state: completed"))
    err = envelope(cli("send", "more", "--task-id", "t-1", *ctx, "-u", AGENT, "-o", "json"))
    assert err["code"] == "UnsupportedOperationError"
    assert "a task that has ended takes no more messages: go on in a new task of the same context" in err["hint"]
    assert ("--context-id c-1 without --task-id" if ctx else "`a2a tasks get t-1` shows it") in err["hint"]
    assert "does not support this operation" not in err["hint"]


@pytest.mark.spec("A2ACLI_INTERACT_002")
def test_without_ids_a_send_error_keeps_its_own_hint(cli, agent):
    agent.post(RPC).respond(json=rpc_error(-32001, "Task not found"))
    result = cli("send", "hi", "-u", AGENT, "-o", "json")
    assert result.exit_code == 1
    err = envelope(result)
    assert err["code"] == "TaskNotFoundError" and err["hint"]  # its own hint, said
    assert "--debug" not in err["hint"]


@pytest.mark.spec("A2ACLI_INTERACT_002")
def test_with_debug_on_the_hint_says_the_exchange_is_above(cli, agent):
    agent.post(RPC).respond(json=rpc_error(-32001, "Task not found"))
    result = cli("send", "more", "--task-id", "t-9", "-u", AGENT, "--debug")
    assert result.exit_code == 1
    assert "hint: the request that carried --task-id t-9 and the answer are above (--debug)" in result.stderr


@pytest.mark.spec("A2ACLI_OUT_004")
def test_a_json_rpc_code_a2a_does_not_define_is_named_by_its_error_info_reason(cli, agent):
    info = [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "TASK_NOT_FOUND", "domain": "a2a-protocol.org"}]
    agent.post(RPC).respond(json=rpc_error(-32000, "Task not found", info))
    err = envelope(cli("tasks", "get", "t-9", "-u", AGENT, "-o", "json"))
    assert (err["code"], err["a2aCode"], err["message"]) == ("TaskNotFoundError", -32000, "TaskNotFoundError: Task not found")


@pytest.mark.parametrize(
    "grpc,http,hint",
    [
        ("UNIMPLEMENTED", 501, "does not serve this call over gRPC"),
        ("UNAVAILABLE", 503, "retry later"),
        ("INVALID_ARGUMENT", 400, "--debug"),
    ],
)
def test_a_grpc_status_naming_no_a2a_error_is_told_in_grpcs_words(grpc, http, hint):
    """No HTTP status in the message of a gRPC failure, and UNIMPLEMENTED is not 'the agent failed'."""
    body = {"error": {"code": http, "status": grpc, "message": "no recorded call"}}
    err = get_binding(parse_transport("grpc")).error(_GrpcAnswer(grpc, http, body))
    assert err.message == f"the agent answered gRPC {grpc}: no recorded call"
    assert "HTTP" not in err.message and hint in (err.hint or "") and err.wire_code == grpc


@pytest.mark.parametrize("mode", ["raw", "json", "text"])
def test_an_answer_that_breaks_the_schema_is_shown_as_it_came_under_raw(cli, respx_mock, mode):
    """The hint of an invalid answer says `see it with -o raw`: under raw its bytes are on stdout
    before the error (exit 1); json keeps stdout to the one error document; text prints no body."""
    respx_mock.get(CARD_URL).respond(json=v1_card())
    body = json.dumps({"jsonrpc": "2.0", "id": "1", "result": {"status": {"state": "TASK_STATE_COMPLETED"}}})
    respx_mock.post(RPC).respond(content=body.encode(), headers={"content-type": "application/json"})
    result = cli("tasks", "get", "t-1", "-u", AGENT, "-o", mode)
    assert result.exit_code == 1
    assert "InvalidAgentResponseError" in (result.stdout if mode == "json" else result.stderr)
    if mode == "raw":
        assert result.stdout.strip() == body
    elif mode == "json":
        assert json.loads(result.stdout)["error"]["code"] == "InvalidAgentResponseError"
    else:
        assert body not in result.stdout


def test_a_task_in_a_state_a2a_does_not_define_is_waited_for_with_a_warning(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card(capabilities={}))  # no streaming: GetTask polls
    odd = {"task": {"id": "t-1", "contextId": "c-1", "status": {"state": "BOGUS_STATE"}}}
    done = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}

    def answer(request: httpx.Request) -> httpx.Response:
        sent = json.loads(request.content)
        return httpx.Response(200, json=rpc_result(odd if sent["method"] == "SendMessage" else done, sent["id"]))

    respx_mock.post(RPC).mock(side_effect=answer)
    result = cli("send", "hi", "-u", AGENT, "-o", "json", "--poll-interval", "0.05")
    assert result.exit_code == 0, result.stderr
    assert "state 'BOGUS_STATE' is none A2A defines; waited for as a working task (--timeout S bounds the wait)" in result.stderr
    assert json.loads(result.stdout)["task"]["status"]["state"] == "TASK_STATE_COMPLETED"
