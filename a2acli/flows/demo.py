"""`a2a demo-server`, headless: the built-in demo agent (a2acli/demo/server.py, the `server`
extra) served until Ctrl-C, what it says on the invocation's stderr, and a port it cannot take
said as an error with its hint."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from a2acli.flows.invocation import Invocation

EXTRA_HINT = "a2a demo-server needs the server extra"

# Top-level modules of the `server` extra; an ImportError naming anything else is a bug.
_EXTRA_MODULES = frozenset({"a2a", "uvicorn", "starlette", "sse_starlette", "google", "jsonrpc"})


def _load_serve() -> Callable[..., None]:
    """Import the demo server, or say which extra is missing (exit 1)."""
    from a2acli.errors import MissingExtraError
    from a2acli.extras import install_hint

    try:
        from a2acli.demo.server import serve
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in _EXTRA_MODULES:
            raise
        raise MissingExtraError(
            EXTRA_HINT,
            hint=f"add it: {install_hint('server')} (the core install leaves the a2a-sdk server out to stay small)",
        ) from None
    return serve


def run_demo_server(
    inv: Invocation,
    *,
    host: str = "127.0.0.1",
    port: int = 41241,
    grpc_port: int | None = None,
    api_key: str = "demo-key",
    log_level: str = "warning",
    log_file: str | None = None,
) -> None:
    """Serve the demo agent on host:port (gRPC on `grpc_port`, else the port + 1; 0: none) until
    Ctrl-C; where it listens, and a host that is not loopback, said on stderr. A port it cannot
    take is an A2acliError (exit 1) naming the option to change."""
    from a2acli.errors import CANNOT_LISTEN, A2acliError
    from a2acli.net import is_loopback, listen_failure

    err = inv.env.streams()[2]

    def note(text: str) -> None:
        print(text, file=err, flush=True)

    serve = _load_serve()
    if not is_loopback(host):
        note(
            f"warning: --host {host} is not loopback: anyone who can reach it can use the demo agent, and it will POST webhooks to loopback URLs on this machine"
        )

    def announce(url: str, grpc_url: str | None) -> None:
        note(f"a2a demo agent on {url}  (V1 and V0; Ctrl-C to stop)")
        if grpc_url is not None:
            note(f"gRPC (V1 and V0, plaintext) on {grpc_url}")
        note(f"extended card and the auth skill: send header X-API-Key: {api_key}")

    try:
        serve(
            host=host,
            port=port,
            grpc_port=grpc_port,
            api_key=api_key,
            log_level=log_level.lower(),
            on_listen=announce,
            on_note=note,
            log_file=log_file,
        )
    except OSError as exc:
        if exc.filename:  # the gRPC port
            raise A2acliError(
                f"cannot listen on {exc.filename}: {listen_failure(exc)}",
                hint="choose another --grpc-port (0 turns gRPC off)",
                code=CANNOT_LISTEN,
            ) from None
        raise A2acliError(
            f"cannot listen on {host}:{port}: {listen_failure(exc)}",
            hint="choose another --port (0 picks a free one)",
            code=CANNOT_LISTEN,
        ) from None
    except KeyboardInterrupt:
        pass
