"""The grants that get a token at the token endpoint without a browser: client credentials
(RFC 6749 §4.4), the device authorization grant (RFC 8628) and the refresh of a token (RFC 6749 §6)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from a2acli.auth.client import ClientCredentials
from a2acli.auth.id_token import signed_in
from a2acli.auth.oauth import _client_form, _entry, _grant, _send, _unexpected, _why, positive_number, require_tls
from a2acli.errors import AuthError, CredentialsMissingError
from a2acli.settings.table import CLIENT_CREDENTIALS, DEVICE_CODE

DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"
DEFAULT_INTERVAL = 5.0  # RFC 8628 §3.2: when the answer gives none
SLOW_DOWN = 5.0  # RFC 8628 §3.5: added to the interval on each slow_down
# How the device-code poll waits and tells time: tests replace these (no real waiting).
SLEEP: Callable[[float], None] = time.sleep
CLOCK: Callable[[], float] = time.monotonic


def request_token(
    cc: ClientCredentials,
    *,
    transport: Any,
    note: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """POST grant_type=client_credentials to the token endpoint; the parsed answer, with expires_at."""
    if not cc.client_secret:
        raise CredentialsMissingError(
            f"no client secret for {cc.client_id} at {cc.token_url}",
            hint="a2a auth login --client-secret S (or A2ACLI_CLIENT_SECRET)",
        )
    require_tls(cc.token_url, "token endpoint", "the client secret")
    form = {"grant_type": "client_credentials"}
    if cc.scope:
        form["scope"] = cc.scope
    auth: Any = None
    if cc.client_auth == "post":
        form.update(client_id=cc.client_id, client_secret=cc.client_secret)
    else:
        auth = (cc.client_id, cc.client_secret)
    if note:
        note(f"requesting an OAuth2 token from {cc.token_url} (client credentials, client {cc.client_id})")
    body, t0 = _grant(
        cc,
        form,
        auth,
        "the client credentials",
        "check --client-id, --client-secret and --scope",
        transport=transport,
    )
    return _entry(body, t0, cc.token_url, cc.client_id, cc.scope, CLIENT_CREDENTIALS)


def device_authorize(cc: ClientCredentials, *, transport: Any) -> dict[str, Any]:
    """RFC 8628 §3.1-3.2: POST client_id (and scope) to the device authorization endpoint; its
    answer: device_code, user_code, verification_uri (+ _complete), expires_in, interval."""
    url = cc.device_authorization_url or ""
    require_tls(url, "device authorization endpoint", "the device code")
    form: dict[str, str] = {}
    auth = _client_form(cc, form)
    if cc.scope:
        form["scope"] = cc.scope
    resp, body = _send("POST", url, "device authorization endpoint", form=form, auth=auth, transport=transport)
    if resp.status != 200 or not isinstance(body, dict) or not body.get("device_code") or not body.get("user_code"):
        why = _why(resp, body)
        if resp.status in (400, 401, 403):
            raise AuthError(
                f"the device authorization endpoint {url} refused the request ({why})",
                hint="check --client-id and --scope (the client must be allowed the device flow)",
            )
        raise _unexpected(
            resp,
            f"the device authorization endpoint {url} gave no device code ({why})",
            hint="check --device-authorization-url (it must be the RFC 8628 endpoint)",
        )
    uri = body.get("verification_uri") or body.get("verification_url")  # some servers spell it _url
    if not uri:
        raise _unexpected(
            resp,
            f"the device authorization endpoint {url} gave no verification_uri",
            hint="the server must say where the user enters the code",
        )
    answer = dict(body)
    answer["verification_uri"] = str(uri)
    return answer


def poll_device_token(
    cc: ClientCredentials,
    grant: dict[str, Any],
    *,
    transport: Any,
    sleep: Callable[[float], None] | None = None,
    clock: Callable[[], float] | None = None,
    note: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """RFC 8628 §3.4-3.5: poll the token endpoint with the device code every `interval` seconds
    (5 when not given; 5 more on each slow_down) until a token comes, the user denies, or the
    code expires. `sleep` and `clock` are injectable (default: SLEEP and CLOCK; tests set them and
    do not wait)."""
    sleep, clock = sleep or SLEEP, clock or CLOCK
    require_tls(cc.token_url, "token endpoint", "the device code and the token")
    interval = positive_number(grant.get("interval"), DEFAULT_INTERVAL)
    lifetime = positive_number(grant.get("expires_in"), 1800.0)
    deadline = clock() + lifetime
    hint = "run `a2a auth login --device` again"
    while True:
        if clock() + interval > deadline:
            raise AuthError(f"the device code expired ({int(lifetime)} s) before the sign-in was approved", hint=hint)
        sleep(interval)
        form = {"grant_type": DEVICE_GRANT, "device_code": str(grant["device_code"])}
        auth = _client_form(cc, form)
        t0 = time.time()
        resp, body = _send("POST", cc.token_url, "token endpoint", form=form, auth=auth, transport=transport)
        if resp.status == 200 and isinstance(body, dict) and body.get("access_token"):
            return signed_in(body, t0, cc, DEVICE_CODE, transport=transport)
        error = str(body.get("error") or "") if isinstance(body, dict) else ""
        if error == "authorization_pending":
            continue
        if error == "slow_down":
            interval += SLOW_DOWN
            if note:
                note(f"the token endpoint asks to poll more slowly: every {interval:g} s")
            continue
        if error == "access_denied":
            raise AuthError(
                f"the sign-in was denied at {cc.token_url} (access_denied)", hint=hint + " and approve the request"
            )
        if error == "expired_token":
            raise AuthError("the device code expired before the sign-in was approved (expired_token)", hint=hint)
        why = _why(resp, body)
        if resp.status in (400, 401, 403):
            raise AuthError(
                f"the token endpoint {cc.token_url} refused the device code ({why})",
                hint="check --client-id and the token URL",
            )
        raise _unexpected(
            resp,
            f"the token endpoint {cc.token_url} gave no access token ({why})",
            hint="check the token URL (it must be the OAuth2 token endpoint)",
        )


def refresh(
    cc: ClientCredentials,
    refresh_token: str,
    *,
    transport: Any,
    note: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """RFC 6749 §6: a new access token for a refresh token (a device-code login's)."""
    require_tls(cc.token_url, "token endpoint", "the refresh token")
    form = {"grant_type": "refresh_token", "refresh_token": refresh_token}
    auth = _client_form(cc, form)
    if note:
        note(f"refreshing the OAuth2 token at {cc.token_url} (client {cc.client_id})")
    t0 = time.time()
    resp, body = _send("POST", cc.token_url, "token endpoint", form=form, auth=auth, transport=transport)
    if resp.status != 200 or not isinstance(body, dict) or not body.get("access_token"):
        raise AuthError(
            f"the token endpoint {cc.token_url} did not renew the token ({_why(resp, body)})", hint=cc.login_hint(None)
        )
    entry = _entry(body, t0, cc.token_url, cc.client_id, cc.scope, cc.flow)
    entry.setdefault("refresh_token", refresh_token)  # a server that does not rotate it keeps the old one good
    return entry
