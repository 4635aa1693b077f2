"""The installed `a2a` against a real a2a-sdk server (the demo agent), every method, both versions."""

from __future__ import annotations

import json
import os
import subprocess
from typing import Any

import pytest

pytestmark = pytest.mark.integration
VERSIONS = ["1.0", "0.3"]


NO_CONFIG = {"A2ACLI_GLOBAL_CONFIG": os.devnull}


@pytest.fixture(scope="module")
def plain(run_a2a):
    """`a2a ARGS…` without the user's settings; asserts exit 0 unless told another `check`."""
    return run_a2a.bound(env=NO_CONFIG, check=0)


@pytest.fixture(scope="module")
def a2a(plain, demo_agent):
    """`a2a ARGS… -u DEMO_URL`."""
    return plain.bound("-u", demo_agent.url)


def doc(proc: subprocess.CompletedProcess[str]) -> Any:
    return json.loads(proc.stdout)


def lines(proc: subprocess.CompletedProcess[str]) -> list[Any]:
    return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]


@pytest.mark.parametrize("version", VERSIONS)
def test_card_fetch(a2a, version):
    card = doc(a2a("card", "fetch", "-o", "json", "--a2a-version", version))
    if version == "1.0":
        assert {i["protocolVersion"] for i in card["supportedInterfaces"]} == {"1.0", "0.3"}
    else:
        assert card["protocolVersion"].startswith("0.3") and card["url"].startswith("http://127.0.0.1")
    canon = doc(a2a("card", "fetch", "-o", "json", "--as", "v1", "--a2a-version", version))
    assert "create-user" in [s["id"] for s in canon["skills"]]


@pytest.mark.parametrize("version", VERSIONS)
def test_send_create_user_text_and_json(a2a, version):
    text = a2a("send", "--skill", "create-user", "-f", "projectUserId=user_123", "--a2a-version", version)
    assert "State: completed" in text.stdout and '"projectUserId": "user_123"' in text.stdout
    out = doc(a2a("send", "--skill", "create-user", "-f", "projectUserId=user_123", "--a2a-version", version, "-o", "json"))
    task = out["task"] if version == "1.0" else out
    assert (version == "0.3") == (task.get("kind") == "task")
    assert task["status"]["state"] == ("TASK_STATE_COMPLETED" if version == "1.0" else "completed")
    user = task["artifacts"][0]
    assert user["name"] == "user" and user["parts"][0]["data"]["projectUserId"] == "user_123"


@pytest.mark.parametrize("version", VERSIONS)
def test_send_as_v1_is_the_same_shape_in_both_versions(a2a, version):
    out = doc(a2a("send", "--skill", "create-user", "-f", "projectUserId=u9", "--a2a-version", version, "-o", "json", "--as", "v1"))
    assert out["task"]["status"]["state"] == "TASK_STATE_COMPLETED"
    assert "kind" not in out["task"] and out["task"]["artifacts"][0]["parts"][0]["data"]["projectUserId"] == "u9"


@pytest.mark.parametrize("version", VERSIONS)
def test_direct_message_reply(a2a, version):
    out = doc(a2a("send", "message", "--a2a-version", version, "-o", "json", "--as", "v1"))
    assert "message" in out and out["message"]["role"] == "ROLE_AGENT"


@pytest.mark.parametrize("version", VERSIONS)
def test_stream_slow(a2a, version):
    events = lines(a2a("stream", "--skill", "slow", "-f", "steps:=3", "-f", "delay:=0.05", "--a2a-version", version, "-o", "json", "--as", "v1"))
    assert "task" in events[0]
    states = [e["statusUpdate"]["status"]["state"] for e in events if "statusUpdate" in e]
    assert states == ["TASK_STATE_WORKING"] * 3 + ["TASK_STATE_COMPLETED"]
    assert any("artifactUpdate" in e for e in events)
    if version == "0.3":
        raw = lines(a2a("stream", "--skill", "slow", "-f", "steps:=1", "-f", "delay:=0.05", "--a2a-version", version, "-o", "json"))
        assert raw[-1]["kind"] == "status-update" and raw[-1]["final"] is True


@pytest.mark.spec("A2ACLI_TASK_SUBSCRIBE_001")
@pytest.mark.parametrize("version", VERSIONS)
def test_get_cancel_subscribe(a2a, version):
    started = doc(a2a("send", "--skill", "slow", "-f", "steps:=40", "-f", "delay:=0.25", "--async", "--a2a-version", version, "-o", "json", "--as", "v1"))
    task_id = started["task"]["id"]
    got = doc(a2a("tasks", "get", task_id, "--a2a-version", version, "-o", "json", "--as", "v1"))
    assert got["id"] == task_id
    canceled = a2a("tasks", "cancel", task_id, "--a2a-version", version, "--expect-state", "canceled")
    assert "State: canceled" in canceled.stdout
    # A finished task cannot be subscribed to: the agent answers -32004 (V1 as a JSON body, V0 as
    # an SSE event); a2a says so and shows the finished task from GetTask instead.
    after = a2a("tasks", "subscribe", task_id, "--a2a-version", version, "--expect-state", "canceled")
    assert "already finished" in after.stderr and "State: canceled" in after.stdout


@pytest.mark.spec("A2ACLI_TASK_SUBSCRIBE_001")
@pytest.mark.parametrize("version", VERSIONS)
def test_subscribe_to_a_running_task(a2a, version):
    started = doc(a2a("send", "--skill", "slow", "-f", "steps:=10", "-f", "delay:=0.3", "--async", "--a2a-version", version, "-o", "json", "--as", "v1"))
    events = lines(a2a("tasks", "subscribe", started["task"]["id"], "--stream", "--a2a-version", version, "-o", "json", "--as", "v1", "--expect-state", "completed"))
    assert "task" in events[0]
    last = events[-1].get("statusUpdate") or events[-1].get("task") or {}  # a loaded machine may see the task end before it subscribes
    assert last.get("status", {}).get("state") == "TASK_STATE_COMPLETED"


@pytest.mark.spec("A2ACLI_TASK_LIST_001")
def test_tasks_list_v1_and_v0_refusal(a2a):
    a2a("send", "hello list", "-o", "json")
    page = doc(a2a("tasks", "list", "--page-size", "2", "-o", "json"))
    assert len(page["tasks"]) == 2 and page["nextPageToken"]
    everything = doc(a2a("tasks", "list", "--page-size", "2", "--all", "-o", "json"))
    assert len(everything["tasks"]) >= 3
    assert len({t["id"] for t in everything["tasks"]}) == len(everything["tasks"])
    done = doc(a2a("tasks", "list", "--status", "completed", "-o", "json", "--as", "v1"))
    assert done["tasks"] and {t["status"]["state"] for t in done["tasks"]} == {"TASK_STATE_COMPLETED"}
    refused = a2a("tasks", "list", "--a2a-version", "0.3", check=2)
    assert "--force sends the extension tasks/list (limit/offset) anyway" in refused.stderr


@pytest.mark.spec("A2ACLI_PUSH_001")
@pytest.mark.parametrize("version", VERSIONS)
def test_push_configs(a2a, version):
    task_id = doc(a2a("send", "hello push", "-o", "json", "--as", "v1"))["task"]["id"]
    created = doc(a2a("push-config", "create", task_id, "--webhook-url", "http://127.0.0.1:9/hook", "--config-id", "p-1", "--token", "tok", "--a2a-version", version, "-o", "json", "--as", "v1"))
    assert created["id"] == "p-1" and created["taskId"] == task_id and created["url"] == "http://127.0.0.1:9/hook"
    got = doc(a2a("push-config", "get", task_id, "p-1", "--a2a-version", version, "-o", "json", "--as", "v1"))
    assert got["token"] == "tok"
    listed = doc(a2a("push-config", "list", task_id, "--a2a-version", version, "-o", "json", "--as", "v1"))
    assert [c["id"] for c in listed["configs"]] == ["p-1"]
    deleted = a2a("push-config", "delete", task_id, "p-1", "--a2a-version", version)
    assert deleted.stdout == "Deleted: true\n\n"
    assert doc(a2a("push-config", "list", task_id, "--a2a-version", version, "-o", "json", "--as", "v1")).get("configs", []) == []


@pytest.mark.spec("A2ACLI_CARD_GET_003")
@pytest.mark.parametrize("version", VERSIONS)
def test_extended_card_needs_the_key(a2a, demo_agent, version):
    refused = a2a("card", "extended", "--a2a-version", version, check=4)
    assert "the agent requires credentials and none were sent" in refused.stderr
    card = doc(a2a("card", "extended", "--a2a-version", version, "--api-key", demo_agent.api_key, "-o", "json", "--as", "v1"))
    assert "admin-report" in [s["id"] for s in card["skills"]]
    alias = doc(a2a("card", "fetch", "--extended", "--a2a-version", version, "--api-key", demo_agent.api_key, "-o", "json", "--as", "v1"))
    assert alias["skills"] == card["skills"]


@pytest.mark.parametrize("version", VERSIONS)
def test_errors_and_outcomes(a2a, version):
    missing = a2a("tasks", "get", "no-such-task", "--a2a-version", version, check=1)
    assert "TaskNotFoundError" in missing.stderr
    as_json = doc(a2a("tasks", "get", "no-such-task", "--a2a-version", version, "-o", "json", check=1))
    assert as_json["error"]["a2aCode"] == -32001 and as_json["error"]["code"] == "TaskNotFoundError"
    failed = a2a("send", "--skill", "fail", "--a2a-version", version)
    assert "State: failed" in failed.stdout and "ended failed" in failed.stderr
    gated = a2a("send", "--skill", "fail", "--a2a-version", version, "--expect-state", "completed", check=6)
    assert "expected completed" in gated.stderr


@pytest.mark.parametrize("version", VERSIONS)
def test_input_required_then_continue(a2a, version):
    asked = a2a("send", "--skill", "ask", "--a2a-version", version, "-o", "json", "--as", "v1")
    task = doc(asked)["task"]
    assert task["status"]["state"] == "TASK_STATE_INPUT_REQUIRED"
    assert f"a2a send --task-id {task['id']} --context-id {task['contextId']}" in asked.stderr
    done = doc(a2a("send", "42", "--task-id", task["id"], "--context-id", task["contextId"], "--a2a-version", version, "-o", "json", "--as", "v1"))
    assert done["task"]["status"]["state"] == "TASK_STATE_COMPLETED"


@pytest.mark.parametrize("version", VERSIONS)
def test_call_and_rpc_url(a2a, plain, demo_agent, version):
    task_id = doc(a2a("send", "hi", "-o", "json", "--as", "v1"))["task"]["id"]
    got = doc(a2a("call", "GetTask", json.dumps({"id": task_id}), "--a2a-version", version, "-o", "json", "--as", "v1"))
    assert got["id"] == task_id
    direct = doc(plain("tasks", "get", task_id, "--rpc-url", demo_agent.rpc_url, "--a2a-version", version, "-o", "json", "--as", "v1"))
    assert direct["id"] == task_id


@pytest.mark.spec("A2ACLI_EXIT_001")
def test_unreachable_agent_exits_3(plain):
    proc = plain("card", "fetch", "-u", "http://127.0.0.1:9", check=3)
    assert "cannot connect" in proc.stderr and "Traceback" not in proc.stderr
