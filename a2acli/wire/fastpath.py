"""The fast path of a stream (issues 26, 33): one pass reads an event, checks it and takes the facts
tracking needs, whatever its shape: a canonical V1 StreamResponse (what a 1.0 agent streams), a V1
one with other enum spellings (the clix dialect's lowercase `working`, `agent`; `CANCELLED`), or a
bare V0 event with `kind` (`status-update`, `artifact-update`, `task`, `message`). Its canonical
V1 form is the event itself when it is canonical already, else built on first use (core_of: the
text view, `--as v1`), so -o json and raw never translate.

What the pass vouches for is exactly what the long way (translate.to_core_stream_response, then
wire.shapes.check_result and peek_event) passes: the same canonical form, the check passing, the
same facts. Everything else takes the long way, which names what is wrong, if anything: a value
of the wrong type where an object or an array is required, a task without an id, a state that is
not a string, a snake_case key (the translators rename some), a wrapper with another key beside
it, a bare V1 event without `kind`, 0.3 proto-JSON (`msg`, `content`). Kept apart from wire.shapes,
which `a2a card fetch` loads."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from a2acli.wire.shapes import EventFacts
from a2acli.wire.translate._common import FIELDS
from a2acli.wire.translate.enums import _ROLES, _STATE_ALIASES, _STATES, to_core_role, to_core_task_state
from a2acli.wire.translate.parts import _COMPAT_FLAG, to_core_part

# the spellings servers use, each with its canonical V1 value (to_core_task_state's and to_core_role's
# answers, worked out once); any other spelling is handed to those functions
_STATE_OF: dict[str, str] = {
    s: to_core_task_state(s)
    for key in (*_STATES, *_STATE_ALIASES)
    for s in (f"TASK_STATE_{key}", key, key.lower().replace("_", "-"))
}
_ROLE_OF: dict[str, str] = {s: to_core_role(s) for key in _ROLES for s in (f"ROLE_{key}", key, key.lower())}
_CANONICAL_ROLES = frozenset(_ROLE_OF.values())

# the StreamResponse member of each V1 wrapper key and V0 kind, and the event kind of the facts
_MEMBER = {
    "statusUpdate": "statusUpdate",
    "artifactUpdate": "artifactUpdate",
    "task": "task",
    "message": "message",
    "status-update": "statusUpdate",
    "artifact-update": "artifactUpdate",
}
_KIND = {"statusUpdate": "status-update", "artifactUpdate": "artifact-update", "task": "task", "message": "message"}


class _Unsure(Exception):  # noqa: N818  (a signal: the long way decides)
    pass


_PLAIN_KEYS = FIELDS | {"kind"}  # no underscore in any: the usual event's keys, checked in one set operation


def _snake(obj: dict[str, Any]) -> bool:
    """A key the translators would rename (a snake_case spelling), or one that is no string."""
    if obj.keys() <= _PLAIN_KEYS:  # every key a protocol field (the usual event): no string to build
        return False
    return "_" in "".join(obj)  # TypeError for a key that is no string: _Unsure, by the caller


# -- the check: each returns whether the value is canonical as it stands (its own core) ------------


def _parts(holder: dict[str, Any]) -> bool:
    """`parts`, when present, an array of objects (the check); canonical when no part would change."""
    if "parts" not in holder:
        return True
    parts = holder["parts"]
    if type(parts) is not list:
        raise _Unsure
    same = True
    for part in parts:
        if type(part) is not dict:
            raise _Unsure
        if _snake(part) or "kind" in part or type(part.get("file")) is dict or _compat(part):
            same = False  # (_snake first: a key that is no string is refused here, not in core_of)
    return same


def _compat(part: dict[str, Any]) -> bool:
    meta = part.get("metadata")
    return type(meta) is dict and meta.get(_COMPAT_FLAG) is True


def _message(msg: Any) -> bool:
    if type(msg) is not dict or _snake(msg):
        raise _Unsure
    role = msg.get("role")
    return _parts(msg) and "kind" not in msg and (role is None or role in _CANONICAL_ROLES)


def _artifact(artifact: Any) -> bool:
    if type(artifact) is not dict or _snake(artifact):
        raise _Unsure
    return _parts(artifact) and "kind" not in artifact


def _each(holder: dict[str, Any], key: str, check: Callable[[Any], bool]) -> bool:
    """`key`, when present, an array whose items pass `check`."""
    if key not in holder:
        return True
    items = holder[key]
    if type(items) is not list:
        raise _Unsure
    same = True
    for item in items:
        same = check(item) and same
    return same


def _task(task: dict[str, Any]) -> bool:
    """A task's id, status (checked with the facts), artifacts and history."""
    tid = task.get("id")
    if type(tid) is not str or not tid or task.get("status") is None:
        raise _Unsure
    return _each(task, "artifacts", _artifact) & _each(task, "history", _message)


_CHECKS: dict[str, Callable[[dict[str, Any]], bool]] = {  # (a status update: in vouch)
    "artifactUpdate": lambda event: _artifact(event.get("artifact")),
    "task": _task,
    "message": _message,
}


def _unwrap(result: dict[str, Any]) -> tuple[str, dict[str, Any], bool] | None:
    """(StreamResponse member, the event's object, whether it has no `kind` to drop) of a V1
    wrapper or a bare V0 event; None for any other object."""
    kind = result.get("kind")
    if kind is None:  # a V1 wrapper, {"statusUpdate": {…}}
        if len(result) != 1:
            return None
        ((key, inner),) = result.items()
        if key not in _KIND or type(inner) is not dict:
            return None
        return key, inner, "kind" not in inner
    member = _MEMBER.get(kind) if type(kind) is str else None  # a bare V0 event
    return None if member is None else (member, result, False)


def _status(status: Any) -> tuple[Any, bool]:
    """(the state in canonical V1, whether the status is canonical as it stands) of an event's
    status, read as peek_event reads it; _Unsure for one the long way must read."""
    if type(status) is not dict or _snake(status):
        raise _Unsure
    same = "kind" not in status
    state = status.get("state")
    if state is not None:
        if type(state) is not str:
            raise _Unsure  # (peek_event's refusal)
        canonical = _STATE_OF.get(state) or to_core_task_state(state)
        same = same and canonical == state
        state = canonical
    msg = status.get("message")
    return state, (msg is None or _message(msg)) and same


_STATUS_KEYS = frozenset(("state", "timestamp"))  # a status without a message or `kind`: the bulk of a stream


def vouch(result: Any) -> EventFacts | None:
    """The facts of a stream event of any usual shape, checked in the same pass; None for one the
    long way must decode (a malformed one, or a rare spelling). `same` on the facts: the event is
    its own canonical V1 form (else core_of builds that)."""
    if type(result) is not dict:
        return None
    # the bulk of a stream first, in one flat pass: a status update (V1 wrapper or V0 `kind`) whose
    # status is a state and a timestamp; exactly the verdict of the general pass below, which the
    # test of this module checks on every shape it is given
    inner = (
        result.get("statusUpdate") if len(result) == 1 else result if result.get("kind") == "status-update" else None
    )
    if type(inner) is dict and inner.keys() <= _PLAIN_KEYS:
        status = inner.get("status")
        if type(status) is dict and status.keys() <= _STATUS_KEYS:
            state = status.get("state")
            canonical = _STATE_OF.get(state) if type(state) is str else None
            if canonical is not None:
                same = inner is not result and canonical == state and "final" not in inner and "kind" not in inner
                return EventFacts(
                    "status-update",
                    inner.get("taskId"),
                    inner.get("contextId"),
                    canonical,
                    inner.get("final") is True,
                    same,
                )
    return _vouch(result)


def _vouch(result: dict[str, Any]) -> EventFacts | None:
    """vouch's general pass: any kind of event, any status."""
    found = _unwrap(result)
    if found is None:
        return None
    key, inner, same = found
    try:
        if _snake(inner):  # a snake_case key (TypeError: a key that is no string, not from JSON)
            return None
        status = inner.get("status")
        state = None
        if status is not None:  # any kind's status, as peek_event reads it
            state, canonical = _status(status)
            same = canonical and same
        if key == "statusUpdate":  # the bulk of a stream, checked here: a status (an object), no `final`
            if status is None:
                return None
            same = same and "final" not in inner  # V1 has no `final`: the translator drops it
        else:
            same = _CHECKS[key](inner) and same
    except (_Unsure, TypeError):
        return None
    return EventFacts(
        _KIND[key],
        inner.get("id") if key == "task" else inner.get("taskId"),
        inner.get("contextId"),
        None if key == "message" else state,
        inner.get("final") is True,
        same,
    )


# -- the canonical form of a vouched event, built when a view asks for it ---------------------------


def _plain(obj: dict[str, Any], *drop: str) -> dict[str, Any]:
    """A copy without `kind` (and `drop`), keys in their order: the translators' copy."""
    out = dict(obj)
    out.pop("kind", None)
    for key in drop:
        out.pop(key, None)
    return out


def _core_part(part: dict[str, Any]) -> dict[str, Any]:
    if type(part.get("file")) is dict or _compat(part) or _snake(part):
        return to_core_part(part)  # a V0 file part, a data part carrying a non-object: the translator
    return _plain(part)


def _core_parts(holder: dict[str, Any]) -> dict[str, Any]:
    out = _plain(holder)
    if type(out.get("parts")) is list:
        out["parts"] = [_core_part(p) for p in out["parts"]]
    return out


def _core_message(msg: dict[str, Any]) -> dict[str, Any]:
    out = _core_parts(msg)
    role = out.get("role")
    if role is not None:
        out["role"] = (_ROLE_OF.get(role) or to_core_role(role)) if type(role) is str else role
    return out


def _core_status(status: dict[str, Any]) -> dict[str, Any]:
    out = _plain(status)
    if out.get("state") is not None:
        out["state"] = _STATE_OF.get(out["state"]) or to_core_task_state(out["state"])
    if out.get("message") is not None:
        out["message"] = _core_message(out["message"])
    return out


def _core_task(task: dict[str, Any]) -> dict[str, Any]:
    out = _plain(task)
    if out.get("status") is not None:
        out["status"] = _core_status(out["status"])
    for key, each in (("artifacts", _core_parts), ("history", _core_message)):
        if type(out.get(key)) is list:
            out[key] = [each(item) for item in out[key]]
    return out


def _core_status_update(ev: dict[str, Any]) -> dict[str, Any]:
    out = _plain(ev, "final")
    if out.get("status") is not None:
        out["status"] = _core_status(out["status"])
    return out


def _core_artifact_update(ev: dict[str, Any]) -> dict[str, Any]:
    out = _plain(ev)
    if out.get("artifact") is not None:
        out["artifact"] = _core_parts(out["artifact"])
    return out


_BUILD: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "statusUpdate": _core_status_update,
    "artifactUpdate": _core_artifact_update,
    "task": _core_task,
    "message": _core_message,
}


def core_of(result: Any) -> Any:
    """The canonical V1 form of an event vouch() vouched for: what to_core_stream_response returns."""
    kind = result.get("kind")
    if kind is None:
        ((key, inner),) = result.items()
    else:
        key, inner = _MEMBER[kind], result
    return {key: _BUILD[key](inner)}


# -- which streams take it --------------------------------------------------------------------------

_PROBES: tuple[Any, ...] = (
    {"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}},
    {"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "working"}}},
    {"kind": "status-update", "taskId": "t", "contextId": "c", "status": {"state": "working"}, "final": False},
    {
        "kind": "artifact-update",
        "taskId": "t",
        "artifact": {"artifactId": "a", "parts": [{"kind": "text", "text": "x"}]},
    },
)


def fast_events(decode: Callable[[Any], Any]) -> Callable[[Any], EventFacts | None] | None:
    """vouch, when a stream's `decode` (its binding's translator, then check_result) is the one it
    stands for (translate.to_core_stream_response: JSON-RPC under both versions, HTTP+JSON and gRPC
    under 1.0): it returns a canonical event as is and gives core_of's form of the others. None
    for one that copies (0.3's proto-JSON translators): every event of such a stream is decoded
    in full."""
    try:
        if decode(_PROBES[0]) is not _PROBES[0]:
            return None
        if any(decode(p) != core_of(p) for p in _PROBES[1:]):
            return None
    except Exception:  # noqa: BLE001  (a decoder that refuses a probe: no fast path, nothing else)
        return None
    return vouch
