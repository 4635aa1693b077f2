"""`a2a auth login` with the OAuth 2.1 device-code flow (RFC 8628): endpoints from the Agent Card,
from OpenID Connect discovery, or from flags; the user code on stderr; the token endpoint polled
honouring `interval`, `authorization_pending` and `slow_down`; the token stored like client
credentials' and sent on later calls. A real authorization server on 127.0.0.1 for the happy
paths, respx for each error. The poll's sleep and clock are replaced: nothing waits."""

from __future__ import annotations

import json
import stat
from typing import Any
from urllib.parse import parse_qs

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

import httpx
import pytest
from a2a_testkit import AGENT, RPC, rpc_result, token_entry, token_key, v1_card
from oauth_provider import GRANT as SERVED_GRANT
from oauth_provider import TASK, FakeServer

from a2acli import auth

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
IDP = "https://idp.test"
DEVICE_URL = f"{IDP}/device"
TOKEN_URL = f"{IDP}/token"
GRANT = {**SERVED_GRANT, "verification_uri": f"{IDP}/activate"}


def device_card(url: str = RPC, *, device: str = DEVICE_URL, token: str = TOKEN_URL, **extra: Any) -> dict[str, Any]:
    scheme = {"oauth2SecurityScheme": {"flows": {"deviceCode": {"deviceAuthorizationUrl": device, "tokenUrl": token, "scopes": {"a2a": "call the agent"}}}}}
    return v1_card(url, securitySchemes={"sso": scheme}, securityRequirements=[{"schemes": {"sso": {"list": ["a2a"]}}}], **extra)


class Clock:
    """The poll's sleep and clock: sleeping moves time on, and is recorded."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds

    def clock(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch) -> Clock:
    c = Clock()
    monkeypatch.setattr(auth.grants, "SLEEP", c.sleep)
    monkeypatch.setattr(auth.grants, "CLOCK", c.clock)
    return c


# -- a real authorization server (and agent) on 127.0.0.1: `server` (tests/oauth_provider.py) ---------


PENDING = {"error": "authorization_pending"}
SLOW = {"error": "slow_down"}
TOKEN = {"access_token": "dev-token-1", "token_type": "Bearer", "expires_in": 3600, "refresh_token": "refresh-1", "scope": "a2a"}


@pytest.mark.spec("A2ACLI_AUTH_005", "A2ACLI_AUTH_007")
def test_device_login_against_a_real_authorization_server(cli, cfg, clock, server):
    """The card declares only the device-code flow, so `auth login -u` uses it without --device:
    the code goes to stderr, the token endpoint is polled every 5 s, pending twice, 5 s slower
    after slow_down, and the token is stored (0600) and sent to the agent on the next call."""
    server.card = device_card(f"{server.base}/rpc", device=f"{server.base}/device", token=f"{server.base}/token")
    server.token_script = [PENDING, PENDING, SLOW, TOKEN]
    result = cli("auth", "login", "--profile", "me", "-u", server.base, "--client-id", "a2a-cli", "--scope", "a2a")
    assert result.exit_code == 0, result.stderr
    # where to sign in, and the code, on stderr; stdout holds the result line only, no token
    assert f"To sign in, open {server.base}/activate and enter the code: WDJB-MJHT" in result.stderr
    assert f"{server.base}/activate?user_code=WDJB-MJHT" in result.stderr
    assert result.stdout.startswith("Logged in: profile me, client a2a-cli") and "(device code)" in result.stdout
    for shown in (result.stdout, result.stderr):
        assert "dev-token-1" not in shown and "refresh-1" not in shown and "dev-code-secret" not in shown
    # interval 5, 5, 5, then 5 more after slow_down
    assert clock.sleeps == [5, 5, 5, 10]
    posts = [(path, form) for method, path, form, _ in server.requests if method == "POST"]
    assert posts[0] == ("/device", {"client_id": ["a2a-cli"], "scope": ["a2a"]})
    assert [p for p, _ in posts[1:]] == ["/token"] * 4
    assert posts[1][1] == {"grant_type": [auth.DEVICE_GRANT], "device_code": ["dev-code-secret"], "client_id": ["a2a-cli"]}
    # stored like client credentials: the profile holds the settings, tokens.json the token, both 0600
    prof = tomllib.loads(cfg.read_text())["profiles"]["me"]
    assert prof["auth"] == {"token-url": f"{server.base}/token", "client-id": "a2a-cli", "scope": "a2a", "flow": "device-code", "device-authorization-url": f"{server.base}/device"}
    cache = cfg.with_name("tokens.json")
    assert stat.S_IMODE(cache.stat().st_mode) == 0o600 and stat.S_IMODE(cfg.stat().st_mode) == 0o600
    entry = token_entry(cache, "me")
    assert entry["access_token"] == "dev-token-1" and entry["refresh_token"] == "refresh-1" and entry["flow"] == "device-code"
    # attached automatically on the next call to that agent (the profile's url)
    call = cli("tasks", "get", "t-1", "--profile", "me", "-o", "json")
    assert call.exit_code == 0, call.stderr
    rpc = [h for method, path, _, h in server.requests if path == "/rpc"]
    assert rpc and rpc[-1]["authorization"] == "Bearer dev-token-1"
    assert "dev-token-1" not in call.stdout + call.stderr


@pytest.mark.spec("A2ACLI_AUTH_005", "A2ACLI_AUTH_010")
def test_device_login_by_openid_connect_discovery(cli, cfg, clock, server):
    """A card with an openIdConnect scheme: the endpoints come from its discovery document."""
    server.card = v1_card(f"{server.base}/rpc", securitySchemes={"oidc": {"openIdConnectSecurityScheme": {"openIdConnectUrl": f"{server.base}/.well-known/openid-configuration"}}})
    server.token_script = [PENDING, TOKEN]
    result = cli("auth", "login", "--profile", "me", "-u", server.base, "--client-id", "a2a-cli", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert ("GET", "/.well-known/openid-configuration") in [(m, p) for m, p, _, _ in server.requests]
    assert f"device-code endpoints from OpenID Connect discovery at {server.base}/.well-known/openid-configuration" in result.stderr
    doc = json.loads(result.stdout)
    assert doc["flow"] == "device-code" and doc["tokenUrl"] == f"{server.base}/token" and doc["deviceAuthorizationUrl"] == f"{server.base}/device"
    assert doc["refreshable"] is True and "dev-token-1" not in result.stdout
    assert clock.sleeps == [5, 5]
    call = cli("tasks", "get", "t-1", "--profile", "me")
    assert call.exit_code == 0, call.stderr
    assert [h for _, p, _, h in server.requests if p == "/rpc"][-1]["authorization"] == "Bearer dev-token-1"


@pytest.mark.spec("A2ACLI_AUTH_010")
def test_the_id_token_of_a_device_sign_in_is_checked(cli, cfg, clock, server):
    """OpenID Connect discovery: the scope is openid; the ID token in the token answer is checked
    (no nonce in this flow) and its signature verified with the provider's JWK Set."""
    server.token_script = [{**TOKEN, "scope": "openid", "id_token": server.id_token("a2a-cli", None)}]
    result = cli("auth", "login", "--profile", "me", "--discovery-url", server.discovery_url, "--client-id", "a2a-cli")
    assert result.exit_code == 0, result.stderr
    assert posts_to(server, "/device")[0]["scope"] == ["openid"]
    assert f"(device code) as alice (alice@example.test), issuer {server.base}" in result.stdout
    status = cli("auth", "status", "--profile", "me", "-o", "json")
    assert json.loads(status.stdout)["idToken"]["signature"] == f"verified (kid k1, ES256, key from {server.base}/jwks)"
    server.id_claims = {"aud": "another-client"}
    server.token_script = [{**TOKEN, "scope": "openid", "id_token": server.id_token("a2a-cli", None)}]
    result = cli("auth", "login", "--profile", "other", "--discovery-url", server.discovery_url, "--client-id", "a2a-cli")
    assert result.exit_code == 4 and "its audience 'another-client' is not this client (a2a-cli)" in result.stderr
    assert "other" not in tomllib.loads(cfg.read_text())["profiles"]


def posts_to(server: FakeServer, path: str) -> list[dict[str, list[str]]]:
    return [form for method, p, form, _ in server.requests if method == "POST" and p == path]


@pytest.mark.spec("A2ACLI_AUTH_010")
def test_discovery_url_flag(cli, cfg, clock, server):
    server.token_script = [TOKEN]
    result = cli("auth", "login", "--profile", "me", "--discovery-url", f"{server.base}/.well-known/openid-configuration", "--client-id", "a2a-cli")
    assert result.exit_code == 0, result.stderr
    assert tomllib.loads(cfg.read_text())["profiles"]["me"]["auth"]["flow"] == "device-code"


@pytest.mark.spec("A2ACLI_AUTH_006", "A2ACLI_AUTH_007")
def test_client_credentials_against_the_real_server(cli, cfg, clock, server):
    """The same real server with a clientCredentials flow: one token request (HTTP Basic client
    authentication), no device code, no wait; the token is then sent to the agent."""
    server.card = v1_card(f"{server.base}/rpc", securitySchemes={"cc": {"oauth2SecurityScheme": {"flows": {"clientCredentials": {"tokenUrl": f"{server.base}/token", "scopes": {}}}}}})
    server.token_script = [TOKEN]
    result = cli("auth", "login", "--profile", "svc", "-u", server.base, "--client-id", "svc-client", env={"A2ACLI_CLIENT_SECRET": "s3cret"})
    assert result.exit_code == 0, result.stderr
    posts = [(p, form, h) for m, p, form, h in server.requests if m == "POST"]
    assert [p for p, _, _ in posts] == ["/token"] and posts[0][1] == {"grant_type": ["client_credentials"]}
    assert posts[0][2]["authorization"].startswith("Basic ") and clock.sleeps == []
    call = cli("tasks", "get", "t-1", "--profile", "svc")
    assert call.exit_code == 0, call.stderr
    assert [h for _, p, _, h in server.requests if p == "/rpc"][-1]["authorization"] == "Bearer dev-token-1"


# -- flags, card shapes and the choice of flow (respx) -----------------------------------------------


def device_routes(respx_mock, *token_answers: httpx.Response):
    device = respx_mock.post(DEVICE_URL).respond(json=GRANT)
    token = respx_mock.post(TOKEN_URL).mock(side_effect=list(token_answers))
    return device, token


def ok_token(token: str = "dev-token-1", **extra: Any) -> httpx.Response:
    return httpx.Response(200, json={"access_token": token, "token_type": "Bearer", "expires_in": 3600, **extra})


def error(code: str, status: int = 400) -> httpx.Response:
    return httpx.Response(status, json={"error": code, "error_description": f"said {code}"})


def login(cli, *extra: str, env: dict[str, str] | None = None):
    return cli("auth", "login", "--profile", "me", "--device-authorization-url", DEVICE_URL, "--token-url", TOKEN_URL, "--client-id", "a2a-cli", *extra, env=env)


@pytest.mark.spec("A2ACLI_AUTH_005")
def test_explicit_endpoints_need_no_card(cli, cfg, clock, respx_mock):
    device, token = device_routes(respx_mock, error("authorization_pending"), ok_token())
    result = login(cli)
    assert result.exit_code == 0, result.stderr
    assert device.called and token.call_count == 2 and clock.sleeps == [5, 5]
    assert "enter the code: WDJB-MJHT" in result.stderr


def test_interval_from_the_answer_and_the_client_secret_when_given(cli, cfg, clock, respx_mock):
    respx_mock.post(DEVICE_URL).respond(json={**GRANT, "interval": 2})
    token = respx_mock.post(TOKEN_URL).mock(side_effect=[error("authorization_pending"), error("slow_down"), ok_token()])
    result = login(cli, "--client-secret", "s3cret", "--client-auth", "post")
    assert result.exit_code == 0, result.stderr
    assert clock.sleeps == [2, 2, 7]
    form = parse_qs(token.calls.last.request.content.decode())
    assert form["client_id"] == ["a2a-cli"] and form["client_secret"] == ["s3cret"]


@pytest.mark.spec("A2ACLI_AUTH_005")
@pytest.mark.parametrize(
    ("answer", "says"),
    [
        (error("access_denied"), "the sign-in was denied"),
        (error("expired_token"), "the device code expired before the sign-in was approved (expired_token)"),
        (error("invalid_grant"), "refused the device code (invalid_grant: said invalid_grant)"),
    ],
)
def test_a_refused_poll_is_exit_4_with_one_line_and_a_hint(cli, cfg, clock, respx_mock, answer, says):
    device_routes(respx_mock, error("authorization_pending"), answer)
    result = login(cli)
    assert result.exit_code == 4, result.stderr
    err = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(err) == 1 and says in err[0]
    assert "hint:" in result.stderr and not cfg.with_name("tokens.json").exists()
    assert "dev-code-secret" not in result.stderr


@pytest.mark.spec("A2ACLI_AUTH_005")
def test_the_code_expiring_while_pending_is_exit_4(cli, cfg, clock, respx_mock):
    respx_mock.post(DEVICE_URL).respond(json={**GRANT, "expires_in": 12})
    token = respx_mock.post(TOKEN_URL).mock(return_value=error("authorization_pending"))
    result = login(cli, "-o", "json")
    assert result.exit_code == 4
    doc = json.loads(result.stdout)
    assert doc["error"]["message"] == "the device code expired (12 s) before the sign-in was approved"
    assert "auth login --device" in doc["error"]["hint"]
    assert token.call_count == 2 and clock.sleeps == [5, 5]  # a third wait would outlive the code


def test_the_device_endpoint_refusing_the_client_is_exit_4(cli, cfg, clock, respx_mock):
    respx_mock.post(DEVICE_URL).mock(return_value=error("invalid_client", 401))
    result = login(cli)
    assert result.exit_code == 4 and "refused the request (invalid_client" in result.stderr


def test_a_token_endpoint_fault_is_exit_1(cli, cfg, clock, respx_mock):
    device_routes(respx_mock, httpx.Response(500, text="boom"))
    result = login(cli)
    assert result.exit_code == 1 and "gave no access token (HTTP 500" in result.stderr


def test_device_endpoints_must_be_https_but_on_loopback(cli, cfg, clock, respx_mock):
    plain = respx_mock.post("http://idp.test/device").respond(json=GRANT)
    result = cli("auth", "login", "--profile", "me", "--device-authorization-url", "http://idp.test/device", "--token-url", TOKEN_URL, "--client-id", "c")
    assert result.exit_code == 4 and "is not https" in result.stderr and not plain.called


@pytest.mark.spec("A2ACLI_AUTH_005")
def test_ctrl_c_while_waiting_is_exit_130_and_stores_nothing(cli, cfg, monkeypatch, respx_mock):
    def interrupted(seconds: float) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(auth.grants, "SLEEP", interrupted)
    device_routes(respx_mock, ok_token())
    result = login(cli)
    assert result.exit_code == 130
    assert "Traceback" not in result.stderr and "error:" not in result.stderr
    assert not cfg.exists() and not cfg.with_name("tokens.json").exists()


@pytest.mark.spec("A2ACLI_AUTH_005")
def test_the_flow_comes_from_the_card_in_both_shapes(cli, cfg, clock, respx_mock):
    """V1: one flow per scheme; a card with only the device-code flow gets it by default. A V0
    card (several flows in one scheme) with clientCredentials and deviceCode: device code without
    a client secret, client credentials with one."""
    device, token = device_routes(respx_mock, ok_token(), ok_token(), ok_token("cc-token"))
    respx_mock.get(CARD_URL).respond(json=device_card())
    result = cli("auth", "login", "--profile", "me", "-u", AGENT, "--client-id", "a2a-cli")
    assert result.exit_code == 0, result.stderr
    assert "the device code and the token go to idp.test, the device authorization endpoint named by the Agent Card" in result.stderr
    assert device.call_count == 1
    v0 = {"name": "Old", "description": "d", "version": "1", "url": RPC, "protocolVersion": "0.3.0",
          "securitySchemes": {"o": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": TOKEN_URL, "scopes": {}},
                                                                "deviceCode": {"deviceAuthorizationUrl": DEVICE_URL, "tokenUrl": TOKEN_URL, "scopes": {}}}}}}
    respx_mock.get(CARD_URL).respond(json=v0)
    result = cli("auth", "login", "--profile", "other", "-u", AGENT, "--client-id", "a2a-cli")
    assert result.exit_code == 0, result.stderr
    assert device.call_count == 2 and "device-code endpoints" in result.stderr
    result = cli("auth", "login", "--profile", "third", "-u", AGENT, "--client-id", "a2a-cli", env={"A2ACLI_CLIENT_SECRET": "s3cret"})
    assert result.exit_code == 0, result.stderr
    assert device.call_count == 2 and "client-credentials endpoints" in result.stderr
    assert parse_qs(token.calls.last.request.content.decode())["grant_type"] == ["client_credentials"]


def test_flow_flags(cli, cfg, clock, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    result = cli("auth", "login", "--device", "-u", AGENT, "--client-id", "c")
    assert result.exit_code == 2 and "no OAuth2 deviceCode flow" in result.stderr and "--device-authorization-url" in result.stderr
    result = cli("auth", "login", "--flow", "implicit", "--token-url", TOKEN_URL, "--client-id", "c")
    assert result.exit_code == 2 and "--flow 'implicit'" in result.stderr
    result = cli("auth", "login", "--device", "--flow", "client-credentials", "--token-url", TOKEN_URL, "--client-id", "c")
    assert result.exit_code == 2 and "contradict" in result.stderr
    result = cli("auth", "login", "--device", "--token-url", TOKEN_URL, "--client-id", "c")
    assert result.exit_code == 2 and "no device authorization endpoint" in result.stderr


def test_strict_origin_keeps_the_device_code_at_the_agent(cli, cfg, clock, respx_mock):
    respx_mock.get(CARD_URL).respond(json=device_card())
    device = respx_mock.post(DEVICE_URL).respond(json=GRANT)
    result = cli("auth", "login", "-u", AGENT, "--client-id", "c", "--strict-origin")
    assert result.exit_code == 4 and "--strict-origin keeps the device code and the token at agent.test" in result.stderr
    assert not device.called


# -- later calls: the stored token, refreshed or asked for again --------------------------------------


@pytest.mark.spec("A2ACLI_AUTH_007")
def test_an_expired_device_token_is_refreshed_with_its_refresh_token(cli, cfg, clock, respx_mock):
    token = respx_mock.post(TOKEN_URL).mock(side_effect=[ok_token("dev-token-1", refresh_token="refresh-1"), ok_token("dev-token-2")])
    respx_mock.post(DEVICE_URL).respond(json=GRANT)
    respx_mock.get(CARD_URL).respond(json=device_card())
    agent = respx_mock.post(RPC).respond(json=rpc_result(TASK))
    assert login(cli).exit_code == 0
    cache = cfg.with_name("tokens.json")
    data = json.loads(cache.read_text())
    data[token_key(cache, "me")]["expires_at"] = 0
    cache.write_text(json.dumps(data))
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--profile", "me")
    assert result.exit_code == 0, result.stderr
    assert agent.calls.last.request.headers["Authorization"] == "Bearer dev-token-2"
    form = parse_qs(token.calls.last.request.content.decode())
    assert form == {"grant_type": ["refresh_token"], "refresh_token": ["refresh-1"], "client_id": ["a2a-cli"]}
    entry = token_entry(cache, "me")
    assert entry["access_token"] == "dev-token-2" and entry["refresh_token"] == "refresh-1"


@pytest.mark.spec("A2ACLI_AUTH_007")
def test_an_expired_device_token_without_refresh_token_asks_for_a_new_login(cli, cfg, clock, respx_mock):
    device_routes(respx_mock, ok_token())
    respx_mock.get(CARD_URL).respond(json=device_card())
    agent = respx_mock.post(RPC).respond(json=rpc_result(TASK))
    assert login(cli).exit_code == 0
    cache = cfg.with_name("tokens.json")
    data = json.loads(cache.read_text())
    data[token_key(cache, "me")]["expires_at"] = 0
    cache.write_text(json.dumps(data))
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--profile", "me")
    assert result.exit_code == 4 and "a2a auth login --profile me --device" in result.stderr
    assert not agent.called
    status = cli("auth", "status", "--profile", "me")
    assert status.exit_code == 4 and "Flow: device-code" in status.stdout


def test_auth_status_of_a_device_profile(cli, cfg, clock, respx_mock):
    device_routes(respx_mock, ok_token(refresh_token="refresh-1"))
    assert login(cli).exit_code == 0
    result = cli("auth", "status", "--profile", "me", "-o", "json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["flow"] == "device-code" and doc["valid"] is True and doc["refreshable"] is True
    assert "dev-token-1" not in result.stdout


@pytest.mark.spec("A2ACLI_AUTH_007")
def test_a_401_to_the_cached_device_token_refreshes_it_once(cli, cfg, clock, respx_mock):
    token = respx_mock.post(TOKEN_URL).mock(side_effect=[ok_token("dev-token-1", refresh_token="refresh-1"), ok_token("dev-token-2")])
    respx_mock.post(DEVICE_URL).respond(json=GRANT)
    respx_mock.get(CARD_URL).respond(json=device_card())

    def agent_answer(request: httpx.Request) -> httpx.Response:
        if request.headers.get("Authorization") != "Bearer dev-token-2":
            return httpx.Response(401, json={"error": "revoked"})
        return httpx.Response(200, json=rpc_result(TASK))

    agent = respx_mock.post(RPC).mock(side_effect=agent_answer)
    assert login(cli).exit_code == 0
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--profile", "me")
    assert result.exit_code == 0, result.stderr
    assert [c.request.headers["Authorization"] for c in agent.calls] == ["Bearer dev-token-1", "Bearer dev-token-2"]
    assert parse_qs(token.calls.last.request.content.decode())["grant_type"] == ["refresh_token"]


def test_a_401_to_a_device_token_without_refresh_token_stands(cli, cfg, clock, respx_mock):
    device_routes(respx_mock, ok_token())
    respx_mock.get(CARD_URL).respond(json=device_card())
    agent = respx_mock.post(RPC).respond(401, json={"error": "revoked"})
    assert login(cli).exit_code == 0
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--profile", "me")
    assert result.exit_code == 4 and agent.call_count == 1
