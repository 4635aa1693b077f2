"""Server-Sent Events as transport/sse.py reads them: httpx-sse's EventSource over a2a's own byte
stream (issue 33). What a stream really looks like: LF, CRLF and CR line ends (a CRLF split across
chunks), events split across chunks, comments, `event: error`, ids, a leading BOM, and a plain
JSON answer to a streaming call; and the liveness rule: every event of a read is handed out
before the next read, with `idle` (the output's flush) called just before it."""

from __future__ import annotations

import gzip
import json

import httpx
import pytest

from a2acli.errors import BodyTooLargeError, ConnectionBrokenError
from a2acli.transport.exchange import Exchange, NullTap
from a2acli.transport.sse import iter_events
from a2acli.transport.sse_body import events_in


def _exchange(content_type: str = "text/event-stream") -> Exchange:
    ex = Exchange(1, "SendStreamingMessage", "POST", "http://agent.test/rpc", [])
    ex.response_headers = [("content-type", content_type)]
    return ex


def events(chunks: list[bytes], content_type: str = "text/event-stream", **kw) -> list[tuple[str, str, str]]:
    resp = httpx.Response(200, headers={"content-type": content_type, **kw.pop("headers", {})}, content=iter(chunks))
    return [(e.event, e.data, e.id) for e in iter_events(_exchange(content_type), resp, [], **kw)]


@pytest.mark.parametrize(
    ("chunks", "expected"),
    [
        ([b"data: a\n\n"], [("message", "a", "")]),
        ([b"data: a\r\n\r\n"], [("message", "a", "")]),
        ([b"data: a\r\r"], [("message", "a", "")]),  # CR CR: a line end, then a blank line
        ([b"data: a\r", b"\n\r\n"], [("message", "a", "")]),  # a CRLF split across chunks
        ([b"da", b"ta: x", b"\n", b"\n"], [("message", "x", "")]),  # an event split across chunks
        ([b"data: a\n", b"\n", b"data: b\n\n"], [("message", "a", ""), ("message", "b", "")]),
        ([b"data: a\ndata: b\n\n"], [("message", "a\nb", "")]),  # two data lines: one event
        ([b": keep-alive\n\n:\n\ndata: a\n\n"], [("message", "a", "")]),  # comments carry nothing
        ([b"event: error\ndata: {}\n\n"], [("error", "{}", "")]),
        ([b"id: 1\ndata: a\n\n\n\ndata: b\n\n"], [("message", "a", "1"), ("message", "b", "1")]),  # the id is kept
        ([b"data:no space\n\ndata:  two\n\n"], [("message", "no space", ""), ("message", " two", "")]),
        ([b"event: x\n\nid: 2\n\ndata: \n\ndata: a\n\n"], [("message", "a", "2")]),  # no data: nothing to show
        ([b"\xef\xbb\xbfdata: a\n\n"], [("message", "a", "")]),  # a leading byte order mark is dropped
        ([b"data: \xc3", b"\xa9\n\n"], [("message", "é", "")]),  # a character split across chunks
        ([b"data: a\n\n: keep-alive\n"], [("message", "a", "")]),  # a comment left open carries nothing
        ([b"data: a\n\nid: 7\nevent: x"], [("message", "a", "")]),  # nor do an id and a name without data
        ([b"data: a\n\n\n"], [("message", "a", "")]),  # a spare line end
    ],
)
def test_events_as_servers_send_them(chunks, expected):
    assert events(chunks) == expected


SERVED = test_events_as_servers_send_them.pytestmark[0].args[1]  # (the table above)


@pytest.mark.parametrize(("chunks", "expected"), SERVED)
def test_a_body_in_memory_is_read_as_a_live_stream_is(chunks, expected):
    """Issue 43: one SSE reader. A unary answer that came as SSE, a recorded stream, a file given
    to `a2a translate`: httpx-sse reads them (events_in) as it reads a live stream, event for event."""
    assert events_in(b"".join(chunks)) == [(name, data) for name, data, _ in expected]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b'data: {"a": 1}\n', [("message", '{"a": 1}')]),  # `echo 'data: …'`: the last event needs no blank line
        (b"data: a\n\ndata: b", [("message", "a"), ("message", "b")]),  # nor a line end
        (b"event: error\r\ndata: x\r\n", [("error", "x")]),
        (b"", []),
    ],
)
def test_a_body_in_memory_ends_its_last_event_where_it_ends(body, expected):
    assert events_in(body) == expected


@pytest.mark.parametrize(
    ("chunks", "left"),
    [
        ([b"data: a\n\ndata: unfini", b"shed"], 16),
        ([b"data: a\r\n\r\nid: 2\r\ndata"], 11),  # `data` alone is a data line too
        ([b"data: a\r\rdata: {\r"], 8),
        ([b"data: a\n\n", b"event: x\n" + b": " + b"c" * 300 + b"\n", b"data: late"], 322),  # past OPENING
        ([b"data: a\n\ndata: " + b"x" * 500], 506),  # one long data line, cut
        ([b"data: a\n\n: " + b"c" * 300 + b"\ndata: x"], 310),  # past OPENING, in one piece
        ([b"data: a\n\n", b": " + b"c" * 300 + b"\r", b"c\rdata: x"], 312),  # CR line ends, past OPENING
    ],
)
def test_a_stream_that_ends_in_the_middle_of_an_event_is_a_broken_stream(chunks, left):
    """The SSE standard drops an event the stream never ended; a debugger says so: the events
    before it are handed out, then the stream is broken (re-subscribed or polled, like a cut
    connection), with the bytes left over counted."""
    resp = httpx.Response(200, headers={"content-type": "text/event-stream"}, content=iter(chunks))
    got = []
    with pytest.raises(ConnectionBrokenError, match=rf"ended in the middle of an event \({left} bytes after the last whole one\)"):
        for e in iter_events(_exchange(), resp, []):
            got.append(e.data)
    assert got == ["a"]


def test_a_plain_json_answer_to_a_streaming_call_is_one_event():
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "no"}}).encode()
    assert events([body[:10], body[10:]], "application/json") == [("message", body.decode(), "")]


def test_a_gzip_stream_is_inflated_and_an_event_past_the_cap_stops_it():
    packed = gzip.compress(b"data: a\n\ndata: b\n\n")
    assert events([packed[:7], packed[7:]], headers={"content-encoding": "gzip"}) == [
        ("message", "a", ""),
        ("message", "b", ""),
    ]
    with pytest.raises(BodyTooLargeError, match="an event of the stream"):
        events([b"data: " + b"x" * 5000], max_body=1024)


def test_taps_see_each_piece_and_each_event():
    seen: list[tuple[str, object]] = []

    class Tap(NullTap):
        def on_chunk(self, ex: Exchange, chunk: bytes) -> None:
            seen.append(("chunk", chunk))

        def on_event(self, ex: Exchange, index: int, name: str, data: str) -> None:
            seen.append(("event", (index, name, data)))

    resp = httpx.Response(200, headers={"content-type": "text/event-stream"}, content=iter([b"data: 1\n\nevent: error\ndata: 2\n\n"]))
    assert [e.data for e in iter_events(_exchange(), resp, [Tap()])] == ["1", "2"]
    assert seen == [("chunk", b"data: 1\n\nevent: error\ndata: 2\n\n"), ("event", (0, "message", "1")), ("event", (1, "error", "2"))]


def test_iter_events_calls_idle_before_each_read_once_the_events_before_are_taken():
    frames = [f"data: {json.dumps({'n': i})}\n\n".encode() for i in range(5)]
    chunks = [frames[0] + frames[1], frames[2], frames[3] + frames[4]]
    log: list[str] = []

    def body():
        for i, chunk in enumerate(chunks):
            log.append(f"read {i}")
            yield chunk

    resp = httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body())
    for ev in iter_events(_exchange(), resp, [], idle=lambda: log.append("idle")):
        log.append(f"event {json.loads(ev.data)['n']}")
    assert log == ["idle", "read 0", "event 0", "event 1", "idle", "read 1", "event 2", "idle", "read 2", "event 3", "event 4", "idle"]


def test_a_stream_left_early_closes_the_answers_reader():
    """Its reader is closed then, not left half-read for the interpreter's exit (issue 35)."""
    closed: list[bool] = []

    class Body(httpx.SyncByteStream):
        def __iter__(self):
            try:
                yield b"data: 1\n\n"
                yield b"data: 2\n\n"
            finally:
                closed.append(True)

    resp = httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=Body())
    stream = iter_events(_exchange(), resp, [])
    assert next(stream).data == "1"
    stream.close()
    assert closed == [True]
