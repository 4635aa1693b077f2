"""Issue 12: to_core_stream_response returns an event that is canonical V1 already as is, without
the translators' copies (wire.translate.canonical). That fast path must give what the translators
give, for every event: same value, same key order, same notes."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from a2acli.wire.translate import canonical, tasks, to_core_stream_response


def slow(obj: Any) -> tuple[Any, list[str]]:
    """The translators alone, never the fast path."""
    notes: list[str] = []
    return tasks._translate_event(obj, notes, core=True, what="stream response", members=tuple(tasks._MEMBERS)), notes


def fast(obj: Any) -> tuple[Any, list[str]]:
    before = copy.deepcopy(obj)
    notes: list[str] = []
    out = to_core_stream_response(obj, notes)
    assert obj == before, "to_core_stream_response modified its input"
    return out, notes


def same(obj: Any) -> None:
    (got, got_notes), (want, want_notes) = fast(obj), slow(obj)
    assert json.dumps(got) == json.dumps(want)  # the same value, keys in the same order
    assert got_notes == want_notes


MSG = {"messageId": "m-1", "contextId": "c-1", "taskId": "t-1", "role": "ROLE_AGENT", "parts": [{"text": "hi"}, {"data": {"a": 1}}, {"url": "https://x/y", "mediaType": "text/plain"}]}
STATUS = {"state": "TASK_STATE_WORKING", "timestamp": "2026-01-01T00:00:00Z", "message": MSG}
TASK = {"id": "t-1", "contextId": "c-1", "status": STATUS, "artifacts": [{"artifactId": "a-1", "parts": [{"text": "x"}]}], "history": [MSG], "metadata": {"snake_key": 1, "kind": "free"}}

CANONICAL = {
    "status update": {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED", "timestamp": "2026-01-01T00:00:00Z"}}},
    "status update with message": {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": STATUS, "metadata": {"x_y": True}}},
    "status update, no status": {"statusUpdate": {"taskId": "t-1", "contextId": "c-1"}},
    "unspecified state": {"statusUpdate": {"taskId": "t-1", "status": {"state": "TASK_STATE_UNSPECIFIED"}}},
    "artifact update": {"artifactUpdate": {"taskId": "t-1", "contextId": "c-1", "artifact": {"artifactId": "a", "parts": [{"text": "p"}]}, "append": True, "lastChunk": False}},
    "task": {"task": TASK},
    "message": {"message": MSG},
    "message without parts": {"message": {"messageId": "m", "role": "ROLE_USER"}},
    "data part with metadata": {"message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"data": [1, 2], "metadata": {"data_part_compat": False}}]}},
}

NOT_CANONICAL = {
    "V0 status update": {"kind": "status-update", "taskId": "t-1", "contextId": "c-1", "status": {"state": "working"}, "final": False},
    "V0 task": {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "completed"}},
    "V0 message": {"kind": "message", "messageId": "m", "role": "agent", "parts": [{"kind": "text", "text": "hi"}]},
    "lowercase state (clix dialect)": {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "working"}}},
    "lowercase role (clix dialect)": {"message": {"messageId": "m", "role": "agent", "parts": [{"text": "hi"}]}},
    "lowercase V1 enum in a task's history": {"task": {**TASK, "history": [{**MSG, "role": "user"}]}},
    "REST spelling CANCELLED": {"statusUpdate": {"taskId": "t-1", "status": {"state": "TASK_STATE_CANCELLED"}}},
    "state with no TASK_STATE_ prefix": {"statusUpdate": {"taskId": "t-1", "status": {"state": "WORKING"}}},
    "unknown state": {"statusUpdate": {"taskId": "t-1", "status": {"state": "pondering"}}},
    "empty role": {"message": {"messageId": "m", "role": "", "parts": []}},
    "final flag on a V1 wrapper": {"statusUpdate": {"taskId": "t-1", "status": {"state": "TASK_STATE_WORKING"}, "final": True}},
    "final flag that agrees": {"statusUpdate": {"taskId": "t-1", "status": {"state": "TASK_STATE_COMPLETED"}, "final": True}},
    "snake_case keys": {"statusUpdate": {"task_id": "t-1", "context_id": "c-1", "status": {"state": "TASK_STATE_WORKING"}}},
    "snake_case in a part": {"message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"url": "u", "media_type": "text/plain"}]}},
    "kind in a part": {"message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"kind": "text", "text": "hi"}]}},
    "V0 file part": {"artifactUpdate": {"taskId": "t", "artifact": {"artifactId": "a", "parts": [{"file": {"uri": "u", "mimeType": "text/plain"}}]}}},
    "V0 data part carrying a non-object": {"message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"data": {"value": 3}, "metadata": {"data_part_compat": True}}]}},
    "status not an object": {"statusUpdate": {"taskId": "t-1", "status": "working"}},
    "message not an object": {"statusUpdate": {"taskId": "t-1", "status": {"state": "TASK_STATE_WORKING", "message": "hi"}}},
    "part not an object": {"message": {"messageId": "m", "role": "ROLE_USER", "parts": ["hi"]}},
    "artifact not an object": {"artifactUpdate": {"taskId": "t", "artifact": []}},
    "history item not an object": {"task": {"id": "t", "status": {"state": "TASK_STATE_WORKING"}, "history": [None]}},
    "wrapper with another key": {"statusUpdate": {"taskId": "t-1"}, "x": 1},
    "two wrappers": {"statusUpdate": {"taskId": "t-1"}, "task": {"id": "t-1"}},
    "wrapper around a non-object": {"statusUpdate": None},
    "bare V1 status update": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}},
    "0.3 proto-JSON spelling": {"msg": {"messageId": "m", "role": "ROLE_AGENT", "content": [{"text": "hi"}]}},
    "not an object": ["statusUpdate"],
}


@pytest.mark.parametrize("event", CANONICAL.values(), ids=CANONICAL)
def test_canonical_events_come_back_as_they_are(event):
    assert canonical.core_stream_response(event)
    assert to_core_stream_response(event) is event  # no copy
    same(event)


@pytest.mark.parametrize("event", NOT_CANONICAL.values(), ids=NOT_CANONICAL)
def test_other_spellings_take_the_translators(event):
    assert not canonical.core_stream_response(event)
    same(event)


def test_a_non_string_key_is_left_to_the_translators():
    event = {"statusUpdate": {1: "x", "taskId": "t"}}
    assert not canonical.core_stream_response(event)
    assert to_core_stream_response(event) == {"statusUpdate": {1: "x", "taskId": "t"}}


# -- property: events built from canonical and non-canonical pieces alike --------------------------

FUZZ = settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck), database=None)
junk = st.none() | st.booleans() | st.integers() | st.text(max_size=3) | st.just([]) | st.just({})
states = st.sampled_from(["TASK_STATE_WORKING", "TASK_STATE_COMPLETED", "TASK_STATE_UNSPECIFIED", "working", "input-required", "CANCELLED", "TASK_STATE_CANCELLED", "", "unknown"]) | junk
roles = st.sampled_from(["ROLE_USER", "ROLE_AGENT", "ROLE_UNSPECIFIED", "user", "agent", "USER", ""]) | junk
extra_keys = st.sampled_from(["kind", "final", "task_id", "media_type", "x_custom", "metadata", "extensions", "contextId"])


def obj(required: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """An object with `required` (each key may be left out) and maybe a few stray keys."""
    optional = st.fixed_dictionaries({}, optional=required)
    stray = st.one_of(st.just({}), st.just({}), st.just({}), st.dictionaries(extra_keys, junk | st.just("task"), max_size=2))
    return st.tuples(optional, stray).map(lambda t: {**t[0], **t[1]})


def maybe(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(strategy, strategy, strategy, strategy, junk)  # mostly well formed


parts = maybe(
    st.lists(
        maybe(
            st.one_of(
                obj({"text": st.text(max_size=3)}),
                obj({"data": junk, "metadata": st.sampled_from([{}, {"data_part_compat": True}, {"data_part_compat": False}, None])}),
                obj({"url": st.just("u"), "mediaType": st.just("m")}),
                obj({"file": maybe(obj({"uri": st.just("u"), "bytes": st.just("Zg=="), "mimeType": st.just("m"), "name": st.just("n")}))}),
            )
        ),
        max_size=3,
    )
)
message = obj({"messageId": st.just("m"), "role": roles, "parts": parts})
status = obj({"state": states, "timestamp": st.just("2026-01-01T00:00:00Z"), "message": maybe(message) | st.none()})
artifact = obj({"artifactId": st.just("a"), "parts": parts})
status_update = obj({"taskId": st.just("t"), "contextId": st.just("c"), "status": maybe(status) | st.none()})
artifact_update = obj({"taskId": st.just("t"), "artifact": maybe(artifact) | st.none(), "append": st.booleans(), "lastChunk": st.booleans()})
task = obj({"id": st.just("t"), "status": maybe(status), "artifacts": maybe(st.lists(maybe(artifact), max_size=2)), "history": maybe(st.lists(maybe(message), max_size=2))})
inner = {"statusUpdate": status_update, "artifactUpdate": artifact_update, "task": task, "message": message}
events = st.one_of(
    *(inner[k].map(lambda v, k=k: {k: v}) for k in inner),  # a V1 wrapper
    *(inner[k].map(lambda v, k=k: {k: v, "x": 1}) for k in ("statusUpdate", "task")),  # with a stray key
    *inner.values(),  # a bare event (V0, when it has a kind)
)


@seed(12)
@FUZZ
@given(event=events)
def test_the_fast_path_gives_what_the_translators_give(event):
    same(event)
