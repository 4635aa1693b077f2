"""wire.security: what a card (V1 or V0 shape) says about credentials and OAuth2 endpoints."""

from __future__ import annotations

import pytest

from a2acli.wire import security
from a2acli.wire.translate import to_core_card

V0_CARD = {
    "name": "Old", "description": "d", "version": "1", "url": "http://a/rpc", "protocolVersion": "0.3.0",
    "securitySchemes": {
        "k": {"type": "apiKey", "in": "cookie", "name": "sid"},
        "o": {"type": "oauth2", "flows": {"authorizationCode": {"authorizationUrl": "https://i/a", "tokenUrl": "https://i/t", "scopes": {}},
                                          "clientCredentials": {"tokenUrl": "https://i/t", "scopes": {"r": "read"}}},
              "oauth2MetadataUrl": "https://i/.well-known/oauth-authorization-server"},
        "oidc": {"type": "openIdConnect", "openIdConnectUrl": "https://i/.well-known/openid-configuration"},
    },
    "security": [{"oidc": []}],
    "skills": [{"id": "s", "name": "s", "description": "d", "tags": [], "security": [{"k": []}]}],
}


@pytest.mark.parametrize(
    ("scheme", "kind", "takes"),
    [
        ({"apiKeySecurityScheme": {"location": "header", "name": "X"}}, "apiKey", {"api-key"}),
        ({"type": "apiKey", "in": "query", "name": "k"}, "apiKey", {"api-key"}),
        ({"httpAuthSecurityScheme": {"scheme": "Bearer"}}, "http", {"bearer", "oauth"}),
        ({"type": "http", "scheme": "basic"}, "http", {"basic"}),
        ({"type": "http", "scheme": "digest"}, "http", set()),
        ({"oauth2SecurityScheme": {"flows": {}}}, "oauth2", {"bearer", "oauth"}),
        ({"type": "openIdConnect", "openIdConnectUrl": "x"}, "openIdConnect", {"bearer", "oauth"}),
        ({"mtlsSecurityScheme": {}}, "mutualTLS", set()),
        ({"type": "mutualTLS"}, "mutualTLS", set()),
        ({"type": "kerberos"}, "", set()),
        ("not a scheme", "", set()),
    ],
)
def test_scheme_kinds_in_both_shapes(scheme, kind, takes):
    got_kind, body = security.scheme_kind(scheme)
    assert got_kind == kind and security.takes(got_kind, body) == takes


def test_required_schemes_come_first_in_both_shapes():
    assert security.required_names(V0_CARD) == ["oidc", "k"]
    core = to_core_card(V0_CARD)
    assert security.required_names(core) == ["oidc", "k"]
    assert [n for n, _, _ in security.declared(core)] == ["oidc", "k", "o"]
    assert security.api_key_placement(V0_CARD) == ("cookie", "sid") == security.api_key_placement(core)


def test_withheld_says_what_the_card_declares():
    assert security.withheld(V0_CARD, "bearer") is None
    assert security.withheld(V0_CARD, "basic") == (
        "the Agent Card takes no basic (an http basic scheme); it declares openIdConnect 'oidc', apiKey 'k' (cookie sid), oauth2 'o'"
    )
    assert security.withheld({}, "api-key") == "the Agent Card takes no api key (an apiKey scheme); it declares no security scheme"
    assert security.api_key_placement({}) == ("header", "X-API-Key")


def test_oauth_flows_of_a_v0_card_keep_every_flow_and_discovery_url():
    flows = security.oauth_flows(V0_CARD)
    assert [(f.scheme, f.flow) for f in flows] == [("oidc", "discovery"), ("o", "authorizationCode"), ("o", "clientCredentials"), ("o", "discovery")]
    assert flows[0].oidc and not flows[3].oidc
    assert flows[2].token_url == "https://i/t" and flows[2].scopes == ("r",)


def test_a_v1_device_code_flow():
    card = {"securitySchemes": {"d": {"oauth2SecurityScheme": {"flows": {"deviceCode": {"deviceAuthorizationUrl": "https://i/d", "tokenUrl": "https://i/t", "scopes": {}}}}}}}
    (flow,) = security.oauth_flows(card)
    assert (flow.flow, flow.device_authorization_url, flow.token_url) == ("deviceCode", "https://i/d", "https://i/t")


def _asking(*data: object) -> dict:
    return {"messageId": "m", "role": "ROLE_AGENT", "parts": [{"text": "needs a credential"}, *({"data": d} for d in data)]}


@pytest.mark.spec("A2ACLI_AUTH_011")
@pytest.mark.parametrize(
    ("message", "names", "named", "url"),
    [
        (_asking({"securityScheme": "k"}), ["k"], True, ""),  # by its name on the card
        (_asking({"authScheme": "OAuth2", "authUrl": "https://i/sign-in"}), ["o"], True, "https://i/sign-in"),  # by kind, any case
        (_asking({"securitySchemes": ["oidc", "k"]}), ["oidc", "k"], True, ""),  # several, in the card's order
        (_asking({"securityScheme": "nope", "url": "ftp://not-a-sign-in"}), ["oidc", "k", "o"], False, ""),  # not on the card: the card's stand
        (_asking(), ["oidc", "k", "o"], False, ""),  # text only
        (None, ["oidc", "k", "o"], False, ""),  # no status message at all
    ],
)
def test_auth_ask_reads_the_scheme_a_status_message_names_against_the_card(message, names, named, url):
    for card in (V0_CARD, to_core_card(V0_CARD)):
        ask = security.auth_ask(card, message)
        assert ([name for name, _kind, _body in ask.schemes], ask.named, ask.url) == (names, named, url)


def test_auth_ask_without_a_card_names_nothing():
    assert security.auth_ask(None, _asking({"securityScheme": "k"})) == security.AuthAsk([], False, "")
