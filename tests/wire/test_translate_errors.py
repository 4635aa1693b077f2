from __future__ import annotations

import pytest

from a2acli.wire.translate import A2A_ERRORS, error_name, error_reason, to_compat_error, to_core_error

INFO = "type.googleapis.com/google.rpc.ErrorInfo"
# REFERENCE §8 example
V1 = {"code": -32001, "message": "Task not found",
      "data": [{"@type": INFO, "reason": "TASK_NOT_FOUND", "domain": "a2a-protocol.org", "metadata": {"taskId": "t-9"}}]}
V0 = {"code": -32001, "message": "Task not found", "data": {"taskId": "t-9"}}


def test_table_covers_the_reference_codes():
    assert sorted(A2A_ERRORS) == [-32700, -32603, -32602, -32601, -32600, *range(-32009, -32000)]


@pytest.mark.parametrize(
    ("code", "v1", "v0", "reason"),
    [
        (-32700, "JSONParseError", "JSONParseError", "JSON_PARSE"),
        (-32602, "InvalidParamsError", "InvalidParamsError", "INVALID_PARAMS"),
        (-32001, "TaskNotFoundError", "TaskNotFoundError", "TASK_NOT_FOUND"),
        (-32002, "TaskNotCancelableError", "TaskNotCancelableError", "TASK_NOT_CANCELABLE"),
        (-32003, "PushNotificationNotSupportedError", "PushNotificationNotSupportedError", "PUSH_NOTIFICATION_NOT_SUPPORTED"),
        (-32004, "UnsupportedOperationError", "UnsupportedOperationError", "UNSUPPORTED_OPERATION"),
        (-32005, "ContentTypeNotSupportedError", "ContentTypeNotSupportedError", "CONTENT_TYPE_NOT_SUPPORTED"),
        (-32006, "InvalidAgentResponseError", "InvalidAgentResponseError", "INVALID_AGENT_RESPONSE"),
        (-32007, "ExtendedAgentCardNotConfiguredError", "AuthenticatedExtendedCardNotConfiguredError",
         "EXTENDED_AGENT_CARD_NOT_CONFIGURED"),
        (-32008, "ExtensionSupportRequiredError", None, "EXTENSION_SUPPORT_REQUIRED"),
        (-32009, "VersionNotSupportedError", None, "VERSION_NOT_SUPPORTED"),
        (-32050, None, None, "UNKNOWN"),
        ("x", None, None, "UNKNOWN"),
    ],
)
def test_names_and_reasons(code, v1, v0, reason):
    assert error_name(code) == v1 == error_name(code, "v1")
    assert error_name(code, "v0") == v0
    assert error_reason(code) == reason


def test_reference_example_both_ways(tr):
    assert tr(to_core_error, V0) == (V1, ["error: V0 free-form data wrapped in a google.rpc.ErrorInfo "
                                          "(metadata values are strings)"])
    assert tr(to_compat_error, V1) == (V0, [])


@pytest.mark.parametrize("err", [V1, {"code": -32603, "message": "boom"}, {"code": -32602, "message": "m", "data": []}])
def test_to_core_idempotent(tr, err):
    assert tr(to_core_error, err) == (err, [])


@pytest.mark.parametrize("err", [V0, {"code": -32603, "message": "boom"}, {"code": 1, "message": "m", "data": "text"}])
def test_to_compat_idempotent(tr, err):
    assert tr(to_compat_error, err) == (err, [])


def test_round_trips():
    assert to_compat_error(to_core_error(V0)) == V0
    assert to_core_error(to_compat_error(V1)) == V1


def test_non_string_data_is_stringified_toward_v1():
    out = to_core_error({"code": -32602, "message": "bad", "data": {"field": "x", "limits": [1, 2], "n": 3}})
    assert out["data"] == [{"@type": INFO, "reason": "INVALID_PARAMS", "domain": "a2a-protocol.org",
                            "metadata": {"field": "x", "limits": "[1,2]", "n": "3"}}]
    assert to_core_error({"code": -32099, "message": "m", "data": "oops"})["data"] == [
        {"@type": INFO, "reason": "UNKNOWN", "domain": "a2a-protocol.org", "metadata": {"data": "oops"}}]


def test_other_details_are_dropped_with_a_note(tr):
    bad_request = {"@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": []}
    assert tr(to_compat_error, {"code": -32602, "message": "m", "data": [bad_request]}) == (
        {"code": -32602, "message": "m"},
        ["error: details type.googleapis.com/google.rpc.BadRequest dropped (V0 error data is free-form)"])
    assert tr(to_compat_error, {**V1, "data": [bad_request, *V1["data"]]}) == (
        V0, ["error: details type.googleapis.com/google.rpc.BadRequest dropped (V0 error data is free-form)"])


def test_not_an_error(tr):
    assert tr(to_core_error, None) == (None, ["error: expected an object, got null; left unchanged"])
