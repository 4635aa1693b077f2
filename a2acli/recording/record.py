"""The `--dump DIR` tap (every exchange byte for byte) and the dump directory's private files.
(`--debug` and X-Request-ID, on every call, are transport.taps.)

Credentials are redacted everywhere: credential headers by name, and every known secret value
(API key, bearer token, push-config token and credentials) wherever it appears, bodies included.
Bodies are otherwise untouched: a dump is the bytes that crossed the wire, not a re-serialization,
still gzip (or deflate) when the answer came so (its head says Content-Encoding: gzip); an encoded
body whose text holds a secret is inflated, redacted and encoded again (`recoded` in the index)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from a2acli.errors import A2acliError

# The redaction itself lives in a2acli.redact (every output path uses it); re-exported here.
from a2acli.redact import REDACTED, SECRET_HEADERS, SECRET_KEYS, Redactor, StreamRedactor  # noqa: F401
from a2acli.transport.exchange import Exchange, NullTap
from a2acli.transport.limits import content_codings, decoded, encoded, is_encoded

PRIVATE_FILE = 0o600  # dump files and directories: the owner's only (they hold what crossed the wire)
PRIVATE_DIR = 0o700


def write_private(path: str | Path, data: bytes) -> None:
    """Write `data` to a file readable by its owner only (0600, whatever the umask)."""
    with open_private(path, "wb") as f:
        f.write(data)


def open_private(path: str | Path, mode: str = "wb") -> Any:
    import os

    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if "a" in mode else os.O_TRUNC)
    fd = os.open(path, flags, PRIVATE_FILE)
    try:
        os.fchmod(fd, PRIVATE_FILE)  # an older file of the same name (a dump continued) too
    except (AttributeError, OSError):  # pragma: no cover - not on Windows
        pass
    return os.fdopen(fd, mode) if "b" in mode else os.fdopen(fd, mode, encoding="utf-8")


def make_private_dir(path: Path) -> None:
    """Create `path` (and its missing parents) 0700; an existing directory is left as it is."""
    import os

    if path.is_dir():
        return
    path.mkdir(parents=True, mode=PRIVATE_DIR, exist_ok=True)
    os.chmod(path, PRIVATE_DIR)  # mkdir's mode goes through the umask


def http_head(first: str, headers: list[tuple[str, str]]) -> bytes:
    """An HTTP head as bytes: header bytes were decoded as latin-1, so this gives them back."""
    return (first + "\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers) + "\r\n").encode("latin-1", "replace")


LOOK_UPS = ("card", "catalog")  # exchanges that find the agent, before any call is sent


def _safe(label: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in label)


class DumpTap(NullTap):
    """Writes DIR/NNN-<method>.{request,response}.{http,body}, one .event-NNNN.json per SSE event,
    and DIR/index.jsonl, each file as soon as its bytes are known, so a failed, timed-out or
    interrupted call still leaves a complete, readable dump of what happened."""

    def __init__(
        self,
        directory: str,
        redactor: Redactor,
        *,
        version: str | None,
        offset: int | None = None,
        append: bool = False,
    ) -> None:
        self.dir = Path(directory)
        if offset is None:
            refuse_held_dump(directory, append)
        try:
            make_private_dir(self.dir)
        except OSError as e:
            from a2acli.errors import UsageError

            raise UsageError(
                f"cannot create the dump directory {directory}: {e.strerror}", hint="choose another --dump DIR"
            ) from None
        if not self.dir.is_dir():
            from a2acli.errors import UsageError

            raise UsageError(f"--dump {directory} is not a directory", hint="choose another --dump DIR")
        self.redactor = redactor
        self.version = version
        # Continue numbering when the directory already holds a dump (--dump-append: several calls, one dump).
        self.offset = offset if offset is not None else len(list(self.dir.glob("*.request.http")))
        self.written = 0  # exchanges of this run in the index
        self._said = False
        self._bodies: dict[int, Any] = {}
        self._open: dict[int, Exchange] = {}  # started, not yet in index.jsonl
        self._known: dict[int, int] = {}  # secrets known when a stream's body file was opened
        self._streams: dict[int, StreamRedactor] = {}  # a secret split across chunks is still found
        self._heads: set[int] = set()  # exchanges whose response head is written
        self._event_ms: dict[
            int, list[float]
        ] = {}  # when each SSE event came, ms after the request (a2a mock replays it)
        self.choice: str | None = None  # how --a2a-version auto chose the version
        self.sent_call = False  # an exchange other than the card's was started
        self.shapes: list[str] = []  # answers not shaped as the version asked for (session.Call)

    def version_chosen(self, version: str, line: str) -> None:
        """--a2a-version auto chose `version` (None until then: the card was read under no version)."""
        self.version, self.choice = version, line

    def _note(self, entry: dict[str, Any]) -> None:
        """A line of index.jsonl that is no exchange (no `files`: `a2a diff` pairs exchanges only)."""
        with open_private(self.dir / "index.jsonl", "a") as idx:
            idx.write(json.dumps(entry) + "\n")

    def refused(self, message: str, hint: str | None = None) -> None:
        """The run ended in an error before its call was sent (no interface for the version, a
        usage error after the card was read): why, in the index."""
        if not self.sent_call:
            self._note(
                {
                    "seq": None,
                    "method": None,
                    "version": self.version,
                    "refused": self.redactor.text(message),
                    "hint": hint,
                    "error": self.redactor.text(message),
                }
            )

    def shape(self, seq: int | None, method: str, text: str) -> None:
        """An answer not shaped as the version asked for (wire.shapes.answer_shape)."""
        self.shapes.append(text)
        self._note(
            {
                "seq": None if seq is None else seq + self.offset,
                "method": method,
                "version": self.version,
                "shape": text,
            }
        )

    def _stem(self, ex: Exchange) -> Path:
        return self.dir / f"{ex.seq + self.offset:03d}-{_safe(ex.label)}"

    def on_request(self, ex: Exchange) -> None:
        stem = self._stem(ex)
        self._open[ex.seq] = ex
        self.sent_call = self.sent_call or ex.label not in LOOK_UPS
        self.redactor.learn_bytes(ex.request_body)
        headers = self.redactor.headers(ex.request_headers)
        write_private(
            f"{stem}.request.http",
            http_head(self.redactor.text(f"{ex.http_method} {ex.target} {ex.request_version}"), headers),
        )
        write_private(f"{stem}.request.body", self.redactor.bytes(ex.request_body))

    def on_response(self, ex: Exchange) -> None:
        stem = self._stem(ex)
        write_private(
            f"{stem}.response.http",
            http_head(f"{ex.http_version} {ex.status} {ex.reason}", self.redactor.headers(ex.response_headers)),
        )
        self._heads.add(ex.seq)
        self._bodies[ex.seq] = open_private(f"{stem}.response.body", "wb")
        self._known[ex.seq] = len(self.redactor.secrets)
        if not content_codings(ex.header("content-encoding")):
            # (an encoded body is written as it came and redacted whole at the end: _recode)
            self._streams[ex.seq] = StreamRedactor(self.redactor)

    def on_chunk(self, ex: Exchange, chunk: bytes) -> None:
        f = self._bodies.get(ex.seq)
        if f is not None:
            redacting = self._streams.get(ex.seq)
            f.write(chunk if redacting is None else redacting.feed(chunk))
            f.flush()

    def on_event(self, ex: Exchange, index: int, event: str, data: str) -> None:
        if ex.streaming:
            self._event_ms.setdefault(ex.seq, []).append(round((time.time() - ex.started) * 1000, 1))
            self.redactor.learn_bytes(data)
            write_private(
                f"{self._stem(ex)}.event-{index + 1:04d}.json",
                (self.redactor.text(data) + "\n").encode("utf-8", "surrogateescape"),
            )

    def on_complete(self, ex: Exchange) -> None:
        if self._open.pop(ex.seq, None) is None:
            return  # already written (close() got there first)
        if ex.status is not None and ex.seq not in self._heads:  # interrupted before on_response reached us
            self.on_response(ex)
        self._heads.discard(ex.seq)
        recoded = self._finish_body(ex)
        error = ex.error
        if error is None:
            exc = sys.exc_info()[1]  # on_complete runs in the transport's `finally`
            if isinstance(exc, KeyboardInterrupt):
                error = "interrupted (Ctrl-C)"
            elif exc is not None and not isinstance(exc, GeneratorExit):
                error = f"{type(exc).__name__}: {exc}"
        import base64

        for role, data in ex.protobuf.items():  # gRPC: each message's bytes too, as base64
            # secrets masked in the bytes (same length: the message still parses), then encoded
            write_private(
                f"{self._stem(ex)}.{role}.pb.b64",
                self.redactor.bytes(base64.b64encode(self.redactor.mask(data))) + b"\n",
            )
        entry = {
            "seq": ex.seq + self.offset,
            "method": ex.label,
            "version": self.version,
            "http": ex.http_method,
            "url": self.redactor.text(ex.url),
            "status": ex.status,
            "contentType": ex.content_type or None,
            # an encoded answer is written as it came (readers inflate it: limits.decoded); `recoded`:
            # its text held a secret, so it was inflated, redacted and encoded again
            "contentEncoding": ex.header("content-encoding"),
            "ms": round((ex.elapsed or 0) * 1000, 1),
            "startedAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ex.started)),
            "requestId": ex.request_id,
            "stream": ex.streaming,
            "events": ex.events,
            "eventMs": self._event_ms.pop(ex.seq, []) if ex.streaming else None,
            "error": self.redactor.text(error) if error else None,
            "files": self._stem(ex).name,
        }
        if recoded:
            entry["recoded"] = True
        if ex.cache:  # not from the wire: the card cache's (transport.card_cache)
            entry["cache"], entry["age"] = ex.cache, int(ex.header("age") or 0)
        if self.choice and ex.label not in LOOK_UPS:
            entry["versionChoice"] = self.choice
        # last: the index names only files already written (a Ctrl-C before here leaves them unlisted)
        with open_private(self.dir / "index.jsonl", "a") as idx:
            idx.write(json.dumps(entry) + "\n")
        self.written += 1

    def on_cached(self, ex: Exchange, age: int) -> None:
        """A card the card cache gave: recorded as the exchange it stands for, its index line
        saying so (`cache`: hit or revalidated, and its `age`), so the dump holds the card used."""
        self.on_request(ex)
        self.on_response(ex)
        self.on_complete(ex)

    def _finish_body(self, ex: Exchange) -> bool:
        """The answer's body file completed and closed: a whole answer as it crossed the wire (an
        identity one redacted), a stream's tail; True when an encoded body was re-encoded (_recode)."""
        f = self._bodies.pop(ex.seq, None)
        pending = self._streams.pop(ex.seq, None)
        recoded = False
        if f is not None:
            if pending is not None:
                f.write(pending.flush())
            if not ex.streaming or (not ex.events and ex.response_body and not f.tell()):
                # a whole answer; or a stream that failed before its first event (a gRPC status, an
                # error body read whole): what it said is its body, as it crossed the wire
                self.redactor.learn_bytes(ex.response_body)
                if ex.response_wire is None:
                    f.write(self.redactor.bytes(ex.response_body))
                else:
                    f.write(ex.response_wire)
            f.close()
            path = Path(f"{self._stem(ex)}.response.body")
            if pending is None:
                recoded = self._recode(path, ex)
            elif ex.streaming and len(self.redactor.secrets) > self._known.get(ex.seq, 0):
                # a secret first seen in a later event: redact the chunks already written
                write_private(path, self.redactor.bytes(path.read_bytes()))
            self._known.pop(ex.seq, None)
        return recoded

    def _recode(self, path: Path, ex: Exchange) -> bool:
        """An encoded body (gzip, deflate) is written as it crossed the wire; when its text holds a
        secret, it is inflated, redacted and encoded again (True). A body that does not inflate (a
        bomb stopped at its cap, a broken coding) stays as it came."""
        coding = ex.header("content-encoding")
        data = path.read_bytes()
        if not is_encoded(data, coding):
            if data:  # (decoded already, though its head names a coding: a mock's answer read whole)
                self.redactor.learn_bytes(data)
                if (redacted := self.redactor.bytes(data)) != data:
                    write_private(path, redacted)
            return False
        if not self.redactor.secrets:  # (nothing to find: a long stream is not inflated again)
            return False
        try:
            text = decoded(data, coding)
        except A2acliError:
            return False
        self.redactor.learn_bytes(text)
        redacted = self.redactor.bytes(text)
        if redacted == text:
            return False
        write_private(path, encoded(redacted, coding))
        return True

    def summary(self) -> str | None:
        """Where this run's exchanges went and what to do with them, for stderr; None when none was."""
        if not self.written or self._said:
            return None
        self._said = True
        return dump_summary(self.dir, self.written)

    def close(self) -> None:
        """Finish every exchange still open (a stream abandoned mid-way): the index gets its line."""
        for ex in list(self._open.values()):
            if ex.error is None:
                ex.error = "not finished: the call ended before the answer was complete"
            self.on_complete(ex)


def held_exchanges(directory: str | Path) -> int:
    """How many exchanges a dump already in `directory` holds (0: none, or no such directory)."""
    directory = Path(directory)
    try:
        return len(list(directory.glob("*.request.http"))) if directory.is_dir() else 0
    except OSError:
        return 0


def refuse_held_dump(directory: str | Path, append: bool) -> None:
    """A UsageError when `directory` holds another run's dump and --dump-append was not given:
    `a2a diff` would take its exchanges for this run's."""
    held = held_exchanges(directory)
    if held and not append:
        from a2acli.errors import UsageError

        raise UsageError(
            f"--dump {directory} already holds a dump ({held} exchange(s)): this run's would be mixed with them",
            hint="give a new directory, remove that one, or add --dump-append (A2ACLI_DUMP_APPEND=1) to add this run to it",
        )


def dump_summary(directory: str | Path, written: int) -> str:
    """Where a run's exchanges went, and the command that compares them (for stderr)."""
    import shlex

    where = shlex.quote(str(directory))
    return f"dump: {written} exchange(s) written to {where}; compare it with another run's: a2a diff {where} OTHER_DUMP"
