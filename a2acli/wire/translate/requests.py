# Method level: names, params and results of the 11 JSON-RPC methods. V1 methods are PascalCase
# with ProtoJSON params; V0 methods are `category/action`. Param shapes mostly match: send
# configuration inverts `returnImmediately` into `blocking` and nests the push config; push-config
# methods call the task `taskId` in V1 but `id` in V0 (the config is `id` in V1,
# `pushNotificationConfigId` in V0); V0 has no tenants and no params for the extended card.
# ListTasks has no official V0 form: toward V0 it speaks the Clix dialect (`tasks/list` with
# limit/offset, answered by a bare array).
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from ._common import Notes, drop, drop_tenant, entity, map_value, note, rename
from .card import to_compat_card, to_core_card
from .enums import to_compat_task_state, to_core_task_state
from .messages import to_compat_message, to_core_message
from .push import (
    to_compat_inner_push_config,
    to_compat_push_config,
    to_compat_push_config_list,
    to_core_inner_push_config,
    to_core_push_config,
    to_core_push_config_list,
)
from .tasks import (
    to_compat_send_result,
    to_compat_stream_response,
    to_compat_task,
    to_compat_task_list,
    to_core_send_result,
    to_core_stream_response,
    to_core_task,
    to_core_task_list,
)

# Derived from the one method table (wire/methods.py), never spelt again here.

Translator = Callable[[Any, Notes], Any]


class MethodTranslators(NamedTuple):
    params_to_compat: Translator  # V1 params => V0 params (None: send no `params` key)
    params_to_core: Translator  # V0 params => V1 params
    result_to_core: Translator  # V0 result => V1 result
    result_to_compat: Translator  # V1 result => V0 result


# --- SendMessage / SendStreamingMessage ------------------------------------------------------


@entity("send configuration")
def _config_to_compat(config: dict[str, Any], notes: Notes) -> dict[str, Any]:
    if isinstance(config.get("returnImmediately"), bool):
        config = rename(config, "returnImmediately", "blocking", lambda ri: not ri)
    config = rename(config, "taskPushNotificationConfig", "pushNotificationConfig")
    map_value(config, "pushNotificationConfig", to_compat_inner_push_config, notes)
    return config


@entity("send configuration")
def _config_to_core(config: dict[str, Any], notes: Notes) -> dict[str, Any]:
    if isinstance(config.get("blocking"), bool):
        config = rename(config, "blocking", "returnImmediately", lambda blocking: not blocking)
    config = rename(config, "pushNotificationConfig", "taskPushNotificationConfig")
    map_value(config, "taskPushNotificationConfig", to_core_inner_push_config, notes)
    return config


@entity("params")
def _send_to_compat(params: dict[str, Any], notes: Notes) -> dict[str, Any]:
    drop_tenant(params, notes)
    map_value(params, "message", to_compat_message, notes)
    map_value(params, "configuration", _config_to_compat, notes)
    return params


@entity("params")
def _send_to_core(params: dict[str, Any], notes: Notes) -> dict[str, Any]:
    map_value(params, "message", to_core_message, notes)
    map_value(params, "configuration", _config_to_core, notes)
    return params


# --- task id params: GetTask, CancelTask, SubscribeToTask ------------------------------------


def _task_params(v0_only: tuple[str, ...]) -> tuple[Translator, Translator]:
    """Same names both ways; V0-only keys (`metadata` on get/resubscribe) are dropped toward V1."""

    @entity("params")
    def to_compat(params: dict[str, Any], notes: Notes) -> dict[str, Any]:
        drop_tenant(params, notes)
        return params

    @entity("params")
    def to_core(params: dict[str, Any], notes: Notes) -> dict[str, Any]:
        drop(params, v0_only, notes, "params", "the V1 request has no such field")
        return params

    return to_compat, to_core


# --- ListTasks (Clix dialect toward V0) ------------------------------------------------------


@entity("params")
def _list_tasks_to_compat(params: dict[str, Any], notes: Notes) -> dict[str, Any]:
    drop_tenant(params, notes)
    drop(
        params,
        ("historyLength", "statusTimestampAfter", "includeArtifacts"),
        notes,
        "ListTasks",
        "tasks/list takes only contextId, status, limit and offset",
    )
    params = rename(params, "pageSize", "limit")
    token = params.pop("pageToken", "")
    if isinstance(token, str) and token.isdigit():
        params["offset"] = int(token)
    elif token:
        note(notes, f"ListTasks: pageToken {token!r} dropped (tasks/list needs a decimal offset)")
    map_value(params, "status", to_compat_task_state, notes)
    return params


@entity("params")
def _list_tasks_to_core(params: dict[str, Any], notes: Notes) -> dict[str, Any]:
    params = rename(params, "limit", "pageSize")
    params = rename(params, "offset", "pageToken", str)
    map_value(params, "status", to_core_task_state, notes)
    return params


# --- push-config params ----------------------------------------------------------------------


@entity("params")
def _config_ref_to_compat(params: dict[str, Any], notes: Notes) -> dict[str, Any]:
    """V1 {taskId, id} => V0 {id: taskId, pushNotificationConfigId: id}; an empty id is left out."""
    drop_tenant(params, notes)
    if "taskId" not in params:  # already V0
        return params
    ref = {"id": params.pop("taskId")}
    if config_id := params.pop("id", ""):
        ref["pushNotificationConfigId"] = config_id
    return ref | params


@entity("params")
def _config_ref_to_core(params: dict[str, Any], notes: Notes) -> dict[str, Any]:
    if "taskId" in params:  # already V1
        return params
    drop(params, ("metadata",), notes, "params", "the V1 request has no such field")
    params = rename(params, "id", "taskId")
    return rename(params, "pushNotificationConfigId", "id")


@entity("params")
def _config_list_to_compat(params: dict[str, Any], notes: Notes) -> dict[str, Any]:
    drop(params, ("pageSize", "pageToken"), notes, "ListTaskPushNotificationConfigs", "V0 lists every config at once")
    return _config_ref_to_compat(params, notes)


# --- no payload: extended-card params, delete result -----------------------------------------


def _card_params_to_compat(params: Any, notes: Notes = None) -> None:
    """V0 agent/getAuthenticatedExtendedCard takes no params: None means "omit the key"."""
    if isinstance(params, dict):
        drop_tenant(dict(params), notes)
    return None


def _card_params_to_core(params: Any, notes: Notes = None) -> Any:
    return dict(params) if isinstance(params, dict) else {}


def _delete_result_to_core(result: Any, notes: Notes = None) -> Any:
    """null stays null and {} (ProtoJSON Empty) stays {}."""
    return dict(result) if isinstance(result, dict) else result


def _delete_result_to_compat(result: Any, notes: Notes = None) -> None:
    return None


_send = (_send_to_compat, _send_to_core)
_get_task = _task_params(v0_only=("metadata",))
_cancel_task = _task_params(v0_only=())
_config_ref = (_config_ref_to_compat, _config_ref_to_core)
_task_result = (to_core_task, to_compat_task)
_stream = (to_core_stream_response, to_compat_stream_response)
_config_result = (to_core_push_config, to_compat_push_config)

TRANSLATORS: dict[str, MethodTranslators] = {
    "SendMessage": MethodTranslators(*_send, to_core_send_result, to_compat_send_result),
    "SendStreamingMessage": MethodTranslators(*_send, *_stream),
    "GetTask": MethodTranslators(*_get_task, *_task_result),
    "ListTasks": MethodTranslators(_list_tasks_to_compat, _list_tasks_to_core, to_core_task_list, to_compat_task_list),
    "CancelTask": MethodTranslators(*_cancel_task, *_task_result),
    "SubscribeToTask": MethodTranslators(*_get_task, *_stream),
    "CreateTaskPushNotificationConfig": MethodTranslators(to_compat_push_config, to_core_push_config, *_config_result),
    "GetTaskPushNotificationConfig": MethodTranslators(*_config_ref, *_config_result),
    "ListTaskPushNotificationConfigs": MethodTranslators(
        _config_list_to_compat, _config_ref_to_core, to_core_push_config_list, to_compat_push_config_list
    ),
    "DeleteTaskPushNotificationConfig": MethodTranslators(
        *_config_ref, _delete_result_to_core, _delete_result_to_compat
    ),
    "GetExtendedAgentCard": MethodTranslators(
        _card_params_to_compat, _card_params_to_core, to_core_card, to_compat_card
    ),
}
