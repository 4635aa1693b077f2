"""Caps on what is read from an agent: a card, a unary answer, one SSE event.

httpx inflates gzip a whole network chunk at a time (a 64 KB chunk of a gzip bomb is 64 MB), so
answers are read raw and inflated here, a bounded piece at a time, counting the bytes after
decompression and stopping at the cap: memory stays bounded whatever the agent sends."""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from a2acli.errors import BodyTooLargeError
from a2acli.settings.table import MAX_BODY_BYTES

if TYPE_CHECKING:
    import httpx

MIB = 1024 * 1024
DEFAULT_MAX_BODY = MAX_BODY_BYTES  # a unary answer, one SSE event, an input file (--max-body's default)
CARD_MAX = 4 * MIB  # an Agent Card (or --max-body, when lower)
JWKS_MAX = 1 * MIB  # a JWK Set (an Agent Card signature's jku): a few keys
CATALOG_MAX = 8 * MIB  # an agent catalog (a few thousand entries, or a few dozen inline cards)
OAUTH_MAX = 1 * MIB  # an OAuth2 endpoint's answer (a token, a device code, a discovery document): a few KB
# The public documents read besides the calls, by an exchange's label: (cap, what it is, the hint
# when the cap is its own, not a lower --max-body).
DOCUMENT_CAPS: dict[str, tuple[int, str, str]] = {
    "card": (CARD_MAX, "the Agent Card", "an Agent Card is a few KB: check --url"),
    "jwks": (JWKS_MAX, "the key set", "a JWK Set is a few keys: check the card's jku"),
    "catalog": (CATALOG_MAX, "the agent catalog", "an agent catalog is a list of agents: check --catalog"),
    **{
        label: (OAUTH_MAX, f"the answer of the OAuth2 {what}", f"an OAuth2 answer is a few KB: check the {what}'s URL")
        for label, what in (
            ("oauth-token", "token endpoint"),
            ("oauth-device", "device authorization endpoint"),
            ("oauth-discovery", "discovery document"),
        )
    },
}
ACCEPT_ENCODING = "gzip, deflate"  # only what is inflated here, whatever httpx could do
_PIECE = 64 * 1024  # the most one inflate step may produce
# A decompression bomb (issue 27): once BOMB_FLOOR bytes have been inflated, a body that has grown
# more than BOMB_RATIO times what came over the wire is stopped. gzip cannot do better than about
# 1030:1 (a bomb of zeros is near that, a flood of one repeated event 250-500:1); text and JSON
# compress 3-20:1, and an honest stream, flushed per event, far less. So a gzip flood of millions
# of events ends after some 40 KB read, while a long honest stream is never cut (the ratio is of
# the whole body so far, not of a piece).
BOMB_FLOOR = 4 * MIB
BOMB_RATIO = 100


def size_text(n: int) -> str:
    """`32 MiB`, `512 KiB`, `100 bytes`."""
    for unit, size in (("GiB", MIB * 1024), ("MiB", MIB), ("KiB", 1024)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} bytes"


def too_large(what: str, cap: int, *, hint: str | None = None) -> BodyTooLargeError:
    """`hint`: why the cap is what it is, when --max-body would not raise it (a card's own cap)."""
    return BodyTooLargeError(
        f"{what} is larger than the cap of {size_text(cap)}; stopped reading",
        hint=hint or "raise the cap with --max-body SIZE (e.g. --max-body 256M) if the agent is trusted",
    )


class _Inflater:
    """One content coding, inflated at most _PIECE bytes per step."""

    def __init__(self, coding: str, *, whole: bool = True) -> None:
        self.coding = coding
        self._whole = whole  # the body must hold the whole compressed stream (False: a dump's, kept as far as it came)
        self._z = zlib.decompressobj(zlib.MAX_WBITS | 16 if coding in ("gzip", "x-gzip") else zlib.MAX_WBITS)
        self._first = True
        self._fed = False  # whether any byte came: an empty body is no compressed stream to end

    def feed(self, data: bytes) -> Iterator[bytes]:
        if self._first and self.coding == "deflate" and data:
            self._first = False
            try:  # "deflate" is zlib-wrapped by the spec, raw deflate in practice too (as httpx)
                zlib.decompressobj().decompress(data[:2])
            except zlib.error:
                self._z = zlib.decompressobj(-zlib.MAX_WBITS)
        self._fed = self._fed or bool(data)
        while data:
            try:
                out = self._z.decompress(data, _PIECE)
            except zlib.error as e:
                from a2acli.errors import InvalidResponseError

                raise InvalidResponseError(
                    f"the answer's {self.coding} encoding is broken: {e}",
                    hint="the agent sent a corrupt compressed body",
                ) from None
            data = self._z.unconsumed_tail
            if out:
                yield out
            if self._z.eof:
                return

    def flush(self) -> Iterator[bytes]:
        """What is left, once the body has ended; a compressed stream that did not reach its own
        end (a gzip member's trailer, deflate's final block) was cut short: an error, never a
        shorter body taken for the whole (the body's length on the wire may well be consistent)."""
        out = self._z.flush(_PIECE)
        if out:
            yield out
        if self._whole and self._fed and not self._z.eof:
            from a2acli.errors import ConnectionBrokenError

            raise ConnectionBrokenError(
                f"the answer's {self.coding} stream ends before its end: the body was cut short",
                hint="the agent (or a proxy on the way) sent a truncated compressed body",
            )


class RawBody:
    """A response's body as it crosses the wire, one network read at a time (httpx's `iter_raw`),
    owned by its reader: close() ends httpx's reader with the response, on every path, so that
    none is left half-read for the interpreter's exit (where its finalizer fails). A body already
    read (httpx reads one given as bytes when the response is built, as mocks do) is its content,
    decoded already."""

    def __init__(self, resp: httpx.Response) -> None:
        self._reads: Iterator[bytes] | None = None
        self._content = b""
        # the content codings still to undo (limits.inflate): none once httpx has decoded the body
        self.coding: str | None = resp.headers.get("content-encoding")
        self._kept: list[bytes] | None = [] if content_codings(self.coding) else None
        if resp.is_stream_consumed and hasattr(resp, "_content"):
            try:  # a body given as bytes (a mock's) is still there as it was given, encoded
                self._content = b"".join(resp.stream) if self._kept is not None else resp.content  # type: ignore[arg-type]
            except (RuntimeError, TypeError):  # not to be read twice (httpx's StreamConsumed): decoded only
                self._content, self.coding, self._kept = resp.content, None, None
        else:
            self._reads = resp.iter_raw()

    def __iter__(self) -> Iterator[bytes]:
        reads = iter([self._content]) if self._reads is None else self._reads
        return reads if self._kept is None else self._keep(reads)

    def _keep(self, reads: Iterator[bytes]) -> Iterator[bytes]:
        kept = self._kept
        assert kept is not None
        for chunk in reads:
            kept.append(chunk)
            yield chunk

    def wire(self) -> bytes | None:
        """The body's bytes as they crossed the wire, so far, when a content coding is undone
        (None: no coding, the body as read is the wire's)."""
        return None if self._kept is None else b"".join(self._kept)

    def close(self) -> None:
        close = getattr(self._reads, "close", None)
        if close is not None:
            close()


def content_codings(content_encoding: str | None) -> list[str]:
    """The codings a Content-Encoding names, in the order they were applied (identity left out)."""
    return [
        c.strip().lower() for c in (content_encoding or "").split(",") if c.strip() and c.strip().lower() != "identity"
    ]


def inflate(
    raw: Iterable[bytes], content_encoding: str | None, *, bomb_guard: bool = False, whole: bool = True
) -> Iterator[bytes]:
    """The decoded body, piece by piece: each content coding (last applied first undone) inflates
    a bounded piece at a time. An unknown coding is refused (only gzip and deflate are asked for).
    `bomb_guard`: a body with no cap on the whole (a stream) is stopped when it expands more than
    BOMB_RATIO:1 (a capped answer ends at its cap anyway). A compressed stream that stops before
    its end is a body cut short (ConnectionBrokenError), unless `whole` is False (a dump's body,
    kept as far as it came)."""
    codings = content_codings(content_encoding)
    for c in codings:
        if c not in ("gzip", "x-gzip", "deflate"):
            from a2acli.errors import InvalidResponseError

            raise InvalidResponseError(
                f"the answer uses the content coding {c!r}, which was not asked for",
                hint=f"a2a asks for {ACCEPT_ENCODING} only",
            )
    if not codings:
        return iter(raw)
    if not bomb_guard:
        plain: Iterable[bytes] = raw
        for c in reversed(codings):
            plain = _through(_Inflater(c, whole=whole), plain)
        return iter(plain)
    counted = _Counted(raw)
    stream: Iterable[bytes] = counted
    for c in reversed(codings):
        stream = _through(_Inflater(c, whole=whole), stream)
    return _ratio_bounded(stream, counted, codings)


class _Counted:
    """The raw (compressed) chunks, counted as they pass."""

    def __init__(self, raw: Iterable[bytes]) -> None:
        self._raw = raw
        self.total = 0

    def __iter__(self) -> Iterator[bytes]:
        for chunk in self._raw:
            self.total += len(chunk)
            yield chunk


def _ratio_bounded(pieces: Iterable[bytes], counted: _Counted, codings: list[str]) -> Iterator[bytes]:
    """The inflated pieces, stopped (BodyTooLargeError) when they outgrow the compressed bytes by
    more than BOMB_RATIO past BOMB_FLOOR: a decompression bomb, on a stream as on an answer."""
    out = 0
    for piece in pieces:
        out += len(piece)
        if out > BOMB_FLOOR and out > BOMB_RATIO * max(counted.total, 1):
            raise BodyTooLargeError(
                f"the stream's {'+'.join(codings)} encoding expands {out // max(counted.total, 1)}:1 ({counted.total} bytes to more than {out // MIB} MiB): a decompression bomb; stopped reading",
                hint=f"an honest body compresses far less than {BOMB_RATIO}:1; check the agent",
            )
        yield piece


def _through(inflater: _Inflater, raw: Iterable[bytes]) -> Iterator[bytes]:
    for chunk in raw:
        yield from inflater.feed(chunk)
    yield from inflater.flush()


def capped(pieces: Iterable[bytes], cap: int, what: str, *, hint: str | None = None) -> Iterator[bytes]:
    """The pieces, until their total passes `cap`: then BodyTooLargeError naming the cap."""
    total = 0
    for piece in pieces:
        total += len(piece)
        if total > cap:
            raise too_large(what, cap, hint=hint)
        yield piece


class EventBound:
    """Counts the bytes of the SSE event being received (since the last blank line) and stops at
    the cap: one endless `data:` line, or an event of a million lines, cannot fill memory. It also
    keeps the first bytes of that event (`OPENING`) and the last piece read, so that a stream
    ending in the middle of an event is told from one ending between events (`cut`)."""

    OPENING = 256  # bytes of the pending event kept: enough for its `event:`/`id:` lines and `data`

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._since = 0
        self._tail = b""
        self._opening = b""
        self._last = b""

    def feed(self, chunk: bytes) -> None:
        seen = self._last = self._tail + chunk
        end = seen.rfind(b"\n\n")  # the other two ends are looked for after it only (no second scan of the chunk)
        end = max(end, seen.rfind(b"\r\r", end + 1), seen.rfind(b"\r\n\r\n", end + 1))
        if end >= 0:
            cut = end + (4 if seen.startswith(b"\r\n\r\n", end) else 2)
            self._since = len(seen) - cut
            self._opening = seen[cut : cut + self.OPENING]
        else:
            self._since += len(chunk)
            if len(self._opening) < self.OPENING:
                self._opening += chunk[: self.OPENING - len(self._opening)]
        self._tail = seen[-3:]
        if self._since > self.cap:
            raise too_large("an event of the stream", self.cap)

    def cut(self) -> int:
        """At the end of the stream: the bytes of an event begun and not ended (a `data` line
        after the last blank line: the SSE standard drops such an event), or 0. The data line is
        looked for in the event's first bytes and in the last piece read."""
        since = self._since
        if not since:
            return 0
        last = self._last[-since:]
        if len(last) == since:  # the whole event is in the last piece read
            pieces = [last]
        else:  # its opening, and the lines of the last piece (from the first line end: a line's start)
            ends = [i for i in (last.find(b"\n"), last.find(b"\r")) if i >= 0]
            pieces = [self._opening, last[min(ends) + 1 :] if ends else b""]
        for piece in pieces:
            lines = piece.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
            if any(line == b"data" or line.startswith(b"data:") for line in lines):
                return since
        return 0


# -- a body kept whole (a dump's `.response.body`) ----------------------------------------------


def is_encoded(body: bytes, content_encoding: str | None) -> bool:
    """Whether `body` is in the content coding its head names (the last applied: gzip by its magic
    bytes 1f 8b; deflate by a zlib header, or a raw deflate stream that ends where the body does).
    False for a body inflated already (as dumps written before the fix kept them) and for no coding."""
    named = content_codings(content_encoding)
    if not named or not body:
        return False
    last = named[-1]
    if last in ("gzip", "x-gzip"):
        return body[:2] == b"\x1f\x8b"
    if last != "deflate":
        return False
    if len(body) >= 2 and body[0] & 0x0F == 8 and (body[0] << 8 | body[1]) % 31 == 0:
        return True  # a zlib header (RFC 1950)
    z, data, out = zlib.decompressobj(-zlib.MAX_WBITS), body, 0
    try:  # text is seldom a raw deflate stream that ends exactly where it does
        while data and not z.eof:
            out += len(z.decompress(data, _PIECE))
            data = z.unconsumed_tail
            if out > BOMB_FLOOR and out > BOMB_RATIO * len(body):
                return True  # (inflate stops it as the bomb it is)
        return z.eof and not z.unused_data
    except zlib.error:
        return False


def decoded(body: bytes, content_encoding: str | None) -> bytes:
    """A body kept whole (a dump's), decoded as an answer is (inflate: a bounded piece at a time,
    the decompression-bomb guard: BodyTooLargeError); a body not in the coding its head names (an
    older dump's, inflated already) as it stands. What every reader of a dump reads."""
    if not is_encoded(body, content_encoding):
        return body
    return b"".join(inflate(iter([body]), content_encoding, bomb_guard=True, whole=False))


def encoded(data: bytes, content_encoding: str | None) -> bytes:
    """`data` in the content codings `content_encoding` names, applied in order (gzip, deflate as
    zlib): a redacted body given back its coding, a mock's answer in the recorded one."""
    import gzip

    for c in content_codings(content_encoding):
        data = (
            gzip.compress(data, mtime=0) if c in ("gzip", "x-gzip") else zlib.compress(data) if c == "deflate" else data
        )
    return data
