"""`a2a webhook listen`: receive an agent's push notifications locally: its options and help; the
work is flows.webhook's (the receiver, a2acli/webhook.py)."""

from typing import Annotated

import typer

from a2acli.commands._options import port_number
from a2acli.commands._run import run_here

app = typer.Typer(help="Push notifications: a local receiver for an agent's webhooks.", no_args_is_help=True)

RECV = "Receiving"
CHECK = "Checking the sender"
OUT = "Output and debugging"


@app.command("listen")
def webhook_listen(
    ctx: typer.Context,
    host: Annotated[
        str,
        typer.Option(
            "--host",
            help="Address to listen on. Anything but loopback is reachable from other machines (warned).",
            rich_help_panel=RECV,
        ),
    ] = "127.0.0.1",
    port: Annotated[
        int,
        typer.Option(
            "--port",
            help="Port to listen on; 0 picks a free one (the URL is printed).",
            metavar="PORT",
            parser=port_number,
            rich_help_panel=RECV,
        ),
    ] = 9000,
    count: Annotated[
        int | None,
        typer.Option(
            "--count",
            help="Exit 0 after N notifications.",
            min=1,
            metavar="N",
            show_default=False,
            rich_help_panel=RECV,
        ),
    ] = None,
    listen_timeout: Annotated[
        str | None,
        typer.Option(
            "--timeout",
            help="Stop after this long (30, 30s, 2m, 500ms); exit 5 if --count was not reached (or, without --count, if nothing arrived).",
            show_default=False,
            metavar="DURATION",
            rich_help_panel=RECV,
        ),
    ] = None,
    token: Annotated[
        str | None,
        typer.Option(
            "--token",
            help="Accept only deliveries whose X-A2A-Notification-Token / X-A2A-Token equals this (else 401).",
            show_default=False,
            rich_help_panel=CHECK,
        ),
    ] = None,
    auth: Annotated[
        str | None,
        typer.Option(
            "--auth",
            help="Accept only deliveries whose Authorization equals this, e.g. 'Bearer s3cret' (else 401).",
            show_default=False,
            rich_help_panel=CHECK,
        ),
    ] = None,
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            help="auto (the rich view at a terminal, text elsewhere), text, json (JSON Lines: each body as received) or raw (each body's bytes). (env: A2ACLI_OUTPUT)",
            show_default=False,
            rich_help_panel=OUT,
        ),
    ] = None,
    as_v: Annotated[
        str | None,
        typer.Option(
            "--as",
            help="With -o json: each notification as a canonical V1 StreamResponse, whatever its shape.",
            show_default=False,
            rich_help_panel=OUT,
        ),
    ] = None,
    dump_dir: Annotated[
        str | None,
        typer.Option(
            "--dump",
            help="Keep each delivery in this directory: NNN-webhook.request.{http,body} and index.jsonl (credentials redacted).",
            show_default=False,
            rich_help_panel=OUT,
        ),
    ] = None,
) -> None:
    """Listen for push notifications and print each one as it arrives.

    Accepts a V1 StreamResponse, a V0 bare Task or event (`kind`), and the JSON-RPC `tasks/pushNotification` wrapper some vendors send; answers 200 at once, 401 when --token / --auth do not match, 400 for a body that is not JSON. Ctrl-C stops (exit 130).

    Examples:

      a2a webhook listen --port 9000

      a2a send --skill create-user --push-url http://127.0.0.1:9000/hook \\
          --push-token t1

      a2a webhook listen --port 0 --count 1 --timeout 30 -o json --token t1
    """
    from a2acli.flows.webhook import run_listen

    run_here(
        ctx,
        run_listen,
        host=host,
        port=port,
        count=count,
        timeout=listen_timeout,
        token=token,
        auth=auth,
        output=output,
        as_v=as_v,
        dump=dump_dir,
    )
