"""a2a's HTTP/1.1 transport (a2acli/transport/http11.py, issue 26: httpcore and h11 off the start-up
path), against raw-socket servers on 127.0.0.1 that see the bytes as they cross the wire."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import httpx
import pytest
from a2a_testkit import v1_card

from a2acli.errors import ConnectionBrokenError, TimeoutExpired
from a2acli.transport.client import Transport, TransportConfig
from a2acli.transport.http11 import Http11Transport
from a2acli.wire.bindings.base import HttpRequest


def _read_request(conn: socket.socket) -> bytes:
    """One request: its head, and a body of its Content-Length."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    while len(body) < length:
        body += conn.recv(65536)
    return head + b"\r\n\r\n" + body


class Server:
    """Accepts connections one after another; `answer(conn, n)` answers the n-th request of a
    connection (0-based) and returns False to close it. Keeps every request's bytes."""

    def __init__(self, answer: Callable[[socket.socket, int], bool]) -> None:
        self.answer = answer
        self.requests: list[bytes] = []
        self.connections = 0
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
            n = 0
            while True:
                req = _read_request(conn)
                if not req:
                    return
                self.requests.append(req)
                try:
                    if not self.answer(conn, n):
                        return
                except OSError:
                    return
                n += 1


@contextmanager
def serving(answer: Callable[[socket.socket, int], bool]) -> Iterator[Server]:
    srv = Server(answer)
    try:
        yield srv
    finally:
        srv.sock.close()


def ok(body: bytes = b"ok", extra: bytes = b"") -> Callable[[socket.socket, int], bool]:
    def answer(conn: socket.socket, n: int) -> bool:
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n%s\r\n%s" % (len(body), extra, body))
        return True

    return answer


def client() -> httpx.Client:
    return httpx.Client(transport=Http11Transport(lambda: pytest.fail("no TLS here")))


def test_the_request_goes_out_as_httpx_prepared_it():
    """Request line, header names in their spelling and order, the body: nothing added (no
    `Accept-Encoding: identity` of http.client's own), nothing dropped."""
    with serving(ok()) as srv, client() as c:
        req = c.build_request(
            "POST",
            srv.url + "/rpc?a=1",
            content=b'{"x": 1}',
            headers=[("X-Two", "a"), ("x-two", "b"), ("A2A-Version", "1.0")],
        )
        c.send(req).read()
        head, _, body = srv.requests[0].partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        assert lines[0] == b"POST /rpc?a=1 HTTP/1.1"
        assert lines[1:] == [b"%s: %s" % pair for pair in req.headers.raw]
        assert [line.split(b":")[0] for line in lines[1:]].count(b"Accept-Encoding") == 1  # httpx's, once
        assert body == b'{"x": 1}'


def test_the_answer_comes_back_as_it_was_sent():
    with serving(ok(b"{}", b"X-Seen: 1\r\nx-seen: 2\r\nContent-Type: application/json\r\n")) as srv, client() as c:
        resp = c.get(srv.url)
        assert resp.status_code == 200 and resp.reason_phrase == "OK" and resp.http_version == "HTTP/1.1"
        assert resp.headers.raw[1:] == [(b"X-Seen", b"1"), (b"x-seen", b"2"), (b"Content-Type", b"application/json")]
        assert resp.content == b"{}"


def test_a_connection_read_to_its_end_is_reused():
    with serving(ok()) as srv, client() as c:
        assert [c.get(srv.url).text for _ in range(3)] == ["ok"] * 3
        assert srv.connections == 1 and len(srv.requests) == 3


def test_a_connection_the_agent_closed_while_idle_is_not_written_to():
    """The agent closes after its answer without saying so: the next request (a POST, sent once)
    goes on a new connection."""

    def answer(conn: socket.socket, n: int) -> bool:
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        return False

    with serving(answer) as srv, client() as c:
        assert c.get(srv.url).text == "ok"
        time.sleep(0.2)  # the close reaches the client
        assert c.post(srv.url, content=b"once").text == "ok"
        assert srv.connections == 2 and [r.endswith(b"once") for r in srv.requests] == [False, True]


def test_connection_close_is_honoured_and_an_early_close_does_not_return_the_connection():
    with serving(ok(extra=b"Connection: close\r\n")) as srv, client() as c:
        c.get(srv.url)
        c.get(srv.url)
        assert srv.connections == 2
    with serving(ok(b"x" * 200_000)) as srv, client() as c:
        with c.stream("GET", srv.url) as resp:
            next(resp.iter_raw())  # closed with most of the body unread
        assert c.get(srv.url).content == b"x" * 200_000
        assert srv.connections == 2


def test_a_chunked_stream_hands_each_piece_over_before_the_next_arrives():
    """Liveness: the first event is read while the agent still holds the second back."""
    second = threading.Event()

    def answer(conn: socket.socket, n: int) -> bool:
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
        conn.sendall(b"9\r\ndata: 1\n\n\r\n")
        assert second.wait(5)
        conn.sendall(b"9\r\ndata: 2\n\n\r\n0\r\n\r\n")
        return True

    with serving(answer) as srv, client() as c, c.stream("GET", srv.url) as resp:
        pieces = resp.iter_raw()
        assert next(pieces) == b"data: 1\n\n"
        second.set()
        assert b"".join(pieces) == b"data: 2\n\n"


def test_an_answer_short_of_its_content_length_is_a_broken_connection():
    def answer(conn: socket.socket, n: int) -> bool:
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc")
        return False

    with serving(answer) as srv:
        t = Transport(TransportConfig(version="1.0"))
        req = t.prepare(srv.url, HttpRequest("POST", "", (), (("Content-Type", "application/json"),), b"{}"))
        with pytest.raises(ConnectionBrokenError, match="before the answer was complete"):
            t.exchange(req, label="SendMessage")
        assert len(srv.requests) == 1  # and not sent again


def test_an_informational_answer_is_skipped_for_the_one_that_follows():
    def answer(conn: socket.socket, n: int) -> bool:
        conn.sendall(
            b"HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 4\r\n\r\ndone"
        )
        return True

    with serving(answer) as srv, client() as c:
        resp = c.get(srv.url)
        assert (resp.status_code, resp.text) == (201, "done")
        assert c.get(srv.url).status_code == 201 and srv.connections == 1  # and the connection still serves


def test_abort_ends_a_read_that_waits_for_a_silent_agent_at_once():
    def answer(conn: socket.socket, n: int) -> bool:
        time.sleep(5)
        return False

    with serving(answer) as srv:
        pool = Http11Transport(lambda: pytest.fail("no TLS here"))
        with httpx.Client(transport=pool) as c:
            threading.Timer(0.3, pool.abort).start()
            t0 = time.monotonic()
            with pytest.raises(httpx.TransportError):
                c.get(srv.url, timeout=30)
            assert time.monotonic() - t0 < 3


def test_failures_come_out_as_httpx_exceptions():
    with client() as c:
        with pytest.raises(httpx.UnsupportedProtocol):
            c.get("ftp://127.0.0.1/")
        free = socket.socket()
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
        free.close()
        with pytest.raises(httpx.ConnectError, match="refused"):
            c.get(f"http://127.0.0.1:{port}/")

    def garbage(conn: socket.socket, n: int) -> bool:
        conn.sendall(b"\x00\x00\x12\x04\x00\x00\x00\x00\x00")  # an HTTP/2 SETTINGS frame: a gRPC port
        return False

    with serving(garbage) as srv, client() as c, pytest.raises(httpx.RemoteProtocolError):
        c.get(srv.url)


def test_a2a_loads_neither_httpcore_nor_h11_to_call_an_agent(tmp_path):
    """The point of the module (issue 26): a call over http:// imports neither."""
    code = (
        "import sys\n"
        "from a2acli.transport.client import Transport, TransportConfig\n"
        "t = Transport(TransportConfig(version='1.0'))\n"
        f"ex = t.get({'URL'!r}, label='card')\n"
        "print(ex.status, sorted(m for m in sys.modules if m.split('.')[0] in ('httpcore', 'h11')))\n"
    )
    with serving(ok(b"{}")) as srv:
        proc = subprocess.run(
            [sys.executable, "-c", code.replace("URL", srv.url)], capture_output=True, text=True, timeout=60
        )
    assert proc.stdout.split() == ["200", "[]"], proc.stderr


def test_an_answer_sent_before_the_request_was_read_whole_is_read():
    """An agent that answers after the head (a 413) and closes while the body is still coming:
    the answer is read, as httpcore did; the request is not sent again."""
    big = b"x" * 8_000_000

    def early(conn: socket.socket) -> None:
        conn.recv(4096)
        conn.sendall(b"HTTP/1.1 413 Payload Too Large\r\nContent-Length: 3\r\nConnection: close\r\n\r\nbig")
        conn.shutdown(socket.SHUT_WR)
        time.sleep(0.3)

    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    threading.Thread(target=lambda: early(srv.accept()[0]), daemon=True).start()
    try:
        with client() as c:
            resp = c.post(f"http://127.0.0.1:{srv.getsockname()[1]}/", content=big)
        assert (resp.status_code, resp.text) == (413, "big")
    finally:
        srv.close()


def test_an_idna_host_is_called_by_the_name_its_host_header_gives(monkeypatch):
    """`straße.test` is `xn--strae-oqa.test` in IDNA 2008 (httpx's Host header), `strasse.test` in
    the IDNA 2003 of Python's codec: the connection goes to the host the request names."""
    real = socket.getaddrinfo
    asked: list[object] = []

    def resolve(host, port, *args, **kwargs):  # type: ignore[no-untyped-def]
        asked.append(host)
        if host in ("xn--strae-oqa.test", b"xn--strae-oqa.test"):
            return real("127.0.0.1", port, *args, **kwargs)
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    with serving(ok()) as srv, client() as c:
        monkeypatch.setattr(socket, "getaddrinfo", resolve)
        port = srv.url.rsplit(":", 1)[1]
        resp = c.get(f"http://straße.test:{port}/")
        assert resp.text == "ok", asked
        assert b"\r\nHost: xn--strae-oqa.test:" in srv.requests[0]


@pytest.mark.parametrize(
    "head",
    [
        b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\nConnection: close\r\n\r\nab",
        b"HTTP/1.0 200 OK\r\nContent-Length: 10\r\n\r\nab",
    ],
    ids=["connection-close", "http-1.0"],
)
def test_the_unary_bound_ends_a_body_read_at_once_on_a_connection_the_agent_will_close(head):
    """http.client hands a connection that ends with its answer to the answer (its `sock` is None
    then): abort() and close() must still reach the socket, or the read waits for the idle bound."""

    def answer(conn: socket.socket, n: int) -> bool:
        conn.sendall(head)
        time.sleep(6)
        return False

    with serving(answer) as srv:
        t = Transport(TransportConfig(version="1.0", unary_bound=0.5, idle_timeout=5))
        t0 = time.monotonic()
        with pytest.raises(TimeoutExpired, match="did not finish its answer within 0.5s"):
            t.get(srv.url, label="card")
        assert time.monotonic() - t0 < 3


@pytest.mark.parametrize(
    ("sent", "said"),
    [
        (b"hello there\r\n\r\n", "(illegal status line or header: hello there)"),
        (b"x" * 5000 + b"\r\n\r\n", "(illegal status line or header: " + "x" * 100 + "…)"),
        (
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\na\r\nabc",
            "(peer closed connection without sending complete message body (incomplete chunked read))",
        ),
    ],
    ids=["not-http", "not-http-long", "chunk-cut-off"],
)
def test_a_broken_answer_is_named_on_one_line(sent, said):
    """What the agent sent is named without its CRLF and cut short; no `expected None`."""

    def answer(conn: socket.socket, n: int) -> bool:
        conn.sendall(sent)
        return False

    with serving(answer) as srv:
        t = Transport(TransportConfig(version="1.0"))
        with pytest.raises(ConnectionBrokenError) as caught:
            t.get(srv.url, label="card")
        assert caught.value.message.endswith(said)


def test_a_connection_aborted_while_the_request_is_written_is_not_opened_again(monkeypatch):
    """abort() (the unary bound's timer) lands between the head's write and the body's:
    http.client would open a new connection on its own and send the body there, to an agent
    that then waits for the rest of a request (and nothing bounds that read any more)."""
    import http.client

    pool = Http11Transport(lambda: pytest.fail("no TLS here"))
    real_send = http.client.HTTPConnection.send

    def send(self: http.client.HTTPConnection, data: bytes) -> None:
        real_send(self, data)
        if data.startswith(b"POST "):  # the head went out: the timer fires now
            pool.abort()

    monkeypatch.setattr(http.client.HTTPConnection, "send", send)
    with serving(ok()) as srv, httpx.Client(transport=pool) as c:
        with pytest.raises(httpx.TransportError):
            c.post(srv.url, content=b"the message", timeout=5)
        time.sleep(0.2)
        assert srv.connections == 1


@pytest.fixture
def proxy(monkeypatch):
    """A forward proxy on 127.0.0.1 that answers every request itself, saying which request line
    it got; HTTP_PROXY names it (and no other proxy variable is set)."""
    for name in ("http_proxy", "https_proxy", "all_proxy", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)

    def answer(conn: socket.socket, n: int) -> bool:
        body = json.dumps(v1_card("http://agent.invalid:8080/", name="via proxy")).encode()
        conn.sendall(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)
        )
        return True

    with serving(answer) as srv:
        monkeypatch.setenv("HTTP_PROXY", srv.url)
        yield srv


def test_http_proxy_carries_a_call_to_another_host(proxy):
    with client() as c:
        assert c.get("http://agent.invalid:8080/.well-known/agent-card.json").json()["name"] == "via proxy"
    assert proxy.requests[0].startswith(b"GET http://agent.invalid:8080/.well-known/agent-card.json HTTP/1.1\r\n")


def test_no_proxy_and_loopback_go_direct(proxy, monkeypatch):
    with serving(ok(b"direct")) as agent, client() as c:
        assert c.get(agent.url).text == "direct"  # 127.0.0.1: never through a proxy
        assert c.get(agent.url.replace("127.0.0.1", "localhost")).text == "direct"
    monkeypatch.setenv("NO_PROXY", "example.invalid")
    with client() as c, pytest.raises(httpx.ConnectError):
        c.get("http://agent.example.invalid/")  # direct, and nobody resolves it
    assert proxy.requests == []


def test_through_a_proxy_the_cli_calls_and_says_the_same(proxy, cli):
    """`a2a card fetch` of an agent behind HTTP_PROXY: the card comes through it."""
    result = cli("card", "fetch", "-u", "http://agent.invalid:8080", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["name"] == "via proxy"
    assert len(proxy.requests) == 1 and proxy.requests[0].startswith(
        b"GET http://agent.invalid:8080/.well-known/agent-card.json "
    )


@pytest.mark.parametrize(
    ("host", "port", "no_proxy", "direct"),
    [
        ("agent.example.com", 80, "*", True),
        ("agent.example.com", 80, "example.com", True),
        ("agent.example.com", 80, ".example.com", True),
        ("example.com", 80, ".example.com", True),
        ("badexample.com", 80, "example.com", False),
        ("agent.example.com", 8080, "example.com:8080", True),
        ("agent.example.com", 80, "example.com:8080", False),
        ("10.1.2.3", 80, "10.0.0.0/8", True),
        ("10.1.2.3", 80, "10.1.2.3", True),
        ("11.1.2.3", 80, "10.0.0.0/8", False),
        ("fd00::1", 443, "[fd00::1]:443", True),
        ("fd00::1", 443, "fd00::/8", True),
        ("fd00::1", 80, "[fd00::1]:443", False),
        ("agent.example.com", 80, " other.org , example.com ", True),
        ("agent.example.com", 80, "", False),
    ],
)
def test_no_proxy_reads_as_curl_reads_it(host, port, no_proxy, direct):
    from a2acli.net import bypasses_proxy

    assert bypasses_proxy(host, port, no_proxy) is direct


def test_a_proxy_that_is_down_is_named_with_a_hint_exit_3(cli, monkeypatch):
    free = socket.socket()
    free.bind(("127.0.0.1", 0))
    port = free.getsockname()[1]
    free.close()
    for name in ("HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "https_proxy", "all_proxy", "no_proxy", "http_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTP_PROXY", f"http://user:secret@127.0.0.1:{port}")
    result = cli("card", "fetch", "-u", "http://agent.invalid:8080")
    assert result.exit_code == 3
    assert f"through the proxy http://127.0.0.1:{port}" in result.stderr and "secret" not in result.stderr
    assert "NO_PROXY" in result.stderr


def test_an_https_agent_goes_through_the_proxy_by_connect_and_a_refusal_is_said(cli, monkeypatch):
    def refuse(conn: socket.socket, n: int) -> bool:
        conn.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
        return False

    for name in ("HTTP_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy", "all_proxy", "no_proxy", "https_proxy"):
        monkeypatch.delenv(name, raising=False)
    with serving(refuse) as srv:
        monkeypatch.setenv("HTTPS_PROXY", srv.url)
        result = cli("card", "fetch", "-u", "https://agent.invalid")
    assert srv.requests and srv.requests[0].startswith(b"CONNECT agent.invalid:443 HTTP/1.1\r\n")
    assert (
        result.exit_code == 3
        and f"cannot reach https://agent.invalid/.well-known/agent-card.json through the proxy {srv.url}"
        in result.stderr
    )


def test_an_abort_while_the_connection_is_being_opened_cuts_that_connection_too(monkeypatch):
    """abort() from the unary bound's timer, landing while a connection is made: the request is
    not written on it (it fails as a closed connection, which client.py reports as the cut)."""
    import http.client

    with serving(ok()) as srv:
        pool = Http11Transport(lambda: pytest.fail("no TLS here"))
        real = http.client.HTTPConnection.connect

        def connect_during_an_abort(self: http.client.HTTPConnection) -> None:
            pool.abort()
            real(self)

        monkeypatch.setattr(http.client.HTTPConnection, "connect", connect_during_an_abort)
        with httpx.Client(transport=pool) as c, pytest.raises(httpx.ReadError, match="closed"):
            c.get(srv.url)
        time.sleep(0.1)
        assert srv.requests == []  # nothing was written


def test_a_proxy_of_a_kind_a2a_cannot_use_is_a_usage_error_without_its_password(cli, monkeypatch):
    for name in ("HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "https_proxy", "all_proxy", "no_proxy", "http_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTP_PROXY", "ftp://user:secret@proxy.invalid:21")
    result = cli("card", "fetch", "-u", "http://agent.invalid:8080")
    assert result.exit_code == 2, result.stderr
    assert (
        "the proxy ftp://proxy.invalid:21 (from the environment) is not one a2a can use: no ftp:// proxies"
        in result.stderr
    )
    assert "secret" not in result.stderr and "user" not in result.stderr and "HTTP_PROXY" in result.stderr
