"""Pure choices made from an Agent Card: which JSON-RPC interface to call for a version, and
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


def select_interface(core_card: dict[str, Any], wire: Wire, card_url: str) -> Endpoint:
    """The first JSON-RPC interface of the card for `wire` (V1 spec §8.3.2). Never falls back to
    the other version: that would silently change what goes over the wire."""
    offered: list[str] = []
    for itf in core_card.get("supportedInterfaces") or []:
        if not isinstance(itf, dict) or not itf.get("url"):
            continue
        binding = str(itf.get("protocolBinding") or "JSONRPC").upper()
        if binding not in ("JSONRPC", "JSON-RPC"):
            continue
        ver = version_of(str(itf.get("protocolVersion") or ""))
        offered.append(str(itf.get("protocolVersion") or "?"))
        if ver is wire:
            return Endpoint(urljoin(card_url, itf["url"]), str(itf.get("tenant") or ""))
    if offered:
        other = "0.3" if wire is Wire.V1 else "1.0"
        raise VersionNotOfferedError(
            f"the Agent Card offers JSON-RPC only for A2A {', '.join(sorted(set(offered)))}, not {wire.version}",
            hint=f"pass --a2a-version {other}, or --rpc-url URL to call an endpoint the card does not list",
        )
    raise VersionNotOfferedError(
        "the Agent Card lists no JSON-RPC interface",
        hint="a2a speaks JSON-RPC; pass --rpc-url URL if the agent has one",
    )


def api_key_placement(core_card: dict[str, Any] | None) -> tuple[str, str]:
    """(location, name) of the card's first apiKey scheme; ('header', 'X-API-Key') otherwise."""
    for scheme in ((core_card or {}).get("securitySchemes") or {}).values():
        api = scheme.get("apiKeySecurityScheme") if isinstance(scheme, dict) else None
        if isinstance(api, dict) and api.get("name"):
            loc = str(api.get("location") or "header").lower()
            return (loc if loc in ("header", "query", "cookie") else "header", str(api["name"]))
    return ("header", "X-API-Key")
