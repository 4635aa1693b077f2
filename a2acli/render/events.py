"""The pipeline's events (a2acli.events), shown: `Presenter(out)` is the Sink the commands hand
their Call, each event written through the Output as the mode says (notes and warnings on stderr,
--offline's request, an error body under -o raw, the spinner of a wait). The pipeline imports
none of this."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from a2acli import events as ev
from a2acli.render import present


class Presenter:
    """A Sink over an Output: each event becomes the call the pipeline made itself before
    (out.note, out.warn, present.request, …), so what the terminal shows is unchanged. `out` is
    the Output, for the commands that hold the Call and write replies themselves."""

    __slots__ = ("out", "flush")

    def __init__(self, out: Any) -> None:
        self.out = out
        self.flush: Callable[[], None] = out.flush  # before each network read of a stream: no hop in between

    def emit(self, event: ev.Event) -> None:
        _SHOW[type(event)](self.out, event)

    def holding(self) -> AbstractContextManager[None]:
        return self.out.holding()

    def waiting(
        self,
        task: dict[str, Any] | None = None,
        *,
        what: str = "waiting for task",
        since: float | None = None,
        announced: bool = False,
    ) -> Any:
        return present.waiting(self.out, task, what=what, since=since, announced=announced)


_SHOW: dict[type, Any] = {  # each event type, and how it is shown
    ev.Note: lambda out, e: out.note(e.text, aside=e.aside, always=e.always),
    ev.Warn: lambda out, e: out.warn(e.text),
    ev.CommandLine: lambda out, e: out.command(e.text, always=e.always),
    ev.NextStep: lambda out, e: out.next_step(e.text, e.command),
    ev.RequestPrepared: lambda out, e: present.request(out, e.head, e.body, e.document, whole=e.whole),
    ev.Passthrough: lambda out, e: present.passthrough(out, e.data),
    ev.Retry: lambda out, e: out.note(e.text),
    ev.TaskShown: lambda out, e: out.error_context(e.kind, e.reply, as_v1=e.as_v1),
    ev.DebugBody: lambda out, e: present.debug_body(out, e.mark, e.text),
}
