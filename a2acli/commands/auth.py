"""`a2a auth login|status|logout`: OAuth2 client credentials kept in a profile, tokens cached. The
login is in auth_login (its plan in auth_plan); what the commands share, in auth_common."""

import time
from typing import Any

import typer

from a2acli.commands.auth_common import OutputOpt, ProfileOpt, _ago, _id_token_json, _output, _settings, _who
from a2acli.commands.auth_login import auth_login

app = typer.Typer(
    help="OAuth2 and OpenID Connect: get a token for a profile (client credentials, device code, browser sign-in), show it, forget it.",
    no_args_is_help=True,
)


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
    from a2acli import auth
    from a2acli.errors import CredentialsMissingError

    out = _output(ctx)
    res, pname, _ = _settings(ctx, new_profile=True)  # a profile not defined has no OAuth2 settings (exit 4)
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
    if entry.get("audience"):  # the agent it was got for: it is sent there, or where a card names its token endpoint
        lines.append(f"Audience: {entry['audience']}")
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
    from a2acli.commands.invocation import invocation
    from a2acli.render.output import Output

    out = invocation(ctx).out = Output("auto")  # its errors in text, like its report
    res, pname, _ = _settings(ctx, new_profile=True)
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


app.command("login")(auth_login)
app.command("status")(auth_status)
app.command("logout")(auth_logout)
