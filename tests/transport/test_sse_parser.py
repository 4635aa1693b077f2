"""The SSE parser of transport/sse.py (issue 26: it cuts a chunk's text at its blank lines instead of
decoding line by line) reads every stream as httpx-sse's decoder does: the same events, names, data
and event ids, whatever the line ends (LF, CRLF, CR, a CRLF split across chunks), comments, fields
and chunking. httpx-sse is the reference (a dependency already)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from httpx_sse import EventSource
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from a2acli.transport.exchange import Exchange
from a2acli.transport.sse import iter_events, parse

FUZZ = settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck), database=None)

LINES = [
    'data: {"jsonrpc": "2.0", "id": 1, "result": {"task": {"id": "t"}}}',
    "data: two",
    "data:no space",
    "data:  two spaces",
    "data",
    "data:",
    "data: ",
    "data:  ",
    "event: error",
    "event:",
    "event",
    "id: 7",
    "id:8",
    "id",
    "id: a\0b",
    ": keep-alive",
    ":",
    "retry: 10",
    "foo: bar",
    "data: with: colons",
    "",
    "",
    "",
]
ENDS = ["\n", "\r\n", "\r"]


class _Text:
    """What EventSource reads: the content type and the text chunks."""

    def __init__(self, chunks: list[str]) -> None:
        self.headers = httpx.Headers({"content-type": "text/event-stream"})
        self._chunks = chunks

    def iter_text(self) -> Any:
        return iter(self._chunks)


def reference(chunks: list[str]) -> list[tuple[str, str, str]]:
    """httpx-sse's events, as iter_events keeps them (data not blank; no name is `message`)."""
    return [(e.event, e.data, e.id) for e in EventSource(_Text(chunks)).iter_sse() if e.data and not e.data.isspace()]  # type: ignore[arg-type]


def ours(chunks: list[str]) -> list[tuple[str, str, str]]:
    return [(name or "message", data, eid) for name, data, eid in parse(iter(chunks)) if data and not data.isspace()]  # the name as iter_events gives it


def cut(text: str, cuts: list[int]) -> list[str]:
    bounds = sorted({0, len(text), *(c % (len(text) + 1) for c in cuts)})
    return [text[a:b] for a, b in zip(bounds, bounds[1:], strict=False) if b > a]


@seed(26)
@FUZZ
@given(
    lines=st.lists(st.tuples(st.sampled_from(LINES), st.sampled_from(ENDS)), max_size=30),
    tail=st.sampled_from(["", "data: unfinished", "\r", "\n", "\n\r", "data: x\n\r", "data: y\r"]),
    cuts=st.lists(st.integers(min_value=0, max_value=2000), max_size=12),
)
def test_the_same_events_as_httpx_sse(lines, tail, cuts):
    text = "".join(line + end for line, end in lines) + tail
    chunks = cut(text, cuts)
    assert ours(chunks) == reference(chunks), chunks


@pytest.mark.parametrize(
    "chunks",
    [
        ["data: a\r", "\n\r\n"],  # a CRLF split across chunks
        ["data: a\r\r"],  # CR CR: a line end, then a blank line
        ["data: a\n", "\n", "data: b\n\n"],  # the blank line alone in its chunk
        ["id: 1\ndata: a\n\n\n\ndata: b\n\n"],  # an id kept for the next event; blank lines between
        ["data: a\ndata: b\n\n"],  # two data lines: one event, joined by a newline
        ["event: error\ndata: {}\n\n"],
        ["da", "ta: x", "\n", "\n"],
        ["data: a\n\r"],  # a CR last: the blank line that ends the event
    ],
)
def test_edges(chunks):
    assert ours(chunks) == reference(chunks) != []


def test_every_event_of_a_chunk_is_handed_out_before_the_next_chunk_is_read():
    read: list[int] = []

    def texts():
        for i, text in enumerate(["data: 1\n\ndata: 2\n\ndata: 3", "\n\ndata: 4\n\n"]):
            read.append(i)
            yield text

    seen = []
    for _, data, _ in parse(texts()):
        seen.append((data, list(read)))
    assert seen == [("1", [0]), ("2", [0]), ("3", [0, 1]), ("4", [0, 1])]


def test_iter_events_calls_idle_before_each_read_once_the_events_before_are_taken():
    frames = [f"data: {json.dumps({'n': i})}\n\n".encode() for i in range(5)]
    chunks = [frames[0] + frames[1], frames[2], frames[3] + frames[4]]
    log: list[str] = []

    def body():
        for i, chunk in enumerate(chunks):
            log.append(f"read {i}")
            yield chunk

    resp = httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body())
    ex = Exchange(1, "SendStreamingMessage", "POST", "http://agent.test/rpc", [])
    ex.response_headers = [("content-type", "text/event-stream")]
    for ev in iter_events(ex, resp, [], idle=lambda: log.append("idle")):
        log.append(f"event {json.loads(ev.data)['n']}")
    assert log == ["idle", "read 0", "event 0", "event 1", "idle", "read 1", "event 2", "idle", "read 2", "event 3", "event 4", "idle"]
