from __future__ import annotations

import pytest

from a2acli.wire.translate import (
    stream_kind,
    to_compat_artifact,
    to_compat_artifact_update,
    to_compat_send_result,
    to_compat_status_update,
    to_compat_stream_response,
    to_compat_task,
    to_compat_task_list,
    to_compat_task_status,
    to_core_artifact,
    to_core_artifact_update,
    to_core_send_result,
    to_core_status_update,
    to_core_stream_response,
    to_core_task,
    to_core_task_list,
    to_core_task_status,
)

TASK_V1 = {  # REFERENCE §4.1 GetTask
    "id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"},
    "history": [{"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "Hi"}]}],
}
TASK_V0 = {
    "kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "working"},
    "history": [{"kind": "message", "messageId": "m-1", "role": "user", "parts": [{"kind": "text", "text": "Hi"}]}],
}
STATUS_V1 = {"state": "TASK_STATE_INPUT_REQUIRED", "timestamp": "2026-01-01T00:00:00.000Z",
             "message": {"messageId": "m-2", "role": "ROLE_AGENT", "parts": [{"text": "Which?"}]}}
STATUS_V0 = {"state": "input-required", "timestamp": "2026-01-01T00:00:00.000Z",
             "message": {"kind": "message", "messageId": "m-2", "role": "agent", "parts": [{"kind": "text", "text": "Which?"}]}}
ARTIFACT_V1 = {"artifactId": "a-1", "name": "out", "description": "d", "parts": [{"text": "par"}], "metadata": {"k": 1}}
ARTIFACT_V0 = {"artifactId": "a-1", "name": "out", "description": "d", "parts": [{"kind": "text", "text": "par"}], "metadata": {"k": 1}}
# REFERENCE §5 stream events
SU_V1 = {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}
SU_V0 = {"kind": "status-update", "taskId": "t-1", "contextId": "c-1", "status": {"state": "completed"}, "final": True}
AU_V1 = {"taskId": "t-1", "contextId": "c-1", "artifact": {"artifactId": "a-1", "parts": [{"text": "par"}]},
         "append": False, "lastChunk": False}
AU_V0 = {"kind": "artifact-update", "taskId": "t-1", "contextId": "c-1",
         "artifact": {"artifactId": "a-1", "parts": [{"kind": "text", "text": "par"}]}, "append": False, "lastChunk": False}
MSG_V1 = {"messageId": "m-2", "contextId": "c-1", "role": "ROLE_AGENT", "parts": [{"text": "Hello"}]}
MSG_V0 = {"kind": "message", "messageId": "m-2", "contextId": "c-1", "role": "agent", "parts": [{"kind": "text", "text": "Hello"}]}

# (to_core, to_compat, V1, V0): lossless pairs
ENTITY_PAIRS = {
    "task": (to_core_task, to_compat_task, TASK_V1, TASK_V0),
    "task+artifacts": (to_core_task, to_compat_task,
                       {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_COMPLETED"}, "artifacts": [ARTIFACT_V1], "metadata": {}},
                       {"kind": "task", "id": "t", "contextId": "c", "status": {"state": "completed"}, "artifacts": [ARTIFACT_V0], "metadata": {}}),
    "status": (to_core_task_status, to_compat_task_status, STATUS_V1, STATUS_V0),
    "artifact": (to_core_artifact, to_compat_artifact, ARTIFACT_V1, ARTIFACT_V0),
    "status-update": (to_core_status_update, to_compat_status_update, SU_V1, SU_V0),
    "artifact-update": (to_core_artifact_update, to_compat_artifact_update, AU_V1, AU_V0),
    "stream task": (to_core_stream_response, to_compat_stream_response, {"task": TASK_V1}, TASK_V0),
    "stream message": (to_core_stream_response, to_compat_stream_response, {"message": MSG_V1}, MSG_V0),
    "stream status": (to_core_stream_response, to_compat_stream_response, {"statusUpdate": SU_V1}, SU_V0),
    "stream artifact": (to_core_stream_response, to_compat_stream_response, {"artifactUpdate": AU_V1}, AU_V0),
    "send task": (to_core_send_result, to_compat_send_result, {"task": TASK_V1}, TASK_V0),
    "send message": (to_core_send_result, to_compat_send_result, {"message": MSG_V1}, MSG_V0),
    "task list": (to_core_task_list, to_compat_task_list, {"tasks": [TASK_V1], "nextPageToken": ""}, [TASK_V0]),
    "empty task list": (to_core_task_list, to_compat_task_list, {"tasks": [], "nextPageToken": ""}, []),
}
CASES = list(ENTITY_PAIRS.values())
IDS = list(ENTITY_PAIRS)


@pytest.mark.parametrize(("core", "compat", "v1", "v0"), CASES, ids=IDS)
def test_to_compat(tr, core, compat, v1, v0):
    assert tr(compat, v1) == (v0, [])


@pytest.mark.parametrize(("core", "compat", "v1", "v0"), CASES, ids=IDS)
def test_to_core(tr, core, compat, v1, v0):
    assert tr(core, v0) == (v1, [])


@pytest.mark.parametrize(("core", "compat", "v1", "v0"), CASES, ids=IDS)
def test_round_trips_and_idempotence(core, compat, v1, v0):
    assert core(compat(v1)) == v1
    assert compat(core(v0)) == v0
    assert core(v1) == v1
    assert compat(v0) == v0


@pytest.mark.parametrize(
    ("state", "final"),
    [("TASK_STATE_COMPLETED", True), ("TASK_STATE_CANCELED", True), ("TASK_STATE_FAILED", True),
     ("TASK_STATE_REJECTED", True), ("TASK_STATE_WORKING", False), ("TASK_STATE_SUBMITTED", False),
     ("TASK_STATE_INPUT_REQUIRED", False), ("TASK_STATE_AUTH_REQUIRED", False), ("TASK_STATE_UNSPECIFIED", False)],
)
def test_final_is_computed_from_the_state(state, final):
    out = to_compat_status_update({"taskId": "t", "contextId": "c", "status": {"state": state}})
    assert out["final"] is final


def test_final_disagreeing_with_the_state_is_noted_toward_v1(tr):
    v0 = {"kind": "status-update", "taskId": "t", "contextId": "c", "status": {"state": "input-required"}, "final": True}
    out, notes = tr(to_core_status_update, v0)
    assert out == {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_INPUT_REQUIRED"}}
    assert notes == ["status update: final=true on state TASK_STATE_INPUT_REQUIRED dropped "
                     "(V1 has no final flag; only terminal states end a stream)"]
    assert to_compat_status_update(v0) == v0  # a V0 input keeps the flag its agent chose


def test_v0_required_fields_get_v1_defaults(tr):
    assert tr(to_compat_artifact_update, {"taskId": "t", "artifact": {"artifactId": "a", "parts": []}}) == (
        {"kind": "artifact-update", "taskId": "t", "artifact": {"artifactId": "a", "parts": []},
         "contextId": "", "append": False, "lastChunk": False}, [])
    assert tr(to_compat_task, {"id": "t", "status": {"state": "TASK_STATE_SUBMITTED"}}) == (
        {"kind": "task", "id": "t", "status": {"state": "submitted"}, "contextId": ""}, [])


def test_empty_v1_defaults_are_omitted_toward_v0(tr):
    v1 = {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING", "timestamp": ""},
          "artifacts": [{"artifactId": "a", "name": "", "description": "", "parts": [], "extensions": []}], "history": []}
    assert tr(to_compat_task, v1) == ({"kind": "task", "id": "t", "contextId": "c", "status": {"state": "working"},
                                       "artifacts": [{"artifactId": "a", "parts": []}]}, [])


@pytest.mark.parametrize(
    ("lenient", "v1"),
    [
        ({"id": "t", "context_id": "c", "status": {"state": "cancelled"}, "kind": "task"},
         {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_CANCELED"}}),
        ({"id": "t", "status": {"state": "completed", "message": {"message_id": "m", "role": "agent", "parts": []}}, "x": 1},
         {"id": "t", "status": {"state": "TASK_STATE_COMPLETED", "message": {"messageId": "m", "role": "ROLE_AGENT", "parts": []}}, "x": 1}),
    ],
)
def test_lenient_task(tr, lenient, v1):
    assert tr(to_core_task, lenient) == (v1, [])


@pytest.mark.parametrize(
    ("doc", "v1"),
    [
        (TASK_V1, {"task": TASK_V1}),  # bare V1 task (no kind)
        (MSG_V1, {"message": MSG_V1}),
        (SU_V1, {"statusUpdate": SU_V1}),
        (AU_V1, {"artifactUpdate": AU_V1}),
        ({"status_update": {"task_id": "t", "context_id": "c", "status": {"state": "working"}}},
         {"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}}),
        ({"artifact_update": {"taskId": "t", "contextId": "c", "artifact": {"artifactId": "a", "parts": []}, "last_chunk": True}},
         {"artifactUpdate": {"taskId": "t", "contextId": "c", "artifact": {"artifactId": "a", "parts": []}, "lastChunk": True}}),
    ],
)
def test_stream_response_lenient_to_core(tr, doc, v1):
    assert tr(to_core_stream_response, doc) == (v1, [])


@pytest.mark.parametrize(
    ("doc", "kind"),
    [(TASK_V0, "task"), (TASK_V1, "task"), (MSG_V0, "message"), (MSG_V1, "message"), (SU_V0, "statusUpdate"),
     (SU_V1, "statusUpdate"), (AU_V0, "artifactUpdate"), (AU_V1, "artifactUpdate"), ({"task": TASK_V1}, None),
     ({"kind": "text", "text": "x"}, None), ([], None)],
)
def test_stream_kind(doc, kind):
    assert stream_kind(doc) == kind


def test_stream_wrapper_extra_keys_are_noted_toward_v0(tr):
    assert tr(to_compat_stream_response, {"statusUpdate": SU_V1, "x": 1}) == (
        SU_V0, ["stream response: x 1 dropped (a V0 event is the bare object)"])
    assert tr(to_core_stream_response, {"statusUpdate": SU_V1, "x": 1}) == ({"statusUpdate": SU_V1, "x": 1}, [])


@pytest.mark.parametrize("fn", [to_core_stream_response, to_compat_stream_response, to_core_send_result])
def test_unrecognised_stream_response(tr, fn):
    out, notes = tr(fn, {"foo": 1})
    assert out == {"foo": 1} and len(notes) == 1 and "left unchanged" in notes[0]


def test_send_result_with_an_event_is_translated_and_noted(tr):
    assert tr(to_core_send_result, SU_V0) == (
        {"statusUpdate": SU_V1}, ["send result: unexpected statusUpdate; translated anyway"])


def test_task_list_paging_is_noted_toward_v0(tr):
    page = {"tasks": [TASK_V1], "nextPageToken": "p2", "pageSize": 2, "totalSize": 9}
    assert tr(to_compat_task_list, page) == ([TASK_V0], [
        "task list: nextPageToken 'p2' dropped (a V0 list is a bare array)",
        "task list: pageSize 2 dropped (a V0 list is a bare array)",
        "task list: totalSize 9 dropped (a V0 list is a bare array)",
    ])


def test_task_list_v1_page_is_kept_and_completed(tr):
    assert tr(to_core_task_list, {"tasks": [TASK_V0], "page_size": 2, "total_size": 1}) == (
        {"tasks": [TASK_V1], "pageSize": 2, "totalSize": 1, "nextPageToken": ""}, [])


@pytest.mark.parametrize("fn", [to_core_task_list, to_compat_task_list])
def test_task_list_rejects_scalars(tr, fn):
    assert tr(fn, "x") == ("x", ["task list: expected an array or an object, got a string; left unchanged"])
