"""wire/oidc.py: the issuer a discovery URL belongs to, PKCE S256 (the RFC 7636 example), the
authorization URL, and the claims and parts of an ID token."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import pytest

from a2acli.wire import oidc
from a2acli.wire.signing import SignatureProblem, b64url_encode


@pytest.mark.parametrize(
    ("url", "issuer"),
    [
        ("https://idp.example/.well-known/openid-configuration", "https://idp.example"),
        ("https://idp.example/tenant/v2.0/.well-known/openid-configuration", "https://idp.example/tenant/v2.0"),
        ("https://idp.example/.well-known/oauth-authorization-server", "https://idp.example"),
        ("https://idp.example/.well-known/oauth-authorization-server/tenant", "https://idp.example/tenant"),  # RFC 8414 §3.1
        ("https://idp.example/.well-known/openid-configuration/tenant", "https://idp.example/tenant"),  # RFC 8414 §5
        ("http://127.0.0.1:8080/.well-known/openid-configuration", "http://127.0.0.1:8080"),
        ("https://idp.example/metadata.json", None),
    ],
)
def test_the_issuer_a_discovery_url_belongs_to(url, issuer):
    assert oidc.expected_issuer(url) == issuer


@pytest.mark.spec("A2ACLI_AUTH_010")
def test_issuer_problem():
    url = "https://idp.example/t/.well-known/openid-configuration"
    assert oidc.issuer_problem({"issuer": "https://idp.example/t"}, url) is None
    assert oidc.issuer_problem({"issuer": "https://idp.example/t/"}, url) is None  # a terminating slash is dropped before the well-known path
    assert oidc.issuer_problem({"issuer": "https://idp.example/other"}, url) == f"the discovery document {url} names the issuer https://idp.example/other, not https://idp.example/t, the issuer its URL belongs to"
    assert oidc.issuer_problem({"issuer": "https://idp.example"}, url) is not None
    assert "names no issuer" in str(oidc.issuer_problem({}, url))
    assert "names no issuer" in str(oidc.issuer_problem({"issuer": 5}, url))
    # a URL of no well-known form: the issuer must be on the document's origin
    assert oidc.issuer_problem({"issuer": "https://idp.example/x"}, "https://idp.example/meta.json") is None
    assert "on another origin" in str(oidc.issuer_problem({"issuer": "https://evil.example"}, "https://idp.example/meta.json"))


def test_pkce_s256_is_the_rfc_7636_example():
    assert oidc.pkce_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"  # RFC 7636 Appendix B


def test_the_authorization_url_keeps_the_endpoint_query_and_drops_empty_parameters():
    url = oidc.authorization_url("https://idp.example/authorize?tenant=t1", {"response_type": "code", "client_id": "c", "scope": "", "state": "s&t"})
    parts = urlsplit(url)
    assert parts.path == "/authorize" and parse_qs(parts.query) == {"tenant": ["t1"], "response_type": ["code"], "client_id": ["c"], "state": ["s&t"]}


def _token(header: dict, claims: dict, signature: bytes = b"sig") -> str:
    return ".".join(b64url_encode(x) for x in (json.dumps(header).encode(), json.dumps(claims).encode(), signature))


def test_parse_id_token():
    token = _token({"alg": "ES256", "kid": "k1", "jku": "https://evil.example/keys"}, {"sub": "a"})
    parsed = oidc.parse_id_token(token)
    assert parsed.claims == {"sub": "a"} and parsed.signature.kid == "k1" and parsed.signature.alg == "ES256"
    assert parsed.signing_input == token.rsplit(".", 1)[0].encode()
    for bad, says in (("a.b", "compact JWS"), (None, "compact JWS"), (_token({"alg": "none"}, {}, b""), "signature"), (_token({"alg": "ES256"}, [1]), "not a JSON object")):  # type: ignore[arg-type]
        with pytest.raises(SignatureProblem, match=says):
            oidc.parse_id_token(bad)


CLAIMS = {"iss": "https://idp.example", "sub": "alice", "aud": "cli", "exp": 2000, "nonce": "n1"}


@pytest.mark.parametrize(
    ("change", "nonce", "problem"),
    [
        ({}, "n1", None),
        ({"aud": ["cli", "api"], "azp": "cli"}, "n1", None),
        ({}, None, None),  # no nonce sent: none checked
        ({"aud": ["cli", "api"], "azp": "api"}, "n1", "it was issued to another party (azp 'api')"),
        ({"aud": ["api"]}, "n1", "its audience ['api'] is not this client (cli)"),
        ({"iss": "https://idp.example/"}, "n1", "it was issued by 'https://idp.example/', not by https://idp.example"),
        ({"exp": 1000}, "n1", "it expired 1000 s ago"),
        ({"exp": 1990}, "n1", None),  # within the clock skew allowed
        ({"exp": "2000"}, "n1", "it has no expiry (exp)"),
        ({"nonce": "n2"}, "n1", "its nonce is not the one this login sent (a replayed token?)"),
        ({"sub": ""}, "n1", "it names no subject (sub)"),
    ],
)
def test_claims_problem(change, nonce, problem):
    assert oidc.claims_problem({**CLAIMS, **change}, issuer="https://idp.example", client_id="cli", nonce=nonce, now=2000.0) == problem


def test_without_a_known_issuer_iss_is_not_compared():
    assert oidc.claims_problem({**CLAIMS, "iss": "anyone"}, issuer=None, client_id="cli", nonce=None, now=0) is None


def test_identity_keeps_who_and_which_issuer_only():
    assert oidc.identity({**CLAIMS, "email": "a@example", "groups": ["x"], "name": 5}) == {"sub": "alice", "iss": "https://idp.example", "email": "a@example", "exp": 2000}
