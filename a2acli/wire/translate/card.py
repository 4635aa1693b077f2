# Agent cards. V1 lists endpoints in `supportedInterfaces` [{url, protocolBinding,
# protocolVersion, tenant}]; V0 has one `url` + `preferredTransport` + card-level
# `protocolVersion`, extras in `additionalInterfaces` [{url, transport}]. The extended-card flag
# moved from V0 `supportsAuthenticatedExtendedCard` into V1 `capabilities.extendedAgentCard`.
# Security schemes: V1 names the scheme by its oneof key ({"apiKeySecurityScheme": {location}}),
# V0 by `type` ({"type": "apiKey", "in"}); cards built from @a2a-js/sdk 1.x objects carry its internal
# {"scheme": {"$case": KEY, "value": {...}}}, read as {KEY: {...}}; requirements are V1 `securityRequirements`
# [{schemes: {name: {list: [...]}}}] vs V0 `security` [{name: [...]}], on the card and skills.
# V1 OAuth flows hold exactly one flow (plus deviceCode, pkceRequired); V0 may hold several.
from __future__ import annotations

import re
from typing import Any

from ._common import Notes, drop, drop_tenant, entity, fields, map_list, map_value, note, rename

V0_PROTOCOL_VERSION = "0.3"
_V0_ENDPOINT = ("protocolVersion", "url", "preferredTransport", "additionalInterfaces")
_ENDPOINT = ("supportedInterfaces", *_V0_ENDPOINT)
_V0_ONLY = ("preferredTransport", "additionalInterfaces", "supportsAuthenticatedExtendedCard")
_SCHEME_TYPES = {  # V1 oneof key -> V0 type
    "apiKeySecurityScheme": "apiKey",
    "httpAuthSecurityScheme": "http",
    "oauth2SecurityScheme": "oauth2",
    "openIdConnectSecurityScheme": "openIdConnect",
    "mtlsSecurityScheme": "mutualTLS",
}
_SCHEME_KEYS = {v0: v1 for v1, v0 in _SCHEME_TYPES.items()}
_FLOWS = ("authorizationCode", "clientCredentials", "implicit", "password", "deviceCode")  # a2a-js pick order
_API_KEY_LOCATIONS = ("query", "header", "cookie")


def _version(v: Any) -> tuple[int, int] | None:
    m = re.match(r"\s*(\d+)(?:\.(\d+))?", v) if isinstance(v, str) else None
    return (int(m[1]), int(m[2] or 0)) if m else None


def _is_legacy(version: Any) -> bool:
    """Major.Minor in [0.1, 1.0): 0.3, and the 0.1/0.2 cards of older agents (the V0 wire too)."""
    v = _version(version)
    return v is not None and (0, 1) <= v < (1, 0)


def card_version(card: Any) -> str:
    """ "v0" or "v1" by the a2a-js resolver rule; a hybrid card (V0 fields + supportedInterfaces) is v1."""
    if not isinstance(card, dict):
        return "v1"
    c = fields(card)
    if isinstance(c.get("supportedInterfaces"), list) and c["supportedInterfaces"]:
        return "v1"
    if isinstance(c.get("url"), str) and "supportedInterfaces" not in c:
        return "v0"
    if any(k in c for k in _V0_ONLY) or _is_legacy(c.get("protocolVersion")):
        return "v0"
    return "v1"


def _splice(d: dict[str, Any], keys: tuple[str, ...], new: dict[str, Any]) -> dict[str, Any]:
    """d without `keys`, with `new` put where the first of them was (or at the end)."""
    out: dict[str, Any] = {}
    for k, v in d.items():
        if k in keys:
            out.update(new)
            new = {}
        else:
            out[k] = v
    return out | new


# --- security ---------------------------------------------------------------------------------


@entity("oauth2 flows")
def _core_flows(flows: dict[str, Any], notes: Notes) -> dict[str, Any]:
    present = [f for f in _FLOWS if f in flows]
    if len(present) > 1:
        note(notes, f"oauth2 flows: {', '.join(present[1:])} dropped (a V1 scheme has one flow; kept {present[0]})")
    return {k: v for k, v in flows.items() if k not in present[1:]}


@entity("oauth2 flows")
def _compat_flows(flows: dict[str, Any], notes: Notes) -> dict[str, Any]:
    drop(flows, ("deviceCode",), notes, "oauth2 flows", "V0 has no device code flow")
    if isinstance(flows.get("authorizationCode"), dict):
        flows["authorizationCode"] = fields(flows["authorizationCode"])
        drop(flows["authorizationCode"], ("pkceRequired",), notes, "oauth2 flows", "V0 has no PKCE flag")
    return flows


def unwrap_case(scheme: Any) -> Any:
    """@a2a-js/sdk 1.x serves a card built from its own objects in their internal oneof form,
    `{"scheme": {"$case": "apiKeySecurityScheme", "value": {...}}}` (a2a-js #663/#664): the
    ProtoJSON `{"apiKeySecurityScheme": {...}}` it stands for. Anything else as it is (a V0 http
    scheme's `scheme` is a string)."""
    inner = scheme.get("scheme") if isinstance(scheme, dict) else None
    if isinstance(inner, dict) and isinstance(inner.get("$case"), str) and len(scheme) == 1:
        return {inner["$case"]: inner.get("value") if isinstance(inner.get("value"), dict) else {}}
    return scheme


@entity("security scheme")
def _core_scheme(scheme: dict[str, Any], notes: Notes) -> dict[str, Any]:
    scheme = unwrap_case(scheme)
    if "type" in scheme:
        kind = scheme["type"]
        if (key := _SCHEME_KEYS.get(kind) if isinstance(kind, str) else None) is None:  # `type: []`: no kind
            note(notes, f"security scheme: type {scheme['type']!r} not recognised; left unchanged")
            return scheme
        scheme = {key: {k: v for k, v in scheme.items() if k != "type"}}
    for key in _SCHEME_TYPES.keys() & scheme.keys():
        if isinstance(scheme[key], dict):
            body = rename(fields(scheme[key]), "in", "location")
            map_value(body, "flows", _core_flows, notes)
            scheme[key] = body
    return scheme


@entity("security scheme")
def _compat_scheme(scheme: dict[str, Any], notes: Notes) -> dict[str, Any]:
    scheme = unwrap_case(scheme)
    members = [k for k in _SCHEME_TYPES if k in scheme]
    if members:
        body = scheme.pop(members[0])
        scheme = {"type": _SCHEME_TYPES[members[0]], **fields(body if isinstance(body, dict) else {}), **scheme}
    elif "type" not in scheme:
        note(notes, f"security scheme: no known scheme in {sorted(scheme)}; left unchanged")
        return scheme
    scheme = rename(scheme, "location", "in")
    if scheme["type"] == "apiKey" and scheme.get("in") not in _API_KEY_LOCATIONS:
        note(notes, f"security scheme: apiKey location {scheme.get('in')!r} is not a V0 value (query, header, cookie)")
    map_value(scheme, "flows", _compat_flows, notes)
    return scheme


def _core_requirement(req: Any, notes: Notes) -> Any:
    if not isinstance(req, dict):
        return req
    if set(req) == {"schemes"} and isinstance(req["schemes"], dict):  # already V1
        req = req["schemes"]
    return {"schemes": {name: {"list": s} if isinstance(s, list) else s for name, s in req.items()}}


def _compat_requirement(req: Any, notes: Notes) -> Any:
    if not isinstance(req, dict):
        return req
    if set(req) == {"schemes"} and isinstance(req["schemes"], dict):
        req = req["schemes"]
    return {name: s.get("list", []) if isinstance(s, dict) else s for name, s in req.items()}


@entity("skill")
def _core_security(obj: dict[str, Any], notes: Notes) -> dict[str, Any]:
    """`security` => `securityRequirements` (on the card and on skills)."""
    if "securityRequirements" in obj:
        obj.pop("security", None)  # a hybrid card's V0 mirror of the same data
    obj = rename(obj, "security", "securityRequirements")
    map_list(obj, "securityRequirements", _core_requirement, notes)
    return obj


@entity("skill")
def _compat_security(obj: dict[str, Any], notes: Notes) -> dict[str, Any]:
    obj = rename(obj, "securityRequirements", "security")
    map_list(obj, "security", _compat_requirement, notes)
    return obj


def _map_schemes(card: dict[str, Any], fn: Any, notes: Notes) -> None:
    if isinstance(card.get("securitySchemes"), dict):
        card["securitySchemes"] = {name: fn(s, notes) for name, s in card["securitySchemes"].items()}


# --- the card ---------------------------------------------------------------------------------


def _core_interface(iface: dict[str, Any]) -> dict[str, Any]:
    return rename(fields(iface), "transport", "protocolBinding")


@entity("agent card")
def to_core_card(card: dict[str, Any], notes: Notes) -> dict[str, Any]:
    if card_version(card) == "v0":
        version = card.get("protocolVersion") or V0_PROTOCOL_VERSION
        preferred = card.get("preferredTransport")
        primary = {
            "url": card.get("url", ""),
            "protocolBinding": preferred if isinstance(preferred, str) and preferred else "JSONRPC",
            "protocolVersion": version,
        }
        # every interface of a V0 card speaks the card's own version; the primary one is often
        # listed again among the additional ones: one entry per (binding, URL)
        interfaces = {
            (repr(primary["protocolBinding"]), repr(primary["url"])): primary
        }  # repr: a list or object is no key
        extra = card.get("additionalInterfaces")
        for i in extra if isinstance(extra, list) else []:  # `additionalInterfaces: 5`: none (issue 35)
            if isinstance(i, dict):
                itf = _core_interface(i) | {"protocolVersion": version}
                interfaces.setdefault((repr(itf.get("protocolBinding")), repr(itf.get("url"))), itf)
        card = _splice(card, _ENDPOINT, {"supportedInterfaces": list(interfaces.values())})
    else:
        if stale := [k for k in _V0_ENDPOINT if k in card]:
            note(notes, f"agent card: V0 fields {', '.join(stale)} dropped (supportedInterfaces is authoritative)")
        ifaces = card.get("supportedInterfaces")
        if isinstance(ifaces, list):
            ifaces = [_core_interface(i) if isinstance(i, dict) else i for i in ifaces]
        card = _splice(card, _ENDPOINT, {} if ifaces is None else {"supportedInterfaces": ifaces})
    caps = fields(card["capabilities"]) if isinstance(card.get("capabilities"), dict) else {}
    if "supportsAuthenticatedExtendedCard" in card:
        caps.setdefault("extendedAgentCard", card.pop("supportsAuthenticatedExtendedCard"))
    drop(caps, ("stateTransitionHistory",), notes, "agent card", "V1 has no such capability")
    if caps or "capabilities" in card:
        card["capabilities"] = caps
    _map_schemes(card, _core_scheme, notes)
    card = _core_security(card, notes)
    map_list(card, "skills", _core_security, notes)
    return card


@entity("agent card")
def to_compat_card(card: dict[str, Any], notes: Notes) -> dict[str, Any]:
    if isinstance(card.get("supportedInterfaces"), list):
        card = _splice(card, _ENDPOINT, _compat_endpoint(card["supportedInterfaces"], notes))
    if isinstance(card.get("capabilities"), dict):
        caps = card["capabilities"] = fields(card["capabilities"])
        if "extendedAgentCard" in caps:
            card["supportsAuthenticatedExtendedCard"] = caps.pop("extendedAgentCard")
    _map_schemes(card, _compat_scheme, notes)
    card = _compat_security(card, notes)
    map_list(card, "skills", _compat_security, notes)
    return card


def _compat_endpoint(interfaces: list[Any], notes: Notes) -> dict[str, Any]:
    """V0 protocolVersion/url/preferredTransport/additionalInterfaces from V1 interfaces."""
    ifaces = [fields(i) for i in interfaces if isinstance(i, dict)]
    legacy = [i for i in ifaces if not i.get("protocolVersion") or _is_legacy(i["protocolVersion"])]
    if not ifaces:
        note(notes, "agent card: no supportedInterfaces; the V0 card has no url")
        return {}
    if not legacy:
        note(
            notes,
            "agent card: no interface for protocol 0.3; the V0 card presents the V1 interfaces as 0.3 (a V0 client would be refused: VersionNotSupportedError)",
        )
        legacy, version = ifaces, V0_PROTOCOL_VERSION
    else:
        if dropped := len(ifaces) - len(legacy):
            note(
                notes,
                f"agent card: {dropped} interface(s) for other protocol versions dropped (a V0 card lists only 0.3 endpoints)",
            )
        version = legacy[0].get("protocolVersion") or V0_PROTOCOL_VERSION
    for i in legacy:
        drop_tenant(i, notes, "agent interface")
    others = [
        rename({k: v for k, v in i.items() if k != "protocolVersion"}, "protocolBinding", "transport")
        for i in legacy[1:]
    ]
    endpoint = {
        "protocolVersion": version,
        "url": legacy[0].get("url", ""),
        "preferredTransport": legacy[0].get("protocolBinding") or "JSONRPC",
    }
    return endpoint | ({"additionalInterfaces": others} if others else {})


def scheme_to_core(scheme: Any) -> Any:
    """One security scheme in 1.0's ProtoJSON oneof, from any of the three shapes."""
    return _core_scheme(scheme)


def scheme_to_compat(scheme: Any) -> Any:
    """One security scheme in 0.3's `{type: ...}` form, from any of the three shapes."""
    return _compat_scheme(scheme)
