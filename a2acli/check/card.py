"""Agent Card validation (`a2a check card`, `a2a card fetch --validate`; spec CARD_GET_002): a card
is checked against the version(s) it declares (both when it is hybrid), first on the pydantic
models of models.py (required fields, types), then by the rules a schema cannot say. Every finding
has a severity, a JSON path, and one line that says what is wrong and how to fix it.

Pure: no I/O (the card and the URL it came from are given)."""

from __future__ import annotations

import difflib
import re
from typing import Any, NamedTuple
from urllib.parse import urlsplit

ERROR, WARNING, INFO = "error", "warning", "info"
SEVERITIES = (ERROR, WARNING, INFO)

BINDINGS = ("JSONRPC", "HTTP+JSON", "GRPC")  # V1 protocolBinding / V0 TransportProtocol
V1_VERSIONS = ("1.0", "0.3")
API_KEY_LOCATIONS = ("header", "query", "cookie")
V0_ONLY = (
    "protocolVersion",
    "url",
    "preferredTransport",
    "additionalInterfaces",
    "supportsAuthenticatedExtendedCard",
    "security",
)
V1_ONLY = ("supportedInterfaces", "securityRequirements")


class Finding(NamedTuple):
    severity: str  # error, warning, info
    path: str  # JSON path into the card: $.supportedInterfaces[0].url
    message: str  # what is wrong, and the fix
    version: str  # the card version the rule belongs to: "1.0", "0.3"
    rule: str  # a short id: missing-field, wrong-type, unknown-enum, …

    def as_json(self) -> dict[str, str]:
        return {
            "severity": self.severity,
            "path": self.path,
            "message": self.message,
            "version": self.version,
            "rule": self.rule,
        }


class CardReport(NamedTuple):
    versions: tuple[str, ...]  # the versions the card was checked against ("1.0", "0.3")
    hybrid: bool
    findings: list[Finding]

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity == ERROR)

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.severity == WARNING)


# -- paths and words -----------------------------------------------------------------------------


def path_of(*parts: Any) -> str:
    out = "$"
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", str(p)):
            out += f".{p}"
        else:
            out += f"[{str(p)!r}]".replace("'", '"')
    return out


def nearest(value: Any, choices: tuple[str, ...] | list[str]) -> str | None:
    """The valid spelling closest to `value` (case aside first), or None when nothing is close."""
    text = str(value)
    for c in choices:
        if c.lower() == text.lower() or c.lower().replace("+", "") == text.lower().replace("+", "").replace(
            "_", ""
        ).replace("-", ""):
            return c
    close = difflib.get_close_matches(text, list(choices), n=1, cutoff=0.4) or difflib.get_close_matches(
        text.lower(), [c.lower() for c in choices], n=1, cutoff=0.4
    )
    if close:
        return next(c for c in choices if c.lower() == close[0].lower())
    return None


def _enum(
    findings: list[Finding],
    value: Any,
    choices: tuple[str, ...],
    path: str,
    version: str,
    what: str,
    severity: str = WARNING,
) -> None:
    if not isinstance(value, str) or value in choices:
        return
    near = nearest(value, choices)
    fix = f"did you mean {near!r}?" if near else f"use one of {', '.join(choices)}"
    findings.append(Finding(severity, path, f"unknown {what} {value!r}: {fix}", version, "unknown-enum"))


_TYPE_WORDS = {
    "string_type": "a string",
    "bool_type": "a boolean (true/false, not a string)",
    "list_type": "an array",
    "dict_type": "an object",
    "model_type": "an object",
    "model_attributes_type": "an object",
    "int_type": "an integer",
}


def _schema_findings(doc: dict[str, Any], model: Any, version: str) -> list[Finding]:
    """What the pydantic model says: missing required fields, wrong types, broken oneofs."""
    from pydantic import ValidationError

    try:
        model.model_validate(doc)
    except ValidationError as e:
        out = []
        for err in e.errors():
            loc = [p for p in err["loc"] if not (isinstance(p, str) and p.startswith("function-after"))]
            path = path_of(*loc)
            kind = err["type"]
            if kind == "missing":
                field = loc[-1] if loc else "?"
                if field == "tokenUrl":
                    text = "OAuth2 flow without tokenUrl: clients cannot get a token; add the token endpoint's absolute URL"
                    out.append(Finding(ERROR, path, text, version, "oauth2-token-url"))
                    continue
                out.append(
                    Finding(
                        ERROR,
                        path,
                        f"missing required field {field!r} (A2A {version}): add it",
                        version,
                        "missing-field",
                    )
                )
            elif kind in _TYPE_WORDS:
                got = type(err.get("input")).__name__
                out.append(
                    Finding(
                        ERROR,
                        path,
                        f"wrong type: {_json_type(err.get('input'))} where {_TYPE_WORDS[kind]} is required: fix the value"
                        if got
                        else "wrong type",
                        version,
                        "wrong-type",
                    )
                )
            else:
                msg = str(err.get("msg", "")).removeprefix("Value error, ")
                out.append(Finding(ERROR, path, f"{msg}", version, "schema"))
        return out
    return []


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    return {
        bool: "a boolean",
        int: "a number",
        float: "a number",
        str: "a string",
        list: "an array",
        dict: "an object",
    }.get(type(value), type(value).__name__)


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


# -- rules shared by both versions -----------------------------------------------------------------


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
    if card_host and host and host != card_host:
        findings.append(
            Finding(
                WARNING,
                path,
                f"on another host ({host}) than the card ({card_host}): clients may refuse to follow it; serve the card from the agent's host, or make sure this is meant",
                version,
                "other-host",
            )
        )


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
        if not skill.get("examples"):
            findings.append(
                Finding(
                    WARNING,
                    path_of("skills", i),
                    f"skill {sid!r} has no examples: add a few example prompts so clients know how to call it",
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


def _check_requirements(
    findings: list[Finding], reqs: Any, defined: set[str], path: list[Any], version: str, *, v1: bool
) -> None:
    if not isinstance(reqs, list):
        return
    for i, req in enumerate(reqs):
        if not isinstance(req, dict):
            continue
        names = req.get("schemes") if v1 else req
        if not isinstance(names, dict):
            continue
        for name in names:
            if name not in defined:
                near = nearest(name, sorted(defined)) if defined else None
                fix = f"did you mean {near!r}?" if near else "define it under securitySchemes"
                p = path_of(*path, i, *(["schemes"] if v1 else []), name)
                findings.append(
                    Finding(
                        ERROR,
                        p,
                        f"security requirement names undefined scheme {name!r}: {fix}",
                        version,
                        "undefined-scheme",
                    )
                )


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


def _check_flows(findings: list[Finding], flows: Any, path: list[Any], version: str) -> None:
    if not isinstance(flows, dict):
        return
    if not flows:
        findings.append(
            Finding(
                ERROR,
                path_of(*path),
                "OAuth2 scheme with no flow: add clientCredentials or authorizationCode with its tokenUrl",
                version,
                "oauth2-token-url",
            )
        )
    for name in ("implicit", "password"):
        if name in flows and version == "1.0":
            findings.append(
                Finding(
                    WARNING,
                    path_of(*path, name),
                    f"the {name} flow is deprecated in A2A 1.0: use authorizationCode (with PKCE) or clientCredentials",
                    version,
                    "deprecated-flow",
                )
            )
    for name, flow in flows.items():
        if name not in ("authorizationCode", "clientCredentials", "implicit", "password", "deviceCode"):
            _enum(
                findings,
                name,
                ("authorizationCode", "clientCredentials", "implicit", "password", "deviceCode"),
                path_of(*path, name),
                version,
                "OAuth2 flow",
                ERROR,
            )
        elif isinstance(flow, dict) and name != "implicit":
            url = flow.get("tokenUrl")
            if isinstance(url, str) and url and not urlsplit(url).scheme:
                findings.append(
                    Finding(
                        ERROR,
                        path_of(*path, name, "tokenUrl"),
                        f"tokenUrl {url!r} is relative: give the token endpoint's absolute URL",
                        version,
                        "oauth2-token-url",
                    )
                )


# -- security schemes in another version's shape ------------------------------------------------------


def _scheme_shape(scheme: dict[str, Any], v1: bool, hybrid: bool) -> str:
    """Why `scheme` is not in the version's own shape, "" when it is (or cannot be read at all:
    the version's own checks say so then)."""
    from a2acli.check.models import V1_SCHEME_KEYS
    from a2acli.wire.translate.card import unwrap_case

    if unwrap_case(scheme) is not scheme:
        key = scheme["scheme"]["$case"]
        own = f"{{{key!r}: {{…}}}}" if v1 else "{type: …}"
        return f"@a2a-js/sdk's internal form {{scheme: {{$case: {key!r}, value: {{…}}}}}}: a2a reads it, other clients may not; the version's own shape is {own} (serve the card's toJSON(); a2a-js issues #663/#664)"
    if (
        v1
        and not hybrid
        and "type" in scheme
        and not any(k in scheme for k in V1_SCHEME_KEYS)
        and str(scheme.get("type")) in V1_TYPE_KEYS
    ):
        return f"a 0.3 security scheme ({{type: {scheme.get('type')!r}}}) in a 1.0 card: a2a and clients that read both shapes accept it; 1.0's own is {{{V1_TYPE_KEYS[str(scheme['type'])]!r}: {{…}}}}"
    if not v1 and not hybrid and "type" not in scheme and sum(k in scheme for k in V1_SCHEME_KEYS) == 1:
        key = next(k for k in V1_SCHEME_KEYS if k in scheme)
        return f"a 1.0 security scheme ({{{key!r}: {{…}}}}) in a 0.3 card: a2a and clients that read both shapes accept it; 0.3's own is {{type: …}}"
    return ""


V1_TYPE_KEYS = {
    "apiKey": "apiKeySecurityScheme",
    "http": "httpAuthSecurityScheme",
    "oauth2": "oauth2SecurityScheme",
    "openIdConnect": "openIdConnectSecurityScheme",
    "mutualTLS": "mtlsSecurityScheme",
}


def _own_shapes(doc: dict[str, Any], v: str, hybrid: bool) -> tuple[dict[str, Any], list[Finding]]:
    """The card with every security scheme in the version's own shape (the checks that follow
    judge the content, not the spelling), and a warning per scheme that was in another one."""
    from a2acli.wire.translate.card import scheme_to_compat, scheme_to_core

    schemes = doc.get("securitySchemes")
    if not isinstance(schemes, dict):
        return doc, []
    v1 = v == "1.0"
    findings: list[Finding] = []
    own: dict[str, Any] = {}
    for name, scheme in schemes.items():
        why = _scheme_shape(scheme, v1, hybrid) if isinstance(scheme, dict) else ""
        if why:
            findings.append(Finding(WARNING, path_of("securitySchemes", name), why, v, "scheme-shape"))
            scheme = scheme_to_core(scheme) if v1 else scheme_to_compat(scheme)
        own[name] = scheme
    return ({**doc, "securitySchemes": own} if findings else doc), findings


# -- V1 -------------------------------------------------------------------------------------------


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
                grpc=str(binding).upper() == "GRPC",
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


def _check_v1_schemes(findings: list[Finding], doc: dict[str, Any], v: str, hybrid: bool) -> set[str]:
    """securitySchemes: each a oneof of the 1.0 scheme keys (a 0.3 `type` form named as such), API
    key locations, OAuth2 flows. Returns the names defined (requirements refer to them)."""
    from a2acli.check.models import V1_SCHEME_KEYS

    schemes = doc.get("securitySchemes")
    defined = set(schemes) if isinstance(schemes, dict) else set()
    if isinstance(schemes, dict):
        for name, scheme in schemes.items():
            if not isinstance(scheme, dict):
                continue
            keys = [k for k in scheme if k in V1_SCHEME_KEYS]
            if len(keys) != 1:
                odd = [
                    k
                    for k in scheme
                    if k not in V1_SCHEME_KEYS
                    and k not in ("description",)
                    and not (
                        hybrid
                        and k
                        in (
                            "type",
                            "in",
                            "name",
                            "scheme",
                            "bearerFormat",
                            "flows",
                            "openIdConnectUrl",
                            "oauth2MetadataUrl",
                        )
                    )
                ]
                if not keys and "type" in scheme and not hybrid:
                    hint = {
                        "apiKey": "apiKeySecurityScheme",
                        "http": "httpAuthSecurityScheme",
                        "oauth2": "oauth2SecurityScheme",
                        "openIdConnect": "openIdConnectSecurityScheme",
                        "mutualTLS": "mtlsSecurityScheme",
                    }.get(str(scheme.get("type")), "one of " + ", ".join(V1_SCHEME_KEYS))
                    text = f"a 0.3 security scheme ({{type: {scheme.get('type')!r}}}) in a 1.0 card: wrap it as {{{hint!r}: {{…}}}}"
                elif not keys:
                    near = nearest(odd[0], V1_SCHEME_KEYS) if odd else None
                    text = (
                        "a security scheme needs exactly one of "
                        + ", ".join(V1_SCHEME_KEYS)
                        + (f": did you mean {near!r} for {odd[0]!r}?" if near else "")
                    )
                else:
                    text = f"a security scheme is a oneof: keep one of {', '.join(keys)}"
                findings.append(Finding(ERROR, path_of("securitySchemes", name), text, v, "scheme-oneof"))
            api = scheme.get("apiKeySecurityScheme")
            if isinstance(api, dict):
                _enum(
                    findings,
                    api.get("location"),
                    API_KEY_LOCATIONS,
                    path_of("securitySchemes", name, "apiKeySecurityScheme", "location"),
                    v,
                    "API key location",
                    ERROR,
                )
            oauth = scheme.get("oauth2SecurityScheme")
            if isinstance(oauth, dict):
                _check_flows(
                    findings, oauth.get("flows"), ["securitySchemes", name, "oauth2SecurityScheme", "flows"], v
                )
    return defined


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


# -- V0 -------------------------------------------------------------------------------------------


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
    _check_url(findings, url, path_of("url"), v, card_url, grpc=preferred == "GRPC")
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
                grpc=itf.get("transport") == "GRPC",
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


def _check_v0_schemes(findings: list[Finding], doc: dict[str, Any], v: str) -> set[str]:
    """securitySchemes in the 0.3 `type` form (a 1.0 oneof named as such): each against its model,
    API key locations, OAuth2 flows. Returns the names defined."""
    from a2acli.check.models import V0_SCHEMES

    schemes = doc.get("securitySchemes")
    defined = set(schemes) if isinstance(schemes, dict) else set()
    if isinstance(schemes, dict):
        for name, scheme in schemes.items():
            if not isinstance(scheme, dict):
                continue
            kind = scheme.get("type")
            if kind not in V0_SCHEMES:
                if kind is None:
                    near_key = next((k for k in scheme if k.endswith("SecurityScheme")), None)
                    text = (
                        "a 1.0 security scheme in a 0.3 card: spell it {type: …}"
                        if near_key
                        else "missing required field 'type': add apiKey, http, oauth2, openIdConnect or mutualTLS"
                    )
                    findings.append(Finding(ERROR, path_of("securitySchemes", name, "type"), text, v, "missing-field"))
                else:
                    _enum(
                        findings,
                        kind,
                        tuple(V0_SCHEMES),
                        path_of("securitySchemes", name, "type"),
                        v,
                        "security scheme type",
                        ERROR,
                    )
                continue
            for f in _schema_findings(scheme, V0_SCHEMES[kind], v):
                findings.append(f._replace(path="$.securitySchemes" + path_of(name)[1:] + f.path[1:]))
            if kind == "apiKey":
                _enum(
                    findings,
                    scheme.get("in"),
                    API_KEY_LOCATIONS,
                    path_of("securitySchemes", name, "in"),
                    v,
                    "API key location",
                    ERROR,
                )
            if kind == "oauth2":
                _check_flows(findings, scheme.get("flows"), ["securitySchemes", name, "flows"], v)
    return defined


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
            (), False, [Finding(ERROR, "$", f"an Agent Card is a JSON object, not {_json_type(doc)}", "", "wrong-type")]
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
