"""Card validation, the security: the schemes a card defines (V1 and V0 shapes, a scheme in the
other version's shape), their OAuth2 flows, and the requirements that name them. Pure."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from a2acli.check.findings import API_KEY_LOCATIONS, ERROR, WARNING, Finding, _enum, _schema_findings, nearest, path_of


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


def _check_key_name(findings: list[Finding], location: Any, name: Any, path: list[Any], version: str) -> None:
    """An API key's header (or cookie) name that HTTP cannot carry (wire.headers, as h11 checks it):
    `a2a` refuses to send the key under it, so the card is broken for every client."""
    from a2acli.wire.headers import name_problem, sent_name_problem, shown

    where = {"header": "header", "cookie": "cookie"}.get(location) if isinstance(location, str) else None
    problem = None
    if where and isinstance(name, str):
        problem = sent_name_problem(name) if where == "header" else name_problem(name)
    if problem:
        findings.append(
            Finding(
                ERROR,
                path_of(*path, "name"),
                f"the API key's {where} name {shown(name)} is no {where} name: {problem}",
                version,
                "api-key-name",
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
                _check_key_name(
                    findings, api.get("location"), api.get("name"), ["securitySchemes", name, "apiKeySecurityScheme"], v
                )
            oauth = scheme.get("oauth2SecurityScheme")
            if isinstance(oauth, dict):
                _check_flows(
                    findings, oauth.get("flows"), ["securitySchemes", name, "oauth2SecurityScheme", "flows"], v
                )
    return defined


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
            if not isinstance(kind, str) or kind not in V0_SCHEMES:  # `type: []`: no kind (and unhashable)
                if kind is None:
                    near_key = next((k for k in scheme if k.endswith("SecurityScheme")), None)
                    text = (
                        "a 1.0 security scheme in a 0.3 card: spell it {type: …}"
                        if near_key
                        else "missing required field 'type': add apiKey, http, oauth2, openIdConnect or mutualTLS"
                    )
                    findings.append(Finding(ERROR, path_of("securitySchemes", name, "type"), text, v, "missing-field"))
                elif not isinstance(kind, str):
                    from a2acli.wire.endpoints import json_kind

                    text = f"is {json_kind(kind)}, not a string: apiKey, http, oauth2, openIdConnect or mutualTLS"
                    findings.append(Finding(ERROR, path_of("securitySchemes", name, "type"), text, v, "wrong-type"))
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
                _check_key_name(findings, scheme.get("in"), scheme.get("name"), ["securitySchemes", name], v)
            if kind == "oauth2":
                _check_flows(findings, scheme.get("flows"), ["securitySchemes", name, "flows"], v)
    return defined
