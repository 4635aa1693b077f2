"""The installed `a2a` over gRPC against the demo agent's real a2a-sdk gRPC server (both services,
1.0 `lf.a2a.v1.A2AService` and 0.3 `a2a.v1.A2AService`): every method, both versions, errors that
read as over the other bindings, dumps that diff against a JSON-RPC dump of the same call."""

from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest

pytest.importorskip("grpc")
pytestmark = pytest.mark.integration
VERSIONS = ["1.0", "0.3"]


@pytest.fixture(scope="module")
def grpc_cli(run_a2a, demo_agent):
    """`a2a … -u DEMO --transport grpc --plaintext`: the interface chosen from the card."""
    if not getattr(demo_agent, "grpc_url", None):
        pytest.skip("the demo agent serves no gRPC")
    runs = {t: run_a2a.at(demo_agent.url, "--transport", t, "--plaintext") for t in ("grpc", "jsonrpc")}

    def run(*args: str, check: int | None = 0, transport: str = "grpc") -> subprocess.CompletedProcess[str]:
        return runs[transport](*args, check=check)

    return run


def doc(proc: subprocess.CompletedProcess[str]) -> Any:
    return json.loads(proc.stdout)


def lines(proc: subprocess.CompletedProcess[str]) -> list[Any]:
    return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]


@pytest.mark.spec("A2ACLI_TX_004", "A2ACLI_TX_005")
@pytest.mark.parametrize("version", VERSIONS)
def test_every_method_over_grpc(grpc_cli, demo_agent, version, tmp_path):
    v = ["--a2a-version", version, "--as", "v1"]
    task = doc(grpc_cli("send", "--skill", "create-user", "-f", "projectUserId=u1", *v, "-o", "json"))["task"]
    assert task["status"]["state"] == "TASK_STATE_COMPLETED" and task["artifacts"][0]["parts"][0]["data"]["projectUserId"] == "u1"
    got = doc(grpc_cli("tasks", "get", task["id"], "--history-length", "1", *v, "-o", "json"))
    assert got["id"] == task["id"]
    events = lines(grpc_cli("stream", "hi", *v, "-o", "json"))
    assert events[-1]["statusUpdate"]["status"]["state"] == "TASK_STATE_COMPLETED"
    sub = grpc_cli("tasks", "subscribe", task["id"], *v, "-o", "json")
    assert doc(sub)["id"] == task["id"] and "as a gRPC status" in sub.stderr  # one document: the terminal Task
    cancel = doc(grpc_cli("tasks", "cancel", task["id"], *v, "-o", "json", check=1))["error"]
    assert cancel["code"] == "TaskNotCancelableError" and isinstance(cancel["a2aCode"], str)  # the gRPC status
    created = doc(grpc_cli("push-config", "create", task["id"], "--webhook-url", "http://127.0.0.1:9/h", "--config-id", "g-1", *v, "-o", "json"))
    assert created["id"] == "g-1" and created["taskId"] == task["id"]
    assert doc(grpc_cli("push-config", "get", task["id"], "g-1", *v, "-o", "json"))["url"] == "http://127.0.0.1:9/h"
    assert [c["id"] for c in doc(grpc_cli("push-config", "list", task["id"], *v, "-o", "json"))["configs"]] == ["g-1"]
    assert grpc_cli("push-config", "delete", task["id"], "g-1", "--a2a-version", version).stdout == "Deleted: true\n\n"
    card = doc(grpc_cli("card", "extended", *v, "--api-key", demo_agent.api_key, "-o", "json"))
    assert "create-user" in [s["id"] for s in card["skills"]]
    assert grpc_cli("card", "extended", "--a2a-version", version, check=4).stderr.startswith("error: the agent requires credentials and none were sent")
    if version == "1.0":
        page = doc(grpc_cli("tasks", "list", "--page-size", "1", "-o", "json"))
        assert len(page["tasks"]) == 1
    else:
        refused = grpc_cli("tasks", "list", "--a2a-version", "0.3", check=2).stderr  # one rule for every binding
        assert "ListTasks has no V0 (0.3) form" in refused and "with --transport jsonrpc or rest, --force sends an extension form" in refused
        assert "no gRPC form under A2A 0.3" in grpc_cli("tasks", "list", "--a2a-version", "0.3", "--force", check=2).stderr


@pytest.mark.spec("A2ACLI_TX_005")
@pytest.mark.parametrize("version", VERSIONS)
def test_task_not_found_reads_the_same_over_grpc_and_json_rpc(grpc_cli, version):
    over_grpc = doc(grpc_cli("tasks", "get", "no-such", "--a2a-version", version, "-o", "json", check=1))["error"]
    over_rpc = doc(grpc_cli("tasks", "get", "no-such", "--a2a-version", version, "-o", "json", check=1, transport="jsonrpc"))["error"]
    assert over_grpc["code"] == over_rpc["code"] == "TaskNotFoundError"
    assert (over_grpc["a2aCode"], over_rpc["a2aCode"]) == ("NOT_FOUND", -32001)  # each binding's own code
    assert over_grpc["message"] == over_rpc["message"] == "TaskNotFoundError: Task not found"


def test_grpc_dump_diffs_against_a_json_rpc_dump(grpc_cli, run_a2a, tmp_path):
    for transport in ("grpc", "jsonrpc"):
        grpc_cli("send", "same", "--message-id", "m-1", "--dump", str(tmp_path / transport), "-o", "json", transport=transport)
    head = (tmp_path / "grpc" / "002-SendMessage.request.http").read_text().splitlines()[0]
    assert head == "POST /lf.a2a.v1.A2AService/SendMessage HTTP/2"
    proc = run_a2a("diff", str(tmp_path / "jsonrpc"), str(tmp_path / "grpc"), "-o", "json")
    # the same call over two bindings: what the binding implies (request line, headers, framing) is
    # set aside, the bodies agree in their binding-neutral form, so the answers agree (exit 0)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert [d for d in report["differences"] if d["exchange"] == "SendMessage"] == []
    aside = {d["path"] for d in report["aside"] if d["exchange"] == "SendMessage"}
    assert aside and not [p for p in aside if p.startswith(("request.body", "response.body"))], aside
    assert proc.stderr.rstrip().splitlines()[-1].startswith("same: ")


def test_without_plaintext_tls_fails_with_a_hint(run_a2a, demo_agent):
    if not getattr(demo_agent, "grpc_url", None):
        pytest.skip("the demo agent serves no gRPC")
    proc = run_a2a("tasks", "get", "x", "--endpoint", demo_agent.grpc_target, "--transport", "grpc", "--timeout", "10")
    assert proc.returncode == 3, proc.stderr
    assert "--plaintext" in proc.stderr
    # one line and its hint (issue 24), not grpc's whole chain of clauses
    error, hint = proc.stderr.strip().splitlines()
    assert error == f"error: TLS with {demo_agent.grpc_target} failed: the server did not answer in TLS (WRONG_VERSION_NUMBER) [A2ACLI_ERR_UNREACHABLE]"
    assert hint.startswith("hint: the server may not speak TLS: pass --plaintext")
