"""`a2a diff` against the real a2a-sdk demo agent: the same command under 1.0 and 0.3.

What the demo agent (a2a-sdk 1.3.0) really differs in, once both sides are canonical V1 and the
generated ids and timestamps are placeholders (observed, and asserted exactly below):

- every request: the `A2A-Version` header, 1.0 vs 0.3 (the bodies are the same request);
- the Agent Card varies on that header (`Vary: A2A-Version`): the V1 card lists six interfaces
  (JSONRPC, HTTP+JSON, GRPC, each 1.0 then 0.3), the V0 card one `url` with `protocolVersion:
  "0.3.0"` and `additionalInterfaces` (the primary JSON-RPC one again, HTTP+JSON, GRPC), which in V1
  terms are three interfaces "0.3.0" (one per binding and URL); compared by position, the V1
  card's 2nd and 3rd entries differ in binding, version and URL, and its last three are extra;
- create-user numbers its users: the second run creates the next one (`user-N` vs `user-N+1`).
  Not a version difference but the server's state: `--ignore '*.data.id'` leaves it out.

The send is the default one blocking SendMessage (one exchange); `send --follow`, which follows
its task, is diffed too, for what does not depend on timing.

Everything else (method names, `kind`, ROLE_USER/user, TASK_STATE_COMPLETED/completed, the
`{task}` wrapper of V1 SendMessage vs the bare V0 task, key order) is translated away.
"""

from __future__ import annotations

import json
import os

import pytest

pytestmark = pytest.mark.integration

# The default send: one blocking SendMessage, one exchange (issue 21).
COMMAND = ["send", "--skill", "create-user", "-f", "projectUserId=u1"]


@pytest.fixture(scope="module")
def run(run_a2a):
    """`a2a ARGS…` without the user's settings (exit code not asserted)."""
    return run_a2a.bound(env={"A2ACLI_GLOBAL_CONFIG": os.devnull, "A2ACLI_LOCAL_CONFIG": os.devnull})


def card_differences(agent) -> list[dict]:
    """The card exchange's differences: V1 card [JSONRPC 1.0, JSONRPC 0.3, HTTP+JSON 1.0, HTTP+JSON 0.3,
    GRPC 1.0, GRPC 0.3] against the V0 card's [JSONRPC, HTTP+JSON, GRPC] all "0.3.0", by position."""
    path = "response.body.supportedInterfaces"

    def changed(i: int, key: str, left: str, right: str) -> dict:
        return {"exchange": "card", "path": f"{path}[{i}].{key}", "kind": "changed", "left": left, "right": right}

    def removed(i: int, url: str, binding: str, version: str) -> dict:
        return {"exchange": "card", "path": f"{path}[{i}]", "kind": "removed", "left": {"url": url, "protocolBinding": binding, "protocolVersion": version}, "right": None}

    head = [
        {"exchange": "card", "path": "request.headers.a2a-version", "kind": "changed", "left": "1.0", "right": "0.3"},
        changed(0, "protocolVersion", "1.0", "0.3.0"),
        changed(1, "protocolBinding", "JSONRPC", "HTTP+JSON"),
        changed(1, "protocolVersion", "0.3", "0.3.0"),
        changed(1, "url", agent.rpc_url, agent.url),
    ]
    if not agent.grpc_url:  # without grpcio the demo serves no gRPC: four V1 interfaces, two V0 ones
        return [*head, removed(2, agent.url, "HTTP+JSON", "1.0"), removed(3, agent.url, "HTTP+JSON", "0.3")]
    return [
        *head,
        changed(2, "protocolBinding", "HTTP+JSON", "GRPC"),
        changed(2, "protocolVersion", "1.0", "0.3.0"),
        changed(2, "url", agent.url, agent.grpc_url),
        removed(3, agent.url, "HTTP+JSON", "0.3"),
        removed(4, agent.grpc_url, "GRPC", "1.0"),
        removed(5, agent.grpc_url, "GRPC", "0.3"),
    ]


def test_diff_of_create_user_reports_only_the_known_version_differences(run, demo_agent):
    done = run("diff", "-u", demo_agent.url, "-o", "json", "--", *COMMAND)
    assert done.returncode == 1, done.stderr
    doc = json.loads(done.stdout)
    assert doc["left"]["version"] == "1.0" and doc["right"]["version"] == "0.3"
    assert [(e["method"], e["left"], e["right"]) for e in doc["exchanges"]] == [
        ("card", "001-card", "001-card"), ("SendMessage", "002-SendMessage", "002-message_send")]
    diffs = doc["differences"]
    user_ids = diffs.pop(-1)
    assert diffs == card_differences(demo_agent) + [
        {"exchange": "SendMessage", "path": "request.headers.a2a-version", "kind": "changed", "left": "1.0", "right": "0.3"},
    ]
    assert user_ids["exchange"] == "SendMessage" and user_ids["kind"] == "changed"
    assert user_ids["path"] == "response.body.result.task.artifacts[0].parts[0].data.id"
    left, right = (int(user_ids[side].removeprefix("user-")) for side in ("left", "right"))
    assert right == left + 1
    assert doc["runs"] == [{"version": "1.0", "exit": 0, "error": None, "dump": None}, {"version": "0.3", "exit": 0, "error": None, "dump": None}]


def test_diff_of_a_followed_send_compares_the_send_and_the_task_it_followed(run, demo_agent, tmp_path):
    done = run("diff", "-u", demo_agent.url, "-o", "json", "--save", str(tmp_path), "--", "send", "--follow", "--skill", "slow", "-f", "steps:=2", "-f", "delay:=0.2")
    assert done.returncode == 1, done.stderr
    doc = json.loads(done.stdout)
    assert doc["runs"] == [{"version": "1.0", "exit": 0, "error": None, "dump": str(tmp_path / "v1")}, {"version": "0.3", "exit": 0, "error": None, "dump": str(tmp_path / "v0")}]
    methods = [e["method"] for e in doc["exchanges"]]
    assert methods[:2] == ["card", "SendMessage"] and methods[-1] == "GetTask"  # the send, then its task followed and fetched
    send = [d for d in doc["differences"] if d["exchange"] == "SendMessage"]
    assert send == [{"exchange": "SendMessage", "path": "request.headers.a2a-version", "kind": "changed", "left": "1.0", "right": "0.3"}]  # returnImmediately = blocking false
    final = [d for d in doc["differences"] if d["exchange"] == "GetTask" and d["path"].startswith("response.body")]
    assert final == []  # the same task, translated


def test_ignore_leaves_only_version_differences_and_saved_dumps_diff_alike(run, demo_agent, tmp_path):
    saved = tmp_path / "dumps"
    done = run("diff", "-u", demo_agent.url, "--ignore", "*.data.id", "--save", str(saved), "--", *COMMAND)
    assert done.returncode == 1, done.stderr
    out = done.stdout.splitlines()
    assert "=== SendMessage: 002-SendMessage <> 002-message_send: 1 difference(s)" in out
    assert "-a2a-version: 1.0" in out and "+a2a-version: 0.3" in out
    expected = len(card_differences(demo_agent)) + 1  # + the SendMessage request's a2a-version
    assert f"{expected} difference(s) in 2 of 2 exchange(s)" in done.stderr
    again = run("diff", str(saved / "v1"), str(saved / "v0"), "--ignore", "*.data.id", "-o", "json")
    assert again.returncode == 1 and len(json.loads(again.stdout)["differences"]) == expected
    # The raw bodies do differ: method names, kind, enum spellings, the {task} wrapper.
    raw = {d["path"]: d for d in json.loads(run("diff", str(saved / "v1"), str(saved / "v0"), "--raw", "-o", "json").stdout)["differences"]}
    assert raw["request.body.method"]["left"] == "SendMessage" and raw["request.body.method"]["right"] == "message/send"
    assert raw["request.body.params.message.role"]["right"] == "user" and raw["request.body.params.message.kind"]["kind"] == "added"
    assert raw["response.body.result.task"]["kind"] == "removed" and raw["response.body.result.kind"]["right"] == "task"
    # translate turns the V0 request that was sent into the V1 one that was sent, ids aside.
    v0_request = saved / "v0" / "002-message_send.request.body"
    v1_sent = json.loads((saved / "v1" / "002-SendMessage.request.body").read_text())
    translated = run("translate", "--to", "v1", str(v0_request))
    assert translated.returncode == 0, translated.stderr
    doc = json.loads(translated.stdout)
    for d in (doc, v1_sent):
        d["id"] = d["params"]["message"]["messageId"] = "<id>"
    assert doc == v1_sent
    assert "recognised: V0 (0.3) JSON-RPC request (SendMessage)" in translated.stderr


def test_identical_calls_under_one_version_are_equal(run, demo_agent, tmp_path):
    sent = run("send", "hello", "-u", demo_agent.url, "-o", "json")
    task_id = json.loads(sent.stdout)["task"]["id"]
    for name in ("a", "b"):
        done = run("tasks", "get", task_id, "-u", demo_agent.url, "--dump", str(tmp_path / name), "-o", "json")
        assert done.returncode == 0, done.stderr
    same = run("diff", str(tmp_path / "a"), str(tmp_path / "b"))
    assert same.returncode == 0, same.stdout + same.stderr
    assert same.stdout == "" and "no differences: 2 exchange(s) compared" in same.stderr
