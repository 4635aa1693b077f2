"""Server-Sent Events, with the raw bytes teed to the taps as they arrive.

Copes with what servers really send: a plain JSON answer to a streaming call, `event: error`,
comment keep-alives, CR, LF and CRLF line ends and events split across chunks. The events are
parsed as httpx-sse's decoder parses them (tests/transport/test_sse_parser.py holds the two
equal), a block of text at a time rather than a line at a time."""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

import httpx

from a2acli.transport.exchange import Exchange, NullTap, Tap
from a2acli.transport.limits import DEFAULT_MAX_BODY, EventBound, capped, decoded


class SseEvent(NamedTuple):
    index: int  # type: ignore[assignment]  # the field shadows tuple.index, on purpose: it is the event's number
    event: str  # "message" unless the server named it ("error", ...)
    data: str
    id: str = ""  # the SSE event id (the last `id:` line so far); gRPC has none


class _Tee:
    """Just enough of an httpx.Response for EventSource: text decoded incrementally from the raw
    byte chunks, each chunk handed to the taps first. `idle` is called before each read: by then
    EventSource has handed out every complete event of what was read (it asks for more text only
    then), and the reader has shown them (the output flushes there)."""

    def __init__(
        self,
        resp: httpx.Response,
        ex: Exchange,
        taps: list[Tap],
        max_event: int,
        idle: Callable[[], None] | None = None,
    ) -> None:
        self._resp = resp
        self._ex = ex
        self._taps = taps
        self._bound = EventBound(max_event)
        self._idle = idle
        # the media type as checked in iter_events (lowercase: `Text/Event-Stream` is one too)
        self.headers = httpx.Headers({"content-type": ex.content_type})

    def _reads(self) -> Iterator[bytes]:
        """The decoded chunks, `idle` called before each is read."""
        chunks, idle = (
            decoded(self._resp, bomb_guard=True),
            self._idle,
        )  # a stream has no cap on the whole: a bomb is judged by its ratio
        if idle is None:
            yield from chunks
            return
        while True:
            idle()
            chunk = next(chunks, None)
            if chunk is None:
                return
            yield chunk

    def iter_text(self) -> Iterator[str]:
        decoder = codecs.getincrementaldecoder("utf-8-sig")("replace")  # a leading BOM is dropped, as SSE says
        for chunk in self._reads():
            self._bound.feed(chunk)  # one event past the cap stops the stream (BodyTooLargeError)
            for tap in self._taps:
                tap.on_chunk(self._ex, chunk)
            text = decoder.decode(chunk)
            if text:
                yield text
        tail = decoder.decode(b"", final=True)
        if tail:
            yield tail


def iter_events(
    ex: Exchange,
    resp: httpx.Response,
    taps: list[Tap],
    max_body: int = DEFAULT_MAX_BODY,
    idle: Callable[[], None] | None = None,
) -> Iterator[SseEvent]:
    """Yield each event's data. A non-SSE answer (JSON error body, or a server that answered a
    streaming call with one JSON document) is read whole and yielded as a single event. The
    whole answer, or each event, is bounded by `max_body` bytes (limits.BodyTooLargeError).
    `idle`: called whenever every event of what was read has been yielded (and so taken by the
    reader), before the stream is read again: where the output writes what it held."""
    if ex.content_type != "text/event-stream":
        pieces = capped(decoded(resp), max_body, f"the answer of {ex.url}")
        ex.response_body = b"".join(pieces)
        ex.streaming = False
        ex.events = 1
        data = ex.response_body.decode("utf-8", "replace")
        for tap in taps:
            tap.on_event(ex, 0, "message", data)
        yield SseEvent(0, "message", data)
        return
    index = 0
    # only the taps that watch chunks or events are called for each (--dump, --debug)
    taps = [t for t in taps if type(t).on_event is not NullTap.on_event or type(t).on_chunk is not NullTap.on_chunk]
    for name, data, eid in parse(_Tee(resp, ex, taps, max_body, idle).iter_text()):
        if not data or data.isspace():
            continue  # an event with no data (a bare `id:` or `event:`) carries nothing to show
        name = name or "message"
        ex.events = index + 1
        if taps:
            for tap in taps:
                tap.on_event(ex, index, name, data)
        yield SseEvent(index, name, data, eid)
        index += 1


def parse(texts: Iterable[str]) -> Iterator[tuple[str, str, str]]:
    """(event name, data, last event id) of each event the text dispatches, by the rules of the
    HTML standard's event stream interpretation, as httpx-sse's SSEDecoder applies them (an event
    with no data is dispatched too; the caller drops it). The text is cut at its blank lines a
    chunk at a time: a block that is a lone `data: ` line (what agents send) is taken whole; any
    other block is read line by line. Every complete event of a text is handed out before the
    next text is asked for (the output flushes there)."""
    pending: list[str] = []  # text of the block being read: no blank line in it yet
    last_id = ""
    cr = False  # the text ended with CR: it may be the first half of a CRLF
    for text in texts:
        if cr:
            text, cr = "\r" + text, False
        if text.endswith("\r"):
            text, cr = text[:-1], True
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        if not text:
            continue
        if "\n\n" not in text and not (text[0] == "\n" and pending and pending[-1][-1] == "\n"):
            pending.append(text)  # no blank line yet: nothing to parse (a long event is not rescanned)
            continue
        pending.append(text)
        blocks = "".join(pending).split("\n\n")
        rest = blocks.pop()
        pending = [rest] if rest else []
        for block in blocks:
            if block[:6] == "data: " and "\n" not in block:
                yield "", block[6:], last_id
                continue
            event, last_id = _block(block, last_id)
            if event is not None:
                yield event
    if cr:  # a CR last: a line end, which may end the last event
        tail = "".join(pending) + "\n"
        if tail.endswith("\n\n"):
            event, _ = _block(tail[:-2], last_id)
            if event is not None:
                yield event


def _block(block: str, last_id: str) -> tuple[tuple[str, str, str] | None, str]:
    """The event a block of lines followed by a blank line dispatches, if any (one with neither
    a name, data nor an id dispatches nothing), and the last event id after it."""
    name, data = "", []
    for line in block.split("\n"):
        if not line or line[0] == ":":
            continue  # a comment (keep-alive); an empty line, which can only come first (the
            # block began with a blank line): it dispatches at most an event without data, dropped
        field, _, value = line.partition(":")
        if value[:1] == " ":
            value = value[1:]
        if field == "data":
            data.append(value)
        elif field == "event":
            name = value
        elif field == "id" and "\0" not in value:
            last_id = value
    if name or data or last_id:
        return (name, "\n".join(data), last_id), last_id
    return None, last_id
