"""Issue 13: errors in one voice (Typer's usage errors through our boundary), plain metavars,
`-f key:=` mistakes, a 401 to a call without credentials, both push-token names, the command after
`--async`, `config use`, and `completion install`."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from a2a_testkit import AGENT, ANY_CREDENTIAL, RPC, rpc_result, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"


@pytest.fixture
def agent(respx_mock):
    return respx_mock


# -- Typer's usage errors ------------------------------------------------------------------------


def test_missing_argument_says_which_with_the_usage_line(cli):
    result = cli("tasks", "get")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == ["error: missing argument 'TASK_ID' [A2ACLI_ERR_USAGE]", "usage: a2a tasks get [OPTIONS] TASK_ID", "hint: TASK_ID: the task id; see `a2a tasks get --help`"]
    assert "╭" not in result.stderr and result.stdout == ""


def test_unknown_command_suggests_the_documented_one_only(cli):
    result = cli("tsaks", "list")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == "error: no such command 'tsaks' [A2ACLI_ERR_USAGE]"
    assert "hint: did you mean `a2a tasks`? (see `a2a --help`)" in result.stderr and "'task'" not in result.stderr


def test_unknown_option_suggests_the_closest(cli):
    result = cli("tasks", "list", "--page-siz", "3")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == ["error: no such option: --page-siz [A2ACLI_ERR_USAGE]", "usage: a2a tasks list [OPTIONS]", "hint: did you mean --page-size? (see `a2a tasks list --help`)"]


def test_typer_usage_error_under_json_is_the_envelope(cli):
    result = cli("tasks", "get", "-o", "json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"] == {"code": "A2ACLI_ERR_USAGE", "message": "missing argument 'TASK_ID'", "hint": "TASK_ID: the task id; see `a2a tasks get --help`", "a2aCode": None}


def test_a_group_without_a_command_still_shows_its_help(cli):
    result = cli("tasks")
    assert result.exit_code == 2 and "get" in result.stdout and "error:" not in result.stderr


@pytest.mark.parametrize("argv,usage", [
    (["tasks", "get", "--help"], "a2a tasks get [OPTIONS] TASK_ID"),
    (["send", "--help"], "a2a send [OPTIONS] [TEXT]"),
    (["push-config", "get", "--help"], "a2a push-config get [OPTIONS] TASK_ID CONFIG_ID"),
])
def test_metavars_are_plain_names(cli, argv, usage):
    result = cli(*argv)
    (line,) = [ln for ln in result.stdout.splitlines() if "Usage:" in ln]
    assert line.strip() == f"Usage: {usage}"


def test_help_shows_output_choices_required_once_and_env_one_way(cli):
    assert "text|json|raw" in cli("help", "options").stdout  # the shared -o, folded in `tasks get --help`
    create = cli("push-config", "create", "--help").stdout
    assert "(required)" not in create and "[required]" in create
    demo = cli("demo-server", "--help").stdout
    assert "env var:" not in demo and "env: A2ACLI_DEMO_PORT" in " ".join(demo.replace("│", " ").split())


# -- values ------------------------------------------------------------------------------------------


def test_typed_field_with_a_word_shows_the_value_and_suggests_a_string(cli):
    result = cli("send", "--skill", "s", "-f", "age:=forty", "--offline", "--rpc-url", RPC)
    assert result.exit_code == 2
    assert "error: -f age:=forty: 'forty' is not valid JSON" in result.stderr
    assert "-f age=forty" in result.stderr


def test_401_without_credentials_names_the_scheme_and_the_flag(cli, agent):
    card = v1_card(securitySchemes={"key": {"apiKeySecurityScheme": {"location": "header", "name": "X-API-Key"}}})
    agent.get(CARD_URL).respond(json=card)
    agent.post(RPC).respond(401)
    result = cli("tasks", "get", "t-1", "-u", AGENT)
    assert result.exit_code == 4
    assert "error: the agent requires credentials and none were sent" in result.stderr
    assert "hint: the card names key (apiKey in header X-API-Key): pass --api-key KEY" in result.stderr


def test_401_with_credentials_still_says_they_were_refused(cli, agent):
    agent.get(CARD_URL).respond(json=v1_card(securitySchemes=ANY_CREDENTIAL))
    agent.post(RPC).respond(401)
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--api-key", "wrong")
    assert result.exit_code == 4 and "refused the credentials" in result.stderr


@pytest.mark.parametrize("flag", ["--push-token", "--token"])
def test_push_token_has_both_names_in_both_places(cli, flag):
    send = cli("send", "hi", "--push-url", "http://h/", flag, "t0k", "--offline", "-o", "json", "--rpc-url", RPC)
    assert json.loads(send.stdout)["params"]["configuration"]["taskPushNotificationConfig"] == {"url": "http://h/", "token": "t0k"}
    create = cli("push-config", "create", "t-1", "--webhook-url", "http://h/", flag, "t0k", "--offline", "-o", "json", "--rpc-url", RPC)
    assert json.loads(create.stdout)["params"]["token"] == "t0k"


# -- what follows ----------------------------------------------------------------------------------


def test_async_prints_the_command_that_follows_the_task(cli, agent):
    agent.get(CARD_URL).respond(json=v1_card())
    agent.post(RPC).respond(json=rpc_result({"task": {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_SUBMITTED"}}}))
    result = cli("send", "hi", "--async", "-u", AGENT)
    assert result.exit_code == 0
    assert f"\n  a2a tasks get t-1 --wait -u {AGENT}\n" in result.stderr


def test_no_spinner_off_a_terminal(cli, agent):
    agent.get(CARD_URL).respond(json=v1_card())
    agent.post(RPC, json__method="GetTask").mock(side_effect=[
        httpx.Response(200, json=rpc_result({"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}})),
        httpx.Response(200, json=rpc_result({"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}})),
    ])
    result = cli("tasks", "get", "t-1", "--wait", "--poll-interval", "0.05", "-u", AGENT)
    assert result.exit_code == 0
    lines = result.stderr.splitlines()
    assert lines.index("waiting for task t-1 (working) …") < lines.index("task t-1: completed")
    assert "\r" not in result.stderr and "\x1b" not in result.stderr
    quiet = cli("tasks", "get", "t-1", "-o", "json", "-u", AGENT)
    assert "waiting" not in quiet.stderr


# -- set-up ------------------------------------------------------------------------------------------


def test_config_use_and_the_hint_when_no_default_is_set(cli, tmp_path):
    env = {"A2ACLI_GLOBAL_CONFIG": str(tmp_path / "c.toml")}
    first = cli("config", "set", "--profile", "local", "url", "http://127.0.0.1:41241", env=env)
    assert first.exit_code == 0 and "\n  a2a config use local\n" in first.stderr
    used = cli("config", "use", "local", env=env)
    assert used.exit_code == 0 and 'default-profile = "local"' in (tmp_path / "c.toml").read_text()
    assert "config use" not in cli("config", "set", "--profile", "local", "timeout", "3", env=env).stderr
    missing = cli("config", "use", "nope", env=env)
    assert missing.exit_code == 2 and "no profile 'nope'" in missing.stderr


@pytest.mark.parametrize("shell,where,rc", [
    ("bash", ".local/share/bash-completion/completions/a2a", ". ~/.local/share/bash-completion/completions/a2a"),
    ("zsh", ".zfunc/_a2a", "fpath=(~/.zfunc $fpath)"),
    ("fish", ".config/fish/completions/a2a.fish", None),
])
def test_completion_install_writes_to_the_users_own_location(cli, tmp_path, shell, where, rc):
    env = {"HOME": str(tmp_path), "SHELL": f"/bin/{shell}", "XDG_DATA_HOME": "", "XDG_CONFIG_HOME": ""}
    result = cli("completion", "install", env=env)
    assert result.exit_code == 0, result.stderr
    assert "_A2A_COMPLETE=complete_" + shell in Path(tmp_path, where).read_text()
    if rc:
        assert rc in result.stderr
    named = cli("completion", "install", shell, env={**env, "SHELL": ""})
    assert named.exit_code == 0


def test_completion_install_without_a_known_shell_says_how(cli, tmp_path):
    result = cli("completion", "install", env={"HOME": str(tmp_path), "SHELL": "/bin/tcsh"})
    assert result.exit_code == 2 and "a2a completion install bash|zsh|fish" in result.stderr


def test_a_missing_option_says_what_it_takes(cli):
    result = cli("push-config", "create", "t-1", "-u", "http://agent.test")  # (replay's --to, the example once, is optional now)
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == "hint: --webhook-url: where the agent POSTs notifications (an http(s) URL); see `a2a push-config create --help`"
