"""The JSON-RPC binding: every call is a POST of one JSON-RPC 2.0 envelope to the interface URL;
the answer is a response envelope, or an SSE stream whose events each carry one. V1 and V0
differ in the method names and the params/result shapes (wire/translate)."""

from __future__ import annotations

import json
from typing import Any

from a2acli.errors import A2acliError, HttpError, UsageError
from a2acli.wire import Wire, envelope
from a2acli.wire.bindings import JSONRPC as JSONRPC_INFO
from a2acli.wire.bindings.base import (
    Answer,
    Encoded,
    HttpRequest,
    Warn,
    a2a_error,
    error_text,
    http_status_error,
    json_body,
    stream_error,
    v1_message,
)
from a2acli.wire.dialects import Dialect
from a2acli.wire.methods import MethodSpec, find_method

_UNARY = (("Content-Type", "application/json"), ("Accept", "application/json"))
_STREAM = (("Content-Type", "application/json"), ("Accept", "text/event-stream"), ("Cache-Control", "no-store"))


def encode_params(
    spec: MethodSpec,
    core_params: Any,
    *,
    wire: Wire,
    dialect: Dialect,
    tenant: str = "",
    notes: list[str] | None = None,
) -> Any:
    """Core (V1) params in the form `wire` sends; None means "no params key"."""
    if wire is Wire.V1:
        return v1_message(core_params, dialect, tenant)
    return spec.translators.params_to_compat(core_params or {}, notes)


def _encoded(
    spec: MethodSpec | None,
    method: str,
    params: Any,
    wire: Wire,
    request_id: Any,
    stream: bool,
    notes: list[str] | tuple[str, ...] = (),
) -> Encoded:
    env = envelope.request(method, params, request_id)
    request = HttpRequest("POST", "", (), _STREAM if stream else _UNARY, envelope.dumps(env))
    return Encoded(spec, method, request, env, wire, request_id, tuple(notes), stream)


class JsonRpcBinding:
    info = JSONRPC_INFO  # the table's row: names, carrier, streaming, error form
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
        stream = spec.streaming if stream is None else stream
        method = spec.wire_name(wire, dialect, self.info)
        notes: list[str] = []
        params = encode_params(spec, core_params, wire=wire, dialect=dialect, tenant=tenant, notes=notes)
        return _encoded(
            spec, method, params, wire, envelope.new_id() if request_id is None else request_id, stream, notes
        )

    def encode_other(
        self, spec: MethodSpec, core_params: Any, *, wire: Wire, dialect: Dialect, tenant: str = ""
    ) -> Encoded | None:
        """No method has a second request form over this binding."""
        return None

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
        """`a2a call`: a known method given by its V1 name takes the chosen wire's name and params
        form (an object); its V0 name is sent as given under V0 and refused under V1 (its params
        would be V0's); a method we do not know is sent exactly as given."""
        spec = known_method(method, params)
        rid = envelope.new_id() if request_id is None else request_id
        if spec is not None:
            if method == spec.name:
                return self.encode(
                    spec, params, wire=wire, dialect=dialect, tenant=tenant, request_id=rid, stream=stream
                )
            if wire is Wire.V1 and method == spec.v0:
                raise UsageError(
                    f"{method} is the 0.3 name of {spec.name}; under 1.0 it is {spec.name}",
                    hint=f"call {spec.name} (params in V1 form), or pass --a2a-version 0.3 to send {method}",
                )
        return _encoded(spec, method, params, wire, rid, bool(stream))

    def read_unary(self, enc: Encoded, answer: Answer, warn: Warn = None) -> Any:
        """The `result` of a JSON-RPC response; the A2A error of an `error`."""
        doc = self._document(answer)
        result, err = envelope.split_response(doc)
        if err is not None:
            raise _rpc_error(err, answer)
        _check_id(doc, enc.request_id, warn)
        return result

    def read_event(self, enc: Encoded, answer: Answer, event: str, data: str, warn: Warn = None) -> Any:
        """The `result` of one SSE event holding a JSON-RPC response. An `event: error` is an
        error whatever its data: a JSON-RPC error envelope, a bare error object, or plain text."""
        if event == "error":
            try:
                _, err = envelope.split_response(envelope.loads(data.encode(), what="stream error event"))
            except A2acliError:
                err = None
            raise stream_error(_rpc_error(err or {"code": None, "message": data}, answer))
        doc = envelope.loads_event(data)
        if type(doc) is dict and "result" in doc and "error" not in doc:  # the usual event: no more calls than needed
            rid = enc.request_id
            if warn is not None and rid is not None and doc.get("id", rid) != rid:
                _check_id(doc, rid, warn)
            return doc["result"]
        result, err = envelope.split_response(doc)
        if err is not None:
            raise _rpc_error(err, answer)
        _check_id(doc, enc.request_id, warn)
        return result

    def to_core(self, enc: Encoded, result: Any, notes: list[str] | None = None) -> Any:
        """Any result, V1 or V0, brought to canonical V1 (for rendering, `--as v1`, diffs)."""
        if enc.spec is None:
            return result
        return enc.spec.translators.result_to_core(result, notes)

    def error(self, answer: Answer, what: str = "the agent", *, call: bool = True) -> A2acliError:
        """The error a non-2xx answer carries: a JSON-RPC error riding on it, else the HTTP one.
        `call`: the answer is to a JSON-RPC call (not a card GET), so a 5xx that is no JSON-RPC
        answer says the URL may not be the agent's endpoint (a web app's error page, a proxy)."""
        try:
            doc = envelope.loads(answer.response_body)
            _, err = envelope.split_response(doc)
        except A2acliError:
            doc, err = None, None
        # any other JSON (`{"error": "down"}` from a proxy) is just the body of an HTTP error
        code = (err or {}).get("code")
        jsonrpc = isinstance(doc, dict) and (
            doc.get("jsonrpc") == "2.0" or isinstance(code, int) and -32768 <= code <= -32000
        )
        if err is not None and jsonrpc and (answer.status or 0) not in (401, 403):
            return _rpc_error(err, answer)
        failed = http_status_error(answer, what)
        if call and (answer.status or 0) >= 500:
            failed.message = f"{failed.message} (not a JSON-RPC answer)"
            failed.hint = f"is {answer.url} the agent's JSON-RPC endpoint, for this --a2a-version? check --url / --endpoint; -o raw or --debug shows the body"
            failed.args = (failed.message,)
            if isinstance(failed, HttpError):
                failed.doubts_endpoint = True
        return failed

    def _document(self, answer: Answer) -> Any:
        status = answer.status or 0
        if not 200 <= status < 300:
            raise self.error(answer)
        return json_body(answer, "the agent")


def known_method(method: str, params: Any) -> MethodSpec | None:
    """The method `a2a call` names, if we know it; its params must then be a JSON object."""
    spec = find_method(method)
    if spec is not None and params is not None and not isinstance(params, dict):
        from a2acli.wire.endpoints import json_kind

        raise UsageError(
            f"the params of {spec.name} are a JSON object, not {json_kind(params)}",
            hint=f'e.g. a2a call {method} \'{{"id": "…"}}\'',
        )
    return spec


def _rpc_error(err: dict[str, Any], answer: Answer | None) -> A2acliError:
    """The A2A error of a JSON-RPC error object: by its code, or, for a code A2A does not define,
    by the ErrorInfo reason of its V1 `data` (as over HTTP+JSON and gRPC); `a2aCode` stays the
    code that came."""
    from a2acli.wire.translate.errors import A2A_ERRORS, error_reason

    code, data = err.get("code"), err.get("data")
    said = code if isinstance(code, str) and code else None  # a string code: the envelope's a2aCode, as it came
    if (
        code is not None and not isinstance(code, (int, str)) or isinstance(code, bool)
    ):  # a list, an object: no code at all
        code = json.dumps(code)[:40] if isinstance(code, (list, dict)) else str(code)
    if code not in A2A_ERRORS and isinstance(data, list):
        reasons = {error_reason(c): c for c in A2A_ERRORS}
        named = next(
            (
                reasons[d["reason"]]
                for d in data
                if isinstance(d, dict) and str(d.get("@type", "")).endswith("ErrorInfo") and d.get("reason") in reasons
            ),
            None,
        )
        if named is not None:
            found = a2a_error(named, error_text(err.get("message")), answer, data=data, wire_code=code)
            found.a2a_code = code if isinstance(code, int) else None  # what came: `a2a check` judges it
            return found
    return a2a_error(code, error_text(err.get("message")), answer, data=data, wire_code=said)


def _check_id(doc: Any, expect_id: Any, warn: Warn) -> None:
    """A response answers the request with the same id (JSON-RPC 2.0). A mismatch is named, not
    fatal: the answer is still the only one there is, and sloppy servers exist."""
    if warn is None or expect_id is None or not isinstance(doc, dict) or doc.get("id", expect_id) == expect_id:
        return
    warn(f"the answer's id {doc.get('id')!r} is not the request's {expect_id!r} (JSON-RPC wants them equal)")
