"""OAuth2 for `a2a auth login` and the calls after it: client credentials (RFC 6749 §4.4), the
device authorization grant (RFC 8628), the authorization-code grant with PKCE (RFC 7636) and a
loopback redirect (RFC 8252 §7.3), endpoints from the Agent Card or from OpenID Connect / RFC 8414
discovery (the document's issuer checked against its URL), ID tokens checked (OpenID Connect
Core §3.1.3.7), and the token cache.

The cache (tokens.json beside config.toml, mode 0600) is keyed by profile and token URL. A token
is reused until shortly before it expires, then requested again: with the profile's client id and
secret (client credentials have no refresh token: a new request is the refresh), or with the
refresh token a device-code or authorization-code login got; such a token without one needs a new
login (a person signs in). httpx is imported only when an endpoint is actually asked."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from a2acli import settings
from a2acli.errors import (
    A2acliError,
    AuthError,
    CredentialsMissingError,
    CredentialsWithheldError,
    HttpError,
    TimeoutExpired,
    UnreachableError,
    UsageError,
)
from a2acli.settings.table import (
    AUTHORIZATION_CODE,
    CLIENT_CREDENTIALS,
    DEVICE_CODE,
    FLOWS,
)  # the flows a profile may name

LEEWAY = 30.0  # seconds: a token this close to expiry is requested again
DEFAULT_LIFETIME = 3600.0  # when the answer has no expires_in
SIGN_IN = (DEVICE_CODE, AUTHORIZATION_CODE)  # a person signs in: renewed with a refresh token only
FLOW_WORDS = {
    CLIENT_CREDENTIALS: "client credentials",
    DEVICE_CODE: "device code",
    AUTHORIZATION_CODE: "authorization code",
}
# The Agent Card's name of each flow (V1 oneof keys, V0 flow names)
CARD_FLOWS = {
    "clientCredentials": CLIENT_CREDENTIALS,
    "deviceCode": DEVICE_CODE,
    "authorizationCode": AUTHORIZATION_CODE,
}
DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"
DEFAULT_INTERVAL = 5.0  # RFC 8628 §3.2: when the answer gives none
SLOW_DOWN = 5.0  # RFC 8628 §3.5: added to the interval on each slow_down
BROWSER_WAIT = 300.0  # seconds the authorization-code flow waits for the browser without --timeout
CALLBACK_PATH = "/callback"
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
    flow: str = CLIENT_CREDENTIALS  # DEVICE_CODE, AUTHORIZATION_CODE: how the profile's token was got
    device_authorization_url: str | None = None  # the device-code flow's first endpoint
    authorization_url: str | None = None  # the authorization-code flow's (the browser goes there)
    redirect_port: int = 0  # the loopback redirect's port (0: a free one)
    issuer: str | None = None  # from discovery, at login: what an ID token's iss must be
    jwks_uri: str | None = None  # from discovery, at login: the keys an ID token is signed with

    @classmethod
    def from_profile(cls, auth: dict[str, Any]) -> ClientCredentials | None:
        """None unless the profile's [auth] table names a token URL and a client id."""
        if not auth.get("token-url") or not auth.get("client-id"):
            return None
        return cls(
            auth["token-url"],
            auth["client-id"],
            auth.get("client-secret") or None,
            auth.get("scope") or None,
            auth.get("client-auth") or "basic",
            profile_flow(auth),
            auth.get("device-authorization-url") or None,
            auth.get("authorization-url") or None,
            profile_port(auth),
        )

    def login_hint(self, profile: str | None) -> str:
        """The command that gets this profile a token again."""
        at = f" --profile {profile}" if profile else ""
        return f"a2a auth login{at} " + {DEVICE_CODE: "--device", AUTHORIZATION_CODE: "--flow authorization-code"}.get(
            self.flow, "--client-secret S"
        )


def profile_flow(auth: dict[str, Any]) -> str:
    """The flow a profile's [auth] table records (client credentials when it names none)."""
    flow = str(auth.get("flow") or "").lower()
    return flow if flow in FLOWS else CLIENT_CREDENTIALS


def profile_port(auth: dict[str, Any]) -> int:
    """The loopback redirect port a profile's [auth] table records (0: a free one)."""
    try:
        return int(auth.get("redirect-port") or 0)
    except (TypeError, ValueError):
        return 0


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

    try:
        with httpx.Client(
            verify=verify, timeout=httpx.Timeout(timeout or 30.0, connect=10.0), follow_redirects=False
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


def request_token(
    cc: ClientCredentials,
    *,
    verify: Any = True,
    timeout: float | None = None,
    note: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """POST grant_type=client_credentials to the token endpoint; the parsed answer, with expires_at."""
    import httpx

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
        auth = httpx.BasicAuth(cc.client_id, cc.client_secret)
    if note:
        note(f"requesting an OAuth2 token from {cc.token_url} (client credentials, client {cc.client_id})")
    body, t0 = _grant(
        cc,
        form,
        auth,
        "the client credentials",
        "check --client-id, --client-secret and --scope",
        verify=verify,
        timeout=timeout,
    )
    return _entry(body, t0, cc.token_url, cc.client_id, cc.scope, CLIENT_CREDENTIALS)


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


def device_authorize(cc: ClientCredentials, *, verify: Any = True, timeout: float | None = None) -> dict[str, Any]:
    """RFC 8628 §3.1-3.2: POST client_id (and scope) to the device authorization endpoint; its
    answer: device_code, user_code, verification_uri (+ _complete), expires_in, interval."""
    url = cc.device_authorization_url or ""
    require_tls(url, "device authorization endpoint", "the device code")
    form: dict[str, str] = {}
    auth = _client_form(cc, form)
    if cc.scope:
        form["scope"] = cc.scope
    resp, body = _send(
        "POST", url, "device authorization endpoint", form=form, auth=auth, verify=verify, timeout=timeout
    )
    if (
        resp.status_code != 200
        or not isinstance(body, dict)
        or not body.get("device_code")
        or not body.get("user_code")
    ):
        why = _why(resp, body)
        if resp.status_code in (400, 401, 403):
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
            return signed_in(body, t0, cc, DEVICE_CODE, verify=verify, timeout=timeout)
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
        if resp.status_code in (400, 401, 403):
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
    verify: Any = True,
    timeout: float | None = None,
    note: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """RFC 6749 §6: a new access token for a refresh token (a device-code login's)."""
    require_tls(cc.token_url, "token endpoint", "the refresh token")
    form = {"grant_type": "refresh_token", "refresh_token": refresh_token}
    auth = _client_form(cc, form)
    if note:
        note(f"refreshing the OAuth2 token at {cc.token_url} (client {cc.client_id})")
    t0 = time.time()
    resp, body = _send("POST", cc.token_url, "token endpoint", form=form, auth=auth, verify=verify, timeout=timeout)
    if resp.status_code != 200 or not isinstance(body, dict) or not body.get("access_token"):
        raise AuthError(
            f"the token endpoint {cc.token_url} did not renew the token ({_why(resp, body)})", hint=cc.login_hint(None)
        )
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
    from a2acli.wire import oidc

    if problem := oidc.issuer_problem(body, url):
        raise AuthError(
            problem,
            hint="a document that is not its issuer's may send the sign-in elsewhere: check the discovery URL (the card's openIdConnectUrl, or --discovery-url), "
            "or pass the endpoints yourself (--token-url with --authorization-url or --device-authorization-url)",
        )
    return body


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
) -> str:
    """A valid token for the profile: from the cache, refreshed with its refresh token, or
    requested (client credentials) when missing or expired; cached each time."""
    entry = cached(profile, cc.token_url)
    if entry is None:
        stale = load_cache().get(cache_key(profile, cc.token_url))
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
        store(profile, entry)
    return str(entry["access_token"])


class Endpoints(NamedTuple):
    """Where a login goes, and what said so."""

    flow: str  # CLIENT_CREDENTIALS, DEVICE_CODE or AUTHORIZATION_CODE ("" when nothing fits)
    token_url: str
    device_authorization_url: str | None = None
    scopes: tuple[str, ...] = ()
    source: str = ""  # in words: `the Agent Card's oauth2 scheme "o"`, `OpenID Connect discovery at URL`
    authorization_url: str | None = None
    issuer: str | None = None  # a discovery document's (checked against its URL)
    jwks_uri: str | None = None
    oidc: bool = False  # from an OpenID Connect discovery document: the scope asks for openid by default
    offered: frozenset[str] = frozenset()  # every flow the source has the endpoints of


def pick_flow(offered: set[str] | frozenset[str], *, have_secret: bool, browser: bool) -> str | None:
    """The flow to use of those offered, when --flow does not say: client credentials when a
    client secret is given for them; authorization code when a person with a browser is at the
    terminal (browser_at_hand); device code; client credentials; else None. Off a terminal the
    authorization-code flow is never chosen by itself: it waits for a browser."""
    for flow, ok in (
        (CLIENT_CREDENTIALS, have_secret),
        (AUTHORIZATION_CODE, browser),
        (DEVICE_CODE, True),
        (CLIENT_CREDENTIALS, True),
    ):
        if ok and flow in offered:
            return flow
    return None


def browser_at_hand() -> bool:
    """A person at a terminal whose browser can come back to this machine's loopback address:
    stdin and stderr are terminals (not CI, not a pipe) and this is no SSH session (a browser
    would open on, and redirect to, the wrong machine)."""
    import os
    import sys

    try:
        tty = sys.stdin.isatty() and sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False
    return tty and not (os.environ.get("SSH_CONNECTION") or os.environ.get("SSH_TTY"))


def _card_flow_usable(f: Any) -> bool:
    if f.flow not in CARD_FLOWS or not f.token_url:
        return False
    return {DEVICE_CODE: bool(f.device_authorization_url), AUTHORIZATION_CODE: bool(f.authorization_url)}.get(
        CARD_FLOWS[f.flow], True
    )


def endpoints_from_discovery(
    url: str,
    flow: str | None,
    *,
    have_secret: bool,
    browser: bool,
    oidc: bool,
    verify: Any = True,
    timeout: float | None = None,
    fetch: Callable[..., dict[str, Any]] | None = None,
    scheme: str | None = None,
) -> Endpoints:
    """The endpoints an OpenID Connect discovery document or RFC 8414 metadata gives (discover:
    its issuer checked), for `flow` or the one pick_flow takes of those it offers: every flow
    needs its token_endpoint; device code its device_authorization_endpoint; authorization code
    its authorization_endpoint, and `authorization_code` among grant_types_supported when listed."""
    doc = (fetch or discover)(url, verify=verify, timeout=timeout)
    token_url = str(doc.get("token_endpoint") or "")
    device_url = str(doc.get("device_authorization_endpoint") or "")
    authorization_url = str(doc.get("authorization_endpoint") or "")
    grants = doc.get("grant_types_supported")
    offered: set[str] = set()
    if token_url:
        offered.add(CLIENT_CREDENTIALS)
        if device_url:
            offered.add(DEVICE_CODE)
        if authorization_url and (not isinstance(grants, list) or "authorization_code" in grants):
            offered.add(AUTHORIZATION_CODE)
    scopes = tuple(str(x) for x in doc.get("scopes_supported") or () if isinstance(x, str))
    what = "OpenID Connect discovery" if oidc else "authorization server metadata"
    jwks = doc.get("jwks_uri")
    return Endpoints(
        flow or pick_flow(offered, have_secret=have_secret, browser=browser) or "",
        token_url,
        device_url or None,
        scopes,
        f"{what} at {url}" + (f" (scheme {scheme!r})" if scheme else ""),
        authorization_url or None,
        str(doc["issuer"]),
        str(jwks) if isinstance(jwks, str) and jwks else None,
        oidc,
        frozenset(offered),
    )


def endpoints_from_card(
    card_doc: Any,
    flow: str | None,
    *,
    have_secret: bool,
    browser: bool = False,
    verify: Any = True,
    timeout: float | None = None,
    fetch: Callable[..., dict[str, Any]] | None = None,
) -> Endpoints:
    """The endpoints of `flow` (None: the one pick_flow takes) from the card: a declared flow
    (V1 `deviceCode` / `clientCredentials` / `authorizationCode`, V0 the same but `deviceCode`)
    with its endpoints, else the discovery document an `openIdConnect` scheme's openIdConnectUrl
    or an oauth2 scheme's oauth2MetadataUrl names."""
    from a2acli.wire.security import oauth_flows

    flows = oauth_flows(card_doc)
    declared = [f for f in flows if _card_flow_usable(f)]
    chosen = flow or pick_flow({CARD_FLOWS[f.flow] for f in declared}, have_secret=have_secret, browser=browser)
    for f in declared:
        if CARD_FLOWS[f.flow] == chosen:
            return Endpoints(
                chosen,
                f.token_url,
                f.device_authorization_url or None,
                f.scopes,
                f"the Agent Card's oauth2 scheme {f.scheme!r}",
                f.authorization_url or None,
                offered=frozenset({chosen}),
            )
    for f in flows:
        if f.flow != "discovery":
            continue
        ep = endpoints_from_discovery(
            f.discovery_url,
            chosen,
            have_secret=have_secret,
            browser=browser,
            oidc=f.oidc,
            verify=verify,
            timeout=timeout,
            fetch=fetch,
            scheme=f.scheme,
        )
        if ep.flow and ep.flow in ep.offered:
            return ep
    if chosen is None and any(f.flow == "authorizationCode" for f in declared):
        raise UsageError(
            "the Agent Card offers only the authorization-code flow (you sign in with a browser), which is not chosen by itself off a terminal",
            hint="pass --flow authorization-code: the sign-in link goes to stderr, and --timeout bounds the wait for the browser",
        )
    if flow == DEVICE_CODE:
        raise UsageError(
            "the Agent Card declares no OAuth2 deviceCode flow, and no discovery document it names offers a device_authorization_endpoint",
            hint="pass --device-authorization-url URL and --token-url URL",
        )
    if flow == AUTHORIZATION_CODE:
        raise UsageError(
            "the Agent Card declares no OAuth2 authorizationCode flow, and no discovery document it names offers an authorization_endpoint",
            hint="pass --authorization-url URL and --token-url URL",
        )
    raise UsageError(
        "the Agent Card declares no OAuth2 clientCredentials flow"
        + (" (nor a discovery document with a token_endpoint)" if any(f.flow == "discovery" for f in flows) else ""),
        hint="pass --token-url URL (the OAuth2 token endpoint), or --device for the device-code flow",
    )


# -- ID tokens (OpenID Connect Core §3.1.3.7) ------------------------------------------------------


def signed_in(
    body: dict[str, Any],
    t0: float,
    cc: ClientCredentials,
    flow: str,
    *,
    nonce: str | None = None,
    verify: Any = True,
    timeout: float | None = None,
) -> dict[str, Any]:
    """The cache entry of a person's sign-in: the token answer's, with `identity` (who, which
    issuer, whether the signature was verified) when it carries an ID token the scope asked for
    (openid); an ID token that fails its checks fails the login (AuthError)."""
    entry = _entry(body, t0, cc.token_url, cc.client_id, cc.scope, flow)
    from a2acli.wire import oidc

    if body.get("id_token") and oidc.wants_openid(cc.scope):
        entry["identity"] = check_id_token(body["id_token"], cc, nonce=nonce, verify=verify, timeout=timeout)
    return entry


def check_id_token(
    token: Any,
    cc: ClientCredentials,
    *,
    nonce: str | None,
    verify: Any = True,
    timeout: float | None = None,
    now: float | None = None,
) -> dict[str, Any]:
    """The identity an ID token states, once its claims are checked (iss: the discovered issuer,
    aud: the client id, exp, nonce when one was sent) and, when the provider's jwks_uri is known,
    its signature with the key of that JWK Set (the code that checks Agent Card signatures). A
    signature that does not match, like a wrong claim, is an AuthError; one that cannot be
    checked (no jwks_uri, no `cryptography`, an algorithm not supported) is said in
    identity["signature"]: the token came straight from the token endpoint over TLS, which
    OpenID Connect Core §3.1.3.7 accepts in place of the signature."""
    from a2acli.wire import oidc, signing

    hint = "the token was not stored: check --client-id (it must be the ID token's audience) and this machine's clock, or ask the provider"
    try:
        parsed = oidc.parse_id_token(token)
    except signing.SignatureProblem as e:
        raise AuthError(f"the ID token from {cc.token_url} cannot be read: {e}", hint=hint) from None
    if problem := oidc.claims_problem(
        parsed.claims, issuer=cc.issuer, client_id=cc.client_id, nonce=nonce, now=now or time.time()
    ):
        raise AuthError(f"the ID token from {cc.token_url} is not good for this login: {problem}", hint=hint)
    identity = oidc.identity(parsed.claims)
    if not cc.jwks_uri:
        identity["signature"] = "not verified: the provider's jwks_uri is not known (endpoints not from discovery)"
        return identity
    require_tls(cc.jwks_uri, "JWK Set", "the provider's keys")
    resp, keys = _send("GET", cc.jwks_uri, "JWK Set", verify=verify, timeout=timeout)
    if resp.status_code != 200 or not isinstance(keys, dict):
        raise _unexpected(
            resp,
            f"the provider's JWK Set {cc.jwks_uri} could not be read ({_why(resp, keys) if resp.status_code != 200 else 'not a JSON object'})",
            hint="check the discovery document's jwks_uri",
        )
    from a2acli.transport.signature import verify_with_key_set

    outcome = verify_with_key_set(
        parsed.signature,
        keys,
        cc.jwks_uri,
        parsed.signing_input,
        "the ID token: it was altered, or signed with a key that is not the provider's",
    )
    if outcome.status == signing.INVALID:
        raise AuthError(
            f"the ID token from {cc.token_url} is not signed by the provider{signing.outcome_detail(outcome)}: {outcome.reason}",
            hint="the token was not stored: sign in again, or ask the provider",
        )
    identity["signature"] = (
        "verified" + signing.outcome_detail(outcome)
        if outcome.status == signing.VERIFIED
        else f"not verified: {outcome.reason}"
    )
    return identity


# -- the authorization-code flow with PKCE and a loopback redirect (RFC 7636, RFC 8252) ------------


class AuthorizationRequest(NamedTuple):
    url: str  # where the browser goes
    redirect_uri: str
    state: str
    verifier: str  # the PKCE code_verifier: sent with the code, never to the browser
    nonce: str | None  # sent when the scope asks for openid


def authorization_request(cc: ClientCredentials, redirect_uri: str) -> AuthorizationRequest:
    """A fresh state, PKCE verifier (S256) and nonce, and the authorization URL carrying them."""
    import secrets

    from a2acli.wire import oidc
    from a2acli.wire.signing import b64url_encode

    require_tls(cc.authorization_url or "", "authorization endpoint", "your sign-in")
    state, verifier = b64url_encode(secrets.token_bytes(16)), b64url_encode(secrets.token_bytes(32))
    nonce = b64url_encode(secrets.token_bytes(16)) if oidc.wants_openid(cc.scope) else None
    params = {
        "response_type": "code",
        "client_id": cc.client_id,
        "redirect_uri": redirect_uri,
        "scope": cc.scope or "",
        "state": state,
        "code_challenge": oidc.pkce_challenge(verifier),
        "code_challenge_method": "S256",
        "nonce": nonce or "",
    }
    return AuthorizationRequest(
        oidc.authorization_url(cc.authorization_url or "", params), redirect_uri, state, verifier, nonce
    )


_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>a2a: {title}</title></head>
<body style="font-family: sans-serif; margin: 3em"><h1>{title}</h1><p>{text}</p></body></html>
"""


class RedirectListener:
    """The loopback redirect of RFC 8252 §7.3: an HTTP server on 127.0.0.1 (a free port, or the
    one given) that takes the browser's one GET of /callback, answers it with a short page and
    keeps its query; other paths get 404. Served from a thread; `wait` blocks in short slices
    (Ctrl-C is seen at once)."""

    def __init__(self, port: int = 0) -> None:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        from urllib.parse import parse_qs, urlsplit

        self.query: dict[str, str] | None = None
        self.done = threading.Event()
        lock = threading.Lock()  # the first answer is the one kept
        self.expected_state = ""
        listener = self

        class Handler(BaseHTTPRequestHandler):
            timeout = 10  # a browser's idle preconnection is dropped, not waited for

            def do_GET(self) -> None:  # noqa: N802
                parts = urlsplit(self.path)
                if parts.path != CALLBACK_PATH:
                    self._page(404, "Not found", "This address only takes the sign-in's redirect.")
                    return
                query = {k: v[0] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
                with lock:
                    first = not listener.done.is_set()
                    if first:
                        listener.query = query
                if not first:
                    self._page(409, "Already answered", "The sign-in was already answered; look at the terminal.")
                elif query.get("state") != listener.expected_state:
                    self._page(
                        400,
                        "Sign-in failed",
                        "The answer does not belong to this sign-in (state mismatch). Look at the terminal.",
                    )
                elif query.get("error"):
                    self._page(
                        400, "Sign-in failed", f"The authorization server said: {query['error']}. Look at the terminal."
                    )
                else:
                    self._page(200, "Signed in", "You can close this window and go back to the terminal.")
                if first:
                    listener.done.set()

            def _page(self, status: int, title: str, text: str) -> None:
                import html

                data = _PAGE.format(title=html.escape(title), text=html.escape(text)).encode()
                self.send_response(status)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Cache-Control", "no-store")
                self.send_header("Referrer-Policy", "no-referrer")
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        try:
            self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        except OSError as e:
            raise A2acliError(
                f"cannot listen on 127.0.0.1:{port} for the sign-in's redirect: {e.strerror or e}",
                hint="choose another --redirect-port (0 picks a free one)",
            ) from None
        self.server.daemon_threads = True
        self.redirect_uri = f"http://127.0.0.1:{self.server.server_address[1]}{CALLBACK_PATH}"
        self._thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)

    def __enter__(self) -> RedirectListener:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()

    def begin(self, cc: ClientCredentials) -> AuthorizationRequest:
        """A new authorization request redirecting here; its state is the one answers must carry."""
        request = authorization_request(cc, self.redirect_uri)
        self.expected_state = request.state
        return request

    def wait(self, request: AuthorizationRequest, cc: ClientCredentials, *, timeout: float) -> str:
        """The authorization code the browser brings back within `timeout` seconds: the answer's
        state must be the request's, an `error` is the sign-in's end, and an `iss` (RFC 9207)
        must be the discovered issuer."""
        deadline = time.monotonic() + timeout
        while not self.done.wait(min(0.2, max(0.0, deadline - time.monotonic()))):
            if time.monotonic() >= deadline:
                raise TimeoutExpired(
                    f"no sign-in came back to {request.redirect_uri} within {timeout:g} s",
                    hint="sign in sooner, or raise --timeout (the link is valid once; run `a2a auth login --flow authorization-code` again)",
                )
        query = self.query or {}
        again = "run `a2a auth login --flow authorization-code` again"
        if query.get("state") != request.state:
            raise AuthError(
                "the redirect to the loopback address does not carry this sign-in's state: it was not started here (a forged redirect?)",
                hint=again + " and use the link it prints",
            )
        if query.get("error"):
            why = query["error"] + (f": {query['error_description']}" if query.get("error_description") else "")
            said = (
                "the sign-in was denied"
                if query["error"] == "access_denied"
                else "the authorization server refused the sign-in"
            )
            raise AuthError(
                f"{said} ({why})",
                hint=again
                + (
                    " and approve the request"
                    if query["error"] == "access_denied"
                    else "; check --client-id and --scope"
                ),
            )
        if cc.issuer and query.get("iss") not in (None, cc.issuer):
            raise AuthError(
                f"the sign-in's answer comes from the issuer {query['iss']!r}, not {cc.issuer} (RFC 9207: a mix-up?)",
                hint=again,
            )
        if not query.get("code"):
            raise AuthError("the redirect to the loopback address carries no authorization code", hint=again)
        return query["code"]


def open_browser(url: str) -> bool:
    """Open the sign-in link in the user's browser; only when browser_at_hand (never in CI, never
    off a terminal, where the printed link is all). True when a browser took it."""
    if not browser_at_hand():
        return False
    import webbrowser

    try:
        return bool(webbrowser.open(url))
    except webbrowser.Error:
        return False


BROWSER: Callable[[str], bool] = open_browser  # how the sign-in link is opened: tests play the browser here


def exchange_code(
    cc: ClientCredentials,
    code: str,
    request: AuthorizationRequest,
    *,
    verify: Any = True,
    timeout: float | None = None,
    note: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """RFC 6749 §4.1.3 with RFC 7636 §4.5: the code, the redirect URI and the PKCE verifier to the
    token endpoint; the token's cache entry (signed_in: its ID token checked)."""
    require_tls(cc.token_url, "token endpoint", "the authorization code and the token")
    form = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": request.redirect_uri,
        "code_verifier": request.verifier,
    }
    auth = _client_form(cc, form)
    if note:
        note(f"exchanging the authorization code at {cc.token_url} (client {cc.client_id})")
    body, t0 = _grant(
        cc,
        form,
        auth,
        "the authorization code",
        "run `a2a auth login --flow authorization-code` again; check --client-id",
        verify=verify,
        timeout=timeout,
    )
    return signed_in(body, t0, cc, AUTHORIZATION_CODE, nonce=request.nonce, verify=verify, timeout=timeout)
