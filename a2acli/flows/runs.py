"""The flows the method commands run, headless: each opens a session (pipeline.session.Call) on
the invocation's options, invokes the method (flows.calls) and hands the replies to render, and
returns its exit code. A face calls them through its invocation (`Invocation.run(flow, ...)`: the
CLI's commands, `a2a diff -- CMD` capturing one); errors are raised (`A2acliError`) and said by
the boundary around them (flows.boundary)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from a2acli.errors import A2acliError, UsageError

if TYPE_CHECKING:
    from a2acli.flows.invocation import Invocation
    from a2acli.pipeline.options import CallOptions


def _over_http(opts: CallOptions, *, card_only: bool, sends: bool | None) -> bool:
    """Whether a session over `opts` may send through httpx (then transport.load): `sends`, the
    flow's own word when it has one; not under --offline (nothing is sent), without an agent (a
    usage error follows), for a file: card that is all the flow reads (`card_only`: card fetch; a
    call goes on to the card's interface), nor for --endpoint over gRPC (grpcio carries every call)."""
    if opts.offline or sends is not None:
        return bool(sends) and not opts.offline
    if (not opts.url and not opts.endpoint) or (card_only and (opts.url or "").startswith("file:")):
        return False
    if opts.endpoint:
        from a2acli.wire.bindings import binding_info

        info = binding_info(opts.preferred_binding)
        return info is None or not info.carrier_grpc
    return True


@contextmanager
def session(
    inv: Invocation, *, card_only: bool = False, sends: bool | None = None
) -> Iterator[Any]:  # the Call (its sink the Presenter, whose `out` the flows write)
    """One session over this invocation's options, its events to the invocation's Output; it is
    the invocation's call in flight (a Ctrl-C or a timeout names its task), and is closed at the
    end (the boundary, around it, reports what ends it). Under --offline the flow ends where the
    session's invoke printed the request (OfflineShown): nothing was sent, exit 0. `card_only`: the
    flow reads the Agent Card and calls no method (card fetch); `sends`: whether the flow sends over
    HTTP, when the options do not say it (`card catalog`: a catalog URL, or a file)."""
    opts = inv.options()
    if _over_http(opts, card_only=card_only, sends=sends):
        from a2acli import transport

        transport.load()  # here, near the top of the stack: why, in its docstring
    from a2acli.pipeline.session import Call, OfflineShown
    from a2acli.render.events import Presenter

    with Call(opts, Presenter(inv.output())) as call:
        inv.call = call  # (it stays past its close(): the boundary's reports name its task)
        try:
            yield call
        except OfflineShown:
            pass


def run_unary(
    inv: Invocation,
    method: str,
    params: Any,
    *,
    request_id: str | None = None,
    expect: str | None = None,
    wait: bool = False,
    poll_interval: float = 1.0,
    headers: dict[str, str] | None = None,
    retries: int = 0,
    force: bool = False,
    strict: bool = False,
) -> int:
    """One call and its answer, presented (flows.calls.unary: the call, and the wait for a task
    that is not settled yet)."""
    from a2acli.flows import calls
    from a2acli.pipeline.policies import parse_states, report_task_outcome
    from a2acli.render.present import present
    from a2acli.wire.methods import METHODS

    spec = METHODS[method]
    opts = inv.options()
    with session(inv) as call:
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
    return 0


def run_stream(
    inv: Invocation,
    method: str,
    params: Any,
    *,
    request_id: str | None = None,
    expect: str | None = None,
    headers: dict[str, str] | None = None,
    follow: bool = True,
    force: bool = False,
    poll_interval: float = 1.0,
    live: bool = True,
    strict: bool = False,
) -> int:
    """Stream a method's events to the output as they arrive (flows.calls.stream). `live` False
    (`tasks subscribe` without --stream): show only where the stream ended, the terminal task (one
    JSON document under -o json)."""
    from a2acli.flows import calls
    from a2acli.pipeline.policies import parse_states, report_task_outcome
    from a2acli.render.stream import StreamView
    from a2acli.render.stream_final import FinalView

    opts = inv.options()
    with session(inv) as call:
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
    return 0


def run_list_tasks(
    inv: Invocation,
    params: dict[str, Any],
    *,
    all_pages: bool = False,
    request_id: str | None = None,
    stream: bool = False,
    force: bool = False,
) -> int:
    """ListTasks, one page or every page (V1 pageToken cursor; V0 clix limit/offset); `stream`:
    each task as its page arrives (-o json: one Task a line); `force`: under 0.3 (no ListTasks),
    the binding's extension form all the same."""
    from a2acli.flows import calls
    from a2acli.pipeline.policies import list_pages
    from a2acli.render.present import next_page_note, passthrough, present, task_lines
    from a2acli.wire.methods import METHODS

    spec = METHODS["ListTasks"]
    opts = inv.options()
    with session(inv) as call:
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
            return 0
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
    return 0


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


def run_card_fetch(inv: Invocation, *, verify_signature: bool = False) -> int:
    """The public Agent Card: an HTTP GET with the A2A-Version header, no credentials."""
    from a2acli.pipeline.session import Reply
    from a2acli.render.present import present
    from a2acli.wire import envelope

    opts = inv.options()
    with session(inv, card_only=True) as call:
        out = call.sink.out
        if opts.offline:
            _card_request(call)
            return 0
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
    return 0


def run_card_validate(inv: Invocation, *, verify_signature: bool = False) -> int:
    """`card fetch --validate`: the card as `card fetch` shows it, then its findings on stderr; the
    exit code says whether it is valid."""
    from a2acli.check.run import validate_fetched
    from a2acli.pipeline.session import Reply
    from a2acli.render.present import present
    from a2acli.wire import envelope

    opts = inv.options()
    with session(inv, card_only=True) as call:
        fetched = call.target.fetch_card(revalidate=True)  # `card fetch` always asks the network
        outcome = card_signature(call, fetched.doc, require=verify_signature)
        if call.sink.out.one_document:  # the card when it is valid, else the error that names its findings
            from a2acli.check.run import invalid_card_error

            invalid = invalid_card_error(fetched.doc, fetched.url)
            if invalid is not None:
                raise invalid
        raw = fetched.exchange.response_body if fetched.exchange else envelope.dumps(fetched.doc)
        present(
            "card",
            Reply(fetched.doc, call.target.card, raw, fetched.exchange),
            call.sink.out,
            as_v1=opts.as_v1,
            signature=outcome,
        )
        code = validate_fetched(fetched.doc, fetched.url, call.sink.out)
    return code


def run_catalog(inv: Invocation, name: str | None) -> int:
    """`a2a card catalog [CATALOG]`: the agents an agent catalog lists (--catalog, or the named
    one), read as `-u catalog:NAME` reads it."""
    from a2acli.render.present import catalog, request
    from a2acli.transport.catalog import ACCEPT, SET_ONE, candidates, catalog_location, is_file, listing, read_catalog

    opts = inv.options()
    named = dict(opts.catalogs)
    value = named.get(name) if name is not None else opts.catalog
    location = catalog_location(value) if value else ""
    with session(inv, sends=bool(location) and not is_file(location)) as call:
        if name is not None and name not in named:
            raise UsageError(
                f"no catalog named {name!r}",
                hint=f"named catalogs: {', '.join(sorted(named)) or 'none'} (`a2a config set catalog.NAME URL` names one); --catalog URL|FILE lists any",
            )
        if not value:
            raise UsageError(
                "no agent catalog is set",
                hint=SET_ONE + (f"; or name one of {', '.join(sorted(named))}" if named else ""),
            )
        if opts.offline and not is_file(location):
            headers = call.transport.public_headers(ACCEPT)
            request(
                call.sink.out,
                [f"GET {candidates(location)[0]}"] + [f"{k}: {v}" for k, v in headers.items()],
                None,
                None,
            )
            return 0
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
    return 0


def run_call(
    inv: Invocation, method: str, params: Any, *, request_id: str | None = None, stream: bool | None = None
) -> int:
    """`a2a call`: any method, known or not; known ones are rendered like their command."""
    from a2acli.render.present import present
    from a2acli.render.stream import StreamView
    from a2acli.wire.methods import find_method

    opts = inv.options()
    with session(inv) as call, _did_you_mean(method):
        spec = find_method(method)
        streaming = stream if stream is not None else bool(spec and spec.streaming)
        call.resolve()  # before encoding: the interface's binding and tenant shape the request
        enc = call.encode_call(method, params, request_id, stream=streaming)
        if streaming:
            with StreamView(call.sink.out, as_v1=opts.as_v1) as view, call.sink.out.holding():
                for reply in call.invoke(enc):
                    call.tracking.track(reply.core)  # a Ctrl-C or a timeout names the task and how to resume it
                    view.event(reply)
            return 0
        (reply,) = call.invoke(enc)
        call.tracking.track(reply.core)
        present(enc.spec.result if enc.spec else "json", reply, call.sink.out, as_v1=opts.as_v1)
    return 0


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


def run_download(
    inv: Invocation, task_id: str, directory: str | None, *, request_id: str | None = None, overwrite: bool = False
) -> int:
    """`a2a tasks download`: GetTask through invoke, then each artifact part saved."""
    from pathlib import Path

    from a2acli import artifacts
    from a2acli.wire.methods import METHODS

    spec = METHODS["GetTask"]
    with session(inv) as call:
        reply = call.unary(spec, {"id": task_id}, request_id=request_id)
        task = reply.core if isinstance(reply.core, dict) else {}
        call.tracking.track(task)
        artifacts.download(task, Path(directory) if directory else None, call, call.sink.out, overwrite=overwrite)
    return 0
