"""The 0.3 HTTP+JSON (REST) binding: V1 core <=> proto-JSON of the 0.3 gRPC proto, per method and
per entity, checked against the SDK's own 0.3 pb2 messages, conversions and REST server."""

from __future__ import annotations

import base64
import copy
import json
from typing import Any

import pytest

from a2acli.wire.translate import (
    PROTO03_MESSAGES,
    PROTO03_TRANSLATORS,
    TRANSLATORS,
    MethodTranslators,
    from_proto03_card,
    from_proto03_part,
    from_proto03_push_config,
    from_proto03_stream_response,
    from_proto03_task,
    parse_push_config_name,
    parse_task_name,
    push_config_name,
    task_name,
    to_proto03_card,
    to_proto03_message,
    to_proto03_part,
    to_proto03_push_config,
    to_proto03_stream_response,
    to_proto03_task,
    to_proto03_task_state,
)

TS = "2026-01-01T00:00:00Z"
U = "https://cb.example/h"
FLAG = {"data_part_compat": True}


def dbl(b64: str) -> str:
    """a2a-sdk's `fileWithBytes`: base64 of the base64 text."""
    return base64.b64encode(b64.encode()).decode()


MSG_V1 = {"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "Hi"}]}
MSG_03 = {"messageId": "m-1", "role": "ROLE_USER", "content": [{"text": "Hi"}]}
REPLY_V1 = {"messageId": "m-2", "contextId": "c-1", "role": "ROLE_AGENT", "parts": [{"text": "Hello"}]}
REPLY_03 = {"messageId": "m-2", "contextId": "c-1", "role": "ROLE_AGENT", "content": [{"text": "Hello"}]}
SEND_V1 = {"message": MSG_V1, "configuration": {"acceptedOutputModes": ["text/plain"], "returnImmediately": False}, "metadata": {"trace": "1"}}
SEND_03 = {"message": MSG_03, "configuration": {"acceptedOutputModes": ["text/plain"], "blocking": True}, "metadata": {"trace": "1"}}
TASK_V1 = {
    "id": "t-1",
    "contextId": "c-1",
    "status": {"state": "TASK_STATE_COMPLETED", "timestamp": TS},
    "artifacts": [{"artifactId": "a-1", "name": "out", "parts": [{"text": "Hello"}, {"data": {"n": 1}}]}],
    "history": [MSG_V1],
}
TASK_03 = {
    "id": "t-1",
    "contextId": "c-1",
    "status": {"state": "TASK_STATE_COMPLETED", "timestamp": TS},
    "artifacts": [{"artifactId": "a-1", "name": "out", "parts": [{"text": "Hello"}, {"data": {"data": {"n": 1}}}]}],
    "history": [MSG_03],
}
CANCELED_V1 = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_CANCELED", "message": REPLY_V1}}
CANCELED_03 = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_CANCELLED", "message": REPLY_03}}
WORKING_V1 = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}}
WORKING_03 = WORKING_V1 | {"status": {"state": "TASK_STATE_WORKING"}}
SU_V1 = {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}}}
SU_03 = {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}, "final": False}}
DONE_V1 = {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_CANCELED", "timestamp": TS}}}
DONE_03 = {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_CANCELLED", "timestamp": TS}, "final": True}}
AU_V1 = {"artifactUpdate": {"taskId": "t-1", "contextId": "c-1", "artifact": {"artifactId": "a-1", "parts": [{"url": "https://x/a.pdf"}]}, "append": True, "lastChunk": True}}
AU_03 = {"artifactUpdate": {"taskId": "t-1", "contextId": "c-1", "artifact": {"artifactId": "a-1", "parts": [{"file": {"fileWithUri": "https://x/a.pdf"}}]}, "append": True, "lastChunk": True}}
AUTH_V1 = {"scheme": "Bearer", "credentials": "s3cr3t"}
AUTH_03 = {"schemes": ["Bearer"], "credentials": "s3cr3t"}
PUSH_V1 = {"id": "p-1", "taskId": "t-1", "url": U, "token": "tok-1", "authentication": AUTH_V1}
INNER_03 = {"id": "p-1", "url": U, "token": "tok-1", "authentication": AUTH_03}
PUSH_03 = {"name": "tasks/t-1/pushNotificationConfigs/p-1", "pushNotificationConfig": INNER_03}
CARD_V1 = {
    "name": "Echo",
    "description": "Echo agent",
    "version": "1.0.0",
    "supportedInterfaces": [{"url": "https://a/v1", "protocolBinding": "HTTP+JSON", "protocolVersion": "0.3"}, {"url": "https://a/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"}],
    "capabilities": {"streaming": True, "extendedAgentCard": True},
    "securitySchemes": {
        "key": {"apiKeySecurityScheme": {"location": "header", "name": "X-API-Key"}},
        "oauth": {"oauth2SecurityScheme": {"flows": {"clientCredentials": {"tokenUrl": "https://a/t", "scopes": {"read": "r"}}}}},
    },
    "securityRequirements": [{"schemes": {"key": {"list": []}}}],
    "defaultInputModes": ["text/plain"],
    "defaultOutputModes": ["text/plain"],
    "skills": [{"id": "echo", "name": "Echo", "description": "Repeats", "tags": ["demo"], "securityRequirements": [{"schemes": {"oauth": {"list": ["read"]}}}]}],
}
CARD_03 = {
    "name": "Echo",
    "description": "Echo agent",
    "version": "1.0.0",
    "protocolVersion": "0.3",
    "url": "https://a/v1",
    "preferredTransport": "HTTP+JSON",
    "additionalInterfaces": [{"url": "https://a/rpc", "transport": "JSONRPC"}],
    "capabilities": {"streaming": True},
    "supportsAuthenticatedExtendedCard": True,
    "securitySchemes": CARD_V1["securitySchemes"],
    "security": [{"schemes": {"key": {"list": []}}}],
    "defaultInputModes": ["text/plain"],
    "defaultOutputModes": ["text/plain"],
    "skills": [{"id": "echo", "name": "Echo", "description": "Repeats", "tags": ["demo"], "security": [{"schemes": {"oauth": {"list": ["read"]}}}]}],
}

# (method, V1 params, 0.3 proto request message): each translates exactly into the other
PARAMS = [
    ("SendMessage", SEND_V1, SEND_03),
    ("SendMessage", {"message": MSG_V1}, {"message": MSG_03}),  # no configuration: none invented (servers then block)
    ("SendStreamingMessage", SEND_V1 | {"configuration": {"returnImmediately": True, "historyLength": 3}}, SEND_03 | {"configuration": {"historyLength": 3, "blocking": False}}),
    ("GetTask", {"id": "t-1", "historyLength": 2}, {"name": "tasks/t-1", "historyLength": 2}),
    ("GetTask", {"id": "t-1"}, {"name": "tasks/t-1"}),
    ("ListTasks", {}, {}),
    ("CancelTask", {"id": "t-1"}, {"name": "tasks/t-1"}),
    ("SubscribeToTask", {"id": "t-1"}, {"name": "tasks/t-1"}),
    ("CreateTaskPushNotificationConfig", PUSH_V1, {"parent": "tasks/t-1", "configId": "p-1", "config": PUSH_03}),
    ("CreateTaskPushNotificationConfig", {"taskId": "t-1", "url": U}, {"parent": "tasks/t-1", "config": {"name": "tasks/t-1/pushNotificationConfigs/", "pushNotificationConfig": {"url": U}}}),
    ("GetTaskPushNotificationConfig", {"taskId": "t-1", "id": "p-1"}, {"name": "tasks/t-1/pushNotificationConfigs/p-1"}),
    ("ListTaskPushNotificationConfigs", {"taskId": "t-1"}, {"parent": "tasks/t-1"}),
    ("ListTaskPushNotificationConfigs", {"taskId": "t-1", "pageSize": 10, "pageToken": "n"}, {"parent": "tasks/t-1", "pageSize": 10, "pageToken": "n"}),
    ("DeleteTaskPushNotificationConfig", {"taskId": "t-1", "id": "p-1"}, {"name": "tasks/t-1/pushNotificationConfigs/p-1"}),
    ("GetExtendedAgentCard", {}, {}),
]
# (method, V1 result, 0.3 proto response): each translates exactly into the other
RESULTS = [
    ("SendMessage", {"task": TASK_V1}, {"task": TASK_03}),
    ("SendMessage", {"message": REPLY_V1}, {"message": REPLY_03}),
    ("SendStreamingMessage", {"task": WORKING_V1}, {"task": WORKING_03}),
    ("SendStreamingMessage", {"message": REPLY_V1}, {"message": REPLY_03}),
    ("SendStreamingMessage", SU_V1, SU_03),
    ("SendStreamingMessage", AU_V1, AU_03),
    ("SendStreamingMessage", DONE_V1, DONE_03),
    ("GetTask", TASK_V1, TASK_03),
    ("ListTasks", {"tasks": [WORKING_V1, CANCELED_V1], "nextPageToken": ""}, [WORKING_03, CANCELED_03]),
    ("CancelTask", CANCELED_V1, CANCELED_03),
    ("SubscribeToTask", {"task": WORKING_V1}, {"task": WORKING_03}),
    ("SubscribeToTask", DONE_V1, DONE_03),
    ("CreateTaskPushNotificationConfig", PUSH_V1, PUSH_03),
    ("GetTaskPushNotificationConfig", PUSH_V1, PUSH_03),
    ("ListTaskPushNotificationConfigs", {"configs": [PUSH_V1], "nextPageToken": ""}, {"configs": [PUSH_03]}),
    ("ListTaskPushNotificationConfigs", {"configs": [PUSH_V1], "nextPageToken": "n2"}, {"configs": [PUSH_03], "nextPageToken": "n2"}),
    ("DeleteTaskPushNotificationConfig", {}, {}),
    ("GetExtendedAgentCard", CARD_V1, CARD_03),
]
METHODS = sorted(TRANSLATORS)


def _ids(cases: list[tuple[Any, ...]]) -> list[str]:
    return [f"{c[0]}-{i}" for i, c in enumerate(cases)]


def test_every_method_has_a_translator_and_a_message_entry():
    assert set(PROTO03_TRANSLATORS) == set(TRANSLATORS) == set(PROTO03_MESSAGES)
    assert all(isinstance(t, MethodTranslators) for t in PROTO03_TRANSLATORS.values())
    assert {c[0] for c in PARAMS} == set(METHODS) and {c[0] for c in RESULTS} == set(METHODS)


@pytest.mark.parametrize(("method", "v1", "p03"), PARAMS, ids=_ids(PARAMS))
def test_params_both_ways(tr, method, v1, p03):
    t = PROTO03_TRANSLATORS[method]
    assert tr(t.params_to_compat, v1) == (p03, [])
    assert tr(t.params_to_core, p03) == (v1, [])
    assert t.params_to_core(t.params_to_compat(v1)) == v1
    assert t.params_to_compat(p03) == p03  # already 0.3: unchanged


@pytest.mark.parametrize(("method", "v1", "p03"), RESULTS, ids=_ids(RESULTS))
def test_results_both_ways(tr, method, v1, p03):
    t = PROTO03_TRANSLATORS[method]
    assert tr(t.result_to_core, p03) == (v1, [])
    assert tr(t.result_to_compat, v1) == (p03, [])
    assert t.result_to_core(t.result_to_compat(v1)) == v1


@pytest.mark.parametrize("method", METHODS)
def test_every_translator_takes_notes_as_optional(method):
    for name in MethodTranslators._fields:
        getattr(PROTO03_TRANSLATORS[method], name)({})


# --- lossy rules --------------------------------------------------------------------------

TENANT = "params: tenant 'acme' dropped (V0 has no tenants)"


@pytest.mark.parametrize(
    ("method", "v1", "p03", "notes"),
    [
        ("SendMessage", {"tenant": "acme", "message": MSG_V1}, {"message": MSG_03}, [TENANT]),
        ("SendMessage", {"message": MSG_V1 | {"referenceTaskIds": ["t-0"]}}, {"message": MSG_03}, ["message: referenceTaskIds dropped (the 0.3 proto Message has no such field)"]),
        (
            "SendMessage",
            {"message": MSG_V1 | {"parts": [{"text": "*hi*", "mediaType": "text/markdown"}]}},
            {"message": MSG_03 | {"content": [{"text": "*hi*"}]}},
            ["text part: mediaType 'text/markdown' dropped (0.3 proto text parts have neither)"],
        ),
        (
            "SendMessage",
            {"message": MSG_V1 | {"parts": [{"data": {"a": 1}, "filename": "a.json"}]}},
            {"message": MSG_03 | {"content": [{"data": {"data": {"a": 1}}}]}},
            ["data part: filename 'a.json' dropped (0.3 proto data parts have neither)"],
        ),
        (
            "SendMessage",
            {"message": MSG_V1, "configuration": {"historyLength": 0}},
            {"message": MSG_03, "configuration": {"blocking": True}},
            ["send configuration: historyLength 0 dropped (0.3 reads 0 as unset, not as no history)"],
        ),
        ("GetTask", {"tenant": "acme", "id": "t-1"}, {"name": "tasks/t-1"}, [TENANT]),
        # a2a-sdk answers `GET /v1/tasks/{id}?historyLength=0` with the full history
        ("GetTask", {"id": "t-1", "historyLength": 0}, {"name": "tasks/t-1"}, ["params: historyLength 0 dropped (0.3 reads 0 as unset, not as no history)"]),
        ("CancelTask", {"id": "t-1", "metadata": {"why": "x"}}, {"name": "tasks/t-1"}, ["params: metadata dropped (the 0.3 CancelTaskRequest has only name)"]),
        (
            "ListTasks",
            {"tenant": "acme", "contextId": "c-1", "status": "TASK_STATE_WORKING", "pageSize": 5, "pageToken": "x", "includeArtifacts": False},
            {},
            [
                TENANT,
                "ListTasks: contextId 'c-1' dropped (0.3 REST GET /v1/tasks takes no parameters)",
                "ListTasks: status 'TASK_STATE_WORKING' dropped (0.3 REST GET /v1/tasks takes no parameters)",
                "ListTasks: pageSize 5 dropped (0.3 REST GET /v1/tasks takes no parameters)",
                "ListTasks: pageToken 'x' dropped (0.3 REST GET /v1/tasks takes no parameters)",
            ],
        ),
        ("CreateTaskPushNotificationConfig", PUSH_V1 | {"tenant": "acme"}, {"parent": "tasks/t-1", "configId": "p-1", "config": PUSH_03}, [TENANT]),
        (
            "GetTaskPushNotificationConfig",
            {"taskId": "t-1", "id": ""},
            {"name": "tasks/t-1/pushNotificationConfigs/"},
            ["GetTaskPushNotificationConfig: no config id; the 0.3 resource name tasks/{id}/pushNotificationConfigs/{config id} needs one"],
        ),
        ("GetExtendedAgentCard", {"tenant": "acme"}, {}, [TENANT]),
    ],
)
def test_lossy_params_are_noted(tr, method, v1, p03, notes):
    assert tr(PROTO03_TRANSLATORS[method].params_to_compat, v1) == (p03, notes)


def test_send_configuration_blocking_is_always_written(tr):
    """proto3 reads an absent `blocking` as false (a2a-sdk then answers at once): V1's default
    (wait) must be written out, and an absent one reads back as returnImmediately."""
    t = PROTO03_TRANSLATORS["SendMessage"]
    out, _ = tr(t.params_to_compat, {"message": MSG_V1, "configuration": {"acceptedOutputModes": []}})
    assert out["configuration"] == {"acceptedOutputModes": [], "blocking": True}
    back, _ = tr(t.params_to_core, {"message": MSG_03, "configuration": {"acceptedOutputModes": ["a"]}})
    assert back["configuration"] == {"acceptedOutputModes": ["a"], "returnImmediately": True}
    push = {"message": MSG_V1, "configuration": {"taskPushNotificationConfig": {"url": U, "authentication": AUTH_V1}, "returnImmediately": True}}
    p03 = {"message": MSG_03, "configuration": {"pushNotification": {"url": U, "authentication": AUTH_03}, "blocking": False}}
    assert tr(t.params_to_compat, push) == (p03, [])
    assert tr(t.params_to_core, p03) == (push, [])


def test_params_as_the_sdk_client_writes_them_snake_case(tr):
    """a2a-sdk's CompatRestTransport sends MessageToDict(..., preserving_proto_field_name=True)."""
    t = PROTO03_TRANSLATORS["SendMessage"]
    snake = {
        "request": {"message_id": "m-1", "role": "ROLE_USER", "content": [{"text": "Hi"}], "context_id": "c-1"},
        "configuration": {"accepted_output_modes": ["text/plain"], "blocking": True, "push_notification": {"url": U}},
    }
    assert tr(t.params_to_core, snake) == (
        {"message": MSG_V1 | {"contextId": "c-1"}, "configuration": {"acceptedOutputModes": ["text/plain"], "taskPushNotificationConfig": {"url": U}, "returnImmediately": False}},
        [],
    )
    create = {"parent": "tasks/t-1", "config_id": "p-1", "config": {"name": "tasks/t-1/pushNotificationConfigs/p-1", "push_notification_config": {"id": "p-1", "url": U}}}
    assert tr(PROTO03_TRANSLATORS["CreateTaskPushNotificationConfig"].params_to_core, create) == ({"taskId": "t-1", "id": "p-1", "url": U}, [])


def test_list_tasks_results_accept_an_array_or_an_object(tr):
    t = PROTO03_TRANSLATORS["ListTasks"]
    page = {"tasks": [WORKING_V1], "nextPageToken": ""}
    assert tr(t.result_to_core, [WORKING_03]) == (page, [])
    assert tr(t.result_to_core, {"tasks": [WORKING_03]}) == (page, [])
    assert tr(t.result_to_core, {"tasks": [WORKING_03], "nextPageToken": "n"}) == (page | {"nextPageToken": "n"}, [])
    assert tr(t.result_to_core, []) == ({"tasks": [], "nextPageToken": ""}, [])
    out, notes = tr(t.result_to_compat, page | {"pageSize": 2, "totalSize": 1})
    assert out == [WORKING_03] and notes == ["task list: pageSize 2 dropped (a V0 list is a bare array)", "task list: totalSize 1 dropped (a V0 list is a bare array)"]


@pytest.mark.parametrize("answer", [None, {}, "", []])
def test_delete_result_is_empty_whatever_came(answer):
    t = PROTO03_TRANSLATORS["DeleteTaskPushNotificationConfig"]
    assert t.result_to_core(answer) == {} and t.result_to_compat(answer) == {}


def test_push_config_list_accepts_a_bare_array_and_an_empty_answer(tr):
    t = PROTO03_TRANSLATORS["ListTaskPushNotificationConfigs"]
    assert tr(t.result_to_core, [PUSH_03]) == ({"configs": [PUSH_V1], "nextPageToken": ""}, [])
    assert tr(t.result_to_core, {}) == ({"configs": [], "nextPageToken": ""}, [])  # a2a-sdk's answer when there is none


def test_zero_history_length_reads_as_unset(tr):
    assert tr(PROTO03_TRANSLATORS["GetTask"].params_to_core, {"name": "tasks/t-1", "historyLength": 0}) == ({"id": "t-1"}, [])
    send = {"message": MSG_03, "configuration": {"historyLength": 0, "blocking": True}}
    assert tr(PROTO03_TRANSLATORS["SendMessage"].params_to_core, send) == ({"message": MSG_V1, "configuration": {"returnImmediately": False}}, [])


# --- enums, parts, messages ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("state", "p03"),
    [
        ("TASK_STATE_CANCELED", "TASK_STATE_CANCELLED"),
        ("canceled", "TASK_STATE_CANCELLED"),
        ("TASK_STATE_CANCELLED", "TASK_STATE_CANCELLED"),
        ("input-required", "TASK_STATE_INPUT_REQUIRED"),
        ("TASK_STATE_UNSPECIFIED", "TASK_STATE_UNSPECIFIED"),
    ],
)
def test_task_state(state, p03):
    assert to_proto03_task_state(state) == p03


@pytest.mark.parametrize("spelling", ["TASK_STATE_CANCELLED", "TASK_STATE_CANCELED", "cancelled"])
def test_both_cancel_spellings_read(tr, spelling):
    task = {"id": "t", "status": {"state": spelling}}
    assert tr(from_proto03_task, task) == ({"id": "t", "status": {"state": "TASK_STATE_CANCELED"}}, [])
    event = {"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": spelling}, "final": True}}
    assert tr(from_proto03_stream_response, event)[0]["statusUpdate"]["status"]["state"] == "TASK_STATE_CANCELED"


# Lossless (V1, 0.3 proto) parts
PARTS = {
    "text": ({"text": "hi"}, {"text": "hi"}),
    "text+metadata": ({"text": "hi", "metadata": {"k": 1}}, {"text": "hi", "metadata": {"k": 1}}),
    "raw": ({"raw": "aGk=", "mediaType": "image/png", "filename": "a.png"}, {"file": {"fileWithBytes": dbl("aGk="), "mimeType": "image/png", "name": "a.png"}}),
    "raw binary": ({"raw": "AAEC/w=="}, {"file": {"fileWithBytes": dbl("AAEC/w==")}}),
    "raw empty": ({"raw": ""}, {"file": {"fileWithBytes": ""}}),
    "url": ({"url": "https://x/a.pdf", "mediaType": "application/pdf"}, {"file": {"fileWithUri": "https://x/a.pdf", "mimeType": "application/pdf"}}),
    "url+metadata": ({"url": "https://x/a", "metadata": {"k": "v"}}, {"file": {"fileWithUri": "https://x/a"}, "metadata": {"k": "v"}}),
    "data object": ({"data": {"skill": "x", "n": [1, {"a": None}]}}, {"data": {"data": {"skill": "x", "n": [1, {"a": None}]}}}),
    "data empty": ({"data": {}}, {"data": {"data": {}}}),
    "data list": ({"data": [1, 2]}, {"data": {"data": {"value": [1, 2]}}, "metadata": FLAG}),
    "data string+metadata": ({"data": "s", "metadata": {"k": 1}}, {"data": {"data": {"value": "s"}}, "metadata": {"k": 1, **FLAG}}),
    "data null": ({"data": None}, {"data": {"data": {"value": None}}, "metadata": FLAG}),
}


@pytest.mark.parametrize(("v1", "p03"), list(PARTS.values()), ids=list(PARTS))
def test_parts_both_ways(tr, v1, p03):
    assert tr(to_proto03_part, v1) == (p03, [])
    assert tr(from_proto03_part, p03) == (v1, [])
    assert from_proto03_part(to_proto03_part(v1)) == v1


@pytest.mark.parametrize(
    ("wire", "raw"),
    [
        ("AAEC/w==", "AAEC/w=="),  # a spec-correct peer: binary bytes, single-encoded
        ("AAEC_w", "AAEC/w=="),  # URL-safe, unpadded (ProtoJSON readers take both)
        (dbl("AAEC/w=="), "AAEC/w=="),  # a2a-sdk: base64 of the base64 text
        (dbl("aGk="), "aGk="),
    ],
)
def test_file_bytes_read_either_encoding(tr, wire, raw):
    assert tr(from_proto03_part, {"file": {"fileWithBytes": wire}}) == ({"raw": raw}, [])


def test_raw_is_normalised_and_bad_base64_is_noted(tr):
    assert tr(to_proto03_part, {"raw": "AAEC_w"}) == ({"file": {"fileWithBytes": dbl("AAEC/w==")}}, [])
    assert tr(to_proto03_part, {"raw": "not base64!"}) == ({"file": {"fileWithBytes": "not base64!"}}, ["file part: raw is not base64; left unchanged"])
    assert tr(from_proto03_part, {"file": {"fileWithBytes": "%%"}}) == ({"raw": "%%"}, ["file part: fileWithBytes is not base64; left unchanged"])


def test_jsonrpc_shaped_parts_are_read_and_written(tr):
    """Lenient: the 0.3 JSON-RPC spellings (`kind`, file.bytes/uri) on either side."""
    v0 = {"kind": "file", "file": {"bytes": "aGk=", "mimeType": "text/plain"}}
    assert tr(to_proto03_part, v0) == ({"file": {"fileWithBytes": dbl("aGk="), "mimeType": "text/plain"}}, [])
    assert tr(from_proto03_part, v0) == ({"raw": "aGk=", "mediaType": "text/plain"}, [])
    assert tr(from_proto03_part, {"kind": "data", "data": {"a": 1}}) == ({"data": {"a": 1}}, [])
    assert tr(from_proto03_part, {"file": {"file_with_uri": "https://x", "mime_type": "a/b"}}) == ({"url": "https://x", "mediaType": "a/b"}, [])


def test_messages_use_content(tr):
    v1 = {"messageId": "m", "role": "ROLE_AGENT", "parts": [{"text": "a"}, {"raw": "aGk="}], "contextId": "", "taskId": "", "extensions": [], "metadata": {"x": 1}, "vendor": True}
    p03 = {"messageId": "m", "role": "ROLE_AGENT", "content": [{"text": "a"}, {"file": {"fileWithBytes": dbl("aGk=")}}], "metadata": {"x": 1}, "vendor": True}
    assert tr(to_proto03_message, v1) == (p03, [])
    assert tr(to_proto03_message, {"messageId": "m", "role": "agent", "parts": [{"kind": "text", "text": "a"}]}) == ({"messageId": "m", "role": "ROLE_AGENT", "content": [{"text": "a"}]}, [])


def test_status_message_and_final_flag(tr):
    assert tr(to_proto03_task, CANCELED_V1) == (CANCELED_03, [])
    update = {"id": "t", "status": {"state": "TASK_STATE_WORKING", "update": REPLY_03}}  # the proto field name
    assert tr(from_proto03_task, update) == ({"id": "t", "status": {"state": "TASK_STATE_WORKING", "message": REPLY_V1}}, [])
    odd = {"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_INPUT_REQUIRED"}, "final": True}}
    assert tr(from_proto03_stream_response, odd) == (
        {"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_INPUT_REQUIRED"}}},
        ["status update: final=true on state TASK_STATE_INPUT_REQUIRED dropped (V1 has no final flag; only terminal states end a stream)"],
    )


def test_stream_responses_lenient(tr):
    assert tr(from_proto03_stream_response, {"msg": REPLY_03}) == ({"message": REPLY_V1}, [])  # the proto field name
    assert tr(to_proto03_stream_response, {"kind": "status-update", "taskId": "t-1", "contextId": "c-1", "status": {"state": "working"}, "final": False}) == (SU_03, [])
    assert tr(from_proto03_stream_response, 5) == (5, ["stream response: expected an object, got a number; left unchanged"])
    assert tr(from_proto03_stream_response, {"x": 1}) == ({"x": 1}, ["stream response: not a task / message / statusUpdate / artifactUpdate; left unchanged"])
    t = PROTO03_TRANSLATORS["SendMessage"]
    assert tr(t.result_to_core, SU_03)[1] == ["send result: unexpected statusUpdate; translated anyway"]


# --- push configs and resource names ------------------------------------------------------


def test_resource_names():
    assert task_name("t-1") == "tasks/t-1"
    assert push_config_name("t-1", "p-1") == "tasks/t-1/pushNotificationConfigs/p-1"
    assert parse_task_name("tasks/t-1") == "t-1"
    assert parse_task_name("tasks/t-1/pushNotificationConfigs") == "t-1"  # the SDK proto's parent pattern
    assert parse_task_name("tasks/t-1/pushNotificationConfigs/p-1") == "t-1"
    assert parse_task_name("task/t-1") is None and parse_task_name("t-1") is None and parse_task_name(None) is None
    assert parse_push_config_name("tasks/t-1/pushNotificationConfigs/p-1") == ("t-1", "p-1")
    assert parse_push_config_name("tasks/t-1/pushNotificationConfigs/") == ("t-1", "")
    assert parse_push_config_name("tasks/t-1") is None


def test_push_config_entities(tr):
    assert tr(to_proto03_push_config, PUSH_V1) == (PUSH_03, [])
    v0 = {"taskId": "t-1", "pushNotificationConfig": INNER_03}  # 0.3 JSON-RPC nested form
    assert tr(to_proto03_push_config, v0) == (PUSH_03, [])
    assert tr(from_proto03_push_config, v0) == (PUSH_V1, [])
    assert tr(to_proto03_push_config, PUSH_03) == (PUSH_03, [])
    # the id only in the name (or only in the config) is enough
    assert tr(from_proto03_push_config, {"name": PUSH_03["name"], "pushNotificationConfig": {"url": U}}) == ({"id": "p-1", "taskId": "t-1", "url": U}, [])
    two = {"name": PUSH_03["name"], "pushNotificationConfig": {"url": U, "authentication": {"schemes": ["Bearer", "Basic"]}}}
    assert tr(from_proto03_push_config, two) == (
        {"id": "p-1", "taskId": "t-1", "url": U, "authentication": {"scheme": "Bearer"}},
        ["push authentication: schemes ['Basic'] dropped (V1 takes one scheme)"],
    )


def test_push_config_name_problems_are_noted(tr):
    odd = {"name": "tasks/t-1/pushNotificationConfigs/p-9", "pushNotificationConfig": {"id": "p-1", "url": U}}
    assert tr(from_proto03_push_config, odd) == (
        {"id": "p-1", "taskId": "t-1", "url": U},
        ["push config: name 'tasks/t-1/pushNotificationConfigs/p-9' names config 'p-9' but its id is 'p-1'; kept the id"],
    )
    assert tr(from_proto03_push_config, {"pushNotificationConfig": {"id": "p-1", "url": U}}) == ({"id": "p-1", "url": U}, ["push config: no name; the task id is unknown"])
    assert tr(to_proto03_push_config, {"url": U}) == ({"pushNotificationConfig": {"url": U}}, ["push config: no taskId; the 0.3 config has no resource name"])
    t = PROTO03_TRANSLATORS["GetTask"]
    assert tr(t.params_to_core, {"name": "t-1"}) == ({"id": "t-1"}, ["params: 't-1' is not a resource name (tasks/{id}); taken as the task id"])
    create = PROTO03_TRANSLATORS["CreateTaskPushNotificationConfig"]
    mixed = {"parent": "tasks/t-1", "config": {"name": "tasks/t-2/pushNotificationConfigs/p-1", "pushNotificationConfig": {"url": U}}}
    assert tr(create.params_to_core, mixed) == ({"taskId": "t-1", "id": "p-1", "url": U}, ["params: config names task 't-2' but parent is 'tasks/t-1'; kept the parent"])
    two_ids = {"parent": "tasks/t-1", "configId": "p-2", "config": {"pushNotificationConfig": {"id": "p-1", "url": U}}}
    assert tr(create.params_to_core, two_ids) == (
        {"taskId": "t-1", "id": "p-1", "url": U},
        ["params: configId 'p-2' differs from the config's id 'p-1'; kept the id (a2a-sdk reads only that)"],
    )


# --- agent card ---------------------------------------------------------------------------


def test_card_lossy_rules(tr):
    v1 = copy.deepcopy(CARD_V1)
    v1["securitySchemes"]["oauth"]["oauth2SecurityScheme"]["flows"] = {"authorizationCode": {"authorizationUrl": "https://a/auth", "tokenUrl": "https://a/t", "scopes": {}, "pkceRequired": True}}
    v1["supportedInterfaces"][0]["tenant"] = "acme"
    out, notes = tr(to_proto03_card, v1)
    assert out["securitySchemes"]["oauth"] == {"oauth2SecurityScheme": {"flows": {"authorizationCode": {"authorizationUrl": "https://a/auth", "tokenUrl": "https://a/t", "scopes": {}}}}}
    assert notes == ["agent interface: tenant 'acme' dropped (V0 has no tenants)", "oauth2 flows: pkceRequired dropped (V0 has no PKCE flag)"]
    v0 = {
        "name": "n",
        "url": "https://a",
        "capabilities": {"stateTransitionHistory": True},
        "securitySchemes": {"o": {"type": "oauth2", "flows": {"implicit": {"authorizationUrl": "u", "scopes": {}}, "password": {"tokenUrl": "t", "scopes": {}}}}},
        "security": [{"o": []}],
    }
    out, notes = tr(to_proto03_card, v0)  # a 0.3 JSON card
    assert out == {
        "name": "n",
        "url": "https://a",
        "capabilities": {},
        "securitySchemes": {"o": {"oauth2SecurityScheme": {"flows": {"implicit": {"authorizationUrl": "u", "scopes": {}}}}}},
        "security": [{"schemes": {"o": {"list": []}}}],
    }
    assert notes == ["agent card: stateTransitionHistory dropped (the 0.3 proto has no such capability)", "oauth2 flows: password dropped (the 0.3 proto holds one flow; kept implicit)"]


def test_card_as_a2a_sdk_answers_it(tr):
    """a2a-sdk's `GET /v1/card` answers the 0.3 JSON-RPC card (model_dump), not the proto AgentCard."""
    sdk = {
        "capabilities": {"streaming": True},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "description": "Echo agent",
        "name": "Echo",
        "preferredTransport": "HTTP+JSON",
        "protocolVersion": "0.3",
        "securitySchemes": {"key": {"in": "header", "name": "X-API-Key", "type": "apiKey"}},
        "security": [{"key": []}],
        "skills": [],
        "supportsAuthenticatedExtendedCard": True,
        "url": "https://a/v1",
        "version": "1.0.0",
    }
    core, notes = tr(PROTO03_TRANSLATORS["GetExtendedAgentCard"].result_to_core, sdk)
    assert notes == []
    assert core["supportedInterfaces"] == [{"url": "https://a/v1", "protocolBinding": "HTTP+JSON", "protocolVersion": "0.3"}]
    assert core["securitySchemes"] == {"key": {"apiKeySecurityScheme": {"location": "header", "name": "X-API-Key"}}}
    assert core["securityRequirements"] == [{"schemes": {"key": {"list": []}}}]
    assert core["capabilities"] == {"streaming": True, "extendedAgentCard": True}
    assert from_proto03_card(to_proto03_card(core)) == core


# --- oracle: the SDK's 0.3 pb2 messages and conversions --------------------------------------


@pytest.fixture(scope="module")
def sdk() -> Any:
    pb2 = pytest.importorskip("a2a.compat.v0_3.a2a_v0_3_pb2")
    json_format = pytest.importorskip("google.protobuf.json_format")
    from a2a.compat.v0_3 import conversions, proto_utils
    from a2a.compat.v0_3 import types as types_v03
    from a2a.types import a2a_pb2
    from google.protobuf import empty_pb2

    class SDK:
        pass

    s = SDK()
    s.pb2, s.jf, s.conv, s.pu, s.types, s.v1 = pb2, json_format, conversions, proto_utils, types_v03, a2a_pb2
    s.message = lambda name: empty_pb2.Empty() if name == "google.protobuf.Empty" else getattr(pb2, name)()
    return s


def _parse(sdk: Any, doc: Any, name: str) -> Any:
    """ParseDict strictly (no unknown fields): what a 0.3 gRPC/REST proto reader accepts."""
    return sdk.jf.ParseDict(json.loads(json.dumps(doc)), sdk.message(name), ignore_unknown_fields=False)


@pytest.mark.parametrize(("method", "v1", "p03"), PARAMS, ids=_ids(PARAMS))
def test_oracle_requests_parse_as_the_03_proto(sdk, method, v1, p03):
    request = PROTO03_TRANSLATORS[method].params_to_compat(v1)
    name = PROTO03_MESSAGES[method][0] or "google.protobuf.Empty"  # ListTasks: GET /v1/tasks, no parameters
    _parse(sdk, request, name)


@pytest.mark.parametrize(("method", "v1", "p03"), RESULTS, ids=_ids(RESULTS))
def test_oracle_results_parse_as_the_03_proto(sdk, method, v1, p03):
    result = PROTO03_TRANSLATORS[method].result_to_compat(v1)
    if method == "ListTasks":
        assert isinstance(result, list)
        for task in result:
            _parse(sdk, task, "Task")
        return
    _parse(sdk, result, PROTO03_MESSAGES[method][1])


@pytest.mark.parametrize("v1", [PARTS[k][0] for k in PARTS], ids=list(PARTS))
def test_oracle_parts_parse_and_the_sdk_reads_them_back(sdk, v1):
    """Our 0.3 part, read the way a2a-sdk's REST server reads it (Parse, FromProto, to_core), is the V1 part."""
    part = _parse(sdk, to_proto03_part(v1), "Part")
    core = sdk.conv.to_core_part(sdk.pu.FromProto.part(part))
    assert sdk.jf.MessageToDict(core) == v1


def _sdk_answer(sdk: Any, v1: dict[str, Any], core_type: str, to_compat: str, to_proto: str) -> dict[str, Any]:
    """What a2a-sdk's 0.3 REST server answers for a V1 object: conversions.to_compat_*, ToProto.*, MessageToDict."""
    core = sdk.jf.ParseDict(v1, getattr(sdk.v1, core_type)())
    return sdk.jf.MessageToDict(getattr(sdk.pu.ToProto, to_proto)(getattr(sdk.conv, to_compat)(core)))


BYTES_TASK_V1 = TASK_V1 | {"history": [MSG_V1 | {"parts": [{"raw": "AAEC/w==", "mediaType": "application/octet-stream", "filename": "b.bin"}, {"url": "https://x/a.pdf"}, {"data": {"k": "v"}}]}]}


@pytest.mark.parametrize("v1", [TASK_V1, CANCELED_V1, WORKING_V1, BYTES_TASK_V1], ids=["completed", "canceled", "working", "file parts"])
def test_oracle_sdk_task_answers(sdk, tr, v1):
    answer = _sdk_answer(sdk, v1, "Task", "to_compat_task", "task")
    assert tr(PROTO03_TRANSLATORS["GetTask"].result_to_core, answer) == (v1, [])
    if v1["status"]["state"] == "TASK_STATE_CANCELED":
        assert answer["status"]["state"] == "TASK_STATE_CANCELLED"
    assert tr(PROTO03_TRANSLATORS["GetTask"].result_to_compat, v1) == (answer, [])  # our output is what the SDK writes


@pytest.mark.parametrize("v1", [{"task": WORKING_V1}, {"message": REPLY_V1}, SU_V1, DONE_V1, AU_V1], ids=["task", "message", "status", "final", "artifact"])
def test_oracle_sdk_stream_answers(sdk, tr, v1):
    core = sdk.jf.ParseDict(v1, sdk.v1.StreamResponse())
    compat = sdk.conv.to_compat_stream_response(core, request_id=0).result
    answer = sdk.jf.MessageToDict(sdk.pu.ToProto.stream_response(compat))
    assert tr(PROTO03_TRANSLATORS["SubscribeToTask"].result_to_core, answer) == (v1, [])


def test_oracle_sdk_send_answer_and_push_config_answers(sdk, tr):
    core = sdk.jf.ParseDict({"task": TASK_V1}, sdk.v1.SendMessageResponse())
    compat = sdk.conv.to_compat_send_message_response(core, request_id=0).root.result
    answer = sdk.jf.MessageToDict(sdk.pu.ToProto.task_or_message(compat))
    assert tr(PROTO03_TRANSLATORS["SendMessage"].result_to_core, answer) == ({"task": TASK_V1}, [])
    answer = _sdk_answer(sdk, PUSH_V1, "TaskPushNotificationConfig", "to_compat_task_push_notification_config", "task_push_notification_config")
    assert answer == PUSH_03
    assert tr(PROTO03_TRANSLATORS["GetTaskPushNotificationConfig"].result_to_core, answer) == (PUSH_V1, [])
    page = sdk.jf.MessageToDict(sdk.pb2.ListTaskPushNotificationConfigResponse(configs=[sdk.jf.ParseDict(PUSH_03, sdk.pb2.TaskPushNotificationConfig())]))
    assert tr(PROTO03_TRANSLATORS["ListTaskPushNotificationConfigs"].result_to_core, page) == ({"configs": [PUSH_V1], "nextPageToken": ""}, [])


def test_oracle_pb2_built_results(sdk, tr):
    pb2 = sdk.pb2
    msg = pb2.Message(message_id="m-1", role=pb2.ROLE_USER, content=[pb2.Part(text="Hi")])
    task = pb2.Task(
        id="t-1",
        context_id="c-1",
        status=pb2.TaskStatus(state=pb2.TASK_STATE_CANCELLED, update=msg),
        history=[msg],
        artifacts=[pb2.Artifact(artifact_id="a-1", parts=[pb2.Part(file=pb2.FilePart(file_with_bytes=b"\x00\x01\x02\xff", mime_type="a/b"))])],
    )
    expect = {
        "id": "t-1",
        "contextId": "c-1",
        "status": {"state": "TASK_STATE_CANCELED", "message": MSG_V1},
        "history": [MSG_V1],
        "artifacts": [{"artifactId": "a-1", "parts": [{"raw": "AAEC/w==", "mediaType": "a/b"}]}],
    }  # spec-correct bytes read too
    assert tr(from_proto03_task, sdk.jf.MessageToDict(task)) == (expect, [])
    event = pb2.StreamResponse(status_update=pb2.TaskStatusUpdateEvent(task_id="t-1", context_id="c-1", status=pb2.TaskStatus(state=pb2.TASK_STATE_COMPLETED), final=True))
    assert tr(from_proto03_stream_response, sdk.jf.MessageToDict(event)) == ({"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}}, [])
    config = pb2.TaskPushNotificationConfig(
        name="tasks/t-1/pushNotificationConfigs/p-1",
        push_notification_config=pb2.PushNotificationConfig(id="p-1", url=U, token="tok-1", authentication=pb2.AuthenticationInfo(schemes=["Bearer"], credentials="s3cr3t")),
    )
    assert tr(from_proto03_push_config, sdk.jf.MessageToDict(config)) == (PUSH_V1, [])
    card = _parse(sdk, CARD_03, "AgentCard")
    empty_scopes = CARD_V1 | {"securityRequirements": [{"schemes": {"key": {}}}]}  # ProtoJSON omits the empty `list`
    assert tr(from_proto03_card, sdk.jf.MessageToDict(card)) == (empty_scopes, [])


def test_oracle_sdk_server_reads_our_requests(sdk):
    """Parsed and converted the way a2a-sdk's REST03Handler does, our requests are the V1 ones."""
    v1 = {
        "message": MSG_V1 | {"contextId": "c-1", "parts": [{"text": "Hi"}, {"raw": "AAEC/w==", "filename": "b"}, {"data": {"a": "b"}}]},
        "configuration": {"acceptedOutputModes": ["text/plain"], "historyLength": 3, "returnImmediately": True, "taskPushNotificationConfig": {"url": U, "token": "tok", "authentication": AUTH_V1}},
        "metadata": {"k": "v"},
    }
    request = _parse(sdk, PROTO03_TRANSLATORS["SendMessage"].params_to_compat(v1), "SendMessageRequest")
    params = sdk.pu.FromProto.message_send_params(request)
    core = sdk.conv.to_core_send_message_request(sdk.types.SendMessageRequest(id="", params=params))
    assert sdk.jf.MessageToDict(core) == v1
    for blocking in (True, False):  # the V1 default (no returnImmediately) must reach the server as blocking
        out = PROTO03_TRANSLATORS["SendMessage"].params_to_compat({"message": MSG_V1, "configuration": {"returnImmediately": not blocking}})
        params = sdk.pu.FromProto.message_send_params(_parse(sdk, out, "SendMessageRequest"))
        assert params.configuration.blocking is blocking
    request = _parse(sdk, PROTO03_TRANSLATORS["CreateTaskPushNotificationConfig"].params_to_compat(PUSH_V1), "CreateTaskPushNotificationConfigRequest")
    compat = sdk.pu.FromProto.task_push_notification_config_request(request)
    assert sdk.jf.MessageToDict(sdk.conv.to_core_task_push_notification_config(compat)) == PUSH_V1
    request = _parse(sdk, PROTO03_TRANSLATORS["GetTask"].params_to_compat({"id": "t-1", "historyLength": 2}), "GetTaskRequest")
    assert sdk.pu.FromProto.task_query_params(request).model_dump(exclude_none=True) == {"id": "t-1", "historyLength": 2}


def test_oracle_we_read_the_sdk_clients_requests(sdk, tr):
    """What a2a-sdk's CompatRestTransport sends (snake_case proto-JSON) reads back as the V1 request."""
    v1 = {"message": MSG_V1 | {"contextId": "c-1", "parts": [{"text": "Hi"}, {"raw": "AAEC/w=="}]}, "configuration": {"acceptedOutputModes": ["text/plain"], "returnImmediately": False}}
    compat = sdk.conv.to_compat_send_message_request(sdk.jf.ParseDict(v1, sdk.v1.SendMessageRequest()), request_id=0)
    sent = sdk.jf.MessageToDict(
        sdk.pb2.SendMessageRequest(request=sdk.pu.ToProto.message(compat.params.message), configuration=sdk.pu.ToProto.message_send_configuration(compat.params.configuration)),
        preserving_proto_field_name=True,
    )
    assert tr(PROTO03_TRANSLATORS["SendMessage"].params_to_core, sent) == (v1, [])
    req = sdk.conv.to_compat_create_task_push_notification_config_request(sdk.jf.ParseDict(PUSH_V1, sdk.v1.TaskPushNotificationConfig()), request_id=0)
    sent = sdk.jf.MessageToDict(
        sdk.pb2.CreateTaskPushNotificationConfigRequest(parent="tasks/t-1", config_id="p-1", config=sdk.pu.ToProto.task_push_notification_config(req.params)), preserving_proto_field_name=True
    )
    assert tr(PROTO03_TRANSLATORS["CreateTaskPushNotificationConfig"].params_to_core, sent) == (PUSH_V1, [])


# --- end to end: a2a-sdk's own 0.3 REST server, in process ---------------------------------


@pytest.fixture(scope="module")
def rest03() -> Any:
    """A TestClient on a2a-sdk's REST routes with the 0.3 adapter, serving an agent that echoes a
    message's parts back as an artifact."""
    pytest.importorskip("starlette")
    pytest.importorskip("sse_starlette")
    testclient = pytest.importorskip("starlette.testclient")
    from a2a.server.agent_execution import AgentExecutor
    from a2a.server.request_handlers import DefaultRequestHandler
    from a2a.server.routes import create_rest_routes
    from a2a.server.tasks import InMemoryPushNotificationConfigStore, InMemoryTaskStore, TaskUpdater
    from a2a.types.a2a_pb2 import AgentCapabilities, AgentCard, AgentInterface, Task, TaskState, TaskStatus
    from starlette.applications import Starlette

    class Echo(AgentExecutor):
        async def execute(self, context: Any, event_queue: Any) -> None:
            await event_queue.enqueue_event(Task(id=context.task_id, context_id=context.context_id, status=TaskStatus(state=TaskState.TASK_STATE_SUBMITTED), history=[context.message]))
            updater = TaskUpdater(event_queue, context.task_id, context.context_id)
            await updater.add_artifact(list(context.message.parts), artifact_id="echo", last_chunk=True)
            await updater.complete()

        async def cancel(self, context: Any, event_queue: Any) -> None:
            raise NotImplementedError

    async def any_url(url: str) -> bool:
        return True

    card = AgentCard(
        name="Echo",
        description="Echo agent",
        version="1.0.0",
        default_input_modes=["text/plain"],
        default_output_modes=["text/plain"],
        supported_interfaces=[AgentInterface(url="http://testserver", protocol_binding="HTTP+JSON", protocol_version="0.3")],
        capabilities=AgentCapabilities(streaming=True, push_notifications=True, extended_agent_card=True),
    )
    handler = DefaultRequestHandler(
        agent_executor=Echo(), task_store=InMemoryTaskStore(), agent_card=card, push_config_store=InMemoryPushNotificationConfigStore(), extended_agent_card=card, push_url_validator=any_url
    )
    with testclient.TestClient(Starlette(routes=create_rest_routes(handler, enable_v0_3_compat=True))) as client:
        yield client


def _call(client: Any, method: str, verb: str, path: str, params: dict[str, Any], body: str | None = None) -> tuple[int, Any]:
    """params -> our 0.3 request message -> HTTP (body: the whole message, or one field of it) -> V1 result."""
    notes: list[str] = []
    t = PROTO03_TRANSLATORS[method]
    request = t.params_to_compat(params, notes)
    json_body = None if verb == "GET" else (request if body is None else request[body])
    r = client.request(verb, path, json=json_body, headers={"A2A-Version": "0.3"})
    if r.status_code != 200:
        return r.status_code, r.json()
    result = t.result_to_core(r.json(), notes)
    assert notes == []
    return r.status_code, result


def test_sdk_rest03_server_end_to_end(rest03):
    raw = base64.b64encode(bytes(range(256))).decode()
    parts = [{"text": "Hi"}, {"raw": raw, "mediaType": "application/octet-stream", "filename": "b.bin"}, {"url": "https://x/a.pdf"}, {"data": {"skill": "echo", "n": 2}}, {"data": ["a", "b"]}]
    status, sent = _call(rest03, "SendMessage", "POST", "/v1/message:send", {"message": MSG_V1 | {"parts": parts}, "configuration": {"historyLength": 5}})
    assert status == 200 and sent["task"]["status"]["state"] == "TASK_STATE_COMPLETED"
    assert sent["task"]["artifacts"][0]["parts"] == parts  # every part kind survives the SDK both ways
    tid = sent["task"]["id"]
    status, task = _call(rest03, "GetTask", "GET", f"/v1/tasks/{tid}", {"id": tid})
    assert status == 200 and task["history"][0]["parts"] == parts
    push = {"taskId": tid, "id": "p-1", "url": U, "token": "tok-1", "authentication": AUTH_V1}
    status, created = _call(rest03, "CreateTaskPushNotificationConfig", "POST", f"/v1/tasks/{tid}/pushNotificationConfigs", push)
    assert (status, created) == (200, push)
    # the proto's `body: "config"` is not what a2a-sdk reads: it parses the body as the whole request
    status, error = _call(rest03, "CreateTaskPushNotificationConfig", "POST", f"/v1/tasks/{tid}/pushNotificationConfigs", push, body="config")
    assert status == 400 and "No task for" in error["error"]["message"]
    assert _call(rest03, "GetTaskPushNotificationConfig", "GET", f"/v1/tasks/{tid}/pushNotificationConfigs/p-1", {"taskId": tid, "id": "p-1"}) == (200, push)
    assert _call(rest03, "ListTaskPushNotificationConfigs", "GET", f"/v1/tasks/{tid}/pushNotificationConfigs", {"taskId": tid}) == (200, {"configs": [push], "nextPageToken": ""})
    status, card = _call(rest03, "GetExtendedAgentCard", "GET", "/v1/card", {})
    assert status == 200 and card["supportedInterfaces"][0]["protocolBinding"] == "HTTP+JSON" and card["capabilities"]["extendedAgentCard"] is True
    t = PROTO03_TRANSLATORS["SendStreamingMessage"]
    request = t.params_to_compat({"message": MSG_V1 | {"messageId": "m-9"}})
    with rest03.stream("POST", "/v1/message:stream", json=request, headers={"A2A-Version": "0.3"}) as r:
        events = [t.result_to_core(json.loads(line[5:])) for line in r.iter_lines() if line.startswith("data:")]
    assert [next(iter(e)) for e in events] == ["task", "artifactUpdate", "statusUpdate"]
    assert events[-1]["statusUpdate"]["status"]["state"] == "TASK_STATE_COMPLETED" and "final" not in events[-1]["statusUpdate"]
