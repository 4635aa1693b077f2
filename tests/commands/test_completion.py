"""Shell completion: `a2a completion SHELL`, the committed scripts in completions/ (which must not
drift from it), and what the completion protocol answers (a subprocess, as the shell runs it)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FILES = {"bash": ROOT / "completions" / "a2a.bash", "zsh": ROOT / "completions" / "_a2a", "fish": ROOT / "completions" / "a2a.fish"}


@pytest.mark.parametrize("shell", list(FILES))
def test_committed_scripts_match_the_cli(cli, shell):
    result = cli("completion", shell)
    assert result.exit_code == 0, result.stderr
    assert "_A2A_COMPLETE=complete_" + shell in result.stdout
    path = FILES[shell]
    if os.environ.get("A2ACLI_UPDATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(result.stdout)
    assert path.read_text() == result.stdout, f"{path} is stale: regenerate with `a2a completion {shell} > {path.relative_to(ROOT)}` or A2ACLI_UPDATE_GOLDEN=1"


def test_unknown_shell_is_exit_2(cli):
    result = cli("completion", "tcsh")
    assert result.exit_code == 2 and "bash, zsh or fish" in result.stderr


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("A2ACLI_", "_A2A_", "COMP_", "_TYPER_COMPLETE"))}
    env["A2ACLI_GLOBAL_CONFIG"] = os.devnull
    env.update(extra)
    return env


def bash_complete(line: str) -> list[str]:
    """What `python -m a2acli` answers for the bash completion of `line` (the cursor at its end)."""
    words = line.split(" ")
    env = _env(_A2A_COMPLETE="complete_bash", COMP_WORDS=line, COMP_CWORD=str(len(words) - 1))
    proc = subprocess.run([sys.executable, "-m", "a2acli"], env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("a2a ", {"send", "stream", "card", "tasks", "push-config", "call", "config", "auth", "completion", "demo-server", "mcp"}),
        ("a2a ta", {"tasks"}),
        ("a2a mc", {"mcp"}),
        ("a2a mcp --ht", {"--http"}),
        ("a2a mcp --pro", {"--profile"}),
        ("a2a tasks ", {"get", "list", "cancel", "subscribe"}),
        ("a2a config ", {"show", "set", "unset", "use", "path"}),
        ("a2a auth ", {"login", "status", "logout"}),
        ("a2a completion ", {"bash", "zsh", "fish", "install"}),
        ("a2a tasks get --a2a", {"--a2a-version"}),
        ("a2a send --ba", {"--basic"}),
        ("a2a tasks get x --a2a-version ", {"1.0", "0.3", "auto"}),
        ("a2a --a2a-version 0", {"0.3"}),
        ("a2a --a2a-v", {"--a2a-version"}),  # the root's shared options, folded in its help, still complete
        ("a2a send --dialect ", {"spec", "clix"}),
        ("a2a card fetch -o ", {"auto", "text", "json", "raw"}),
        ("a2a tasks list --status ", {"submitted", "working", "input-required", "auth-required", "completed", "canceled", "failed", "rejected"}),
        ("a2a tasks list --status in", {"input-required"}),
        ("a2a send hi --expect-state com", {"completed"}),
        ("a2a tasks get x --expect-state completed,fa", {"completed,failed"}),
        ("a2a config set a2a", {"a2a-version"}),
        ("a2a config set output ", {"auto", "text", "json", "raw"}),
        ("a2a config set auth.c", {"auth.client-id", "auth.client-secret", "auth.client-auth"}),
        ("a2a help ta", {"tasks"}),
        ("a2a help card ", {"catalog", "extended", "fetch", "get"}),
        ("a2a send --no-w", {"--no-wait"}),
        ("a2a send --svc", {"--svc-param"}),
        ("a2a tasks get x --wat", {"--watch"}),
        ("a2a card get --agent", {"--agent-card"}),
    ],
)
@pytest.mark.spec("A2ACLI_CLI_002")
def test_bash_completion(line, expected):
    got = set(bash_complete(line))
    assert expected <= got if line.endswith(("a2a ", "tasks ")) else got == expected, got


def test_profile_names_complete(tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_text('[profiles.local]\nurl = "http://127.0.0.1:41241"\n[profiles.prod]\n[profiles.staging]\n')
    for line, expected in (("a2a tasks list --profile ", ["local", "prod", "staging"]), ("a2a --profile pr", ["prod"]), ("a2a config set --profile s", ["staging"]), ("a2a auth status --profile l", ["local"])):
        words = line.split(" ")
        env = _env(_A2A_COMPLETE="complete_bash", COMP_WORDS=line, COMP_CWORD=str(len(words) - 1), A2ACLI_GLOBAL_CONFIG=str(cfg))
        proc = subprocess.run([sys.executable, "-m", "a2acli"], env=env, capture_output=True, text=True, timeout=60)
        assert proc.stdout.split() == expected, (line, proc.stdout, proc.stderr)


def test_profile_names_complete_from_the_config_file_on_the_line(tmp_path):
    """--profile completes the profiles of every file a run reads: a `--config FILE` given on the
    line (before the command or after it) beside the global file; it read the global file alone."""
    cfg = tmp_path / "config.toml"
    cfg.write_text("[profiles.prod]\n")
    team = tmp_path / "team.toml"
    team.write_text("[profiles.team-a]\n[profiles.team-b]\n")
    for line, expected in (
        (f"a2a --config {team} tasks list --profile ", ["prod", "team-a", "team-b"]),
        (f"a2a tasks list --config {team} --profile team", ["team-a", "team-b"]),
        (f"a2a --config {team} --profile ", ["prod", "team-a", "team-b"]),
        (f"a2a --config {team} auth status --profile t", ["team-a", "team-b"]),
        ("a2a tasks list --profile ", ["prod"]),
    ):
        words = line.split(" ")
        env = _env(_A2A_COMPLETE="complete_bash", COMP_WORDS=line, COMP_CWORD=str(len(words) - 1), A2ACLI_GLOBAL_CONFIG=str(cfg))
        proc = subprocess.run([sys.executable, "-m", "a2acli"], env=env, capture_output=True, text=True, timeout=60)
        assert proc.stdout.split() == expected, (line, proc.stdout, proc.stderr)


@pytest.mark.spec("A2ACLI_CLI_002")
def test_zsh_and_fish_protocols():
    env = _env(_A2A_COMPLETE="complete_zsh", _TYPER_COMPLETE_ARGS="a2a tasks get x --a2a-version ")
    zsh = subprocess.run([sys.executable, "-m", "a2acli"], env=env, capture_output=True, text=True, timeout=60)
    assert zsh.returncode == 0 and '"1.0"' in zsh.stdout and '"0.3"' in zsh.stdout
    env = _env(_A2A_COMPLETE="complete_fish", _TYPER_COMPLETE_ARGS="a2a tasks li", _TYPER_COMPLETE_FISH_ACTION="get-args")
    fish = subprocess.run([sys.executable, "-m", "a2acli"], env=env, capture_output=True, text=True, timeout=60)
    assert fish.returncode == 0 and fish.stdout.startswith("list\t")


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_the_committed_bash_script_completes_in_bash(tmp_path):
    """Source completions/a2a.bash in a real bash and ask it, as the shell would on Tab."""
    shim = tmp_path / "a2a"
    shim.write_text(f"#!/bin/sh\nexec {sys.executable} -m a2acli \"$@\"\n")
    shim.chmod(0o755)
    script = f'source {FILES["bash"]}; COMP_WORDS=(a2a tasks get x --a2a-version ""); COMP_CWORD=5; _a2a_completion a2a; printf "%s\\n" "${{COMPREPLY[@]}}"'
    env = _env(PATH=f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}")
    proc = subprocess.run(["bash", "--norc", "-c", script], env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["1.0", "0.3", "auto"]


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
def test_zsh_completes_on_the_first_tab_and_keeps_apostrophes(tmp_path):
    """Issue 46: autoloaded from $fpath (as `completion install` sets it up), the script's first
    call only defined a function, so the first Tab of a new shell did nothing; and descriptions
    lost their apostrophes (Typer writes them '' inside single quotes: zsh's RC_QUOTES). zsh runs
    the installed file with _arguments and compdef stubbed, as compinit would on the first Tab."""
    (tmp_path / "_a2a").write_text(FILES["zsh"].read_text())
    bindir = Path(sys.executable).parent
    program = (
        f"fpath=({tmp_path} $fpath); _arguments() {{ print -r -- \"ARGS: $*\" }}; compdef() {{ print -r -- \"COMPDEF: $*\" }}; "
        'words=(a2a tasks ""); CURRENT=3; autoload -Uz _a2a; _a2a'
    )
    env = _env(PATH=f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}")
    first = subprocess.run(["zsh", "-f", "-c", program], env=env, capture_output=True, text=True, timeout=60)
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith("ARGS: *: :((") and "COMPDEF" not in first.stdout
    assert "Follow an existing task's events" in first.stdout
    sourced = subprocess.run(["zsh", "-f", "-c", f'compdef() {{ print -r -- "COMPDEF: $*" }}; source {tmp_path / "_a2a"}'], env=env, capture_output=True, text=True, timeout=60)
    assert sourced.stdout.strip() == "COMPDEF: _a2a a2a"
