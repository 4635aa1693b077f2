"""Is an answer the object its method promises? Checked on the canonical V1 form (after the
translators, which never fail), before anything renders or tracks it.

Lenient where servers legitimately differ (missing optional fields, unknown keys, any state
spelling): only what the rest of the CLI relies on is required, so a wrong answer ends in one
clear InvalidResponseError (exit 1) instead of a crash in a renderer. Also: when a stream is over.
"""

from __future__ import annotations

from typing import Any

from a2acli.errors import InvalidResponseError
from a2acli.wire.endpoints import json_kind
from a2acli.wire.translate.enums import TERMINAL_STATES, is_terminal, to_core_task_state

_HINT = "the agent's answer does not follow the A2A schema; see it with -o raw or --debug"
_EVENT_KEYS = ("task", "message", "statusUpdate", "artifactUpdate")


class _Bad(Exception):
    def __init__(self, where: str, what: str) -> None:
        super().__init__(f"{where} {what}")


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _Bad(where, f"is {json_kind(value)}, not an object")
    return value


def _list_of_objects(parent: dict[str, Any], key: str, where: str, *, required: bool = False) -> list[Any]:
    if key not in parent and not required:
        return []
    value = parent.get(key)
    if not isinstance(value, list):
        raise _Bad(f"{where}.{key}", f"is {json_kind(value)}, not an array")
    for i, item in enumerate(value):
        _object(item, f"{where}.{key}[{i}]")
    return value


def _message(value: Any, where: str) -> None:
    msg = _object(value, where)
    _list_of_objects(msg, "parts", where)


def _status(value: Any, where: str) -> None:
    status = _object(value, where)
    if "message" in status and status["message"] is not None:
        _message(status["message"], f"{where}.message")


def _artifact(value: Any, where: str) -> None:
    _list_of_objects(_object(value, where), "parts", where)


def _task(value: Any, where: str) -> None:
    task = _object(value, where)
    if not isinstance(task.get("id"), str) or not task["id"]:
        raise _Bad(f"{where}.id", "is missing" if "id" not in task else f"is {json_kind(task['id'])}, not a task id")
    if "status" not in task:
        raise _Bad(f"{where}.status", "is missing")
    _status(task["status"], f"{where}.status")
    for i, artifact in enumerate(_list_of_objects(task, "artifacts", where)):
        _artifact(artifact, f"{where}.artifacts[{i}]")
    for i, msg in enumerate(_list_of_objects(task, "history", where)):
        _message(msg, f"{where}.history[{i}]")


def _one_of(value: Any, where: str, keys: tuple[str, ...]) -> str:
    obj = _object(value, where)
    found = [k for k in keys if k in obj]
    if len(found) != 1:
        raise _Bad(
            where, f"holds {' and '.join(found) if found else 'none'} of {', '.join(keys)} (exactly one is expected)"
        )
    return found[0]


def _send(value: Any, where: str) -> None:
    key = _one_of(value, where, ("task", "message"))
    (_task if key == "task" else _message)(value[key], f"{where}.{key}")


def _event(value: Any, where: str) -> None:
    key = next(iter(value)) if type(value) is dict and len(value) == 1 else None  # the usual one-key StreamResponse
    if key not in _EVENT_KEYS:
        key = _one_of(value, where, _EVENT_KEYS)
    inner = value[key]
    if key == "task":
        _task(inner, f"{where}.task")
    elif key == "message":
        _message(inner, f"{where}.message")
    elif key == "statusUpdate":
        _status(_object(inner, f"{where}.statusUpdate").get("status"), f"{where}.statusUpdate.status")
    else:
        _artifact(_object(inner, f"{where}.artifactUpdate").get("artifact"), f"{where}.artifactUpdate.artifact")


def _task_list(value: Any, where: str) -> None:
    # an empty list may be left out: ProtoJSON omits an empty repeated field (gRPC, HTTP+JSON answers)
    for i, task in enumerate(_list_of_objects(_object(value, where), "tasks", where)):
        _task(task, f"{where}.tasks[{i}]")


def _config_list(value: Any, where: str) -> None:
    _list_of_objects(_object(value, where), "configs", where)


_CHECKS = {
    "send": _send,
    "event": _event,
    "task": _task,
    "task-list": _task_list,
    "push-config": _object,
    "push-config-list": _config_list,
    "card": _object,
}


def check_result(kind: str, core: Any, method: str) -> None:
    """InvalidResponseError unless `core` (canonical V1) is what `kind` promises. Results of
    kind "empty" (a delete) may be anything; unknown methods (`a2a call`) are not checked."""
    check = _CHECKS.get(kind)
    if check is None:
        return
    try:
        check(core, "result")
    except _Bad as bad:
        raise InvalidResponseError(f"the answer to {method} is not valid: {bad}", hint=_HINT) from None


def ends_stream(result: Any, core: Any) -> bool:
    """Whether a stream event is its last: a V0 status update with `final: true`, a Message (a
    direct reply), or a status update or Task in a terminal state. A V1 server closes the stream
    there; one that does not must not leave the CLI waiting. A Task in an interrupted state does
    not end it: subscribing to an input-required task waits for it to resume."""
    if isinstance(result, dict) and result.get("final") is True:
        return True
    if not isinstance(core, dict):
        return False
    if "message" in core:
        return True
    holder = core.get("statusUpdate") or core.get("task")
    state = (
        (holder.get("status") or {}).get("state")
        if isinstance(holder, dict) and isinstance(holder.get("status"), dict)
        else None
    )
    return is_terminal(state)


# -- the fast path of a stream: what tracking and the end of a stream need, read off the event ------

# wrapper key -> event kind, in every spelling a binding uses (V1, 0.3 proto-JSON `msg`)
_WRAPPERS = {
    "statusUpdate": "status-update",
    "artifactUpdate": "artifact-update",
    "task": "task",
    "message": "message",
    "msg": "message",
}
_V0_KINDS = ("status-update", "artifact-update", "task", "message")
_CANONICAL_STATES = frozenset(
    f"TASK_STATE_{s}"
    for s in ("SUBMITTED", "WORKING", "INPUT_REQUIRED", "AUTH_REQUIRED", "COMPLETED", "CANCELED", "FAILED", "REJECTED")
)


class EventFacts:
    """The few fields of a stream event that tracking and the end of a stream read."""

    __slots__ = ("kind", "task_id", "context_id", "state", "final", "ends", "same")

    def __init__(self, kind: str, task_id: Any, context_id: Any, state: Any, final: bool, same: bool = False) -> None:
        self.kind, self.task_id, self.context_id, self.state, self.final = kind, task_id, context_id, state, final
        self.same = same  # wire.fastpath: the event is its own canonical V1 form
        # as ends_stream: a final flag, a Message, or a terminal state
        self.ends = final or kind == "message" or state in TERMINAL_STATES


def peek_event(result: Any) -> EventFacts | None:
    """The facts of a stream event as the wire spelt it (a V1 or 0.3 proto-JSON wrapper, or a bare
    V0 event with `kind`), reading only the fields it needs; None when the event does not have the
    shape of one (the caller then decodes it in full, which names what is wrong)."""
    if not isinstance(result, dict):
        return None
    inner: Any
    kind = result.get("kind")
    if isinstance(kind, str):
        if kind not in _V0_KINDS:
            return None
        inner = result
    elif len(result) == 1:  # the usual V1 wrapper, {"statusUpdate": {…}}
        ((key, inner),) = result.items()
        kind = _WRAPPERS.get(key)
        if kind is None or not isinstance(inner, dict):
            return None
    else:
        key = None
        for k in result:
            if k in _WRAPPERS:
                if key is not None:
                    return None  # two wrappers: not one event
                key = k
        inner = result[key] if key is not None else None
        if not isinstance(inner, dict):
            return None
        kind = _WRAPPERS[key]
    status = inner.get("status")
    if status is not None and not isinstance(status, dict):
        return None
    state = status.get("state") if status else None
    if state is not None:
        if type(state) is not str:
            return None  # `"state": []`: decoded in full
        if state not in _CANONICAL_STATES:
            state = to_core_task_state(state)  # canonical, once
    if kind == "task":
        task_id = inner.get("id")
    elif kind == "message":
        task_id, state = inner.get("taskId"), None
    else:
        task_id = inner.get("taskId")
    final = result.get("final") is True or inner.get("final") is True
    return EventFacts(kind, task_id, inner.get("contextId"), state, final)


# -- answers that are neither V1 nor V0 ------------------------------------------------------------
# Servers mix the versions: fasta2a answers 0.3 calls with V1-shaped objects ({"task": …}, no
# `kind`) and lowercase enums; python-a2a's tasks have no contextId and its parts a `type`. The
# translators bring any of these to canonical V1 without a word, so the shape is checked apart,
# on the JSON-RPC result as the wire spelt it, against the version asked for.

_KIND_VALUES = frozenset({"task", "message", "status-update", "artifact-update", "text", "file", "data"})
_LOWER_STATES = frozenset(
    {
        "submitted",
        "working",
        "input-required",
        "completed",
        "canceled",
        "failed",
        "rejected",
        "auth-required",
        "unknown",
    }
)
_LOWER_ROLES = frozenset({"user", "agent"})


def answer_shape(result: Any, version: str, *, lowercase_ok: bool = False) -> list[str]:  # noqa: C901  (one check per shape difference between the versions, each branch one line of the table it checks)
    """What in a JSON-RPC result (as received) does not have the shape of `version` ("1.0" or
    "0.3"): each a line for a warning. `lowercase_ok`: the clix dialect was asked for."""
    seen: set[str] = set()
    no_context: list[str] = []

    def walk(node: Any, key: str = "") -> None:
        if isinstance(node, list):
            for item in node:
                walk(item, "part" if key == "parts" else key)
            return
        if not isinstance(node, dict):
            return
        kind = node.get("kind")
        if isinstance(kind, str) and kind in _KIND_VALUES:
            seen.add("kind")
        elif key == "part" and isinstance(node.get("type"), str):
            seen.add("typed-part")
        elif "id" in node and "status" in node or "role" in node and "parts" in node:
            seen.add("no-kind")
        if "id" in node and isinstance(node.get("status"), dict) and not node.get("contextId"):
            no_context.append(str(node.get("id")))
        for k, v in node.items():
            if k in ("state", "role") and isinstance(v, str):
                if v.startswith(("TASK_STATE_", "ROLE_")):
                    seen.add("v1-enum")
                elif v in (_LOWER_STATES if k == "state" else _LOWER_ROLES):
                    seen.add("lower-enum")
            if k not in ("metadata", "data"):
                walk(v, k)

    walk(result)
    wrapper = (
        isinstance(result, dict) and len(result) == 1 and next(iter(result)) in _EVENT_KEYS and "kind" not in result
    )
    out: list[str] = []
    v1_shaped = wrapper or "no-kind" in seen
    if version.startswith("0."):
        if v1_shaped:
            out.append(
                "answer is V1-shaped under 0.3 ("
                + ("a {" + f'"{next(iter(result))}"' + ": …} wrapper, " if wrapper else "")
                + "no `kind`)"
            )
        if "v1-enum" in seen:
            out.append("V1 enum values (TASK_STATE_…, ROLE_…) in an answer under 0.3")
        if v1_shaped and "lower-enum" in seen and "typed-part" not in seen:
            out.append("lowercase enum values: this agent speaks the clix dialect (V1 objects, lowercase enums)")
    else:
        if "kind" in seen:
            out.append("answer is V0-shaped under 1.0 (`kind` fields)")
        if "lower-enum" in seen and not lowercase_ok:
            out.append("lowercase enum values: this agent speaks the clix dialect (--dialect clix)")
    if "typed-part" in seen:
        out.append("parts carry `type`, not `kind` (neither V1 nor V0)")
    for task_id in dict.fromkeys(no_context):
        out.append(f"task {task_id} has no contextId (required in 1.0 and 0.3)")
    return out
