# Whole documents: tell what a JSON value is (and which version it is written in) from its shape,
# and translate it to either version. V0 objects carry `kind`; V1 ones are recognised by their
# keys (one-key wrappers, {tasks}, {configs}, flat push configs, supportedInterfaces). A JSON-RPC
# response does not name its method, so the result translator is inferred from the result's
# shape; the one ambiguity is a bare V0 Task (GetTask/CancelTask => bare V1 Task, SendMessage =>
# {task}): pass `method=` to settle it. V1 has no bare events on the wire, so a bare V0
# status/artifact update (a stream event or webhook body) becomes a V1 StreamResponse.
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from a2acli.wire.methods import V0_METHOD_NAMES, V1_METHOD_NAMES

from ._common import Notes, fields, note
from .card import card_version, to_compat_card, to_core_card
from .errors import to_compat_error, to_core_error
from .messages import to_compat_message, to_core_message
from .push import to_compat_push_config, to_compat_push_config_list, to_core_push_config, to_core_push_config_list
from .requests import TRANSLATORS
from .tasks import (
    stream_kind,
    to_compat_artifact_update,
    to_compat_send_result,
    to_compat_status_update,
    to_compat_stream_response,
    to_compat_task,
    to_compat_task_list,
    to_core_send_result,
    to_core_stream_response,
    to_core_task,
    to_core_task_list,
)

WEBHOOK_METHOD = "tasks/pushNotification"  # the vendor's JSON-RPC-wrapped webhook body


class Detected(NamedTuple):
    kind: str  # see KINDS
    version: str | None = None  # "v1", "v0", or None when the shape does not tell
    method: str | None = None  # V1 method name, when known


# document kind -> (to_core, to_compat)
_ENTITIES: dict[str, tuple[Callable[..., Any], Callable[..., Any]]] = {
    "task": (to_core_task, to_compat_task),
    "message": (to_core_message, to_compat_message),
    # V1 sends events only inside a StreamResponse, so a bare V0 event becomes {statusUpdate}…
    "status-update": (to_core_stream_response, to_compat_status_update),
    "artifact-update": (to_core_stream_response, to_compat_artifact_update),
    "stream-response": (to_core_stream_response, to_compat_stream_response),
    "send-result": (to_core_send_result, to_compat_send_result),
    "task-list": (to_core_task_list, to_compat_task_list),
    "agent-card": (to_core_card, to_compat_card),
    "push-config": (to_core_push_config, to_compat_push_config),
    "push-config-list": (to_core_push_config_list, to_compat_push_config_list),
}
KINDS = ("jsonrpc-request", "jsonrpc-response", "jsonrpc-error", *_ENTITIES, "webhook-jsonrpc", "unknown")
_EVENT_KINDS = {
    "task": "task",
    "message": "message",
    "statusUpdate": "status-update",
    "artifactUpdate": "artifact-update",
}
_RESULT_METHODS = {
    "task-list": "ListTasks",
    "push-config-list": "ListTaskPushNotificationConfigs",
    "agent-card": "GetExtendedAgentCard",
}


def detect(doc: Any) -> Detected:
    if isinstance(doc, list):
        first = doc[0] if doc else None
        if stream_kind(first) == "task":
            return Detected("task-list", "v0")
        if isinstance(first, dict) and "pushNotificationConfig" in fields(first):
            return Detected("push-config-list", "v0")
        return Detected("unknown")
    if not isinstance(doc, dict):
        return Detected("unknown")
    if isinstance(doc.get("method"), str):
        return _detect_request(doc)
    if "jsonrpc" in doc and "error" in doc:
        data = doc["error"].get("data") if isinstance(doc["error"], dict) else None
        return Detected("jsonrpc-error", None if data is None else "v1" if isinstance(data, list) else "v0")
    if "jsonrpc" in doc and "result" in doc:
        inner = detect(doc["result"])
        return Detected("jsonrpc-response", inner.version, _RESULT_METHODS.get(inner.kind))
    return _detect_object(doc)


def _detect_request(doc: dict[str, Any]) -> Detected:
    method = doc["method"]
    if method == WEBHOOK_METHOD:
        params = doc.get("params")
        return Detected("webhook-jsonrpc", detect(params.get("result")).version if isinstance(params, dict) else None)
    if method in V0_METHOD_NAMES:
        return Detected("jsonrpc-request", "v1", method)
    if method in V1_METHOD_NAMES:
        return Detected("jsonrpc-request", "v0", V1_METHOD_NAMES[method])
    return Detected("jsonrpc-request")


def _detect_object(doc: dict[str, Any]) -> Detected:
    if member := stream_kind(doc):
        return Detected(_EVENT_KINDS[member], "v0" if "kind" in doc else "v1")
    d = fields(doc)
    wrapped = [m for m in _EVENT_KINDS if isinstance(d.get(m), dict)]
    if len(wrapped) == 1:
        return Detected("send-result" if wrapped[0] in ("task", "message") else "stream-response", "v1")
    if isinstance(d.get("tasks"), list):
        return Detected("task-list", "v1")
    if isinstance(d.get("configs"), list):
        return Detected("push-config-list", "v1")
    if "name" in d and any(k in d for k in ("supportedInterfaces", "url", "skills", "capabilities")):
        return Detected("agent-card", card_version(d))
    if "pushNotificationConfig" in d:
        return Detected("push-config", "v0")
    if "url" in d:
        return Detected("push-config", "v1")
    return Detected("unknown")


def translate_document(doc: Any, to: str, notes: Notes = None, *, method: str | None = None) -> Any:
    """Translate any detectable document to `to` ("v1" or "v0"). `method` (either version's
    name) picks the result translator of a JSON-RPC response instead of the result's shape."""
    if to not in ("v0", "v1"):
        raise ValueError(f"to must be 'v0' or 'v1', not {to!r}")
    if method is not None and V1_METHOD_NAMES.get(method, method) not in TRANSLATORS:
        raise ValueError(f"unknown A2A method {method!r}")
    core = to == "v1"
    found = detect(doc)
    if found.kind in _ENTITIES:
        return _ENTITIES[found.kind][0 if core else 1](doc, notes)
    if found.kind == "jsonrpc-request":
        return _request(doc, found.method, core, notes)
    if found.kind in ("jsonrpc-response", "jsonrpc-error"):
        return _response(doc, method and V1_METHOD_NAMES.get(method, method), core, notes)
    if found.kind == "webhook-jsonrpc" and isinstance(doc.get("params"), dict) and "result" in doc["params"]:
        stream = to_core_stream_response if core else to_compat_stream_response
        return doc | {"params": doc["params"] | {"result": stream(doc["params"]["result"], notes)}}
    note(notes, "document: not recognised as an A2A document; left unchanged")
    return doc


def _request(doc: dict[str, Any], method: str | None, core: bool, notes: Notes) -> dict[str, Any]:
    if method is None:
        note(notes, f"request: method {doc['method']!r} is not an A2A method; left unchanged")
        return doc
    out = doc | {"method": method if core else V0_METHOD_NAMES[method]}
    t = TRANSLATORS[method]
    if "params" in doc or (core and method == "GetExtendedAgentCard"):
        params = (t.params_to_core if core else t.params_to_compat)(doc.get("params"), notes)
        out.pop("params", None)
        if params is not None:
            out["params"] = params
    return out


def _response(doc: dict[str, Any], method: str | None, core: bool, notes: Notes) -> dict[str, Any]:
    out = dict(doc)
    if "error" in doc:
        out["error"] = (to_core_error if core else to_compat_error)(doc["error"], notes)
    if "result" not in doc or doc["result"] is None:
        return out
    if method is not None:
        t = TRANSLATORS[method]
        out["result"] = (t.result_to_core if core else t.result_to_compat)(doc["result"], notes)
        return out
    kind = detect(doc["result"]).kind
    if kind not in _ENTITIES:
        note(notes, "response: result shape not recognised; left unchanged")
        return out
    if core and kind == "task" and "kind" in doc["result"]:
        note(
            notes,
            "response: bare V0 task taken as a GetTask/CancelTask result (a SendMessage result would be {task}); pass the method to be sure",
        )
    if core and kind == "message":  # a message is only ever a send or stream result: {message}
        kind = "send-result"
    out["result"] = _ENTITIES[kind][0 if core else 1](doc["result"], notes)
    return out
