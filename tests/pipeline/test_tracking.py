"""pipeline.tracking: what a session's replies say of the task in hand (its id, context and
state, what an interrupted task asks for), tracked across replies of either version's shape, and
the SSE event ids that let a re-subscription drop what a server replays."""

from __future__ import annotations

from typing import Any

import pytest

from a2acli.pipeline.session import Reply
from a2acli.pipeline.tracking import EventIds, Tracking
from a2acli.wire.shapes import peek_event

ASK = {"messageId": "m-1", "role": "ROLE_AGENT", "parts": [{"text": "which city?"}]}


def task(state: str, tid: str = "t-1", ctx: str = "c-1", **status: Any) -> dict[str, Any]:
    return {"id": tid, "contextId": ctx, "status": {"state": state, **status}}


def status(state: str | None, tid: str | None = "t-1", ctx: str | None = None, **more: Any) -> dict[str, Any]:
    ev: dict[str, Any] = {"status": {"state": state, **more} if state else more}
    if tid:
        ev["taskId"] = tid
    if ctx:
        ev["contextId"] = ctx
    return {"statusUpdate": ev}


# -- track: a core Task, send result or stream event -----------------------------------------------


@pytest.mark.parametrize(
    ("core", "expected"),
    [
        ({"task": task("TASK_STATE_SUBMITTED")}, {"id": "t-1", "contextId": "c-1", "state": "TASK_STATE_SUBMITTED"}),
        (task("TASK_STATE_WORKING"), {"id": "t-1", "contextId": "c-1", "state": "TASK_STATE_WORKING"}),  # bare
        (status("TASK_STATE_WORKING", ctx="c-9"), {"id": "t-1", "contextId": "c-9", "state": "TASK_STATE_WORKING"}),
        (status("TASK_STATE_WORKING"), {"id": "t-1", "state": "TASK_STATE_WORKING"}),  # no context: none invented
        ({"artifactUpdate": {"taskId": "t-7", "artifact": {"parts": []}}}, {"id": "t-7"}),
        ({"message": {"role": "ROLE_AGENT", "parts": []}}, {}),  # a message is no task
        ({"id": "t-1", "contextId": "c-1"}, {}),  # no status: not a task
        ("a string", {}),
        (None, {}),
        ([task("TASK_STATE_WORKING")], {}),
    ],
)
def test_track_reads_the_task_from_each_shape_of_answer(core, expected):
    t = Tracking()
    t.track(core)
    assert t.task == expected


def test_the_task_is_followed_across_replies():
    t = Tracking()
    t.track({"task": task("TASK_STATE_SUBMITTED")})
    t.track(status("TASK_STATE_WORKING"))
    t.track({"artifactUpdate": {"taskId": "t-1", "artifact": {"parts": [{"text": "x"}]}}})
    t.track(status("TASK_STATE_COMPLETED"))
    assert t.task == {"id": "t-1", "contextId": "c-1", "state": "TASK_STATE_COMPLETED"}


def test_an_artifact_of_another_task_does_not_replace_the_one_in_hand():
    t = Tracking()
    t.track(task("TASK_STATE_WORKING"))
    t.track({"artifactUpdate": {"taskId": "t-other", "artifact": {"parts": []}}})
    assert t.task["id"] == "t-1"


def test_a_status_update_without_a_state_keeps_the_state_and_the_question():
    t = Tracking()
    t.track(task("TASK_STATE_INPUT_REQUIRED", message=ASK))
    t.track(status(None, timestamp="2026-01-01T00:00:00Z"))
    assert t.task["state"] == "TASK_STATE_INPUT_REQUIRED" and t.ask == ASK


def test_a_new_task_replaces_the_one_in_hand_whole():
    t = Tracking()
    t.track(task("TASK_STATE_COMPLETED"))
    t.track({"task": task("TASK_STATE_SUBMITTED", tid="t-2", ctx="c-1")})
    assert t.task == {"id": "t-2", "contextId": "c-1", "state": "TASK_STATE_SUBMITTED"}


@pytest.mark.parametrize(
    ("state", "kept"),
    [
        ("TASK_STATE_INPUT_REQUIRED", True),
        ("TASK_STATE_AUTH_REQUIRED", True),
        ("TASK_STATE_WORKING", False),
        ("TASK_STATE_COMPLETED", False),
        ("TASK_STATE_FAILED", False),
    ],
)
def test_what_an_interrupted_task_asks_for_is_kept_and_only_then(state, kept):
    t = Tracking()
    t.track(task(state, message=ASK))
    assert t.ask == (ASK if kept else None)


def test_the_question_goes_when_the_state_moves_on():
    t = Tracking()
    t.track(status("TASK_STATE_AUTH_REQUIRED", message=ASK))
    assert t.ask == ASK
    t.track(status("TASK_STATE_WORKING"))
    assert t.ask is None


# -- track_reply: from a stream event's facts --------------------------------------------------------


def reply(result: Any, core: Any = None) -> Reply:
    """A stream event's reply, with the facts the session peeks of it; `core` its canonical form."""
    return Reply(result, result if core is None else core, facts=peek_event(result))


def test_a_reply_without_facts_is_tracked_from_its_core():
    t = Tracking()
    t.track_reply(Reply({"kind": "task"}, {"task": task("TASK_STATE_WORKING")}))
    assert t.task["state"] == "TASK_STATE_WORKING"


@pytest.mark.parametrize(
    ("result", "expected"),
    [
        (status("TASK_STATE_WORKING", ctx="c-1"), {"id": "t-1", "contextId": "c-1", "state": "TASK_STATE_WORKING"}),
        (
            {
                "kind": "status-update",
                "taskId": "t-3",
                "contextId": "c-3",
                "status": {"state": "working"},
                "final": False,
            },
            {"id": "t-3", "contextId": "c-3", "state": "TASK_STATE_WORKING"},
        ),  # 0.3: canonical
        (
            {"kind": "task", "id": "t-4", "contextId": "c-4", "status": {"state": "submitted"}},
            {"id": "t-4", "contextId": "c-4", "state": "TASK_STATE_SUBMITTED"},
        ),
        ({"kind": "artifact-update", "taskId": "t-5", "artifact": {"artifactId": "a", "parts": []}}, {"id": "t-5"}),
        ({"kind": "message", "messageId": "m", "role": "agent", "parts": [], "taskId": "t-6"}, {}),
    ],
)
def test_a_stream_events_facts_track_the_task_in_either_version(result, expected):
    t = Tracking()
    t.track_reply(reply(result))
    assert t.task == expected


def test_an_interrupted_event_is_decoded_for_its_question():
    v0 = {
        "kind": "status-update",
        "taskId": "t-1",
        "contextId": "c-1",
        "final": True,
        "status": {"state": "input-required", "message": {"kind": "message"}},
    }
    core = status("TASK_STATE_INPUT_REQUIRED", ctx="c-1", message=ASK)  # what decoding the 0.3 event gives
    t = Tracking()
    t.track_reply(reply(v0, core))
    assert t.task["state"] == "TASK_STATE_INPUT_REQUIRED" and t.ask == ASK


def test_a_working_event_after_a_question_drops_it():
    t = Tracking()
    t.track_reply(reply(status("TASK_STATE_INPUT_REQUIRED", message=ASK)))
    t.track_reply(reply(status("TASK_STATE_WORKING")))
    assert t.ask is None and t.task["state"] == "TASK_STATE_WORKING"


# -- the SSE event ids --------------------------------------------------------------------------


def test_event_ids_remember_the_last_one():
    ids = EventIds()
    assert ids.last == ""
    assert ids.fresh("1") and ids.fresh("2")
    assert ids.last == "2" and ids.skipped == 0


def test_without_a_resubscription_an_id_seen_before_is_fresh():
    ids = EventIds()
    assert ids.fresh("1") and ids.fresh("1")  # (an event with no id line keeps the one before it)
    assert ids.seen == {"1": 2}


def test_after_a_resubscription_what_the_server_replays_is_dropped():
    ids = EventIds()
    for eid in ("1", "2", "2", "3"):
        ids.fresh(eid)
    ids.resume()
    replayed = [ids.fresh(eid) for eid in ("1", "2", "2", "3")]
    assert replayed == [False] * 4 and ids.skipped == 4 and ids.last == "3"
    assert ids.fresh("4") and ids.last == "4"


def test_a_replay_counts_per_id():
    ids = EventIds()
    ids.fresh("7")
    ids.resume()
    assert not ids.fresh("7")  # the one seen
    assert ids.fresh("7")  # a second event under that id: new
    assert ids.skipped == 1


def test_the_ids_kept_are_bounded():
    ids = EventIds()
    for n in range(EventIds.MAX + 10):
        ids.fresh(str(n))
    assert len(ids.seen) == EventIds.MAX
    assert "0" not in ids.seen and str(EventIds.MAX + 9) in ids.seen  # the oldest go first
