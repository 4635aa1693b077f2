"""Issue 34: one invocation, resolved once (commands/invocation.py). -o is decided in one place, so
a config file's `output = "json"` and A2ACLI_OUTPUT reach usage errors and every command,
`auth status` included; a new shared option is its settings-table row plus its use."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest


def _json_output_from(where, cfg, monkeypatch):
    if where == "config file":
        cfg.parent.mkdir(parents=True, exist_ok=True)
        cfg.write_text('output = "json"\n')
    else:
        monkeypatch.setenv("A2ACLI_OUTPUT", "json")


@pytest.mark.parametrize("where", ["config file", "env"])
@pytest.mark.parametrize(
    "argv,says",
    [
        (["tasks", "get"], "missing argument 'TASK_ID'"),
        (["send", "hi", "--qqqqq"], "no such option: --qqqqq"),
        (["nosuchcommand"], "no such command 'nosuchcommand'"),
        (["config", "set", "no-such-key", "v"], "no-such-key"),
    ],
)
def test_a_usage_error_follows_output_json_from_the_config_file_or_env(cli, cfg, monkeypatch, where, argv, says):
    _json_output_from(where, cfg, monkeypatch)
    result = cli(*argv)
    assert result.exit_code == 2, result.stderr
    err = json.loads(result.stdout)["error"]
    assert err["code"] == "A2ACLI_ERR_USAGE" and says in err["message"]


@pytest.mark.parametrize("where", ["config file", "env"])
def test_auth_status_follows_output_json_from_the_config_file_or_env(cli, cfg, monkeypatch, tmp_path, where):
    _json_output_from(where, cfg, monkeypatch)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    result = cli("auth", "status", "--profile", "nobody")
    assert result.exit_code == 4
    assert json.loads(result.stdout)["error"]["code"] == "A2ACLI_ERR_CREDENTIALS_MISSING"


def test_a_flag_still_beats_the_config_file(cli, cfg):
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text('output = "json"\n')
    result = cli("tasks", "get", "-o", "text")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("error: missing argument 'TASK_ID'")


@pytest.mark.parametrize(
    ("given", "file", "env", "mode"),
    [
        ({"output": "JSON"}, "", "", "json"),  # a flag, in any case
        ({}, 'output = "raw"\n', "text", "text"),  # the environment beats the file
        ({}, 'output = "Raw"\n', "", "raw"),
        ({"profile": "p"}, 'output = "text"\n[profiles.p]\noutput = "json"\n', "", "json"),  # the profile's
        ({}, "", "", "auto"),
    ],
)
def test_o_before_the_options_are_resolved_is_what_they_resolve_to(cfg, monkeypatch, tmp_path, given, file, env, mode):
    """-o is read once, by build_options; an error said before the options are resolved reads
    the same setting the same way (Invocation.output_mode), so the two cannot disagree."""
    from a2acli.commands.invocation import Invocation

    monkeypatch.chdir(tmp_path)  # no local config file but the test's
    monkeypatch.delenv("A2ACLI_OUTPUT", raising=False)
    if env:
        monkeypatch.setenv("A2ACLI_OUTPUT", env)
    if file:
        cfg.parent.mkdir(parents=True, exist_ok=True)
        cfg.write_text(file)
    early = Invocation(given).output_mode()
    resolved = Invocation(given)
    assert early == resolved.options().output == resolved.output_mode() == mode


def test_an_unknown_o_is_refused_where_the_options_are_resolved_and_auto_before(cfg, monkeypatch, tmp_path):
    from a2acli.commands.invocation import Invocation
    from a2acli.errors import UsageError

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("A2ACLI_OUTPUT", raising=False)
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text('output = "yaml"\n')
    inv = Invocation({})
    assert inv.output_mode() == "auto"  # the usage error about it is said in the default mode
    with pytest.raises(UsageError, match="unknown output mode 'yaml'"):
        inv.options()


# -- the recipe "a new shared option is its row plus its use", run with a throwaway row ------------

_THROWAWAY = r'''
import sys, typer
from a2acli.settings import table
row = table.Setting("colour-scheme", "The colours of a throwaway test option.", panel=table.OUT, metavar="NAME", choices=("dark", "light"))
table.OPTIONS["colour-scheme"] = row
table.SETTINGS["colour-scheme"] = row
from a2acli.commands import registry
from a2acli.commands.shared import options, takes_shared

@takes_shared  # the shared options, the throwaway row among them, come from the command's class
def probe(ctx: typer.Context) -> None:
    """A throwaway command that uses the throwaway option."""
    opts = options(ctx)
    typer.echo(f"{opts.values['colour-scheme']} from {opts.sources['colour-scheme']}")

def build():
    one = typer.Typer(add_completion=False)
    one.command("probe", cls=registry.Command)(probe)
    return typer.main.get_command(one)

registry.COMMANDS["probe"] = build
from a2acli.main import run
sys.argv = ["a2a", *sys.argv[1:]]
run()
'''


def _probe(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("A2ACLI_", "_A2A_"))}
    base.update({"A2ACLI_GLOBAL_CONFIG": os.devnull, "COLUMNS": "200", **(env or {})})
    return subprocess.run(
        [sys.executable, "-c", _THROWAWAY, *argv], env=base, capture_output=True, text=True, timeout=60
    )


def test_a_throwaway_shared_option_is_its_row_plus_its_use(tmp_path):
    """One Setting row (added here, in the test) and a command marked `takes_shared` that uses it:
    the flag (after the command and before it), the environment, the config file, `a2a help
    options` and completion all follow, with nothing else written (no parameter, no alias, no
    CallOptions field, no parser, no env name: `opts.values` holds every setting)."""
    assert _probe("probe", "--colour-scheme", "dark").stdout == "dark from flag\n"
    before = _probe("--colour-scheme", "light", "probe")
    assert before.stdout == "light from flag\n", before.stderr
    assert _probe("probe", env={"A2ACLI_COLOUR_SCHEME": "dark"}).stdout == "dark from env A2ACLI_COLOUR_SCHEME\n"
    cfg = tmp_path / "config.toml"
    cfg.write_text('colour-scheme = "light"\n')
    from_file = _probe("probe", env={"A2ACLI_GLOBAL_CONFIG": str(cfg)})
    assert from_file.stdout.startswith("light from ") and str(cfg) in from_file.stdout, (
        from_file.stdout + from_file.stderr
    )
    shown = " ".join(_probe("help", "options").stdout.split())
    assert "--colour-scheme NAME The colours of a throwaway test option. (env: A2ACLI_COLOUR_SCHEME)" in shown
    assert "--colour-scheme" not in _probe("probe", "--help").stdout  # hidden: the closing section names the few
    words = _probe(
        env={"_A2A_COMPLETE": "complete_bash", "COMP_WORDS": "a2a probe --colour", "COMP_CWORD": "2"}
    ).stdout.split()
    assert "--colour-scheme" in words
    values = _probe(
        env={"_A2A_COMPLETE": "complete_bash", "COMP_WORDS": "a2a probe --colour-scheme ", "COMP_CWORD": "3"}
    ).stdout.split()
    assert values == ["dark", "light"]


def _leaves(cmd, ctx=None):
    import typer

    ctx = ctx or typer.Context(cmd, info_name="a2a")
    if not hasattr(cmd, "list_commands"):
        yield ctx.command_path, cmd
        return
    for name in cmd.list_commands(ctx):
        sub = cmd.get_command(ctx, name)
        yield from _leaves(sub, typer.Context(sub, info_name=name, parent=ctx))


def _declares_every_row(cmd) -> dict[str, str]:
    """What is wrong with the shared options of a command's Click params: each row of the settings
    table, once, with its flags, of its kind (a list repeatable, a switch a flag), hidden."""
    from a2acli.settings.table import OPTIONS

    by_name = {}
    for p in cmd.params:
        by_name.setdefault(p.name, []).append(p)
    wrong = {}
    for s in OPTIONS.values():
        found = by_name.get(s.arg, [])
        if len(found) != 1:
            wrong[s.name] = f"declared {len(found)} times"
            continue
        p = found[0]
        if p.opts[0] != f"--{s.name}" or set(p.opts) != {f"--{s.name}", *s.flags}:
            wrong[s.name] = f"flags {p.opts}"
        elif (p.multiple, p.is_flag) != (s.kind == "list", s.kind == "switch") or not p.hidden:
            wrong[s.name] = "not of the row's kind, or shown in --help"
    return wrong


def test_the_root_and_every_command_that_calls_an_agent_declare_every_shared_option():
    """The other half of the recipe: every row of the settings table is a Click option of the root
    (given before the command) and of every command that calls an agent, declared by the command's
    class (`registry.Command`, for a function marked `shared.takes_shared`), not listed by the
    function; a new row reaches them all with nothing else written."""
    import inspect

    import typer

    from a2acli.commands.invocation import ARGS
    from a2acli.main import build_app

    root = typer.main.get_command(build_app())
    assert _declares_every_row(root) == {}
    assert not ARGS & set(inspect.signature(root.callback).parameters)
    callers = {path: cmd for path, cmd in _leaves(root) if "url" in {p.name for p in cmd.params}}
    assert {
        "a2a send",
        "a2a stream",
        "a2a call",
        "a2a chat",
        "a2a check",
        "a2a replay",
        "a2a tasks get",
        "a2a tasks list",
        "a2a card fetch",
        "a2a card catalog",
        "a2a push-config list",
        "a2a config show",
    } <= set(callers)
    partial = {path for path, cmd in callers.items() if getattr(cmd.callback, "shared_options", None) is not True}
    assert partial == {"a2a auth login", "a2a diff", "a2a mcp"}  # these name the few they take, at the end of their help
    wrong = {path: _declares_every_row(cmd) for path, cmd in callers.items() if path not in partial}
    assert {path: what for path, what in wrong.items() if what} == {}
    listed = {  # the function itself lists none of them: they reach it through the invocation
        path: sorted(ARGS & set(inspect.signature(cmd.callback).parameters))
        for path, cmd in callers.items()
        if path not in partial
    }
    assert {path: names for path, names in listed.items() if names} == {}


# -- the recipe "a new output mode is one class plus its name in OUTPUT_MODES" ----------------------


def test_the_output_modes_of_o_come_from_the_one_table(cli):
    """-o's metavar, its choices (checked in usage errors), config completion and the classes of
    render.output all follow settings.table.OUTPUT_MODES: a new mode is its class plus its name there."""

    from a2acli.commands.config import complete_values
    from a2acli.render.output import MODES
    from a2acli.settings.table import OPTIONS, OUTPUT_MODES

    row = OPTIONS["output"]
    assert row.choices is OUTPUT_MODES and row.metavar == "|".join(OUTPUT_MODES)
    assert set(MODES) == set(OUTPUT_MODES)

    class Ctx:
        params = {"key": "output"}

    assert complete_values(Ctx(), "") == list(OUTPUT_MODES)  # type: ignore[arg-type]
    refused = cli("send", "hi", "-o", "yaml", "--offline", "--rpc-url", "http://x/")
    assert refused.exit_code == 2 and "unknown output mode 'yaml'" in refused.stderr
    assert all(mode in refused.stderr for mode in OUTPUT_MODES)
    assert f"-o, --output {'|'.join(OUTPUT_MODES)}" in " ".join(cli("help", "options").stdout.split())


def test_a_repeatable_option_given_before_and_after_the_command_keeps_both(cli, respx_mock):
    """`a2a -u URL tasks get ID` is `a2a tasks get ID -u URL` (`a2a help options`), so a repeatable
    option given on both sides keeps every value, in command-line order: `a2a -H A tasks get ID -H
    B` sends both headers (an alias `a2a -H 'X-Team: qa'` plus a command's own -H). Those after the
    command replaced those before, and A was dropped without a word. A single-valued option given
    on both sides is still the one after the command."""
    from a2a_testkit import AGENT, RPC, v1_card

    task = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}
    interfaces = [
        {"url": RPC, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
        {"url": AGENT, "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
    ]
    respx_mock.get(f"{AGENT}/.well-known/agent-card.json").respond(json=v1_card(supportedInterfaces=interfaces))
    rest = respx_mock.get(f"{AGENT}/tasks/t-1").respond(json=task)
    argv = ["-H", "X-A: 1", "--transport", "rest", "-u", "http://elsewhere.test", "tasks", "get", "t-1"]
    result = cli(*argv, "-H", "X-B: 2", "--transport", "jsonrpc", "-u", AGENT, "-o", "json")
    assert result.exit_code == 0, result.stderr
    (sent,) = [c.request for c in rest.calls]  # rest first: the preference given before the command
    assert (sent.headers["X-A"], sent.headers["X-B"]) == ("1", "2")
