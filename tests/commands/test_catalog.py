"""Catalog resolution (A2ACLI_CARD_GET_005, official CLI spec §8.1): `-u catalog:NAME` reads the
agent catalog (--catalog, A2ACLI_CATALOG, a profile, or a named catalog), finds the entry, and
resolves it to an Agent Card before any other request; the catalog is public (no credentials, no
-H), size-bounded, and shown by --offline, --debug and --dump like the card. `a2a card catalog`
lists one. HTTP is mocked with respx: the real requests are built and checked."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import httpx
import pytest
from a2a_testkit import AGENT, ANY_CREDENTIAL, RPC, rpc_result, v1_card

REGISTRY = "http://registry.test"
CATALOG = f"{REGISTRY}/agents.json"
CARD_URL = f"{AGENT}/.well-known/agent-card.json"
TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}
AGENTS = {"agents": [{"name": "test", "url": AGENT, "description": "the test agent", "tags": ["demo", "echo"]}, {"name": "travel", "url": "http://travel.test"}]}


def order(respx_mock) -> list[str]:
    return [f"{c.request.method} {c.request.url}" for c in respx_mock.calls]


@pytest.mark.spec("A2ACLI_CARD_GET_005")
@pytest.mark.parametrize("version", ["1.0", "0.3"])
def test_send_resolves_the_entry_to_its_card_before_any_other_request(cli, respx_mock, version):
    respx_mock.get(CATALOG).respond(json=AGENTS)
    respx_mock.get(CARD_URL).respond(json=v1_card())
    respx_mock.post(RPC).respond(json=rpc_result({"task": TASK} if version == "1.0" else {**TASK, "kind": "task", "status": {"state": "completed"}}))
    result = cli("send", "hi", "-u", "catalog:test", "--catalog", CATALOG, "--a2a-version", version, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert order(respx_mock) == [f"GET {CATALOG}", f"GET {CARD_URL}", f"POST {RPC}"]
    assert f"catalog:test: 'test', {AGENT}, from the catalog {CATALOG}" in result.stderr
    assert json.loads(result.stdout)["id" if version == "0.3" else "task"]


@pytest.mark.spec("A2ACLI_CARD_GET_005")
def test_credentials_and_headers_never_go_to_the_catalog(cli, respx_mock):
    catalog = respx_mock.get(CATALOG).respond(json=AGENTS)
    card = respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes=ANY_CREDENTIAL, securityRequirements=[{"schemes": {"key": {"list": []}}}]))
    call = respx_mock.post(RPC).respond(json=rpc_result({"task": TASK}))
    result = cli("send", "hi", "-u", "catalog:test", "--catalog", "http://user:pw@registry.test/agents.json", "--api-key", "k-secret-1", "--bearer", "b-secret-1", "-H", "X-Team: qa", "-H", "X-Tenant-Id: acme")
    assert result.exit_code == 0, result.stderr
    sent = catalog.calls.last.request.headers
    assert {k.lower() for k in sent} == {"host", "accept", "accept-encoding", "connection", "user-agent"}
    assert sent["accept"] == "application/json, application/ai-catalog+json, application/linkset+json"
    # the card's GET: the harmless -H only (issue 35: X-Team is redacted by --debug, so it is kept back)
    got = card.calls.last.request.headers
    assert got["x-tenant-id"] == "acme" and "x-team" not in got and "x-api-key" not in got
    assert call.calls.last.request.headers["x-team"] == "qa"
    assert call.calls.last.request.headers["x-api-key"] == "k-secret-1"


SHAPES = {
    "agents": {"agents": [{"name": "test", "url": AGENT}]},
    "array": [{"name": "other", "url": "http://other.test"}, {"name": "test", "agentCardUrl": CARD_URL}],
    "ai-catalog": {"specVersion": "1.0", "entries": [{"identifier": "urn:air:agent.test:a2a:test", "type": "application/a2a-agent-card+json", "url": CARD_URL}]},
    "linkset-item": {"linkset": [{"anchor": f"{REGISTRY}/.well-known/api-catalog", "item": [{"href": AGENT, "title": "test"}]}]},
    "linkset-describedby": {"linkset": [{"anchor": f"{AGENT}/test", "service-desc": [{"href": CARD_URL, "type": "application/json"}]}]},
}


@pytest.mark.spec("A2ACLI_CARD_GET_005")
@pytest.mark.parametrize("shape", list(SHAPES))
def test_card_fetch_reads_each_shape_of_catalog(cli, respx_mock, shape):
    respx_mock.get(CATALOG).respond(json=SHAPES[shape])
    respx_mock.get(CARD_URL).respond(json=v1_card())
    result = cli("card", "fetch", "-u", "catalog:test", "--catalog", CATALOG, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == v1_card()
    assert order(respx_mock) == [f"GET {CATALOG}", f"GET {CARD_URL}"]


@pytest.mark.spec("A2ACLI_CARD_GET_005")
def test_an_origin_is_looked_up_at_the_well_known_catalog_paths(cli, respx_mock):
    respx_mock.get(f"{REGISTRY}/.well-known/ai-catalog.json").respond(404)
    respx_mock.get(f"{REGISTRY}/.well-known/api-catalog").respond(json=SHAPES["linkset-item"], headers={"Content-Type": "application/linkset+json"})
    respx_mock.get(CARD_URL).respond(json=v1_card())
    result = cli("card", "fetch", "-u", "catalog:test", "--catalog", REGISTRY, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert order(respx_mock) == [f"GET {REGISTRY}/.well-known/ai-catalog.json", f"GET {REGISTRY}/.well-known/api-catalog", f"GET {CARD_URL}"]


@pytest.mark.spec("A2ACLI_CARD_GET_005")
def test_a_relative_reference_resolves_against_the_catalog_url(cli, respx_mock):
    respx_mock.get(f"{REGISTRY}/team/agents.json").respond(json={"agents": [{"name": "test", "url": "cards/test.json"}]})
    respx_mock.get(f"{REGISTRY}/team/cards/test.json").respond(json=v1_card())
    result = cli("card", "fetch", "-u", "catalog:test", "--catalog", f"{REGISTRY}/team/agents.json", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["name"] == "Test agent"


@pytest.mark.spec("A2ACLI_CARD_GET_005")
def test_a_card_the_catalog_holds_is_used_as_it_is(cli, respx_mock):
    respx_mock.get(CATALOG).respond(json={"agents": [v1_card(name="held")]})
    respx_mock.post(RPC).respond(json=rpc_result({"task": TASK}))
    fetched = cli("card", "fetch", "-u", "catalog:held", "--catalog", CATALOG, "-o", "json")
    assert fetched.exit_code == 0, fetched.stderr
    assert json.loads(fetched.stdout) == v1_card(name="held")
    assert "catalog:held: 'held', its Agent Card is in the catalog" in fetched.stderr
    sent = cli("send", "hi", "-u", "catalog:held", "--catalog", CATALOG)
    assert sent.exit_code == 0, sent.stderr
    assert [c for c in order(respx_mock) if "agent-card" in c] == []  # no card GET: the catalog held it


@pytest.mark.spec("A2ACLI_CARD_GET_005")
def test_a_catalog_file_resolves_paths_next_to_it_and_bare_hosts(cli, respx_mock, tmp_path, monkeypatch):
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "local.json").write_text(json.dumps(v1_card(name="local")))
    (tmp_path / "agents.json").write_text(json.dumps({"agents": [{"name": "local", "url": "cards/local.json"}, {"name": "test", "url": "agent.test:80"}]}))
    monkeypatch.chdir(tmp_path / "cards")  # paths are the catalog's, not the working directory's
    local = cli("card", "fetch", "-u", "catalog:local", "--catalog", str(tmp_path / "agents.json"), "-o", "json")
    assert local.exit_code == 0, local.stderr
    assert json.loads(local.stdout)["name"] == "local"
    respx_mock.get("https://agent.test:80/.well-known/agent-card.json").respond(json=v1_card())  # a bare host: https (issue 35)
    remote = cli("card", "fetch", "-u", "catalog:test", "--catalog", str(tmp_path / "agents.json"), "-o", "json")
    assert remote.exit_code == 0, remote.stderr


@pytest.mark.spec("A2ACLI_CARD_GET_005")
def test_a_catalog_on_the_network_cannot_point_at_a_local_file(cli, respx_mock, tmp_path):
    secret = tmp_path / "card.json"
    secret.write_text(json.dumps(v1_card()))
    respx_mock.get(CATALOG).respond(json={"agents": [{"name": "test", "url": secret.as_uri()}]})
    result = cli("card", "fetch", "-u", "catalog:test", "--catalog", CATALOG, "-o", "json")
    assert result.exit_code == 1
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "A2ACLI_ERR_CARD_INVALID" and "points at a local file" in error["message"]


# -- errors ---------------------------------------------------------------------------------------


@pytest.mark.spec("A2ACLI_CARD_GET_005")
@pytest.mark.parametrize(
    ("answer", "exit_code", "code", "says", "hint"),
    [
        (httpx.ConnectError("Connection refused"), 3, "A2ACLI_ERR_UNREACHABLE", f"cannot connect to {CATALOG}", "check --catalog"),
        (httpx.Response(404), 3, "A2ACLI_ERR_UNREACHABLE", f"no agent catalog at {CATALOG} (HTTP 404 Not Found)", "check --catalog"),
        (httpx.Response(401), 3, "A2ACLI_ERR_UNREACHABLE", "(HTTP 401 Unauthorized)", "a2a sends no credentials to a catalog"),
        (httpx.Response(200, text="<html>hi</html>"), 1, "A2ACLI_ERR_CARD_INVALID", f"the catalog at {CATALOG} is not JSON", "an agent catalog is JSON"),
        (httpx.Response(200, json={"items": []}), 1, "A2ACLI_ERR_CARD_INVALID", "has no agents, entries or linkset (its keys: items)", '{"agents": [...]}'),
        (httpx.Response(200, json={"agents": [{"name": "test"}]}), 1, "A2ACLI_ERR_CARD_INVALID", "$.agents[0] (test) says neither where its Agent Card is", "give the entry"),
        (httpx.Response(200, json={"agents": [{"name": "tester", "url": AGENT}]}), 3, "A2ACLI_ERR_CARD_NOT_FOUND", f"no agent 'test' in the catalog {CATALOG}", "did you mean 'tester'?"),
    ],
)
def test_catalog_failures_have_their_code_exit_and_hint(cli, respx_mock, answer, exit_code, code, says, hint):
    route = respx_mock.get(CATALOG)
    if isinstance(answer, Exception):
        route.mock(side_effect=answer)
    else:
        route.mock(return_value=answer)
    result = cli("send", "hi", "-u", "catalog:test", "--catalog", CATALOG, "-o", "json")
    assert result.exit_code == exit_code, result.stdout
    error = json.loads(result.stdout)["error"]
    assert error["code"] == code
    assert says in error["message"], error
    assert hint in error["hint"], error
    text = cli("send", "hi", "-u", "catalog:test", "--catalog", CATALOG)
    assert text.exit_code == exit_code and f"[{code}]" in text.stderr and "hint: " in text.stderr


@pytest.mark.spec("A2ACLI_CARD_GET_005")
def test_no_catalog_set_is_a_usage_error_naming_catalog(cli, respx_mock):
    result = cli("send", "hi", "-u", "catalog:test")
    assert result.exit_code == 2
    assert "error: catalog:test names an entry of an agent catalog, and no catalog is set [A2ACLI_ERR_USAGE]" in result.stderr
    assert "hint: pass --catalog URL|FILE (or set A2ACLI_CATALOG" in result.stderr
    assert respx_mock.calls.call_count == 0
    bad = cli("send", "hi", "-u", "catalog:test", "--catalog", "ftp://registry.test/a.json")
    assert bad.exit_code == 2 and "--catalog 'ftp://registry.test/a.json' is not an http(s) URL" in bad.stderr


@pytest.mark.spec("A2ACLI_CARD_GET_005")
def test_the_catalog_is_size_bounded_like_the_card(cli, respx_mock, tmp_path):
    big = json.dumps({"agents": [{"name": f"agent-{i}", "url": f"http://a{i}.test", "description": "x" * 1000} for i in range(9000)]})  # ~9.5 MB
    respx_mock.get(CATALOG).respond(text=big, headers={"Content-Type": "application/json"})
    result = cli("card", "fetch", "-u", "catalog:agent-1", "--catalog", CATALOG)
    assert result.exit_code == 1
    assert f"the agent catalog at {CATALOG} is larger than the cap of 8 MiB; stopped reading [X_A2A_BODY_TOO_LARGE]" in result.stderr
    assert "hint: an agent catalog is a list of agents: check --catalog" in result.stderr
    lowered = cli("card", "fetch", "-u", "catalog:agent-1", "--catalog", CATALOG, "--max-body", "64K")
    assert "larger than the cap of 64 KiB" in lowered.stderr and "--max-body" in lowered.stderr
    (tmp_path / "big.json").write_text(big)
    from_file = cli("card", "fetch", "-u", "catalog:agent-1", "--catalog", str(tmp_path / "big.json"))
    assert from_file.exit_code == 1 and "is larger than the cap of 8 MiB" in from_file.stderr


# -- --offline, --debug, --dump -------------------------------------------------------------------


@pytest.mark.spec("A2ACLI_CARD_GET_005")
def test_offline_shows_the_catalog_request_and_sends_nothing(cli, respx_mock):
    fetched = cli("card", "fetch", "--offline", "-u", "catalog:test", "--catalog", CATALOG)
    assert fetched.exit_code == 0, fetched.stderr
    assert fetched.stdout.splitlines()[0] == f"GET {CATALOG}"
    assert "Accept: application/json, application/ai-catalog+json, application/linkset+json" in fetched.stdout
    assert f"--offline: the catalog {CATALOG} is not read" in fetched.stderr
    sent = cli("send", "hi", "--offline", "-u", "catalog:test", "--catalog", CATALOG)
    assert sent.exit_code == 0, sent.stderr
    assert sent.stdout.startswith("POST <JSONRPC URL from the Agent Card of catalog:test>")
    listed = cli("card", "catalog", "--offline", "--catalog", REGISTRY)
    assert listed.stdout.startswith(f"GET {REGISTRY}/.well-known/ai-catalog.json\n")
    userinfo = cli("card", "fetch", "--offline", "-u", "catalog:test", "--catalog", "http://bob:s3cret-pass@registry.test/agents.json")
    assert userinfo.stdout.splitlines()[0] == f"GET {CATALOG}"  # as it would be sent: no userinfo to a catalog
    assert "s3cret-pass" not in userinfo.stdout + userinfo.stderr
    assert respx_mock.calls.call_count == 0


@pytest.mark.spec("A2ACLI_CARD_GET_005")
def test_offline_reads_a_catalog_file_as_it_reads_a_card_file(cli, respx_mock, tmp_path):
    (tmp_path / "agents.json").write_text(json.dumps({"agents": [{"name": "test", "url": AGENT}, v1_card(name="held")]}))
    fetched = cli("card", "fetch", "--offline", "-u", "catalog:test", "--catalog", str(tmp_path / "agents.json"))
    assert fetched.exit_code == 0, fetched.stderr
    assert fetched.stdout.splitlines()[0] == f"GET {CARD_URL}"
    sent = cli("send", "hi", "--offline", "-u", "catalog:held", "--catalog", str(tmp_path / "agents.json"))
    assert sent.exit_code == 0, sent.stderr
    assert sent.stdout.startswith(f"POST {RPC}")  # the card the catalog holds names the endpoint
    held = cli("card", "fetch", "--offline", "-u", "catalog:held", "--catalog", str(tmp_path / "agents.json"))
    assert held.exit_code == 0 and held.stdout == ""
    assert f"the Agent Card is read from {(tmp_path / 'agents.json').as_uri()}#held: nothing is sent" in held.stderr
    (tmp_path / "card.json").write_text(json.dumps(v1_card()))
    card_file = cli("card", "fetch", "--offline", "-u", str(tmp_path / "card.json"))  # a card file, named directly: the same
    assert card_file.exit_code == 0 and "nothing is sent" in card_file.stderr
    assert respx_mock.calls.call_count == 0


@pytest.mark.spec("A2ACLI_CARD_GET_005")
def test_debug_and_dump_show_the_catalog_exchange(cli, respx_mock, tmp_path):
    respx_mock.get(CATALOG).respond(json=AGENTS)
    respx_mock.get(CARD_URL).respond(json=v1_card())
    respx_mock.post(RPC).respond(json=rpc_result({"task": TASK}))
    result = cli("send", "hi", "-u", "catalog:test", "--catalog", CATALOG, "--debug", "--dump", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert f"> GET {CATALOG}" in result.stderr and "* catalog: 200" in result.stderr
    assert result.stderr.index(f"> GET {CATALOG}") < result.stderr.index(f"> GET {CARD_URL}")
    index = [json.loads(line) for line in (tmp_path / "index.jsonl").read_text().splitlines()]
    assert [(e["seq"], e["method"], e["url"]) for e in index] == [(1, "catalog", CATALOG), (2, "card", CARD_URL), (3, "SendMessage", RPC)]
    assert json.loads((tmp_path / "001-catalog.response.body").read_bytes()) == AGENTS
    assert (tmp_path / "001-catalog.request.http").read_text().startswith("GET /agents.json HTTP/1.1")


# -- where catalogs come from ----------------------------------------------------------------------


@pytest.mark.spec("A2ACLI_CARD_GET_005")
def test_catalogs_from_the_environment_and_named_ones_from_the_config(cli, respx_mock, tmp_path, monkeypatch):
    respx_mock.get(CATALOG).respond(json=AGENTS)
    respx_mock.get(f"{REGISTRY}/team.json").respond(json={"agents": [{"name": "test", "url": "http://team.test"}]})
    respx_mock.get(CARD_URL).respond(json=v1_card())
    respx_mock.get("http://team.test/.well-known/agent-card.json").respond(json=v1_card(name="team agent"))
    config = tmp_path / "config.toml"
    config.write_text(f'[catalogs]\nteam = "{REGISTRY}/team.json"\n')
    monkeypatch.setenv("A2ACLI_GLOBAL_CONFIG", str(config))
    monkeypatch.setenv("A2ACLI_CATALOG", CATALOG)
    default = cli("card", "fetch", "-u", "catalog:test", "-o", "json")
    assert default.exit_code == 0, default.stderr
    assert json.loads(default.stdout)["name"] == "Test agent"
    named = cli("card", "fetch", "-u", "catalog:team/test", "-o", "json")
    assert named.exit_code == 0, named.stderr
    assert json.loads(named.stdout)["name"] == "team agent"
    assert f"from the catalog team ({REGISTRY}/team.json)" in named.stderr
    shown = cli("config", "show", "-o", "json")
    settings = json.loads(shown.stdout)["settings"]
    assert settings["catalog"] == {"value": CATALOG, "source": "env A2ACLI_CATALOG"}
    assert settings["catalog.team"]["value"] == f"{REGISTRY}/team.json"


def test_config_set_names_a_catalog_and_stores_a_path_absolute(cli, tmp_path, monkeypatch):
    config = tmp_path / "config.toml"
    monkeypatch.setenv("A2ACLI_GLOBAL_CONFIG", str(config))
    monkeypatch.chdir(tmp_path)
    assert cli("config", "set", "catalog.team", f"{REGISTRY}/team.json").exit_code == 0
    assert cli("config", "set", "catalog", "agents.json").exit_code == 0
    text = config.read_text()
    assert f'[profiles.default.catalogs]\nteam = "{REGISTRY}/team.json"' in text
    assert f'catalog = "{tmp_path / "agents.json"}"' in text
    bad = cli("config", "set", "catalog.a/b", REGISTRY)
    assert bad.exit_code == 2 and "'a/b' is not a catalog name" in bad.stderr
    assert cli("config", "unset", "catalog.team").exit_code == 0
    assert "catalogs" not in config.read_text()


@pytest.mark.spec("A2ACLI_CARD_GET_005")
def test_a_host_named_catalog_is_still_a_host(cli, respx_mock):
    respx_mock.get("https://catalog:8080/.well-known/agent-card.json").respond(json=v1_card())  # a bare host: https
    result = cli("card", "fetch", "-u", "catalog:8080", "-o", "json")
    assert result.exit_code == 0, result.stderr


# -- a2a card catalog ------------------------------------------------------------------------------


@pytest.mark.spec("A2ACLI_CARD_GET_005")
def test_card_catalog_lists_the_agents_in_text_json_and_raw(cli, respx_mock):
    body = json.dumps(AGENTS).encode()
    respx_mock.get(CATALOG).respond(content=body, headers={"Content-Type": "application/json"})
    text = cli("card", "catalog", "--catalog", CATALOG)
    assert text.exit_code == 0, text.stderr
    assert text.stdout == (
        f"Agent: test\nDescription: the test agent\nTags: demo, echo\nCard at: {AGENT}\nReference: catalog:test\n\n"
        "Agent: travel\nCard at: http://travel.test\nReference: catalog:travel\n\n"
    )
    listed = json.loads(cli("card", "catalog", "--catalog", CATALOG, "-o", "json").stdout)
    assert listed == {
        "catalog": CATALOG,
        "format": "agents list",
        "agents": [
            {"name": "test", "description": "the test agent", "tags": ["demo", "echo"], "url": AGENT, "reference": "catalog:test"},
            {"name": "travel", "url": "http://travel.test", "reference": "catalog:travel"},
        ],
        "skipped": [],
    }
    assert cli("card", "catalog", "--catalog", CATALOG, "-o", "raw").stdout == body.decode() + "\n"


@pytest.mark.spec("A2ACLI_CARD_GET_005")
def test_card_catalog_of_a_named_catalog_and_what_it_skipped(cli, respx_mock, tmp_path, monkeypatch):
    respx_mock.get(f"{REGISTRY}/ai.json").respond(json={"specVersion": "1.0", "entries": [*SHAPES["ai-catalog"]["entries"], {"identifier": "urn:x:mcp", "type": "application/mcp-server-card+json", "url": "http://m.test"}]})
    config = tmp_path / "config.toml"
    config.write_text(f'[catalogs]\nai = "{REGISTRY}/ai.json"\n')
    monkeypatch.setenv("A2ACLI_GLOBAL_CONFIG", str(config))
    result = cli("card", "catalog", "ai", "-o", "json")
    assert result.exit_code == 0, result.stderr
    listed = json.loads(result.stdout)
    assert listed["format"] == "AI Catalog"
    assert listed["agents"] == [{"name": "test", "id": "urn:air:agent.test:a2a:test", "url": CARD_URL, "reference": "catalog:ai/test"}]
    assert "skipped urn:x:mcp: application/mcp-server-card+json, not an A2A Agent Card" in result.stderr
    unknown = cli("card", "catalog", "nope")
    assert unknown.exit_code == 2 and "no catalog named 'nope'" in unknown.stderr and "named catalogs: ai" in unknown.stderr


def test_card_catalog_without_a_catalog_is_a_usage_error(cli):
    result = cli("card", "catalog", "-o", "json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"]["code"] == "A2ACLI_ERR_USAGE"


def test_catalog_names_complete_from_a_catalog_file(tmp_path):
    (tmp_path / "agents.json").write_text(json.dumps({"agents": [{"name": "weather", "url": AGENT}, {"name": "travel", "url": AGENT}]}))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("A2ACLI_", "_A2A_", "COMP_"))}
    line = f"a2a card fetch --catalog {tmp_path / 'agents.json'} -u catalog:w"
    env.update(A2ACLI_GLOBAL_CONFIG=os.devnull, A2ACLI_LOCAL_CONFIG=os.devnull, _A2A_COMPLETE="complete_bash", COMP_WORDS=line, COMP_CWORD=str(len(line.split(" ")) - 1))
    proc = subprocess.run([sys.executable, "-m", "a2acli"], env=env, capture_output=True, text=True, timeout=60)
    assert proc.stdout.split() == ["catalog:weather"], proc.stderr


# -- the other commands that take an agent reference -----------------------------------------------


@pytest.mark.spec("A2ACLI_CARD_GET_005")
def test_check_reads_the_card_of_a_catalog_entry(cli, respx_mock):
    respx_mock.get(CATALOG).respond(json=AGENTS)
    respx_mock.get(CARD_URL).respond(json=v1_card())
    result = cli("check", "card", "catalog:test", "--catalog", CATALOG, "-o", "json")
    assert result.exit_code == 0, result.stdout
    report = json.loads(result.stdout)
    assert report["target"] == "catalog:test" and report["passed"]
    assert [(c["url"], c["versions"]) for c in report["cards"]] == [(CARD_URL, ["1.0"])]  # the entry's card, validated
    assert order(respx_mock) == [f"GET {CATALOG}", f"GET {CARD_URL}"]


@pytest.mark.spec("A2ACLI_CARD_GET_005")
def test_auth_login_reads_the_token_endpoint_off_the_card_of_a_catalog_entry(cli, respx_mock, tmp_path, monkeypatch):
    config = tmp_path / "config.toml"
    monkeypatch.setenv("A2ACLI_GLOBAL_CONFIG", str(config))
    token_url = "https://idp.test/oauth/token"
    scheme = {"o": {"oauth2SecurityScheme": {"flows": {"clientCredentials": {"tokenUrl": token_url, "scopes": {}}}}}}
    catalog = respx_mock.get(CATALOG).respond(json=AGENTS)
    respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes=scheme))
    token = respx_mock.post(token_url).respond(json={"access_token": "t0k3n-value", "token_type": "Bearer", "expires_in": 3600})
    result = cli("auth", "login", "--profile", "p", "-u", "catalog:test", "--catalog", CATALOG, "--client-id", "cli", env={"A2ACLI_CLIENT_SECRET": "s3cret-value"})
    assert result.exit_code == 0, result.stderr
    assert f"catalog:test: 'test', {AGENT}, from the catalog {CATALOG}" in result.stderr
    assert f"the client secret goes to idp.test, the token endpoint named by the Agent Card at {AGENT}" in result.stderr
    assert token.called and "authorization" not in catalog.calls.last.request.headers
    saved = config.read_text()
    assert 'url = "catalog:test"' in saved and f'catalog = "{CATALOG}"' in saved  # the profile names the agent as it was named
