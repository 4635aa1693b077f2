"""What every binding shares: the HTTP request description it encodes a call into, what it needs
of an answer to read it, and the A2A error it makes of a failure. Pure: no I/O, no httpx.

A binding turns one method call in one wire version into an `HttpRequest` (verb, path relative to
the interface URL, query, headers, body) and turns the answer, or each stream event, back into a
result (as the wire spelt it), its canonical V1 form, or an A2A error with the same name, code,
hint and exit code whichever binding carried it."""

import json
from typing import TYPE_CHECKING, Any, Protocol

from a2acli.errors import A2acliError, AuthError, HttpError, InvalidResponseError, RpcError
from a2acli.records import Record
from a2acli.wire import Wire
from a2acli.wire.dialects import Dialect

if TYPE_CHECKING:
    from a2acli.wire.methods import MethodSpec  # (a type only: the method table stays off `card fetch`)


class HttpRequest(Record):
    __slots__ = ("verb", "path", "query", "headers", "body")
    verb: str
    path: str  # appended to the interface URL ("" for JSON-RPC), percent-encoded
    query: tuple[tuple[str, str], ...]
    headers: tuple[tuple[str, str], ...]  # the binding's own (Content-Type, Accept)
    body: bytes | None  # None: no body

    def __init__(
        self,
        verb: str,
        path: str,
        query: tuple[tuple[str, str], ...] = (),
        headers: tuple[tuple[str, str], ...] = (),
        body: bytes | None = None,
    ) -> None:
        self._set(verb, path, query, headers, body)


class Encoded(Record):
    """One call, encoded: the request to send and what reading its answer needs."""

    __slots__ = ("spec", "method", "request", "document", "wire", "request_id", "notes", "stream")
    spec: "MethodSpec | None"  # None: a method `a2a call` does not know
    method: str  # the method as the binding names it on the wire (label of dumps and --debug)
    request: HttpRequest
    document: Any  # the JSON the body carries (shown by --offline -o json); None without a body
    wire: Wire
    request_id: Any  # JSON-RPC id (None for bindings without one)
    notes: tuple[str, ...]  # what the translation could not carry
    stream: bool  # the answer is read as a stream of events

    def __init__(
        self,
        spec: "MethodSpec | None",
        method: str,
        request: HttpRequest,
        document: Any,
        wire: Wire,
        request_id: Any = None,
        notes: tuple[str, ...] = (),
        stream: bool = False,
    ) -> None:
        self._set(spec, method, request, document, wire, request_id, notes, stream)


class Answer(Protocol):
    """What a binding reads of an HTTP answer (transport.exchange.Exchange is one)."""

    status: int | None
    reason: str
    url: str
    response_body: bytes

    @property
    def content_type(self) -> str: ...
    @property
    def request_id(self) -> str | None: ...
    def header(self, name: str, *, sent: bool = False) -> str | None: ...
    def sse_events(self) -> list[tuple[str, str]]:
        """(event name, data) of each event of an answer that came as SSE, read by the transport's
        SSE reader (httpx-sse: wire/ parses no SSE of its own)."""
        ...


Warn = Any  # Callable[[str], None] | None


class Binding(Protocol):
    info: Any  # its BindingInfo, the row of wire.bindings.BINDINGS: what callers ask of it (typed
    # Any: this module may not import the package's table, which names this Protocol for its types)
    name: str  # as cards spell it: info.card
    flag: str  # as --transport spells it: info.flag
    carrier: Any  # info.carrier, what moves its requests: Carrier.HTTP (transport.client) or .GRPC (transport.grpc)

    def encode(
        self,
        spec: "MethodSpec",
        core_params: Any,
        *,
        wire: Wire,
        dialect: Dialect,
        tenant: str,
        request_id: Any,
        stream: bool | None,
    ) -> Encoded: ...
    def encode_call(
        self,
        method: str,
        params: Any,
        *,
        wire: Wire,
        dialect: Dialect,
        tenant: str,
        request_id: Any,
        stream: bool | None,
    ) -> Encoded: ...
    def encode_other(
        self, spec: "MethodSpec", core_params: Any, *, wire: Wire, dialect: Dialect, tenant: str
    ) -> Encoded | None: ...
    def read_unary(self, enc: Encoded, answer: Answer, warn: Warn = None) -> Any: ...
    def read_event(self, enc: Encoded, answer: Answer, event: str, data: str, warn: Warn = None) -> Any: ...
    def to_core(self, enc: Encoded, result: Any, notes: list[str] | None = None) -> Any: ...
    def error(self, answer: Answer, what: str = "the agent") -> A2acliError: ...


def v1_message(core_params: Any, dialect: Dialect, tenant: str = "") -> dict[str, Any]:
    """V1 params as every binding sends them: a copy, with the interface's tenant (JSON-RPC and
    gRPC carry it as a field; HTTP+JSON moves it to the path) and, under a dialect that wants
    them, lowercase enum values."""
    params = dict(core_params or {})
    if tenant and "tenant" not in params:
        params["tenant"] = tenant
    if dialect.lowercase_v1_enums:
        from a2acli.wire.translate import lowercase_v1_enums

        params = lowercase_v1_enums(params)
    return params


# -- errors, the same whichever binding carried them ----------------------------------------------

# Hints for the A2A errors a user can act on.
HINTS = {
    -32001: "check the task id (`a2a tasks list` shows recent ones)",
    -32002: "the task is already in a terminal state",
    -32003: "the agent does not support push notifications (see `a2a card fetch`)",
    -32004: "the agent does not support this operation (see `a2a card fetch`)",
    -32005: "change the parts' media types or --accepted-output-modes",
    -32006: "the agent produced an invalid answer: its fault; quote the X-Request-ID to its operator",
    -32007: "the agent has no extended card configured",
    -32008: "activate the extension the agent requires (-H 'A2A-Extensions: URI')",
    -32009: "try the other version: --a2a-version 0.3 or 1.0",
    -32603: "the agent failed while handling the call (its fault, not the request's): retry later, or quote the X-Request-ID to its operator",
    -32601: "the agent does not know this method under this version; try --a2a-version",
    -32602: "the agent rejected the params; compare with `--offline` and the other version",
    -32600: "the agent rejected the request envelope",
    -32700: "the agent could not parse the request body",
}


STREAM_ERROR_HINT = "the agent ended the stream with an `event: error`: retry later, or quote the X-Request-ID to its operator (-o raw or --debug shows the event)"


def stream_error(err: A2acliError) -> A2acliError:
    """The error an SSE `event: error` carried, with a hint when its code has none of its own."""
    if not err.hint:
        err.hint = STREAM_ERROR_HINT
    return err


def error_text(value: Any) -> str:
    """An agent's error message as text: a string as it is, anything else as its JSON (never a
    Python repr), `no message` when there is none."""
    if isinstance(value, str):
        return value or "no message"
    if value is None:
        return "no message"
    try:
        return json.dumps(value, ensure_ascii=False)[:500]
    except (TypeError, ValueError, RecursionError):
        return "no message"


def transport_code(answer: Answer | None) -> int | str | None:
    """The transport-level code of a failed answer, as the envelope's `a2aCode` shows it: the gRPC
    status name (the gRPC carrier writes it as the exchange's reason), else the HTTP status."""
    if answer is None:
        return None
    if answer.content_type == "application/grpc":
        return answer.reason or None
    return answer.status


def a2a_error(
    code: Any, message: str, answer: Answer | None = None, *, data: Any = None, wire_code: Any = None
) -> RpcError:
    """An A2A error by its JSON-RPC code (every binding maps its own form to that code first: an
    ErrorInfo reason, a gRPC details string). The envelope's `code` is the A2A 1.0 name
    (wire.translate.errors, one table), the same whichever binding and version carried it; the
    message names it as the request's version does (-32007 was renamed in 1.0). `wire_code`: the
    transport-level code (the JSON-RPC code, the HTTP status, the gRPC status name)."""
    from a2acli.errors import RPC_ERROR
    from a2acli.wire.translate.errors import error_name

    v0 = answer is not None and (answer.header("A2A-Version", sent=True) or "").startswith("0.")
    name = (error_name(code, "v0" if v0 else "v1") or error_name(code)) if isinstance(code, int) else None
    label = (
        name if name else f"{code}" if code not in (None, "") else "the agent reported an error"
    )  # binding-neutral: the wire's code is a2aCode's
    hint = HINTS.get(code) if isinstance(code, int) else None
    # hints that depend on the version the request used (the answer says which: A2A-Version sent)
    if code == -32009:  # the version this request did not use
        hint = f"try --a2a-version {'1.0' if v0 else '0.3'}" + (
            " (a 0.3 route the agent lacks answers as a 1.0 one)" if v0 else ""
        )
    elif code == -32001 and v0:  # 0.3 has no tasks/list to look the id up with
        hint = "check the task id: it is in the answer that created the task (0.3 has no way to list tasks)"
    elif code == -32601 and answer is not None:
        hint = f"the agent does not know this method under A2A {'0.3' if v0 else '1.0'}: if it speaks {'1.0' if v0 else '0.3'}, pass --a2a-version {'1.0' if v0 else '0.3'}"
    return RpcError(
        f"{label}: {message or 'no message'}",
        hint=hint,
        a2a_code=code if isinstance(code, int) else None,
        data=data,
        request_id=answer.request_id if answer is not None else None,
        wire_code=wire_code,
        code=error_name(code) or RPC_ERROR,
    )


def fault_hint(request_id: str | None) -> str:
    """The hint of a server fault: the X-Request-ID to quote, when the answer gave one."""
    return "the agent failed; retry later" + (
        f", or quote the X-Request-ID {request_id} to its operator" if request_id else ""
    )


def http_status_error(answer: Answer, what: str = "the agent", endpoint_flag: str = "--endpoint") -> A2acliError:
    """A non-2xx answer that carries no A2A error. Bindings first try to read one out of it."""
    status = answer.status or 0
    code = transport_code(answer)
    snippet = answer.response_body[:200].decode("utf-8", "replace").strip()
    detail = f"HTTP {status} {answer.reason}".strip()
    rid = answer.request_id
    if status in (401, 403):
        challenge = answer.header("www-authenticate")
        err = AuthError(
            f"{what} refused the credentials: {detail}" + (f" ({challenge})" if challenge else ""),
            hint="pass --api-key, --bearer or --basic (or check them), or `a2a auth login` for OAuth2; `a2a card fetch` shows the schemes the agent accepts",
            request_id=rid,
            wire_code=code,
        )
        err.http_status = status  # the pipeline words a 401 to a call that carried no credential
        return err
    if status == 409:
        return HttpError(
            f"{what} answered {detail}: a request with this idempotency key is still running, or the key was used with a different body",
            hint="wait and retry with the same key, or use a new --idempotency-key for a new request",
            request_id=rid,
            wire_code=code,
        )
    if status in (404, 405, 501):  # 501 Not Implemented: the server does not do this verb here (http.server)
        missing = HttpError(
            f"{what} answered {detail} for {answer.url}",
            hint=f"check --url / {endpoint_flag}: is this the agent's endpoint for this binding (--transport)?",
            request_id=rid,
            wire_code=code,
        )
        missing.doubts_endpoint = True
        return missing
    hint = fault_hint(rid) if status >= 500 else "see --debug for the full exchange"
    msg = f"{what} answered {detail}"
    if snippet and not snippet.startswith("<"):
        msg += f": {snippet}"
    elif snippet:
        msg += " (an HTML page)"
    return HttpError(msg, hint=hint, request_id=rid, wire_code=code)


def single_event(answer: Answer) -> bytes:
    """The data of an SSE answer holding one event (some servers answer every call with SSE)."""
    found = [data for _, data in answer.sse_events()]
    if len(found) != 1:
        raise InvalidResponseError(
            f"the agent answered with a stream of {len(found)} events where one answer was expected",
            hint="for a streaming answer use `a2a stream` (or `a2a call METHOD --stream`)",
        )
    return found[0].encode()


def json_body(answer: Answer, what: str) -> Any:
    """The JSON of a 2xx answer (a single SSE event's data when it came as a stream)."""
    from a2acli.wire import envelope

    if answer.content_type == "text/event-stream":
        return envelope.loads(single_event(answer), what=f"answer of {what}")
    return envelope.loads(answer.response_body, what=f"answer of {what}")
