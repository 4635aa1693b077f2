"""What a session's replies say of the task in hand: its id, context and state, what an
interrupted task asks for (A2A §7.6), and the SSE event ids seen (Last-Event-ID, replays dropped
after a re-subscription). Ctrl-C, --timeout and the printed commands read it."""

from __future__ import annotations

from typing import Any

from a2acli.wire.translate.enums import INTERRUPTED_STATES, is_interrupted


class Tracking:
    """The task in hand, as the replies of one session tell it."""

    __slots__ = ("task", "ask", "event_ids")

    def __init__(self) -> None:
        self.task: dict[str, Any] = {}  # id, contextId, state of the task in hand
        self.ask: Any = None  # the status message of its interrupted status: what it asks for (A2A §7.6)
        self.event_ids = EventIds()  # SSE event ids seen: Last-Event-ID, and replays dropped after a re-subscription

    def track_reply(self, reply: Any) -> None:
        """Remember the task in hand from a reply (session.Reply): from its facts when it has them."""
        f = reply.facts
        if f is None:
            self.track(reply.core)
        elif f.kind == "artifact-update":
            self.task.setdefault("id", f.task_id)
        elif f.state in INTERRUPTED_STATES:  # (facts carry the state canonical: no spelling to undo)
            self.track(reply.core)  # its status message is what the task asks for: decoded
        elif f.kind != "message":
            task = self.task
            if f.task_id:
                task["id"] = f.task_id
            if f.context_id:
                task["contextId"] = f.context_id
            if f.state:
                task["state"] = f.state  # already canonical
                self.ask = None

    def track(self, core: Any) -> None:
        """Remember the task in hand from a core Task, send result or stream event."""
        if not isinstance(core, dict):
            return
        if "task" in core:
            core = core["task"]
        if "statusUpdate" in core:
            ev = core["statusUpdate"]
            self.task.update(
                {
                    k: v
                    for k, v in (
                        ("id", ev.get("taskId")),
                        ("contextId", ev.get("contextId")),
                        ("state", (ev.get("status") or {}).get("state")),
                    )
                    if v
                }
            )
            self._asks(ev.get("status"))
            return
        if "artifactUpdate" in core:
            ev = core["artifactUpdate"]
            self.task.setdefault("id", ev.get("taskId"))
            return
        if "id" in core and "status" in core:
            self.task.update(
                {
                    "id": core.get("id"),
                    "contextId": core.get("contextId"),
                    "state": (core.get("status") or {}).get("state"),
                }
            )
            self._asks(core.get("status"))

    def _asks(self, status: Any) -> None:
        """Keep an interrupted status's message (what the task asks for); a new state drops it."""
        if isinstance(status, dict) and status.get("state"):
            self.ask = status.get("message") if is_interrupted(status["state"]) else None


class EventIds:
    """The SSE event ids of a call's streams (only servers that send `id:` lines have any): the
    last one, sent as Last-Event-ID when re-subscribing, and how many events came with each id,
    so that after a re-subscription the events a server replays are not shown again.

    An event without an `id:` line keeps the id before it (the SSE rule), hence counts per id:
    a replay is an event whose id already came as often as it comes again. Bounded: the ids of
    the last MAX ids are kept."""

    MAX = 4096
    __slots__ = ("last", "seen", "replay", "skipped")

    def __init__(self) -> None:
        self.last = ""
        self.seen: dict[str, int] = {}
        self.replay: dict[str, int] | None = None  # per id, events dropped as replays on this connection
        self.skipped = 0

    def resume(self) -> None:
        """A re-subscription starts: what comes now may replay what was shown."""
        self.replay = {}

    def fresh(self, eid: str) -> bool:
        """Whether an event with this id is new (and remember it), or a replay to drop."""
        seen = self.seen
        if self.replay is not None:
            n = self.replay.get(eid, 0)
            if n < seen.get(eid, 0):
                self.replay[eid] = n + 1
                self.skipped += 1
                return False
        seen[eid] = seen.get(eid, 0) + 1
        if len(seen) > self.MAX:
            del seen[next(iter(seen))]
        self.last = eid
        return True
