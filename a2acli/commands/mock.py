"""`a2a mock DUMP...` and `a2a replay DUMP --to URL`: their names, options and help; the work is
flows.recorded's (over a2acli/recording/mock.py and replay.py). Neither is a method command:
`a2a diff -- CMD` does not capture them (`_run.run_here`)."""

from typing import Annotated

import typer

from a2acli.commands import shared
from a2acli.commands._options import CardOpt, ContextOpt, IgnoreOpt, KeepIdsOpt, port_number
from a2acli.commands._run import run_here


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
    from a2acli.flows.recorded import run_mock

    run_here(ctx, run_mock, dumps, port=port, grpc_port=grpc_port, speed=speed, duration=duration)


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
    from a2acli.flows.recorded import run_replay

    run_here(
        ctx, run_replay, recorded, to=to, save=save, ignore=ignore or (), lines=lines, keep_ids=keep_ids, card=card
    )
