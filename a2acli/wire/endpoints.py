"""Pure choices made from an Agent Card: which interface (binding and URL) to call for a version, and
where an API key goes. Cards are first brought to canonical V1 (translate.to_core_card)."""

from __future__ import annotations

from typing import Any, NamedTuple
from urllib.parse import urljoin

from a2acli.errors import A2acliError
from a2acli.wire import Wire, version_of


class VersionNotOfferedError(A2acliError):
    code = "version_not_offered"


class Endpoint(NamedTuple):
    url: str
    tenant: str = ""
    binding: str = "jsonrpc"  # the --transport spelling (wire.bindings.BINDINGS)


def select_interface(core_card: dict[str, Any], wire: Wire, card_url: str, transports: tuple[str, ...] = ()) -> Endpoint:
    """The interface to call for `wire`: with `transports` (--transport, in order of preference)
    the first interface of the first binding named; otherwise the first interface, in card order,
    whose binding a2a speaks (V1 spec §8.3.2). Never falls back to the other version: that
    would silently change what goes over the wire."""
    from a2acli.wire.bindings import binding_info

    offered: list[tuple[str, str, str]] = []  # (binding, version, url) of each interface
    for itf in core_card.get("supportedInterfaces") or []:
        if not isinstance(itf, dict) or not itf.get("url"):
            continue
        info = binding_info(str(itf.get("protocolBinding") or "JSONRPC"))
        offered.append((info.card if info else str(itf.get("protocolBinding")), str(itf.get("protocolVersion") or "?"), str(itf["url"])))
    wanted = transports or tuple(b.flag for b in _spoken())
    for flag in wanted if transports else (None,):
        for itf in core_card.get("supportedInterfaces") or []:
            if not isinstance(itf, dict) or not itf.get("url"):
                continue
            info = binding_info(str(itf.get("protocolBinding") or "JSONRPC"))
            if info is None or (info.flag != flag if flag else info.flag not in wanted):
                continue
            if version_of(str(itf.get("protocolVersion") or "")) is wire:
                # a gRPC target (`host:port`) is no URL to resolve against the card's
                url = str(itf["url"]) if info.carrier_grpc else urljoin(card_url, itf["url"])
                return Endpoint(url, str(itf.get("tenant") or ""), info.flag)
    listing = ", ".join(f"{b} {v}" for b, v, _ in dict.fromkeys((b, v, "") for b, v, _ in offered)) or "none"
    known = [binding_info(t) for t in transports]
    names = (" or ".join(b.card for b in known if b) + " interface") if transports else "interface a2a speaks (JSONRPC, HTTP+JSON)"
    other = "0.3" if wire is Wire.V1 else "1.0"
    if any(version_of(v) is wire for _, v, _ in offered) or not offered:
        hint = "pick one the card offers with --transport, or --endpoint URL to call an endpoint the card does not list"
    else:
        hint = f"pass --a2a-version {other}, or --endpoint URL to call an endpoint the card does not list"
    raise VersionNotOfferedError(f"the Agent Card offers no {names} for A2A {wire.version}; it offers: {listing}", hint=hint)


def _spoken() -> tuple[Any, ...]:
    from a2acli.wire.bindings import BINDINGS

    return tuple(b for b in BINDINGS if b.module)


def api_key_placement(core_card: dict[str, Any] | None) -> tuple[str, str]:
    """(location, name) of the card's first apiKey scheme; ('header', 'X-API-Key') otherwise."""
    for scheme in ((core_card or {}).get("securitySchemes") or {}).values():
        api = scheme.get("apiKeySecurityScheme") if isinstance(scheme, dict) else None
        if isinstance(api, dict) and api.get("name"):
            loc = str(api.get("location") or "header").lower()
            return (loc if loc in ("header", "query", "cookie") else "header", str(api["name"]))
    return ("header", "X-API-Key")
