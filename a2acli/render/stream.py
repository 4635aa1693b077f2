"""Stream output: each event is shown the moment it arrives, and memory stays flat however long the
stream runs.

- `-o raw`: each SSE `data:` payload as received; `-o json`: JSON Lines, one event per line (a
  task polled after an early close comes last).
- text off a terminal: one record per event (`Event: <kind>`, then its fields and blocks), then a
  closing record with Task, Context, State and Events.
- In those three, the events of one network read are written together and flushed before the
  stream is read again (render.output.Output.holding, called by pipeline.policies.consume): each
  event is on stdout before `a2a` waits on the network, at one `write` per read.
- text on a terminal: a rich Live view updated in place: the task's state timeline (when each event
  reached us, elapsed time, state, status message), artifacts as they are produced (text shown, data
  pretty-printed, files named with size and media type; chunks reassembled by
  `append`/`lastChunk`), and a closing summary with task id, context id and state.

The live view keeps bounded state only: the last TIMELINE_ROWS timeline rows, MAX_ARTIFACTS
artifact summaries, and per artifact at most MAX_PARTS part summaries whose text is a bounded head
and tail. Nothing else is kept per event."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import Any

from a2acli.render import views
from a2acli.render.output import Output
from a2acli.render.safe import safe_text

TIMELINE_ROWS = 12
MAX_ARTIFACTS = 6
MAX_PARTS = 6
TEXT_HEAD = 1200  # characters kept from the start of a (reassembled) text part
TEXT_TAIL = 400  # ... and from its end
NOTE_CHARS = 160  # a status message in the timeline
DATA_LINES = 24  # pretty-printed data part lines shown
REFRESH_PER_SECOND = 10  # the refresh thread's frame rate: what a flood of events costs
QUIET_GAP = 0.1  # an event after this long without one is drawn at once, not at the next frame


event_kind = views.event_kind
_EVENT_STYLES = {"task": "cyan", "message": "green", "status-update": "blue", "artifact-update": "magenta"}


# -- bounded state of the live view ---------------------------------------------------------------


class TextBuffer:
    """A text that may grow without bound, kept as a bounded head and tail plus its length."""

    __slots__ = ("head", "tail", "total")

    def __init__(self) -> None:
        self.head = ""
        self.tail = ""
        self.total = 0

    def append(self, text: str) -> None:
        self.total += len(text)
        room = TEXT_HEAD - len(self.head)
        if room > 0:
            self.head += text[:room]
            text = text[room:]
        if text:
            self.tail = (self.tail + text)[-TEXT_TAIL:]

    @property
    def skipped(self) -> int:
        return self.total - len(self.head) - len(self.tail)

    def render(self) -> str:
        if not self.tail:
            return self.head
        if self.skipped <= 0:
            return self.head + self.tail
        return f"{self.head}\n… [{self.skipped} characters not shown] …\n{self.tail}"


@dataclass
class PartSummary:
    kind: str  # text | data | file | other
    text: TextBuffer | None = None
    pretty: str = ""  # data: the first DATA_LINES lines, pretty-printed
    file: str = ""  # file: name, media type, size or URL


def file_size(part: dict[str, Any]) -> int | None:
    """Decoded size of an inline (base64) file part, without decoding it."""
    raw = part.get("raw")
    if not isinstance(raw, str):
        return None
    s = raw.strip()
    return max(len(s) * 3 // 4 - s[-2:].count("="), 0)


def human_size(n: int) -> str:
    size = float(n)
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{n} bytes" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n} bytes"  # pragma: no cover


def summarize_part(part: dict[str, Any]) -> PartSummary:
    if "text" in part:
        buf = TextBuffer()
        buf.append(str(part["text"]))
        return PartSummary("text", text=buf)
    if "data" in part:
        lines = views.pretty(part["data"]).split("\n")
        if len(lines) > DATA_LINES:
            lines = lines[:DATA_LINES] + [f"… ({len(lines) - DATA_LINES} more lines)"]
        return PartSummary("data", pretty="\n".join(lines))
    if "raw" in part or "url" in part:
        name = part.get("filename") or "(unnamed file)"
        media = part.get("mediaType") or "application/octet-stream"
        size = file_size(part)
        where = human_size(size) if size is not None else f"at {part['url']}"
        return PartSummary("file", file=f"{name} ({media}, {where})")
    return PartSummary("other", pretty=views.compact(part, 200))


@dataclass
class ArtifactSummary:
    artifact_id: str
    name: str
    description: str = ""
    parts: list[PartSummary] = field(default_factory=list)
    more_parts: int = 0  # parts beyond MAX_PARTS, counted not kept
    chunks: int = 0
    complete: bool = False
    continued: bool = False  # an append to an artifact the view no longer held

    def add(self, parts: Any, *, append: bool) -> None:
        if not append:
            self.parts, self.more_parts = [], 0
        for p in parts if isinstance(parts, list) else []:
            if not isinstance(p, dict):
                continue
            last = self.parts[-1] if self.parts else None
            if append and last is not None and last.kind == "text" and "text" in p and last.text is not None:
                last.text.append(str(p["text"]))  # streamed text: one growing text
            elif len(self.parts) < MAX_PARTS:
                self.parts.append(summarize_part(p))
            else:
                self.more_parts += 1


@dataclass
class TimelineRow:
    clock: str  # when the event reached us, time of day to a tenth of a second (one clock for every row)
    elapsed: float  # seconds since the view started, on the same clock
    state: str
    note: str


def _clock() -> str:
    """The time of day the event reached us, `12:00:00.1`: one clock and one precision for every
    row, so the timeline reads down in order (the agent's own timestamps stay in -o json and the
    text records: mixed with ours they read out of order by the network delay)."""
    from datetime import datetime

    now = datetime.now()
    return now.strftime("%H:%M:%S.") + str(now.microsecond // 100_000)


def _one_line(text: str, limit: int = NOTE_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class LiveState:
    """What the live view shows. Bounded: O(TIMELINE_ROWS + MAX_ARTIFACTS * MAX_PARTS)."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.events = 0
        self.task_id = ""
        self.context_id = ""
        self.state = ""
        self.timeline: deque[TimelineRow] = deque(maxlen=TIMELINE_ROWS)
        self.timeline_total = 0
        self.artifacts: OrderedDict[str, ArtifactSummary] = OrderedDict()
        self.artifacts_dropped = 0
        self.done = False
        self.polled = False

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def _row(self, state: str, note: str = "") -> None:
        self.timeline.append(TimelineRow(_clock(), self.elapsed(), state, _one_line(note)))
        self.timeline_total += 1

    def _status(self, status: Any) -> None:
        status = status if isinstance(status, dict) else {}
        self.state = views.state_label(status.get("state"))
        msg = status.get("message")
        note = views.parts_text(msg.get("parts")) if isinstance(msg, dict) else ""
        self._row(self.state, note)

    def _ids(self, task_id: Any, context_id: Any) -> None:
        if task_id:
            self.task_id = str(task_id)
        if context_id:
            self.context_id = str(context_id)

    def feed(self, core: Any) -> None:
        self.events += 1
        if not isinstance(core, dict):
            self._row("event", views.compact(core, NOTE_CHARS))
            return
        if isinstance(core.get("task"), dict):
            self.task(core["task"])
        elif isinstance(core.get("statusUpdate"), dict):
            ev = core["statusUpdate"]
            self._ids(ev.get("taskId"), ev.get("contextId"))
            self._status(ev.get("status"))
        elif isinstance(core.get("artifactUpdate"), dict):
            ev = core["artifactUpdate"]
            self._ids(ev.get("taskId"), ev.get("contextId"))
            self.artifact(ev.get("artifact") or {}, append=bool(ev.get("append")), last=bool(ev.get("lastChunk")))
        elif isinstance(core.get("message"), dict):
            msg = core["message"]
            self._ids(msg.get("taskId"), msg.get("contextId"))
            self._row(f"message ({views.role_label(msg.get('role')) or 'agent'})", views.parts_text(msg.get("parts")))
        else:
            self._row("event", views.compact(core, NOTE_CHARS))

    def task(self, task: dict[str, Any], *, polled: bool = False) -> None:
        self._ids(task.get("id"), task.get("contextId"))
        self._status(task.get("status"))
        if polled:
            self.polled = True
            self.timeline[-1].note = (
                "polled (GetTask)" + (f": {self.timeline[-1].note}" if self.timeline[-1].note else "")
            )[:NOTE_CHARS]
        for art in task.get("artifacts") or []:
            if isinstance(art, dict):
                self.artifact(art, append=False, last=True)

    def artifact(self, art: dict[str, Any], *, append: bool, last: bool) -> None:
        aid = str(art.get("artifactId") or art.get("name") or f"#{len(self.artifacts) + 1}")
        summary = self.artifacts.get(aid)
        if summary is None:
            summary = ArtifactSummary(aid, str(art.get("name") or ""), continued=append)
            self.artifacts[aid] = summary
            while len(self.artifacts) > MAX_ARTIFACTS:
                self.artifacts.popitem(last=False)
                self.artifacts_dropped += 1
        else:
            self.artifacts.move_to_end(aid)
        if art.get("name"):
            summary.name = str(art["name"])
        if art.get("description"):
            summary.description = _one_line(str(art["description"]))
        summary.add(art.get("parts"), append=append)
        summary.chunks += 1
        summary.complete = last or summary.complete


# -- the rich rendering of that state ---------------------------------------------------------------


_STATE_STYLES = {
    "completed": "green",
    "failed": "red",
    "rejected": "red",
    "canceled": "yellow",
    "input-required": "yellow",
    "auth-required": "yellow",
    "working": "cyan",
    "submitted": "blue",
}


def render_live(s: LiveState) -> Any:
    """A rich renderable of the state (rich is imported only here, for a human at a terminal)."""
    from rich.console import Group
    from rich.text import Text

    # agent text (ids, states, notes, names, parts) enters through safe_text alone: escaped, no markup read
    parts: list[Any] = [_header(s)]
    if s.timeline:
        parts.append(_timeline(s))
    if s.artifacts_dropped:
        parts.append(Text(f"… {s.artifacts_dropped} earlier artifact(s) not shown", style="dim"))
    parts += [_artifact_panel(art) for art in s.artifacts.values()]
    if s.done:
        parts.append(_summary_panel(s))
    return Group(*parts)


def _timeline(s: LiveState) -> Any:
    """The states and status messages received, a line each (plain styled lines, not a Table: a
    frame must be cheap to draw)."""
    from rich.text import Text

    width = max(len(r.state) for r in s.timeline)
    timeline = Text(no_wrap=True, overflow="ellipsis")
    timeline.append(f"{'Received':<10}  {'Elapsed':>7}  {'State':<{width}}  Status message", style="bold dim")
    earlier = s.timeline_total - len(s.timeline)
    if earlier > 0:
        timeline.append(f"\n{'':<10}  {'':>7}  {'':<{width}}  … {earlier} earlier row(s) not shown", style="dim")
    for row in s.timeline:
        style = _STATE_STYLES.get(row.state, "magenta" if row.state.startswith("message") else "white")
        timeline.append("\n")
        timeline.append_text(
            safe_text(
                (f"{row.clock:<10}  {'+' + format(row.elapsed, '.1f') + 's':>7}  ", "dim"),
                (f"{row.state:<{width}}", style),
                f"  {row.note}",
            )
        )
    return timeline


def _artifact_panel(art: Any) -> Any:
    """One artifact as streamed so far: its name and chunks in the title, its parts inside."""
    from rich.console import Group
    from rich.panel import Panel
    from rich.text import Text

    named: list[str | tuple[str, str]] = [(art.name or art.artifact_id, "bold magenta")]
    if art.name and art.name != art.artifact_id:
        named.append((f" ({art.artifact_id})", "dim"))
    chunks = f"{art.chunks} chunk{'s' if art.chunks != 1 else ''}"
    named.append((f"  {chunks}, {'complete' if art.complete else 'streaming…'}", "dim"))
    body: list[Any] = []
    if art.description:
        body.append(safe_text(art.description, one_line=False, style="italic"))
    if art.continued:
        body.append(Text("(continued: earlier chunks not shown)", style="dim"))
    body += [_part_text(p) for p in art.parts]
    if art.more_parts:
        body.append(Text(f"… {art.more_parts} more part(s)", style="dim"))
    return Panel(
        Group(*body) if body else Text(""),
        title=safe_text(*named),
        title_align="left",
        border_style="magenta",
        expand=False,
    )


def _part_text(p: Any) -> Any:
    if p.kind == "text" and p.text is not None:
        return safe_text(p.text.render(), one_line=False)
    if p.kind == "data":
        return safe_text(p.pretty, one_line=False, style="green")
    if p.kind == "file":
        return safe_text("file " + p.file, style="cyan")
    return safe_text(p.pretty, one_line=False)


def _summary_panel(s: LiveState) -> Any:
    """The stream's end: task, context, state, and how many events in how long."""
    from rich.panel import Panel
    from rich.table import Table

    style = _STATE_STYLES.get(s.state, "white")
    summary = Table.grid(padding=(0, 2))
    summary.add_column(style=f"bold {style}", no_wrap=True)
    summary.add_column(overflow="fold")
    summary.add_row("Task", safe_text(s.task_id or "(none)"))
    summary.add_row("Context", safe_text(s.context_id))
    summary.add_row("State", safe_text(s.state or "unknown", style=f"bold {style}"))
    summary.add_row("Events", f"{s.events} in {s.elapsed():.1f}s" + (" (then polled)" if s.polled else ""))
    return Panel(summary, title="Summary", title_align="left", border_style=style, expand=False)


def _header(s: LiveState) -> Any:
    """`Task ID  STATE  N events, T s  Context ID`: one line when it fits the terminal, else the
    context on a line of its own, so a label is never wrapped away from its id."""
    events = f"  {s.events} event{'s' if s.events != 1 else ''}, {s.elapsed():.1f}s"
    head = safe_text(
        ("Task ", "bold"),
        s.task_id or "(none yet)",
        "  ",
        (s.state or "waiting", f"bold {_STATE_STYLES.get(s.state, 'white')}"),
        (events, "dim"),
    )
    if not s.context_id:
        return head
    return _OneLineOrTwo(head, safe_text(("Context ", "bold"), s.context_id))


class _OneLineOrTwo:
    """Two texts side by side when they fit the width the view is drawn at, else one below the other."""

    def __init__(self, first: Any, second: Any) -> None:
        self.first, self.second = first, second

    def __rich_console__(self, console: Any, options: Any) -> Any:
        from rich.text import Text

        if self.first.cell_len + 2 + self.second.cell_len <= options.max_width:
            yield Text.assemble(self.first, "  ", self.second)
        else:
            yield self.first
            yield self.second


# -- the view ---------------------------------------------------------------------------------------


class StreamView:
    """`with StreamView(out) as view: view.event(reply)…; view.final(polled); view.summary(task)`.

    `console` forces the live view onto that rich Console (tests render into a StringIO)."""

    def __init__(self, out: Output, *, as_v1: bool = False, console: Any = None) -> None:
        self.out = out
        self.as_v1 = as_v1
        self.count = 0
        self.polled = 0  # records of the task as polled after the stream (text floor)
        self._console = console
        self.live_mode = out.human and (console is not None or out.rich)
        self.state = LiveState() if self.live_mode else None
        self._live: Any = None
        self._entered = False
        self._lock = threading.Lock()
        self._last_event = 0.0
        self._swapped_err: tuple[Any] | None = None  # the Output's stderr console while live
        self._restore_echo: Any = None  # puts back the terminal's echo of ^C (render.progress.hide_control_echo)

    waiting: Any = None  # no waiting display of its own: a poll after the stream shows its own

    # -- context ---------------------------------------------------------------------------------
    def __enter__(self) -> StreamView:
        self._entered = True
        return self

    def __exit__(self, *exc: Any) -> None:
        self._entered = False
        self._stop_live()

    @property
    def console(self) -> Any:
        return self._console if self._console is not None else self.out.console

    def _renderable(self) -> Any:
        with self._lock:
            assert self.state is not None
            return render_live(self.state)

    def _start_live(self) -> None:
        """Started at the first event, so what the call printed before (X-Request-ID) stays above."""
        from rich.live import Live

        self._live = Live(
            console=self.console,
            auto_refresh=True,
            refresh_per_second=REFRESH_PER_SECOND,
            redirect_stdout=False,
            redirect_stderr=False,
            get_renderable=self._renderable,
        )
        # Notes written while the view is live would tear it when stderr is the same terminal:
        # print them above the view instead (only when stderr is a terminal; else they go as usual).
        if self.out.err_rich and self._console is None:
            self._swapped_err = (self.out.route_notes_to(self.console),)
        from a2acli.render.progress import ctrl_c_held, hide_control_echo

        if self._console is None:
            self._restore_echo = hide_control_echo()
        with ctrl_c_held():
            self._live.start(refresh=True)

    def _stop_live(self) -> None:
        if self._live is None:
            return
        try:
            self._live.refresh()
            self._live.stop()
        finally:
            self._live = None
            if self._restore_echo is not None:
                self._restore_echo()
                self._restore_echo = None
            if self._swapped_err is not None:
                self.out.route_notes_to(self._swapped_err[0])
                self._swapped_err = None

    def _refresh(self) -> None:
        """Draw now when events come one at a time; in a flood, the refresh thread draws the
        latest state REFRESH_PER_SECOND times a second (so drawing costs the same at any rate)."""
        now = time.monotonic()
        quiet, self._last_event = now - self._last_event >= QUIET_GAP, now
        if self._live is None:
            if self._entered:
                self._start_live()
        elif quiet:
            from a2acli.render.progress import ctrl_c_held

            with ctrl_c_held():
                self._live.refresh()

    def _feed(self, fn: Any, *args: Any, **kw: Any) -> None:
        assert self.state is not None
        with self._lock:
            fn(*args, **kw)
        if self._entered or self._live is not None:
            self._refresh()
        else:  # used outside `with`: no live region, draw the state once
            self.console.print(render_live(self.state))

    # -- events ----------------------------------------------------------------------------------
    def event(self, reply: Any) -> None:
        self.count += 1
        self.out.event(reply, self._event_view, as_v1=self.as_v1)

    def _event_view(self, reply: Any) -> None:
        if self.live_mode:
            assert self.state is not None
            self._feed(self.state.feed, reply.core)
        else:
            core = reply.core
            rows = views.event_rows(core if isinstance(core, dict) else {}, verbose=self.out.verbose)
            if not self.out.rich:  # the text floor: no title, no colour to work out per event
                self.out.rows(rows)
                return
            kind = event_kind(core)
            self.out.rows(rows, title=f"#{self.count} {kind}", style=_EVENT_STYLES.get(kind, "white"))

    def final(self, reply: Any) -> None:
        """The task as polled after the stream ended early (or fetched for a finished task)."""
        self.out.event(reply, self._final_view, as_v1=self.as_v1)

    def _final_view(self, reply: Any) -> None:
        core = (
            reply.core.get("task", reply.core)
            if isinstance(reply.core, dict) and isinstance(reply.core.get("task"), dict)
            else reply.core
        )
        if self.live_mode:
            assert self.state is not None
            self._feed(self.state.task, core or {}, polled=True)
        else:
            self.polled += 1
            self.out.rows(
                [views.Row(views.L.EVENT, "task")] + views.task_rows(core or {}, verbose=self.out.verbose),
                title="Task (polled)",
            )

    def summary(self, task: dict[str, Any]) -> None:
        if not self.out.human:
            return
        if self.live_mode:
            assert self.state is not None
            with self._lock:
                if task.get("id"):
                    self.state._ids(task.get("id"), task.get("contextId"))
                    if task.get("state"):
                        self.state.state = views.state_label(task.get("state"))
                self.state.done = True
            if self._live is not None:
                from a2acli.render.progress import ctrl_c_held

                with ctrl_c_held():
                    self._live.refresh()
            elif self.count or task.get("id"):
                self.console.print(render_live(self.state))
            return
        if not task.get("id"):
            return
        L = views.L  # the last record restates what the next command needs (the spec's text floor)
        rows = [
            (L.TASK, str(task["id"])),
            (L.CONTEXT, str(task.get("contextId", ""))),
            (L.STATE, views.state_label(task.get("state"))),
            (L.EVENTS, str(self.count)),
        ]
        if self.polled:  # the records above are the stream's events and then the task as polled: both counted
            rows.append((L.POLLED, str(self.polled)))
        self.out.rows(rows, title="Summary")


# -- a stream shown as its end: `tasks subscribe` without --stream --------------------------------

_BARE_KINDS = {
    "task": "task",
    "status-update": "statusUpdate",
    "artifact-update": "artifactUpdate",
    "message": "message",
}
_MEMBERS = {
    "task": "task",
    "statusUpdate": "statusUpdate",
    "status_update": "statusUpdate",
    "artifactUpdate": "artifactUpdate",
    "artifact_update": "artifactUpdate",
    "message": "message",
    "msg": "message",
}


def _unwrap(event: Any) -> tuple[str, dict[str, Any], bool]:
    """(member, object, bare) of one stream event as its wire spelt it: a StreamResponse wrapper
    ({"task": …}, {"statusUpdate": …}; V1, and 0.3 REST) or a bare 0.3 JSON-RPC object with `kind`."""
    if isinstance(event, dict):
        kind = event.get("kind")
        if isinstance(kind, str) and kind in _BARE_KINDS:
            return _BARE_KINDS[kind], event, True
        for key, member in _MEMBERS.items():
            if isinstance(event.get(key), dict):
                return member, event[key], False
    return "", {}, False


class TaskFold:
    """The task as it stands when a stream ends, in the spelling of the events it is fed: the
    latest Task snapshot with every later status update and artifact update applied (an append
    extends the artifact's parts). A stream that carried only a Message ends as that message."""

    def __init__(self) -> None:
        self.task: dict[str, Any] | None = None
        self.message: dict[str, Any] | None = None

    def add(self, event: Any) -> None:
        import copy

        member, obj, bare = _unwrap(event)
        if member == "task":
            self.task = copy.deepcopy(obj)  # a fresh snapshot replaces what was folded so far
        elif member == "statusUpdate":
            task = self._task(obj, bare)
            if "status" in obj:
                task["status"] = copy.deepcopy(obj["status"])
        elif member == "artifactUpdate" and isinstance(obj.get("artifact"), dict):
            self._artifact(self._task(obj, bare), copy.deepcopy(obj["artifact"]), append=bool(obj.get("append")))
        elif member == "message":
            self.message = obj

    def _task(self, ev: dict[str, Any], bare: bool) -> dict[str, Any]:
        if self.task is None:  # an update before any snapshot: the task as far as it tells
            self.task = {k: v for k, v in (("id", ev.get("taskId")), ("contextId", ev.get("contextId"))) if v}
            if bare:
                self.task["kind"] = "task"
        return self.task

    @staticmethod
    def _artifact(task: dict[str, Any], art: dict[str, Any], *, append: bool) -> None:
        arts = task.get("artifacts")
        if not isinstance(arts, list):
            arts = task["artifacts"] = []
        aid = art.get("artifactId")
        for i, old in enumerate(arts):
            if isinstance(old, dict) and aid is not None and old.get("artifactId") == aid:
                if append:
                    key = "parts" if "parts" in art or "parts" in old else "content"  # 0.3 REST names them content
                    merged = {**old, **{k: v for k, v in art.items() if k != key}}
                    merged[key] = list(old.get(key) or []) + list(art.get(key) or [])
                    arts[i] = merged
                else:
                    arts[i] = art
                return
        arts.append(art)

    def result(self) -> Any:
        return self.task if self.task is not None else self.message


class FinalView:
    """`tasks subscribe` without --stream: the events folded into the task as it stands when the
    stream ends (TaskFold), shown once. -o json: one document, the terminal Task as the wire spelt
    it (canonical V1 under --as v1); text: the task's record, with a progress line on stderr
    meanwhile; -o raw: each event as it crossed the wire. Same interface as StreamView."""

    def __init__(self, out: Output, *, as_v1: bool = False) -> None:
        self.out = out
        self.as_v1 = as_v1
        self.count = 0
        self.fold = TaskFold()
        self._wait: Any = None

    def __enter__(self) -> FinalView:
        if self.out.human:
            from a2acli.render.progress import Waiting

            self._wait = Waiting(self.out, what="following task").__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop()

    @property
    def waiting(self) -> Any:
        """Its progress display (text mode): a poll after the stream moves this one, so each
        state change is said once."""
        return self._wait

    def _stop(self) -> None:
        if self._wait is not None:
            wait, self._wait = self._wait, None
            wait.__exit__(None, None, None)

    def event(self, reply: Any) -> None:
        self.count += 1
        if self.out.wire_bytes:
            self.out.raw(reply.raw)
            return
        core_wanted = self.out.human or self.as_v1
        self.fold.add(reply.core if core_wanted else reply.result)
        if self._wait is not None and self.fold.task is not None:
            self._wait.update(self.fold.task)

    final = event  # the task polled after an early close is one more snapshot

    def summary(self, task: dict[str, Any]) -> None:
        self._stop()
        doc = self.fold.result()
        if doc is not None:  # raw: each event was shown as it came
            self.out.item(None, doc, lambda: self._folded(doc))

    def _folded(self, doc: Any) -> None:
        from a2acli.render.replies import view

        kind = "task" if self.fold.task is not None else "send"
        view(self.out, kind, _Shown(doc if kind == "task" else {"message": doc}))


class _Shown:
    """A folded object in the shape `present` reads (its core form)."""

    def __init__(self, core: Any) -> None:
        self.core = core
        self.result = core
        self.raw = b""
        self.exchange = None
