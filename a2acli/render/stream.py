"""Stream output: each event is shown the moment it arrives, nothing is buffered or kept.

-o raw: each SSE `data:` payload as received; -o json: JSON Lines, one event per line, flushed;
text: a block per event, then a summary line naming task id, context id and state."""

from __future__ import annotations

from typing import Any

from a2acli.render import views
from a2acli.render.output import Output


def event_kind(core: Any) -> str:
    if isinstance(core, dict):
        for key, name in (("task", "task"), ("message", "message"), ("statusUpdate", "status-update"), ("artifactUpdate", "artifact-update")):
            if key in core:
                return name
    return "event"


class StreamView:
    def __init__(self, out: Output, *, as_v1: bool = False) -> None:
        self.out = out
        self.as_v1 = as_v1
        self.count = 0

    def __enter__(self) -> StreamView:
        return self

    def __exit__(self, *exc: Any) -> None:
        return None

    def event(self, reply: Any) -> None:
        self.count += 1
        if self.out.mode == "raw":
            self.out.raw(reply.raw)
        elif self.out.mode == "json":
            self.out.json(reply.core if self.as_v1 else reply.result, lines=True)
        else:
            kind = event_kind(reply.core)
            style = {"task": "cyan", "message": "green", "status-update": "blue", "artifact-update": "magenta"}.get(kind, "white")
            self.out.rows(views.event_rows(reply.core if isinstance(reply.core, dict) else {}), title=f"#{self.count} {kind}", style=style)

    def final(self, reply: Any) -> None:
        """The task as polled after the stream ended early."""
        if self.out.mode == "raw":
            self.out.raw(reply.raw)
        elif self.out.mode == "json":
            self.out.json(reply.core if self.as_v1 else reply.result, lines=True)
        else:
            self.out.rows(views.task_rows(reply.core or {}), title="Task (polled)")

    def summary(self, task: dict[str, Any]) -> None:
        if self.out.mode != "text" or not task.get("id"):
            return
        self.out.text(f"Task: {task['id']}  Context: {task.get('contextId', '')}  State: {views.state_label(task.get('state'))}  Events: {self.count}")
