"""`a2a mcp`'s server, on the official `mcp` SDK's low-level `Server`: the tools of
`a2acli.mcp.tools` listed (input and output schemas, annotations) and called (each in a worker
thread: the flows are synchronous), over stdio (the default) or streamable HTTP.

- Results: `structuredContent` is the protocol's JSON in V1 shape, a short text beside it.
- Streams: a progress notification per event (when the client sent a progress token).
- Errors: a tool error (`isError`) with a2a's error code and hint, as text and as
  `structuredContent.error`; never a traceback (an unexpected exception is one line on stderr and
  an internal error for the client).
- stdout carries the protocol alone: the server writes to the stdout it was started with, and
  `sys.stdout` is stderr while it runs; logging goes to stderr."""

from __future__ import annotations

import logging
import sys
from typing import Any

import anyio
import anyio.from_thread
import anyio.to_thread
import mcp.types as types
from jsonschema.validators import validator_for  # type: ignore[import-untyped]
from mcp.server.lowlevel import Server

from a2acli import __version__
from a2acli.errors import INTERNAL, A2acliError, UsageError

log = logging.getLogger("a2acli.mcp")

INSTRUCTIONS = (
    "Tools to drive and debug A2A (Agent2Agent) agents with a2a: fetch the Agent Card, send or stream "
    "a message, get, list, cancel or subscribe to tasks, manage push-notification configs, check an "
    "agent's conformance, translate and compare A2A documents between V1 (1.0) and V0 (0.3). Name the "
    "agent by URL or by a profile of a2a's config; credentials come from a2a's config, never from a "
    "tool argument. Results are the protocol's JSON in V1 shape."
)


def build(base: dict[str, Any] | None = None) -> Any:
    """The MCP server: the tool table, over the shared options `a2a mcp` was given (`base`)."""
    from a2acli.mcp.tools import TOOLS, Face, run

    server: Server[Any, Any] = Server("a2a", version=__version__, instructions=INSTRUCTIONS)
    listed = [
        types.Tool(
            name=t.name,
            title=t.title,
            description=t.description,
            inputSchema=t.input_schema(),
            outputSchema=t.output,
            annotations=types.ToolAnnotations(title=t.title, **t.annotations),
        )
        for t in TOOLS
    ]

    # the arguments checked against each tool's input schema by a validator made once (the SDK's
    # own check, jsonschema.validate, checks the schema itself again on every call: ~10 ms a call)
    validators = {t.name: validator_for(t.inputSchema)(t.inputSchema) for t in listed}

    @server.list_tools()
    async def list_tools() -> list[types.Tool]:
        return listed

    # with a dump (flows.agents.serving: one dump for the whole server, each call appending), the
    # calls that record run one at a time; without one, they run at once
    one_dump = anyio.Lock() if (base or {}).get("dump_append") else None

    @server.call_tool(validate_input=False)
    async def call_tool(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        wrong = next(iter(validators[name].iter_errors(arguments)), None) if name in validators else None
        if wrong is not None:
            where = "/".join(str(p) for p in wrong.absolute_path)
            return _tool_error(
                UsageError(
                    f"{name}: {'argument ' + where + ': ' if where else ''}{wrong.message}",
                    hint=f"the tool's input schema (tools/list) says what {name} takes",
                )
            )
        ctx = server.request_context
        face = Face(base)
        token = ctx.meta.progressToken if ctx.meta is not None else None
        if token is not None:
            session, related = ctx.session, str(ctx.request_id)

            def progress(n: int, message: str) -> None:
                anyio.from_thread.run(session.send_progress_notification, token, float(n), None, message, related)

            face.progress = progress
        try:
            if one_dump is None:
                outcome = await anyio.to_thread.run_sync(run, name, arguments, face)
            else:  # calls served at once would number their exchanges alike and write over each other
                async with one_dump:
                    outcome = await anyio.to_thread.run_sync(run, name, arguments, face)
        except A2acliError as e:
            return _tool_error(e, face.redactor)
        except Exception as e:  # a bug: one line on stderr, an internal error for the client, no traceback
            log.error("%s failed: %s: %s", name, type(e).__name__, e)
            return _tool_error(
                A2acliError(f"internal error: {type(e).__name__}", hint="report it"), face.redactor, INTERNAL
            )
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=outcome.text)],
            structuredContent=outcome.structured,
            isError=False,
        )

    return server


def _tool_error(e: A2acliError, redactor: Any = None, code: str | None = None) -> types.CallToolResult:
    """A tool error: the error line and hint as text, and {error: {code, message, hint, a2aCode,
    exitCode}} (secrets redacted by the tool call's `redactor`, else URL userinfo only:
    flows.errors.document)."""
    from a2acli.flows.errors import document

    doc = document(e, redactor, code=code)
    text = f"error: {doc['message']}" + (f"\nhint: {doc['hint']}" if doc.get("hint") else "") + f"\ncode: {doc['code']}"
    if task := doc.get("task"):  # what the call left unsettled, and the tools that pick it up again
        text += (
            f"\ntask {task['id']} (context {task.get('contextId') or '?'}) was {task.get('state') or 'unsettled'}:"
            " tasks_subscribe or tasks_get with its task_id picks it up again"
        )
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)], structuredContent={"error": doc}, isError=True
    )


def serve(base: dict[str, Any] | None = None, *, host: str | None = None, port: int | None = None) -> None:
    """Serve until the client leaves (stdio) or Ctrl-C (HTTP): stdio unless `port` is given, then
    streamable HTTP at http://HOST:PORT/mcp (HOST 127.0.0.1 unless told otherwise)."""
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="a2a mcp: %(levelname)s: %(message)s")
    server = build(base)
    if port is None:
        anyio.run(_stdio, server)
    else:
        _http(server, host or "127.0.0.1", port)


async def _stdio(server: Any) -> None:
    """The protocol on the stdout the process was started with; anything else printed goes to stderr."""
    from io import TextIOWrapper

    from mcp.server.stdio import stdio_server

    protocol = anyio.wrap_file(TextIOWrapper(sys.stdout.buffer, encoding="utf-8"))
    sys.stdout = sys.stderr
    async with stdio_server(stdout=protocol) as (read, write):
        await server.run(read, write, server.create_initialization_options())


def _http(server: Any, host: str, port: int) -> None:
    """Streamable HTTP on HOST:PORT, path /mcp; on loopback, DNS-rebinding protection (the Host
    and Origin headers must name loopback)."""
    import contextlib

    import uvicorn
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
    from mcp.server.transport_security import TransportSecuritySettings
    from starlette.applications import Starlette
    from starlette.routing import Route

    loopback = host in ("127.0.0.1", "localhost", "::1")
    security = (
        TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
            allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"],
        )
        if loopback
        else None
    )
    manager = StreamableHTTPSessionManager(app=server, security_settings=security)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Any) -> Any:
        async with manager.run():
            yield

    class McpEndpoint:  # an ASGI app (not a function): Starlette hands it the request as it came
        async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
            await manager.handle_request(scope, receive, send)

    app = Starlette(routes=[Route("/mcp", endpoint=McpEndpoint())], lifespan=lifespan)
    print(f"a2a mcp: streamable HTTP on http://{_host(host)}:{port}/mcp", file=sys.stderr, flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")


def _host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
