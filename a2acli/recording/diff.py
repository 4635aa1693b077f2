"""Compare two dumps (`--dump DIR`) exchange by exchange: what `a2a diff` shows.

The comparison is semantic by default: each body is brought to canonical V1 with the wire
translators (method names, `kind`, enum spellings, wrappers), defaults are dropped (ProtoJSON
omits them), key order is ignored, and generated values (JSON-RPC ids, message/task/context/
artifact ids, UUIDs, timestamps) are replaced by numbered placeholders, consistently within each
dump, so a wrong cross-reference still shows. What remains is a list of Differences (path, left,
right, kind) and, per section, the two texts to show as a unified diff. `raw=True` compares the
bodies as they crossed the wire (no translation, original key order); `keep_ids=True` keeps
the generated values.

No network, no Typer, no rich: `load_dump` reads a dump directory, everything else is pure.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from a2acli.recording.dumps import (  # noqa: F401 - read here by diff, replay, mock and playback alike
    MISSING,
    Dump,
    DumpedExchange,
    index_entries,
    load_dump,
)

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
            if ex.binding == "grpc":
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


@dataclass(frozen=True)
class Difference:
    exchange: str  # the V1 method name (or "card")
    path: str  # section.json.path: response.body.result.task.status.state
    left: Any  # MISSING when only the right side has it
    right: Any  # MISSING when only the left side has it
    kind: str  # changed | added (right only) | removed (left only)
    aside: str = ""  # why it does not count (what the compared variable implies); "" when it counts

    def to_json(self) -> dict[str, Any]:
        return {
            "exchange": self.exchange,
            "path": self.path,
            "kind": self.kind,
            "left": None if self.left is MISSING else self.left,
            "right": None if self.right is MISSING else self.right,
            **({"aside": self.aside} if self.aside else {}),
        }


@dataclass
class Section:
    name: str  # request.line, request.headers, request.body, response.status, response.headers, response.body, response.events
    left: Any  # prepared value (MISSING: the side has no such section)
    right: Any
    left_file: str
    right_file: str
    raw: bool = False
    differences: list[Difference] = field(default_factory=list)

    def text(self, side: Any) -> list[str]:
        if side is MISSING:
            return []
        if self.name.endswith("headers"):
            return [f"{k}: {v}" for k, v in side.items()]
        if isinstance(side, str):
            return side.splitlines()
        return json.dumps(side, indent=2, ensure_ascii=False, sort_keys=not self.raw).splitlines()

    def unified(self, context: int = 3, *, everything: bool = False) -> list[str]:
        """The section's unified diff; a header that differs only as the compared variable
        implies is left out of it unless `everything`."""
        left, right = self.left, self.right
        hidden = {d.path[len(self.name) + 1 :] for d in self.differences if d.aside} if not everything else set()
        if hidden and self.name.endswith("headers"):
            left, right = (
                {k: v for k, v in side.items() if k not in hidden} if isinstance(side, dict) else side
                for side in (left, right)
            )
        return list(
            difflib.unified_diff(
                self.text(left), self.text(right), self.left_file, self.right_file, n=context, lineterm=""
            )
        )


@dataclass
class ExchangeDiff:
    method: str
    left: DumpedExchange | None
    right: DumpedExchange | None
    sections: list[Section] = field(default_factory=list)

    aside: str = ""  # why none of this exchange's differences counts (the card without --card)

    @property
    def everything(self) -> list[Difference]:
        """Every difference, those that do not count included."""
        if self.left is None or self.right is None:
            side = self.left or self.right
            assert side is not None
            kind = "removed" if self.right is None else "added"
            value = f"{side.stem} ({side.label})"
            return [
                Difference(
                    self.method,
                    "exchange",
                    value if kind == "removed" else MISSING,
                    value if kind == "added" else MISSING,
                    kind,
                    self.aside,
                )
            ]
        return [d for s in self.sections for d in s.differences]

    @property
    def differences(self) -> list[Difference]:
        """The differences that count."""
        return [d for d in self.everything if not d.aside]


@dataclass
class Report:
    left: Dump
    right: Dump
    exchanges: list[ExchangeDiff]
    raw: bool
    keep_ids: bool
    notes: list[str] = field(default_factory=list)
    card: bool = False  # --card: the card fetches count too

    @property
    def differences(self) -> list[Difference]:
        """The differences that count: exit 1 when there is one."""
        return [d for e in self.exchanges for d in e.differences]

    @property
    def aside(self) -> list[Difference]:
        """The differences that do not count (what the compared variable implies), for -v."""
        return [d for e in self.exchanges for d in e.everything if d.aside]

    @property
    def equal(self) -> bool:
        return not self.differences

    def verdict(self) -> str:
        """The one line that ends `diff` and `replay` on stderr (under -q too)."""
        what = "canonical V1" if not self.raw else "raw bodies"
        ids = "ids kept" if self.keep_ids else "ids and times aside"
        n = len(self.exchanges)
        if self.equal:
            return f"same: the answers agree, {n} exchange(s) compared ({what}; {ids})"
        changed = sum(1 for e in self.exchanges if e.differences)
        return f"different: {len(self.differences)} difference(s) in {changed} of {n} exchange(s) ({what}; {ids})"

    def aside_summary(self) -> str | None:
        """One line on the differences that do not count, or None when there is none."""
        aside = self.aside
        if not aside:
            return None
        reasons: dict[str, list[Difference]] = {}
        for d in aside:
            reasons.setdefault(d.aside, []).append(d)
        said = []
        for why, found in reasons.items():
            where = list(dict.fromkeys(_where(d.path) for d in found)) if why.startswith("implied") else []
            said.append(f"{len(found)} {why}" + (f" ({', '.join(where)})" if where else ""))
        return f"{len(aside)} difference(s) do not count: {'; '.join(said)}; -v shows them"

    def to_json(self) -> dict[str, Any]:
        return {
            "equal": self.equal,
            "left": {"path": self.left.path, "version": self.left.version},
            "right": {"path": self.right.path, "version": self.right.version},
            "mode": "raw" if self.raw else "canonical-v1",
            "idsNormalised": not self.keep_ids,
            "cardCompared": self.card,
            "exchanges": [
                {
                    "method": e.method,
                    "left": e.left.stem if e.left else None,
                    "right": e.right.stem if e.right else None,
                    "differences": len(e.differences),
                    "aside": len(e.everything) - len(e.differences),
                }
                for e in self.exchanges
            ],
            "differences": [d.to_json() for d in self.differences],
            "aside": [d.to_json() for d in self.aside],
            "notes": self.notes,
        }


def _where(path: str) -> str:
    """A path as the line on what does not count names it: `request.headers.a2a-version` is the
    header `a2a-version`, `request.line` the request line."""
    section, _, rest = path.partition(".")
    part, _, name = rest.partition(".")
    if part == "headers" and name:
        return name
    return {"line": "request line", "status": "status", "shape": "JSON-RPC framing"}.get(part, path)


def _key(k: str) -> str:
    return f".{k}" if re.fullmatch(r"[A-Za-z0-9_@$-]+", k) else f"[{json.dumps(k)}]"


def structural(a: Any, b: Any, path: str, exchange: str) -> list[Difference]:
    """Every difference between two JSON values, dict keys unordered, lists by position."""
    if a is MISSING and b is MISSING:
        return []
    if a is MISSING:
        return [Difference(exchange, path, MISSING, b, "added")]
    if b is MISSING:
        return [Difference(exchange, path, a, MISSING, "removed")]
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            out += structural(a.get(k, MISSING), b.get(k, MISSING), path + _key(k), exchange)
        return out
    if isinstance(a, list) and isinstance(b, list):
        out = []
        for i in range(max(len(a), len(b))):
            out += structural(
                a[i] if i < len(a) else MISSING, b[i] if i < len(b) else MISSING, f"{path}[{i}]", exchange
            )
        return out
    if a == b and type(a) is type(b):
        return []
    return [Difference(exchange, path, a, b, "changed")]


def _glob(pattern: str) -> re.Pattern[str]:
    """`*` matches anything (dots and brackets included), `?` one character; the rest is literal."""
    return re.compile("".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern) + r"\Z")


def prune(doc: Any, path: str, ignore: list[re.Pattern[str]]) -> Any:
    """doc without the members whose path matches one of the --ignore patterns."""
    if not ignore or doc is MISSING:
        return doc
    if any(p.match(path) for p in ignore):
        return MISSING
    if isinstance(doc, dict):
        out = {}
        for k, v in doc.items():
            v = prune(v, path + _key(k), ignore)
            if v is not MISSING:
                out[k] = v
        return out
    if isinstance(doc, list):
        kept = (prune(v, f"{path}[{i}]", ignore) for i, v in enumerate(doc))
        return [v for v in kept if v is not MISSING]
    return doc


class _Side:
    """Prepares one dump's values: parse, canonicalise, drop defaults, normalise ids."""

    def __init__(self, dump: Dump, *, raw: bool, keep_ids: bool, notes: list[str], name: str) -> None:
        self.dump = dump
        self.raw = raw
        self.keep_ids = keep_ids
        self.notes = notes
        self.name = name
        self.ids = IdNormaliser()

    def body(self, data: bytes | str, ex: DumpedExchange, role: str, *, neutral: bool = False) -> Any:
        """`neutral`: the other side used another binding, so each body is brought to the call's
        binding-neutral form: `{method, params}` for a request, `{result}` or `{error}` for an
        answer (a JSON-RPC envelope loses `jsonrpc` and `id`; HTTP+JSON gains the method)."""
        text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
        rest = ex.binding in ("rest", "grpc") and not self.raw
        if not text.strip() and not (rest and role == "request"):
            return MISSING
        try:
            doc = json.loads(text) if text.strip() else None
        except ValueError:
            return self.ids.text(text) if not self.keep_ids else text
        if not self.raw:
            notes: list[str] = []
            if rest:
                doc = canonical_rest(doc, data, ex, role, notes)
            else:
                doc = canonical(doc, ex.method, role, notes)
                if neutral and isinstance(doc, dict) and ex.binding == "jsonrpc":
                    doc = {k: v for k, v in doc.items() if k not in ("jsonrpc", "id")}
            self.notes += [f"{self.name} {ex.stem}: {n}" for n in notes]
        if not self.keep_ids:
            doc = self.ids(doc)
        return doc if self.raw else drop_defaults(doc)

    def headers(self, headers: tuple[tuple[str, str], ...]) -> dict[str, str]:
        merged: dict[str, str] = {}
        for k, v in headers:
            k = k.lower()
            merged[k] = f"{merged[k]}, {v}" if k in merged else v
        if not self.keep_ids:
            merged = {k: f"<{k}>" if k in VOLATILE_HEADERS else self.ids.text(v) for k, v in merged.items()}
        return dict(sorted(merged.items()))

    def line(self, line: str | None) -> Any:
        if line is None:
            return MISSING
        return line if self.keep_ids else self.ids.text(line)


# -- what counts ---------------------------------------------------------------------------------

# What each compared variable implies: a difference at one of these paths (glob patterns, as
# --ignore's) is in how the call was carried, not in what the agent answered, so it never counts
# (`-v` shows it). The variable of a pair of exchanges is read from them: another version, another
# binding; the agent's address and the client's name are never the answer.
IMPLIED: dict[str, tuple[str, ...]] = {
    "version": (
        "request.line",  # HTTP+JSON routes and gRPC names of each version
        "request.headers.a2a-version",
        "request.headers.accept",
        "request.headers.content-type",
        "response.headers.a2a-version",
        "response.headers.content-type",
    ),
    "binding": (
        "request.line",
        "request.headers.accept",
        "request.headers.content-type",
        "request.headers.te",
        "request.headers.content-length",  # a GET over HTTP+JSON has no body
        "request.headers.accept-encoding",  # HTTP plumbing that gRPC metadata has not
        "request.headers.connection",
        "request.headers.cache-control",
        "request.headers.grpc-*",
        "response.status",  # an error is a 4xx over HTTP+JSON, a 200 with an error over JSON-RPC
        "response.headers.*",
        "response.shape*",  # JSON-RPC framing
    ),
    "agent": ("request.headers.host",),
    "client": ("request.headers.user-agent",),
}
_IMPLIED_GLOBS = {name: [_glob(p) for p in patterns] for name, patterns in IMPLIED.items()}
CARD_ASIDE = "in the card (--card compares it)"


def variables(ea: DumpedExchange, eb: DumpedExchange) -> tuple[str, ...]:
    """What differs between the two runs of one call: each one's implications do not count."""
    found = ["agent", "client"]
    if (ea.version or "") != (eb.version or ""):
        found.append("version")
    if ea.binding != eb.binding:
        found.append("binding")
    return tuple(found)


def judged(differences: list[Difference], implied: tuple[str, ...]) -> list[Difference]:
    """The differences, each that the compared variables imply marked as not counting."""
    out = []
    for d in differences:
        why = next((v for v in implied if any(g.match(d.path) for g in _IMPLIED_GLOBS[v])), None)
        out.append(replace(d, aside=f"implied by the {why}") if why else d)
    return out


def compare(
    left: Dump,
    right: Dump,
    *,
    raw: bool = False,
    keep_ids: bool = False,
    ignore: list[str] | tuple[str, ...] = (),
    card: bool = False,
) -> Report:
    """Pair the two dumps' exchanges by method (in order) and compare each pair: the one notion of
    "the same" of `diff` and `replay`. What the compared variable implies does not count, nor the
    card unless `card`."""
    notes: list[str] = []
    a = _Side(left, raw=raw, keep_ids=keep_ids, notes=notes, name="left")
    b = _Side(right, raw=raw, keep_ids=keep_ids, notes=notes, name="right")
    patterns = [_glob(p) for p in ignore]
    pairs = _pairs(left, right)
    report = Report(left, right, [], raw, keep_ids, notes, card)
    for ea, eb in pairs:
        method = (ea or eb).method  # type: ignore[union-attr]
        xd = ExchangeDiff(method, ea, eb, aside=CARD_ASIDE if method == "card" and not card else "")
        report.exchanges.append(xd)
        if ea is None or eb is None:
            # keep the numbering of ids in step: the lone side's values are still seen
            side, ex = (a, ea) if ea is not None else (b, eb)
            assert ex is not None
            side.body(ex.request_body, ex, "request")
            continue
        sections = _sections(a, b, ea, eb, Path(left.path).name, Path(right.path).name, raw=raw)
        implied = variables(ea, eb)
        for s in sections:
            s.left, s.right = prune(s.left, s.name, patterns), prune(s.right, s.name, patterns)
            s.differences = judged(structural(s.left, s.right, s.name, method), implied)
            if xd.aside:
                s.differences = [replace(d, aside=xd.aside) for d in s.differences]
            if s.left is not MISSING or s.right is not MISSING:
                xd.sections.append(s)
    return report


def _pairs(left: Dump, right: Dump) -> list[tuple[DumpedExchange | None, DumpedExchange | None]]:
    """The two dumps' exchanges paired by method, in order; an exchange with no partner alone."""
    pairs: list[tuple[DumpedExchange | None, DumpedExchange | None]] = []
    matcher = difflib.SequenceMatcher(
        None, [e.method for e in left.exchanges], [e.method for e in right.exchanges], autojunk=False
    )
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            pairs += list(
                zip(left.exchanges[i1:i2], right.exchanges[j1:j2], strict=True)
            )  # an `equal` opcode: same lengths
        else:
            pairs += [(e, None) for e in left.exchanges[i1:i2]] + [(None, e) for e in right.exchanges[j1:j2]]
    return pairs


def _sections(
    a: _Side, b: _Side, ea: DumpedExchange, eb: DumpedExchange, left_name: str, right_name: str, *, raw: bool
) -> list[Section]:
    """The parts of two paired exchanges to compare: request line, headers and body; response
    status, headers, events or body; and, canonically, how each answer was shaped."""
    lf, rf = f"{left_name}/{ea.stem}", f"{right_name}/{eb.stem}"
    neutral = ea.binding != eb.binding
    sections = [
        Section(
            "request.line", a.line(ea.request_line), b.line(eb.request_line), f"{lf}.request.http", f"{rf}.request.http"
        ),
        Section(
            "request.headers",
            a.headers(ea.request_headers),
            b.headers(eb.request_headers),
            f"{lf}.request.http",
            f"{rf}.request.http",
        ),
        Section(
            "request.body",
            a.body(ea.request_body, ea, "request", neutral=neutral),
            b.body(eb.request_body, eb, "request", neutral=neutral),
            f"{lf}.request.body",
            f"{rf}.request.body",
            raw,
        ),
        Section(
            "response.status",
            a.line(_status(ea.status_line)),
            b.line(_status(eb.status_line)),
            f"{lf}.response.http",
            f"{rf}.response.http",
        ),
        Section(
            "response.headers",
            a.headers(ea.response_headers) if ea.status_line else MISSING,
            b.headers(eb.response_headers) if eb.status_line else MISSING,
            f"{lf}.response.http",
            f"{rf}.response.http",
        ),
    ]
    if ea.stream or eb.stream:
        sections.append(
            Section(
                "response.events",
                _events(a, ea, neutral) if ea.stream else MISSING,
                _events(b, eb, neutral) if eb.stream else MISSING,
                f"{lf}.event-*.json",
                f"{rf}.event-*.json",
                raw,
            )
        )
    if not ea.stream or not eb.stream:
        sections.append(
            Section(
                "response.body",
                a.body(ea.response_body, ea, "response", neutral=neutral) if not ea.stream else MISSING,
                b.body(eb.response_body, eb, "response", neutral=neutral) if not eb.stream else MISSING,
                f"{lf}.response.body",
                f"{rf}.response.body",
                raw,
            )
        )
    if not raw:  # canonical bodies hide how each side was shaped: say it when that differs
        sa, sb = answer_shapes(ea), answer_shapes(eb)
        if sa != sb:
            sections.append(Section("response.shape", sa, sb, f"{lf} (as received)", f"{rf} (as received)"))
    return sections


def _status(line: str | None) -> str | None:
    """ "HTTP/1.1 200 OK" -> "200 OK"."""
    if line is None:
        return None
    return line.split(" ", 1)[1] if line.startswith("HTTP/") and " " in line else line


def _events(side: _Side, ex: DumpedExchange, neutral: bool = False) -> list[Any]:
    return [v for data in ex.events if (v := side.body(data, ex, "event", neutral=neutral)) is not MISSING]


def answer_shapes(ex: DumpedExchange) -> list[str]:
    """How a JSON-RPC answer (body or events) departs from the shape of the version it was asked
    under (wire.shapes.answer_shape), one line per kind of deviation; [] when it has that shape."""
    from a2acli.wire.shapes import answer_shape

    if ex.binding != "jsonrpc" or not ex.version:
        return []
    found: dict[str, str] = {}
    for data in ex.events if ex.stream else (ex.response_body.decode("utf-8", "replace"),):
        try:
            doc = json.loads(data)
        except ValueError:
            continue
        if isinstance(doc, dict) and "result" in doc:
            for text in answer_shape(doc["result"], ex.version):
                found.setdefault(text.split(" (")[0], text)
    return list(found.values())
