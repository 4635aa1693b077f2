"""The taps every call may carry: `--debug` (each exchange on stderr) and X-Request-ID. Credentials
are redacted by the invocation's redactor. (`--dump DIR` is a2acli.recording.record's DumpTap.)"""

from __future__ import annotations

from collections.abc import Callable

from a2acli.redact import Redactor
from a2acli.transport.exchange import Exchange, NullTap
from a2acli.transport.limits import content_codings


class DebugTap(NullTap):
    """Each request and response on stderr as it happens; SSE events as they arrive. An encoded
    body (gzip, deflate) is shown inflated, after a note line that says so. Every line is written
    on its own and starts with a2a's mark (`>` sent, `<` received, `*` a summary): a body's or an
    event's lines each carry it, so no line of the agent's starts a line of stderr (and the output
    escapes any other line break in one: render.safe)."""

    def __init__(
        self, write: Callable[[str], None], redactor: Redactor, body: Callable[[str, str], None] | None = None
    ) -> None:
        self.write = write
        # a body, apart, with its mark: the view may lay it out (indented JSON at a terminal), each of
        # its lines behind the mark all the same (render.present.debug_body)
        self.body = body or self._body
        self.redactor = redactor

    def _lines(self, mark: str, lines: list[str]) -> None:
        for line in lines:
            self.write(f"{mark} {line}" if mark and line else mark or line)

    def _body(self, mark: str, text: str) -> None:
        """A body's lines, each behind `mark` (a CRLF line end read as the line's end)."""
        self._lines(mark, body_lines(text))

    def on_request(self, ex: Exchange) -> None:
        self.redactor.learn_bytes(ex.request_body)
        self._lines(
            ">",
            [self.redactor.text(f"{ex.http_method} {ex.url}")]
            + [f"{k}: {v}" for k, v in self.redactor.headers(ex.request_headers)],
        )
        if ex.request_body:
            self.write(">")
            self.body(">", self.redactor.bytes(ex.request_body).decode("utf-8", "replace"))

    def on_response(self, ex: Exchange) -> None:
        self._lines(
            "<",
            [f"HTTP {ex.status} {ex.reason}"] + [f"{k}: {v}" for k, v in self.redactor.headers(ex.response_headers)],
        )

    def on_event(self, ex: Exchange, index: int, event: str, data: str) -> None:
        if ex.streaming:
            if index == 0 and (coding := _coding(ex)):
                self.write(f"< (the stream is {coding}-encoded: its events are shown inflated)")
            self.redactor.learn_bytes(data)
            first, *more = self.redactor.text(data).split("\n")  # an event of several `data:` lines
            self.write(f"< event {index + 1}" + (f" ({event})" if event != "message" else "") + f": {first}")
            self._lines("<", more)

    def on_complete(self, ex: Exchange) -> None:
        if not ex.streaming and ex.response_body:
            self.redactor.learn_bytes(ex.response_body)
            self.write("<")
            if ex.response_wire is not None and (coding := _coding(ex)):
                self.write(
                    f"< ({coding}-encoded: {len(ex.response_wire)} bytes on the wire, shown inflated: {len(ex.response_body)} bytes)"
                )
            self.body("<", self.redactor.bytes(ex.response_body).decode("utf-8", "replace"))
        took = f"{(ex.elapsed or 0) * 1000:.0f} ms"
        self.write(
            f"* {ex.label}: {ex.status or '-'} in {took}"
            + (f", {ex.events} event(s)" if ex.streaming else "")
            + (f", {self.redactor.text(ex.error)}" if ex.error else "")
        )

    def on_cached(self, ex: Exchange, age: int) -> None:
        how = "" if ex.cache == "hit" else ", revalidated by the 304 above"
        self.write(f"* card from cache (age {age} s{how}): {self.redactor.text(ex.url)}")


def body_lines(text: str) -> list[str]:
    """A body's lines as --debug shows each behind its mark: a CRLF line end read as the line's end."""
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


def _coding(ex: Exchange) -> str | None:
    """The answer's content coding, when it has one (gzip, deflate)."""
    return ", ".join(content_codings(ex.header("content-encoding"))) or None


class RequestIdTap(NullTap):
    """Shows the X-Request-ID of every answer on stderr: what the operator needs to find the call."""

    def __init__(self, write: Callable[[str], None]) -> None:
        self.write = write

    def on_response(self, ex: Exchange) -> None:
        if ex.request_id:
            self.write(f"X-Request-ID: {ex.request_id} ({ex.label})")
