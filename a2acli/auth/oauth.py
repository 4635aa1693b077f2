"""One request to an OAuth2 endpoint and its answer read: https required (loopback aside),
network failures and refusals mapped to errors, a token answer made a cache entry (RFC 6749 §5.1).
httpx is imported only when an endpoint is actually asked."""

from __future__ import annotations

import time
from typing import Any

from a2acli.auth.client import ClientCredentials
from a2acli.errors import A2acliError, AuthError, CredentialsWithheldError, HttpError, UnreachableError
from a2acli.settings.table import CLIENT_CREDENTIALS

DEFAULT_LIFETIME = 3600.0  # when the answer has no expires_in


def is_loopback(host: str | None) -> bool:
    """127.0.0.0/8, ::1 and localhost."""
    import ipaddress

    host = (host or "").strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _unexpected(resp: Any, message: str, hint: str) -> A2acliError:
    """An OAuth2 server's answer without what it should hold (it is not the agent's, so not an
    InvalidAgentResponseError): an HTTP status of its own is X_A2A_HTTP_ERROR, a 200 without the
    goods A2ACLI_ERR_INTERNAL."""
    if resp.status_code != 200:
        return HttpError(message, hint=hint, wire_code=resp.status_code)
    return A2acliError(message, hint=hint)


def require_tls(url: str, what: str, crosses: str) -> None:
    """An OAuth2 endpoint is https (plain http on loopback only): `crosses` would go in clear."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.scheme != "https" and not is_loopback(parts.hostname):
        raise CredentialsWithheldError(
            f"the {what} {url} is not https: {crosses} would cross the network in clear",
            hint="use the https:// URL (plain http is accepted on loopback only)",
        )


def _send(
    method: str,
    url: str,
    what: str,
    *,
    form: dict[str, str] | None = None,
    auth: Any = None,
    verify: Any = True,
    timeout: float | None = None,
) -> tuple[Any, Any]:
    """One request to an OAuth2 endpoint: (response, its JSON or None); network failures mapped."""
    import httpx

    from a2acli.transport.connections import LOOPBACK_DIRECT

    try:
        with httpx.Client(  # httpx's own transport; the environment's proxies as httpx reads them
            verify=verify,
            mounts=LOOPBACK_DIRECT,
            timeout=httpx.Timeout(timeout or 30.0, connect=10.0),
            follow_redirects=False,
        ) as client:
            resp = client.request(method, url, data=form, auth=auth, headers={"Accept": "application/json"})
    except httpx.TimeoutException as e:
        from a2acli.errors import TimeoutExpired

        raise TimeoutExpired(
            f"the {what} {url} did not answer in time", hint=f"raise --timeout, or check the {what} URL"
        ) from e
    except httpx.ConnectError as e:
        from a2acli.transport.client import _connect_error

        raise _connect_error(
            url, e, what=f"the {what.replace(' endpoint', '')} URL (a flag, the profile, or the Agent Card)"
        ) from e
    except httpx.HTTPError as e:
        raise UnreachableError(f"request to the {what} {url} failed: {e}", hint=f"check the {what} URL") from e
    try:
        body = resp.json()
    except ValueError:
        body = None
    return resp, body


def _why(resp: Any, body: Any) -> str:
    """An OAuth2 error answer in a few words: `invalid_client: bad secret`, or the HTTP status."""
    if isinstance(body, dict) and body.get("error"):
        return str(body["error"]) + (f": {body['error_description']}" if body.get("error_description") else "")
    return f"HTTP {resp.status_code} {resp.reason_phrase}".strip()


def _entry(
    body: dict[str, Any], t0: float, token_url: str, client_id: str, scope: str | None, flow: str
) -> dict[str, Any]:
    """The cache entry of a token answer (RFC 6749 §5.1): only Bearer tokens are taken."""
    token_type = str(body.get("token_type") or "Bearer")
    if token_type.lower() != "bearer":
        raise A2acliError(
            f"the token endpoint issued a {token_type!r} token; only Bearer tokens are supported",
            hint="ask for a Bearer token",
        )
    from a2acli.wire.headers import value_problem

    token = body["access_token"]
    if not isinstance(token, str) or not token.isascii() or value_problem(token):
        raise A2acliError(  # it goes in a header: checked before it is stored or sent (issue 35)
            f"the token endpoint {token_url} issued an access token that cannot travel in a header (not ASCII text on one line)",
            hint="the token endpoint is at fault; ask its operator",
        )
    try:
        expires_in = body.get("expires_in")
        lifetime = float(expires_in if expires_in is not None else DEFAULT_LIFETIME)
    except (TypeError, ValueError):
        lifetime = DEFAULT_LIFETIME
    entry = {
        "access_token": str(body["access_token"]),
        "token_type": "Bearer",
        "scope": body.get("scope") or scope,
        "obtained_at": t0,
        "expires_at": t0 + lifetime,
        "token_url": token_url,
        "client_id": client_id,
    }
    if flow != CLIENT_CREDENTIALS:
        entry["flow"] = flow
    if body.get("refresh_token"):
        entry["refresh_token"] = str(body["refresh_token"])
    return entry


def _grant(
    cc: ClientCredentials, form: dict[str, str], auth: Any, what: str, hint: str, *, verify: Any, timeout: float | None
) -> tuple[dict[str, Any], float]:
    """POST a grant to the token endpoint: (its answer, when it was asked). A refusal (HTTP 400,
    401, 403) is an AuthError saying it refused `what`; any other answer without a token,
    _unexpected."""
    t0 = time.time()
    resp, body = _send("POST", cc.token_url, "token endpoint", form=form, auth=auth, verify=verify, timeout=timeout)
    if resp.status_code != 200 or not isinstance(body, dict) or not body.get("access_token"):
        why = _why(resp, body)
        if resp.status_code in (400, 401, 403):
            raise AuthError(f"the token endpoint {cc.token_url} refused {what} ({why})", hint=hint)
        raise _unexpected(
            resp,
            f"the token endpoint {cc.token_url} gave no access token ({why})",
            hint="check the token URL (it must be the OAuth2 token endpoint)",
        )
    return body, t0


def _client_form(cc: ClientCredentials, form: dict[str, str]) -> Any:
    """Client authentication of a device-code or refresh request: a public client sends its id
    as a form field (RFC 8628 §3.1); one with a secret authenticates as it does for client
    credentials. Returns the httpx auth, if any; `form` is completed in place."""
    if not cc.client_secret:
        form["client_id"] = cc.client_id
        return None
    if cc.client_auth == "post":
        form.update(client_id=cc.client_id, client_secret=cc.client_secret)
        return None
    import httpx

    return httpx.BasicAuth(cc.client_id, cc.client_secret)


def positive_number(value: Any, default: float) -> float:
    try:
        n = float(value)
    except (TypeError, ValueError):
        return default
    return n if n > 0 else default
