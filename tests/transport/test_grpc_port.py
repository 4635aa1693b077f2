"""Issue 25, item 7: `-u` (or --endpoint) pointed at a gRPC port. The port answers an HTTP/1.1
request with HTTP/2 frames, so the answer breaks; `a2a` then looks at a fresh connection on which it
sends nothing, sees the HTTP/2 SETTINGS frame a gRPC server opens with, and says so: exit 3 and the
URL to use. A port that breaks the answer some other way stays a broken connection (exit 1)."""

from __future__ import annotations

import socket
import threading

import pytest

# What a gRPC server (grpc C core) writes first on a new connection: a SETTINGS frame, then a
# WINDOW_UPDATE (the bytes of a real one, read from the demo agent's gRPC port).
SETTINGS = b"\x00\x00\x18\x04\x00\x00\x00\x00\x00\x00\x04\x00@\x00\x00\x00\x05\x00@\x00\x00\x00\x06\x00\x00@\x00\xfe\x03\x00\x00\x00\x01\x00\x00\x04\x08\x00\x00\x00\x00\x00\x00?\x00\x01"


class Port:
    """A TCP port on 127.0.0.1 that writes `first` as soon as a connection is made, then reads
    until the client goes; `requests` counts the connections that sent anything."""

    def __init__(self, first: bytes) -> None:
        self.first = first
        self.requests = 0
        self.handlers: list[threading.Thread] = []
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
            handler = threading.Thread(target=self._one, args=(conn,), daemon=True)
            self.handlers.append(handler)
            handler.start()

    def _one(self, conn: socket.socket) -> None:
        with conn:
            conn.sendall(self.first)
            conn.settimeout(3)
            try:
                if conn.recv(65536):
                    self.requests += 1
                    conn.sendall(b"\x00\x00\x08\x07\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01")  # GOAWAY
            except OSError:
                pass

    def served(self) -> int:
        """`requests` once every connection made so far is done (the client has gone: its
        handler counted what it read): not a count read while a handler is still at recv."""
        for handler in list(self.handlers):
            handler.join(5)
        return self.requests

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def grpc_port():
    port = Port(SETTINGS)
    yield port
    port.close()


@pytest.mark.parametrize("argv", [["card", "fetch"], ["tasks", "get", "t-1"], ["send", "hi"]])
def test_a_grpc_port_given_as_the_url_is_named_as_one_exit_3(cli, grpc_port, argv):
    result = cli(*argv, "-u", grpc_port.url)
    assert result.exit_code == 3, result.stderr
    where = grpc_port.url.removeprefix("http://")
    assert result.stderr.startswith(f"error: {where} answers in HTTP/2 only: it looks like a gRPC port, not the agent's HTTP URL")
    assert f"--endpoint grpc://{where} --transport grpc" in result.stderr
    assert grpc_port.served() == 1  # the request once; the look at the port sent nothing


def test_the_same_port_as_an_endpoint(cli, grpc_port):
    result = cli("send", "hi", "--endpoint", grpc_port.url)
    assert result.exit_code == 3 and "looks like a gRPC port" in result.stderr
    assert grpc_port.served() == 1  # the message was sent once, not again


def test_another_broken_answer_is_a_malformed_answer_not_a_grpc_port():
    port = Port(b"\x16\x03\x01 not http at all\r\n\r\n")
    try:
        from typer.testing import CliRunner

        from a2acli.main import app

        result = CliRunner().invoke(app, ["card", "fetch", "-u", port.url], prog_name="a2a")
    finally:
        port.close()
    assert result.exit_code == 1, result.stderr
    assert "sent a malformed HTTP answer: illegal status line: '\\x16\\x03\\x01 not http at all'" in result.stderr
    assert "gRPC" not in result.stderr
