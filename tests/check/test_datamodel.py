"""The response data model (a2acli/check/datamodel.py): each object, enum form and timestamp rule."""

from __future__ import annotations

import pytest

from a2acli.check.datamodel import ANY, V0, V1, problems, timestamp_problem

TASK_V1 = {
    "id": "t",
    "contextId": "c",
    "status": {"state": "TASK_STATE_COMPLETED", "timestamp": "2025-10-28T10:30:00.000Z"},
    "history": [{"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "hi"}]}],
    "artifacts": [{"artifactId": "a", "parts": [{"data": {"x": 1}}]}],
}
TASK_V0 = {
    "kind": "task",
    "id": "t",
    "contextId": "c",
    "status": {"state": "completed", "timestamp": "2025-10-28T10:30:00+00:00"},
    "history": [{"kind": "message", "messageId": "m", "role": "user", "parts": [{"kind": "text", "text": "hi"}]}],
}


def test_valid_objects_have_no_problem():
    assert problems({"task": TASK_V1}, "1.0", V1) == []
    assert problems(TASK_V0, "0.3", V0) == []
    proto03 = {"task": {**TASK_V1, "history": [{"messageId": "m", "role": "ROLE_USER", "content": [{"text": "hi"}]}]}}
    assert problems(proto03, "0.3", ANY) == []  # the 0.3 proto calls a Message's parts `content`


@pytest.mark.parametrize(
    ("result", "version", "form", "path", "words"),
    [
        ({"task": {**TASK_V1, "contextId": ""}}, "1.0", V1, "$.task.contextId", "without contextId"),
        ({"task": {**TASK_V1, "status": {"state": "completed"}}}, "1.0", V1, "$.task.status.state", "not a 1.0 TaskState"),
        ({**TASK_V0, "status": {"state": "TASK_STATE_COMPLETED"}}, "0.3", V0, "$.status.state", "not a 0.3 TaskState"),
        ({"message": {"messageId": "m", "role": "user", "parts": [{"text": "x"}]}}, "1.0", V1, "$.message.role", "ROLE_USER or ROLE_AGENT"),
        ({"message": {"messageId": "m", "role": "ROLE_AGENT", "parts": []}}, "1.0", V1, "$.message.parts", "at least one part"),
        ({"message": {"messageId": "m", "role": "ROLE_AGENT", "parts": [{"text": "a", "data": {}}]}}, "1.0", V1, "$.message.parts[0]", "exactly one"),
        ({"task": {**TASK_V1, "artifacts": [{"parts": [{"text": "a"}]}]}}, "1.0", V1, "$.task.artifacts[0].artifactId", "without artifactId"),
        ({"statusUpdate": {"taskId": "t", "status": {"state": "TASK_STATE_WORKING"}}}, "1.0", V1, "$.statusUpdate.contextId", "without contextId"),
    ],
)
def test_each_broken_rule_is_a_must_with_its_path(result, version, form, path, words):
    (found,) = problems(result, version, form)
    assert found.must and found.path == path and words in found.text, found


def test_timestamps_by_version():
    assert timestamp_problem("2025-10-28T10:30:00Z", "1.0") is None
    offset = timestamp_problem("2025-10-28T10:30:00+00:00", "1.0")
    assert offset is not None and offset.must and "offset +00:00" in offset.text and offset.tck == "DM-SERIAL-003"
    naive = timestamp_problem("2025-10-28T10:30:00.123456", "1.0")
    assert naive is not None and naive.must and "no zone" in naive.text
    assert timestamp_problem("2025-10-28T10:30:00+02:00", "0.3") is None  # 0.3 only recommends UTC
    zoneless = timestamp_problem("2025-10-28T10:30:00.123", "0.3")
    assert zoneless is not None and not zoneless.must and "ambiguous" in zoneless.text
    bad = timestamp_problem("yesterday", "0.3")
    assert bad is not None and bad.must
