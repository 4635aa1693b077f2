"""What `a2a mock` and `a2a replay` share: a dump's exchanges read back as calls (binding, version,
V1 method, canonical V1 params, the answer or each event in canonical V1, their timing), generated
values masked for matching, and the ids one side uses paired with the other side's.

Pure but for reading the dump (dumps.load_dump): no network, no Typer, no rich."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from a2acli.recording.diff import MISSING, Dump, DumpedExchange, structural
from a2acli.wire.bindings import BindingInfo

# Keys whose values are generated ids: masked for matching, paired for rewriting. Inside user
# payload (Part.data, metadata) keys are the user's own (`projectUserId` is data, not an id).
ID_KEYS = frozenset(
    {"id", "messageId", "contextId", "taskId", "artifactId", "referenceTaskIds", "pushNotificationConfigId"}
)
_OPAQUE = frozenset({"data", "metadata"})
_TIME_KEY = re.compile(r"(?:[tT]imestamp|Time|At|^time)$")
_UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
_ISO_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$")
ID = "<id>"
TIME = "<time>"
NON_IDEMPOTENT = frozenset({"SendMessage", "SendStreamingMessage"})  # never sent twice in one replay


@dataclass
class Recorded:
    """One recorded call, read back."""

    ex: DumpedExchange
    dump: str  # the dump directory it came from
    binding: BindingInfo  # a row of wire.bindings.BINDINGS
    version: str  # "1.0" | "0.3"
    method: str  # V1 name
    params: Any  # canonical V1 params, ids kept (MISSING when they could not be read)
    ms: float = 0.0  # the whole exchange, as recorded
    event_ms: tuple[float, ...] = ()  # each event's arrival, ms after the request
    uses: int = 0  # times the mock has answered with it

    @property
    def name(self) -> str:
        """How messages name it: `send-dump/002-SendMessage`."""
        return f"{Path(self.dump).name}/{self.ex.stem}"

    @property
    def wire(self) -> str:
        return "v0" if self.version.startswith("0.") else "v1"

    def delays(self, speed: float) -> list[float]:
        """Seconds to wait before each event (a unary answer: one), at `speed` times the recorded pace."""
        if speed <= 0:
            return [0.0] * max(len(self.ex.events), 1)
        if not self.ex.stream:
            return [self.ms / 1000 / speed]
        n = len(self.ex.events)
        offsets = (
            list(self.event_ms[:n]) if len(self.event_ms) >= n else [self.ms * (i + 1) / max(n, 1) for i in range(n)]
        )  # older dumps: spread evenly
        out, last = [], 0.0
        for t in offsets:
            out.append(max(t - last, 0.0) / 1000 / speed)
            last = max(t, last)
        return out


@dataclass
class Calls:
    """The calls and cards of one or more dumps."""

    calls: list[Recorded] = field(default_factory=list)
    cards: list[tuple[str | None, DumpedExchange]] = field(default_factory=list)  # (version, card exchange)
    notes: list[str] = field(default_factory=list)


def version_of(ex: DumpedExchange) -> str:
    """The A2A version a recorded request was sent under: the index's, else its A2A-Version header, else 1.0."""
    if ex.version:
        return "0.3" if ex.version.startswith("0.") else "1.0"
    sent = next((v for k, v in ex.request_headers if k.lower() == "a2a-version"), "")
    return "0.3" if sent.startswith("0.") else "1.0"


def read_calls(dumps: list[Dump]) -> Calls:
    found = Calls()
    for dump in dumps:
        for ex in dump.exchanges:
            if ex.method == "card":
                if ex.status_line and " 200 " in f"{ex.status_line} ":
                    found.cards.append((version_of(ex), ex))
                continue
            binding = ex.binding
            if binding is None:
                found.notes.append(f"{Path(dump.path).name}/{ex.stem}: not an A2A method call ({ex.label}); left out")
                continue
            if ex.status_line is None:
                found.notes.append(
                    f"{Path(dump.path).name}/{ex.stem}: no answer was recorded ({ex.error or 'no response'}); left out"
                )
                continue
            found.calls.append(
                Recorded(
                    ex, dump.path, binding, version_of(ex), ex.method, request_params(ex, binding), ex.ms, ex.event_ms
                )
            )
    return found


# -- canonical V1 forms ---------------------------------------------------------------------------


def request_params(ex: DumpedExchange, binding: BindingInfo) -> Any:
    """The canonical V1 params of a recorded request (MISSING when they cannot be read)."""
    from a2acli.recording.diff import canonical, canonical_rest, drop_defaults

    notes: list[str] = []
    body = ex.request_body
    try:
        doc = json.loads(body) if body.strip() else None
    except ValueError:
        return MISSING
    if binding.envelope:
        doc = canonical(doc, ex.method, "request", notes)
        params = doc.get("params") if isinstance(doc, dict) else None
    else:
        found = canonical_rest(doc, body, ex, "request", notes)
        params = found.get("params") if isinstance(found, dict) else None
    params = drop_defaults(params if params is not None else {})
    return integral(params) if binding.carrier_grpc else params


def integral(doc: Any) -> Any:
    """doc with whole floats as ints: protobuf's Struct (a data part, metadata) holds every number
    as a double, so a gRPC request read from its bytes says 2.0 where its sender wrote 2."""
    if isinstance(doc, dict):
        return {k: integral(v) for k, v in doc.items()}
    if isinstance(doc, list):
        return [integral(v) for v in doc]
    if isinstance(doc, float) and doc.is_integer() and abs(doc) < 2**53:
        return int(doc)
    return doc


def answer_results(ex: DumpedExchange, binding: BindingInfo) -> list[Any]:
    """Each recorded answer (one, or each stream event) in canonical V1: the result, or
    `{"error": …}`; None for what could not be read."""
    from a2acli.recording.diff import canonical, canonical_rest

    out: list[Any] = []
    for data in ex.events if ex.stream else (ex.response_body.decode("utf-8", "replace"),):
        try:
            doc = json.loads(data) if data.strip() else None
        except ValueError:
            out.append(None)
            continue
        notes: list[str] = []
        found = (
            canonical(doc, ex.method, "response", notes)
            if binding.envelope
            else canonical_rest(doc, data, ex, "event" if ex.stream else "response", notes)
        )
        if isinstance(found, dict) and "error" in found:
            out.append({"error": found["error"]})
        else:
            out.append(found.get("result") if isinstance(found, dict) else None)
    return out


# -- generated values -----------------------------------------------------------------------------


def generated(key: str, value: Any, opaque: bool = False) -> bool:
    """A value generated by the client or the agent: an id, a UUID, a timestamp."""
    if not isinstance(value, str) or not value:
        return False
    if not opaque and (key in ID_KEYS or _TIME_KEY.search(key)):
        return True
    return bool(_UUID.match(value) or _ISO_TIME.match(value))


def mask(doc: Any, key: str = "", opaque: bool = False) -> Any:
    """doc with generated values replaced (ids by <id>, timestamps by <time>) and id fields
    dropped whatever their presence: what matching compares."""
    if isinstance(doc, dict):
        out = {}
        for k, v in doc.items():
            if not opaque and k in ID_KEYS:
                continue
            out[k] = mask(v, k, opaque or k in _OPAQUE)
        return out
    if isinstance(doc, list):
        return [mask(v, key, opaque) for v in doc]
    if generated(key, doc, opaque):
        return TIME if (_ISO_TIME.match(doc) or (not opaque and _TIME_KEY.search(key))) else ID
    return doc


def id_pairs(
    left: Any, right: Any, key: str = "", opaque: bool = False, out: dict[str, str] | None = None
) -> dict[str, str]:
    """The generated ids at the same places of two documents of the same shape: left -> right
    (where they differ). Timestamps are not ids: they are left alone."""
    out = {} if out is None else out
    if isinstance(left, dict) and isinstance(right, dict):
        for k in left.keys() & right.keys():
            id_pairs(left[k], right[k], k, opaque or k in _OPAQUE, out)
    elif isinstance(left, list) and isinstance(right, list):
        for a, b in zip(left, right, strict=False):
            id_pairs(a, b, key, opaque, out)
    elif (
        isinstance(left, str)
        and isinstance(right, str)
        and left != right
        and _is_id(key, left, opaque)
        and _is_id(key, right, opaque)
    ):
        out[left] = right
    return out


def _is_id(key: str, value: str, opaque: bool) -> bool:
    return bool(value) and not _ISO_TIME.match(value) and ((not opaque and key in ID_KEYS) or bool(_UUID.match(value)))


def same_ids(left: Any, right: Any) -> int:
    """How many id places hold the same value on both sides (the closer recorded request holds more)."""
    count = 0

    def walk(a: Any, b: Any, key: str, opaque: bool) -> None:
        nonlocal count
        if isinstance(a, dict) and isinstance(b, dict):
            for k in a.keys() & b.keys():
                walk(a[k], b[k], k, opaque or k in _OPAQUE)
        elif isinstance(a, list) and isinstance(b, list):
            for x, y in zip(a, b, strict=False):
                walk(x, y, key, opaque)
        elif isinstance(a, str) and a == b and _is_id(key, a, opaque):
            count += 1

    walk(left, right, "", False)
    return count


def rewrite(doc: Any, mapping: dict[str, str]) -> Any:
    """doc with every string that is a mapped id replaced, also where it is part of a longer
    string (a resource name `tasks/<id>`), for ids long enough not to be a coincidence."""
    if not mapping:
        return doc
    if isinstance(doc, dict):
        return {k: rewrite(v, mapping) for k, v in doc.items()}
    if isinstance(doc, list):
        return [rewrite(v, mapping) for v in doc]
    if isinstance(doc, str):
        if doc in mapping:
            return mapping[doc]
        for old, new in mapping.items():
            if len(old) >= 8 and old in doc:
                doc = doc.replace(old, new)
    return doc


def differences(recorded: Any, given: Any) -> list[tuple[str, Any, Any]]:
    """(path, recorded, given) of each difference between two params, generated values masked;
    a value the dump redacted (a credential it does not hold) matches whatever is given there."""
    found = structural(mask(recorded), mask(_secret_as_recorded(recorded, given)), "params", "")
    return [(d.path, None if d.left is MISSING else d.left, None if d.right is MISSING else d.right) for d in found]


def _secret_as_recorded(recorded: Any, given: Any) -> Any:
    """`given`, where the recorded value is redacted (`<redacted>`, or a URL's `user:<redacted>@`)
    and the given one fits around it, taken as the recorded value."""
    from a2acli.redact import REDACTED

    if isinstance(recorded, dict) and isinstance(given, dict):
        return {k: _secret_as_recorded(recorded[k], v) if k in recorded else v for k, v in given.items()}
    if isinstance(recorded, list) and isinstance(given, list):
        return [_secret_as_recorded(r, g) for r, g in zip(recorded, given, strict=False)] + given[len(recorded) :]
    if isinstance(recorded, str) and isinstance(given, str) and REDACTED in recorded:
        pattern = ".*".join(re.escape(part) for part in recorded.split(REDACTED))
        return recorded if re.fullmatch(pattern, given, re.S) else given
    return given


def redacted_paths(doc: Any, path: str = "params") -> list[str]:
    """The places of `doc` (a recorded request's params) whose value the dump redacted."""
    from a2acli.redact import REDACTED

    if isinstance(doc, dict):
        return [p for k, v in doc.items() for p in redacted_paths(v, f"{path}.{k}")]
    if isinstance(doc, list):
        return [p for i, v in enumerate(doc) for p in redacted_paths(v, f"{path}[{i}]")]
    return [path] if isinstance(doc, str) and REDACTED in doc else []


def redacted_credentials(ex: DumpedExchange) -> list[str]:
    """The headers (and `body`) of a recorded request where the dump redacted a credential."""
    from a2acli.redact import REDACTED

    names = [k for k, v in ex.request_headers if REDACTED in v]
    if REDACTED.encode() in ex.request_body:
        names.append("body")
    return names
