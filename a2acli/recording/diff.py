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
from dataclasses import replace
from pathlib import Path
from typing import Any

from a2acli.recording.canonical import (  # noqa: F401 - the one normalising of diff, replay, mock and playback
    TIMESTAMP,
    VOLATILE_HEADERS,
    IdNormaliser,
    _status,
    canonical,
    canonical_rest,
    drop_defaults,
)
from a2acli.recording.dumps import (  # noqa: F401 - read here by diff, replay, mock and playback alike
    MISSING,
    Dump,
    DumpedExchange,
    index_entries,
    load_dump,
)
from a2acli.recording.report import Difference, ExchangeDiff, Report, Section, _where  # noqa: F401


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


def prune(doc: Any, path: str, ignore: list[re.Pattern[str]], matched: set[str] | None = None) -> Any:
    """doc without the members whose path matches one of the --ignore patterns (those that
    matched go into `matched`, by their text)."""
    if not ignore or doc is MISSING:
        return doc
    hits = [p for p in ignore if p.match(path)]
    if hits:
        if matched is not None:  # every pattern that matches here or inside counts as matching
            matched.update(p.pattern for p in hits)
            rest = [p for p in ignore if p.pattern not in matched]
            if rest:
                prune(doc, path, rest, matched)  # (only to see where the others match)
        return MISSING
    if isinstance(doc, dict):
        out = {}
        for k, v in doc.items():
            v = prune(v, path + _key(k), ignore, matched)
            if v is not MISSING:
                out[k] = v
        return out
    if isinstance(doc, list):
        kept = (prune(v, f"{path}[{i}]", ignore, matched) for i, v in enumerate(doc))
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
        rest = ex.binding is not None and ex.binding.proto_json and not self.raw
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
                if neutral and isinstance(doc, dict) and ex.binding is not None and ex.binding.envelope:
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
    # the agent's address and name; the mock's own header naming the recording it answered from;
    # how its HTTP server frames an answer (hop-by-hop: the connection, not the answer) and whether
    # it compressed it (each body is compared inflated)
    "agent": (
        "request.headers.host",
        "response.headers.server",
        "response.headers.x-a2a-mock",
        "response.headers.connection",
        "response.headers.keep-alive",
        "response.headers.transfer-encoding",
        "response.headers.content-encoding",
    ),
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
    matched: set[str] = set()
    pairs = _pairs(left, right)
    report = Report(left, right, [], raw, keep_ids, notes, card)
    for name, dump in (("left", left), ("right", right)):  # a file gone is no empty answer: said
        notes += [f"{name} {ex.stem}: {f} is missing from the dump" for ex in dump.exchanges for f in ex.missing]
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
            s.left, s.right = prune(s.left, s.name, patterns, matched), prune(s.right, s.name, patterns, matched)
            s.differences = judged(structural(s.left, s.right, s.name, method), implied)
            if xd.aside:
                s.differences = [replace(d, aside=xd.aside) for d in s.differences]
            if s.left is not MISSING or s.right is not MISSING:
                xd.sections.append(s)
    notes += [  # a typo in a pattern would otherwise hide nothing, unsaid
        f"--ignore {given!r} matched no path of either dump: check it against the paths `-o json` names"
        for given, p in zip(ignore, patterns, strict=True)
        if p.pattern not in matched
    ]
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


def _events(side: _Side, ex: DumpedExchange, neutral: bool = False) -> list[Any]:
    return [v for data in ex.events if (v := side.body(data, ex, "event", neutral=neutral)) is not MISSING]


def answer_shapes(ex: DumpedExchange) -> list[str]:
    """How a JSON-RPC answer (body or events) departs from the shape of the version it was asked
    under (wire.shapes.answer_shape), one line per kind of deviation; [] when it has that shape."""
    from a2acli.wire.shapes import answer_shape

    if ex.binding is None or not ex.binding.envelope or not ex.version:
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
