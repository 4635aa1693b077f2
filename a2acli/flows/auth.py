"""`a2a auth`'s work, headless: the login (its plan from flows.auth_plan, run by the chosen OAuth2
flow, its profile and token saved), the status of a profile's token, the logout. Each is a function
of the invocation (the shared options given before or after the command: --profile, --config, the
connection options of the login) and its own arguments, returning an exit code; the token work
itself is a2acli/auth/'s. The CLI's `commands/auth.py` and `auth_login.py` declare the commands."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from a2acli.flows.auth_plan import LoginAsked, LoginConnection, LoginPlan, plan_login

if TYPE_CHECKING:
    from a2acli.flows.invocation import Invocation
    from a2acli.render.output import Output


def output(inv: Invocation) -> Output:
    """`auth`'s output: json or text (its reports have no wire bytes: any other mode is auto), in
    the mode this invocation decides (-o before or after the command, A2ACLI_OUTPUT, the config
    files); the boundary says errors through it."""
    from a2acli.render.output import JsonOutput, TextOutput

    return inv.checked_output(among=(JsonOutput, TextOutput))


def profile_settings(inv: Invocation, flags: dict[str, Any] | None = None, *, new_profile: bool = False) -> Any:
    """The settings an `auth` command acts on, read as every command reads them (settings.resolve:
    --config / A2ACLI_CONFIG, the local files, the global one; --profile before or after the
    command, A2ACLI_PROFILE, a default-profile), so `auth status` sees the [auth] table `send`
    uses: (the Resolved, the profile's name, whether it becomes the default profile: none is set).
    `new_profile`: `auth login` may name a profile no file defines yet."""
    from a2acli import settings

    given = inv.given
    res = settings.resolve(flags or {}, given.get("profile"), given.get("config"), new_profile=new_profile)
    return res, res.profile or "default", res.profile is None


# -- login ----------------------------------------------------------------------------------------


def login(inv: Invocation, asked: LoginAsked, *, no_browser: bool = False) -> int:
    """Get a token by the plan's flow (client credentials, device code, a browser sign-in), keep
    the settings in the profile and the token in its cache, and say so."""
    out = output(inv)
    debug = bool(inv.given.get("debug"))
    conn = _login_connection(inv, out, debug=debug)
    try:
        plan = plan_login(asked, conn, out)
        entry = _run_flow(plan, conn, out, debug=debug, no_browser=no_browser)
    finally:
        conn.transport.close()
    _save_login(plan, conn, entry)
    _report_login(plan, conn, entry, out)
    return 0


def _login_connection(inv: Invocation, out: Output, *, debug: bool) -> LoginConnection:
    """The profile and the connection options of `auth login`, resolved as every command resolves
    them (flag > environment > the profile > default; values parsed by the settings table), and
    the login's one transport: the card, the discovery document and the token endpoint go
    through it (its caps, its deadline, --debug with the secrets redacted)."""
    from a2acli import settings
    from a2acli.errors import UsageError
    from a2acli.settings.values import parse_setting
    from a2acli.transport.client import UNARY_BOUND, Transport, TransportConfig
    from a2acli.transport.taps import DebugTap
    from a2acli.wire import Wire, parse_version_choice

    given = inv.given  # before or after the command
    flags = {
        name.replace("_", "-"): given.get(name)
        for name in ("url", "catalog", "a2a_version", "cacert", "cert", "key", "timeout")
    }
    res, pname, becomes_default = profile_settings(inv, flags, new_profile=True)  # the files `send` reads
    home = settings.profile_file(res, pname)  # the file the login writes (no home directory: none, said here)
    if settings.token_cache_path() is None:  # said before anyone signs in: the token would be lost
        raise settings.no_config_home("place for the token cache (kept beside the global config file)")
    values, sources = res.values, res.sources
    agent_ref = None
    if values["url"]:  # host:port, a card file's path: what to read (as every command does)
        from a2acli.net import agent_reference

        agent_ref = agent_reference(str(values["url"]))
    paths = {
        name: settings.check_value(name, values[name]) if values[name] else None for name in ("cacert", "cert", "key")
    }
    insecure = bool(given.get("insecure"))
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
    taps: list[Any] | None = [DebugTap(lambda line: out.note(line, always=True), inv.redactor)] if debug else None
    strict = bool(given.get("strict_origin") or values.get("strict-origin"))
    return LoginConnection(
        pname,
        becomes_default,
        home,
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

    cc = plan.cc
    out.redactor.add(cc.client_secret)  # (the run's: the invocation built `out`)
    if plan.flow == auth.DEVICE_CODE:
        entry = _device_login(cc, out, transport=conn.transport, debug=debug)
    elif plan.flow == auth.AUTHORIZATION_CODE:
        entry = _browser_login(
            cc, out, transport=conn.transport, timeout=conn.timeout, debug=debug, no_browser=no_browser
        )
    else:
        entry = auth.request_token(cc, transport=conn.transport, note=out.note if debug else None)
    out.redactor.add(entry.get("access_token"), entry.get("refresh_token"))
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
        result["idToken"] = id_token_json(identity)
    return result


def _login_text(plan: LoginPlan, conn: LoginConnection, entry: dict[str, Any], out: Any) -> None:
    from a2acli import auth

    cc, chosen, identity = plan.cc, plan.flow, entry.get("identity") or {}
    left = entry["expires_at"] - time.time()
    what = f" ({auth.FLOW_WORDS[chosen]})" if chosen in auth.SIGN_IN else ""
    signed_in = f" as {who(identity)}" if identity else ""
    out.text(
        f"Logged in: profile {conn.pname}, client {cc.client_id} at {cc.token_url}{what}{signed_in}; the token is good for {ago(left)}."
    )
    if conn.becomes_default:  # in the file the login wrote (a --config one too)
        out.note(f"profile {conn.pname} is now the default profile ({conn.home})")


def flow_flag(flow: str | None, device: bool) -> str | None:
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

    grant = auth.device_authorize(cc, transport=transport)
    out.redactor.add(str(grant["device_code"]))
    expires = auth.positive_number(grant.get("expires_in"), 1800.0)
    out.tell(f"To sign in, open {grant['verification_uri']} and enter the code: {grant['user_code']}")
    if grant.get("verification_uri_complete"):
        out.tell("or open this link, which carries the code:")
        out.command(str(grant["verification_uri_complete"]))
    out.note(f"waiting for the sign-in to be approved (the code expires in {ago(expires)}; Ctrl-C stops)")
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
        out.note(f"waiting for the browser to come back to {listener.redirect_uri} (at most {ago(wait)}; Ctrl-C stops)")
        code = listener.wait(request, cc, timeout=wait, warn=out.warn)
    return auth.exchange_code(cc, code, request, transport=transport, note=out.note if debug else None)


# -- status and logout -----------------------------------------------------------------------------


def status(inv: Invocation) -> int:
    """The profile's OAuth2 settings, cached token (masked) and who signed in; exit 4
    (CredentialsMissingError) when no token can be had."""
    from a2acli import auth
    from a2acli.errors import CredentialsMissingError

    out = output(inv)
    res, pname, _ = profile_settings(inv, new_profile=True)  # a profile not defined has no OAuth2 settings (exit 4)
    cc = auth.ClientCredentials.from_profile(dict(res.auth))
    if cc is None:
        import shlex

        raise CredentialsMissingError(
            f"profile {pname} has no OAuth2 settings",
            hint=f"a2a auth login --profile {shlex.quote(pname)} --token-url URL --client-id ID --client-secret S",
        )
    home = None  # the profile's agent: its token is the one shown (tokens are kept per agent)
    if res.auth_home:
        from a2acli.net import agent_reference

        home = agent_reference(res.auth_home)
    entry = (auth.entry_for(pname, cc, home) if home else None) or auth.unbound(pname, cc) or {}
    now = time.time()
    expires = float(entry["expires_at"]) if entry.get("expires_at") is not None else None
    valid = bool(entry.get("access_token")) and (expires is None or expires - auth.LEEWAY > now)
    refreshable = bool(entry.get("refresh_token"))
    out.document(
        lambda: _status_json(pname, cc, entry, expires, now, valid=valid, refreshable=refreshable),
        lambda: out.text(*_status_lines(pname, cc, entry, expires, now)),
    )
    if not valid and not refreshable and (not cc.client_secret or cc.flow in auth.SIGN_IN):
        raise CredentialsMissingError(f"no valid token for profile {pname}", hint=cc.login_hint(pname))
    if not valid:
        out.note("a new token is requested on the next call" + (" (with the refresh token)" if refreshable else ""))
    return 0


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
        "audience": entry.get("audience"),
        "idToken": id_token_json(identity) if isinstance(identity, dict) else None,
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
            else (f"good for {ago(expires - now)}" if expires > now else f"expired {ago(now - expires)} ago")
        )
        lines.append(f"Token: {redact.mask(entry['access_token'])} ({when})")
    else:
        lines.append("Token: none cached")
    if entry.get("audience"):  # the agent it was got for: it is sent there, or where a card names its token endpoint
        lines.append(f"Audience: {entry['audience']}")
    identity = entry.get("identity")
    if isinstance(identity, dict):
        lines += [f"Signed in as: {who(identity)}", f"ID token signature: {identity.get('signature')}"]
    return lines


def logout(inv: Invocation) -> int:
    """The profile's cached tokens and its stored client secret forgotten (its other settings stay)."""
    from a2acli import auth, settings

    out = inv.out = inv.bare_output()  # its errors in text, like its report
    res, pname, _ = profile_settings(inv, new_profile=True)
    dropped = auth.forget(pname)
    path = settings.profile_file(res, pname)  # where the profile is kept (a --config / A2ACLI_CONFIG file too)
    kept: dict[str, Any] = next((f.data for f in res.files if f.path == path), {})
    prof = (kept.get("profiles") or {}).get(pname) or {}
    had_secret = bool((prof.get("auth") or {}).get("client-secret"))
    if had_secret:
        edit = settings.ConfigEdit(path)
        edit.delete(("profiles", pname, "auth", "client-secret"))
        edit.save()
    if dropped or had_secret:
        out.note(
            f"logged out of profile {pname}: {dropped} cached token(s) dropped"
            + (", client secret removed" if had_secret else "")
        )
    else:
        out.note(f"profile {pname}: nothing to forget")
    return 0


def ago(seconds: float) -> str:
    s = abs(int(seconds))
    text = f"{s // 3600} h {s % 3600 // 60} min" if s >= 3600 else f"{s // 60} min" if s >= 120 else f"{s} s"
    return text


def who(identity: dict[str, Any]) -> str:
    """`alice (alice@example.com), issuer https://idp.example`: an ID token's subject, in words."""
    name = identity.get("email") or identity.get("preferred_username") or identity.get("name")
    return (
        f"{identity.get('sub')}"
        + (f" ({name})" if name and name != identity.get("sub") else "")
        + (f", issuer {identity['iss']}" if identity.get("iss") else "")
    )


def id_token_json(identity: dict[str, Any]) -> dict[str, Any]:
    shown = {"subject": identity.get("sub"), "issuer": identity.get("iss"), "signature": identity.get("signature")}
    for key, name in (("email", "email"), ("preferred_username", "preferredUsername"), ("name", "name")):
        if identity.get(key):
            shown[name] = identity[key]
    return shown
