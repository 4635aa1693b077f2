"""`a2a mock` over gRPC: the recorded gRPC exchanges of the dumps served on a gRPC port of the mock
(127.0.0.1), with the matching, id rewriting and timing of the HTTP bindings (a2acli/mock.py).

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
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from a2acli.diffing import MISSING
from a2acli.errors import A2acliError
from a2acli.transport.grpc import SERVICE_MODULES, _grpc, message_classes

if TYPE_CHECKING:
    from a2acli.mock import Answer, Asked, Mock
    from a2acli.playback import Recorded

VERSIONS = {"lf.a2a.v1.A2AService": "1.0", "a2a.v1.A2AService": "0.3"}
_SKIPPED_METADATA = frozenset({"content-type", "grpc-status", "grpc-message", "grpc-status-details-bin"})


def route(path: str) -> tuple[Any, str] | None:
    """(method spec, version) of a gRPC method path `/service/rpc`; None when it is no A2A rpc."""
    from a2acli.wire.methods import METHODS

    service, _, rpc = path.strip("/").partition("/")
    version = VERSIONS.get(service)
    if version is None:
        return None
    spec = METHODS.get(rpc) if version == "1.0" else next((s for s in METHODS.values() if s.grpc_v0 == rpc), None)
    return (spec, version) if spec is not None else None


def read(path: str, body: bytes, recorded: list[str]) -> Asked:
    """The call a gRPC request makes (Unmatched: no A2A rpc, or a message that does not parse)."""
    from google.protobuf import json_format
    from google.protobuf.message import DecodeError

    from a2acli.diffing import drop_defaults
    from a2acli.mock import Asked, Unmatched, _grpc_error, _listing
    from a2acli.playback import integral
    from a2acli.wire.bindings.rest import RestBinding

    found = route(path)
    if found is None:
        raise Unmatched(_grpc_error(f"{path} is not an A2A rpc; the dumps hold {_listing(recorded)}", None, None))
    spec, version = found
    try:
        request_cls, _ = message_classes(path)
        message = request_cls.FromString(body)
    except (A2acliError, DecodeError) as e:
        raise Unmatched(
            _grpc_error(f"the {spec.name} request cannot be read: {e}", None, None, "INVALID_ARGUMENT")
        ) from None
    doc = json_format.MessageToDict(message)
    notes: list[str] = []
    params = RestBinding.translators(spec).params_to_core(doc, notes) if version == "0.3" else doc
    return Asked("grpc", version, spec.name, integral(drop_defaults(params)))


def recorded_answer(mock: Mock, call: Recorded, asked: Asked) -> Answer:
    """The recorded answer of a gRPC call: each message (bytes) after its recorded delay, a failure
    as its status; ids rewritten as over the other bindings."""
    from a2acli.mock import Answer, _json, _status_code, _target

    ex = call.ex
    path = _target(ex)
    delays = call.delays(mock.speed)
    metadata = [
        (k.lower(), v)
        for k, v in ex.response_headers
        if k.lower() not in _SKIPPED_METADATA and not k.lower().endswith("-bin")
    ]
    metadata.append(("x-a2a-mock", call.name))
    status = _status_code(ex.status_line)
    if not ex.stream or status != 200:
        doc = _json(ex.response_body.decode("utf-8", "replace"))
        (new,) = mock._ids([doc], asked)
        wait = delays[0] if delays else 0.0
        if status != 200:
            return Answer(status, metadata, [], line=f"{call.name} ({_reason(ex.status_line)})", failure=(wait, new))
        recorded = _recorded_bytes(Path(call.dump) / f"{ex.stem}.response.pb.b64")
        body = recorded[0] if recorded and new == doc else _encode(path, new)
        return Answer(status, metadata, [(wait, body)], line=call.name)
    # a stream: the recorded body holds one base64 line per message; an event past them is the
    # status the stream ended in
    lines = _recorded_bytes(ex.response_body)
    docs = [_json(data) for data in ex.events]
    news = mock._ids(docs, asked)
    pieces: list[tuple[float, bytes]] = []
    end: tuple[float, Any] | None = None
    for i, (doc, new, wait) in enumerate(zip(docs, news, delays + [0.0] * len(docs), strict=False)):
        if i >= len(lines) and isinstance(new, dict) and "error" in new:
            end = (wait, new)
            break
        pieces.append((wait, lines[i] if i < len(lines) and new == doc else _encode(path, new)))
    return Answer(status, metadata, pieces, stream=True, line=f"{call.name}, {len(pieces)} event(s)", failure=end)


def _reason(status_line: str | None) -> str:
    parts = (status_line or "").split(" ", 2)
    return parts[2] if len(parts) > 2 else "UNKNOWN"


def _recorded_bytes(source: Path | bytes) -> list[bytes]:
    """The messages of a `.pb.b64` file or a recorded stream body: one base64 line each."""
    if isinstance(source, Path):
        try:
            source = source.read_bytes()
        except OSError:
            return []
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

    def __init__(self, mock: Mock, port: int = 0) -> None:
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
                f"cannot listen for gRPC on 127.0.0.1:{port}",
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

    def __init__(self, mock: Mock) -> None:
        self.mock = mock

    def service(self, details: Any) -> Any:
        grpc = _grpc()
        path = details.method
        found = route(path)
        if found is not None and found[0].streaming:
            return grpc.unary_stream_rpc_method_handler(lambda request, context: self._stream(path, request, context))
        return grpc.unary_unary_rpc_method_handler(lambda request, context: self._unary(path, request, context))

    def _answer(self, path: str, request: bytes, context: Any) -> Answer:
        try:
            answer = self.mock.answer_grpc(path, request)
        except Exception as e:  # noqa: BLE001 - a bug of ours: said to the client and on stderr, the mock goes on
            from a2acli.mock import Answer

            answer = Answer(
                500,
                [],
                [],
                line=f"the mock failed: {type(e).__name__}: {e}",
                failure=(
                    0.0,
                    {"error": {"status": "INTERNAL", "message": f"the mock failed: {type(e).__name__}: {e}"}},
                ),
            )
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
