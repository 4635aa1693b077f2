"""a2a: drive and debug A2A (Agent2Agent protocol) endpoints from the command line."""

# No `from __future__ import annotations` here: it imports a module, and this file's first lines
# run before its Ctrl-C handler is set (below), so they do as little as they can.
import sys as _sys

__version__ = "0.2.0.dev0"


def _quiet_interrupt(signum: int, frame: object) -> None:
    """Ctrl-C while `a2a` starts, before its entry point's handler: exit 130, no traceback."""
    raise SystemExit(130)


def _started_as_a2a() -> bool:
    """Whether this process is the `a2a` command: its console script (`a2a`, on Windows `a2a.exe`
    or `a2a-script.py`), or `python -m a2acli` (sys.argv[0] is "-m" while `-m` imports the package)."""
    argv0 = _sys.argv[0] if _sys.argv else ""
    if argv0 == "-m":
        orig = list(getattr(_sys, "orig_argv", ()))  # the interpreter's options come first: its -m is the first
        at = orig.index("-m") + 1 if "-m" in orig else 0
        return "-ma2acli" in orig or (at > 0 and orig[at : at + 1] == ["a2acli"])
    name = argv0.replace("\\", "/").rsplit("/", 1)[-1].lower()
    return name in ("a2a", "a2a.exe", "a2a-script.py", "a2a-script.pyw")


# Ctrl-C at any moment of the start-up of `a2a` exits 130 quietly (issue 27): the console script
# imports this package before `a2acli.__main__.main` can catch anything, so the handler is set
# here, first thing, and `main` puts Python's own back once its `try` is entered. A program that
# merely imports the package keeps its own SIGINT handling.
_STARTED_AS_A2A = _started_as_a2a()  # (also: a2acli.__main__ ends such a process without teardown)
_EARLY_INTERRUPT = _STARTED_AS_A2A
if _EARLY_INTERRUPT:
    import _signal  # type: ignore[import-not-found]  # the builtin under `signal` (which imports enum first: 1-2 ms more unguarded)

    try:
        _signal.signal(_signal.SIGINT, _quiet_interrupt)
    except ValueError:  # not the main thread (an embedding host): nothing to do
        _EARLY_INTERRUPT = False
