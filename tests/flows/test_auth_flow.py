"""flows.auth called directly with an Invocation, no CLI runner: a client-credentials login writes
its profile and caches its token, `status` reports it (exit 4 when no token can be had), `logout`
forgets it; --flow / --device are checked before any request."""

from __future__ import annotations

import base64
import json

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib
from urllib.parse import parse_qs

import httpx
import pytest

from a2acli.errors import AuthError, CredentialsMissingError, UsageError
from a2acli.flows import auth as flows_auth
from a2acli.flows.auth_plan import LoginAsked
from a2acli.flows.invocation import Invocation

TOKEN_URL = "https://idp.test/oauth/token"


@pytest.fixture
def cfg(tmp_path, monkeypatch):
    path = tmp_path / "cfg" / "config.toml"
    monkeypatch.setenv("A2ACLI_GLOBAL_CONFIG", str(path))
    monkeypatch.delenv("A2ACLI_PROFILE", raising=False)
    monkeypatch.chdir(tmp_path)
    return path


def asked(**changes) -> LoginAsked:
    plain = LoginAsked(None, TOKEN_URL, "cli", "s3cret", ("a2a.read",), None, None, None, None, None)
    return plain._replace(**changes)


@pytest.fixture
def token(respx_mock):
    answer = {"access_token": "tok-0123456789abcdef", "token_type": "bearer", "expires_in": 3600}
    return respx_mock.post(TOKEN_URL).mock(return_value=httpx.Response(200, json=answer))


def test_a_login_asks_once_saves_the_profile_and_reports_it(cfg, token, capsys):
    assert flows_auth.login(Invocation({"profile": "prod", "output": "json"}), asked()) == 0
    req = token.calls.last.request
    assert parse_qs(req.content.decode()) == {"grant_type": ["client_credentials"], "scope": ["a2a.read"]}
    assert req.headers["Authorization"] == "Basic " + base64.b64encode(b"cli:s3cret").decode()
    prof = tomllib.loads(cfg.read_text())["profiles"]["prod"]
    assert prof["auth"]["token-url"] == TOKEN_URL and prof["auth"]["client-secret"] == "s3cret"
    doc = json.loads(capsys.readouterr().out)
    assert (doc["profile"], doc["flow"], doc["clientId"]) == ("prod", "client-credentials", "cli")


def test_status_reports_the_cached_token_masked_and_logout_forgets_it(cfg, token, capsys):
    with pytest.raises(CredentialsMissingError, match="profile prod has no OAuth2 settings"):
        flows_auth.status(Invocation({"profile": "prod"}))
    flows_auth.login(Invocation({"profile": "prod"}), asked())
    capsys.readouterr()
    assert flows_auth.status(Invocation({"profile": "prod", "output": "json"})) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["valid"] is True and doc["token"] == "****cdef" and doc["clientSecretStored"] is True
    assert flows_auth.logout(Invocation({"profile": "prod"})) == 0
    assert "1 cached token(s) dropped, client secret removed" in capsys.readouterr().err
    assert "client-secret" not in cfg.read_text()
    with pytest.raises(CredentialsMissingError, match="no valid token for profile prod"):
        flows_auth.status(Invocation({"profile": "prod"}))


def test_a_login_the_token_endpoint_refuses_saves_nothing(cfg, respx_mock):
    respx_mock.post(TOKEN_URL).respond(400, json={"error": "invalid_client"})
    with pytest.raises(AuthError) as refused:
        flows_auth.login(Invocation({"profile": "prod"}), asked())
    assert refused.value.exit_code == 4
    assert not cfg.exists()


def test_the_flow_flag_is_checked_and_its_short_names_read():
    assert flows_auth.flow_flag("device", False) == "device-code"
    assert flows_auth.flow_flag("browser", False) == "authorization-code"
    assert flows_auth.flow_flag(None, True) == "device-code"
    assert flows_auth.flow_flag(None, False) is None
    with pytest.raises(UsageError, match="contradict"):
        flows_auth.flow_flag("client-credentials", True)
    with pytest.raises(UsageError, match="is not"):
        flows_auth.flow_flag("implicit", False)


def test_durations_and_subjects_in_words():
    assert [flows_auth.ago(s) for s in (5, 300, 7260)] == ["5 s", "5 min", "2 h 1 min"]
    who = flows_auth.who({"sub": "u1", "email": "a@example.com", "iss": "https://idp.example"})
    assert who == "u1 (a@example.com), issuer https://idp.example"
