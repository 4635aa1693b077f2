"""The OAuth2 client a profile's [auth] table names: its endpoints, id, secret, scope and flow."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from a2acli.settings.table import (
    AUTHORIZATION_CODE,
    CLIENT_CREDENTIALS,
    DEVICE_CODE,
    FLOWS,
)  # the flows a profile may name

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
