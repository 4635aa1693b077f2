"""`a2a mcp` driven by the official MCP client (the `mcp` SDK's ClientSession) against the demo
agent, over stdio and over streamable HTTP: the tool list and every tool, a send that completes,
a stream with progress notifications, the same send in V0, a task fetched by the id send returned,
an error as a tool error; no credential in any input schema, and a profile's API key (config file)
reaching the extended card without appearing in any result."""

from __future__ import annotations

import json
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

mcp = pytest.importorskip("mcp")
from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client import streamable_http  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

pytestmark = pytest.mark.integration

TOOLS = {
    "card_fetch",
    "card_extended",
    "send",
    "stream",
    "tasks_get",
    "tasks_list",
    "tasks_cancel",
    "tasks_subscribe",
    "push_config_create",
    "push_config_get",
    "push_config_list",
    "push_config_delete",
    "check",
    "translate",
    "diff",
}
READ_ONLY = {
    "card_fetch",
    "card_extended",
    "tasks_get",
    "tasks_list",
    "tasks_subscribe",
    "push_config_get",
    "push_config_list",
    "check",
    "translate",
    "diff",
}
DESTRUCTIVE = {"tasks_cancel", "push_config_delete"}
CREDENTIAL_NAMES = {"token", "key", "basic", "auth", "authentication", "push_token", "access_token", "id_token"}
CREDENTIAL_PARTS = (
    "api_key",
    "apikey",
    "bearer",
    "password",
    "secret",
    "credential",
    "authorization",
    "header",
    "cookie",
)
PROFILE_KEY = "demo-key"  # the demo agent's (serve()'s default), kept in the test's config file


@pytest.fixture(scope="module")
def config(tmp_path_factory, demo_agent) -> Path:
    """A config file whose profile `demo` names the demo agent and keeps its API key."""
    path = tmp_path_factory.mktemp("mcp-config") / "config.toml"
    path.write_text(f'[profiles.demo]\nurl = "{demo_agent.url}"\napi-key = "{PROFILE_KEY}"\n')
    return path


@pytest.fixture(scope="module")
def env(a2a_env, config) -> dict[str, str]:
    return a2a_env(A2ACLI_GLOBAL_CONFIG=str(config), A2ACLI_LOCAL_CONFIG="/dev/null")


@asynccontextmanager
async def over_stdio(a2a_bin: list[str], env: dict[str, str]) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(command=a2a_bin[0], args=[*a2a_bin[1:], "mcp"], env=env)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def http_server(a2a_bin, env, tmp_path_factory) -> Any:
    """`a2a mcp --http PORT` in the background; its URL."""
    port = _free_port()
    log = tmp_path_factory.mktemp("mcp-http") / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([*a2a_bin, "mcp", "--http", str(port)], env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/mcp"
    deadline = time.monotonic() + 20
    try:
        while True:
            try:
                httpx.get(url, timeout=1)
                break
            except httpx.TransportError:
                assert proc.poll() is None, log.read_text()
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.1)
        yield url, log
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@asynccontextmanager
async def over_http(url: str) -> AsyncIterator[ClientSession]:
    # streamable_http_client since mcp 1.2x; streamablehttp_client (deprecated) before
    connect = getattr(streamable_http, "streamable_http_client", None) or streamable_http.streamablehttp_client
    async with connect(url) as (read, write, _), ClientSession(read, write) as session:
        await session.initialize()
        yield session


async def every_tool(session: ClientSession, demo_url: str) -> list[Any]:
    """Every tool called once (the happy paths), the results kept in order; asserts as it goes."""
    results: list[Any] = []

    async def call(name: str, arguments: dict[str, Any], progress: Callable[..., Any] | None = None) -> Any:
        result = await session.call_tool(name, arguments, progress_callback=progress)
        results.append(result)
        return result

    listed = (await session.list_tools()).tools
    assert {t.name for t in listed} == TOOLS
    for tool in listed:
        assert tool.outputSchema is not None and tool.description, tool.name
        for name in tool.inputSchema.get("properties", {}):
            assert name.lower() not in CREDENTIAL_NAMES, (tool.name, name)
            assert not [p for p in CREDENTIAL_PARTS if p in name.lower()], (tool.name, name)
        assert bool(tool.annotations.readOnlyHint) == (tool.name in READ_ONLY), tool.name
        assert bool(tool.annotations.destructiveHint) == (tool.name in DESTRUCTIVE), tool.name

    card = await call("card_fetch", {"agent": demo_url})
    assert not card.isError, card.content
    assert card.structuredContent["supportedInterfaces"][0]["protocolVersion"] == "1.0"

    extended = await call("card_extended", {"agent": "demo"})  # the profile: its API key goes along
    assert not extended.isError, extended.content
    assert extended.structuredContent["name"]

    sent = await call("send", {"agent": demo_url, "text": "hello", "skill": "echo"})
    assert not sent.isError, sent.content
    task = sent.structuredContent["task"]
    assert task["status"]["state"] == "TASK_STATE_COMPLETED"
    assert f"task {task['id']}" in sent.content[0].text and "completed" in sent.content[0].text

    v0 = await call("send", {"agent": demo_url, "text": "hello", "skill": "echo", "a2a_version": "0.3"})
    assert not v0.isError, v0.content
    assert v0.structuredContent["task"]["status"]["state"] == "TASK_STATE_COMPLETED"  # V1 shape from a V0 call

    got = await call("tasks_get", {"agent": demo_url, "task_id": task["id"]})
    assert got.structuredContent["id"] == task["id"]
    assert got.structuredContent["status"]["state"] == "TASK_STATE_COMPLETED"

    progress: list[tuple[float, str | None]] = []

    async def heard(value: float, total: float | None, message: str | None) -> None:
        progress.append((value, message))

    streamed = await call("stream", {"agent": demo_url, "skill": "slow", "fields": {"steps": 3, "delay": 0.1}}, heard)
    assert not streamed.isError, streamed.content
    final = streamed.structuredContent["task"]
    assert final["status"]["state"] == "TASK_STATE_COMPLETED"
    assert len(progress) >= 2 and [v for v, _ in progress] == sorted(v for v, _ in progress)
    assert progress[-1][1].startswith("completed")

    subscribed = await call("tasks_subscribe", {"agent": demo_url, "task_id": final["id"]})
    assert not subscribed.isError, subscribed.content
    assert subscribed.structuredContent["task"]["id"] == final["id"]

    listed_tasks = await call("tasks_list", {"agent": demo_url, "page_size": 5})
    assert not listed_tasks.isError, listed_tasks.content
    assert isinstance(listed_tasks.structuredContent["tasks"], list)

    slow = await call(
        "send", {"agent": demo_url, "skill": "slow", "fields": {"steps": 100, "delay": 0.5}, "async": True}
    )
    assert not slow.isError, slow.content
    slow_id = slow.structuredContent["task"]["id"]
    hook = await call(
        "push_config_create",
        {"agent": demo_url, "task_id": slow_id, "url": "http://127.0.0.1:9/hook", "config_id": "c1"},
    )
    assert not hook.isError, hook.content
    assert hook.structuredContent["url"] == "http://127.0.0.1:9/hook"
    one = await call("push_config_get", {"agent": demo_url, "task_id": slow_id, "config_id": "c1"})
    assert one.structuredContent["id"] == "c1"
    all_hooks = await call("push_config_list", {"agent": demo_url, "task_id": slow_id})
    assert [c["id"] for c in all_hooks.structuredContent["configs"]] == ["c1"]
    gone = await call("push_config_delete", {"agent": demo_url, "task_id": slow_id, "config_id": "c1"})
    assert not gone.isError, gone.content
    canceled = await call("tasks_cancel", {"agent": demo_url, "task_id": slow_id})
    assert not canceled.isError, canceled.content
    assert canceled.structuredContent["status"]["state"] == "TASK_STATE_CANCELED"

    checked = await call("check", {"agent": demo_url, "card_only": True})
    assert not checked.isError, checked.content
    assert checked.structuredContent["passed"] is True

    v0_task = {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "completed"}}
    translated = await call("translate", {"document": v0_task})
    assert translated.structuredContent["document"]["status"]["state"] == "TASK_STATE_COMPLETED"
    compared = await call("diff", {"left": v0_task, "right": translated.structuredContent["document"]})
    assert compared.structuredContent["equal"] is True

    missing = await call("tasks_get", {"agent": demo_url, "task_id": "no-such-task"})
    assert missing.isError
    error = missing.structuredContent["error"]
    assert (error["a2aCode"], error["code"]) == (-32001, "TaskNotFoundError") and error["hint"]
    assert "error:" in missing.content[0].text and "Traceback" not in missing.content[0].text
    wrong = await call("tasks_get", {"agent": demo_url, "task_id": 7, "api_key": "x"})  # not as the schema says
    assert wrong.isError and wrong.structuredContent["error"]["exitCode"] == 2
    assert "task_id" in wrong.content[0].text or "api_key" in wrong.content[0].text
    return results


def no_key_in(results: list[Any]) -> None:
    for result in results:
        dumped = json.dumps(result.model_dump(mode="json"))
        assert PROFILE_KEY not in dumped


@pytest.mark.spec("A2ACLI_SKILL_001")
def test_every_tool_over_stdio(a2a_bin, env, demo_agent):
    async def main() -> list[Any]:
        async with over_stdio(a2a_bin, env) as session:
            return await every_tool(session, demo_agent.url)

    no_key_in(anyio.run(main))


@pytest.mark.spec("A2ACLI_SKILL_001")
def test_every_tool_over_streamable_http(http_server, demo_agent):
    url, log = http_server

    async def main() -> list[Any]:
        async with over_http(url) as session:
            return await every_tool(session, demo_agent.url)

    no_key_in(anyio.run(main))
    assert PROFILE_KEY not in log.read_text()


def test_stdout_carries_only_the_protocol(run_a2a, config):
    """A line that is not JSON-RPC on stdin: the answer (if any) is JSON-RPC, nothing else is written."""
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    }
    proc = run_a2a(
        "mcp",
        input=json.dumps(init) + "\n",
        env={"A2ACLI_GLOBAL_CONFIG": str(config), "A2ACLI_LOCAL_CONFIG": "/dev/null"},
    )
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert lines and all(line.get("jsonrpc") == "2.0" for line in lines)
    assert lines[0]["result"]["serverInfo"]["name"] == "a2a"
