"""The error boundary's work, headless: an exception that ends a flow becomes its one-line message,
hint, JSON error document and exit code, said in the invocation's output mode. Lower layers raise
`A2acliError`; `ended` says it and returns the exit code. A face turns that code into its own end
(the CLI: `commands._run.boundary` raises `typer.Exit`; `guarded` returns it, for a side of `a2a
diff -- CMD` and for a test)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from a2acli.errors import (
    INTERNAL,
    INTERRUPTED,
    A2acliError,
    ExitCode,
    TimeoutExpired,
    cannot_write,
    caused_by_interrupt,
)

if TYPE_CHECKING:
    from a2acli.flows.invocation import Captured, Environment, Invocation
    from a2acli.pipeline.options import CallOptions
    from a2acli.redact import Redactor
    from a2acli.render.output import Output


def guarded(inv: Invocation, work: Callable[[], int | None]) -> int:
    """`work()` inside a boundary of its own: its exit code (None is 0), or the code of the error
    that ended it, said (`ended`)."""
    try:
        return work() or 0
    except (Exception, KeyboardInterrupt) as e:
        return ended(inv, e)


def run_captured(
    captured: Captured, opts: CallOptions, env: Environment | None = None
) -> tuple[int, A2acliError | None]:
    """Run a captured flow (`a2a diff -- CMD`) with `opts` in place of the parsed ones, with an
    invocation and a boundary of its own (`a2a diff` goes on after a side that failed, and compares
    exit codes), in `env` (its streams: where the side writes; the process's by default): its exit
    code, and the error that boundary said (None when it said none)."""
    from a2acli.flows.invocation import Invocation

    side = Invocation(
        env=env, redactor=opts.redactor
    )  # the secrets the options were resolved with: masked on this side too
    side.opts = opts
    code = guarded(side, lambda: captured.flow(side, *captured.args, **captured.kwargs))
    return code, side.error


def ended(inv: Invocation, e: BaseException) -> int:
    """What ended a flow, said in `inv`'s output mode: its exit code. A bug is said plainly (its
    traceback only with --debug, where it is raised again for Python to print, redacted)."""
    if isinstance(e, A2acliError):
        o = inv.error_output()
        said = inv.error = say_error(e, o, debug=inv.debug, call=inv.call)
        if isinstance(said, TimeoutExpired):
            resume(o, inv.call, "timed out", unsettled_only=True)
        return int(said.exit_code)
    if isinstance(e, KeyboardInterrupt):
        return interrupted(inv.error_output(), inv.call)
    if isinstance(e, BrokenPipeError):  # the reader left: nothing more to say; a verdict stands (diff, replay, check)
        return inv.verdict or 0
    written = cannot_write(e) if isinstance(e, Exception) else None  # (not a bug: the disk is full, the device failed)
    if written is not None:
        inv.error = say_error(written, inv.error_output(), debug=inv.debug)
        return int(inv.error.exit_code)
    if caused_by_interrupt(e):  # a Ctrl-C that Python wrapped (3.11: a class's __set_name__ raises RuntimeError)
        return interrupted(inv.error_output(), inv.call)
    if inv.debug:
        sys.excepthook = redacted_excepthook(
            inv.redactor
        )  # Python prints the traceback: redacted, chained exceptions too
        raise e
    inv.error_output().error(
        message=f"internal error: {type(e).__name__}: {e}",
        hint="rerun with --debug for the traceback, and report it",
        code=INTERNAL,
        a2a_code=None,
    )
    return int(ExitCode.FAILED)


def interrupted(o: Output, call: Any) -> int:
    """Ctrl-C: the task and how to resume it (or `interrupted`): exit 130."""
    commands = resume(o, call, "interrupted")
    if commands is None:
        o.note("interrupted")
    # -o json (text: the notes say it): the commands that pick the task up again, for a script
    hint = "resume with: " + " or: ".join(commands) if commands else None
    o.error_document(message="interrupted (Ctrl-C)", hint=hint, code=INTERRUPTED)
    return int(ExitCode.INTERRUPTED)


def say_error(e: A2acliError, o: Output, *, debug: bool, call: Any = None) -> A2acliError:
    """One error, said: explained from the call it ended (credentials, rejected ids), traced under
    --debug, printed in the output's voice. Returns what was said (kept for `a2a diff`)."""
    from a2acli.flows.errors import explained

    e = explained(e, call)
    if debug:
        print_traceback(e, o.redactor, o.err)
    o.error(
        message=e.message,
        hint=e.hint,
        code=e.code,
        a2a_code=e.wire_code,
        data=e.data,
        request_id=e.request_id,
        debug=debug,
    )
    return e


def print_traceback(e: BaseException, redactor: Redactor, stream: Any = None) -> None:
    """--debug: the traceback on stderr, each chained exception included, secrets redacted (an
    httpx error quotes the header value it refused), and control characters escaped as in every
    other view (an agent's error text may carry ESC or BEL: render.safe). Each exception's own line
    (`Type: message`) is kept to one line: an agent's line feed in a message is shown `\\n`, never
    a line of its own; the traceback's frames keep theirs. Written to `stream` (the error's
    Output's stderr), else the process's stderr."""
    import traceback

    from a2acli.render.safe import visible

    text = redactor.text

    tb = traceback.TracebackException.from_exception(e)
    said: set[str] = set()  # what format_exception_only writes for each exception of the chain
    chain: list[traceback.TracebackException | None] = [tb]
    seen: set[int] = set()
    while chain:
        one = chain.pop()
        if one is not None and id(one) not in seen:
            seen.add(id(one))
            said.update(one.format_exception_only())
            chain += [one.__cause__, one.__context__]
    err = stream or sys.stderr
    err.write(
        "".join(
            visible(text(chunk.rstrip("\n")), one_line=True) + "\n" if chunk in said else visible(text(chunk))
            for chunk in tb.format()
        )
    )
    err.flush()


def redacted_excepthook(redactor: Redactor) -> Callable[[type[BaseException], BaseException, Any], None]:
    """sys.excepthook for --debug: the traceback printed by print_traceback, masked by the run's `redactor`."""

    def hook(kind: type[BaseException], e: BaseException, tb: Any) -> None:
        print_traceback(e.with_traceback(tb), redactor)

    return hook


def resume(o: Output, call: Any, why: str, *, unsettled_only: bool = False) -> list[str] | None:
    """What the call left unfinished and how to pick it up again, said on stderr: the commands
    said (none when there was nothing to say)."""
    if call is None:
        return None
    from a2acli.events import CommandLine
    from a2acli.pipeline.policies import resume_notes
    from a2acli.render.events import Presenter

    commands: list[str] = []

    class Said(Presenter):
        __slots__ = ()

        def emit(self, event: Any) -> None:
            if isinstance(event, CommandLine):
                commands.append(event.text)
            super().emit(event)

    return commands if resume_notes(Said(o), call, why, unsettled_only=unsettled_only) else None
