"""Method level, driven by the REFERENCE §4.1 examples (one per method, both versions)."""

from __future__ import annotations

import pytest

from a2acli.wire.methods import V0_METHOD_NAMES, V1_METHOD_NAMES
from a2acli.wire.translate import TRANSLATORS, MethodTranslators, lowercase_v1_enums

MSG_V1 = {"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "Hi"}]}
MSG_V0 = {"kind": "message", "messageId": "m-1", "role": "user", "parts": [{"kind": "text", "text": "Hi"}]}
SEND_V1 = {"message": MSG_V1, "configuration": {"acceptedOutputModes": ["text/plain"], "returnImmediately": False}}
SEND_V0 = {"message": MSG_V0, "configuration": {"acceptedOutputModes": ["text/plain"], "blocking": True}}
TS = "2026-01-01T00:00:00.000Z"
SEND_TASK_V1 = {"task": {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED", "timestamp": TS},
                         "artifacts": [{"artifactId": "a-1", "parts": [{"text": "Hello"}]}]}}
SEND_TASK_V0 = {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "completed", "timestamp": TS},
                "artifacts": [{"artifactId": "a-1", "parts": [{"kind": "text", "text": "Hello"}]}]}  # §4.1 omits the timestamp
REPLY_V1 = {"message": {"messageId": "m-2", "contextId": "c-1", "role": "ROLE_AGENT", "parts": [{"text": "Hello"}]}}
REPLY_V0 = {"kind": "message", "messageId": "m-2", "contextId": "c-1", "role": "agent", "parts": [{"kind": "text", "text": "Hello"}]}
GET_V1 = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}, "history": [MSG_V1]}
GET_V0 = {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "working"}, "history": [MSG_V0]}
CANCELED_V1 = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_CANCELED"}}
CANCELED_V0 = {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "canceled"}}
WORKING_V1 = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}}
WORKING_V0 = {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "working"}}
SU_V1 = {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}}}
SU_V0 = {"kind": "status-update", "taskId": "t-1", "contextId": "c-1", "status": {"state": "working"}, "final": False}
PUSH_V1 = {"taskId": "t-1", "url": "https://cb.example/h", "token": "tok-1", "authentication": {"scheme": "Bearer", "credentials": "s3cr3t"}}
PUSH_V0 = {"taskId": "t-1", "pushNotificationConfig": {"url": "https://cb.example/h", "token": "tok-1",
                                                       "authentication": {"schemes": ["Bearer"], "credentials": "s3cr3t"}}}
CREATED_V1 = {"id": "p-1", **PUSH_V1}
CREATED_V0 = {"taskId": "t-1", "pushNotificationConfig": {"id": "p-1", **PUSH_V0["pushNotificationConfig"]}}
CONFIG_V1 = {"id": "p-1", "taskId": "t-1", "url": "https://cb.example/h"}
CONFIG_V0 = {"taskId": "t-1", "pushNotificationConfig": {"id": "p-1", "url": "https://cb.example/h"}}
CARD_V1 = {"name": "Echo", "description": "Echo agent", "version": "1.0.0",
           "supportedInterfaces": [{"url": "https://a/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"}],
           "capabilities": {"extendedAgentCard": True}, "defaultInputModes": [], "defaultOutputModes": [], "skills": []}
CARD_V0 = {"name": "Echo", "description": "Echo agent", "version": "1.0.0", "protocolVersion": "0.3", "url": "https://a/rpc",
           "preferredTransport": "JSONRPC", "capabilities": {}, "supportsAuthenticatedExtendedCard": True,
           "defaultInputModes": [], "defaultOutputModes": [], "skills": []}

# (method, V1 params, V0 params): each translates exactly into the other
PARAMS = [
    ("SendMessage", SEND_V1, SEND_V0),
    ("SendStreamingMessage", SEND_V1, SEND_V0),
    ("GetTask", {"id": "t-1", "historyLength": 1}, {"id": "t-1", "historyLength": 1}),
    ("CancelTask", {"id": "t-1"}, {"id": "t-1"}),
    ("CancelTask", {"id": "t-1", "metadata": {"why": "x"}}, {"id": "t-1", "metadata": {"why": "x"}}),
    ("SubscribeToTask", {"id": "t-1"}, {"id": "t-1"}),
    ("CreateTaskPushNotificationConfig", PUSH_V1, PUSH_V0),
    ("GetTaskPushNotificationConfig", {"taskId": "t-1", "id": "p-1"}, {"id": "t-1", "pushNotificationConfigId": "p-1"}),
    ("ListTaskPushNotificationConfigs", {"taskId": "t-1"}, {"id": "t-1"}),
    ("DeleteTaskPushNotificationConfig", {"taskId": "t-1", "id": "p-1"}, {"id": "t-1", "pushNotificationConfigId": "p-1"}),
    ("ListTasks", {"contextId": "c-1", "status": "TASK_STATE_WORKING", "pageSize": 2},
     {"contextId": "c-1", "status": "working", "limit": 2}),
    ("ListTasks", {"pageSize": 2, "pageToken": "0"}, {"limit": 2, "offset": 0}),  # the §4.1 Clix example
    ("ListTasks", {"pageSize": 50, "pageToken": "100"}, {"limit": 50, "offset": 100}),
]
# (method, V1 result, V0 result): each translates exactly into the other
RESULTS = [
    ("SendMessage", SEND_TASK_V1, SEND_TASK_V0),
    ("SendMessage", REPLY_V1, REPLY_V0),
    ("SendStreamingMessage", SEND_TASK_V1, SEND_TASK_V0),
    ("SendStreamingMessage", SU_V1, SU_V0),
    ("GetTask", GET_V1, GET_V0),
    ("CancelTask", CANCELED_V1, CANCELED_V0),
    ("SubscribeToTask", {"task": WORKING_V1}, WORKING_V0),
    ("SubscribeToTask", SU_V1, SU_V0),
    ("ListTasks", {"tasks": [WORKING_V1], "nextPageToken": ""}, [WORKING_V0]),
    ("CreateTaskPushNotificationConfig", CREATED_V1, CREATED_V0),
    ("GetTaskPushNotificationConfig", CONFIG_V1, CONFIG_V0),
    ("ListTaskPushNotificationConfigs", {"configs": [CONFIG_V1]}, [CONFIG_V0]),
    ("DeleteTaskPushNotificationConfig", None, None),
    ("GetExtendedAgentCard", CARD_V1, CARD_V0),
]


def _ids(cases):
    return [f"{c[0]}-{i}" for i, c in enumerate(cases)]


def test_method_names_are_the_reference_table():
    assert V0_METHOD_NAMES == {
        "SendMessage": "message/send", "SendStreamingMessage": "message/stream", "GetTask": "tasks/get",
        "ListTasks": "tasks/list", "CancelTask": "tasks/cancel", "SubscribeToTask": "tasks/resubscribe",
        "CreateTaskPushNotificationConfig": "tasks/pushNotificationConfig/set",
        "GetTaskPushNotificationConfig": "tasks/pushNotificationConfig/get",
        "ListTaskPushNotificationConfigs": "tasks/pushNotificationConfig/list",
        "DeleteTaskPushNotificationConfig": "tasks/pushNotificationConfig/delete",
        "GetExtendedAgentCard": "agent/getAuthenticatedExtendedCard",
    }
    assert {v0: v1 for v1, v0 in V0_METHOD_NAMES.items()} == V1_METHOD_NAMES
    assert set(TRANSLATORS) == set(V0_METHOD_NAMES)


def test_method_translators_are_frozen():
    with pytest.raises(AttributeError):
        TRANSLATORS["GetTask"].params_to_core = None  # type: ignore[misc]
    assert all(isinstance(t, MethodTranslators) for t in TRANSLATORS.values())


@pytest.mark.parametrize(("method", "v1", "v0"), PARAMS, ids=_ids(PARAMS))
def test_params_both_ways(tr, method, v1, v0):
    t = TRANSLATORS[method]
    assert tr(t.params_to_compat, v1) == (v0, [])
    assert tr(t.params_to_core, v0) == (v1, [])
    assert t.params_to_core(t.params_to_compat(v1)) == v1
    assert t.params_to_core(v1) == v1  # idempotent on V1
    assert t.params_to_compat(v0) == v0  # idempotent on V0


@pytest.mark.parametrize(("method", "v1", "v0"), RESULTS, ids=_ids(RESULTS))
def test_results_both_ways(tr, method, v1, v0):
    t = TRANSLATORS[method]
    assert tr(t.result_to_core, v0) == (v1, [])
    assert tr(t.result_to_compat, v1) == (v0, [])
    assert t.result_to_core(t.result_to_compat(v1)) == v1
    assert t.result_to_core(v1) == v1


def test_extended_card_has_no_v0_params(tr):
    t = TRANSLATORS["GetExtendedAgentCard"]
    assert tr(t.params_to_compat, {}) == (None, [])
    assert tr(t.params_to_compat, {"tenant": "acme"}) == (None, ["params: tenant 'acme' dropped (V0 has no tenants)"])
    assert tr(t.params_to_core, None) == ({}, [])
    assert tr(t.params_to_core, {"tenant": "acme"}) == ({"tenant": "acme"}, [])


def test_delete_result():
    t = TRANSLATORS["DeleteTaskPushNotificationConfig"]
    assert t.result_to_core({}) == {} and t.result_to_core(None) is None
    assert t.result_to_compat({}) is None and t.result_to_compat(None) is None


def test_seed_000_example_requests_translate_into_each_other(tr):
    """Clix docs: the same SendMessage in V0 and V1 (their V1 spells the role lowercase)."""
    data = {"kind": "data", "data": {"skill": "create-user", "projectUserId": "user_123"}}
    seed_v0 = {"message": {"kind": "message", "messageId": "msg-1", "role": "user", "parts": [data]}}
    seed_v1 = {"message": {"messageId": "msg-1", "role": "user", "parts": [{"data": data["data"]}]}}
    t = TRANSLATORS["SendMessage"]
    core, notes = tr(t.params_to_core, seed_v0)
    assert notes == [] and core["message"]["role"] == "ROLE_USER"
    assert lowercase_v1_enums(core) == seed_v1
    assert tr(t.params_to_compat, seed_v1) == (seed_v0, [])
    assert V0_METHOD_NAMES["SendMessage"] == "message/send"


@pytest.mark.parametrize(
    ("v1_config", "v0_config"),
    [
        ({"returnImmediately": True}, {"blocking": False}),
        ({"returnImmediately": False}, {"blocking": True}),
        ({"acceptedOutputModes": []}, {"acceptedOutputModes": []}),  # no returnImmediately: no blocking invented
        ({"historyLength": 0}, {"historyLength": 0}),
        ({"taskPushNotificationConfig": {"url": "https://cb/h", "token": "t", "authentication": {"scheme": "Bearer"}}},
         {"pushNotificationConfig": {"url": "https://cb/h", "token": "t", "authentication": {"schemes": ["Bearer"]}}}),
    ],
)
def test_send_configuration(tr, v1_config, v0_config):
    t = TRANSLATORS["SendMessage"]
    v1 = {"message": MSG_V1, "configuration": v1_config, "metadata": {"trace": "1"}}
    v0 = {"message": MSG_V0, "configuration": v0_config, "metadata": {"trace": "1"}}
    assert tr(t.params_to_compat, v1) == (v0, [])
    assert tr(t.params_to_core, v0) == (v1, [])


def test_lenient_send_params(tr):
    lenient = {"message": {"message_id": "m-1", "role": "user", "parts": [{"kind": "text", "text": "Hi"}]},
               "configuration": {"return_immediately": True, "accepted_output_modes": ["text/plain"]}, "x": 1}
    assert tr(TRANSLATORS["SendMessage"].params_to_compat, lenient) == (
        {"message": MSG_V0, "configuration": {"blocking": False, "acceptedOutputModes": ["text/plain"]}, "x": 1}, [])


@pytest.mark.parametrize(
    ("method", "v1", "v0", "note"),
    [
        ("SendMessage", {"tenant": "acme", "message": MSG_V1}, {"message": MSG_V0},
         "params: tenant 'acme' dropped (V0 has no tenants)"),
        ("GetTask", {"tenant": "acme", "id": "t"}, {"id": "t"}, "params: tenant 'acme' dropped (V0 has no tenants)"),
        ("ListTasks", {"pageSize": 5, "historyLength": 2}, {"limit": 5},
         "ListTasks: historyLength 2 dropped (tasks/list takes only contextId, status, limit and offset)"),
        ("ListTasks", {"statusTimestampAfter": TS}, {},
         f"ListTasks: statusTimestampAfter '{TS}' dropped (tasks/list takes only contextId, status, limit and offset)"),
        ("ListTasks", {"includeArtifacts": True}, {},
         "ListTasks: includeArtifacts dropped (tasks/list takes only contextId, status, limit and offset)"),
        ("ListTasks", {"pageToken": "abc"}, {}, "ListTasks: pageToken 'abc' dropped (tasks/list needs a decimal offset)"),
        ("ListTaskPushNotificationConfigs", {"taskId": "t", "pageSize": 10, "pageToken": "n"}, {"id": "t"},
         "ListTaskPushNotificationConfigs: pageSize 10 dropped (V0 lists every config at once)"),
    ],
)
def test_lossy_params_toward_v0_are_noted(tr, method, v1, v0, note):
    out, notes = tr(TRANSLATORS[method].params_to_compat, v1)
    assert out == v0 and notes[0] == note


@pytest.mark.parametrize(
    ("method", "v0", "v1", "note"),
    [
        ("GetTask", {"id": "t", "metadata": {"a": 1}}, {"id": "t"}, "params: metadata dropped (the V1 request has no such field)"),
        ("SubscribeToTask", {"id": "t", "metadata": {"a": 1}}, {"id": "t"}, "params: metadata dropped (the V1 request has no such field)"),
        ("ListTaskPushNotificationConfigs", {"id": "t", "metadata": {"a": 1}}, {"taskId": "t"},
         "params: metadata dropped (the V1 request has no such field)"),
    ],
)
def test_lossy_params_toward_v1_are_noted(tr, method, v0, v1, note):
    assert tr(TRANSLATORS[method].params_to_core, v0) == (v1, [note])


def test_get_push_config_without_config_id(tr):
    t = TRANSLATORS["GetTaskPushNotificationConfig"]
    assert tr(t.params_to_compat, {"taskId": "t-1", "id": ""}) == ({"id": "t-1"}, [])
    assert tr(t.params_to_core, {"id": "t-1"}) == ({"taskId": "t-1"}, [])


def test_list_tasks_results_lose_paging_toward_v0(tr):
    page = {"tasks": [WORKING_V1], "nextPageToken": "", "pageSize": 2, "totalSize": 1}  # §4.1
    out, notes = tr(TRANSLATORS["ListTasks"].result_to_compat, page)
    assert out == [WORKING_V0]
    assert notes == ["task list: pageSize 2 dropped (a V0 list is a bare array)",
                     "task list: totalSize 1 dropped (a V0 list is a bare array)"]


def test_list_tasks_lenient_status(tr):
    t = TRANSLATORS["ListTasks"]
    assert tr(t.params_to_compat, {"status": "cancelled", "context_id": "c"}) == ({"status": "canceled", "contextId": "c"}, [])
    assert tr(t.params_to_core, {"status": "input-required", "offset": 20}) == (
        {"status": "TASK_STATE_INPUT_REQUIRED", "pageToken": "20"}, [])


@pytest.mark.parametrize("method", list(TRANSLATORS))
def test_every_translator_takes_notes_as_optional(method):
    for name in MethodTranslators._fields:
        getattr(TRANSLATORS[method], name)({})  # no TypeError: notes defaults to None
