"""OAuth2 for `a2a auth login` and the calls after it: client credentials (RFC 6749 §4.4), the
device authorization grant (RFC 8628), endpoints from the Agent Card or from OpenID Connect /
RFC 8414 discovery, and the token cache.

The cache (tokens.json beside config.toml, mode 0600) is keyed by profile and token URL. A token
is reused until shortly before it expires, then requested again: with the profile's client id and
secret (client credentials have no refresh token: a new request is the refresh), or with the
refresh token a device-code login got; a device-code token without one needs a new login (a
person approves it). httpx is imported only when an endpoint is actually asked."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from a2acli import settings
from a2acli.errors import A2acliError, AuthError, CredentialsMissingError, CredentialsWithheldError, HttpError, UnreachableError, UsageError

LEEWAY = 30.0  # seconds: a token this close to expiry is requested again
DEFAULT_LIFETIME = 3600.0  # when the answer has no expires_in
CLIENT_CREDENTIALS = "client-credentials"
DEVICE_CODE = "device-code"
FLOWS = (CLIENT_CREDENTIALS, DEVICE_CODE)
DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"
DEFAULT_INTERVAL = 5.0  # RFC 8628 §3.2: when the answer gives none
SLOW_DOWN = 5.0  # RFC 8628 §3.5: added to the interval on each slow_down
# How the device-code poll waits and tells time: tests replace these (no real waiting).
SLEEP: Callable[[float], None] = time.sleep
CLOCK: Callable[[], float] = time.monotonic


@dataclass(frozen=True)
class ClientCredentials:
    token_url: str
    client_id: str
    client_secret: str | None = None
    scope: str | None = None
    client_auth: str = "basic"  # basic (HTTP Basic, RFC 6749 §2.3.1) or post (form fields)
    flow: str = CLIENT_CREDENTIALS  # or DEVICE_CODE: how the profile's token was got
    device_authorization_url: str | None = None  # the device-code flow's first endpoint

    @classmethod
    def from_profile(cls, auth: dict[str, str]) -> ClientCredentials | None:
        """None unless the profile's [auth] table names a token URL and a client id."""
        if not auth.get("token-url") or not auth.get("client-id"):
            return None
        flow = DEVICE_CODE if (auth.get("flow") or "").lower() == DEVICE_CODE else CLIENT_CREDENTIALS
        return cls(
            auth["token-url"],
            auth["client-id"],
            auth.get("client-secret") or None,
            auth.get("scope") or None,
            auth.get("client-auth") or "basic",
            flow,
            auth.get("device-authorization-url") or None,
        )

    def login_hint(self, profile: str | None) -> str:
        """The command that gets this profile a token again."""
        at = f" --profile {profile}" if profile else ""
        return f"a2a auth login{at} --device" if self.flow == DEVICE_CODE else f"a2a auth login{at} --client-secret S"


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
        raise CredentialsWithheldError(f"the {what} {url} is not https: {crosses} would cross the network in clear", hint="use the https:// URL (plain http is accepted on loopback only)")


def _send(method: str, url: str, what: str, *, form: dict[str, str] | None = None, auth: Any = None, verify: Any = True, timeout: float | None = None) -> tuple[Any, Any]:
    """One request to an OAuth2 endpoint: (response, its JSON or None); network failures mapped."""
    import httpx

    try:
        with httpx.Client(verify=verify, timeout=httpx.Timeout(timeout or 30.0, connect=10.0), follow_redirects=False) as client:
            resp = client.request(method, url, data=form, auth=auth, headers={"Accept": "application/json"})
    except httpx.TimeoutException as e:
        from a2acli.errors import TimeoutExpired

        raise TimeoutExpired(f"the {what} {url} did not answer in time", hint=f"raise --timeout, or check the {what} URL") from e
    except httpx.ConnectError as e:
        from a2acli.transport.client import _connect_error

        raise _connect_error(url, e, what=f"the {what.replace(' endpoint', '')} URL (a flag, the profile, or the Agent Card)") from e
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


def _entry(body: dict[str, Any], t0: float, token_url: str, client_id: str, scope: str | None, flow: str) -> dict[str, Any]:
    """The cache entry of a token answer (RFC 6749 §5.1): only Bearer tokens are taken."""
    token_type = str(body.get("token_type") or "Bearer")
    if token_type.lower() != "bearer":
        raise A2acliError(f"the token endpoint issued a {token_type!r} token; only Bearer tokens are supported", hint="ask for a Bearer token")
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


def request_token(cc: ClientCredentials, *, verify: Any = True, timeout: float | None = None, note: Callable[[str], None] | None = None) -> dict[str, Any]:
    """POST grant_type=client_credentials to the token endpoint; the parsed answer, with expires_at."""
    import httpx

    if not cc.client_secret:
        raise CredentialsMissingError(f"no client secret for {cc.client_id} at {cc.token_url}", hint="a2a auth login --client-secret S (or A2ACLI_CLIENT_SECRET)")
    require_tls(cc.token_url, "token endpoint", "the client secret")
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
    resp, body = _send("POST", cc.token_url, "token endpoint", form=form, auth=auth, verify=verify, timeout=timeout)
    if resp.status_code != 200 or not isinstance(body, dict) or not body.get("access_token"):
        why = _why(resp, body)
        if resp.status_code in (400, 401, 403):
            raise AuthError(f"the token endpoint {cc.token_url} refused the client credentials ({why})", hint="check --client-id, --client-secret and --scope")
        raise _unexpected(resp, f"the token endpoint {cc.token_url} gave no access token ({why})", hint="check the token URL (it must be the OAuth2 token endpoint)")
    return _entry(body, t0, cc.token_url, cc.client_id, cc.scope, CLIENT_CREDENTIALS)


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


def device_authorize(cc: ClientCredentials, *, verify: Any = True, timeout: float | None = None) -> dict[str, Any]:
    """RFC 8628 §3.1-3.2: POST client_id (and scope) to the device authorization endpoint; its
    answer: device_code, user_code, verification_uri (+ _complete), expires_in, interval."""
    url = cc.device_authorization_url or ""
    require_tls(url, "device authorization endpoint", "the device code")
    form: dict[str, str] = {}
    auth = _client_form(cc, form)
    if cc.scope:
        form["scope"] = cc.scope
    resp, body = _send("POST", url, "device authorization endpoint", form=form, auth=auth, verify=verify, timeout=timeout)
    if resp.status_code != 200 or not isinstance(body, dict) or not body.get("device_code") or not body.get("user_code"):
        why = _why(resp, body)
        if resp.status_code in (400, 401, 403):
            raise AuthError(f"the device authorization endpoint {url} refused the request ({why})", hint="check --client-id and --scope (the client must be allowed the device flow)")
        raise _unexpected(resp, f"the device authorization endpoint {url} gave no device code ({why})", hint="check --device-authorization-url (it must be the RFC 8628 endpoint)")
    uri = body.get("verification_uri") or body.get("verification_url")  # some servers spell it _url
    if not uri:
        raise _unexpected(resp, f"the device authorization endpoint {url} gave no verification_uri", hint="the server must say where the user enters the code")
    answer = dict(body)
    answer["verification_uri"] = str(uri)
    return answer


def _number(value: Any, default: float) -> float:
    try:
        n = float(value)
    except (TypeError, ValueError):
        return default
    return n if n > 0 else default


def poll_device_token(
    cc: ClientCredentials,
    grant: dict[str, Any],
    *,
    verify: Any = True,
    timeout: float | None = None,
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
    interval = _number(grant.get("interval"), DEFAULT_INTERVAL)
    lifetime = _number(grant.get("expires_in"), 1800.0)
    deadline = clock() + lifetime
    hint = "run `a2a auth login --device` again"
    while True:
        if clock() + interval > deadline:
            raise AuthError(f"the device code expired ({int(lifetime)} s) before the sign-in was approved", hint=hint)
        sleep(interval)
        form = {"grant_type": DEVICE_GRANT, "device_code": str(grant["device_code"])}
        auth = _client_form(cc, form)
        t0 = time.time()
        resp, body = _send("POST", cc.token_url, "token endpoint", form=form, auth=auth, verify=verify, timeout=timeout)
        if resp.status_code == 200 and isinstance(body, dict) and body.get("access_token"):
            return _entry(body, t0, cc.token_url, cc.client_id, cc.scope, DEVICE_CODE)
        error = str(body.get("error") or "") if isinstance(body, dict) else ""
        if error == "authorization_pending":
            continue
        if error == "slow_down":
            interval += SLOW_DOWN
            if note:
                note(f"the token endpoint asks to poll more slowly: every {interval:g} s")
            continue
        if error == "access_denied":
            raise AuthError(f"the sign-in was denied at {cc.token_url} (access_denied)", hint=hint + " and approve the request")
        if error == "expired_token":
            raise AuthError("the device code expired before the sign-in was approved (expired_token)", hint=hint)
        why = _why(resp, body)
        if resp.status_code in (400, 401, 403):
            raise AuthError(f"the token endpoint {cc.token_url} refused the device code ({why})", hint="check --client-id and the token URL")
        raise _unexpected(resp, f"the token endpoint {cc.token_url} gave no access token ({why})", hint="check the token URL (it must be the OAuth2 token endpoint)")


def refresh(cc: ClientCredentials, refresh_token: str, *, verify: Any = True, timeout: float | None = None, note: Callable[[str], None] | None = None) -> dict[str, Any]:
    """RFC 6749 §6: a new access token for a refresh token (a device-code login's)."""
    require_tls(cc.token_url, "token endpoint", "the refresh token")
    form = {"grant_type": "refresh_token", "refresh_token": refresh_token}
    auth = _client_form(cc, form)
    if note:
        note(f"refreshing the OAuth2 token at {cc.token_url} (client {cc.client_id})")
    t0 = time.time()
    resp, body = _send("POST", cc.token_url, "token endpoint", form=form, auth=auth, verify=verify, timeout=timeout)
    if resp.status_code != 200 or not isinstance(body, dict) or not body.get("access_token"):
        raise AuthError(f"the token endpoint {cc.token_url} did not renew the token ({_why(resp, body)})", hint=cc.login_hint(None))
    entry = _entry(body, t0, cc.token_url, cc.client_id, cc.scope, cc.flow)
    entry.setdefault("refresh_token", refresh_token)  # a server that does not rotate it keeps the old one good
    return entry


def discover(url: str, *, verify: Any = True, timeout: float | None = None) -> dict[str, Any]:
    """An OpenID Connect discovery document (`.well-known/openid-configuration`) or RFC 8414
    authorization server metadata: the JSON object, its endpoints checked to be URLs."""
    require_tls(url, "discovery document", "the provider's endpoints")
    resp, body = _send("GET", url, "discovery document", verify=verify, timeout=timeout)
    if resp.status_code != 200 or not isinstance(body, dict):
        raise _unexpected(
            resp,
            f"the discovery document {url} could not be read ({_why(resp, body) if resp.status_code != 200 else 'not a JSON object'})",
            hint="check the card's openIdConnectUrl / oauth2MetadataUrl, or pass --device-authorization-url and --token-url",
        )
    return body


def store(profile: str | None, entry: dict[str, Any]) -> None:
    cache = load_cache()
    cache[cache_key(profile, entry["token_url"])] = entry
    save_cache(cache)


def access_token(profile: str | None, cc: ClientCredentials, *, verify: Any = True, timeout: float | None = None, note: Callable[[str], None] | None = None) -> str:
    """A valid token for the profile: from the cache, refreshed with its refresh token, or
    requested (client credentials) when missing or expired; cached each time."""
    entry = cached(profile, cc.token_url)
    if entry is None:
        stale = load_cache().get(cache_key(profile, cc.token_url))
        if isinstance(stale, dict) and stale.get("refresh_token"):
            entry = refresh(cc, str(stale["refresh_token"]), verify=verify, timeout=timeout, note=note)
        elif cc.flow == DEVICE_CODE:
            raise CredentialsMissingError(f"the OAuth2 token of profile {profile or '(none)'} has expired, and a device-code login needs you to approve a new one", hint=cc.login_hint(profile))
        elif not cc.client_secret:
            raise CredentialsMissingError(
                f"no valid OAuth2 token for profile {profile or '(none)'} and no client secret to request one",
                hint=cc.login_hint(profile),
            )
        else:
            entry = request_token(cc, verify=verify, timeout=timeout, note=note)
        store(profile, entry)
    return str(entry["access_token"])


class Endpoints(NamedTuple):
    """Where a login goes, and what said so."""

    flow: str  # CLIENT_CREDENTIALS or DEVICE_CODE
    token_url: str
    device_authorization_url: str | None = None
    scopes: tuple[str, ...] = ()
    source: str = ""  # in words: `the Agent Card's oauth2 scheme "o"`, `OpenID Connect discovery at URL`


def choose_flow(card_doc: Any, *, have_secret: bool) -> str | None:
    """The flow the card points at: device code when it declares only that one (or a secret is
    missing for client credentials), client credentials when it declares only that one (or a
    secret is given); None when only discovery can tell."""
    from a2acli.wire.security import oauth_flows

    kinds = {f.flow for f in oauth_flows(card_doc)}
    device, cc = "deviceCode" in kinds, "clientCredentials" in kinds
    if device and (not cc or not have_secret):
        return DEVICE_CODE
    if cc:
        return CLIENT_CREDENTIALS
    return None


def endpoints_from_card(
    card_doc: Any,
    flow: str | None,
    *,
    have_secret: bool,
    verify: Any = True,
    timeout: float | None = None,
    fetch: Callable[..., dict[str, Any]] | None = None,
) -> Endpoints:
    """The endpoints of `flow` (None: the one the card points at, see choose_flow) from the card:
    a declared flow (V1 `deviceCode` / `clientCredentials`, V0 `clientCredentials`), else the
    discovery document an `openIdConnect` scheme's openIdConnectUrl or an oauth2 scheme's
    oauth2MetadataUrl names (its device_authorization_endpoint and token_endpoint)."""
    from a2acli.wire.security import oauth_flows

    flows = oauth_flows(card_doc)
    flow = flow or choose_flow(card_doc, have_secret=have_secret)
    want = {DEVICE_CODE: "deviceCode", CLIENT_CREDENTIALS: "clientCredentials"}
    for f in flows:
        if flow and f.flow == want[flow] and f.token_url and (flow == CLIENT_CREDENTIALS or f.device_authorization_url):
            return Endpoints(flow, f.token_url, f.device_authorization_url or None, f.scopes, f"the Agent Card's oauth2 scheme {f.scheme!r}")
    for f in flows:
        if f.flow != "discovery":
            continue
        doc = (fetch or discover)(f.discovery_url, verify=verify, timeout=timeout)
        token_url = str(doc.get("token_endpoint") or "")
        device_url = str(doc.get("device_authorization_endpoint") or "")
        chosen = flow or (DEVICE_CODE if device_url and not have_secret else CLIENT_CREDENTIALS)
        if token_url and (chosen == CLIENT_CREDENTIALS or device_url):
            scopes = tuple(str(x) for x in doc.get("scopes_supported") or () if isinstance(x, str))
            what = "OpenID Connect discovery" if f.oidc else "authorization server metadata"
            return Endpoints(chosen, token_url, device_url if chosen == DEVICE_CODE else None, scopes, f"{what} at {f.discovery_url} (scheme {f.scheme!r})")
    if flow == DEVICE_CODE:
        raise UsageError(
            "the Agent Card declares no OAuth2 deviceCode flow, and no discovery document it names offers a device_authorization_endpoint",
            hint="pass --device-authorization-url URL and --token-url URL",
        )
    raise UsageError(
        "the Agent Card declares no OAuth2 clientCredentials flow" + (" (nor a discovery document with a token_endpoint)" if any(f.flow == "discovery" for f in flows) else ""),
        hint="pass --token-url URL (the OAuth2 token endpoint), or --device for the device-code flow",
    )
