"""What crossed the wire, and the taps that watch it."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Protocol


@dataclass
class Exchange:
    seq: int
    label: str  # JSON-RPC method name, or "card"
    http_method: str
    url: str
    request_headers: list[tuple[str, str]]
    request_body: bytes = b""
    status: int | None = None
    reason: str = ""
    response_headers: list[tuple[str, str]] = field(default_factory=list)
    # Unary answers only; a stream's bytes go to the taps chunk by chunk and are not kept.
    response_body: bytes = b""
    streaming: bool = False
    events: int = 0
    started: float = field(default_factory=time.time)
    elapsed: float | None = None
    error: str | None = None

    def header(self, name: str) -> str | None:
        name = name.lower()
        for k, v in self.response_headers:
            if k.lower() == name:
                return v
        return None

    @property
    def request_id(self) -> str | None:
        return self.header("x-request-id")

    @property
    def content_type(self) -> str:
        return (self.header("content-type") or "").split(";")[0].strip().lower()


class Tap(Protocol):
    """Observer of exchanges. Every method is optional in practice (see NullTap)."""

    def on_request(self, ex: Exchange) -> None: ...
    def on_response(self, ex: Exchange) -> None: ...  # status and headers known
    def on_chunk(self, ex: Exchange, chunk: bytes) -> None: ...  # raw stream bytes
    def on_event(self, ex: Exchange, index: int, event: str, data: str) -> None: ...
    def on_complete(self, ex: Exchange) -> None: ...  # body complete, failed or interrupted


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
