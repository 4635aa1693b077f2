"""--help shows the effective defaults; NO_COLOR / FORCE_COLOR and narrow terminals; the setup
commands and --help stay light (no httpx: it loads only when a request is made; no pydantic)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def run(*args: str, env: dict[str, str] | None = None, columns: int | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("A2ACLI_", "_A2A_")) and k not in ("TERMINAL_WIDTH", "COLUMNS", "NO_COLOR", "FORCE_COLOR", "_TYPER_FORCE_DISABLE_TERMINAL")}
    base["A2ACLI_GLOBAL_CONFIG"] = os.devnull
    if columns:
        base["COLUMNS"] = str(columns)
    base.update(env or {})
    return subprocess.run([sys.executable, "-m", "a2acli", *args], env=base, capture_output=True, text=True, timeout=60)


def flat(text: str) -> str:
    """Help text with the box drawing and line wrapping taken out."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", ANSI.sub("", text)).split())


@pytest.mark.spec("A2ACLI_CLI_001", "A2ACLI_DEFAULT_001")
def test_help_shows_builtin_defaults():
    out = flat(run("tasks", "get", "--help", columns=200).stdout)
    assert "(default: 1.0; env: A2ACLI_A2A_VERSION)" in out
    assert "(default: auto; env: A2ACLI_OUTPUT)" in out


@pytest.mark.spec("A2ACLI_CLI_001")
def test_help_shows_the_default_from_the_environment():
    result = run("tasks", "get", "--help", env={"A2ACLI_A2A_VERSION": "0.3", "A2ACLI_OUTPUT": "json", "A2ACLI_API_KEY": "sekrit-value"}, columns=200)
    out = flat(result.stdout)
    assert "(default: 0.3, from env A2ACLI_A2A_VERSION)" in out
    assert "(default: json, from env A2ACLI_OUTPUT)" in out
    assert "(set, from env A2ACLI_API_KEY)" in out and "sekrit-value" not in result.stdout  # never the secret


def test_help_shows_the_default_from_the_active_profile(tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_text('default-profile = "local"\n[profiles.local]\na2a-version = "0.3"\nurl = "http://127.0.0.1:41241"\n')
    out = flat(run("send", "--help", env={"A2ACLI_GLOBAL_CONFIG": str(cfg)}, columns=200).stdout)
    assert "(default: 0.3, from profile local; env: A2ACLI_A2A_VERSION)" in out
    assert "(default: http://127.0.0.1:41241, from profile local; env: A2ACLI_URL)" in out
    # the environment beats the profile, in help as in a call
    out = flat(run("send", "--help", env={"A2ACLI_GLOBAL_CONFIG": str(cfg), "A2ACLI_A2A_VERSION": "1.0"}, columns=200).stdout)
    assert "(default: 1.0, from env A2ACLI_A2A_VERSION)" in out


@pytest.mark.parametrize("argv", [("send", "--profile", "staging", "--help"), ("--profile=staging", "tasks", "list", "--help")])
def test_help_shows_the_defaults_of_the_profile_named_on_the_command_line(tmp_path, argv):
    cfg = tmp_path / "config.toml"
    cfg.write_text('[profiles.staging]\na2a-version = "0.3"\n')
    out = flat(run(*argv, env={"A2ACLI_GLOBAL_CONFIG": str(cfg)}, columns=200).stdout)
    assert "(default: 0.3, from profile staging; env: A2ACLI_A2A_VERSION)" in out


def test_help_survives_a_broken_config(tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_text("not = = toml")
    result = run("send", "--help", env={"A2ACLI_GLOBAL_CONFIG": str(cfg)})
    assert result.returncode == 0 and "(default: 1.0; env: A2ACLI_A2A_VERSION)" in flat(result.stdout)


@pytest.mark.spec("A2ACLI_AUTH_002")
def test_help_says_flags_show_in_the_process_table():
    """Each credential flag names its env var and says a flag is exposed (process table, history)."""
    out = flat(run("send", "--help", columns=200).stdout)
    for flag, env in (("--api-key", "A2ACLI_API_KEY"), ("--bearer", "A2ACLI_BEARER"), ("--basic", "A2ACLI_BASIC")):
        assert re.search(re.escape(flag) + r" .{0,300}?A flag shows in the process table and the shell history: prefer the env var\. \(env: " + env + r"\)", out), flag
    login = flat(run("auth", "login", "--help", columns=200).stdout)
    assert "A flag shows in the process table and the shell history" in login and "env: A2ACLI_CLIENT_SECRET" in login


@pytest.mark.spec("A2ACLI_AUTH_002")
def test_the_guide_gives_each_credential_its_env_var_and_says_flags_are_exposed():
    from pathlib import Path

    guide = (Path(__file__).parents[2] / "docs" / "guide.md").read_text(encoding="utf-8")
    section = guide.split("## Authentication and TLS", 1)[1].split("\n## ", 1)[0]
    for flag, env in (("--api-key KEY", "A2ACLI_API_KEY"), ("--bearer TOKEN", "A2ACLI_BEARER"), ("--basic USER:PASS", "A2ACLI_BASIC")):
        assert re.search(rf"\| `{re.escape(flag)}` \| `{env}` \|", section), flag
    assert "shows in the process table (`ps`) and stays in the shell history" in section
    assert "which a flag overrides" in section  # the precedence stays flag > environment


# -- colour and narrow terminals ------------------------------------------------------------------------


@pytest.fixture
def card_file(tmp_path):
    path = tmp_path / "card.json"
    path.write_text(json.dumps({
        "name": "A rather long agent name that will not fit in forty columns", "description": "d " * 60, "version": "1.0.0",
        "supportedInterfaces": [{"url": "http://127.0.0.1:41241/a/very/long/path/to/the/json-rpc/endpoint", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
        "capabilities": {"streaming": True}, "defaultInputModes": [], "defaultOutputModes": [],
        "skills": [{"id": "create-user", "name": "Create user", "description": "Makes a user " * 10, "tags": []}],
    }))
    return path


@pytest.mark.parametrize("force", [False, True])
@pytest.mark.parametrize(
    "args",
    [("--help",), ("send", "--help"), ("config", "show"), ("card", "fetch", "-u", "CARD"), ("auth", "login", "--help")],
)
def test_40_columns_stay_readable(args, force, card_file):
    args = tuple(card_file.as_uri() if a == "CARD" else a for a in args)
    env = {"FORCE_COLOR": "1"} if force else {}
    result = run(*args, env=env, columns=40)
    assert result.returncode == 0, result.stderr
    lines = ANSI.sub("", result.stdout).splitlines()
    assert lines
    if force or "--help" in args:  # rendered for a terminal: fits in 40 columns
        assert max(len(line) for line in lines) <= 40, "\n".join(line for line in lines if len(line) > 40)
    else:  # piped: one `Label: value` (or `name value source`) line per item, never hard-wrapped
        assert all(re.match(r"^(\S[^:]*: |\S+ +\S)", line) for line in lines if line.strip()), result.stdout
    text = flat(result.stdout)
    if args[:2] == ("card", "fetch"):
        assert "create-user" in text and "long agent name" in text
    if args == ("config", "show"):
        assert "a2a-version" in text


def test_no_color_and_force_color(card_file):
    plain = run("card", "fetch", "-u", card_file.as_uri(), env={"NO_COLOR": "1"})
    assert plain.returncode == 0 and "\x1b[" not in plain.stdout + plain.stderr
    forced = run("card", "fetch", "-u", card_file.as_uri(), env={"FORCE_COLOR": "1"}, columns=80)
    assert forced.returncode == 0 and "\x1b[" in forced.stdout  # rich, even though piped
    both = run("card", "fetch", "-u", card_file.as_uri(), env={"FORCE_COLOR": "1", "NO_COLOR": "1"}, columns=80)
    assert both.returncode == 0 and not re.search(r"\x1b\[[0-9;]*3[0-9]m", both.stdout)  # no colours


# -- start-up stays light -------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [["config", "--help"], ["auth", "--help"], ["completion", "--help"], ["config", "path"], ["completion", "bash"],
                                  ["--help"], ["send", "--help"], ["tasks", "get", "--help"]])
def test_setup_commands_and_help_do_not_import_httpx_or_pydantic(args):
    code = (
        "import sys\n"
        f"sys.argv = ['a2a', *{args!r}]\n"
        "from a2acli.main import app\n"
        "try:\n    app(prog_name='a2a')\nexcept SystemExit:\n    pass\n"
        "heavy = sorted(m for m in ('httpx', 'httpx_sse', 'pydantic') if m in sys.modules)\n"
        "print('HEAVY', heavy, file=sys.stderr)\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("A2ACLI_")}
    env["A2ACLI_GLOBAL_CONFIG"] = os.devnull
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert "HEAVY []" in proc.stderr, proc.stderr
