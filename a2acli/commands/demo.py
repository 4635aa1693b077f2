"""`a2a demo-server`: run the built-in demo agent (V1 and V0 on one URL, gRPC on a second port) for trying the CLI: its options (checked here, as Typer says a bad value) and help; the serving is flows.demo's."""

from typing import Annotated

import typer

from a2acli.commands._options import port_number
from a2acli.commands._run import run_here


def demo_server(
    ctx: typer.Context,
    port: Annotated[
        int,
        typer.Option(
            "--port",
            envvar="A2ACLI_DEMO_PORT",
            show_envvar=False,
            show_default=False,
            metavar="PORT",
            parser=port_number,
            help="Port to listen on; 0 picks a free one (the real one is printed). (default: 41241; env: A2ACLI_DEMO_PORT)",
        ),
    ] = 41241,
    grpc_port: Annotated[
        int | None,
        typer.Option(
            "--grpc-port",
            envvar="A2ACLI_DEMO_GRPC_PORT",
            show_envvar=False,
            show_default=False,
            metavar="PORT",
            parser=port_number,
            help="Port for gRPC (V1 and V0, plaintext), listed on the card after JSON-RPC and HTTP+JSON; 0 turns gRPC off. Needs the grpc extra. (default: the HTTP port + 1; env: A2ACLI_DEMO_GRPC_PORT)",
        ),
    ] = None,
    host: Annotated[
        str,
        typer.Option(
            "--host",
            envvar="A2ACLI_DEMO_HOST",
            show_envvar=False,
            show_default=False,
            help="Address to bind. Anything but loopback exposes the demo agent to the network. (default: 127.0.0.1; env: A2ACLI_DEMO_HOST)",
        ),
    ] = "127.0.0.1",
    api_key: Annotated[
        str,
        typer.Option(
            "--demo-api-key",
            envvar="A2ACLI_DEMO_API_KEY",
            show_envvar=False,
            show_default=False,
            help="X-API-Key value the agent accepts for its extended card. (default: demo-key; env: A2ACLI_DEMO_API_KEY)",
        ),
    ] = "demo-key",
    log_level: Annotated[
        str,
        typer.Option(
            "--log-level",
            envvar="A2ACLI_DEMO_LOG_LEVEL",
            show_envvar=False,
            show_default=False,
            help="Server log level: critical, error, warning, info, debug. (default: warning; env: A2ACLI_DEMO_LOG_LEVEL)",
        ),
    ] = "warning",
    log_file: Annotated[
        str | None,
        typer.Option(
            "--log-file",
            envvar="A2ACLI_DEMO_LOG_FILE",
            show_envvar=False,
            show_default=False,
            metavar="PATH",
            help="Append the server's log (and warnings) to PATH instead of printing it; the lines saying where it listens stay on stderr. (env: A2ACLI_DEMO_LOG_FILE)",
        ),
    ] = None,
) -> None:
    """Run the built-in demo A2A agent (a2a-sdk server, V1 and V0 on one URL) until Ctrl-C.

    JSON-RPC and HTTP+JSON on --port; gRPC on --grpc-port (the HTTP port + 1 unless
    given; without grpcio installed, no gRPC).

    Skills: create-user, slow, fail, ask, auth, echo (plain text). The extended card
    needs X-API-Key (gRPC metadata x-api-key); the auth skill asks for it mid-task
    (auth-required) and completes when a message on the task carries it; nothing else
    needs credentials.

    Examples:

      a2a demo-server

      a2a demo-server --port 0 --log-level info

      a2a demo-server --grpc-port 0

      a2a demo-server --log-file demo.log
    """
    levels = ("critical", "error", "warning", "info", "debug", "trace")
    if log_level.lower() not in levels:
        raise typer.BadParameter(f"choose one of {', '.join(levels)}", param_hint="--log-level")
    if log_file:
        try:
            open(
                log_file, "a", encoding="utf-8"
            ).close()  # a path that cannot take the log: said now, not as a listen error
        except OSError as exc:
            raise typer.BadParameter(
                f"cannot write {log_file}: {exc.strerror or exc}", param_hint="--log-file"
            ) from None

    from a2acli.flows.demo import run_demo_server

    run_here(
        ctx,
        run_demo_server,
        host=host,
        port=port,
        grpc_port=grpc_port,
        api_key=api_key,
        log_level=log_level,
        log_file=log_file,
    )
