"""The output object: one per invocation, built from -o. JSON and raw modes never import rich."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, ClassVar, TextIO

from a2acli.redact import Redactor
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


_JSON_BREAKS = {0x85: "\\u0085", 0x2028: "\\u2028", 0x2029: "\\u2029"}


def _one_line_json(text: str) -> str:
    """JSON text (ensure_ascii=False) with the line breaks JSON leaves raw in a string (NEL, U+2028,
    U+2029) escaped as `\\u2028`: the same document, and a reader that splits lines on them (Python's
    str.splitlines, a terminal) sees no line of the agent's start among a2a's JSON Lines."""
    if text.isascii() or not ("\x85" in text or "\u2028" in text or "\u2029" in text):
        return text
    return text.translate(_JSON_BREAKS)


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


# The output modes, by the name -o gives: each subclass of Output that names itself joins it as it
# is defined (Output.__init_subclass__). settings.table.OUTPUT_MODES, -o's choices, lists the same
# names (the settings layer may not import render/): tests/render/test_output_modes.py holds the two
# together. A new mode: its class here and its name there.
MODES: dict[str, type[Output]] = {}


class Output:
    """The output of one invocation, in the mode -o names: one class per mode (MODES, below; a new
    mode is one class plus one entry there). `Output("json", ...)` builds the class the name picks.

    The base holds what every mode shares: the write path (stdout held while a stream is read),
    the side channel on stderr (notes, warnings, commands to copy, the text form of an error) and
    the primitive writers (json, raw, rows, table, text). The operations the commands and the
    pipeline call (reply, event, item, document, request, passthrough, remark, next_step,
    note_unless_viewed, error_document, error_context, task_page) are what each mode overrides:
    nothing outside render/ tests which mode it has."""

    name: ClassVar[str] = ""  # the -o value that picks the class
    human: ClassVar[bool] = False  # a person's view (records, tables, progress lines, remarks)
    animated: ClassVar[bool] = False  # rich's view and live displays wherever a terminal takes them
    wire_bytes: ClassVar[bool] = False  # stdout carries the bytes as they crossed the wire
    one_document: ClassVar[bool] = False  # stdout is one JSON document: a failure's error replaces it
    rich: bool = False  # the rich view on stdout (auto at a terminal, or FORCE_COLOR)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A class that names itself (`name = "..."`) is a mode: it joins MODES as it is defined."""
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("name"):
            MODES[cls.name] = cls

    def __new__(cls, mode: str | None = None, **_: Any) -> Output:
        if cls is Output:  # the factory: the class the mode's name picks
            try:
                cls = MODES[(mode or "auto").lower()]
            except KeyError:
                raise ValueError(f"unknown output mode {mode!r} (one of {', '.join(MODES)})") from None
        return object.__new__(cls)

    def __init__(
        self,
        mode: str | None = None,
        *,
        stdout: TextIO | None = None,
        stderr: TextIO | None = None,
        verbose: bool = False,
        quiet: bool = False,
        redactor: Redactor | None = None,
    ) -> None:
        # what every line and error it writes is masked through: the run's redactor (the invocation
        # that built it tells it every secret); without one (a usage error before any run, --version)
        # the static rules only (URL userinfo)
        self.redactor = redactor if redactor is not None else Redactor()
        self.verbose = verbose  # --verbose: the full breakdown in text (history, metadata, every part)
        self.quiet = quiet  # -q: stderr keeps warnings and errors (and what the user must act on) only
        self.out = stdout or sys.stdout
        self.err = stderr or sys.stderr
        self.rich = self.animated and _rich_on(self.out)
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
        return self.animated and _rich_on(self.err)

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
            self._put(_one_line_json("".join(encode(obj, 0))) + "\n")
            return
        self._put(_one_line_json(pretty(obj)) + "\n")

    def raw(self, data: bytes | str) -> None:
        text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
        self._put(text if text.endswith("\n") else text + "\n")

    def rows(self, rows: Rows, *, title: str | None = None, style: str = "cyan") -> None:
        """One record. Off a terminal, the text floor: a field is one `Label: value` line; a block
        (or a value that spans lines) is its `Label:` line, its content indented two spaces, and
        a blank line closing it; the record ends with a blank line."""
        if not self.rich:
            fields: list[str] = []
            for row in rows:  # the usual record (a stream event's): fields of printable ASCII, nothing to escape
                line = f"{row[0]}: {row[1] or ''}"
                if (len(row) > 2 and row[2]) or not (line.isascii() and line.isprintable()):
                    break  # a block, a line break or a character to escape: the general way below
                fields.append(line)
            else:
                if fields:
                    self._put("\n".join(fields) + "\n\n")
                    return
            lines: list[str] = []
            for row in rows:  # (visible escapes character by character: a field's line is escaped whole, once)
                label, value = row[0], str(row[1] or "")
                if len(row) > 2 and row[2]:  # a block: its content's lines, each indented under the label
                    lines.append(visible(f"{label}:", one_line=True))
                    lines += [
                        "  " + line for line in visible(value).split("\n")
                    ]  # agent text: control characters shown, not run
                    lines.append("")
                else:  # a field is one line: an agent's line feed in an id is shown, never a line of its own
                    lines.append(visible(f"{label}: {value}", one_line=True))
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
            block = len(row) > 2 and bool(row[2])  # a field is one line; a block's content keeps its lines
            grid.add_row(safe_text(row[0]), safe_text(str(row[1] or ""), one_line=not block))
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
        width = self.console.width
        whole = (columns, _shortened(columns, rows, shorter or {}, width))  # blocks have room for every column
        columns, rows = _dropped(*whole, drop, width)
        if _table_width(columns, rows) > width and keep:  # blocks: one per row, lines never wrapped
            self._blocks(*whole, title)
        else:
            self._rich_table(columns, rows, title, keep)

    def _blocks(self, columns: list[str], rows: list[list[str]], title: str | None) -> None:
        """A table too wide for the terminal: each row a block of `Label  value` lines."""
        if title:
            self.console.print(safe_text(title, style="italic"), soft_wrap=True)
        label = max(len(c) for c in columns)
        for row in rows:
            for c, v in zip(columns, row, strict=False):
                self.console.print(safe_text((f"{c:<{label}}  ", "bold cyan"), v), soft_wrap=True)
            self.console.print()

    def _rich_table(self, columns: list[str], rows: list[list[str]], title: str | None, keep: tuple[str, ...]) -> None:
        from rich.table import Table

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

    def text(self, *lines: str) -> None:
        """Lines of text on stdout, each one line (a line feed in one is shown `\\n`): text that
        spans lines is given line by line, so an agent's line feed never starts a line of a2a's."""
        self._put("".join(visible(line, one_line=True) + "\n" for line in lines))

    # -- side channel (stderr) ------------------------------------------------------------------
    def command(self, cmd: str, *, always: bool = False) -> None:
        """A command to copy, on a line of its own and never wrapped (a triple click selects it);
        not under -q unless `always` (the command that continues a task waiting for the user)."""
        if self.quiet and not always:
            return
        cmd = visible(self.redactor.text(cmd), one_line=True)
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

    def progress(self, msg: str) -> None:
        """A line of progress on stderr, at a terminal only (a log or a pipe keeps the report
        alone), and not under -q."""
        if self.quiet or not terminal(self.err):
            return
        self._err(msg, "dim")

    def tell(self, msg: str) -> None:
        """A line on stderr the user must act on (a code to enter), in bold on a terminal."""
        self._err(msg, "bold")

    def warn(self, msg: str) -> None:
        self._err(f"warning: {msg}", "yellow")

    def problem(self, msg: str) -> None:
        """An error found that does not end the command by itself (a finding of a card check)."""
        self._err(f"error: {msg}", "bold red")

    def _err(self, msg: str, style: str) -> None:
        # secrets hidden; whatever the output mode, stderr is a terminal: one message, one line (an
        # agent's line break in an id, an error or a body is shown escaped, never a line of its own)
        msg = visible(self.redactor.text(msg), one_line=True)
        if self._held:  # stdout first: the two streams keep their order
            self.flush()
        if self.err_rich:
            self.err_console.print(
                safe_text(_word_wrapped(msg, self.err_console.width), one_line=False, style=style), soft_wrap=True
            )
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
        debug: bool = False,
    ) -> None:
        """Under -o json the error envelope (official CLI spec Appendix B) goes to stdout as one
        compact line: the whole document when nothing was written yet, the last line after the
        events of a stream (JSON Lines); to stderr as text when a document is already there
        (stdout holds exactly one, as with --expect-state: the task, then the exit code 6). In
        text, `error: MESSAGE [CODE]` on stderr (the code unsaid when the message names it, as an
        A2A error's `TaskNotFoundError: …` does); of the error's `data`, what it says beyond the
        error (`google.rpc.ErrorInfo` entries, which restate its reason, only under --debug)."""
        message, hint, data = (
            self.redactor.text(message),
            self.redactor.text(hint) if hint else hint,
            self.redactor.value(data),
        )  # an agent may echo a credential
        if not self._error_envelope(message, hint, code, a2a_code, data, request_id):
            self._error_text(message, hint, code, data if debug else _beyond_error_info(data), request_id, usage)

    def _error_envelope(
        self, message: str, hint: str | None, code: str, a2a_code: Any, data: Any, request_id: str | None
    ) -> bool:
        """The error as a document on stdout, where this mode writes one (-o json): whether it did."""
        return False

    def _error_text(
        self, message: str, hint: str | None, code: str, data: Any, request_id: str | None, usage: str | None
    ) -> None:
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

    # -- the operations: what each mode overrides -----------------------------------------------
    def item(
        self, wire: bytes | str | None, doc: Any, human: Callable[[], None], *, lines: bool = False, each: bool = False
    ) -> None:
        """One thing received, in this mode: `wire` its bytes as they crossed the wire (raw; None:
        there are none, raw shows nothing), `doc` its JSON document (json; a function of no
        argument builds it only there; `each`: a list, one line per element), `human` the
        function that shows it to a person (text, auto). `lines`: JSON Lines (one of several)."""
        raise NotImplementedError

    def reply(
        self, kind: str, reply: Any, *, as_v1: bool = False, lines: bool = False, signature: Any = None, flags: str = ""
    ) -> None:
        """A method's reply (`kind`: the method table's `result`): raw its bytes, json its result
        (canonical V1 under --as v1), text its view (render.replies.view)."""

        def doc() -> Any:
            doc = reply.core if as_v1 else reply.result
            # google.protobuf.Empty: `{}` over REST, `null` as a JSON-RPC result; one shape on every binding
            return {} if kind == "empty" and doc is None else doc

        def human() -> None:
            from a2acli.render.replies import view

            view(self, kind, reply, signature=signature, flags=flags)

        wire = reply.raw if reply.raw or reply.exchange is not None else None  # a merged list has no bytes of its own
        self.item(wire, doc, human, lines=lines)

    def event(self, reply: Any, human: Callable[[Any], None], *, as_v1: bool = False) -> None:
        """One event of a stream (or a task polled after it): raw its bytes, json one line of its
        result (canonical V1 under --as v1), text `human(reply)`."""
        raise NotImplementedError

    def document(self, doc: Any, human: Callable[[], None], *, raw: Callable[[], None] | None = None) -> None:
        """A document of the command's own (a report, a status, the effective settings): json the
        document (a function of no argument builds it only there), text `human()`, raw `raw()`
        where the command says what its raw form is (else the text)."""
        raise NotImplementedError

    def request(self, head: list[str], body: bytes | None, document: Any, *, whole: Any = None) -> None:
        """A request as `--offline` shows it: text the request line, headers and body; raw the
        body alone on stdout, json its JSON document (`whole`: the request as one document where
        no envelope names the call: method, url, headers and body); the head on stderr in both."""
        raise NotImplementedError

    def passthrough(self, data: bytes | str | None) -> None:
        """Bytes that crossed the wire and that no reply carries (an error body, the first answer
        before a wait, each page of a list): on stdout under -o raw only."""

    def remark(self, msg: str) -> None:
        """A note for a person reading a human's view (a waiting line, a count): said in text
        and auto only; JSON and raw keep stderr for what matters."""
        if self.human:
            self.note(msg)

    def next_step(self, note: str, command: str) -> None:
        """The next command a person may want (the next page, a next message in a context): a
        note and the command to copy, in a human's view only."""
        if self.human:
            self.note(note)
            self.command(command)

    def note_unless_viewed(self, msg: str) -> None:
        """A note on what the human view shows by itself (a card's signature outcome): on stderr
        under json and raw, unsaid in text."""
        if not self.human:
            self.note(msg)

    def error_document(self, *, message: str, hint: str | None, code: str) -> None:
        """The error as a document on stdout where stdout carries documents (-o json) and nothing
        else (a note on stderr said it): a program reading stdout learns why it ends there."""

    def error_context(self, kind: str, reply: Any, *, as_v1: bool = False) -> None:
        """A reply shown before the error it explains (the task a cancel found settled), except
        under -o json, whose stdout is the one error document."""
        self.reply(kind, reply, as_v1=as_v1)

    def task_page(self, page: Any, *, as_v1: bool = False) -> None:
        """One page of a task list delivered task by task (`tasks list --stream`): json one Task
        a line as the wire spelt it, text one record each, raw the page as it came."""

        def tasks() -> list[Any]:
            body = page.core if as_v1 else page.result
            return body if isinstance(body, list) else (body or {}).get("tasks") or []

        def human() -> None:
            from a2acli.render.replies import task_records

            task_records(self, page.core)

        self.item(page.raw or None, tasks, human, each=True)


class TextOutput(Output):
    """-o text: the text floor everywhere, a terminal included (official CLI spec §11.2)."""

    name = "text"
    human = True

    def item(
        self, wire: bytes | str | None, doc: Any, human: Callable[[], None], *, lines: bool = False, each: bool = False
    ) -> None:
        human()

    def event(self, reply: Any, human: Callable[[Any], None], *, as_v1: bool = False) -> None:
        human(reply)

    def document(self, doc: Any, human: Callable[[], None], *, raw: Callable[[], None] | None = None) -> None:
        human()

    def request(self, head: list[str], body: bytes | None, document: Any, *, whole: Any = None) -> None:
        from a2acli.render import views

        lines = list(head)
        if document is not None:
            lines += ["", *views.pretty(document).split("\n")]  # JSON: a string's line feed is `\n` in it
        self.text(*lines)


class AutoOutput(TextOutput):
    """-o auto (the default): the rich view where stdout is a terminal that takes it (colour,
    panels, tables, spinners, a live view of a stream), the text floor elsewhere."""

    name = "auto"
    animated = True


class JsonOutput(Output):
    """-o json: each result one JSON document on stdout (a stream's events JSON Lines), errors the
    error envelope; stderr keeps warnings, errors and what the user must act on."""

    name = "json"
    one_document = True

    def item(
        self, wire: bytes | str | None, doc: Any, human: Callable[[], None], *, lines: bool = False, each: bool = False
    ) -> None:
        doc = doc() if callable(doc) else doc
        if each:
            for one in doc:
                self.json(one, lines=True)
        else:
            self.json(doc, lines=lines)

    def event(self, reply: Any, human: Callable[[Any], None], *, as_v1: bool = False) -> None:
        self.json(reply.core if as_v1 else reply.result, lines=True)

    def document(self, doc: Any, human: Callable[[], None], *, raw: Callable[[], None] | None = None) -> None:
        self.json(doc() if callable(doc) else doc)

    def request(self, head: list[str], body: bytes | None, document: Any, *, whole: Any = None) -> None:
        for line in head:
            self.note(line)
        self.json(document if whole is None else whole)

    def error_document(self, *, message: str, hint: str | None, code: str) -> None:
        self.error(message=message, hint=hint, code=code, a2a_code=None)

    def error_context(self, kind: str, reply: Any, *, as_v1: bool = False) -> None:
        pass  # stdout is the one error document

    def _error_envelope(
        self, message: str, hint: str | None, code: str, a2a_code: Any, data: Any, request_id: str | None
    ) -> bool:
        """The whole document when nothing was written yet, the last line after the events of a
        stream (JSON Lines); not when a document is already there (stdout holds exactly one, as
        with --expect-state: the task, then the exit code 6): then the text form on stderr."""
        if self._documents and not self._lines:
            return False
        err: dict[str, Any] = {"code": code, "message": message, "hint": hint, "a2aCode": a2a_code}
        if data is not None:
            err["data"] = data
        if request_id:
            err["requestId"] = request_id
        self.json({"error": err}, lines=True)
        return True


class RawOutput(Output):
    """-o raw: the bodies exactly as they crossed the wire (JSON-RPC envelopes, HTTP+JSON objects,
    each SSE event's data); what has no bytes of its own is shown as text (or as the command's
    raw form: the effective settings as JSON, the saved files' paths)."""

    name = "raw"
    wire_bytes = True

    def item(
        self, wire: bytes | str | None, doc: Any, human: Callable[[], None], *, lines: bool = False, each: bool = False
    ) -> None:
        if wire is not None:
            self.raw(wire)

    def event(self, reply: Any, human: Callable[[Any], None], *, as_v1: bool = False) -> None:
        self.raw(reply.raw)

    def document(self, doc: Any, human: Callable[[], None], *, raw: Callable[[], None] | None = None) -> None:
        (raw or human)()

    def request(self, head: list[str], body: bytes | None, document: Any, *, whole: Any = None) -> None:
        for line in head:
            self.note(line)
        if body:
            self.raw(body)

    def passthrough(self, data: bytes | str | None) -> None:
        if data:
            self.raw(data)


def named() -> str:
    """The mode names as a hint says them, the default first: `auto, text, json or raw`."""
    *first, last = [AutoOutput.name, *(name for name in MODES if name != AutoOutput.name)]
    return f"{', '.join(first)} or {last}"


def pick(
    name: str | None, *, among: tuple[type[Output], ...] | None = None, otherwise: type[Output] = AutoOutput
) -> type[Output]:
    """The class of the mode `name` gives (any case), if it is `among` the modes a command offers
    (all of them by default); else `otherwise`. `auth` and `diff` offer json and text (their
    reports have no wire bytes), `mock` json only (text otherwise)."""
    cls = MODES.get((name or "").lower())
    return cls if cls is not None and (among is None or cls in among) else otherwise


def _shortened(columns: list[str], rows: list[list[str]], shorter: dict[str, Any], width: int) -> list[list[str]]:
    """The rows with each `shorter` column in its short form, one column after the other, while
    the table is wider than `width`."""
    for c, fn in shorter.items():
        if _table_width(columns, rows) > width and c in columns:
            i = columns.index(c)
            rows = [[fn(v) if j == i else v for j, v in enumerate(row)] for row in rows]
    return rows


def _dropped(
    columns: list[str], rows: list[list[str]], drop: tuple[str, ...], width: int
) -> tuple[list[str], list[list[str]]]:
    """The table without the `drop` columns, one after the other, while it is wider than `width`."""
    for c in drop:
        if _table_width(columns, rows) > width and c in columns:
            i = columns.index(c)
            columns = columns[:i] + columns[i + 1 :]
            rows = [row[:i] + row[i + 1 :] for row in rows]
    return columns, rows


def _beyond_error_info(data: Any) -> Any:
    """An error's data without its `google.rpc.ErrorInfo` entries (the A2A error's reason and
    domain, which its name says already); None when nothing else is left."""

    def info(item: Any) -> bool:
        return isinstance(item, dict) and str(item.get("@type", "")).endswith("google.rpc.ErrorInfo")

    if isinstance(data, list):
        rest = [item for item in data if not info(item)]
        return rest or None
    return None if info(data) else data


def _word_wrapped(text: str, width: int) -> str:
    """A stderr line for a terminal, wrapped at spaces (the terminal itself cut words in two at
    its edge); a word longer than the width (a URL, a token) is kept whole, for the terminal to
    wrap, so that it copies whole. Each continuation is indented: whatever an agent's words are,
    none of them starts a line of ours (a `hint:` padded to fall at the wrap stays inside)."""
    import textwrap

    return "\n".join(
        textwrap.fill(line, width, break_long_words=False, break_on_hyphens=False, subsequent_indent="  ")
        if len(line) > width
        else line
        for line in text.split("\n")
    )


def _table_width(columns: list[str], rows: list[list[str]]) -> int:
    """The width of a rich table (heavy-head box, padding 1) whose cells are not wrapped."""
    widths = [max([len(c), *(len(str(r[i])) for r in rows)]) for i, c in enumerate(columns)]
    return sum(widths) + 3 * len(widths) + 1
