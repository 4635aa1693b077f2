"""An SSE body already in memory (a unary answer that came as SSE, a recorded stream, a file given
to `a2a translate`), read by httpx-sse's `EventSource` as transport.sse reads a live stream: one
SSE reader, no parser of our own. Apart from transport.sse so that the exchange (which that module
imports) can read its own body without a circle."""

from __future__ import annotations

import httpx
from httpx_sse import EventSource

# EventSource decodes the text by the charset of the content type it is shown: utf-8-sig drops a
# leading byte order mark, as the SSE standard says.
EVENT_STREAM = "text/event-stream; charset=utf-8-sig"


def events_in(body: bytes) -> list[tuple[str, str]]:
    """(event name, data) of each event of an SSE body already in memory, read by httpx-sse's
    `EventSource` as a live stream is (CR, LF and CRLF line ends, a leading byte order mark,
    comments); an event that carries no data is left out, as `iter_events` leaves it. The last
    event counts without the blank line that ends it (a file ends where its last line does)."""
    source = EventSource(httpx.Response(200, headers={"content-type": EVENT_STREAM}, content=body + b"\n\n"))
    return [(sse.event, sse.data) for sse in source.iter_sse() if sse.data and not sse.data.isspace()]
