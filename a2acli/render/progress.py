"""Waiting you can see: while a blocking send or `tasks get --wait` waits for a task, a spinner on
stderr with the elapsed time, the task's state and its latest status message, updated as polls
arrive. Only on a terminal and in text mode: off a terminal the wait is one line per state
change, and under -o json or raw nothing at all (stderr keeps what matters)."""

from __future__ import annotations

import time
from typing import Any

from a2acli.render import views
from a2acli.render.output import Output, terminal

REFRESH_PER_SECOND = 8


class Waiting:
    """`with Waiting(out, task) as w: … w.update(task_core) …`. `task` is what is known of the
    task so far ({"id", "state"}, may be empty while a blocking send has not answered);
    `announced`: the task was named on stderr already (off a terminal, no opening line)."""

    def __init__(self, out: Output, task: dict[str, Any] | None = None, *, what: str = "waiting for task", since: float | None = None, announced: bool = False) -> None:
        self.out = out
        self.what = what
        self.announced = announced
        self.task_id = str((task or {}).get("id") or "")
        self.state = views.state_label((task or {}).get("state")) if (task or {}).get("state") else ""
        self.message = ""
        self.started = since if since is not None else time.monotonic()
        self.spinner = getattr(out, "auto", False) and not out.quiet and terminal(out.err)  # the rich view at a real terminal (FORCE_COLOR is not enough); -o text and -q: none
        self.lines = out.mode == "text" and not self.spinner
        self._live: Any = None
        self._spin: Any = None

    # -- context ---------------------------------------------------------------------------------
    def __enter__(self) -> Waiting:
        if self.spinner:
            self._start()
        elif self.lines:
            self._opening()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._live is not None:
            try:
                self._live.stop()
            finally:
                self._live = None

    def _start(self) -> None:
        from rich.errors import LiveError
        from rich.live import Live
        from rich.spinner import Spinner

        self._spin = Spinner("dots", style="cyan")
        live = Live(console=self.out.err_console, get_renderable=self._renderable, refresh_per_second=REFRESH_PER_SECOND, transient=True, redirect_stdout=False, redirect_stderr=False)
        try:
            live.start(refresh=True)
        except LiveError:  # another live display holds this console (a stream view): lines instead
            self.spinner, self.lines = False, True
            self._opening()
            return
        self._live = live

    def _opening(self) -> None:
        if self.task_id and not self.announced:
            self.out.note(f"{self.what} {self.task_id} ({self.state or 'unknown'}) …")

    # -- what it shows ---------------------------------------------------------------------------
    def line(self) -> Any:
        """One line: elapsed time, task id (never cut), state, then the status message (cut first)."""
        from a2acli.render.safe import safe_text

        segments: list[tuple[str, str]] = [(f"{time.monotonic() - self.started:5.1f}s  ", "dim"), (self.what, "")]
        if self.task_id:
            segments.append((f" {self.task_id}", "bold"))  # the agent's: escaped by safe_text, as every view does
        if self.state:
            segments.append((f"  {self.state}", "bold cyan"))
        if self.message:
            segments.append((f"  {self.message}", "dim"))
        return safe_text(*segments, no_wrap=True, overflow="ellipsis")

    def _renderable(self) -> Any:
        self._spin.update(text=self.line())
        return self._spin

    def update(self, task: Any) -> None:
        """A new look at the task (a GetTask answer, core form)."""
        if not isinstance(task, dict):
            return
        status: dict[str, Any] = task["status"] if isinstance(task.get("status"), dict) else {}
        state = views.state_label(status.get("state")) if status.get("state") else self.state
        if task.get("id"):
            self.task_id = str(task["id"])
        msg = status.get("message")
        if isinstance(msg, dict):
            self.message = " ".join(views.parts_text(msg.get("parts")).split())
        if self.lines and state != self.state and self.task_id:
            self.out.note(f"task {self.task_id}: {state}")
        self.state = state
        if self._live is not None:
            self._live.refresh()

    def event(self, reply: Any) -> None:
        """A stream event (a reply; its core form read): a Task snapshot or a status update moves
        the display, so a Waiting can be the view a followed stream is shown in."""
        if not (self.spinner or self.lines):
            return  # nothing shown (-o json, raw): the event is not even decoded
        core = reply.core if isinstance(reply.core, dict) else {}
        if isinstance(core.get("task"), dict):
            self.update(core["task"])
        elif isinstance(core.get("statusUpdate"), dict):
            ev = core["statusUpdate"]
            self.update({"id": ev.get("taskId"), "status": ev.get("status")})
