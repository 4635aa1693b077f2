"""The shared options: one per row of the settings table (`settings.table.OPTIONS`), declared
once, at the Click level, by the command's class.

A command that takes them all is marked `@takes_shared` and lists none of them:

    @app.command("get")
    @shared.takes_shared
    def tasks_get(ctx: typer.Context, task_id: ...) -> None:
        opts = options(ctx)

Its class (`registry.Command`; the root's, `registry.RootGroup`, always) appends one Click option
per row (`_options.click_option`), and `Command.invoke` takes their values out of the parsed
parameters into this invocation (`commands.invocation`) before the function is called; a command
reads them resolved, once, with `options(ctx)`. A new shared option is therefore one row of the
settings table. Each is hidden from a command's --help (which ends with one short section naming
them, `_options.shared_help`) except when the shell asks for completions.

A command that takes only a few (`a2a diff`, `a2a auth login`) names them, by parameter name, in
its `shared_options` attribute, `(names, lead)`: its class declares those, in that order, and its
help names them. `tests/commands/test_invocation.py` checks that every method command declares
every row."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import typer

    from a2acli.pipeline.options import CallOptions

F = TypeVar("F", bound=Callable[..., Any])


def takes_shared(command: F) -> F:
    """Marks a command that takes every shared option: its class declares them (one Click option
    per row of the settings table) and hands their values to this invocation; the function's
    signature lists none of them, and its --help ends with the shared-options section."""
    command.shared_options = True  # type: ignore[attr-defined]  # read by registry.Command and its help
    return command


def options(ctx: typer.Context) -> CallOptions:
    """This invocation's shared options, resolved once (flag > env > local file > global file >
    default) and parsed by the settings table."""
    from a2acli.commands.invocation import invocation

    return invocation(ctx).options()
