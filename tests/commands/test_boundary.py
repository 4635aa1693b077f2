"""Issue 22: the error boundary wraps each command once, where the command tree is built
(commands.registry.Command.invoke → commands._run.boundary), not from a `with boundary(...)` in each command body."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from typer.main import get_command

from a2acli.commands import registry
from a2acli.commands.registry import build_app

PKG = Path(__file__).resolve().parents[2] / "a2acli"
ALLOWED = {
    "commands/_run.py",
    "commands/registry.py",
}  # the boundary and its one use per command; the side runs of `a2a diff -- CMD`


def _boundary_calls(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(), filename=str(path))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and (getattr(node.func, "id", None) == "boundary" or getattr(node.func, "attr", None) == "boundary")
    ]


def test_no_module_but_run_opens_a_boundary():
    found = {
        str(p.relative_to(PKG)): lines
        for p in sorted(PKG.rglob("*.py"))
        if str(p.relative_to(PKG)) not in ALLOWED and (lines := _boundary_calls(p))
    }
    assert found == {}, "commands are wrapped once by commands.registry; call no boundary(...) in a command body"


def test_the_check_sees_a_boundary_call(tmp_path):
    """The AST check above finds the form it forbids (so it can fail)."""
    sample = tmp_path / "x.py"
    sample.write_text("from a2acli.commands import _run\nwith _run.boundary(output_hint='json'):\n    pass\n")
    assert _boundary_calls(sample) == [2]


def _leaves(cmd, path="a2a"):
    import typer

    if not hasattr(cmd, "list_commands"):
        yield path, cmd
        return
    ctx = typer.Context(cmd)
    for name in cmd.list_commands(ctx):
        yield from _leaves(cmd.get_command(ctx, name), f"{path} {name}")


def test_every_registered_command_runs_inside_the_boundary():
    """Every command's class is registry.Command, whose `invoke` opens the boundary once around
    the callback (with this invocation), however the command was built (members on demand)."""
    leaves = dict(_leaves(get_command(build_app())))  # the whole tree, hidden commands too
    assert {"a2a send", "a2a tasks get", "a2a task get", "a2a config path", "a2a auth login", "a2a help"} <= set(leaves)
    assert [path for path, cmd in leaves.items() if not isinstance(cmd, registry.Command)] == []
    assert "invoke" in vars(registry.Command) and "invoke" not in vars(registry.OrderedCommand)


def test_the_boundary_opens_once_per_command(cli, monkeypatch):
    """`a2a card fetch`: one boundary, with this invocation (its -o given after the command)."""
    from a2acli.commands import _run

    opened = []
    real = _run.boundary

    def counting(inv=None):
        opened.append(inv.output_mode())
        return real(inv)

    monkeypatch.setattr(_run, "boundary", counting)
    result = cli("card", "fetch", "-u", "file:///nonexistent/card.json", "-o", "json")
    assert result.exit_code == 3 and json.loads(result.stdout)["error"]["code"] == "A2ACLI_ERR_CARD_NOT_FOUND"
    assert opened == ["json"]


def test_a_command_without_a_boundary_of_its_own_says_a_bug_in_one_line(cli, monkeypatch):
    """`config path` never had a `with boundary(...)`: an unexpected exception there is now the
    one-line internal error, not a traceback."""
    from a2acli import settings

    def broken():
        raise RuntimeError("boom")

    monkeypatch.setattr(settings, "config_path", broken)
    result = cli("config", "path")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "error: internal error: RuntimeError: boom [A2ACLI_ERR_INTERNAL]",
        "hint: rerun with --debug for the traceback, and report it",
    ]


@pytest.mark.parametrize("where", ["before", "after"])
def test_root_output_reaches_the_boundary_of_a_command_without_its_own(cli, cfg, where):
    """`config set` takes no -o: the root's (`a2a -o json config set …`) is the one errors use."""
    args = ["config", "set", "no-such-key", "v"]
    result = cli(*(["-o", "json", *args] if where == "before" else args))
    assert result.exit_code == 2
    if where == "before":
        assert json.loads(result.stdout)["error"]["code"] == "A2ACLI_ERR_USAGE"
    else:
        assert result.stdout == "" and result.stderr.startswith("error: ")


def test_the_resolved_output_mode_reaches_the_boundary(cli, cfg):
    """-o from the config file (not the command line): a usage error the command body finds after
    its options are resolved is the JSON error document (the boundary asks this invocation)."""
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text('default-profile = "p"\n[profiles.p]\noutput = "json"\nurl = "http://agent.test"\n')
    result = cli("tasks", "cancel", "t-1", "--metadata", "[1")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"]["message"].startswith("--metadata: the argument is not valid JSON")


def test_an_error_after_output_keeps_the_commands_output(cli, cfg):
    """`auth status -o json` builds a JsonOutput: its error is that Output's document."""
    result = cli("auth", "status", "-o", "json", "--profile", "nobody")
    assert result.exit_code == 4
    assert json.loads(result.stdout)["error"]["code"] == "A2ACLI_ERR_CREDENTIALS_MISSING"


def test_root_debug_reaches_the_boundary(cli, monkeypatch):
    """`a2a --debug COMMAND`: a bug is raised with its traceback, not said in one line."""
    import sys

    from a2acli import settings

    def broken():
        raise RuntimeError("boom")

    monkeypatch.setattr(settings, "config_path", broken)
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # --debug sets its redacting hook
    result = cli("--debug", "config", "path")
    assert result.exit_code == 1
    assert isinstance(result.exception, RuntimeError) and "internal error" not in result.stderr
