from __future__ import annotations

import pytest

from a2acli.wire.translate import to_compat_message, to_core_message

FULL_V1 = {
    "messageId": "m-1", "contextId": "c-1", "taskId": "t-1", "role": "ROLE_AGENT",
    "parts": [{"text": "Hi"}, {"url": "https://x/a"}], "metadata": {"k": "v"},
    "extensions": ["urn:x"], "referenceTaskIds": ["t-0"],
}
FULL_V0 = {
    "kind": "message", "messageId": "m-1", "contextId": "c-1", "taskId": "t-1", "role": "agent",
    "parts": [{"kind": "text", "text": "Hi"}, {"kind": "file", "file": {"uri": "https://x/a"}}],
    "metadata": {"k": "v"}, "extensions": ["urn:x"], "referenceTaskIds": ["t-0"],
}
PAIRS = [
    ({"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "Hi"}]},
     {"kind": "message", "messageId": "m-1", "role": "user", "parts": [{"kind": "text", "text": "Hi"}]}),
    (FULL_V1, FULL_V0),
]


@pytest.mark.parametrize(("v1", "v0"), PAIRS)
def test_both_directions(tr, v1, v0):
    assert tr(to_compat_message, v1) == (v0, [])
    assert tr(to_core_message, v0) == (v1, [])


@pytest.mark.parametrize(("v1", "v0"), PAIRS)
def test_round_trips_and_idempotence(v1, v0):
    assert to_core_message(to_compat_message(v1)) == v1
    assert to_compat_message(to_core_message(v0)) == v0
    assert to_core_message(v1) == v1
    assert to_compat_message(v0) == v0


def test_v0_kind_comes_first():
    assert next(iter(to_compat_message(PAIRS[0][0]))) == "kind"


def test_empty_v1_defaults_are_omitted_toward_v0(tr):
    v1 = {"messageId": "m", "contextId": "", "taskId": "", "role": "ROLE_USER", "parts": [],
          "referenceTaskIds": [], "extensions": []}
    assert tr(to_compat_message, v1) == ({"kind": "message", "messageId": "m", "role": "user", "parts": []}, [])


def test_lenient_v1(tr):
    lenient = {"kind": "message", "message_id": "m", "context_id": "c", "role": "user",
               "parts": [{"kind": "text", "text": "x"}], "x_trace": "abc"}
    assert tr(to_core_message, lenient) == (
        {"messageId": "m", "contextId": "c", "role": "ROLE_USER", "parts": [{"text": "x"}], "x_trace": "abc"}, [])


def test_notes_from_parts_and_roles_bubble_up(tr):
    out, notes = tr(to_compat_message, {"messageId": "m", "role": "robot",
                                         "parts": [{"text": "x", "mediaType": "text/html"}]})
    assert out == {"kind": "message", "messageId": "m", "role": "robot", "parts": [{"kind": "text", "text": "x"}]}
    assert notes == ["role 'robot' not recognised; left unchanged",
                     "text part: mediaType 'text/html' dropped (V0 text parts have neither)"]
