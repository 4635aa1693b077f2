"""`a2a mock DUMP...` (a recorded agent, a2acli/recording/mock.py) and `a2a replay DUMP --to URL` (a
regression run, a2acli/recording/replay.py): this module only reads arguments and prints."""

import time
from typing import Annotated, Any

import typer

from a2acli.commands import shared
from a2acli.commands._options import CardOpt, ContextOpt, IgnoreOpt, KeepIdsOpt, port_number
from a2acli.commands.shared import options


def _output(ctx: typer.Context) -> Any:
    """`mock`'s output: json (the URL and calls as a document) or text, whatever else is asked
    (this invocation's mode: -o, A2ACLI_OUTPUT, the config files); the boundary says errors through it."""
    from a2acli.commands.invocation import invocation
    from a2acli.render.output import JsonOutput, TextOutput

    return invocation(ctx).output(among=(JsonOutput,), otherwise=TextOutput)


def mock_command(
    ctx: typer.Context,
    dumps: Annotated[
        list[str],
        typer.Argument(
            help="Dump directories written by --dump DIR; their exchanges are served together.",
            show_default=False,
            metavar="DUMP...",
        ),
    ],
    port: Annotated[
        int,
        typer.Option(
            "--port",
            help="Port on 127.0.0.1; 0 picks a free one (the URL is printed on stdout).",
            metavar="PORT",
            parser=port_number,
        ),
    ] = 0,
    grpc_port: Annotated[
        int,
        typer.Option(
            "--grpc-port",
            help="Port on 127.0.0.1 for the recorded gRPC exchanges (when the dumps hold some and the grpc extra is installed); 0 picks a free one (the card lists it).",
            metavar="PORT",
            parser=port_number,
        ),
    ] = 0,
    speed: Annotated[
        float,
        typer.Option(
            "--speed", help="Replay the recorded timing N times as fast; 0: no waiting.", min=0.0, metavar="N"
        ),
    ] = 1.0,
    duration: Annotated[
        str | None,
        typer.Option(
            "--timeout",
            help="Stop after this long (30, 30s, 2m, 500ms; exit 0); default: until Ctrl-C.",
            show_default=False,
            metavar="DURATION",
        ),
    ] = None,
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            help="text (the URL) or json ({url, grpcUrl, calls}) on stdout; each request is logged on stderr. (env: A2ACLI_OUTPUT)",
            show_default=False,
        ),
    ] = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Log no request on stderr (warnings and errors only).")
    ] = False,
) -> None:
    """Serve recorded exchanges as an A2A agent on 127.0.0.1: test a client, a script or a CI job against a captured agent, without the agent or its credentials.

    The card is served as recorded (its interface URLs moved to the mock); each request gets the recorded answer of the matching recorded request (same binding, version and method; params compared with ids, UUIDs and timestamps ignored; of several, the closest, then in recorded order), streams event by event with their recorded timing. Ids the client sends back (the JSON-RPC id, task and context ids) are rewritten consistently. A request no recording matches gets the binding's own error (JSON-RPC -32601/-32602, HTTP+JSON 404 google.rpc.Status, gRPC UNIMPLEMENTED) naming the closest recorded request and the field that differs. Recorded gRPC exchanges are served on a second, plaintext port (--grpc-port; the grpc extra). A signed recorded card is served without its signatures (its URLs moved, they would not verify).

    Examples:

      a2a send --skill create-user -f projectUserId=u1 --dump rec/send

      a2a stream --skill slow --dump rec/stream

      a2a mock rec/send rec/stream --port 41299 --speed 0

      a2a send --skill create-user -f projectUserId=u1 -u http://127.0.0.1:41299
    """

    out = _output(ctx)
    from a2acli.recording import mock
    from a2acli.settings.values import parse_duration, parse_timeout

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
            _wait(seconds)
        except KeyboardInterrupt:  # the way to stop it: said as webhook listen says it, exit 130, stdout
            out.note("interrupted: the mock stopped")  # keeps its one document
            raise typer.Exit(130) from None
    raise typer.Exit(0)


def _wait(duration: float | None) -> None:
    deadline = None if duration is None else time.monotonic() + duration
    while deadline is None or time.monotonic() < deadline:
        time.sleep(0.2 if deadline is None else max(min(0.2, deadline - time.monotonic()), 0))


@shared.takes_shared
def replay_command(
    ctx: typer.Context,
    recorded: Annotated[
        str, typer.Argument(help="A dump directory written by --dump DIR.", show_default=False, metavar="DUMP")
    ],
    to: Annotated[
        str | None,
        typer.Option(
            "--to",
            help="The agent to replay against: base URL or card URL (as --url). Default: the agent -u/--url, A2ACLI_URL or the profile names.",
            show_default=False,
        ),
    ] = None,
    save: Annotated[
        str | None,
        typer.Option(
            "--save",
            help="Where the new exchanges go (default: DUMP.replay, DUMP.replay-2, … beside the old).",
            show_default=False,
        ),
    ] = None,
    ignore: IgnoreOpt = None,
    lines: ContextOpt = 3,
    keep_ids: KeepIdsOpt = False,
    card: CardOpt = False,
) -> None:
    """Send each recorded request of DUMP again, to another agent (or tomorrow's build of the same one), and show what changed.

    Each request is sent once, in recorded order, under the dump's version and binding, or under --a2a-version / --transport (translated as `a2a translate` does); ids from earlier answers (the task a send created) are carried over to later requests. The new exchanges are dumped beside the old, and each exchange is compared with the recorded one as `a2a diff` compares two dumps (canonical V1, ids and timestamps as placeholders; what another agent, version or binding implies does not count, nor the card unless --card; --verbose shows those). A message is never sent twice. Dumps hold no credentials: pass them as to any command (--api-key, --bearer, -H); the recorded requests that carried one are named. The verdict is the last line on stderr, under -q too. Exit 0 when the answers agree, 1 when one differs or a request could not be replayed (a body credential the dump redacted included), 3 when the agent at --to cannot be reached.

    Examples:

      a2a replay rec/send --to http://127.0.0.1:41241

      a2a replay rec-0.3 --to https://agent.example.com --a2a-version 1.0 \\
          --ignore '*.data.id'
    """
    opts = options(ctx)
    from a2acli.commands.invocation import invocation

    out = invocation(ctx).output()
    from a2acli.net import agent_reference
    from a2acli.pipeline.session import Call
    from a2acli.recording import replay
    from a2acli.render.events import Presenter

    if to is not None:
        opts = opts._replace(url=agent_reference(to), endpoint=None)
    elif not opts.url and not opts.endpoint:
        from a2acli.errors import UsageError

        raise UsageError(
            "replay needs the agent to replay against",
            hint="pass --to URL (or -u URL, A2ACLI_URL, a profile's url)",
        )
    inv = invocation(ctx)

    def opened(options: Any, sink: Any) -> Call:  # the call in flight: a Ctrl-C or a timeout names its task
        inv.call = Call(options, sink)
        return inv.call

    run = replay.replay(recorded, opts, Presenter(out), opened, save=save)
    report = replay.compare(run, ignore=ignore or (), keep_ids=keep_ids, card=card)
    from a2acli.commands.invocation import invocation

    verdict = invocation(ctx).verdict = 0 if report.equal and not run.failed else 1
    _render_replay(run, report, out, lines, verbose=opts.verbose)
    raise typer.Exit(verdict)


def _render_replay(run: Any, report: Any, out: Any, lines: int, *, verbose: bool = False) -> None:
    """What was sent, the diff (as `a2a diff` shows it) and, last on stderr under -q too, the verdict."""
    from a2acli.flows.diff import render as _render

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

    _render(report, out, context=lines, runs=[], verbose=verbose, document=document)
    if run.failed:
        out.warn(
            f"{len(run.failed)} request(s) could not be replayed: "
            + "; ".join(f"{s.call.ex.stem}: {s.outcome}" for s in run.failed)
        )
    out.note(
        f"replayed {len(run.sent)} request(s) to {run.url} under {run.version} over {run.binding.flag}, new dump in {run.new_dir}: {report.verdict()}",
        always=True,
    )
