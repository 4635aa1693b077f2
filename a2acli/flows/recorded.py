"""`a2a mock DUMP...` (a recorded agent served, a2acli/recording/mock.py) and `a2a replay DUMP`
(each recorded request sent again and compared, a2acli/recording/replay.py), headless: each a
function of the invocation and its own arguments, returning its exit code."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from a2acli.flows.invocation import Invocation
    from a2acli.pipeline.session import Call


def run_mock(
    inv: Invocation,
    dumps: list[str],
    *,
    port: int = 0,
    grpc_port: int = 0,
    speed: float = 1.0,
    duration: str | None = None,
    wait: Callable[[float | None], None] | None = None,
) -> int:
    """`a2a mock`: the dumps served on 127.0.0.1 until `duration` (None: until Ctrl-C, exit 130);
    the URL (and gRPC URL, and the recorded calls, under -o json) on stdout, each request logged
    on stderr. `wait` is what the mock does while it serves (a test hands one that asks it)."""
    from a2acli.recording import mock
    from a2acli.render.output import JsonOutput, TextOutput
    from a2acli.settings.values import parse_duration, parse_timeout

    # json (the URL and calls as a document) or text, whatever else is asked (-o, A2ACLI_OUTPUT, the config files)
    out = inv.output(among=(JsonOutput,), otherwise=TextOutput)
    seconds = 0.0 if parse_duration(duration) == 0 else parse_timeout(duration)  # 0: stop at once

    with mock.Mock(mock.load(dumps), port=port, speed=speed, log=out.note, grpc_port=grpc_port) as served:
        for line in [*served.found.notes, *served.warnings()]:
            out.warn(line)
        for line in served.summary():
            out.note(f"serving {line}")
        try:  # from the document on: a script that reads the URL may stop the mock at once
            out.document(
                {
                    "url": served.url,
                    **({"grpcUrl": served.grpc_url} if served.grpc_url else {}),
                    "calls": [c.name for c in served.found.calls],
                },
                lambda: out.text(served.url),
            )
            out.note(f"a2a mock listening on {served.url} (Ctrl-C to stop); e.g. a2a card fetch -u {served.url}")
            (wait or _wait)(seconds)
        except KeyboardInterrupt:  # the way to stop it: said as webhook listen says it, exit 130, stdout
            out.note("interrupted: the mock stopped")  # keeps its one document
            return 130
    return 0


def _wait(duration: float | None) -> None:
    deadline = None if duration is None else time.monotonic() + duration
    while deadline is None or time.monotonic() < deadline:
        time.sleep(0.2 if deadline is None else max(min(0.2, deadline - time.monotonic()), 0))


def run_replay(
    inv: Invocation,
    recorded: str,
    *,
    to: str | None = None,
    save: str | None = None,
    ignore: Iterable[str] = (),
    lines: int = 3,
    keep_ids: bool = False,
    card: bool = False,
) -> int:
    """`a2a replay`: each request of the dump `recorded` sent once again, to `to` (else the agent
    the options name), the new exchanges dumped (`save`, else beside the old) and compared with the
    recorded ones as `a2a diff` compares two dumps. 0 when the answers agree, 1 when one differs or
    a request could not be replayed."""
    from a2acli.net import agent_reference
    from a2acli.pipeline.session import Call
    from a2acli.recording import replay
    from a2acli.render.events import Presenter

    opts = inv.options()
    out = inv.output()
    if to is not None:
        opts = opts._replace(url=agent_reference(to), endpoint=None)
    elif not opts.url and not opts.endpoint:
        from a2acli.errors import UsageError

        raise UsageError(
            "replay needs the agent to replay against",
            hint="pass --to URL (or -u URL, A2ACLI_URL, a profile's url)",
        )

    from a2acli import transport

    transport.load()  # every request is sent again: the HTTP stack from the flow's first frames (its docstring: why)

    def opened(options: Any, sink: Any) -> Call:  # the call in flight: a Ctrl-C or a timeout names its task
        inv.call = Call(options, sink)  # (the run's redactor: `options` carry it)
        return inv.call

    run = replay.replay(recorded, opts, Presenter(out), opened, save=save)
    report = replay.compare(run, ignore=tuple(ignore), keep_ids=keep_ids, card=card)
    verdict = inv.verdict = 0 if report.equal and not run.failed else 1
    _render_replay(run, report, out, lines, verbose=opts.verbose)
    return verdict


def _render_replay(run: Any, report: Any, out: Any, lines: int, *, verbose: bool = False) -> None:
    """What was sent, the diff (as `a2a diff` shows it) and, last on stderr under -q too, the verdict."""
    from a2acli.flows.diff import render

    for sent in run.sent:
        out.note(f"{sent.call.ex.stem} {sent.call.method}: {sent.outcome}")
    for note in run.notes:
        out.note(f"note: {note}")

    def document() -> dict[str, Any]:
        doc = report.to_json()
        doc["replay"] = run.to_json()
        doc["answersEqual"] = report.equal and not run.failed
        doc["answerDifferences"] = doc["differences"]
        return doc

    render(report, out, context=lines, runs=[], verbose=verbose, document=document)
    if run.failed:
        out.warn(
            f"{len(run.failed)} request(s) could not be replayed: "
            + "; ".join(f"{s.call.ex.stem}: {s.outcome}" for s in run.failed)
        )
    out.note(
        f"replayed {len(run.sent)} request(s) to {run.url} under {run.version} over {run.binding.flag}, new dump in {run.new_dir}: {report.verdict()}",
        always=True,
    )
