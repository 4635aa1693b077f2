"""The response data model every answer of `a2a check`'s probe is held to, as the wire spelt it:
Task, TaskStatus, Message, Part, Artifact and the two update events, their required fields, enum
spellings and timestamps (A2A 1.0 §4.1, §5.5-§5.7; 0.3 §6, §7.2). Pure: a result in, problems out.

Objects are found by where they sit (`task`, `history[]`, `artifacts[]`, `parts[]`, `status`…) or
by their 0.3 `kind`; the one-key wrappers of 1.0 and of the 0.3 proto (`statusUpdate`, `msg`)
name what they hold."""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from a2acli.wire.translate.enums import is_known_state, to_compat_role, to_compat_task_state

# the spellings each form allows: "v0" (0.3 JSON-RPC, lowercase kebab), "v1" (ProtoJSON of 1.0),
# "any" (0.3 proto-JSON over HTTP+JSON and gRPC, whose servers use both: any A2A spelling)
V0, V1, ANY = "v0", "v1", "any"
_V1_STATES = frozenset(
    f"TASK_STATE_{s}"
    for s in ("SUBMITTED", "WORKING", "COMPLETED", "FAILED", "CANCELED", "REJECTED", "INPUT_REQUIRED", "AUTH_REQUIRED")
)
_V1_ROLES = frozenset({"ROLE_USER", "ROLE_AGENT"})
_PART_KINDS = ("text", "file", "data")
_PART_FIELDS = ("text", "raw", "url", "data", "file")  # 1.0's oneof, and the 0.3 proto's `file`
_UTC = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z")
_ISO = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?(?P<zone>Z|[+-]\d\d:?\d\d)?", re.IGNORECASE)
# where an object sits -> what it is
_AT = {
    "task": "task",
    "tasks": "task",
    "message": "message",
    "msg": "message",
    "history": "message",
    "statusUpdate": "status-update",
    "status_update": "status-update",
    "artifactUpdate": "artifact-update",
    "artifact_update": "artifact-update",
    "artifacts": "artifact",
    "artifact": "artifact",
    "parts": "part",
}


class Problem(NamedTuple):
    must: bool  # a MUST broken (a failure); else a SHOULD (a warning)
    path: str  # where in the answer: $.task.status.timestamp
    text: str
    tck: str  # the official TCK's requirement id for the rule


def problems(result: Any, version: str, form: str) -> list[Problem]:
    """Every way `result` (one answer or stream event) breaks the data model of `version`."""
    out: list[Problem] = []
    _walk(result, _root_kind(result), "$", version, form, out)
    return out


def _root_kind(node: Any) -> str:
    if not isinstance(node, dict):
        return ""
    kind = node.get("kind")
    if isinstance(kind, str) and kind in ("task", "message", "status-update", "artifact-update"):
        return kind
    if "id" in node and "status" in node:
        return "task"
    if "messageId" in node and "parts" in node:
        return "message"
    return ""


def _walk(node: Any, what: str, path: str, version: str, form: str, out: list[Problem]) -> None:
    if isinstance(node, list):
        for i, item in enumerate(node):
            _walk(item, what, f"{path}[{i}]", version, form, out)
        return
    if not isinstance(node, dict):
        return
    check = _CHECKS.get(what)
    if check is not None:
        check(node, path, version, form, out)
    if what == "part":
        return  # its content is the user's
    for key, value in node.items():
        if key in ("metadata", "extensions"):
            continue  # free-form content
        child = "status" if key == "status" and what in ("task", "status-update") else _AT.get(key, "")
        if key == "content" and what == "message" and form == ANY:
            child = "part"  # the 0.3 proto's name of a Message's parts
        _walk(value, child, f"{path}.{key}", version, form, out)


def _need(node: dict[str, Any], field: str, path: str, what: str, out: list[Problem], tck: str) -> bool:
    value = node.get(field)
    if isinstance(value, str) and value:
        return True
    said = "missing" if field not in node else f"not a non-empty string ({type(value).__name__})"
    out.append(Problem(True, f"{path}.{field}", f"{what} without {field}: {said}", tck))
    return False


def _task(node: dict[str, Any], path: str, version: str, form: str, out: list[Problem]) -> None:
    _need(node, "id", path, "a Task", out, "DM-TASK-001")
    _need(node, "contextId", path, "a Task", out, "DM-TASK-001")
    if not isinstance(node.get("status"), dict):
        out.append(Problem(True, f"{path}.status", "a Task without a status object", "DM-TASK-001"))
    for key in ("history", "artifacts"):
        if key in node and not isinstance(node[key], list):
            out.append(Problem(True, f"{path}.{key}", f"{key} is not an array", "DM-TASK-001"))


def _status(node: dict[str, Any], path: str, version: str, form: str, out: list[Problem]) -> None:
    state = node.get("state")
    if state is None:
        out.append(Problem(True, f"{path}.state", "a TaskStatus without a state", "DM-STATUS-001"))
    elif not _state_ok(state, form):
        out.append(Problem(True, f"{path}.state", f"task state {state!r}: {_state_words(form)}", "DM-TASK-002"))
    if "timestamp" in node:
        bad = timestamp_problem(node["timestamp"], version)
        if bad is not None:
            out.append(bad._replace(path=f"{path}.timestamp"))


def _message(node: dict[str, Any], path: str, version: str, form: str, out: list[Problem]) -> None:
    _need(node, "messageId", path, "a Message", out, "DM-MSG-001")
    role = node.get("role")
    if role is None:
        out.append(Problem(True, f"{path}.role", "a Message without a role", "DM-MSG-001"))
    elif not _role_ok(role, form):
        words = "'user' or 'agent'" if form == V0 else "ROLE_USER or ROLE_AGENT"
        out.append(Problem(True, f"{path}.role", f"role {role!r}: A2A {version} spells it {words}", "DM-MSG-002"))
    _parts(node, path, "a Message", form, out)


def _artifact(node: dict[str, Any], path: str, version: str, form: str, out: list[Problem]) -> None:
    _need(node, "artifactId", path, "an Artifact", out, "DM-ART-001")
    _parts(node, path, "an Artifact", form, out)


def _parts(node: dict[str, Any], path: str, what: str, form: str, out: list[Problem]) -> None:
    key = "content" if form == ANY and "parts" not in node and "content" in node else "parts"  # the 0.3 proto's name
    parts = node.get(key)
    if not isinstance(parts, list) or not parts:
        said = "missing" if key not in node else "empty" if parts == [] else f"a {type(parts).__name__}"
        out.append(Problem(True, f"{path}.{key}", f"{what} needs at least one part: {key} {said}", "DM-MSG-001"))


def _part(node: dict[str, Any], path: str, version: str, form: str, out: list[Problem]) -> None:
    kind = node.get("kind")
    if isinstance(kind, str):
        if kind not in _PART_KINDS or kind not in node:
            out.append(Problem(True, path, f"a part of kind {kind!r} without its {kind!r} field", "DM-PART-001"))
        return
    held = [f for f in _PART_FIELDS if f in node]
    if len(held) != 1:
        said = "none of" if not held else f"{len(held)} of"
        out.append(Problem(True, path, f"a part holds {said} text, raw, url, data: exactly one", "DM-PART-001"))


def _status_event(node: dict[str, Any], path: str, version: str, form: str, out: list[Problem]) -> None:
    _need(node, "taskId", path, "a status update", out, "STREAM-ORDER-001")
    _need(node, "contextId", path, "a status update", out, "STREAM-ORDER-001")
    if not isinstance(node.get("status"), dict):
        out.append(Problem(True, f"{path}.status", "a status update without a status object", "DM-STATUS-001"))


def _artifact_event(node: dict[str, Any], path: str, version: str, form: str, out: list[Problem]) -> None:
    _need(node, "taskId", path, "an artifact update", out, "DM-ART-001")
    _need(node, "contextId", path, "an artifact update", out, "DM-ART-001")
    if not isinstance(node.get("artifact"), dict):
        out.append(Problem(True, f"{path}.artifact", "an artifact update without an artifact", "DM-ART-001"))


_CHECKS = {
    "task": _task,
    "status": _status,
    "message": _message,
    "artifact": _artifact,
    "part": _part,
    "status-update": _status_event,
    "artifact-update": _artifact_event,
}


def _state_ok(state: Any, form: str) -> bool:
    if form == V1:
        return state in _V1_STATES
    if form == V0:
        return isinstance(state, str) and to_compat_task_state(state) == state
    return is_known_state(state)


def _state_words(form: str) -> str:
    if form == V1:
        return "not a 1.0 TaskState (TASK_STATE_COMPLETED…, ProtoJSON names, §5.5)"
    if form == V0:
        return "not a 0.3 TaskState (lowercase kebab: completed, input-required…)"
    return "not a task state A2A defines"


def _role_ok(role: Any, form: str) -> bool:
    if form == V1:
        return role in _V1_ROLES
    if form == V0:
        return role in ("user", "agent")
    return isinstance(role, str) and to_compat_role(role) in ("user", "agent")


def timestamp_problem(value: Any, version: str) -> Problem | None:
    """A timestamp as A2A wants it: 1.0 ISO 8601 in UTC with `Z` (MUST, §5.6.1); 0.3 ISO 8601,
    UTC recommended (a time without a zone is ambiguous: a warning)."""
    if version == "1.0":
        if isinstance(value, str) and _UTC.fullmatch(value):
            return None
        m = _ISO.fullmatch(value) if isinstance(value, str) else None
        why = (
            "not ISO 8601"
            if m is None
            else "no zone (1.0 wants UTC with 'Z')"
            if not m.group("zone")
            else f"offset {m.group('zone')} (1.0 allows only 'Z')"
        )
        return Problem(True, "", f"timestamp {value!r}: {why}", "DM-SERIAL-003")
    m = _ISO.fullmatch(value) if isinstance(value, str) else None
    if m is None:
        return Problem(True, "", f"timestamp {value!r}: not ISO 8601", "DM-SERIAL-003")
    if not m.group("zone"):
        return Problem(False, "", f"timestamp {value!r} has no zone: the time is ambiguous (UTC recommended)", "")
    return None
