"""The token cache (tokens.json beside config.toml, mode 0600), keyed by profile, agent, token URL,
client and scopes (a token is sent only to the agent it was obtained for), and the token a call
sends: reused until shortly before it expires, then requested again with the profile's client id
and secret (client credentials have no refresh token: a new request is the refresh), or renewed
with the refresh token a device-code or authorization-code login got; such a token without one
needs a new login (a person signs in)."""

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


def cache_key(profile: str | None, cc: ClientCredentials, agent: str | None) -> str:
    """A token's key: the profile, the agent it is for (its origin: `audience`; `-` when none was
    named), the token endpoint, the client and the scopes asked for. A token is sent only to the
    agent it was obtained for (issue 42): another agent gets one of its own, or none."""
    return " ".join((profile or "-", audience(agent) or "-", cc.token_url, cc.client_id, cc.scope or "-"))


def _legacy_key(profile: str | None, token_url: str) -> str:
    """How tokens were keyed before issue 42 (per profile and token endpoint): read once, for the
    agent their entry records, and moved to their key."""
    return f"{profile or '-'} {token_url}"


def load_cache() -> dict[str, Any]:
    path = settings.token_cache_path()
    if path is None:  # no home directory: no cache
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError):
        return {}  # a damaged cache only costs a new token request
    return data if isinstance(data, dict) else {}


def save_cache(cache: dict[str, Any]) -> None:
    """The cache written; nothing when there is no place for it (no home directory: a call asks for
    a token each run; `auth login`, whose token would be lost, refuses first)."""
    path = settings.token_cache_path()
    if path is not None:
        settings.write_private(path, json.dumps(cache, indent=2, sort_keys=True) + "\n")


def entry_for(profile: str | None, cc: ClientCredentials, agent: str | None) -> dict[str, Any] | None:
    """The cached token entry of the profile for `agent` (good or not), None when there is none.
    One cached before tokens were keyed by agent is taken when it records that agent (and the
    client), and moved to its key."""
    cache = load_cache()
    entry = cache.get(cache_key(profile, cc, agent))
    if isinstance(entry, dict):
        return entry
    legacy = cache.get(_legacy_key(profile, cc.token_url))
    here = audience(agent)
    mine = isinstance(legacy, dict) and legacy.get("client_id", cc.client_id) == cc.client_id
    if mine and here and isinstance(legacy, dict) and legacy.get("audience") == here:
        del cache[_legacy_key(profile, cc.token_url)]
        cache[cache_key(profile, cc, agent)] = legacy
        save_cache(cache)
        return legacy
    return None


def unbound(profile: str | None, cc: ClientCredentials) -> dict[str, Any] | None:
    """A token of the profile obtained for no agent in particular (a login that named none), or
    cached before tokens were keyed by agent without recording one; None when there is none."""
    cache = load_cache()
    for key in (cache_key(profile, cc, None), _legacy_key(profile, cc.token_url)):
        entry = cache.get(key)
        if (
            isinstance(entry, dict)
            and not entry.get("audience")
            and entry.get("client_id", cc.client_id) == cc.client_id
        ):
            return entry
    return None


def bind(profile: str | None, cc: ClientCredentials, agent: str | None) -> dict[str, Any] | None:
    """The token obtained for no agent, now `agent`'s (the first agent it is sent to), and only its;
    None when there is none (or no agent to give it to)."""
    entry = unbound(profile, cc)
    if entry is None or not audience(agent):
        return None
    cache = load_cache()
    for key in (cache_key(profile, cc, None), _legacy_key(profile, cc.token_url)):
        if cache.get(key) == entry:
            del cache[key]
    save_cache(cache)
    store(profile, cc, agent, entry)
    return entry


def cached(
    profile: str | None, cc: ClientCredentials, agent: str | None, *, now: float | None = None
) -> dict[str, Any] | None:
    """The cached token entry for `agent` if it is still good for LEEWAY seconds, else None."""
    entry = entry_for(profile, cc, agent)
    if not isinstance(entry, dict) or not entry.get("access_token"):
        return None
    expires = entry.get("expires_at")
    if expires is not None and float(expires) - LEEWAY <= (now or time.time()):
        return None
    return entry


def forget(profile: str | None, cc: ClientCredentials | None = None, agent: str | None = None) -> int:
    """Drop every cached token of the profile (of one client and agent, if given); how many were dropped."""
    cache = load_cache()
    prefix = f"{profile or '-'} "
    gone = [k for k in cache if (k == cache_key(profile, cc, agent) if cc else k.startswith(prefix))]
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


def store(profile: str | None, cc: ClientCredentials, agent: str | None, entry: dict[str, Any]) -> None:
    """Keep a token for `agent` (recorded as its audience)."""
    if audience(agent):
        entry["audience"] = audience(agent)
    cache = load_cache()
    cache[cache_key(profile, cc, agent)] = entry
    save_cache(cache)


def access_token(
    profile: str | None,
    cc: ClientCredentials,
    *,
    transport: Any,
    note: Callable[[str], None] | None = None,
    for_agent: str | None = None,
) -> str:
    """A valid token of the profile for `for_agent`: from the cache, refreshed with the refresh
    token it came with, or requested (client credentials) when missing or expired; cached for that
    agent. A person's sign-in (device code, authorization code) for another agent is not reused:
    that agent needs a login of its own."""
    if entry_for(profile, cc, for_agent) is None:
        bind(profile, cc, for_agent)
    entry = cached(profile, cc, for_agent)
    if entry is None:
        stale = entry_for(profile, cc, for_agent)
        who = f"profile {profile or '(none)'}"
        if isinstance(stale, dict) and stale.get("refresh_token"):
            entry = refresh(cc, str(stale["refresh_token"]), transport=transport, note=note)
            if stale.get("identity"):  # who signed in stays who it was (a new ID token is not read)
                entry["identity"] = stale["identity"]
        elif cc.flow in SIGN_IN and stale is None:
            agent = audience(for_agent)
            raise CredentialsMissingError(
                f"{who} has no OAuth2 token for {agent or 'this agent'}: a {cc.flow} login is needed for it (a token is sent only to the agent it was obtained for)",
                hint=cc.login_hint(profile) + (f" -u {agent}" if agent else ""),
            )
        elif cc.flow in SIGN_IN:
            raise CredentialsMissingError(
                f"the OAuth2 token of {who} has expired, and no refresh token came with it: a {cc.flow} login needs you to sign in again",
                hint=cc.login_hint(profile),
            )
        elif not cc.client_secret:
            raise CredentialsMissingError(
                f"no valid OAuth2 token for {who} and no client secret to request one",
                hint=cc.login_hint(profile),
            )
        else:
            if note and for_agent:
                note(f"an OAuth2 token for {audience(for_agent) or for_agent} (tokens are kept per agent)")
            entry = request_token(cc, transport=transport, note=note)
        if isinstance(stale, dict) and stale.get("issuer"):  # what the login learnt of the provider stays
            entry["issuer"] = stale["issuer"]
        store(profile, cc, for_agent, entry)
    return str(entry["access_token"])
