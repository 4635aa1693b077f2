"""What an Agent Card says about credentials: which ones it accepts, where an API key goes, and
where its OAuth2 endpoints are (A2A §4.5, §7.3; official CLI spec §10, A2ACLI_AUTH_008).

Read off either card shape, so a raw V0 card and its canonical V1 form answer alike:
- schemes: V1 names the kind by its oneof key (`{"apiKeySecurityScheme": {"location", "name"}}`),
  V0 by `type` (`{"type": "apiKey", "in", "name"}`), and cards built from @a2a-js/sdk 1.x objects
  by its internal oneof (`{"scheme": {"$case": "apiKeySecurityScheme", "value": {…}}}`);
- requirements: V1 `securityRequirements` `[{"schemes": {NAME: {"list": [...]}}}]`, V0 `security`
  `[{NAME: [...]}]`, on the card and on its skills;
- OAuth2 flows: V1 holds one flow per scheme (`deviceCode` among them), V0 may hold several (and
  has no `deviceCode`, read all the same when a card carries it).

A credential goes only where a declared scheme takes it: an API key to an `apiKey` scheme, a
bearer token (given, or got by `a2a auth login`) to an http `bearer`, `oauth2` or `openIdConnect`
scheme, a basic password to an http `basic` scheme. A scheme a requirement names comes first (an
API key is placed where that scheme says). Pure: no I/O."""

from __future__ import annotations

from typing import Any, NamedTuple

_V1_KEYS = {
    "apiKeySecurityScheme": "apiKey",
    "httpAuthSecurityScheme": "http",
    "oauth2SecurityScheme": "oauth2",
    "openIdConnectSecurityScheme": "openIdConnect",
    "mtlsSecurityScheme": "mutualTLS",
}
_V0_TYPES = {
    "apikey": "apiKey",
    "http": "http",
    "oauth2": "oauth2",
    "openidconnect": "openIdConnect",
    "mutualtls": "mutualTLS",
}

# credential -> the scheme kinds that accept it, in words
TAKEN_BY = {
    "api-key": "an apiKey scheme",
    "bearer": "an http bearer, oauth2 or openIdConnect scheme",
    "oauth": "an oauth2, openIdConnect or http bearer scheme",
    "basic": "an http basic scheme",
}


def scheme_kind(scheme: Any) -> tuple[str, dict[str, Any]]:
    """(kind, body) of one scheme in either shape: kind is apiKey, http, oauth2, openIdConnect,
    mutualTLS, or "" when it is not recognised."""
    if not isinstance(scheme, dict):
        return "", {}
    from a2acli.wire.translate.card import unwrap_case

    scheme = unwrap_case(scheme)
    for key, kind in _V1_KEYS.items():
        if isinstance(scheme.get(key), dict):
            return kind, scheme[key]
    kind = _V0_TYPES.get(str(scheme.get("type") or "").replace("_", "").lower(), "")
    return kind, scheme if kind else {}


def _schemes(card: Any) -> dict[str, Any]:
    schemes = card.get("securitySchemes") if isinstance(card, dict) else None
    return schemes if isinstance(schemes, dict) else {}


def required_names(card: Any) -> list[str]:
    """The scheme names the card's requirements (card-wide, then per skill) name, in order."""
    if not isinstance(card, dict):
        return []
    skills = card.get("skills")
    holders = [card] + [s for s in (skills if isinstance(skills, list) else []) if isinstance(s, dict)]
    names: list[str] = []
    for holder in holders:
        for key in ("securityRequirements", "security"):
            reqs = holder.get(key)
            for req in reqs if isinstance(reqs, list) else []:  # a requirement list of another kind: none
                if not isinstance(req, dict):
                    continue
                schemes = req.get("schemes")
                inner: dict[str, Any] = schemes if key == "securityRequirements" and isinstance(schemes, dict) else req
                names += [str(n) for n in inner if str(n) not in names]
    return names


def declared(card: Any) -> list[tuple[str, str, dict[str, Any]]]:
    """(name, kind, body) of every scheme the card declares, the ones a requirement names first."""
    schemes = _schemes(card)
    order = [n for n in required_names(card) if n in schemes] + [n for n in schemes if n not in required_names(card)]
    return [(str(n), *scheme_kind(schemes[n])) for n in order]


def takes(kind: str, body: dict[str, Any]) -> set[str]:
    """The credentials (api-key, bearer, basic, oauth) one scheme accepts."""
    if kind == "apiKey":
        return {"api-key"}
    if kind in ("oauth2", "openIdConnect"):
        return {"bearer", "oauth"}
    if kind == "http":
        http = str(body.get("scheme") or "").strip().lower()
        return {"bearer", "oauth"} if http == "bearer" else {"basic"} if http == "basic" else set()
    return set()


def accepting(card: Any, credential: str) -> list[str]:
    """The names of the card's schemes that accept `credential` (api-key, bearer, basic, oauth)."""
    return [name for name, kind, body in declared(card) if credential in takes(kind, body)]


def describe(card: Any) -> str:
    """The card's schemes in a few words, for a message: `apiKey "key" (header X-API-Key)`."""
    parts = []
    for name, kind, body in declared(card):
        if kind == "apiKey":
            where = (
                f" ({body.get('location') or body.get('in') or 'header'} {body.get('name')})"
                if body.get("name")
                else ""
            )
            parts.append(f"apiKey {name!r}{where}")
        elif kind == "http":
            parts.append(f"http {str(body.get('scheme') or '?').lower()} {name!r}")
        else:
            parts.append(f"{kind or 'unknown'} {name!r}")
    return ", ".join(parts)


def withheld(card: Any, credential: str) -> str | None:
    """None when the card declares a scheme that accepts `credential`; else why it is not sent."""
    if accepting(card, credential):
        return None
    what = describe(card)
    said = f"it declares {what}" if what else "it declares no security scheme"
    return f"the Agent Card takes no {credential.replace('-', ' ')} ({TAKEN_BY[credential]}); {said}"


def api_key_placement(card: Any) -> tuple[str, str]:
    """(location, name) of the card's apiKey scheme (one a requirement names first); header
    X-API-Key when it declares none (a call with no card: the user named the endpoint)."""
    for _name, kind, body in declared(card):
        if kind == "apiKey" and body.get("name"):
            loc = str(body.get("location") or body.get("in") or "header").lower()
            return (loc if loc in ("header", "query", "cookie") else "header", str(body["name"]))
    return ("header", "X-API-Key")


class OAuthFlow(NamedTuple):
    """An OAuth2 flow a card declares (or an OpenID Connect / metadata URL to discover one by)."""

    scheme: str  # the scheme's name on the card
    flow: str  # deviceCode, clientCredentials, authorizationCode, ...; "discovery" for a URL only
    token_url: str = ""
    device_authorization_url: str = ""
    scopes: tuple[str, ...] = ()
    discovery_url: str = ""  # openIdConnectUrl, or the oauth2 scheme's oauth2MetadataUrl
    oidc: bool = False  # discovery_url is an OpenID Connect discovery document
    authorization_url: str = ""  # the authorizationCode flow's authorization endpoint


def oauth_flows(card: Any) -> list[OAuthFlow]:
    """Every OAuth2 flow the card declares, and every discovery URL it names, in scheme order."""
    out: list[OAuthFlow] = []
    for name, kind, body in declared(card):
        if kind == "openIdConnect" and body.get("openIdConnectUrl"):
            out.append(OAuthFlow(name, "discovery", discovery_url=str(body["openIdConnectUrl"]), oidc=True))
        if kind != "oauth2":
            continue
        flows: dict[str, Any] = body["flows"] if isinstance(body.get("flows"), dict) else {}
        for flow, spec in flows.items():
            if not isinstance(spec, dict):
                continue
            scopes = tuple(sorted((spec.get("scopes") or {}).keys())) if isinstance(spec.get("scopes"), dict) else ()
            out.append(
                OAuthFlow(
                    name,
                    str(flow),
                    str(spec.get("tokenUrl") or ""),
                    str(spec.get("deviceAuthorizationUrl") or ""),
                    scopes,
                    authorization_url=str(spec.get("authorizationUrl") or ""),
                )
            )
        if body.get("oauth2MetadataUrl"):
            out.append(OAuthFlow(name, "discovery", discovery_url=str(body["oauth2MetadataUrl"])))
    return out


_DISCOVERY_SUFFIXES = ("/.well-known/openid-configuration", "/.well-known/oauth-authorization-server")


def _same_url(a: str, b: str) -> bool:
    return a.strip().rstrip("/").lower() == b.strip().rstrip("/").lower()


def names_token_server(card: Any, token_url: str, issuers: tuple[str, ...] = ()) -> bool:
    """Whether the card's OAuth2 flows name this token endpoint, or its discovery URLs one of
    these issuers (`ISSUER/.well-known/openid-configuration`, RFC 8414's path): an agent that
    trusts the same authorization server, to which a token got from it may go (issue 35)."""
    for flow in oauth_flows(card):
        if flow.token_url and _same_url(flow.token_url, token_url):
            return True
        url = flow.discovery_url.strip()
        for suffix in _DISCOVERY_SUFFIXES:
            if url.endswith(suffix) and any(_same_url(url[: -len(suffix)], i) for i in issuers if i):
                return True
    return False


# -- in-task authorization (A2A §7.6) --------------------------------------------------------------

# The keys of a status message's data part that name what an AUTH_REQUIRED task asks for. A2A
# defines no shape for it (§7.6.1: the status message explains it); these are the spellings seen:
# the scheme by its name on the card, or by kind (`authScheme: "oauth2"`), and a sign-in URL.
ASK_SCHEME_KEYS = ("securityScheme", "securitySchemes", "authScheme", "scheme")
ASK_URL_KEYS = ("authUrl", "authorizationUrl", "url")


class AuthAsk(NamedTuple):
    """What a task in AUTH_REQUIRED asks for, read against the card: the schemes (name, kind,
    body), whether its status message named them (else: every scheme the card declares that takes
    a credential), and a URL the message names for the sign-in ("" when none)."""

    schemes: list[tuple[str, str, dict[str, Any]]]
    named: bool
    url: str


def _ask_data(message: Any) -> list[dict[str, Any]]:
    parts = message.get("parts") if isinstance(message, dict) else None
    return [p["data"] for p in parts or [] if isinstance(p, dict) and isinstance(p.get("data"), dict)]


def auth_ask(card: Any, message: Any) -> AuthAsk:
    """The card's schemes an AUTH_REQUIRED status message (V1 shape) asks for. A data part that
    names a scheme (ASK_SCHEME_KEYS) picks it: by its name on the card, else by kind (apiKey,
    http, oauth2, openIdConnect, mutualTLS, any case). A name the card does not declare picks
    nothing: the card's schemes stand (a credential goes only where the card takes it)."""
    schemes = [s for s in declared(card) if s[1]]
    names: list[str] = []
    url = ""
    for data in _ask_data(message):
        for key in ASK_SCHEME_KEYS:
            value = data.get(key)
            names += [str(v) for v in (value if isinstance(value, list) else [value]) if isinstance(v, str) and v]
        url = url or next(
            (
                str(data[k])
                for k in ASK_URL_KEYS
                if isinstance(data.get(k), str) and str(data[k]).startswith(("https://", "http://"))
            ),
            "",
        )
    picked = [s for s in schemes if s[0] in names] or [s for s in schemes if s[1].lower() in {n.lower() for n in names}]
    return AuthAsk(picked or schemes, bool(picked), url)
