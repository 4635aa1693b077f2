"""The gRPC binding: each method is an rpc of the A2AService (1.0: `lf.a2a.v1.A2AService`, 0.3:
`a2a.v1.A2AService`), a POST of one protobuf message to `/{service}/{rpc}` over HTTP/2. The wire
layer keeps speaking ProtoJSON: the request description carries the request message as JSON, and
the carrier (transport/grpc.py) turns it into protobuf and back with protobuf's JSON format, so
translators, shapes, render and diff see the same dicts as over HTTP+JSON.

Under 1.0 the request message is the V1 params (with `tenant` as a field, as the proto has it);
under 0.3 it is the 0.3 proto-JSON (wire/translate/proto03.py), as over 0.3 HTTP+JSON. Errors are
a gRPC status whose `google.rpc.Status` details carry an ErrorInfo reason (1.0), or a details
string `ErrorClassName: message` (a2a-sdk's 0.3 service): the carrier writes both as a
google.rpc.Status body, read here like HTTP+JSON's."""

from __future__ import annotations

import json
import re
from typing import Any

from a2acli.errors import A2acliError, UsageError
from a2acli.wire import Wire, envelope
from a2acli.wire.bindings import GRPC as GRPC_INFO
from a2acli.wire.bindings.base import Answer, Encoded, HttpRequest, Warn, http_status_error, v1_message
from a2acli.wire.bindings.rest import RestBinding, _not_jsonrpc, _status_error
from a2acli.wire.dialects import Dialect
from a2acli.wire.methods import MethodSpec

SERVICE = {Wire.V1: "lf.a2a.v1.A2AService", Wire.V0: "a2a.v1.A2AService"}
MEDIA_TYPE = "application/grpc+json"  # what the description's body is: the message as ProtoJSON


def rpc_of(spec: MethodSpec, wire: Wire) -> str:
    rpc = spec.name if wire is Wire.V1 else spec.grpc_v0
    if not rpc:
        raise UsageError(
            f"{spec.name} has no gRPC form under A2A {wire.version}",
            hint="use --a2a-version 1.0, or --transport jsonrpc or rest",
        )
    return rpc


def method_path(spec: MethodSpec, wire: Wire) -> str:
    return f"/{SERVICE[wire]}/{rpc_of(spec, wire)}"


class GrpcBinding:
    info = GRPC_INFO  # the table's row: names, carrier, streaming, error form
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
        if wire is Wire.V0:
            spec.refuse_v0(dialect, self.info)
        notes: list[str] = []
        message = (
            v1_message(core_params, dialect, tenant)
            if wire is Wire.V1
            else RestBinding.translators(spec).params_to_compat(dict(core_params or {}), notes)
        )
        request = HttpRequest(
            "POST", method_path(spec, wire), (), (("Content-Type", MEDIA_TYPE),), envelope.dumps(message)
        )
        return Encoded(spec, spec.name, request, message, wire, None, tuple(notes), stream)

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
        """`a2a call` over gRPC: a method of the table by its V1 name (params in V1 form)."""
        from a2acli.wire.bindings.jsonrpc import known_method

        spec = known_method(method, params)
        if spec is None or method != spec.name:
            hint = (
                f"call {spec.name} (params in V1 form)"
                if spec is not None
                else "gRPC needs the method's rpc: use a V1 method name, or --transport jsonrpc for other methods"
            )
            raise UsageError(f"over gRPC `a2a call` takes the V1 method names, not {method!r}", hint=hint)
        return self.encode(spec, params, wire=wire, dialect=dialect, tenant=tenant, stream=stream)

    def read_unary(self, enc: Encoded, answer: Answer, warn: Warn = None) -> Any:
        if not 200 <= (answer.status or 0) < 300:
            raise self.error(answer)
        doc = envelope.loads(answer.response_body, what="answer of the agent")
        _not_jsonrpc(doc)
        if enc.spec is not None and enc.spec.result == "empty" and doc == {}:
            return None  # google.protobuf.Empty, as JSON-RPC's `"result": null`
        return doc

    def read_event(self, enc: Encoded, answer: Answer, event: str, data: str, warn: Warn = None) -> Any:
        """One response message; an `error` event is the status that ended the stream (the carrier
        writes it as a google.rpc.Status body), read as error() reads one before the first."""
        doc = json.loads(data)
        if event == "error":
            raise status_error(doc, answer) or http_status_error(answer)
        return doc

    def to_core(self, enc: Encoded, result: Any, notes: list[str] | None = None) -> Any:
        return RestBinding().to_core(enc, result, notes)

    def error(self, answer: Answer, what: str = "the agent") -> A2acliError:
        """A gRPC status, written by the carrier as a google.rpc.Status body (its HTTP-like status
        too: NOT_FOUND 404, UNAUTHENTICATED 401, …): the A2A error its ErrorInfo reason names, or,
        from a 0.3 service, the A2A error class its details name (`TaskNotFoundError: …`)."""
        try:
            doc = json.loads(answer.response_body)
        except (ValueError, UnicodeDecodeError):
            doc = None
        if (answer.status or 0) not in (401, 403):
            err = status_error(doc, answer)
            if err is not None:
                return err
        return http_status_error(answer, what)


def status_error(doc: Any, answer: Answer) -> A2acliError | None:
    """The error of a gRPC status written as a google.rpc.Status body: the A2A error its ErrorInfo
    reason (1.0) or its details string (a2a-sdk 0.3) names, an HTTP error for any other; None
    when `doc` is no Status."""
    if not isinstance(doc, dict):
        return None
    status: dict[str, Any] = doc["error"] if isinstance(doc.get("error"), dict) else doc
    named = _named_in_details(status)
    if named is not None:
        status = {
            **status,
            "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": named[0]}],
            "message": named[1],
        }
    return _status_error({"error": status}, answer)


_CLASS = re.compile(r"^([A-Z][A-Za-z]+Error): (.*)$", re.S)


def _named_in_details(status: Any) -> tuple[str, str] | None:
    """(ErrorInfo reason, message) of a details string `TaskNotFoundError: Task not found` (how
    a2a-sdk's 0.3 gRPC service names its errors), when the Status has no ErrorInfo of its own."""
    from a2acli.wire.translate.errors import A2A_ERRORS, error_reason

    if not isinstance(status, dict) or status.get("details") or not isinstance(status.get("message"), str):
        return None
    m = _CLASS.match(status["message"])
    if not m:
        return None
    for code, names in A2A_ERRORS.items():
        if m.group(1) in names:
            return error_reason(code), m.group(2)
    return None
