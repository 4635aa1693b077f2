"""Issue 42: a stream that a2a's own --timeout ends exits 5 (TimeoutExpired), not 1 blaming the
agent. The agent (tests/hostile_server.py) opens an SSE stream whose body runs to the connection's
close, then sends only keep-alive comments, or trickles an event a byte at a time: when the
deadline's timer shuts the connection, the read sees a clean end (or an event cut in the middle)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from a2a_testkit import v1_card
from hostile_server import Seen, hostile


def _open_stream(handler: Any) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "text/event-stream")
    handler.send_header("Connection", "close")  # no length, not chunked: the body ends when the connection does
    handler.end_headers()
    handler.wfile.flush()
    handler.close_connection = True


def _keep_alive(handler: Any, _seen: Seen) -> None:
    _open_stream(handler)
    _drip(handler, [b": keep-alive\n\n"] * 100)


def _trickle(handler: Any, _seen: Seen) -> None:
    _open_stream(handler)
    _drip(handler, [bytes([b]) for b in b'data: {"jsonrpc": "2.0", "id": 1, "result": {"task": {"id": "t-1"}}}\n\n'])


def _drip(handler: Any, pieces: list[bytes]) -> None:
    try:
        for piece in pieces:
            handler.wfile.write(piece)
            handler.wfile.flush()
            time.sleep(0.1)
    except OSError:
        pass


@pytest.mark.parametrize("answer", [_keep_alive, _trickle], ids=["keep-alive comments", "trickle"])
@pytest.mark.parametrize("mode", ["text", "json"])
def test_a_stream_cut_by_timeout_exits_5(cli, answer, mode):
    with hostile() as h:
        h.card(v1_card(url=f"{h.url}/rpc"))
        h.rpc(answer)
        t0 = time.monotonic()
        result = cli("stream", "hi", "-u", h.url, "--timeout", "1", "-o", mode)
    assert time.monotonic() - t0 < 6
    assert result.exit_code == 5, result.stdout + result.stderr
    said = result.stderr + result.stdout
    assert "--timeout 1s expired" in said
    assert "InvalidAgentResponseError" not in said and "closed without a single event" not in said
    assert "middle of an event" not in said


def _slow_json(handler: Any, _seen: Seen) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Connection", "close")  # no length: the body ends when the connection does
    handler.end_headers()
    _drip(handler, [bytes([b]) for b in b'{"jsonrpc": "2.0", "id": 1, "result": {"id": "t1", "contextId": "c", "status": {}}}'])


@pytest.mark.parametrize("mode", ["text", "json"])
def test_a_unary_answer_cut_by_timeout_exits_5(cli, mode):
    """The same for an answer read to the connection's close: what the timer cut is no malformed answer."""
    with hostile() as h:
        h.card(v1_card(url=f"{h.url}/rpc"))
        h.rpc(_slow_json)
        result = cli("tasks", "get", "t1", "-u", h.url, "--timeout", "1", "-o", mode)
    assert result.exit_code == 5, result.stdout + result.stderr
    assert "--timeout 1s expired" in result.stderr + result.stdout


@pytest.mark.parametrize("mode", ["text", "json"])
def test_a_stream_answered_with_json_cut_by_timeout_exits_5(cli, mode):
    """A streaming call the agent answers with one JSON document (no SSE), read to the connection's
    close: what the timer cut is --timeout's doing, not 'the stream event is empty' (exit 1)."""
    with hostile() as h:
        h.card(v1_card(url=f"{h.url}/rpc"))
        h.rpc(_slow_json)
        result = cli("stream", "hi", "-u", h.url, "--timeout", "1", "-o", mode)
    assert result.exit_code == 5, result.stdout + result.stderr
    said = result.stderr + result.stdout
    assert "--timeout 1s expired" in said and "InvalidAgentResponseError" not in said
