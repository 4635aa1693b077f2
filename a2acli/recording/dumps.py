"""Dumps as `--dump DIR` wrote them, read back: each exchange's request and answer heads, bodies
and stream events (`load_dump`). What diff, replay, mock and playback read; no comparing here."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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


def _read_head(path: Path) -> tuple[str | None, tuple[tuple[str, str], ...]]:
    if not path.is_file():
        return None, ()
    lines = path.read_bytes().decode("latin-1").splitlines()  # HTTP heads: one byte, one character
    first = lines[0].strip() if lines else None
    headers = []
    for line in lines[1:]:
        if not line.strip():
            break
        name, _, value = line.partition(":")
        headers.append((name.strip(), value.strip()))
    return first, tuple(headers)


def _read(path: Path) -> bytes:
    return path.read_bytes() if path.is_file() else b""


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
        return data, None
    try:
        text = decoded(data, coding)
    except A2acliError as e:
        raise UsageError(
            f"cannot read {path}: {e.message}",
            hint=f"its head says Content-Encoding: {coding}; the dump's body does not inflate within bounds",
        ) from None
    return text, (data if text is not data else None)


def index_entries(directory: Path) -> list[dict[str, Any]]:
    """The entries of a dump's index.jsonl that name an exchange's files (a line that is not JSON,
    or names none, is skipped); [] when the dump has no index."""
    entries: list[dict[str, Any]] = []
    index = directory / "index.jsonl"
    if index.is_file():
        for line in index.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if isinstance(entry, dict) and isinstance(entry.get("files"), str):
                entries.append(entry)
    return entries


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


def load_dump(directory: str | Path) -> Dump:
    """Read a dump directory written by `--dump DIR`. UsageError when it is not one."""
    d = Path(directory)
    if not d.exists():
        raise UsageError(f"no such dump directory: {d}", hint=_DUMP_HINT)
    if not d.is_dir():
        raise UsageError(f"{d} is not a directory", hint=_DUMP_HINT)
    entries = index_entries(d)
    seen = {e["files"] for e in entries}
    for http in sorted(d.glob("*.request.http")):  # exchanges the index never heard of
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
    exchanges = []
    for e in sorted(entries, key=lambda e: (e.get("seq") or 0, e["files"])):
        stem = e["files"]
        request_line, request_headers = _read_head(d / f"{stem}.request.http")
        status_line, response_headers = _read_head(d / f"{stem}.response.http")
        events = tuple(
            p.read_text(encoding="utf-8", errors="replace").rstrip("\n") for p in sorted(d.glob(f"{stem}.event-*.json"))
        )
        body, wire = response_body(d / f"{stem}.response.body", response_headers)
        answered = status_line is not None or e.get("status") is not None  # the index saw an answer
        expected = ["request.http", "request.body", *(["response.http", "response.body"] if answered else [])]
        missing = tuple(f"{stem}.{name}" for name in expected if not (d / f"{stem}.{name}").is_file())
        exchanges.append(
            DumpedExchange(
                seq=int(e.get("seq") or 0),
                stem=stem,
                label=str(e.get("method") or stem.partition("-")[2]),
                version=e.get("version"),
                request_line=request_line or "",
                request_headers=request_headers,
                request_body=_read(d / f"{stem}.request.body"),
                status_line=status_line,
                response_headers=response_headers,
                response_body=body,
                events=events,
                stream=bool(e.get("stream")) or bool(events),
                error=e.get("error"),
                request_id=e.get("requestId"),
                response_wire=wire,
                missing=missing,
            )
        )
    return Dump(str(d), tuple(exchanges))
