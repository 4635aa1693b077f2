"""Issue 42, credentials: `auth status` and `auth login` read the files every command reads (a
profile in the file A2ACLI_CONFIG or --config names included); a profile's OAuth2 token goes only
to the agent it was obtained for, even to another agent whose card names the same token endpoint;
token requests go through the transport (its body cap, --debug with the secrets redacted)."""

from __future__ import annotations

import json

import httpx
import pytest
from a2a_testkit import rpc_result, v1_card

TOKEN_URL = "https://idp.test/oauth/token"
AGENT_A, AGENT_B = "http://agent-a.test", "http://agent-b.test"
OAUTH = {
    "oauth": {
        "oauth2SecurityScheme": {
            "flows": {"clientCredentials": {"tokenUrl": TOKEN_URL, "scopes": {"a2a.read": "read"}}}
        }
    }
}
TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}
PROFILE = f"""
[profiles.p]
url = "{AGENT_A}"
[profiles.p.auth]
token-url = "{TOKEN_URL}"
client-id = "cli"
client-secret = "s3cret-client"
"""


def token_answer(token: str) -> httpx.Response:
    return httpx.Response(200, json={"access_token": token, "token_type": "Bearer", "expires_in": 3600})


@pytest.fixture
def local_cfg(tmp_path, monkeypatch, cfg):
    """Profile p, only in the file A2ACLI_CONFIG names (the global file, `cfg`, has none)."""
    path = tmp_path / "project.toml"
    path.write_text(PROFILE)
    path.chmod(0o600)
    monkeypatch.setenv("A2ACLI_CONFIG", str(path))
    return path


def agent(respx_mock, base: str, **card):
    respx_mock.get(f"{base}/.well-known/agent-card.json").respond(
        json=v1_card(f"{base}/rpc", securitySchemes=OAUTH, **card)
    )
    return respx_mock.post(f"{base}/rpc").respond(json=rpc_result(TASK))


# -- auth status / auth login see the profile that send uses ---------------------------------------


def test_auth_status_sees_a_profile_of_the_a2acli_config_file(cli, local_cfg):
    result = cli("auth", "status", "--profile", "p")
    assert "no OAuth2 settings" not in result.stderr, result.stderr
    assert f"Token URL: {TOKEN_URL}" in result.stdout and "Client ID: cli" in result.stdout
    assert result.exit_code == 0  # client credentials with a secret: a token is requested on the next call


def test_auth_status_sees_a_profile_of_the_config_flag(cli, cfg, tmp_path):
    path = tmp_path / "other.toml"
    path.write_text(PROFILE)
    path.chmod(0o600)
    result = cli("--config", str(path), "auth", "status", "--profile", "p", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["tokenUrl"] == TOKEN_URL


def test_auth_login_uses_the_profile_of_the_a2acli_config_file_and_send_uses_its_token(cli, local_cfg, cfg, respx_mock):
    token = respx_mock.post(TOKEN_URL).mock(return_value=token_answer("tok-a"))
    route = agent(respx_mock, AGENT_A)
    login = cli("auth", "login", "--profile", "p")
    assert login.exit_code == 0, login.stderr
    assert token.call_count == 1
    assert local_cfg.read_text() == PROFILE  # the settings it used are where they were: nothing copied
    assert not cfg.exists()  # the client secret is not copied into the global file
    sent = cli("tasks", "get", "t-1", "--profile", "p")
    assert sent.exit_code == 0, sent.stderr
    assert route.calls.last.request.headers["Authorization"] == "Bearer tok-a"
    assert token.call_count == 1  # the cached one
    status = cli("auth", "status", "--profile", "p", "-o", "json")
    assert status.exit_code == 0 and json.loads(status.stdout)["valid"] is True


# -- a token belongs to the agent it was obtained for ----------------------------------------------


def test_two_agents_sharing_a_token_endpoint_each_get_their_own_token(cli, local_cfg, respx_mock):
    token = respx_mock.post(TOKEN_URL).mock(side_effect=[token_answer("tok-a"), token_answer("tok-b")])
    route_a, route_b = agent(respx_mock, AGENT_A), agent(respx_mock, AGENT_B)
    assert cli("tasks", "get", "t-1", "--profile", "p").exit_code == 0  # the profile's agent, A
    other = cli("tasks", "get", "t-1", "--profile", "p", "-u", AGENT_B, "--debug")
    assert other.exit_code == 0, other.stderr
    assert route_b.calls.last.request.headers["Authorization"] == "Bearer tok-b"  # never A's
    assert "tok-a" not in str(route_b.calls.last.request.headers)
    assert f"an OAuth2 token for {AGENT_B} (tokens are kept per agent)" in other.stderr
    assert cli("tasks", "get", "t-1", "--profile", "p").exit_code == 0
    assert route_a.calls.last.request.headers["Authorization"] == "Bearer tok-a"
    assert cli("tasks", "get", "t-1", "--profile", "p", "-u", AGENT_B).exit_code == 0
    assert route_b.calls.last.request.headers["Authorization"] == "Bearer tok-b"
    assert token.call_count == 2  # one per agent, each cached for its own


def test_a_sign_in_for_one_agent_is_not_sent_to_another_sharing_its_token_endpoint(cli, cfg, respx_mock):
    """A device-code token obtained for A: B (whose card names the same token endpoint) needs a
    login of its own; nothing is sent to B."""
    cfg.parent.mkdir(parents=True)
    cfg.write_text(
        PROFILE.replace(
            'client-secret = "s3cret-client"',
            'flow = "device-code"\ndevice-authorization-url = "https://idp.test/device"',
        )
    )
    key = f"p {AGENT_A} {TOKEN_URL} cli -"
    entry = {
        "access_token": "tok-a-signed-in",
        "token_url": TOKEN_URL,
        "client_id": "cli",
        "expires_at": 4e9,
        "audience": AGENT_A,
    }
    cfg.with_name("tokens.json").write_text(json.dumps({key: entry}))
    route_a, route_b = agent(respx_mock, AGENT_A), agent(respx_mock, AGENT_B)
    assert cli("tasks", "get", "t-1", "--profile", "p").exit_code == 0
    assert route_a.calls.last.request.headers["Authorization"] == "Bearer tok-a-signed-in"
    other = cli("tasks", "get", "t-1", "--profile", "p", "-u", AGENT_B)
    assert other.exit_code == 4, other.stderr
    assert not route_b.called
    assert f"has no OAuth2 token for {AGENT_B}" in other.stderr
    assert f"a2a auth login --profile p --device -u {AGENT_B}" in other.stderr


def test_a_token_cached_before_tokens_were_kept_per_agent_still_serves_its_agent(cli, local_cfg, cfg, respx_mock):
    cfg.parent.mkdir(parents=True)
    old = {
        "access_token": "tok-old",
        "token_url": TOKEN_URL,
        "client_id": "cli",
        "expires_at": 4e9,
        "audience": AGENT_A,
    }
    cfg.with_name("tokens.json").write_text(json.dumps({f"p {TOKEN_URL}": old}))
    token = respx_mock.post(TOKEN_URL).mock(return_value=token_answer("tok-b"))
    route_a, route_b = agent(respx_mock, AGENT_A), agent(respx_mock, AGENT_B)
    assert cli("tasks", "get", "t-1", "--profile", "p", "-u", AGENT_B).exit_code == 0
    assert route_b.calls.last.request.headers["Authorization"] == "Bearer tok-b"  # not the old one: it is A's
    assert cli("tasks", "get", "t-1", "--profile", "p").exit_code == 0
    assert route_a.calls.last.request.headers["Authorization"] == "Bearer tok-old"
    assert token.call_count == 1


# -- token requests go through the transport ---------------------------------------------------------


def test_a_token_request_shows_in_debug_with_its_secrets_redacted(cli, local_cfg, respx_mock):
    respx_mock.post(TOKEN_URL).mock(
        return_value=httpx.Response(
            200,
            json={
                "access_token": "tok-secret-a",
                "refresh_token": "refresh-secret",
                "token_type": "Bearer",
                "expires_in": 60,
            },
        )
    )
    route = agent(respx_mock, AGENT_A)
    result = cli("tasks", "get", "t-1", "--profile", "p", "--debug")
    assert result.exit_code == 0, result.stderr
    assert route.calls.last.request.headers["Authorization"] == "Bearer tok-secret-a"
    assert f"> POST {TOKEN_URL}" in result.stderr and "< HTTP 200" in result.stderr  # the exchange, in --debug
    assert "* oauth-token: 200" in result.stderr
    for secret in ("tok-secret-a", "refresh-secret", "s3cret-client"):
        assert secret not in result.stderr + result.stdout
    assert '"access_token":"<redacted>"' in result.stderr.replace(" ", "")


def test_a_token_request_is_in_the_dump_with_its_secrets_redacted(cli, local_cfg, respx_mock, tmp_path):
    respx_mock.post(TOKEN_URL).mock(return_value=token_answer("tok-dumped-a"))
    agent(respx_mock, AGENT_A)
    result = cli("tasks", "get", "t-1", "--profile", "p", "--dump", str(tmp_path / "d"))
    assert result.exit_code == 0, result.stderr
    files = {p.name: p.read_bytes() for p in (tmp_path / "d").iterdir()}
    assert any("oauth-token" in name for name in files)
    for body in files.values():
        assert b"tok-dumped-a" not in body and b"s3cret-client" not in body


def test_an_oversized_token_answer_hits_the_cap(cli, local_cfg, cfg, respx_mock):
    big = {"access_token": "tok", "token_type": "Bearer", "padding": "x" * (2 * 1024 * 1024)}
    respx_mock.post(TOKEN_URL).mock(return_value=httpx.Response(200, json=big))
    route = agent(respx_mock, AGENT_A)
    result = cli("tasks", "get", "t-1", "--profile", "p")
    assert result.exit_code == 1, result.stderr
    assert "X_A2A_BODY_TOO_LARGE" in result.stderr and TOKEN_URL in result.stderr
    assert not route.called and not cfg.with_name("tokens.json").exists()
    lower = cli("tasks", "get", "t-1", "--profile", "p", "--max-body", "1K")  # --max-body, when lower, too
    assert lower.exit_code == 1 and "X_A2A_BODY_TOO_LARGE" in lower.stderr


def test_a_login_s_token_request_shows_in_debug_and_keeps_the_cap(cli, local_cfg, respx_mock):
    respx_mock.post(TOKEN_URL).mock(return_value=token_answer("tok-login-a"))
    result = cli("auth", "login", "--profile", "p", "--debug")
    assert result.exit_code == 0, result.stderr
    assert f"> POST {TOKEN_URL}" in result.stderr and "tok-login-a" not in result.stderr
    assert "s3cret-client" not in result.stderr
    respx_mock.post(TOKEN_URL).mock(return_value=httpx.Response(200, content=b"{" + b" " * (2 * 1024 * 1024) + b"}"))
    big = cli("auth", "login", "--profile", "p")
    assert big.exit_code == 1 and "X_A2A_BODY_TOO_LARGE" in big.stderr


def test_auth_logout_forgets_the_secret_where_the_profile_is_kept(cli, local_cfg, cfg, respx_mock):
    respx_mock.post(TOKEN_URL).mock(return_value=token_answer("tok-a"))
    assert cli("auth", "login", "--profile", "p").exit_code == 0
    out = cli("auth", "logout", "--profile", "p")
    assert out.exit_code == 0, out.stderr
    assert "client secret removed" in out.stderr and "1 cached token(s) dropped" in out.stderr
    assert "s3cret-client" not in local_cfg.read_text() and not cfg.exists()
