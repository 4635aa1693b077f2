"""The root command. Commands are registered from one table, and a run registers only the
command it was asked for: Typer builds (and type-checks) every registered command's parameters
on each start, so a full tree costs ~100 ms that `a2a card fetch` does not need. `--help`,
completion and anything unrecognised get the full tree; `from a2acli.main import app` too."""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from typing import Annotated, Any, Optional

import typer

from a2acli import __version__
from a2acli.commands._options import COMMON, common_parameters, with_signature

HELP = (
    "Drive and debug A2A (Agent2Agent) agents over JSON-RPC, in V1 (1.0) and V0 (0.3).\n\n"
    "Quick start: `a2a demo-server` in one terminal, then `a2a card fetch -u http://127.0.0.1:41241`."
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


# -- the command table: name -> how to register it (imports happen here, not at start-up) ----------


def _send(app: typer.Typer) -> None:
    from a2acli.commands import message
    from a2acli.commands._inputs import OrderedCommand

    app.command("send", cls=OrderedCommand, rich_help_panel="Methods")(message.send_command)


def _stream(app: typer.Typer) -> None:
    from a2acli.commands import message
    from a2acli.commands._inputs import OrderedCommand

    app.command("stream", cls=OrderedCommand, rich_help_panel="Methods")(message.stream_command)


def _group(module: str, name: str, panel: str | None, *, hidden: bool = False) -> Callable[[typer.Typer], None]:
    def register(app: typer.Typer) -> None:
        import importlib

        sub = importlib.import_module(f"a2acli.commands.{module}").app
        if panel:
            app.add_typer(sub, name=name, rich_help_panel=panel, hidden=hidden)
        else:
            app.add_typer(sub, name=name, hidden=hidden)

    return register


def _call(app: typer.Typer) -> None:
    from a2acli.commands import call

    app.command("call", rich_help_panel="Methods")(call.call)


def _demo(app: typer.Typer) -> None:
    from a2acli.commands.demo import demo_server  # the SDK loads when it runs

    app.command("demo-server", rich_help_panel="Tools")(demo_server)


def _diff(app: typer.Typer) -> None:
    from a2acli.commands import debug
    from a2acli.commands._inputs import OrderedCommand

    app.command("diff", cls=OrderedCommand, rich_help_panel="Tools")(debug.diff)


def _translate(app: typer.Typer) -> None:
    from a2acli.commands import debug

    app.command("translate", rich_help_panel="Tools")(debug.translate)


def _completion(app: typer.Typer) -> None:
    from a2acli.commands import completion

    app.command("completion", rich_help_panel="Setup")(completion.completion)


COMMANDS: dict[str, Callable[[typer.Typer], None]] = {
    "send": _send,
    "stream": _stream,
    "card": _group("card", "card", "Methods"),
    "tasks": _group("tasks", "tasks", "Methods"),
    "task": _group("tasks", "task", None, hidden=True),
    "push-config": _group("push_configs", "push-config", "Methods"),
    "call": _call,
    "demo-server": _demo,
    "diff": _diff,
    "translate": _translate,
    "webhook": _group("webhook", "webhook", "Tools"),
    "config": _group("config", "config", "Setup"),
    "auth": _group("auth", "auth", "Setup"),
    "completion": _completion,
}


def build_app(only: str | None = None) -> typer.Typer:
    """The root app with every command, or with `only` that one."""
    app = typer.Typer(
        name="a2a",
        help=HELP,
        no_args_is_help=True,
        context_settings={"help_option_names": ["-h", "--help"]},
        pretty_exceptions_enable=False,
        add_completion=False,
    )
    app.callback()(_root)
    for name, register in COMMANDS.items():
        if only is None or name == only:
            register(app)
    return app


def _value_flags() -> frozenset[str]:
    """The root options that take a value (so the token after them is not the command)."""
    flags: set[str] = set()
    for ann, default in COMMON.values():
        if default is not False:
            info = ann.__metadata__[0]  # in Annotated, Option's first name lands in `default`
            decls = (info.default, *(info.param_decls or ()))
            flags.update(d for d in decls if isinstance(d, str) and d.startswith("-"))
    return frozenset(flags)


def requested_command(argv: list[str]) -> str | None:
    """The command named on this command line, if it is one of ours (None: build everything)."""
    value_flags = _value_flags()
    i = 0
    while i < len(argv):
        tok = argv[i]
        if tok in ("-h", "--help", "--"):
            return None
        if tok.startswith("-"):
            i += 2 if tok in value_flags else 1
            continue
        return tok if tok in COMMANDS else None
    return None


_FULL: typer.Typer | None = None


def __getattr__(name: str) -> Any:
    """`app`: the full command tree, built on first use (tests, docs, `a2a diff`)."""
    global _FULL
    if name == "app":
        if _FULL is None:
            _FULL = build_app()
        return _FULL
    raise AttributeError(name)


def run() -> None:
    import os

    from a2acli.commands import completion as completion_cmd

    if os.environ.get(completion_cmd.COMPLETE_VAR):  # the shell asks for completions: everything
        completion_cmd.register_shells()
        build_app()(prog_name="a2a")
        return
    argv = sys.argv[1:]
    command = requested_command(argv)
    if command is not None and not {"-h", "--help"} & set(argv):  # no option help will be shown
        from a2acli.commands import _options

        _options.HELP_WANTED = False
    if command is None and ("--version" in argv or "-V" in argv):
        command = ""  # the version needs no command at all
    build_app(command)(prog_name="a2a")
