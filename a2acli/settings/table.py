"""The settings table: one row per setting (flags, help, environment variable, config key, default)."""

from __future__ import annotations

import re
from typing import Any, NamedTuple


class Setting(NamedTuple):  # NamedTuples here: cheaper than dataclasses to define at start-up
    name: str  # the flag without dashes, and the profile key
    env: str
    default: Any = None
    secret: bool = False
    old: str = ""  # another name (`rpc-url`, the old one; `agent-card`, the spec's): also read from env A2ACLI_<OLD> and profiles


SETTINGS: dict[str, Setting] = {
    s.name: s
    for s in (
        Setting("url", "A2ACLI_URL", old="agent-card"),
        Setting("endpoint", "A2ACLI_ENDPOINT", old="rpc-url"),
        Setting("catalog", "A2ACLI_CATALOG"),  # the agent catalog that catalog:NAME reads (A2ACLI_CARD_GET_005)
        Setting("transport", "A2ACLI_TRANSPORT"),
        Setting("a2a-version", "A2ACLI_A2A_VERSION", "1.0"),
        Setting("dialect", "A2ACLI_DIALECT", "spec"),
        Setting("api-key", "A2ACLI_API_KEY", secret=True),
        Setting("bearer", "A2ACLI_BEARER", secret=True),
        Setting("basic", "A2ACLI_BASIC", secret=True),
        Setting("cacert", "A2ACLI_CACERT"),
        Setting("cert", "A2ACLI_CERT"),
        Setting("key", "A2ACLI_KEY"),
        Setting("timeout", "A2ACLI_TIMEOUT"),
        Setting("max-body", "A2ACLI_MAX_BODY", "32M"),
        Setting("strict-origin", "A2ACLI_STRICT_ORIGIN", False),
        Setting("output", "A2ACLI_OUTPUT", "text"),
        Setting("dump", "A2ACLI_DUMP"),
    )
}


def env_names(s: Setting) -> tuple[str, ...]:
    """The environment variables (and .env names) of a setting, the first set one wins."""
    old = ("A2ACLI_" + s.old.upper().replace("-", "_"),) if s.old else ()
    return (s.env, *old)


CLIENT_CREDENTIALS = "client-credentials"  # the OAuth2 flows `auth.flow` may name (a2acli.auth runs them)
DEVICE_CODE = "device-code"
AUTHORIZATION_CODE = "authorization-code"
FLOWS = (CLIENT_CREDENTIALS, DEVICE_CODE, AUTHORIZATION_CODE)
AUTH_KEYS: dict[str, bool] = {  # [profiles.NAME.auth] key -> secret?
    "token-url": False,
    "client-id": False,
    "client-secret": True,
    "scope": False,
    "client-auth": False,
    "flow": False,  # client-credentials (default), device-code or authorization-code
    "device-authorization-url": False,
    "authorization-url": False,
    "redirect-port": False,  # authorization-code: the loopback redirect's port (0: a free one)
}
PATH_SETTINGS = frozenset({"cacert", "cert", "key"})
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # RFC 9110 token
_CATALOG_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")  # no `/`: catalog:CATALOG/NAME splits there
