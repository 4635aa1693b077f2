"""`a2a mcp` with a dump (--dump, A2ACLI_DUMP): the server is one run whose tool calls, served at
once by the SDK (each in a worker thread), all land in one dump, numbered without a clash. Driven
by the official SDK's client over its in-memory connection."""

from __future__ import annotations

import json
import time

import anyio
import httpx
import pytest
from a2a_testkit import AGENT, RPC, rpc_result, v1_card

pytest.importorskip("mcp")
from mcp.shared.memory import create_connected_server_and_client_session  # noqa: E402

from a2acli.flows.agents import serving  # noqa: E402
from a2acli.mcp.server import build  # noqa: E402

CALLS = 4
CARD_URL = f"{AGENT}/.well-known/agent-card.json"


def test_tool_calls_served_at_once_share_one_dump_without_a_clash(respx_mock, tmp_path, monkeypatch):
    def slow(request: httpx.Request) -> httpx.Response:
        time.sleep(0.2)  # every call in flight at once: their exchanges interleave
        return httpx.Response(200, json=rpc_result({"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}))

    respx_mock.get(CARD_URL).respond(json=v1_card())
    respx_mock.post(RPC).mock(side_effect=slow)
    monkeypatch.setenv("A2ACLI_DUMP", str(tmp_path / "d"))
    server = build(serving({"url": AGENT}))
    results = []

    async def main() -> None:
        async with create_connected_server_and_client_session(server) as client:

            async def one() -> None:
                results.append(await client.call_tool("tasks_get", {"task_id": "t-1"}))

            async with anyio.create_task_group() as tg:
                for _ in range(CALLS):
                    tg.start_soon(one)

    anyio.run(main)
    assert len(results) == CALLS and not any(r.isError for r in results), results
    dump = tmp_path / "d"
    index = [json.loads(line) for line in (dump / "index.jsonl").read_text().splitlines()]
    index = [e for e in index if "files" in e]  # the exchanges (a note of the call has none)
    seqs = [e["seq"] for e in index]
    assert sorted(seqs) == list(range(1, 2 * CALLS + 1)), seqs  # a card and a GetTask a call, each its own number
    assert len(list(dump.glob("*.request.http"))) == 2 * CALLS
    assert sorted(e["method"] for e in index) == ["GetTask"] * CALLS + ["card"] * CALLS
