from __future__ import annotations

import pytest

from a2acli.wire.translate import Detected, detect, translate_document

MSG_V1 = {"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "Hi"}]}
MSG_V0 = {"kind": "message", "messageId": "m-1", "role": "user", "parts": [{"kind": "text", "text": "Hi"}]}
TASK_V1 = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_SUBMITTED"}}
TASK_V0 = {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "submitted"}}
SU_V1 = {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}
SU_V0 = {"kind": "status-update", "taskId": "t-1", "contextId": "c-1", "status": {"state": "completed"}, "final": True}
AU_V1 = {"taskId": "t-1", "contextId": "c-1", "artifact": {"artifactId": "a-1", "parts": [{"text": "par"}]}, "lastChunk": False}
AU_V0 = {"kind": "artifact-update", "taskId": "t-1", "contextId": "c-1",
         "artifact": {"artifactId": "a-1", "parts": [{"kind": "text", "text": "par"}]}, "append": False, "lastChunk": False}
PUSH_V1 = {"id": "p-1", "taskId": "t-1", "url": "https://cb.example/h"}
PUSH_V0 = {"taskId": "t-1", "pushNotificationConfig": {"id": "p-1", "url": "https://cb.example/h"}}
CARD_V1 = {"name": "E", "description": "d", "version": "1",
           "supportedInterfaces": [{"url": "https://a", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"}],
           "capabilities": {}, "skills": []}
CARD_V0 = {"name": "E", "description": "d", "version": "1", "protocolVersion": "0.3", "url": "https://a",
           "preferredTransport": "JSONRPC", "capabilities": {}, "skills": []}
ERR_V1 = {"code": -32001, "message": "Task not found", "data": [
    {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "TASK_NOT_FOUND", "domain": "a2a-protocol.org",
     "metadata": {"taskId": "t-9"}}]}
ERR_V0 = {"code": -32001, "message": "Task not found", "data": {"taskId": "t-9"}}


def rpc(method, params=None, **extra):
    return {"jsonrpc": "2.0", "id": 1, "method": method, **({} if params is None else {"params": params}), **extra}


def res(result):
    return {"jsonrpc": "2.0", "id": 1, "result": result}


@pytest.mark.parametrize(
    ("doc", "expected"),
    [
        (rpc("SendMessage", {"message": MSG_V1}), Detected("jsonrpc-request", "v1", "SendMessage")),
        (rpc("message/send", {"message": MSG_V0}), Detected("jsonrpc-request", "v0", "SendMessage")),
        (rpc("tasks/list", {"limit": 2}), Detected("jsonrpc-request", "v0", "ListTasks")),
        (rpc("agent/getAuthenticatedExtendedCard"), Detected("jsonrpc-request", "v0", "GetExtendedAgentCard")),
        (rpc("tasks/frobnicate", {}), Detected("jsonrpc-request")),
        (rpc("tasks/pushNotification", {"result": {"statusUpdate": SU_V1}}), Detected("webhook-jsonrpc", "v1")),
        (rpc("tasks/pushNotification", {"result": SU_V0}), Detected("webhook-jsonrpc", "v0")),
        (res({"task": TASK_V1}), Detected("jsonrpc-response", "v1")),
        (res(TASK_V0), Detected("jsonrpc-response", "v0")),
        (res([TASK_V0]), Detected("jsonrpc-response", "v0", "ListTasks")),
        (res({"configs": []}), Detected("jsonrpc-response", "v1", "ListTaskPushNotificationConfigs")),
        (res(CARD_V0), Detected("jsonrpc-response", "v0", "GetExtendedAgentCard")),
        (res(None), Detected("jsonrpc-response")),
        ({"jsonrpc": "2.0", "id": 1, "error": ERR_V1}, Detected("jsonrpc-error", "v1")),
        ({"jsonrpc": "2.0", "id": 1, "error": ERR_V0}, Detected("jsonrpc-error", "v0")),
        ({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}, Detected("jsonrpc-error")),
        (TASK_V1, Detected("task", "v1")),
        (TASK_V0, Detected("task", "v0")),
        (MSG_V1, Detected("message", "v1")),
        (MSG_V0, Detected("message", "v0")),
        (SU_V1, Detected("status-update", "v1")),
        (SU_V0, Detected("status-update", "v0")),
        (AU_V1, Detected("artifact-update", "v1")),
        (AU_V0, Detected("artifact-update", "v0")),
        ({"statusUpdate": SU_V1}, Detected("stream-response", "v1")),
        ({"artifact_update": AU_V1}, Detected("stream-response", "v1")),
        ({"task": TASK_V1}, Detected("send-result", "v1")),
        ({"message": MSG_V1}, Detected("send-result", "v1")),
        ({"tasks": [], "nextPageToken": ""}, Detected("task-list", "v1")),
        ([TASK_V0], Detected("task-list", "v0")),
        ({"configs": [PUSH_V1]}, Detected("push-config-list", "v1")),
        ([PUSH_V0], Detected("push-config-list", "v0")),
        (CARD_V1, Detected("agent-card", "v1")),
        (CARD_V0, Detected("agent-card", "v0")),
        (PUSH_V1, Detected("push-config", "v1")),
        (PUSH_V0, Detected("push-config", "v0")),
        ([], Detected("unknown")),
        ({"hello": "world"}, Detected("unknown")),
        ("text", Detected("unknown")),
    ],
)
def test_detect(doc, expected):
    assert detect(doc) == expected


# (V1 document, V0 document): whole documents that translate exactly into each other
DOCUMENTS = {
    "send request": (
        rpc("SendMessage", {"message": MSG_V1, "configuration": {"acceptedOutputModes": ["text/plain"], "returnImmediately": False}}),
        rpc("message/send", {"message": MSG_V0, "configuration": {"acceptedOutputModes": ["text/plain"], "blocking": True}})),
    "stream request": (rpc("SendStreamingMessage", {"message": MSG_V1}), rpc("message/stream", {"message": MSG_V0})),
    "get request": (rpc("GetTask", {"id": "t-1", "historyLength": 1}), rpc("tasks/get", {"id": "t-1", "historyLength": 1})),
    "list request": (rpc("ListTasks", {"pageSize": 2, "pageToken": "0"}), rpc("tasks/list", {"limit": 2, "offset": 0})),
    "cancel request": (rpc("CancelTask", {"id": "t-1"}), rpc("tasks/cancel", {"id": "t-1"})),
    "subscribe request": (rpc("SubscribeToTask", {"id": "t-1"}), rpc("tasks/resubscribe", {"id": "t-1"})),
    "push set request": (rpc("CreateTaskPushNotificationConfig", {"taskId": "t-1", "url": "https://cb.example/h"}),
                         rpc("tasks/pushNotificationConfig/set", {"taskId": "t-1", "pushNotificationConfig": {"url": "https://cb.example/h"}})),
    "push get request": (rpc("GetTaskPushNotificationConfig", {"taskId": "t-1", "id": "p-1"}),
                         rpc("tasks/pushNotificationConfig/get", {"id": "t-1", "pushNotificationConfigId": "p-1"})),
    "push list request": (rpc("ListTaskPushNotificationConfigs", {"taskId": "t-1"}), rpc("tasks/pushNotificationConfig/list", {"id": "t-1"})),
    "push delete request": (rpc("DeleteTaskPushNotificationConfig", {"taskId": "t-1", "id": "p-1"}),
                            rpc("tasks/pushNotificationConfig/delete", {"id": "t-1", "pushNotificationConfigId": "p-1"})),
    "card request": (rpc("GetExtendedAgentCard", {}), rpc("agent/getAuthenticatedExtendedCard")),
    "send result": (res({"message": MSG_V1}), res(MSG_V0)),
    "stream event status": (res({"statusUpdate": SU_V1}), res(SU_V0)),
    "stream event artifact": (res({"artifactUpdate": {**AU_V1, "append": False}}), res(AU_V0)),
    "task list result": (res({"tasks": [TASK_V1], "nextPageToken": ""}), res([TASK_V0])),
    "push result": (res(PUSH_V1), res(PUSH_V0)),
    "push list result": (res({"configs": [PUSH_V1]}), res([PUSH_V0])),
    "card result": (res(CARD_V1), res(CARD_V0)),
    "delete result": (res(None), res(None)),
    "webhook": (rpc("tasks/pushNotification", {"result": {"statusUpdate": SU_V1}}), rpc("tasks/pushNotification", {"result": SU_V0})),
    "bare task": (TASK_V1, TASK_V0),
    "bare status update": ({"statusUpdate": SU_V1}, SU_V0),
    "bare artifact update": ({"artifactUpdate": {**AU_V1, "append": False}}, AU_V0),
    "bare message": (MSG_V1, MSG_V0),
    "card": (CARD_V1, CARD_V0),
    "push config": (PUSH_V1, PUSH_V0),
}
DOC_CASES = list(DOCUMENTS.values())
DOC_IDS = list(DOCUMENTS)


@pytest.mark.parametrize(("v1", "v0"), DOC_CASES, ids=DOC_IDS)
def test_translate_document_to_v0(tr, v1, v0):
    assert tr(translate_document, v1, to="v0") == (v0, [])


@pytest.mark.parametrize(("v1", "v0"), DOC_CASES, ids=DOC_IDS)
def test_translate_document_to_v1(tr, v1, v0):
    out, notes = tr(translate_document, v0, to="v1")
    assert out == v1
    assert notes == []


@pytest.mark.parametrize(("v1", "v0"), DOC_CASES, ids=DOC_IDS)
def test_translate_document_is_idempotent(v1, v0):
    assert translate_document(v1, "v1") == v1
    assert translate_document(v0, "v0") == v0


def test_error_document(tr):
    v1, v0 = {"jsonrpc": "2.0", "id": 2, "error": ERR_V1}, {"jsonrpc": "2.0", "id": 2, "error": ERR_V0}
    assert tr(translate_document, v1, to="v0") == (v0, [])
    assert tr(translate_document, v0, to="v1") == (
        v1, ["error: V0 free-form data wrapped in a google.rpc.ErrorInfo (metadata values are strings)"])
    assert translate_document(v1, "v1") == v1 and translate_document(v0, "v0") == v0


def test_a_bare_v1_event_becomes_a_stream_response():
    assert translate_document(SU_V1, "v1") == {"statusUpdate": SU_V1}
    assert translate_document(SU_V1, "v0") == SU_V0


def test_a_bare_v0_task_result_is_ambiguous(tr):
    out, notes = tr(translate_document, res(TASK_V0), to="v1")
    assert out == res(TASK_V1)
    assert notes == ["response: bare V0 task taken as a GetTask/CancelTask result (a SendMessage result would be "
                     "{task}); pass the method to be sure"]
    assert tr(translate_document, res(TASK_V0), to="v1", method="SendMessage") == (res({"task": TASK_V1}), [])
    assert tr(translate_document, res(TASK_V0), to="v1", method="message/stream") == (res({"task": TASK_V1}), [])
    assert tr(translate_document, res({"task": TASK_V1}), to="v0") == (res(TASK_V0), [])


def test_seed_000_v0_request_becomes_the_clix_v1_request():
    from a2acli.wire.translate import lowercase_v1_enums

    data = {"skill": "create-user", "projectUserId": "user_123"}
    v0 = {"jsonrpc": "2.0", "id": "req-1", "method": "message/send", "params": {"message": {
        "kind": "message", "messageId": "msg-1", "role": "user", "parts": [{"kind": "data", "data": data}]}}}
    v1 = {"jsonrpc": "2.0", "id": "req-1", "method": "SendMessage", "params": {"message": {
        "messageId": "msg-1", "role": "user", "parts": [{"data": data}]}}}
    assert lowercase_v1_enums(translate_document(v0, "v1")) == v1
    assert translate_document(v1, "v0") == v0
    assert detect(v1) == Detected("jsonrpc-request", "v1", "SendMessage")


def test_notes_from_inside_a_document(tr):
    doc = rpc("SendMessage", {"tenant": "acme", "message": {**MSG_V1, "parts": [{"text": "x", "mediaType": "text/html"}]}})
    out, notes = tr(translate_document, doc, to="v0")
    assert out["method"] == "message/send" and "tenant" not in out["params"]
    assert notes == ["params: tenant 'acme' dropped (V0 has no tenants)",
                     "text part: mediaType 'text/html' dropped (V0 text parts have neither)"]


def test_unknown_documents_are_left_alone(tr):
    assert tr(translate_document, {"hello": 1}, to="v0") == (
        {"hello": 1}, ["document: not recognised as an A2A document; left unchanged"])
    assert tr(translate_document, rpc("x/y", {}), to="v1") == (
        rpc("x/y", {}), ["request: method 'x/y' is not an A2A method; left unchanged"])
    assert tr(translate_document, res({"hello": 1}), to="v1") == (
        res({"hello": 1}), ["response: result shape not recognised; left unchanged"])


def test_bad_arguments():
    with pytest.raises(ValueError, match="to must be"):
        translate_document({}, "v2")
    with pytest.raises(ValueError, match="unknown A2A method"):
        translate_document(res(None), "v1", method="Nope")


LENIENT = [
    rpc("SendMessage", {"tenant": "t", "message": {"message_id": "m", "role": "user", "kind": "message",
                                                    "parts": [{"text": "x", "media_type": "text/html"}, {"data": [1, 2]}]},
                        "configuration": {"return_immediately": True, "task_push_notification_config": {"url": "u"}}}),
    rpc("ListTasks", {"status": "cancelled", "page_size": 3, "page_token": "9", "include_artifacts": True}),
    res({"task": {"id": "t", "context_id": "c", "status": {"state": "input_required"}, "x": 1}}),
    res({"tasks": [{"id": "t", "status": {"state": "completed"}}], "next_page_token": "n", "total_size": 4}),
    {"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_CANCELLED"}, "final": True}},
    {**CARD_V1, "capabilities": {"stateTransitionHistory": True}, "url": "https://old",
     "securitySchemes": {"o": {"type": "oauth2", "flows": {"implicit": {"authorizationUrl": "a", "scopes": {}},
                                                           "password": {"tokenUrl": "p", "scopes": {}}}}}},
    {"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "bad", "data": {"field": 3}}},
    [{"taskId": "t", "pushNotificationConfig": {"url": "u", "authentication": {"schemes": ["A", "B"]}}}],
]


@pytest.mark.parametrize("doc", LENIENT)
@pytest.mark.parametrize("to", ["v1", "v0"])
def test_translation_is_idempotent_on_its_own_output(doc, to):
    once = translate_document(doc, to)
    assert translate_document(once, to) == once
    assert detect(once).version in (to, None)
