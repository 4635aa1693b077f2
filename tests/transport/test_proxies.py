"""Proxies from the environment (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY, NO_PROXY), read by httpx
itself (issue 33), against a stand-in forward proxy on 127.0.0.1 that sees the bytes: a call to
another host goes through it, an agent on this machine and a NO_PROXY host go direct, and every
failure of a proxy names the proxy (without its password), never the agent (issue 35)."""

from __future__ import annotations

import json
import socket

import pytest
from a2a_testkit import v1_card
from test_http_faults import sends, serving

PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy", "no_proxy")


@pytest.fixture(autouse=True)
def no_proxy_variables(monkeypatch):
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)


def _card_answer() -> bytes:
    body = json.dumps(v1_card("http://agent.invalid:8080/", name="via proxy")).encode()
    return b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)


class Recording:
    """A forward proxy that answers every request itself, keeping the request lines it got."""

    def __init__(self, answer: bytes) -> None:
        self.answer = answer
        self.requests: list[bytes] = []

    def __call__(self, conn: socket.socket) -> None:
        conn.sendall(self.answer)


@pytest.fixture
def proxy(monkeypatch):
    rec = Recording(_card_answer())
    with serving(rec) as srv:
        real = srv._one

        def one(conn: socket.socket) -> None:  # keep each request's head
            conn.settimeout(10)
            head = conn.recv(65536, socket.MSG_PEEK)
            rec.requests.append(head)
            real(conn)

        srv._one = one  # type: ignore[method-assign]
        monkeypatch.setenv("HTTP_PROXY", srv.url)
        yield rec


def _free_port() -> int:
    free = socket.socket()
    free.bind(("127.0.0.1", 0))
    port = free.getsockname()[1]
    free.close()
    return port


def test_http_proxy_carries_a_call_to_another_host(proxy, cli):
    result = cli("card", "fetch", "-u", "http://agent.invalid:8080", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["name"] == "via proxy"
    assert len(proxy.requests) == 1
    assert proxy.requests[0].startswith(b"GET http://agent.invalid:8080/.well-known/agent-card.json HTTP/1.1\r\n")


def test_loopback_and_no_proxy_go_direct(proxy, cli, monkeypatch):
    card = json.dumps(v1_card("http://127.0.0.1:1/", name="direct")).encode()
    direct = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(card), card)
    with serving(sends(direct)) as agent:
        for url in (agent.url, agent.url.replace("127.0.0.1", "localhost")):
            result = cli("card", "fetch", "-u", url, "-o", "json")
            assert result.exit_code == 0 and json.loads(result.stdout)["name"] == "direct", result.stderr
    monkeypatch.setenv("NO_PROXY", "example.invalid")
    result = cli("card", "fetch", "-u", "http://agent.example.invalid")
    assert result.exit_code == 3 and "cannot resolve the host" in result.stderr  # direct: nobody resolves it
    assert proxy.requests == []


def test_a_proxy_that_is_down_is_named_with_a_hint_exit_3(cli, monkeypatch):
    port = _free_port()
    monkeypatch.setenv("HTTP_PROXY", f"http://user:secret@127.0.0.1:{port}")
    result = cli("card", "fetch", "-u", "http://agent.invalid:8080")
    assert result.exit_code == 3, result.stderr
    assert f"through the proxy http://127.0.0.1:{port}" in result.stderr and "secret" not in result.stderr
    assert "NO_PROXY" in result.stderr


def test_an_https_agent_goes_through_the_proxy_by_connect_and_a_refusal_is_said(cli, monkeypatch):
    seen: list[bytes] = []

    def refuse(conn: socket.socket) -> None:
        conn.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")

    with serving(refuse) as srv:
        real = srv._one

        def one(conn: socket.socket) -> None:
            seen.append(conn.recv(65536, socket.MSG_PEEK))
            real(conn)

        srv._one = one  # type: ignore[method-assign]
        monkeypatch.setenv("HTTPS_PROXY", srv.url)
        result = cli("card", "fetch", "-u", "https://agent.invalid")
    assert seen and seen[0].startswith(b"CONNECT agent.invalid:443 HTTP/1.1\r\n")
    assert result.exit_code == 3, result.stderr
    assert f"cannot reach https://agent.invalid/.well-known/agent-card.json through the proxy {srv.url}" in result.stderr


def test_a_plain_proxys_407_is_the_proxys_not_the_agents(cli, monkeypatch):
    answer = b"HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\nContent-Length: 0\r\n\r\n"
    with serving(sends(answer)) as srv:
        monkeypatch.setenv("HTTP_PROXY", srv.url.replace("http://", "http://user:secret@"))
        result = cli("card", "fetch", "-u", "http://agent.invalid:8080")
    assert result.exit_code == 3, result.stderr
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"error: the proxy {srv.url} refused to carry the call to http://agent.invalid:8080/"), first
    assert "407" in first and "secret" not in result.stderr and "HTTP_PROXY" in result.stderr


def test_an_https_proxy_url_for_a_plain_proxy_names_the_proxy(cli, monkeypatch):
    """A plain-HTTP proxy answers the TLS hello as a bad request: the TLS with the proxy fails."""
    import threading

    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(4)

    def serve() -> None:
        while True:
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            with conn:
                conn.recv(65536)
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")

    threading.Thread(target=serve, daemon=True).start()
    shown = f"https://127.0.0.1:{srv.getsockname()[1]}"
    try:
        monkeypatch.setenv("HTTPS_PROXY", shown.replace("https://", "https://user:secret@"))
        result = cli("card", "fetch", "-u", "https://agent.invalid")
    finally:
        srv.close()
    assert result.exit_code == 3, result.stderr
    assert f"through the proxy {shown}" in result.stderr and "secret" not in result.stderr


def test_a_proxy_of_a_kind_a2a_cannot_use_is_a_usage_error_without_its_password(cli, monkeypatch):
    monkeypatch.setenv("HTTP_PROXY", "ftp://user:secret@proxy.invalid:21")
    result = cli("card", "fetch", "-u", "http://agent.invalid:8080")
    assert result.exit_code == 2, result.stderr
    assert "the proxy ftp://proxy.invalid:21 (from the environment) is not one a2a can use: no ftp:// proxies" in result.stderr
    assert "secret" not in result.stderr and "user" not in result.stderr and "HTTP_PROXY" in result.stderr
