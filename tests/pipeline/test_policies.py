"""pipeline.policies apart from any command: the waits between polls, what a refused send's hint
says, and which versions can list tasks (the hints after an interrupted send depend on it)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from a2acli.errors import HttpError, RpcError, UsageError
from a2acli.pipeline.options import CallOptions
from a2acli.pipeline.policies import (
    Backoff,
    can_list_tasks,
    explain_send_refusal,
    parse_states,
    refuses_return_immediately,
    settled,
)
from a2acli.wire import Wire


def test_backoff_grows_from_the_interval_to_the_cap_and_restarts_on_a_change():
    b = Backoff(2.0)
    assert [b.next() for _ in range(4)] == [2.0, 3.0, 4.5, 5.0]
    b.reset()
    assert b.next() == 2.0


def test_backoff_with_a_quick_first_wait_never_goes_below_the_floor():
    assert Backoff(2.0, first=0.25).next() == 0.25
    assert Backoff(0.01).next() == 0.05  # never a busy loop


@pytest.mark.parametrize("state,done", [("TASK_STATE_COMPLETED", True), ("input-required", True), ("TASK_STATE_WORKING", False), ("TASK_STATE_UNSPECIFIED", False), (None, False)])
def test_settled_means_terminal_or_interrupted(state, done):
    assert settled(state) is done


def test_parse_states_names_an_unknown_state():
    assert parse_states("completed, failed") == frozenset({"TASK_STATE_COMPLETED", "TASK_STATE_FAILED"})
    with pytest.raises(UsageError, match="unknown task state 'done'"):
        parse_states("done")


def rpc(code: int) -> RpcError:
    return RpcError("refused", a2a_code=code)


@pytest.mark.parametrize("err,may_be_the_field", [
    (HttpError("the agent answered HTTP 500", wire_code=500), True),
    (HttpError("the agent answered HTTP 422", wire_code=422), True),
    (HttpError("the agent answered HTTP 404", wire_code=404), False),
    (rpc(-32602), True),
    (rpc(-32001), False),
])
def test_a_refusal_that_may_be_of_return_immediately_gets_the_hint_and_nothing_else(err, may_be_the_field):
    assert refuses_return_immediately(err) is may_be_the_field
    followed = {"message": {}, "configuration": {"returnImmediately": True}}
    assert ("without --follow and --async" in (explain_send_refusal(err, followed).hint or "")) is may_be_the_field


def test_a_blocking_send_refused_gets_no_return_immediately_hint():
    err = HttpError("the agent answered HTTP 500", wire_code=500)
    assert "returnImmediately" not in (explain_send_refusal(err, {"message": {}}).hint or "")


@pytest.mark.parametrize("wire,dialect,can", [(Wire.V1, "spec", True), (Wire.V0, "spec", False), (Wire.V0, "clix", True)])
def test_tasks_can_be_listed_under_1_0_and_under_0_3_only_with_the_vendor_dialect(wire, dialect, can):
    assert can_list_tasks(SimpleNamespace(opts=CallOptions(wire=wire, dialect_name=dialect))) is can
