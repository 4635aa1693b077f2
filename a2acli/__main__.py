"""The entry point of the `a2a` console script and of `python -m a2acli`.

It sets the garbage collector up before anything heavy is imported. A start-up imports some 300
modules whose objects all live until the process ends, so collections during it find nothing
and only cost time; and on exit the interpreter's last collections walk that whole heap again.
Both together are about a fifth of an `a2a card fetch` (benchmarks/startup.py). So: no
collection while starting, and the start-up heap is frozen (left out of every later collection)
once the command runs; `main.run()` turns collection back on for the command itself.

A Ctrl-C at any moment exits 130 without a traceback: in a command, its boundary reports it
(commands/_run.py); before (the imports, ~80 ms, and argument parsing) it is caught here."""

from __future__ import annotations

import gc
import sys


def main() -> None:
    gc.disable()
    try:
        from a2acli.main import run

        run()
    except KeyboardInterrupt:  # Ctrl-C before any command's boundary (imports, parsing): quietly, 130
        sys.exit(130)
    finally:
        gc.freeze()  # exit: the interpreter's final collections skip what the run built
        gc.enable()


if __name__ == "__main__":
    main()
