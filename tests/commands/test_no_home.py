"""No home directory (HOME unset, a uid the system does not know: a container run as an arbitrary
user), and a relative XDG_CONFIG_HOME: the commands that only read settings run without a global
config file; those that must write or name it (or the token cache beside it) say so, a usage
error with a hint, never an internal error. The XDG Base Directory spec: a relative path in its
variables is invalid and ignored."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from a2a_testkit import AGENT, RPC, rpc_result, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}
XDG = ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME")
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="a home directory and XDG paths as POSIX has them")


@pytest.fixture
def no_home(monkeypatch, tmp_path):
    """HOME unset, no XDG directories, no A2ACLI_GLOBAL_CONFIG, and the system's user list without
    this uid (what Path.home() falls back on): as `docker run --user 12345` sees it. The run starts
    in an empty directory of the test's own."""
    import pwd

    def unknown(uid: int) -> pwd.struct_passwd:
        raise KeyError(uid)

    for name in ("HOME", "A2ACLI_GLOBAL_CONFIG", *XDG):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(pwd, "getpwuid", unknown)
    with pytest.raises(RuntimeError):  # the simulation holds: there is no home directory to name
        Path.home()
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return work


def agent(respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    return respx_mock.post(RPC).respond(json=rpc_result(TASK))


def said_once(result, *parts: str) -> None:
    """A usage error (exit 2) said on one line with its hint: no internal error, no traceback."""
    assert result.exit_code == 2, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "[A2ACLI_ERR_USAGE]" in errors[0], result.stderr
    assert "internal" not in result.stderr and "Traceback" not in result.stderr
    for part in parts:
        assert part in result.stderr, result.stderr


@pytest.mark.parametrize("args", [("card", "fetch", "-u", AGENT), ("send", "hi", "-u", AGENT)])
def test_reading_commands_run_without_a_home_directory(cli, respx_mock, no_home, args):
    rpc = agent(respx_mock)
    result = cli(*args, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert "error" not in result.stderr and "Traceback" not in result.stderr
    assert json.loads(result.stdout)
    assert rpc.called == (args[0] == "send")
    assert list(no_home.iterdir()) == []  # nothing written where the run started


def test_config_show_says_there_is_no_global_file(cli, no_home):
    result = cli("config", "show", "-o", "json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["config"] is None and doc["configExists"] is False
    result = cli("config", "show")
    assert result.exit_code == 0, result.stderr
    assert "config: none (no home directory" in result.stderr


def test_a_config_file_given_is_read_without_a_home_directory(cli, respx_mock, no_home):
    rpc = agent(respx_mock)
    (no_home / "my.toml").write_text(f'[profiles.p]\nurl = "{AGENT}"\n[profiles.p.headers]\nX-Team = "qa"\n')
    result = cli("--config", "my.toml", "send", "hi", "--profile", "p", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert rpc.calls.last.request.headers["X-Team"] == "qa"


def test_a_profile_no_file_defines_is_a_usage_error_naming_no_global_file(cli, respx_mock, no_home):
    agent(respx_mock)
    result = cli("send", "hi", "-u", AGENT, "--profile", "nope")
    said_once(result, "no profile 'nope' in any config file (there is no global one: no home directory)")


@pytest.mark.parametrize(
    "args",
    [
        ("config", "set", "timeout", "5"),
        ("config", "set", "--profile", "p", "url", AGENT),
        ("config", "unset", "timeout"),
        ("config", "use", "p"),
        ("config", "path"),
    ],
)
def test_commands_that_write_or_name_the_global_file_say_there_is_none(cli, no_home, args):
    said_once(
        cli(*args),
        "error: no global config file: HOME is not set, the system names no home directory for this user",
        "hint: set HOME, or XDG_CONFIG_HOME to an absolute path",
    )
    assert list(no_home.iterdir()) == []


@pytest.mark.parametrize("command", ["login", "logout"])
def test_auth_login_and_logout_of_a_profile_kept_nowhere_say_there_is_no_global_file(cli, respx_mock, no_home, command):
    flags = ["--token-url", "https://idp.example/token", "--client-id", "c"] if command == "login" else []
    said_once(
        cli("auth", command, "--profile", "p", *flags),
        "no global config file to keep the profile in",
        "or name the file that keeps the profile (a2a --config FILE auth ...)",
    )
    assert not respx_mock.calls  # nothing asked of anyone


def test_auth_login_refuses_before_any_request_when_its_token_could_not_be_kept(cli, respx_mock, no_home):
    """The profile is in a --config file, but the token cache sits beside the global config: with
    no place for it the login would get a token only to lose it (a person may have signed in)."""
    kept = no_home / "my.toml"
    text = '[profiles.p.auth]\ntoken-url = "https://idp.example/token"\nclient-id = "c"\nclient-secret = "s"\n'
    kept.write_text(text)
    said_once(
        cli("--config", str(kept), "auth", "login", "--profile", "p"),
        "no place for the token cache (kept beside the global config file)",
        "hint: set HOME, or XDG_CONFIG_HOME to an absolute path",
    )
    assert not respx_mock.calls and kept.read_text() == text


def test_auth_logout_of_a_profile_in_a_config_file_works_without_a_home_directory(cli, no_home):
    kept = no_home / "my.toml"
    kept.write_text(
        '[profiles.p.auth]\ntoken-url = "https://idp.example/token"\nclient-id = "c"\nclient-secret = "s"\n'
    )
    result = cli("--config", str(kept), "auth", "logout", "--profile", "p")
    assert result.exit_code == 0, result.stderr
    assert "client secret removed" in result.stderr and "client-secret" not in kept.read_text()


@pytest.mark.parametrize(("shell", "variable"), [("bash", "XDG_DATA_HOME"), ("zsh", None), ("fish", "XDG_CONFIG_HOME")])
def test_completion_install_says_where_it_cannot_go(cli, no_home, shell, variable):
    said_once(
        cli("completion", "install", shell),
        f"nowhere to install the {shell} completion: HOME is not set",
        f"or print the script instead: a2a completion {shell} > FILE",
    )
    assert (f"or {variable} to an absolute path" in cli("completion", "install", shell).stderr) == bool(variable)
    assert list(no_home.iterdir()) == []


def test_completion_install_uses_an_absolute_xdg_directory_without_a_home(cli, no_home, monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    result = cli("completion", "install", "bash")
    assert result.exit_code == 0, result.stderr
    path = tmp_path / "data" / "bash-completion" / "completions" / "a2a"
    assert path.is_file() and f"[ -f {path} ] && . {path}" in result.stderr


def test_chat_keeps_no_history_without_a_home_directory(no_home, monkeypatch):
    from a2acli.flows.chat import history_path

    monkeypatch.delenv("A2ACLI_CHAT_HISTORY", raising=False)
    assert history_path() is None
    monkeypatch.setenv("XDG_STATE_HOME", "state")  # relative: ignored
    assert history_path() is None


# -- a relative XDG_CONFIG_HOME ------------------------------------------------------------------


@pytest.fixture
def relative_xdg(monkeypatch, tmp_path):
    """XDG_CONFIG_HOME=conf (relative: `~/.config` from a file that does not expand `~` reads the
    same), a home of the test's own, a run started in another directory."""
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", "conf")
    monkeypatch.delenv("A2ACLI_GLOBAL_CONFIG", raising=False)
    monkeypatch.chdir(work)
    return home, work


def test_a_relative_xdg_config_home_is_ignored_when_writing(cli, relative_xdg):
    home, work = relative_xdg
    result = cli("config", "set", "--profile", "p", "timeout", "5")
    assert result.exit_code == 0, result.stderr
    assert list(work.iterdir()) == []  # not ./conf/a2acli/config.toml
    path = Path(cli("config", "path").stdout.strip())
    assert path.is_absolute() and path.is_file() and home in path.parents  # the platform's own directory
    assert "timeout = 5" in path.read_text()


def test_a_relative_xdg_config_home_is_ignored_when_reading(cli, respx_mock, relative_xdg):
    _, work = relative_xdg
    rpc = agent(respx_mock)
    planted = work / "conf" / "a2acli" / "config.toml"
    planted.parent.mkdir(parents=True)
    planted.write_text('default-profile = "p"\n[profiles.p.headers]\nX-Planted = "yes"\n')
    (work / "conf" / "a2a-cli").mkdir()
    (work / "conf" / "a2a-cli" / ".env").write_text("A2ACLI_TIMEOUT=7\n")
    result = cli("send", "hi", "-u", AGENT, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert "X-Planted" not in rpc.calls.last.request.headers
    doc = json.loads(cli("config", "show", "-o", "json").stdout)
    assert doc["profile"] is None and doc["settings"]["timeout"]["source"] == "default"
    assert doc["config"] != str(planted) and Path(doc["config"]).is_absolute()


def test_a_relative_xdg_config_home_and_no_home_directory(cli, respx_mock, no_home, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", "conf")
    agent(respx_mock)
    assert cli("send", "hi", "-u", AGENT, "-o", "json").exit_code == 0
    said_once(cli("config", "path"), "and XDG_CONFIG_HOME=conf is not an absolute path")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--cacert", "~/ca.pem"), "--cacert ~/ca.pem: no such file"),
        (("--cacert", "~nosuchuser/ca.pem"), "--cacert ~nosuchuser/ca.pem: no such file"),
        (("--data", "@~/m.json"), "--data: no such file ~/m.json"),
        (("--file", "~/f.txt"), "--file: no such file ~/f.txt"),
    ],
)
def test_a_path_spelt_with_a_tilde_and_no_home_to_expand_it_is_no_such_file(cli, respx_mock, no_home, args, said):
    """`~` as a config file or a quoted argument spells it (no shell expands it): with no home
    directory (or no such user) it names no file; it was an internal error."""
    agent(respx_mock)
    said_once(cli("send", "-u", AGENT, *args, *([] if args[0] == "--data" else ["hi"])), said)
