"""The token cache (tokens.json beside config.toml, mode 0600), keyed by profile and token URL, and
the token a call sends: reused until shortly before it expires, then requested again with the
profile's client id and secret (client credentials have no refresh token: a new request is the
refresh), or renewed with the refresh token a device-code or authorization-code login got; such a
token without one needs a new login (a person signs in)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from a2acli import settings
from a2acli.auth.client import SIGN_IN, ClientCredentials
from a2acli.auth.grants import refresh, request_token
from a2acli.errors import CredentialsMissingError

LEEWAY = 30.0  # seconds: a token this close to expiry is requested again


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


def audience(url: str | None) -> str | None:
    """The origin a token is for, as the cache records it (`https://agent.example`,
    `http://127.0.0.1:8000`: scheme, host and a port other than the scheme's), from the agent's
    URL; None for no URL or one that is not http(s) (a card file: no agent on the network)."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url or "")
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    default = {"http": 80, "https": 443}[parts.scheme]
    return f"{parts.scheme}://{host.lower()}" + (f":{port}" if port and port != default else "")


def store(profile: str | None, entry: dict[str, Any]) -> None:
    cache = load_cache()
    cache[cache_key(profile, entry["token_url"])] = entry
    save_cache(cache)


def access_token(
    profile: str | None,
    cc: ClientCredentials,
    *,
    verify: Any = True,
    timeout: float | None = None,
    note: Callable[[str], None] | None = None,
    for_agent: str | None = None,
) -> str:
    """A valid token for the profile: from the cache, refreshed with its refresh token, or
    requested (client credentials) when missing or expired; cached each time, with the audience
    it was got for (a renewed token keeps the one recorded; else `for_agent`'s origin)."""
    entry = cached(profile, cc.token_url)
    if entry is None:
        stale = load_cache().get(cache_key(profile, cc.token_url))
        recorded = stale.get("audience") if isinstance(stale, dict) else None
        if isinstance(stale, dict) and stale.get("refresh_token"):
            entry = refresh(cc, str(stale["refresh_token"]), verify=verify, timeout=timeout, note=note)
            if stale.get("identity"):  # who signed in stays who it was (a new ID token is not read)
                entry["identity"] = stale["identity"]
        elif cc.flow in SIGN_IN:
            raise CredentialsMissingError(
                f"the OAuth2 token of profile {profile or '(none)'} has expired, and no refresh token came with it: a {cc.flow} login needs you to sign in again",
                hint=cc.login_hint(profile),
            )
        elif not cc.client_secret:
            raise CredentialsMissingError(
                f"no valid OAuth2 token for profile {profile or '(none)'} and no client secret to request one",
                hint=cc.login_hint(profile),
            )
        else:
            entry = request_token(cc, verify=verify, timeout=timeout, note=note)
        if recorded or audience(for_agent):
            entry["audience"] = recorded or audience(for_agent)
        store(profile, entry)
    return str(entry["access_token"])
