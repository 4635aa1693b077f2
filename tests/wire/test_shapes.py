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


# -- issues 26, 33: the stream's fast path (wire.fastpath), checked in one pass

_MSG = {"messageId": "m", "role": "ROLE_AGENT", "parts": [{"text": "hi"}]}
_STATUS = {"state": "TASK_STATE_WORKING", "timestamp": "2026-01-01T00:00:00Z"}
# variations of canonical events: each key of the event, its status, message, artifact and parts,
# replaced by a value that is canonical, one a translator would change, or one the check refuses
_FIELD_VALUES: dict[str, list[object]] = {
    "state": ["TASK_STATE_COMPLETED", "TASK_STATE_INPUT_REQUIRED", "TASK_STATE_UNSPECIFIED", "completed", "working", [], 3, None],
    "status": [_STATUS, {}, {"state": "TASK_STATE_FAILED", "message": _MSG}, None, "x", [], {"state": "TASK_STATE_WORKING", "kind": "s"}, {"task_state": "x"}],
    "message": [_MSG, None, "x", {**_MSG, "parts": "x"}, {**_MSG, "parts": None}, {**_MSG, "parts": [1]}, {**_MSG, "parts": [{"file": {}}]}, {**_MSG, "role": "agent"}, {**_MSG, "kind": "message"}, {"role": "ROLE_USER"}, {**_MSG, "parts": [{"text": "x", "metadata": {"data_part_compat": True}}]}],
    "artifact": [{"artifactId": "a", "parts": [{"text": "x"}]}, {"artifactId": "a"}, {"parts": []}, None, "x", {"parts": {"text": "x"}}, {"parts": None}, {"parts": [[]]}, {"artifact_id": "a"}],
    "final": [True, False, None],
    "extra": [{"kind": "status-update"}, {"status": {"state": "TASK_STATE_WORKING"}}, {"last_chunk": True}, {"append": True}, {1: "x"}],
}


def _variants() -> list[object]:
    out: list[object] = []
    for state in _FIELD_VALUES["state"]:
        for message in _FIELD_VALUES["message"]:
            out.append({"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": state, "message": message}}})
    for status in _FIELD_VALUES["status"]:
        out.append({"statusUpdate": {"taskId": "t", "contextId": "c", "status": status}})
        out.append({"statusUpdate": {"taskId": "t", "status": status, "final": True}})
    for artifact in _FIELD_VALUES["artifact"]:
        out.append({"artifactUpdate": {"taskId": "t", "contextId": "c", "artifact": artifact}})
        for final in _FIELD_VALUES["final"]:
            out.append({"artifactUpdate": {"taskId": "t", "artifact": artifact, "final": final}})
    for extra in _FIELD_VALUES["extra"]:
        out.append({"statusUpdate": {"taskId": "t", "status": _STATUS, **extra}})  # type: ignore[dict-item]
        out.append({"artifactUpdate": {"taskId": "t", "artifact": {"parts": []}, **extra}})  # type: ignore[dict-item]
    out += [{"statusUpdate": {"taskId": "t"}}, {"artifactUpdate": {"taskId": "t"}}, {"statusUpdate": []}, {"artifactUpdate": None}]
    out += [{"task": TASK}, {"message": MESSAGE}, {"statusUpdate": {"status": _STATUS}, "x": 1}, {}, [], "x", None]
    out += [{"kind": "status-update", "taskId": "t", "status": {"state": "working"}, "final": True}]
    return out


def _facts(f):
    return None if f is None else (f.kind, f.task_id, f.context_id, f.state, f.final, f.ends)


@pytest.mark.parametrize("event", _variants())
def test_the_fast_path_answers_only_as_the_long_way_does(event):
    """vouch answers for an event only when the long way (the translator, the check, peek_event)
    passes it, with the same canonical form and the same facts; for any other it says None and the
    long way runs (naming what is wrong, if anything). tests/wire/test_fastpath.py has the rest."""
    import json

    from a2acli.wire.fastpath import core_of, vouch
    from a2acli.wire.shapes import peek_event
    from a2acli.wire.translate import to_core_stream_response

    facts = vouch(event)
    if facts is None:
        return
    core = to_core_stream_response(event)
    assert json.dumps(event if facts.same else core_of(event)) == json.dumps(core)
    check_result("event", core, "SendStreamingMessage")  # valid: the check passes
    assert _facts(facts) == _facts(peek_event(event))


def test_the_fast_path_takes_the_usual_events_and_leaves_every_invalid_one():
    from a2acli.wire.fastpath import vouch
    from a2acli.wire.translate import to_core_stream_response

    variants = _variants()
    fast = [e for e in variants if vouch(e) is not None]
    assert len(fast) >= 20  # status and artifact updates, with and without messages and parts
    assert {"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_COMPLETED", "message": _MSG}}} in fast
    assert {"kind": "status-update", "taskId": "t", "status": {"state": "working"}, "final": True} in fast  # V0 too
    invalid = []
    for e in variants:
        try:
            check_result("event", to_core_stream_response(e), "SendStreamingMessage")
        except InvalidResponseError:
            invalid.append(e)
    assert len(invalid) >= 15 and not [e for e in invalid if vouch(e) is not None]
