"""OAuth2 client credentials: get a token from a token endpoint and cache it next to the config.

The cache (tokens.json beside config.toml, mode 0600) is keyed by profile and token URL. A token
is reused until shortly before it expires, then requested again with the profile's client id and
secret (client credentials have no refresh token: a new request is the refresh). httpx is
imported only when a token is actually requested."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from a2acli import settings
from a2acli.errors import A2acliError, AuthError, CredentialsMissingError, CredentialsWithheldError, HttpError, UnreachableError, UsageError

LEEWAY = 30.0  # seconds: a token this close to expiry is requested again
DEFAULT_LIFETIME = 3600.0  # when the answer has no expires_in


@dataclass(frozen=True)
class ClientCredentials:
    token_url: str
    client_id: str
    client_secret: str | None = None
    scope: str | None = None
    client_auth: str = "basic"  # basic (HTTP Basic, RFC 6749 §2.3.1) or post (form fields)

    @classmethod
    def from_profile(cls, auth: dict[str, str]) -> ClientCredentials | None:
        """None unless the profile's [auth] table names a token URL and a client id."""
        if not auth.get("token-url") or not auth.get("client-id"):
            return None
        return cls(auth["token-url"], auth["client-id"], auth.get("client-secret") or None, auth.get("scope") or None, auth.get("client-auth") or "basic")


def cache_key(profile: str | None, token_url: str) -> str:
    return f"{profile or '-'} {token_url}"


def load_cache() -> dict[str, Any]:
    path = settings.token_cache_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError):
        return {}  # a damaged cache only costs a new token request
    return data if isinstance(data, dict) else {}


def save_cache(cache: dict[str, Any]) -> None:
    settings.write_private(settings.token_cache_path(), json.dumps(cache, indent=2, sort_keys=True) + "\n")


def cached(profile: str | None, token_url: str, *, now: float | None = None) -> dict[str, Any] | None:
    """The cached token entry if it is still good for LEEWAY seconds, else None."""
    entry = load_cache().get(cache_key(profile, token_url))
    if not isinstance(entry, dict) or not entry.get("access_token"):
        return None
    expires = entry.get("expires_at")
    if expires is not None and float(expires) - LEEWAY <= (now or time.time()):
        return None
    return entry


def forget(profile: str | None, token_url: str | None = None) -> int:
    """Drop every cached token of the profile (of one token URL, if given); how many were dropped."""
    cache = load_cache()
    prefix = f"{profile or '-'} "
    gone = [k for k in cache if (k == cache_key(profile, token_url) if token_url else k.startswith(prefix))]
    for k in gone:
        del cache[k]
    if gone:
        save_cache(cache)
    return len(gone)


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


def request_token(cc: ClientCredentials, *, verify: Any = True, timeout: float | None = None, note: Callable[[str], None] | None = None) -> dict[str, Any]:
    """POST grant_type=client_credentials to the token endpoint; the parsed answer, with expires_at."""
    import httpx

    if not cc.client_secret:
        raise CredentialsMissingError(f"no client secret for {cc.client_id} at {cc.token_url}", hint="a2a auth login --client-secret S (or A2ACLI_CLIENT_SECRET)")
    from urllib.parse import urlsplit

    parts = urlsplit(cc.token_url)
    if parts.scheme != "https" and not is_loopback(parts.hostname):
        raise CredentialsWithheldError(
            f"the token endpoint {cc.token_url} is not https: the client secret would cross the network in clear",
            hint="use the https:// token URL (plain http is accepted on loopback only)",
        )
    form = {"grant_type": "client_credentials"}
    if cc.scope:
        form["scope"] = cc.scope
    auth: Any = None
    if cc.client_auth == "post":
        form.update(client_id=cc.client_id, client_secret=cc.client_secret)
    else:
        auth = httpx.BasicAuth(cc.client_id, cc.client_secret)
    if note:
        note(f"requesting an OAuth2 token from {cc.token_url} (client credentials, client {cc.client_id})")
    t0 = time.time()
    try:
        with httpx.Client(verify=verify, timeout=httpx.Timeout(timeout or 30.0, connect=10.0), follow_redirects=False) as client:
            resp = client.post(cc.token_url, data=form, auth=auth, headers={"Accept": "application/json"})
    except httpx.TimeoutException as e:
        from a2acli.errors import TimeoutExpired

        raise TimeoutExpired(f"the token endpoint {cc.token_url} did not answer in time", hint="raise --timeout, or check the token URL") from e
    except httpx.ConnectError as e:
        from a2acli.transport.client import _connect_error

        raise _connect_error(cc.token_url, e, what="the token URL (--token-url, or the card's OAuth2 flow)") from e
    except httpx.HTTPError as e:
        raise UnreachableError(f"request to the token endpoint {cc.token_url} failed: {e}", hint="check the token URL") from e
    try:
        body = resp.json()
    except ValueError:
        body = None
    if resp.status_code != 200 or not isinstance(body, dict) or not body.get("access_token"):
        if isinstance(body, dict) and body.get("error"):
            why = str(body["error"]) + (f": {body['error_description']}" if body.get("error_description") else "")
        else:
            why = f"HTTP {resp.status_code} {resp.reason_phrase}".strip()
        if resp.status_code in (400, 401, 403):
            raise AuthError(f"the token endpoint {cc.token_url} refused the client credentials ({why})", hint="check --client-id, --client-secret and --scope")
        if resp.status_code != 200:
            raise HttpError(f"the token endpoint {cc.token_url} gave no access token ({why})", hint="check the token URL (it must be the OAuth2 token endpoint)", wire_code=resp.status_code)
        raise A2acliError(f"the token endpoint {cc.token_url} gave no access token ({why})", hint="check the token URL (it must be the OAuth2 token endpoint)")
    token_type = str(body.get("token_type") or "Bearer")
    if token_type.lower() != "bearer":
        raise A2acliError(f"the token endpoint issued a {token_type!r} token; only Bearer tokens are supported", hint="ask for a Bearer token")
    try:
        expires_in = body.get("expires_in")
        lifetime = float(expires_in if expires_in is not None else DEFAULT_LIFETIME)
    except (TypeError, ValueError):
        lifetime = DEFAULT_LIFETIME
    return {
        "access_token": str(body["access_token"]),
        "token_type": "Bearer",
        "scope": body.get("scope") or cc.scope,
        "obtained_at": t0,
        "expires_at": t0 + lifetime,
        "token_url": cc.token_url,
        "client_id": cc.client_id,
    }


def store(profile: str | None, entry: dict[str, Any]) -> None:
    cache = load_cache()
    cache[cache_key(profile, entry["token_url"])] = entry
    save_cache(cache)


def access_token(profile: str | None, cc: ClientCredentials, *, verify: Any = True, timeout: float | None = None, note: Callable[[str], None] | None = None) -> str:
    """A valid token for the profile: from the cache, or requested (and cached) when missing or expired."""
    entry = cached(profile, cc.token_url)
    if entry is None:
        if not cc.client_secret:
            raise CredentialsMissingError(
                f"no valid OAuth2 token for profile {profile or '(none)'} and no client secret to request one",
                hint=f"a2a auth login{f' --profile {profile}' if profile else ''} --client-secret S",
            )
        entry = request_token(cc, verify=verify, timeout=timeout, note=note)
        store(profile, entry)
    return str(entry["access_token"])


def discover_token_url(core_card: dict[str, Any]) -> tuple[str, list[str]]:
    """tokenUrl and scope names of the card's first OAuth2 clientCredentials flow."""
    for scheme in ((core_card or {}).get("securitySchemes") or {}).values():
        oauth = scheme.get("oauth2SecurityScheme") if isinstance(scheme, dict) else None
        flow = ((oauth or {}).get("flows") or {}).get("clientCredentials") if isinstance(oauth, dict) else None
        if isinstance(flow, dict) and flow.get("tokenUrl"):
            return str(flow["tokenUrl"]), sorted((flow.get("scopes") or {}).keys())
    raise UsageError(
        "the Agent Card declares no OAuth2 clientCredentials flow",
        hint="pass --token-url URL (the OAuth2 token endpoint)",
    )
