"""Card validation, the interfaces: where a card says the agent is (V1 supportedInterfaces, V0 url,
preferredTransport and additionalInterfaces), their bindings, versions and URLs. Pure."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from a2acli.check.findings import BINDINGS, ERROR, INFO, V1_VERSIONS, WARNING, Finding, _enum, path_of
from a2acli.net import is_loopback


def _host(url: str) -> str:
    parts = urlsplit(url)
    return (parts.hostname or "").lower()


def _check_url(
    findings: list[Finding], url: Any, path: str, version: str, card_url: str | None, *, grpc: bool = False
) -> None:
    if not isinstance(url, str) or not url:
        return
    parts = urlsplit(url)
    if grpc and not parts.scheme or grpc and re.fullmatch(r"[^/:]+:\d+", url):
        host = url.rsplit(":", 1)[0].lower().strip("[]")  # gRPC: host:port is a target, not a URL
    elif not parts.scheme or not parts.netloc:
        findings.append(
            Finding(
                ERROR,
                path,
                f"relative URL {url!r}: interface URLs must be absolute (e.g. https://agent.example/a2a)",
                version,
                "relative-url",
            )
        )
        return
    else:
        host = (parts.hostname or "").lower()
    card_host = _host(card_url) if card_url and card_url.startswith(("http://", "https://")) else ""
    if (
        card_host and host and host != card_host and not (is_loopback(host) and is_loopback(card_host))
    ):  # this machine's names
        findings.append(
            Finding(
                WARNING,
                path,
                f"on another host ({host}) than the card ({card_host}): clients may refuse to follow it; serve the card from the agent's host, or make sure this is meant",
                version,
                "other-host",
            )
        )


def _check_v1_interfaces(findings: list[Finding], doc: dict[str, Any], card_url: str | None, v: str) -> None:
    """supportedInterfaces: at least one; each binding, version and URL; no duplicates."""
    interfaces = doc.get("supportedInterfaces")
    if isinstance(interfaces, list):
        if not interfaces:
            findings.append(
                Finding(
                    ERROR,
                    path_of("supportedInterfaces"),
                    "no interface: list at least one {url, protocolBinding, protocolVersion}",
                    v,
                    "no-interface",
                )
            )
        seen: dict[tuple[str, str, str, str], int] = {}
        for i, itf in enumerate(interfaces):
            if not isinstance(itf, dict):
                continue
            binding = itf.get("protocolBinding")
            _enum(
                findings, binding, BINDINGS, path_of("supportedInterfaces", i, "protocolBinding"), v, "protocolBinding"
            )
            pv = itf.get("protocolVersion")
            if isinstance(pv, str):
                from a2acli.wire import version_of

                if version_of(pv) is None:
                    _enum(
                        findings,
                        pv,
                        V1_VERSIONS,
                        path_of("supportedInterfaces", i, "protocolVersion"),
                        v,
                        "protocolVersion",
                    )
            _check_url(
                findings,
                itf.get("url"),
                path_of("supportedInterfaces", i, "url"),
                v,
                card_url,
                grpc=_over_grpc(binding),
            )
            key = (str(itf.get("url") or "").rstrip("/"), str(binding).upper(), str(pv), str(itf.get("tenant") or ""))
            if key in seen:
                findings.append(
                    Finding(
                        WARNING,
                        path_of("supportedInterfaces", i),
                        f"duplicate of supportedInterfaces[{seen[key]}] (same url, protocolBinding and protocolVersion): drop one",
                        v,
                        "duplicate-interface",
                    )
                )
            else:
                seen[key] = i


def _check_v0_interfaces(findings: list[Finding], doc: dict[str, Any], card_url: str | None, v: str) -> None:
    """protocolVersion, preferredTransport, url and additionalInterfaces (no duplicates; the main
    url is the preferred transport's)."""
    from a2acli.wire import is_pre_v03

    pv = doc.get("protocolVersion")
    if isinstance(pv, str):
        if is_pre_v03(pv):
            findings.append(
                Finding(
                    INFO,
                    path_of("protocolVersion"),
                    f"protocolVersion {pv!r} is before 0.3: clients read it as 0.3; say 0.3.0 if the agent speaks 0.3",
                    v,
                    "old-version",
                )
            )
        elif not re.fullmatch(r"0\.3(\.\d+)?", pv.strip()):
            _enum(findings, pv, ("0.3.0",), path_of("protocolVersion"), v, "protocolVersion")
    preferred = doc.get("preferredTransport", "JSONRPC")
    _enum(findings, preferred, BINDINGS, path_of("preferredTransport"), v, "transport")
    url = doc.get("url")
    _check_url(findings, url, path_of("url"), v, card_url, grpc=_over_grpc(preferred))
    extra = doc.get("additionalInterfaces")
    if isinstance(extra, list):
        seen: dict[tuple[str, str], int] = {}
        for i, itf in enumerate(extra):
            if not isinstance(itf, dict):
                continue
            _enum(
                findings,
                itf.get("transport"),
                BINDINGS,
                path_of("additionalInterfaces", i, "transport"),
                v,
                "transport",
            )
            _check_url(
                findings,
                itf.get("url"),
                path_of("additionalInterfaces", i, "url"),
                v,
                card_url,
                grpc=_over_grpc(itf.get("transport")),
            )
            key = (str(itf.get("url") or "").rstrip("/"), str(itf.get("transport")).upper())
            if key in seen:
                findings.append(
                    Finding(
                        WARNING,
                        path_of("additionalInterfaces", i),
                        f"duplicate of additionalInterfaces[{seen[key]}] (same url and transport): drop one",
                        v,
                        "duplicate-interface",
                    )
                )
            else:
                seen[key] = i
        if isinstance(url, str) and isinstance(preferred, str):
            same = [
                (i, itf)
                for i, itf in enumerate(extra)
                if isinstance(itf, dict) and str(itf.get("transport")).upper() == preferred.upper()
            ]
            if same and not any(str(itf.get("url") or "").rstrip("/") == url.rstrip("/") for _, itf in same):
                i, itf = same[0]
                findings.append(
                    Finding(
                        ERROR,
                        path_of("url"),
                        f"url {url!r} disagrees with the {preferred} interface at additionalInterfaces[{i}] ({itf.get('url')!r}): url must be the preferredTransport's endpoint",
                        v,
                        "preferred-url",
                    )
                )
            elif extra and not same:
                findings.append(
                    Finding(
                        INFO,
                        path_of("additionalInterfaces"),
                        f"additionalInterfaces does not list the main url with {preferred}: list it too, so clients see every option in one place",
                        v,
                        "preferred-url",
                    )
                )


def _over_grpc(spelling: Any) -> bool:
    """Whether a card's binding spelling names a binding carried by gRPC (its URL may be host:port)."""
    from a2acli.wire.bindings import binding_info

    info = binding_info(str(spelling or ""))
    return info is not None and info.carrier_grpc
