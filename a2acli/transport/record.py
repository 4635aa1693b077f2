"""Taps: `--dump DIR` (every exchange byte for byte), `--debug` (stderr), X-Request-ID.

Credentials are redacted everywhere: credential headers by name, and every known secret value
(API key, bearer token, push-config token and credentials) wherever it appears, bodies included.
Bodies are otherwise untouched: a dump is the bytes that crossed the wire, not a re-serialization."""

from __future__ import annotations

import base64
import json
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from a2acli.transport.exchange import Exchange, NullTap

REDACTED = "<redacted>"
SECRET_HEADERS = frozenset(
    {
        "authorization",
        "proxy-authorization",
        "cookie",
        "set-cookie",
        "x-api-key",
        "x-a2a-notification-token",
        "x-a2a-token",
        "api-key",
    }
)
# Any other header whose name says it carries a secret (X-Auth-Token, X-Session-Id, ...).
# Idempotency-Key is not a credential and stays visible (it is what a retry is checked by).
_SECRET_HEADER = re.compile(r"(^|[-_])(auth|authorization|token|secret|password|passwd|api[-_]?key|apikey|session|cookie|credentials?)($|[-_])", re.I)
# JSON keys whose string values are secrets wherever they appear in a body: the webhook `token`
# and `authentication.credentials` of push configs (requests, answers, send configurations).
SECRET_KEYS = frozenset({"token", "credentials"})
MIN_SECRET = 3  # shorter values would redact half the document


class Redactor:
    """Knows the secrets of one invocation and hides them: credential headers by name, secret
    values wherever they occur (as written and as JSON-escaped), learning new ones from the
    secret-named headers and the `token`/`credentials` keys of the bodies it is shown."""

    def __init__(self, secrets: set[str] | None = None, header_names: set[str] | None = None) -> None:
        self.secrets: set[str] = set()
        self.header_names = SECRET_HEADERS | {h.lower() for h in (header_names or set())}
        self._query_names: set[str] = set()
        self._query: re.Pattern[str] | None = None  # `name=value` of those query parameters
        self.add(*(secrets or ()))

    def add(self, *secrets: str | None, header: str | None = None, query: str | None = None) -> None:
        """Secret values (redacted wherever they occur), a secret header name, or the name of a
        query parameter that carries a secret (its value is redacted in every URL, however short
        or percent-encoded it is)."""
        for s in secrets:
            if isinstance(s, str) and len(s) >= MIN_SECRET:
                self.secrets.add(s)
                for escaped in (json.dumps(s)[1:-1], json.dumps(s, ensure_ascii=False)[1:-1]):
                    if escaped != s:
                        self.secrets.add(escaped)
        if header:
            self.header_names = self.header_names | {header.lower()}
        if query:
            from urllib.parse import quote_plus

            self._query_names |= {query, quote_plus(query)}
            alternatives = "|".join(re.escape(n) for n in sorted(self._query_names))
            self._query = re.compile(rf"([?&](?:{alternatives})=)[^&#\s]*")

    def is_secret_header(self, name: str) -> bool:
        name = name.lower()
        return name in self.header_names or (name != "www-authenticate" and bool(_SECRET_HEADER.search(name)))

    def learn(self, doc: Any) -> None:
        """Register the secret values of a JSON value (push-config token and credentials)."""
        if isinstance(doc, dict):
            for k, v in doc.items():
                if k in SECRET_KEYS and isinstance(v, str):
                    self.add(v)
                else:
                    self.learn(v)
        elif isinstance(doc, list):
            for v in doc:
                self.learn(v)

    def learn_bytes(self, data: bytes | str) -> None:
        if not data:
            return
        try:
            self.learn(json.loads(data))
        except (ValueError, UnicodeDecodeError):
            pass

    def text(self, text: str) -> str:
        if self._query is not None:
            text = self._query.sub(lambda m: m.group(1) + REDACTED, text)
        for s in sorted(self.secrets, key=len, reverse=True):
            text = text.replace(s, REDACTED)
        return text

    def bytes(self, data: bytes) -> bytes:
        for s in sorted(self.secrets, key=len, reverse=True):
            data = data.replace(s.encode(), REDACTED.encode())
        return data

    def headers(self, headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
        out = []
        for k, v in headers:
            if self.is_secret_header(k):
                self.add(v, *v.split(None, 1)[1:])  # the whole value and the token after "Bearer "
                out.append((k, REDACTED))
            else:
                out.append((k, self.text(v)))
        return out


def http_head(first: str, headers: list[tuple[str, str]]) -> bytes:
    """An HTTP head as bytes: header bytes were decoded as latin-1, so this gives them back."""
    return (first + "\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers) + "\r\n").encode("latin-1", "replace")


def _safe(label: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in label)


class DumpTap(NullTap):
    """Writes DIR/NNN-<method>.{request,response}.{http,body}, one .event-NNNN.json per SSE event,
    and DIR/index.jsonl, each file as soon as its bytes are known, so a failed, timed-out or
    interrupted call still leaves a complete, readable dump of what happened."""

    def __init__(self, directory: str, redactor: Redactor, *, version: str | None, offset: int | None = None) -> None:
        self.dir = Path(directory)
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            from a2acli.errors import UsageError

            raise UsageError(f"cannot create the dump directory {directory}: {e.strerror}", hint="choose another --dump DIR") from None
        if not self.dir.is_dir():
            from a2acli.errors import UsageError

            raise UsageError(f"--dump {directory} is not a directory", hint="choose another --dump DIR")
        self.redactor = redactor
        self.version = version
        # Continue numbering when the directory already holds a dump (several calls, one dump).
        self.offset = offset if offset is not None else len(list(self.dir.glob("*.request.http")))
        self._bodies: dict[int, Any] = {}
        self._open: dict[int, Exchange] = {}  # started, not yet in index.jsonl
        self._known: dict[int, int] = {}  # secrets known when a stream's body file was opened
        self.choice: str | None = None  # how --a2a-version auto chose the version
        self.sent_call = False  # an exchange other than the card's was started
        self.shapes: list[str] = []  # answers not shaped as the version asked for (session.Call)

    def version_chosen(self, version: str, line: str) -> None:
        """--a2a-version auto chose `version` (None until then: the card was read under no version)."""
        self.version, self.choice = version, line

    def _note(self, entry: dict[str, Any]) -> None:
        """A line of index.jsonl that is no exchange (no `files`: `a2a diff` pairs exchanges only)."""
        with open(self.dir / "index.jsonl", "a", encoding="utf-8") as idx:
            idx.write(json.dumps(entry) + "\n")

    def refused(self, message: str, hint: str | None = None) -> None:
        """The run ended in an error before its call was sent (no interface for the version, a
        usage error after the card was read): why, in the index."""
        if not self.sent_call:
            self._note({"seq": None, "method": None, "version": self.version, "refused": self.redactor.text(message), "hint": hint, "error": self.redactor.text(message)})

    def shape(self, seq: int | None, method: str, text: str) -> None:
        """An answer not shaped as the version asked for (wire.shapes.answer_shape)."""
        self.shapes.append(text)
        self._note({"seq": None if seq is None else seq + self.offset, "method": method, "version": self.version, "shape": text})

    def _stem(self, ex: Exchange) -> Path:
        return self.dir / f"{ex.seq + self.offset:03d}-{_safe(ex.label)}"

    def on_request(self, ex: Exchange) -> None:
        stem = self._stem(ex)
        self._open[ex.seq] = ex
        self.sent_call = self.sent_call or ex.label != "card"
        self.redactor.learn_bytes(ex.request_body)
        headers = self.redactor.headers(ex.request_headers)
        Path(f"{stem}.request.http").write_bytes(http_head(self.redactor.text(f"{ex.http_method} {ex.target} {ex.request_version}"), headers))
        Path(f"{stem}.request.body").write_bytes(self.redactor.bytes(ex.request_body))

    def on_response(self, ex: Exchange) -> None:
        stem = self._stem(ex)
        Path(f"{stem}.response.http").write_bytes(http_head(f"{ex.http_version} {ex.status} {ex.reason}", self.redactor.headers(ex.response_headers)))
        self._bodies[ex.seq] = open(f"{stem}.response.body", "wb")  # noqa: SIM115 - closed in on_complete
        self._known[ex.seq] = len(self.redactor.secrets)

    def on_chunk(self, ex: Exchange, chunk: bytes) -> None:
        f = self._bodies.get(ex.seq)
        if f is not None:
            f.write(self.redactor.bytes(chunk))
            f.flush()

    def on_event(self, ex: Exchange, index: int, event: str, data: str) -> None:
        if ex.streaming:
            self.redactor.learn_bytes(data)
            Path(f"{self._stem(ex)}.event-{index + 1:04d}.json").write_text(self.redactor.text(data) + "\n")

    def on_complete(self, ex: Exchange) -> None:
        if self._open.pop(ex.seq, None) is None:
            return  # already written (close() got there first)
        f = self._bodies.pop(ex.seq, None)
        if f is not None:
            if not ex.streaming:
                self.redactor.learn_bytes(ex.response_body)
                f.write(self.redactor.bytes(ex.response_body))
            f.close()
            if ex.streaming and len(self.redactor.secrets) > self._known.pop(ex.seq, 0):
                # a secret first seen in a later event: redact the chunks already written
                path = Path(f.name)
                path.write_bytes(self.redactor.bytes(path.read_bytes()))
        error = ex.error
        if error is None:
            exc = sys.exc_info()[1]  # on_complete runs in the transport's `finally`
            if isinstance(exc, KeyboardInterrupt):
                error = "interrupted (Ctrl-C)"
            elif exc is not None and not isinstance(exc, GeneratorExit):
                error = f"{type(exc).__name__}: {exc}"
        for role, data in ex.protobuf.items():  # gRPC: each message's bytes too, as base64
            Path(f"{self._stem(ex)}.{role}.pb.b64").write_bytes(self.redactor.bytes(base64.b64encode(data)) + b"\n")
        entry = {
            "seq": ex.seq + self.offset,
            "method": ex.label,
            "version": self.version,
            "http": ex.http_method,
            "url": self.redactor.text(ex.url),
            "status": ex.status,
            "contentType": ex.content_type or None,
            # a compressed answer is written decompressed (the bytes the JSON came from)
            "contentEncoding": ex.header("content-encoding"),
            "ms": round((ex.elapsed or 0) * 1000, 1),
            "startedAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ex.started)),
            "requestId": ex.request_id,
            "stream": ex.streaming,
            "events": ex.events,
            "error": self.redactor.text(error) if error else None,
            "files": self._stem(ex).name,
        }
        if self.choice and ex.label != "card":
            entry["versionChoice"] = self.choice
        with open(self.dir / "index.jsonl", "a", encoding="utf-8") as idx:
            idx.write(json.dumps(entry) + "\n")

    def close(self) -> None:
        """Finish every exchange still open (a stream abandoned mid-way): the index gets its line."""
        for ex in list(self._open.values()):
            if ex.error is None:
                ex.error = "not finished: the call ended before the answer was complete"
            self.on_complete(ex)


class DebugTap(NullTap):
    """Each request and response on stderr as it happens; SSE events as they arrive."""

    def __init__(self, write: Callable[[str], None], redactor: Redactor) -> None:
        self.write = write
        self.redactor = redactor

    def on_request(self, ex: Exchange) -> None:
        self.redactor.learn_bytes(ex.request_body)
        lines = [self.redactor.text(f"> {ex.http_method} {ex.url}")] + [f"> {k}: {v}" for k, v in self.redactor.headers(ex.request_headers)]
        if ex.request_body:
            lines.append(">")
            lines.append(self.redactor.bytes(ex.request_body).decode("utf-8", "replace"))
        self.write("\n".join(lines))

    def on_response(self, ex: Exchange) -> None:
        lines = [f"< HTTP {ex.status} {ex.reason}"] + [f"< {k}: {v}" for k, v in self.redactor.headers(ex.response_headers)]
        self.write("\n".join(lines))

    def on_event(self, ex: Exchange, index: int, event: str, data: str) -> None:
        if ex.streaming:
            self.redactor.learn_bytes(data)
            self.write(f"< event {index + 1}" + (f" ({event})" if event != "message" else "") + f": {self.redactor.text(data)}")

    def on_complete(self, ex: Exchange) -> None:
        if not ex.streaming and ex.response_body:
            self.redactor.learn_bytes(ex.response_body)
            self.write("<\n" + self.redactor.bytes(ex.response_body).decode("utf-8", "replace"))
        took = f"{(ex.elapsed or 0) * 1000:.0f} ms"
        self.write(f"* {ex.label}: {ex.status or '-'} in {took}" + (f", {ex.events} event(s)" if ex.streaming else "") + (f", {self.redactor.text(ex.error)}" if ex.error else ""))


class RequestIdTap(NullTap):
    """Shows the X-Request-ID of every answer on stderr: what the operator needs to find the call."""

    def __init__(self, write: Callable[[str], None]) -> None:
        self.write = write

    def on_response(self, ex: Exchange) -> None:
        if ex.request_id:
            self.write(f"X-Request-ID: {ex.request_id} ({ex.label})")
