"""Read JSON-RPC answers out of exchanges: the result, or the right error."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from a2acli.errors import A2acliError, InvalidResponseError, RpcError
from a2acli.transport.client import http_status_error
from a2acli.transport.exchange import Exchange
from a2acli.wire import envelope

# Hints for the A2A errors a user can act on.
_HINTS = {
    -32001: "check the task id (`a2a tasks list` shows recent ones)",
    -32002: "the task is already in a terminal state",
    -32003: "the agent does not support push notifications (see `a2a card fetch`)",
    -32004: "the agent does not support this operation (see `a2a card fetch`)",
    -32005: "change the parts' media types or --accepted-output-modes",
    -32006: "the agent produced an invalid answer: its fault; quote the X-Request-ID to its operator",
    -32007: "the agent has no extended card configured",
    -32008: "activate the extension the agent requires (-H 'A2A-Extensions: URI')",
    -32009: "try the other version: --a2a-version 0.3 or 1.0",
    -32601: "the agent does not know this method under this version; try --a2a-version",
    -32602: "the agent rejected the params; compare with `--offline` and the other version",
    -32600: "the agent rejected the request envelope",
    -32700: "the agent could not parse the request body",
}


def rpc_error(err: dict[str, Any], ex: Exchange | None = None) -> RpcError:
    from a2acli.wire.translate.errors import error_name

    code = err.get("code")
    # named as the version of the request calls it (-32007 was renamed in 1.0); codes that 0.3
    # does not define keep their 1.0 name
    v0 = ex is not None and (ex.header("A2A-Version", sent=True) or "").startswith("0.")
    name = (error_name(code, "v0" if v0 else "v1") or error_name(code)) if isinstance(code, int) else None
    label = f"{code} {name}" if name else f"{code}" if code is not None else "error"
    message = str(err.get("message") or "no message")
    return RpcError(
        f"{label}: {message}",
        hint=_HINTS.get(code) if isinstance(code, int) else None,
        a2a_code=code if isinstance(code, int) else None,
        data=err.get("data"),
        request_id=ex.request_id if ex else None,
    )


def read_document(ex: Exchange, what: str = "the agent") -> Any:
    """The parsed JSON answer of a finished exchange, or the error it carries."""
    status = ex.status or 0
    if not 200 <= status < 300:
        try:
            doc = envelope.loads(ex.response_body)
            _, err = envelope.split_response(doc)
        except A2acliError:
            doc, err = None, None
        # a JSON-RPC error rides on the HTTP error; any other JSON (`{"error": "down"}` from a
        # proxy) is just the body of an HTTP error, which keeps its status and hint
        jsonrpc = isinstance(doc, dict) and (doc.get("jsonrpc") == "2.0" or isinstance((err or {}).get("code"), int))
        if err is not None and jsonrpc and status not in (401, 403):
            raise rpc_error(err, ex)
        raise http_status_error(ex, what)
    if ex.content_type == "text/event-stream":  # a unary call answered with SSE
        return envelope.loads(_single_event(ex.response_body), what=f"answer of {what}")
    return envelope.loads(ex.response_body, what=f"answer of {what}")


def _single_event(body: bytes) -> bytes:
    """The data of an SSE body holding one event (some servers answer every call with SSE)."""
    found = [data for _, data in envelope.sse_events(body.decode("utf-8", "replace")) or []]
    if len(found) != 1:
        raise InvalidResponseError(
            f"the agent answered with a stream of {len(found)} events where one answer was expected",
            hint="for a streaming answer use `a2a stream` (or `a2a call METHOD --stream`)",
        )
    return found[0].encode()


Warn = Callable[[str], None]


def _check_id(doc: Any, expect_id: Any, warn: Warn | None) -> None:
    """A response answers the request with the same id (JSON-RPC 2.0). A mismatch is named, not
    fatal: the answer is still the only one there is, and sloppy servers exist."""
    if warn is None or not isinstance(doc, dict) or doc.get("id", expect_id) == expect_id:
        return
    warn(f"the answer's id {doc.get('id')!r} is not the request's {expect_id!r} (JSON-RPC wants them equal)")


def read_result(ex: Exchange, expect_id: Any = None, warn: Warn | None = None) -> Any:
    """The `result` of a JSON-RPC response exchange; RpcError for an `error`."""
    doc = read_document(ex)
    result, err = envelope.split_response(doc)
    if err is not None:
        raise rpc_error(err, ex)
    _check_id(doc, expect_id, warn)
    return result


def event_result(ex: Exchange, event: str, data: str, expect_id: Any = None, warn: Warn | None = None) -> Any:
    """The `result` of one SSE event holding a JSON-RPC response. An `event: error` is an error
    whatever its data: a JSON-RPC error envelope, a bare error object, or plain text."""
    if event == "error":
        try:
            _, err = envelope.split_response(envelope.loads(data.encode(), what="stream error event"))
        except A2acliError:
            err = None
        raise rpc_error(err or {"code": None, "message": data}, ex)
    doc = envelope.loads(data.encode(), what="stream event")
    result, err = envelope.split_response(doc)
    if err is not None:
        raise rpc_error(err, ex)
    _check_id(doc, expect_id, warn)
    return result
