"""OAuth2 for `a2a auth login` and the calls after it: client credentials (RFC 6749 §4.4), the
device authorization grant (RFC 8628), the authorization-code grant with PKCE (RFC 7636) and a
loopback redirect (RFC 8252 §7.3), endpoints from the Agent Card or from OpenID Connect / RFC 8414
discovery (the document's issuer checked against its URL), ID tokens checked (OpenID Connect
Core §3.1.3.7), and the token cache.

One module per concern; callers use the names re-exported here (`from a2acli import auth`):
- client: the OAuth2 client a profile names (ClientCredentials) and the flows' names;
- cache: the token cache (tokens.json beside config.toml, mode 0600) and access_token, the token a
  call sends (cached, refreshed, or requested again);
- oauth: one request to an OAuth2 endpoint, its answer read (https required, errors mapped);
- grants: client credentials, the device-code grant (SLEEP and CLOCK: tests replace them there)
  and the refresh;
- discovery: the endpoints from the Agent Card or a discovery document, and which flow to take;
- id_token: a person's sign-in, its ID token checked;
- browser: the authorization-code flow (BROWSER: how the link is opened; tests replace it there).

The flows import the client and oauth modules, the cache imports the grants; nothing here imports
the package itself (no import circle). Every request goes through the caller's transport
(transport.client.Transport): no HTTP client of its own."""

from __future__ import annotations

from a2acli.auth.browser import (
    BROWSER_WAIT,
    CALLBACK_PATH,
    AuthorizationRequest,
    RedirectListener,
    authorization_request,
    exchange_code,
    open_browser,
)
from a2acli.auth.cache import (
    LEEWAY,
    access_token,
    audience,
    bind,
    cache_key,
    cached,
    entry_for,
    forget,
    load_cache,
    save_cache,
    store,
    unbound,
)
from a2acli.auth.client import CARD_FLOWS, FLOW_WORDS, SIGN_IN, ClientCredentials, profile_flow, profile_port
from a2acli.auth.discovery import (
    Endpoints,
    browser_at_hand,
    discover,
    endpoints_from_card,
    endpoints_from_discovery,
    pick_flow,
)
from a2acli.auth.grants import (
    DEFAULT_INTERVAL,
    DEVICE_GRANT,
    SLOW_DOWN,
    device_authorize,
    poll_device_token,
    refresh,
    request_token,
)
from a2acli.auth.id_token import check_id_token, signed_in
from a2acli.auth.oauth import DEFAULT_LIFETIME, is_loopback, positive_number, require_tls
from a2acli.settings.table import AUTHORIZATION_CODE, CLIENT_CREDENTIALS, DEVICE_CODE, FLOWS

__all__ = [
    "AUTHORIZATION_CODE",
    "BROWSER_WAIT",
    "CALLBACK_PATH",
    "CARD_FLOWS",
    "CLIENT_CREDENTIALS",
    "DEFAULT_INTERVAL",
    "DEFAULT_LIFETIME",
    "DEVICE_CODE",
    "DEVICE_GRANT",
    "FLOWS",
    "FLOW_WORDS",
    "LEEWAY",
    "SIGN_IN",
    "SLOW_DOWN",
    "AuthorizationRequest",
    "ClientCredentials",
    "Endpoints",
    "RedirectListener",
    "access_token",
    "audience",
    "authorization_request",
    "bind",
    "browser_at_hand",
    "cache_key",
    "cached",
    "check_id_token",
    "device_authorize",
    "discover",
    "endpoints_from_card",
    "endpoints_from_discovery",
    "entry_for",
    "exchange_code",
    "forget",
    "is_loopback",
    "load_cache",
    "open_browser",
    "pick_flow",
    "poll_device_token",
    "positive_number",
    "profile_flow",
    "profile_port",
    "refresh",
    "request_token",
    "require_tls",
    "save_cache",
    "signed_in",
    "store",
    "unbound",
]
