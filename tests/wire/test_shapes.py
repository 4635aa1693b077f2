"""wire.shapes: an answer is the object its method promises, or one clear InvalidResponseError;
and which stream event is the last."""

from __future__ import annotations

import pytest

from a2acli.errors import InvalidResponseError
from a2acli.wire.shapes import check_result, ends_stream

TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}}
MESSAGE = {"messageId": "m-1", "role": "ROLE_AGENT", "parts": [{"text": "hi"}]}


@pytest.mark.parametrize("kind,core", [
    ("send", {"task": TASK}),
    ("send", {"message": MESSAGE}),
    ("send", {"task": {**TASK, "artifacts": [{"artifactId": "a", "parts": [{"data": {}}]}], "history": [MESSAGE], "extra": 1}}),
    ("task", {**TASK, "status": {"state": "whatever-a-vendor-says", "message": MESSAGE}}),
    ("task-list", {"tasks": [TASK, TASK], "nextPageToken": ""}),
    ("task-list", {"tasks": []}),
    ("event", {"task": TASK}),
    ("event", {"message": MESSAGE}),
    ("event", {"statusUpdate": {"taskId": "t-1", "status": {"state": "TASK_STATE_COMPLETED"}}}),
    ("event", {"artifactUpdate": {"taskId": "t-1", "artifact": {"parts": []}}}),
    ("push-config", {"id": "p", "url": "https://x"}),
    ("push-config-list", {"configs": []}),
    ("push-config-list", {}),
    ("card", {"name": "a"}),
    ("empty", None),
    ("empty", {}),
    ("json", ["anything", "for an unknown method"]),
])
def test_valid_answers_pass(kind, core):
    check_result(kind, core, "M")


@pytest.mark.parametrize("kind,core,says", [
    ("send", None, "result is null, not an object"),
    ("send", {}, "result holds none of task, message"),
    ("send", {"task": TASK, "message": MESSAGE}, "result holds task and message"),
    ("send", {"task": "x"}, "result.task is a string, not an object"),
    ("send", {"task": {"status": {}}}, "result.task.id is missing"),
    ("send", {"task": {"id": "t", "status": "x"}}, "result.task.status is a string, not an object"),
    ("send", {"task": {"id": "t"}}, "result.task.status is missing"),
    ("send", {"message": "x"}, "result.message is a string"),
    ("send", {"message": {"parts": "x"}}, "result.message.parts is a string, not an array"),
    ("task", 5, "result is a number"),
    ("task", {**TASK, "artifacts": [1]}, "result.artifacts[0] is a number"),
    ("task", {**TASK, "history": [{"parts": [1]}]}, "result.history[0].parts[0] is a number"),
    ("task-list", {"tasks": "x"}, "result.tasks is a string, not an array"),
    ("task-list", {"tasks": None}, "result.tasks is null, not an array"),
    ("task-list", {"tasks": [{"id": "t"}]}, "result.tasks[0].status is missing"),
    ("event", {"statusUpdate": "x"}, "result.statusUpdate is a string"),
    ("event", {"statusUpdate": {"taskId": "t"}}, "result.statusUpdate.status is null"),
    ("event", {"artifactUpdate": {"artifact": "x"}}, "result.artifactUpdate.artifact is a string"),
    ("event", {"other": 1}, "holds none of task, message, statusUpdate, artifactUpdate"),
    ("push-config", [], "result is an array"),
    ("push-config-list", {"configs": [1]}, "result.configs[0] is a number"),
    ("card", "x", "result is a string"),
])
def test_invalid_answers_are_named_with_their_path(kind, core, says):
    with pytest.raises(InvalidResponseError) as e:
        check_result(kind, core, "GetTask")
    assert e.value.message.startswith("the answer to GetTask is not valid: ") and says in e.value.message
    assert e.value.exit_code == 1


@pytest.mark.parametrize("result,core,last", [
    ({"kind": "status-update", "final": True, "status": {"state": "input-required"}}, {"statusUpdate": {"status": {"state": "TASK_STATE_INPUT_REQUIRED"}}}, True),
    ({}, {"statusUpdate": {"status": {"state": "TASK_STATE_COMPLETED"}}}, True),
    ({}, {"statusUpdate": {"status": {"state": "canceled"}}}, True),
    ({}, {"task": {"id": "t", "status": {"state": "TASK_STATE_FAILED"}}}, True),
    ({}, {"message": MESSAGE}, True),
    ({}, {"statusUpdate": {"status": {"state": "TASK_STATE_WORKING"}}}, False),
    # an input-required Task snapshot (subscribe) waits for the task to resume
    ({}, {"task": {"id": "t", "status": {"state": "TASK_STATE_INPUT_REQUIRED"}}}, False),
    ({}, {"artifactUpdate": {"artifact": {"parts": []}, "lastChunk": True}}, False),
    (None, None, False),
])
def test_which_event_ends_a_stream(result, core, last):
    assert ends_stream(result, core) is last


# -- issue 12: a state that is no string is no state, never a crash (the stream's fast path included)


@pytest.mark.parametrize("state", [[], {}, 3, True])
def test_a_state_that_is_no_string(state):
    from a2acli.wire.shapes import ends_stream, peek_event
    from a2acli.wire.translate import is_interrupted, is_terminal, to_core_stream_response

    event = {"statusUpdate": {"taskId": "t", "status": {"state": state}}}
    assert peek_event(event) is None  # decoded in full instead
    assert peek_event({"kind": "status-update", "taskId": "t", "status": {"state": state}}) is None
    assert ends_stream(event, event) is False
    assert not is_terminal(state) and not is_interrupted(state)
    v0 = {"kind": "status-update", "taskId": "t", "status": {"state": state}, "final": True}
    assert to_core_stream_response(v0) == {"statusUpdate": {"taskId": "t", "status": {"state": state}}}


def test_peek_event_reads_a_one_key_wrapper_as_the_long_way():
    from a2acli.wire.shapes import peek_event

    for event in ({"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "completed"}}}, {"task": {"id": "t", "status": {"state": "TASK_STATE_WORKING"}}}, {"msg": {"taskId": "t"}}):
        f = peek_event(event)
        g = peek_event({**event, "x": 1})  # the loop over keys
        assert f is not None and g is not None
        assert (f.kind, f.task_id, f.context_id, f.state, f.final, f.ends) == (g.kind, g.task_id, g.context_id, g.state, g.final, g.ends)
    assert peek_event({"statusUpdate": []}) is None
    assert peek_event({"other": {}}) is None


def test_an_empty_task_list_may_leave_tasks_out():
    """ProtoJSON omits an empty repeated field: a gRPC or HTTP+JSON ListTasks answer with no task is
    `{}` (issue 25 found `tasks list` over gRPC failing on it)."""
    from a2acli.wire.shapes import check_result

    check_result("task-list", {}, "ListTasks")
    check_result("task-list", {"nextPageToken": ""}, "ListTasks")
