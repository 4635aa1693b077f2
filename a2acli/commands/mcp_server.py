"""`a2a mcp`: serve a2a's flows as Model Context Protocol tools (a2acli/mcp; the `mcp` extra)."""

from typing import Annotated, Any

import typer

from a2acli.net import is_loopback

EXTRA_HINT = "a2a mcp needs the mcp extra"

# Top-level modules of the `mcp` extra (the SDK and what it loads); an ImportError naming anything else is a bug.
_EXTRA_MODULES = frozenset(
    {"mcp", "anyio", "starlette", "sse_starlette", "uvicorn", "pydantic", "pydantic_settings", "jsonschema"}
)
# The shared options that become every tool call's defaults (a tool's agent, a2a_version, binding
# and timeout win over them).
BASE = ("url", "profile", "config", "a2a_version", "transport", "timeout")


def _load_serve() -> Any:
    """Import the MCP server, or say which extra is missing (exit 1)."""
    import a2acli.transport  # noqa: F401  # first: httpx, which the SDK imports, without its own command-line tool (rich, pygments, click)
    from a2acli.errors import MissingExtraError
    from a2acli.extras import install_hint

    try:
        from a2acli.mcp.server import serve
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in _EXTRA_MODULES:
            raise
        raise MissingExtraError(
            EXTRA_HINT, hint=f"add it: {install_hint('mcp')} (the core install leaves the MCP SDK out to stay small)"
        ) from None
    return serve


def _address(text: str) -> tuple[str, int]:
    """--http [HOST:]PORT: the host (127.0.0.1 unless given; [::1] for IPv6) and the port."""
    host, sep, port = text.rpartition(":")
    if not sep:
        host = ""
    if not port.isdigit() or int(port) > 65535:
        raise typer.BadParameter(f"{text!r} is not [HOST:]PORT (e.g. 8000 or 127.0.0.1:8000)", param_hint="--http")
    return (host.strip("[]") or "127.0.0.1"), int(port)


def mcp_command(
    ctx: typer.Context,
    http: Annotated[
        str | None,
        typer.Option(
            "--http",
            metavar="[HOST:]PORT",
            show_default=False,
            help="Serve streamable HTTP at http://HOST:PORT/mcp instead of stdio; HOST is 127.0.0.1 unless given (anything but loopback exposes the tools, and the credentials a2a's config holds, to the network).",
        ),
    ] = None,
) -> None:
    """Serve a2a as MCP tools for coding agents (Model Context Protocol; stdio by default).

    One tool per A2A method, in a2a's names: card_fetch, card_extended, send, stream, tasks_get,
    tasks_list, tasks_cancel, tasks_subscribe, push_config_create, push_config_get,
    push_config_list, push_config_delete; and check, translate, diff. A tool names its agent in
    `agent` (a URL, or a profile of the config), or uses -u / --profile given here. Credentials
    come only from the config files, profiles and environment, with a2a's scoping (a section's
    credentials go to its agent only): no tool takes one and no result shows one. Results are the
    protocol's JSON in V1 shape (structuredContent) with a short summary; stream and subscribe
    send a progress notification per event; errors are tool errors with a2a's code and hint.
    stdout carries only the protocol. Needs the mcp extra. See docs/mcp.md.

    Examples:

      a2a mcp

      a2a mcp -u http://127.0.0.1:41241

      a2a mcp --http 8000
    """
    from a2acli.commands.invocation import invocation

    given = invocation(ctx).given
    base = {name: given[name] for name in BASE if name in given}
    host, port = _address(http) if http is not None else (None, None)
    from a2acli.flows.agents import serving

    # what every tool call starts from, checked once: a bad setting is a usage error now, not at each call
    base = serving(base)
    serve = _load_serve()
    import gc

    # a2a's entry point keeps the collector off for a run's short life (a2acli/__main__.py); a
    # server lives long: what start-up built is frozen, and cycles are collected again from here
    gc.freeze()
    gc.enable()
    if host is not None and not is_loopback(host):
        typer.echo(
            f"warning: --http {http} is not loopback: anyone who can reach it can call agents with the credentials a2a's config holds",
            err=True,
        )
    try:
        serve(base, host=host, port=port)
    except KeyboardInterrupt:
        pass


mcp_command.shared_options = (  # type: ignore[attr-defined]  # its class declares them (commands.shared); named at the end of its help
    BASE,
    "Every tool call starts from the shared options",
)
