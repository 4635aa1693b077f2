"""Issue 14, section 3: credentials stay with the origin the user gave them for."""

from __future__ import annotations

import httpx
import pytest
from a2a_testkit import AGENT, ANY_CREDENTIAL, rpc_result, v1_card
from hostile_server import hostile, rpc_answer

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
    elsewhere = respx_mock.post(OTHER).respond(json=rpc_result(TASK))
    without = cli("tasks", "get", "t-1", "-u", AGENT)
    assert without.exit_code == 0 and elsewhere.called, without.stderr
    assert "credentials go" not in without.stderr
    # the same origin, with credentials: they go where the user sent them, nothing to say
    respx_mock.get(CARD_URL).respond(json=v1_card(url=f"{AGENT}/rpc", securitySchemes=ANY_CREDENTIAL))
    here = respx_mock.post(f"{AGENT}/rpc").respond(json=rpc_result(TASK))
    same = cli("tasks", "get", "t-1", "-u", AGENT, "--bearer", "tok123")
    assert same.exit_code == 0, same.stderr
    assert here.calls[0].request.headers["authorization"] == "Bearer tok123"
    assert "credentials go" not in same.stderr


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


# -- issue 27: `-H` credentials follow the same rule, against two origins on 127.0.0.1 --------------



def _two_origins(card_extra=None, binding="JSONRPC"):
    """The card on one origin (A) naming an interface on another (B: another port)."""
    import contextlib

    stack = contextlib.ExitStack()
    a, b = stack.enter_context(hostile()), stack.enter_context(hostile())
    card = v1_card(url=f"{b.url}/rpc", **(card_extra or {}))
    card["supportedInterfaces"] = [{"url": f"{b.url}/rpc", "protocolBinding": binding, "protocolVersion": "1.0"}]
    a.card(card)
    b.rpc(rpc_answer(TASK))
    b.route("GET", "/rpc/tasks/t-1", TASK)
    return stack, a, b


@pytest.mark.parametrize("header", ["Authorization: Bearer s3cret-tok", "X-API-Key: s3cret-key", "Cookie: sid=s3cret", "X-Access-Key: s3cret", "X-Auth-Token: s3cret"])
@pytest.mark.parametrize("binding", ["JSONRPC", "HTTP+JSON"])
def test_h_credentials_stay_home_under_strict_origin(cli, header, binding):
    stack, a, b = _two_origins(binding=binding)
    with stack:
        result = cli("tasks", "get", "t-1", "-u", a.url, "-H", header, "--strict-origin")
        assert result.exit_code == 4, result.stderr
        assert "--strict-origin keeps the credentials at 127.0.0.1" in result.stderr
        assert b.seen == []  # nothing reached the other origin
        assert a.seen and a.seen[0].method == "GET"  # the card's own origin got the card GET


def test_h_credentials_to_another_origin_are_warned_about(cli):
    stack, a, b = _two_origins()
    with stack:
        result = cli("tasks", "get", "t-1", "-u", a.url, "-H", "X-API-Key: s3cret-key", "-o", "json")
        assert result.exit_code == 0, result.stderr
        port = b.url.rsplit(":", 1)[1]
        assert result.stderr.count(f"credentials go to 127.0.0.1:{port}, named by the Agent Card at {a.url}") == 1
        assert b.seen[0].headers["x-api-key"] == "s3cret-key"


def test_a_harmless_h_header_is_no_credential(cli):
    stack, a, b = _two_origins()
    with stack:
        result = cli("tasks", "get", "t-1", "-u", a.url, "-H", "X-Team: qa", "-H", "Idempotency-Key: k1", "--strict-origin", "-o", "json")
        assert result.exit_code == 0, result.stderr
        assert "credentials go" not in result.stderr and b.seen[0].headers["x-team"] == "qa"


def test_a_header_the_card_scheme_names_is_a_credential(cli):
    scheme = {"k": {"apiKeySecurityScheme": {"location": "header", "name": "X-Tenant-Pass"}}}
    stack, a, b = _two_origins({"securitySchemes": scheme})
    with stack:
        result = cli("tasks", "get", "t-1", "-u", a.url, "-H", "X-Tenant-Pass: s3cret", "--strict-origin")
        assert result.exit_code == 4 and b.seen == []


def test_the_withheld_api_key_hint_is_no_way_around_origin_scoping(cli):
    stack, a, b = _two_origins()  # the card declares no scheme: --api-key is withheld, with a hint
    with stack:
        result = cli("tasks", "get", "t-1", "-u", a.url, "--api-key", "s3cret-key", "--strict-origin")
        assert "-H 'X-API-Key: KEY' sends it anyway" in result.stderr
        followed = cli("tasks", "get", "t-1", "-u", a.url, "-H", "X-API-Key: s3cret-key", "--strict-origin")
        assert followed.exit_code == 4, followed.stderr
        assert all("x-api-key" not in s.headers for s in b.seen)
