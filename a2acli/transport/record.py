"""Taps: `--dump DIR` (every exchange byte for byte), `--debug` (stderr), X-Request-ID.

Credentials are redacted everywhere: credential headers by name, and every known secret value
(API key, bearer token, push-config token and credentials) wherever it appears, bodies included.
Bodies are otherwise untouched: a dump is the bytes that crossed the wire, not a re-serialization."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Callable

from a2acli.transport.exchange import Exchange, NullTap

REDACTED = "<redacted>"
SECRET_HEADERS = frozenset({
    "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key",
    "x-a2a-notification-token", "x-a2a-token", "api-key",
})


class Redactor:
    def __init__(self, secrets: set[str] | None = None, header_names: set[str] | None = None) -> None:
        self.secrets = {s for s in (secrets or set()) if s and len(s) >= 3}
        self.header_names = SECRET_HEADERS | {h.lower() for h in (header_names or set())}

    def add(self, *secrets: str | None, header: str | None = None) -> None:
        self.secrets |= {s for s in secrets if s and len(s) >= 3}
        if header:
            self.header_names = self.header_names | {header.lower()}

    def text(self, text: str) -> str:
        for s in sorted(self.secrets, key=len, reverse=True):
            text = text.replace(s, REDACTED)
        return text

    def bytes(self, data: bytes) -> bytes:
        for s in sorted(self.secrets, key=len, reverse=True):
            data = data.replace(s.encode(), REDACTED.encode())
        return data

    def headers(self, headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
        return [(k, REDACTED if k.lower() in self.header_names else self.text(v)) for k, v in headers]


def _head_lines(first: str, headers: list[tuple[str, str]]) -> str:
    return first + "\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers) + "\r\n"


def _safe(label: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in label)


class DumpTap(NullTap):
    """Writes DIR/NNN-<method>.{request,response}.{http,body}, one .event-NNNN.json per SSE event,
    and DIR/index.jsonl, each file as soon as its bytes are known, so a failed, timed-out or
    interrupted call still leaves a complete, readable dump of what happened."""

    def __init__(self, directory: str, redactor: Redactor, *, version: str, offset: int | None = None) -> None:
        self.dir = Path(directory)
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            from a2acli.errors import UsageError

            raise UsageError(f"cannot create the dump directory {directory}: {e.strerror}", hint="choose another --dump DIR") from None
        self.redactor = redactor
        self.version = version
        # Continue numbering when the directory already holds a dump (several calls, one dump).
        self.offset = offset if offset is not None else len(list(self.dir.glob("*.request.http")))
        self._bodies: dict[int, Any] = {}

    def _stem(self, ex: Exchange) -> Path:
        return self.dir / f"{ex.seq + self.offset:03d}-{_safe(ex.label)}"

    def on_request(self, ex: Exchange) -> None:
        stem = self._stem(ex)
        Path(f"{stem}.request.http").write_text(_head_lines(f"{ex.http_method} {ex.url} HTTP/1.1", self.redactor.headers(ex.request_headers)))
        Path(f"{stem}.request.body").write_bytes(self.redactor.bytes(ex.request_body))

    def on_response(self, ex: Exchange) -> None:
        stem = self._stem(ex)
        Path(f"{stem}.response.http").write_text(_head_lines(f"HTTP/1.1 {ex.status} {ex.reason}", self.redactor.headers(ex.response_headers)))
        self._bodies[ex.seq] = open(f"{stem}.response.body", "wb")  # noqa: SIM115 - closed in on_complete

    def on_chunk(self, ex: Exchange, chunk: bytes) -> None:
        f = self._bodies.get(ex.seq)
        if f is not None:
            f.write(self.redactor.bytes(chunk))
            f.flush()

    def on_event(self, ex: Exchange, index: int, event: str, data: str) -> None:
        if ex.streaming:
            Path(f"{self._stem(ex)}.event-{index + 1:04d}.json").write_text(self.redactor.text(data) + "\n")

    def on_complete(self, ex: Exchange) -> None:
        f = self._bodies.pop(ex.seq, None)
        if f is not None:
            if not ex.streaming:
                f.write(self.redactor.bytes(ex.response_body))
            f.close()
        entry = {
            "seq": ex.seq + self.offset,
            "method": ex.label,
            "version": self.version,
            "http": ex.http_method,
            "url": self.redactor.text(ex.url),
            "status": ex.status,
            "contentType": ex.content_type or None,
            "ms": round((ex.elapsed or 0) * 1000, 1),
            "startedAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ex.started)),
            "requestId": ex.request_id,
            "stream": ex.streaming,
            "events": ex.events,
            "error": self.redactor.text(ex.error) if ex.error else None,
            "files": self._stem(ex).name,
        }
        with open(self.dir / "index.jsonl", "a", encoding="utf-8") as idx:
            idx.write(json.dumps(entry) + "\n")


class DebugTap(NullTap):
    """Each request and response on stderr as it happens; SSE events as they arrive."""

    def __init__(self, write: Callable[[str], None], redactor: Redactor) -> None:
        self.write = write
        self.redactor = redactor

    def on_request(self, ex: Exchange) -> None:
        lines = [f"> {ex.http_method} {ex.url}"] + [f"> {k}: {v}" for k, v in self.redactor.headers(ex.request_headers)]
        if ex.request_body:
            lines.append(">")
            lines.append(self.redactor.bytes(ex.request_body).decode("utf-8", "replace"))
        self.write("\n".join(lines))

    def on_response(self, ex: Exchange) -> None:
        lines = [f"< HTTP {ex.status} {ex.reason}"] + [f"< {k}: {v}" for k, v in self.redactor.headers(ex.response_headers)]
        self.write("\n".join(lines))

    def on_event(self, ex: Exchange, index: int, event: str, data: str) -> None:
        if ex.streaming:
            self.write(f"< event {index + 1}" + (f" ({event})" if event != "message" else "") + f": {self.redactor.text(data)}")

    def on_complete(self, ex: Exchange) -> None:
        if not ex.streaming and ex.response_body:
            self.write("<\n" + self.redactor.bytes(ex.response_body).decode("utf-8", "replace"))
        took = f"{(ex.elapsed or 0) * 1000:.0f} ms"
        self.write(f"* {ex.label}: {ex.status or '-'} in {took}" + (f", {ex.events} event(s)" if ex.streaming else "") + (f", {ex.error}" if ex.error else ""))


class RequestIdTap(NullTap):
    """Shows the X-Request-ID of every answer on stderr: what the operator needs to find the call."""

    def __init__(self, write: Callable[[str], None]) -> None:
        self.write = write

    def on_response(self, ex: Exchange) -> None:
        if ex.request_id:
            self.write(f"X-Request-ID: {ex.request_id} ({ex.label})")

