"""Issue 33: `a2a stream`'s one pass (wire.fastpath) prints exactly what the long way prints, for a
stream of every shape (canonical V1, the clix dialect's lowercase enums, bare V0 events) with what
servers put in events (unknown fields, extensions, artifacts, metadata, unicode, final flags), and
for streams that end in an error: every output mode, byte for byte, stdout and stderr and exit code.

The long way is forced by giving the stream no fast path (wire.fastpath.fast_events answering None,
as it does for a binding whose translator it does not stand for); the fast run counts the events the
one pass vouched for, so the comparison is never the long way against itself."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from a2a_testkit import AGENT, RPC, sse, v1_card

from a2acli.wire import fastpath
from a2acli.wire.translate.enums import lowercase_v1_enums

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
META = {"trace_id": "x-1", "kind": "free form", "nested": {"state": "working", "role": "user"}}
EXT = ["https://ext.example/timestamps/v1"]


def v1_stream() -> list[Any]:
    msg = {"messageId": "m-1", "role": "ROLE_AGENT", "parts": [{"text": "héllo 🙂 wörld\nsecond line", "metadata": META}], "extensions": EXT, "metadata": META}
    art = {"artifactId": "a-1", "name": "story ✍", "description": "a tale", "extensions": EXT, "metadata": META,
           "parts": [{"text": "Once upon "}, {"data": {"k": [1, 2.5, None, "ü"]}, "mediaType": "application/json"},
                     {"url": "https://files.example/r.pdf", "mediaType": "application/pdf", "filename": "r.pdf"},
                     {"raw": "aGVsbG8gd29ybGQ=", "mediaType": "text/plain", "filename": "h.txt"}]}
    ids = {"taskId": "t-1", "contextId": "c-1"}
    return [
        {"task": {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_SUBMITTED", "timestamp": "2026-01-01T00:00:00Z"},
                  "history": [{**msg, "role": "ROLE_USER"}], "metadata": META}},
        {"statusUpdate": {**ids, "status": {"state": "TASK_STATE_WORKING", "message": msg, "timestamp": "2026-01-01T00:00:01Z"}, "metadata": META, "x-vendor": {"n": 1}}},
        {"artifactUpdate": {**ids, "artifact": art, "append": False, "lastChunk": False}},
        {"artifactUpdate": {**ids, "artifact": {"artifactId": "a-1", "parts": [{"text": "a time."}]}, "append": True, "lastChunk": True, "metadata": META}},
        {"statusUpdate": {**ids, "status": {"state": "TASK_STATE_WORKING", "x-extra": True}, "final": False}},  # a V0 habit on a V1 event
        {"statusUpdate": {**ids, "status": {"state": "TASK_STATE_COMPLETED", "timestamp": "2026-01-01T00:00:02Z",
                                            "message": {"messageId": "m-2", "role": "ROLE_AGENT", "parts": [{"text": "done \u202e"}]}}}},
    ]


def v0_stream() -> list[Any]:
    msg = {"kind": "message", "messageId": "m-1", "role": "agent", "parts": [{"kind": "text", "text": "héllo 🙂 wörld\nsecond line", "metadata": META}], "extensions": EXT, "metadata": META}
    art = {"artifactId": "a-1", "name": "story ✍", "description": "a tale", "extensions": EXT, "metadata": META,
           "parts": [{"kind": "text", "text": "Once upon "}, {"kind": "data", "data": {"k": [1, 2.5, None, "ü"]}},
                     {"kind": "data", "data": {"value": [1, 2]}, "metadata": {"data_part_compat": True}},
                     {"kind": "file", "file": {"uri": "https://files.example/r.pdf", "mimeType": "application/pdf", "name": "r.pdf"}},
                     {"kind": "file", "file": {"bytes": "aGVsbG8gd29ybGQ=", "mimeType": "text/plain", "name": "h.txt"}}]}
    ids = {"taskId": "t-1", "contextId": "c-1"}
    return [
        {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "submitted", "timestamp": "2026-01-01T00:00:00Z"},
         "history": [{**msg, "role": "user"}], "metadata": META},
        {"kind": "status-update", **ids, "status": {"state": "working", "message": msg, "timestamp": "2026-01-01T00:00:01Z"}, "final": False, "metadata": META, "x-vendor": {"n": 1}},
        {"kind": "artifact-update", **ids, "artifact": art, "append": False, "lastChunk": False},
        {"kind": "artifact-update", **ids, "artifact": {"artifactId": "a-1", "parts": [{"kind": "text", "text": "a time."}]}, "append": True, "lastChunk": True, "metadata": META},
        {"kind": "status-update", **ids, "status": {"state": "working", "x-extra": True}, "final": True},  # final on a working state: it ends the stream
    ]


def v0_to_the_end() -> list[Any]:
    return [*v0_stream()[:-1], {"kind": "status-update", "taskId": "t-1", "contextId": "c-1",
                                "status": {"state": "completed", "message": {"kind": "message", "messageId": "m-2", "role": "agent", "parts": [{"kind": "text", "text": "done"}]}}, "final": True}]


STREAMS: dict[str, tuple[list[Any], list[str]]] = {
    "canonical V1": (v1_stream(), []),
    "clix lowercase V1": ([lowercase_v1_enums(e) for e in v1_stream()], ["--dialect", "clix"]),
    "V0": (v0_to_the_end(), ["--a2a-version", "0.3"]),
    "V0, final on a working state": (v0_stream(), ["--a2a-version", "0.3"]),
    "V1, a direct message": ([{"message": v1_stream()[1]["statusUpdate"]["status"]["message"]}], []),
    "V0, a direct message": ([v0_stream()[1]["status"]["message"]], ["--a2a-version", "0.3"]),
}
MODES = {
    "json": ["-o", "json"],
    "raw": ["-o", "raw"],
    "text": ["-o", "text"],
    "text verbose": ["-o", "text", "--verbose"],
    "json as v1": ["-o", "json", "--as", "v1"],
}
POLLED = {
    "GetTask": {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}},
    "tasks/get": {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "completed"}},
}
ERROR = {"code": -32603, "message": "the model fell over", "data": {"where": "step 2"}}


@pytest.fixture
def agent(respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    return respx_mock


def both_ways(cli, agent, monkeypatch, body: bytes, args: list[str]) -> tuple[Any, Any, int]:
    """(the fast run, the long run, events the one pass vouched for in the fast run)."""
    def answer(request: httpx.Request) -> httpx.Response:
        sent = json.loads(request.content)
        if sent["method"] in ("GetTask", "tasks/get"):  # the poll after a stream that ended early (a fixed id: the output is compared)
            return httpx.Response(200, json={"jsonrpc": "2.0", "id": "poll-1", "result": POLLED[sent["method"]]})
        return httpx.Response(200, content=body, headers={"Content-Type": "text/event-stream"})

    agent.post(RPC).mock(side_effect=answer)
    real, vouched = fastpath.fast_events, []

    def counting(decode):
        fast = real(decode)
        return None if fast is None else (lambda result: vouched.append(fast(result)) or vouched[-1])

    monkeypatch.setattr(fastpath, "fast_events", counting)
    fast = cli(*args, "--request-id", "req-1")
    monkeypatch.setattr(fastpath, "fast_events", lambda decode: None)
    slow = cli(*args, "--request-id", "req-1")
    return fast, slow, sum(f is not None for f in vouched)


UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def same_output(fast: Any, slow: Any) -> None:
    """Byte for byte, but for the fresh JSON-RPC id of a poll (a warning names it)."""
    assert (fast.exit_code, fast.stdout, UUID.sub("<id>", fast.stderr)) == (slow.exit_code, slow.stdout, UUID.sub("<id>", slow.stderr))


@pytest.mark.parametrize("mode", MODES.values(), ids=MODES)
@pytest.mark.parametrize("events,extra", STREAMS.values(), ids=STREAMS)
def test_every_shape_prints_the_same_both_ways(cli, agent, monkeypatch, no_sleep, events, extra, mode):
    fast, slow, vouched = both_ways(cli, agent, monkeypatch, sse(*events, request_id="req-1"), ["stream", "hi", "-u", AGENT, *extra, *mode])
    assert fast.exit_code == 0, fast.stderr
    same_output(fast, slow)
    assert vouched == len(events)  # every event took the one pass
    if mode == ["-o", "json"]:
        assert [json.loads(line) for line in fast.stdout.splitlines()][: len(events)] == events  # as the wire spelt them


@pytest.mark.parametrize("mode", [["-o", "json"], ["-o", "text"], ["-o", "raw"]], ids=["json", "text", "raw"])
@pytest.mark.parametrize("events,extra", [STREAMS["clix lowercase V1"], STREAMS["V0"]], ids=["clix", "V0"])
def test_a_subscription_folded_into_its_task_is_the_same_both_ways(cli, agent, monkeypatch, events, extra, mode):
    """`tasks subscribe` without --stream: the events folded into the task as it stands at the end."""
    fast, slow, vouched = both_ways(cli, agent, monkeypatch, sse(*events, request_id="req-1"), ["tasks", "subscribe", "t-1", "-u", AGENT, *extra, *mode])
    assert fast.exit_code == 0, fast.stderr
    same_output(fast, slow)
    assert vouched == len(events)


@pytest.mark.parametrize("mode", [["-o", "json"], ["-o", "raw"], ["-o", "text"]], ids=["json", "raw", "text"])
@pytest.mark.parametrize("events,extra", [STREAMS["canonical V1"], STREAMS["clix lowercase V1"], STREAMS["V0"]], ids=["V1", "clix", "V0"])
def test_an_error_inside_a_stream_ends_it_the_same_both_ways(cli, agent, monkeypatch, no_sleep, events, extra, mode):
    """An error event after two events: the stream ends there, and the task is polled (the poll
    finds it completed)."""
    fast, slow, vouched = both_ways(cli, agent, monkeypatch, sse(*events[:2], error=ERROR, request_id="req-1"), ["stream", "hi", "-u", AGENT, *extra, *mode])
    assert "the model fell over" in fast.stderr
    same_output(fast, slow)
    assert vouched == 2


@pytest.mark.parametrize("bad", [
    {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": "working"}},
    {"kind": "artifact-update", "taskId": "t-1", "artifact": {"artifactId": "a", "parts": "Once upon"}},
    {"kind": "task", "contextId": "c-1", "status": {"state": "working"}},
], ids=["V1 status not an object", "V0 parts not an array", "V0 task without an id"])
@pytest.mark.parametrize("mode", [["-o", "json"], ["-o", "raw"], ["-o", "text"]], ids=["json", "raw", "text"])
def test_a_malformed_event_takes_the_long_way_which_names_it(cli, agent, monkeypatch, bad, mode):
    events = v0_to_the_end() if "kind" in bad else v1_stream()
    extra = ["--a2a-version", "0.3"] if "kind" in bad else []
    fast, slow, vouched = both_ways(cli, agent, monkeypatch, sse(*events[:2], bad, events[-1], request_id="req-1"), ["stream", "hi", "-u", AGENT, *extra, *mode])
    assert fast.exit_code == 1
    assert "is not valid" in fast.stdout + fast.stderr  # (-o json: in the error document on stdout)
    same_output(fast, slow)
    assert vouched == 2  # the two before it; the malformed one went the long way, which refused it
