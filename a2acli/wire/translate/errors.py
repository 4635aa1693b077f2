# JSON-RPC errors. Codes and messages are the same in both versions (-32007 was renamed). V1
# `data` is an array of typed details (google.rpc.ErrorInfo with a reason, a domain and string
# metadata); V0 `data` is free-form. Toward V1 an object is wrapped in an ErrorInfo, toward V0
# the ErrorInfo metadata becomes `data` and the other details are lost.
from __future__ import annotations

import json
import re
from typing import Any, TypeGuard

from ._common import Notes, entity, note

# code -> (V1 name, V0 name); None: no such error in V0
A2A_ERRORS: dict[int, tuple[str, str | None]] = {
    -32700: ("JSONParseError", "JSONParseError"),
    -32600: ("InvalidRequestError", "InvalidRequestError"),
    -32601: ("MethodNotFoundError", "MethodNotFoundError"),
    -32602: ("InvalidParamsError", "InvalidParamsError"),
    -32603: ("InternalError", "InternalError"),
    -32001: ("TaskNotFoundError", "TaskNotFoundError"),
    -32002: ("TaskNotCancelableError", "TaskNotCancelableError"),
    -32003: ("PushNotificationNotSupportedError", "PushNotificationNotSupportedError"),
    -32004: ("UnsupportedOperationError", "UnsupportedOperationError"),
    -32005: ("ContentTypeNotSupportedError", "ContentTypeNotSupportedError"),
    -32006: ("InvalidAgentResponseError", "InvalidAgentResponseError"),
    -32007: ("ExtendedAgentCardNotConfiguredError", "AuthenticatedExtendedCardNotConfiguredError"),
    -32008: ("ExtensionSupportRequiredError", None),
    -32009: ("VersionNotSupportedError", None),
}
ERROR_INFO_TYPE = "type.googleapis.com/google.rpc.ErrorInfo"
ERROR_DOMAIN = "a2a-protocol.org"


def error_name(code: Any, version: str = "v1") -> str | None:
    names = A2A_ERRORS.get(code) if isinstance(code, int) else None
    return names[version == "v0"] if names else None


def error_reason(code: Any) -> str:
    """The ErrorInfo reason: TaskNotFoundError => TASK_NOT_FOUND; UNKNOWN for other codes."""
    name = error_name(code)
    if name is None:
        return "UNKNOWN"
    words = re.sub(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name.removesuffix("Error"))
    return words.upper()


def _is_details(data: Any) -> TypeGuard[list[dict[str, Any]]]:
    return isinstance(data, list) and all(isinstance(d, dict) and "@type" in d for d in data)


def _string(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))


@entity("error")
def to_core_error(err: dict[str, Any], notes: Notes) -> dict[str, Any]:
    data = err.get("data")
    if data is None or _is_details(data):
        return err
    metadata = {k: _string(v) for k, v in data.items()} if isinstance(data, dict) else {"data": _string(data)}
    err["data"] = [
        {
            "@type": ERROR_INFO_TYPE,
            "reason": error_reason(err.get("code")),
            "domain": ERROR_DOMAIN,
            "metadata": metadata,
        }
    ]
    note(notes, "error: V0 free-form data wrapped in a google.rpc.ErrorInfo (metadata values are strings)")
    return err


@entity("error")
def to_compat_error(err: dict[str, Any], notes: Notes) -> dict[str, Any]:
    data = err.get("data")
    if not _is_details(data):
        return err
    info = next(
        (d for d in data if str(d["@type"]).endswith("google.rpc.ErrorInfo") and isinstance(d.get("metadata"), dict)),
        None,
    )
    if lost := [d["@type"] for d in data if d is not info]:
        note(notes, f"error: details {', '.join(lost)} dropped (V0 error data is free-form)")
    if info and info["metadata"]:
        err["data"] = info["metadata"]
    else:
        del err["data"]
    return err
