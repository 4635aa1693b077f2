# Is a value already canonical V1, as the `to_core_*` translators would write it? Read-only checks
# that copy nothing: a stream of canonical V1 events (what a 1.0 agent sends) then skips the
# translators' shallow copies. Each check mirrors its translator exactly and is conservative: a
# True means the translator would return an equal value with no notes; anything it would touch
# (a `kind`, a snake_case key, a lowercase enum, a V0 file part, a `final` flag, a value that is
# not an object where one is expected) gives False, and the translator runs as before.
from __future__ import annotations

from typing import Any

_STATES = frozenset(
    f"TASK_STATE_{s}"
    for s in (
        "UNSPECIFIED",
        "SUBMITTED",
        "WORKING",
        "COMPLETED",
        "FAILED",
        "CANCELED",
        "REJECTED",
        "INPUT_REQUIRED",
        "AUTH_REQUIRED",
    )
)
_ROLES = frozenset({"ROLE_USER", "ROLE_AGENT", "ROLE_UNSPECIFIED"})
_COMPAT_FLAG = "data_part_compat"  # parts.py: a V0 data part that carried a non-object


def _plain(obj: Any) -> bool:
    """An object the `entity` decorator would copy unchanged: no `kind`, no snake_case key."""
    return type(obj) is dict and "kind" not in obj and "_" not in "".join(obj)


def core_part(part: Any) -> bool:
    if not _plain(part) or type(part.get("file")) is dict:
        return False
    meta = part.get("metadata")
    return not (type(meta) is dict and meta.get(_COMPAT_FLAG) is True)


def _parts(holder: dict[str, Any]) -> bool:
    parts = holder.get("parts")
    if type(parts) is not list:
        return not isinstance(parts, list)  # map_list leaves a non-list alone (a list subclass: let it run)
    return all(core_part(part) for part in parts)


def core_message(msg: Any) -> bool:
    if not _plain(msg):
        return False
    role = msg.get("role")
    return (role is None or role in _ROLES) and _parts(msg)


def core_task_status(status: Any) -> bool:
    if type(status) is not dict or "kind" in status or "_" in "".join(status):  # _plain, inline: once per event
        return False
    state = status.get("state")
    if state is not None and state not in _STATES:
        return False
    msg = status.get("message")
    return msg is None or core_message(msg)


def core_artifact(artifact: Any) -> bool:
    return _plain(artifact) and _parts(artifact)


def _each(items: Any, check: Any) -> bool:
    if type(items) is not list:
        return not isinstance(items, list)
    return all(check(item) for item in items)


def core_task(task: Any) -> bool:
    if not _plain(task):
        return False
    status = task.get("status")
    return (
        (status is None or core_task_status(status))
        and _each(task.get("artifacts"), core_artifact)
        and _each(task.get("history"), core_message)
    )


def core_status_update(event: Any) -> bool:
    if (
        type(event) is not dict or "kind" in event or "final" in event or "_" in "".join(event)
    ):  # _plain; `final` is dropped (V1 has none)
        return False
    status = event.get("status")
    return status is None or core_task_status(status)


def core_artifact_update(event: Any) -> bool:
    if not _plain(event):
        return False
    artifact = event.get("artifact")
    return artifact is None or core_artifact(artifact)


_MEMBERS = {
    "statusUpdate": core_status_update,
    "artifactUpdate": core_artifact_update,
    "task": core_task,
    "message": core_message,
}


def core_stream_response(obj: Any) -> bool:
    """Whether `obj` is a canonical V1 StreamResponse: a one-key wrapper around a canonical event,
    which to_core_stream_response would return unchanged."""
    if type(obj) is not dict or len(obj) != 1:
        return False
    ((key, value),) = obj.items()
    check = _MEMBERS.get(key)
    try:
        return check is not None and check(value)
    except TypeError:  # a key that is no string (not from JSON): the translator copes
        return False
