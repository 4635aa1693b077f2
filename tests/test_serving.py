"""Issue 42: a2a's own HTTP servers (`a2a mock`, `a2a webhook listen`, both on a2acli/serving.py)
under hostile clients. Bad framing gets a 4xx and the connection closed, the body caps hold, a
client that resets costs no traceback, an idle or slow client is dropped after the read timeout,
and the worker threads are bounded (past them a quick 503). Raw sockets on 127.0.0.1 against a
server started here, small counts, short timeouts."""

from __future__ import annotations

import json
import re
import socket
import struct
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from test_mock import write_send_dump

from a2acli import serving, webhook
from a2acli.recording import mock
from a2acli.serving import Limits

EVENT = json.dumps(
    {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}}}
).encode()
GET_TASK = json.dumps(
    {"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "11111111-1111-4111-8111-111111111111"}}
).encode()


@contextmanager
def server(kind: str, tmp_path: Any, limits: Limits | None = None, cap: int | None = None) -> Iterator[Any]:
    """A mock of a recorded send and GetTask, or a webhook receiver, on a free port: (port, its
    GuardedServer, a request it answers 200, the path)."""
    if kind == "mock":
        served = mock.Mock(mock.load([str(write_send_dump(tmp_path / "rec", "1.0"))]), speed=0, limits=limits)
        with served:
            yield served.port, served.server, GET_TASK
    else:
        with webhook.Receiver("127.0.0.1", 0, limits=limits, max_body=cap or webhook.MAX_BODY) as rx:
            yield rx.port, rx.server, EVENT


def raw(port: int, data: bytes, *, timeout: float = 5.0, half_close: bool = False) -> bytes:
    """Send `data` on a fresh connection and read until the server closes it (or `timeout`)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        if half_close:
            s.shutdown(socket.SHUT_WR)
        return read_all(s)


def read_all(s: socket.socket) -> bytes:
    out = b""
    try:
        while piece := s.recv(65536):
            out += piece
    except (ConnectionResetError, TimeoutError):
        pass
    return out


def head(extra: str, path: str = "/") -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nA2A-Version: 1.0\r\n{extra}\r\n".encode()
    )


def statuses(answer: bytes) -> list[int]:
    """The status of every answer in the bytes a connection received."""
    return [int(code) for code in re.findall(rb"HTTP/1\.[01] (\d{3}) ", answer)]


def ok(port: int, body: bytes) -> bool:
    return statuses(raw(port, head(f"Content-Length: {len(body)}\r\nConnection: close\r\n") + body)) == [200]


KINDS = ["mock", "webhook"]

# (name, request bytes, the status it gets)
BAD_FRAMING = [
    ("length-abc", head("Content-Length: abc\r\n") + b"{}", 400),
    ("length-negative", head("Content-Length: -1\r\n") + b"{}", 400),
    ("length-plus", head("Content-Length: +2\r\n") + b"{}", 400),
    ("length-twice", head("Content-Length: 2\r\nContent-Length: 3\r\n") + b"{}", 400),
    ("length-and-chunked", head("Content-Length: 2\r\nTransfer-Encoding: chunked\r\n") + b"2\r\n{}\r\n0\r\n\r\n", 400),
    ("coding-gzip", head("Transfer-Encoding: gzip\r\n") + b"{}", 501),
    ("coding-gzip-chunked", head("Transfer-Encoding: gzip, chunked\r\n") + b"2\r\n{}\r\n0\r\n\r\n", 501),
    ("chunk-size-not-hex", head("Transfer-Encoding: chunked\r\n") + b"zz\r\n{}\r\n0\r\n\r\n", 400),
    ("chunk-size-negative", head("Transfer-Encoding: chunked\r\n") + b"-2\r\n{}\r\n0\r\n\r\n", 400),
    ("chunk-without-crlf", head("Transfer-Encoding: chunked\r\n") + b"2\r\n{}XX0\r\n\r\n", 400),
    ("chunk-size-line-endless", head("Transfer-Encoding: chunked\r\n") + b"1" * 5000, 400),
]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("case", "request_bytes", "status"), BAD_FRAMING, ids=[c[0] for c in BAD_FRAMING])
def test_bad_framing_gets_a_4xx_and_the_connection_closed(kind, tmp_path, capfd, case, request_bytes, status):
    with server(kind, tmp_path) as (port, _, good):
        t0 = time.monotonic()
        answer = raw(port, request_bytes + head(f"Content-Length: {len(good)}\r\n") + good)  # a second request after it
        assert statuses(answer) == [status], answer  # answered, then closed: what followed is never read as a request
        assert (b"Connection: close" in answer or answer.startswith(b"HTTP/1.0")) and time.monotonic() - t0 < 3
        assert ok(port, good)  # and it goes on
    assert "Traceback" not in capfd.readouterr().err


@pytest.mark.parametrize("kind", KINDS)
def test_a_body_cut_short_is_a_400(kind, tmp_path, capfd):
    with server(kind, tmp_path) as (port, _, good):
        assert statuses(raw(port, head("Content-Length: 100\r\n") + b"{}", half_close=True)) == [400]
        chunked = head("Transfer-Encoding: chunked\r\n") + b"10\r\n{}"
        assert statuses(raw(port, chunked, half_close=True)) == [400]
        assert ok(port, good)
    assert "Traceback" not in capfd.readouterr().err


@pytest.mark.parametrize("kind", KINDS)
def test_a_chunked_body_is_read_as_one_body(kind, tmp_path):
    """Chunks are the body (not a second request), on a kept-alive connection the next request follows."""
    with server(kind, tmp_path) as (port, _, good):
        chunks = b"".join(b"%x\r\n%s\r\n" % (len(good[i : i + 7]), good[i : i + 7]) for i in range(0, len(good), 7))
        request = head("Transfer-Encoding: chunked\r\n") + chunks + b"0\r\nX-Trailer: 1\r\n\r\n"
        answer = raw(port, request + head(f"Content-Length: {len(good)}\r\nConnection: close\r\n") + good)
        # the mock keeps the connection alive (HTTP/1.1): both answered; the receiver answers one a connection
        assert statuses(answer) == ([200, 200] if kind == "mock" else [200])
        assert b'"error"' not in answer


def test_the_caps_hold_and_nothing_past_them_is_read(tmp_path, monkeypatch):
    assert mock.MAX_BODY == 16 * 1024 * 1024
    with server("mock", tmp_path) as (port, _, good):
        t0 = time.monotonic()
        assert statuses(raw(port, head(f"Content-Length: {mock.MAX_BODY + 1}\r\n"))) == [413]  # none of it sent
        assert time.monotonic() - t0 < 2
        assert ok(port, good)
    monkeypatch.setattr(mock, "MAX_BODY", 100)
    with server("mock", tmp_path / "small") as (port, _, good):
        over = (
            head("Transfer-Encoding: chunked\r\n")
            + b"40\r\n"
            + b"x" * 64
            + b"\r\n"
            + b"40\r\n"
            + b"x" * 64
            + b"\r\n0\r\n\r\n"
        )
        assert statuses(raw(port, over)) == [413]
    with server("webhook", tmp_path, cap=100) as (port, _, good):
        assert statuses(raw(port, over)) == [413]
        assert statuses(raw(port, head("Content-Length: 101\r\n") + b"x" * 101)) == [413]


@pytest.mark.parametrize("kind", KINDS)
def test_a_client_that_resets_costs_no_traceback(kind, tmp_path, capfd):
    with server(kind, tmp_path) as (port, _, good):
        for i in range(20):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            # half a body (the server is reading when the reset comes), or all of it (it is answering)
            s.sendall(head(f"Content-Length: {len(good) * 2 if i % 2 else len(good)}\r\n") + good)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            s.close()  # RST
        time.sleep(0.3)
        assert ok(port, good)
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Exception occurred" not in err


def test_a_fault_of_the_server_is_one_line(tmp_path):
    """A bug of the server's own code (not a client gone) is one line to on_error, not a traceback."""
    lines: list[str] = []

    class Failing(serving.GuardedHandler):
        def do_GET(self) -> None:  # noqa: N802
            raise KeyError("boom")

    srv = serving.GuardedServer(("127.0.0.1", 0), Failing, label="test server", on_error=lines.append)
    thread = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        raw(srv.server_address[1], b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        deadline = time.monotonic() + 3
        while not lines and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        srv.shutdown()
        srv.server_close()
    assert lines == ["test server: a request from 127.0.0.1 failed: KeyError: 'boom'"]


@pytest.mark.parametrize("kind", KINDS)
def test_idle_and_slow_clients_are_dropped_after_the_read_timeout(kind, tmp_path):
    with server(kind, tmp_path, Limits(read_timeout=0.5)) as (port, _, good):
        socks = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(20)]
        try:
            for i, s in enumerate(socks):
                if i % 4 == 1:
                    s.sendall(b"POST / HTTP/1.1\r\nHost: x\r\n")  # slowloris: a head never finished
                elif i % 4 == 2:
                    s.sendall(head("Content-Length: 50\r\n") + b"{")  # a body never finished
                elif i % 4 == 3:
                    s.sendall(head("Transfer-Encoding: chunked\r\n") + b"5\r\n{")  # a chunk never finished
                # i % 4 == 0: connects and says nothing
            t0 = time.monotonic()
            answers = [read_all(s) for s in socks]
            assert time.monotonic() - t0 < 4
        finally:
            for s in socks:
                s.close()
        # closed without an answer, or with 408 for a body the client stopped sending
        assert all(statuses(a) in ([], [408]) for a in answers), answers
        assert ok(port, good)


@pytest.mark.parametrize("kind", KINDS)
def test_the_worker_threads_are_bounded_and_past_them_a_quick_503(kind, tmp_path):
    limits = Limits(read_timeout=3, workers=4, waiting=4)
    with server(kind, tmp_path, limits) as (port, srv, good):
        before = threading.active_count()
        idle = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(30)]
        try:
            time.sleep(0.5)  # all accepted: 4 served, 4 waiting, the rest refused
            assert srv.workers == 4 and threading.active_count() - before <= 4
            t0 = time.monotonic()
            busy = [statuses(read_all(s)) for s in idle[8:]]
            assert busy == [[503]] * 22 and time.monotonic() - t0 < 2
        finally:
            for s in idle:
                s.close()
        # the idle ones gone (each worker sees its client leave in its own time), a request is served again
        assert served_again(port, good)
        assert srv.workers == 4


def served_again(port: int, body: bytes, within: float = 5.0) -> bool:
    """ok() within `within` seconds: closed clients free their workers as each notices, not at once."""
    deadline = time.monotonic() + within
    while not ok(port, body):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.parametrize("kind", KINDS)
def test_a_burst_waits_its_turn_and_is_answered(kind, tmp_path):
    """50 requests at once on 4 workers: the waiting places take them, each is answered 200."""
    with server(kind, tmp_path, Limits(workers=4, waiting=64)) as (port, srv, good):
        socks = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(50)]
        try:
            for s in socks:
                s.sendall(head(f"Content-Length: {len(good)}\r\nConnection: close\r\n") + good)
            answers = [statuses(read_all(s)) for s in socks]
        finally:
            for s in socks:
                s.close()
        assert answers == [[200]] * 50
        assert srv.workers <= 4


def test_a_request_nested_too_deep_is_refused_not_a_failure(tmp_path):
    """A body nested 100,000 levels deep is the client's fault: JSON-RPC -32700 / HTTP+JSON 400, never a 500."""
    deep = b"[" * 100_000 + b"]" * 100_000
    with server("mock", tmp_path) as (port, _, _good):
        rpc = raw(port, head(f"Content-Length: {len(deep)}\r\nConnection: close\r\n") + deep)
        assert statuses(rpc) == [200] and b"-32700" in rpc and b"levels deep" in rpc
        rest = raw(port, head(f"Content-Length: {len(deep)}\r\nConnection: close\r\n", "/message:send") + deep)
        assert statuses(rest) == [400] and b"levels deep" in rest


def test_a_kept_alive_connection_gives_its_worker_up_to_one_waiting(tmp_path):
    """The mock keeps connections alive (HTTP/1.1); while another waits for a worker, an answer closes its connection."""
    with server("mock", tmp_path, Limits(read_timeout=5, workers=1, waiting=4)) as (port, _, good):
        request = head(f"Content-Length: {len(good)}\r\n") + good
        with socket.create_connection(("127.0.0.1", port), timeout=5) as kept:
            kept.sendall(request)
            first = kept.recv(65536)
            assert statuses(first) == [200] and b"Connection: close" not in first  # nobody waits: kept alive
            with socket.create_connection(("127.0.0.1", port), timeout=5) as waiting:
                waiting.sendall(head(f"Content-Length: {len(good)}\r\nConnection: close\r\n") + good)
                time.sleep(0.3)  # accepted, waiting for the one worker
                kept.sendall(request)
                second = read_all(kept)
                assert statuses(second) == [200] and b"Connection: close" in second
                t0 = time.monotonic()
                assert statuses(read_all(waiting)) == [200] and time.monotonic() - t0 < 2  # not after the 5 s timeout


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    ("request_bytes", "status"),
    [
        (b"GET /\r\n", 400),  # HTTP/0.9: no version
        (b"GET /.well-known/agent-card.json\r\n", 400),
        (b"POST / HTTP/2.0\r\nContent-Length: 2\r\n\r\n{}", 505),
    ],
    ids=["http09-root", "http09-card", "http2-line"],
)
def test_an_answer_always_has_its_status_line(kind, tmp_path, capfd, request_bytes, status):
    """Issue 42: an HTTP/0.9 request line (`GET /`) was answered in HTTP/0.9, a bare body with no
    status line (the mock served its card so), and `HTTP/2.0` got its 505 page the same way."""
    with server(kind, tmp_path) as (port, _, good):
        answer = raw(port, request_bytes, half_close=True)
        assert answer.startswith(b"HTTP/1."), answer[:80]
        assert statuses(answer) == [status], answer[:200]
        assert ok(port, good)
    assert "Traceback" not in capfd.readouterr().err


@pytest.mark.parametrize("kind", KINDS)
def test_silent_connections_cannot_keep_a_real_client_waiting_for_the_read_timeout(kind, tmp_path):
    """Issue 42 (the review's slowloris): 12 silent connections on 2 workers held each worker for the
    whole read timeout in turn (6 x 5 s here) while a real request waited; taken while others wait,
    a connection has `first_line` to send its request line."""
    limits = Limits(read_timeout=5, first_line=0.3, workers=2, waiting=32)
    with server(kind, tmp_path, limits) as (port, _, good):
        silent = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(12)]
        try:
            time.sleep(0.2)  # accepted: 2 taken by the workers, 10 waiting
            t0 = time.monotonic()
            assert ok(port, good)
            assert time.monotonic() - t0 < 4  # about 12 x 0.3 s / 2 workers, not 6 x 5 s
        finally:
            for s in silent:
                s.close()
