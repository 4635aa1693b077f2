"""`a2a config`: the file (TOML, 0600), profiles, precedence flag > env > profile > default, masking."""

from __future__ import annotations

import json
import os
import re
import stat

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: the backport the package depends on there
    import tomli as tomllib

import pytest
from a2a_testkit import AGENT, RPC, rpc_result, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}


@pytest.fixture
def cfg(tmp_path, monkeypatch):
    """A config path in a directory that does not exist yet."""
    path = tmp_path / "home" / "a2acli" / "config.toml"
    monkeypatch.setenv("A2ACLI_GLOBAL_CONFIG", str(path))
    return path


def show(cli, *args, env=None, as_json=True):
    result = cli("config", "show", *(["-o", "json"] if as_json else []), *args, env=env)
    assert result.exit_code == 0, result.stderr + result.stdout
    if result.stdout.startswith("{"):  # -o json, or a profile / env that says json or raw
        return json.loads(result.stdout)
    rows = [line.split(None, 2) for line in result.stdout.splitlines()]
    return {"settings": {n: {"value": None if v == "-" else v, "source": src} for n, v, src in rows}}


def from_profile(name, cfg):
    """How `config show -o json` names a value from a profile of the global file."""
    return {"source": f"profile {name} (global {cfg})", "file": str(cfg), "section": f"profiles.{name}"}


@pytest.mark.spec("A2ACLI_CONFIG_001")
def test_set_writes_toml_0600_in_a_0700_directory(cli, cfg):
    result = cli("config", "set", "--profile", "local", "url", "http://127.0.0.1:41241")
    assert result.exit_code == 0, result.stderr
    assert "now the default profile" not in result.stderr  # --profile given: default-profile untouched
    assert stat.S_IMODE(cfg.stat().st_mode) == 0o600
    assert stat.S_IMODE(cfg.parent.stat().st_mode) == 0o700
    assert tomllib.loads(cfg.read_text()) == {"profiles": {"local": {"url": "http://127.0.0.1:41241"}}}


def test_a_profile_given_before_config_is_the_one_set_and_unset(cli, cfg):
    """`a2a --profile X config set|unset`: the root's --profile names the profile changed, as the
    command's own does (it went to the default profile)."""
    assert cli("--profile", "local", "config", "set", "url", AGENT).exit_code == 0
    assert cli("--profile", "local", "config", "set", "a2a-version", "0.3").exit_code == 0
    assert tomllib.loads(cfg.read_text())["profiles"] == {"local": {"url": AGENT, "a2a-version": "0.3"}}
    assert cli("--profile", "local", "config", "unset", "a2a-version").exit_code == 0
    assert tomllib.loads(cfg.read_text())["profiles"] == {"local": {"url": AGENT}}


def test_set_without_profile_makes_default_profile(cli, cfg):
    assert cli("config", "set", "url", AGENT).exit_code == 0
    data = tomllib.loads(cfg.read_text())
    assert data == {"default-profile": "default", "profiles": {"default": {"url": AGENT}}}
    # the next set goes to the default profile, and a call uses it
    assert cli("config", "set", "a2a-version", "v0").exit_code == 0
    assert tomllib.loads(cfg.read_text())["profiles"]["default"] == {"url": AGENT, "a2a-version": "0.3"}


def test_round_trip_of_awkward_values(cli, cfg):
    tricky = 'q"uo\\te\ttab'
    assert cli("config", "set", "--profile", "we ird.name", "header.X-Odd", tricky).exit_code == 0
    assert cli("config", "set", "--profile", "we ird.name", "timeout", "2.5").exit_code == 0
    assert cli("config", "set", "--profile", "we ird.name", "basic", "alice:p=ss#wörd\"✓").exit_code == 0
    data = tomllib.loads(cfg.read_text())
    prof = data["profiles"]["we ird.name"]
    assert prof["headers"]["X-Odd"] == tricky
    assert prof["timeout"] == 2.5 and isinstance(prof["timeout"], float)
    assert prof["basic"] == 'alice:p=ss#wörd"✓'
    # a header value travels as ASCII: refused when set, not an error on every later call
    refused = cli("config", "set", "--profile", "we ird.name", "header.X-Name", "héllo")
    assert refused.exit_code == 2 and "is not ASCII" in refused.stderr


def test_hand_written_keys_survive_a_rewrite(cli, cfg):
    cfg.parent.mkdir(parents=True)
    cfg.write_text('default-profile = "a"\n[profiles.a]\nurl = "http://a.test"\nfuture-key = [1, 2]\n[profiles.a.headers]\nX-Team = "qa"\n')
    assert cli("config", "set", "--profile", "a", "dialect", "clix").exit_code == 0
    assert tomllib.loads(cfg.read_text()) == {
        "default-profile": "a",
        "profiles": {"a": {"url": "http://a.test", "future-key": [1, 2], "dialect": "clix", "headers": {"X-Team": "qa"}}},
    }


@pytest.mark.parametrize(
    ("key", "value", "needle"),
    [
        ("colour", "blue", "unknown config key"),
        ("a2a-version", "2.0", "unknown A2A version"),
        ("output", "yaml", "unknown output mode"),
        ("dialect", "acme", "unknown dialect"),
        ("timeout", "-1", "no such option: -1"),  # `-- -1` reaches the check below
        ("timeout", "nan", "is not a duration"),
        ("timeout", "inf", "is not a duration"),
        ("timeout", "1e308", "is not a duration"),
        ("timeout", "true", "is not a duration"),
        ("url", "ftp://x", "not an http(s) URL"),
        ("basic", "no-colon", "USER:PASSWORD"),
        ("cacert", "/no/such/ca.pem", "no such file"),
        ("header.Bad Name", "x", "not a header name"),
        ("auth.colour", "x", "unknown auth key"),
        ("task-id", "t-1", "never kept"),
        ("context-id", "c-1", "never kept"),
    ],
)
def test_bad_keys_and_values_exit_2_with_a_hint(cli, cfg, key, value, needle):
    result = cli("config", "set", "--profile", "p", key, value)
    assert result.exit_code == 2
    assert needle in result.stderr and "hint:" in result.stderr
    assert not cfg.exists()  # nothing written


def test_default_profile_must_exist(cli, cfg):
    result = cli("config", "set", "default-profile", "nope")
    assert result.exit_code == 2 and "no profile 'nope'" in result.stderr
    cli("config", "set", "--profile", "yes", "url", AGENT)
    assert cli("config", "set", "default-profile", "yes").exit_code == 0
    assert tomllib.loads(cfg.read_text())["default-profile"] == "yes"
    assert cli("config", "unset", "default-profile").exit_code == 0
    assert "default-profile" not in tomllib.loads(cfg.read_text())


def test_unset(cli, cfg):
    cli("config", "set", "--profile", "p", "url", AGENT)
    cli("config", "set", "--profile", "p", "header.X-Team", "qa")
    assert cli("config", "unset", "--profile", "p", "header.x-team").exit_code == 0  # header names ignore case
    assert cli("config", "unset", "--profile", "p", "url").exit_code == 0
    assert tomllib.loads(cfg.read_text()) == {"profiles": {"p": {}}}
    again = cli("config", "unset", "--profile", "p", "url")
    assert again.exit_code == 0 and "was not set" in again.stderr
    assert cli("config", "unset", "--profile", "p", "colour").exit_code == 2
    assert cli("config", "unset", "--profile", "ghost", "url").exit_code == 2


def test_value_from_stdin(cli, cfg):
    result = cli("config", "set", "--profile", "p", "api-key", "-", input="from-stdin-key\n")
    assert result.exit_code == 0, result.stderr
    assert tomllib.loads(cfg.read_text())["profiles"]["p"]["api-key"] == "from-stdin-key"


def test_path(cli, cfg):
    result = cli("config", "path")
    assert result.exit_code == 0 and result.stdout.strip() == str(cfg)


def test_broken_file_is_exit_2(cli, cfg):
    cfg.parent.mkdir(parents=True)
    cfg.write_text("this is = = not toml")
    result = cli("config", "show")
    assert result.exit_code == 2 and "not valid TOML" in result.stderr


def test_refuses_to_replace_a_non_file(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("A2ACLI_GLOBAL_CONFIG", str(tmp_path))  # a directory
    result = cli("config", "set", "--profile", "p", "url", AGENT)
    assert result.exit_code == 2


# -- precedence: flag > env > profile > default -----------------------------------------------------


SAMPLES = {  # setting -> (profile value, env var, env value, flag, flag value)
    "url": ("http://profile.test", "A2ACLI_URL", "http://env.test", "--url", "http://flag.test"),
    "a2a-version": ("0.3", "A2ACLI_A2A_VERSION", "1.0", "--a2a-version", "0.3"),
    "dialect": ("clix", "A2ACLI_DIALECT", "spec", "--dialect", "clix"),
    "output": ("raw", "A2ACLI_OUTPUT", "json", "-o", "json"),
    "timeout": ("11", "A2ACLI_TIMEOUT", "22", "--timeout", "33"),
    "endpoint": ("http://p.test/rpc", "A2ACLI_ENDPOINT", "http://e.test/rpc", "--endpoint", "http://f.test/rpc"),
    "transport": ("rest", "A2ACLI_TRANSPORT", "jsonrpc", "--transport", "rest"),
}
DEFAULTS = {"url": None, "a2a-version": "1.0", "dialect": "spec", "output": "auto", "timeout": None, "endpoint": None, "transport": None}


@pytest.mark.spec("A2ACLI_CONFIG_002")
@pytest.mark.parametrize("name", list(SAMPLES))
def test_precedence_of_every_source(cli, cfg, name):
    pval, env, eval_, flag, fval = SAMPLES[name]
    plain = name != "output"  # for output, -o json would itself be the flag
    got = show(cli, as_json=plain)["settings"][name]
    assert got == {"value": DEFAULTS[name], "source": "default"}
    cli("config", "set", "--profile", "p", name, pval)
    cli("config", "set", "default-profile", "p")
    got = show(cli, as_json=plain)["settings"][name]
    assert got["source"] == f"profile p (global {cfg})" and str(got["value"]).removesuffix(".0") == pval
    got = show(cli, env={env: eval_}, as_json=plain)["settings"][name]
    assert got == {"value": eval_, "source": f"env {env}"}
    got = show(cli, flag, fval, env={env: eval_}, as_json=plain)["settings"][name]
    assert got["source"] == "flag" and str(got["value"]).removesuffix(".0") == fval


def test_the_old_rpc_url_names_still_set_the_endpoint(cli, cfg):
    """`--rpc-url`, A2ACLI_RPC_URL and a profile's `rpc-url` key are the endpoint's old names."""
    cli("config", "set", "--profile", "p", "rpc-url", "http://p.test/rpc")
    cli("config", "set", "default-profile", "p")
    assert show(cli)["settings"]["endpoint"] == {"value": "http://p.test/rpc", **from_profile("p", cfg)}
    assert show(cli, env={"A2ACLI_RPC_URL": "http://e.test/rpc"})["settings"]["endpoint"] == {"value": "http://e.test/rpc", "source": "env A2ACLI_RPC_URL"}
    assert show(cli, "--rpc-url", "http://f.test/rpc")["settings"]["endpoint"] == {"value": "http://f.test/rpc", "source": "flag"}


def test_a_transport_the_cli_does_not_know_is_refused(cli, cfg):
    result = cli("config", "set", "transport", "carrier-pigeon")
    assert result.exit_code == 2 and "unknown transport 'carrier-pigeon'" in result.stderr


def test_profile_selection_flag_env_default(cli, cfg):
    for p in ("a", "b", "c"):
        cli("config", "set", "--profile", p, "url", f"http://{p}.test")
    cli("config", "set", "default-profile", "a")
    assert show(cli)["profile"] == "a" and show(cli)["profileSource"] == f"default-profile (global {cfg})"
    assert show(cli, env={"A2ACLI_PROFILE": "b"})["settings"]["url"]["value"] == "http://b.test"
    got = show(cli, "--profile", "c", env={"A2ACLI_PROFILE": "b"})
    assert got["settings"]["url"] == {"value": "http://c.test", **from_profile("c", cfg)} and got["profileSource"] == "flag"
    # before the subcommand too
    result = cli("--profile", "c", "config", "show", "-o", "json")
    assert json.loads(result.stdout)["profile"] == "c"
    missing = cli("config", "show", "--profile", "zzz")
    assert missing.exit_code == 2 and "no profile 'zzz'" in missing.stderr


def test_profile_reaches_the_wire_and_flags_win(cli, cfg, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    route = respx_mock.post(RPC).respond(json=rpc_result({"kind": "task", **TASK, "status": {"state": "completed"}}))
    cli("config", "set", "--profile", "p", "url", AGENT)
    cli("config", "set", "--profile", "p", "a2a-version", "0.3")
    cli("config", "set", "--profile", "p", "header.X-Team", "qa")
    result = cli("tasks", "get", "t-1", "--profile", "p")
    assert result.exit_code == 0, result.stderr
    req = route.calls.last.request
    assert req.headers["A2A-Version"] == "0.3" and req.headers["X-Team"] == "qa"
    assert json.loads(req.content)["method"] == "tasks/get"
    route.respond(json=rpc_result(TASK))
    result = cli("tasks", "get", "t-1", "--profile", "p", env={"A2ACLI_A2A_VERSION": "1.0"})
    assert result.exit_code == 0, result.stderr
    assert json.loads(route.calls.last.request.content)["method"] == "GetTask"
    result = cli("tasks", "get", "t-1", "--profile", "p", "-H", "X-Team: flag", "--a2a-version", "1.0", env={"A2ACLI_A2A_VERSION": "0.3"})
    assert result.exit_code == 0, result.stderr
    assert route.calls.last.request.headers["X-Team"] == "flag"
    assert json.loads(route.calls.last.request.content)["method"] == "GetTask"


def test_bad_value_in_the_profile_is_exit_2(cli, cfg):
    cfg.parent.mkdir(parents=True)
    cfg.write_text('[profiles.p]\na2a-version = "9.9"\n')
    result = cli("tasks", "get", "t-1", "--profile", "p", "-u", AGENT, "--offline")
    assert result.exit_code == 2 and "9.9" in result.stderr and "hint:" in result.stderr


# -- masking ----------------------------------------------------------------------------------------


@pytest.mark.spec("A2ACLI_CONFIG_001")
def test_show_masks_secrets(cli, cfg):
    cli("config", "set", "--profile", "p", "api-key", "api-key-0123456789")
    cli("config", "set", "--profile", "p", "header.Authorization", "Token header-secret-abcd")
    cli("config", "set", "--profile", "p", "auth.client-secret", "client-secret-wxyz")
    cli("config", "set", "--profile", "p", "basic", "alice:basic-pass-5555")
    env = {"A2ACLI_BEARER": "bearer-token-9876"}
    result = cli("config", "show", "--profile", "p", env=env)
    assert result.exit_code == 0, result.stderr
    got = cli("config", "show", "--profile", "p", "-o", "json", env=env)
    for text in (result.stdout + result.stderr, got.stdout):
        for secret in ("api-key-0123456789", "bearer-token-9876", "basic-pass-5555", "header-secret-abcd", "client-secret-wxyz"):
            assert secret not in text
    s = json.loads(got.stdout)["settings"]
    assert s["api-key"] == {"value": "****6789", **from_profile("p", cfg)}
    assert s["bearer"] == {"value": "****9876", "source": "env A2ACLI_BEARER"}
    assert s["basic"] == {"value": "alice:****555", **from_profile("p", cfg)}  # the user shows; at most a quarter of the password
    assert s["header.Authorization"]["value"] == "****abcd"
    assert s["auth.client-secret"]["value"] == "****wxyz"
    assert "****6789" in result.stdout


@pytest.mark.parametrize(("secret", "shown"), [("", ""), ("abc", "****"), ("sekret", "****t"), ("supersecret", "****et"), ("a-very-long-secret-value", "****alue")])
def test_mask_shows_at_most_four(secret, shown):
    from a2acli.redact import mask

    assert mask(secret) == shown


@pytest.mark.spec("A2ACLI_CONFIG_002")
def test_show_text_lists_every_setting(cli, cfg):
    result = cli("config", "show")
    assert result.exit_code == 0
    from a2acli.settings import SETTINGS

    names = [line.split()[0] for line in result.stdout.splitlines()]
    assert names == list(SETTINGS)
    assert re.search(r"a2a-version +1.0", result.stdout) and "default" in result.stdout
    assert f"config: {cfg} (not there yet)" in result.stderr


def test_config_does_not_run_on_import_of_secrets(cli, cfg):
    """A secret given only in the environment never lands in the file."""
    cli("config", "set", "--profile", "p", "url", AGENT, env={"A2ACLI_API_KEY": "env-only-secret"})
    assert "env-only-secret" not in cfg.read_text()
    assert os.stat(cfg).st_mode & 0o077 == 0


# -- the file keeps what the user wrote ---------------------------------------------------------------

# Comments, odd spacing, a literal string, a quoted key, dotted keys, an inline table, unicode.
HAND_WRITTEN = """\
# my agents: ünïcode in a comment
default-profile = "local"   # the one I use

[profiles]
dev.url = "http://dev.test"  # dotted keys
dev.timeout = 2.5

[profiles.local]
# the dev box
url = 'http://127.0.0.1:41241'
timeout   =   30  # seconds
"a2a-version"="0.3"

[profiles.local.headers]
X-Team = "qa"   # team

[profiles.prod]
url = "https://prod.example"  # prod
headers = { X-Team = "ops" }
auth = {token-url="https://idp.test/token", client-id="cli"}
tls.verify = true

[profiles."wé ird"]
url = "http://ü.example"    # ünïcode
"""


def changed_lines(before: str, after: str) -> tuple[list[str], list[str]]:
    """(lines removed, lines added) from `before` to `after`; every other line is the same, in order."""
    import difflib

    a, b = before.splitlines(keepends=True), after.splitlines(keepends=True)
    removed: list[str] = []
    added: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op != "equal":
            removed += a[i1:i2]
            added += b[j1:j2]
    return removed, added


ROUND_TRIPS = {  # command -> (lines removed, lines added): nothing else in the file moves
    "set an integer, spacing and comment kept": (["config", "set", "--profile", "local", "timeout", "45"], ["timeout   =   30  # seconds\n"], ["timeout   =   45  # seconds\n"]),
    "set a float": (["config", "set", "--profile", "local", "timeout", "2.5"], ["timeout   =   30  # seconds\n"], ["timeout   =   2.5  # seconds\n"]),
    "set a literal string stays literal": (["config", "set", "--profile", "local", "url", "http://x.test"], ["url = 'http://127.0.0.1:41241'\n"], ["url = 'http://x.test'\n"]),
    "set a quoted key": (["config", "set", "--profile", "local", "a2a-version", "1.0"], ['"a2a-version"="0.3"\n'], ['"a2a-version"="1.0"\n']),
    "add a key to a table": (["config", "set", "--profile", "local", "dialect", "clix"], [], ['dialect = "clix"\n']),
    "add a header to a header table": (["config", "set", "--profile", "local", "header.X-Other", "o"], [], ['X-Other = "o"\n']),
    "change a header, case of its name kept": (["config", "set", "--profile", "local", "header.X-Team", "dev"], ['X-Team = "qa"   # team\n'], ['X-Team = "dev"   # team\n']),
    "add to an inline table": (["config", "set", "--profile", "prod", "header.X-New", "n"], ['headers = { X-Team = "ops" }\n'], ['headers = { X-Team = "ops", X-New = "n" }\n']),
    "add to a compact inline table": (
        ["config", "set", "--profile", "prod", "auth.scope", "a2a.read"],
        ['auth = {token-url="https://idp.test/token", client-id="cli"}\n'],
        ['auth = {token-url="https://idp.test/token", client-id="cli", scope="a2a.read"}\n'],
    ),
    "remove from an inline table": (["config", "unset", "--profile", "prod", "auth.client-id"], ['auth = {token-url="https://idp.test/token", client-id="cli"}\n'], ['auth = {token-url="https://idp.test/token"}\n']),
    "set a dotted key": (["config", "set", "--profile", "dev", "timeout", "5"], ["dev.timeout = 2.5\n"], ["dev.timeout = 5\n"]),
    "add to a profile of dotted keys": (["config", "set", "--profile", "dev", "header.X-Team", "qa"], [], ['dev.headers.X-Team = "qa"\n']),
    "set in a unicode profile": (["config", "set", "--profile", "wé ird", "url", "http://ö.example"], ['url = "http://ü.example"    # ünïcode\n'], ['url = "http://ö.example"    # ünïcode\n']),
    "change a value in an inline table": (["config", "set", "--profile", "prod", "header.X-Team", "dev"], ['headers = { X-Team = "ops" }\n'], ['headers = { X-Team = "dev" }\n']),
    "a new profile goes at the end": (["config", "set", "--profile", "new", "url", "http://n.test"], [], ["\n", "[profiles.new]\n", 'url = "http://n.test"\n']),
    "a new sub-table keeps the blank line before the next table": (["config", "set", "--profile", "local", "auth.client-id", "cli"], [], ["[profiles.local.auth]\n", 'client-id = "cli"\n', "\n"]),
    "a new sub-table at the end": (["config", "set", "--profile", "wé ird", "auth.client-id", "cli"], [], ["\n", '[profiles."wé ird".auth]\n', 'client-id = "cli"\n']),
    "unset a key": (["config", "unset", "--profile", "local", "timeout"], ["timeout   =   30  # seconds\n"], []),
    "unset the last header drops its table": (["config", "unset", "--profile", "local", "header.x-team"], ["[profiles.local.headers]\n", 'X-Team = "qa"   # team\n', "\n"], []),
    "unset a dotted key": (["config", "unset", "--profile", "dev", "timeout"], ["dev.timeout = 2.5\n"], []),
    "use another profile": (["config", "set", "default-profile", "prod"], ['default-profile = "local"   # the one I use\n'], ['default-profile = "prod"   # the one I use\n']),
    "unset the default profile": (["config", "unset", "default-profile"], ['default-profile = "local"   # the one I use\n'], []),
}


@pytest.mark.parametrize("case", list(ROUND_TRIPS))
def test_a_hand_written_file_keeps_everything_but_the_change(cli, cfg, case):
    args, removed, added = ROUND_TRIPS[case]
    cfg.parent.mkdir(parents=True)
    cfg.write_text(HAND_WRITTEN, encoding="utf-8")
    result = cli(*args)
    assert result.exit_code == 0, result.stderr
    after = cfg.read_text(encoding="utf-8")
    assert changed_lines(HAND_WRITTEN, after) == (removed, added)
    assert after.endswith("\n") and stat.S_IMODE(cfg.stat().st_mode) == 0o600
    assert "comments are not kept" not in after


def test_the_issue_case_comments_stay_and_30_stays_an_integer(cli, cfg):
    cfg.parent.mkdir(parents=True)
    cfg.write_text('# my agents\n[profiles.local]\n# the dev box\nurl = "http://127.0.0.1:41241"\n')
    assert cli("config", "set", "--profile", "local", "timeout", "30").exit_code == 0
    assert cfg.read_text() == '# my agents\n[profiles.local]\n# the dev box\nurl = "http://127.0.0.1:41241"\ntimeout = 30\n'
    assert tomllib.loads(cfg.read_text())["profiles"]["local"]["timeout"] == 30
    assert show(cli, "--profile", "local")["settings"]["timeout"] == {"value": "30", **from_profile("local", cfg)}  # not 30.0


def test_a_new_file_is_laid_out_in_tables(cli, cfg):
    assert cli("config", "set", "url", AGENT).exit_code == 0
    assert cli("config", "set", "timeout", "30").exit_code == 0
    assert cli("config", "set", "--profile", "prod", "header.X-Team", "ops").exit_code == 0
    assert cfg.read_text() == f'default-profile = "default"\n\n[profiles.default]\nurl = "{AGENT}"\ntimeout = 30\n\n[profiles.prod.headers]\nX-Team = "ops"\n'


def test_setting_the_same_value_again_leaves_the_file_alone(cli, cfg):
    cfg.parent.mkdir(parents=True)
    cfg.write_text("[profiles.p]\nurl = 'http://a.test'\n")
    before = cfg.stat().st_mtime_ns, cfg.stat().st_ino
    assert cli("config", "set", "--profile", "p", "url", "http://a.test").exit_code == 0
    assert (cfg.stat().st_mtime_ns, cfg.stat().st_ino) == before


def test_line_ends_and_the_last_newline(cli, cfg):
    cfg.parent.mkdir(parents=True)
    cfg.write_bytes(b'# windows\r\n[profiles.p]\r\nurl = "http://a.test"\r\n')
    assert cli("config", "set", "--profile", "p", "dialect", "clix").exit_code == 0
    assert cfg.read_bytes() == b'# windows\r\n[profiles.p]\r\nurl = "http://a.test"\r\ndialect = "clix"\r\n'
    cfg.write_bytes(b'[profiles.p]\nurl = "http://a.test"')  # no newline at the end: one now
    assert cli("config", "set", "--profile", "p", "url", "http://b.test").exit_code == 0
    assert cfg.read_bytes() == b'[profiles.p]\nurl = "http://b.test"\n'


def test_a_comment_left_in_an_emptied_table_keeps_the_table(cli, cfg):
    cfg.parent.mkdir(parents=True)
    cfg.write_text('[profiles.p]\nurl = "http://a.test"\n\n[profiles.p.headers]\n# ask ops for the team name\nX-Team = "qa"\n')
    assert cli("config", "unset", "--profile", "p", "header.X-Team").exit_code == 0
    assert cfg.read_text() == '[profiles.p]\nurl = "http://a.test"\n\n[profiles.p.headers]\n# ask ops for the team name\n'


def test_endpoint_replaces_its_old_name_rpc_url(cli, cfg):
    cfg.parent.mkdir(parents=True)
    cfg.write_text('[profiles.p]\nurl = "http://a.test"\nrpc-url = "http://a.test/old"\n')
    assert cli("config", "set", "--profile", "p", "endpoint", "http://a.test/new").exit_code == 0
    assert cfg.read_text() == '[profiles.p]\nurl = "http://a.test"\nendpoint = "http://a.test/new"\n'
    cfg.write_text('[profiles.p]\nurl = "http://a.test"\nrpc-url = "http://a.test/old"\n')
    result = cli("config", "unset", "--profile", "p", "endpoint")  # was "not set" while rpc-url still set it
    assert result.exit_code == 0 and "endpoint unset" in result.stderr
    assert cfg.read_text() == '[profiles.p]\nurl = "http://a.test"\n'


def test_a_value_where_a_table_belongs_is_refused(cli, cfg):
    cfg.parent.mkdir(parents=True)
    cfg.write_text('[profiles.p]\nheaders = "X-Team: qa"\n')
    result = cli("config", "set", "--profile", "p", "header.X-Team", "qa")
    assert result.exit_code == 2 and "profiles.p.headers" in result.stderr and "not a table" in result.stderr
    assert cfg.read_text() == '[profiles.p]\nheaders = "X-Team: qa"\n'


# -- writing safely -------------------------------------------------------------------------------------


def test_an_interrupted_write_leaves_the_old_file_whole_and_no_temporary_file(cli, cfg, monkeypatch):
    cfg.parent.mkdir(parents=True)
    cfg.write_text(HAND_WRITTEN, encoding="utf-8")
    cfg.chmod(0o600)

    def disk_full(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    result = cli("config", "set", "--profile", "local", "timeout", "45")
    assert result.exit_code == 2 and "cannot write" in result.stderr and "No space left on device" in result.stderr
    assert cfg.read_text(encoding="utf-8") == HAND_WRITTEN
    assert sorted(p.name for p in cfg.parent.iterdir()) == ["config.toml"]


def test_ctrl_c_while_writing_leaves_the_old_file_whole(cli, cfg, monkeypatch):
    cfg.parent.mkdir(parents=True)
    cfg.write_text(HAND_WRITTEN, encoding="utf-8")

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    result = cli("config", "set", "--profile", "local", "timeout", "45")
    assert result.exit_code == 130
    assert cfg.read_text(encoding="utf-8") == HAND_WRITTEN
    assert sorted(p.name for p in cfg.parent.iterdir()) == ["config.toml"]


def test_a_rewritten_file_is_0600_whatever_it_was(cli, cfg):
    cfg.parent.mkdir(parents=True)
    cfg.write_text('[profiles.p]\nurl = "http://a.test"\n')
    cfg.chmod(0o644)
    assert cli("config", "set", "--profile", "p", "dialect", "clix").exit_code == 0
    assert stat.S_IMODE(cfg.stat().st_mode) == 0o600


def test_a_symlinked_config_stays_a_link(cli, tmp_path, monkeypatch):
    """A config kept in a dotfiles checkout and linked into place: the file it points to changes."""
    real = tmp_path / "dotfiles" / "a2a.toml"
    real.parent.mkdir()
    real.write_text('[profiles.p]\nurl = "http://a.test"  # mine\n')
    link = tmp_path / "config.toml"
    link.symlink_to(real)
    monkeypatch.setenv("A2ACLI_GLOBAL_CONFIG", str(link))
    assert cli("config", "set", "--profile", "p", "dialect", "clix").exit_code == 0
    assert link.is_symlink()
    assert real.read_text() == '[profiles.p]\nurl = "http://a.test"  # mine\ndialect = "clix"\n'


def test_a_change_that_would_not_read_back_is_not_written(cli, cfg, monkeypatch):
    """The new text must read back (tomllib) as exactly the intended settings before it replaces the file."""
    from a2acli.settings import editing

    cfg.parent.mkdir(parents=True)
    cfg.write_text(HAND_WRITTEN, encoding="utf-8")
    monkeypatch.setattr(editing, "_line_ends", lambda out, before: out.replace("timeout   =   45", "timeout   =   46"))
    result = cli("config", "set", "--profile", "local", "timeout", "45")
    assert result.exit_code == 2 and "make it by hand" in result.stderr
    assert cfg.read_text(encoding="utf-8") == HAND_WRITTEN


# -- a file that is not valid TOML ----------------------------------------------------------------------

BROKEN = '# mine\n[profiles.p]\nurl = "http://a.test"\ntimeout = = 30\n'


@pytest.mark.parametrize(
    "args",
    [
        ["config", "set", "--profile", "p", "timeout", "45"],
        ["config", "set", "default-profile", "p"],
        ["config", "unset", "--profile", "p", "url"],
    ],
)
def test_a_broken_file_is_never_rewritten(cli, cfg, args):
    cfg.parent.mkdir(parents=True)
    cfg.write_text(BROKEN)
    result = cli(*args)
    assert result.exit_code == 2
    assert f"the config file {cfg} is not valid TOML: line 4, column 11:" in result.stderr
    assert "the file was not changed" in result.stderr and "fix line 4 by hand" in result.stderr
    assert cfg.read_text() == BROKEN


@pytest.mark.parametrize("args", [["config", "show"], ["tasks", "get", "t-1", "-u", AGENT, "--offline"], ["auth", "status"]])
def test_other_commands_name_the_file_and_the_line(cli, cfg, args):
    cfg.parent.mkdir(parents=True)
    cfg.write_text(BROKEN)
    result = cli(*args)
    assert result.exit_code == 2
    assert f"the config file {cfg} is not valid TOML: line 4, column 11:" in result.stderr and "hint: fix line 4" in result.stderr


def test_a_file_that_is_not_utf8_is_named_with_its_line(cli, cfg):
    cfg.parent.mkdir(parents=True)
    cfg.write_bytes(b'[profiles.p]\nurl = "http://caf\xe9.test"\n')
    result = cli("config", "set", "--profile", "p", "timeout", "45")
    assert result.exit_code == 2 and "line 2, column 18: not UTF-8 text" in result.stderr
    assert cfg.read_bytes() == b'[profiles.p]\nurl = "http://caf\xe9.test"\n'


# -- what a plain command loads -------------------------------------------------------------------------


def test_only_the_writing_commands_import_tomlkit(tmp_path):
    """Reading stays on tomllib (cheaper at start-up): tomlkit is for changing the file."""
    import subprocess
    import sys

    path = tmp_path / "config.toml"
    path.write_text('default-profile = "p"\n[profiles.p]\nurl = "http://a.test"\n')
    code = (
        "import sys\n"
        "from a2acli.main import run\n"
        "try:\n    run()\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
        "print('TOMLKIT', 'tomlkit' in sys.modules, file=sys.stderr)\n"
    )
    env = {**os.environ, "A2ACLI_GLOBAL_CONFIG": str(path)}
    for argv, loaded in ((["config", "show"], False), (["tasks", "get", "t-1", "--offline"], False), (["config", "set", "dialect", "clix"], True)):
        proc = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, env=env, timeout=60)
        assert f"TOMLKIT {loaded}" in proc.stderr, (argv, proc.stderr)


def test_the_config_show_sample_of_the_guide_is_what_config_show_prints(cli, tmp_path, monkeypatch):
    """Issue 46: the guide's `config show` sample had a 13-wide key column and no `catalog` or
    `dialect` row; built again here (the project's .env, a profile, an agent scope, a key in the
    environment), its lines are the first ones printed, paths as the guide's."""
    import re
    from pathlib import Path

    home = tmp_path / "me"
    (home / "src" / "shop" / "api").mkdir(parents=True)
    (home / ".config" / "a2acli").mkdir(parents=True)
    (home / "src" / "shop" / ".env").write_text("A2ACLI_URL=http://127.0.0.1:41241\n")
    config = home / ".config" / "a2acli" / "config.toml"
    config.write_text('default-profile = "local"\n\n[profiles.local]\ntimeout = 30\n\n[agents."http://127.0.0.1:41241"]\na2a-version = "0.3"\n')
    monkeypatch.delenv("A2ACLI_LOCAL_CONFIG", raising=False)
    monkeypatch.setenv("A2ACLI_GLOBAL_CONFIG", str(config))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(home / "src" / "shop" / "api")
    result = cli("config", "show", env={"A2ACLI_API_KEY": "mysecretkey"})
    assert result.exit_code == 0, result.stderr
    printed = (result.stderr + result.stdout).replace(str(home), "/home/me").splitlines()  # (where from: stderr)
    guide = (Path(__file__).resolve().parents[2] / "docs" / "guide.md").read_text()
    sample = re.search(r"```text\n\$ cd ~/src/shop/api && a2a config show\n(.*?)\.\.\.\n```", guide, re.S)
    assert sample
    shown = sample.group(1).splitlines()
    assert printed[: len(shown)] == shown
