"""The entry point of the `a2a` console script and of `python -m a2acli`.

It sets the garbage collector up before anything heavy is imported. A start-up imports some 300
modules whose objects all live until the process ends, so collections during it find nothing
and only cost time; and on exit the interpreter's last collections walk that whole heap again.
Both together are about a fifth of an `a2a card fetch` (benchmarks/startup.py). So: no
collection while starting, and the start-up heap is frozen (left out of every later collection)
once the command runs; `main.run()` turns collection back on for the command itself."""

from __future__ import annotations

import gc


def main() -> None:
    gc.disable()
    try:
        from a2acli.main import run

        run()
    finally:
        gc.freeze()  # exit: the interpreter's final collections skip what the run built
        gc.enable()


if __name__ == "__main__":
    main()
