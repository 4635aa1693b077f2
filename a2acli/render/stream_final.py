"""A stream shown as its end: `tasks subscribe` without --stream. The events are folded into the
task as it stands when the stream ends (TaskFold) and shown once (FinalView, with StreamView's
interface)."""

from __future__ import annotations

from typing import Any

from a2acli.render.output import Output

_BARE_KINDS = {
    "task": "task",
    "status-update": "statusUpdate",
    "artifact-update": "artifactUpdate",
    "message": "message",
}
_MEMBERS = {
    "task": "task",
    "statusUpdate": "statusUpdate",
    "status_update": "statusUpdate",
    "artifactUpdate": "artifactUpdate",
    "artifact_update": "artifactUpdate",
    "message": "message",
    "msg": "message",
}


def _unwrap(event: Any) -> tuple[str, dict[str, Any], bool]:
    """(member, object, bare) of one stream event as its wire spelt it: a StreamResponse wrapper
    ({"task": …}, {"statusUpdate": …}; V1, and 0.3 REST) or a bare 0.3 JSON-RPC object with `kind`."""
    if isinstance(event, dict):
        kind = event.get("kind")
        if isinstance(kind, str) and kind in _BARE_KINDS:
            return _BARE_KINDS[kind], event, True
        for key, member in _MEMBERS.items():
            if isinstance(event.get(key), dict):
                return member, event[key], False
    return "", {}, False


class TaskFold:
    """The task as it stands when a stream ends, in the spelling of the events it is fed: the
    latest Task snapshot with every later status update and artifact update applied (an append
    extends the artifact's parts). A stream that carried only a Message ends as that message."""

    def __init__(self) -> None:
        self.task: dict[str, Any] | None = None
        self.message: dict[str, Any] | None = None

    def add(self, event: Any) -> None:
        import copy

        member, obj, bare = _unwrap(event)
        if member == "task":
            self.task = copy.deepcopy(obj)  # a fresh snapshot replaces what was folded so far
        elif member == "statusUpdate":
            task = self._task(obj, bare)
            if "status" in obj:
                task["status"] = copy.deepcopy(obj["status"])
        elif member == "artifactUpdate" and isinstance(obj.get("artifact"), dict):
            self._artifact(self._task(obj, bare), copy.deepcopy(obj["artifact"]), append=bool(obj.get("append")))
        elif member == "message":
            self.message = obj

    def _task(self, ev: dict[str, Any], bare: bool) -> dict[str, Any]:
        if self.task is None:  # an update before any snapshot: the task as far as it tells
            self.task = {k: v for k, v in (("id", ev.get("taskId")), ("contextId", ev.get("contextId"))) if v}
            if bare:
                self.task["kind"] = "task"
        return self.task

    @staticmethod
    def _artifact(task: dict[str, Any], art: dict[str, Any], *, append: bool) -> None:
        arts = task.get("artifacts")
        if not isinstance(arts, list):
            arts = task["artifacts"] = []
        aid = art.get("artifactId")
        for i, old in enumerate(arts):
            if isinstance(old, dict) and aid is not None and old.get("artifactId") == aid:
                if append:
                    key = "parts" if "parts" in art or "parts" in old else "content"  # 0.3 REST names them content
                    merged = {**old, **{k: v for k, v in art.items() if k != key}}
                    merged[key] = list(old.get(key) or []) + list(art.get(key) or [])
                    arts[i] = merged
                else:
                    arts[i] = art
                return
        arts.append(art)

    def result(self) -> Any:
        return self.task if self.task is not None else self.message


class FinalView:
    """`tasks subscribe` without --stream: the events folded into the task as it stands when the
    stream ends (TaskFold), shown once. -o json: one document, the terminal Task as the wire spelt
    it (canonical V1 under --as v1); text: the task's record, with a progress line on stderr
    meanwhile; -o raw: each event as it crossed the wire. Same interface as StreamView."""

    def __init__(self, out: Output, *, as_v1: bool = False) -> None:
        self.out = out
        self.as_v1 = as_v1
        self.count = 0
        self.fold = TaskFold()
        self._wait: Any = None

    def __enter__(self) -> FinalView:
        if self.out.human:
            from a2acli.render.progress import Waiting

            self._wait = Waiting(self.out, what="following task").__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop()

    @property
    def waiting(self) -> Any:
        """Its progress display (text mode): a poll after the stream moves this one, so each
        state change is said once."""
        return self._wait

    def _stop(self) -> None:
        if self._wait is not None:
            wait, self._wait = self._wait, None
            wait.__exit__(None, None, None)

    def event(self, reply: Any) -> None:
        self.count += 1
        if self.out.wire_bytes:
            self.out.raw(reply.raw)
            return
        core_wanted = self.out.human or self.as_v1
        self.fold.add(reply.core if core_wanted else reply.result)
        if self._wait is not None and self.fold.task is not None:
            self._wait.update(self.fold.task)

    final = event  # the task polled after an early close is one more snapshot

    def summary(self, task: dict[str, Any]) -> None:
        self._stop()
        doc = self.fold.result()
        if doc is not None:  # raw: each event was shown as it came
            self.out.item(None, doc, lambda: self._folded(doc))

    def _folded(self, doc: Any) -> None:
        from a2acli.render.replies import view

        kind = "task" if self.fold.task is not None else "send"
        view(self.out, kind, _Shown(doc if kind == "task" else {"message": doc}))


class _Shown:
    """A folded object in the shape `present` reads (its core form)."""

    def __init__(self, core: Any) -> None:
        self.core = core
        self.result = core
        self.raw = b""
        self.exchange = None
