# Tasks, artifacts and stream events. Field names match; V0 adds `kind` ("task", "status-update",
# "artifact-update"), lowercase states, and a required `final` flag on status updates that V1
# dropped (V1 streams simply end). V1 wraps stream events and send results in a one-key object
# ({task}, {message}, {statusUpdate}, {artifactUpdate}); V0 sends the bare object. V1 lists
# tasks in a page {tasks, nextPageToken, pageSize, totalSize}; the V0 (vendor) list is an array.
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ._common import (
    Notes,
    compat_array,
    core_page,
    drop,
    entity,
    fields,
    map_list,
    map_value,
    note,
    omit_empty,
    with_kind,
)
from .canonical import core_stream_response
from .enums import is_terminal, to_compat_task_state, to_core_task_state
from .messages import to_compat_message, to_core_message
from .parts import to_compat_part, to_core_part


@entity("task status")
def to_core_task_status(status: dict[str, Any], notes: Notes) -> dict[str, Any]:
    map_value(status, "state", to_core_task_state, notes)
    map_value(status, "message", to_core_message, notes)
    return status


@entity("task status")
def to_compat_task_status(status: dict[str, Any], notes: Notes) -> dict[str, Any]:
    map_value(status, "state", to_compat_task_state, notes)
    map_value(status, "message", to_compat_message, notes)
    return omit_empty(status, ("timestamp",))


@entity("artifact")
def to_core_artifact(artifact: dict[str, Any], notes: Notes) -> dict[str, Any]:
    map_list(artifact, "parts", to_core_part, notes)
    return artifact


@entity("artifact")
def to_compat_artifact(artifact: dict[str, Any], notes: Notes) -> dict[str, Any]:
    map_list(artifact, "parts", to_compat_part, notes)
    return omit_empty(artifact, ("name", "description", "extensions"))


@entity("task")
def to_core_task(task: dict[str, Any], notes: Notes) -> dict[str, Any]:
    map_value(task, "status", to_core_task_status, notes)
    map_list(task, "artifacts", to_core_artifact, notes)
    map_list(task, "history", to_core_message, notes)
    return task


@entity("task")
def to_compat_task(task: dict[str, Any], notes: Notes) -> dict[str, Any]:
    map_value(task, "status", to_compat_task_status, notes)
    map_list(task, "artifacts", to_compat_artifact, notes)
    map_list(task, "history", to_compat_message, notes)
    task.setdefault("contextId", "")  # required in V0, the V1 default
    return with_kind("task", omit_empty(task, ("artifacts", "history")))


def _state(event: dict[str, Any]) -> Any:
    return event["status"].get("state") if isinstance(event.get("status"), dict) else None


@entity("status update")
def to_core_status_update(event: dict[str, Any], notes: Notes) -> dict[str, Any]:
    final = event.pop("final", None)
    map_value(event, "status", to_core_task_status, notes)
    if isinstance(final, bool) and final != is_terminal(_state(event)):
        note(
            notes,
            f"status update: final={str(final).lower()} on state {_state(event)} dropped (V1 has no final flag; only terminal states end a stream)",
        )
    return event


@entity("status update")
def to_compat_status_update(event: dict[str, Any], notes: Notes) -> dict[str, Any]:
    map_value(event, "status", to_compat_task_status, notes)
    event.setdefault("contextId", "")
    if not isinstance(event.get("final"), bool):  # a V0 input keeps the flag its agent chose
        event["final"] = is_terminal(_state(event))
    return with_kind("status-update", event)


@entity("artifact update")
def to_core_artifact_update(event: dict[str, Any], notes: Notes) -> dict[str, Any]:
    map_value(event, "artifact", to_core_artifact, notes)
    return event


@entity("artifact update")
def to_compat_artifact_update(event: dict[str, Any], notes: Notes) -> dict[str, Any]:
    map_value(event, "artifact", to_compat_artifact, notes)
    event.setdefault("contextId", "")
    for flag in ("append", "lastChunk"):
        if event.get(flag) is None:
            event[flag] = False
    return with_kind("artifact-update", event)


# StreamResponse member -> (V0 kind, to_core, to_compat)
_MEMBERS: dict[str, tuple[str, Callable[..., Any], Callable[..., Any]]] = {
    "task": ("task", to_core_task, to_compat_task),
    "message": ("message", to_core_message, to_compat_message),
    "statusUpdate": ("status-update", to_core_status_update, to_compat_status_update),
    "artifactUpdate": ("artifact-update", to_core_artifact_update, to_compat_artifact_update),
}
_BY_KIND = {kind: member for member, (kind, _, _) in _MEMBERS.items()}


def stream_kind(obj: Any) -> str | None:
    """The StreamResponse member a bare event is ("task", "message", "statusUpdate",
    "artifactUpdate"): by `kind` for V0, by its keys for a bare V1 object; None otherwise."""
    if not isinstance(obj, dict):
        return None
    if "kind" in obj:
        return _BY_KIND.get(obj["kind"]) if isinstance(obj["kind"], str) else None  # `"kind": []` is no kind
    o = fields(obj)
    if "taskId" in o and ("artifact" in o or "status" in o):
        return "artifactUpdate" if "artifact" in o else "statusUpdate"
    if "id" in o and "status" in o:
        return "task"
    if "messageId" in o or ("role" in o and "parts" in o):
        return "message"
    return None


def _split(obj: Any) -> tuple[str | None, Any, dict[str, Any]]:
    """(member, payload, other keys) of a V1 wrapper, or of a bare V0/V1 event (no other keys)."""
    if isinstance(obj, dict) and len(obj) == 1:  # the common case, a V1 one-key wrapper: no copies
        ((key, value),) = obj.items()
        if key in _MEMBERS and isinstance(value, dict):
            return key, value, {}
    if isinstance(obj, dict) and stream_kind(obj) is None:
        o = fields(obj)
        members = [m for m in _MEMBERS if isinstance(o.get(m), dict)]
        if len(members) == 1:
            return members[0], o[members[0]], {k: v for k, v in o.items() if k != members[0]}
    return stream_kind(obj), obj, {}


def _translate_event(obj: Any, notes: Notes, *, core: bool, what: str, members: tuple[str, ...]) -> Any:
    member, payload, rest = _split(obj)
    if member is None:
        note(notes, f"{what}: not a {' / '.join(members)}; left unchanged")
        return obj
    if member not in members:
        note(notes, f"{what}: unexpected {member}; translated anyway")
    _, to_core, to_compat = _MEMBERS[member]
    if core:
        return {member: to_core(payload, notes), **rest}
    drop(rest, list(rest), notes, what, "a V0 event is the bare object")
    return to_compat(payload, notes)


def to_core_stream_response(obj: Any, notes: Notes = None) -> Any:
    """A V0 bare event, a bare V1 event or a V1 wrapper => the V1 one-key StreamResponse. One that
    is canonical already (what a 1.0 agent streams) comes back as is, not copied: callers never
    modify what a translator returns."""
    if core_stream_response(obj):
        return obj
    return _translate_event(obj, notes, core=True, what="stream response", members=tuple(_MEMBERS))


def to_compat_stream_response(obj: Any, notes: Notes = None) -> Any:
    """A V1 StreamResponse (or a bare event) => the bare V0 object with `kind`."""
    return _translate_event(obj, notes, core=False, what="stream response", members=tuple(_MEMBERS))


def to_core_send_result(obj: Any, notes: Notes = None) -> Any:
    """A V0 bare Task/Message (or V1 {task}/{message}) => the V1 SendMessageResponse wrapper."""
    return _translate_event(obj, notes, core=True, what="send result", members=("task", "message"))


def to_compat_send_result(obj: Any, notes: Notes = None) -> Any:
    """A V1 {task}/{message} => the bare V0 Task or Message."""
    return _translate_event(obj, notes, core=False, what="send result", members=("task", "message"))


def to_core_task_list(obj: Any, notes: Notes = None) -> Any:
    """A V1 ListTasksResponse (kept) or a bare V0/vendor array of tasks => a V1 page."""
    return core_page(obj, "tasks", to_core_task, notes, "task list", {"nextPageToken": ""})


def to_compat_task_list(obj: Any, notes: Notes = None) -> Any:
    """A V1 page => the vendor V0 array of tasks; paging fields are lost (noted)."""
    return compat_array(obj, "tasks", to_compat_task, notes, "task list")
