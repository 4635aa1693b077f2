# Enum spellings. V1 (ProtoJSON) writes proto value names: TASK_STATE_INPUT_REQUIRED, ROLE_USER.
# V0 writes lowercase kebab: input-required, user; V0 calls TASK_STATE_UNSPECIFIED `unknown` and
# has no unspecified role. Vendors mix them (lowercase V1, the REST/gRPC `CANCELLED`), so every
# reader accepts any spelling; writers emit one canonical form.
from __future__ import annotations

from typing import Any

from ._common import Notes, note

_STATES = (
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
_STATE_ALIASES = {"UNKNOWN": "UNSPECIFIED", "CANCELLED": "CANCELED"}
_ROLES = ("USER", "AGENT", "UNSPECIFIED")

TERMINAL_STATES = frozenset({"TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_REJECTED"})
INTERRUPTED_STATES = frozenset({"TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"})


def _state_key(s: Any) -> str | None:
    if not isinstance(s, str):
        return None
    key = s.strip().upper().replace("-", "_").removeprefix("TASK_STATE_")
    key = _STATE_ALIASES.get(key, key)
    return key if key in _STATES else None


def _role_key(s: Any) -> str | None:
    key = s.strip().upper().removeprefix("ROLE_") if isinstance(s, str) else None
    return key if key in _ROLES else None


def to_core_task_state(s: Any, notes: Notes = None) -> Any:
    """Any spelling => TASK_STATE_*; an unrecognised value is returned unchanged and noted."""
    if (key := _state_key(s)) is None:
        note(notes, f"task state {s!r} not recognised; left unchanged")
        return s
    return f"TASK_STATE_{key}"


def to_compat_task_state(s: Any, notes: Notes = None) -> Any:
    """Any spelling => V0 lowercase kebab (`unknown` for unspecified)."""
    if (key := _state_key(s)) is None:
        note(notes, f"task state {s!r} not recognised; left unchanged")
        return s
    return "unknown" if key == "UNSPECIFIED" else key.lower().replace("_", "-")


def to_core_role(s: Any, notes: Notes = None) -> Any:
    if (key := _role_key(s)) is None:
        note(notes, f"role {s!r} not recognised; left unchanged")
        return s
    return f"ROLE_{key}"


def to_compat_role(s: Any, notes: Notes = None) -> Any:
    if (key := _role_key(s)) is None:
        note(notes, f"role {s!r} not recognised; left unchanged")
        return s
    if key == "UNSPECIFIED":
        note(notes, "role ROLE_UNSPECIFIED has no V0 value (only user/agent); written as 'unspecified'")
    return key.lower()


def is_terminal(state: Any) -> bool:
    """(Any value: `"state": []` is no state, not a crash.)"""
    key = _state_key(state)
    return key is not None and f"TASK_STATE_{key}" in TERMINAL_STATES


def is_known_state(state: Any) -> bool:
    """A task state A2A defines, in any spelling (a vendor's own state is not)."""
    return _state_key(state) is not None


def is_interrupted(state: Any) -> bool:
    key = _state_key(state)
    return key is not None and f"TASK_STATE_{key}" in INTERRUPTED_STATES


_SKIP = frozenset({"metadata", "data"})  # free-form user content: never rewritten


def lowercase_v1_enums(obj: Any) -> Any:
    """The `clix` dialect of V1: roles and task states in lowercase (`user`, `input-required`).

    Rewrites recognised values under the keys `role`, `state` and a string `status` (the
    ListTasks filter); leaves metadata and data payloads alone. Returns a new value.
    """
    if isinstance(obj, list):
        return [lowercase_v1_enums(item) for item in obj]
    if not isinstance(obj, dict):
        return obj
    out = {}
    for key, value in obj.items():
        if key == "role" and (role := _role_key(value)):
            value = role.lower()
        elif key in ("state", "status") and _state_key(value):
            value = to_compat_task_state(value)
        elif key not in _SKIP:
            value = lowercase_v1_enums(value)
        out[key] = value
    return out
