"""Credentials on the wire: the API key where the card says, bearer, basic, OAuth2 client
credentials (token endpoint mocked with respx), and never any of them on the public card fetch."""

from __future__ import annotations

import base64
import json
import os
import stat
import sys
import tempfile
import time

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: the backport the package depends on there
    import tomli as tomllib
from pathlib import Path
from urllib.parse import parse_qs

import httpx
import pytest
from a2a_testkit import AGENT, ANY_CREDENTIAL, RPC, rpc_result, sse, token_entry, token_key, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
TOKEN_URL = "https://idp.test/oauth/token"
V1_TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}
V0_TASK = {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "completed"}}
SECRETS = ("key-0123456789", "bearer-abcdef", "alice:pw-secret", "tok-1")


@pytest.fixture
def cfg(tmp_path, monkeypatch):
    path = tmp_path / "cfg" / "config.toml"
    monkeypatch.setenv("A2ACLI_GLOBAL_CONFIG", str(path))
    return path


def task_route(respx_mock, version="1.0"):
    return respx_mock.post(RPC).respond(json=rpc_result(V1_TASK if version == "1.0" else V0_TASK))


def assert_no_credentials(request):
    """The card GET carries nothing that identifies the caller."""
    for name in ("Authorization", "X-API-Key", "Cookie", "X-Key", "api_key"):
        assert name not in request.headers
    assert request.url.query in (b"", "")
    text = str(request.headers) + str(request.url)
    for secret in SECRETS + (base64.b64encode(b"alice:pw-secret").decode(),):
        assert secret not in text


# -- API key: placed where the card's apiKey scheme says ---------------------------------------------


V1_SCHEMES = {
    "header": {"k": {"apiKeySecurityScheme": {"location": "header", "name": "X-Key"}}},
    "query": {"k": {"apiKeySecurityScheme": {"location": "query", "name": "api_key"}}},
    "cookie": {"k": {"apiKeySecurityScheme": {"location": "cookie", "name": "session"}}},
}


@pytest.mark.spec("A2ACLI_AUTH_001")
@pytest.mark.parametrize("version", ["1.0", "0.3"])
@pytest.mark.parametrize("where", ["header", "query", "cookie", "none"])
def test_api_key_goes_where_the_card_says(cli, respx_mock, where, version):
    card = v1_card(securitySchemes=V1_SCHEMES[where]) if where != "none" else v1_card()
    card_route = respx_mock.get(CARD_URL).respond(json=card)
    route = task_route(respx_mock, version)
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--a2a-version", version, env={"A2ACLI_API_KEY": "key-0123456789"})
    assert result.exit_code == 0, result.stderr
    assert_no_credentials(card_route.calls.last.request)
    req = route.calls.last.request
    if where == "header":
        assert req.headers["X-Key"] == "key-0123456789" and "X-API-Key" not in req.headers
    elif where == "query":
        assert parse_qs(req.url.query.decode())["api_key"] == ["key-0123456789"]
        assert "X-API-Key" not in req.headers
    elif where == "cookie":
        assert req.headers["Cookie"] == "session=key-0123456789"
    else:  # a card with no apiKey scheme gets no API key (A2ACLI_AUTH_008), and says so
        assert "X-API-Key" not in req.headers and "key-0123456789" not in str(req.url)
        assert "--api-key not sent: the Agent Card takes no api key (an apiKey scheme); it declares no security scheme" in result.stderr


@pytest.mark.spec("A2ACLI_AUTH_001")
def test_api_key_from_a_v0_card_scheme(cli, respx_mock):
    card = {"name": "Old", "description": "d", "version": "1", "url": RPC, "protocolVersion": "0.3.0", "preferredTransport": "JSONRPC",
            "securitySchemes": {"k": {"type": "apiKey", "in": "query", "name": "token"}}, "security": [{"k": []}]}
    card_route = respx_mock.get(CARD_URL).respond(json=card)
    route = task_route(respx_mock, "0.3")
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--a2a-version", "0.3", "--api-key", "key-0123456789")
    assert result.exit_code == 0, result.stderr
    assert_no_credentials(card_route.calls.last.request)
    assert parse_qs(route.calls.last.request.url.query.decode())["token"] == ["key-0123456789"]


@pytest.mark.spec("A2ACLI_AUTH_004")
@pytest.mark.parametrize("key", ["K1", "key with space&more"])
def test_an_api_key_in_the_query_is_redacted_however_short_or_encoded(cli, respx_mock, tmp_path, key):
    respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes=V1_SCHEMES["query"]))
    respx_mock.post(url__startswith=RPC).mock(side_effect=httpx.ReadTimeout("slow"))
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--api-key", key, "--debug", "--dump", str(tmp_path), "--timeout", "5")
    assert result.exit_code == 5
    assert "api_key=<redacted>" in result.stderr
    written = "".join(p.read_text() for p in tmp_path.iterdir())
    assert "api_key=<redacted>" in written
    on_the_wire = str(httpx.QueryParams({"api_key": key}))  # api_key=K1, api_key=key+with+space%26more
    for shown in (result.stdout + result.stderr, written):
        shown = _without_local_paths(shown, tmp_path)
        assert on_the_wire not in shown and key not in shown


def _without_local_paths(text: str, *more: Path) -> str:
    """`text` with this machine's directories (temporary, the checkout, the interpreter's) taken out:
    a `--debug` traceback names them, and a random one (`mktemp -d` gives `/tmp/tmp.xK1bQ…`) may
    hold a short key such as K1 by chance, which is no leak."""
    places = {tempfile.gettempdir(), str(Path(__file__).resolve().parents[2]), sys.prefix, sys.base_prefix, sys.exec_prefix}
    places |= {str(p) for p in more} | {os.path.realpath(p) for p in places | {str(p) for p in more}}
    for place in sorted(places, key=len, reverse=True):
        text = text.replace(place, "<dir>")
    return text


# -- bearer and basic --------------------------------------------------------------------------------


@pytest.mark.spec("A2ACLI_AUTH_001")
def test_bearer(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes=ANY_CREDENTIAL))
    route = task_route(respx_mock)
    assert cli("tasks", "get", "t-1", "-u", AGENT, "--bearer", "bearer-abcdef").exit_code == 0
    assert route.calls.last.request.headers["Authorization"] == "Bearer bearer-abcdef"


@pytest.mark.spec("A2ACLI_AUTH_001")
@pytest.mark.parametrize("how", ["flag", "env", "profile"])
def test_basic(cli, cfg, respx_mock, how):
    respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes=ANY_CREDENTIAL))
    route = task_route(respx_mock)
    args, env = ["tasks", "get", "t-1", "-u", AGENT], {}
    if how == "flag":
        args += ["--basic", "alice:pw-secret"]
    elif how == "env":
        env["A2ACLI_BASIC"] = "alice:pw-secret"
    else:
        assert cli("config", "set", "--profile", "p", "basic", "alice:pw-secret").exit_code == 0
        assert cli("config", "set", "--profile", "p", "url", AGENT).exit_code == 0  # the agent it is kept for
        args += ["--profile", "p"]
    result = cli(*args, "--debug", env=env)
    assert result.exit_code == 0, result.stderr
    assert route.calls.last.request.headers["Authorization"] == "Basic " + base64.b64encode(b"alice:pw-secret").decode()
    assert "pw-secret" not in result.stderr and base64.b64encode(b"alice:pw-secret").decode() not in result.stderr


def test_basic_needs_a_colon(cli):
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--basic", "alice", "--offline")
    assert result.exit_code == 2 and "USER:PASSWORD" in result.stderr


def test_bearer_and_basic_from_the_same_source_clash(cli):
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--basic", "a:b", "--bearer", "t", "--offline")
    assert result.exit_code == 2 and "both set Authorization" in result.stderr


@pytest.mark.spec("A2ACLI_AUTH_002")
def test_flag_bearer_beats_env_basic(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes=ANY_CREDENTIAL))
    route = task_route(respx_mock)
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--bearer", "bearer-abcdef", env={"A2ACLI_BASIC": "alice:pw-secret"})
    assert result.exit_code == 0, result.stderr
    assert route.calls.last.request.headers["Authorization"] == "Bearer bearer-abcdef"


# -- never on the public card --------------------------------------------------------------------------


@pytest.mark.spec("A2ACLI_AUTH_008")
def test_no_credential_ever_reaches_the_public_card(cli, cfg, respx_mock):
    """Whatever is configured (API key, bearer, basic, an OAuth2 profile), the card GET carries none
    of it and fetching the card asks no token endpoint for a token: the public card is public, and
    its schemes are only known once it has been read. Credentials go to the JSON-RPC calls."""
    token = respx_mock.post(TOKEN_URL).respond(json={"access_token": "tok-1", "token_type": "Bearer", "expires_in": 3600})
    card = v1_card(securitySchemes={**V1_SCHEMES["query"], "o": {"oauth2SecurityScheme": {"flows": {"clientCredentials": {"tokenUrl": TOKEN_URL, "scopes": {}}}}}})
    card_route = respx_mock.get(CARD_URL).respond(json=card)
    for key, value in (("url", AGENT), ("auth.token-url", TOKEN_URL), ("auth.client-id", "cli"), ("auth.client-secret", "s3cret")):
        cli("config", "set", "--profile", "p", key, value)
    env = {"A2ACLI_API_KEY": "key-0123456789"}
    for extra in ([], ["--bearer", "bearer-abcdef"], ["--basic", "alice:pw-secret"]):
        result = cli("card", "fetch", "--profile", "p", *extra, env=env)
        assert result.exit_code == 0, result.stderr
        assert_no_credentials(card_route.calls.last.request)
    assert not token.called
    # the same configuration on a method call: the card GET stays bare, the POST carries it all
    route = task_route(respx_mock)
    result = cli("tasks", "get", "t-1", "--profile", "p", env=env)
    assert result.exit_code == 0, result.stderr
    assert_no_credentials(card_route.calls.last.request)
    req = route.calls.last.request
    assert req.headers["Authorization"] == "Bearer tok-1"
    assert parse_qs(req.url.query.decode())["api_key"] == ["key-0123456789"]
    assert token.call_count == 1


# -- OAuth2 client credentials --------------------------------------------------------------------------


def token_answer(token="tok-1", expires_in=3600):
    return httpx.Response(200, json={"access_token": token, "token_type": "bearer", "expires_in": expires_in, "scope": "a2a.read"})


def login(cli, *extra, env=None):
    return cli("auth", "login", "--profile", "prod", "--token-url", TOKEN_URL, "--client-id", "cli", *extra, env=env or {"A2ACLI_CLIENT_SECRET": "s3cret"})


@pytest.mark.spec("A2ACLI_AUTH_006", "A2ACLI_AUTH_007")
def test_login_requests_a_token_and_caches_it(cli, cfg, respx_mock):
    token = respx_mock.post(TOKEN_URL).mock(return_value=token_answer())
    result = login(cli, "--scope", "a2a.read", "--scope", "a2a.write")
    assert result.exit_code == 0, result.stderr
    assert "Logged in: profile prod" in result.stdout
    req = token.calls.last.request
    assert parse_qs(req.content.decode()) == {"grant_type": ["client_credentials"], "scope": ["a2a.read a2a.write"]}
    assert req.headers["Authorization"] == "Basic " + base64.b64encode(b"cli:s3cret").decode()
    # the settings in the profile, the token in the cache, both 0600
    prof = tomllib.loads(cfg.read_text())["profiles"]["prod"]
    assert prof["auth"] == {"token-url": TOKEN_URL, "client-id": "cli", "client-secret": "s3cret", "scope": "a2a.read a2a.write"}
    cache = cfg.with_name("tokens.json")
    assert stat.S_IMODE(cache.stat().st_mode) == 0o600 and stat.S_IMODE(cfg.stat().st_mode) == 0o600
    entry = token_entry(cache, "prod", "-")  # the login named no agent: the first agent called gets it
    assert entry["access_token"] == "tok-1" and entry["expires_at"] > time.time() + 3000


@pytest.mark.spec("A2ACLI_AUTH_006")
def test_client_secret_post(cli, cfg, respx_mock):
    token = respx_mock.post(TOKEN_URL).mock(return_value=token_answer())
    assert login(cli, "--client-auth", "post").exit_code == 0
    req = token.calls.last.request
    assert "Authorization" not in req.headers
    assert parse_qs(req.content.decode()) == {"grant_type": ["client_credentials"], "client_id": ["cli"], "client_secret": ["s3cret"]}
    assert tomllib.loads(cfg.read_text())["profiles"]["prod"]["auth"]["client-auth"] == "post"


@pytest.mark.spec("A2ACLI_AUTH_006", "A2ACLI_AUTH_007")
def test_method_calls_send_the_cached_token_and_refresh_it_when_expired(cli, cfg, respx_mock):
    token = respx_mock.post(TOKEN_URL).mock(side_effect=[token_answer("tok-1"), token_answer("tok-2")])
    respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes=ANY_CREDENTIAL))
    route = task_route(respx_mock)
    assert login(cli).exit_code == 0
    for _ in range(2):
        result = cli("tasks", "get", "t-1", "-u", AGENT, "--profile", "prod")
        assert result.exit_code == 0, result.stderr
        assert route.calls.last.request.headers["Authorization"] == "Bearer tok-1"
    assert token.call_count == 1  # from the cache
    cache = cfg.with_name("tokens.json")
    data = json.loads(cache.read_text())
    data[token_key(cache, "prod", AGENT)]["expires_at"] = time.time() - 5
    cache.write_text(json.dumps(data))
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--profile", "prod", "--debug")
    assert result.exit_code == 0, result.stderr
    assert route.calls.last.request.headers["Authorization"] == "Bearer tok-2"
    assert token.call_count == 2
    assert "tok-2" not in result.stderr and "requesting an OAuth2 token" in result.stderr
    assert token_entry(cache, "prod", AGENT)["access_token"] == "tok-2"


@pytest.mark.spec("A2ACLI_AUTH_007")
@pytest.mark.parametrize("command", [["tasks", "get", "t-1"], ["stream", "hi"]])
def test_a_401_with_the_cached_token_gets_a_new_token_and_one_more_try(cli, cfg, respx_mock, command):
    token = respx_mock.post(TOKEN_URL).mock(side_effect=[token_answer("tok-1"), token_answer("tok-2")])
    respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes=ANY_CREDENTIAL))
    done = {"task": {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}}

    def agent(request):
        if request.headers.get("Authorization") != "Bearer tok-2":
            return httpx.Response(401, json={"error": "token revoked"})
        if command[0] == "stream":
            return httpx.Response(200, headers={"Content-Type": "text/event-stream"}, content=sse(done))
        return httpx.Response(200, json=rpc_result(done["task"]))

    route = respx_mock.post(RPC).mock(side_effect=agent)
    assert login(cli).exit_code == 0  # caches tok-1, which the agent has since revoked
    result = cli(*command, "-u", AGENT, "--profile", "prod", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert [c.request.headers["Authorization"] for c in route.calls] == ["Bearer tok-1", "Bearer tok-2"]
    assert token.call_count == 2 and "requesting a new one" in result.stderr
    assert token_entry(cfg.with_name("tokens.json"), "prod", AGENT)["access_token"] == "tok-2"


def test_a_401_with_a_fresh_token_is_not_retried(cli, cfg, respx_mock):
    for key, value in (("auth.token-url", TOKEN_URL), ("auth.client-id", "cli"), ("auth.client-secret", "s3cret")):
        cli("config", "set", "--profile", "prod", key, value)
    token = respx_mock.post(TOKEN_URL).mock(return_value=token_answer("tok-1"))
    respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes=ANY_CREDENTIAL))
    route = respx_mock.post(RPC).respond(401, json={"error": "nope"})
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--profile", "prod")
    assert result.exit_code == 4
    assert route.call_count == 1 and token.call_count == 1


def test_explicit_bearer_wins_over_the_profile_token(cli, cfg, respx_mock):
    token = respx_mock.post(TOKEN_URL).mock(return_value=token_answer())
    respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes=ANY_CREDENTIAL))
    route = task_route(respx_mock)
    assert login(cli).exit_code == 0
    assert cli("tasks", "get", "t-1", "-u", AGENT, "--profile", "prod", "--bearer", "bearer-abcdef").exit_code == 0
    assert route.calls.last.request.headers["Authorization"] == "Bearer bearer-abcdef"
    assert token.call_count == 1


def test_offline_never_asks_for_a_token(cli, cfg, respx_mock):
    for key, value in (("url", AGENT), ("auth.token-url", TOKEN_URL), ("auth.client-id", "cli"), ("auth.client-secret", "s3cret")):
        cli("config", "set", "--profile", "prod", key, value)
    result = cli("tasks", "get", "t-1", "--rpc-url", RPC, "--profile", "prod", "--offline")
    assert result.exit_code == 0, result.stderr
    assert "Authorization: <redacted>" in result.stdout
    assert not respx_mock.calls
    # issue 35: an endpoint on another origin is not the profile's agent: no token, and said so
    other = cli("tasks", "get", "t-1", "--rpc-url", "http://other.test/rpc", "--profile", "prod", "--offline")
    assert other.exit_code == 0, other.stderr
    assert "Authorization" not in other.stdout
    assert "the OAuth2 token of profile prod is not sent to http://other.test: it is for http://agent.test" in other.stderr
    assert not respx_mock.calls


def test_strict_origin_keeps_the_client_secret_from_a_token_endpoint_on_another_host(cli, cfg, respx_mock):
    scheme = {"o": {"oauth2SecurityScheme": {"flows": {"clientCredentials": {"tokenUrl": TOKEN_URL, "scopes": {}}}}}}
    respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes=scheme))
    token = respx_mock.post(TOKEN_URL).mock(return_value=token_answer())
    result = cli("auth", "login", "--profile", "prod", "-u", AGENT, "--client-id", "cli", "--strict-origin", env={"A2ACLI_CLIENT_SECRET": "s3cret"})
    assert result.exit_code == 4, result.stderr
    assert "--strict-origin keeps the client secret" in result.stderr and not token.called


@pytest.mark.spec("A2ACLI_AUTH_006")
def test_token_url_from_the_card(cli, cfg, respx_mock):
    scheme = {"o": {"oauth2SecurityScheme": {"flows": {"clientCredentials": {"tokenUrl": TOKEN_URL, "scopes": {"a2a.read": "read"}}}}}}
    card_route = respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes=scheme))
    token = respx_mock.post(TOKEN_URL).mock(return_value=token_answer())
    result = cli("auth", "login", "--profile", "prod", "-u", AGENT, "--client-id", "cli", env={"A2ACLI_CLIENT_SECRET": "s3cret"})
    assert result.exit_code == 0, result.stderr
    assert f"client-credentials endpoints from the Agent Card's oauth2 scheme 'o': token {TOKEN_URL} (scopes: a2a.read)" in result.stderr
    assert "the client secret goes to idp.test, the token endpoint named by the Agent Card" in result.stderr
    assert token.called
    assert_no_credentials(card_route.calls.last.request)
    prof = tomllib.loads(cfg.read_text())["profiles"]["prod"]
    assert prof["url"] == AGENT and prof["auth"]["token-url"] == TOKEN_URL
    # issue 35: the token is recorded with the agent it was got for, and status shows it
    assert token_entry(cfg.with_name("tokens.json"), "prod", AGENT)["audience"] == AGENT
    assert f"Audience: {AGENT}" in cli("auth", "status", "--profile", "prod").stdout


def test_card_without_oauth_is_exit_2(cli, cfg, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    result = cli("auth", "login", "-u", AGENT, "--client-id", "cli", "--client-secret", "s")
    assert result.exit_code == 2 and "--token-url" in result.stderr
    assert not cfg.exists()


@pytest.mark.spec("A2ACLI_AUTH_006")
def test_refused_client_is_exit_4(cli, cfg, respx_mock):
    respx_mock.post(TOKEN_URL).respond(401, json={"error": "invalid_client", "error_description": "bad secret"})
    result = login(cli)
    assert result.exit_code == 4
    assert "invalid_client: bad secret" in result.stderr and "hint:" in result.stderr
    assert not cfg.exists()  # nothing saved on failure


def test_token_endpoint_down_is_exit_3(cli, cfg, respx_mock):
    respx_mock.post(TOKEN_URL).mock(side_effect=httpx.ConnectError("connection refused"))
    assert login(cli).exit_code == 3


def test_missing_pieces_are_exit_2(cli, cfg):
    assert cli("auth", "login", "--client-id", "c", "--client-secret", "s").exit_code == 2  # no token URL, no agent
    assert cli("auth", "login", "--token-url", TOKEN_URL, "--client-secret", "s").exit_code == 2
    assert cli("auth", "login", "--token-url", TOKEN_URL, "--client-id", "c").exit_code == 2
    assert cli("auth", "login", "--token-url", "not-a-url", "--client-id", "c", "--client-secret", "s").exit_code == 2


def test_status_and_logout(cli, cfg, respx_mock):
    respx_mock.post(TOKEN_URL).mock(return_value=token_answer("tok-0123456789abcdef"))
    none = cli("auth", "status", "--profile", "prod")
    assert none.exit_code == 4 and "a2a auth login" in none.stderr
    assert login(cli).exit_code == 0
    status = cli("auth", "status", "--profile", "prod")
    assert status.exit_code == 0, status.stderr
    assert "Token: ****cdef (good for" in status.stdout and "tok-0123456789abcdef" not in status.stdout
    assert "Client secret: ****" in status.stdout and "s3cret" not in status.stdout
    doc = json.loads(cli("auth", "status", "--profile", "prod", "-o", "json").stdout)
    assert doc["valid"] is True and 3500 < doc["expiresIn"] <= 3600 and doc["clientSecretStored"] is True
    out = cli("auth", "logout", "--profile", "prod")
    assert out.exit_code == 0 and "1 cached token(s) dropped, client secret removed" in out.stderr
    assert "client-secret" not in cfg.read_text() and "tok-0123" not in cfg.with_name("tokens.json").read_text()
    after = cli("auth", "status", "--profile", "prod")
    assert after.exit_code == 4 and "Token: none cached" in after.stdout


def test_after_logout_a_call_is_exit_4(cli, cfg, respx_mock):
    respx_mock.post(TOKEN_URL).mock(return_value=token_answer())
    respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes=ANY_CREDENTIAL))
    route = task_route(respx_mock)
    assert login(cli).exit_code == 0
    assert cli("auth", "logout", "--profile", "prod").exit_code == 0
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--profile", "prod")
    assert result.exit_code == 4 and "a2a auth login --profile prod" in result.stderr
    assert not route.called


def test_login_without_profile_creates_the_default_one(cli, cfg, respx_mock):
    respx_mock.post(TOKEN_URL).mock(return_value=token_answer())
    result = cli("auth", "login", "--token-url", TOKEN_URL, "--client-id", "cli", env={"A2ACLI_CLIENT_SECRET": "s3cret"})
    assert result.exit_code == 0, result.stderr
    data = tomllib.loads(cfg.read_text())
    assert data["default-profile"] == "default" and data["profiles"]["default"]["auth"]["client-id"] == "cli"
    # a second login reuses what the profile holds
    again = cli("auth", "login")
    assert again.exit_code == 0, again.stderr


def test_the_default_profile_note_names_the_file_the_login_wrote(cli, cfg, respx_mock, tmp_path):
    """A login that makes its profile the default says which file now says so: the --config file
    that keeps the profile, which it wrote (not the global file, which it left alone), or the
    global one."""
    respx_mock.post(TOKEN_URL).mock(return_value=token_answer())
    args = ("auth", "login", "--token-url", TOKEN_URL, "--client-id", "cli")
    other = tmp_path / "team.toml"
    other.write_text('[profiles.default]\ntimeout = "30"\n')
    result = cli("--config", str(other), *args, env={"A2ACLI_CLIENT_SECRET": "s3cret"})
    assert result.exit_code == 0, result.stderr
    assert tomllib.loads(other.read_text())["default-profile"] == "default" and not cfg.exists()
    assert f"profile default is now the default profile ({other})" in result.stderr and str(cfg) not in result.stderr
    first = cli(*args, env={"A2ACLI_CLIENT_SECRET": "s3cret"})
    assert first.exit_code == 0, first.stderr
    assert f"profile default is now the default profile ({cfg})" in first.stderr


def test_login_hints_name_the_token_url(cli, cfg, respx_mock):
    respx_mock.post(TOKEN_URL).mock(side_effect=httpx.ConnectError("Connection refused"))
    result = login(cli)
    assert result.exit_code == 3 and "check the token URL" in result.stderr and "demo-server" not in result.stderr
    bad = cli("auth", "login", "--profile", "prod", "--token-url", "not-a-url", "--client-id", "cli", env={"A2ACLI_CLIENT_SECRET": "s3cret"})
    assert bad.exit_code == 2 and "--token-url 'not-a-url' is not an http(s) URL" in bad.stderr


def test_a_redirect_to_another_origin_does_not_get_the_credentials(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes=ANY_CREDENTIAL))
    respx_mock.post(RPC).respond(307, headers={"Location": "http://elsewhere.test/rpc"})
    elsewhere = respx_mock.post("http://elsewhere.test/rpc").respond(json=rpc_result({"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}))
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--api-key", "key-0123456789")
    assert result.exit_code == 1
    assert not elsewhere.called
    assert "redirects (HTTP 307) to another origin, http://elsewhere.test/rpc" in result.stderr and "--endpoint http://elsewhere.test/rpc" in result.stderr


def test_a_redirect_within_the_origin_is_followed_with_the_credentials(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes=ANY_CREDENTIAL))
    respx_mock.post(RPC).respond(308, headers={"Location": f"{AGENT}/rpc/v2"})
    moved = respx_mock.post(f"{AGENT}/rpc/v2").respond(json=rpc_result({"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}))
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--api-key", "key-0123456789")
    assert result.exit_code == 0, result.stderr
    assert moved.calls.last.request.headers["X-API-Key"] == "key-0123456789"


# -- the config file keeps what the user wrote ------------------------------------------------------------

HAND_WRITTEN = """\
# my agents: ünïcode in a comment
default-profile = "local"   # the one I use

[profiles.local]
url = 'http://127.0.0.1:41241'   # the dev box

[profiles.prod]
url = "https://prod.example"

[profiles.prod.auth]
# from the IdP team (ticket 42)
token-url = 'https://idp.test/oauth/token'
client-id   =   "old-client"
audience = "a2a"   # a key a2a does not know: kept

[profiles."wé ird"]
dev.timeout = 30
"""


def changed_lines(before, after):
    import difflib

    a, b = before.splitlines(keepends=True), after.splitlines(keepends=True)
    removed, added = [], []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op != "equal":
            removed += a[i1:i2]
            added += b[j1:j2]
    return removed, added


def test_login_changes_only_the_auth_keys_of_a_hand_written_file(cli, cfg, respx_mock):
    respx_mock.post(TOKEN_URL).mock(return_value=token_answer())
    cfg.parent.mkdir(parents=True)
    cfg.write_text(HAND_WRITTEN, encoding="utf-8")
    result = login(cli, "--scope", "a2a.read")
    assert result.exit_code == 0, result.stderr
    after = cfg.read_text(encoding="utf-8")
    assert changed_lines(HAND_WRITTEN, after) == (
        ['client-id   =   "old-client"\n'],
        ['client-id   =   "cli"\n', 'client-secret = "s3cret"\n', 'scope = "a2a.read"\n'],
    )
    assert stat.S_IMODE(cfg.stat().st_mode) == 0o600 and after.endswith("\n")
    # logout takes the secret out again, and nothing else
    assert cli("auth", "logout", "--profile", "prod").exit_code == 0
    assert changed_lines(HAND_WRITTEN, cfg.read_text(encoding="utf-8")) == (['client-id   =   "old-client"\n'], ['client-id   =   "cli"\n', 'scope = "a2a.read"\n'])


def test_login_to_a_new_profile_adds_its_table_at_the_end(cli, cfg, respx_mock):
    respx_mock.post(TOKEN_URL).mock(return_value=token_answer())
    cfg.parent.mkdir(parents=True)
    cfg.write_text(HAND_WRITTEN, encoding="utf-8")
    result = cli("auth", "login", "--profile", "ci", "--token-url", TOKEN_URL, "--client-id", "cli", "-u", AGENT, env={"A2ACLI_CLIENT_SECRET": "s3cret"})
    assert result.exit_code == 0, result.stderr
    after = cfg.read_text(encoding="utf-8")
    assert after.startswith(HAND_WRITTEN)
    assert after[len(HAND_WRITTEN) :] == f'\n[profiles.ci]\nurl = "{AGENT}"\n\n[profiles.ci.auth]\ntoken-url = "{TOKEN_URL}"\nclient-id = "cli"\nclient-secret = "s3cret"\n'


def test_login_with_a_config_that_is_not_toml_asks_for_no_token_and_writes_nothing(cli, cfg, respx_mock):
    token = respx_mock.post(TOKEN_URL).mock(return_value=token_answer())
    cfg.parent.mkdir(parents=True)
    broken = "[profiles.prod]\nurl = \n"
    cfg.write_text(broken)
    result = login(cli)
    assert result.exit_code == 2
    assert f"the config file {cfg} is not valid TOML: line 2, column" in result.stderr and "hint: fix line 2" in result.stderr
    assert not token.called and cfg.read_text() == broken and not cfg.with_name("tokens.json").exists()


@pytest.mark.parametrize("timeout,env", [(["--timeout", "30s"], None), (["--timeout", "2m"], None), ([], {"A2ACLI_TIMEOUT": "500ms"})])
def test_login_reads_timeout_as_every_command_does(cli, cfg, respx_mock, timeout, env):
    """Issue 22: `auth login --timeout 30s` ended in `internal error: ValueError`; the value now goes
    through the settings table's parser like `tasks get --timeout 30s`."""
    respx_mock.post(TOKEN_URL).mock(return_value=token_answer())
    result = login(cli, *timeout, env={"A2ACLI_CLIENT_SECRET": "s3cret", **(env or {})})
    assert result.exit_code == 0, result.stderr
    assert "Logged in: profile prod" in result.stdout


def test_login_refuses_a_timeout_that_is_not_a_duration_as_usage(cli, cfg, respx_mock):
    token = respx_mock.post(TOKEN_URL).mock(return_value=token_answer())
    result = login(cli, "--timeout", "soon")
    assert result.exit_code == 2 and "--timeout 'soon' is not a duration" in result.stderr
    assert token.call_count == 0 and "internal error" not in result.stderr
