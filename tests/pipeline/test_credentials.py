"""pipeline.credentials: which credential a session's requests carry, to which agent and origin.
Each goes only where the Agent Card declares a scheme that takes it (A2ACLI_AUTH_008), the others
withheld and said once; with no card (--endpoint) they go as given; the origin rule; a chat turn's
one-off credential; the profile's OAuth2 token, scoped to its own agent and renewed once after a
401. Through a Call over respx."""

from __future__ import annotations

import base64
import json
import time
from typing import Any

import httpx
import pytest
from a2a_testkit import ANY_CREDENTIAL
from pipeline_kit import AGENT, CARD_URL, RPC, rpc_answer

from a2acli.errors import CardInvalidError, CredentialsWithheldError
from a2acli.wire.methods import METHODS

TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}}
IDP = "https://idp.test/oauth/token"


def card(schemes: dict[str, Any] | None = None, url: str = RPC, **extra: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "name": "t",
        "description": "d",
        "version": "1",
        "supportedInterfaces": [{"url": url, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
        "capabilities": {},
        **extra,
    }
    if schemes is not None:
        doc["securitySchemes"] = schemes
    return doc


def serve(mock, doc: Any, card_url: str = CARD_URL) -> None:
    mock.get(card_url).mock(return_value=httpx.Response(200, json=doc))


API_KEY = {"key": {"apiKeySecurityScheme": {"location": "header", "name": "X-API-Key"}}}
BEARER = {"bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}}
BASIC = {"basic": {"httpAuthSecurityScheme": {"scheme": "Basic"}}}
OAUTH2 = {"oauth": {"oauth2SecurityScheme": {"flows": {"clientCredentials": {"tokenUrl": IDP, "scopes": {}}}}}}
OIDC = {
    "oidc": {"openIdConnectSecurityScheme": {"openIdConnectUrl": "https://idp.test/.well-known/openid-configuration"}}
}
MTLS = {"mtls": {"mtlsSecurityScheme": {}}}


# -- which credential, where the card takes it ---------------------------------------------------


@pytest.mark.parametrize(
    ("schemes", "given", "headers", "sent", "withheld"),
    [
        (ANY_CREDENTIAL, {"api_key": "k"}, {"X-API-Key": "k"}, {"api-key"}, []),
        (API_KEY, {"api_key": "k", "bearer": "t"}, {"X-API-Key": "k"}, {"api-key"}, ["bearer"]),
        (BEARER, {"api_key": "k", "bearer": "t"}, {"Authorization": "Bearer t"}, {"bearer"}, ["api-key"]),
        (OAUTH2, {"bearer": "t"}, {"Authorization": "Bearer t"}, {"bearer"}, []),
        (OIDC, {"bearer": "t"}, {"Authorization": "Bearer t"}, {"bearer"}, []),
        (BASIC, {"basic": "u:p"}, {"Authorization": "Basic " + base64.b64encode(b"u:p").decode()}, {"basic"}, []),
        (BASIC, {"bearer": "t"}, {}, set(), ["bearer"]),
        (
            {**BEARER, **BASIC},
            {"bearer": "t", "basic": "u:p"},
            {"Authorization": "Bearer t"},
            {"bearer"},
            [],
        ),  # one Authorization: the bearer's
        (MTLS, {"api_key": "k", "bearer": "t"}, {}, set(), ["api-key", "bearer"]),
        ({}, {"api_key": "k"}, {}, set(), ["api-key"]),
        (None, {"bearer": "t"}, {}, set(), ["bearer"]),  # no schemes at all: nothing taken
        (
            {"v0": {"type": "apiKey", "in": "header", "name": "X-Key"}},
            {"api_key": "k"},
            {"X-Key": "k"},
            {"api-key"},
            [],
        ),  # a 0.3 card's shape
        ({"v0": {"type": "http", "scheme": "bearer"}}, {"bearer": "t"}, {"Authorization": "Bearer t"}, {"bearer"}, []),
    ],
)
def test_each_credential_goes_only_where_a_declared_scheme_takes_it(
    mock, make_call, recorder, schemes, given, headers, sent, withheld
):
    serve(mock, card(schemes))
    c = make_call(url=AGENT, **given)
    c.resolve()
    creds = c.creds.for_request(RPC)
    assert creds.headers == headers and not creds.params and not creds.cookies
    assert c.creds.sent == sent and c.creds.withheld == withheld
    assert len(recorder.warnings) == len(withheld)
    for name, warning in zip(withheld, recorder.warnings, strict=True):
        flag = {"api-key": "--api-key", "bearer": "--bearer", "basic": "--basic"}[name]
        assert warning.startswith(f"{flag} not sent: the Agent Card takes no {name.replace('-', ' ')} (")
        assert "sends it anyway" in warning


def test_a_withheld_credential_is_said_once_however_many_requests(mock, make_call, recorder):
    serve(mock, card(BEARER))
    c = make_call(url=AGENT, api_key="k", bearer="t")
    c.resolve()
    for _ in range(3):
        c.creds.for_request(RPC)
    assert len(recorder.saying("--api-key not sent")) == 1


@pytest.mark.parametrize(
    ("scheme", "where", "name"),
    [
        ({"location": "query", "name": "key"}, "params", "key"),
        ({"location": "cookie", "name": "session"}, "cookies", "session"),
        ({"location": "header", "name": "X-Custom-Key"}, "headers", "X-Custom-Key"),
        ({"location": "HEADER", "name": "X-Upper"}, "headers", "X-Upper"),
        ({"location": "somewhere", "name": "X-Odd"}, "headers", "X-Odd"),  # an unknown location: a header
    ],
)
def test_an_api_key_goes_where_the_cards_scheme_places_it(mock, make_call, scheme, where, name):
    serve(mock, card({"key": {"apiKeySecurityScheme": scheme}}))
    c = make_call(url=AGENT, api_key="s3cret")
    c.resolve()
    creds = c.creds.for_request(RPC)
    assert getattr(creds, where) == {name: "s3cret"}


def test_the_scheme_a_requirement_names_places_the_api_key(mock, make_call):
    schemes = {
        "first": {"apiKeySecurityScheme": {"location": "header", "name": "X-First"}},
        "second": {"apiKeySecurityScheme": {"location": "header", "name": "X-Second"}},
    }
    serve(mock, card(schemes, securityRequirements=[{"schemes": {"second": {"list": []}}}]))
    c = make_call(url=AGENT, api_key="k")
    c.resolve()
    assert c.creds.for_request(RPC).headers == {"X-Second": "k"}


def test_an_api_key_header_name_that_is_no_header_name_is_the_cards_fault(mock, make_call):
    serve(mock, card({"key": {"apiKeySecurityScheme": {"location": "header", "name": "bad name"}}}))
    c = make_call(url=AGENT, api_key="k")
    c.resolve()
    with pytest.raises(CardInvalidError, match="nothing was sent"):
        c.creds.for_request(RPC)


def test_without_a_card_the_credentials_go_as_given(make_call, recorder):
    c = make_call(endpoint=RPC, api_key="k", bearer="t")
    creds = c.creds.for_request(RPC)
    assert creds.headers == {"X-API-Key": "k", "Authorization": "Bearer t"}
    assert c.creds.sent == {"api-key", "bearer"} and not recorder.said


def test_with_an_endpoint_the_card_read_for_the_version_filters_nothing(mock, make_call, recorder):
    serve(mock, card(BEARER))
    c = make_call(url=AGENT, endpoint=RPC, version_auto=True, api_key="k")
    c.resolve()
    assert c.target.card is not None  # read, for the version only
    assert c.creds.for_request(RPC).headers == {"X-API-Key": "k"} and not recorder.warnings


def test_the_credential_reaches_the_agent_and_the_withheld_one_does_not(mock, make_call):
    serve(mock, card(BEARER))
    rpc = mock.post(RPC).mock(side_effect=rpc_answer(TASK))
    make_call(url=AGENT, api_key="k", bearer="t").unary(METHODS["GetTask"], {"id": "t-1"})
    request = rpc.calls.last.request
    assert request.headers["authorization"] == "Bearer t" and "x-api-key" not in request.headers


def test_the_public_card_is_fetched_without_credentials(mock, make_call):
    route = mock.get(CARD_URL).mock(return_value=httpx.Response(200, json=card(ANY_CREDENTIAL)))
    mock.post(RPC).mock(side_effect=rpc_answer(TASK))
    make_call(url=AGENT, api_key="k", bearer="t", headers=(("X-Trace", "1"),)).unary(METHODS["GetTask"], {"id": "t-1"})
    fetched = route.calls.last.request.headers
    assert "authorization" not in fetched and "x-api-key" not in fetched


# -- a chat turn's credential --------------------------------------------------------------------


def test_a_turn_credential_goes_where_the_card_takes_it_and_ends_with_the_turn(mock, make_call, recorder):
    serve(mock, card(API_KEY))
    c = make_call(url=AGENT)
    c.resolve()
    with c.turn_credentials({"api_key": "turn-key", "bearer": "turn-token"}):
        assert c.creds.for_request(RPC).headers == {"X-API-Key": "turn-key"}
        assert c.opts.api_key == "turn-key"
    assert c.opts.api_key is None and c.creds.for_request(RPC).headers == {}
    assert "turn-key" not in c.redactor.text("the key was turn-key")  # redacted from the moment it was known
    assert recorder.saying("--bearer not sent")


def test_a_turn_ends_even_when_its_call_fails(make_call):
    c = make_call(endpoint=RPC, bearer="flag-token")
    with pytest.raises(RuntimeError), c.turn_credentials({"bearer": "turn-token"}):
        raise RuntimeError("the turn's call failed")
    assert c.opts.bearer == "flag-token"


# -- what is redacted ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("opts", "secret"),
    [
        ({"api_key": "key-123456"}, "key-123456"),
        ({"bearer": "tok-123456"}, "tok-123456"),
        ({"basic": "user:pass-123456"}, "pass-123456"),
        ({"basic": "user:pass-123456"}, base64.b64encode(b"user:pass-123456").decode()),
        ({"headers": (("X-Secret-Thing", "hdr-123456"),)}, "hdr-123456"),
        ({"url": "http://user:pw-123456@agent.test"}, "pw-123456"),
        ({"oauth": (("token-url", IDP), ("client-id", "cli"), ("client-secret", "cs-123456"))}, "cs-123456"),
    ],
)
def test_every_secret_of_the_options_is_redacted(make_call, opts, secret):
    c = make_call(**opts)
    assert secret not in c.redactor.text(f"said: {secret}")


@pytest.mark.parametrize(
    ("name", "redacted"), [("X-Trace", True), ("Accept-Language", False), ("Idempotency-Key", False)]
)
def test_an_h_value_is_a_secret_unless_its_name_is_a_known_harmless_one(make_call, name, redacted):
    c = make_call(headers=((name, "value-123456"),))
    assert ("value-123456" not in c.redactor.text("said: value-123456")) is redacted


# -- the origin rule ------------------------------------------------------------------------------


def test_a_card_that_names_another_origin_is_said_once(mock, make_call, recorder):
    serve(mock, card(BEARER, url="http://calls.test/rpc"))
    c = make_call(url=AGENT, bearer="t")
    c.resolve()
    c.creds.for_request("http://calls.test/rpc")
    c.creds.for_request("http://calls.test/rpc")
    assert recorder.warnings == [f"credentials go to calls.test:80, named by the Agent Card at {AGENT}"]


def test_strict_origin_keeps_the_credentials_home(mock, make_call):
    serve(mock, card(BEARER, url="http://calls.test/rpc"))
    c = make_call(url=AGENT, bearer="t", strict_origin=True)
    c.resolve()
    with pytest.raises(CredentialsWithheldError, match="--strict-origin keeps the credentials at agent.test"):
        c.creds.for_request("http://calls.test/rpc")


def test_an_https_card_naming_a_plain_http_endpoint_is_refused_unless_insecure(mock, make_call, recorder):
    serve(mock, card(BEARER, url="http://agent.test/rpc"), card_url="https://agent.test/.well-known/agent-card.json")
    c = make_call(url="https://agent.test", bearer="t")
    c.resolve()
    with pytest.raises(CredentialsWithheldError, match="over plain http"):
        c.creds.for_request("http://agent.test/rpc")
    allowed = make_call(url="https://agent.test", bearer="t", insecure=True)
    allowed.resolve()
    allowed.creds.for_request("http://agent.test/rpc")
    assert any("credentials go to agent.test:80" in w for w in recorder.warnings)


def test_no_credential_no_origin_rule(mock, make_call, recorder):
    serve(mock, card(BEARER, url="http://calls.test/rpc"))
    c = make_call(url=AGENT, strict_origin=True)
    c.resolve()
    assert c.creds.for_request("http://calls.test/rpc").headers == {} and not recorder.said


def test_a_credential_header_given_with_h_follows_the_origin_rule(mock, make_call):
    serve(mock, card(BEARER, url="http://calls.test/rpc"))
    c = make_call(url=AGENT, headers=(("Authorization", "Bearer mine"),), strict_origin=True)
    c.resolve()
    with pytest.raises(CredentialsWithheldError):
        c.creds.for_request("http://calls.test/rpc")


def test_a_card_file_naming_any_origin_is_the_users_own(tmp_path, make_call, recorder):
    path = tmp_path / "card.json"
    path.write_text(json.dumps(card(BEARER, url="http://calls.test/rpc")))
    c = make_call(url=str(path), bearer="t", strict_origin=True)
    c.resolve()
    assert c.creds.for_request("http://calls.test/rpc").headers == {"Authorization": "Bearer t"}
    assert not recorder.warnings


# -- --insecure -------------------------------------------------------------------------------------


def test_insecure_warns_once_of_credentials_over_an_unchecked_connection(make_call, recorder):
    c = make_call(endpoint="https://agent.test/rpc", bearer="t", insecure=True, headers=(("X-Api-Key", "k"),))
    c.creds.for_request("https://agent.test/rpc")
    c.creds.for_request("https://agent.test/rpc")
    carried = [w for w in recorder.warnings if "credentials (" in w]
    assert carried == [
        "--insecure: credentials (Authorization, X-Api-Key) are sent over a connection whose TLS certificate is NOT verified: anyone on the path can read them"
    ]


@pytest.mark.parametrize(("endpoint", "bearer"), [("http://agent.test/rpc", "t"), ("https://agent.test/rpc", None)])
def test_insecure_says_nothing_of_credentials_over_plain_http_or_without_any(make_call, recorder, endpoint, bearer):
    c = make_call(endpoint=endpoint, bearer=bearer, insecure=True)
    c.creds.for_request(endpoint)
    assert not [w for w in recorder.warnings if "credentials (" in w]
    assert recorder.warnings[0].startswith("--insecure: TLS certificates are NOT verified")  # said once, by the session


# -- the profile's OAuth2 token --------------------------------------------------------------------

OAUTH_PROFILE = (("token-url", IDP), ("client-id", "cli"), ("client-secret", "cs"))


@pytest.fixture
def token_cache(tmp_path, monkeypatch):
    """The token cache beside a config file of the test's own; `store(token, audience)` caches one."""
    monkeypatch.setenv("A2ACLI_GLOBAL_CONFIG", str(tmp_path / "config.toml"))
    path = tmp_path / "tokens.json"

    def store(token: str, audience: str | None = AGENT) -> None:
        entry = {"access_token": token, "token_url": IDP, "expires_at": time.time() + 3600, "audience": audience}
        path.write_text(json.dumps({f"- {IDP}": entry}))  # keyed as before issue 42: read for its audience

    store.path = path  # type: ignore[attr-defined]
    return store


def test_the_profiles_cached_token_goes_to_its_own_agent(mock, make_call, token_cache):
    token_cache("cached-token")
    serve(mock, card(OAUTH2))
    idp = mock.post(IDP)
    c = make_call(url=AGENT, oauth=OAUTH_PROFILE, oauth_home=AGENT)
    c.resolve()
    assert c.creds.for_request(RPC).headers == {"Authorization": "Bearer cached-token"}
    assert c.creds.sent == {"oauth"} and not idp.called


def test_the_profiles_token_is_requested_when_none_is_cached(mock, make_call, token_cache):
    serve(mock, card(OAUTH2))
    idp = mock.post(IDP).mock(
        return_value=httpx.Response(200, json={"access_token": "new-token", "token_type": "Bearer", "expires_in": 3600})
    )
    c = make_call(url=AGENT, oauth=OAUTH_PROFILE, oauth_home=AGENT)
    c.resolve()
    assert c.creds.for_request(RPC).headers == {"Authorization": "Bearer new-token"}
    assert idp.call_count == 1
    c.creds.for_request(RPC)
    assert idp.call_count == 1  # once per session
    assert "new-token" not in c.redactor.text("new-token")


def test_the_profiles_token_is_withheld_from_another_agent_said_once(mock, make_call, recorder, token_cache):
    token_cache("cached-token", audience="http://home.test")
    serve(mock, card(BEARER))  # another agent, whose card names no token endpoint
    c = make_call(url=AGENT, oauth=OAUTH_PROFILE, oauth_home="http://home.test")
    c.resolve()
    assert c.creds.for_request(RPC).headers == {}
    c.creds.for_request(RPC)
    (warning,) = recorder.warnings
    assert warning.startswith(f"the OAuth2 token of profile default is not sent to {AGENT}: it is for http://home.test")
    assert "--bearer TOKEN" in warning


def test_an_agent_whose_card_names_the_token_endpoint_gets_a_token_of_its_own(mock, make_call, recorder, token_cache):
    """Issue 42: the home agent's token is not sent to another agent that shares its token
    endpoint; a token is obtained for that agent, and kept for it apart."""
    token_cache("cached-token", audience="http://home.test")
    serve(mock, card(OAUTH2))  # names IDP
    idp = mock.post(IDP).mock(
        return_value=httpx.Response(200, json={"access_token": "agent-token", "token_type": "Bearer", "expires_in": 60})
    )
    c = make_call(url=AGENT, oauth=OAUTH_PROFILE, oauth_home="http://home.test")
    c.resolve()
    assert c.creds.for_request(RPC).headers == {"Authorization": "Bearer agent-token"} and not recorder.warnings
    assert idp.call_count == 1
    cache = json.loads((token_cache.path).read_text())
    assert {e["access_token"]: e.get("audience") for e in cache.values()} == {
        "cached-token": "http://home.test",
        "agent-token": AGENT,
    }


def test_a_bearer_flag_wins_over_the_profiles_token(mock, make_call, token_cache):
    token_cache("cached-token")
    serve(mock, card(OAUTH2))
    c = make_call(url=AGENT, oauth=OAUTH_PROFILE, oauth_home=AGENT, bearer="flag-token")
    c.resolve()
    assert c.creds.for_request(RPC).headers == {"Authorization": "Bearer flag-token"} and c.creds.sent == {"bearer"}


def test_offline_never_requests_a_token_it_shows_a_placeholder(mock, make_call, token_cache):
    idp = mock.post(IDP)
    c = make_call(endpoint=RPC, oauth=OAUTH_PROFILE, oauth_home=RPC, offline=True)
    assert c.creds.credentials().headers == {"Authorization": f"Bearer <OAuth2 token from {IDP}>"}
    assert not idp.called


def test_a_401_with_the_cached_token_gets_a_new_one_and_tries_once_more(mock, make_call, recorder, token_cache):
    token_cache("revoked-token")
    serve(mock, card(OAUTH2))
    idp = mock.post(IDP).mock(
        return_value=httpx.Response(
            200, json={"access_token": "fresh-token", "token_type": "Bearer", "expires_in": 3600}
        )
    )
    rpc = mock.post(RPC).mock(side_effect=[httpx.Response(401), rpc_answer(TASK)])
    reply = make_call(url=AGENT, oauth=OAUTH_PROFILE, oauth_home=AGENT).unary(METHODS["GetTask"], {"id": "t-1"})
    assert reply.core["id"] == "t-1"
    assert [call.request.headers["authorization"] for call in rpc.calls] == [
        "Bearer revoked-token",
        "Bearer fresh-token",
    ]
    assert idp.call_count == 1
    assert "HTTP 401 with the cached OAuth2 token: requesting a new one" in recorder.notes


def test_a_401_with_a_token_just_requested_stands(mock, make_call, token_cache):
    from a2acli.errors import A2acliError

    serve(mock, card(OAUTH2))
    idp = mock.post(IDP).mock(
        return_value=httpx.Response(
            200, json={"access_token": "fresh-token", "token_type": "Bearer", "expires_in": 3600}
        )
    )
    rpc = mock.post(RPC).mock(return_value=httpx.Response(401))
    with pytest.raises(A2acliError):
        make_call(url=AGENT, oauth=OAUTH_PROFILE, oauth_home=AGENT).unary(METHODS["GetTask"], {"id": "t-1"})
    assert rpc.call_count == 1 and idp.call_count == 1  # not renewed: it was not the cache's
