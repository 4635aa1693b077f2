"""A hostile agent of the tests' own (issue 27): a threaded HTTP server on 127.0.0.1, a free port,
answering each route with what the test gives (a JSON document, bytes, or a function that writes
the answer itself: a trickle, a bomb) and keeping every request it saw (method, path, headers,
body). Two of them are two origins."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, NamedTuple


class Seen(NamedTuple):
    method: str
    path: str
    headers: dict[str, str]  # lowercase names
    body: bytes


Answer = Any  # dict/list (JSON), bytes, (status, headers, body), or a callable(handler, Seen)


class Hostile:
    def __init__(self) -> None:
        self.routes: dict[tuple[str, str], Answer] = {}
        self.seen: list[Seen] = []
        self.url = ""

    def route(self, method: str, path: str, answer: Answer) -> None:
        self.routes[(method, path)] = answer

    def card(self, card: dict[str, Any], path: str = "/.well-known/agent-card.json") -> None:
        self.route("GET", path, card)

    def rpc(self, answer: Answer, path: str = "/rpc") -> None:
        self.route("POST", path, answer)

    def to(self, path: str) -> list[Seen]:
        return [s for s in self.seen if s.path.split("?")[0] == path]


def _handler(h: Hostile) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            pass

        def _do(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length) if length else b""
            seen = Seen(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            h.seen.append(seen)
            answer = h.routes.get((self.command, self.path.split("?")[0]))
            if answer is None:
                self._send(404, {"Content-Type": "text/plain"}, b"not here")
            elif callable(answer):
                answer(self, seen)
            elif isinstance(answer, tuple):
                self._send(*answer)
            elif isinstance(answer, bytes):
                self._send(200, {"Content-Type": "application/octet-stream"}, answer)
            else:
                self._send(200, {"Content-Type": "application/json"}, json.dumps(answer).encode())

        def _send(self, status: int, headers: dict[str, str], body: bytes) -> None:
            self.send_response(status)
            for k, v in headers.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body)
            self.close_connection = True

        do_GET = do_POST = do_PUT = do_DELETE = _do

    return Handler


@contextmanager
def hostile() -> Iterator[Hostile]:
    h = Hostile()
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _handler(h))
    srv.daemon_threads = True
    h.url = f"http://127.0.0.1:{srv.server_address[1]}"
    t = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    t.start()
    try:
        yield h
    finally:
        srv.shutdown()
        srv.server_close()


def rpc_answer(result: Any) -> Callable[[Any, Seen], None]:
    """A JSON-RPC answer carrying `result`, with the request's own id."""

    def answer(handler: Any, seen: Seen) -> None:
        rid = json.loads(seen.body or b"{}").get("id", 1)
        handler._send(200, {"Content-Type": "application/json"}, json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}).encode())

    return answer
