"""Server-Sent Events, read with httpx-sse, the raw bytes teed to the taps as they arrive.

httpx-sse's `EventSource` parses the stream (CR, LF and CRLF line ends, events split across
chunks, comment keep-alives, `event: error`); a plain JSON answer to a streaming call is read
whole and yielded as one event. Under EventSource, the body is a2a's own byte stream (_Wire):
it reads the answer one network read at a time, inflates it a bounded piece at a time
(limits.inflate, with the decompression-bomb guard), bounds each event (limits.EventBound),
hands each network read to the taps as it came (--dump keeps the wire's bytes), and calls `idle` before each network read: by
then EventSource has handed out every complete event of what was read (it asks for more bytes
only then), so the output flushes there and each event reaches stdout before a2a waits on the
network again.

A body already in memory (a unary answer that came as SSE, a recorded stream, a file given to
`a2a translate`) is read by the same httpx-sse reader (transport.sse_body): no second parser."""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from typing import NamedTuple

import httpx
from httpx_sse import EventSource

from a2acli.transport.exchange import Exchange, NullTap, Tap
from a2acli.transport.limits import DEFAULT_MAX_BODY, EventBound, RawBody, capped, inflate
from a2acli.transport.sse_body import EVENT_STREAM


class SseEvent(NamedTuple):
    index: int  # type: ignore[assignment]  # the field shadows tuple.index, on purpose: it is the event's number
    event: str  # "message" unless the server named it ("error", ...)
    data: str
    id: str = ""  # the SSE event id (the last `id:` line so far); gRPC has none


class _Wire(httpx.SyncByteStream):
    """The body EventSource reads: `raw` (the answer's network reads) inflated and bounded, each
    read handed to the taps as it came, `idle` called before each network read."""

    def __init__(
        self,
        raw: RawBody,
        coding: str | None,
        ex: Exchange,
        taps: list[Tap],
        max_event: int,
        idle: Callable[[], None] | None,
    ) -> None:
        self._raw, self._coding, self._ex, self._taps = raw, coding, ex, taps
        self._bound = EventBound(max_event)
        self._idle = idle

    def _reads(self) -> Iterator[bytes]:
        reads, idle = iter(self._raw), self._idle
        if idle is None:
            yield from reads
            return
        while True:
            idle()
            chunk = next(reads, None)
            if chunk is None:
                return
            yield chunk

    def _teed(self) -> Iterator[bytes]:
        """The network reads, each handed to the taps as it crossed the wire (encoded, if it is)."""
        taps, ex = self._taps, self._ex
        for chunk in self._reads():
            for tap in taps:
                tap.on_chunk(ex, chunk)
            yield chunk

    def __iter__(self) -> Iterator[bytes]:
        # a stream has no cap on the whole: a bomb is judged by its ratio
        bound = self._bound
        for piece in inflate(self._teed(), self._coding, bomb_guard=True):
            bound.feed(piece)  # one event past the cap stops the stream (BodyTooLargeError)
            yield piece
        cut = bound.cut()
        if cut:  # EventSource would drop it without a word: the stream broke, as a cut connection does
            from a2acli.errors import ConnectionBrokenError

            raise ConnectionBrokenError(
                f"the stream from {self._ex.url} ended in the middle of an event ({cut} bytes after the last whole one)",
                hint="the agent (or a proxy) closed the stream early; --dump keeps the bytes that came",
            )

    def close(self) -> None:
        self._raw.close()


def iter_events(
    ex: Exchange,
    resp: httpx.Response,
    taps: list[Tap],
    max_body: int = DEFAULT_MAX_BODY,
    idle: Callable[[], None] | None = None,
) -> Generator[SseEvent, None, None]:
    """Yield each event's data. A non-SSE answer (JSON error body, or a server that answered a
    streaming call with one JSON document) is read whole and yielded as a single event. The
    whole answer, or each event, is bounded by `max_body` bytes (limits.BodyTooLargeError).
    `idle`: called whenever every event of what was read has been yielded (and so taken by the
    reader), before the stream is read again: where the output writes what it held. The answer's
    reader is closed on every path (the caller closes this generator when it stops early)."""
    raw = RawBody(resp)
    try:
        if ex.content_type != "text/event-stream":
            try:
                ex.response_body = b"".join(capped(inflate(raw, raw.coding), max_body, f"the answer of {ex.url}"))
            finally:
                ex.response_wire = raw.wire()
            ex.streaming = False
            ex.events = 1
            data = ex.response_body.decode("utf-8", "replace")
            for tap in taps:
                tap.on_event(ex, 0, "message", data)
            yield SseEvent(0, "message", data)
            return
        # only the taps that watch chunks or events are called for each (--dump, --debug)
        taps = [t for t in taps if type(t).on_event is not NullTap.on_event or type(t).on_chunk is not NullTap.on_chunk]
        wire = _Wire(raw, raw.coding, ex, taps, max_body, idle)
        source = EventSource(httpx.Response(resp.status_code, headers={"content-type": EVENT_STREAM}, stream=wire))
        events = source.iter_sse()
        new = tuple.__new__  # (an SseEvent made without its keyword handling: this runs once per event)
        try:
            index = 0
            for sse in events:
                data = sse.data
                if not data or data.isspace():
                    continue  # an event with no data (a bare `id:` or `event:`) carries nothing to show
                ex.events = index + 1
                if taps:
                    for tap in taps:
                        tap.on_event(ex, index, sse.event, data)
                yield new(SseEvent, (index, sse.event, data, sse.id))
                index += 1
        finally:
            getattr(events, "close", lambda: None)()  # (httpx's readers under EventSource: closed now, not at exit)
    finally:
        raw.close()
