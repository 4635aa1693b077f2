# Push-notification configs. V1 TaskPushNotificationConfig is flat {id, taskId, url, token,
# authentication, tenant}; V0 nests the endpoint: {taskId, pushNotificationConfig: {id, url,
# token, authentication}}. V1 authentication names one `scheme`, V0 a `schemes` list (only the
# first survives toward V1). The send configuration carries just the inner part (the "inner"
# helpers). V1 lists configs in a page {configs, nextPageToken}; V0 returns a bare array.
from __future__ import annotations

from typing import Any

from ._common import (
    Notes,
    compat_array,
    core_page,
    drop,
    drop_tenant,
    entity,
    fields,
    map_value,
    note,
)

_NESTED = "pushNotificationConfig"


@entity("push authentication")
def _core_auth(auth: dict[str, Any], notes: Notes) -> dict[str, Any]:
    if "schemes" not in auth:
        return auth
    schemes = auth.pop("schemes")
    schemes = schemes if isinstance(schemes, list) else [schemes]
    if len(schemes) > 1:
        note(notes, f"push authentication: schemes {schemes[1:]} dropped (V1 takes one scheme)")
    return ({"scheme": schemes[0]} if schemes else {}) | auth


@entity("push authentication")
def _compat_auth(auth: dict[str, Any], notes: Notes) -> dict[str, Any]:
    if "schemes" in auth:
        return auth
    scheme = auth.pop("scheme", "")
    return {"schemes": [scheme] if scheme else []} | auth


@entity("push config")
def to_core_inner_push_config(config: dict[str, Any], notes: Notes) -> dict[str, Any]:
    """V0 PushNotificationConfig {id, url, token, authentication} => V1 flat config fields."""
    map_value(config, "authentication", _core_auth, notes)
    return config


@entity("push config")
def to_compat_inner_push_config(config: dict[str, Any], notes: Notes) -> dict[str, Any]:
    """V1 flat config => V0 PushNotificationConfig (the inner object: no taskId, no tenant)."""
    drop_tenant(config, notes, "push config")
    drop(config, ("taskId",), notes, "push config", "the inner V0 config has no task id")
    map_value(config, "authentication", _compat_auth, notes)
    return config


@entity("push config")
def to_core_push_config(config: dict[str, Any], notes: Notes) -> dict[str, Any]:
    """V0 {taskId, pushNotificationConfig:{…}} (or V1 flat) => V1 flat TaskPushNotificationConfig."""
    if isinstance(config.get(_NESTED), dict):
        inner = fields(config.pop(_NESTED))
        head = {"id": inner.pop("id")} if "id" in inner else {}
        config = head | {k: config.pop(k) for k in ("taskId",) if k in config} | inner | config
    return to_core_inner_push_config(config, notes)


@entity("push config")
def to_compat_push_config(config: dict[str, Any], notes: Notes) -> dict[str, Any]:
    """V1 flat config (or V0 nested) => V0 {taskId, pushNotificationConfig: {…}}."""
    if isinstance(config.get(_NESTED), dict):  # already V0
        return config | {_NESTED: to_compat_inner_push_config(config[_NESTED], notes)}
    task_id = config.pop("taskId", "")
    return {"taskId": task_id, _NESTED: to_compat_inner_push_config(config, notes)}


def to_core_push_config_list(obj: Any, notes: Notes = None) -> Any:
    """A V0 array of nested configs (or a V1 page) => V1 {configs: [flat…], …}."""
    return core_page(obj, "configs", to_core_push_config, notes, "push config list", {})


def to_compat_push_config_list(obj: Any, notes: Notes = None) -> Any:
    """A V1 page {configs, nextPageToken} => the V0 array of nested configs."""
    return compat_array(obj, "configs", to_compat_push_config, notes, "push config list")
