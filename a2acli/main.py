"""The root command: registers one group per noun, the message commands and the tools."""

from __future__ import annotations

import inspect
from typing import Annotated, Any, Optional

import typer

from a2acli import __version__
from a2acli.commands import call as call_mod
from a2acli.commands import card, message, push_configs, tasks
from a2acli.commands._inputs import OrderedCommand
from a2acli.commands._options import COMMON, common_parameters, with_signature

app = typer.Typer(
    name="a2a",
    help="Drive and debug A2A (Agent2Agent) agents over JSON-RPC, in V1 (1.0) and V0 (0.3).\n\n"
    "Quick start: `a2a demo-server` in one terminal, then `a2a card fetch -u http://127.0.0.1:41241`.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"a2a {__version__}")
        raise typer.Exit()


def _root(
    ctx: typer.Context,
    version: Annotated[Optional[bool], typer.Option("--version", "-V", help="Print the version and exit.", callback=_version, is_eager=True)] = None,
    **common: Any,
) -> None:
    """The shared options are accepted here (before the subcommand) and after it."""
    ctx.obj = {k: v for k, v in common.items() if k in COMMON}


_sig = inspect.signature(_root, eval_str=True)
with_signature(_root, _sig.replace(parameters=[p for p in _sig.parameters.values() if p.name != "common"] + common_parameters()))
app.callback()(_root)

app.command("send", cls=OrderedCommand, rich_help_panel="Methods")(message.send_command)
app.command("stream", cls=OrderedCommand, rich_help_panel="Methods")(message.stream_command)
app.add_typer(card.app, name="card", rich_help_panel="Methods")
app.add_typer(tasks.app, name="tasks", rich_help_panel="Methods")
app.add_typer(tasks.app, name="task", hidden=True)
app.add_typer(push_configs.app, name="push-config", rich_help_panel="Methods")
tasks.app.add_typer(push_configs.app, name="push-config", hidden=True)
app.command("call", rich_help_panel="Methods")(call_mod.call)


from a2acli.commands.demo import demo_server  # noqa: E402  (cheap: the SDK loads when it runs)

app.command("demo-server", rich_help_panel="Tools")(demo_server)

from a2acli.commands import debug as debug_cmd  # noqa: E402  (diffing and translation load when they run)

app.command("diff", cls=OrderedCommand, rich_help_panel="Tools")(debug_cmd.diff)
app.command("translate", rich_help_panel="Tools")(debug_cmd.translate)

from a2acli.commands import webhook  # noqa: E402

app.add_typer(webhook.app, name="webhook", rich_help_panel="Tools")

from a2acli.commands import auth as auth_cmd, completion as completion_cmd, config as config_cmd  # noqa: E402

app.add_typer(config_cmd.app, name="config", rich_help_panel="Setup")
app.add_typer(auth_cmd.app, name="auth", rich_help_panel="Setup")
app.command("completion", rich_help_panel="Setup")(completion_cmd.completion)


def run() -> None:
    import os

    if os.environ.get(completion_cmd.COMPLETE_VAR):  # the shell asks for completions
        completion_cmd.register_shells()
    app(prog_name="a2a")
