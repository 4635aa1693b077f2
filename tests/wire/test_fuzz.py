"""Issue 14: a fuzz test over the decoders, translators, shape checks and the SSE parser. Whatever
an agent sends, each either answers or raises an A2acliError (a clean "invalid answer"), never
anything else. Fixed seed and a bounded example count, so CI stays fast and repeatable."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from a2acli.errors import A2acliError
from a2acli.transport.exchange import Exchange
from a2acli.transport.sse import iter_events
from a2acli.wire import Wire, shapes
from a2acli.wire import translate as tr
from a2acli.wire.bindings import get_binding, parse_transport
from a2acli.wire.dialects import get_dialect
from a2acli.wire.methods import METHODS

FUZZ = settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck), database=None)
KEYS = ["kind", "task", "message", "status", "state", "parts", "text", "data", "file", "id", "taskId", "contextId", "artifacts", "artifact", "history", "role", "result", "error", "code", "jsonrpc", "statusUpdate", "artifactUpdate", "final", "url", "type", "securitySchemes", "supportedInterfaces", "raw", "mimeType", "tasks"]
scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8) | st.sampled_from(["task", "message", "TASK_STATE_COMPLETED", "completed", "ROLE_USER", "agent", "status-update", "2.0"])
docs = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=4), inner, max_size=5), max_leaves=30)
TRANSLATORS = [n for n in tr.__all__ if n.startswith(("to_core_", "to_compat_")) and n not in ("to_core_role", "to_core_task_state", "to_compat_role", "to_compat_task_state")]


def clean(fn: Any, *args: Any, **kwargs: Any) -> None:
    try:
        fn(*args, **kwargs)
    except A2acliError:
        pass


@seed(14)
@FUZZ
@given(doc=docs, name=st.sampled_from(TRANSLATORS))
def test_translators(doc, name):
    clean(getattr(tr, name), doc)


@seed(14)
@FUZZ
@given(doc=docs, to=st.sampled_from(["v1", "v0"]))
def test_translate_document(doc, to):
    clean(tr.translate_document, doc, to)


@seed(14)
@FUZZ
@given(doc=docs, kind=st.sampled_from(["send", "task", "event", "task_list", "config_list", "config", "card", "json"]), version=st.sampled_from(["1.0", "0.3"]))
def test_shape_checks(doc, kind, version):
    clean(shapes.check_result, kind, doc, "Method")
    clean(shapes.answer_shape, doc, version)
    clean(shapes.peek_event, doc)
    clean(shapes.ends_stream, doc, doc)


class _Answer:
    def __init__(self, status: int, body: bytes, content_type: str = "application/json") -> None:
        self.status, self.reason, self.url, self.response_body = status, "", "http://agent.test/rpc", body
        self._ct = content_type

    @property
    def content_type(self) -> str:
        return self._ct

    @property
    def request_id(self) -> str | None:
        return None

    def header(self, name: str, *, sent: bool = False) -> str | None:
        return self._ct if name.lower() == "content-type" else None


@seed(14)
@FUZZ
@given(
    doc=docs,
    envelope=st.booleans(),
    status=st.sampled_from([200, 400, 404, 500]),
    method=st.sampled_from(sorted(METHODS)),
    wire=st.sampled_from([Wire.V1, Wire.V0]),
    binding=st.sampled_from(["jsonrpc", "rest"]),
)
def test_bindings_decode(doc, envelope, status, method, wire, binding):
    b = get_binding(parse_transport(binding))
    spec = METHODS[method]
    try:
        enc = b.encode(spec, {"id": "t-1"}, wire=wire, dialect=get_dialect("spec"), tenant="", request_id=1, stream=None)
    except A2acliError:
        return
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "result": doc} if envelope else doc).encode()
    answer = _Answer(status, body)
    clean(lambda: b.to_core(enc, b.read_unary(enc, answer)))
    clean(lambda: b.to_core(enc, b.read_event(enc, answer, "message", body.decode())))
    clean(b.error, answer)


@seed(14)
@FUZZ
@given(data=st.binary(max_size=300) | st.lists(st.sampled_from([b"data: ", b"{}", b"\n", b"\r\n", b"\r", b": ping", b"event: error", b"id: 1", b"\xef\xbb\xbf", b"\xff"]), max_size=30).map(b"".join), cuts=st.lists(st.integers(0, 300), max_size=5))
def test_sse_parser(data, cuts):
    bounds = sorted({0, len(data), *(c for c in cuts if c < len(data))})
    chunks = [data[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]
    resp = httpx.Response(200, headers={"content-type": "text/event-stream"}, content=iter(chunks))
    ex = Exchange(1, "SendStreamingMessage", "POST", "http://agent.test/rpc", [])
    ex.response_headers = [("content-type", "text/event-stream")]
    try:
        events = list(iter_events(ex, resp, [], 1024))
    except A2acliError:
        return
    assert all(e.data.strip() for e in events)


@pytest.mark.parametrize("doc", [{"kind": []}, {"kind": {}}, {"task": {"status": {"state": []}}}])
def test_unhashable_values_are_no_internal_error(doc):
    for name in TRANSLATORS:
        clean(getattr(tr, name), doc)


def test_json_nested_too_deeply_is_an_invalid_answer():
    from a2acli.errors import InvalidResponseError
    from a2acli.wire import envelope

    with pytest.raises(InvalidResponseError, match="nested too deeply"):
        envelope.loads(b"[" * 100_000 + b"]" * 100_000)


# -- issue 27: the shapes that found internal errors in the second round ----------------------------

interfaces = st.dictionaries(st.sampled_from(["url", "protocolBinding", "protocolVersion", "tenant"]), scalars | st.lists(scalars, max_size=2) | st.sampled_from(["http://[::1", "http://xn--a.com/rpc", "JSONRPC", "1.0", "0.3", "grpc://h:1", "HTTP+JSON"]), max_size=4)


@seed(27)
@FUZZ
@given(itfs=st.lists(interfaces | scalars, max_size=3), wire=st.sampled_from([Wire.V1, Wire.V0]))
def test_interface_selection(itfs, wire):
    from a2acli.wire.endpoints import select_interface

    clean(select_interface, {"supportedInterfaces": itfs}, wire, "http://agent.test/card.json")


@seed(27)
@FUZZ
@given(preferred=scalars | st.lists(scalars, max_size=2) | st.dictionaries(st.text(max_size=3), scalars, max_size=2), url=scalars | st.lists(scalars, max_size=2), extra=st.lists(interfaces | scalars, max_size=2))
def test_v0_card_endpoint_fields(preferred, url, extra):
    card = {"name": "x", "protocolVersion": "0.3.0", "url": url, "preferredTransport": preferred, "additionalInterfaces": extra, "capabilities": {}, "skills": []}
    clean(tr.to_core_card, card)


@seed(27)
@FUZZ
@given(code=scalars | st.lists(scalars, max_size=2) | st.dictionaries(st.text(max_size=3), scalars, max_size=2), data=docs, event=st.sampled_from(["message", "error"]))
def test_jsonrpc_error_codes_of_any_type(code, data, event):
    b = get_binding(parse_transport("jsonrpc"))
    enc = b.encode(METHODS["GetTask"], {"id": "t-1"}, wire=Wire.V1, dialect=get_dialect("spec"), tenant="", request_id=1, stream=None)
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "error": {"code": code, "message": "m", "data": data}})
    with pytest.raises(A2acliError):
        b.read_unary(enc, _Answer(200, body.encode()))
    with pytest.raises(A2acliError):
        b.read_event(enc, _Answer(200, body.encode()), event, body)


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_a_deeply_nested_stream_event_is_an_invalid_answer(depth):
    b = get_binding(parse_transport("jsonrpc"))
    enc = b.encode(METHODS["SubscribeToTask"], {"id": "t-1"}, wire=Wire.V1, dialect=get_dialect("spec"), tenant="", request_id=1, stream=True)
    data = '{"jsonrpc": "2.0", "id": 1, "result": {"task": {"metadata": ' + "[" * depth + "]" * depth + "}}}"
    with pytest.raises(A2acliError) as refused:
        b.read_event(enc, _Answer(200, data.encode(), "text/event-stream"), "message", data)
    assert refused.value.code == "InvalidAgentResponseError"
    assert refused.value.message == "the stream event is JSON nested too deeply to read"


@seed(27)
@FUZZ
@given(host=st.lists(st.sampled_from(["xn--", "a", "xn--a", "xn--zz-", "xn--bcher-kva", "-", "\u00e9", "com", "1"]), min_size=1, max_size=4).map("".join), tld=st.sampled_from([".com", "", ".xn--p1ai", ".xn--"]))
def test_url_problem_on_punycode_hosts(host, tld):
    from a2acli.net import url_problem
    from a2acli.transport.client import Transport, TransportConfig

    url = f"http://{host}{tld}/"
    if url_problem(url) is None:  # what -u takes, httpx can build a request to
        clean(Transport(TransportConfig(version="1.0")).client.build_request, "GET", url)


# -- issue 27, second part: the shapes of an agent's error message and of a broken card --------------


@seed(27)
@FUZZ
@given(code=scalars | st.lists(scalars, max_size=2), message=docs, event=st.sampled_from(["message", "error"]))
def test_an_agent_error_message_of_any_type_is_said_as_text_or_json(code, message, event):
    b = get_binding(parse_transport("jsonrpc"))
    enc = b.encode(METHODS["GetTask"], {"id": "t-1"}, wire=Wire.V1, dialect=get_dialect("spec"), tenant="", request_id=1, stream=None)
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "error": {"code": code, "message": message}})
    for read in (lambda: b.read_unary(enc, _Answer(200, body.encode())), lambda: b.read_event(enc, _Answer(200, body.encode()), event, body)):
        with pytest.raises(A2acliError) as caught:
            read()
        if isinstance(message, (list, dict)) and message and repr(message) != json.dumps(message, ensure_ascii=False):
            assert repr(message) not in caught.value.message  # no Python repr: the message's JSON


@seed(27)
@FUZZ
@given(body=st.binary(max_size=64) | st.sampled_from([b"", b"<html>", b'{"a": ', b"\xff\xfe{}", b"[" * 3000]), content_type=st.sampled_from(["application/json", "text/html", "", "text/plain"]))
def test_a_broken_card_is_always_named_for_what_it_is(body, content_type):
    from a2acli.errors import CardInvalidError
    from a2acli.transport.card import broken_card
    from a2acli.wire import envelope

    answer = _Answer(200, body, content_type)
    try:
        envelope.loads(body, what="card")
    except A2acliError as e:
        err = broken_card("http://agent.test/.well-known/agent-card.json", answer, e, [])
        assert isinstance(err, CardInvalidError) and err.message.startswith("the Agent Card at http://agent.test/.well-known/agent-card.json is ")
