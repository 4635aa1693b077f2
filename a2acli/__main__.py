"""The entry point of the `a2a` console script and of `python -m a2acli`.

It sets the garbage collector up before anything heavy is imported. A start-up imports some 300
modules whose objects all live until the process ends, so collections during it find nothing
and only cost time; and on exit the interpreter's last collections walk that whole heap again.
Both together are about a fifth of an `a2a card fetch` (benchmarks/startup.py). So: no
collection while starting, and the start-up heap is frozen (left out of every later collection)
once the command runs; `main.run()` turns collection back on for the command itself.

A Ctrl-C at any moment exits 130 without a traceback: in a command, its boundary reports it
(flows/boundary.py); before (the imports, ~80 ms, and argument parsing) it is caught here; and
before this function runs (the console script importing the package), the handler that the
package sets when it is imported as `a2a` exits 130 (a2acli/__init__.py). Once inside the `try`,
Python's own handler is back, so a command sees KeyboardInterrupt as usual.

The end: when this process is the `a2a` command (its console script or `python -m a2acli`), it
ends without the interpreter's teardown, which frees each of the run's objects one by one and
takes about 8 ms of an `a2a card fetch` (benchmarks/startup.py). An exit handler registered
first, so that it runs last (Python runs them in reverse order), flushes stdout and stderr and
ends the process with the run's exit status (`os._exit`): by then Python has joined the run's
threads and run every other exit handler (logging's among them: it closes the demo server's
log file). a2a closes every file it writes before its command returns (the dump's, the
recording's, a config file's). Not taken: when a2a is imported by another program (tests,
`a2a diff -- CMD` in-process), or under `python -X dev`, which keeps the teardown and the
warnings it gives about files left open."""

from __future__ import annotations

import gc
import sys


def main() -> None:
    gc.disable()
    import a2acli

    status = [1]  # the exit status of this run, known once `_main` has finished: the exit handler reads it
    try:  # (the registering too: a Ctrl-C that comes just after it is this run's 130, not a 1)
        if a2acli._STARTED_AS_A2A and not sys.flags.dev_mode:
            import atexit

            atexit.register(_end_now, status)
        _main()
        status[0] = 0
    except SystemExit as e:
        status[0] = exit_status(e.code)
        raise
    except KeyboardInterrupt:  # a Ctrl-C as the run ends, after every boundary: 130, as ever
        status[0] = 130
        raise
    except BaseException:  # Python prints the traceback and exits 1
        status[0] = 1
        raise


def exit_status(code: object) -> int:
    """The status Python gives `SystemExit(code)`: 0 for None, an int as it is, 1 for anything
    else (which it prints)."""
    if code is None:
        return 0
    return code if isinstance(code, int) else 1


def _end_now(run: list[int]) -> None:
    """The last exit handler: what is left on stdout and stderr written, then the process ends
    with this run's status, skipping the interpreter's teardown. A reader that has gone (a
    closed pipe) changes nothing: a2a says nothing more and keeps the status, as a command's
    boundary does (flows/boundary.py). Output that cannot be written (a full disk) is said on
    stderr, as the boundary says it, and a run that had succeeded exits 1: nothing is lost unsaid."""
    import os

    status = run[0]
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except BrokenPipeError:  # the reader left
            pass
        except OSError as e:
            from a2acli.errors import cannot_write

            said = cannot_write(e) if stream is sys.stdout else None
            if said is not None:
                os.write(2, f"error: {said.message} [{said.code}]\nhint: {said.hint}\n".encode())
                status = status or int(said.exit_code)
        except ValueError:  # the stream was closed
            pass
    os._exit(status)


def _main() -> None:
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
    """Python's Ctrl-C behaviour again (a KeyboardInterrupt, noted: errors.on_interrupt), in place of
    the package's start-up handler (if it set one)."""
    import a2acli

    if a2acli._EARLY_INTERRUPT:
        import signal

        if signal.getsignal(signal.SIGINT) is a2acli._quiet_interrupt:
            from a2acli.errors import on_interrupt

            signal.signal(signal.SIGINT, on_interrupt)  # Python's own, a Ctrl-C noted (errors.on_interrupt: why)
        a2acli._EARLY_INTERRUPT = False


if __name__ == "__main__":
    main()
