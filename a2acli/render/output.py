"""The output object: one per invocation, built from -o. JSON and raw modes never import rich."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TextIO

from a2acli.redact import text as redacted
from a2acli.redact import value as redacted_value
from a2acli.render.safe import safe_text, visible
from a2acli.wire.envelope import pretty

ERROR_DATA_MAX = 300  # characters of an error's `data` the text view shows (-o json: all of it)

if TYPE_CHECKING:
    from rich.console import Console

    from a2acli.render.views import Rows  # (a type only: views stays off the path of -o json)


_LINE_ENCODER: list[Any] = []
_SAMPLE: dict[str, Any] = {"a": [1, 1.5, -0.0, True, None, 'é\u2028\n"', {}], "b": {"c": []}}


def _line_encoder() -> Any:
    """`encode(obj, 0)`: the chunks of json.dumps(obj, ensure_ascii=False), for JSON Lines. Built
    once: json.dumps builds a new encoder and its C encoder for every call, which a long stream
    pays per event. No cycle check (JSON read off the wire cannot be circular). Where the C encoder
    is missing or takes other arguments (checked on a sample), json.dumps it is."""
    if not _LINE_ENCODER:
        plain = json.JSONEncoder(ensure_ascii=False)
        encode: Any = lambda obj, _level: (plain.encode(obj),)  # noqa: E731
        try:
            from json.encoder import c_encode_basestring, c_make_encoder  # type: ignore[attr-defined]

            fast = c_make_encoder(None, plain.default, c_encode_basestring, None, ": ", ", ", False, False, True)
            if "".join(fast(_SAMPLE, 0)) == plain.encode(_SAMPLE):
                encode = fast
        except (ImportError, TypeError):
            pass
        _LINE_ENCODER.append(encode)
    return _LINE_ENCODER[0]


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def terminal(stream: TextIO) -> bool:
    """A terminal that takes control sequences: a TTY, and not TERM=dumb."""
    return _isatty(stream) and os.environ.get("TERM") != "dumb"


def _rich_on(stream: TextIO) -> bool:
    """Whether a human's view (rich: colour, panels, spinners) goes to `stream`: such a terminal,
    or FORCE_COLOR. Otherwise the text floor."""
    return bool(os.environ.get("FORCE_COLOR")) or terminal(stream)


HOLD_LIMIT = 1 << 17  # characters of held stdout text written at once, whatever the stream's reads


class Output:
    """`mode`: auto (the default: the rich view at a terminal, the text floor elsewhere), text (the
    text floor everywhere, a terminal included: official CLI spec §11.2), json or raw. Under auto
    and text `self.mode` is "text" (a human's view); `self.auto` says whether the rich view may be
    used where a terminal takes it."""

    def __init__(
        self,
        mode: str = "auto",
        *,
        stdout: TextIO | None = None,
        stderr: TextIO | None = None,
        verbose: bool = False,
        quiet: bool = False,
    ) -> None:
        self.auto = mode == "auto"
        self.mode = "text" if self.auto else mode
        self.verbose = verbose  # --verbose: the full breakdown in text (history, metadata, every part)
        self.quiet = quiet  # -q: stderr keeps warnings and errors (and what the user must act on) only
        self.out = stdout or sys.stdout
        self.err = stderr or sys.stderr
        self.rich = self.auto and _rich_on(self.out)
        self._console: Console | None = None
        self._err_console: Console | None = None
        self._documents = 0  # JSON documents written to stdout
        self._lines = False  # and whether they are JSON Lines (a stream)
        self._held: list[str] | None = None  # stdout text held while a stream is read (holding())
        self._held_size = 0

    # -- consoles (rich is imported only when a human is looking) -------------------------------
    @property
    def console(self) -> Console:
        if self._held:  # rich writes to the file itself: what is held goes first
            self.flush()
        if self._console is None:
            from rich.console import Console

            self._console = Console(file=self.out, highlight=False, soft_wrap=False)
        return self._console

    @property
    def err_console(self) -> Console:
        if self._err_console is None:
            from rich.console import Console

            self._err_console = Console(file=self.err, highlight=False, stderr=True)
        return self._err_console

    def route_notes_to(self, console: Any) -> Any:
        """Send stderr notes through `console` (a live view's, so notes print above it without
        tearing it); returns the console used before, to hand back when the view stops."""
        previous, self._err_console = self._err_console, console
        return previous

    @property
    def err_rich(self) -> bool:
        return self.auto and _rich_on(self.err)

    # -- the write path: each write flushed, or held while a stream is read -------------------------
    @contextmanager
    def holding(self) -> Iterator[None]:
        """While a stream's events are shown: what they write to stdout is held, and written and
        flushed at once by flush(), which the transport calls when every event of what it read
        has been handed out, before it reads again (one write per network read, not per event;
        each event still reaches stdout before `a2a` waits on the network). Also flushed before
        anything goes to stderr (the two keep their order), at HOLD_LIMIT characters, and when
        the block ends, however it ends."""
        if self._held is not None:  # already holding (a re-subscription inside a stream)
            yield
            return
        self._held = []
        try:
            yield
        except BaseException:
            try:
                self.flush()  # the events read before the failure (or Ctrl-C) are shown
            except OSError:
                pass  # stdout is gone: the failure in flight is the one to tell
            raise
        else:
            self.flush()
        finally:
            self._held = None

    def flush(self) -> None:
        """Write what is held, and flush stdout."""
        held = self._held
        if held:
            text = "".join(held)
            held.clear()
            self._held_size = 0
            self.out.write(text)
        self.out.flush()

    def _put(self, text: str) -> None:
        held = self._held
        if held is None:
            self.out.write(text)
            self.out.flush()
            return
        held.append(text)
        self._held_size += len(text)
        if self._held_size >= HOLD_LIMIT:
            self.flush()

    # -- payload (stdout) -----------------------------------------------------------------------
    def json(self, obj: Any, *, lines: bool = False) -> None:
        self._documents += 1
        self._lines = self._lines or lines
        if lines:  # a line per event
            encode = _LINE_ENCODER[0] if _LINE_ENCODER else _line_encoder()
            self._put("".join(encode(obj, 0)) + "\n")
            return
        self._put(pretty(obj) + "\n")

    def raw(self, data: bytes | str) -> None:
        text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
        self._put(text if text.endswith("\n") else text + "\n")

    def rows(self, rows: Rows, *, title: str | None = None, style: str = "cyan") -> None:
        """One record. Off a terminal, the text floor: a field is one `Label: value` line; a block
        (or a value that spans lines) is its `Label:` line, its content indented two spaces, and
        a blank line closing it; the record ends with a blank line."""
        if not self.rich:
            lines: list[str] = []
            for row in rows:
                label, value = visible(row[0], one_line=True), str(row[1] or "")
                if (len(row) > 2 and row[2]) or "\n" in value:
                    lines.append(f"{label}:")
                    lines += [
                        "  " + line for line in visible(value).split("\n")
                    ]  # agent text: control characters shown, not run
                    lines.append("")
                else:
                    lines.append(f"{label}: {visible(value, one_line=True)}")
            if lines and lines[-1]:
                lines.append("")
            self._put("\n".join(lines) + "\n")
            return
        from rich.panel import Panel
        from rich.table import Table

        grid = Table.grid(padding=(0, 2))
        grid.add_column(style=f"bold {style}", no_wrap=True)
        grid.add_column(overflow="fold")
        for row in rows:  # agent text: through safe_text (control characters shown, not run; no markup read)
            grid.add_row(safe_text(row[0]), safe_text(str(row[1] or ""), one_line=False))
        self.console.print(
            Panel(grid, title=safe_text(title) if title else None, title_align="left", border_style=style, expand=False)
        )

    def table(
        self,
        columns: list[str],
        rows: list[list[str]],
        *,
        title: str | None = None,
        keep: tuple[str, ...] = (),
        shorter: dict[str, Any] | None = None,
        drop: tuple[str, ...] = (),
    ) -> None:
        """A table. The `keep` columns (ids, tokens, URLs) are never wrapped or cut: when the
        table is wider than the terminal, the `shorter` columns take their short form (column ->
        function of the value), then the `drop` columns go, and if it still does not fit, each
        row becomes a block of `Label  value` lines."""
        columns = [visible(c, one_line=True) for c in columns]
        rows = [[visible(str(v), one_line=True) for v in row] for row in rows]
        title = visible(title, one_line=True) if title else title
        if not self.rich:
            self._put(
                "".join("\n".join(f"{c}: {v}" for c, v in zip(columns, row, strict=False)) + "\n\n" for row in rows)
            )
            return
        from rich.table import Table

        width = self.console.width
        for c, fn in (shorter or {}).items():
            if _table_width(columns, rows) > width and c in columns:
                i = columns.index(c)
                rows = [[fn(v) if j == i else v for j, v in enumerate(row)] for row in rows]
        whole = (columns, rows)  # blocks have room for every column
        for c in drop:
            if _table_width(columns, rows) > width and c in columns:
                i = columns.index(c)
                columns = columns[:i] + columns[i + 1 :]
                rows = [row[:i] + row[i + 1 :] for row in rows]
        if _table_width(columns, rows) > width and keep:  # blocks: one per row, lines never wrapped
            columns, rows = whole
            if title:
                self.console.print(safe_text(title, style="italic"), soft_wrap=True)
            label = max(len(c) for c in columns)
            for row in rows:
                for c, v in zip(columns, row, strict=False):
                    self.console.print(safe_text((f"{c:<{label}}  ", "bold cyan"), v), soft_wrap=True)
                self.console.print()
            return
        t = Table(title=safe_text(title) if title else None, title_justify="left")
        for c in columns:
            if c in keep:
                t.add_column(
                    c,
                    no_wrap=True,
                    overflow="ignore",
                    min_width=max([len(c), *(len(r[columns.index(c)]) for r in rows)]),
                )
            else:
                t.add_column(c, overflow="fold")
        for row in rows:
            t.add_row(*(safe_text(v) for v in row))
        self.console.print(t)

    def text(self, line: str) -> None:
        self._put(visible(line) + "\n")

    # -- side channel (stderr) ------------------------------------------------------------------
    def command(self, cmd: str, *, always: bool = False) -> None:
        """A command to copy, on a line of its own and never wrapped (a triple click selects it);
        not under -q unless `always` (the command that continues a task waiting for the user)."""
        if self.quiet and not always:
            return
        cmd = visible(redacted(cmd), one_line=True)
        if self._held:  # stdout first: the two streams keep their order
            self.flush()
        if self.err_rich:
            self.err_console.print(safe_text("  " + cmd, style="bold"), soft_wrap=True)
        else:
            self.err.write("  " + cmd + "\n")
            self.err.flush()

    def note(self, msg: str, *, aside: str = "", always: bool = False) -> None:
        """A line on stderr for the person running the command (not under -q, unless `always`:
        what they asked for, as --debug's lines); `aside` ends it only when stderr is a terminal
        (`(Ctrl-C stops the wait, not the task)` means nothing in a CI log)."""
        if self.quiet and not always:
            return
        self._err(msg + (aside if aside and terminal(self.err) else ""), "dim")

    def tell(self, msg: str) -> None:
        """A line on stderr the user must act on (a code to enter), in bold on a terminal."""
        self._err(msg, "bold")

    def warn(self, msg: str) -> None:
        self._err(f"warning: {msg}", "yellow")

    def problem(self, msg: str) -> None:
        """An error found that does not end the command by itself (a finding of a card check)."""
        self._err(f"error: {msg}", "bold red")

    def _err(self, msg: str, style: str) -> None:
        msg = visible(redacted(msg))  # secrets hidden; whatever the output mode, stderr is a terminal
        if self._held:  # stdout first: the two streams keep their order
            self.flush()
        if self.err_rich:
            self.err_console.print(
                safe_text(msg, one_line=False, style=style), soft_wrap=True
            )  # the terminal wraps: copies stay whole
        else:
            self.err.write(msg + "\n")
            self.err.flush()

    def error(
        self,
        *,
        message: str,
        hint: str | None,
        code: str,
        a2a_code: int | str | None,
        data: Any = None,
        request_id: str | None = None,
        usage: str | None = None,
    ) -> None:
        """Under -o json the error envelope (official CLI spec Appendix B) goes to stdout as one
        compact line: the whole document when nothing was written yet, the last line after the
        events of a stream (JSON Lines); to stderr as text when a document is already there
        (stdout holds exactly one, as with --expect-state: the task, then the exit code 6). In
        text, `error: MESSAGE [CODE]` on stderr (the code unsaid when the message names it, as an
        A2A error's `TaskNotFoundError: …` does)."""
        message, hint, data = (
            redacted(message),
            redacted(hint) if hint else hint,
            redacted_value(data),
        )  # an agent may echo a credential
        if self.mode == "json" and (not self._documents or self._lines):
            err: dict[str, Any] = {"code": code, "message": message, "hint": hint, "a2aCode": a2a_code}
            if data is not None:
                err["data"] = data
            if request_id:
                err["requestId"] = request_id
            self.json({"error": err}, lines=True)
            return
        message, hint = (
            visible(message, one_line=True),
            visible(hint, one_line=True) if hint else hint,
        )  # no forged `hint:` line
        named = message.split(": ", 1)[0].split(" ")[-1] == code  # `TaskNotFoundError: …`
        self._err(f"error: {message}" + ("" if named else f" [{code}]"), "bold red")
        if data is not None:
            shown = json.dumps(data, ensure_ascii=False)
            if len(shown) > ERROR_DATA_MAX:  # a validator's whole report (pydantic: kilobytes) drowns the error
                shown = f"{shown[:ERROR_DATA_MAX]}… ({len(shown)} characters; -o json shows it whole)"
            self._err(f"  data: {shown}", "red")
        if usage:
            self._err(usage, "")
        if hint:
            self._err(f"hint: {hint}", "yellow")
        if request_id:
            self._err(f"X-Request-ID: {request_id}", "dim")


def _table_width(columns: list[str], rows: list[list[str]]) -> int:
    """The width of a rich table (heavy-head box, padding 1) whose cells are not wrapped."""
    widths = [max([len(c), *(len(str(r[i])) for r in rows)]) for i, c in enumerate(columns)]
    return sum(widths) + 3 * len(widths) + 1
