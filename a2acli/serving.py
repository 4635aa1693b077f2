"""The guards of a2a's own HTTP servers on the stdlib http.server (`a2a mock`, `a2a webhook
listen`): each faces clients that send garbage, stop sending, flood it or vanish, and stays up.

- Framing: a body is read by `Content-Length` (digits, one value) or `Transfer-Encoding: chunked`
  (hex sizes, CRLF after each chunk, trailers bounded); anything else is refused, the connection
  then closed: a bad or negative length, both headers at once, a malformed chunk, a body cut short
  (400), a coding other than chunked (501), a body past the server's cap (413, read no further), a
  client silent in the middle of its body (408).
- Idle: every connection has a read timeout (`Limits.read_timeout`): a client that sends nothing
  for that long, before a request, in its head or in its body, is dropped. While connections wait
  for a worker, a connection that has sent nothing gives its worker up after `Limits.first_line`
  (checked every `first_line`): silent connections (slowloris) cannot hold every worker for the
  whole read timeout, each in turn, while real clients wait or get 503s.
- Threads: at most `Limits.workers` connections are served at once, by threads started as needed
  and kept; up to `Limits.waiting` more wait their turn (then the listen backlog, `Limits.backlog`);
  past that a connection gets a quick 503 and is closed. While some wait, a kept-alive connection
  is closed after its answer (`Connection: close`), so that its worker goes to them.
- A client that resets or leaves before its answer costs nothing but its connection: no
  traceback; a fault of the server's own code is one line to `on_error`.

Stdlib only: no new dependency on the start-up path (imported by the servers alone)."""

from __future__ import annotations

import queue
import re
import socket
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

MAX_LINE = 4096  # a chunk-size line or a trailer line
MAX_TRAILERS = 64
_LENGTH = re.compile(r"[0-9]{1,18}")
_CHUNK_SIZE = re.compile(rb"[0-9A-Fa-f]{1,15}")


@dataclass(frozen=True)
class Limits:
    """How much a server takes. Tests pass small values; the defaults are documented in the guide."""

    read_timeout: float = 10.0  # seconds a connection may send nothing
    first_line: float = 1.0  # seconds a connection that has sent nothing keeps its worker while others wait
    workers: int = 64  # connections served at once (threads)
    waiting: int = 256  # accepted connections waiting for a worker; past them: 503
    backlog: int = 512  # connections the kernel holds before they are accepted


class Refused(Exception):  # noqa: N818 - a request answered with an HTTP error, not a failure of ours
    """A request whose framing the server refuses: `status` and why (the connection is closed after the answer)."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def _stderr_line(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class GuardedServer(HTTPServer):
    """An HTTPServer whose connections are served by a bounded pool of daemon threads. Its
    handlers read `limits` (GuardedHandler: the read timeout); `label` names it in on_error's line."""

    allow_reuse_address = True

    def __init__(
        self,
        address: tuple[str, int],
        handler: type[BaseHTTPRequestHandler],
        *,
        limits: Limits | None = None,
        label: str = "a2a server",
        on_error: Callable[[str], None] | None = None,
    ) -> None:
        self.limits = limits or Limits()
        self.request_queue_size = self.limits.backlog  # read by server_activate (listen)
        self.label = label
        self.on_error = on_error or _stderr_line
        self._waiting: queue.Queue[tuple[Any, Any] | None] = queue.Queue()
        self._lock = threading.Lock()
        self._workers: list[threading.Thread] = []
        self._pending = 0  # connections served or waiting
        super().__init__(address, handler)

    @property
    def workers(self) -> int:
        """Threads started so far (never more than limits.workers)."""
        return len(self._workers)

    def process_request(self, request: Any, client_address: Any) -> None:
        worker = None
        with self._lock:
            if self._pending >= self.limits.workers + self.limits.waiting:
                busy = True
            else:
                busy, self._pending = False, self._pending + 1
                if len(self._workers) < min(self._pending, self.limits.workers):  # no worker free: one more
                    worker = threading.Thread(target=self._work, name=f"{self.label} worker", daemon=True)
                    self._workers.append(worker)
        if busy:
            self._busy(request)
            return
        self._waiting.put((request, client_address))
        if worker is not None:
            worker.start()

    def _work(self) -> None:
        while (item := self._waiting.get()) is not None:
            request, client_address = item
            try:
                self.finish_request(request, client_address)
            except Exception:  # noqa: BLE001 - one connection's end, whatever it was; the server goes on
                self.handle_error(request, client_address)
            finally:
                self.shutdown_request(request)
                with self._lock:
                    self._pending -= 1

    def _busy(self, request: socket.socket) -> None:
        """503 at once to a connection no worker nor waiting place can take, then close it."""
        body = b"busy: too many connections at once; retry\n"
        head = (
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nRetry-After: 1\r\n"
            f"Connection: close\r\nContent-Length: {len(body)}\r\n\r\n"
        )
        try:
            request.setblocking(False)
            try:
                request.recv(65536)  # what came already: closing over unread bytes would reset the answer away
            except OSError:
                pass
            request.sendall(head.encode() + body)
        except OSError:
            pass
        self.shutdown_request(request)

    def crowded(self) -> bool:
        """Connections are waiting for a worker: a kept-alive one is closed after its answer."""
        return self._pending > len(self._workers)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client gone (reset, broken pipe, timeout) is no error; anything else is one line."""
        error = sys.exc_info()[1]
        if error is None or isinstance(error, OSError):
            return
        where = client_address[0] if isinstance(client_address, tuple) and client_address else "?"
        self.on_error(f"{self.label}: a request from {where} failed: {type(error).__name__}: {error}")

    def server_close(self) -> None:
        super().server_close()
        while True:  # connections still waiting are closed; each worker stops after its connection
            try:
                item = self._waiting.get_nowait()
            except queue.Empty:
                break
            if item is not None:
                self.shutdown_request(item[0])
        for _ in self._workers:
            self._waiting.put(None)


class GuardedServer6(GuardedServer):
    address_family = socket.AF_INET6


class GuardedHandler(BaseHTTPRequestHandler):
    """A request handler for a GuardedServer: its read timeout, `read_body`, and no log lines."""

    server: GuardedServer
    # what an answer says before the request line is read: every answer, an error on a bad request
    # line too, has its status line (http.server's default, HTTP/0.9, writes a bare body)
    default_request_version = "HTTP/1.0"

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(self.server.limits.read_timeout)  # every read and write of the connection

    def handle(self) -> None:
        if self._speaks():
            super().handle()

    def _speaks(self) -> bool:
        """Whether the client sends its first bytes within the read timeout; while connections wait
        for a worker, one silent for `first_line` gives its worker up (peeked: nothing is read)."""
        limits = self.server.limits
        deadline = time.monotonic() + limits.read_timeout
        try:
            while (left := deadline - time.monotonic()) > 0:
                self.connection.settimeout(min(left, limits.first_line))
                try:
                    return bool(self.connection.recv(1, socket.MSG_PEEK))
                except TimeoutError:
                    if self.server.crowded():
                        return False
            return False
        finally:
            self.connection.settimeout(limits.read_timeout)

    def parse_request(self) -> bool:
        """The request line and head, as http.server reads them; an HTTP/0.9 line (`GET /`, no
        version) is refused with 400 instead of being answered in HTTP/0.9."""
        if not super().parse_request():
            return False
        if len(self.requestline.split()) < 3:
            self.send_error(400, "HTTP/0.9 requests are not served; send HTTP/1.1")
            return False
        return True

    def end_headers(self) -> None:
        if not self.close_connection and self.server.crowded():  # its worker is owed to a connection waiting
            self.send_header("Connection", "close")
        super().end_headers()

    def read_body(self, cap: int) -> bytes:
        """The request's body, framed by Content-Length or chunked, at most `cap` bytes (Refused
        otherwise; the connection is then to be closed)."""
        try:
            return self._body(cap)
        except Refused:
            self.close_connection = True
            raise
        except TimeoutError:
            self.close_connection = True
            raise Refused(408, "the client stopped sending in the middle of its body") from None

    def _body(self, cap: int) -> bytes:
        codings = [c.strip().lower() for c in ",".join(self.headers.get_all("Transfer-Encoding") or []).split(",")]
        codings = [c for c in codings if c]
        lengths = self.headers.get_all("Content-Length") or []
        if codings and lengths:
            raise Refused(400, "both Content-Length and Transfer-Encoding: send one")
        if codings:
            if codings != ["chunked"]:
                raise Refused(501, f"Transfer-Encoding {', '.join(codings)} is not taken (only chunked)")
            return self._chunked(cap)
        if not lengths:
            return b""
        values = {v.strip() for v in ",".join(lengths).split(",")}
        if len(values) != 1 or not _LENGTH.fullmatch(next(iter(values))):
            raise Refused(400, "Content-Length is not one whole number of bytes")
        length = int(values.pop())
        if length > cap:
            raise Refused(413, f"the body is larger than {cap} bytes")
        body = self.rfile.read(length)
        if len(body) < length:
            raise Refused(400, f"the body ended after {len(body)} of its {length} bytes")
        return body

    def _chunked(self, cap: int) -> bytes:
        out = bytearray()
        while True:
            line = self._line("a chunk size")
            size_text = line.split(b";", 1)[0].strip()
            if not _CHUNK_SIZE.fullmatch(size_text):
                raise Refused(400, "a malformed chunk size")
            size = int(size_text, 16)
            if size == 0:
                self._trailers()
                return bytes(out)
            if len(out) + size > cap:
                raise Refused(413, f"the body is larger than {cap} bytes")
            data = self.rfile.read(size)
            if len(data) < size:
                raise Refused(400, "the body ended in the middle of a chunk")
            out += data
            if self.rfile.readline(3) not in (b"\r\n", b"\n"):
                raise Refused(400, "a chunk is not followed by CRLF")

    def _line(self, what: str) -> bytes:
        line = self.rfile.readline(MAX_LINE + 1)
        if len(line) > MAX_LINE:
            raise Refused(400, f"{what} line is longer than {MAX_LINE} bytes")
        if not line.endswith(b"\n"):
            raise Refused(400, "the body ended in the middle of a chunk")
        return line

    def _trailers(self) -> None:
        for _ in range(MAX_TRAILERS):
            if self._line("a trailer") in (b"\r\n", b"\n"):
                return
        raise Refused(400, f"more than {MAX_TRAILERS} trailer lines")

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet: each server reports what it serves itself
        return None
