"""The stream view in its four forms: the rich Live view (rendered into a forced-terminal Console),
plain blocks, JSON Lines and raw; and the bounded state behind the live view."""

from __future__ import annotations

import io
import json
import re
import time
from types import SimpleNamespace

import pytest
from rich.console import Console

from a2acli.render import live_state
from a2acli.render import stream as stream_mod
from a2acli.render.live_state import LiveState, TextBuffer, file_size
from a2acli.render.output import Output
from a2acli.render.stream import StreamView

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

EVENTS = [
    {"task": {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_SUBMITTED", "timestamp": "2026-01-01T10:00:00Z"}}},
    {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING", "timestamp": "2026-01-01T10:00:01.250Z",
                                                                     "message": {"messageId": "m", "role": "ROLE_AGENT", "parts": [{"text": "step 1/2"}]}}}},
    {"artifactUpdate": {"taskId": "t-1", "contextId": "c-1", "artifact": {"artifactId": "a-1", "name": "story", "parts": [{"text": "Once upon "}]}}},
    {"artifactUpdate": {"taskId": "t-1", "contextId": "c-1", "append": True, "lastChunk": True, "artifact": {"artifactId": "a-1", "parts": [{"text": "a time."}]}}},
    {"artifactUpdate": {"taskId": "t-1", "contextId": "c-1", "lastChunk": True, "artifact": {"artifactId": "a-2", "name": "user", "parts": [
        {"data": {"id": "user-1", "tags": ["x"]}}, {"raw": "aGVsbG8gd29ybGQ=", "filename": "hello.txt", "mediaType": "text/plain"},
        {"url": "https://files.example/r.pdf", "filename": "r.pdf", "mediaType": "application/pdf"}]}}},
    {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED", "timestamp": "2026-01-01T10:00:03Z"}}},
]


def reply(core):
    return SimpleNamespace(core=core, result=core, raw=json.dumps({"jsonrpc": "2.0", "id": 1, "result": core}).encode())


def terminal():
    buf = io.StringIO()
    return buf, Console(file=buf, force_terminal=True, width=100, color_system="standard")


def plain(text: str) -> str:
    return ANSI.sub("", text)


@pytest.fixture
def utc(monkeypatch):
    """The timeline shows the agent's timestamps in local time: make local time UTC."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_live_view_updates_in_place_as_each_event_arrives(monkeypatch, utc):
    monkeypatch.setattr(stream_mod, "QUIET_GAP", 0.0)  # draw every event at once, deterministically
    buf, console = terminal()
    out = Output("text", stdout=io.StringIO(), stderr=io.StringIO())
    seen = []
    with StreamView(out, console=console) as view:
        for ev in EVENTS:
            view.event(reply(ev))
            seen.append(plain(buf.getvalue()))
        view.summary({"id": "t-1", "contextId": "c-1", "state": "TASK_STATE_COMPLETED"})
    raw = buf.getvalue()
    text = plain(raw)
    # drawn in place: cursor movement, not a growing scroll of blocks
    assert "\x1b[2K" in raw or "\x1b[1A" in raw
    # each event was on screen right after it arrived
    assert "submitted" in seen[0] and "step 1/2" not in seen[0]
    assert "step 1/2" in seen[1] and "10:00:01" not in seen[1]  # when it reached us, not the agent's clock
    assert "Once upon" in seen[2] and "streaming…" in seen[2]
    assert "Once upon a time." in seen[3] and "2 chunks, complete" in seen[3]
    # the final frame: timeline, artifacts reassembled and described, summary
    final = text[text.rindex("Task t-1"):]
    assert re.search(r"\n\d\d:\d\d:\d\d\.\d\s+\+\d+\.\ds\s+submitted", final)
    assert re.search(r"\n\d\d:\d\d:\d\d\.\d\s+\+\d+\.\ds\s+completed", final)
    assert '"id": "user-1",' in final and '"tags": [' in final  # data pretty-printed
    assert "file hello.txt (text/plain, 11 bytes)" in final
    assert "file r.pdf (application/pdf, at https://files.example/r.pdf)" in final
    assert re.search(r"Summary.*\n.*Task\s+t-1.*\n.*Context\s+c-1.*\n.*State\s+completed", final)
    assert out.out.getvalue() == ""  # nothing went around the live view


def test_live_view_starts_at_the_first_event():
    buf, console = terminal()
    out = Output("text", stdout=io.StringIO(), stderr=io.StringIO())
    with StreamView(out, console=console):
        assert buf.getvalue() == ""  # what the call prints first (X-Request-ID) stays above it


def test_plain_text_is_one_flushed_block_per_event():
    stdout = io.StringIO()
    out = Output("text", stdout=stdout, stderr=io.StringIO())
    assert not out.rich
    with StreamView(out) as view:
        view.event(reply(EVENTS[1]))
        assert stdout.getvalue() == "Event: status-update\nTask: t-1\nContext: c-1\nState: working\nUpdated: 2026-01-01T10:00:01.250Z\nStatus message:\n  step 1/2\n\n"
        view.event(reply(EVENTS[2]))
        assert "Event: artifact-update\nTask: t-1\nContext: c-1\nArtifact: story\nText:\n  Once upon \n\n" in stdout.getvalue()
        view.summary({"id": "t-1", "contextId": "c-1", "state": "TASK_STATE_WORKING"})
    assert stdout.getvalue().endswith("\n\nTask: t-1\nContext: c-1\nState: working\nEvents: 2\n\n")  # the last record restates the ids and state
    assert "\x1b" not in stdout.getvalue()


def test_json_lines_are_flushed_per_event_terminal_object_last():
    class Sink(io.StringIO):
        flushes = 0

        def flush(self):
            Sink.flushes += 1
            super().flush()

    sink = Sink()
    out = Output("json", stdout=sink, stderr=io.StringIO())
    with StreamView(out) as view:
        for i, ev in enumerate(EVENTS, 1):
            view.event(reply(ev))
            assert len(sink.getvalue().splitlines()) == i and Sink.flushes >= i
        view.final(reply({"task": {"id": "t-1", "status": {"state": "TASK_STATE_COMPLETED"}}}))
        view.summary({"id": "t-1"})
    lines = [json.loads(line) for line in sink.getvalue().splitlines()]
    assert lines[:-1] == EVENTS and lines[-1]["task"]["status"]["state"] == "TASK_STATE_COMPLETED"


def test_raw_is_each_payload():
    sink = io.StringIO()
    with StreamView(Output("raw", stdout=sink)) as view:
        view.event(reply(EVENTS[0]))
    assert json.loads(sink.getvalue())["result"] == EVENTS[0]


# -- bounded state ---------------------------------------------------------------------------------


def test_text_buffer_keeps_head_tail_and_length():
    buf = TextBuffer()
    for i in range(100_000):
        buf.append(f"{i:05d} ")
    assert buf.total == 600_000
    assert len(buf.head) == live_state.TEXT_HEAD and len(buf.tail) == live_state.TEXT_TAIL
    shown = buf.render()
    assert shown.startswith("00000 00001") and shown.rstrip().endswith("99999")
    assert f"[{600_000 - live_state.TEXT_HEAD - live_state.TEXT_TAIL} characters not shown]" in shown


def test_live_state_is_bounded_over_a_long_stream():
    s = LiveState()
    s.feed(EVENTS[0])
    for i in range(5000):
        s.feed({"statusUpdate": {"taskId": "t-1", "status": {"state": "TASK_STATE_WORKING", "message": {"parts": [{"text": f"step {i}"}]}}}})
        s.feed({"artifactUpdate": {"taskId": "t-1", "append": i > 0, "artifact": {"artifactId": "log", "parts": [{"text": f"line {i}\n"}]}}})
        s.feed({"artifactUpdate": {"taskId": "t-1", "artifact": {"artifactId": f"a-{i}", "parts": [{"data": {"i": i}}]}}})
        s.feed({"artifactUpdate": {"taskId": "t-1", "append": True, "artifact": {"artifactId": "parts", "parts": [{"data": {"i": i}}]}}})
    assert s.events == 20_001
    assert len(s.timeline) == live_state.TIMELINE_ROWS and s.timeline_total == 5001
    assert s.timeline[-1].note == "step 4999"
    assert len(s.artifacts) == live_state.MAX_ARTIFACTS and s.artifacts_dropped > 4000
    log = s.artifacts["log"]
    assert len(log.parts) == 1 and log.parts[0].text.total == sum(len(f"line {i}\n") for i in range(5000))
    many = s.artifacts["parts"]
    assert len(many.parts) == live_state.MAX_PARTS and many.more_parts == 5000 - live_state.MAX_PARTS


def test_a_non_append_chunk_replaces_the_artifact_and_file_sizes_skip_padding():
    s = LiveState()
    s.artifact({"artifactId": "a", "parts": [{"text": "old"}]}, append=False, last=False)
    s.artifact({"artifactId": "a", "parts": [{"text": "new"}]}, append=False, last=True)
    assert [p.text.render() for p in s.artifacts["a"].parts] == ["new"] and s.artifacts["a"].complete
    assert file_size({"raw": "aGk="}) == 2 and file_size({"raw": "aGVsbG8gd29ybGQ="}) == 11 and file_size({"url": "x"}) is None


def test_the_timeline_clock_is_ours_to_a_tenth_of_a_second():
    from a2acli.render.live_state import _clock

    assert re.fullmatch(r"\d\d:\d\d:\d\d\.\d", _clock())


def test_held_events_are_written_at_once_at_flush_and_before_stderr():
    """Output.holding (issue 26): a stream's events are written together when the transport is
    about to read again (flush), before any stderr line, and when the block ends however it ends."""

    class Sink(io.StringIO):
        writes = 0

        def write(self, s):
            Sink.writes += 1
            return super().write(s)

    sink, err = Sink(), io.StringIO()
    out = Output("json", stdout=sink, stderr=err)
    with StreamView(out) as view, out.holding():
        view.event(reply(EVENTS[0]))
        view.event(reply(EVENTS[1]))
        assert sink.getvalue() == "" and Sink.writes == 0  # held: the rest of this read may follow
        out.flush()  # the transport is about to read again
        assert len(sink.getvalue().splitlines()) == 2 and Sink.writes == 1
        view.event(reply(EVENTS[2]))
        out.note("a note")  # stderr: what stdout holds goes first
        assert len(sink.getvalue().splitlines()) == 3 and err.getvalue() == "a note\n"
        with out.holding():  # nested (a re-subscription): the outer block's
            view.event(reply(EVENTS[3]))
        assert len(sink.getvalue().splitlines()) == 3
        view.event(reply(EVENTS[4]))
    assert [json.loads(line) for line in sink.getvalue().splitlines()] == EVENTS[:5]
    view.event(reply(EVENTS[5]))  # outside a stream's reads: written at once
    assert len(sink.getvalue().splitlines()) == 6

    sink2 = io.StringIO()
    out = Output("raw", stdout=sink2)
    with pytest.raises(KeyboardInterrupt), out.holding():
        out.raw(b'{"a": 1}')
        raise KeyboardInterrupt
    assert sink2.getvalue() == '{"a": 1}\n'  # what was read before Ctrl-C is shown
