"""A credential goes only to an agent whose Agent Card declares a scheme that takes it
(A2ACLI_AUTH_008), the extended card included (A2ACLI_CARD_GET_003): an API key to an apiKey
scheme, a bearer token or the profile's OAuth2 token to http bearer / oauth2 / openIdConnect, basic
to http basic; a card with none gets none, and stderr says what was withheld and why. Without a
card (--endpoint) credentials go as given; -H sends anything. Both card shapes (V1, V0)."""

from __future__ import annotations

import base64

import httpx
import pytest
from a2a_testkit import AGENT, RPC, rpc_result, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
TOKEN_URL = "https://idp.test/oauth/token"
TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}
API_KEY_ONLY = {"key": {"apiKeySecurityScheme": {"location": "header", "name": "X-API-Key"}}}
BEARER = {"b": {"httpAuthSecurityScheme": {"scheme": "Bearer", "bearerFormat": "JWT"}}}
BASIC = {"b": {"httpAuthSecurityScheme": {"scheme": "basic"}}}
OAUTH2 = {"o": {"oauth2SecurityScheme": {"flows": {"clientCredentials": {"tokenUrl": TOKEN_URL, "scopes": {}}}}}}
OIDC = {"o": {"openIdConnectSecurityScheme": {"openIdConnectUrl": "https://idp.test/.well-known/openid-configuration"}}}
MTLS = {"m": {"mtlsSecurityScheme": {}}}
CREDS = ["--api-key", "key-0123456789", "--bearer", "bearer-abcdef"]


def sent(request: httpx.Request) -> set[str]:
    """The credentials a request carried."""
    out = set()
    if request.headers.get("X-API-Key") == "key-0123456789":
        out.add("api-key")
    auth = request.headers.get("Authorization", "")
    if auth == "Bearer bearer-abcdef":
        out.add("bearer")
    elif auth.startswith("Basic "):
        out.add("basic")
    elif auth.startswith("Bearer "):
        out.add("oauth")
    return out


def extended(card_schemes, **extra):
    return v1_card(securitySchemes=card_schemes, capabilities={"streaming": True, "extendedAgentCard": True}, **extra)


@pytest.mark.spec("A2ACLI_AUTH_008", "A2ACLI_CARD_GET_003")
@pytest.mark.parametrize("version", ["1.0", "0.3"])
def test_the_extended_card_of_an_api_key_card_gets_the_key_and_not_the_bearer(cli, respx_mock, version):
    respx_mock.get(CARD_URL).respond(json=extended(API_KEY_ONLY))
    route = respx_mock.post(RPC).respond(json=rpc_result(v1_card()))
    result = cli("card", "extended", "-u", AGENT, "--a2a-version", version, *CREDS)
    assert result.exit_code == 0, result.stderr
    assert sent(route.calls.last.request) == {"api-key"}
    assert "Authorization" not in route.calls.last.request.headers
    line = next(x for x in result.stderr.splitlines() if "--bearer not sent" in x)
    assert line == (
        "warning: --bearer not sent: the Agent Card takes no bearer (an http bearer, oauth2 or openIdConnect scheme);"
        " it declares apiKey 'key' (header X-API-Key); -H 'Authorization: Bearer …' sends it anyway"
    )
    assert "bearer-abcdef" not in result.stderr


@pytest.mark.spec("A2ACLI_AUTH_008")
def test_a_card_with_no_schemes_gets_no_credential(cli, cfg_free_env, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    route = respx_mock.post(RPC).respond(json=rpc_result(TASK))
    result = cli("tasks", "get", "t-1", "-u", AGENT, *CREDS)
    assert result.exit_code == 0, result.stderr
    assert sent(route.calls.last.request) == set()
    assert "--api-key not sent: the Agent Card takes no api key (an apiKey scheme); it declares no security scheme" in result.stderr
    assert "--bearer not sent" in result.stderr
    assert result.stderr.count("not sent") == 2


@pytest.fixture
def cfg_free_env(tmp_path, monkeypatch):
    monkeypatch.setenv("A2ACLI_GLOBAL_CONFIG", str(tmp_path / "config.toml"))


@pytest.mark.spec("A2ACLI_AUTH_008")
@pytest.mark.parametrize(
    ("schemes", "flags", "expected"),
    [
        (BEARER, CREDS, {"bearer"}),
        (OAUTH2, CREDS, {"bearer"}),
        (OIDC, CREDS, {"bearer"}),
        (BASIC, ["--basic", "alice:pw-secret", "--api-key", "key-0123456789"], {"basic"}),
        (BASIC, ["--bearer", "bearer-abcdef"], set()),
        (BEARER, ["--basic", "alice:pw-secret"], set()),
        (MTLS, CREDS, set()),
        ({**API_KEY_ONLY, **BEARER}, CREDS, {"api-key", "bearer"}),
        # V0 shapes, as a 0.3 card spells them
        ({"k": {"type": "apiKey", "in": "header", "name": "X-API-Key"}}, CREDS, {"api-key"}),
        ({"h": {"type": "http", "scheme": "bearer"}}, CREDS, {"bearer"}),
        ({"o": {"type": "openIdConnect", "openIdConnectUrl": "https://idp.test/x"}}, CREDS, {"bearer"}),
        ({"h": {"type": "http", "scheme": "Basic"}}, ["--basic", "alice:pw-secret"], {"basic"}),
    ],
)
def test_each_credential_goes_to_the_scheme_that_takes_it(cli, respx_mock, schemes, flags, expected):
    respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes=schemes))
    route = respx_mock.post(RPC).respond(json=rpc_result(TASK))
    result = cli("tasks", "get", "t-1", "-u", AGENT, *flags)
    assert result.exit_code == 0, result.stderr
    assert sent(route.calls.last.request) == expected
    given = {f[2:] for f in flags if f.startswith("--")}
    assert {w.split()[1] for w in result.stderr.splitlines() if " not sent: " in w} == {f"--{g}" for g in given - expected}


@pytest.mark.spec("A2ACLI_AUTH_008")
def test_a_v0_card_with_requirements_and_schemes(cli, respx_mock):
    """A raw 0.3 card: `security` names the scheme, `securitySchemes` its V0 form."""
    card = {"name": "Old", "description": "d", "version": "1", "url": RPC, "protocolVersion": "0.3.0", "preferredTransport": "JSONRPC",
            "capabilities": {}, "skills": [], "defaultInputModes": [], "defaultOutputModes": [],
            "securitySchemes": {"k": {"type": "apiKey", "in": "header", "name": "X-Agent-Key"}}, "security": [{"k": []}]}
    respx_mock.get(CARD_URL).respond(json=card)
    route = respx_mock.post(RPC).respond(json=rpc_result({"kind": "task", **TASK, "status": {"state": "completed"}}))
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--a2a-version", "0.3", *CREDS)
    assert result.exit_code == 0, result.stderr
    req = route.calls.last.request
    assert req.headers["X-Agent-Key"] == "key-0123456789" and "Authorization" not in req.headers


def test_the_api_key_goes_where_the_required_scheme_says(cli, respx_mock):
    schemes = {"spare": {"apiKeySecurityScheme": {"location": "header", "name": "X-Spare"}}, "main": {"apiKeySecurityScheme": {"location": "query", "name": "key"}}}
    respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes=schemes, securityRequirements=[{"schemes": {"main": {"list": []}}}]))
    route = respx_mock.post(url__startswith=RPC).respond(json=rpc_result(TASK))
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--api-key", "key-0123456789")
    assert result.exit_code == 0, result.stderr
    req = route.calls.last.request
    assert "X-Spare" not in req.headers and "key=key-0123456789" in str(req.url)


@pytest.mark.spec("A2ACLI_AUTH_008")
def test_the_profile_oauth_token_is_not_requested_for_a_card_that_takes_none(cli, cfg_free_env, respx_mock):
    token = respx_mock.post(TOKEN_URL).respond(json={"access_token": "tok-1", "token_type": "Bearer"})
    for key, value in (("auth.token-url", TOKEN_URL), ("auth.client-id", "cli"), ("auth.client-secret", "s3cret")):
        assert cli("config", "set", "--profile", "p", key, value).exit_code == 0
    respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes=API_KEY_ONLY))
    route = respx_mock.post(RPC).respond(json=rpc_result(TASK))
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--profile", "p")
    assert result.exit_code == 0, result.stderr
    assert not token.called and "Authorization" not in route.calls.last.request.headers
    assert "the profile's OAuth2 token not sent: the Agent Card takes no oauth" in result.stderr


@pytest.mark.spec("A2ACLI_AUTH_008")
def test_without_a_card_credentials_go_as_given(cli, respx_mock):
    route = respx_mock.post(RPC).respond(json=rpc_result(TASK))
    result = cli("tasks", "get", "t-1", "--endpoint", RPC, *CREDS)
    assert result.exit_code == 0, result.stderr
    assert sent(route.calls.last.request) == {"api-key", "bearer"} and "not sent" not in result.stderr


@pytest.mark.spec("A2ACLI_AUTH_008")
def test_h_sends_anything_explicitly(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    route = respx_mock.post(RPC).respond(json=rpc_result(TASK))
    result = cli("tasks", "get", "t-1", "-u", AGENT, "-H", "Authorization: Bearer bearer-abcdef", "-H", "X-API-Key: key-0123456789")
    assert result.exit_code == 0, result.stderr
    assert sent(route.calls.last.request) == {"api-key", "bearer"} and "not sent" not in result.stderr


def test_a_401_after_every_credential_was_withheld_says_so(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes=BASIC))
    respx_mock.post(RPC).respond(401, json={"error": "who are you"})
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--bearer", "bearer-abcdef")
    assert result.exit_code == 4
    assert "the agent requires credentials and none were sent" in result.stderr
    assert "not sent, the card declares no scheme for it: bearer" in result.stderr


def test_basic_is_encoded_when_sent(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes=BASIC))
    route = respx_mock.post(RPC).respond(json=rpc_result(TASK))
    assert cli("tasks", "get", "t-1", "-u", AGENT, "--basic", "alice:pw-secret").exit_code == 0
    assert route.calls.last.request.headers["Authorization"] == "Basic " + base64.b64encode(b"alice:pw-secret").decode()


@pytest.mark.spec("A2ACLI_AUTH_003")
def test_insecure_warns_when_a_credential_is_sent(cli):
    """--offline prepares the very request a send would: the warning names what crosses the
    unverified connection, and not a value."""
    result = cli("tasks", "get", "t-1", "--endpoint", "https://agent.test/rpc", "--bearer", "bearer-abcdef", "--insecure", "--offline")
    assert result.exit_code == 0, result.stderr
    assert "warning: --insecure: credentials (Authorization) are sent over a connection whose TLS certificate is NOT verified" in result.stderr
    assert "bearer-abcdef" not in result.stderr
    quiet = cli("tasks", "get", "t-1", "--endpoint", "https://agent.test/rpc", "--insecure", "--offline")
    assert "credentials (" not in quiet.stderr


def test_offline_says_the_card_decides(cli):
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--bearer", "bearer-abcdef", "--offline")
    assert result.exit_code == 0, result.stderr
    assert "Authorization: <redacted>" in result.stdout
    assert "credentials are shown as given: the Agent Card, which --offline does not read, decides which are sent" in result.stderr
