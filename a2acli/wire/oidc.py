"""OpenID Connect and the OAuth2 authorization-code flow, the pure part: which issuer a discovery
URL names and whether its document agrees (OpenID Connect Discovery 1.0 §4.3, RFC 8414 §3.3),
the PKCE challenge of a verifier (RFC 7636 §4.2, S256), the authorization request URL, and the
claims of an ID token (OpenID Connect Core 1.0 §3.1.3.7). No I/O and no crypto: the auth package fetches
the documents and the JWK Set, and the signature is checked by transport/signature.py, the code
that checks Agent Card signatures (an ID token is a compact JWS; its parts are read by
wire/signing.py)."""

from __future__ import annotations

import hashlib
from typing import Any, NamedTuple
from urllib.parse import urlencode, urlsplit

from a2acli.wire.signing import Signature, SignatureProblem, b64url_encode, b64url_json_object, parse_signature

OIDC_WELL_KNOWN = "/.well-known/openid-configuration"
OAUTH_WELL_KNOWN = "/.well-known/oauth-authorization-server"
CLOCK_SKEW = 60.0  # seconds of clock difference allowed when an ID token's exp is checked


def expected_issuer(url: str) -> str | None:
    """The issuer a discovery URL was derived from: OpenID Connect appends its well-known path
    to the issuer (`https://idp/tenant/.well-known/openid-configuration`), RFC 8414 inserts it
    between host and path (`https://idp/.well-known/oauth-authorization-server/tenant`; the same
    form with openid-configuration, RFC 8414 §5). None for a URL of neither form. Returned
    without a trailing slash (OIDC Discovery §4: a terminating `/` is removed before the
    well-known path is appended)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    origin, path = f"{parts.scheme}://{parts.netloc}", parts.path
    for well_known in (OIDC_WELL_KNOWN, OAUTH_WELL_KNOWN):
        if path.endswith(well_known):
            return origin + path[: -len(well_known)]
        if path.startswith(well_known + "/") or path == well_known:
            return (origin + path[len(well_known) :]).rstrip("/")
    return None


def issuer_problem(doc: dict[str, Any], url: str) -> str | None:
    """Why the discovery document at `url` is not the one of the issuer it claims (None when it
    is): its `issuer` must be the issuer the URL was derived from (a trailing slash aside), or,
    for a URL of no well-known form, an https URL on the same origin as the document."""
    issuer = doc.get("issuer")
    if not isinstance(issuer, str) or not issuer:
        return f"the discovery document {url} names no issuer (OpenID Connect Discovery §3, RFC 8414 §2 require one)"
    want = expected_issuer(url)
    if want is not None:
        if issuer.rstrip("/") != want:
            return f"the discovery document {url} names the issuer {issuer}, not {want}, the issuer its URL belongs to"
        return None
    got, at = urlsplit(issuer), urlsplit(url)
    if (got.scheme, got.netloc) != (at.scheme, at.netloc):
        return f"the discovery document {url} names the issuer {issuer}, on another origin than the document"
    return None


def pkce_challenge(verifier: str) -> str:
    """RFC 7636 §4.2, S256: base64url(SHA-256(ASCII(code_verifier))), unpadded."""
    return b64url_encode(hashlib.sha256(verifier.encode("ascii")).digest())


def authorization_url(endpoint: str, params: dict[str, str]) -> str:
    """The authorization endpoint with the request's query (RFC 6749 §4.1.1): appended to a query
    the endpoint already has (RFC 6749 §3.1 keeps it)."""
    parts = urlsplit(endpoint)
    query = (parts.query + "&" if parts.query else "") + urlencode({k: v for k, v in params.items() if v})
    return parts._replace(query=query, fragment="").geturl()


def wants_openid(scope: str | None) -> bool:
    """The scope asks for OpenID Connect (an ID token)."""
    return "openid" in (scope or "").split()


class IdToken(NamedTuple):
    signature: Signature  # the JWS header and signature (wire/signing.py reads both)
    signing_input: bytes  # header.payload, as the token spells them
    claims: dict[str, Any]


def parse_id_token(token: Any) -> IdToken:
    """A compact JWS (RFC 7515 §7.1) read into its parts (SignatureProblem when it cannot be).
    The header's jku or jwk is never used: an ID token's key comes from the provider's jwks_uri."""
    if not isinstance(token, str) or token.count(".") != 2:
        raise SignatureProblem("the ID token is not a compact JWS (three base64url parts)")
    protected, payload, signature = token.split(".")
    sig = parse_signature({"protected": protected, "signature": signature})
    claims = b64url_json_object(payload, "the ID token's payload", "payload")
    return IdToken(sig, f"{protected}.{payload}".encode("ascii"), claims)


def claims_problem(
    claims: dict[str, Any], *, issuer: str | None, client_id: str, nonce: str | None, now: float
) -> str | None:
    """Why an ID token's claims are not good for this login (OpenID Connect Core §3.1.3.7): iss is
    the provider's issuer (when it is known), aud holds the client id (and azp names it when
    there are several audiences), exp has not passed, nonce is the one sent; None when they are."""
    iss = claims.get("iss")
    if issuer is not None and iss != issuer:
        return f"it was issued by {iss!r}, not by {issuer}"
    if not isinstance(claims.get("sub"), str) or not claims["sub"]:
        return "it names no subject (sub)"
    aud = claims.get("aud")
    audiences = (
        [aud] if isinstance(aud, str) else [a for a in aud if isinstance(a, str)] if isinstance(aud, list) else []
    )
    if client_id not in audiences:
        return f"its audience {aud!r} is not this client ({client_id})"
    if len(audiences) > 1 and claims.get("azp") not in (None, client_id):
        return f"it was issued to another party (azp {claims['azp']!r})"
    exp = claims.get("exp")
    if isinstance(exp, bool) or not isinstance(exp, (int, float)):
        return "it has no expiry (exp)"
    if exp + CLOCK_SKEW <= now:
        return f"it expired {int(now - exp)} s ago"
    if nonce is not None and claims.get("nonce") != nonce:
        return "its nonce is not the one this login sent (a replayed token?)"
    return None


def identity(claims: dict[str, Any]) -> dict[str, Any]:
    """What `auth status` shows of an ID token: who (sub, and a name or email when given) and
    which issuer said so."""
    shown = {
        k: claims[k]
        for k in ("sub", "iss", "email", "preferred_username", "name")
        if isinstance(claims.get(k), str) and claims[k]
    }
    if isinstance(claims.get("exp"), (int, float)) and not isinstance(claims["exp"], bool):
        shown["exp"] = claims["exp"]
    return shown
