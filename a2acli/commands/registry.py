"""The command table and the root app built from it: one row per command, registered lazily (a
run registers only the command it was asked for, of a group only the member named; `--help`,
completion and anything unrecognised get the full tree). `a2acli.main.run` builds the app from
here; `a2a help` and `a2a diff -- COMMAND` read it too, so nothing imports `main`."""

from __future__ import annotations

import functools
import inspect
import os
import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer

from a2acli import __version__
from a2acli.commands._options import common_parameters, with_signature
from a2acli.settings.table import OPTIONS

HELP = "Drive and debug A2A (Agent2Agent) agents over JSON-RPC, HTTP+JSON or gRPC, in V1 (1.0) and V0 (0.3).\n\nQuick start: `a2a demo-server` in one terminal, then `a2a card fetch -u http://127.0.0.1:41241`."


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
    **common: Any,
) -> None:
    """The shared options are accepted here (before the subcommand) and after it."""
    ctx.obj = {k: v for k, v in common.items() if k in OPTIONS_ARGS}
    ROOT_OPTIONS.clear()
    ROOT_OPTIONS.update(ctx.obj)


def _bare_root(ctx: typer.Context) -> None:
    """The root when nothing comes before the command: Typer then builds none of the 20 options."""
    ctx.obj = {}
    ROOT_OPTIONS.clear()


ROOT_OPTIONS: dict[str, Any] = {}  # this run's root options (ctx.obj), for the boundary of its command (`guarded`)


OPTIONS_ARGS = frozenset(s.arg for s in OPTIONS.values())
_root.shared_options = True  # type: ignore[attr-defined]  # its help ends with shared_help()
_ROOT_SIG: list[inspect.Signature] = []  # `_root`'s own signature, read on first use


def _root_with_options() -> Callable[..., None]:
    """The root callback with the shared options in its signature (declared when the app is built,
    so their help carries the effective defaults of this run). Its signature is read here, not at
    import: a command line that starts with the command (`a2a card fetch …`) has the bare root."""
    if not _ROOT_SIG:  # (once: with_signature gives `_root` the signature it builds)
        _ROOT_SIG.append(inspect.signature(_root, eval_str=True))
    sig = _ROOT_SIG[0]
    return with_signature(
        _root,
        sig.replace(parameters=[p for p in sig.parameters.values() if p.name != "common"] + common_parameters()),
    )


# Every command's class (here since issue 26: `commands._inputs`, where they were, is off the path of
# a command that reads no input). The two overrides below reach past Typer's documented API (which
# shows subclassing only TyperGroup.list_commands, passed as `cls=`); each is kept because nothing
# documented gives the same behaviour (docs/architecture.md, "The Typer boundary"). Tested on typer 0.28.


class Command(typer.core.TyperCommand):
    """Every command's class: usage lines name arguments plainly, `TASK_ID` and `[TEXT]`
    (Typer writes a required one as `{TASK_ID}`).

    Why an override: since 0.27 Typer wraps a required argument's metavar in braces, also an
    explicit `metavar=` (only one starting with `[` is left alone), and no setting turns it off;
    `usage: a2a tasks get [OPTIONS] TASK_ID` is the CLI's contract (tests/commands/test_one_voice.py)."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        return [p[1:-1] if p.startswith("{") and p.endswith("}") else p for p in super().collect_usage_pieces(ctx)]


class OrderedCommand(Command):
    """Keeps the raw argument list, so parts can follow the command line's order.

    Why an override: Typer hands a command each option's values grouped by option, never the
    order in which `--text`, `--data` and `--file` were interleaved (SPEC §8.2, parts in command-line
    order), and drops `--` (`a2a diff -- CMD`); option callbacks run once per option, in order of
    first appearance, so they cannot rebuild it. `parse_args` is the one place the raw list passes."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        ctx.meta["a2acli.argv"] = list(args)
        return super().parse_args(ctx, args)


# -- the command table: name -> how to register it (imports happen here, not at start-up) ----------


def _command(
    module: str, function: str, name: str, panel: str, *, ordered: bool = False, hidden: bool = False
) -> Callable[..., None]:
    """Registers one command; `ordered` keeps repeated options in command-line order."""

    def register(app: typer.Typer, member: str | None = None) -> None:  # (a command has no members)
        import importlib

        callback = guarded(getattr(importlib.import_module(f"a2acli.commands.{module}"), function))
        app.command(
            name,
            cls=OrderedCommand if ordered else Command,
            rich_help_panel=panel,
            hidden=hidden,
            epilog=_epilog(callback),
        )(callback)

    return register


def _group(module: str, name: str, panel: str | None, *, hidden: bool = False) -> Callable[..., None]:
    """Registers a command group; given `member` (`fetch` of `a2a card fetch`), only that one:
    Typer builds every member's parameters, and a group's members each have 20 shared options."""

    def register(app: typer.Typer, member: str | None = None) -> None:
        import copy
        import importlib

        sub = importlib.import_module(f"a2acli.commands.{module}").app
        if member is not None:
            commands = [c for c in sub.registered_commands if c.name == member]
            groups = [g for g in sub.registered_groups if g.name == member]
            if commands or groups:  # otherwise (a typo): the whole group, so the error lists them
                sub = copy.copy(sub)
                sub.registered_commands, sub.registered_groups = commands, groups
        _plain_usage(sub)
        if panel:
            app.add_typer(sub, name=name, hidden=hidden, rich_help_panel=panel)
        else:
            app.add_typer(sub, name=name, hidden=hidden)

    return register


def _epilog(callback: Any) -> str | None:
    """The closing section of the help of a command that takes the shared options (True: all of
    them; a tuple of names: those, with the words that lead in)."""
    taken = getattr(callback, "shared_options", None)
    if not taken:
        return None
    from a2acli.commands._options import shared_help

    return shared_help() if taken is True else shared_help(*taken)


def guarded(callback: Callable[..., Any]) -> Callable[..., Any]:
    """`callback` run inside the error boundary (commands._run.boundary): every command registered
    here, once, so none opens one of its own. The boundary starts with the command's own
    --output/--debug when it takes them, else the root's (`a2a -o json COMMAND`); the command tells
    it more as it goes (`_run.known`: its resolved options, the Output it built). Typer reads the
    callback's signature through `__wrapped__` (or the `__signature__` copied with it)."""
    if getattr(callback, "guarded", False):  # a group's app is registered again on every build
        return callback

    @functools.wraps(callback)
    def run_guarded(*args: Any, **kwargs: Any) -> Any:
        from a2acli.commands._run import boundary  # when the command runs: not for --help or completion

        output = next((kwargs[k] for k in _OUTPUT_ARGS if kwargs.get(k)), None) or ROOT_OPTIONS.get("output")
        with boundary(output_hint=output, debug=bool(kwargs.get("debug") or ROOT_OPTIONS.get("debug"))):
            return callback(*args, **kwargs)

    run_guarded.guarded = True  # type: ignore[attr-defined]
    return run_guarded


_OUTPUT_ARGS = ("output", "output_mode")  # a command's --output parameter (webhook listen's is `output_mode`)


def _plain_usage(sub: typer.Typer) -> None:
    """The group's commands (and its groups' commands) use our Command class (plain usage lines),
    run inside the error boundary; those that take the shared options end their help with the
    short section naming them."""
    for info in sub.registered_commands:
        if info.cls is None or info.cls is typer.core.TyperCommand:
            info.cls = Command
        if info.epilog is None:
            info.epilog = _epilog(info.callback)
        if info.callback is not None:
            info.callback = guarded(info.callback)
    for group in sub.registered_groups:
        if group.typer_instance is not None:
            _plain_usage(group.typer_instance)


COMMANDS: dict[str, Callable[..., None]] = {
    "send": _command("message", "send_command", "send", "Methods", ordered=True),
    "stream": _command("message", "stream_command", "stream", "Methods", ordered=True),
    "card": _group("card", "card", "Methods"),
    "tasks": _group("tasks", "tasks", "Methods"),
    "task": _group("tasks", "task", None, hidden=True),
    "push-config": _group("push_configs", "push-config", "Methods"),
    "call": _command("call", "call", "call", "Methods"),
    "chat": _command("chat", "chat_command", "chat", "Methods"),
    "demo-server": _command("demo", "demo_server", "demo-server", "Tools"),  # the SDK loads when it runs
    "diff": _command("debug", "diff", "diff", "Tools", ordered=True),
    "translate": _command("debug", "translate", "translate", "Tools"),
    "mock": _command("mock", "mock_command", "mock", "Tools"),
    "replay": _command("mock", "replay_command", "replay", "Tools", ordered=True),
    "check": _command("check", "check", "check", "Tools"),
    "conformance": _command("check", "check", "conformance", "Tools", hidden=True),
    "webhook": _group("webhook", "webhook", "Tools"),
    "config": _group("config", "config", "Setup"),
    "auth": _group("auth", "auth", "Setup"),
    "completion": _command("completion", "completion", "completion", "Setup"),
    "help": _command("help", "help_command", "help", "Setup"),
}


class RootGroup(typer.core.TyperGroup):
    """The root command: Typer's own usage errors (a missing argument, an unknown option or
    command) are reported like every other error, `error:`/`usage:`/`hint:` on stderr (the error
    envelope on stdout under -o json), exit 2, instead of Typer's boxed message.

    Why an override of `main` (not only `list_commands`, the one override Typer documents):
    Typer raises its usage errors while parsing, before any callback runs, and prints them itself
    unless the caller passes `standalone_mode=False`; the console script and `typer.testing.CliRunner`
    both call `main`, so this is the one place that sees every invocation's argv before parsing
    (the UTF-8 check, the redactor's reset, piped help at 120 columns) and every usage error after.
    Its signature is `main`'s as typer 0.28 declares it (mypy checks the override)."""

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
        if "a2acli.redact" in sys.modules:  # a new invocation (tests run many in one process): no secret of the last
            sys.modules["a2acli.redact"].reset()
        for i, arg in enumerate(argv):  # bytes that are not UTF-8 arrive as lone surrogates: nothing can send them
            if not arg.isascii():
                try:
                    arg.encode("utf-8")
                except UnicodeEncodeError:
                    from a2acli.commands._run import Output, _mode
                    from a2acli.errors import USAGE

                    Output(_mode(_value_of(("-o", "--output"), argv))).error(
                        message=f"argument {i + 1} is not valid UTF-8",
                        hint="pass text in UTF-8 (check the terminal's encoding, or use --file/@file for bytes)",
                        code=USAGE,
                        a2a_code=None,
                    )
                    sys.exit(2)
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

            code = usage_error(e, json_output=_json_output(argv, os.environ))
        except typer.Abort:
            sys.stderr.write("Aborted!\n")
            code = 1
        sys.exit(code if isinstance(code, int) else 0)


def build_app(only: str | None = None, member: str | None = None, *, root_options: bool = True) -> typer.Typer:
    """The root app with every command, or with `only` that one (of a group: only `member`).
    Without `root_options` the root accepts no option (the command line starts with the command)."""
    app = typer.Typer(
        name="a2a",
        help=HELP,
        no_args_is_help=True,
        context_settings={"help_option_names": ["-h", "--help"]},
        pretty_exceptions_enable=False,
        add_completion=False,
        cls=RootGroup,
        epilog=_epilog(_root) if root_options else None,
    )
    app.callback()(_root_with_options() if root_options else _bare_root)
    for name, register in COMMANDS.items():
        if only is None or name == only:
            register(app, member if only else None)
    return app


def _value_flags() -> frozenset[str]:
    """The root options that take a value (so the token after them is not the command)."""
    return frozenset(flag for s in OPTIONS.values() if s.kind != "switch" for flag in (f"--{s.name}", *s.flags))


def requested_command(argv: list[str]) -> tuple[str | None, str | None]:
    """The command named on this command line if it is one of ours (None: build everything),
    and the word after it: the member of a group (`fetch` of `card fetch`), or None."""
    value_flags = _value_flags()
    i = 0
    while i < len(argv):
        tok = argv[i]
        if tok in ("-h", "--help", "--"):
            return None, None
        if tok.startswith("-"):
            i += 2 if tok in value_flags else 1
            continue
        if tok not in COMMANDS:
            return None, None
        after = argv[i + 1] if i + 1 < len(argv) else None
        return tok, (after if after and not after.startswith("-") else None)
    return None, None


_FULL: typer.Typer | None = None


def full_app() -> typer.Typer:
    """The full command tree, built on first use (tests, docs, `a2a help`, `a2a diff`)."""
    global _FULL
    if _FULL is None:
        _FULL = build_app()
    return _FULL


def _value_of(flags: tuple[str, ...], argv: list[str]) -> str | None:
    """The value given to one of `flags` (`--flag V`, `--flag=V`, or `-oV` for a short one)
    before any `--`."""
    for i, tok in enumerate(argv):
        if tok == "--":
            break
        for flag in flags:
            if tok == flag and i + 1 < len(argv):
                return argv[i + 1]
            if tok.startswith(flag + "="):
                return tok.split("=", 1)[1]
            if len(flag) == 2 and tok.startswith(flag) and len(tok) > 2:
                return tok[2:]
    return None


def _json_output(argv: list[str], env: Any) -> bool:
    """Whether this command line asks for -o json (as a flag, or through A2ACLI_OUTPUT)."""
    return str(_value_of(("-o", "--output"), argv) or env.get("A2ACLI_OUTPUT", "")).lower() == "json"
