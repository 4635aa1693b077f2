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

The live view keeps bounded state only (render.live_state), drawn by render.live. A stream shown
as its end (`tasks subscribe` without --stream) is render.stream_final."""

from __future__ import annotations

import threading
import time
from typing import Any

from a2acli.render import views
from a2acli.render.live import render_live
from a2acli.render.live_state import LiveState
from a2acli.render.output import Output

REFRESH_PER_SECOND = 10  # the refresh thread's frame rate: what a flood of events costs
QUIET_GAP = 0.1  # an event after this long without one is drawn at once, not at the next frame


event_kind = views.event_kind
_EVENT_STYLES = {"task": "cyan", "message": "green", "status-update": "blue", "artifact-update": "magenta"}


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
        from a2acli.errors import main_thread_interrupts

        with ctrl_c_held(), main_thread_interrupts():  # (its refresh thread never takes a Ctrl-C)
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
