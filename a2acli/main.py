"""The root command: `run` registers only the command it was asked for (the table and the
root app live in `commands.registry`): Typer builds every registered command's parameters on each
start, so a full tree costs ~100 ms that `a2a card fetch` does not need. `--help`, completion and
anything unrecognised get the full tree; `from a2acli.main import app` too. Nothing imports this
module but the console script."""

from __future__ import annotations

import sys
from typing import Any

from a2acli.commands.registry import COMMANDS, _value_of, build_app, full_app, requested_command

__all__ = ["COMMANDS", "build_app", "requested_command", "run"]


def __getattr__(name: str) -> Any:
    """`app`: the full command tree, built on first use (tests, docs)."""
    if name == "app":
        return full_app()
    raise AttributeError(name)


def _collect_from_here() -> None:
    """The command starts: the start-up heap is frozen (left out of collections) and the garbage
    collector, off while starting when run through `a2acli.__main__`, is turned back on."""
    import gc

    gc.freeze()
    gc.enable()


def run() -> None:
    import os

    from a2acli.commands import completion as completion_cmd

    if os.environ.get(completion_cmd.COMPLETE_VAR):  # the shell asks for completions: everything
        from a2acli.commands import _options

        _options.FOLD_SHARED = False  # completion offers no hidden option: the shared ones are shown
        completion_cmd.register_shells()
        app = build_app()
        _collect_from_here()
        app(prog_name="a2a")
        return
    argv = sys.argv[1:]
    command, member = requested_command(argv)
    from a2acli.commands import _options

    if command not in (None, "help") and not {"-h", "--help"} & set(argv):  # no option help will be shown
        _options.HELP_WANTED = False
    else:  # help shows effective defaults: those of the profile named on the command line
        _options.HELP_PROFILE = _value_of(("--profile",), argv)
        _options.HELP_CONFIG = _value_of(("--config",), argv)
    if command is None and {"--version", "-v", "-V"} & set(argv):
        command = ""  # the version needs no command at all
    app = build_app(command, member, root_options=not argv or argv[0] != command)
    _collect_from_here()
    app(prog_name="a2a")  # usage errors: RootGroup reports them (the JSON envelope under -o json)
