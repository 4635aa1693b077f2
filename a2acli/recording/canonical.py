"""Bringing a recorded body to what `diff`, `mock` and `replay` compare: canonical V1 (the wire
translators), defaults dropped (ProtoJSON omits them), and generated values (ids, UUIDs,
timestamps) replaced by numbered placeholders, consistently within each dump. Pure."""

from __future__ import annotations

import json
import re
from typing import Any

from a2acli.recording.dumps import DumpedExchange

# -- normalising --------------------------------------------------------------------------------

# Headers whose values change on every call; with ids normalised only their presence counts.
VOLATILE_HEADERS = frozenset(
    {
        "date",
        "content-length",
        "etag",
        "last-modified",
        "age",
        "expires",
        "x-request-id",
        "traceparent",
        "tracestate",
        "x-trace-id",
        "x-amzn-trace-id",
        "cf-ray",
        "server-timing",
    }
)
# Transport plumbing httpx adds the same way under both versions: not a protocol difference.
_ID_KEYS = {
    "messageId": "message",
    "contextId": "context",
    "taskId": "task",
    "artifactId": "artifact",
    "referenceTaskIds": "task",
}
_TIME_KEY = re.compile(r"(?:[tT]imestamp|Time|At|^time)$")
_UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
_UUID_INSIDE = re.compile(
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
)  # "e-<uuid>", "A2A_USER_<uuid>"
_ISO_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$")
# Values kept as they are: user payload (Part.data, metadata Structs) has no protocol defaults.
_OPAQUE = frozenset({"data", "metadata"})
TIMESTAMP = "<timestamp>"


class IdNormaliser:
    """Replaces generated values by placeholders, the same value by the same placeholder across
    one dump: `<message-1>`, `<task-1>`, `<context-1>`, `<artifact-1>`, `<rpc-id-1>`, `<id-1>`
    (any other UUID) and `<timestamp>`. Values are numbered in sorted-key order, so two dumps of
    the same conversation number them alike."""

    def __init__(self) -> None:
        self.seen: dict[Any, str] = {}
        self.counts: dict[str, int] = {}

    def _placeholder(self, value: Any, kind: str) -> None:
        key = (type(value).__name__, value)
        if key in self.seen:
            return
        if kind == "timestamp":
            self.seen[key] = TIMESTAMP
            return
        self.counts[kind] = self.counts.get(kind, 0) + 1
        self.seen[key] = f"<{kind}-{self.counts[kind]}>"

    def _collect(self, doc: Any, *, envelope: bool = False) -> None:
        """Breadth first, keys sorted: an object's own id (shallower) is numbered before the
        references to it deeper inside, so a reference to the wrong object stands out."""
        level: list[tuple[Any, bool]] = [(doc, envelope)]
        while level:
            deeper: list[tuple[Any, bool]] = []
            for node, top in level:
                if isinstance(node, dict):
                    for k in sorted(node):
                        self._visit(node, k, top)
                        deeper.append((node[k], False))
                elif isinstance(node, list):
                    deeper += [(item, False) for item in node]
                elif isinstance(node, str):
                    if _UUID.match(node):
                        self._placeholder(node, "id")
                    elif _ISO_TIME.match(node):
                        self._placeholder(node, "timestamp")
                    else:
                        for found in _UUID_INSIDE.findall(node):
                            self._placeholder(found, "id")
            level = deeper

    def _visit(self, obj: dict[str, Any], k: str, top: bool) -> None:
        v = obj[k]
        if top and k == "id" and "jsonrpc" in obj and isinstance(v, (str, int)) and not isinstance(v, bool):
            self._placeholder(v, "rpc-id")
        elif k in _ID_KEYS and isinstance(v, str) and v:
            self._placeholder(v, _ID_KEYS[k])
        elif k in _ID_KEYS and isinstance(v, list):
            for item in v:
                if isinstance(item, str) and item:
                    self._placeholder(item, _ID_KEYS[k])
        elif k == "id" and isinstance(v, str) and v and "status" in obj:
            self._placeholder(v, "task")
        elif _TIME_KEY.search(k) and isinstance(v, str) and v:
            self._placeholder(v, "timestamp")

    def _substitute(self, doc: Any, key: str = "", top: bool = False) -> Any:
        """Known values are replaced where ids live (id keys, the envelope id, time keys) and, when
        long enough not to be a coincidence (8+ characters), anywhere else as well."""
        if isinstance(doc, dict):
            return {k: self._substitute(v, k, top and "jsonrpc" in doc) for k, v in doc.items()}
        if isinstance(doc, list):
            return [self._substitute(v, key) for v in doc]
        if isinstance(doc, bool) or not isinstance(doc, (str, int)):
            return doc
        id_place = key in _ID_KEYS or (key == "id" and (top or isinstance(doc, str))) or bool(_TIME_KEY.search(key))
        if id_place or (isinstance(doc, str) and len(doc) >= 8):
            whole = self.seen.get((type(doc).__name__, doc), doc)
            if whole is doc and isinstance(doc, str):  # a generated id inside a string: "e-<uuid>"
                return _UUID_INSIDE.sub(lambda m: self.seen.get(("str", m.group(0)), m.group(0)), doc)
            return whole
        return doc

    def __call__(self, doc: Any, *, envelope: bool = True) -> Any:
        self._collect(doc, envelope=envelope)
        return self._substitute(doc, top=envelope)

    def text(self, text: str) -> str:
        """A value seen in a body, met again in a header or a URL."""
        for (kind, value), placeholder in self.seen.items():
            if kind == "str" and len(value) >= 8 and value in text:
                text = text.replace(value, placeholder)
        return text


def drop_defaults(doc: Any) -> Any:
    """ProtoJSON leaves out default values: absent, null, "", [], {} and false are all the same.
    (0 is kept: historyLength 0 means "no history", absent means "the server's default".)"""
    if isinstance(doc, dict):
        out = {}
        for k, v in doc.items():
            if k not in _OPAQUE:
                v = drop_defaults(v)
            if v is None or v is False or v in ("", [], {}):
                continue
            out[k] = v
        return out
    if isinstance(doc, list):
        return [drop_defaults(v) for v in doc]
    return doc


def canonical(doc: Any, method: str, role: str, notes: list[str]) -> Any:
    """A request, answer or stream event, whatever its version, as canonical V1."""
    from a2acli.wire.translate import TRANSLATORS, to_core_card, translate_document

    try:
        if role == "request":
            return translate_document(doc, "v1", notes)
        if method == "card":
            return to_core_card(doc, notes)
        return translate_document(doc, "v1", notes, method=method if method in TRANSLATORS else None)
    except Exception as e:  # noqa: BLE001 - a body the translators choke on is compared as it is
        notes.append(f"{role}: left untranslated ({type(e).__name__}: {e})")
        return doc


def canonical_rest(doc: Any, data: bytes | str, ex: DumpedExchange, role: str, notes: list[str]) -> Any:
    """An HTTP+JSON or gRPC request, answer or stream event in the binding-neutral canonical V1
    form (a gRPC request is its message; an answer or event reads as over HTTP+JSON)."""
    from a2acli.wire import Wire
    from a2acli.wire.bindings.rest import decode_answer, decode_request
    from a2acli.wire.methods import METHODS

    spec = METHODS[ex.method]
    wire = Wire.V0 if (ex.version or "").startswith("0.") else Wire.V1
    try:
        if role == "request":
            target = ex.request_line.split(" ")[1] if " " in ex.request_line else ""
            body = data.encode() if isinstance(data, str) else data
            if ex.binding is not None and ex.binding.carrier_grpc:  # ProtoJSON messages, no route
                from a2acli.wire.bindings.rest import RestBinding

                message = json.loads(body) if body.strip() else {}
                params = RestBinding.translators(spec).params_to_core(message, notes) if wire is Wire.V0 else message
                return {"method": spec.name, "params": params}
            return {"method": spec.name, "params": decode_request(spec, wire, target, body, notes)}
        status = int((_status(ex.status_line) or "200").split()[0]) if role == "response" else 200
        return decode_answer(spec, wire, status, doc, notes)
    except Exception as e:  # noqa: BLE001 - a body the translators choke on is compared as it is
        notes.append(f"{role}: left untranslated ({type(e).__name__}: {e})")
        return doc


# -- comparing ----------------------------------------------------------------------------------


def _status(line: str | None) -> str | None:
    """ "HTTP/1.1 200 OK" -> "200 OK"."""
    if line is None:
        return None
    return line.split(" ", 1)[1] if line.startswith("HTTP/") and " " in line else line
