"""Issue 14, section 6: time is always bounded. Without --timeout a connection must be made within
CONNECT_TIMEOUT and a read gets a byte within IDLE_TIMEOUT; a stream kept alive by comments is not
idle. Against a real server on 127.0.0.1 (a few short runs), with the idle bound shortened."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from a2acli.errors import TimeoutExpired
from a2acli.transport.client import CONNECT_TIMEOUT, IDLE_TIMEOUT, Transport, TransportConfig
from a2acli.wire.bindings.base import HttpRequest

HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"
EVENT = b'data: {"jsonrpc": "2.0", "id": 1, "result": {"task": {"id": "t-1"}}}\n\n'


@contextmanager
def server(answer: Callable[[socket.socket], None]) -> Iterator[str]:
    """A one-connection HTTP server on 127.0.0.1 that reads the request and runs `answer`."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    stop = threading.Event()

    def serve() -> None:
        conn, _ = srv.accept()
        with conn:
            conn.recv(65536)
            try:
                answer(conn)
            except OSError:
                pass
            stop.wait(5)

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{srv.getsockname()[1]}/rpc"
    finally:
        stop.set()
        srv.close()


def request(url: str, transport: Transport):
    return transport.prepare(url, HttpRequest("POST", "", (), (("Content-Type", "application/json"),), b"{}"))


def test_the_defaults_bound_every_read_and_connect():
    t = Transport(TransportConfig(version="1.0"))
    timeout = t._timeout()
    assert timeout.connect == CONNECT_TIMEOUT == 10.0 and timeout.read == IDLE_TIMEOUT == 300.0 and timeout.write == IDLE_TIMEOUT
    bounded = Transport(TransportConfig(version="1.0", timeout=900))._timeout()
    assert bounded.read is not None and 899 < bounded.read <= 900  # --timeout: reads wait up to what is left


def test_a_silent_unary_answer_is_an_idle_timeout():
    with server(lambda conn: None) as url:  # reads the request, answers nothing
        t = Transport(TransportConfig(version="1.0", idle_timeout=0.4))
        t0 = time.monotonic()
        with pytest.raises(TimeoutExpired, match=r"sent nothing for 0.4s \(the idle bound without --timeout\)"):
            t.exchange(request(url, t), label="GetTask")
        assert time.monotonic() - t0 < 3


def test_a_stream_with_no_bytes_for_the_idle_bound_is_an_error():
    with server(lambda conn: conn.sendall(HEAD + EVENT)) as url:  # one event, then silence
        t = Transport(TransportConfig(version="1.0", idle_timeout=0.4))
        events = []
        with pytest.raises(TimeoutExpired, match="sent nothing"), t.stream(request(url, t), label="SendStreamingMessage") as (_ex, it):
            events.extend(it)
        assert len(events) == 1


def test_a_stream_kept_alive_by_comments_is_not_idle():
    def keep_alive(conn: socket.socket) -> None:
        conn.sendall(HEAD)
        for _ in range(8):  # 1.2 s in all, never 0.4 s without a byte
            time.sleep(0.15)
            conn.sendall(b": keep-alive\n\n")
        conn.sendall(EVENT)
        conn.shutdown(socket.SHUT_WR)

    with server(keep_alive) as url:
        t = Transport(TransportConfig(version="1.0", idle_timeout=0.4))
        with t.stream(request(url, t), label="SendStreamingMessage") as (_ex, it):
            assert len(list(it)) == 1


# -- issue 27: a unary answer that trickles (a byte at a time, each within the idle bound) ends ------


def _trickle(head: bytes):
    def answer(conn: socket.socket) -> None:
        conn.sendall(head)
        for _ in range(200):  # 0.1 s a byte: never idle for 0.4 s, never done
            time.sleep(0.1)
            conn.sendall(b" ")

    return answer


TRICKLE_BODY = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"


def test_a_trickling_unary_answer_ends_at_the_unary_bound():
    with server(_trickle(TRICKLE_BODY)) as url:
        t = Transport(TransportConfig(version="1.0", idle_timeout=0.4, unary_bound=1.0))
        t0 = time.monotonic()
        with pytest.raises(TimeoutExpired, match=r"did not finish its answer within 1s \(the bound of one request without --timeout\)"):
            t.exchange(request(url, t), label="GetTask")
        assert time.monotonic() - t0 < 4


def test_trickling_headers_end_at_the_unary_bound_too():
    with server(_trickle(b"HTTP/1.1 200 OK\r\n")) as url:  # the head itself never ends
        t = Transport(TransportConfig(version="1.0", idle_timeout=0.4, unary_bound=1.0))
        t0 = time.monotonic()
        with pytest.raises(TimeoutExpired, match="did not finish its answer within 1s"):
            t.exchange(request(url, t), label="GetTask")
        assert time.monotonic() - t0 < 4


def test_the_default_unary_bound_is_set_without_timeout_and_dropped_by_timeout_0(cli, monkeypatch):
    from a2acli.pipeline import session as session_mod
    from a2acli.transport.client import UNARY_BOUND

    seen = []
    real = session_mod.Call.__init__

    def spy(self, opts, out):
        real(self, opts, out)
        seen.append(self.transport.cfg.unary_bound)

    monkeypatch.setattr(session_mod.Call, "__init__", spy)
    for args, env, want in (([], {}, UNARY_BOUND), (["--timeout", "0"], {}, None), ([], {"A2ACLI_TIMEOUT": "0"}, None), (["--timeout", "5"], {}, None)):
        cli("tasks", "get", "t-1", "--endpoint", "http://127.0.0.1:9/rpc", "--offline", *args, env=env)
        assert seen[-1] == want, (args, env)
    assert UNARY_BOUND == 600.0
