"""The taps every call may carry: `--debug` (each exchange on stderr) and X-Request-ID. Credentials
are redacted by the invocation's redactor. (`--dump DIR` is a2acli.recording.record's DumpTap.)"""

from __future__ import annotations

from collections.abc import Callable

from a2acli.redact import Redactor
from a2acli.transport.exchange import Exchange, NullTap


class DebugTap(NullTap):
    """Each request and response on stderr as it happens; SSE events as they arrive."""

    def __init__(self, write: Callable[[str], None], redactor: Redactor) -> None:
        self.write = write
        self.redactor = redactor

    def on_request(self, ex: Exchange) -> None:
        self.redactor.learn_bytes(ex.request_body)
        lines = [self.redactor.text(f"> {ex.http_method} {ex.url}")] + [
            f"> {k}: {v}" for k, v in self.redactor.headers(ex.request_headers)
        ]
        if ex.request_body:
            lines.append(">")
            lines.append(self.redactor.bytes(ex.request_body).decode("utf-8", "replace"))
        self.write("\n".join(lines))

    def on_response(self, ex: Exchange) -> None:
        lines = [f"< HTTP {ex.status} {ex.reason}"] + [
            f"< {k}: {v}" for k, v in self.redactor.headers(ex.response_headers)
        ]
        self.write("\n".join(lines))

    def on_event(self, ex: Exchange, index: int, event: str, data: str) -> None:
        if ex.streaming:
            self.redactor.learn_bytes(data)
            self.write(
                f"< event {index + 1}" + (f" ({event})" if event != "message" else "") + f": {self.redactor.text(data)}"
            )

    def on_complete(self, ex: Exchange) -> None:
        if not ex.streaming and ex.response_body:
            self.redactor.learn_bytes(ex.response_body)
            self.write("<\n" + self.redactor.bytes(ex.response_body).decode("utf-8", "replace"))
        took = f"{(ex.elapsed or 0) * 1000:.0f} ms"
        self.write(
            f"* {ex.label}: {ex.status or '-'} in {took}"
            + (f", {ex.events} event(s)" if ex.streaming else "")
            + (f", {self.redactor.text(ex.error)}" if ex.error else "")
        )


class RequestIdTap(NullTap):
    """Shows the X-Request-ID of every answer on stderr: what the operator needs to find the call."""

    def __init__(self, write: Callable[[str], None]) -> None:
        self.write = write

    def on_response(self, ex: Exchange) -> None:
        if ex.request_id:
            self.write(f"X-Request-ID: {ex.request_id} ({ex.label})")
