"""The parameters of the task and push-config methods, as core (V1) values, from typed arguments:
what `a2a tasks list` and `a2a push-config create` send, and `a2a mcp`'s tools the same."""

from __future__ import annotations

from typing import Any

from a2acli.errors import UsageError


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
