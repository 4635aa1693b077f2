"""What the pipeline tells the person running it, as typed events: a note, a warning, a command to
copy, a request shown under --offline, an error body as it came, a retry. The pipeline hands each
to its `Sink` and knows nothing of how (or whether) it is shown: render.events.Presenter writes
them to the terminal, `a2a check` keeps them (Recording), a silent run drops them (Silent).
A layer of its own, below both the pipeline and render (stdlib only), so each imports it.

Replies and stream events are not wrapped here: they are the `Reply` objects Call.unary, .stream
and .invoke return and yield (a stream allocates nothing more per event)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class Note:
    """A line for the person running the command (not under -q, unless `always`: what they asked
    for, as --debug's lines); `aside` ends it only at a terminal (`(Ctrl-C stops the wait…)`)."""

    text: str
    aside: str = ""
    always: bool = False


@dataclass(frozen=True, slots=True)
class Warn:
    """A warning: said whatever -q says."""

    text: str


@dataclass(frozen=True, slots=True)
class Command:
    """A command to copy, on a line of its own (not under -q unless `always`)."""

    text: str
    always: bool = False


@dataclass(frozen=True, slots=True)
class NextStep:
    """What to do next and the command that does it (a human's view only)."""

    text: str
    command: str


@dataclass(frozen=True, slots=True)
class RequestPrepared:
    """A request as --offline shows it: request line and headers (`head`), the body as bytes, its
    JSON document, and `whole` (method, URL, headers and body) where no envelope names the call."""

    head: list[str]
    body: bytes | None
    document: Any
    whole: Any = None


@dataclass(frozen=True, slots=True)
class Passthrough:
    """Bytes as they crossed the wire that no reply carries (an error body, an error event's data):
    shown as they came under -o raw."""

    data: bytes | str


@dataclass(frozen=True, slots=True)
class Retry:
    """A unary call about to be sent again: attempt `attempt` of `of`, after `delay` seconds,
    because of `reason`; `same` names the idempotency key that makes it safe (`Idempotency-Key: K`)."""

    attempt: int
    of: int
    delay: float
    reason: str
    same: str = ""

    @property
    def text(self) -> str:
        return (
            f"retry {self.attempt}/{self.of} in {self.delay:g}s"
            + (f" (same {self.same})" if self.same else "")
            + f": {self.reason}"
        )


@dataclass(frozen=True, slots=True)
class TaskShown:
    """A task read to explain an error (a refused cancel): under -o json it is the error's context
    on stdout, in text its record."""

    kind: str
    reply: Any
    as_v1: bool = False


Event = Note | Warn | Command | NextStep | RequestPrepared | Passthrough | Retry | TaskShown


class WaitDisplay(Protocol):
    """A wait in progress (a spinner at a terminal, lines off one, nothing at all): told each look
    at the task, and when it began."""

    started: float

    def update(self, task: Any) -> None: ...


class Sink(Protocol):
    """Where the pipeline's events go. `flush` is called before each network read of a stream
    (what the events of the last read wrote reaches the reader first): keep it cheap. `holding`
    brackets a stream's events (a presenter may batch what they write until `flush`); `waiting`
    opens the display of a wait for a task."""

    def emit(self, event: Event) -> None: ...

    def flush(self) -> None: ...

    def holding(self) -> AbstractContextManager[None]: ...

    def waiting(
        self,
        task: dict[str, Any] | None = None,
        *,
        what: str = "waiting for task",
        since: float | None = None,
        announced: bool = False,
    ) -> AbstractContextManager[WaitDisplay]: ...


class QuietWait:
    """A wait nobody watches: it keeps when it began, and nothing else."""

    __slots__ = ("started",)

    def __init__(self, since: float | None = None) -> None:
        self.started = since if since is not None else time.monotonic()

    def update(self, task: Any) -> None:
        pass

    def event(self, reply: Any) -> None:
        pass


class Silent:
    """A sink that drops every event (a run whose findings are its own report)."""

    def emit(self, event: Event) -> None:
        pass

    def flush(self) -> None:
        pass

    def holding(self) -> AbstractContextManager[None]:
        return nullcontext()

    @contextmanager
    def waiting(
        self,
        task: dict[str, Any] | None = None,
        *,
        what: str = "waiting for task",
        since: float | None = None,
        announced: bool = False,
    ) -> Iterator[WaitDisplay]:
        yield QuietWait(since)


class Recording(Silent):
    """A sink that keeps every event, in order (`a2a check`, tests)."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)

    def of(self, kind: type) -> list[Any]:
        """The events of one type, in order."""
        return [e for e in self.events if isinstance(e, kind)]
