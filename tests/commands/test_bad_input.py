"""Issue 14, sections 5 and 6: nothing a user types is an internal error. Each bad input below is
a usage error (exit 2) on one `error:` line (and its hint), from the flag, the environment and
a profile alike; timeouts have one meaning everywhere."""

from __future__ import annotations

import json
import os

import pytest
from a2a_testkit import AGENT

NOT_OURS = ("Traceback", "internal error")


def assert_usage(result, *needles: str) -> None:
    text = result.stdout + result.stderr
    assert result.exit_code == 2, text
    assert not any(n in text for n in NOT_OURS), text
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "\n" not in errors[0], result.stderr
    for n in needles:
        assert n in errors[0], errors[0]


@pytest.fixture
def cfg(tmp_path, monkeypatch):
    path = tmp_path / "config.toml"
    path.write_text("")
    path.chmod(0o600)
    monkeypatch.setenv("A2ACLI_GLOBAL_CONFIG", str(path))
    return path


BAD_URLS = {
    "http://[::1/": "invalid IPv6 URL",
    "http://host:abc/": "port",
    "http://host:99999/": "port",
    "http://host:0/": "port",
    "http://a..b/": "not a host name",
    "http://a\r\nb/": "line break",
    "http://" + "a" * 100_000 + "/": "characters long",
    "ftp://host/": "is not an http(s) URL",
    "http:///path": "no host",
}


@pytest.mark.parametrize("url", list(BAD_URLS), ids=lambda u: u[:20])
@pytest.mark.parametrize("flag", ["-u", "--endpoint", "--rpc-url"])
def test_malformed_urls_are_usage_errors(cli, flag, url):
    result = cli("tasks", "get", "t-1", flag, url, "--offline")
    assert_usage(result, BAD_URLS[url])
    assert len(result.stderr) < 1000  # a 100 KB URL is not echoed whole


def test_a_bad_url_from_the_environment_or_a_profile_says_where_it_came_from(cli, cfg):
    assert_usage(cli("tasks", "get", "t-1", "--offline", env={"A2ACLI_URL": "http://[::1/"}), "env A2ACLI_URL")
    cfg.write_text('[profiles.p]\nendpoint = "http://a..b/rpc"\n')
    assert_usage(cli("tasks", "get", "t-1", "--offline", "--profile", "p"), "profile p")


def test_an_endpoint_must_be_http_but_grpc_takes_host_port(cli):
    assert_usage(cli("tasks", "get", "t-1", "--endpoint", "host:50051", "--offline"), "not an http(s) URL")
    ok = cli("tasks", "get", "t-1", "--endpoint", "127.0.0.1:50051", "--transport", "grpc", "--offline")
    assert ok.exit_code == 0, ok.stderr
    for good in ("http://[::1]:8080/rpc", "https://agent.example/a2a", "http://localhost./rpc"):
        assert cli("tasks", "get", "t-1", "--endpoint", good, "--offline").exit_code == 0, good


def test_invalid_utf8_in_argv(cli):
    assert_usage(cli("send", "caf\udce9", "--endpoint", f"{AGENT}/rpc", "--offline"), "argument 2 is not valid UTF-8")
    as_json = cli("send", "\udcff", "--endpoint", f"{AGENT}/rpc", "-o", "json")
    assert as_json.exit_code == 2 and json.loads(as_json.stdout)["error"]["code"] == "A2ACLI_ERR_USAGE"


@pytest.mark.parametrize("flag", ["--bearer", "--api-key"])
@pytest.mark.parametrize("value", ["tökén", "tok\nen", "tok\x01en"])
def test_non_ascii_or_control_credentials(cli, flag, value):
    result = cli("tasks", "get", "t-1", "--endpoint", f"{AGENT}/rpc", flag, value, "--offline")
    assert_usage(result, flag, "not shown")
    assert value not in result.stderr


def test_non_ascii_basic_credentials_are_fine(cli):
    assert cli("tasks", "get", "t-1", "--endpoint", f"{AGENT}/rpc", "--basic", "jörg:pässwort", "--offline").exit_code == 0


@pytest.mark.parametrize(("header", "needle"), [
    ("X-A: b\r\nInjected: yes", "line break"),
    ("X-A: b\nc", "line break"),
    ("X-A: b\x01c", "control character"),
    ("X(A: b", "not a header name"),
    ("X A: b", "is not 'Name: value'"),
    ("X-A: tökén", "not ASCII"),
])
def test_bad_headers_are_usage_errors_not_exit_3(cli, header, needle):
    assert_usage(cli("tasks", "get", "t-1", "--endpoint", f"{AGENT}/rpc", "-H", header, "--offline"), needle)


@pytest.mark.parametrize(("name", "shown"), [("X\\Y", "'X\\Y'"), ("X\x01Y", "'X\\x01Y'"), ("Xé", "'Xé'")])
def test_a_bad_header_name_is_quoted_once(cli, name, shown):
    """Issue 42: `X\\Y` was shown with its backslash doubled (escaped, then repr'd)."""
    result = cli("tasks", "get", "t-1", "--endpoint", f"{AGENT}/rpc", "-H", f"{name}: v", "--offline")
    assert_usage(result, f"-H: {shown} is not a header name")


def test_a_bad_profile_header_is_a_usage_error(cli, cfg):
    cfg.write_text('[profiles.p.headers]\n"X-A" = "b\\r\\nInjected: yes"\n')
    assert_usage(cli("tasks", "get", "t-1", "--endpoint", f"{AGENT}/rpc", "--profile", "p", "--offline"), "header.X-A", "line break")


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "[1, NaN]"])
def test_json_fields_are_json(cli, value):
    assert_usage(cli("send", "hi", "--endpoint", f"{AGENT}/rpc", "-f", f"k:={value}", "--offline"), "not valid JSON")


@pytest.mark.parametrize("depth", [150, 5000])
def test_deeply_nested_input(cli, depth):
    deep = "[" * depth + "]" * depth
    assert_usage(cli("send", "hi", "--endpoint", f"{AGENT}/rpc", "-f", f"k:={deep}", "--offline"), "nested too deeply")
    assert_usage(cli("send", "hi", "--endpoint", f"{AGENT}/rpc", "--metadata", '{"k": ' + deep + "}", "--offline"), "nested too deeply")


@pytest.mark.parametrize("version", ["1.garbage", "1.", "2.0", "0.3.x", "1.0.0.0.0"])
def test_a2a_version_is_checked(cli, version):
    assert_usage(cli("tasks", "get", "t-1", "--endpoint", f"{AGENT}/rpc", "--a2a-version", version, "--offline"), "unknown A2A version")


@pytest.mark.parametrize("version", ["1.0", "1.0.1", "1.1", "0.3", "0.3.0", "auto", "v1"])
def test_a2a_versions_that_are_fine(cli, version):
    assert cli("tasks", "get", "t-1", "-u", AGENT, "--a2a-version", version, "--offline").exit_code == 0


# -- the config file: wrong types, unreadable ---------------------------------------------------------

WRONG_TYPES = {
    "profiles = 5": "profiles",
    'default-profile = "p"\nprofiles = "x"': "profiles",
    'default-profile = 5\n[profiles.p]\nurl = "http://a.test"': "default-profile",
    'default-profile = "p"\n[profiles]\np = "x"': "profiles.p",
    'default-profile = "p"\n[profiles.p]\nurl = 5': "profiles.p.url",
    'default-profile = "p"\n[profiles.p]\nendpoint = ["http://a.test"]': "profiles.p.endpoint",
    'default-profile = "p"\n[profiles.p]\nheaders = "X-A: b"': "profiles.p.headers",
    'default-profile = "p"\n[profiles.p]\nauth = 5': "profiles.p.auth",
    'default-profile = "p"\n[profiles.p.auth]\ntoken-url = ["x"]': "profiles.p.auth.token-url",
    'default-profile = "p"\n[profiles.p.headers]\nX-A = {b = 1}': "profiles.p.headers.X-A",
    'default-profile = "p"\n[profiles.p]\napi-key = 5': "profiles.p.api-key",
    'default-profile = "p"\n[profiles.p]\nbasic = true': "profiles.p.basic",
    'default-profile = "p"\n[profiles.p]\ntransport = 5': "profiles.p.transport",
    'default-profile = "p"\n[profiles.p]\ntransport = [1]': "profiles.p.transport",
    'default-profile = "p"\n[profiles.p]\noutput = {a = 1}': "profiles.p.output",
    'default-profile = "p"\n[profiles.p]\ndump = true': "profiles.p.dump",
    'default-profile = "p"\n[profiles.p]\nmax-body = true': "profiles.p.max-body",
    'default-profile = "p"\n[profiles.p]\ntimeout = true': "profiles.p.timeout",
    'default-profile = "p"\n[profiles.p]\nstrict-origin = 5': "profiles.p.strict-origin",
    'default-profile = "p"\n[profiles.p]\ncacert = 5': "profiles.p.cacert",
}


@pytest.mark.parametrize("text", list(WRONG_TYPES), ids=list(WRONG_TYPES.values()))
def test_wrong_typed_config_values(cli, cfg, text):
    cfg.write_text(text + "\n")
    for args in (("tasks", "get", "t-1", "-u", AGENT, "--offline"), ("config", "show")):
        assert_usage(cli(*args), WRONG_TYPES[text], "in the config file")


def test_typed_values_that_are_fine(cli, cfg):
    cfg.write_text('default-profile = "p"\n[profiles.p]\nurl = "http://agent.test"\ntimeout = 30\nmax-body = 1048576\na2a-version = 1.0\nstrict-origin = false\ntransport = ["jsonrpc"]\n[profiles.p.headers]\nX-Retry = 3\n')
    result = cli("tasks", "get", "t-1", "--offline")
    assert result.exit_code == 0, result.stderr


def test_an_unreadable_config_directory(cli, tmp_path, monkeypatch):
    monkeypatch.delenv("A2ACLI_GLOBAL_CONFIG")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / ("x" * 300)))  # a name too long: stat fails with ENAMETOOLONG
    assert_usage(cli("tasks", "get", "t-1", "-u", AGENT, "--offline"), "cannot read the config file")
    if os.geteuid() != 0:  # root reads any directory
        locked = tmp_path / "locked"
        (locked / "a2acli").mkdir(parents=True)
        (locked / "a2acli" / "config.toml").write_text("")
        locked.chmod(0)
        try:
            monkeypatch.setenv("XDG_CONFIG_HOME", str(locked))
            assert_usage(cli("tasks", "get", "t-1", "-u", AGENT, "--offline"), "cannot read the config file")
        finally:
            locked.chmod(0o700)


# -- timeouts: one meaning from every source ------------------------------------------------------------

BAD_TIMEOUTS = ["nan", "inf", "-inf", "1e308", "-1", "true", "false", "soon"]


@pytest.mark.parametrize("value", BAD_TIMEOUTS)
def test_bad_timeouts_from_the_flag_env_and_profile(cli, cfg, value):
    base = ("tasks", "get", "t-1", "-u", AGENT, "--offline")
    if value not in ("true", "false", "soon", "-1", "-inf"):  # Typer refuses those itself (exit 2 too)
        assert_usage(cli(*base, "--timeout", value), "--timeout")
    else:
        assert cli(*base, "--timeout", value).exit_code == 2
    assert_usage(cli(*base, env={"A2ACLI_TIMEOUT": value}), "env A2ACLI_TIMEOUT")
    toml = value if value in ("nan", "inf", "-inf", "1e308", "-1", "true", "false") else f'"{value}"'
    cfg.write_text(f'default-profile = "p"\n[profiles.p]\ntimeout = {toml}\n')
    assert_usage(cli(*base), "timeout")
    assert cli("config", "set", "--profile", "p", "timeout", value).exit_code == 2


def test_timeout_zero_means_no_bound_from_every_source(cli, cfg):
    from a2acli.flows.invocation import Invocation

    def build_options(given):  # the options as a run resolves them: its Invocation's, once
        return Invocation(given).options()

    assert cli("config", "set", "--profile", "p", "timeout", "0").exit_code == 0
    assert build_options({"url": AGENT, "profile": "p"}).timeout is None
    assert build_options({"url": AGENT, "timeout": 0.0}).timeout is None
    os.environ["A2ACLI_TIMEOUT"] = "0"
    try:
        assert build_options({"url": AGENT}).timeout is None
    finally:
        del os.environ["A2ACLI_TIMEOUT"]
    assert build_options({"url": AGENT, "timeout": 2.5}).timeout == 2.5


@pytest.mark.parametrize(
    "args",
    [
        ["send", "--skill", "x", "-f", "k:=1e999"],
        ["send", "--data", '{"x": 1e999}'],
        ["send", "hi", "--metadata", '{"x": -1e999}'],
        ["call", "GetTask", '{"id": "t", "n": 1e400}'],
    ],
)
def test_a_number_too_large_for_json_is_refused(cli, args):
    """Issue 27: 1e999 reads as infinity, which would go out as `Infinity` (not JSON): exit 2, like NaN."""
    result = cli(*args, "--endpoint", "http://127.0.0.1:9/rpc", "--offline", "-o", "json")
    assert result.exit_code == 2, result.stdout
    assert "out of range (JSON numbers are finite" in result.stdout + result.stderr
    assert "Infinity" not in result.stdout.replace("sent as Infinity", "")
