"""The installed `a2a` over HTTP+JSON (REST) against real a2a-sdk servers, every method, both
versions: the REST-only agent (chosen from its card, no flag) and the demo agent with
`--transport rest`. Errors must read the same as over JSON-RPC."""

from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest

pytestmark = pytest.mark.integration
VERSIONS = ["1.0", "0.3"]


@pytest.fixture(scope="module")
def rest(run_a2a, rest_only_agent):
    """The REST-only agent: its card offers HTTP+JSON alone, so no --transport is needed."""
    return run_a2a.at(rest_only_agent.url)


@pytest.fixture(scope="module")
def demo_rest(run_a2a, demo_agent):
    return run_a2a.at(demo_agent.url, "--transport", "rest")


def doc(proc: subprocess.CompletedProcess[str]) -> Any:
    return json.loads(proc.stdout)


def lines(proc: subprocess.CompletedProcess[str]) -> list[Any]:
    return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]


def send(run: Any, version: str, *args: str) -> dict[str, Any]:
    """A completed task, in canonical V1, from a blocking send."""
    return doc(run("send", *args, "--a2a-version", version, "-o", "json", "--as", "v1"))["task"]


@pytest.mark.spec("A2ACLI_TX_004")
@pytest.mark.parametrize("version", VERSIONS)
def test_every_method_over_rest_chosen_from_the_card(rest, rest_only_agent, version, tmp_path):
    v = ["--a2a-version", version]
    # SendMessage: the skill's data part and the answer, both in the 0.3 proto shape under 0.3
    task = send(rest, version, "--skill", "create-user", "-f", "projectUserId=u1")
    assert task["status"]["state"] == "TASK_STATE_COMPLETED"
    assert task["artifacts"][0]["parts"][0]["data"]["projectUserId"] == "u1"
    # the dump shows it went over REST: one POST /message:send (1.0) or /v1/message:send (0.3), the
    # task settled within the call (issue 21: nothing else is called); --follow then fetches it
    # with GET /tasks/ID (/v1/tasks/ID)
    prefix = "" if version == "1.0" else "/v1"
    for follow, dump in (([], tmp_path / "dump"), (["--follow"], tmp_path / "followed")):
        sent = doc(rest("send", "hello", *v, *follow, "--dump", str(dump), "-o", "json", "--as", "v1"))
        heads = [p.read_text().splitlines()[0] for p in sorted(dump.glob("*.request.http")) if "card" not in p.name]
        assert heads[0] == f"POST {prefix}/message:send HTTP/1.1"
        assert heads[-1] == (f"GET {prefix}/tasks/{sent['task']['id']} HTTP/1.1" if follow else heads[0]), heads
    # GetTask with historyLength as a query parameter
    got = doc(rest("tasks", "get", task["id"], "--history-length", "1", *v, "-o", "json", "--as", "v1"))
    assert got["id"] == task["id"] and got["status"]["state"] == "TASK_STATE_COMPLETED"
    # SendStreamingMessage: JSON Lines of bare StreamResponses, ending in a completed status
    events = lines(rest("stream", "hi there", *v, "-o", "json", "--as", "v1"))
    assert events and events[-1].get("statusUpdate", events[-1].get("task", {})).get("status", {}).get("state") == "TASK_STATE_COMPLETED"
    # SubscribeToTask of a finished task: the agent refuses or hangs up; the task is shown from GetTask
    sub = rest("tasks", "subscribe", task["id"], *v, "-o", "json", "--as", "v1")
    assert doc(sub)["id"] == task["id"] and "already finished" in sub.stderr  # one document: the terminal Task
    # CancelTask of a finished task: TaskNotCancelableError, as over JSON-RPC
    cancel = rest("tasks", "cancel", task["id"], *v, "-o", "json", check=1)
    assert doc(cancel)["error"]["code"] == "TaskNotCancelableError" and doc(cancel)["error"]["a2aCode"] == 400 and "TaskNotCancelableError" in doc(cancel)["error"]["message"]
    # push configs: create, get, list (delete below)
    created = doc(rest("push-config", "create", task["id"], "--webhook-url", "http://127.0.0.1:9/hook", "--config-id", "p-1", "--token", "tok", *v, "-o", "json", "--as", "v1"))
    assert created["id"] == "p-1" and created["taskId"] == task["id"] and created["url"] == "http://127.0.0.1:9/hook"
    fetched = doc(rest("push-config", "get", task["id"], "p-1", *v, "-o", "json", "--as", "v1"))
    assert fetched["id"] == "p-1" and fetched["url"] == "http://127.0.0.1:9/hook"
    listed = doc(rest("push-config", "list", task["id"], *v, "-o", "json", "--as", "v1"))
    assert [c["id"] for c in listed["configs"]] == ["p-1"]
    # the extended card needs the API key
    card = doc(rest("card", "extended", *v, "--api-key", rest_only_agent.api_key, "-o", "json", "--as", "v1"))
    assert "create-user" in [s["id"] for s in card["skills"]]
    assert rest("card", "extended", *v, check=4).stderr.startswith("error: the agent requires credentials and none were sent")


def test_v1_list_tasks_and_delete_push_config(rest):
    task = send(rest, "1.0", "hello")
    page = doc(rest("tasks", "list", "--page-size", "1", "-o", "json"))
    assert len(page["tasks"]) == 1 and page["nextPageToken"]
    every = doc(rest("tasks", "list", "--all", "--page-size", "2", "-o", "json"))
    assert task["id"] in [t["id"] for t in every["tasks"]] and every["nextPageToken"] == ""
    rest("push-config", "create", task["id"], "--webhook-url", "http://127.0.0.1:9/h", "--config-id", "gone")
    assert rest("push-config", "delete", task["id"], "gone").stdout == "Deleted: true\n\n"
    assert doc(rest("push-config", "list", task["id"], "-o", "json", "--as", "v1")).get("configs", []) == []


def test_v0_list_tasks_and_delete_have_no_sdk_route_and_say_so(rest):
    """0.3 has no ListTasks: refused up front (exit 2) as over JSON-RPC; with --force, the
    extension `GET /v1/tasks`, which takes no parameters (a usage error, exit 2, before sending);
    a2a-sdk has no 0.3 route for it nor for DELETE, and its answer is reported (exit 1)."""
    refused = rest("tasks", "list", "--a2a-version", "0.3", check=2)
    assert "ListTasks has no V0 (0.3) form" in refused.stderr and "--force sends the extension GET /v1/tasks anyway" in refused.stderr
    usage = rest("tasks", "list", "--page-size", "5", "--a2a-version", "0.3", "--force", check=2)
    assert "no form for pageSize" in usage.stderr
    bare = rest("tasks", "list", "--a2a-version", "0.3", "--force", check=1)
    assert bare.stderr.startswith("0.3 has no ListTasks: sending the extension GET /v1/tasks anyway (--force)\nerror: ") and "Traceback" not in bare.stderr


def test_the_demo_serves_v0_list_tasks_and_delete(demo_rest):
    """The demo agent adds the two 0.3 routes a2a-sdk lacks: `a2a` lists (--force: an extension
    of 0.3) and deletes over 0.3 REST."""
    task = send(demo_rest, "0.3", "hello")
    listed = doc(demo_rest("tasks", "list", "--a2a-version", "0.3", "--force", "-o", "json", "--as", "v1"))
    assert task["id"] in [t["id"] for t in listed["tasks"]]
    demo_rest("push-config", "create", task["id"], "--webhook-url", "http://127.0.0.1:9/h", "--config-id", "gone", "--a2a-version", "0.3")
    assert demo_rest("push-config", "delete", task["id"], "gone", "--a2a-version", "0.3").stdout == "Deleted: true\n\n"
    assert doc(demo_rest("push-config", "list", task["id"], "--a2a-version", "0.3", "-o", "json", "--as", "v1")).get("configs", []) == []


@pytest.mark.parametrize("version", VERSIONS)
def test_errors_read_the_same_over_both_bindings(run_a2a, demo_agent, version):
    """TaskNotFoundError: same code, message and exit code over JSON-RPC and REST; a2aCode is each
    binding's own (the JSON-RPC code, the HTTP status)."""
    jsonrpc = run_a2a.at(demo_agent.url, "--transport", "jsonrpc")
    rest = run_a2a.at(demo_agent.url, "--transport", "rest")
    a = doc(jsonrpc("tasks", "get", "no-such-task", "--a2a-version", version, "-o", "json", check=1))["error"]
    b = doc(rest("tasks", "get", "no-such-task", "--a2a-version", version, "-o", "json", check=1))["error"]
    assert (a["a2aCode"], b["a2aCode"]) == (-32001, 404)
    assert a["code"] == b["code"] == "TaskNotFoundError" and a["hint"] == b["hint"]
    assert a["message"].split(":")[0] == b["message"].split(":")[0] == "TaskNotFoundError"


@pytest.mark.spec("A2ACLI_TX_004")
@pytest.mark.parametrize("version", VERSIONS)
def test_demo_agent_with_transport_rest(demo_rest, version):
    task = send(demo_rest, version, "hello")
    assert task["artifacts"][0]["parts"][0]["text"] == "echo: hello"
    debug = demo_rest("tasks", "get", task["id"], "--a2a-version", version, "--debug")
    path = f"/tasks/{task['id']}" if version == "1.0" else f"/v1/tasks/{task['id']}"
    assert [line for line in debug.stderr.splitlines() if line.startswith("> GET http") and line.endswith(path)], debug.stderr


def test_diff_of_one_call_over_two_bindings_shows_only_what_differs(run_a2a, demo_agent, tmp_path):
    """One call recorded over JSON-RPC and over REST: canonical V1 bodies compare equal; what
    differs is the binding's own (the request line, the media type)."""
    for transport in ("jsonrpc", "rest"):
        run_a2a.at(demo_agent.url, "--transport", transport)("send", "same words", "--message-id", "m-1", "--dump", str(tmp_path / transport), "-o", "json")
    proc = run_a2a("diff", str(tmp_path / "jsonrpc"), str(tmp_path / "rest"), "-o", "json")
    assert proc.returncode == 0, proc.stderr  # the answers agree: what differs is the binding's own (issue 36)
    report = json.loads(proc.stdout)
    assert [d for d in report["differences"] if d["exchange"] == "SendMessage"] == []
    aside = {d["path"]: d["aside"] for d in report["aside"] if d["exchange"] == "SendMessage"}
    assert aside["request.line"] == "implied by the binding"
    assert not [p for p in aside if p.startswith(("request.body", "response.body"))], aside
