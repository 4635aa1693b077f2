"""Tier 1 of the official A2A CLI spec (v0.2), end to end: the installed `a2a` against the demo agent
(a real a2a-sdk server), over JSON-RPC and HTTP+JSON where the binding matters. One test, or a few,
per requirement that holds today; each cites its ids (`pytest.mark.spec`) and
docs/compliance-report.yaml cites it back (tests/test_compliance.py keeps the two in step).

Assertions stay off the text labels and the error `code` words, which other work on the spec is
changing (OUT_004, OUT_005): they look for the ids, states and content a caller needs."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.integration
BINDINGS = ["jsonrpc", "rest"]
# --debug prints each request as `> METHOD URL`, then its headers as `> Name: value`
REQUEST_LINE = re.compile(r"^> (GET|POST|PUT|DELETE|PATCH) (\S+)$", re.M)


@pytest.fixture(scope="module")
def a2a(run_a2a, demo_agent):
    """`a2a ARGS… -u URL` (the demo agent unless `url=`), apart from the user's settings; asserts the
    exit code unless check is None. The other keywords are `run_a2a`'s (check, env, input, timeout)."""
    plain = run_a2a.bound(env={"A2ACLI_GLOBAL_CONFIG": os.devnull}, check=0)

    def at(*args: str, url: str | None = None, **how: Any) -> subprocess.CompletedProcess[str]:
        return plain(*args, "-u", url or demo_agent.url, **how)

    return at


@pytest.fixture(scope="module")
def served_card(demo_agent) -> dict[str, Any]:
    return httpx.get(demo_agent.card_url, headers={"A2A-Version": "1.0"}, trust_env=False).json()


def card_file(tmp_path: Path, card: dict[str, Any], bindings: list[str]) -> str:
    """A local copy of the demo agent's card listing only the 1.0 interfaces of `bindings`, in that order."""
    itfs = [i for b in bindings for i in card["supportedInterfaces"] if i["protocolBinding"] == b and i["protocolVersion"] == "1.0"]
    path = tmp_path / "card.json"
    path.write_text(json.dumps({**card, "supportedInterfaces": itfs}))
    return path.as_uri()


def task_of(proc: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    """The Task of a `send` (SendMessageResponse) or `task get`/`cancel` (bare Task) JSON document."""
    doc = json.loads(proc.stdout)
    return doc.get("task", doc)


def requests_sent(stderr: str) -> list[tuple[str, str, list[str]]]:
    """(method, url, header lines) of each request --debug printed."""
    out = []
    marks = list(REQUEST_LINE.finditer(stderr))
    for n, m in enumerate(marks):
        end = marks[n + 1].start() if n + 1 < len(marks) else len(stderr)
        headers = [line[2:] for line in stderr[m.end() : end].splitlines() if line.startswith("> ") and ": " in line]
        out.append((m.group(1), m.group(2), headers))
    return out


def sent_messages(stderr: str) -> list[dict[str, Any]]:
    """The `message` objects of the request bodies --debug printed (JSON-RPC params or REST body),
    each on its line behind the `>` mark."""
    found = []
    for marked in stderr.splitlines():
        line = marked.removeprefix("> ")
        if line.startswith("{") and '"message"' in line:
            try:
                doc = json.loads(line)
            except ValueError:
                continue
            msg = (doc.get("params") or doc).get("message")
            if isinstance(msg, dict) and msg.get("role") in ("ROLE_USER", "user"):
                found.append(msg)
    return found


def slow(a2a, binding: str, steps: int, delay: float) -> dict[str, Any]:
    return task_of(a2a("send", "--skill", "slow", "-f", f"steps:={steps}", "-f", f"delay:={delay}", "--async", "-o", "json", "--transport", binding))


# --- CARD_GET_001, TX_001, TX_002 ---------------------------------------------------------------


@pytest.mark.spec("A2ACLI_CARD_GET_001")
def test_card_get_from_an_origin_a_card_url_and_a_local_file(a2a, demo_agent, served_card, tmp_path):
    from_origin = json.loads(a2a("card", "get", "-o", "json").stdout)
    from_url = json.loads(a2a("card", "get", "-o", "json", url=demo_agent.card_url).stdout)
    path = tmp_path / "card.json"
    path.write_text(json.dumps(served_card))
    from_file = json.loads(a2a("card", "get", "-o", "json", url=path.as_uri()).stdout)
    assert from_origin == from_url == from_file == served_card
    text = a2a("card", "get").stdout  # parsed and presented: identity, interfaces, skills
    assert served_card["name"] in text and "HTTP+JSON" in text and "create-user" in text


@pytest.mark.spec("A2ACLI_CARD_GET_001", "A2ACLI_TX_001", "A2ACLI_TX_002", "A2ACLI_DEFAULT_001")
def test_the_card_picks_the_transport_in_its_own_order(a2a, demo_agent, served_card, tmp_path):
    (_, url, _), *_ = [r for r in requests_sent(a2a("send", "hi", "--debug").stderr) if r[0] == "POST"]
    assert url == demo_agent.rpc_url  # the served card lists JSON-RPC first
    rest_first = card_file(tmp_path, served_card, ["HTTP+JSON", "JSONRPC"])
    posts = [r for r in requests_sent(a2a("send", "hi", "--debug", url=rest_first).stderr) if r[0] == "POST"]
    assert [u for _, u, _ in posts] == [demo_agent.url + "/message:send"]


@pytest.mark.spec("A2ACLI_TX_002", "A2ACLI_DEFAULT_001")
def test_transport_is_repeatable_ordered_and_skips_what_the_card_lacks(a2a, demo_agent, served_card, tmp_path):
    def posted(*flags: str, url: str | None = None) -> str:
        return [u for m, u, _ in requests_sent(a2a("send", "hi", "--debug", *flags, url=url).stderr) if m == "POST"][0]

    assert posted("--transport", "rest", "--transport", "jsonrpc") == demo_agent.url + "/message:send"
    assert posted("--transport", "jsonrpc", "--transport", "rest") == demo_agent.rpc_url
    no_grpc = card_file(tmp_path, served_card, ["JSONRPC", "HTTP+JSON"])
    assert posted("--transport", "grpc", "--transport", "rest", url=no_grpc) == demo_agent.url + "/message:send"



@pytest.mark.spec("A2ACLI_TX_002")
@pytest.mark.parametrize("how", [{"args": ["--transport", "grpc"]}, {"env": {"A2ACLI_TRANSPORT": "grpc"}}])
def test_a_preferred_transport_the_card_lacks_falls_back_to_the_cards_order(a2a, demo_agent, served_card, tmp_path, how):
    rest_first = card_file(tmp_path, served_card, ["HTTP+JSON", "JSONRPC"])  # no gRPC
    proc = a2a("send", "hi", "--debug", "-o", "json", *how.get("args", []), url=rest_first, env=how.get("env"))
    assert [u for m, u, _ in requests_sent(proc.stderr) if m == "POST"] == [demo_agent.url + "/message:send"]
    assert "the Agent Card offers no GRPC interface for A2A 1.0: using its own first choice, HTTP+JSON" in proc.stderr
    assert task_of(proc)["status"]["state"] == "TASK_STATE_COMPLETED"
    exact = a2a("tasks", "get", task_of(proc)["id"], "--endpoint", demo_agent.url, "--transport", "rest", "--debug", "-o", "json", url=rest_first)
    assert [u for m, u, _ in requests_sent(exact.stderr)] == [demo_agent.url + f"/tasks/{task_of(proc)['id']}"]  # --endpoint: exact, no card

# --- SEND_001, SEND_002, OUT_001, OUT_006, TASK_POLL_001 ------------------------------------------


@pytest.mark.spec("A2ACLI_SEND_001", "A2ACLI_OUT_001")
@pytest.mark.parametrize("binding", BINDINGS)
def test_send_starts_an_interaction_and_names_task_context_and_state(a2a, binding):
    as_json = a2a("send", "hello", "-o", "json", "--transport", binding)
    task = task_of(as_json)  # stdout is the payload alone: one JSON document
    assert task["id"] and task["contextId"] and task["status"]["state"] == "TASK_STATE_COMPLETED"
    as_text = a2a("send", "hello", "--transport", binding)
    ids = re.findall(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", as_text.stdout)
    assert len(set(ids)) >= 2 and "completed" in as_text.stdout.lower()  # task id, context id, state
    assert not as_text.stdout.lstrip().startswith("{")  # text is the default output (DEFAULT_001)


@pytest.mark.spec("A2ACLI_SEND_002", "A2ACLI_OUT_006", "A2ACLI_TASK_POLL_001", "A2ACLI_DEFAULT_001", "A2ACLI_EXIT_002")
@pytest.mark.parametrize("binding", BINDINGS)
def test_send_blocks_by_default_and_async_returns_the_ids_at_once(a2a, binding):
    waited = task_of(a2a("send", "--skill", "slow", "-f", "steps:=3", "-f", "delay:=0.2", "-o", "json", "--transport", binding))
    assert waited["status"]["state"] == "TASK_STATE_COMPLETED"
    started = time.monotonic()
    task = slow(a2a, binding, steps=4, delay=0.5)
    assert time.monotonic() - started < 2.0 + 1.5  # did not wait for the 2 s task (start-up aside)
    assert task["id"] and task["contextId"] and task["status"]["state"] in ("TASK_STATE_SUBMITTED", "TASK_STATE_WORKING")
    polled = task_of(a2a("task", "get", task["id"], "--wait", "-o", "json", "--transport", binding))
    assert (polled["id"], polled["contextId"], polled["status"]["state"]) == (task["id"], task["contextId"], "TASK_STATE_COMPLETED")


# --- SEND_003 (the part that holds: a Message-only reply exits cleanly) ---------------------------


@pytest.mark.spec("A2ACLI_SEND_003")
@pytest.mark.parametrize("binding", BINDINGS)
def test_a_message_only_reply_exits_cleanly_blocking_and_streamed(a2a, binding):
    blocking = json.loads(a2a("send", "message", "-o", "json", "--transport", binding).stdout)
    assert "message" in blocking and "task" not in blocking
    streamed = a2a("send", "message", "--stream", "-o", "json", "--transport", binding)
    last = json.loads(streamed.stdout.strip().splitlines()[-1])
    assert "message" in last


@pytest.mark.spec("A2ACLI_SEND_003")
@pytest.mark.parametrize("binding", BINDINGS)
def test_stream_follows_the_task_to_its_end(a2a, binding):
    out = a2a("send", "--stream", "--skill", "slow", "-f", "steps:=2", "-f", "delay:=0.1", "-o", "json", "--transport", binding)
    events = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    assert len(events) > 2 and "task" in events[0]
    final = events[-1].get("statusUpdate") or events[-1].get("task")
    assert final["status"]["state"] == "TASK_STATE_COMPLETED"


# --- SEND_004, TASK_GET_001 -----------------------------------------------------------------------


@pytest.mark.spec("A2ACLI_SEND_004", "A2ACLI_TASK_GET_001")
@pytest.mark.parametrize("binding", BINDINGS)
def test_artifacts_are_rendered_text_as_text_and_data_as_json(a2a, binding):
    echo = a2a("send", "hello there", "--transport", binding).stdout
    assert "echo: hello there" in echo  # a text part, as readable text
    user = a2a("send", "--skill", "create-user", "-f", "projectUserId=u-77", "--transport", binding).stdout
    assert re.search(r'"projectUserId": "u-77"', user)  # a data part, as formatted JSON
    task = task_of(a2a("send", "--skill", "create-user", "-f", "projectUserId=u-78", "-o", "json", "--transport", binding))
    got = a2a("task", "get", task["id"], "--transport", binding).stdout
    assert task["id"] in got and task["contextId"] in got and "completed" in got.lower() and '"projectUserId": "u-78"' in got
    as_json = task_of(a2a("task", "get", task["id"], "-o", "json", "--transport", binding))
    assert as_json["artifacts"] == task["artifacts"]  # the protocol Task, artifacts unstripped
    with_history = task_of(a2a("task", "get", task["id"], "--history-length", "1", "-o", "json", "--transport", binding))
    assert with_history["history"][0]["role"] == "ROLE_USER"


# --- SEND_005, SEND_006 ---------------------------------------------------------------------------


@pytest.mark.spec("A2ACLI_SEND_005")
@pytest.mark.parametrize("binding", BINDINGS)
def test_media_type_binds_to_the_part_flag_before_it(a2a, binding, tmp_path):
    report = tmp_path / "report.bin"
    report.write_bytes(b"%PDF-1.4 not really")
    notes = tmp_path / "notes.txt"
    notes.write_text("plain notes")
    out = a2a("send", "--file", str(report), "--media-type", "application/pdf", "--file", str(notes), "--text", "see files", "--debug", "--transport", binding)
    (msg,) = sent_messages(out.stderr)
    first, second, third = msg["parts"]
    assert first["mediaType"] == "application/pdf" and first["filename"] == "report.bin"
    assert second["mediaType"] == "text/plain"  # inferred: none was given for it
    assert third == {"text": "see files"}
    orphan = a2a("send", "--media-type", "text/plain", "--text", "x", "--transport", binding, check=2)
    assert "--media-type" in orphan.stderr


@pytest.mark.spec("A2ACLI_SEND_006")
@pytest.mark.parametrize("binding", BINDINGS)
def test_parts_are_repeatable_and_ordered_and_data_dash_reads_stdin(a2a, binding, tmp_path):
    data_file = tmp_path / "d.json"
    data_file.write_text('{"from": "file"}')
    out = a2a("send", "--text", "one", "--data", "-", "--text", "two", "--data", f"@{data_file}", "-o", "json", "--debug", "--transport", binding, input='{"from": "stdin"}')
    (msg,) = sent_messages(out.stderr)
    assert msg["parts"] == [{"text": "one"}, {"data": {"from": "stdin"}}, {"text": "two"}, {"data": {"from": "file"}}]
    assert task_of(out)["history"][0]["parts"][0] == {"text": "one"}  # the agent got them in that order


# --- TASK_CANCEL_001 ------------------------------------------------------------------------------


@pytest.mark.spec("A2ACLI_TASK_CANCEL_001")
@pytest.mark.parametrize("binding", [*BINDINGS, "grpc"])
def test_cancel_reports_the_resulting_state_and_a_refused_second_cancel_reports_it_too(a2a, demo_agent, binding):
    if binding == "grpc" and not demo_agent.grpc_url:
        pytest.skip("grpcio is not installed: the demo agent serves no gRPC")
    how = ["--transport", binding] + (["--plaintext"] if binding == "grpc" else [])
    task = task_of(a2a("send", "--skill", "slow", "-f", "steps:=40", "-f", "delay:=0.25", "--async", "-o", "json", *how))
    canceled = task_of(a2a("task", "cancel", task["id"], "-o", "json", *how))
    assert (canceled["id"], canceled["status"]["state"]) == (task["id"], "TASK_STATE_CANCELED")
    # the demo agent refuses a second cancel by name (TaskNotCancelableError): exit 1, and the state it is in is reported
    text = a2a("task", "cancel", task["id"], "-o", "text", *how, check=1)
    assert f"Task: {task['id']}\nContext: {task['contextId']}\nState: canceled\n" in text.stdout
    assert "TaskNotCancelableError" in text.stderr and f": task {task['id']} is canceled\n" in text.stderr
    as_json = a2a("task", "cancel", task["id"], "-o", "json", *how, check=1)
    err = json.loads(as_json.stdout)["error"]
    assert err["code"] == "TaskNotCancelableError" and f"task {task['id']} is canceled" in err["message"]
    assert task_of(a2a("task", "get", task["id"], "-o", "json", *how))["status"]["state"] == "TASK_STATE_CANCELED"


# --- INTERACT_001, INTERACT_003, INTERACT_005 -----------------------------------------------------


@pytest.mark.spec("A2ACLI_INTERACT_001")
@pytest.mark.parametrize("binding", BINDINGS)
def test_context_id_groups_a_new_task_with_the_earlier_one(a2a, binding):
    first = task_of(a2a("send", "first", "-o", "json", "--transport", binding))
    second = task_of(a2a("send", "second", "--context-id", first["contextId"], "-o", "json", "--debug", "--transport", binding))
    assert second["contextId"] == first["contextId"] and second["id"] != first["id"]


@pytest.mark.spec("A2ACLI_INTERACT_003", "A2ACLI_INTERACT_005")
@pytest.mark.parametrize("binding", BINDINGS)
def test_ids_are_never_invented_nor_remembered(a2a, binding, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"), "XDG_STATE_HOME": str(home / ".state"), "XDG_CACHE_HOME": str(home / ".cache")}
    first = a2a("send", "one", "-o", "json", "--debug", "--transport", binding, env=env)
    (msg,) = sent_messages(first.stderr)
    assert msg["messageId"] and "taskId" not in msg and "contextId" not in msg  # only the client's own id
    task = task_of(first)
    again = a2a("send", "two", "-o", "json", "--debug", "--transport", binding, env=env)
    (msg,) = sent_messages(again.stderr)
    assert "taskId" not in msg and "contextId" not in msg  # the last ids are not replayed
    assert task_of(again)["contextId"] != task["contextId"]
    # no state file anywhere: the Agent Card cache alone (issue 47), which holds the card, no id
    kept = [p for p in home.rglob("*") if p.is_file()]
    assert all(p.parent == home / ".cache" / "a2acli" and p.name.startswith("card-") for p in kept), kept
    assert not [p for p in kept if task["id"] in p.read_text() or task["contextId"] in p.read_text()]
    assert a2a("send", "--continue", "three", "--transport", binding, env=env, check=2).returncode == 2


# --- INTERACT_002 (the part that holds: a rejected id fails and starts nothing) ------------------


def _tasks_in(a2a, context_id: str) -> list[str]:
    page = json.loads(a2a("task", "list", "--context-id", context_id, "-o", "json", "--transport", "jsonrpc").stdout)
    return sorted(t["id"] for t in page["tasks"])


@pytest.mark.spec("A2ACLI_INTERACT_002", "A2ACLI_TASK_LIST_001")
@pytest.mark.parametrize("binding", BINDINGS)
def test_a_rejected_task_id_fails_and_creates_no_task(a2a, binding):
    asked = task_of(a2a("send", "--skill", "ask", "-o", "json", "--transport", binding))
    tid, ctx = asked["id"], asked["contextId"]
    unknown = a2a("send", "--task-id", "no-such-task", "--context-id", ctx, "hi", "--transport", binding, check=1)
    assert "TaskNotFoundError" in unknown.stderr
    mismatched = a2a("send", "--task-id", tid, "--context-id", "not-its-context", "blue", "--transport", binding, check=1)
    assert "not-its-context" in mismatched.stderr  # the agent's refusal, surfaced as it came
    assert _tasks_in(a2a, ctx) == [tid]  # no new task in the context
    assert task_of(a2a("task", "get", tid, "-o", "json", "--transport", binding))["status"]["state"] == "TASK_STATE_INPUT_REQUIRED"
    alone = task_of(a2a("send", "--task-id", tid, "blue", "-o", "json", "--transport", binding))  # the agent resolves the context
    assert (alone["id"], alone["contextId"], alone["status"]["state"]) == (tid, ctx, "TASK_STATE_COMPLETED")


# --- TASK_POLL_003, INTERACT_004, EXIT_002 --------------------------------------------------------


@pytest.mark.spec("A2ACLI_TASK_POLL_003", "A2ACLI_INTERACT_004", "A2ACLI_EXIT_002", "A2ACLI_OUT_001")
@pytest.mark.parametrize("binding", BINDINGS)
def test_input_required_stops_the_wait_exits_0_and_prints_how_to_resume(a2a, binding):
    started = time.monotonic()
    out = a2a("send", "--skill", "ask", "--transport", binding, timeout=30)
    assert time.monotonic() - started < 15
    tid, ctx = re.findall(r"--task-id (\S+) --context-id (\S+)", out.stderr)[0]
    assert tid in out.stdout and ctx in out.stdout and "input" in out.stdout.lower()
    polled = task_of(a2a("task", "get", tid, "--wait", "-o", "json", "--transport", binding, timeout=30))
    assert polled["status"]["state"] == "TASK_STATE_INPUT_REQUIRED"  # the poll stops at once there too
    done = task_of(a2a("send", "--task-id", tid, "--context-id", ctx, "blue", "-o", "json", "--transport", binding))
    assert (done["id"], done["status"]["state"]) == (tid, "TASK_STATE_COMPLETED")


@pytest.mark.spec("A2ACLI_EXIT_002", "A2ACLI_OUT_001")
@pytest.mark.parametrize("binding", BINDINGS)
def test_a_failed_task_exits_0_with_a_warning_and_the_state(a2a, binding):
    as_json = a2a("send", "--skill", "fail", "-o", "json", "--transport", binding)
    assert task_of(as_json)["status"]["state"] == "TASK_STATE_FAILED"
    assert "failed" in as_json.stderr.lower() and as_json.stdout.lstrip().startswith("{")
    as_text = a2a("send", "--skill", "fail", "--transport", binding)
    assert "failed" in as_text.stdout.lower() and "failed" in as_text.stderr.lower()


# --- EXIT_001 -------------------------------------------------------------------------------------


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.spec("A2ACLI_EXIT_001")
def test_exit_codes_0_1_2_and_reserved_3(a2a):
    a2a("send", "hi", check=0)
    a2a("task", "get", "no-such-task", check=1)  # the call failed (TaskNotFoundError)
    a2a("send", "--no-such-flag", "hi", check=2)
    a2a("send", "hi", url=f"http://127.0.0.1:{_closed_port()}", check=3)  # unreachable
    gone = a2a("card", "get", url="file:///nonexistent/card.json", check=None)
    assert gone.returncode in (2, 3)  # never 0, never a meaning of its own


# --- VER_001, AUTH_004 ----------------------------------------------------------------------------


@pytest.mark.spec("A2ACLI_VER_001", "A2ACLI_DEFAULT_001")
@pytest.mark.parametrize("binding", BINDINGS)
def test_a2a_version_is_on_every_request_the_card_fetch_included(a2a, binding):
    task = slow(a2a, binding, steps=2, delay=0.2)
    out = a2a("task", "get", task["id"], "--wait", "--debug", "--no-cache", "--transport", binding)  # the card asked for
    reqs = requests_sent(out.stderr)
    assert reqs[0][0] == "GET" and reqs[0][1].endswith("/.well-known/agent-card.json")
    assert len(reqs) >= 2
    for method, url, headers in reqs:
        assert "A2A-Version: 1.0" in headers, (method, url, headers)


@pytest.mark.spec("A2ACLI_AUTH_004", "A2ACLI_OUT_007")
@pytest.mark.parametrize("binding", BINDINGS)
def test_debug_shows_the_wire_with_credentials_redacted(a2a, binding):
    key, token = "k-3c1b9e0f5a7d", "t-9f8e7d6c5b4a"
    out = a2a("send", "hi", "--debug", "--api-key", key, "--transport", binding)
    assert key not in out.stderr and key not in out.stdout and "<redacted>" in out.stderr
    assert '"parts"' in out.stderr  # the raw protocol messages are there
    explicit = a2a("send", "hi", "--debug", "-H", f"Authorization: Bearer {token}", "--transport", binding)
    assert token not in explicit.stderr and "Authorization: <redacted>" in explicit.stderr
    # A bearer from the environment is not even sent: the demo card takes an API key only (AUTH_008).
    env_token = a2a("send", "hi", "--debug", "--transport", binding, env={"A2ACLI_BEARER": token})
    assert token not in env_token.stderr and "> Authorization:" not in env_token.stderr
    assert "--bearer not sent" in env_token.stderr


# --- beyond Tier 1: the `a2a demo-server` command itself (DEMO_SERVER_001, Tier 3) ----------------


@pytest.mark.spec("A2ACLI_DEMO_SERVER_001")
def test_the_demo_server_command_serves_an_agent_the_cli_can_drive(a2a, a2a_bin, a2a_env):
    import select

    proc = subprocess.Popen([*a2a_bin, "demo-server", "--port", "0", "--grpc-port", "0"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=a2a_env())
    try:
        deadline, url = time.monotonic() + 20, None
        while url is None and time.monotonic() < deadline and proc.poll() is None:
            if select.select([proc.stdout], [], [], 0.5)[0]:
                found = re.search(r"(http://127\.0\.0\.1:\d+)", proc.stdout.readline())  # type: ignore[union-attr]
                url = found.group(1) if found else None
        assert url, "`a2a demo-server` printed no URL"
        task = task_of(a2a("send", "--skill", "create-user", "-f", "projectUserId=u-1", "-o", "json", url=url))
        assert task["status"]["state"] == "TASK_STATE_COMPLETED" and task["artifacts"][0]["parts"][0]["data"]["projectUserId"] == "u-1"
    finally:
        proc.terminate()
        proc.wait(10)
