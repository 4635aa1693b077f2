"""`a2a auth login`'s plan, before any token is asked for: which flow, which endpoints (given, the
profile's, a discovery document's or the Agent Card's: the card read here, its endpoints checked
against the agent's origin), which client. Unit-tested apart from the command (test_auth_plan)."""

from __future__ import annotations

from typing import Any, NamedTuple

# The endpoint a person's sign-in starts at, per flow: (in words, its flag and profile key).
_FIRST = {
    "device-code": ("device authorization endpoint", "device-authorization-url"),
    "authorization-code": ("authorization endpoint", "authorization-url"),
}


class LoginConnection(NamedTuple):
    """What `auth login` reads before any request: the profile it writes, the config as it is, and
    how to reach the agent and the identity provider (the connection options, resolved)."""

    pname: str
    becomes_default: bool  # no default profile was set: this one becomes it
    home: Any  # the config file the profile is kept in, which the login writes (settings.profile_file)
    saved: dict[str, Any]  # the [auth] table as a call with the profile reads it
    named_catalogs: dict[str, str]  # the config's and the profile's [catalogs] (the profile's win a name)
    url: str | None  # -u as given on the command line (the profile keeps it)
    agent_ref: str | None  # the agent as read (agent_reference of -u, the env's or the profile's)
    catalog_flag: str | None  # --catalog as given (the profile keeps it)
    catalog: str | None  # the catalog as resolved
    cfg: Any  # transport.client.TransportConfig for the card and the token endpoint
    transport: Any  # transport.client.Transport: the login's one client, its taps (--debug), its deadline
    timeout: float | None
    strict: bool


class LoginAsked(NamedTuple):
    """The flow and endpoints the command line names (None: the profile's, else the card's)."""

    flow: str | None
    token_url: str | None
    client_id: str | None
    client_secret: str | None
    scopes: tuple[str, ...]
    client_auth: str | None
    device_authorization_url: str | None
    authorization_url: str | None
    redirect_port: int | None
    discovery_url: str | None


class LoginPlan(NamedTuple):
    """The flow to run and the client that runs it, with the endpoints found for it."""

    flow: str
    cc: Any  # auth.ClientCredentials
    first_url: str | None  # where a person's sign-in starts (device authorization or authorization endpoint)
    new_auth: dict[str, Any]  # the profile's [auth] table after the login


def plan_login(asked: LoginAsked, conn: LoginConnection, out: Any) -> LoginPlan:
    """Which flow, which endpoints (given, the profile's, a discovery document's or the Agent
    Card's), which client: everything `auth login` needs before it asks for a token, checked."""
    from a2acli import auth

    saved = conn.saved
    chosen = asked.flow or _flow_named_by_endpoints(asked, saved)
    secret = asked.client_secret or saved.get("client-secret")
    token_url = asked.token_url or saved.get("token-url")
    # the endpoint a person's sign-in starts at (_FIRST): given, else the profile's
    first = {auth.DEVICE_CODE: asked.device_authorization_url, auth.AUTHORIZATION_CODE: asked.authorization_url}
    first_url = (first[chosen] or saved.get(_FIRST[chosen][1])) if chosen in _FIRST else None
    ep: Any = None
    if asked.discovery_url:
        ep = _endpoints_from_discovery(asked, conn, chosen, have_secret=bool(secret), out=out)
        chosen = ep.flow or chosen
        token_url = asked.token_url or ep.token_url or token_url
        found = {auth.DEVICE_CODE: ep.device_authorization_url, auth.AUTHORIZATION_CODE: ep.authorization_url}
        first_url = first.get(chosen or "") or found.get(chosen or "") or first_url
    if chosen is None and token_url:
        chosen = auth.CLIENT_CREDENTIALS
    if not token_url or (chosen in _FIRST and not first_url):
        ep, agent = _endpoints_of_the_agent(conn, chosen, token_url, have_secret=bool(secret), out=out)
        chosen = ep.flow
        token_url = asked.token_url or ep.token_url
        first_url = first.get(chosen) or {
            auth.DEVICE_CODE: ep.device_authorization_url,
            auth.AUTHORIZATION_CODE: ep.authorization_url,
        }.get(chosen)
        _say_endpoints(ep, agent, conn, chosen, token_url, first_url, out)
    chosen = chosen or auth.CLIENT_CREDENTIALS
    cc = _client(asked, saved, chosen, token_url, first_url, ep, secret)
    return LoginPlan(chosen, cc, first_url, _new_auth(cc, saved, first_url))


def _flow_named_by_endpoints(asked: LoginAsked, saved: dict[str, Any]) -> str | None:
    """The flow an endpoint flag implies, else the profile's (when no token endpoint is given)."""
    from a2acli import auth

    if asked.device_authorization_url:
        return auth.DEVICE_CODE
    if asked.authorization_url:
        return auth.AUTHORIZATION_CODE
    if not asked.token_url and saved.get("token-url"):
        return auth.profile_flow(saved)
    return None


def _endpoints_from_discovery(
    asked: LoginAsked, conn: LoginConnection, chosen: str | None, *, have_secret: bool, out: Any
) -> Any:
    """--discovery-url: the endpoints an OpenID Connect discovery document (or RFC 8414 metadata) names."""
    from a2acli import auth, settings
    from a2acli.wire.oidc import OIDC_WELL_KNOWN

    url = str(asked.discovery_url)
    settings.check_url(url, "--discovery-url")
    ep = auth.endpoints_from_discovery(
        url,
        chosen,
        have_secret=have_secret,
        browser=auth.browser_at_hand(),
        oidc=OIDC_WELL_KNOWN in url,
        transport=conn.transport,
    )
    flow = ep.flow or chosen
    token = asked.token_url or ep.token_url or conn.saved.get("token-url")
    sign_in = {
        auth.DEVICE_CODE: asked.device_authorization_url or ep.device_authorization_url,
        auth.AUTHORIZATION_CODE: asked.authorization_url or ep.authorization_url,
    }.get(flow or "")
    out.note(
        f"endpoints from {url}: token {token or 'none'}"
        + (f", {_FIRST[flow][0]} {sign_in or 'none'}" if flow in _FIRST else "")
    )
    return ep


def _endpoints_of_the_agent(
    conn: LoginConnection, chosen: str | None, token_url: str | None, *, have_secret: bool, out: Any
) -> tuple[Any, str]:
    """No endpoint given or kept: the Agent Card of -u names them (its OAuth2 flow, or the
    discovery document it names)."""
    from a2acli import auth
    from a2acli.errors import UsageError

    if not conn.agent_ref:
        need = "--token-url URL" + (f" and --{_FIRST[chosen][1]} URL" if chosen in _FIRST else "")
        raise UsageError(
            f"no {_FIRST[str(chosen)][0] if token_url else 'token endpoint'}",
            hint=f"pass {need}, or -u URL of an agent whose card declares an OAuth2 flow",
        )
    if conn.catalog:
        from a2acli import settings

        settings.check_catalog(conn.catalog, "--catalog")
    ep, agent = _endpoints_from_card(
        conn.transport,
        conn.agent_ref,
        chosen,
        have_secret=have_secret,
        browser=auth.browser_at_hand(),
        catalogs=(conn.catalog, tuple(conn.named_catalogs.items())),
        out=out,
    )
    return ep, agent


def _say_endpoints(
    ep: Any, agent: str, conn: LoginConnection, chosen: str, token_url: str, first_url: str | None, out: Any
) -> None:
    """Where the endpoints came from, and a warning for each that is on another origin than the
    agent (refused under --strict-origin): the secret or the sign-in crosses to it."""
    from a2acli import auth
    from a2acli.pipeline.origin import origin

    scopes = f" (scopes: {', '.join(ep.scopes)})" if ep.scopes else ""
    out.note(
        f"{chosen} endpoints from {ep.source}: token {token_url}"
        + (f", {_FIRST[chosen][0]} {first_url}" if chosen in _FIRST else "")
        + scopes
    )
    crosses = {auth.CLIENT_CREDENTIALS: "the client secret", auth.DEVICE_CODE: "the device code and the token"}.get(
        chosen, "the authorization code and the token"
    )
    said: set[Any] = set()
    for endpoint, kind in (
        (first_url if chosen == auth.DEVICE_CODE else None, "device authorization endpoint"),
        (token_url, "token endpoint"),
    ):
        if endpoint and origin(endpoint) not in said:  # one line per host
            said.add(origin(endpoint))
            _token_origin(agent, endpoint, strict=conn.strict, out=out, crosses=crosses, what=kind)


def _client(
    asked: LoginAsked, saved: dict[str, Any], chosen: str, token_url: Any, first_url: Any, ep: Any, secret: Any
) -> Any:
    """The OAuth2 client of the login (auth.ClientCredentials), checked: its endpoints, id, secret,
    scopes and how it authenticates."""
    from a2acli import auth, settings
    from a2acli.errors import UsageError

    settings.check_url(token_url, "--token-url")
    if chosen in _FIRST:
        settings.check_url(str(first_url), f"--{_FIRST[chosen][1]}")
    client_id = asked.client_id or saved.get("client-id")
    if not client_id:
        raise UsageError("no client id", hint="pass --client-id ID (or A2ACLI_CLIENT_ID)")
    if chosen == auth.CLIENT_CREDENTIALS and not secret:
        raise UsageError(
            "no client secret",
            hint="pass --client-secret S, or better A2ACLI_CLIENT_SECRET=S (or sign in as a person: --device, or --flow authorization-code)",
        )
    if chosen in auth.SIGN_IN and not asked.client_secret:
        secret = None  # a public client: a secret stored for client credentials is not sent
    scope_text = " ".join(asked.scopes) if asked.scopes else saved.get("scope")
    if not scope_text and ep is not None and ep.oidc and chosen in auth.SIGN_IN:
        scope_text = "openid"  # an OpenID Connect provider: the sign-in is an OpenID Connect one
    how = (asked.client_auth or saved.get("client-auth") or "basic").lower()
    if how not in ("basic", "post"):
        raise UsageError(
            f"--client-auth {how!r} is not basic or post", hint="basic (HTTP Basic, the default) or post (form fields)"
        )
    port = asked.redirect_port if asked.redirect_port is not None else auth.profile_port(saved)
    return auth.ClientCredentials(
        token_url,
        client_id,
        secret,
        scope_text,
        how,
        chosen,
        first_url if chosen == auth.DEVICE_CODE else None,
        first_url if chosen == auth.AUTHORIZATION_CODE else None,
        port,
        ep.issuer if ep is not None else None,
        ep.jwks_uri if ep is not None else None,
    )


def _new_auth(cc: Any, saved: dict[str, Any], first_url: str | None) -> dict[str, Any]:
    """The profile's [auth] table after a login with `cc`."""
    from a2acli import auth

    chosen = cc.flow
    new_auth: dict[str, Any] = {"token-url": cc.token_url, "client-id": cc.client_id}
    if cc.client_secret:
        new_auth["client-secret"] = cc.client_secret
    if cc.scope:
        new_auth["scope"] = cc.scope
    if cc.client_auth != "basic" or "client-auth" in saved:
        new_auth["client-auth"] = cc.client_auth
    if chosen in _FIRST:
        new_auth.update({"flow": chosen, _FIRST[chosen][1]: str(first_url)})
    elif "flow" in saved:
        new_auth["flow"] = auth.CLIENT_CREDENTIALS
    if chosen == auth.AUTHORIZATION_CODE and cc.redirect_port:
        new_auth["redirect-port"] = cc.redirect_port
    return new_auth


def _token_origin(
    agent_url: str,
    token_url: str,
    *,
    strict: bool,
    out: Any,
    crosses: str = "the client secret",
    what: str = "token endpoint",
) -> None:
    """What a login sends (`crosses`: the client secret, the device code) goes to the endpoint
    the card names: said once when it is on another origin than the agent's, refused under
    --strict-origin (issue 14: credentials stay with their origin)."""
    from a2acli.errors import CredentialsWithheldError
    from a2acli.pipeline.origin import origin

    if origin(agent_url) == origin(token_url):
        return
    host = origin(token_url)[1]
    if strict:
        raise CredentialsWithheldError(
            f"the Agent Card at {agent_url} names a {what} on another origin, {token_url}: --strict-origin keeps {crosses} at {origin(agent_url)[1]}",
            hint="if you trust it, pass it yourself: --token-url URL (or drop --strict-origin)",
        )
    verb = "go" if " and " in crosses else "goes"
    out.warn(f"{crosses} {verb} to {host}, the {what} named by the Agent Card at {agent_url}")


def _endpoints_from_card(
    transport: Any,
    url: str,
    flow: str | None,
    *,
    have_secret: bool,
    browser: bool,
    catalogs: tuple[Any, Any] = (None, ()),
    out: Any = None,
) -> tuple[Any, str]:
    """The login endpoints the public Agent Card of `url` gives (auth.endpoints_from_card), read
    off the card as the agent spelt it (a V0 card's several flows are all there), and the agent's
    URL: `url`, or where the catalog entry it names (catalog:NAME) says the card is. `transport`:
    the login's (transport.client.Transport)."""
    from a2acli import auth
    from a2acli.transport.card import fetch_card
    from a2acli.transport.catalog import locate, resolve

    located = locate(url, *catalogs)
    card = None
    if located is not None:
        found = resolve(transport, located)
        url, card = found.agent, found.card
        if out is not None:
            out.note(f"{located.reference}: {found.note}, from the catalog {located.catalog}")
    fetched = card or fetch_card(transport, url)  # the public card: no credentials
    return auth.endpoints_from_card(
        fetched.doc if isinstance(fetched.doc, dict) else {},
        flow,
        have_secret=have_secret,
        browser=browser,
        transport=transport,
    ), url
