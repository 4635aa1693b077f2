"""The console script's entry: `run` hands the command line to the root app
(`commands.registry`), which builds only the command it is asked for (`RootGroup.get_command`);
`--help` and completion see the whole tree. Nothing imports this module but the console script."""

from __future__ import annotations

from typing import Any

from a2acli.commands.registry import COMMANDS, build_app, full_app

__all__ = ["COMMANDS", "build_app", "run"]


def __getattr__(name: str) -> Any:
    """`app`: the root app, made on first use (tests, docs)."""
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

    if os.environ.get(completion_cmd.COMPLETE_VAR):  # the shell asks for completions
        completion_cmd.register_shells()
    app = build_app()
    _collect_from_here()
    app(prog_name="a2a")  # usage errors: RootGroup reports them (the JSON envelope under -o json)
