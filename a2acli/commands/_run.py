"""The error boundary, and the entry points the method commands call: each opens a session
(pipeline.session.Call), invokes the method, and hands the replies to render.

This module holds the package's one error boundary: lower layers raise A2acliError, it becomes a
message, a hint and an exit code here. Every command runs inside it once (`registry.Command.invoke`
opens it with this invocation, `commands.invocation`: the output mode errors are said in, --debug,
and the Output the command built)."""

from __future__ import annotations

import functools
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import typer

from a2acli.errors import (
    INTERNAL,
    INTERRUPTED,
    USAGE,
    A2acliError,
    ExitCode,
    TimeoutExpired,
    UsageError,
    cannot_write,
    caused_by_interrupt,
)
from a2acli.pipeline.options import CallOptions
from a2acli.render.output import Output

# -- the error boundary ---------------------------------------------------------------------------


class OpenBoundary(threading.local):
    """The invocation whose boundary is open, innermost (`a2a diff -- CMD` runs one inside
    another): set as a boundary opens, the outer one put back as it closes. Per thread, not per
    process (a `threading.local`: `threading` is loaded at start-up already, `contextvars` is not)."""

    inv: Any = None


_OPEN = OpenBoundary()


def known(*, out: Output) -> None:
    """The Output the command built (errors after some output keep its voice): the innermost
    boundary's invocation holds it."""
    scope = _OPEN.inv
    if scope is not None and scope.out is None:
        scope.out = out


@contextmanager
def boundary(inv: Any = None) -> Iterator[None]:
    """Around one command: an error becomes its one-line message, hint, JSON error document and
    exit code, in the output mode of `inv` (commands.invocation.Invocation: this invocation)."""
    from a2acli.commands.invocation import Invocation
    from a2acli.pipeline.session import IN_FLIGHT

    scope = inv if inv is not None else Invocation()
    outer, outer_call = _OPEN.inv, IN_FLIGHT.call
    _OPEN.inv, IN_FLIGHT.call = scope, None  # (a Call stays past its close(): the handlers below name its task)
    try:
        yield
    except (typer.Exit, typer.Abort, typer.TyperException):  # Typer's own (an exit, a bad parameter): Typer says them
        raise
    except A2acliError as e:
        o = scope.error_output()
        e = scope.error = say_error(e, o, debug=scope.debug)
        if isinstance(e, TimeoutExpired):
            _resume(o, IN_FLIGHT.call, "timed out", unsettled_only=True)
        raise typer.Exit(int(e.exit_code)) from None
    except KeyboardInterrupt:
        raise _interrupted(scope.error_output()) from None
    except BrokenPipeError:  # the reader left: nothing more to say; a verdict stands (diff, replay, check)
        raise typer.Exit(scope.verdict or 0) from None
    except Exception as e:  # a bug: say so plainly, trace only with --debug
        said = cannot_write(e)  # (not a bug: the disk is full, the device failed)
        if said is not None:
            scope.error = say_error(said, scope.error_output(), debug=scope.debug)
            raise typer.Exit(int(scope.error.exit_code)) from None
        if caused_by_interrupt(e):  # a Ctrl-C that Python wrapped (3.11: a class's __set_name__ raises RuntimeError)
            raise _interrupted(scope.error_output()) from None
        if scope.debug:
            sys.excepthook = _redacted_excepthook  # Python prints the traceback: redacted, chained exceptions too
            raise
        scope.error_output().error(
            message=f"internal error: {type(e).__name__}: {e}",
            hint="rerun with --debug for the traceback, and report it",
            code=INTERNAL,
            a2a_code=None,
        )
        raise typer.Exit(int(ExitCode.FAILED)) from None
    finally:
        _OPEN.inv, IN_FLIGHT.call = outer, outer_call


def _interrupted(o: Output) -> typer.Exit:
    """Ctrl-C: the task and how to resume it (or `interrupted`), exit 130."""
    from a2acli.pipeline.session import IN_FLIGHT

    commands = _resume(o, IN_FLIGHT.call, "interrupted")
    if commands is None:
        o.note("interrupted")
    # -o json (text: the notes say it): the commands that pick the task up again, for a script
    hint = "resume with: " + " or: ".join(commands) if commands else None
    o.error_document(message="interrupted (Ctrl-C)", hint=hint, code=INTERRUPTED)
    return typer.Exit(int(ExitCode.INTERRUPTED))


def say_error(e: A2acliError, o: Output, *, debug: bool) -> A2acliError:
    """One error, said: explained from the call it ended (credentials, rejected ids), kept for
    `a2a diff`, traced under --debug, printed in the output's voice. Returns what was said."""
    from a2acli.flows.errors import explained
    from a2acli.pipeline.session import IN_FLIGHT

    e = explained(e, IN_FLIGHT.call)
    if debug:
        print_traceback(e)
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


def print_traceback(e: BaseException) -> None:
    """--debug: the traceback on stderr, each chained exception included, secrets redacted (an
    httpx error quotes the header value it refused), and control characters escaped as in every
    other view (an agent's error text may carry ESC or BEL: render.safe). Each exception's own line
    (`Type: message`) is kept to one line: an agent's line feed in a message is shown `\\n`, never
    a line of its own; the traceback's frames keep theirs."""
    import traceback

    from a2acli.redact import text
    from a2acli.render.safe import visible

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
    sys.stderr.write(
        "".join(
            visible(text(chunk.rstrip("\n")), one_line=True) + "\n" if chunk in said else visible(text(chunk))
            for chunk in tb.format()
        )
    )
    sys.stderr.flush()


def _redacted_excepthook(kind: type[BaseException], e: BaseException, tb: Any) -> None:
    print_traceback(e.with_traceback(tb))


def usage_error(e: Exception, inv: Any) -> int:
    """A usage error Typer found before any command ran (a missing argument, an unknown option
    or command, a bad value), reported like ours: `error:`, the usage line, `hint:`, in the output
    mode of this invocation (`inv`: the flags Typer read, A2ACLI_OUTPUT, the config files); its exit code."""
    code = int(getattr(e, "exit_code", 1))
    if type(e).__name__ == "NoArgsIsHelpError":  # `a2a tasks`: the help is shown already (on stdout)
        return 2  # a group without its subcommand is a usage error, whatever Click's version says
    ctx = getattr(e, "ctx", None)
    path = getattr(ctx, "command_path", None) or "a2a"
    message, hint = _usage_text(e, ctx, path)
    usage = None
    if ctx is not None:
        usage = " ".join(ctx.get_usage().split())
        usage = "usage: " + usage.split(":", 1)[1].strip() if usage.lower().startswith("usage:") else usage
    inv.error_output().error(
        message=message, hint=hint, code=USAGE if code == 2 else INTERNAL, a2a_code=None, usage=usage
    )
    return code


# Commands people look for that are options here: what to use instead (not the closest command's name).
ELSEWHERE = {
    "record": "--dump DIR records any command's exchanges (e.g. `a2a send hi --dump rec`); `a2a replay rec --to URL` and `a2a mock rec` play them back",
    "dump": "--dump DIR records any command's exchanges (e.g. `a2a send hi --dump rec`)",
}


def _usage_text(e: Exception, ctx: Any, path: str) -> tuple[str, str]:
    """Typer's message in our voice (lower case, no closing period), and a hint: the likely
    command or option, then where the help is."""
    import difflib
    import re

    see = f"see `{path} --help`"
    text = e.format_message() if hasattr(e, "format_message") else str(e)
    found = re.match(r"No such command '([^']*)'", text)
    if found and path == "a2a" and found.group(1) in ELSEWHERE:
        return f"no such command {found.group(1)!r}", f"{ELSEWHERE[found.group(1)]} ({see})"
    if found and ctx is not None:
        group = ctx.command
        names = [n for n in group.list_commands(ctx) if not getattr(group.get_command(ctx, n), "hidden", False)]
        close = difflib.get_close_matches(found.group(1), names, n=1, cutoff=0.6)
        message = f"no such command {found.group(1)!r}"
        return message, (f"did you mean `{path} {close[0]}`? ({see})" if close else see)
    name = getattr(e, "option_name", None)
    if name and type(e).__name__ == "NoSuchOption":
        if name == "-v" and ctx is not None and any("--verbose" in getattr(p, "opts", ()) for p in ctx.command.params):
            return (
                "no such option: -v",
                f"here --verbose gives the full view (-v is `a2a -v`, the version; only `a2a diff` takes -v for --verbose) ({see})",
            )
        close = difflib.get_close_matches(name, sorted(getattr(e, "possibilities", None) or ()), n=1, cutoff=0.7)
        return f"no such option: {name}", (f"did you mean {close[0]}? ({see})" if close else see)
    hint = getattr(e, "hint", None)
    if hint:  # a check of settings.values (commands._options.RefusedValue): in our voice already
        return text, hint
    message = text.strip().rstrip(".")
    return (message[:1].lower() + message[1:]), _what_is_missing(e, see) or see


def _what_is_missing(e: Exception, see: str) -> str | None:
    """For a missing option or argument: what it takes, from its help (`--to: the agent to replay
    against: base URL or card URL (as --url); see `a2a replay --help``)."""
    param = getattr(e, "param", None) if type(e).__name__ == "MissingParameter" else None
    text = " ".join(str(getattr(param, "help", None) or "").split())
    if param is None or not text:
        return None
    first = text.split(". ")[0].rstrip(".")
    if getattr(param, "param_type_name", "") == "argument":
        name = str(getattr(param, "human_readable_name", "") or "").strip("{}")
    else:
        opts = list(getattr(param, "opts", None) or [])
        name = next((o for o in opts if o.startswith("--")), opts[0] if opts else "")
    return f"{name}: {first[:1].lower() + first[1:]}; {see}"


def _resume(o: Output, call: Any, why: str, *, unsettled_only: bool = False) -> list[str] | None:
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


def output_for(opts: CallOptions) -> Output:
    """The command's Output for these options; the boundary says errors through it."""
    out = Output(opts.output, verbose=opts.verbose, quiet=opts.quiet)
    known(out=out)
    return out


@contextmanager
def session(opts: CallOptions) -> Iterator[Any]:
    """One session: its Call, closed at the end (the command's boundary, around it, reports what
    ends it). Under --offline the flow ends where the session's invoke printed the request
    (OfflineShown): nothing was sent, exit 0."""
    from a2acli.pipeline.session import Call, OfflineShown
    from a2acli.render.events import Presenter

    with Call(opts, Presenter(output_for(opts))) as call:
        try:
            yield call
        except OfflineShown:
            pass


# -- the entry points the commands call -----------------------------------------------------------

F = TypeVar("F", bound=Callable[..., None])


class CapturedCall:
    """What a command line asked for: an entry point and its arguments, the options apart, so
    that `a2a diff -- CMD` can run it twice with two option sets (pipeline issue: no argv
    rebuilt, no stdout scraped). Not this run's `commands.invocation.Invocation` (the shared
    options and what is built from them): one call of an entry point, captured."""

    def __init__(self, fn: Callable[..., None], args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        self.fn, self.args, self.kwargs = fn, args, kwargs

    @property
    def opts(self) -> CallOptions:
        return next(a for a in (*self.args, *self.kwargs.values()) if isinstance(a, CallOptions))

    def run(self, opts: CallOptions) -> tuple[int, A2acliError | None]:
        """Run it with `opts` in place of the parsed ones; its exit code, and the error its
        boundary said (None when it said none)."""
        opts = opts._replace(capture=None)  # this time it runs
        args = tuple(opts if isinstance(a, CallOptions) else a for a in self.args)
        kwargs = {k: opts if isinstance(v, CallOptions) else v for k, v in self.kwargs.items()}
        # a boundary of its own: `a2a diff` goes on after a side that failed, and compares exit codes
        from a2acli.commands.invocation import Invocation

        side = Invocation()
        side.opts = opts
        try:
            with boundary(side):
                self.fn(*args, **kwargs)
        except typer.Exit as e:
            return int(e.exit_code), side.error
        return 0, side.error


def entry_point(fn: F) -> F:
    """An entry point a command calls with its options: when they carry a capture list (`a2a diff
    -- CMD` parses the command with one: commands.invocation.Invocation.capture), it is recorded
    there instead of run."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        opts = next((a for a in (*args, *kwargs.values()) if isinstance(a, CallOptions)), None)
        if opts is not None and opts.capture is not None:
            opts.capture.append(CapturedCall(fn, args, kwargs))
            return
        fn(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


@entry_point
def run_unary(
    method: str,
    params: Any,
    opts: CallOptions,
    *,
    request_id: str | None = None,
    expect: str | None = None,
    wait: bool = False,
    poll_interval: float = 1.0,
    headers: dict[str, str] | None = None,
    retries: int = 0,
    force: bool = False,
    strict: bool = False,
) -> None:
    """One call and its answer, presented (flows.calls.unary: the call, and the wait for a task
    that is not settled yet)."""
    from a2acli.flows import calls
    from a2acli.pipeline.policies import parse_states, report_task_outcome
    from a2acli.render.present import present
    from a2acli.wire.methods import METHODS

    spec = METHODS[method]
    with session(opts) as call:
        expected = parse_states(expect)
        reply = calls.unary(
            call,
            method,
            params,
            request_id=request_id,
            wait=wait,
            poll_interval=poll_interval,
            headers=headers,
            retries=retries,
            force=force,
            strict=strict,
        )
        present(spec.result, reply, call.sink.out, as_v1=opts.as_v1)
        if spec.result in ("send", "task"):
            report_task_outcome(call, expected, waited=wait or spec.result != "send")


@entry_point
def run_stream(
    method: str,
    params: Any,
    opts: CallOptions,
    *,
    request_id: str | None = None,
    expect: str | None = None,
    headers: dict[str, str] | None = None,
    follow: bool = True,
    force: bool = False,
    poll_interval: float = 1.0,
    live: bool = True,
    strict: bool = False,
) -> None:
    """Stream a method's events to the output as they arrive (flows.calls.stream). `live` False
    (`tasks subscribe` without --stream): show only where the stream ended, the terminal task (one
    JSON document under -o json)."""
    from a2acli.flows import calls
    from a2acli.pipeline.policies import parse_states, report_task_outcome
    from a2acli.render.stream import StreamView
    from a2acli.render.stream_final import FinalView

    with session(opts) as call:
        expected = parse_states(expect)
        calls.stream(
            call,
            method,
            params,
            lambda: (StreamView if live or not call.sends else FinalView)(call.sink.out, as_v1=opts.as_v1),
            request_id=request_id,
            headers=headers,
            follow=follow,
            force=force,
            poll_interval=poll_interval,
            live=live,
            strict=strict,
        )
        report_task_outcome(call, expected)


@entry_point
def run_list_tasks(
    params: dict[str, Any],
    opts: CallOptions,
    *,
    all_pages: bool = False,
    request_id: str | None = None,
    stream: bool = False,
    force: bool = False,
) -> None:
    """ListTasks, one page or every page (V1 pageToken cursor; V0 clix limit/offset); `stream`:
    each task as its page arrives (-o json: one Task a line); `force`: under 0.3 (no ListTasks),
    the binding's extension form all the same."""
    from a2acli.flows import calls
    from a2acli.pipeline.policies import list_pages
    from a2acli.render.present import next_page_note, passthrough, present, task_lines
    from a2acli.wire.methods import METHODS

    spec = METHODS["ListTasks"]
    with session(opts) as call:
        call.v0_extensions = force
        if stream:
            arriving = (
                list_pages(call, params, request_id)
                if all_pages
                else iter([call.unary(spec, params, request_id=request_id)])
            )
            last = None
            for page in arriving:
                task_lines(page, call.sink.out, as_v1=opts.as_v1)
                last = page
            if not all_pages and last is not None:
                next_page_note(call.sink.out, last.core, _list_command(params, opts))
            return
        reply = calls.list_tasks(
            call,
            params,
            all_pages=all_pages,
            request_id=request_id,
            page=lambda one: passthrough(call.sink.out, one.raw),  # raw: each page as it came
        )
        present(spec.result, reply._replace(raw=b"") if all_pages else reply, call.sink.out, as_v1=opts.as_v1)
        if not all_pages:
            next_page_note(call.sink.out, reply.core, _list_command(params, opts))


def _list_command(params: dict[str, Any], opts: CallOptions) -> str:
    """`a2a tasks list` with this call's filters and connection flags (the next page's command)."""
    import shlex

    from a2acli.pipeline.options import conn_flags
    from a2acli.wire.words import state_label

    flags = {
        "pageSize": "--page-size",
        "contextId": "--context-id",
        "status": "--status",
        "historyLength": "--history-length",
        "statusTimestampAfter": "--status-timestamp-after",
    }
    cmd = "a2a tasks list" + "".join(
        f" {flag} {shlex.quote(state_label(params[key]) if key == 'status' else str(params[key]))}"
        for key, flag in flags.items()
        if params.get(key) is not None
    )
    return cmd + (" --include-artifacts" if params.get("includeArtifacts") else "") + conn_flags(opts)


def card_signature(call: Any, doc: Any, *, require: bool = False) -> Any:
    """Verify the card's signatures (A2ACLI_CARD_GET_004) and say the outcome on stderr: loudly
    when a signature does not match; in -o json/raw (whose stdout is the card unchanged) one note
    when the card is signed. `require` (--verify-signature): anything but verified is an error,
    raised before the card is shown. None: an unsigned card, not required to be signed, under
    -o json or raw (nothing to say, and no view that shows an outcome: wire.signing is not loaded)."""
    signed = isinstance(doc, dict) and doc.get("signatures")
    if not signed and not require and not call.sink.out.human:
        return None
    from a2acli.errors import SignatureError
    from a2acli.wire import signing

    if signed:
        from a2acli.transport.signature import verify_card

        outcome = verify_card(doc, call.transport)
    else:
        outcome = signing.ABSENT_OUTCOME
    if require and outcome.status != signing.VERIFIED:
        hint = outcome.hint or (
            "the agent does not sign its card: drop --verify-signature to read it anyway"
            if outcome.status == signing.ABSENT
            else "do not trust this card; drop --verify-signature to read it anyway"
        )
        raise SignatureError(signing.outcome_line(outcome), hint=hint)
    out = call.sink.out
    if outcome.status == signing.INVALID:
        out.warn(
            f"the Agent Card's signature does NOT verify{signing.outcome_detail(outcome)}: the card may have been altered after signing; do not trust it"
        )
    elif outcome.status != signing.ABSENT:  # json and raw: the text view of the card shows it
        out.note_unless_viewed(signing.outcome_line(outcome))
    if outcome.hint:
        out.note(f"hint: {outcome.hint}")
    return outcome


def _card_request(call: Any) -> None:
    """`card fetch --offline`: the first GET the fetch would send. For a catalog entry on the
    network (not read offline) that is the catalog's; for a card in a file, or one a catalog file
    holds, there is none."""
    from a2acli.render.present import request
    from a2acli.transport.card import card_candidates

    if call.target.card_in_hand():
        call.sink.out.note(
            f"the Agent Card is read from {call.target.inline_card.url if call.target.inline_card else call.opts.url}: nothing is sent"
        )
        return
    url = call.opts.url
    if not url:
        raise UsageError("no agent given", hint="pass --url URL (or set A2ACLI_URL)")
    if call.target.catalog_pending():
        from a2acli.transport.catalog import ACCEPT, candidates

        first, headers = candidates(call.target.located.location)[0], call.transport.public_headers(ACCEPT)
    else:
        first, headers = card_candidates(url)[0], call.transport.headers({"Accept": "application/json"})
    request(
        call.sink.out,
        [f"GET {first}"] + [f"{k}: {v}" for k, v in call.redactor.headers(list(headers.items()))],
        None,
        None,
    )


@entry_point
def run_card_fetch(opts: CallOptions, *, verify_signature: bool = False) -> None:
    """The public Agent Card: an HTTP GET with the A2A-Version header, no credentials."""
    from a2acli.pipeline.session import Reply
    from a2acli.render.present import present
    from a2acli.wire import envelope

    with session(opts) as call:
        out = call.sink.out
        if opts.offline:
            _card_request(call)
            return
        fetched = call.target.fetch_card(revalidate=True)  # `card fetch` always asks the network
        if opts.version_auto:
            call.target.settle_version()  # what auto would use, said on stderr
        else:
            from a2acli.wire.endpoints import version_note

            if note := version_note(call.target.card or {}, opts.wire, opts.transports, opts.url or fetched.url):
                out.note(note)
        outcome = card_signature(call, fetched.doc, require=verify_signature)
        raw = (
            fetched.exchange.response_body if fetched.exchange else envelope.dumps(fetched.doc)
        )  # a file:// card: its JSON
        from a2acli.pipeline.options import conn_flags

        present(
            "card",
            Reply(fetched.doc, call.target.card, raw, fetched.exchange),
            out,
            as_v1=opts.as_v1,
            signature=outcome,
            flags=conn_flags(opts) if out.human else "",  # what ends the commands a view suggests: -o json has none
        )


@entry_point
def run_catalog(name: str | None, opts: CallOptions) -> None:
    """`a2a card catalog [CATALOG]`: the agents an agent catalog lists (--catalog, or the named
    one), read as `-u catalog:NAME` reads it."""
    from a2acli.render.present import catalog, request
    from a2acli.transport.catalog import ACCEPT, SET_ONE, candidates, catalog_location, is_file, listing, read_catalog

    with session(opts) as call:
        named = dict(opts.catalogs)
        if name is not None and name not in named:
            raise UsageError(
                f"no catalog named {name!r}",
                hint=f"named catalogs: {', '.join(sorted(named)) or 'none'} (`a2a config set catalog.NAME URL` names one); --catalog URL|FILE lists any",
            )
        value = named[name] if name is not None else opts.catalog
        if not value:
            raise UsageError(
                "no agent catalog is set",
                hint=SET_ONE + (f"; or name one of {', '.join(sorted(named))}" if named else ""),
            )
        location = catalog_location(value)
        if opts.offline and not is_file(location):
            headers = call.transport.public_headers(ACCEPT)
            request(
                call.sink.out,
                [f"GET {candidates(location)[0]}"] + [f"{k}: {v}" for k, v in headers.items()],
                None,
                None,
            )
            return
        read = read_catalog(call.transport, location)
        for why in read.catalog.skipped:
            call.sink.out.note(f"skipped {why}")
        document = {
            "catalog": read.location,
            "format": read.catalog.shape,
            "agents": listing(read, f"{name}/" if name else ""),
            "skipped": list(read.catalog.skipped),
        }
        catalog(call.sink.out, document, read.raw)


@entry_point
def run_call(
    method: str, params: Any, opts: CallOptions, *, request_id: str | None = None, stream: bool | None = None
) -> None:
    """`a2a call`: any method, known or not; known ones are rendered like their command."""
    from a2acli.render.present import present
    from a2acli.render.stream import StreamView
    from a2acli.wire.methods import find_method

    with session(opts) as call, _did_you_mean(method):
        spec = find_method(method)
        streaming = stream if stream is not None else bool(spec and spec.streaming)
        call.resolve()  # before encoding: the interface's binding and tenant shape the request
        enc = call.encode_call(method, params, request_id, stream=streaming)
        if streaming:
            with StreamView(call.sink.out, as_v1=opts.as_v1) as view, call.sink.out.holding():
                for reply in call.invoke(enc):
                    view.event(reply)
            return
        (reply,) = call.invoke(enc)
        present(enc.spec.result if enc.spec else "json", reply, call.sink.out, as_v1=opts.as_v1)


METHOD_NOT_FOUND = -32601


@contextmanager
def _did_you_mean(method: str) -> Iterator[None]:
    """A name that is not in the method table but close to one (`GetTsk`, `tasks/gte`): when the
    agent does not know it, or the binding cannot send it, the hint names the method it resembles."""
    from a2acli.wire.methods import METHODS, V1_METHOD_NAMES

    try:
        yield
    except A2acliError as e:
        refused = isinstance(e, UsageError) or e.a2a_code == METHOD_NOT_FOUND
        if not refused or method in METHODS or method in V1_METHOD_NAMES:  # a name of the table, spelt right
            raise
        import difflib

        names = [*METHODS, *V1_METHOD_NAMES]  # the V1 names and the V0 ones
        folded = {n.lower(): n for n in names}
        close = difflib.get_close_matches(method.lower(), list(folded), n=1, cutoff=0.75)
        if close:
            e.hint = f"did you mean {folded[close[0]]}?" + (f" (otherwise: {e.hint})" if e.hint else "")
        raise


@entry_point
def run_download(
    task_id: str, directory: str | None, opts: CallOptions, *, request_id: str | None = None, overwrite: bool = False
) -> None:
    """`a2a tasks download`: GetTask through invoke, then each artifact part saved."""
    from pathlib import Path

    from a2acli import artifacts
    from a2acli.wire.methods import METHODS

    spec = METHODS["GetTask"]
    with session(opts) as call:
        reply = call.unary(spec, {"id": task_id}, request_id=request_id)
        task = reply.core if isinstance(reply.core, dict) else {}
        call.tracking.track(task)
        artifacts.download(task, Path(directory) if directory else None, call, call.sink.out, overwrite=overwrite)
