"""`a2a auth login|status|logout`: OAuth2 client credentials kept in a profile, tokens cached."""

from __future__ import annotations

import time
from typing import Annotated, Any, NamedTuple

import typer

from a2acli.commands._options import PS, complete_profiles, folded

app = typer.Typer(
    help="OAuth2 and OpenID Connect: get a token for a profile (client credentials, device code, browser sign-in), show it, forget it.",
    no_args_is_help=True,
)

ProfileOpt = Annotated[
    str | None,
    typer.Option(
        "--profile",
        help="The profile holding the OAuth2 settings (default: A2ACLI_PROFILE, the default profile, else 'default').",
        show_default=False,
        metavar="NAME",
        autocompletion=complete_profiles,
    ),
]
OutputOpt = Annotated[
    str | None, typer.Option("--output", "-o", help="text or json.", show_default=False, metavar="text|json")
]
ENDPOINTS = "Endpoints"  # a panel of their own: long names and URLs, kept whole at 80 columns
# The shared options this command takes, as _options.COMMON declares them, folded in its help
# like every command's (named at the end of it, explained by `a2a help options`): Typer evaluates
# these annotations at run time; to mypy they are values, hence the ignores where they are used.
UrlOpt = folded("url")
CatalogOpt = folded("catalog")
A2aVersionOpt = folded("a2a_version")
CacertOpt = folded("cacert")
CertOpt = folded("cert")
KeyOpt = folded("key")
InsecureOpt = folded("insecure")
StrictOriginOpt = folded("strict_origin")
TimeoutOpt = folded("timeout")
DebugOpt = folded("debug")
LOGIN_SHARED = (
    "url",
    "catalog",
    "a2a_version",
    "cacert",
    "cert",
    "key",
    "insecure",
    "strict_origin",
    "timeout",
    "debug",
)


def _root(ctx: typer.Context) -> dict[str, Any]:
    obj = ctx.find_root().obj
    return obj if isinstance(obj, dict) else {}


def _pick(ctx: typer.Context, name: str, value: Any) -> Any:
    return value if value not in (None, False, []) else _root(ctx).get(name)


def _output(ctx: typer.Context, output: str | None) -> Any:
    """`auth`'s output: json or text (its reports have no wire bytes: any other mode is auto)."""
    from a2acli.render.output import JsonOutput, TextOutput, pick

    return pick(_pick(ctx, "output", output), among=(JsonOutput, TextOutput))()


def _profile(ctx: typer.Context, profile: str | None, config: dict[str, Any]) -> tuple[str, bool]:
    from a2acli import settings

    return settings.target_profile(_pick(ctx, "profile", profile), config)


def _ago(seconds: float) -> str:
    s = abs(int(seconds))
    text = f"{s // 3600} h {s % 3600 // 60} min" if s >= 3600 else f"{s // 60} min" if s >= 120 else f"{s} s"
    return text


FlowOpt = Annotated[
    str | None,
    typer.Option(
        "--flow",
        metavar="FLOW",
        help="client-credentials, device-code (RFC 8628: you approve the sign-in on any device) or authorization-code (you sign in with a browser on this machine: PKCE, a loopback redirect). "
        "Default: the profile's, else what the Agent Card (or its discovery document) offers: client credentials when a client secret is given, "
        "authorization code at a terminal, device code, client credentials.",
        show_default=False,
        autocompletion=lambda: ["client-credentials", "device-code", "authorization-code"],
    ),
]


def auth_login(
    ctx: typer.Context,
    token_url: Annotated[
        str | None,
        typer.Option(
            "--token-url",
            metavar="URL",
            rich_help_panel=ENDPOINTS,
            envvar="A2ACLI_TOKEN_URL",
            show_envvar=False,
            help="The OAuth2 token endpoint (default: the profile's, else from the Agent Card of --url: its OAuth2 flow, or the discovery document it names; env: A2ACLI_TOKEN_URL).",
            show_default=False,
        ),
    ] = None,
    client_id: Annotated[
        str | None,
        typer.Option(
            "--client-id",
            metavar="ID",
            envvar="A2ACLI_CLIENT_ID",
            show_envvar=False,
            help="The OAuth2 client id (default: the profile's; env: A2ACLI_CLIENT_ID).",
            show_default=False,
        ),
    ] = None,
    client_secret: Annotated[
        str | None,
        typer.Option(
            "--client-secret",
            metavar="SECRET",
            envvar="A2ACLI_CLIENT_SECRET",
            show_envvar=False,
            help=f"The client secret (default: the profile's; env: A2ACLI_CLIENT_SECRET; optional for --device, a public client). {PS}",
            show_default=False,
        ),
    ] = None,
    scope: Annotated[
        list[str] | None,
        typer.Option(
            "--scope",
            metavar="SCOPE",
            help="A scope to ask for (repeatable; default: the profile's).",
            show_default=False,
        ),
    ] = None,
    client_auth: Annotated[
        str | None,
        typer.Option(
            "--client-auth",
            metavar="basic|post",
            help="How the client authenticates: basic (HTTP Basic, default) or post (form fields).",
            show_default=False,
            autocompletion=lambda: ["basic", "post"],
        ),
    ] = None,
    flow: FlowOpt = None,
    device: Annotated[
        bool, typer.Option("--device", help="The device-code flow (same as --flow device-code).")
    ] = False,
    device_authorization_url: Annotated[
        str | None,
        typer.Option(
            "--device-authorization-url",
            metavar="URL",
            rich_help_panel=ENDPOINTS,
            envvar="A2ACLI_DEVICE_AUTHORIZATION_URL",
            show_envvar=False,
            help="The RFC 8628 device authorization endpoint (implies --device; default: the profile's, else from the Agent Card; env: A2ACLI_DEVICE_AUTHORIZATION_URL).",
            show_default=False,
        ),
    ] = None,
    authorization_url: Annotated[
        str | None,
        typer.Option(
            "--authorization-url",
            metavar="URL",
            rich_help_panel=ENDPOINTS,
            envvar="A2ACLI_AUTHORIZATION_URL",
            show_envvar=False,
            help="The OAuth2 authorization endpoint the browser signs in at (implies --flow authorization-code; default: the profile's, else from the Agent Card; env: A2ACLI_AUTHORIZATION_URL).",
            show_default=False,
        ),
    ] = None,
    no_browser: Annotated[
        bool,
        typer.Option(
            "--no-browser",
            help="authorization-code: only print the sign-in link (on stderr), do not open a browser. Off a terminal none is opened anyway.",
        ),
    ] = False,
    redirect_port: Annotated[
        int | None,
        typer.Option(
            "--redirect-port",
            metavar="PORT",
            min=0,
            max=65535,
            help="authorization-code: the port of the redirect http://127.0.0.1:PORT/callback (default: the profile's, else a free one; for a provider that wants it registered).",
            show_default=False,
        ),
    ] = None,
    discovery_url: Annotated[
        str | None,
        typer.Option(
            "--discovery-url",
            metavar="URL",
            rich_help_panel=ENDPOINTS,
            help="An OpenID Connect discovery document (…/.well-known/openid-configuration) or RFC 8414 metadata to read the endpoints from (its issuer must be the one its URL names).",
            show_default=False,
        ),
    ] = None,
    profile: ProfileOpt = None,
    url: UrlOpt = None,  # type: ignore[valid-type]
    catalog: CatalogOpt = None,  # type: ignore[valid-type]
    a2a_version: A2aVersionOpt = None,  # type: ignore[valid-type]
    cacert: CacertOpt = None,  # type: ignore[valid-type]
    cert: CertOpt = None,  # type: ignore[valid-type]
    key: KeyOpt = None,  # type: ignore[valid-type]
    insecure: InsecureOpt = False,  # type: ignore[valid-type]
    strict_origin: StrictOriginOpt = False,  # type: ignore[valid-type]
    timeout: TimeoutOpt = None,  # type: ignore[valid-type]
    output: OutputOpt = None,
    debug: DebugOpt = False,  # type: ignore[valid-type]
) -> None:
    """Get an OAuth2 token (client credentials, device code, or a browser sign-in) and keep the settings in a profile.

    The token is cached next to the config file (mode 0600) and sent as `Authorization: Bearer`
    by every method command using that profile, to agents whose card declares an http bearer,
    oauth2 or openIdConnect scheme. Client credentials: the token is requested again when it has
    expired; the client secret is stored in the profile (config file mode 0600) so that can happen
    unattended. Device code (RFC 8628): the code to enter and where go to stderr. Authorization
    code (PKCE, RFC 8252): the sign-in link goes to stderr and opens in your browser at a
    terminal, which comes back to 127.0.0.1; the wait ends at --timeout (default 5 min). Both
    renew the token with its refresh token when the server gave one, else `auth login` again.
    An OpenID Connect ID token is checked (issuer, audience, expiry, nonce, signature) and
    `auth status` shows who signed in. Endpoints come from flags, the profile, or the Agent Card
    of --url (its OAuth2 flow, or the OpenID Connect discovery document it names).

    Examples:

      a2a auth login --profile prod --token-url https://idp.example/oauth/token --client-id cli --client-secret "$SECRET"

      A2ACLI_CLIENT_SECRET=... a2a auth login --profile prod -u https://agent.example --client-id cli --scope a2a.read

      a2a auth login --device --profile me -u https://agent.example --client-id a2a-cli

      a2a auth login --flow authorization-code --profile me -u https://agent.example --client-id a2a-cli

      a2a --profile prod send "hello"
    """
    from a2acli.commands._run import boundary

    out = _output(ctx, output)
    debug = bool(_pick(ctx, "debug", debug))
    with boundary(debug=debug, out=out):
        conn = _login_connection(
            ctx,
            out,
            profile=profile,
            url=url,
            catalog=catalog,
            a2a_version=a2a_version,
            cacert=cacert,
            cert=cert,
            key=key,
            insecure=insecure,
            strict_origin=strict_origin,
            timeout=timeout,
        )
        asked = LoginAsked(
            _flow_flag(flow, device),
            token_url,
            client_id,
            client_secret,
            tuple(scope or ()),
            client_auth,
            device_authorization_url,
            authorization_url,
            redirect_port,
            discovery_url,
        )
        plan = plan_login(asked, conn, out)
        entry = _run_flow(plan, conn, out, debug=debug, no_browser=no_browser)
        _save_login(plan, conn, entry)
        _report_login(plan, conn, entry, out)


class LoginConnection(NamedTuple):
    """What `auth login` reads before any request: the profile it writes, the config as it is, and
    how to reach the agent and the identity provider (the connection options, resolved)."""

    pname: str
    becomes_default: bool  # no default profile was set: this one becomes it
    config: dict[str, Any]
    saved: dict[str, Any]  # the profile's [auth] table as it is
    named_catalogs: dict[str, str]  # the config's and the profile's [catalogs] (the profile's win a name)
    url: str | None  # -u as given on the command line (the profile keeps it)
    agent_ref: str | None  # the agent as read (agent_reference of -u, the env's or the profile's)
    catalog_flag: str | None  # --catalog as given (the profile keeps it)
    catalog: str | None  # the catalog as resolved
    cfg: Any  # transport.client.TransportConfig for the card and the token endpoint
    verify: Any
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


def _login_connection(ctx: typer.Context, out: Any, *, profile: str | None, **given: Any) -> LoginConnection:
    """The profile and the connection options of `auth login`, resolved as every command resolves
    them (flag > environment > the profile > default; values parsed by the settings table)."""
    from a2acli import settings
    from a2acli.errors import UsageError
    from a2acli.settings.values import parse_setting
    from a2acli.transport.client import TransportConfig, tls_verify
    from a2acli.wire import Wire, parse_version_choice

    config = settings.load_config()
    pname, becomes_default = _profile(ctx, profile, config)
    pvals = dict((config.get("profiles") or {}).get(pname) or {})
    flags = {
        name.replace("_", "-"): _pick(ctx, name, given[name])
        for name in ("url", "catalog", "a2a_version", "cacert", "cert", "key", "timeout")
    }
    values, sources = settings.resolve_values(flags, pname, pvals)
    agent_ref = None
    if values["url"]:  # host:port, a card file's path: what to read (as every command does)
        from a2acli.net import agent_reference

        agent_ref = agent_reference(str(values["url"]))
    paths = {
        name: settings.check_value(name, values[name]) if values[name] else None for name in ("cacert", "cert", "key")
    }
    insecure = bool(_pick(ctx, "insecure", given["insecure"]))
    if insecure:
        out.warn("--insecure: TLS certificates are NOT verified; the client secret and token can be read on the path")
    try:  # only the card is read here: auto reads it as 1.0 would
        version = (parse_version_choice(str(values["a2a-version"])) or Wire.V1).version
    except ValueError as e:
        raise UsageError(str(e), hint="--a2a-version 1.0 (default), 0.3 or auto") from None
    tout = parse_setting(
        "timeout", values["timeout"], sources.get("timeout", "flag")
    )  # as every command reads it (30, 30s, 2m)
    cfg = TransportConfig(
        version=version, timeout=tout, insecure=insecure, cacert=paths["cacert"], cert=paths["cert"], key=paths["key"]
    )
    strict = bool(_pick(ctx, "strict_origin", given["strict_origin"]) or values.get("strict-origin"))
    named = {**_table(config.get("catalogs")), **_table(pvals.get("catalogs"))}
    return LoginConnection(
        pname,
        becomes_default,
        config,
        dict(pvals.get("auth") or {}),
        named,
        flags["url"],
        agent_ref,
        flags["catalog"],
        values["catalog"],
        cfg,
        tls_verify(cfg),
        tout,
        strict,
    )


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
        verify=conn.verify,
        timeout=conn.timeout,
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
        conn.cfg,
        conn.agent_ref,
        chosen,
        have_secret=have_secret,
        browser=auth.browser_at_hand(),
        timeout=conn.timeout,
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


def _run_flow(plan: LoginPlan, conn: LoginConnection, out: Any, *, debug: bool, no_browser: bool) -> dict[str, Any]:
    """Ask for the token by the plan's flow; every secret of the answer is redacted from now on."""
    from a2acli import auth
    from a2acli.redact import active

    cc = plan.cc
    active().add(cc.client_secret)
    if plan.flow == auth.DEVICE_CODE:
        entry = _device_login(cc, out, verify=conn.verify, timeout=conn.timeout, debug=debug)
    elif plan.flow == auth.AUTHORIZATION_CODE:
        entry = _browser_login(cc, out, verify=conn.verify, timeout=conn.timeout, debug=debug, no_browser=no_browser)
    else:
        entry = auth.request_token(cc, verify=conn.verify, timeout=conn.timeout, note=out.note if debug else None)
    active().add(entry.get("access_token"), entry.get("refresh_token"))
    identity = entry.get("identity") or {}
    if identity and not str(identity.get("signature", "")).startswith("verified"):
        out.warn(
            f"the ID token's signature was not checked ({identity['signature'].removeprefix('not verified: ')}); its claims were"
        )
    return entry


def _save_login(plan: LoginPlan, conn: LoginConnection, entry: dict[str, Any]) -> None:
    """The profile's [auth] keys (and -u, --catalog when the profile has none) into the config file
    as it is now (the token request took a while), changed key by key: what the user wrote around
    these keys, and other keys of the [auth] table, stay as they are; then the token into its cache."""
    from a2acli import auth, settings

    pname, saved = conn.pname, conn.saved
    edit = settings.ConfigEdit()
    if conn.becomes_default and not edit.get(("default-profile",)):
        edit.set(("default-profile",), pname)
    for akey, avalue in plan.new_auth.items():
        edit.set(("profiles", pname, "auth", akey), avalue)
    stale = [
        k
        for k in ("client-secret", "device-authorization-url", "authorization-url", "redirect-port")
        if k in saved and k not in plan.new_auth
    ]
    for akey in stale:  # left from a login with the other flow
        edit.delete(("profiles", pname, "auth", akey))
    for name, given in (("url", conn.url), ("catalog", conn.catalog_flag)):
        if given and not edit.get(("profiles", pname, name)):  # the catalog is what -u catalog:NAME reads
            edit.set(("profiles", pname, name), settings.check_value(name, given))
    edit.save()
    auth.store(pname, entry)


def _report_login(plan: LoginPlan, conn: LoginConnection, entry: dict[str, Any], out: Any) -> None:
    """`Logged in: …` (text) or the login's document (-o json)."""
    out.document(lambda: _login_document(plan, conn, entry), lambda: _login_text(plan, conn, entry, out))


def _login_document(plan: LoginPlan, conn: LoginConnection, entry: dict[str, Any]) -> dict[str, Any]:
    from a2acli import auth

    cc, chosen, identity = plan.cc, plan.flow, entry.get("identity") or {}
    result = {
        "profile": conn.pname,
        "flow": chosen,
        "tokenUrl": cc.token_url,
        "clientId": cc.client_id,
        "scope": entry.get("scope"),
        "expiresAt": entry["expires_at"],
    }
    if chosen == auth.DEVICE_CODE:
        result["deviceAuthorizationUrl"] = plan.first_url
    if chosen == auth.AUTHORIZATION_CODE:
        result["authorizationUrl"] = plan.first_url
    if chosen in auth.SIGN_IN:
        result["refreshable"] = bool(entry.get("refresh_token"))
    if identity:
        result["idToken"] = _id_token_json(identity)
    return result


def _login_text(plan: LoginPlan, conn: LoginConnection, entry: dict[str, Any], out: Any) -> None:
    from a2acli import auth, settings

    cc, chosen, identity = plan.cc, plan.flow, entry.get("identity") or {}
    left = entry["expires_at"] - time.time()
    what = f" ({auth.FLOW_WORDS[chosen]})" if chosen in auth.SIGN_IN else ""
    who = f" as {_who(identity)}" if identity else ""
    out.text(
        f"Logged in: profile {conn.pname}, client {cc.client_id} at {cc.token_url}{what}{who}; the token is good for {_ago(left)}."
    )
    if conn.becomes_default:
        out.note(f"profile {conn.pname} is now the default profile ({settings.config_path()})")


auth_login.shared_options = (LOGIN_SHARED,)  # type: ignore[attr-defined]  # named at the end of its help


# The endpoint a person's sign-in starts at, per flow: (in words, its flag and profile key).
_FIRST = {
    "device-code": ("device authorization endpoint", "device-authorization-url"),
    "authorization-code": ("authorization endpoint", "authorization-url"),
}


def _who(identity: dict[str, Any]) -> str:
    """`alice (alice@example.com), issuer https://idp.example`: an ID token's subject, in words."""
    name = identity.get("email") or identity.get("preferred_username") or identity.get("name")
    return (
        f"{identity.get('sub')}"
        + (f" ({name})" if name and name != identity.get("sub") else "")
        + (f", issuer {identity['iss']}" if identity.get("iss") else "")
    )


def _id_token_json(identity: dict[str, Any]) -> dict[str, Any]:
    shown = {"subject": identity.get("sub"), "issuer": identity.get("iss"), "signature": identity.get("signature")}
    for key, name in (("email", "email"), ("preferred_username", "preferredUsername"), ("name", "name")):
        if identity.get(key):
            shown[name] = identity[key]
    return shown


def _flow_flag(flow: str | None, device: bool) -> str | None:
    """--flow / --device, checked: None when neither is given."""
    from a2acli import auth
    from a2acli.errors import UsageError

    if flow is not None:
        name = flow.strip().lower().replace("_", "-")
        name = {
            "device": auth.DEVICE_CODE,
            "client": auth.CLIENT_CREDENTIALS,
            "browser": auth.AUTHORIZATION_CODE,
            "code": auth.AUTHORIZATION_CODE,
        }.get(name, name)
        if name not in auth.FLOWS:
            raise UsageError(
                f"--flow {flow!r} is not {', '.join(auth.FLOWS[:-1])} or {auth.FLOWS[-1]}",
                hint="--flow client-credentials (a client secret), device-code (you approve on any device) or authorization-code (you sign in with a browser here)",
            )
        if device and name != auth.DEVICE_CODE:
            raise UsageError(f"--device and --flow {name} contradict each other", hint="pass one of them")
        return name
    return auth.DEVICE_CODE if device else None


def _device_login(cc: Any, out: Any, *, verify: Any, timeout: float | None, debug: bool) -> dict[str, Any]:
    """RFC 8628: ask for a device code, tell the user where to enter it (stderr), poll for the token."""
    from a2acli import auth
    from a2acli.redact import active

    grant = auth.device_authorize(cc, verify=verify, timeout=timeout)
    active().add(str(grant["device_code"]))
    expires = auth._number(grant.get("expires_in"), 1800.0)
    out.tell(f"To sign in, open {grant['verification_uri']} and enter the code: {grant['user_code']}")
    if grant.get("verification_uri_complete"):
        out.tell("or open this link, which carries the code:")
        out.command(str(grant["verification_uri_complete"]))
    out.note(f"waiting for the sign-in to be approved (the code expires in {_ago(expires)}; Ctrl-C stops)")
    return auth.poll_device_token(cc, grant, verify=verify, timeout=timeout, note=out.note if debug else None)


def _browser_login(
    cc: Any, out: Any, *, verify: Any, timeout: float | None, debug: bool, no_browser: bool
) -> dict[str, Any]:
    """Authorization code with PKCE: listen on 127.0.0.1, send the browser to the authorization
    endpoint (the link on stderr; opened at a terminal unless --no-browser), take the code it
    brings back, exchange it for the token."""
    from a2acli import auth

    wait = timeout or auth.BROWSER_WAIT
    with auth.RedirectListener(cc.redirect_port) as listener:
        request = listener.begin(cc)
        opened = not no_browser and auth.BROWSER(request.url)
        out.tell(
            "Your browser was opened to sign in; if it did not show the page, open this link:"
            if opened
            else "To sign in, open this link in a browser on this machine:"
        )
        out.command(request.url)
        out.note(
            f"waiting for the browser to come back to {listener.redirect_uri} (at most {_ago(wait)}; Ctrl-C stops)"
        )
        code = listener.wait(request, cc, timeout=wait)
    return auth.exchange_code(cc, code, request, verify=verify, timeout=timeout, note=out.note if debug else None)


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


def _table(value: Any) -> dict[str, str]:
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else {}


def _endpoints_from_card(
    cfg: Any,
    url: str,
    flow: str | None,
    *,
    have_secret: bool,
    browser: bool,
    timeout: float | None,
    catalogs: tuple[Any, Any] = (None, ()),
    out: Any = None,
) -> tuple[Any, str]:
    """The login endpoints the public Agent Card of `url` gives (auth.endpoints_from_card), read
    off the card as the agent spelt it (a V0 card's several flows are all there), and the agent's
    URL: `url`, or where the catalog entry it names (catalog:NAME) says the card is."""
    from a2acli import auth
    from a2acli.transport.card import fetch_card
    from a2acli.transport.catalog import locate, resolve
    from a2acli.transport.client import Transport, tls_verify

    transport = Transport(cfg)
    try:
        located = locate(url, *catalogs)
        card = None
        if located is not None:
            found = resolve(transport, located)
            url, card = found.agent, found.card
            if out is not None:
                out.note(f"{located.reference}: {found.note}, from the catalog {located.catalog}")
        fetched = card or fetch_card(transport, url)  # the public card: no credentials
    finally:
        transport.close()
    return auth.endpoints_from_card(
        fetched.doc if isinstance(fetched.doc, dict) else {},
        flow,
        have_secret=have_secret,
        browser=browser,
        verify=tls_verify(cfg),
        timeout=timeout,
    ), url


def auth_status(
    ctx: typer.Context,
    profile: ProfileOpt = None,
    output: OutputOpt = None,
) -> None:
    """Show the profile's OAuth2 settings, cached token (masked) and who signed in (an ID token's subject and issuer). Exit 4 when no token can be had.

    Examples:

      a2a auth status --profile prod

      a2a auth status -o json | jq .expiresIn
    """
    from a2acli import auth, settings
    from a2acli.commands._run import boundary
    from a2acli.errors import CredentialsMissingError

    out = _output(ctx, output)
    with boundary(out=out):
        config = settings.load_config()
        pname, _ = _profile(ctx, profile, config)
        saved = dict(((config.get("profiles") or {}).get(pname) or {}).get("auth") or {})
        cc = auth.ClientCredentials.from_profile(saved)
        if cc is None:
            import shlex

            raise CredentialsMissingError(
                f"profile {pname} has no OAuth2 settings",
                hint=f"a2a auth login --profile {shlex.quote(pname)} --token-url URL --client-id ID --client-secret S",
            )
        entry = auth.load_cache().get(auth.cache_key(pname, cc.token_url))
        entry = entry if isinstance(entry, dict) else {}
        now = time.time()
        expires = float(entry["expires_at"]) if entry.get("expires_at") is not None else None
        valid = bool(entry.get("access_token")) and (expires is None or expires - auth.LEEWAY > now)
        refreshable = bool(entry.get("refresh_token"))
        out.document(
            lambda: _status_json(pname, cc, entry, expires, now, valid=valid, refreshable=refreshable),
            lambda: out.text("\n".join(_status_lines(pname, cc, entry, expires, now))),
        )
        if not valid and not refreshable and (not cc.client_secret or cc.flow in auth.SIGN_IN):
            raise CredentialsMissingError(f"no valid token for profile {pname}", hint=cc.login_hint(pname))
        if not valid:
            out.note("a new token is requested on the next call" + (" (with the refresh token)" if refreshable else ""))


def _status_json(
    pname: str, cc: Any, entry: dict[str, Any], expires: float | None, now: float, *, valid: bool, refreshable: bool
) -> dict[str, Any]:
    """`auth status -o json`: the profile's OAuth2 settings and its cached token (masked)."""
    from a2acli import redact

    identity = entry.get("identity")
    return {
        "profile": pname,
        "flow": cc.flow,
        "tokenUrl": cc.token_url,
        "clientId": cc.client_id,
        "clientSecretStored": bool(cc.client_secret),
        "scope": cc.scope,
        "token": redact.mask(entry["access_token"]) if entry.get("access_token") else None,
        "valid": valid,
        "expiresAt": expires,
        "expiresIn": round(expires - now) if expires is not None else None,
        "refreshable": refreshable,
        "idToken": _id_token_json(identity) if isinstance(identity, dict) else None,
    }


def _status_lines(pname: str, cc: Any, entry: dict[str, Any], expires: float | None, now: float) -> list[str]:
    """`auth status` as text: one `Label: value` a line."""
    from a2acli import redact

    lines = [f"Profile: {pname}", f"Flow: {cc.flow}", f"Token URL: {cc.token_url}"]
    lines += [
        f"{label}: {url}"
        for label, url in (
            ("Device authorization URL", cc.device_authorization_url),
            ("Authorization URL", cc.authorization_url),
        )
        if url
    ]
    lines += [
        f"Client ID: {cc.client_id}",
        f"Client secret: {redact.mask(cc.client_secret) if cc.client_secret else 'not stored'}",
    ]
    if cc.scope:
        lines.append(f"Scope: {cc.scope}")
    if entry.get("access_token"):
        when = (
            "no expiry given"
            if expires is None
            else (f"good for {_ago(expires - now)}" if expires > now else f"expired {_ago(now - expires)} ago")
        )
        lines.append(f"Token: {redact.mask(entry['access_token'])} ({when})")
    else:
        lines.append("Token: none cached")
    identity = entry.get("identity")
    if isinstance(identity, dict):
        lines += [f"Signed in as: {_who(identity)}", f"ID token signature: {identity.get('signature')}"]
    return lines


def auth_logout(
    ctx: typer.Context,
    profile: ProfileOpt = None,
) -> None:
    """Forget the profile's cached tokens and its stored client secret (the other settings stay).

    Example:

      a2a auth logout --profile prod
    """
    from a2acli import auth, settings
    from a2acli.commands._run import boundary
    from a2acli.render.output import Output

    out = Output("auto")
    with boundary(out=out):
        config = settings.load_config()
        pname, _ = _profile(ctx, profile, config)
        dropped = auth.forget(pname)
        prof = (config.get("profiles") or {}).get(pname) or {}
        had_secret = bool((prof.get("auth") or {}).get("client-secret"))
        if had_secret:
            edit = settings.ConfigEdit()
            edit.delete(("profiles", pname, "auth", "client-secret"))
            edit.save()
        if dropped or had_secret:
            out.note(
                f"logged out of profile {pname}: {dropped} cached token(s) dropped"
                + (", client secret removed" if had_secret else "")
            )
        else:
            out.note(f"profile {pname}: nothing to forget")


app.command("login")(auth_login)
app.command("status")(auth_status)
app.command("logout")(auth_logout)
