"""`a2a mock` over gRPC: the recorded gRPC exchanges of the dumps served on a gRPC port of the mock
(127.0.0.1), with the matching, id rewriting and timing of the HTTP bindings (a2acli/recording/mock.py).

Imported only when the dumps hold gRPC exchanges (grpcio and the official a2a-sdk's generated
modules: the `grpc` extra); the mock's JSON-RPC and HTTP+JSON path never loads it.

- One generic handler (grpc.GenericRpcHandler, bytes in and out) answers every method path of
  both services, 1.0's `lf.a2a.v1.A2AService` and 0.3's `a2a.v1.A2AService`: unary rpcs and
  server-streaming ones (SendStreamingMessage, SubscribeToTask / 0.3's TaskSubscription).
- A request: its message decoded with the service's own request class, read as the recorded ones
  are (ProtoJSON, 0.3 brought to canonical V1), then matched by Mock.replay.
- An answer: the recorded message bytes (`*.response.pb.b64`, a stream's base64 lines) when the
  id rewriting changed nothing in it, else the recorded ProtoJSON with the ids rewritten, encoded
  again with the service's response class. A recorded failure is answered with its status code,
  message and details; a stream that ended in a status ends in it again.
- No match: UNIMPLEMENTED whose message names the closest recorded request and the field that
  differs, its google.rpc.Status details an ErrorInfo (reason NO_RECORDED_ANSWER, metadata
  closest and field), as the HTTP+JSON binding's 404."""

from __future__ import annotations

import base64
import binascii
import json
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from a2acli.errors import A2acliError
from a2acli.recording.diff import MISSING
from a2acli.recording.playback import Recorded
from a2acli.transport.grpc import SERVICE_MODULES, _grpc, message_classes

VERSIONS = {"lf.a2a.v1.A2AService": "1.0", "a2a.v1.A2AService": "0.3"}
_SKIPPED_METADATA = frozenset({"content-type", "grpc-status", "grpc-message", "grpc-status-details-bin"})


class Unreadable(Exception):  # noqa: N818 - a request that is no A2A call (the mock answers it with `code`)
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


class Parts(NamedTuple):
    """A recorded gRPC answer as the mock sends it (mock.MockAnswer's fields)."""

    status: int  # the HTTP twin of its status
    headers: list[tuple[str, str]]  # the initial metadata
    pieces: list[tuple[float, bytes]]  # (seconds to wait first, message bytes)
    stream: bool
    line: str
    failure: tuple[float, Any] | None  # the status it ends in: (wait, google.rpc.Status doc)


def route(path: str) -> tuple[Any, str] | None:
    """(method spec, version) of a gRPC method path `/service/rpc`; None when it is no A2A rpc."""
    from a2acli.wire.methods import METHODS

    service, _, rpc = path.strip("/").partition("/")
    version = VERSIONS.get(service)
    if version is None:
        return None
    spec = METHODS.get(rpc) if version == "1.0" else next((s for s in METHODS.values() if s.grpc_v0 == rpc), None)
    return (spec, version) if spec is not None else None


def read(path: str, body: bytes) -> tuple[str, str, Any]:
    """(version, V1 method, canonical V1 params) of a gRPC request (Unreadable: no A2A rpc, or a
    message that does not parse as its request)."""
    from google.protobuf import json_format
    from google.protobuf.message import DecodeError

    from a2acli.recording.diff import drop_defaults
    from a2acli.recording.playback import integral
    from a2acli.wire.bindings.rest import RestBinding

    found = route(path)
    if found is None:
        raise Unreadable("UNIMPLEMENTED", f"{path} is not an A2A rpc")
    spec, version = found
    try:
        request_cls, _ = message_classes(path)
        message = request_cls.FromString(body)
    except (A2acliError, DecodeError) as e:
        raise Unreadable("INVALID_ARGUMENT", f"the {spec.name} request cannot be read: {e}") from None
    doc = json_format.MessageToDict(message)
    notes: list[str] = []
    params = RestBinding.translators(spec).params_to_core(doc, notes) if version == "0.3" else doc
    return version, spec.name, integral(drop_defaults(params))


def recorded_answer(call: Recorded, speed: float, ids: Callable[[list[Any]], list[Any]]) -> Parts:
    """The recorded answer of a gRPC call: each message (bytes) after its recorded delay, a failure
    as its status; `ids` rewrites the ids of recorded documents as over the other bindings."""
    ex = call.ex
    parts = ex.request_line.split(" ")
    path = parts[1] if len(parts) > 1 else "/"
    delays = call.delays(speed)
    metadata = [
        (k.lower(), v)
        for k, v in ex.response_headers
        if k.lower() not in _SKIPPED_METADATA and not k.lower().endswith("-bin")
    ]
    metadata.append(("x-a2a-mock", call.name))
    try:
        status = int((ex.status_line or "").split(" ")[1])
    except (IndexError, ValueError):
        status = 200
    if not ex.stream or status != 200:
        doc = _json(ex.response_body.decode("utf-8", "replace"))
        (new,) = ids([doc])
        wait = delays[0] if delays else 0.0
        if status != 200:
            if not (isinstance(new, dict) and isinstance(new.get("error"), dict)):
                # a stream that failed before its first message holds no body: its status line and
                # grpc-message say the status
                said = next((v for k, v in ex.response_headers if k.lower() == "grpc-message"), "")
                new = {"error": {"status": _reason(ex.status_line), "message": said}}
            return Parts(status, metadata, [], False, f"{call.name} ({_reason(ex.status_line)})", (wait, new))
        recorded = _recorded_bytes(ex.response_pb)
        body = recorded[0] if recorded and new == doc else _encode(path, new)
        return Parts(status, metadata, [(wait, body)], False, call.name, None)
    # a stream: the recorded body holds one base64 line per message; an event past them is the
    # status the stream ended in
    lines = _recorded_bytes(ex.response_body)
    docs = [_json(data) for data in ex.events]
    news = ids(docs)
    pieces: list[tuple[float, bytes]] = []
    end: tuple[float, Any] | None = None
    for i, (doc, new, wait) in enumerate(zip(docs, news, delays + [0.0] * len(docs), strict=False)):
        if i >= len(lines) and isinstance(new, dict) and "error" in new:
            end = (wait, new)
            break
        pieces.append((wait, lines[i] if i < len(lines) and new == doc else _encode(path, new)))
    return Parts(status, metadata, pieces, True, f"{call.name}, {len(pieces)} event(s)", end)


def _json(text: str) -> Any:
    try:
        return json.loads(text) if text.strip() else MISSING
    except ValueError:
        return MISSING


def _reason(status_line: str | None) -> str:
    parts = (status_line or "").split(" ", 2)
    return parts[2] if len(parts) > 2 else "UNKNOWN"


def _recorded_bytes(source: bytes) -> list[bytes]:
    """The messages of a `.pb.b64` file or a recorded stream body: one base64 line each."""
    out = []
    for line in source.splitlines():
        if line.strip():
            try:
                out.append(base64.b64decode(line.strip(), validate=True))
            except (binascii.Error, ValueError):
                return []
    return out


def _encode(path: str, doc: Any) -> bytes:
    """A recorded answer (ProtoJSON, ids rewritten) as the rpc's response message."""
    from google.protobuf import json_format

    _, response_cls = message_classes(path)
    if doc is MISSING:
        return b""
    return bytes(json_format.ParseDict(doc, response_cls(), ignore_unknown_fields=True).SerializeToString())


# -- the server --------------------------------------------------------------------------------------


class GrpcFront:
    """The mock's gRPC port: a grpcio server whose one generic handler asks the Mock."""

    def __init__(self, mock: Any, port: int = 0) -> None:
        from concurrent.futures import ThreadPoolExecutor

        grpc = _grpc()
        for module in SERVICE_MODULES.values():  # fail now, not on the first call, without the SDK's modules
            __import__(module)
        self.mock = mock
        self.server = grpc.server(ThreadPoolExecutor(max_workers=16), handlers=[_Handler(mock)])
        try:
            bound = self.server.add_insecure_port(f"127.0.0.1:{port}")
        except RuntimeError:
            bound = 0
        if not bound:
            raise A2acliError(
                f"cannot listen for gRPC on 127.0.0.1:{port} (the port is in use, or not allowed)",
                hint="choose another --grpc-port (0 picks a free one)",
            )
        self.port = int(bound)
        self.url = f"grpc://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.server.start()

    def close(self) -> None:
        self.server.stop(0.5).wait()


class _Handler:
    """grpc.GenericRpcHandler (duck-typed: grpcio calls `service`): bytes in, bytes out."""

    def __init__(self, mock: Any) -> None:
        self.mock = mock  # a2acli.recording.mock.Mock: answer_grpc(path, bytes) -> its MockAnswer; log(line)

    def service(self, details: Any) -> Any:
        grpc = _grpc()
        path = details.method
        found = route(path)
        if found is not None and found[0].streaming:
            return grpc.unary_stream_rpc_method_handler(lambda request, context: self._stream(path, request, context))
        return grpc.unary_unary_rpc_method_handler(lambda request, context: self._unary(path, request, context))

    def _answer(self, path: str, request: bytes, context: Any) -> Any:
        """The mock's MockAnswer (or Parts: the same fields) for one request; its metadata sent. An
        a2a-version the mock does not serve is VersionNotSupportedError (A2A 1.0 §3.6.2), as over HTTP."""
        from a2acli.recording.mock_asked import served, unserved

        asked = next((str(v).strip() for k, v in context.invocation_metadata() or () if k == "a2a-version"), "")
        try:
            if not served(asked):
                from a2acli.recording import forms

                _, doc = forms.status_doc(forms.VERSION_NOT_SUPPORTED, unserved(asked))
                answer = Parts(400, [], [], False, f"VersionNotSupportedError: {asked}", (0.0, doc))
            else:
                answer = self.mock.answer_grpc(path, request)
        except Exception as e:  # noqa: BLE001 - a bug of ours: said to the client and on stderr, the mock goes on
            said = f"the mock failed: {type(e).__name__}: {e}"
            answer = Parts(500, [], [], False, said, (0.0, {"error": {"status": "INTERNAL", "message": said}}))
        self.mock.log(f"gRPC {path} -> {answer.line}")
        if answer.headers:
            context.send_initial_metadata(answer.headers)
        return answer

    def _unary(self, path: str, request: bytes, context: Any) -> bytes:
        answer = self._answer(path, request, context)
        body = b""
        for wait, piece in answer.pieces:
            _sleep(wait)
            body = piece
        if answer.failure is not None:
            _sleep(answer.failure[0])
            _abort(context, answer.failure[1])
        return body

    def _stream(self, path: str, request: bytes, context: Any) -> Any:
        answer = self._answer(path, request, context)
        for wait, piece in answer.pieces:
            _sleep(wait)
            if not context.is_active():  # the client left mid-stream
                return
            yield piece
        if answer.failure is not None:
            _sleep(answer.failure[0])
            _abort(context, answer.failure[1])


def _sleep(seconds: float) -> None:
    if seconds > 0:
        time.sleep(seconds)


def _abort(context: Any, doc: Any) -> None:
    """End the call with the status a google.rpc.Status document (`{"error": …}`) holds: its code
    by name, its message, its details in `grpc-status-details-bin`."""
    grpc = _grpc()
    status = doc.get("error") if isinstance(doc, dict) and isinstance(doc.get("error"), dict) else doc
    status = status if isinstance(status, dict) else {}
    name = str(status.get("status") or "UNKNOWN")
    code = getattr(grpc.StatusCode, name, grpc.StatusCode.UNKNOWN)
    message = str(status.get("message") or "")
    details = status.get("details")
    if isinstance(details, list) and details:
        try:
            from google.protobuf import json_format
            from google.rpc import error_details_pb2, status_pb2  # noqa: F401 - registers ErrorInfo, BadRequest

            proto = json_format.ParseDict(
                {"code": code.value[0], "message": message, "details": details},
                status_pb2.Status(),
                ignore_unknown_fields=True,
            )
            context.set_trailing_metadata((("grpc-status-details-bin", proto.SerializeToString()),))
        except Exception:  # noqa: BLE001, S110 - details that do not parse: the status code and message still go
            pass
    context.abort(code, message)
