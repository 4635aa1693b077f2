"""Issue 14, section 3: credentials stay with the origin the user gave them for."""

from __future__ import annotations

import httpx
from a2a_testkit import AGENT, ANY_CREDENTIAL, rpc_result, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}
OTHER = "http://elsewhere.test/rpc"


def test_a_card_naming_another_host_is_said_once(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card(url=OTHER, securitySchemes=ANY_CREDENTIAL))
    route = respx_mock.post(OTHER).respond(json=rpc_result(TASK))
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--bearer", "tok123")
    assert result.exit_code == 0, result.stderr
    assert route.calls[0].request.headers["authorization"] == "Bearer tok123"
    assert result.stderr.count("credentials go to elsewhere.test:80, named by the Agent Card at http://agent.test") == 1


def test_no_note_without_credentials_or_on_the_same_origin(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card(url=OTHER, securitySchemes=ANY_CREDENTIAL))
    respx_mock.post(OTHER).respond(json=rpc_result(TASK))
    assert "credentials go" not in cli("tasks", "get", "t-1", "-u", AGENT).stderr


def test_strict_origin_refuses_another_host(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card(url=OTHER, securitySchemes=ANY_CREDENTIAL))
    route = respx_mock.post(OTHER).respond(json=rpc_result(TASK))
    for how in (["--strict-origin"], []):
        env = {} if how else {"A2ACLI_STRICT_ORIGIN": "true"}
        result = cli("tasks", "get", "t-1", "-u", AGENT, "--api-key", "k3y", *how, env=env)
        assert result.exit_code == 4, result.stderr
        assert "--strict-origin keeps the credentials at agent.test" in result.stderr
    assert not route.called


def test_an_https_card_cannot_send_credentials_over_http(cli, respx_mock):
    respx_mock.get("https://agent.test/.well-known/agent-card.json").respond(json=v1_card(url=OTHER, securitySchemes=ANY_CREDENTIAL))
    route = respx_mock.post(OTHER).respond(json=rpc_result(TASK))
    result = cli("tasks", "get", "t-1", "-u", "https://agent.test", "--bearer", "tok123")
    assert result.exit_code == 4 and "over plain http" in result.stderr
    assert not route.called
    result = cli("tasks", "get", "t-1", "-u", "https://agent.test", "--bearer", "tok123", "--insecure")
    assert result.exit_code == 0 and route.called


def test_the_card_get_drops_h_values_on_a_redirect_to_another_host(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(302, headers={"location": "http://cdn.test/card.json"})
    cdn = respx_mock.get("http://cdn.test/card.json").respond(json=v1_card())
    result = cli("card", "fetch", "-u", AGENT, "-H", "X-Access-Key: s3cret", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert "x-access-key" not in cdn.calls[0].request.headers


def test_url_userinfo_is_not_sent_on_the_public_card_get(cli, respx_mock):
    route = respx_mock.get(CARD_URL).respond(json=v1_card())
    result = cli("card", "fetch", "-u", "http://bob:pw@agent.test", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert "authorization" not in route.calls[0].request.headers


def test_the_client_secret_goes_over_https_only(cli, tmp_path, respx_mock):
    env = {"A2ACLI_GLOBAL_CONFIG": str(tmp_path / "c.toml"), "A2ACLI_CLIENT_SECRET": "s3cret"}
    idp = respx_mock.post("http://idp.test/token").mock(return_value=httpx.Response(200, json={"access_token": "x", "token_type": "Bearer"}))
    result = cli("auth", "login", "--profile", "p", "--token-url", "http://idp.test/token", "--client-id", "cli", env=env)
    assert result.exit_code == 4 and "is not https" in result.stderr
    assert not idp.called
    local = respx_mock.post("http://127.0.0.1:9/token").mock(return_value=httpx.Response(200, json={"access_token": "x", "token_type": "Bearer"}))
    result = cli("auth", "login", "--profile", "p", "--token-url", "http://127.0.0.1:9/token", "--client-id", "cli", env=env)
    assert result.exit_code == 0, result.stderr
    assert local.called
