"""`a2a diff` against the real a2a-sdk demo agent: the same command under 1.0 and 0.3.

What the demo agent (a2a-sdk 1.3.0) really differs in, once both sides are canonical V1 and the
generated ids and timestamps are placeholders (observed, and asserted exactly below):

- every request: the `A2A-Version` header, 1.0 vs 0.3 (the bodies are the same request);
- the Agent Card varies on that header (`Vary: A2A-Version`): the V1 card lists two interfaces
  (1.0 and 0.3 on one URL), the V0 card has one `url` with `protocolVersion: "0.3.0"`, which
  becomes a single interface "0.3.0" in V1 terms;
- create-user numbers its users: the second run creates the next one (`user-N` vs `user-N+1`).
  Not a version difference but the server's state: `--ignore '*.data.id'` leaves it out.

Everything else (method names, `kind`, ROLE_USER/user, TASK_STATE_COMPLETED/completed, the
`{task}` wrapper of V1 SendMessage vs the bare V0 task, key order) is translated away.
"""

from __future__ import annotations

import json
import subprocess

import pytest

pytestmark = pytest.mark.integration

COMMAND = ["send", "--skill", "create-user", "-f", "projectUserId=u1"]


def run(a2a_bin, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*a2a_bin, *args], capture_output=True, text=True, timeout=60)


def test_diff_of_create_user_reports_only_the_known_version_differences(a2a_bin, demo_agent):
    done = run(a2a_bin, "diff", "-u", demo_agent.url, "-o", "json", "--", *COMMAND)
    assert done.returncode == 1, done.stderr
    doc = json.loads(done.stdout)
    assert doc["left"]["version"] == "1.0" and doc["right"]["version"] == "0.3"
    assert [(e["method"], e["left"], e["right"]) for e in doc["exchanges"]] == [
        ("card", "001-card", "001-card"), ("SendMessage", "002-SendMessage", "002-message_send")]
    diffs = doc["differences"]
    user_ids = diffs.pop(-1)
    assert diffs == [
        {"exchange": "card", "path": "request.headers.a2a-version", "kind": "changed", "left": "1.0", "right": "0.3"},
        {"exchange": "card", "path": "response.body.supportedInterfaces[0].protocolVersion", "kind": "changed", "left": "1.0", "right": "0.3.0"},
        # the 0.3 card's additionalInterfaces repeat its primary JSON-RPC one, then HTTP+JSON
        {"exchange": "card", "path": "response.body.supportedInterfaces[2].protocolVersion", "kind": "changed", "left": "1.0", "right": "0.3"},
        {"exchange": "card", "path": "response.body.supportedInterfaces[3]", "kind": "removed",
         "left": {"url": demo_agent.url, "protocolBinding": "HTTP+JSON", "protocolVersion": "0.3"}, "right": None},
        {"exchange": "SendMessage", "path": "request.headers.a2a-version", "kind": "changed", "left": "1.0", "right": "0.3"},
    ]
    assert user_ids["exchange"] == "SendMessage" and user_ids["kind"] == "changed"
    assert user_ids["path"] == "response.body.result.task.artifacts[0].parts[0].data.id"
    left, right = (int(user_ids[side].removeprefix("user-")) for side in ("left", "right"))
    assert right == left + 1
    assert doc["runs"] == [{"version": "1.0", "exit": 0, "error": None, "dump": None}, {"version": "0.3", "exit": 0, "error": None, "dump": None}]


def test_ignore_leaves_only_version_differences_and_saved_dumps_diff_alike(a2a_bin, demo_agent, tmp_path):
    saved = tmp_path / "dumps"
    done = run(a2a_bin, "diff", "-u", demo_agent.url, "--ignore", "*.data.id", "--save", str(saved), "--", *COMMAND)
    assert done.returncode == 1, done.stderr
    out = done.stdout.splitlines()
    assert "=== SendMessage: 002-SendMessage <> 002-message_send: 1 difference(s)" in out
    assert "-a2a-version: 1.0" in out and "+a2a-version: 0.3" in out
    assert "5 difference(s) in 2 of 2 exchange(s)" in done.stderr
    again = run(a2a_bin, "diff", str(saved / "v1"), str(saved / "v0"), "--ignore", "*.data.id", "-o", "json")
    assert again.returncode == 1 and len(json.loads(again.stdout)["differences"]) == 5
    # The raw bodies do differ: method names, kind, enum spellings, the {task} wrapper.
    raw = {d["path"]: d for d in json.loads(run(a2a_bin, "diff", str(saved / "v1"), str(saved / "v0"), "--raw", "-o", "json").stdout)["differences"]}
    assert raw["request.body.method"]["left"] == "SendMessage" and raw["request.body.method"]["right"] == "message/send"
    assert raw["request.body.params.message.role"]["right"] == "user" and raw["request.body.params.message.kind"]["kind"] == "added"
    assert raw["response.body.result.task"]["kind"] == "removed" and raw["response.body.result.kind"]["right"] == "task"
    # translate turns the V0 request that was sent into the V1 one that was sent, ids aside.
    v0_request = saved / "v0" / "002-message_send.request.body"
    v1_sent = json.loads((saved / "v1" / "002-SendMessage.request.body").read_text())
    translated = run(a2a_bin, "translate", "--to", "v1", str(v0_request))
    assert translated.returncode == 0, translated.stderr
    doc = json.loads(translated.stdout)
    for d in (doc, v1_sent):
        d["id"] = d["params"]["message"]["messageId"] = "<id>"
    assert doc == v1_sent
    assert "recognised: V0 (0.3) JSON-RPC request (SendMessage)" in translated.stderr


def test_identical_calls_under_one_version_are_equal(a2a_bin, demo_agent, tmp_path):
    sent = run(a2a_bin, "send", "hello", "-u", demo_agent.url, "-o", "json")
    task_id = json.loads(sent.stdout)["task"]["id"]
    for name in ("a", "b"):
        done = run(a2a_bin, "tasks", "get", task_id, "-u", demo_agent.url, "--dump", str(tmp_path / name), "-o", "json")
        assert done.returncode == 0, done.stderr
    same = run(a2a_bin, "diff", str(tmp_path / "a"), str(tmp_path / "b"))
    assert same.returncode == 0, same.stdout + same.stderr
    assert same.stdout == "" and "no differences: 2 exchange(s) compared" in same.stderr
