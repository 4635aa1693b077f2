"""What `a2a mock` sends when the client asks in another form than the one recorded: a recorded
answer brought to canonical V1 (playback.answer_results) and written in the version and binding
asked for (JSON-RPC or HTTP+JSON, 1.0 or 0.3), and the A2A errors of the mock's own
(TaskNotFoundError, MethodNotFoundError) in each binding's form; the answer the mock sends (`MockAnswer`), its
errors of "no recorded answer", and the helpers reading recorded documents. Pure: no socket, no
state."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from a2acli.errors import NO_RECORDED_ANSWER
from a2acli.recording.diff import MISSING
from a2acli.wire.bindings import BindingInfo, ErrorForm

# The HTTP status and gRPC status an A2A error takes over HTTP+JSON and gRPC (the spec's mapping).
HTTP_OF_ERROR = {
    -32001: (404, "NOT_FOUND"),
    -32601: (404, "NOT_FOUND"),
    -32602: (400, "INVALID_ARGUMENT"),
    -32009: (400, "FAILED_PRECONDITION"),
}
TASK_NOT_FOUND = -32001
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
VERSION_NOT_SUPPORTED = -32009


def media_type(binding: BindingInfo, version: str, stream: bool) -> str:
    if stream:
        return "text/event-stream"
    return binding.media_v1 if version == "1.0" else "application/json"


def result_in(spec: Any, binding: BindingInfo, version: str, core: Any) -> Any:
    """A canonical V1 result in the form of `binding` (JSON-RPC, HTTP+JSON) under `version`."""
    if version == "1.0":
        return core
    if binding.proto_json:
        from a2acli.wire.translate.proto03 import PROTO03_TRANSLATORS

        return PROTO03_TRANSLATORS[spec.name].result_to_compat(core, [])
    return spec.translators.result_to_compat(core, [])


def status_doc(code: int, message: str, data: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
    """(HTTP status, google.rpc.Status) of an A2A error as HTTP+JSON carries it: an ErrorInfo
    whose reason names the error (TASK_NOT_FOUND), in the A2A domain."""
    from a2acli.wire.translate.errors import ERROR_DOMAIN, ERROR_INFO_TYPE, error_reason

    status, name = HTTP_OF_ERROR.get(code, (500, "INTERNAL"))
    metadata = {k: v if isinstance(v, str) else json.dumps(v) for k, v in (data or {}).items()}
    info = {"@type": ERROR_INFO_TYPE, "reason": error_reason(code), "domain": ERROR_DOMAIN, "metadata": metadata}
    return status, {"error": {"code": status, "status": name, "message": message, "details": [info]}}


def rpc_error_doc(rpc_id: Any, code: int, message: str, version: str, data: dict[str, Any] | None = None) -> Any:
    """A JSON-RPC error response: `data` as V1 carries it (an ErrorInfo list) or as V0 (an object)."""
    error: dict[str, Any] = {"code": code, "message": message}
    if data:
        if version == "1.0":
            from a2acli.wire.translate.errors import ERROR_DOMAIN, ERROR_INFO_TYPE, error_reason

            metadata = {k: v if isinstance(v, str) else json.dumps(v) for k, v in data.items()}
            error["data"] = [
                {"@type": ERROR_INFO_TYPE, "reason": error_reason(code), "domain": ERROR_DOMAIN, "metadata": metadata}
            ]
        else:
            error["data"] = data
    return {"jsonrpc": "2.0", "id": rpc_id, "error": error}


def answer_docs(spec: Any, results: list[Any], binding: BindingInfo, version: str) -> tuple[int, list[Any]]:
    """(HTTP status, documents) of recorded canonical answers (each a result, or `{"error": …}`;
    None: unreadable) written for `binding` under `version`; an error ends the list."""
    status = 200
    docs: list[Any] = []
    for found in results:
        if found is None:
            docs.append(MISSING)
            continue
        if isinstance(found, dict) and set(found) == {"error"} and isinstance(found["error"], dict):
            err = found["error"]
            code = err["code"] if isinstance(err.get("code"), int) else -32603
            message = str(err.get("message") or "")
            if binding.envelope:
                docs.append(rpc_error_doc(None, code, message, version))
            else:
                status, doc = status_doc(code, message)
                docs.append(doc)
            break
        doc = result_in(spec, binding, version, found)
        docs.append({"jsonrpc": "2.0", "id": None, "result": doc} if binding.envelope else doc)
    return status, docs


@dataclass
class MockAnswer:
    """What the mock sends back: status, headers, and the body in pieces, each after its delay."""

    status: int
    headers: list[tuple[str, str]]
    pieces: list[tuple[float, bytes]]  # (seconds to wait first, bytes)
    stream: bool = False
    line: str = ""  # what the log says of it
    failure: tuple[float, Any] | None = None  # gRPC: the status it ends in (wait, google.rpc.Status doc)
    # an answer recorded encoded: its Content-Encoding, and its recorded bytes (served as they are
    # when the body served is the recorded one)
    coding: str | None = None
    wire: tuple[bytes, bytes] | None = None  # (the recorded body inflated, as it crossed the wire)


def accepts(accept_encoding: str, coding: str) -> bool:
    """Whether a request's Accept-Encoding takes `coding` (by name or `*`, q not 0)."""
    for item in accept_encoding.split(","):
        name, *params = (p.strip().lower() for p in item.split(";"))
        q = next((p[2:] for p in params if p.startswith("q=")), "1")
        try:
            weight = float(q)
        except ValueError:
            weight = 1.0
        if name in (coding, "*") and weight > 0:
            return True
    return False


def in_recorded_coding(answer: MockAnswer, accept_encoding: str) -> MockAnswer:
    """An answer recorded gzip- or deflate-encoded, served so, as the agent sent it, when the
    client accepts that coding (a2a always does): with its Content-Encoding, the recorded bytes
    when the body served is the recorded one, else the body served encoded (a stream: one
    compressed stream, flushed after each event so each comes when it came). Otherwise, or when
    the recording named several codings, it is served inflated, without the header."""
    from a2acli.transport.limits import content_codings, encoded

    named = content_codings(answer.coding)
    if len(named) != 1 or not accepts(accept_encoding, named[0]):
        return answer
    coding = named[0]
    if answer.stream:
        import zlib

        z = zlib.compressobj(wbits=zlib.MAX_WBITS | 16 if coding in ("gzip", "x-gzip") else zlib.MAX_WBITS)
        pieces = [(wait, z.compress(piece) + z.flush(zlib.Z_SYNC_FLUSH)) for wait, piece in answer.pieces]
        pieces.append((0.0, z.flush()))
    else:
        body = b"".join(piece for _, piece in answer.pieces)
        wait = answer.pieces[0][0] if answer.pieces else 0.0
        pieces = [(wait, answer.wire[1] if answer.wire and answer.wire[0] == body else encoded(body, coding))]
    headers = [*answer.headers, ("Content-Encoding", coding)]
    return MockAnswer(answer.status, headers, pieces, answer.stream, answer.line + f" ({coding})", answer.failure)


def _no_recording(code: int, status: str, message: str, closest: str | None, field: str | None) -> dict[str, Any]:
    """A google.rpc.Status of the mock's own: its ErrorInfo (reason NO_RECORDED_ANSWER) names no A2A
    error (a client reads it as the HTTP or gRPC error it is) but says what the mock missed."""
    metadata = {k: v for k, v in (("closest", closest), ("field", field)) if v}
    info = {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        "reason": NO_RECORDED_ANSWER,
        "domain": "a2acli.mock",
        "metadata": metadata,
    }
    return {"error": {"code": code, "status": status, "message": message, "details": [info]}}


def _grpc_error(message: str, closest: str | None, field: str | None, code: str = "UNIMPLEMENTED") -> MockAnswer:
    """A gRPC status of the mock's own (UNIMPLEMENTED: no recorded answer), its ErrorInfo naming
    the closest recording; mock_grpc sends it (building it needs no grpc)."""
    status = {"UNIMPLEMENTED": 501, "INVALID_ARGUMENT": 400}.get(code, 500)  # its HTTP twin, as the client reads it
    doc = _no_recording(status, code, message, closest, field)
    return MockAnswer(status, [], [], line=f"unmatched: {code} {message}", failure=(0.0, doc))


def _status_error(
    message: str, closest: str | None, field: str | None, *, status: int = 404, a2a_code: int | None = None
) -> MockAnswer:
    """A google.rpc.Status, as A2A's HTTP+JSON binding answers errors, naming the closest recording;
    `a2a_code`: the A2A error it is (MethodNotFoundError), named first in its details."""
    doc = _no_recording(status, "NOT_FOUND" if status == 404 else "INVALID_ARGUMENT", message, closest, field)
    if a2a_code is not None:
        doc["error"]["details"].insert(0, status_doc(a2a_code, message)[1]["error"]["details"][0])
    return MockAnswer(
        status,
        [("Content-Type", "application/json")],
        [(0.0, json.dumps(doc, ensure_ascii=False).encode())],
        line=f"unmatched: HTTP {status} {message}",
    )


def unmatched(
    binding: BindingInfo,
    rpc_id: Any,
    message: str,
    *,
    closest: str | None = None,
    field: str | None = None,
    data: dict[str, Any] | None = None,
) -> MockAnswer:
    """The mock's own error for a call no recording answers, in the form the binding's errors
    take: MethodNotFound when no recording has the method, InvalidParams (`closest` given) when
    none has these params."""
    invalid = closest is not None
    if binding.errors is ErrorForm.JSONRPC:
        return _rpc_error(rpc_id, -32602 if invalid else -32601, message, data or {})
    if binding.errors is ErrorForm.GRPC_STATUS:
        return _grpc_error(message, closest, field)
    return _status_error(
        message,
        closest,
        field,
        status=400 if invalid else 404,
        a2a_code=INVALID_PARAMS if invalid else METHOD_NOT_FOUND,
    )


def _rpc_error(rpc_id: Any, code: int, message: str, data: dict[str, Any], *, miss: bool = True) -> MockAnswer:
    """A JSON-RPC error of the mock's own; `miss`: no recording answers the call (its data says so
    as the other bindings' ErrorInfo does: reason NO_RECORDED_ANSWER, domain a2acli.mock)."""
    doc: dict[str, Any] = {"jsonrpc": "2.0", "id": rpc_id, "error": {"code": code, "message": message}}
    if miss:
        data = {"reason": NO_RECORDED_ANSWER, "domain": "a2acli.mock", **data}
    if data:
        doc["error"]["data"] = data
    return MockAnswer(
        200,
        [("Content-Type", "application/json")],
        [(0.0, json.dumps(doc, ensure_ascii=False).encode())],
        line=f"unmatched: {code} {message}",
    )


# -- helpers of the mock ---------------------------------------------------------------------------


def _tasks(doc: Any) -> Iterator[tuple[str, str]]:
    """(task id, context id) of every task, or event about a task, in a document."""
    if isinstance(doc, dict):
        ctx = doc.get("contextId")
        if isinstance(ctx, str) and ctx:
            task = (
                doc.get("taskId")
                if isinstance(doc.get("taskId"), str)
                else doc.get("id")
                if "status" in doc and isinstance(doc.get("id"), str)
                else None
            )
            if task:
                yield task, ctx
        for v in doc.values():
            yield from _tasks(v)
    elif isinstance(doc, list):
        for v in doc:
            yield from _tasks(v)


def _binding_and_version(itf: Any) -> tuple[BindingInfo, str] | None:
    """(binding, version) of a 1.0 card's interface, as recordings name them."""
    if not isinstance(itf, dict):
        return None
    from a2acli.wire.bindings import binding_info

    info = binding_info(str(itf.get("protocolBinding") or ""))
    version = str(itf.get("protocolVersion") or "")
    return (info, "0.3" if version.startswith("0.") else "1.0") if info else None


def _is_grpc(itf: Any, key: str) -> bool:
    """Whether a card's interface names a binding gRPC carries (the mock serves it on its gRPC port)."""
    from a2acli.wire.bindings import binding_info

    info = binding_info(str(itf.get(key) or "")) if isinstance(itf, dict) else None
    return info is not None and info.carrier_grpc


def _listing(names: list[str]) -> str:
    if not names:
        return "nothing of that binding"
    shown = ", ".join(names[:6])
    return shown + (f" and {len(names) - 6} more" if len(names) > 6 else "")


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if value is not None else "nothing"
    return text if len(text) <= 80 else text[:77] + "..."
