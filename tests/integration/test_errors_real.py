"""The error contract against the real demo agent (a2a-sdk): the same A2A error name over JSON-RPC,
HTTP+JSON and gRPC, each binding's own transport code in `a2aCode`, the text line naming it, and a
rejected --task-id that points at --debug and starts nothing."""

from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest

pytestmark = pytest.mark.integration
VERSIONS = ["1.0", "0.3"]
TRANSPORT_CODE = {"jsonrpc": -32001, "rest": 404, "grpc": "NOT_FOUND"}


def envelope(proc: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    (line,) = proc.stdout.splitlines()  # one compact line
    return json.loads(line)["error"]


@pytest.mark.spec("A2ACLI_OUT_004", "A2ACLI_EXIT_001")
@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("transport", ["jsonrpc", "rest", "grpc"])
def test_task_not_found_is_named_the_same_over_every_binding(run_a2a, demo_agent, transport, version):
    if transport == "grpc" and demo_agent.grpc_url is None:
        pytest.skip("no grpcio: the demo agent serves no gRPC")
    run = run_a2a.at(demo_agent.url, "--transport", transport, *(["--plaintext"] if transport == "grpc" else []))
    err = envelope(run("tasks", "get", "no-such-task", "--a2a-version", version, "-o", "json", check=1))
    assert err["code"] == "TaskNotFoundError" and err["message"].startswith("TaskNotFoundError: ")
    assert err["a2aCode"] == TRANSPORT_CODE[transport] and err["hint"]
    text = run("tasks", "get", "no-such-task", "--a2a-version", version, check=1)
    assert "error: TaskNotFoundError: " in text.stderr


@pytest.mark.spec("A2ACLI_INTERACT_002", "A2ACLI_OUT_004")
@pytest.mark.parametrize("transport", ["jsonrpc", "rest"])
@pytest.mark.parametrize("command", [["send"], ["stream"]])
def test_an_unknown_task_id_is_rejected_points_at_debug_and_creates_no_task(run_a2a, demo_agent, transport, command):
    run = run_a2a.at(demo_agent.url, "--transport", transport)
    before = {t["id"] for t in json.loads(run("tasks", "list", "--page-size", "100", "-o", "json").stdout).get("tasks", [])}
    proc = run(*command, "more please", "--task-id", "no-such-task", "-o", "json", check=1)
    err = envelope(proc)
    assert err["code"] == "TaskNotFoundError"
    assert err["hint"].startswith("rerun with --debug to see the request that carried --task-id no-such-task and the agent's answer; nothing was retried and no new task started")
    after = {t["id"] for t in json.loads(run("tasks", "list", "--page-size", "100", "-o", "json").stdout).get("tasks", [])}
    assert after == before  # nothing started in its place
    debug = run(*command, "more please", "--task-id", "no-such-task", "--debug", check=1)
    assert "no-such-task" in debug.stderr and "hint: the request that carried --task-id no-such-task and the answer are above (--debug)" in debug.stderr


@pytest.mark.spec("A2ACLI_OUT_003")
@pytest.mark.parametrize("transport", ["jsonrpc", "rest"])
def test_a_subscription_refused_before_its_first_event_is_one_compact_line(run_a2a, demo_agent, transport):
    run = run_a2a.at(demo_agent.url, "--transport", transport)
    proc = run("stream", "hi", "--task-id", "no-such-task", "-o", "json", check=1)
    assert envelope(proc)["code"] == "TaskNotFoundError"
