"""The entry point of the `a2a` console script and of `python -m a2acli`.

It sets the garbage collector up before anything heavy is imported. A start-up imports some 300
modules whose objects all live until the process ends, so collections during it find nothing
and only cost time; and on exit the interpreter's last collections walk that whole heap again.
Both together are about a fifth of an `a2a card fetch` (benchmarks/startup.py). So: no
collection while starting, and the start-up heap is frozen (left out of every later collection)
once the command runs; `main.run()` turns collection back on for the command itself.

A Ctrl-C at any moment exits 130 without a traceback: in a command, its boundary reports it
(commands/_run.py); before (the imports, ~80 ms, and argument parsing) it is caught here; and
before this function runs (the console script importing the package), the handler that the
package sets when it is imported as `a2a` exits 130 (a2acli/__init__.py). Once inside the `try`,
Python's own handler is back, so a command sees KeyboardInterrupt as usual."""

from __future__ import annotations

import gc
import sys


def main() -> None:
    gc.disable()
    try:
        _own_interrupts()
        from a2acli.main import run

        run()
    except KeyboardInterrupt:  # Ctrl-C before any command's boundary (imports, parsing): quietly, 130
        sys.exit(130)
    except Exception as e:  # the same Ctrl-C, wrapped by Python on its way out (errors.caused_by_interrupt)
        from a2acli.errors import caused_by_interrupt

        if caused_by_interrupt(e):
            sys.exit(130)
        raise
    finally:
        gc.freeze()  # exit: the interpreter's final collections skip what the run built
        gc.enable()


def _own_interrupts() -> None:
    """Python's Ctrl-C handler again, in place of the package's start-up one (if it set one)."""
    import a2acli

    if a2acli._EARLY_INTERRUPT:
        import signal

        if signal.getsignal(signal.SIGINT) is a2acli._quiet_interrupt:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        a2acli._EARLY_INTERRUPT = False


if __name__ == "__main__":
    main()
