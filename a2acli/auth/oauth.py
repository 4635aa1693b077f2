"""One request to an OAuth2 endpoint and its answer read: https required (loopback aside), sent
through the caller's transport (the session's or the login's `transport.client.Transport`: its one
client, the answer's cap, --debug and --dump, network failures mapped to errors), refusals mapped
to errors, a token answer made a cache entry (RFC 6749 §5.1)."""

from __future__ import annotations

import time
from typing import Any

from a2acli.auth.client import ClientCredentials
from a2acli.errors import A2acliError, AuthError, CredentialsWithheldError, HttpError
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
    if resp.status != 200:
        return HttpError(message, hint=hint, wire_code=resp.status)
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


# The exchange of each endpoint (its cap: transport.limits.DOCUMENT_CAPS; its line in --debug). The
# secrets of its form and its answer are redacted by the taps (redact.FORM_SECRET_KEYS, SECRET_KEYS).
_LABELS = {
    "token endpoint": "oauth-token",
    "device authorization endpoint": "oauth-device",
    "discovery document": "oauth-discovery",
    "JWK Set": "jwks",
}


def _send(
    method: str,
    url: str,
    what: str,
    *,
    transport: Any,
    form: dict[str, str] | None = None,
    auth: tuple[str, str] | None = None,
) -> tuple[Any, Any]:
    """One request to an OAuth2 endpoint through the transport (transport.client.Transport: its
    one client, the answer's cap, the taps of --debug and --dump with the secrets redacted, the
    mapping of network failures): (the exchange, its JSON or None). `auth`: the client id and
    secret, sent as HTTP Basic (RFC 6749 §2.3.1). `what` the endpoint is names the exchange
    (_LABELS), which names its cap (transport.limits.DOCUMENT_CAPS) and --debug shows."""
    import base64
    import json
    from urllib.parse import urlencode

    label = _LABELS[what]
    if method == "GET":  # a document (discovery): our User-Agent and Accept, nothing else
        ex = transport.get_public(url, label=label, accept="application/json")
    else:
        headers = {"Accept": "application/json"}
        if auth is not None:  # (Authorization is redacted by its name)
            headers["Authorization"] = "Basic " + base64.b64encode(f"{auth[0]}:{auth[1]}".encode()).decode()
        if form is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        content = urlencode(form).encode() if form is not None else None
        ex = transport.call_other(method, url, label=label, headers=headers, content=content)
    try:
        body = json.loads(ex.response_body)
    except (ValueError, RecursionError):
        body = None
    return ex, body


def _why(resp: Any, body: Any) -> str:
    """An OAuth2 error answer in a few words: `invalid_client: bad secret`, or the HTTP status."""
    if isinstance(body, dict) and body.get("error"):
        return str(body["error"]) + (f": {body['error_description']}" if body.get("error_description") else "")
    return f"HTTP {resp.status} {resp.reason}".strip()


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
    cc: ClientCredentials, form: dict[str, str], auth: Any, what: str, hint: str, *, transport: Any
) -> tuple[dict[str, Any], float]:
    """POST a grant to the token endpoint: (its answer, when it was asked). A refusal (HTTP 400,
    401, 403) is an AuthError saying it refused `what`; any other answer without a token,
    _unexpected."""
    t0 = time.time()
    resp, body = _send("POST", cc.token_url, "token endpoint", form=form, auth=auth, transport=transport)
    if resp.status != 200 or not isinstance(body, dict) or not body.get("access_token"):
        why = _why(resp, body)
        if resp.status in (400, 401, 403):
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
    credentials. Returns the client id and secret for HTTP Basic, if any; `form` is completed in place."""
    if not cc.client_secret:
        form["client_id"] = cc.client_id
        return None
    if cc.client_auth == "post":
        form.update(client_id=cc.client_id, client_secret=cc.client_secret)
        return None
    return (cc.client_id, cc.client_secret)


def positive_number(value: Any, default: float) -> float:
    try:
        n = float(value)
    except (TypeError, ValueError):
        return default
    return n if n > 0 else default
