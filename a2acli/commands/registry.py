"""The command table and the root app built from it: one row per command, each built when Click
asks for it (`RootGroup.get_command`; of a group, only the member asked for, `Group.get_command`),
so a run builds only the command it runs; `--help` and completion list and build the whole tree.
`a2acli.main.run` runs the app from here; `a2a help` and `a2a diff -- COMMAND` read it too, so
nothing imports `main`."""

import functools
import os
import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer

from a2acli import __version__

HELP = """Drive and debug A2A (Agent2Agent) agents over JSON-RPC, HTTP+JSON or gRPC, in V1 (1.0) and V0 (0.3).

Quick start: the demo agent in one terminal, its card in another.

  a2a demo-server

  a2a card fetch -u http://127.0.0.1:41241"""


def _version(value: bool) -> None:
    if value:
        typer.echo(f"a2a {__version__}")
        raise typer.Exit()


def _root(
    ctx: typer.Context,
    version: Annotated[
        bool | None,
        typer.Option("--version", "-v", "-V", help="Print the version and exit.", callback=_version, is_eager=True),
    ] = None,
) -> None:
    """The shared options are accepted here (before the subcommand) and after it: the root's
    class declares them (`RootGroup`, `_SharedOptions`), and this run's invocation
    (commands.invocation) starts with those given here (`RootGroup.invoke`)."""


# Every command's class, and the groups' (the root's and its groups'). The overrides below reach
# past the one override Typer documents (TyperGroup.list_commands, passed as `cls=`); each is kept
# because nothing documented gives the same behaviour (docs/architecture.md, "The Typer boundary").
# Tested on typer 0.28.


def _epilog(callback: Any, params: list[Any], scope: dict[str, Any] | None = None) -> str | None:
    """The closing section of the help of a command that takes the shared options (all of them,
    as its parameters say; or, as its callback's `shared_options` names them, those, with the
    words that lead in), worked out when the help is shown: the values in effect are those of
    this invocation's --profile and --config."""
    from a2acli.commands.invocation import ARGS

    taken = getattr(callback, "shared_options", None) or {p.name for p in params} >= ARGS
    if not taken:
        return None
    from a2acli.commands._options import shared_help

    if taken is True:
        return shared_help(scope=scope)
    names, lead = (*taken, None)[:2]
    return shared_help(names, lead, scope=scope) if lead else shared_help(names, scope=scope)


def flowed(text: str | None) -> str | None:
    """A help text as rich is given it: each paragraph of prose on one line, for rich to wrap at the
    terminal's width (Typer keeps a docstring's line breaks, so a paragraph wrapped in the source was
    wrapped twice: long and short lines); examples (indented lines) as written. The paragraphs after
    the first start on a line of their own: Typer dedents them as a docstring (`inspect.cleandoc`,
    which measures from the second line), so examples right after the summary kept no indent."""
    if not text:
        return text
    import re

    first, *rest = re.split(r"\n[ \t]*\n", text.strip("\n"))
    paragraphs = [p if p.startswith(("\b", " ")) else " ".join(p.split()) for p in rest]
    return " ".join(first.split()) + ("\n\n\n" + "\n\n".join(paragraphs) if paragraphs else "")


class _HelpInEffect:
    """A command's or group's help flows (`flowed`) and ends with the shared options it takes and
    the values in effect (`_epilog`), worked out only when the help is shown: `format_help` is where
    Click hands over the context of the help asked for (this invocation's --profile and --config)."""

    callback: Any
    epilog: str | None
    help: str | None
    params: list[Any]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.help = flowed(self.help)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        from a2acli.commands.invocation import invocation

        given = invocation(ctx).given
        self.epilog = _epilog(self.callback, self.params, {k: given.get(k) for k in ("profile", "config")})
        super().format_help(ctx, formatter)  # type: ignore[misc]


class _SharedOptions:
    """The shared options, declared once, here: a command marked `shared.takes_shared` (and the
    root) gets one Click option per row of the settings table after its own (`_options.click_option`,
    the documented `typer.core.TyperOption`), and `take_shared` moves their parsed values out of
    `ctx.params` into this invocation before Typer calls the function, which lists none of them.
    A new row of the settings table is a new option of every such command."""

    callback: Any
    params: list[Any]
    shared_names: tuple[str, ...] = ()  # the parameter names of the shared options this class declared

    def declare_shared(self, only: tuple[str, ...] | None = None) -> None:
        """Every row, in the table's order; or `only` those, by parameter name, in its order."""
        from a2acli.commands._options import click_option
        from a2acli.settings.table import OPTIONS

        by_arg = {s.arg: s.name for s in OPTIONS.values()}
        self.shared_names = tuple(by_arg) if only is None else only
        self.params = [*self.params, *(click_option(by_arg[arg]) for arg in self.shared_names)]

    def take_shared(self, ctx: Any) -> dict[str, Any]:
        """The shared options' values, taken out of `ctx.params` (a repeated one as a list, as
        Typer hands a `list[str]` parameter)."""
        taken = {name: ctx.params.pop(name) for name in self.shared_names if name in ctx.params}
        return {name: list(v) if isinstance(v, tuple) else v for name, v in taken.items()}


class Command(_SharedOptions, _HelpInEffect, typer.core.TyperCommand):
    """Every command's class: it runs inside the error boundary with this invocation (`invoke`),
    its help ends with the shared options in effect (`_HelpInEffect`), and usage lines name
    arguments plainly, `TASK_ID` and `[TEXT]` (Typer writes a required one as `{TASK_ID}`).

    Why `invoke`: the one place where a command's parsed parameters (`ctx.params`) and this
    invocation (`ctx.obj`, made by the root callback) meet before its callback runs; the shared
    options given after the command join the invocation there, and the boundary opens with it,
    once per command, so no command body opens one. Why `collect_usage_pieces`: since 0.27 Typer
    wraps a required argument's metavar in braces, also an explicit `metavar=`, and no setting
    turns it off; `usage: a2a tasks get [OPTIONS] TASK_ID` is the CLI's contract
    (tests/commands/test_one_voice.py). Why `parse_args`: when Typer refuses the command line
    (an unknown option, a bad value), the shared options it holds are read again leniently
    (Click's own `resilient_parsing`), so `a2a send hi --bogus -o json` says its error as JSON."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        taken = getattr(self.callback, "shared_options", None)
        if taken is True:  # marked `shared.takes_shared`
            self.declare_shared()
        elif taken:  # (names, lead): the few it takes, named at the end of its help (`a2a diff`)
            self.declare_shared(tuple(taken[0]))

    def invoke(self, ctx: Any) -> Any:
        from a2acli.commands._run import boundary
        from a2acli.commands.invocation import invocation

        inv = invocation(ctx).add(self.take_shared(ctx)).add(ctx.params)
        with boundary(inv):
            if inv.refused is not None:  # found before parsing (RootGroup.main), said in this invocation's mode
                raise inv.refused
            return super().invoke(ctx)

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        return _parse_args(self, ctx, args, super().parse_args)

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        return [p[1:-1] if p.startswith("{") and p.endswith("}") else p for p in super().collect_usage_pieces(ctx)]


def _parse_args(cmd: Any, ctx: Any, args: list[str], parse: Callable[..., list[str]]) -> list[str]:
    """`parse(ctx, args)`; when it refuses them, the shared options they give join this invocation
    first (read again by the same command with Click's `resilient_parsing`, unknown options
    ignored), so the usage error is said in the mode asked for."""
    given = list(args)  # (the parser consumes the list it is handed)
    try:
        return parse(ctx, args)
    except typer.TyperException as e:
        if getattr(e, "ctx", ctx) is None:  # the parser's own errors (`--page-size` without its value) name no command
            e.ctx = ctx  # type: ignore[attr-defined]  # (Click's UsageError.ctx: the usage line and --help said are this command's)
        if not ctx.resilient_parsing:
            from a2acli.commands.invocation import invocation

            try:
                lenient = cmd.make_context(
                    ctx.info_name, given, parent=ctx.parent, resilient_parsing=True, ignore_unknown_options=True
                )
                invocation(ctx).add(lenient.params)
            except Exception:  # noqa: S110  # nothing more to learn: the error is said as it is
                pass
        raise


class OrderedCommand(Command):
    """Keeps the raw argument list, so parts can follow the command line's order.

    Why an override: Typer hands a command each option's values grouped by option, never the
    order in which `--text`, `--data` and `--file` were interleaved (SPEC §8.2, parts in command-line
    order), and drops `--` (`a2a diff -- CMD`); option callbacks run once per option, in order of
    first appearance, so they cannot rebuild it. `parse_args` is the one place the raw list passes."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        ctx.meta["a2acli.argv"] = list(args)
        return super().parse_args(ctx, args)


class Group(_HelpInEffect, typer.core.TyperGroup):
    """A command group (`card`, `tasks`…): its members are built when asked for, through Click's
    `list_commands`/`get_command` hooks (the ones Typer documents overriding), so `a2a card fetch`
    builds `fetch` alone; `--help` and completion list them all."""

    source: typer.Typer | None = None  # the group's Typer app, its members not yet built

    def list_commands(self, ctx: Any) -> list[str]:
        if self.source is None:
            return super().list_commands(ctx)
        return [_member_name(c) for c in self.source.registered_commands] + [
            str(g.name) for g in self.source.registered_groups
        ]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in self.commands and self.source is not None:
            built = _member(self.source, cmd_name)
            if built is not None:
                self.commands[cmd_name] = built
        return super().get_command(ctx, cmd_name)


def _member_name(info: Any) -> str:
    return str(info.name or info.callback.__name__.lower().replace("_", "-"))


def _member(sub: typer.Typer, name: str) -> Any:
    """The Click command of one member of `sub` (a command, or a group of its own, lazy too)."""
    for info in sub.registered_commands:
        if _member_name(info) == name:
            if info.cls is None or info.cls is typer.core.TyperCommand:
                info.cls = Command
            one = typer.Typer(add_completion=False)
            one.registered_commands = [info]
            return typer.main.get_command(one)
    for group in sub.registered_groups:
        if group.name == name and group.typer_instance is not None:
            return _lazy_group(group.typer_instance, name=name, hidden=bool(group.hidden))
    return None


def _lazy_group(sub: typer.Typer, *, name: str, hidden: bool = False, panel: str | None = None) -> Any:
    """`sub` as a Click group whose members are built when asked for (`Group`)."""
    import copy

    bare = copy.copy(sub)
    bare.registered_commands, bare.registered_groups = [], []
    holder = typer.Typer(add_completion=False)
    if panel:
        holder.add_typer(bare, name=name, hidden=hidden, rich_help_panel=panel, cls=Group)
    else:
        holder.add_typer(bare, name=name, hidden=hidden, cls=Group)
    group = typer.main.get_group(holder).commands[name]
    assert isinstance(group, Group)
    group.source = sub
    return group


# -- the command table: name -> how to build it (imports happen here, not at start-up) -------------


def _command(
    module: str,
    function: str,
    name: str,
    panel: str,
    *,
    ordered: bool = False,
    hidden: bool = False,
    short_help: str | None = None,
) -> Callable[[], Any]:
    """Builds one command; `ordered` keeps repeated options in command-line order; `short_help`
    its line in the list of commands (an alias's: what it is another name of). A callback marked
    with a class of its own (`command_class`: `_message_options.takes_message`) is built with it."""

    def build() -> Any:
        import importlib

        callback = getattr(importlib.import_module(f"a2acli.commands.{module}"), function)
        one = typer.Typer(add_completion=False)
        one.command(
            name,
            cls=getattr(callback, "command_class", None) or (OrderedCommand if ordered else Command),
            rich_help_panel=panel,
            hidden=hidden,
            short_help=short_help,
        )(callback)
        return typer.main.get_command(one)

    return build


def _group(module: str, name: str, panel: str | None, *, hidden: bool = False) -> Callable[[], Any]:
    """Builds a command group, its members when asked for."""

    def build() -> Any:
        import importlib

        return _lazy_group(
            importlib.import_module(f"a2acli.commands.{module}").app, name=name, hidden=hidden, panel=panel
        )

    build.group = True  # type: ignore[attr-defined]  # listed after the commands, as Typer lists a Typer app's
    return build


COMMANDS: dict[str, Callable[[], Any]] = {
    "send": _command("message", "send_command", "send", "Methods", ordered=True),
    "stream": _command("message", "stream_command", "stream", "Methods", ordered=True),
    "card": _group("card", "card", "Methods"),
    "tasks": _group("tasks", "tasks", "Methods"),
    "task": _group("tasks", "task", None, hidden=True),
    "push-config": _group("push_configs", "push-config", "Methods"),
    "call": _command("call", "call", "call", "Methods"),
    "chat": _command("chat", "chat_command", "chat", "Methods"),
    "demo-server": _command("demo", "demo_server", "demo-server", "Tools"),  # the SDK loads when it runs
    "server": _command(
        "demo", "demo_server", "server", "Tools", short_help="demo-server, by the official CLI spec's name."
    ),
    "diff": _command("debug", "diff", "diff", "Tools", ordered=True),
    "translate": _command("debug", "translate", "translate", "Tools"),
    "mock": _command("mock", "mock_command", "mock", "Tools"),
    "replay": _command("mock", "replay_command", "replay", "Tools", ordered=True),
    "check": _command("check", "check", "check", "Tools"),
    "mcp": _command("mcp_server", "mcp_command", "mcp", "Tools"),  # the MCP SDK loads when it runs
    "conformance": _command("check", "check", "conformance", "Tools", hidden=True),
    "webhook": _group("webhook", "webhook", "Tools"),
    "config": _group("config", "config", "Setup"),
    "auth": _group("auth", "auth", "Setup"),
    "cache": _group("cache", "cache", "Setup"),
    "completion": _command("completion", "completion", "completion", "Setup"),
    "help": _command("help", "help_command", "help", "Setup"),
}


class RootGroup(_SharedOptions, Group):
    """The root command: it builds the one command asked for (`get_command`, from `COMMANDS`),
    and Typer's own usage errors (a missing argument, an unknown option or command) are reported
    like every other error, `error:`/`usage:`/`hint:` on stderr (the error envelope on stdout
    under -o json), exit 2, instead of Typer's boxed message.

    Why an override of `main` (not only `list_commands`, the one override Typer documents):
    Typer raises its usage errors while parsing, before any callback runs, and prints them itself
    unless the caller passes `standalone_mode=False`; the console script and `typer.testing.CliRunner`
    both call `main`, so this is the one place that sees every invocation's argv before parsing
    (the UTF-8 check, piped help at 120 columns; the new Invocation brings its own redactor) and
    every usage error after.
    Its signature is `main`'s as typer 0.28 declares it (mypy checks the override)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.declare_shared()  # given before the command (`a2a -u URL tasks get ID`)

    def invoke(self, ctx: Any) -> Any:
        from a2acli.commands.invocation import invocation

        invocation(ctx).add(self.take_shared(ctx))
        return super().invoke(ctx)

    def list_commands(self, ctx: Any) -> list[str]:
        """The table's commands, then its groups (the order Typer gives an app's commands and groups)."""
        return sorted(COMMANDS, key=lambda name: getattr(COMMANDS[name], "group", False))

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            self.commands[cmd_name] = COMMANDS[cmd_name]()
        return self.commands.get(cmd_name)

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        return _parse_args(self, ctx, args, super().parse_args)

    def main(
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        extra["windows_expand_args"] = windows_expand_args
        if not standalone_mode:  # the caller handles errors (`a2a diff -- CMD`)
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        argv = list(sys.argv[1:] if args is None else args)
        from a2acli.commands.invocation import Invocation

        inv = extra["obj"] = Invocation()  # this invocation: ctx.obj of the root (Click's `obj`)
        for i, arg in enumerate(argv):  # bytes that are not UTF-8 arrive as lone surrogates: nothing can send them
            if not arg.isascii():
                try:
                    arg.encode("utf-8")
                except UnicodeEncodeError:
                    from a2acli.errors import UsageError

                    inv.refused = UsageError(  # said by the command's boundary, once -o is known
                        f"argument {i + 1} is not valid UTF-8",
                        hint="pass text in UTF-8 (check the terminal's encoding, or use --file/@file for bytes)",
                    )
                    break
        if ("--help" in argv or "-h" in argv or argv[:1] == ["help"]) and "COLUMNS" not in os.environ:
            from a2acli.render.output import _isatty  # only when help is asked for: off the start-up path

            if not _isatty(sys.stdout):
                os.environ["COLUMNS"] = (
                    "120"  # piped help (read by people's scripts and coding agents): whole flag names, not 80 columns of `--history-length,--his…`
                )
        try:
            code = super().main(argv, prog_name, complete_var, standalone_mode=False, **extra)
        except typer.TyperException as e:
            from a2acli.commands._run import usage_error

            code = usage_error(e, inv)
        except typer.Abort:
            sys.stderr.write("Aborted!\n")
            code = 1
        except OSError as e:  # help or --version written to a full disk (a command's own: its boundary)
            from a2acli.errors import cannot_write

            said = cannot_write(e)
            if said is None:
                raise
            from a2acli.flows.boundary import say_error

            code = int(say_error(said, inv.error_output(), debug=False).exit_code)
        sys.exit(code if isinstance(code, int) else 0)


def build_app() -> typer.Typer:
    """The root app: every command of `COMMANDS`, each built when it is asked for (`RootGroup`)."""
    app = typer.Typer(
        name="a2a",
        help=HELP,
        no_args_is_help=True,
        context_settings={"help_option_names": ["-h", "--help"]},
        pretty_exceptions_enable=False,
        add_completion=False,
        cls=RootGroup,
    )
    app.callback()(_root)
    return app


@functools.cache
def full_app() -> typer.Typer:
    """The root app, made on first use (tests, docs, `a2a help`, `a2a diff`), then the same one."""
    return build_app()
