from __future__ import annotations

import pytest

from a2acli.wire.translate import (
    INTERRUPTED_STATES,
    TERMINAL_STATES,
    is_interrupted,
    is_terminal,
    lowercase_v1_enums,
    to_compat_role,
    to_compat_task_state,
    to_core_role,
    to_core_task_state,
)

# (any spelling, canonical V1, canonical V0)
STATES = [
    ("TASK_STATE_COMPLETED", "TASK_STATE_COMPLETED", "completed"),
    ("completed", "TASK_STATE_COMPLETED", "completed"),
    ("COMPLETED", "TASK_STATE_COMPLETED", "completed"),
    (" working ", "TASK_STATE_WORKING", "working"),
    ("submitted", "TASK_STATE_SUBMITTED", "submitted"),
    ("failed", "TASK_STATE_FAILED", "failed"),
    ("rejected", "TASK_STATE_REJECTED", "rejected"),
    ("canceled", "TASK_STATE_CANCELED", "canceled"),
    ("cancelled", "TASK_STATE_CANCELED", "canceled"),
    ("TASK_STATE_CANCELLED", "TASK_STATE_CANCELED", "canceled"),
    ("input-required", "TASK_STATE_INPUT_REQUIRED", "input-required"),
    ("input_required", "TASK_STATE_INPUT_REQUIRED", "input-required"),
    ("TASK_STATE_INPUT_REQUIRED", "TASK_STATE_INPUT_REQUIRED", "input-required"),
    ("auth-required", "TASK_STATE_AUTH_REQUIRED", "auth-required"),
    ("unknown", "TASK_STATE_UNSPECIFIED", "unknown"),
    ("TASK_STATE_UNSPECIFIED", "TASK_STATE_UNSPECIFIED", "unknown"),
    ("unspecified", "TASK_STATE_UNSPECIFIED", "unknown"),
]


@pytest.mark.parametrize(("spelling", "v1", "v0"), STATES)
def test_task_state_any_spelling(spelling, v1, v0):
    notes: list[str] = []
    assert to_core_task_state(spelling, notes) == v1
    assert to_compat_task_state(spelling, notes) == v0
    assert notes == []


@pytest.mark.parametrize(("spelling", "v1", "v0"), STATES)
def test_task_state_round_trip_and_idempotence(spelling, v1, v0):
    assert to_core_task_state(to_compat_task_state(v1)) == v1
    assert to_compat_task_state(to_core_task_state(v0)) == v0
    assert to_core_task_state(v1) == v1 and to_compat_task_state(v0) == v0


@pytest.mark.parametrize("fn", [to_core_task_state, to_compat_task_state, to_core_role, to_compat_role])
@pytest.mark.parametrize("value", ["paused", "", None, 3])
def test_unrecognised_enum_is_kept_and_noted(fn, value):
    notes: list[str] = []
    assert fn(value, notes) == value
    assert len(notes) == 1 and "not recognised" in notes[0]


@pytest.mark.parametrize(
    ("spelling", "v1", "v0"),
    [
        ("ROLE_USER", "ROLE_USER", "user"),
        ("user", "ROLE_USER", "user"),
        ("USER", "ROLE_USER", "user"),
        ("ROLE_AGENT", "ROLE_AGENT", "agent"),
        ("agent", "ROLE_AGENT", "agent"),
    ],
)
def test_role_any_spelling(spelling, v1, v0):
    notes: list[str] = []
    assert to_core_role(spelling, notes) == v1
    assert to_compat_role(spelling, notes) == v0
    assert notes == []


def test_unspecified_role_has_no_v0_value():
    notes: list[str] = []
    assert to_core_role("unspecified") == "ROLE_UNSPECIFIED"
    assert to_compat_role("ROLE_UNSPECIFIED", notes) == "unspecified"
    assert notes == ["role ROLE_UNSPECIFIED has no V0 value (only user/agent); written as 'unspecified'"]


def test_state_sets():
    assert {
        "TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_REJECTED",
    } == TERMINAL_STATES
    assert {"TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"} == INTERRUPTED_STATES


@pytest.mark.parametrize(
    ("state", "terminal", "interrupted"),
    [
        ("completed", True, False),
        ("TASK_STATE_FAILED", True, False),
        ("cancelled", True, False),
        ("rejected", True, False),
        ("input-required", False, True),
        ("TASK_STATE_AUTH_REQUIRED", False, True),
        ("working", False, False),
        ("unknown", False, False),
        ("paused", False, False),
        (None, False, False),
    ],
)
def test_is_terminal_and_interrupted(state, terminal, interrupted):
    assert is_terminal(state) is terminal
    assert is_interrupted(state) is interrupted


def test_lowercase_v1_enums_rewrites_roles_states_and_the_list_status_filter():
    doc = {
        "jsonrpc": "2.0",
        "result": {
            "task": {
                "id": "t-1",
                "status": {"state": "TASK_STATE_INPUT_REQUIRED"},
                "history": [
                    {"messageId": "m", "role": "ROLE_USER", "parts": [{"data": {"role": "ROLE_AGENT"}}]},
                    {"messageId": "n", "role": "ROLE_UNSPECIFIED", "parts": [], "metadata": {"state": "TASK_STATE_FAILED"}},
                ],
            }
        },
    }
    assert lowercase_v1_enums(doc) == {
        "jsonrpc": "2.0",
        "result": {
            "task": {
                "id": "t-1",
                "status": {"state": "input-required"},
                "history": [
                    {"messageId": "m", "role": "user", "parts": [{"data": {"role": "ROLE_AGENT"}}]},
                    {"messageId": "n", "role": "unspecified", "parts": [], "metadata": {"state": "TASK_STATE_FAILED"}},
                ],
            }
        },
    }
    assert doc["result"]["task"]["status"]["state"] == "TASK_STATE_INPUT_REQUIRED"  # input untouched


@pytest.mark.parametrize(
    ("v1", "clix"),
    [
        ("TASK_STATE_SUBMITTED", "submitted"), ("TASK_STATE_WORKING", "working"),
        ("TASK_STATE_COMPLETED", "completed"), ("TASK_STATE_FAILED", "failed"),
        ("TASK_STATE_CANCELED", "canceled"), ("TASK_STATE_REJECTED", "rejected"),
        ("TASK_STATE_INPUT_REQUIRED", "input-required"), ("TASK_STATE_AUTH_REQUIRED", "auth-required"),
        ("TASK_STATE_UNSPECIFIED", "unknown"),
    ],
)
def test_lowercase_v1_enums_list_tasks_status(v1, clix):
    assert lowercase_v1_enums({"contextId": "c", "status": v1, "pageSize": 2}) == {
        "contextId": "c", "status": clix, "pageSize": 2,
    }


def test_lowercase_v1_enums_leaves_other_values():
    doc = [{"role": "admin", "state": "CA", "status": {"state": "mystery"}}, "ROLE_USER", 3, None]
    assert lowercase_v1_enums(doc) == doc
