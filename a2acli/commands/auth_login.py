"""`a2a auth login`: its options, the connection it reads, the plan (auth_plan) run by its flow,
and the profile and the token saved."""

import time
from typing import Annotated, Any

import typer

from a2acli.commands._options import PS, port_number
from a2acli.commands.auth_common import OutputOpt, ProfileOpt, _ago, _id_token_json, _output, _pick, _settings, _who
from a2acli.flows.auth_plan import LoginAsked, LoginConnection, LoginPlan, plan_login

ENDPOINTS = "Endpoints"  # a panel of their own: long names and URLs, kept whole at 80 columns
# The shared options this command takes (`auth_login.shared_options`: its class declares them,
# commands.shared), folded in its help like every command's (named at the end of it, explained by
# `a2a help options`); their values come from this invocation (`_pick`), before or after the command.
LOGIN_SHARED = (
    "url",
    "catalog",
    "a2a_version",
    "cacert",
    "cert",
    "key",
    "insecure",
    "strict_origin",
    "no_cache",
    "timeout",
    "debug",
)


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
            parser=port_number,
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
    output: OutputOpt = None,
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

      a2a auth login --profile prod --token-url https://idp.example/oauth/token \\
          --client-id cli --client-secret "$SECRET"

      A2ACLI_CLIENT_SECRET=... a2a auth login --profile prod \\
          -u https://agent.example --client-id cli --scope a2a.read

      a2a auth login --device --profile me -u https://agent.example \\
          --client-id a2a-cli

      a2a auth login --flow authorization-code --profile me \\
          -u https://agent.example --client-id a2a-cli

      a2a --profile prod send "hello"
    """

    out = _output(ctx)
    debug = bool(_pick(ctx, "debug", None))
    conn = _login_connection(
        ctx,
        out,
        debug=debug,
        profile=profile,
        **{name: _pick(ctx, name, None) for name in LOGIN_SHARED if name != "debug"},  # before or after the command
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
    try:
        plan = plan_login(asked, conn, out)
        entry = _run_flow(plan, conn, out, debug=debug, no_browser=no_browser)
    finally:
        conn.transport.close()
    _save_login(plan, conn, entry)
    _report_login(plan, conn, entry, out)


def _login_connection(
    ctx: typer.Context, out: Any, *, debug: bool, profile: str | None, **given: Any
) -> LoginConnection:
    """The profile and the connection options of `auth login`, resolved as every command resolves
    them (flag > environment > the profile > default; values parsed by the settings table), and
    the login's one transport: the card, the discovery document and the token endpoint go
    through it (its caps, its deadline, --debug with the secrets redacted)."""
    from a2acli import settings
    from a2acli.errors import UsageError
    from a2acli.redact import active
    from a2acli.settings.values import parse_setting
    from a2acli.transport.client import UNARY_BOUND, Transport, TransportConfig
    from a2acli.transport.taps import DebugTap
    from a2acli.wire import Wire, parse_version_choice

    flags = {
        name.replace("_", "-"): _pick(ctx, name, given[name])
        for name in ("url", "catalog", "a2a_version", "cacert", "cert", "key", "timeout")
    }
    res, pname, becomes_default = _settings(ctx, flags, new_profile=True)  # the files `send` reads
    values, sources = res.values, res.sources
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
        version=version,
        timeout=tout,
        unary_bound=None if tout else UNARY_BOUND,
        insecure=insecure,
        cacert=paths["cacert"],
        cert=paths["cert"],
        key=paths["key"],
    )
    taps: list[Any] | None = [DebugTap(lambda line: out.note(line, always=True), active())] if debug else None
    strict = bool(_pick(ctx, "strict_origin", given["strict_origin"]) or values.get("strict-origin"))
    return LoginConnection(
        pname,
        becomes_default,
        settings.profile_file(res, pname),
        dict(res.auth),
        dict(res.catalogs),
        flags["url"],
        agent_ref,
        flags["catalog"],
        values["catalog"],
        cfg,
        Transport(cfg, taps),
        tout,
        strict,
    )


def _run_flow(plan: LoginPlan, conn: LoginConnection, out: Any, *, debug: bool, no_browser: bool) -> dict[str, Any]:
    """Ask for the token by the plan's flow; every secret of the answer is redacted from now on."""
    from a2acli import auth
    from a2acli.redact import active

    cc = plan.cc
    active().add(cc.client_secret)
    if plan.flow == auth.DEVICE_CODE:
        entry = _device_login(cc, out, transport=conn.transport, debug=debug)
    elif plan.flow == auth.AUTHORIZATION_CODE:
        entry = _browser_login(
            cc, out, transport=conn.transport, timeout=conn.timeout, debug=debug, no_browser=no_browser
        )
    else:
        entry = auth.request_token(cc, transport=conn.transport, note=out.note if debug else None)
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
    edit = settings.ConfigEdit(conn.home)  # the file the profile is kept in (a --config / A2ACLI_CONFIG one too)
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
    if plan.cc.issuer:
        entry["issuer"] = plan.cc.issuer
    auth.store(pname, plan.cc, conn.agent_ref, entry)  # for the agent it was obtained for: it goes nowhere else


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


def _device_login(cc: Any, out: Any, *, transport: Any, debug: bool) -> dict[str, Any]:
    """RFC 8628: ask for a device code, tell the user where to enter it (stderr), poll for the token."""
    from a2acli import auth
    from a2acli.redact import active

    grant = auth.device_authorize(cc, transport=transport)
    active().add(str(grant["device_code"]))
    expires = auth.positive_number(grant.get("expires_in"), 1800.0)
    out.tell(f"To sign in, open {grant['verification_uri']} and enter the code: {grant['user_code']}")
    if grant.get("verification_uri_complete"):
        out.tell("or open this link, which carries the code:")
        out.command(str(grant["verification_uri_complete"]))
    out.note(f"waiting for the sign-in to be approved (the code expires in {_ago(expires)}; Ctrl-C stops)")
    return auth.poll_device_token(cc, grant, transport=transport, note=out.note if debug else None)


def _browser_login(
    cc: Any, out: Any, *, transport: Any, timeout: float | None, debug: bool, no_browser: bool
) -> dict[str, Any]:
    """Authorization code with PKCE: listen on 127.0.0.1, send the browser to the authorization
    endpoint (the link on stderr; opened at a terminal unless --no-browser), take the code it
    brings back, exchange it for the token."""
    from a2acli import auth

    wait = timeout or auth.BROWSER_WAIT
    with auth.RedirectListener(cc.redirect_port) as listener:
        request = listener.begin(cc)
        opened = not no_browser and auth.browser.BROWSER(request.url)
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
    return auth.exchange_code(cc, code, request, transport=transport, note=out.note if debug else None)
