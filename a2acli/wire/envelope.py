"""JSON-RPC 2.0 envelopes: build requests, read responses. Bytes in, bytes out, no I/O."""

from __future__ import annotations

import json
import uuid
from typing import Any

from a2acli.errors import InvalidResponseError


def new_id() -> str:
    return str(uuid.uuid4())


def request(method: str, params: Any, request_id: str | int) -> dict[str, Any]:
    """A request object; `params=None` leaves the key out (V0 extended card has none)."""
    env: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        env["params"] = params
    return env


def dumps(obj: Any) -> bytes:
    """Compact UTF-8 JSON, the form sent on the wire."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()


def pretty(value: Any) -> str:
    """`json.dumps(value, ensure_ascii=False, indent=2)`, byte for byte, without its cost per call:
    with `indent` the stdlib encoder is the pure-Python one, whose nested closures leave ~30
    objects of cyclic garbage per call; over a long stream that garbage piles up in the older GC
    generations and the peak memory grows with the stream (benchmarks/stream_memory.py). Here
    only containers are walked in Python; every scalar and key goes through the C encoder."""
    out: list[str] = []
    _pretty(value, "\n", out)
    return "".join(out)


def _pretty(value: Any, pad: str, out: list[str]) -> None:
    if isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        inner = pad + "  "
        sep = "{" + inner
        for key, item in value.items():
            out.append(sep + _SCALAR(key if isinstance(key, str) else _SCALAR(key)) + ": ")
            _pretty(item, inner, out)
            sep = "," + inner
        out.append(pad + "}")
    elif isinstance(value, (list, tuple)):
        if not value:
            out.append("[]")
            return
        inner = pad + "  "
        sep = "[" + inner
        for item in value:
            out.append(sep)
            _pretty(item, inner, out)
            sep = "," + inner
        out.append(pad + "]")
    else:
        out.append(_SCALAR(value))


_SCALAR = json.JSONEncoder(ensure_ascii=False).encode  # no indent: the C encoder, no garbage


# What json.loads refused with RecursionError before Python 3.13 (its C scanner then followed the
# recursion limit, 1,000): from 3.13 it reads any depth, so the depth is checked here, one rule on
# every Python.
MAX_DEPTH = 900


def too_deep(body: bytes | str, doc: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether `doc` (read from `body`) nests more than `limit` (MAX_DEPTH) arrays and objects.
    The brackets are counted first (in C): a usual answer has far fewer, and is not walked."""
    if len(body) <= 2 * limit:  # too short to open that many: the usual event, at no cost
        return False
    opens = body.count(b"[") + body.count(b"{") if isinstance(body, bytes) else body.count("[") + body.count("{")
    if opens <= limit:
        return False
    stack: list[tuple[Any, int]] = [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values() if isinstance(v, (dict, list)))
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value if isinstance(v, (dict, list)))
    return False


# json.loads without its two whitespace look-ups (regex calls: a third of its time on a short event)
_DECODE = json.JSONDecoder().raw_decode


def loads_event(data: str, *, what: str = "stream event") -> Any:
    """`loads` of a stream event's data (text, as the SSE reader gives it): the usual event, JSON
    with nothing around it, in one call; anything else (whitespace around it, text after it, too
    deep, not JSON) the long way, which reads it or names what is wrong."""
    try:
        doc, end = _DECODE(data)
        if end == len(data) and not too_deep(data, doc):
            return doc
    except (ValueError, RecursionError):  # RecursionError: before 3.13, the C scanner's own depth limit
        pass
    return loads(data.encode(), what=what)


def loads(body: bytes, *, what: str = "response") -> Any:
    try:
        doc = json.loads(body)
        if too_deep(body, doc):
            raise RecursionError
        return doc
    except RecursionError:
        raise InvalidResponseError(
            f"the {what} is JSON nested too deeply to read", hint="the agent sent JSON nested hundreds of levels deep"
        ) from None
    except (ValueError, UnicodeDecodeError):
        snippet = body[:120].decode("utf-8", "replace").strip()
        hint = (
            "the server answered with HTML: is the URL the agent's endpoint for this binding (--transport)?"
            if snippet[:1] == "<"
            else None
        )
        raise InvalidResponseError(
            f"the {what} is not JSON: {snippet!r}" if snippet else f"the {what} is empty",
            hint=hint or "check --url / --endpoint; run with --debug to see the exchange",
        ) from None


def split_response(doc: Any) -> tuple[Any, dict[str, Any] | None]:
    """(result, error) of a JSON-RPC response object; raises on anything that is not one."""
    if type(doc) is dict and "result" in doc and "error" not in doc:  # the usual answer
        return doc["result"], None
    if (
        isinstance(doc, dict)
        and doc.get("jsonrpc") == "2.0"
        and "id" in doc
        and "result" not in doc
        and "error" not in doc
    ):
        # a2a-sdk's V0 adapter drops `"result": null` (exclude_none): read it as a null result.
        return None, None
    if not isinstance(doc, dict) or ("result" not in doc and "error" not in doc):
        raise InvalidResponseError(
            "the answer is not a JSON-RPC response (no `result` or `error`)",
            hint="check --url / --endpoint; run with --debug to see the exchange",
        )
    err = doc.get("error")
    if err is not None:
        if not isinstance(err, dict):
            err = {"code": None, "message": str(err)}
        return None, err
    return doc.get("result"), None
