"""Waiting for a task to settle: what settled means, the backoff between polls, GetTask polling, and the note for an agent that held an answer it was asked to return at once."""

from __future__ import annotations

import time
from contextlib import nullcontext
from typing import Any

from a2acli.errors import UsageError
from a2acli.events import Note
from a2acli.pipeline.session import Call, Reply
from a2acli.wire import Wire
from a2acli.wire.methods import METHODS
from a2acli.wire.words import state_label as state_text


def settled(state: Any) -> bool:
    from a2acli.wire.translate import is_interrupted, is_terminal

    return is_terminal(state) or is_interrupted(state)


def parse_states(text: str | None) -> frozenset[str] | None:
    """`completed,failed` -> canonical V1 names; a UsageError for unknown names."""
    if not text:
        return None
    from a2acli.wire.translate import to_core_task_state

    states = set()
    for item in text.split(","):
        s = to_core_task_state(item.strip())
        if not str(s).startswith("TASK_STATE_"):
            raise UsageError(
                f"unknown task state {item.strip()!r}",
                hint="e.g. completed, failed, canceled, rejected, input-required, auth-required, working",
            )
        states.add(s)
    return frozenset(states)


def as_stream_event(call: Call, reply: Reply) -> Reply:
    """A GetTask reply in the shape of a send answer or stream event: {"task": …}, or the bare task
    under 0.3 JSON-RPC."""
    bare = call.opts.wire is Wire.V0 and call.target.binding.info.envelope  # 0.3 JSON-RPC events are bare objects
    result = reply.result if bare else {"task": reply.result}
    return Reply(result, {"task": reply.core}, reply.raw, reply.exchange)


MIN_POLL = 0.05  # seconds: never a busy loop


MAX_POLL = 5.0  # seconds: where the backoff stops growing (unless the chosen interval is longer)


QUICK_START = 1 / 8  # a send's wait polls first after this share of the interval (0.25 s of 2 s)


class Backoff:
    """The waits between polls (A2ACLI_TASK_POLL_002): the chosen interval first, then 1.5 times
    longer after each poll that saw no change, up to MAX_POLL (or the interval itself when that is
    longer: never below what the user chose); a change of the task's status starts again from the
    interval, so a task that moves is followed closely and an idle one is not hammered.

    `first`: a shorter first wait (a send's wait: a task that is done at once costs a quick look,
    not the whole interval); the waits grow from it 1.5 times a poll through the interval, and a
    change of status does not slow them down meanwhile."""

    __slots__ = ("interval", "cap", "delay")

    def __init__(self, interval: float, cap: float = MAX_POLL, *, first: float | None = None) -> None:
        self.interval = max(interval, MIN_POLL)
        self.cap = max(cap, self.interval)
        self.delay = self.interval if first is None else min(max(first, MIN_POLL), self.interval)

    def next(self) -> float:
        delay = self.delay
        self.delay = min(delay * 1.5, self.cap)
        return delay

    def reset(self) -> None:
        self.delay = min(self.delay, self.interval)


def wait_for_task(
    call: Call,
    interval: float,
    *,
    wrap: bool = False,
    since: float | None = None,
    shown: Any = None,
    quick: bool = False,
    query: dict[str, Any] | None = None,
) -> Reply:
    """Poll GetTask until the task is terminal or interrupted (Backoff between polls; a state
    that is neither, TASK_STATE_UNSPECIFIED / V0 `unknown` included, keeps the wait going under
    --timeout); the wait shows on stderr (the sink's waiting display: a spinner at a terminal), or in
    `shown`, a waiting display already open. `since`: when the wait began (a blocking send that
    came back unfinished); `quick`: the first poll after QUICK_START of the interval; `query`:
    more GetTask params (historyLength). Ctrl-C stops the sleep at once; the boundary then names
    the task and how to resume."""
    spec = METHODS["GetTask"]
    backoff = Backoff(interval, first=interval * QUICK_START if quick else None)
    status: Any = None
    with nullcontext(shown) if shown is not None else call.sink.waiting(call.tracking.task, since=since) as shown:
        while True:
            delay = backoff.next()
            left = call.transport.time_left()  # the whole-call --timeout
            time.sleep(delay if left is None else max(min(delay, left), 0))
            call.transport.check_deadline()  # TimeoutExpired (exit 5); the boundary prints how to resume
            reply = call.unary(spec, {"id": call.tracking.task["id"], **(query or {})})
            call.tracking.track(reply.core)
            shown.update(reply.core)
            if settled(call.tracking.task.get("state")):
                break
            now = reply.core.get("status") if isinstance(reply.core, dict) else None
            if status is not None and now != status:
                backoff.reset()
            status = now
    return as_stream_event(call, reply) if wrap else reply


HELD_AFTER = 1.0  # seconds: an answer to a send with returnImmediately this late, its task settled, was held


def note_held_answer(call: Call, params: dict[str, Any], reply: Reply) -> None:
    """A send with returnImmediately (--async, --follow) answered late with its task already
    settled: the agent held the answer until the task was done (a2a-sdk 0.2 ignores `blocking:
    false`), said on stderr, since the run waited although it asked not to."""
    config = params.get("configuration") if isinstance(params, dict) else None
    elapsed = getattr(reply.exchange, "elapsed", None)
    if not (
        isinstance(config, dict)
        and config.get("returnImmediately") is True
        and call.tracking.task.get("id")
        and settled(call.tracking.task.get("state"))
    ):
        return
    if elapsed is None or elapsed < HELD_AFTER:
        return
    asked = "blocking: false" if call.opts.wire is Wire.V0 else "returnImmediately"
    call.sink.emit(
        Note(
            f"the agent held the answer {elapsed:.1f}s, until task {call.tracking.task['id']} was {state_text(call.tracking.task.get('state'))}: it does not honour {asked}"
        )
    )
