"""ID tokens (OpenID Connect Core §3.1.3.7): a person's sign-in made a cache entry, with who signed
in once the ID token's claims (and, when the provider's keys are known, its signature) are checked."""

from __future__ import annotations

import time
from typing import Any

from a2acli.auth.client import ClientCredentials
from a2acli.auth.oauth import _entry, _send, _unexpected, _why, require_tls
from a2acli.errors import AuthError


def signed_in(
    body: dict[str, Any],
    t0: float,
    cc: ClientCredentials,
    flow: str,
    *,
    nonce: str | None = None,
    transport: Any,
) -> dict[str, Any]:
    """The cache entry of a person's sign-in: the token answer's, with `identity` (who, which
    issuer, whether the signature was verified) when it carries an ID token the scope asked for
    (openid); an ID token that fails its checks fails the login (AuthError)."""
    entry = _entry(body, t0, cc.token_url, cc.client_id, cc.scope, flow)
    from a2acli.wire import oidc

    if body.get("id_token") and oidc.wants_openid(cc.scope):
        entry["identity"] = check_id_token(body["id_token"], cc, nonce=nonce, transport=transport)
    return entry


def check_id_token(
    token: Any,
    cc: ClientCredentials,
    *,
    nonce: str | None,
    transport: Any,
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
    resp, keys = _send("GET", cc.jwks_uri, "JWK Set", transport=transport)
    if resp.status != 200 or not isinstance(keys, dict):
        raise _unexpected(
            resp,
            f"the provider's JWK Set {cc.jwks_uri} could not be read ({_why(resp, keys) if resp.status != 200 else 'not a JSON object'})",
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
