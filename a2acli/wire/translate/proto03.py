# The 0.3 HTTP+JSON (REST) binding. Its bodies are not the 0.3 JSON-RPC schema but the proto-JSON
# of the 0.3 gRPC proto (specification/grpc/a2a.proto @v0.3.0; a2a-sdk's compat copy adds
# Part.metadata, FilePart.name and AgentCard.iconUrl). Next to V1 ProtoJSON the gap is:
# - a message's parts are `content`; a status's message is `message` (field `update`, json_name);
#   the 0.3 Message has no `referenceTaskIds` (dropped, noted);
# - file parts nest as `file: {fileWithBytes | fileWithUri, mimeType, name}`; data parts as
#   `data: {data: <Struct>}`, so a non-object V1 value travels as {"value": X} with the metadata
#   flag the JSON-RPC translator uses; text and data parts have no mediaType/filename (dropped, noted);
# - a2a-sdk's 0.3 REST code (proto_utils ToProto/FromProto) puts the 0.3 JSON base64 *text* into
#   the proto bytes field, so on the wire `fileWithBytes` is base64 of that base64 text. We write
#   that (a single-encoded value makes an a2a-sdk server fail: "Incorrect padding"), and read either:
#   a value whose decoding is itself base64 text is taken as double-encoded. A spec-correct peer's file
#   whose bytes happen to be base64-alphabet ASCII (length a multiple of 4) would be misread.
# - roles and states are enum names like V1's, but canceled is TASK_STATE_CANCELLED (both read);
#   status updates carry the 0.3 `final` flag (written as "terminal state"; dropped toward V1, noted
#   when it disagrees with the state);
# - tasks and configs are named by resource names: `tasks/{id}`, `tasks/{id}/pushNotificationConfigs/{cid}`;
#   a push config is {name, pushNotificationConfig: {id, url, token, authentication: {schemes, credentials}}}
#   (V1 `scheme` <=> a one-element `schemes`; extra schemes dropped, noted);
# - send configuration: `pushNotification` (not ...Config) and `blocking`, which proto3 reads as false when
#   absent: it is always written (V1 returnImmediately false or absent => blocking true), and an absent one
#   reads as returnImmediately true. historyLength 0 (V1: no history) is the proto3 default, which 0.3 reads
#   as unset (a2a-sdk: full history, also from GetTask's query string): dropped, noted, both places.
# - no tenants anywhere (dropped, noted); CancelTask has no metadata (dropped, noted); 0.3 has no ListTasks
#   rpc: its request is {} (every parameter noted) and `GET /v1/tasks` answers an array or {"tasks": [...]};
# - the extended card is the 0.3 proto AgentCard: security schemes as oneof keys (V1 style) with `location`,
#   requirements as [{schemes: {name: {list}}}], one OAuth flow (others, deviceCode and pkceRequired dropped,
#   noted). a2a-sdk's `GET /v1/card` actually answers the 0.3 JSON-RPC card; `to_core_card` reads both.
# PROTO03_TRANSLATORS gives, per V1 method, the whole 0.3 request message (the REST binding splits it into
# path, body and query per the proto's google.api.http rules) and the 0.3 response message.
from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable
from typing import Any

from ._common import (
    Notes,
    compat_array,
    core_page,
    drop,
    drop_tenant,
    entity,
    fields,
    is_empty,
    json_type,
    map_list,
    map_value,
    note,
    omit_empty,
    rename,
)
from .card import to_compat_card, to_core_card
from .enums import is_terminal, to_core_role, to_core_task_state
from .push import to_compat_inner_push_config, to_core_inner_push_config, to_core_push_config
from .requests import MethodTranslators
from .tasks import stream_kind

_COMPAT_FLAG = "data_part_compat"  # the metadata flag of parts.py: data was a non-object V1 value
_NESTED = "pushNotificationConfig"
_CONFIGS = "pushNotificationConfigs"
_STRICT_B64 = re.compile(r"[A-Za-z0-9+/]+={0,2}")

# V1 method -> (0.3 proto request message, 0.3 proto response message); None: no such message.
PROTO03_MESSAGES: dict[str, tuple[str | None, str | None]] = {
    "SendMessage": ("SendMessageRequest", "SendMessageResponse"),
    "SendStreamingMessage": ("SendMessageRequest", "StreamResponse"),
    "GetTask": ("GetTaskRequest", "Task"),
    "ListTasks": (None, None),  # no rpc in 0.3; the answer is an array of Task
    "CancelTask": ("CancelTaskRequest", "Task"),
    "SubscribeToTask": ("TaskSubscriptionRequest", "StreamResponse"),
    "CreateTaskPushNotificationConfig": ("CreateTaskPushNotificationConfigRequest", "TaskPushNotificationConfig"),
    "GetTaskPushNotificationConfig": ("GetTaskPushNotificationConfigRequest", "TaskPushNotificationConfig"),
    "ListTaskPushNotificationConfigs": (
        "ListTaskPushNotificationConfigRequest",
        "ListTaskPushNotificationConfigResponse",
    ),
    "DeleteTaskPushNotificationConfig": ("DeleteTaskPushNotificationConfigRequest", "google.protobuf.Empty"),
    "GetExtendedAgentCard": ("GetAgentCardRequest", "AgentCard"),
}


# --- resource names ---------------------------------------------------------------------------


def task_name(task_id: str) -> str:
    """`tasks/{id}`."""
    return f"tasks/{task_id}"


def push_config_name(task_id: str, config_id: str) -> str:
    """`tasks/{id}/pushNotificationConfigs/{cid}` (an empty cid leaves the trailing slash, as a2a-sdk does)."""
    return f"tasks/{task_id}/{_CONFIGS}/{config_id}"


def parse_task_name(name: Any) -> str | None:
    """The task id of `tasks/{id}` (also of `tasks/{id}/pushNotificationConfigs[/{cid}]`); None otherwise."""
    m = re.fullmatch(rf"tasks/([^/]+)(?:/{_CONFIGS}(?:/[^/]*)?)?", name) if isinstance(name, str) else None
    return m[1] if m else None


def parse_push_config_name(name: Any) -> tuple[str, str] | None:
    """(task id, config id) of `tasks/{id}/pushNotificationConfigs/{cid}` (cid may be ""); None otherwise."""
    m = re.fullmatch(rf"tasks/([^/]+)/{_CONFIGS}/([^/]*)", name) if isinstance(name, str) else None
    return (m[1], m[2]) if m else None


def _task_id(name: Any, notes: Notes, what: str) -> str:
    """The task id a resource name names; a bare id (no slash) is taken as it is, with a note."""
    if (task_id := parse_task_name(name)) is not None:
        return task_id
    if isinstance(name, str) and name and "/" not in name:
        note(notes, f"{what}: {name!r} is not a resource name (tasks/{{id}}); taken as the task id")
        return name
    note(notes, f"{what}: {name!r} names no task (expected tasks/{{id}})")
    return "" if not isinstance(name, str) else name


# --- enums and bytes --------------------------------------------------------------------------


def to_proto03_task_state(state: Any, notes: Notes = None) -> Any:
    """Any spelling => the 0.3 proto name (TASK_STATE_CANCELLED with two Ls)."""
    core = to_core_task_state(state, notes)
    return "TASK_STATE_CANCELLED" if core == "TASK_STATE_CANCELED" else core


def _b64decode(text: Any) -> bytes | None:
    """Standard or URL-safe base64, padded or not (what ProtoJSON readers take); None if not base64."""
    if not isinstance(text, str):
        return None
    t = "".join(text.split()).replace("-", "+").replace("_", "/")
    try:
        return base64.b64decode(t + "=" * (-len(t) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None


def _sdk_bytes(raw: Any, notes: Notes) -> Any:
    """V1 `raw` (base64 of the file) => a2a-sdk's `fileWithBytes`: base64 of the base64 text."""
    data = _b64decode(raw)
    if data is None:
        note(notes, f"file part: raw is {json_type(raw) if not isinstance(raw, str) else 'not base64'}; left unchanged")
        return raw
    return base64.b64encode(base64.b64encode(data)).decode("ascii")


def _core_bytes(wire: Any, notes: Notes) -> Any:
    """`fileWithBytes` => V1 `raw`: undoes a2a-sdk's double encoding, or normalises a single one."""
    data = _b64decode(wire)
    if data is None:
        note(
            notes,
            f"file part: fileWithBytes is {json_type(wire) if not isinstance(wire, str) else 'not base64'}; left unchanged",
        )
        return wire
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        text = ""
    if len(text) % 4 == 0 and _STRICT_B64.fullmatch(text):
        return text  # a2a-sdk's form: the proto bytes hold the base64 text
    return base64.b64encode(data).decode("ascii")


# --- parts and messages -----------------------------------------------------------------------


@entity("part")
def to_proto03_part(part: dict[str, Any], notes: Notes) -> dict[str, Any]:
    """V1 Part (or a 0.3 JSON-RPC part) => 0.3 proto Part {text | file | data, metadata}."""
    if isinstance(part.get("file"), dict):  # 0.3 JSON-RPC `file: {bytes|uri, ...}` or already proto-JSON
        file = fields(part["file"])
        file = rename(rename(file, "bytes", "fileWithBytes"), "uri", "fileWithUri")
        if "fileWithBytes" in file and "bytes" in part["file"]:
            file["fileWithBytes"] = _sdk_bytes(file["fileWithBytes"], notes)
        return {**part, "file": file}
    if "raw" in part or "url" in part:
        out: dict[str, Any] = {}
        if "raw" in part:
            out["fileWithBytes"] = _sdk_bytes(part.pop("raw"), notes)
        if "url" in part:
            if out:
                note(notes, "part: both raw and url; url dropped (a part holds one content)")
                part.pop("url")
            else:
                out["fileWithUri"] = part.pop("url")
        for v1, v03 in (("mediaType", "mimeType"), ("filename", "name")):
            if not is_empty(value := part.pop(v1, None)):
                out[v03] = value
        return {"file": out, **part}
    if "text" in part:
        drop(part, ("mediaType", "filename"), notes, "text part", "0.3 proto text parts have neither")
        return part
    if "data" in part:
        drop(part, ("mediaType", "filename"), notes, "data part", "0.3 proto data parts have neither")
        data = part["data"]
        if not isinstance(data, dict):
            data = {"value": data}
            part["metadata"] = {**(part.get("metadata") or {}), _COMPAT_FLAG: True}
        part["data"] = {"data": data}
        return part
    note(notes, f"part: no text, raw, url, data or file content (keys {sorted(part)}); left unchanged")
    return part


@entity("part")
def from_proto03_part(part: dict[str, Any], notes: Notes) -> dict[str, Any]:
    """0.3 proto Part => V1 Part; the JSON-RPC `file.bytes/uri` spellings are read too."""
    if isinstance(part.get("file"), dict):
        file = fields(part.pop("file"))
        content: dict[str, Any] = {}
        if "fileWithBytes" in file:
            content["raw"] = _core_bytes(file.pop("fileWithBytes"), notes)
        elif "bytes" in file:  # 0.3 JSON-RPC spelling: already the base64 text
            content["raw"] = file.pop("bytes")
        if "fileWithUri" in file:
            content["url"] = file.pop("fileWithUri")
        elif "uri" in file:
            content["url"] = file.pop("uri")
        for v03, v1 in (("mimeType", "mediaType"), ("name", "filename")):
            if v03 in file:
                content[v1] = file.pop(v03)
        return {**content, **file, **part}  # unknown keys of `file` surface on the part
    if "data" in part:
        data = part["data"]
        if isinstance(data, dict) and set(data) == {"data"}:
            data = data["data"]  # DataPart {data: Struct}
        meta = part.get("metadata")
        if isinstance(meta, dict) and meta.get(_COMPAT_FLAG) is True:
            if isinstance(data, dict) and "value" in data:
                data = data["value"]
            meta = {k: v for k, v in meta.items() if k != _COMPAT_FLAG}
            part = {k: v for k, v in part.items() if k != "metadata"} | ({"metadata": meta} if meta else {})
        part["data"] = data
    return part


@entity("message")
def to_proto03_message(msg: dict[str, Any], notes: Notes) -> dict[str, Any]:
    """V1 Message => 0.3 proto Message (`content`, ROLE_*); referenceTaskIds dropped (noted)."""
    drop(msg, ("referenceTaskIds",), notes, "message", "the 0.3 proto Message has no such field")
    msg = rename(msg, "parts", "content")
    map_value(msg, "role", to_core_role, notes)
    map_list(msg, "content", to_proto03_part, notes)
    return omit_empty(msg, ("contextId", "taskId", "extensions"))


@entity("message")
def from_proto03_message(msg: dict[str, Any], notes: Notes) -> dict[str, Any]:
    """0.3 proto Message => V1 Message (`parts`)."""
    msg = rename(msg, "content", "parts")
    map_value(msg, "role", to_core_role, notes)
    map_list(msg, "parts", from_proto03_part, notes)
    return msg


# --- tasks and stream events ------------------------------------------------------------------


@entity("task status")
def to_proto03_task_status(status: dict[str, Any], notes: Notes) -> dict[str, Any]:
    status = rename(status, "update", "message")
    map_value(status, "state", to_proto03_task_state, notes)
    map_value(status, "message", to_proto03_message, notes)
    return omit_empty(status, ("timestamp",))


@entity("task status")
def from_proto03_task_status(status: dict[str, Any], notes: Notes) -> dict[str, Any]:
    status = rename(status, "update", "message")  # the proto field name, if a writer used it
    map_value(status, "state", to_core_task_state, notes)
    map_value(status, "message", from_proto03_message, notes)
    return status


@entity("artifact")
def to_proto03_artifact(artifact: dict[str, Any], notes: Notes) -> dict[str, Any]:
    map_list(artifact, "parts", to_proto03_part, notes)
    return omit_empty(artifact, ("name", "description", "extensions"))


@entity("artifact")
def from_proto03_artifact(artifact: dict[str, Any], notes: Notes) -> dict[str, Any]:
    map_list(artifact, "parts", from_proto03_part, notes)
    return artifact


@entity("task")
def to_proto03_task(task: dict[str, Any], notes: Notes) -> dict[str, Any]:
    map_value(task, "status", to_proto03_task_status, notes)
    map_list(task, "artifacts", to_proto03_artifact, notes)
    map_list(task, "history", to_proto03_message, notes)
    return omit_empty(task, ("artifacts", "history"))


@entity("task")
def from_proto03_task(task: dict[str, Any], notes: Notes) -> dict[str, Any]:
    map_value(task, "status", from_proto03_task_status, notes)
    map_list(task, "artifacts", from_proto03_artifact, notes)
    map_list(task, "history", from_proto03_message, notes)
    return task


def _state(event: dict[str, Any]) -> Any:
    return event["status"].get("state") if isinstance(event.get("status"), dict) else None


@entity("status update")
def to_proto03_status_update(event: dict[str, Any], notes: Notes) -> dict[str, Any]:
    """V1 TaskStatusUpdateEvent => 0.3 (with `final`: true iff the state is terminal, unless given)."""
    map_value(event, "status", to_proto03_task_status, notes)
    if not isinstance(event.get("final"), bool):
        event["final"] = is_terminal(_state(event))
    return event


@entity("status update")
def from_proto03_status_update(event: dict[str, Any], notes: Notes) -> dict[str, Any]:
    final = event.pop("final", None)
    map_value(event, "status", from_proto03_task_status, notes)
    if isinstance(final, bool) and final != is_terminal(_state(event)):
        note(
            notes,
            f"status update: final={str(final).lower()} on state {_state(event)} dropped (V1 has no final flag; only terminal states end a stream)",
        )
    return event


@entity("artifact update")
def to_proto03_artifact_update(event: dict[str, Any], notes: Notes) -> dict[str, Any]:
    map_value(event, "artifact", to_proto03_artifact, notes)
    return event


@entity("artifact update")
def from_proto03_artifact_update(event: dict[str, Any], notes: Notes) -> dict[str, Any]:
    map_value(event, "artifact", from_proto03_artifact, notes)
    return event


# StreamResponse / SendMessageResponse member -> (to 0.3, from 0.3). Same keys in V1 and the 0.3 proto
# (the 0.3 `msg` field has json_name "message").
_MEMBERS: dict[str, tuple[Callable[..., Any], Callable[..., Any]]] = {
    "task": (to_proto03_task, from_proto03_task),
    "message": (to_proto03_message, from_proto03_message),
    "statusUpdate": (to_proto03_status_update, from_proto03_status_update),
    "artifactUpdate": (to_proto03_artifact_update, from_proto03_artifact_update),
}


def _member(o: dict[str, Any]) -> str | None:
    """The member a bare event is (V0 `kind`, or by its keys, `content` counting as parts)."""
    if (kind := stream_kind(o)) is not None:
        return kind
    return "message" if "role" in o and "content" in o else None


def _event(obj: Any, notes: Notes, *, to_core: bool, what: str, members: tuple[str, ...]) -> Any:
    if not isinstance(obj, dict):
        note(notes, f"{what}: expected an object, got {json_type(obj)}; left unchanged")
        return obj
    o = rename(fields(obj), "msg", "message")  # the proto field name, if a writer used it
    found = [m for m in _MEMBERS if isinstance(o.get(m), dict)]
    member: str | None
    if len(found) == 1:
        member, payload, rest = found[0], o[found[0]], {k: v for k, v in o.items() if k != found[0]}
    else:
        member, payload, rest = _member(o), obj, {}
    if member is None:
        note(notes, f"{what}: not a {' / '.join(members)}; left unchanged")
        return obj
    if member not in members:
        note(notes, f"{what}: unexpected {member}; translated anyway")
    to_03, from_03 = _MEMBERS[member]
    return {member: (from_03 if to_core else to_03)(payload, notes), **rest}


def to_proto03_stream_response(obj: Any, notes: Notes = None) -> Any:
    """A V1 StreamResponse (or a bare V0/V1 event) => the 0.3 proto StreamResponse (same member keys)."""
    return _event(obj, notes, to_core=False, what="stream response", members=tuple(_MEMBERS))


def from_proto03_stream_response(obj: Any, notes: Notes = None) -> Any:
    """One 0.3 proto StreamResponse (an SSE `data:` of `message:stream` / `:subscribe`) => V1 StreamResponse."""
    return _event(obj, notes, to_core=True, what="stream response", members=tuple(_MEMBERS))


def to_proto03_send_result(obj: Any, notes: Notes = None) -> Any:
    """V1 {task}/{message} => 0.3 proto SendMessageResponse {task}/{message}."""
    return _event(obj, notes, to_core=False, what="send result", members=("task", "message"))


def from_proto03_send_result(obj: Any, notes: Notes = None) -> Any:
    """0.3 proto SendMessageResponse => V1 {task}/{message}."""
    return _event(obj, notes, to_core=True, what="send result", members=("task", "message"))


def to_proto03_task_list(obj: Any, notes: Notes = None) -> Any:
    """A V1 ListTasks page => an array of 0.3 proto Tasks (paging fields noted)."""
    return compat_array(obj, "tasks", to_proto03_task, notes, "task list")


def from_proto03_task_list(obj: Any, notes: Notes = None) -> Any:
    """An array or {"tasks": [...]} of 0.3 proto Tasks => a V1 page (nextPageToken "")."""
    return core_page(obj, "tasks", from_proto03_task, notes, "task list", {"tasks": [], "nextPageToken": ""})


# --- push-notification configs ----------------------------------------------------------------


@entity("push config")
def to_proto03_push_config(config: dict[str, Any], notes: Notes) -> dict[str, Any]:
    """V1 flat config (or a 0.3 JSON-RPC nested one) => 0.3 proto TaskPushNotificationConfig
    {name: tasks/{taskId}/pushNotificationConfigs/{id}, pushNotificationConfig: {id, url, token, authentication}}."""
    if "name" in config and isinstance(config.get(_NESTED), dict):  # already 0.3 proto
        return config | {_NESTED: to_compat_inner_push_config(config[_NESTED], notes)}
    flat = dict(to_core_push_config(config, notes))
    drop_tenant(flat, notes, "push config")
    task_id = flat.pop("taskId", "")
    inner = to_compat_inner_push_config(flat, notes)
    if not task_id:
        note(notes, "push config: no taskId; the 0.3 config has no resource name")
        return {_NESTED: inner}
    return {"name": push_config_name(task_id, inner.get("id", "")), _NESTED: inner}


@entity("push config")
def from_proto03_push_config(config: dict[str, Any], notes: Notes) -> dict[str, Any]:
    """0.3 proto TaskPushNotificationConfig => V1 flat {id, taskId, url, token, authentication}."""
    if not isinstance(config.get(_NESTED), dict) or "taskId" in config:  # V1 flat or 0.3 JSON-RPC nested
        return to_core_push_config(config, notes)
    inner = dict(to_core_inner_push_config(config.pop(_NESTED), notes))
    name = config.pop("name", None)
    parsed = parse_push_config_name(name)
    task_id, name_id = parsed if parsed else (parse_task_name(name) or "", "")
    if name is not None and parsed is None:
        note(notes, f"push config: name {name!r} is not tasks/{{id}}/{_CONFIGS}/{{config id}}")
    elif name is None:
        note(notes, "push config: no name; the task id is unknown")
    config_id = inner.pop("id", "") or name_id
    if name_id and config_id != name_id:
        note(notes, f"push config: name {name!r} names config {name_id!r} but its id is {config_id!r}; kept the id")
    head = ({"id": config_id} if config_id else {}) | ({"taskId": task_id} if task_id else {})
    return head | inner | config


def to_proto03_push_config_list(obj: Any, notes: Notes = None) -> Any:
    """A V1 page {configs, nextPageToken} => 0.3 ListTaskPushNotificationConfigResponse."""
    if isinstance(obj, list):
        obj = {"configs": obj}
    if not isinstance(obj, dict):
        note(notes, f"push config list: expected an array or an object, got {json_type(obj)}; left unchanged")
        return obj
    page = fields(obj)
    map_list(page, "configs", to_proto03_push_config, notes)
    return omit_empty(page, ("nextPageToken",))


def from_proto03_push_config_list(obj: Any, notes: Notes = None) -> Any:
    """0.3 {configs: [...], nextPageToken?} or a bare array => V1 {configs: [flat...], nextPageToken}."""
    return core_page(
        obj, "configs", from_proto03_push_config, notes, "push config list", {"configs": [], "nextPageToken": ""}
    )


# --- agent card -------------------------------------------------------------------------------

_SCHEME_KEYS = {  # 0.3 JSON `type` -> proto oneof key (the V1 keys too)
    "apiKey": "apiKeySecurityScheme",
    "http": "httpAuthSecurityScheme",
    "oauth2": "oauth2SecurityScheme",
    "openIdConnect": "openIdConnectSecurityScheme",
    "mutualTLS": "mtlsSecurityScheme",
}
_FLOWS = ("authorizationCode", "clientCredentials", "implicit", "password")


def _proto03_scheme(scheme: Any, notes: Notes) -> Any:
    if not isinstance(scheme, dict) or "type" not in scheme:
        return scheme
    if (key := _SCHEME_KEYS.get(scheme["type"])) is None:
        note(notes, f"security scheme: type {scheme['type']!r} not recognised; left unchanged")
        return scheme
    body = rename({k: v for k, v in scheme.items() if k != "type"}, "in", "location")
    if isinstance(body.get("flows"), dict):
        flows = fields(body["flows"])
        present = [f for f in _FLOWS if f in flows]
        if len(present) > 1:
            note(
                notes,
                f"oauth2 flows: {', '.join(present[1:])} dropped (the 0.3 proto holds one flow; kept {present[0]})",
            )
        body["flows"] = {k: v for k, v in flows.items() if k not in present[1:]}
    return {key: body}


def _proto03_requirements(obj: dict[str, Any]) -> dict[str, Any]:
    """`security` [{name: [scopes]}] => [{schemes: {name: {list: [scopes]}}}] (on the card and on skills)."""
    if isinstance(obj.get("security"), list):
        obj["security"] = [
            req
            if not isinstance(req, dict) or set(req) == {"schemes"}
            else {"schemes": {n: {"list": s} if isinstance(s, list) else s for n, s in req.items()}}
            for req in obj["security"]
        ]
    return obj


@entity("agent card")
def to_proto03_card(card: dict[str, Any], notes: Notes) -> dict[str, Any]:
    """A V1 (or 0.3 JSON) card => 0.3 proto AgentCard: the 0.3 JSON card's endpoint fields, with
    security schemes and requirements in their proto form."""
    card = to_compat_card(card, notes)
    if isinstance(card.get("capabilities"), dict):
        card["capabilities"] = caps = fields(card["capabilities"])
        drop(caps, ("stateTransitionHistory",), notes, "agent card", "the 0.3 proto has no such capability")
    if isinstance(card.get("securitySchemes"), dict):
        card["securitySchemes"] = {n: _proto03_scheme(s, notes) for n, s in card["securitySchemes"].items()}
    card = _proto03_requirements(card)
    if isinstance(card.get("skills"), list):
        card["skills"] = [_proto03_requirements(fields(s)) if isinstance(s, dict) else s for s in card["skills"]]
    return card


def from_proto03_card(card: Any, notes: Notes = None) -> Any:
    """0.3 proto AgentCard (or the 0.3 JSON card a2a-sdk's `GET /v1/card` answers) => V1 card."""
    return to_core_card(card, notes)


# --- method params ----------------------------------------------------------------------------


def _drop_zero_history(d: dict[str, Any], notes: Notes, what: str) -> None:
    """V1 historyLength 0 (no history) cannot travel: 0 is the proto3 default, which 0.3 reads as unset."""
    if d.get("historyLength") == 0 and type(d["historyLength"]) is int:
        del d["historyLength"]
        note(notes, f"{what}: historyLength 0 dropped (0.3 reads 0 as unset, not as no history)")


def _unset_zero_history(d: dict[str, Any]) -> None:
    if d.get("historyLength") == 0:
        del d["historyLength"]  # the proto3 default: unset


@entity("send configuration")
def _config_to_proto03(config: dict[str, Any], notes: Notes) -> dict[str, Any]:
    blocking = config.pop("blocking", None)  # a 0.3 input
    returns = config.pop("returnImmediately", None)
    if not isinstance(blocking, bool):
        blocking = not returns if isinstance(returns, bool) else True  # V1 default: wait
    for old in ("taskPushNotificationConfig", "pushNotificationConfig", "push_notification"):
        config = rename(config, old, "pushNotification")
    map_value(config, "pushNotification", to_compat_inner_push_config, notes)
    _drop_zero_history(config, notes, "send configuration")
    return config | {"blocking": blocking}


@entity("send configuration")
def _config_to_core(config: dict[str, Any], notes: Notes) -> dict[str, Any]:
    blocking = config.pop("blocking", False)  # proto3: absent is false
    for old in ("push_notification", "pushNotificationConfig"):
        config = rename(config, old, "pushNotification")
    config = rename(config, "pushNotification", "taskPushNotificationConfig")
    map_value(config, "taskPushNotificationConfig", to_core_inner_push_config, notes)
    _unset_zero_history(config)
    return config | {"returnImmediately": blocking is not True}


@entity("params")
def _send_to_proto03(params: dict[str, Any], notes: Notes) -> dict[str, Any]:
    """V1 SendMessageRequest => 0.3 SendMessageRequest {message (field `request`), configuration, metadata}."""
    drop_tenant(params, notes)
    params = rename(params, "request", "message")
    map_value(params, "message", to_proto03_message, notes)
    map_value(params, "configuration", _config_to_proto03, notes)
    return params


@entity("params")
def _send_to_core(params: dict[str, Any], notes: Notes) -> dict[str, Any]:
    params = rename(params, "request", "message")
    map_value(params, "message", from_proto03_message, notes)
    map_value(params, "configuration", _config_to_core, notes)
    return params


def _task_ref(method: str, extra: tuple[str, ...]) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """{id, <extra>} <=> {name: tasks/{id}, <extra>}; other V1 fields are dropped (noted)."""

    @entity("params")
    def to_proto03(params: dict[str, Any], notes: Notes) -> dict[str, Any]:
        drop_tenant(params, notes)
        if "id" not in params and "name" in params:  # already 0.3
            return params
        task_id = params.pop("id", "")
        kept = {k: params.pop(k) for k in extra if k in params}
        _drop_zero_history(kept, notes, "params")
        drop(params, ("metadata",), notes, "params", f"the 0.3 {method} has only {', '.join(('name', *extra))}")
        return {"name": task_name(task_id), **kept, **params}

    @entity("params")
    def to_core(params: dict[str, Any], notes: Notes) -> dict[str, Any]:
        if "name" not in params:  # already V1
            return params
        _unset_zero_history(params)
        return {"id": _task_id(params.pop("name"), notes, "params"), **params}

    return to_proto03, to_core


def _config_ref(method: str) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """{taskId, id} <=> {name: tasks/{taskId}/pushNotificationConfigs/{id}}."""

    @entity("params")
    def to_proto03(params: dict[str, Any], notes: Notes) -> dict[str, Any]:
        drop_tenant(params, notes)
        if "taskId" not in params:  # already 0.3
            return params
        task_id, config_id = params.pop("taskId"), params.pop("id", "")
        if not config_id:
            note(
                notes, f"{method}: no config id; the 0.3 resource name tasks/{{id}}/{_CONFIGS}/{{config id}} needs one"
            )
        return {"name": push_config_name(task_id, config_id), **params}

    @entity("params")
    def to_core(params: dict[str, Any], notes: Notes) -> dict[str, Any]:
        if "name" not in params:  # already V1
            return params
        name = params.pop("name")
        if (parsed := parse_push_config_name(name)) is None:
            note(notes, f"params: name {name!r} is not tasks/{{id}}/{_CONFIGS}/{{config id}}")
            return {"taskId": _task_id(name, None, "params"), **params}
        task_id, config_id = parsed
        return {"taskId": task_id, **({"id": config_id} if config_id else {}), **params}

    return to_proto03, to_core


@entity("params")
def _create_config_to_proto03(params: dict[str, Any], notes: Notes) -> dict[str, Any]:
    """V1 flat config => {parent: tasks/{taskId}, configId: id, config: TaskPushNotificationConfig}."""
    drop_tenant(params, notes)
    if "parent" in params or "config" in params:  # already 0.3
        return params
    config = to_proto03_push_config(params, notes)
    task_id = params.get("taskId", "")
    config_id = config[_NESTED].get("id", "") if isinstance(config.get(_NESTED), dict) else ""
    return {"parent": task_name(task_id), **({"configId": config_id} if config_id else {}), "config": config}


@entity("params")
def _create_config_to_core(params: dict[str, Any], notes: Notes) -> dict[str, Any]:
    params = rename(params, "config_id", "configId")
    if "parent" not in params and "config" not in params:  # already V1 (or 0.3 JSON-RPC)
        return to_core_push_config(params, notes)
    parent = params.pop("parent", None)
    config_id = params.pop("configId", "")
    config = params.pop("config", None)
    config = config if isinstance(config, dict) else {}
    if "name" not in config and parent is not None:  # name the config after the parent: no note for a missing name
        config = {"name": push_config_name(parse_task_name(parent) or "", ""), **config}
    flat = dict(from_proto03_push_config(config, notes))
    task_id = _task_id(parent, notes, "params") if parent is not None else flat.get("taskId", "")
    if flat.get("taskId") not in (None, "", task_id):
        note(notes, f"params: config names task {flat['taskId']!r} but parent is {parent!r}; kept the parent")
    inner_id = flat.pop("id", "")
    if config_id and inner_id and config_id != inner_id:
        note(
            notes,
            f"params: configId {config_id!r} differs from the config's id {inner_id!r}; kept the id (a2a-sdk reads only that)",
        )
    config_id = inner_id or config_id
    flat.pop("taskId", None)
    return {"taskId": task_id, **({"id": config_id} if config_id else {}), **flat, **params}


@entity("params")
def _list_configs_to_proto03(params: dict[str, Any], notes: Notes) -> dict[str, Any]:
    """{taskId, pageSize, pageToken} => {parent: tasks/{taskId}, pageSize, pageToken}."""
    drop_tenant(params, notes)
    if "taskId" not in params:  # already 0.3
        return params
    return {"parent": task_name(params.pop("taskId")), **params}


@entity("params")
def _list_configs_to_core(params: dict[str, Any], notes: Notes) -> dict[str, Any]:
    if "parent" not in params:
        return params
    return {"taskId": _task_id(params.pop("parent"), notes, "params"), **params}


@entity("params")
def _list_tasks_to_proto03(params: dict[str, Any], notes: Notes) -> dict[str, Any]:
    drop_tenant(params, notes)
    drop(params, list(params), notes, "ListTasks", "0.3 REST GET /v1/tasks takes no parameters")
    return {}


@entity("params")
def _list_tasks_to_core(params: dict[str, Any], notes: Notes) -> dict[str, Any]:
    return params


def _card_params_to_proto03(params: Any, notes: Notes = None) -> dict[str, Any]:
    """GetAgentCardRequest is empty."""
    if isinstance(params, dict):
        drop_tenant(dict(params), notes)
    return {}


def _card_params_to_core(params: Any, notes: Notes = None) -> Any:
    return dict(params) if isinstance(params, dict) else {}


def _empty(result: Any, notes: Notes = None) -> dict[str, Any]:
    """google.protobuf.Empty both ways, whatever came (null, {}, an empty body)."""
    return {}


_stream = (from_proto03_stream_response, to_proto03_stream_response)
_task = (from_proto03_task, to_proto03_task)
_config = (from_proto03_push_config, to_proto03_push_config)
_send = (_send_to_proto03, _send_to_core)

PROTO03_TRANSLATORS: dict[str, MethodTranslators] = {
    "SendMessage": MethodTranslators(*_send, from_proto03_send_result, to_proto03_send_result),
    "SendStreamingMessage": MethodTranslators(*_send, *_stream),
    "GetTask": MethodTranslators(*_task_ref("GetTaskRequest", ("historyLength",)), *_task),
    "ListTasks": MethodTranslators(
        _list_tasks_to_proto03, _list_tasks_to_core, from_proto03_task_list, to_proto03_task_list
    ),
    "CancelTask": MethodTranslators(*_task_ref("CancelTaskRequest", ()), *_task),
    "SubscribeToTask": MethodTranslators(*_task_ref("TaskSubscriptionRequest", ()), *_stream),
    "CreateTaskPushNotificationConfig": MethodTranslators(_create_config_to_proto03, _create_config_to_core, *_config),
    "GetTaskPushNotificationConfig": MethodTranslators(*_config_ref("GetTaskPushNotificationConfig"), *_config),
    "ListTaskPushNotificationConfigs": MethodTranslators(
        _list_configs_to_proto03, _list_configs_to_core, from_proto03_push_config_list, to_proto03_push_config_list
    ),
    "DeleteTaskPushNotificationConfig": MethodTranslators(
        *_config_ref("DeleteTaskPushNotificationConfig"), _empty, _empty
    ),
    "GetExtendedAgentCard": MethodTranslators(
        _card_params_to_proto03, _card_params_to_core, from_proto03_card, to_proto03_card
    ),
}
