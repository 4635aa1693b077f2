"""Where a login goes: the endpoints of a flow from the Agent Card (its OAuth2 flows, or the
discovery document a scheme names) or from OpenID Connect / RFC 8414 discovery (the document's
issuer checked against its URL), and which flow to take of those offered."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from a2acli.auth.client import CARD_FLOWS
from a2acli.auth.oauth import _send, _unexpected, _why, require_tls
from a2acli.errors import AuthError, UsageError
from a2acli.settings.table import AUTHORIZATION_CODE, CLIENT_CREDENTIALS, DEVICE_CODE


def discover(url: str, *, transport: Any) -> dict[str, Any]:
    """An OpenID Connect discovery document (`.well-known/openid-configuration`) or RFC 8414
    authorization server metadata: the JSON object, its endpoints checked to be URLs."""
    require_tls(url, "discovery document", "the provider's endpoints")
    resp, body = _send("GET", url, "discovery document", transport=transport)
    if resp.status != 200 or not isinstance(body, dict):
        raise _unexpected(
            resp,
            f"the discovery document {url} could not be read ({_why(resp, body) if resp.status != 200 else 'not a JSON object'})",
            hint="check the card's openIdConnectUrl / oauth2MetadataUrl, or pass --device-authorization-url and --token-url",
        )
    from a2acli.wire import oidc

    if problem := oidc.issuer_problem(body, url):
        raise AuthError(
            problem,
            hint="a document that is not its issuer's may send the sign-in elsewhere: check the discovery URL (the card's openIdConnectUrl, or --discovery-url), "
            "or pass the endpoints yourself (--token-url with --authorization-url or --device-authorization-url)",
        )
    return body


class Endpoints(NamedTuple):
    """Where a login goes, and what said so."""

    flow: str  # CLIENT_CREDENTIALS, DEVICE_CODE or AUTHORIZATION_CODE ("" when nothing fits)
    token_url: str
    device_authorization_url: str | None = None
    scopes: tuple[str, ...] = ()
    source: str = ""  # in words: `the Agent Card's oauth2 scheme "o"`, `OpenID Connect discovery at URL`
    authorization_url: str | None = None
    issuer: str | None = None  # a discovery document's (checked against its URL)
    jwks_uri: str | None = None
    oidc: bool = False  # from an OpenID Connect discovery document: the scope asks for openid by default
    offered: frozenset[str] = frozenset()  # every flow the source has the endpoints of


def pick_flow(offered: set[str] | frozenset[str], *, have_secret: bool, browser: bool) -> str | None:
    """The flow to use of those offered, when --flow does not say: client credentials when a
    client secret is given for them; authorization code when a person with a browser is at the
    terminal (browser_at_hand); device code; client credentials; else None. Off a terminal the
    authorization-code flow is never chosen by itself: it waits for a browser."""
    for flow, ok in (
        (CLIENT_CREDENTIALS, have_secret),
        (AUTHORIZATION_CODE, browser),
        (DEVICE_CODE, True),
        (CLIENT_CREDENTIALS, True),
    ):
        if ok and flow in offered:
            return flow
    return None


def browser_at_hand() -> bool:
    """A person at a terminal whose browser can come back to this machine's loopback address:
    stdin and stderr are terminals (not CI, not a pipe) and this is no SSH session (a browser
    would open on, and redirect to, the wrong machine)."""
    import os
    import sys

    try:
        tty = sys.stdin.isatty() and sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False
    return tty and not (os.environ.get("SSH_CONNECTION") or os.environ.get("SSH_TTY"))


def _card_flow_usable(f: Any) -> bool:
    if f.flow not in CARD_FLOWS or not f.token_url:
        return False
    return {DEVICE_CODE: bool(f.device_authorization_url), AUTHORIZATION_CODE: bool(f.authorization_url)}.get(
        CARD_FLOWS[f.flow], True
    )


def _offered(doc: dict[str, Any], token_url: str, device_url: str, authorization_url: str) -> set[str]:
    """The flows a discovery document has the endpoints of: every flow needs the token endpoint;
    the authorization-code flow also `authorization_code` among grant_types_supported, when listed."""
    grants = doc.get("grant_types_supported")
    offered: set[str] = set()
    if token_url:
        offered.add(CLIENT_CREDENTIALS)
        if device_url:
            offered.add(DEVICE_CODE)
        if authorization_url and (not isinstance(grants, list) or "authorization_code" in grants):
            offered.add(AUTHORIZATION_CODE)
    return offered


def endpoints_from_discovery(
    url: str,
    flow: str | None,
    *,
    have_secret: bool,
    browser: bool,
    oidc: bool,
    transport: Any,
    fetch: Callable[..., dict[str, Any]] | None = None,
    scheme: str | None = None,
) -> Endpoints:
    """The endpoints an OpenID Connect discovery document or RFC 8414 metadata gives (discover:
    its issuer checked), for `flow` or the one pick_flow takes of those it offers: every flow
    needs its token_endpoint; device code its device_authorization_endpoint; authorization code
    its authorization_endpoint, and `authorization_code` among grant_types_supported when listed."""
    doc = (fetch or discover)(url, transport=transport)
    token_url = str(doc.get("token_endpoint") or "")
    device_url = str(doc.get("device_authorization_endpoint") or "")
    authorization_url = str(doc.get("authorization_endpoint") or "")
    offered = _offered(doc, token_url, device_url, authorization_url)
    scopes = tuple(str(x) for x in doc.get("scopes_supported") or () if isinstance(x, str))
    what = "OpenID Connect discovery" if oidc else "authorization server metadata"
    jwks = doc.get("jwks_uri")
    return Endpoints(
        flow or pick_flow(offered, have_secret=have_secret, browser=browser) or "",
        token_url,
        device_url or None,
        scopes,
        f"{what} at {url}" + (f" (scheme {scheme!r})" if scheme else ""),
        authorization_url or None,
        str(doc["issuer"]),
        str(jwks) if isinstance(jwks, str) and jwks else None,
        oidc,
        frozenset(offered),
    )


def endpoints_from_card(
    card_doc: Any,
    flow: str | None,
    *,
    have_secret: bool,
    browser: bool = False,
    transport: Any,
    fetch: Callable[..., dict[str, Any]] | None = None,
) -> Endpoints:
    """The endpoints of `flow` (None: the one pick_flow takes) from the card: a declared flow
    (V1 `deviceCode` / `clientCredentials` / `authorizationCode`, V0 the same but `deviceCode`)
    with its endpoints, else the discovery document an `openIdConnect` scheme's openIdConnectUrl
    or an oauth2 scheme's oauth2MetadataUrl names."""
    from a2acli.wire.security import oauth_flows

    flows = oauth_flows(card_doc)
    declared = [f for f in flows if _card_flow_usable(f)]
    chosen = flow or pick_flow({CARD_FLOWS[f.flow] for f in declared}, have_secret=have_secret, browser=browser)
    for f in declared:
        if CARD_FLOWS[f.flow] == chosen:
            return Endpoints(
                chosen,
                f.token_url,
                f.device_authorization_url or None,
                f.scopes,
                f"the Agent Card's oauth2 scheme {f.scheme!r}",
                f.authorization_url or None,
                offered=frozenset({chosen}),
            )
    for f in flows:
        if f.flow != "discovery":
            continue
        ep = endpoints_from_discovery(
            f.discovery_url,
            chosen,
            have_secret=have_secret,
            browser=browser,
            oidc=f.oidc,
            transport=transport,
            fetch=fetch,
            scheme=f.scheme,
        )
        if ep.flow and ep.flow in ep.offered:
            return ep
    if chosen is None and any(f.flow == "authorizationCode" for f in declared):
        raise UsageError(
            "the Agent Card offers only the authorization-code flow (you sign in with a browser), which is not chosen by itself off a terminal",
            hint="pass --flow authorization-code: the sign-in link goes to stderr, and --timeout bounds the wait for the browser",
        )
    if flow == DEVICE_CODE:
        raise UsageError(
            "the Agent Card declares no OAuth2 deviceCode flow, and no discovery document it names offers a device_authorization_endpoint",
            hint="pass --device-authorization-url URL and --token-url URL",
        )
    if flow == AUTHORIZATION_CODE:
        raise UsageError(
            "the Agent Card declares no OAuth2 authorizationCode flow, and no discovery document it names offers an authorization_endpoint",
            hint="pass --authorization-url URL and --token-url URL",
        )
    raise UsageError(
        "the Agent Card declares no OAuth2 clientCredentials flow"
        + (" (nor a discovery document with a token_endpoint)" if any(f.flow == "discovery" for f in flows) else ""),
        hint="pass --token-url URL (the OAuth2 token endpoint), or --device for the device-code flow",
    )
