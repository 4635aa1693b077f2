from __future__ import annotations

import pytest

from a2acli.wire.translate import card_version, to_compat_card, to_core_card

COMMON = {"name": "Echo", "description": "Echo agent", "version": "1.0.0"}
MODES = {"defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
         "skills": [{"id": "echo", "name": "Echo", "description": "Repeats input", "tags": ["demo"]}]}
# REFERENCE §7 minimal cards
V1_CARD = {
    **COMMON,
    "supportedInterfaces": [
        {"url": "https://agent.example/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
        {"url": "https://agent.example/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
    ],
    "capabilities": {"streaming": True, "pushNotifications": False},
    "securitySchemes": {"bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}},
    "securityRequirements": [{"schemes": {"bearer": {"list": []}}}],
    **MODES,
}
V0_CARD = {
    "protocolVersion": "0.3.0", **COMMON, "url": "https://agent.example/rpc", "preferredTransport": "JSONRPC",
    "capabilities": {"streaming": True, "pushNotifications": False},
    "securitySchemes": {"bearer": {"type": "http", "scheme": "Bearer"}},
    "security": [{"bearer": []}],
    **MODES,
}
# V0_CARD toward V1: the primary endpoint becomes interface 0, with the card's protocolVersion
V0_CARD_AS_V1 = {
    **COMMON,
    "supportedInterfaces": [{"url": "https://agent.example/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "0.3.0"}],
    **{k: V1_CARD[k] for k in ("capabilities", "securitySchemes", "securityRequirements")},
    **MODES,
}


def test_reference_v0_card_to_v1_and_back(tr):
    assert tr(to_core_card, V0_CARD) == (V0_CARD_AS_V1, [])
    assert tr(to_compat_card, V0_CARD_AS_V1) == (V0_CARD, [])


def test_reference_v1_card_to_v0_keeps_only_the_0_3_interface(tr):
    out, notes = tr(to_compat_card, V1_CARD)
    assert out == {**V0_CARD, "protocolVersion": "0.3"}  # the interface says 0.3, the V0 example 0.3.0
    assert notes == ["agent card: 1 interface(s) for other protocol versions dropped (a V0 card lists only 0.3 endpoints)"]


@pytest.mark.parametrize("card", [V1_CARD, V0_CARD_AS_V1])
def test_to_core_idempotent(tr, card):
    assert tr(to_core_card, card) == (card, [])


def test_to_compat_idempotent(tr):
    assert tr(to_compat_card, V0_CARD) == (V0_CARD, [])


def test_additional_interfaces_and_extended_card_flag(tr):
    v0 = {**COMMON, "protocolVersion": "0.3.0", "url": "https://a/rpc", "preferredTransport": "GRPC",
          "additionalInterfaces": [{"url": "https://a/rest", "transport": "HTTP+JSON"}],
          "supportsAuthenticatedExtendedCard": True, "capabilities": {}}
    v1 = {**COMMON, "supportedInterfaces": [
        {"url": "https://a/rpc", "protocolBinding": "GRPC", "protocolVersion": "0.3.0"},
        {"url": "https://a/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "0.3.0"}],
        "capabilities": {"extendedAgentCard": True}}
    assert tr(to_core_card, v0) == (v1, [])
    back = {**COMMON, "protocolVersion": "0.3.0", "url": "https://a/rpc", "preferredTransport": "GRPC",
            "additionalInterfaces": [{"url": "https://a/rest", "transport": "HTTP+JSON"}],
            "capabilities": {}, "supportsAuthenticatedExtendedCard": True}
    assert tr(to_compat_card, v1) == (back, [])
    assert to_core_card(to_compat_card(v1)) == v1


def test_v0_defaults_toward_v1(tr):
    assert tr(to_core_card, {**COMMON, "url": "https://a"})[0]["supportedInterfaces"] == [
        {"url": "https://a", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"}]


def test_lossy_card_rules_are_noted(tr):
    v0 = {**COMMON, "url": "https://a", "capabilities": {"stateTransitionHistory": True}}
    out, notes = tr(to_core_card, v0)
    assert out["capabilities"] == {}
    assert notes == ["agent card: stateTransitionHistory dropped (V1 has no such capability)"]
    v1 = {**COMMON, "supportedInterfaces": [{"url": "https://a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]}
    out, notes = tr(to_compat_card, v1)
    assert (out["protocolVersion"], out["url"], out["preferredTransport"]) == ("0.3", "https://a", "JSONRPC")
    assert notes == ["agent card: no interface for protocol 0.3; the V0 card presents the V1 interfaces as 0.3 "
                     "(a V0 client would be refused: VersionNotSupportedError)"]
    v1 = {**COMMON, "supportedInterfaces": [{"url": "https://a", "protocolBinding": "JSONRPC", "protocolVersion": "0.3", "tenant": "t1"}]}
    assert tr(to_compat_card, v1)[1] == ["agent interface: tenant 't1' dropped (V0 has no tenants)"]


def test_hybrid_card_is_v1_and_its_v0_fields_go(tr):
    hybrid = {**V1_CARD, "url": "https://agent.example/rpc", "preferredTransport": "JSONRPC", "protocolVersion": "0.3.0",
              "supportsAuthenticatedExtendedCard": False, "security": [{"bearer": []}]}
    assert card_version(hybrid) == "v1"
    out, notes = tr(to_core_card, hybrid)
    assert out == {**V1_CARD, "capabilities": {**V1_CARD["capabilities"], "extendedAgentCard": False}}
    assert notes == ["agent card: V0 fields protocolVersion, url, preferredTransport dropped (supportedInterfaces is authoritative)"]


@pytest.mark.parametrize(
    ("v1", "v0"),
    [
        ({"apiKeySecurityScheme": {"location": "header", "name": "X-API-Key", "description": "d"}},
         {"type": "apiKey", "in": "header", "name": "X-API-Key", "description": "d"}),
        ({"httpAuthSecurityScheme": {"scheme": "Bearer", "bearerFormat": "JWT"}},
         {"type": "http", "scheme": "Bearer", "bearerFormat": "JWT"}),
        ({"oauth2SecurityScheme": {"flows": {"clientCredentials": {"tokenUrl": "https://t", "scopes": {"r": "read"}}},
                                   "oauth2MetadataUrl": "https://m"}},
         {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "https://t", "scopes": {"r": "read"}}},
          "oauth2MetadataUrl": "https://m"}),
        ({"openIdConnectSecurityScheme": {"openIdConnectUrl": "https://o"}}, {"type": "openIdConnect", "openIdConnectUrl": "https://o"}),
        ({"mtlsSecurityScheme": {}}, {"type": "mutualTLS"}),
    ],
)
def test_security_schemes_both_ways(tr, v1, v0):
    card_v1 = {**V0_CARD_AS_V1, "securitySchemes": {"s": v1}}
    card_v0 = {**V0_CARD, "securitySchemes": {"s": v0}}
    assert tr(to_compat_card, card_v1) == (card_v0, [])
    assert tr(to_core_card, card_v0) == (card_v1, [])


def test_oauth_flows_lossy_rules(tr):
    flows_v0 = {"password": {"tokenUrl": "p", "scopes": {}}, "authorizationCode": {"authorizationUrl": "a", "tokenUrl": "t", "scopes": {}},
                "clientCredentials": {"tokenUrl": "c", "scopes": {}}}
    out, notes = tr(to_core_card, {**V0_CARD, "securitySchemes": {"o": {"type": "oauth2", "flows": flows_v0}}})
    assert out["securitySchemes"]["o"] == {"oauth2SecurityScheme": {"flows": {"authorizationCode": flows_v0["authorizationCode"]}}}
    assert notes == ["oauth2 flows: clientCredentials, password dropped (a V1 scheme has one flow; kept authorizationCode)"]

    v1 = {"oauth2SecurityScheme": {"flows": {"authorizationCode": {"authorizationUrl": "a", "tokenUrl": "t", "scopes": {}, "pkceRequired": True}}}}
    out, notes = tr(to_compat_card, {**V0_CARD_AS_V1, "securitySchemes": {"o": v1}})
    assert out["securitySchemes"]["o"] == {"type": "oauth2", "flows": {"authorizationCode": {"authorizationUrl": "a", "tokenUrl": "t", "scopes": {}}}}
    assert notes == ["oauth2 flows: pkceRequired dropped (V0 has no PKCE flag)"]

    v1 = {"oauth2SecurityScheme": {"flows": {"deviceCode": {"deviceAuthorizationUrl": "d", "tokenUrl": "t", "scopes": {}}}}}
    out, notes = tr(to_compat_card, {**V0_CARD_AS_V1, "securitySchemes": {"o": v1}})
    assert out["securitySchemes"]["o"] == {"type": "oauth2", "flows": {}}
    assert notes == ["oauth2 flows: deviceCode dropped (V0 has no device code flow)"]


def test_unusual_schemes_are_noted(tr):
    assert tr(to_core_card, {**V0_CARD, "securitySchemes": {"x": {"type": "magic"}}}) == (
        {**V0_CARD_AS_V1, "securitySchemes": {"x": {"type": "magic"}}},
        ["security scheme: type 'magic' not recognised; left unchanged"])
    card = {**V0_CARD_AS_V1, "securitySchemes": {"k": {"apiKeySecurityScheme": {"location": "body", "name": "k"}}}}
    assert tr(to_compat_card, card)[1] == ["security scheme: apiKey location 'body' is not a V0 value (query, header, cookie)"]


def test_skill_security_and_lenient_keys(tr):
    v0 = {**V0_CARD, "skills": [{"id": "s", "name": "S", "description": "d", "tags": [], "security": [{"oauth": ["read", "write"]}]}],
          "securitySchemes": {"k": {"type": "apiKey", "in": "query", "name": "key"}}}
    v1 = {**V0_CARD_AS_V1, "skills": [{"id": "s", "name": "S", "description": "d", "tags": [],
                                       "securityRequirements": [{"schemes": {"oauth": {"list": ["read", "write"]}}}]}],
          "securitySchemes": {"k": {"apiKeySecurityScheme": {"location": "query", "name": "key"}}}}
    assert tr(to_core_card, v0) == (v1, [])
    assert tr(to_compat_card, v1) == (v0, [])
    lenient = {**V1_CARD, "security_requirements": [{"schemes": {"bearer": {"list": []}}}],
               "security_schemes": {"k": {"api_key_security_scheme": {"in": "query", "name": "key"}}}}
    del lenient["securityRequirements"], lenient["securitySchemes"]
    out = to_core_card(lenient)
    assert out["securitySchemes"] == {"k": {"apiKeySecurityScheme": {"location": "query", "name": "key"}}}
    assert out["securityRequirements"] == V1_CARD["securityRequirements"]


@pytest.mark.parametrize(
    ("card", "version"),
    [
        (V1_CARD, "v1"),
        (V0_CARD, "v0"),
        ({"name": "x", "url": "https://a"}, "v0"),
        ({"name": "x", "url": "https://a", "supportedInterfaces": []}, "v1"),
        ({"name": "x", "protocolVersion": "0.3"}, "v0"),
        ({"name": "x", "protocolVersion": "0.2.5"}, "v0"),  # 0.1/0.2 agents speak the V0 wire (issue 10)
        ({"name": "x", "protocolVersion": "1.0"}, "v1"),
        ({"name": "x", "supportsAuthenticatedExtendedCard": True}, "v0"),
        ({"name": "x", "additionalInterfaces": []}, "v0"),
        ({"name": "x", "preferred_transport": "JSONRPC"}, "v0"),
        ({"name": "x"}, "v1"),
        ("nope", "v1"),
    ],
)
def test_card_version(card, version):
    assert card_version(card) == version


def test_additional_interfaces_take_the_cards_version_and_repeats_merge(tr):
    """Issue 10: a2a-sdk 0.3 lists the primary interface again among the additional ones; each
    entry speaks the card's own version (not a fixed 0.3), and one (binding, URL) is one entry."""
    v0 = {**COMMON, "protocolVersion": "0.2.6", "url": "http://a/", "preferredTransport": "JSONRPC",
          "additionalInterfaces": [{"url": "http://a/", "transport": "JSONRPC"}, {"url": "http://a/rest", "transport": "HTTP+JSON"}]}
    core, _ = tr(to_core_card, v0)
    assert core["supportedInterfaces"] == [
        {"url": "http://a/", "protocolBinding": "JSONRPC", "protocolVersion": "0.2.6"},
        {"url": "http://a/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "0.2.6"},
    ]
