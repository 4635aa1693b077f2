"""A real a2a-sdk server that speaks ONLY HTTP+JSON (REST), V1 and V0 (0.3 compat), for tests
that check that `a2a` picks REST from the card without being told.

Run as a script: `python rest_only_server.py PORT` (binds 127.0.0.1:PORT). It reuses the demo
agent (executor, stores, card builder), with:

- no JSON-RPC route at all (`POST /` answers 405);
- the SDK's REST routes with `enable_v0_3_compat=True`: V1 `/message:send`, `/tasks/{id}`, ...
  (header `A2A-Version: 1.0`) and V0 `/v1/message:send`, `/v1/tasks/{id}`, ... (no header);
- a card at `/.well-known/agent-card.json` (and `agent.json`) listing only HTTP+JSON, 1.0 then
  0.3, both at the base URL; the 0.3 card: `url` = base, `preferredTransport: "HTTP+JSON"`,
  no `additionalInterfaces`. Shape by `A2A-Version` as the demo's (none => merged card).
- the extended card (`GET /extendedAgentCard`, `GET /v1/card`) needs `X-API-Key: demo-key`.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import AsyncIterator

import uvicorn
from a2a.server.routes import create_rest_routes
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import BaseRoute, Route

from a2acli.demo.server import (
    CARD_PATHS,
    HTTP_JSON,
    _build_card,
    _card_route_endpoint,
    _ExtendedCardKey,
    base_url,
    build_handler,
)

HOST = "127.0.0.1"
API_KEY = "demo-key"


def build_rest_only_app(port: int, *, api_key: str = API_KEY) -> Starlette:
    url = base_url(HOST, port)
    public_card = _build_card(url, extended=False, rest_url=url, bindings=(HTTP_JSON,))
    extended_card = _build_card(url, extended=True, rest_url=url, bindings=(HTTP_JSON,))
    handler, push_client = build_handler(public_card, extended_card, api_key)

    card_endpoint = _card_route_endpoint(public_card)
    # The card routes first: the REST routes end with a catch-all `Mount("/{tenant}")`.
    routes: list[BaseRoute] = [Route(path, card_endpoint, methods=["GET"]) for path in CARD_PATHS]
    routes += create_rest_routes(handler, enable_v0_3_compat=True)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await handler.aclose()
            await push_client.aclose()

    return Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(_ExtendedCardKey, api_key=api_key)],
    )


def main(argv: list[str]) -> None:
    port = int(argv[1])
    app = build_rest_only_app(port)
    uvicorn.run(app, host=HOST, port=port, log_level="warning", timeout_graceful_shutdown=2)


if __name__ == "__main__":
    main(sys.argv)
