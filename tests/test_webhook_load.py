"""Issue 14, sections 5 and 7: the webhook receiver holds up. Credentials are checked from the
headers before any body is read, bodies are capped low, a silent client loses its connection,
the listen backlog takes a burst, and a malformed body gets a 400 (never a dropped connection).
Raw sockets on 127.0.0.1, bounded in count and time."""

from __future__ import annotations

import json
import socket
import time

import pytest

from a2acli import webhook
from a2acli.webhook import Receiver

EVENT = json.dumps({"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}}}).encode()


def post(rx: Receiver, body: bytes, *, headers: str = "", length: int | None = None, timeout: float = 5.0) -> bytes:
    """POST `body` (claiming `length` bytes when given) on a raw socket; the answer's bytes."""
    with socket.create_connection(("127.0.0.1", rx.port), timeout=timeout) as s:
        n = len(body) if length is None else length
        s.sendall(f"POST /hook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {n}\r\n{headers}\r\n".encode() + body)
        return read_answer(s)


def read_answer(s: socket.socket) -> bytes:
    out = b""
    try:
        while b"\r\n\r\n" not in out:
            piece = s.recv(65536)
            if not piece:
                break
            out += piece
    except ConnectionResetError:
        pass
    return out


@pytest.mark.parametrize("body", [b"[" * 5000 + b"]" * 5000, b'{"a": ' * 3000 + b"1" + b"}" * 3000, b"\xff\xfe", b"{", b""])
def test_a_malformed_body_gets_a_400(body):
    with Receiver("127.0.0.1", 0) as rx:
        answer = post(rx, body)
        assert answer.split(b" ")[1] == b"400", answer
        d = rx.next(2)
        assert d is not None and d.status == 400 and not d.accepted
        assert post(rx, EVENT).split(b" ")[1] == b"200"  # and the receiver goes on


@pytest.mark.parametrize("body", [b'{"kind": []}', b'{"kind": {"a": 1}}', b'{"statusUpdate": []}', b'{"task": 5}', b"[1, 2]", b"null"])
def test_an_odd_body_is_answered_never_dropped(body):
    with Receiver("127.0.0.1", 0) as rx:
        assert post(rx, body).split(b" ")[1] in (b"200", b"400")
        assert rx.next(2) is not None


def test_credentials_are_checked_before_the_body_is_read():
    with Receiver("127.0.0.1", 0, token="t0k") as rx:
        t0 = time.monotonic()
        answer = post(rx, b"", length=60 * 1024 * 1024, headers="X-A2A-Notification-Token: wrong\r\n")  # 60 MB announced, none sent
        assert answer.split(b" ")[1] == b"401" and time.monotonic() - t0 < 2
        d = rx.next(2)
        assert d is not None and d.status == 401 and d.body == b""
        assert post(rx, EVENT, headers="X-A2A-Notification-Token: t0k\r\n").split(b" ")[1] == b"200"


def test_the_body_cap_is_low_and_nothing_past_it_is_read():
    assert webhook.MAX_BODY == 4 * 1024 * 1024
    with Receiver("127.0.0.1", 0) as rx:
        t0 = time.monotonic()
        answer = post(rx, b"", length=webhook.MAX_BODY + 1)
        assert answer.split(b" ")[1] == b"413" and time.monotonic() - t0 < 2
    with Receiver("127.0.0.1", 0, max_body=100) as rx:
        assert post(rx, b"x" * 101).split(b" ")[1] == b"413"
        assert post(rx, EVENT[:100] if len(EVENT) <= 100 else b"{}").split(b" ")[1] in (b"200", b"400")


def test_a_client_that_stops_sending_loses_its_connection(monkeypatch):
    monkeypatch.setattr(webhook, "SOCKET_TIMEOUT", 0.5)
    with Receiver("127.0.0.1", 0) as rx:
        slow = [socket.create_connection(("127.0.0.1", rx.port), timeout=5) for _ in range(20)]
        try:
            for s in slow:
                s.sendall(b"POST /hook HTTP/1.1\r\nHost: x\r\n")  # never finished (slowloris)
            t0 = time.monotonic()
            for s in slow:
                assert s.recv(100) == b""  # closed by the receiver
            assert time.monotonic() - t0 < 4
            assert post(rx, EVENT).split(b" ")[1] == b"200"
        finally:
            for s in slow:
                s.close()


def test_a_burst_of_deliveries_is_taken():
    assert webhook.BACKLOG >= 256
    with Receiver("127.0.0.1", 0) as rx:
        assert rx.server.request_queue_size == webhook.BACKLOG
        socks = [socket.create_connection(("127.0.0.1", rx.port), timeout=10) for _ in range(200)]  # all at once, before any is served
        try:
            head = f"POST /hook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {len(EVENT)}\r\n\r\n".encode()
            for s in socks:
                s.sendall(head + EVENT)
            answers = [read_answer(s).split(b" ")[1] for s in socks]
        finally:
            for s in socks:
                s.close()
        assert answers == [b"200"] * 200
