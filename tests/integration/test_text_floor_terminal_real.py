"""A2ACLI_OUT_005 / A2ACLI_DEFAULT_001 at a real terminal: the installed `a2a` under a pseudo-terminal
(`script -qc`), against the demo agent. `-o text` (the flag, A2ACLI_OUTPUT=text, or a config file)
is the text floor there too: no control sequence on the terminal, stdout and stderr alike, for a
blocking send (no spinner), a stream (no live view), a warning, the card and a task list. The
default (`-o auto`) is the rich view there, which is what makes the check able to fail."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess

import pytest

pytestmark = [pytest.mark.integration, pytest.mark.skipif(shutil.which("script") is None, reason="util-linux `script` is not installed")]

COMMANDS = [
    ["send", "--skill", "slow", "-f", "steps:=2", "-f", "delay:=0.3"],
    ["send", "--stream", "--skill", "slow", "-f", "steps:=2", "-f", "delay:=0.1"],
    ["send", "--skill", "fail"],
    ["card", "get"],
    ["tasks", "list", "--page-size", "2"],
]


def at_a_terminal(a2a_bin: list[str], a2a_env, args: list[str], url: str, tmp_path, **env: str) -> str:
    """What a terminal shows of `a2a ARGS -u URL` (stdout and stderr both go to the pty that
    `script` gives it, which is why this is not `run_a2a`; the environment is `a2a_env`'s)."""
    command = shlex.join([*a2a_bin, *args, "-u", url])
    settings = {"NO_COLOR": None, "FORCE_COLOR": None, "TERM": "xterm-256color", "COLUMNS": "100", "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    base = a2a_env(**{**settings, **env})
    work = tmp_path / "work"  # below $HOME: a local .env is looked for here
    work.mkdir(exist_ok=True)
    proc = subprocess.run(["script", "-qc", command, "/dev/null"], capture_output=True, text=True, env=base, cwd=work, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


@pytest.mark.spec("A2ACLI_OUT_005", "A2ACLI_DEFAULT_001")
@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_text_at_a_terminal_prints_no_control_sequence(a2a_bin, a2a_env, demo_agent, tmp_path, args):
    shown = at_a_terminal(a2a_bin, a2a_env, [*args, "-o", "text"], demo_agent.url, tmp_path)
    assert "\x1b" not in shown, repr(shown[:400])
    assert shown.strip()  # something was shown, as fields
    notes = re.compile(r"\d+ tasks? of \d+")  # stderr's count of a listing (issue 25), in the same pty
    assert all(line == "" or ": " in line or line.endswith(":") or line.startswith(("  ", "warning:", "task ", "note:")) or notes.fullmatch(line) for line in shown.replace("\r", "").splitlines()), shown


@pytest.mark.spec("A2ACLI_OUT_005", "A2ACLI_DEFAULT_001")
def test_the_default_is_the_rich_view_and_env_and_config_choose_text(a2a_bin, a2a_env, demo_agent, tmp_path):
    stream = ["send", "--stream", "--skill", "slow", "-f", "steps:=2", "-f", "delay:=0.1"]
    assert "\x1b[" in at_a_terminal(a2a_bin, a2a_env, stream, demo_agent.url, tmp_path)  # auto: the live view
    assert "\x1b[" in at_a_terminal(a2a_bin, a2a_env, [*stream, "-o", "auto"], demo_agent.url, tmp_path)
    assert "\x1b" not in at_a_terminal(a2a_bin, a2a_env, stream, demo_agent.url, tmp_path, A2ACLI_OUTPUT="text")
    (tmp_path / "work").mkdir(exist_ok=True)
    (tmp_path / "work" / ".env").write_text("A2ACLI_OUTPUT=text\n")  # the local config file
    assert "\x1b" not in at_a_terminal(a2a_bin, a2a_env, stream, demo_agent.url, tmp_path)
    assert "\x1b[" in at_a_terminal(a2a_bin, a2a_env, [*stream, "-o", "auto"], demo_agent.url, tmp_path)  # the flag wins over the file
