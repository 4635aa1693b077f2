"""What crosses the wire from a broken or slow server, against raw-socket servers on 127.0.0.1
(issues 33 and 35): httpx's own transport (h11) reads HTTP/1.1 strictly, and a2a names what is
wrong on one line (exit 1), never reads a malformed answer as a card; `--timeout` bounds the whole
call, the answer's head included, on every HTTP binding; without it the unary bound covers the
head too. No timed assertions: the wall-time bounds below only guard against a hang."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from a2acli.errors import TimeoutExpired
from a2acli.transport.client import Transport, TransportConfig
from a2acli.wire.bindings.base import HttpRequest

A2A = [sys.executable, "-m", "a2acli"]
HANG_GUARD = 60  # seconds: a run that takes longer has hung (the bounds under test are a few seconds)
# seconds a connection may stay silent before the server closes it: after a malformed answer a2a
# opens one on which it sends nothing, to see whether the port speaks HTTP/2 only (a gRPC port); a
# server that closes it early spares each run the probe's own 1 s bound (the verdict is the same)
IDLE = 0.3


class Server:
    """Accepts connections until closed; `answer(conn)` answers each one, after its request's head
    (and whatever of the body came with it) was read. Keeps how many connections it saw."""

    def __init__(self, answer: Callable[[socket.socket], None]) -> None:
        self.answer = answer
        self.connections = 0
        self.stop = threading.Event()
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            threading.Thread(target=self._one, args=(conn,), daemon=True).start()

    def _one(self, conn: socket.socket) -> None:
        with conn:
            data = b""
            conn.settimeout(IDLE)  # a client that sends nothing (a2a's gRPC-port probe) is let go, as servers do
            while b"\r\n\r\n" not in data:
                try:
                    chunk = conn.recv(65536)
                except TimeoutError:
                    return
                if not chunk:
                    return
                data += chunk
            conn.settimeout(None)
            try:
                self.answer(conn)
            except OSError:
                pass


@contextmanager
def serving(answer: Callable[[socket.socket], None]) -> Iterator[Server]:
    srv = Server(answer)
    try:
        yield srv
    finally:
        srv.stop.set()
        srv.sock.close()


def sends(data: bytes) -> Callable[[socket.socket], None]:
    def answer(conn: socket.socket) -> None:
        conn.sendall(data)

    return answer


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*A2A, *args], capture_output=True, text=True, timeout=HANG_GUARD)


# -- malformed answers --------------------------------------------------------------------------

CARD = b'{"name":"x"}'  # 12 bytes
OK = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
MALFORMED = [
    ("conflicting-content-length", OK + b"Content-Length: 12\r\nContent-Length: 20\r\n\r\n" + CARD, "conflicting Content-Length headers"),
    ("garbage-content-length", OK + b"Content-Length: 12x\r\n\r\n" + CARD, "bad Content-Length"),
    ("negative-content-length", OK + b"Content-Length: -1\r\n\r\n" + CARD, "bad Content-Length"),
    ("header-without-colon", OK + b"X-Broken header\r\nContent-Length: 12\r\n\r\n" + CARD, "illegal header line: 'X-Broken header'"),
    ("nul-in-a-value", OK + b"X-A: a\x00b\r\nContent-Length: 12\r\n\r\n" + CARD, "illegal header line: 'X-A: a\\x00b'"),
    ("space-before-colon", b"HTTP/1.1 200 OK\r\nContent-Type : application/json\r\nContent-Length: 12\r\n\r\n" + CARD, "illegal header line: 'Content-Type : application/json'"),
    ("control-in-a-name", OK + b"X\x01A: a\r\nContent-Length: 12\r\n\r\n" + CARD, "illegal header line: 'X\\x01A: a'"),
    ("te-identity-chunked", OK + b"Transfer-Encoding: identity, chunked\r\n\r\nc\r\n" + CARD + b"\r\n0\r\n\r\n", "Only Transfer-Encoding: chunked is supported"),
    ("te-gzip", OK + b"Transfer-Encoding: gzip\r\n\r\n" + CARD, "Only Transfer-Encoding: chunked is supported"),
    ("bad-status-line", b"HTTP/1.1 2x0 OK\r\nContent-Length: 12\r\n\r\n" + CARD, "illegal status line: 'HTTP/1.1 2x0 OK'"),
    ("bad-chunk-size", OK + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n" + CARD + b"\r\n0\r\n\r\n", "illegal chunk header"),
    ("closed-inside-the-head", b"HTTP/1.1 200 OK\r\nContent-Type: appli", "Server disconnected without sending a response"),
    ("closed-inside-the-body", OK + b"Content-Length: 40\r\n\r\n" + CARD, "received 12 bytes, expected 40"),
]


@pytest.mark.parametrize(("sent", "said"), [(s, w) for _, s, w in MALFORMED], ids=[n for n, _, _ in MALFORMED])
def test_a_malformed_answer_is_refused_on_one_line_exit_1(sent, said):
    """Not read as a card: one error line naming what was wrong, a hint, exit 1; --debug shows it too."""
    with serving(sends(sent)) as srv:
        result = run("card", "fetch", "-u", srv.url)
        debug = run("card", "fetch", "-u", srv.url, "--debug")
    assert result.returncode == 1, result.stderr
    assert result.stdout == ""
    first = result.stderr.splitlines()[0]
    assert first.startswith("error: ") and f"{srv.url}/.well-known/agent-card.json " in first and said in first, result.stderr
    assert "Traceback" not in result.stderr and "Exception ignored" not in result.stderr
    assert debug.returncode == 1 and said in debug.stderr


def test_an_obs_fold_is_unfolded_so_no_line_break_reaches_debug():
    """A folded header line (obsolete, still legal for a client to read): one value, no CRLF in it."""
    sent = OK + b"X-Folded: a\r\n b\r\nContent-Length: 12\r\n\r\n" + CARD
    with serving(sends(sent)) as srv:
        result = run("card", "fetch", "-u", srv.url, "--debug", "-o", "json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["name"] == "x"
    folded = [line for line in result.stderr.splitlines() if "X-Folded" in line]
    assert folded and all(line.rstrip().endswith("a b") for line in folded), folded


# -- the head of an answer that trickles in ------------------------------------------------------


def trickle(conn: socket.socket) -> None:
    """A status line, then a header a byte at a time, for ever (until the client goes)."""
    conn.sendall(b"HTTP/1.1 200 OK\r\n")
    while True:
        conn.sendall(b"X")
        time.sleep(0.2)


@pytest.mark.parametrize(
    "args",
    [
        ["send", "hi"],
        ["send", "hi", "--transport", "rest"],
        ["stream", "hi"],
        ["stream", "hi", "--transport", "rest"],
        ["tasks", "get", "t-1"],
        ["tasks", "get", "t-1", "--transport", "rest"],
    ],
    ids=["send", "send-rest", "stream", "stream-rest", "tasks-get", "tasks-get-rest"],
)
def test_timeout_bounds_the_head_of_the_answer_exit_5(args):
    with serving(trickle) as srv:
        result = run(*args, "--endpoint", srv.url, "--timeout", "0.5")
    assert result.returncode == 5, result.stderr
    assert "--timeout 0.5s" in result.stderr and "Traceback" not in result.stderr


def test_the_unary_bound_covers_the_head_too():
    with serving(trickle) as srv:
        t = Transport(TransportConfig(version="1.0", unary_bound=0.3, idle_timeout=30))
        req = t.prepare(srv.url, HttpRequest("POST", "", (), (("Content-Type", "application/json"),), b"{}"))
        with pytest.raises(TimeoutExpired, match="did not finish its answer within 0.3s"):
            t.exchange(req, label="GetTask")


def test_the_unary_bound_covers_a_streams_head():
    with serving(trickle) as srv:
        t = Transport(TransportConfig(version="1.0", unary_bound=0.3, idle_timeout=30))
        req = t.prepare(srv.url, HttpRequest("POST", "", (), (("Content-Type", "application/json"),), b"{}"))
        with (
            pytest.raises(TimeoutExpired, match="did not finish its answer within 0.3s"),
            t.stream(req, label="SendStreamingMessage") as (_ex, events),
        ):
            list(events)


def test_after_a_cut_the_next_call_gets_a_new_connection():
    """The unary bound shut the connection of the first call; the second is answered on another."""
    calls: list[int] = []

    def answer(conn: socket.socket) -> None:
        calls.append(1)
        if len(calls) == 1:
            trickle(conn)
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        time.sleep(1)

    with serving(answer) as srv:
        t = Transport(TransportConfig(version="1.0", unary_bound=0.3, idle_timeout=30))
        with pytest.raises(TimeoutExpired):
            t.get(srv.url, label="card")
        t._cut = None
        assert t.get(srv.url, label="card").response_body == b"ok"
        assert srv.connections == 2
