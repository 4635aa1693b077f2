# Helpers every translator uses. The gap they cover is common to all entities: V1 ProtoJSON
# readers also take snake_case keys and V0 puts a `kind` on most objects, so each translator
# starts from a shallow copy with camelCase protocol keys and no `kind`, then maps known
# fields and passes unknown ones through untouched.
from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

Notes = list[str] | None
T = TypeVar("T")

# Every protocol field name either version uses (camelCase). A snake_case key is renamed only
# when its camelCase form is listed here, so vendor keys such as `x_trace` pass through as is.
FIELDS = frozenset(
    """
    id contextId taskId messageId role parts metadata extensions referenceTaskIds
    text raw url data file mediaType filename bytes uri mimeType name fileWithBytes fileWithUri
    status state message timestamp artifacts history artifactId description artifact
    append lastChunk final task statusUpdate artifactUpdate
    configuration acceptedOutputModes historyLength returnImmediately blocking
    taskPushNotificationConfig pushNotificationConfig pushNotificationConfigId tenant
    token authentication scheme schemes credentials
    pageSize pageToken nextPageToken totalSize tasks configs statusTimestampAfter
    includeArtifacts limit offset
    supportedInterfaces protocolBinding protocolVersion preferredTransport additionalInterfaces
    transport capabilities streaming pushNotifications extendedAgentCard stateTransitionHistory
    supportsAuthenticatedExtendedCard securitySchemes securityRequirements security
    defaultInputModes defaultOutputModes skills documentationUrl iconUrl provider organization
    signatures version tags examples inputModes outputModes required params uri
    apiKeySecurityScheme httpAuthSecurityScheme oauth2SecurityScheme
    openIdConnectSecurityScheme mtlsSecurityScheme location bearerFormat flows
    oauth2MetadataUrl openIdConnectUrl authorizationUrl tokenUrl refreshUrl scopes
    pkceRequired deviceAuthorizationUrl authorizationCode clientCredentials deviceCode
    implicit password
    """.split()
)


def note(notes: Notes, message: str) -> None:
    if notes is not None:
        notes.append(message)


def camel(key: str) -> str:
    head, *rest = key.split("_")
    return head + "".join(word[:1].upper() + word[1:] for word in rest)


def fields(obj: dict[str, Any]) -> dict[str, Any]:
    """Shallow copy with snake_case spellings of protocol fields renamed to camelCase."""
    if "_" not in "".join(k for k in obj if isinstance(k, str)):  # the usual case: no snake_case key at all
        return dict(obj)
    out: dict[str, Any] = {}
    for key, value in obj.items():
        if "_" in key and (c := camel(key)) in FIELDS and c not in obj:
            key = c
        out[key] = value
    return out


def json_type(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    return "null" if value is None else names.get(type(value), "a number")


def entity(what: str):
    """Decorate `fn(copy, notes)`: non-objects come back unchanged with a note; objects arrive as
    a fresh `fields()` copy without `kind`, which fn may modify."""

    def decorate(fn: Callable[[dict[str, Any], Notes], T]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def wrapper(obj: Any, notes: Notes = None) -> Any:
            if not isinstance(obj, dict):
                note(notes, f"{what}: expected an object, got {json_type(obj)}; left unchanged")
                return obj
            copy = fields(obj)
            copy.pop("kind", None)
            return fn(copy, notes)

        return wrapper

    return decorate


def map_value(d: dict[str, Any], key: str, fn: Callable[[Any, Notes], Any], notes: Notes) -> None:
    if d.get(key) is not None:
        d[key] = fn(d[key], notes)


def map_list(d: dict[str, Any], key: str, fn: Callable[[Any, Notes], Any], notes: Notes) -> None:
    if isinstance(d.get(key), list):
        d[key] = [fn(item, notes) for item in d[key]]


def is_empty(value: Any) -> bool:
    """A proto3 default: absent from ProtoJSON output and carrying no information."""
    return value is None or value is False or value in ("", [], {}) or (type(value) is int and value == 0)


def omit_empty(d: dict[str, Any], keys: Iterable[str]) -> dict[str, Any]:
    keys = set(keys)
    return {k: v for k, v in d.items() if not (k in keys and is_empty(v))}


def rename(d: dict[str, Any], old: str, new: str, fn: Callable[[Any], Any] | None = None) -> dict[str, Any]:
    """Copy of d with key `old` renamed to `new` in place (value passed through fn if given)."""
    if old not in d:
        return d
    return {(new if k == old else k): (fn(v) if fn and k == old else v) for k, v in d.items() if k != new}


def drop(d: dict[str, Any], keys: Iterable[str], notes: Notes, what: str, why: str) -> None:
    """Remove keys; note each one that carried a value: "<what>: <key> 'v' dropped (<why>)"."""
    for key in keys:
        if key in d and not is_empty(value := d.pop(key)):
            shown = f" {value!r}" if isinstance(value, (str, int, float)) and value is not True else ""
            note(notes, f"{what}: {key}{shown} dropped ({why})")


def drop_tenant(d: dict[str, Any], notes: Notes, what: str = "params") -> None:
    drop(d, ("tenant",), notes, what, "V0 has no tenants")


def with_kind(kind: str, d: dict[str, Any]) -> dict[str, Any]:
    return {"kind": kind, **{k: v for k, v in d.items() if k != "kind"}}


def core_page(
    obj: Any, key: str, item: Callable[[Any, Notes], Any], notes: Notes, what: str, defaults: dict[str, Any]
) -> Any:
    """A V1 page `{key: [...], ...}` from that page or from a bare V0 array of items."""
    if isinstance(obj, list):
        obj = {key: obj}
    if not isinstance(obj, dict):
        note(notes, f"{what}: expected an array or an object, got {json_type(obj)}; left unchanged")
        return obj
    page = fields(obj)
    map_list(page, key, item, notes)
    return page | {k: v for k, v in defaults.items() if k not in page}


def compat_array(obj: Any, key: str, item: Callable[[Any, Notes], Any], notes: Notes, what: str) -> Any:
    """A bare V0 array from a V1 page `{key: [...], ...}` (paging fields noted) or from an array."""
    if isinstance(obj, dict):
        page = fields(obj)
        obj = page.pop(key, [])
        drop(page, list(page), notes, what, "a V0 list is a bare array")
    if not isinstance(obj, list):
        note(notes, f"{what}: expected an array or an object, got {json_type(obj)}; left unchanged")
        return obj
    return [item(x, notes) for x in obj]
