"""Agent Card validation (`a2a check card`, `a2a card fetch --validate`; spec CARD_GET_002): a card
is checked against the version(s) it declares (both when it is hybrid), first on the pydantic
models of models.py (required fields, types), then by the rules a schema cannot say: its
interfaces (card_interfaces.py), its security schemes and requirements (card_schemes.py), and
here what is left (skills, media types, kind, unknown fields). Every finding (findings.py) has a
severity, a JSON path, and one line that says what is wrong and how to fix it.

Pure: no I/O (the card and the URL it came from are given)."""

from __future__ import annotations

from typing import Any

from a2acli.check.card_interfaces import _check_v0_interfaces, _check_v1_interfaces
from a2acli.check.card_schemes import _check_requirements, _check_v0_schemes, _check_v1_schemes, _own_shapes
from a2acli.check.findings import (
    ERROR,
    INFO,
    SEVERITIES,
    V0_ONLY,
    V1_ONLY,
    WARNING,
    CardReport,
    Finding,
    _schema_findings,
    nearest,
    path_of,
)
from a2acli.wire.endpoints import json_kind

__all__ = [
    "ERROR",
    "INFO",
    "SEVERITIES",
    "WARNING",
    "CardReport",
    "Finding",
    "declared_versions",
    "nearest",
    "path_of",
    "validate_card",
]


# -- which version(s) -----------------------------------------------------------------------------


def declared_versions(doc: dict[str, Any]) -> tuple[tuple[str, ...], bool]:
    """The card versions to check `doc` against, and whether it is hybrid (V0 top-level fields
    next to `supportedInterfaces`, as a2a-js compat servers emit): then both."""
    from a2acli.wire.translate.card import card_version

    has_v1 = "supportedInterfaces" in doc
    has_v0 = any(
        k in doc
        for k in (
            "url",
            "preferredTransport",
            "additionalInterfaces",
            "protocolVersion",
            "supportsAuthenticatedExtendedCard",
        )
    )
    if has_v1 and has_v0:
        return ("1.0", "0.3"), True
    return (("1.0",) if card_version(doc) == "v1" else ("0.3",)), False


def _check_media_types(findings: list[Finding], modes: Any, path: list[Any], version: str) -> None:
    if not isinstance(modes, list):
        return
    for i, m in enumerate(modes):
        if isinstance(m, str) and "/" not in m:
            findings.append(
                Finding(
                    WARNING,
                    path_of(*path, i),
                    f"{m!r} is not a media type: write it as type/subtype (e.g. text/plain)",
                    version,
                    "media-type",
                )
            )


def _check_skills(findings: list[Finding], skills: Any, version: str) -> None:
    if not isinstance(skills, list):
        return
    seen: set[str] = set()
    for i, skill in enumerate(skills):
        if not isinstance(skill, dict):
            continue
        sid = skill.get("id")
        if isinstance(sid, str):
            if sid in seen:
                findings.append(
                    Finding(
                        ERROR,
                        path_of("skills", i, "id"),
                        f"duplicate skill id {sid!r}: skill ids must be unique",
                        version,
                        "duplicate-skill",
                    )
                )
            seen.add(sid)
        if not skill.get("examples"):  # optional in both versions: a suggestion, not a warning
            findings.append(
                Finding(
                    INFO,
                    path_of("skills", i),
                    f"skill {sid!r} has no examples (optional): a few example prompts tell clients how to call it",
                    version,
                    "skill-examples",
                )
            )
        if not skill.get("inputModes"):
            findings.append(
                Finding(
                    INFO,
                    path_of("skills", i),
                    f"skill {sid!r} has no inputModes: it takes the card's defaultInputModes; list them if it takes fewer",
                    version,
                    "skill-input-modes",
                )
            )
        for key in ("inputModes", "outputModes"):
            _check_media_types(findings, skill.get(key), ["skills", i, key], version)


def _check_kind(findings: list[Finding], doc: Any, version: str, path: list[Any]) -> None:
    """`kind` is V0's discriminator of messages, tasks and parts: a V1 card never carries it."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            if k == "kind" and not (path and path[-1] in ("params", "header")):
                findings.append(
                    Finding(
                        WARNING,
                        path_of(*path, k),
                        "'kind' is a 0.3 field: V1 objects have none (ProtoJSON parsers may reject it); drop it",
                        version,
                        "v1-kind",
                    )
                )
            elif k not in ("params", "header"):  # free-form objects
                _check_kind(findings, v, version, [*path, k])
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            _check_kind(findings, v, version, [*path, i])


def _check_unknown(findings: list[Finding], doc: dict[str, Any], model: Any, version: str, hybrid: bool) -> None:
    known = set(model.model_fields) | (set(V0_ONLY) | set(V1_ONLY) | {"capabilities"} if hybrid else set())
    other = V0_ONLY if version == "1.0" else V1_ONLY
    for key in doc:
        if key in known or key == "kind":
            continue
        if key in other:
            findings.append(
                Finding(
                    WARNING,
                    path_of(key),
                    f"{key!r} is a {'0.3' if version == '1.0' else '1.0'} field in a {version} card: drop it, or list both versions' fields (hybrid card)",
                    version,
                    "other-version-field",
                )
            )
        else:
            near = nearest(key, sorted(model.model_fields))
            hint = f" (did you mean {near!r}?)" if near and near not in doc else ""
            findings.append(
                Finding(
                    INFO,
                    path_of(key),
                    f"{key!r} is not in the A2A {version} card schema{hint}: clients ignore it",
                    version,
                    "unknown-field",
                )
            )


def _check_v1(doc: dict[str, Any], card_url: str | None, hybrid: bool) -> list[Finding]:
    from a2acli.check.models import V1AgentCard

    v = "1.0"
    doc, shapes = _own_shapes(doc, v, hybrid)
    findings = shapes + _schema_findings(doc, V1AgentCard, v)
    _check_v1_interfaces(findings, doc, card_url, v)
    defined = _check_v1_schemes(findings, doc, v, hybrid)
    _check_requirements(findings, doc.get("securityRequirements"), defined, ["securityRequirements"], v, v1=True)
    for i, skill in enumerate(doc.get("skills") or [] if isinstance(doc.get("skills"), list) else []):
        if isinstance(skill, dict):
            _check_requirements(
                findings, skill.get("securityRequirements"), defined, ["skills", i, "securityRequirements"], v, v1=True
            )
    _check_skills(findings, doc.get("skills"), v)
    for modes in ("defaultInputModes", "defaultOutputModes"):
        _check_media_types(findings, doc.get(modes), [modes], v)
    _check_kind(findings, doc, v, [])
    caps = doc.get("capabilities")
    if (
        isinstance(caps, dict)
        and "extendedAgentCard" not in caps
        and doc.get("supportsAuthenticatedExtendedCard")
        and not hybrid
    ):
        findings.append(
            Finding(
                WARNING,
                path_of("capabilities"),
                "the extended-card flag is capabilities.extendedAgentCard in 1.0",
                v,
                "other-version-field",
            )
        )
    _check_unknown(findings, doc, V1AgentCard, v, hybrid)
    return findings


def _check_v0(doc: dict[str, Any], card_url: str | None, hybrid: bool) -> list[Finding]:
    from a2acli.check.models import V0AgentCard

    v = "0.3"
    doc, shapes = _own_shapes(doc, v, hybrid)
    findings = shapes + _schema_findings(doc, V0AgentCard, v)
    _check_v0_interfaces(findings, doc, card_url, v)
    defined = _check_v0_schemes(findings, doc, v)
    _check_requirements(findings, doc.get("security"), defined, ["security"], v, v1=False)
    for i, skill in enumerate(doc.get("skills") or [] if isinstance(doc.get("skills"), list) else []):
        if isinstance(skill, dict):
            _check_requirements(findings, skill.get("security"), defined, ["skills", i, "security"], v, v1=False)
    _check_skills(findings, doc.get("skills"), v)
    for modes in ("defaultInputModes", "defaultOutputModes"):
        _check_media_types(findings, doc.get(modes), [modes], v)
    caps = doc.get("capabilities")
    if isinstance(caps, dict) and "extendedAgentCard" in caps and not hybrid:
        findings.append(
            Finding(
                WARNING,
                path_of("capabilities", "extendedAgentCard"),
                "a 1.0 field in a 0.3 card: 0.3 says supportsAuthenticatedExtendedCard (top level)",
                v,
                "other-version-field",
            )
        )
    _check_unknown(findings, doc, V0AgentCard, v, hybrid)
    return findings


# -- the entry point --------------------------------------------------------------------------------


def validate_card(doc: Any, card_url: str | None = None) -> CardReport:
    """Every finding on `doc` (the card as served), for the version(s) it declares; `card_url`
    is where it came from (interface hosts are compared with it; None or file:// skips that)."""
    if not isinstance(doc, dict):
        return CardReport(
            (), False, [Finding(ERROR, "$", f"an Agent Card is a JSON object, not {json_kind(doc)}", "", "wrong-type")]
        )
    versions, hybrid = declared_versions(doc)
    findings: list[Finding] = []
    if "1.0" in versions:
        findings += _check_v1(doc, card_url, hybrid)
    if "0.3" in versions:
        findings += _check_v0(doc, card_url, hybrid)
    if hybrid:  # one finding for what both versions say alike (a skill without examples)
        seen: set[tuple[str, str, str]] = set()
        unique = []
        for f in findings:
            if (f.path, f.rule, f.severity) not in seen:
                seen.add((f.path, f.rule, f.severity))
                unique.append(f)
        findings = unique
    order = {s: i for i, s in enumerate(SEVERITIES)}
    findings.sort(key=lambda f: order[f.severity])
    return CardReport(versions, hybrid, findings)
