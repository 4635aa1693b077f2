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


# The youngest generation's threshold while a command runs: collections start once this many more
# objects were made than freed (Python's default: 700, or 2,000 from 3.13). A command's first
# objects are mostly what its own lazy imports build (modules, classes, functions: some 25-28 thousand
# for `card fetch`, `send`, `tasks list`), which live until the process ends, so collecting them is
# only cost: about 4% of an `a2a card fetch` (benchmarks/startup.py). A long run (a stream, a
# server) still collects, every 50,000 objects; the stream path makes no cycles (its memory is flat:
# benchmarks/stream_memory.py runs under this threshold too), and a server holds a bounded amount
# more awaiting collection (the demo agent: 6 MB more after 1,500 sends and after 4,000 alike).
RUN_GEN0_THRESHOLD = 50_000


def _collect_from_here() -> None:
    """The command starts: the start-up heap is frozen (left out of collections) and the garbage
    collector, off while starting when run through `a2acli.__main__`, is turned back on, its first
    generation collected every RUN_GEN0_THRESHOLD objects."""
    import gc

    gc.freeze()
    _, *older = gc.get_threshold()
    gc.set_threshold(RUN_GEN0_THRESHOLD, *older)
    gc.enable()


def run() -> None:
    import os

    from a2acli.commands import COMPLETE_VAR

    if os.environ.get(COMPLETE_VAR):  # the shell asks for completions
        from a2acli.commands.completion import register_shells

        register_shells()
    app = build_app()
    _collect_from_here()
    app(prog_name="a2a")  # usage errors: RootGroup reports them (the JSON envelope under -o json)
