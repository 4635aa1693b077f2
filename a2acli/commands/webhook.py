"""`a2a webhook listen`: receive an agent's push notifications locally (logic in a2acli/webhook.py)."""

from typing import Annotated

import typer

from a2acli.commands._options import port_number

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
    from a2acli.commands.invocation import invocation
    from a2acli.errors import UsageError
    from a2acli.render.output import MODES, named
    from a2acli.settings.values import parse_duration, parse_timeout

    # (--dump and --as are the listener's own, not a call's: their parameter names differ from the shared ones)
    inv = invocation(ctx)  # -o: as given, A2ACLI_OUTPUT, the config files
    if output and output.lower() not in MODES:
        raise UsageError(f"unknown output mode {output!r}", hint=f"-o {named()}")
    if as_v and as_v.lower() not in ("v1", "1.0"):
        raise UsageError(f"--as {as_v!r} is not supported", hint="--as v1 (canonical V1 JSON)")
    from a2acli import webhook

    out = inv.output()
    result = webhook.listen(
        out,
        host=host,
        port=port,
        token=token,
        auth=auth,
        dump=dump_dir,
        count=count,
        timeout=0.0 if parse_duration(listen_timeout) == 0 else parse_timeout(listen_timeout),  # 0: at once
        as_v1=bool(as_v),
        agent_set=_agent_set(),
    )
    if result.interrupted:
        raise typer.Exit(130)


def _agent_set() -> bool:
    """Whether a `send` finds its agent without -u: A2ACLI_URL or a config file's url."""
    from a2acli import settings
    from a2acli.errors import A2acliError

    try:
        return bool(settings.resolve({}).values.get("url"))
    except A2acliError:  # a broken config file: the send would say so; the example names -u
        return False
