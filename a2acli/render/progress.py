"""Waiting you can see: while a blocking send or `tasks get --wait` waits for a task, a spinner on
stderr with the elapsed time, the task's state and its latest status message, updated as polls
arrive. Only on a terminal and in text mode: off a terminal the wait is one line per state
change, and under -o json or raw nothing at all (stderr keeps what matters)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from a2acli.render import views
from a2acli.render.output import Output, terminal

REFRESH_PER_SECOND = 8


def hide_control_echo(fd: int | None = None) -> Callable[[], None]:
    """While a live region is drawn in place: the terminal does not echo Ctrl-C as `^C`. The echo
    lands after the region's last line; when that line fills the width it wraps, the terminal
    scrolls, and the region's final redraw starts a line too low (its first line left twice on
    screen). Returns what puts the terminal back. Nothing is changed unless `fd` (stdin) is a
    terminal we are in the foreground of (a background job changing it would be stopped)."""
    import os

    try:
        import termios
    except ImportError:  # not a POSIX terminal (Windows)
        return _nothing
    try:
        tty = sys.stdin.fileno() if fd is None else fd
        if not os.isatty(tty) or _background(tty):
            return _nothing
        saved = termios.tcgetattr(tty)
        if not saved[3] & termios.ECHOCTL:
            return _nothing
        changed = list(saved)
        changed[3] = saved[3] & ~termios.ECHOCTL
        termios.tcsetattr(tty, termios.TCSANOW, changed)
    except (OSError, ValueError, AttributeError, termios.error):  # no terminal (or no stdin), or not ours
        return _nothing

    def restore() -> None:
        try:
            termios.tcsetattr(tty, termios.TCSANOW, saved)
        except (OSError, termios.error):
            pass

    return restore


def _nothing() -> None:
    pass


def _background(tty: int) -> bool:
    """We are a background job of this terminal (changing it would stop us with SIGTTOU)."""
    import os

    try:
        return os.tcgetpgrp(tty) != os.getpgrp()
    except OSError:  # not our controlling terminal: changing it stops no one
        return False


@contextmanager
def ctrl_c_held() -> Iterator[None]:
    """A frame drawn from the main thread goes out whole: Ctrl-C pressed meanwhile takes effect
    once it is written. (rich empties its buffer only after the write returns: a KeyboardInterrupt
    raised during the write leaves the frame there, and the next draw writes it again, so the
    view's first lines show twice.) A second Ctrl-C is not held: a terminal stopped with Ctrl-S
    still lets you out."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield  # signals run in the main thread only: nothing to hold
        return
    held: list[int] = []

    def hold(signum: int, frame: Any) -> None:
        if held:
            raise KeyboardInterrupt
        held.append(signum)

    previous = signal.signal(signal.SIGINT, hold)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if held:
            signal.raise_signal(signal.SIGINT)  # now, as the handler before ours takes it


class Waiting:
    """`with Waiting(out, task) as w: … w.update(task_core) …`. `task` is what is known of the
    task so far ({"id", "state"}, may be empty while a blocking send has not answered);
    `announced`: the task was named on stderr already (off a terminal, no opening line)."""

    def __init__(
        self,
        out: Output,
        task: dict[str, Any] | None = None,
        *,
        what: str = "waiting for task",
        since: float | None = None,
        announced: bool = False,
    ) -> None:
        self.out = out
        self.what = what
        self.announced = announced
        self.task_id = str((task or {}).get("id") or "")
        self.state = views.state_label((task or {}).get("state")) if (task or {}).get("state") else ""
        self.message = ""
        self.started = since if since is not None else time.monotonic()
        self.spinner = (
            out.animated and not out.quiet and terminal(out.err)
        )  # the rich view at a real terminal (FORCE_COLOR is not enough); -o text and -q: none
        self.lines = out.human and not self.spinner
        self._live: Any = None
        self._spin: Any = None
        self._restore_echo: Callable[[], None] = _nothing

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
                self._restore_echo()

    def _start(self) -> None:
        from rich.errors import LiveError
        from rich.live import Live
        from rich.spinner import Spinner

        self._spin = Spinner("dots", style="cyan")
        live = Live(
            console=self.out.err_console,
            get_renderable=self._renderable,
            refresh_per_second=REFRESH_PER_SECOND,
            transient=True,
            redirect_stdout=False,
            redirect_stderr=False,
        )
        try:
            from a2acli.errors import main_thread_interrupts

            with ctrl_c_held(), main_thread_interrupts():  # (its refresh thread never takes a Ctrl-C)
                live.start(refresh=True)
        except LiveError:  # another live display holds this console (a stream view): lines instead
            self.spinner, self.lines = False, True
            self._opening()
            return
        self._live = live
        self._restore_echo = hide_control_echo()

    def _opening(self) -> None:
        if self.task_id and not self.announced:
            self.out.note(f"{self.what} {self.task_id} ({self.state or 'unknown'}) …")

    # -- what it shows ---------------------------------------------------------------------------
    def line(self, width: int | None = None) -> Any:
        """One line: elapsed time, task id (never cut), state, then the status message (cut first).
        In `width` columns, the words before the id give way (`waiting for task` to `task`, then
        to nothing) before the state would be cut."""
        from a2acli.render.safe import safe_text

        elapsed = f"{time.monotonic() - self.started:5.1f}s  "
        what = self.what
        if width and self.task_id and self.state:
            fixed = len(elapsed) + len(self.task_id) + len(self.state) + 3
            for shorter in (self.what, "task" if "task" in self.what else "", ""):
                what = shorter
                if fixed + len(shorter) <= width:
                    break
        segments: list[tuple[str, str]] = [(elapsed, "dim"), (what, "")]
        if self.task_id:
            segments.append((f" {self.task_id}", "bold"))  # the agent's: escaped by safe_text, as every view does
        if self.state:
            segments.append((f"  {self.state}", "bold cyan"))
        if self.message:
            segments.append((f"  {self.message}", "dim"))
        return safe_text(*segments, no_wrap=True, overflow="ellipsis")

    def _renderable(self) -> Any:
        """The spinner's frame and the line, kept to one line (rich's Spinner joins them into a
        text that wraps)."""
        from rich.text import Text

        frame = self._spin.render(time.monotonic())
        line = self.line(self.out.err_console.width - 3)  # (the frame, a space; the last column left free)
        return Text.assemble(frame, " ", line, no_wrap=True, overflow="ellipsis")

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
            with ctrl_c_held():
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
