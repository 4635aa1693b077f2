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
def global_cfg(tmp_path, monkeypatch):
    path = tmp_path / "global" / "config.toml"
    monkeypatch.setenv("A2ACLI_GLOBAL_CONFIG", str(path))
    return path


@pytest.fixture
def local_cfg(tmp_path, monkeypatch, global_cfg):
    """Profile p, only in the file A2ACLI_CONFIG names (the global file has none)."""
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


def test_auth_status_sees_a_profile_of_the_config_flag(cli, global_cfg, tmp_path):
    path = tmp_path / "other.toml"
    path.write_text(PROFILE)
    path.chmod(0o600)
    result = cli("--config", str(path), "auth", "status", "--profile", "p", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["tokenUrl"] == TOKEN_URL


def test_auth_login_uses_the_profile_of_the_a2acli_config_file_and_send_uses_its_token(
    cli, local_cfg, global_cfg, respx_mock
):
    token = respx_mock.post(TOKEN_URL).mock(return_value=token_answer("tok-a"))
    route = agent(respx_mock, AGENT_A)
    login = cli("auth", "login", "--profile", "p")
    assert login.exit_code == 0, login.stderr
    assert token.call_count == 1
    assert local_cfg.read_text() == PROFILE  # the settings it used are where they were: nothing copied
    assert not global_cfg.exists()  # the client secret is not copied into the global file
    sent = cli("tasks", "get", "t-1", "--profile", "p")
    assert sent.exit_code == 0, sent.stderr
    assert route.calls.last.request.headers["Authorization"] == "Bearer tok-a"
    assert token.call_count == 1  # the cached one
    status = cli("auth", "status", "--profile", "p", "-o", "json")
    assert status.exit_code == 0 and json.loads(status.stdout)["valid"] is True
