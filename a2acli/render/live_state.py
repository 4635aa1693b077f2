"""The bounded state behind the live stream view (render.stream.StreamView on a terminal): the
task's ids and state, its timeline and its artifacts as they are produced.

It keeps bounded state only: the last TIMELINE_ROWS timeline rows, MAX_ARTIFACTS artifact
summaries, and per artifact at most MAX_PARTS part summaries whose text is a bounded head and tail.
Nothing else is kept per event. render.live draws it."""

from __future__ import annotations

import time
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import Any

from a2acli.render import views

TIMELINE_ROWS = 12
MAX_ARTIFACTS = 6
MAX_PARTS = 6
TEXT_HEAD = 1200  # characters kept from the start of a (reassembled) text part
TEXT_TAIL = 400  # ... and from its end
NOTE_CHARS = 160  # a status message in the timeline
DATA_LINES = 24  # pretty-printed data part lines shown


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
