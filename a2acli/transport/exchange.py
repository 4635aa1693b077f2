"""What crossed the wire, and the taps that watch it."""

from __future__ import annotations

import time
from typing import Protocol


class Exchange:
    """One HTTP exchange, filled in as it happens. A plain class rather than a dataclass: it is
    built on every run, and generating a dataclass costs start-up time (benchmarks/startup.py)."""

    __slots__ = (
        "seq",
        "label",
        "http_method",
        "url",
        "target",
        "http_version",
        "request_version",
        "protobuf",
        "request_headers",
        "request_body",
        "status",
        "reason",
        "response_headers",
        "response_body",
        "response_wire",
        "streaming",
        "events",
        "started",
        "elapsed",
        "error",
        "cache",
    )

    def __init__(
        self,
        seq: int,
        label: str,
        http_method: str,
        url: str,
        request_headers: list[tuple[str, str]],
        request_body: bytes = b"",
        streaming: bool = False,
        target: str | None = None,
    ) -> None:
        self.seq = seq
        self.label = label  # JSON-RPC method name, or "card"
        self.http_method = http_method
        self.url = url
        self.target = target or url  # the request line's target: path and query (origin form)
        self.http_version = "HTTP/1.1"  # of the answer, once it comes
        self.request_version = "HTTP/1.1"  # of the request line (gRPC: HTTP/2)
        self.protobuf: dict[str, bytes] = {}  # gRPC: the messages as serialized ("request", "response")
        self.request_headers = request_headers
        self.request_body = request_body
        self.status: int | None = None
        self.reason = ""
        self.response_headers: list[tuple[str, str]] = []
        # Unary answers only; a stream's bytes go to the taps chunk by chunk and are not kept.
        self.response_body = b""
        # ...and as it crossed the wire when a content coding (gzip, deflate) was undone; None: the same
        self.response_wire: bytes | None = None
        self.streaming = streaming
        self.events = 0
        self.started = time.time()
        self.elapsed: float | None = None
        self.error: str | None = None
        self.cache: str | None = None  # a card from the card cache: "hit" (no request), "revalidated" (a 304)

    def __repr__(self) -> str:
        return f"Exchange(#{self.seq} {self.label} {self.http_method} {self.url} -> {self.status})"

    def header(self, name: str, *, sent: bool = False) -> str | None:
        """A header of the answer (or, with `sent`, of the request); names match in any case."""
        name = name.lower()
        for k, v in self.request_headers if sent else self.response_headers:
            if k.lower() == name:
                return v
        return None

    @property
    def request_id(self) -> str | None:
        return self.header("x-request-id")

    @property
    def content_type(self) -> str:
        return (self.header("content-type") or "").split(";")[0].strip().lower()

    def sse_events(self) -> list[tuple[str, str]]:
        """(event name, data) of each event of the answer's body, read as SSE by httpx-sse
        (transport.sse_body.events_in): a unary answer that came as a stream."""
        from a2acli.transport.sse_body import events_in

        return events_in(self.response_body)


class Tap(Protocol):
    """Observer of exchanges. Every method is optional in practice (see NullTap)."""

    def on_request(self, ex: Exchange) -> None: ...
    def on_response(self, ex: Exchange) -> None: ...  # status and headers known
    def on_chunk(self, ex: Exchange, chunk: bytes) -> None: ...  # a stream's bytes as read, encoded if it is
    def on_event(self, ex: Exchange, index: int, event: str, data: str) -> None: ...
    def on_complete(self, ex: Exchange) -> None: ...  # body complete, failed or interrupted
    def on_cached(self, ex: Exchange, age: int) -> None: ...  # a card the card cache gave (nothing crossed the wire)


class NullTap:
    def on_request(self, ex: Exchange) -> None:
        pass

    def on_response(self, ex: Exchange) -> None:
        pass

    def on_chunk(self, ex: Exchange, chunk: bytes) -> None:
        pass

    def on_event(self, ex: Exchange, index: int, event: str, data: str) -> None:
        pass

    def on_complete(self, ex: Exchange) -> None:
        pass

    def on_cached(self, ex: Exchange, age: int) -> None:
        pass
