"""Dumps as `--dump DIR` wrote them, read back: each exchange's request and answer heads, bodies
and stream events (`load_dump`). What diff, replay, mock and playback read; no comparing here."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, AnyStr

from a2acli.errors import UsageError
from a2acli.wire.bindings import BindingInfo


class _Missing:
    def __repr__(self) -> str:
        return "<missing>"


MISSING: Any = _Missing()

# -- reading a dump ----------------------------------------------------------------------------


@dataclass(frozen=True)
class DumpedExchange:
    seq: int
    stem: str  # file name prefix: 002-SendMessage
    label: str  # the method as sent (V1 or V0 name), or "card"
    version: str | None  # "1.0" / "0.3" (index.jsonl)
    request_line: str
    request_headers: tuple[tuple[str, str], ...]
    request_body: bytes
    status_line: str | None  # None: no answer (connection failed, interrupted before it)
    response_headers: tuple[tuple[str, str], ...]
    response_body: bytes
    events: tuple[str, ...]  # each SSE event's data, for a stream
    stream: bool
    error: str | None = None
    request_id: str | None = None
    # the `.response.body` file as it stands when it differs from response_body: the answer's bytes
    # as they crossed the wire, gzip or deflate as its head says (response_body: inflated)
    response_wire: bytes | None = None
    # files the dump wrote for this exchange that are not there (`002-message_send.response.body`)
    missing: tuple[str, ...] = ()
    ms: float = 0.0  # the whole exchange, as recorded (index.jsonl)
    event_ms: tuple[float, ...] = ()  # each event's arrival, ms after the request (index.jsonl)
    response_pb: bytes = b""  # gRPC: the answer's messages as recorded (`.response.pb.b64`, base64 lines)

    @property
    def wire_body(self) -> bytes:
        """The answer's body as it crossed the wire (encoded when its head says so)."""
        return self.response_body if self.response_wire is None else self.response_wire

    @property
    def method(self) -> str:
        """The V1 name of the method (V0 names are mapped), "card", or the label as is."""
        from a2acli.wire.methods import V1_METHOD_NAMES

        return V1_METHOD_NAMES.get(self.label, self.label)

    @property
    def binding(self) -> BindingInfo | None:
        """The binding the request was sent over: gRPC (a path of an A2AService), JSON-RPC (a
        JSON-RPC envelope), HTTP+JSON (a method of the table sent otherwise), or None (the card,
        a download, an unknown call)."""
        from a2acli.wire.bindings import GRPC, JSONRPC, REST
        from a2acli.wire.methods import METHODS

        if self.method not in METHODS:
            return None
        if re.match(r"\S+ /[\w.]+\.A2AService/", self.request_line):
            return GRPC
        try:
            doc = json.loads(self.request_body) if self.request_body.strip() else None
        except ValueError:
            doc = None
        return JSONRPC if isinstance(doc, dict) and "jsonrpc" in doc else REST


@dataclass(frozen=True)
class Dump:
    path: str
    exchanges: tuple[DumpedExchange, ...]

    @property
    def version(self) -> str | None:
        versions = {e.version for e in self.exchanges if e.version}
        return versions.pop() if len(versions) == 1 else None


def _file(path: Path) -> Path | None:
    """`path` when it is a file of the dump, None when there is none. A symbolic link is followed
    only to a file inside the dump's directory: a dump is input (a CI artifact, an archive), and a
    link out of it (`002-SendMessage.request.body -> ~/.ssh/id_rsa`) would have replay send that
    file to an agent. UsageError for a link out, or to nothing."""
    if path.is_symlink():
        try:
            target = path.resolve(strict=True)
        except (OSError, RuntimeError):
            raise UsageError(
                f"cannot read {path}: it is a symbolic link to nothing ({_link(path)})", hint=_BROKEN_HINT
            ) from None
        if not target.is_relative_to(path.parent.resolve()):
            raise UsageError(
                f"cannot read {path}: it is a symbolic link out of the dump's directory ({_link(path)})",
                hint="a dump's files are read inside its directory only; copy the file in if it belongs to the dump",
            )
    return path if path.is_file() else None


def _link(path: Path) -> str:
    try:
        return f"to {path.readlink()}"
    except OSError:
        return "unreadable"


def _read(path: Path) -> bytes:
    found = _file(path)
    if found is None:
        return b""
    try:
        return found.read_bytes()
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror or e}", hint=_BROKEN_HINT) from None


def lines_of(text: str) -> list[str]:
    """`text`'s lines as a file holds them: split at LF only (a CR before it dropped). Not
    str.splitlines, which splits at VT, FF, NEL, U+2028 and U+2029 too: characters an HTTP head
    (obs-text) or a JSON string carries as text, and an agent's line of its own if split there."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def _read_head(path: Path) -> tuple[str | None, tuple[tuple[str, str], ...]]:
    if _file(path) is None:
        return None, ()
    lines = lines_of(_read(path).decode("latin-1"))  # HTTP heads: one byte, one character
    first = lines[0].strip() if lines else None
    headers = []
    for line in lines[1:]:
        if not line.strip():
            break
        name, _, value = line.partition(":")
        headers.append((name.strip(), value.strip()))
    return first, tuple(headers)


# How deep a body may nest, in a dump or in a request to the mock: diff, replay and mock walk each
# document recursively (canonicalising, comparing, rewriting ids), and Python's stack takes some
# 450 levels of that.
DUMP_MAX_DEPTH = 256


def nests_too_deep(data: bytes | str) -> bool:
    """Whether `data`, read as JSON, nests more than DUMP_MAX_DEPTH levels (False for no JSON)."""
    from a2acli.wire.envelope import too_deep

    if data.strip()[:1] not in (b"[", b"{", "[", "{"):
        return False
    try:
        return too_deep(data, json.loads(data), DUMP_MAX_DEPTH)
    except RecursionError:
        return True
    except ValueError:
        return False


def _json_body(path: Path, data: AnyStr) -> AnyStr:
    """`data` (a body or an event of the dump) as it is; UsageError when it nests too deep to
    read (nests_too_deep): every reader of the dump parses and walks it."""
    if nests_too_deep(data):
        raise UsageError(
            f"cannot read {path}: its JSON nests more than {DUMP_MAX_DEPTH} levels deep", hint=_BROKEN_HINT
        )
    return data


def response_body(path: Path, headers: tuple[tuple[str, str], ...]) -> tuple[bytes, bytes | None]:
    """(the answer's body inflated, the file's bytes when they differ) of a `.response.body` whose
    head is `headers`: the one reading of a dumped answer, for diff, replay, mock and playback. An
    encoded body is inflated as an answer is (limits.decoded: bounded pieces, the bomb guard); one
    inflated already though its head names a coding (dumps written before the wire's bytes were
    kept) is read as it stands."""
    from a2acli.errors import A2acliError
    from a2acli.transport.limits import decoded

    data = _read(path)
    coding = next((v for k, v in reversed(headers) if k.lower() == "content-encoding"), None)
    if coding is None:
        return _json_body(path, data), None
    try:
        text = decoded(data, coding)
    except A2acliError as e:
        raise UsageError(
            f"cannot read {path}: {e.message}",
            hint=f"its head says Content-Encoding: {coding}; the dump's body does not inflate within bounds",
        ) from None
    _json_body(path, text)
    return text, (data if text is not data else None)


def index_entries(directory: Path) -> list[dict[str, Any]]:
    """The entries of a dump's index.jsonl that name an exchange's files, each checked (a line
    that is not JSON, or names none, is skipped: a note, or a line cut short); [] when the dump
    has no index. UsageError naming the line and the field that is not as `--dump` writes it."""
    entries: list[dict[str, Any]] = []
    index = directory / "index.jsonl"
    text = _read(index).decode("utf-8", "replace")
    for number, line in enumerate(lines_of(text), 1):
        try:
            entry = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if isinstance(entry, dict) and entry.get("files") is not None:
            problem = entry_problem(entry)
            if problem:
                raise UsageError(f"cannot read {index}: line {number}: {problem}", hint=_BROKEN_HINT)
            entries.append(entry)
    return entries


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < float("inf")


# index.jsonl's fields that the readers use, each with what `--dump` writes there (null or absent
# is always fine but for `files`)
_FIELDS: tuple[tuple[str, str, Any], ...] = (
    ("seq", "a whole number", lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0),
    ("method", "a method name", lambda v: isinstance(v, str)),
    ("version", 'a version ("1.0" or "0.3")', lambda v: isinstance(v, str)),
    ("ms", "a number of milliseconds", _number),
    ("eventMs", "a list of milliseconds", lambda v: isinstance(v, list) and all(_number(t) for t in v)),
    ("stream", "true or false", lambda v: isinstance(v, bool)),
    ("error", "a message", lambda v: isinstance(v, str)),
    ("requestId", "a JSON-RPC id", lambda v: isinstance(v, (str, int, float)) and not isinstance(v, bool)),
)


def entry_problem(entry: dict[str, Any]) -> str | None:
    """What is wrong with an index.jsonl entry that names an exchange's files, None when nothing."""
    files = entry["files"]
    if not isinstance(files, str) or not re.fullmatch(r"[^/\\\x00]+", files) or files in (".", ".."):
        return f'"files" is {_shown(files)}, not the name of files in the dump\'s directory (e.g. "002-SendMessage")'
    for name, what, good in _FIELDS:
        value = entry.get(name)
        if value is not None and not good(value):
            return f'"{name}" is {_shown(value)}, not {what}'
    return None


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 60 else text[:57] + "..."


def _label(label: str) -> str:
    """The method an exchange's file name stands for: `message_send` is message/send (the file
    name spells the method as sent, `/` as `_`), a V1 name or `card` as it is."""
    from a2acli.wire.methods import V1_METHOD_NAMES

    v0 = label.replace("_", "/")
    return v0 if v0 in V1_METHOD_NAMES else label


def _version(http: Path) -> str | None:
    """The A2A version a request's head names (`A2A-Version`), for an exchange the index does not."""
    _, headers = _read_head(http)
    named = next((v for k, v in headers if k.lower() == "a2a-version"), None)
    return named if named in ("1.0", "0.3") else None


# said by diff, replay and mock alike: each reads dumps through load_dump
_DUMP_HINT = "a dump is a directory that --dump DIR wrote (`a2a diff` also takes a command after --)"
_BROKEN_HINT = "the dump is not as --dump DIR wrote it: record it again, or mend or remove that file"


def load_dump(directory: str | Path) -> Dump:
    """Read a dump directory written by `--dump DIR`. UsageError when it is not one, or when a
    file of it is not as `--dump` writes it (naming the file, and the field of index.jsonl)."""
    d = Path(directory)
    if not d.exists():
        raise UsageError(f"no such dump directory: {d}", hint=_DUMP_HINT)
    if not d.is_dir():
        raise UsageError(f"{d} is not a directory", hint=_DUMP_HINT)
    entries = _entries(d)
    events: dict[str, list[str]] = {}  # stem -> its event files' names, listed once
    for p in d.glob("*.event-*.json"):
        events.setdefault(p.name.rsplit(".event-", 1)[0], []).append(p.name)
    exchanges = [
        _exchange(d, e, sorted(events.get(e["files"], ())))
        for e in sorted(entries, key=lambda e: (e.get("seq") or 0, e["files"]))
    ]
    return Dump(str(d), tuple(exchanges))


def _entries(d: Path) -> list[dict[str, Any]]:
    """The index's entries, then one for each exchange the index never heard of."""
    entries = index_entries(d)
    seen = {e["files"] for e in entries}
    for http in sorted(d.glob("*.request.http")):
        stem = http.name[: -len(".request.http")]
        if stem not in seen:
            num, _, label = stem.partition("-")
            entries.append(
                {
                    "files": stem,
                    "seq": int(num) if num.isdigit() else 0,
                    "method": _label(label),
                    "version": _version(http),
                }
            )
    if not entries:
        raise UsageError(
            f"{d} is not a dump (no index.jsonl, no *.request.http)",
            hint="write one with --dump DIR on any method command",
        )
    return entries


def _exchange(d: Path, e: dict[str, Any], event_files: list[str]) -> DumpedExchange:
    stem = e["files"]
    request_line, request_headers = _read_head(d / f"{stem}.request.http")
    status_line, response_headers = _read_head(d / f"{stem}.response.http")
    events = tuple(
        _json_body(d / name, _read(d / name).decode("utf-8", "replace").rstrip("\n")) for name in event_files
    )
    body, wire = response_body(d / f"{stem}.response.body", response_headers)
    request_body = d / f"{stem}.request.body"
    answered = status_line is not None or e.get("status") is not None  # the index saw an answer
    expected = ["request.http", "request.body", *(["response.http", "response.body"] if answered else [])]
    missing = tuple(f"{stem}.{name}" for name in expected if _file(d / f"{stem}.{name}") is None)
    return DumpedExchange(
        seq=int(e.get("seq") or 0),
        stem=stem,
        label=str(e.get("method") or stem.partition("-")[2]),
        version=e.get("version"),
        request_line=request_line or "",
        request_headers=request_headers,
        request_body=_json_body(request_body, _read(request_body)),
        status_line=status_line,
        response_headers=response_headers,
        response_body=body,
        events=events,
        stream=bool(e.get("stream")) or bool(events),
        error=e.get("error"),
        request_id=e.get("requestId"),
        response_wire=wire,
        missing=missing,
        ms=float(e.get("ms") or 0),
        event_ms=tuple(float(t) for t in e.get("eventMs") or ()),
        response_pb=_read(d / f"{stem}.response.pb.b64"),
    )
