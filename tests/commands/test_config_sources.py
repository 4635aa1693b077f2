"""Where settings come from (official CLI spec §6.4, §4.5, §5.2): flag > env > local file (--config
FILE, else the nearest .env / .a2acli.toml from the working directory up) > global file > built-in
default; agent scopes; `config show` naming each source; secrets in files others can read."""

from __future__ import annotations

import json
import os
import stat
import sys

import pytest
from a2a_testkit import AGENT, ANY_CREDENTIAL, RPC, rpc_result, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
TASK = {"id": "task-7f3a9c", "contextId": "ctx-51d2e8", "status": {"state": "TASK_STATE_COMPLETED"}}
CONFIG_002 = pytest.mark.spec("A2ACLI_CONFIG_002")


@pytest.fixture
def where(tmp_path, monkeypatch):
    """A project tree (tmp/proj/sub/deeper, the working directory), a global config path, and $HOME
    outside the tree."""
    proj = tmp_path / "proj"
    deeper = proj / "sub" / "deeper"
    deeper.mkdir(parents=True)
    glob = tmp_path / "cfg" / "a2acli" / "config.toml"
    glob.parent.mkdir(parents=True)
    monkeypatch.setenv("A2ACLI_GLOBAL_CONFIG", str(glob))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("A2ACLI_LOCAL_CONFIG")  # the suite turns discovery off; these tests are about it
    monkeypatch.chdir(deeper)
    return proj, deeper, glob


def show(cli, *args, env=None):
    result = cli("config", "show", "-o", "json", *args, env=env)
    assert result.exit_code == 0, result.stderr + result.stdout
    return json.loads(result.stdout)


def setting(cli, name, *args, env=None):
    got = show(cli, *args, env=env)["settings"][name]
    return got["value"], got["source"]


# -- every pair of the precedence order ------------------------------------------------------------

LEVELS = ["flag", "env", "local", "global", "default"]
VALUES = {"flag": "11", "env": "22", "local": "33", "global": "44"}


def _arrange(level, where, args, env):
    proj, _, glob = where
    if level == "flag":
        args += ["--timeout", VALUES["flag"]]
    elif level == "env":
        env["A2ACLI_TIMEOUT"] = VALUES["env"]
    elif level == "local":
        (proj / ".env").write_text(f"A2ACLI_TIMEOUT={VALUES['local']}\n")
    elif level == "global":
        glob.write_text(f"timeout = {VALUES['global']}\n")


def _expected_source(level, where):
    proj, _, glob = where
    return {"flag": "flag", "env": "env A2ACLI_TIMEOUT", "local": f"local {proj / '.env'}", "global": f"global {glob}", "default": "default"}[level]


@CONFIG_002
@pytest.mark.spec("A2ACLI_DEFAULT_001")
@pytest.mark.parametrize(("high", "low"), [(h, lo) for i, h in enumerate(LEVELS) for lo in LEVELS[i + 1 :]])
def test_every_pair_of_sources_the_higher_wins(cli, where, high, low):
    args: list[str] = []
    env: dict[str, str] = {}
    for level in (high, low):
        _arrange(level, where, args, env)
    value, source = setting(cli, "timeout", *args, env=env)
    assert source == _expected_source(high, where)
    assert (None if value is None else str(value).removesuffix(".0")) == VALUES.get(high)


@CONFIG_002
def test_each_level_alone_reaches_the_wire(cli, where, respx_mock):
    """url from a local .env, the version from the global file, a header from the local TOML: one call."""
    proj, _, glob = where
    respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes=ANY_CREDENTIAL))
    route = respx_mock.post(RPC).respond(json=rpc_result({"kind": "task", **TASK, "status": {"state": "completed"}}))
    (proj / ".env").write_text(f"A2ACLI_AGENT_CARD={AGENT}\n")
    (proj / ".a2acli.toml").write_text('[headers]\nX-Team = "qa"\n')
    glob.write_text('a2a-version = "0.3"\n')
    result = cli("tasks", "get", "task-7f3a9c")
    assert result.exit_code == 0, result.stderr
    req = route.calls.last.request
    assert req.headers["A2A-Version"] == "0.3" and req.headers["X-Team"] == "qa"
    assert json.loads(req.content)["method"] == "tasks/get"


# -- discovery ------------------------------------------------------------------------------------


@CONFIG_002
def test_the_search_goes_up_to_the_nearest_directory_with_a_file(cli, where):
    proj, deeper, _ = where
    (proj / ".env").write_text("A2ACLI_DIALECT=clix\n")
    assert setting(cli, "dialect") == ("clix", f"local {proj / '.env'}")
    # a nearer file hides the farther one entirely (nothing merges across directories)
    (deeper.parent / ".a2acli.toml").write_text("timeout = 9\n")
    got = show(cli)
    assert got["settings"]["dialect"]["source"] == "default"
    assert got["settings"]["timeout"] == {"value": "9", "source": f"local {deeper.parent / '.a2acli.toml'}", "file": str(deeper.parent / ".a2acli.toml"), "section": None}
    assert got["local"] == [{"path": str(deeper.parent / ".a2acli.toml"), "kind": "local", "format": "toml"}]


@CONFIG_002
def test_a_dotenv_without_a2acli_lines_is_someone_elses_and_the_search_goes_on(cli, where):
    proj, deeper, _ = where
    (proj / ".a2acli.toml").write_text('dialect = "clix"\n')
    (deeper / ".env").write_text("DATABASE_URL=postgres://x\n# A2ACLI_DIALECT=spec in a comment\n")
    assert setting(cli, "dialect") == ("clix", f"local {proj / '.a2acli.toml'}")


@CONFIG_002
def test_env_and_toml_in_one_directory_the_env_wins_key_by_key(cli, where):
    proj, _, _ = where
    (proj / ".a2acli.toml").write_text('dialect = "clix"\ntimeout = 5\n')
    (proj / ".env").write_text("A2ACLI_TIMEOUT=6\n")
    got = show(cli)["settings"]
    assert (got["timeout"]["value"], got["timeout"]["source"]) == ("6", f"local {proj / '.env'}")
    assert (got["dialect"]["value"], got["dialect"]["source"]) == ("clix", f"local {proj / '.a2acli.toml'}")


@CONFIG_002
def test_home_and_above_are_not_searched(cli, where, monkeypatch):
    proj, _, _ = where
    (proj / ".env").write_text("A2ACLI_DIALECT=clix\n")
    monkeypatch.setenv("HOME", str(proj))  # the project is $HOME: its files would be a second global config
    assert setting(cli, "dialect") == ("spec", "default")
    monkeypatch.setenv("HOME", str(proj / "sub"))  # the search stops at $HOME, before the project above it
    assert setting(cli, "dialect") == ("spec", "default")


@CONFIG_002
@pytest.mark.skipif(sys.platform == "win32" or os.getuid() != 0, reason="needs root to give a file to another user")
def test_a_local_file_of_another_user_is_skipped_with_a_warning(cli, where):
    proj, _, _ = where
    planted = proj / ".env"
    planted.write_text("A2ACLI_URL=http://evil.test\n")
    os.chown(planted, 4242, -1)
    result = cli("config", "show", "-o", "json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["settings"]["url"]["source"] == "default"
    assert f"ignoring {planted}: it belongs to another user (uid 4242)" in result.stderr


# -- --config FILE --------------------------------------------------------------------------------


@CONFIG_002
@pytest.mark.parametrize("before", [True, False])
def test_config_file_replaces_the_local_one_before_or_after_the_command(cli, where, tmp_path, before):
    proj, _, glob = where
    (proj / ".env").write_text("A2ACLI_DIALECT=clix\nA2ACLI_TIMEOUT=5\n")
    glob.write_text('output = "raw"\n')
    agent = tmp_path / "agent.env"
    agent.write_text("A2ACLI_TIMEOUT=8\n")
    argv = ["--config", str(agent), "config", "show", "-o", "json"] if before else ["config", "show", "-o", "json", "--config", str(agent)]
    result = cli(*argv)
    assert result.exit_code == 0, result.stderr
    got = json.loads(result.stdout)
    assert got["settings"]["timeout"]["value"] == "8" and got["settings"]["timeout"]["source"] == f"--config {agent}"
    assert got["settings"]["dialect"]["source"] == "default"  # the discovered .env is not read at all
    assert got["local"] == [{"path": str(agent), "kind": "--config", "format": "dotenv"}]
    # the global file still sits below it, and env vars above it
    assert show(cli, "--config", str(agent), env={"A2ACLI_TIMEOUT": "1"})["settings"]["timeout"]["source"] == "env A2ACLI_TIMEOUT"


@CONFIG_002
def test_config_file_in_toml_with_profiles_and_agents(cli, where, tmp_path):
    cfg = tmp_path / "team.toml"
    cfg.write_text(f'timeout = 3\ndefault-profile = "dev"\n[profiles.dev]\ndialect = "clix"\n[agents."{AGENT}"]\nbearer = "scoped-token-1234"\n')
    got = show(cli, "--config", str(cfg), "-u", AGENT)
    s = got["settings"]
    assert s["timeout"] == {"value": "3", "source": f"--config {cfg}", "file": str(cfg), "section": None}
    assert s["dialect"] == {"value": "clix", "source": f"profile dev (--config {cfg})", "file": str(cfg), "section": "profiles.dev"}
    assert s["bearer"] == {"value": "****1234", "source": f"agent {AGENT} (--config {cfg})", "file": str(cfg), "section": f'agents."{AGENT}"'}
    assert got["profile"] == "dev" and got["profileSource"] == f"default-profile (--config {cfg})"


@CONFIG_002
def test_the_format_is_told_from_the_content_when_the_name_does_not_say(cli, where, tmp_path):
    env_like = tmp_path / "agent.conf"
    env_like.write_text("# the staging agent\nexport A2ACLI_DIALECT=clix\n")
    toml_like = tmp_path / "agent.cfg"
    toml_like.write_text('# the staging agent\ndialect = "clix"\n')
    for f, fmt in ((env_like, "dotenv"), (toml_like, "toml")):
        got = show(cli, "--config", str(f))
        assert got["settings"]["dialect"]["value"] == "clix" and got["local"][0]["format"] == fmt


@CONFIG_002
def test_config_dev_null_reads_no_local_file(cli, where, tmp_path):
    proj, _, _ = where
    (proj / ".env").write_text("A2ACLI_DIALECT=clix\n")
    assert setting(cli, "dialect", "--config", os.devnull) == ("spec", "default")
    assert setting(cli, "dialect", env={"A2ACLI_LOCAL_CONFIG": os.devnull}) == ("spec", "default")
    other = tmp_path / "other.env"
    other.write_text("A2ACLI_DIALECT=clix\nA2ACLI_TIMEOUT=3\n")
    # A2ACLI_LOCAL_CONFIG is --config's variable: the flag wins over it
    assert setting(cli, "timeout", env={"A2ACLI_LOCAL_CONFIG": str(other)}) == ("3", f"--config {other}")
    assert setting(cli, "timeout", "--config", os.devnull, env={"A2ACLI_LOCAL_CONFIG": str(other)}) == (None, "default")


@pytest.mark.parametrize(("name", "needle"), [("missing.env", "no such file"), ("", "is a directory")])
def test_a_config_file_that_is_not_there_is_a_usage_error(cli, where, tmp_path, name, needle):
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--offline", "--config", str(tmp_path / name))
    assert result.exit_code == 2 and needle in result.stderr and "hint:" in result.stderr


# -- the .env format ------------------------------------------------------------------------------

DOTENV = r"""
# comments and blank lines

export A2ACLI_DIALECT=clix        # export, and a comment after the value
A2ACLI_TIMEOUT = "12"
A2ACLI_BEARER='tok$HOME#not-a-comment'
A2ACLI_API_KEY="k\"ey\\$(rm -rf ~)"
A2ACLI_DUMP=/tmp/with space
OTHER_TOOL=ignored
A2ACLI_BASIC=
not an assignment at all
MULTI="line one
line two"
"""


def test_dotenv_values_are_read_as_data_never_run(tmp_path):
    from a2acli import settings

    got = settings.parse_dotenv(tmp_path / ".env", DOTENV)
    assert got == {
        "A2ACLI_DIALECT": "clix",
        "A2ACLI_TIMEOUT": "12",
        "A2ACLI_BEARER": "tok$HOME#not-a-comment",
        "A2ACLI_API_KEY": 'k"ey\\$(rm -rf ~)',
        "A2ACLI_DUMP": "/tmp/with space",
        "A2ACLI_BASIC": "",
    }


@pytest.mark.parametrize("text", ['A2ACLI_URL="http://a.test\n', "A2ACLI_URL='http://a.test\n", 'A2ACLI_URL="http://a.test" trailing\n'])
def test_a_broken_a2acli_line_is_a_usage_error_naming_the_line(cli, where, text):
    proj, _, _ = where
    (proj / ".env").write_text("# first\n" + text)
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--offline")
    assert result.exit_code == 2 and f"{proj / '.env'} line 2" in result.stderr and "hint:" in result.stderr


@CONFIG_002
def test_the_spec_names_and_ours_both_read_from_a_dotenv(cli, where):
    proj, _, _ = where
    (proj / ".env").write_text(f"A2ACLI_AGENT_CARD={AGENT}\nA2ACLI_RPC_URL=http://agent.test/rpc\n")
    got = show(cli)["settings"]
    assert got["url"]["value"] == AGENT and got["endpoint"]["value"] == "http://agent.test/rpc"


def test_a_global_config_that_is_a_dotenv_is_read_and_never_rewritten(cli, tmp_path, monkeypatch):
    glob = tmp_path / "a2a.env"
    glob.write_text("A2ACLI_DIALECT=clix\n")
    monkeypatch.setenv("A2ACLI_GLOBAL_CONFIG", str(glob))
    assert setting(cli, "dialect") == ("clix", f"global {glob}")
    result = cli("config", "set", "timeout", "5")
    assert result.exit_code == 2 and "is a .env file" in result.stderr
    assert glob.read_text() == "A2ACLI_DIALECT=clix\n"


# -- agent scopes ----------------------------------------------------------------------------------

SCOPED = f"""\
default-profile = "base"
bearer = "top-level-token-0000"

[profiles.base]
bearer = "default-profile-token-1111"
url = "{AGENT}"

[profiles.admin]
bearer = "admin-token-2222"

[agents."{AGENT}"]
bearer = "agent-token-3333"
timeout = 30

[agents."{AGENT}/team2"]
timeout = 40

[agents."other.test"]
bearer = "other-token-4444"
"""


@CONFIG_002
def test_an_agent_scope_applies_when_the_url_matches_and_beats_the_default_profile(cli, where, respx_mock):
    _, _, glob = where
    glob.write_text(SCOPED)
    glob.chmod(0o600)
    respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes=ANY_CREDENTIAL))
    route = respx_mock.post(RPC).respond(json=rpc_result({"kind": "task", **TASK, "status": {"state": "completed"}}))
    result = cli("tasks", "get", "t-1")  # the url comes from the default profile; the scope follows it
    assert result.exit_code == 0, result.stderr
    assert route.calls.last.request.headers["Authorization"] == "Bearer agent-token-3333"
    got = show(cli)
    assert got["settings"]["bearer"]["source"] == f"agent {AGENT} (global {glob})" and got["settings"]["bearer"]["section"] == f'agents."{AGENT}"'
    assert got["agentScopes"] == [f"agent {AGENT} (global {glob})"]


@CONFIG_002
def test_a_profile_named_explicitly_beats_the_agent_scope(cli, where):
    _, _, glob = where
    glob.write_text(SCOPED)
    assert setting(cli, "bearer", "--profile", "admin", "-u", AGENT) == ("****2222", f"profile admin (global {glob})")
    assert setting(cli, "bearer", env={"A2ACLI_PROFILE": "admin", "A2ACLI_URL": AGENT})[1] == f"profile admin (global {glob})"
    # what the profile does not set still comes from the agent scope
    assert setting(cli, "timeout", "--profile", "admin", "-u", AGENT) == ("30", f"agent {AGENT} (global {glob})")


@CONFIG_002
@pytest.mark.parametrize(
    ("url", "bearer", "timeout"),
    [
        (AGENT, "agent-token-3333", "30"),
        (f"{AGENT}/.well-known/agent-card.json", "agent-token-3333", "30"),  # a card URL of that agent
        (f"{AGENT}/team2/card.json", "default-profile-token-1111", "40"),  # the longest matching key wins, alone
        ("http://AGENT.test:80/", "agent-token-3333", "30"),  # scheme, host case, default port
        ("https://agent.test", "default-profile-token-1111", None),  # another origin: no scope
        ("http://agent.test.evil.example", "default-profile-token-1111", None),
        ("https://other.test:8443/x", "other-token-4444", None),  # a key without a scheme: that host, any scheme and port
    ],
)
def test_how_an_agent_scope_matches(cli, where, url, bearer, timeout):
    _, _, glob = where
    glob.write_text(SCOPED)
    got = show(cli, "-u", url)["settings"]
    assert got["bearer"]["value"] == "****" + bearer[-4:]
    assert got["timeout"]["value"] == timeout


@pytest.mark.parametrize(
    ("key", "ref", "match"),
    [
        ("other.test", "other.test:9000", 0),  # a bare host:port agent (read as https://, issue 35)
        ("http://other.test:9000", "other.test:9000", None),
        ("https://other.test:9000", "other.test:9000", 0),
        ("http://127.0.0.1:9000", "127.0.0.1:9000", 0),  # loopback: http://
        ("https://localhost:9000", "localhost:9000", None),
        ("other.test:9000", "https://other.test:9000/a", 0),
        ("other.test:9000", "https://other.test:9001", None),
        ("https://a.test/team", "https://a.test/teams", None),  # a path matches whole segments
        ("https://a.test/team/", "https://a.test/team/x", 5),
        ("./card.json", "./card.json", 11),  # not a URL: itself only
        ("file:///srv/card.json", "file:///srv/other.json", None),
    ],
)
def test_agent_match(key, ref, match):
    from a2acli.settings import agent_match

    assert agent_match(key, ref) == match


def test_the_longest_scope_wins_but_only_one_scope_per_file_applies(cli, where):
    _, _, glob = where
    glob.write_text(SCOPED)
    got = show(cli, "-u", f"{AGENT}/team2")["settings"]
    # team2's scope has no bearer: the default profile's (the shorter scope is not merged in)
    assert got["timeout"]["source"] == f"agent {AGENT}/team2 (global {glob})"
    assert got["bearer"]["value"] == "****1111"


@CONFIG_002
def test_a_local_agent_scope_beats_the_global_one_and_a_scope_beats_its_own_file_only(cli, where):
    proj, _, glob = where
    glob.write_text(f'[agents."{AGENT}"]\nbearer = "global-scope-5555"\ndialect = "clix"\n')
    (proj / ".a2acli.toml").write_text(f'timeout = 7\n[agents."{AGENT}"]\nbearer = "local-scope-6666"\n')
    got = show(cli, "-u", AGENT)["settings"]
    assert got["bearer"]["value"] == "****6666" and got["bearer"]["source"] == f"agent {AGENT} (local {proj / '.a2acli.toml'})"
    assert got["dialect"]["source"] == f"agent {AGENT} (global {glob})"
    assert got["timeout"]["source"] == f"local {proj / '.a2acli.toml'}"
    # the url from a local .env chooses the global scope too
    (proj / ".env").write_text(f"A2ACLI_URL={AGENT}\n")
    assert show(cli)["settings"]["bearer"]["value"] == "****6666"


@CONFIG_002
def test_agent_scoped_headers_and_oauth_settings(cli, where):
    _, _, glob = where
    glob.write_text(f'[agents."{AGENT}".headers]\nX-Tenant = "acme"\n[agents."{AGENT}".auth]\ntoken-url = "https://idp.test/token"\nclient-id = "cli"\n')
    got = show(cli, "-u", AGENT)["settings"]
    label = f"agent {AGENT} (global {glob})"
    assert got["header.X-Tenant"]["value"] == "acme" and got["header.X-Tenant"]["source"] == label
    assert got["auth.client-id"]["source"] == label
    assert "header.X-Tenant" not in show(cli, "-u", "http://else.test")["settings"]


def test_an_agent_scope_cannot_set_the_url(cli, where):
    _, _, glob = where
    glob.write_text(f'[agents."{AGENT}"]\nurl = "http://elsewhere.test"\n')
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--offline")
    assert result.exit_code == 2 and "cannot change it" in result.stderr and "hint:" in result.stderr


def test_a_value_of_the_wrong_type_in_a_scope_names_file_and_key(cli, where):
    _, _, glob = where
    glob.write_text(f'[agents."{AGENT}"]\ntimeout = true\n')
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--offline")
    assert result.exit_code == 2 and f'agents."{AGENT}".timeout in the config file {glob} is a boolean' in result.stderr


# -- config show: read-only, every source named ----------------------------------------------------


@CONFIG_002
def test_config_show_text_names_the_files(cli, where):
    proj, _, glob = where
    glob.write_text('dialect = "clix"\n')
    (proj / ".env").write_text("A2ACLI_TIMEOUT=4\n")
    result = cli("config", "show", "--bearer", "flag-token-9999", env={"A2ACLI_OUTPUT": "text", "A2ACLI_A2A_VERSION": "0.3"})
    assert result.exit_code == 0, result.stderr
    rows = {line.split()[0]: line.split(None, 2)[2] for line in result.stdout.splitlines()}
    assert rows["timeout"] == f"local {proj / '.env'}"
    assert rows["dialect"] == f"global {glob}"
    assert rows["bearer"] == "flag" and rows["a2a-version"] == "env A2ACLI_A2A_VERSION" and rows["max-body"] == "default"
    assert f"local: {proj / '.env'} (.env)" in result.stderr


@pytest.mark.spec("A2ACLI_CONFIG_001")
def test_config_show_changes_nothing(cli, where):
    proj, _, glob = where
    glob.write_text('default-profile = "p"\n[profiles.p]\nurl = "http://a.test"\n')
    (proj / ".env").write_text("A2ACLI_TIMEOUT=4\n")
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in (glob, proj / ".env")}
    listing = sorted(str(p) for p in proj.parent.rglob("*"))
    for args in (["config", "show"], ["config", "show", "-o", "json"], ["config", "show", "--profile", "p", "--timeout", "9"]):
        assert cli(*args).exit_code == 0
    assert {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in before} == before
    assert sorted(str(p) for p in proj.parent.rglob("*")) == listing


# -- CONFIG_001: secrets not readable by others, no session state -----------------------------------


@pytest.mark.spec("A2ACLI_CONFIG_001")
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")
@pytest.mark.parametrize(
    ("name", "text", "held"),
    [
        (".env", "A2ACLI_BEARER=tok-abcdefgh\n", "A2ACLI_BEARER"),
        (".env", "A2ACLI_CLIENT_SECRET=s3cr3t-abcdefgh\n", "A2ACLI_CLIENT_SECRET"),
        (".a2acli.toml", '[agents."http://x.test"]\napi-key = "key-abcdefgh"\n', 'agents."http://x.test".api-key'),
        (".a2acli.toml", '[profiles.p.auth]\nclient-secret = "cs-abcdefgh"\n', "profiles.p.auth.client-secret"),
    ],
)
@pytest.mark.parametrize(("mode", "warned"), [(0o644, True), (0o604, True), (0o600, False)])
def test_a_local_file_with_a_secret_that_others_can_read_is_warned_about(cli, where, name, text, held, mode, warned):
    proj, _, _ = where
    f = proj / name
    f.write_text(text)
    f.chmod(mode)
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--offline")
    assert result.exit_code == 0, result.stderr
    assert (f"the config file {f} is readable by others" in result.stderr and held in result.stderr and f"chmod 600 {f}" in result.stderr) is warned
    assert "abcdefgh" not in result.stderr
    # the same file given with --config
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--offline", "--config", str(f))
    assert (f"chmod 600 {f}" in result.stderr) is warned


@pytest.mark.spec("A2ACLI_CONFIG_001")
def test_a_readable_file_without_secrets_is_not_warned_about(cli, where):
    proj, _, _ = where
    (proj / ".env").write_text(f"A2ACLI_URL={AGENT}\n")
    (proj / ".env").chmod(0o644)
    result = cli("tasks", "get", "t-1", "--offline", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["method"] == "GetTask"  # the file was read: its agent is the one called
    assert "readable by others" not in result.stderr


@pytest.mark.spec("A2ACLI_CONFIG_001", "A2ACLI_INTERACT_005")
def test_a_send_stores_no_task_or_context_id_anywhere(cli, where, respx_mock, tmp_path, monkeypatch):
    proj, _, glob = where
    monkeypatch.setenv("XDG_CONFIG_HOME", str(glob.parent.parent))
    cli("config", "set", "url", AGENT)  # a config file, and tokens.json beside it if anything wrote one
    (proj / ".env").write_text(f"A2ACLI_URL={AGENT}\n")
    respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes=ANY_CREDENTIAL))
    respx_mock.post(RPC).respond(json=rpc_result({"task": {**TASK}}))
    result = cli("send", "hello", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert TASK["id"] in result.stdout  # reported back to the caller...
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert glob in written
    for p in written:  # ...and kept nowhere
        text = p.read_text(errors="replace")
        assert TASK["id"] not in text and TASK["contextId"] not in text, p
    assert stat.S_IMODE(glob.stat().st_mode) == 0o600


@pytest.mark.spec("A2ACLI_CONFIG_001")
@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="the XDG layout")
def test_the_global_file_sits_at_the_conventional_path_and_the_user_can_edit_or_remove_it(cli, tmp_path, monkeypatch):
    monkeypatch.delenv("A2ACLI_GLOBAL_CONFIG")
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert cli("config", "path").stdout.strip() == str(tmp_path / ".config" / "a2acli" / "config.toml")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    path = tmp_path / "xdg" / "a2acli" / "config.toml"
    assert cli("config", "path").stdout.strip() == str(path)
    assert cli("config", "set", "timeout", "5").exit_code == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    path.write_text(path.read_text().replace("timeout = 5", "timeout = 6  # by hand"))  # edited by hand
    assert setting(cli, "timeout") == ("6", f"profile default (global {path})")
    path.unlink()  # removed by hand: the defaults again
    assert setting(cli, "timeout") == (None, "default")


@pytest.mark.spec("A2ACLI_CONFIG_002")
@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="the XDG layout")
def test_both_global_files_are_read_ours_first_and_a_disagreement_is_named(cli, where, monkeypatch, tmp_path):
    monkeypatch.delenv("A2ACLI_GLOBAL_CONFIG")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    spec_env = tmp_path / "xdg" / "a2a-cli" / ".env"
    spec_env.parent.mkdir(parents=True)
    spec_env.write_text("A2ACLI_TIMEOUT=77\nA2ACLI_A2A_VERSION=0.3\n")
    assert setting(cli, "timeout") == ("77", f"global {spec_env}")
    ours = tmp_path / "xdg" / "a2acli" / "config.toml"  # `config set` writes ours: the spec's file is still read
    assert cli("config", "set", "dialect", "clix").exit_code == 0 and ours.is_file()
    result = cli("config", "show", "-o", "json")
    got = json.loads(result.stdout)["settings"]
    assert (got["timeout"]["value"], got["timeout"]["source"]) == ("77", f"global {spec_env}")
    assert (got["a2a-version"]["value"], got["dialect"]["value"]) == ("0.3", "clix")  # one from each
    assert "disagree" not in result.stderr  # they set different things
    ours.write_text('timeout = 88\ndialect = "clix"\n')  # now both set timeout: ours wins, and it is said
    result = cli("config", "show", "-o", "json")
    got = json.loads(result.stdout)["settings"]["timeout"]
    assert (got["value"], got["source"]) == ("88", f"global {ours}")
    assert f"warning: the global config files disagree on timeout: {ours} is used over {spec_env}" in result.stderr
    ours.write_text("timeout = 77\n")  # the same value: nothing to say
    assert "disagree" not in cli("config", "show").stderr


@pytest.mark.spec("A2ACLI_CONFIG_002")
def test_a2acli_config_is_the_environment_form_of_config(cli, where, tmp_path):
    agent_a = tmp_path / "agentA.env"
    agent_a.write_text("A2ACLI_TIMEOUT=12\n")
    assert setting(cli, "timeout", env={"A2ACLI_CONFIG": str(agent_a)}) == ("12", f"--config {agent_a}")
    other = tmp_path / "other.env"
    other.write_text("A2ACLI_TIMEOUT=13\n")
    assert setting(cli, "timeout", "--config", str(other), env={"A2ACLI_CONFIG": str(agent_a)})[0] == "13"  # the flag wins
    missing = cli("config", "show", env={"A2ACLI_CONFIG": str(tmp_path / "nope.env")})
    assert missing.exit_code == 2 and "no such file" in missing.stderr
