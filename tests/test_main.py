"""The lazy command table: a run registers only the command it was asked for."""

from __future__ import annotations

import subprocess
import sys

import pytest

from a2acli.main import COMMANDS, build_app, requested_command


@pytest.mark.parametrize("argv,command", [
    (["card", "fetch"], "card"),
    (["-u", "http://x", "tasks", "get", "t-1"], "tasks"),
    (["--url=http://x", "--debug", "send", "hi"], "send"),
    (["-o", "json", "-H", "A: b", "push-config", "list", "t"], "push-config"),
    (["--timeout", "3", "task", "get", "t"], "task"),
    (["--help"], None),
    (["-h", "send"], None),
    (["nosuchcommand"], None),
    ([], None),
    (["--", "send"], None),
])
def test_requested_command(argv, command):
    assert requested_command(argv) == command


def test_build_app_registers_only_what_is_asked():
    import typer

    only = typer.main.get_command(build_app("card"))
    assert sorted(only.commands) == ["card"]
    full = typer.main.get_command(build_app())
    assert set(full.commands) == set(COMMANDS)


@pytest.mark.parametrize("argv,expect", [
    (["--version"], "a2a "),
    (["-u", "http://127.0.0.1:9", "tasks", "push-config", "--help"], "Push-notification"),
    (["send", "hi", "--offline", "-o", "raw", "--rpc-url", "http://x/"], '"method":"SendMessage"'),
])
def test_run_through_the_console_entry_point(argv, expect):
    out = subprocess.run([sys.executable, "-c", "import sys; from a2acli.main import run; sys.argv = ['a2a', *sys.argv[1:]]; run()", *argv],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert expect in out.stdout
