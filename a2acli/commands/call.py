"""`a2a call METHOD [PARAMS]`: any method, for what the other commands do not cover."""

from typing import Annotated

import typer

from a2acli.commands import shared
from a2acli.commands._options import typed
from a2acli.commands.shared import options
from a2acli.settings.values import check_id


@shared.takes_shared
def call(
    ctx: typer.Context,
    method: Annotated[
        str,
        typer.Argument(
            help="Method name: V1 (GetTask) is translated under --a2a-version 0.3; a V0 name (tasks/get) needs --a2a-version 0.3; unknown methods are sent as given.",
            show_default=False,
            metavar="METHOD",
            parser=typed(check_id, "METHOD"),
        ),
    ],
    params: Annotated[
        str | None,
        typer.Argument(
            help="Params: JSON, @file or - for stdin. Written in V1 form for V1 names.",
            show_default=False,
            metavar="PARAMS",
        ),
    ] = None,
    stream: Annotated[
        bool | None,
        typer.Option(
            "--stream/--no-stream", help="Read the answer as SSE (default: from the method table).", show_default=False
        ),
    ] = None,
    request_id: Annotated[
        str | None, typer.Option("--request-id", help="The JSON-RPC id (default: a new UUID).", show_default=False)
    ] = None,
) -> None:
    """Call any method (over HTTP+JSON: one of the table, by its V1 name).

    Examples:

      a2a call GetTask '{"id": "5f0c…"}'

      a2a call GetTask '{"id": "5f0c…"}' --a2a-version 0.3 --offline -o raw

      echo '{}' | a2a call x-vendor/ping -
    """
    opts = options(ctx)
    from a2acli.commands._run import run
    from a2acli.flows.inputs import read_json
    from a2acli.flows.runs import run_call

    value = read_json(params, "PARAMS", limit=opts.max_body) if params is not None else None
    run(ctx, run_call, method, value, request_id=request_id, stream=stream)
