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
from typing import Any, Protocol


class _Event:
    """An event's fields are its __slots__, set once (no dataclass: eight of them would cost the
    start-up of every command some milliseconds). Equal when of one type with equal fields."""

    __slots__: tuple[str, ...] = ()

    def _set(self, *values: Any) -> None:
        for name, value in zip(self.__slots__, values, strict=True):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _fields(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash((type(self), self._fields()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self.__slots__)})"


class Note(_Event):
    """A line for the person running the command (not under -q, unless `always`: what they asked
    for, as --debug's lines); `aside` ends it only at a terminal (`(Ctrl-C stops the wait…)`)."""

    __slots__ = ("text", "aside", "always")
    text: str
    aside: str
    always: bool

    def __init__(self, text: str, aside: str = "", always: bool = False) -> None:
        self._set(text, aside, always)


class Warn(_Event):
    """A warning: said whatever -q says."""

    __slots__ = ("text",)
    text: str

    def __init__(self, text: str) -> None:
        self._set(text)


class CommandLine(_Event):
    """A command to copy, on a line of its own (not under -q unless `always`)."""

    __slots__ = ("text", "always")
    text: str
    always: bool

    def __init__(self, text: str, always: bool = False) -> None:
        self._set(text, always)


class NextStep(_Event):
    """What to do next and the command that does it (a human's view only)."""

    __slots__ = ("text", "command")
    text: str
    command: str

    def __init__(self, text: str, command: str) -> None:
        self._set(text, command)


class RequestPrepared(_Event):
    """A request as --offline shows it: request line and headers (`head`), the body as bytes, its
    JSON document, and `whole` (method, URL, headers and body) where no envelope names the call."""

    __slots__ = ("head", "body", "document", "whole")
    head: list[str]
    body: bytes | None
    document: Any
    whole: Any

    def __init__(self, head: list[str], body: bytes | None, document: Any, whole: Any = None) -> None:
        self._set(head, body, document, whole)


class Passthrough(_Event):
    """Bytes as they crossed the wire that no reply carries (an error body, an error event's data):
    shown as they came under -o raw."""

    __slots__ = ("data",)
    data: bytes | str

    def __init__(self, data: bytes | str) -> None:
        self._set(data)


class Retry(_Event):
    """A unary call about to be sent again: attempt `attempt` of `of`, after `delay` seconds,
    because of `reason`; `same` names the idempotency key that makes it safe (`Idempotency-Key: K`)."""

    __slots__ = ("attempt", "of", "delay", "reason", "same")
    attempt: int
    of: int
    delay: float
    reason: str
    same: str

    def __init__(self, attempt: int, of: int, delay: float, reason: str, same: str = "") -> None:
        self._set(attempt, of, delay, reason, same)

    @property
    def text(self) -> str:
        return (
            f"retry {self.attempt}/{self.of} in {self.delay:g}s"
            + (f" (same {self.same})" if self.same else "")
            + f": {self.reason}"
        )


class TaskShown(_Event):
    """A task read to explain an error (a refused cancel): under -o json it is the error's context
    on stdout, in text its record."""

    __slots__ = ("kind", "reply", "as_v1")
    kind: str
    reply: Any
    as_v1: bool

    def __init__(self, kind: str, reply: Any, as_v1: bool = False) -> None:
        self._set(kind, reply, as_v1)


class DebugBody(_Event):
    """--debug: a request's (`mark` ">") or an answer's ("<") body, redacted, as it crossed the wire
    (said under -q too). At a terminal a JSON body is shown indented; elsewhere as it came; each
    line behind the mark."""

    __slots__ = ("mark", "text")
    mark: str
    text: str

    def __init__(self, mark: str, text: str) -> None:
        self._set(mark, text)


Event = Note | Warn | CommandLine | NextStep | RequestPrepared | Passthrough | Retry | TaskShown | DebugBody


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
