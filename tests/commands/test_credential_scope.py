"""Issue 35: credentials stay with the agent they were given for. Two origins on 127.0.0.1 (the
OAuth2 provider and agent of tests/oauth_provider.py, and a second agent), a real token endpoint:
a profile's token goes to the profile's agent and nowhere else (an agent whose card names the same
token endpoint or issuer gets a token of its own: issue 42); the public card fetch carries no credential of any flag,
while the call after it does; a bare host is https, loopback http."""

from __future__ import annotations

import base64
import json
import time

import pytest
from a2a_testkit import ANY_CREDENTIAL, token_entry, v1_card
from hostile_server import hostile, rpc_answer

TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}
BEARER_ONLY = {"bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}}
TOKEN = {"access_token": "tok-for-a-0123", "token_type": "Bearer", "expires_in": 3600}


def _profile(cli, server, *, url=True):
    """The default profile: agent A (the provider's own agent) and A's token endpoint."""
    pairs = [("auth.token-url", f"{server.base}/token"), ("auth.client-id", "cli"), ("auth.client-secret", "s3cret")]
    for key, value in ([("url", server.base)] if url else []) + pairs:
        assert cli("config", "set", "--profile", "p", key, value).exit_code == 0
    assert cli("config", "use", "p").exit_code == 0


def _agent_a(server, schemes=None):
    server.card = v1_card(url=f"{server.base}/rpc", securitySchemes=schemes or BEARER_ONLY)
    server.token_script = [dict(TOKEN)]


def _calls(server, path):
    return [r for r in server.requests if r[0] == "POST" and r[1] == path]


@pytest.mark.spec("A2ACLI_AUTH_008")
def test_the_profile_token_goes_to_its_agent_and_not_to_another_origin(cli, cfg, server):
    _agent_a(server)
    _profile(cli, server)
    with hostile() as b:
        b.card(v1_card(url=f"{b.url}/rpc", securitySchemes=BEARER_ONLY))  # B declares bearer too
        b.rpc(rpc_answer(TASK))
        other = cli("tasks", "get", "t-1", "-u", b.url, "-o", "json")
        assert other.exit_code == 0, other.stderr
        assert json.loads(other.stdout)["id"] == "t-1"
        assert all("authorization" not in s.headers for s in b.seen)  # B never saw A's token
        assert not _calls(server, "/token")  # nor was one requested for B
        assert other.stderr.count("the OAuth2 token of profile p is not sent to") == 1
        assert f"it is for {server.base}" in other.stderr and "pass --bearer TOKEN" in other.stderr
        assert f"a2a config set --profile p url {b.url}" in other.stderr
    home = cli("tasks", "get", "t-1", "-o", "json")  # the profile's agent: A
    assert home.exit_code == 0, home.stderr
    (rpc,) = _calls(server, "/rpc")
    assert rpc[3]["authorization"] == "Bearer tok-for-a-0123"
    assert "not sent" not in home.stderr
    # the cache records the audience the token was got for; `auth status` shows it
    entry = token_entry(cfg.with_name("tokens.json"), "p")  # the one token: A's
    assert entry["audience"] == server.base
    status = cli("auth", "status")
    assert status.exit_code == 0 and f"Audience: {server.base}" in status.stdout
    assert json.loads(cli("auth", "status", "-o", "json").stdout)["audience"] == server.base


@pytest.mark.spec("A2ACLI_AUTH_008")
def test_an_agent_whose_card_names_the_same_token_endpoint_gets_a_token_of_its_own(cli, cfg, server):
    """Issue 42: A's token is kept for A; B, whose card names the same token endpoint, gets a
    token obtained for B (the profile's client asks for it), and each keeps its own."""
    _agent_a(server)
    server.token_script.append({**TOKEN, "access_token": "tok-for-b-4567"})
    _profile(cli, server)
    home = cli("tasks", "get", "t-1", "-o", "json")  # A first: A's token is cached for A
    assert home.exit_code == 0, home.stderr
    with hostile() as b:
        scheme = {"o": {"oauth2SecurityScheme": {"flows": {"clientCredentials": {"tokenUrl": f"{server.base}/token", "scopes": {}}}}}}
        b.card(v1_card(url=f"{b.url}/rpc", securitySchemes=scheme))
        b.rpc(rpc_answer(TASK))
        for _ in range(2):
            result = cli("tasks", "get", "t-1", "-u", b.url, "-o", "json")
            assert result.exit_code == 0, result.stderr
            assert "not sent" not in result.stderr
        assert [s.headers["authorization"] for s in b.to("/rpc")] == ["Bearer tok-for-b-4567"] * 2
        assert all("tok-for-a-0123" not in str(s.headers) for s in b.seen)  # A's token never reached B
        assert len(_calls(server, "/token")) == 2  # one token for A, one for B (cached since)
        cache = cfg.with_name("tokens.json")
        assert token_entry(cache, "p", server.base)["access_token"] == "tok-for-a-0123"
        assert token_entry(cache, "p", b.url)["access_token"] == "tok-for-b-4567"
    again = cli("tasks", "get", "t-1", "-o", "json")  # A still gets its own
    assert again.exit_code == 0
    assert [r[3]["authorization"] for r in _calls(server, "/rpc")] == ["Bearer tok-for-a-0123"] * 2


@pytest.mark.spec("A2ACLI_AUTH_008")
def test_an_agent_whose_card_names_the_same_issuer_gets_a_token_of_its_own(cli, cfg, server):
    _agent_a(server)
    _profile(cli, server)
    data = json.loads(cfg.with_name("tokens.json").read_text()) if cfg.with_name("tokens.json").exists() else {}
    data[f"p {server.base}/token"] = {"access_token": "tok-cached-9", "token_url": f"{server.base}/token", "expires_at": time.time() + 600, "issuer": server.base, "audience": server.base}
    cfg.with_name("tokens.json").write_text(json.dumps(data))
    with hostile() as b, hostile() as c:
        oidc = {"o": {"openIdConnectSecurityScheme": {"openIdConnectUrl": f"{server.base}/.well-known/openid-configuration"}}}
        b.card(v1_card(url=f"{b.url}/rpc", securitySchemes=oidc))
        b.rpc(rpc_answer(TASK))
        other = {"o": {"openIdConnectSecurityScheme": {"openIdConnectUrl": "https://idp.example/.well-known/openid-configuration"}}}
        c.card(v1_card(url=f"{c.url}/rpc", securitySchemes=other))
        c.rpc(rpc_answer(TASK))
        assert cli("tasks", "get", "t-1", "-u", b.url).exit_code == 0
        assert b.to("/rpc")[0].headers["authorization"] == "Bearer tok-for-a-0123"  # obtained for B, not A's tok-cached-9
        result = cli("tasks", "get", "t-1", "-u", c.url)
        assert result.exit_code == 0 and "authorization" not in c.to("/rpc")[0].headers
        assert "not sent" in result.stderr


@pytest.mark.spec("A2ACLI_AUTH_008")
def test_a_profile_without_an_agent_sends_its_token_only_where_a_card_names_its_endpoint(cli, cfg, server):
    _agent_a(server)
    _profile(cli, server, url=False)
    with hostile() as b:
        b.card(v1_card(url=f"{b.url}/rpc", securitySchemes=ANY_CREDENTIAL))  # names another token endpoint
        b.rpc(rpc_answer(TASK))
        result = cli("tasks", "get", "t-1", "-u", b.url)
        assert result.exit_code == 0, result.stderr
        assert "authorization" not in b.to("/rpc")[0].headers
        assert "the profile names no agent" in result.stderr


def test_an_explicit_bearer_is_the_deliberate_way(cli, cfg, server):
    _agent_a(server)
    _profile(cli, server)
    with hostile() as b:
        b.card(v1_card(url=f"{b.url}/rpc", securitySchemes=BEARER_ONLY))
        b.rpc(rpc_answer(TASK))
        result = cli("tasks", "get", "t-1", "-u", b.url, "--bearer", "mine-0123")
        assert result.exit_code == 0, result.stderr
        assert b.to("/rpc")[0].headers["authorization"] == "Bearer mine-0123"
        assert "not sent" not in result.stderr


# -- a key, a bearer token, basic credentials kept in a profile: the profile's agent only ----------

KEY_ONLY = {"key": {"apiKeySecurityScheme": {"location": "header", "name": "X-API-Key"}}}
KEPT = {
    "api-key": ("kept-key-0123", "x-api-key", KEY_ONLY, "API key"),
    "bearer": ("kept-bearer-0123", "authorization", BEARER_ONLY, "bearer token"),
    "basic": ("alice:kept-pass-0123", "authorization", {"b": {"httpAuthSecurityScheme": {"scheme": "Basic"}}}, "basic credentials"),
}


@pytest.mark.spec("A2ACLI_AUTH_008")
@pytest.mark.parametrize("kind", list(KEPT))
def test_a_credential_kept_in_a_profile_goes_to_its_agent_and_not_to_another_origin(cli, cfg, kind):
    value, header, schemes, what = KEPT[kind]
    with hostile() as a, hostile() as b:
        for agent in (a, b):
            agent.card(v1_card(url=f"{agent.url}/rpc", securitySchemes=schemes))
            agent.rpc(rpc_answer(TASK))
        for key, v in (("url", a.url), (kind, value)):
            assert cli("config", "set", "--profile", "p", key, v).exit_code == 0
        assert cli("config", "use", "p").exit_code == 0
        for how in (["-u", b.url], ["--endpoint", f"{b.url}/rpc"], ["--profile", "p", "-u", b.url]):
            other = cli("tasks", "get", "t-1", *how, "-o", "json")
            assert other.exit_code == 0, other.stderr
            assert header not in b.to("/rpc")[-1].headers  # B never saw A's credential
            assert other.stderr.count(f"the {what} from profile p (") == 1
            assert f"is not sent to {b.url}: it is for {a.url}" in other.stderr
            assert f"pass --{kind}" in other.stderr and f"a2a config set --profile p url {b.url}" in other.stderr
        home = cli("tasks", "get", "t-1", "-o", "json")  # the profile's agent: A
        assert home.exit_code == 0, home.stderr
        assert header in a.to("/rpc")[-1].headers and "not sent" not in home.stderr
        again = cli("tasks", "get", "t-1", "-u", f"{a.url}/", "-o", "json")  # the same origin, written another way
        assert again.exit_code == 0 and "not sent" not in again.stderr and header in a.to("/rpc")[-1].headers
        deliberate = cli("tasks", "get", "t-1", "-u", b.url, f"--{kind}", value)  # the flag is the deliberate way
        assert deliberate.exit_code == 0 and header in b.to("/rpc")[-1].headers and "not sent" not in deliberate.stderr


@pytest.mark.spec("A2ACLI_AUTH_008")
def test_a_key_kept_in_a_profile_without_an_agent_is_sent_nowhere(cli, cfg):
    with hostile() as b:
        b.card(v1_card(url=f"{b.url}/rpc", securitySchemes=KEY_ONLY))
        b.rpc(rpc_answer(TASK))
        assert cli("config", "set", "--profile", "p", "api-key", "kept-key-0123").exit_code == 0
        result = cli("--profile", "p", "tasks", "get", "t-1", "-u", b.url)
        assert result.exit_code == 0, result.stderr
        assert "x-api-key" not in b.to("/rpc")[0].headers
        assert "that section names no agent (no url)" in result.stderr and f"a2a config set --profile p url {b.url}" in result.stderr


@pytest.mark.spec("A2ACLI_AUTH_008")
def test_a_key_from_the_environment_or_an_agent_scope_goes_where_the_command_says(cli, cfg, monkeypatch):
    with hostile() as b:
        b.card(v1_card(url=f"{b.url}/rpc", securitySchemes=KEY_ONLY))
        b.rpc(rpc_answer(TASK))
        monkeypatch.setenv("A2ACLI_API_KEY", "env-key-0123")  # the environment is the user's own, like a flag
        assert cli("tasks", "get", "t-1", "-u", b.url).exit_code == 0
        assert b.to("/rpc")[-1].headers["x-api-key"] == "env-key-0123"
        monkeypatch.delenv("A2ACLI_API_KEY")
        cfg.parent.mkdir(parents=True, exist_ok=True)
        cfg.write_text(f'[agents."{b.url}"]\napi-key = "scoped-key-0123"\n')  # kept for B by name
        cfg.chmod(0o600)
        result = cli("tasks", "get", "t-1", "-u", b.url)
        assert result.exit_code == 0 and "not sent" not in result.stderr, result.stderr
        assert b.to("/rpc")[-1].headers["x-api-key"] == "scoped-key-0123"


@pytest.mark.spec("A2ACLI_AUTH_008")
def test_a_key_in_a_projects_env_goes_to_the_agent_that_file_names(cli, cfg, tmp_path, monkeypatch):
    """The official spec's `.env` names the agent as A2ACLI_AGENT_CARD: that is the file's agent."""
    with hostile() as a, hostile() as b:
        for agent in (a, b):
            agent.card(v1_card(url=f"{agent.url}/rpc", securitySchemes=KEY_ONLY))
            agent.rpc(rpc_answer(TASK))
        project = tmp_path / "proj"
        project.mkdir()
        (project / ".env").write_text(f"A2ACLI_AGENT_CARD={a.url}\nA2ACLI_API_KEY=project-key-0123\n")
        (project / ".env").chmod(0o600)
        monkeypatch.chdir(project)
        monkeypatch.delenv("A2ACLI_LOCAL_CONFIG")  # (the tests keep local files out; this one is the point)
        assert cli("tasks", "get", "t-1").exit_code == 0
        assert a.to("/rpc")[-1].headers["x-api-key"] == "project-key-0123"
        other = cli("tasks", "get", "t-1", "-u", b.url)
        assert other.exit_code == 0 and "x-api-key" not in b.to("/rpc")[-1].headers
        assert f"the API key from local {project / '.env'} is not sent to {b.url}: it is for {a.url}" in other.stderr


# -- the public card fetch carries no credential, whatever flag it came from ------------------------

SECRET = "s3cret-value-42"
WAYS = {
    "-H Authorization": (["-H", f"Authorization: Bearer {SECRET}"], "authorization"),
    "-H X-API-Key": (["-H", f"X-API-Key: {SECRET}"], "x-api-key"),
    "-H X-Team": (["-H", f"X-Team: {SECRET}"], "x-team"),  # an unknown name: redacted by --debug, so kept back
    "--svc-param": (["--svc-param", f"Authorization:Bearer {SECRET}"], "authorization"),
    "--api-key": (["--api-key", SECRET], "x-api-key"),
    "--bearer": (["--bearer", SECRET], "authorization"),
    "--basic": (["--basic", f"alice:{SECRET}"], "authorization"),
    "profile header": ([], "x-private"),
}


@pytest.mark.spec("A2ACLI_AUTH_008")
@pytest.mark.parametrize("way", list(WAYS))
def test_no_credential_of_any_flag_reaches_the_public_card(cli, cfg, way):
    args, header = WAYS[way]
    if way == "profile header":
        assert cli("config", "set", "--profile", "h", "header.X-Private", SECRET).exit_code == 0
        args = ["--profile", "h"]
    with hostile() as a:
        a.card(v1_card(url=f"{a.url}/rpc", securitySchemes=ANY_CREDENTIAL))
        a.rpc(rpc_answer(TASK))
        result = cli("tasks", "get", "t-1", "-u", a.url, *args, "-H", "traceparent: 00-abc-def-01", "-H", "X-Tenant-Id: acme")
        assert result.exit_code == 0, result.stderr
        (card,) = a.to("/.well-known/agent-card.json")
        (call,) = a.to("/rpc")
        shown = json.dumps(card.headers)
        assert SECRET not in shown and base64.b64encode(f"alice:{SECRET}".encode()).decode() not in shown
        assert header not in card.headers and "cookie" not in card.headers
        assert header in call.headers  # the call carries it as it always did
        # non-secret headers (tracing, tenant) still go to the card fetch
        assert card.headers["traceparent"] == "00-abc-def-01" and card.headers["x-tenant-id"] == "acme"


@pytest.mark.spec("A2ACLI_AUTH_008")
def test_the_profile_token_never_reaches_the_public_card(cli, cfg, server):
    _agent_a(server)
    _profile(cli, server)
    assert cli("card", "fetch", "-o", "json").exit_code == 0
    result = cli("send", "hi", "-o", "json")
    assert result.exit_code == 0, result.stderr
    cards = [r for r in server.requests if r[1] == "/.well-known/agent-card.json"]
    assert len(cards) == 2 and all("authorization" not in r[3] for r in cards)
    assert _calls(server, "/rpc")[0][3]["authorization"] == "Bearer tok-for-a-0123"


@pytest.mark.spec("A2ACLI_AUTH_008")
def test_check_keeps_credentials_off_the_public_card(cli, cfg):
    with hostile() as a:
        a.card(v1_card(url=f"{a.url}/rpc", securitySchemes=ANY_CREDENTIAL))
        a.rpc(rpc_answer(TASK))
        cli("check", "-u", a.url, "-H", f"X-API-Key: {SECRET}", "--bearer", SECRET)
        cards = [s for s in a.seen if s.method == "GET" and "agent-card" in s.path]
        assert cards and all(SECRET not in json.dumps(s.headers) for s in cards)


# -- a bare host is https, loopback http ------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "read"),
    [
        ("agent.example.com", "https://agent.example.com"),
        ("agent.example.com:8443/team", "https://agent.example.com:8443/team"),
        ("localhost:9", "http://localhost:9"),
        ("127.0.0.5:9", "http://127.0.0.5:9"),
        ("[::1]:9", "http://[::1]:9"),
    ],
)
def test_a_bare_host_is_https_and_loopback_http(cli, given, read):
    result = cli("send", "hi", "-u", given, "--offline")
    assert result.exit_code == 0, result.stderr
    assert f"Agent Card of {read}>" in result.stdout


def test_a_bare_loopback_host_is_called_over_http_and_shown(cli, tmp_path):
    with hostile() as a:
        a.card(v1_card(url=f"{a.url}/rpc"))
        a.rpc(rpc_answer(TASK))
        port = a.url.rsplit(":", 1)[1]
        result = cli("tasks", "get", "t-1", "-u", f"127.0.0.1:{port}", "--debug", "--dump", str(tmp_path / "d"))
        assert result.exit_code == 0, result.stderr
        assert f"> GET http://127.0.0.1:{port}/.well-known/agent-card.json" in result.stderr
        dumped = "".join(p.read_text(errors="replace") for p in (tmp_path / "d").rglob("*") if p.is_file())
        assert f"http://127.0.0.1:{port}/.well-known/agent-card.json" in dumped


def test_a_bare_remote_host_is_fetched_over_https(cli, respx_mock):
    route = respx_mock.get("https://agent.example.com/.well-known/agent-card.json").respond(json=v1_card(url="https://agent.example.com/rpc"))
    result = cli("card", "fetch", "-u", "agent.example.com", "-o", "json", "--debug")
    assert result.exit_code == 0, result.stderr
    assert route.called and "> GET https://agent.example.com/.well-known/agent-card.json" in result.stderr


def test_check_says_where_the_credentials_go(cli, cfg):
    """`a2a check` sends the credentials to the interfaces it probes: one on another host is said,
    as every other command says it; none is said without credentials."""
    with hostile() as a, hostile() as b:
        card = v1_card(url=f"{b.url}/rpc", securitySchemes=ANY_CREDENTIAL)
        card["supportedInterfaces"] = [{"url": f"{b.url}/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]
        a.card(card)
        b.rpc(rpc_answer(TASK))
        result = cli("check", "-u", a.url, "--bearer", "tok-1234", "--read-only")
        port = b.url.rsplit(":", 1)[1]
        assert result.stderr.count(f"warning: credentials go to 127.0.0.1:{port}, named by the Agent Card at {a.url}") == 1
        assert result.exit_code in (0, 1) and "internal error" not in result.stderr
        assert "credentials go" not in cli("check", "-u", a.url, "--read-only").stderr


def test_a_token_that_cannot_travel_in_a_header_is_refused_before_the_call(cli, cfg, server):
    _agent_a(server)
    server.token_script = [{**TOKEN, "access_token": "tok\r\nX-Evil: 1"}]
    _profile(cli, server)
    result = cli("tasks", "get", "t-1")
    assert result.exit_code == 1, result.stderr
    assert "issued an access token that cannot travel in a header" in result.stderr and "internal error" not in result.stderr
    assert not _calls(server, "/rpc")
    assert not cfg.with_name("tokens.json").exists() or "X-Evil" not in cfg.with_name("tokens.json").read_text()
