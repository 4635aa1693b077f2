"""The parameters of the task and push-config methods, as core (V1) values, from typed arguments:
what `a2a tasks get|list|cancel` and `a2a push-config create|list` send, and `a2a mcp`'s tools the same.
Each value is checked here as the command line checks its flag (settings.values: an id not blank, a
page size from 1 to 100, a webhook URL http(s) with a host, a timestamp RFC 3339): a face without a
command-line parser (`a2a mcp`) gets the same usage errors, before anything is sent."""

from __future__ import annotations

from typing import Any

from a2acli.errors import UsageError
from a2acli.settings.values import check_id


def task_params(task_id: str) -> dict[str, Any]:
    """The task a method names (CancelTask, SubscribeToTask): {"id": task_id}, the id not blank."""
    return {"id": check_id(task_id, "TASK_ID")}


def push_config_ref(task_id: str, config_id: str) -> dict[str, Any]:
    """One push config (GetTaskPushNotificationConfig, DeleteTaskPushNotificationConfig)."""
    return {"taskId": check_id(task_id, "TASK_ID"), "id": check_id(config_id, "CONFIG_ID")}


def get_params(task_id: str, history_length: int | None = None) -> dict[str, Any]:
    """GetTask's: the task, and at most `history_length` history messages when given."""
    params: dict[str, Any] = task_params(task_id)
    if history_length is not None:
        params["historyLength"] = history_length
    return params


def cancel_params(task_id: str, metadata: str | None = None) -> dict[str, Any]:
    """CancelTask's: the task, and the request's metadata (a JSON object, @file or -) when given."""
    from a2acli.flows.inputs import read_object

    params: dict[str, Any] = task_params(task_id)
    meta = read_object(metadata, "--metadata")
    if meta:
        params["metadata"] = meta
    return params


def list_params(
    *,
    status: str | None = None,
    context_id: str | None = None,
    page_size: int | None = None,
    page_token: str | None = None,
    history_length: int | None = None,
    status_timestamp_after: str | None = None,
    include_artifacts: bool = False,
) -> dict[str, Any]:
    """ListTasks' filters: only those given; `status` is one state (`working`, TASK_STATE_WORKING…)."""
    from a2acli.pipeline.policies import parse_states
    from a2acli.settings.values import check_page_size, check_timestamp

    params: dict[str, Any] = {}
    if context_id is not None:
        check_id(context_id, "--context-id")
    if page_size is not None:
        page_size = check_page_size(str(page_size))
    if status_timestamp_after is not None:
        status_timestamp_after = check_timestamp(status_timestamp_after, "--status-timestamp-after")
    if status:
        states = sorted(parse_states(status) or ())
        if len(states) != 1:
            raise UsageError(
                f"--status takes one state, not {status!r}",
                hint="ListTasks filters on a single state, e.g. --status working",
            )
        params["status"] = states[0]
    for name, value in (
        ("contextId", context_id),
        ("pageSize", page_size),
        ("pageToken", page_token),
        ("historyLength", history_length),
        ("statusTimestampAfter", status_timestamp_after),
    ):
        if value is not None:
            params[name] = value
    if include_artifacts:
        params["includeArtifacts"] = True
    return params


def push_config_params(
    task_id: str,
    url: str,
    *,
    config_id: str | None = None,
    token: str | None = None,
    auth_scheme: str | None = None,
    auth_credentials: str | None = None,
) -> dict[str, Any]:
    """CreateTaskPushNotificationConfig's: the task, the webhook URL, and what was given of the
    config's id, token and authentication."""
    from a2acli.settings.values import check_push_url

    params: dict[str, Any] = {"taskId": check_id(task_id, "TASK_ID"), "url": check_push_url(url, "--webhook-url")}
    if config_id is not None:
        check_id(config_id, "--config-id")
    if config_id:
        params["id"] = config_id
    if token:
        params["token"] = token
    if auth_scheme or auth_credentials:
        params["authentication"] = {"scheme": auth_scheme or "Bearer"} | (
            {"credentials": auth_credentials} if auth_credentials else {}
        )
    return params


def push_list_params(task_id: str, page_size: int | None = None, page_token: str | None = None) -> dict[str, Any]:
    """ListTaskPushNotificationConfigs': the task, and the page asked for (V1 only)."""
    params: dict[str, Any] = {"taskId": check_id(task_id, "TASK_ID")}
    if page_size is not None:
        params["pageSize"] = page_size
    if page_token:
        params["pageToken"] = page_token
    return params
