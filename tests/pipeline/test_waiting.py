"""pipeline.policies.waiting: what settled means, the states --expect-state takes, the backoff
between polls, GetTask polling until a task settles (over respx, the waits recorded, not slept),
and the note for an agent that held an answer it was asked to return at once."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from pipeline_kit import RPC, rpc_answers, sent

from a2acli.errors import UsageError
from a2acli.pipeline.policies import (
    MAX_POLL,
    MIN_POLL,
    QUICK_START,
    Backoff,
    as_stream_event,
    note_held_answer,
    parse_states,
    settled,
    wait_for_task,
)
from a2acli.pipeline.session import Reply
from a2acli.wire import Wire


def task(state: str, text: str | None = None) -> dict[str, Any]:
    status: dict[str, Any] = {"state": state}
    if text:
        status["message"] = {"messageId": f"m-{text}", "role": "ROLE_AGENT", "parts": [{"text": text}]}
    return {"id": "t-1", "contextId": "c-1", "status": status}


# -- settled, and the states a user names ---------------------------------------------------------


@pytest.mark.parametrize(
    ("state", "done"),
    [
        *[
            (s, True)
            for s in ("TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_REJECTED")
        ],
        *[(s, True) for s in ("TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED")],  # interrupted: the user's turn
        *[(s, True) for s in ("completed", "failed", "canceled", "rejected", "input-required", "auth-required")],  # 0.3
        *[(s, False) for s in ("TASK_STATE_SUBMITTED", "TASK_STATE_WORKING", "submitted", "working", "unknown")],
        ("TASK_STATE_UNSPECIFIED", False),
        ("something-new", False),
        ("", False),
        (None, False),
    ],
)
def test_settled_is_terminal_or_interrupted_in_either_spelling(state, done):
    assert settled(state) is done


@pytest.mark.parametrize(
    ("text", "states"),
    [
        ("completed", {"TASK_STATE_COMPLETED"}),
        (" completed , failed ", {"TASK_STATE_COMPLETED", "TASK_STATE_FAILED"}),
        ("input-required,auth-required", {"TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"}),
        ("TASK_STATE_CANCELED", {"TASK_STATE_CANCELED"}),
        ("canceled,canceled", {"TASK_STATE_CANCELED"}),
    ],
)
def test_parse_states_gives_canonical_names(text, states):
    assert parse_states(text) == frozenset(states)


@pytest.mark.parametrize("text", [None, ""])
def test_parse_states_of_nothing_is_none(text):
    assert parse_states(text) is None


@pytest.mark.parametrize("text", ["done", "completed,finished", "completed,"])
def test_parse_states_names_the_state_it_does_not_know(text):
    with pytest.raises(UsageError, match="unknown task state") as e:
        parse_states(text)
    assert "completed, failed" in (e.value.hint or "")


# -- the backoff ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("interval", "cap", "waits"),
    [
        (1.0, MAX_POLL, [1.0, 1.5, 2.25, 3.375, 5.0, 5.0]),
        (0.2, 1.0, [0.2, 0.30000000000000004, 0.45000000000000007, 0.675, 1.0, 1.0]),
        (10.0, MAX_POLL, [10.0, 10.0, 10.0]),  # never below the interval the user chose
        (0.0, MAX_POLL, [MIN_POLL, MIN_POLL * 1.5]),  # never a busy loop
    ],
)
def test_backoff_grows_one_and_a_half_times_up_to_its_cap(interval, cap, waits):
    b = Backoff(interval, cap)
    assert [b.next() for _ in waits] == pytest.approx(waits)


def test_backoff_starts_again_from_the_interval_on_a_change():
    b = Backoff(1.0)
    for _ in range(4):
        b.next()
    b.reset()
    assert b.next() == 1.0


@pytest.mark.parametrize(
    ("interval", "first", "waits"),
    [
        (2.0, 0.25, [0.25, 0.375, 0.5625]),
        (2.0, 5.0, [2.0, 3.0]),  # a first wait longer than the interval is the interval
        (2.0, 0.0, [MIN_POLL]),
    ],
)
def test_backoff_with_a_quick_first_wait(interval, first, waits):
    b = Backoff(interval, first=first)
    assert [b.next() for _ in waits] == pytest.approx(waits)


def test_a_reset_during_the_quick_start_does_not_slow_it_down():
    b = Backoff(2.0, first=0.25)
    b.next()
    b.reset()
    assert b.next() == 0.375


# -- wait_for_task: GetTask until the task settles -------------------------------------------------


def tracked(make_call, **opts: Any):
    c = make_call(endpoint=RPC, **opts)
    c.tracking.track({"task": task("TASK_STATE_WORKING")})
    return c


def test_the_task_is_polled_until_it_is_done(mock, make_call, no_sleep):
    rpc = mock.post(RPC).mock(
        side_effect=rpc_answers(task("TASK_STATE_WORKING"), task("TASK_STATE_WORKING"), task("TASK_STATE_COMPLETED"))
    )
    c = tracked(make_call)
    reply = wait_for_task(c, 1.0)
    assert rpc.call_count == 3 and [b["method"] for b in sent(rpc)] == ["GetTask"] * 3
    assert [b["params"] for b in sent(rpc)] == [{"id": "t-1"}] * 3
    assert no_sleep == [1.0, 1.5, 2.25]  # a wait before each look, growing while nothing changes
    assert (
        reply.core["status"]["state"] == "TASK_STATE_COMPLETED" and c.tracking.task["state"] == "TASK_STATE_COMPLETED"
    )


def test_an_interrupted_task_ends_the_wait(mock, make_call, no_sleep):
    rpc = mock.post(RPC).mock(side_effect=rpc_answers(task("TASK_STATE_INPUT_REQUIRED", "which city?")))
    c = tracked(make_call)
    wait_for_task(c, 1.0)
    assert rpc.call_count == 1 and c.tracking.ask["parts"] == [{"text": "which city?"}]


@pytest.mark.parametrize("odd", ["TASK_STATE_UNSPECIFIED", "TASK_STATE_SOMETHING_NEW"])
def test_a_state_that_is_neither_keeps_the_wait_going(mock, make_call, no_sleep, odd):
    rpc = mock.post(RPC).mock(side_effect=rpc_answers(task(odd), task("TASK_STATE_COMPLETED")))
    wait_for_task(tracked(make_call), 1.0)
    assert rpc.call_count == 2


def test_a_status_that_changes_brings_the_waits_back_to_the_interval(mock, make_call, no_sleep):
    mock.post(RPC).mock(
        side_effect=rpc_answers(
            task("TASK_STATE_WORKING", "step 1"),
            task("TASK_STATE_WORKING", "step 1"),
            task("TASK_STATE_WORKING", "step 2"),  # moved: the next wait is the interval again
            task("TASK_STATE_COMPLETED"),
        )
    )
    wait_for_task(tracked(make_call), 1.0)
    assert no_sleep == [1.0, 1.5, 2.25, 1.0]


def test_a_quick_wait_looks_first_after_an_eighth_of_the_interval(mock, make_call, no_sleep):
    mock.post(RPC).mock(side_effect=rpc_answers(task("TASK_STATE_WORKING"), task("TASK_STATE_COMPLETED")))
    wait_for_task(tracked(make_call), 2.0, quick=True)
    assert no_sleep == [2.0 * QUICK_START, 2.0 * QUICK_START * 1.5]


def test_the_query_goes_with_every_get_task(mock, make_call, no_sleep):
    rpc = mock.post(RPC).mock(side_effect=rpc_answers(task("TASK_STATE_WORKING"), task("TASK_STATE_COMPLETED")))
    wait_for_task(tracked(make_call), 1.0, query={"historyLength": 3})
    assert [b["params"] for b in sent(rpc)] == [{"id": "t-1", "historyLength": 3}] * 2


def test_each_look_moves_the_display_it_was_given(mock, make_call, no_sleep):
    mock.post(RPC).mock(side_effect=rpc_answers(task("TASK_STATE_WORKING", "half"), task("TASK_STATE_COMPLETED")))
    seen: list[Any] = []
    wait_for_task(tracked(make_call), 1.0, shown=SimpleNamespace(update=seen.append))
    assert [t["status"]["state"] for t in seen] == ["TASK_STATE_WORKING", "TASK_STATE_COMPLETED"]


@pytest.mark.parametrize(
    ("opts", "wrapped"),
    [
        ({}, True),  # 1.0: {"task": …}, as a send's answer
        ({"wire": Wire.V0}, False),  # 0.3 JSON-RPC: the bare task, as its events
        ({"wire": Wire.V0, "transports": ("rest",)}, True),  # 0.3 HTTP+JSON is proto JSON: wrapped
    ],
)
def test_wrap_gives_the_settled_task_in_the_shape_of_a_send_answer(mock, make_call, no_sleep, opts, wrapped):
    if opts.get("transports"):  # HTTP+JSON: GET /v1/tasks/ID, proto JSON
        mock.get(f"{RPC}/v1/tasks/t-1").mock(return_value=httpx.Response(200, json=task("TASK_STATE_COMPLETED")))
    else:
        done = task("TASK_STATE_COMPLETED") if not opts else {**task("completed"), "kind": "task"}
        mock.post(RPC).mock(side_effect=rpc_answers(done))
    c = tracked(make_call, **opts)
    reply = wait_for_task(c, 1.0, wrap=True)
    assert ("task" in reply.result) is wrapped
    assert (
        reply.core == {"task": reply.core["task"]} and reply.core["task"]["status"]["state"] == "TASK_STATE_COMPLETED"
    )


def test_as_stream_event_keeps_the_exchange_and_the_bytes(make_call):
    c = make_call(endpoint=RPC)
    got = Reply(task("TASK_STATE_COMPLETED"), task("TASK_STATE_COMPLETED"), b"{...}", "the exchange")
    event = as_stream_event(c, got)
    assert event.result == {"task": got.result} and event.raw == b"{...}" and event.exchange == "the exchange"


# -- an answer held although it was asked for at once ----------------------------------------------


@pytest.mark.parametrize(
    ("config", "elapsed", "state", "said"),
    [
        ({"returnImmediately": True}, 2.5, "TASK_STATE_COMPLETED", True),
        ({"returnImmediately": True}, 2.5, "TASK_STATE_INPUT_REQUIRED", True),
        ({"returnImmediately": True}, 0.4, "TASK_STATE_COMPLETED", False),  # quick: nothing was held
        ({"returnImmediately": True}, 2.5, "TASK_STATE_WORKING", False),  # it did return early
        ({"returnImmediately": True}, None, "TASK_STATE_COMPLETED", False),
        ({}, 2.5, "TASK_STATE_COMPLETED", False),  # a blocking send waits by design
        (None, 2.5, "TASK_STATE_COMPLETED", False),
    ],
)
def test_a_held_answer_is_said(make_call, recorder, config, elapsed, state, said):
    c = make_call(endpoint=RPC)
    c.tracking.track(task(state))
    params = {"message": {}} if config is None else {"message": {}, "configuration": config}
    note_held_answer(c, params, Reply(None, None, b"", SimpleNamespace(elapsed=elapsed)))
    held = recorder.saying("the agent held the answer")
    assert bool(held) is said
    if said:
        assert held == [
            f"the agent held the answer 2.5s, until task t-1 was {state.removeprefix('TASK_STATE_').lower().replace('_', '-')}: it does not honour returnImmediately"
        ]


def test_under_0_3_the_held_answer_names_blocking_false(make_call, recorder):
    c = make_call(endpoint=RPC, wire=Wire.V0)
    c.tracking.track(task("TASK_STATE_COMPLETED"))
    note_held_answer(
        c, {"configuration": {"returnImmediately": True}}, Reply(None, None, b"", SimpleNamespace(elapsed=3.0))
    )
    assert recorder.notes[-1].endswith("it does not honour blocking: false")
