"""The parameters of the task and push-config methods, as core (V1) values, from typed arguments:
what `a2a tasks get|list|cancel` and `a2a push-config create|list` send, and `a2a mcp`'s tools the same."""

from __future__ import annotations

from typing import Any

from a2acli.errors import UsageError


def get_params(task_id: str, history_length: int | None = None) -> dict[str, Any]:
    """GetTask's: the task, and at most `history_length` history messages when given."""
    params: dict[str, Any] = {"id": task_id}
    if history_length is not None:
        params["historyLength"] = history_length
    return params


def cancel_params(task_id: str, metadata: str | None = None) -> dict[str, Any]:
    """CancelTask's: the task, and the request's metadata (a JSON object, @file or -) when given."""
    from a2acli.flows.inputs import read_object

    params: dict[str, Any] = {"id": task_id}
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

    params: dict[str, Any] = {}
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
    params: dict[str, Any] = {"taskId": task_id, "url": url}
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
    params: dict[str, Any] = {"taskId": task_id}
    if page_size is not None:
        params["pageSize"] = page_size
    if page_token:
        params["pageToken"] = page_token
    return params
