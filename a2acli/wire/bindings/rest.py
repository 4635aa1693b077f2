"""The HTTP+JSON (REST) binding: each method has its own route (verb and path template, from the
protos' `google.api.http` annotations, kept in the METHODS rows). The request message is split
as gRPC transcoding does: path variables take their fields, `body: "*"` takes every other field,
`body: "config"` that one field, and whatever is left goes to the query string.

Under 1.0 the request message is the V1 ProtoJSON params (an interface's tenant becomes the
`/{tenant}` path prefix), and answers are bare V1 objects (no envelope; a stream event's data is
a bare StreamResponse). Under 0.3 the routes live under `/v1` and bodies are the proto-JSON of
the 0.3 gRPC proto (wire/translate/proto03.py), not the JSON-RPC schema. Errors are an HTTP
status with a `google.rpc.Status` body whose ErrorInfo `reason` names the A2A error; @a2a-js/sdk
answers `{"code": -32001, "message": …}` instead, read by that code."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote

from a2acli.errors import A2acliError, InvalidResponseError, UsageError
from a2acli.wire import Wire, envelope
from a2acli.wire.bindings import REST as REST_INFO
from a2acli.wire.bindings.base import (
    STREAM_ERROR_HINT,
    Answer,
    Encoded,
    HttpRequest,
    Warn,
    a2a_error,
    error_text,
    fault_hint,
    http_status_error,
    json_body,
    stream_error,
    v1_message,
)
from a2acli.wire.dialects import Dialect
from a2acli.wire.methods import MethodSpec, Route

# 1.0 REST SHOULD use application/a2a+json; 0.3 REST uses application/json.
MEDIA_TYPE = {Wire.V1: "application/a2a+json", Wire.V0: "application/json"}
_VAR = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?:=([^}]*))?\}")


def route_of(spec: MethodSpec, wire: Wire) -> Route:
    route = spec.rest if wire is Wire.V1 else spec.rest_v0
    if route is None:
        raise UsageError(
            f"{spec.name} has no HTTP+JSON form under A2A {wire.version}",
            hint="use --transport jsonrpc, or the other --a2a-version",
        )
    return route


def transcode(
    spec: MethodSpec, route: Route, message: dict[str, Any], tenant: str = ""
) -> tuple[str, list[tuple[str, str]], Any]:
    """(path, query, body) of a request message on a route. Body None: the route has none."""
    fields = dict(message)
    fields.pop("tenant", None)  # a path prefix, never a field of the body or query
    whole = dict(fields)

    def variable(m: re.Match[str]) -> str:
        name, pattern = m.group(1), m.group(2) or "*"
        value = fields.pop(name, None)
        if value in (None, ""):
            raise UsageError(
                f"{spec.name} over HTTP+JSON needs a non-empty `{name}`: it is part of the path {route.template}",
                hint="give the id on the command line",
            )
        value = str(value)
        if not _matches(pattern, value):
            raise UsageError(
                f"{spec.name}: `{name}` is {value!r}, which does not fit the route {route.template}",
                hint="give the bare id",
            )
        # a single-segment variable keeps any `/` of the value escaped; a resource name keeps its own
        return segment(value) if "/" not in pattern else "/".join(segment(seg) for seg in value.split("/"))

    path = _VAR.sub(variable, route.template)
    if tenant:
        path = "/" + segment(tenant) + path
    body: Any = None
    if route.body == "=":
        body, fields = whole, {}
    elif route.body == "*":
        body, fields = fields, {}
    elif route.body:
        body = fields.pop(route.body, None)
        if body is None:
            body = {}
    return path, query_of(fields), body


def segment(value: str) -> str:
    """`value` as one path segment that names nothing else: percent-encoded (its `/` too), and a
    dot segment (`.`, `..`) spelt `%2E`: a URL parser (httpx's, a server's) removes a literal one,
    so `tasks/..` would name the base and `tasks/.` the task list (RFC 3986 §5.2.4)."""
    quoted = quote(value, safe="")
    return quoted.replace(".", "%2E") if quoted in (".", "..") else quoted


def _matches(pattern: str, value: str) -> bool:
    if pattern == "*":  # one segment: any value, its `/` escaped
        return bool(value)
    parts, want = value.split("/"), pattern.split("/")
    return len(parts) == len(want) and all(w == "*" and p or w == p for w, p in zip(want, parts, strict=True))


def query_of(fields: dict[str, Any], prefix: str = "") -> list[tuple[str, str]]:
    """Fields left over, as query parameters: camelCase names, nested messages as dotted names,
    repeated fields as repeated parameters, booleans as true/false."""
    out: list[tuple[str, str]] = []
    for key, value in fields.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out += query_of(value, name + ".")
        elif isinstance(value, list):
            out += [(name, _scalar(v)) for v in value]
        elif value is not None:
            out.append((name, _scalar(value)))
    return out


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


class RestBinding:
    info = REST_INFO  # the table's row: names, carrier, streaming, error form
    name = info.card
    flag = info.flag
    carrier = info.carrier

    def encode(
        self,
        spec: MethodSpec,
        core_params: Any,
        *,
        wire: Wire,
        dialect: Dialect,
        tenant: str = "",
        request_id: Any = None,
        stream: bool | None = None,
    ) -> Encoded:
        if wire is Wire.V0:
            spec.refuse_v0(dialect, self.info)
        return self._encode(
            spec, route_of(spec, wire), core_params, wire=wire, dialect=dialect, tenant=tenant, stream=stream
        )

    def encode_other(
        self, spec: MethodSpec, core_params: Any, *, wire: Wire, dialect: Dialect, tenant: str = ""
    ) -> Encoded | None:
        """The same call with the route's other body form (Route.other), or None: a 0.3
        push-config create with the whole request as the body, as a2a-sdk's servers read it."""
        route = route_of(spec, wire)
        if not route.other:
            return None
        return self._encode(
            spec,
            route._replace(body=route.other, other=""),
            core_params,
            wire=wire,
            dialect=dialect,
            tenant=tenant,
            stream=False,
        )

    def _encode(
        self,
        spec: MethodSpec,
        route: Route,
        core_params: Any,
        *,
        wire: Wire,
        dialect: Dialect,
        tenant: str,
        stream: bool | None,
    ) -> Encoded:
        stream = spec.streaming if stream is None else stream
        notes: list[str] = []
        params = dict(core_params or {})
        if wire is Wire.V1:
            message = v1_message(params, dialect)  # the tenant goes to the path
        else:
            message = self.translators(spec).params_to_compat(params, notes)
            if spec.name == "ListTasks" and notes:  # 0.3's GET /v1/tasks takes no parameters at all
                raise UsageError(
                    f"0.3 HTTP+JSON lists tasks with a bare GET /v1/tasks: it has no form for {', '.join(sorted(params))}",
                    hint="drop the list options (and --all), or use --a2a-version 1.0",
                )
        path, query, body = transcode(
            spec, route, message if isinstance(message, dict) else {}, tenant if wire is Wire.V1 else ""
        )
        media = MEDIA_TYPE[wire]
        headers: tuple[tuple[str, str], ...] = (
            (("Accept", "text/event-stream"), ("Cache-Control", "no-store")) if stream else (("Accept", media),)
        )
        if body is not None:
            headers = (("Content-Type", media), *headers)
        data = envelope.dumps(body) if body is not None else None
        return Encoded(
            spec,
            spec.name,
            HttpRequest(route.verb, path, tuple(query), headers, data),
            body,
            wire,
            None,
            tuple(notes),
            stream,
        )

    def encode_call(
        self,
        method: str,
        params: Any,
        *,
        wire: Wire,
        dialect: Dialect,
        tenant: str = "",
        request_id: Any = None,
        stream: bool | None = None,
    ) -> Encoded:
        """`a2a call` over HTTP+JSON: a method of the table by its V1 name (params in V1 form): the
        route comes from the table, so an unknown method has none."""
        from a2acli.wire.bindings.jsonrpc import known_method

        spec = known_method(method, params)
        if spec is None or method != spec.name:
            hint = (
                f"call {spec.name} (params in V1 form)"
                if spec is not None
                else "HTTP+JSON needs the method's route: use a V1 method name, or --transport jsonrpc for other methods"
            )
            raise UsageError(f"over HTTP+JSON `a2a call` takes the V1 method names, not {method!r}", hint=hint)
        return self.encode(spec, params, wire=wire, dialect=dialect, tenant=tenant, stream=stream)

    @staticmethod
    def translators(spec: MethodSpec) -> Any:
        from a2acli.wire.translate.proto03 import PROTO03_TRANSLATORS

        return PROTO03_TRANSLATORS[spec.name]

    def read_unary(self, enc: Encoded, answer: Answer, warn: Warn = None) -> Any:
        status = answer.status or 0
        if not 200 <= status < 300:
            raise self.error(answer)
        if not answer.response_body.strip():
            if enc.spec is not None and enc.spec.result == "empty":  # a DELETE answers with nothing (or 204)
                return None
            raise InvalidResponseError(f"the answer to {enc.method} is empty", hint="see the exchange with --debug")
        doc = json_body(answer, "the agent")
        _not_jsonrpc(doc)
        return doc

    def read_event(self, enc: Encoded, answer: Answer, event: str, data: str, warn: Warn = None) -> Any:
        """One event's data: a bare StreamResponse. An `event: error`, or a google.rpc.Status in
        the data, is the A2A error it names."""
        try:
            doc = envelope.loads_event(data)
        except A2acliError:
            if event == "error":
                raise stream_error(a2a_error(None, data, answer)) from None
            raise
        err = _status_error(doc, answer, in_stream=True)
        if err is not None:
            raise stream_error(err) if event == "error" else err
        if event == "error":
            raise stream_error(a2a_error(None, error_text(doc), answer))
        _not_jsonrpc(doc)
        return doc

    def to_core(self, enc: Encoded, result: Any, notes: list[str] | None = None) -> Any:
        if enc.spec is None:
            return result
        if enc.wire is Wire.V0:
            return self.translators(enc.spec).result_to_core(result, notes)
        return enc.spec.translators.result_to_core(result, notes)

    def error(self, answer: Answer, what: str = "the agent") -> A2acliError:
        """An HTTP error: the A2A error its google.rpc.Status names, else the HTTP status's."""
        if (answer.status or 0) not in (401, 403):
            try:
                doc = json.loads(answer.response_body)
            except (ValueError, UnicodeDecodeError):
                doc = None
            err = _status_error(doc, answer)
            if err is not None:
                return err
        return http_status_error(answer, what)


def _not_jsonrpc(doc: Any) -> None:
    """An HTTP+JSON call answered with a JSON-RPC envelope went to a JSON-RPC endpoint."""
    if isinstance(doc, dict) and doc.get("jsonrpc") == "2.0":
        err = doc.get("error") if isinstance(doc.get("error"), dict) else {}
        said = f" (error {err.get('code')}: {err.get('message')})" if err else ""
        raise InvalidResponseError(
            f"the answer is a JSON-RPC envelope{said}: this endpoint speaks JSON-RPC, not HTTP+JSON",
            hint="use --transport jsonrpc",
        )


def _reasons() -> dict[str, int]:
    from a2acli.wire.translate.errors import A2A_ERRORS, error_reason

    return {error_reason(code): code for code in A2A_ERRORS if error_reason(code) != "UNKNOWN"}


def _numeric_a2a_code(code: Any) -> int | None:
    """A JSON-RPC/A2A error code where a google.rpc.Status has its (small, positive) status code:
    @a2a-js/sdk's HTTP+JSON errors are an HTTP status with `{"code": -32001, "message": ...}`, read
    as its client reads them. Only codes in the JSON-RPC error range (-32768..-32000) count."""
    if isinstance(code, int) and not isinstance(code, bool) and -32768 <= code <= -32000:
        return code
    return None


def _status_error(doc: Any, answer: Answer, in_stream: bool = False) -> A2acliError | None:
    """The A2A error of a google.rpc.Status body (`{"error": {code, status, message, details}}`,
    or the Status itself), named by its ErrorInfo reason, or of a body whose `code` is an A2A
    error code (a2a-js); None when the body is neither. `in_stream`: the Status came in an event of
    a stream that opened with HTTP 200, so the Status's own code says what failed, not the 200."""
    status = doc.get("error") if isinstance(doc, dict) and isinstance(doc.get("error"), dict) else doc
    if (
        not isinstance(status, dict)
        or not isinstance(status.get("message"), str)
        or not ({"code", "status", "details"} & status.keys())
    ):
        return None
    details: list[Any] = status["details"] if isinstance(status.get("details"), list) else []
    reason = _error_info_reason(details)
    code = _reasons().get(reason) if reason else None
    if code is None and not details:
        code = _numeric_a2a_code(status.get("code"))  # a2a-js: {"code": -32001, "message": ...}
    # the transport-level code: the gRPC status name (this Status is a gRPC one), else the HTTP status
    wire_code = (
        (status.get("status") if isinstance(status.get("status"), str) else None) or answer.reason
        if answer.content_type == "application/grpc"
        else answer.status
    )
    if code is None:  # a Status that names no A2A error (a proxy's, a framework's): an HTTP error
        return _unnamed_status_error(status, reason, details, answer, wire_code, in_stream=in_stream)
    # the same code and words as over JSON-RPC; the HTTP status (gRPC status) is the envelope's a2aCode
    data = details or (status.get("data") if "data" in status else None)
    return a2a_error(code, status["message"], answer, data=data, wire_code=wire_code)


def _error_info_reason(details: list[Any]) -> str | None:
    """The reason of the first google.rpc.ErrorInfo among a Status's details."""
    return next(
        (
            str(d.get("reason"))
            for d in details
            if isinstance(d, dict) and str(d.get("@type", "")).endswith("ErrorInfo") and d.get("reason")
        ),
        None,
    )


_GRPC_UNSERVED = (
    "the agent does not serve this call over gRPC under this version: try --a2a-version or another --transport"
)


def _unnamed_status_error(
    status: dict[str, Any], reason: str | None, details: list[Any], answer: Answer, wire_code: Any, *, in_stream: bool
) -> A2acliError:
    """A Status that names no A2A error (a proxy's, a framework's): an HTTP error, in the words of
    where it came. In a stream's event the stream itself answered HTTP 200, so the Status's own code
    (an HTTP status in the HTTP+JSON mapping) says whose fault it is; a gRPC status is told by its
    name (the carrier's HTTP-like status only decides whose fault); else the HTTP answer's status."""
    from a2acli.errors import HttpError

    word = f" {status['status']}" if isinstance(status.get("status"), str) else ""
    http = answer.status or 0
    if in_stream:
        code = status.get("code")
        own = code if isinstance(code, int) and not isinstance(code, bool) and 100 <= code <= 599 else None
        said = f"the agent ended the stream with an error{word}" + (f" (HTTP {own})" if own else "")
        hint = STREAM_ERROR_HINT if own is None or own >= 500 else "see the event with --debug or -o raw"
        wire_code = own or answer.status
    elif answer.content_type == "application/grpc":
        name = wire_code if isinstance(wire_code, str) and wire_code else "UNKNOWN"
        said = f"the agent answered gRPC {name}"
        hint = (
            _GRPC_UNSERVED
            if name == "UNIMPLEMENTED"
            else fault_hint(answer.request_id)
            if http >= 500
            else "see the exchange with --debug"
        )
    else:
        said = f"the agent answered HTTP {http}{word}"
        hint = fault_hint(answer.request_id) if http >= 500 else "see the exchange with --debug"
    return HttpError(
        f"{said}: {status['message']}" + (f" [{reason}]" if reason else ""),
        hint=hint,
        data=details or None,
        request_id=answer.request_id,
        wire_code=wire_code,
    )


# -- reading recorded requests back (a2a diff, a2a translate) ------------------------------------


def _template_regex(template: str) -> str:
    out, pos = [], 0
    for m in _VAR.finditer(template):
        out.append(re.escape(template[pos : m.start()]))
        pattern = m.group(2) or "*"
        out.append(
            f"(?P<{m.group(1)}>"
            + "/".join("[^/]+" if seg == "*" else re.escape(seg) for seg in pattern.split("/"))
            + ")"
        )
        pos = m.end()
    out.append(re.escape(template[pos:]))
    return "".join(out)


def _typed(value: str) -> Any:
    """A query value as the JSON it stood for (query strings carry text only)."""
    if value in ("true", "false"):
        return value == "true"
    if re.fullmatch(r"-?\d+", value):
        return int(value)
    return value


def decode_request(
    spec: MethodSpec, wire: Wire, target: str, body: bytes, notes: list[str] | None = None
) -> dict[str, Any]:
    """The core (V1) params of a recorded HTTP+JSON request: its path variables, query and body
    put back into the request message, then read as V1 params (under 0.3: from proto-JSON).
    Query values that look like numbers or booleans are read as such. The route is matched at the
    end of the path: what comes before it (the interface's base path, a tenant) is not read."""
    from urllib.parse import parse_qsl, unquote

    route = route_of(spec, wire)
    path, _, query = target.partition("?")
    m = re.search(_template_regex(route.template) + "$", path)
    message: dict[str, Any] = {}
    if body.strip():
        doc = json.loads(body)
        whole = (
            route.other == "=" and isinstance(doc, dict) and route.body in doc
        )  # the route's other form: the whole request
        if route.body in ("*", "=") or whole:
            message.update(doc if isinstance(doc, dict) else {})
        elif route.body:
            message[route.body] = doc
    if m:
        message.update({k: unquote(v) for k, v in m.groupdict().items() if v is not None})
    for name, value in parse_qsl(query, keep_blank_values=True):
        holder = message
        *parents, leaf = name.split(".")
        for p in parents:
            holder = holder.setdefault(p, {})
        if leaf in holder:
            holder[leaf] = (holder[leaf] if isinstance(holder[leaf], list) else [holder[leaf]]) + [_typed(value)]
        else:
            holder[leaf] = _typed(value)
    if wire is Wire.V0:
        return RestBinding.translators(spec).params_to_core(message, notes)
    return message


def decode_answer(spec: MethodSpec, wire: Wire, status: int, body: Any, notes: list[str] | None = None) -> Any:
    """A recorded answer (or one stream event) in binding-neutral canonical form: `{"result":
    core}`, or `{"error": {code, message, data}}` with the A2A code its Status names."""
    err = (
        _status_error(body, _Recorded(status))
        if not 200 <= status < 300 or isinstance(body, dict) and "error" in body
        else None
    )
    if err is not None:
        error: dict[str, Any] = {"code": err.a2a_code, "message": err.message.partition(": ")[2] or err.message}
        if err.data:
            error["data"] = err.data
        return {"error": error}
    if wire is Wire.V0:
        return {"result": RestBinding.translators(spec).result_to_core(body, notes)}
    return {"result": spec.translators.result_to_core(body, notes)}


class _Recorded:
    """Just enough of an Answer for reading a recorded error body."""

    reason = ""
    url = ""
    response_body = b""
    content_type = "application/json"
    request_id = None

    def __init__(self, status: int) -> None:
        self.status: int | None = status

    def header(self, name: str, *, sent: bool = False) -> str | None:
        return None

    def sse_events(self) -> list[tuple[str, str]]:
        return []  # a recorded error body is JSON
