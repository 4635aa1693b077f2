"""What the pipeline tests share besides fixtures (those are in conftest.py): the agent's URLs and
respx answers. (A module of its own name: `conftest` is a name every test directory has.)"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import respx

AGENT = "http://agent.test"
RPC = f"{AGENT}/rpc"
CARD_URL = f"{AGENT}/.well-known/agent-card.json"


def rpc_answer(result: Any) -> Callable[[httpx.Request], httpx.Response]:
    """A respx side effect: a JSON-RPC answer carrying `result`, under the request's own id."""

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"jsonrpc": "2.0", "id": json.loads(request.content)["id"], "result": result})

    return answer


def rpc_answers(*results: Any) -> Callable[[httpx.Request], httpx.Response]:
    """A respx side effect: each request gets the next result (the last one repeats)."""
    left = list(results)

    def answer(request: httpx.Request) -> httpx.Response:
        result = left.pop(0) if len(left) > 1 else left[0]
        return rpc_answer(result)(request)

    return answer


def sent(route: respx.Route) -> list[dict[str, Any]]:
    """The JSON bodies a route received, in order."""
    return [json.loads(c.request.content) for c in route.calls]
