"""`a2a diff` against the real a2a-sdk demo agent: the same command under 1.0 and 0.3.

What the demo agent (a2a-sdk 1.3.0) really differs in, once both sides are canonical V1 and the
generated ids and timestamps are placeholders (observed, and asserted exactly below):

- every request: the `A2A-Version` header, 1.0 vs 0.3 (the bodies are the same request): the
  compared variable, so it does not count;
- the Agent Card varies on that header (`Vary: A2A-Version`): the V1 card lists six interfaces
  (JSONRPC, HTTP+JSON, GRPC, each 1.0 then 0.3), the V0 card one `url` with `protocolVersion:
  "0.3.0"` and `additionalInterfaces` (the primary JSON-RPC one again, HTTP+JSON, GRPC), which in V1
  terms are three interfaces "0.3.0" (one per binding and URL); compared by position, the V1
  card's 2nd and 3rd entries differ in binding, version and URL, and its last three are extra;
  the card counts only with --card;
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


CARD = "in the card (--card compares it)"
VERSION = "implied by the version"


def card_differences(agent, aside: str = CARD) -> list[dict]:
    """The card exchange's differences: V1 card [JSONRPC 1.0, JSONRPC 0.3, HTTP+JSON 1.0, HTTP+JSON 0.3,
    GRPC 1.0, GRPC 0.3] against the V0 card's [JSONRPC, HTTP+JSON, GRPC] all "0.3.0", by position.
    None counts without --card (`aside` says why)."""
    path = "response.body.supportedInterfaces"
    said = {"aside": aside} if aside else {}

    def changed(i: int, key: str, left: str, right: str) -> dict:
        return {"exchange": "card", "path": f"{path}[{i}].{key}", "kind": "changed", "left": left, "right": right, **said}

    def removed(i: int, url: str, binding: str, version: str) -> dict:
        return {"exchange": "card", "path": f"{path}[{i}]", "kind": "removed", "left": {"url": url, "protocolBinding": binding, "protocolVersion": version}, "right": None, **said}

    head = [
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


def header(exchange: str, aside: str) -> dict:
    return {"exchange": exchange, "path": "request.headers.a2a-version", "kind": "changed", "left": "1.0", "right": "0.3", "aside": aside}


def test_diff_of_tasks_get_between_versions_agrees_exit_0(run, demo_agent):
    """The issue's case: GetTask answers the same under 1.0 and 0.3; the version header and the
    card each version serves do not count; the verdict is the last line, -q keeps it alone."""
    sent = run("send", "hello", "-u", demo_agent.url, "-o", "json")
    task_id = json.loads(sent.stdout)["task"]["id"]
    done = run("diff", "-u", demo_agent.url, "--", "tasks", "get", task_id)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == ""
    n = len(card_differences(demo_agent))
    assert done.stderr.splitlines()[-2:] == [
        f"{n + 2} difference(s) do not count: {n + 1} in the card (--card compares it); 1 {VERSION} (a2a-version); -v shows them",
        "same: the answers agree, 2 exchange(s) compared (canonical V1; ids and times aside)",
    ]
    quiet = run("diff", "-q", "-u", demo_agent.url, "--", "tasks", "get", task_id)
    assert quiet.returncode == 0 and quiet.stderr.splitlines() == ["same: the answers agree, 2 exchange(s) compared (canonical V1; ids and times aside)"]
    card = run("diff", "--card", "-u", demo_agent.url, "-o", "json", "--", "tasks", "get", task_id)
    assert card.returncode == 1 and json.loads(card.stdout)["differences"] == card_differences(demo_agent, aside="")


def test_diff_between_bindings_agrees_exit_0(run, demo_agent):
    done = run("diff", "-u", demo_agent.url, "--transport", "jsonrpc", "--transport", "rest", "-o", "json", "--", "send", "hi")
    assert done.returncode == 0, done.stdout + done.stderr
    doc = json.loads(done.stdout)
    assert doc["differences"] == []
    assert {(d["path"], d["aside"]) for d in doc["aside"]} == {
        ("request.line", "implied by the binding"),
        ("request.headers.accept", "implied by the binding"),
        ("request.headers.content-type", "implied by the binding"),
        ("response.headers.content-type", "implied by the binding"),
    }


def test_diff_of_create_user_counts_only_the_real_difference(run, demo_agent):
    done = run("diff", "-u", demo_agent.url, "-o", "json", "--", *COMMAND)
    assert done.returncode == 1, done.stderr
    doc = json.loads(done.stdout)
    assert doc["left"]["version"] == "1.0" and doc["right"]["version"] == "0.3"
    assert [(e["method"], e["left"], e["right"]) for e in doc["exchanges"]] == [
        ("card", "001-card", "001-card"), ("SendMessage", "002-SendMessage", "002-message_send")]
    (user_ids,) = doc["differences"]  # create-user numbers its users: the second run made the next one
    assert user_ids["exchange"] == "SendMessage" and user_ids["kind"] == "changed"
    assert user_ids["path"] == "response.body.result.task.artifacts[0].parts[0].data.id"
    left, right = (int(user_ids[side].removeprefix("user-")) for side in ("left", "right"))
    assert right == left + 1
    assert doc["aside"] == [header("card", CARD), *card_differences(demo_agent), header("SendMessage", VERSION)]
    assert doc["runs"] == [{"version": "1.0", "exit": 0, "error": None, "dump": None}, {"version": "0.3", "exit": 0, "error": None, "dump": None}]
    assert done.stderr.splitlines()[-1] == "different: 1 difference(s) in 1 of 2 exchange(s) (canonical V1; ids and times aside)"


def test_diff_of_a_followed_send_compares_the_send_and_the_task_it_followed(run, demo_agent, tmp_path):
    done = run("diff", "-u", demo_agent.url, "-o", "json", "--save", str(tmp_path), "--", "send", "--follow", "--skill", "slow", "-f", "steps:=2", "-f", "delay:=0.2")
    assert done.returncode in (0, 1), done.stderr  # how often the task was polled depends on timing
    doc = json.loads(done.stdout)
    assert doc["runs"] == [{"version": "1.0", "exit": 0, "error": None, "dump": str(tmp_path / "v1")}, {"version": "0.3", "exit": 0, "error": None, "dump": str(tmp_path / "v0")}]
    assert (doc["left"]["path"], doc["right"]["path"]) == (str(tmp_path / "v1"), str(tmp_path / "v0"))  # kept: named
    methods = [e["method"] for e in doc["exchanges"]]
    assert methods[:2] == ["card", "SendMessage"] and methods[-1] == "GetTask"  # the send, then its task followed and fetched
    assert [d for d in doc["differences"] if d["exchange"] == "SendMessage"] == []
    assert [d for d in doc["aside"] if d["exchange"] == "SendMessage"] == [header("SendMessage", VERSION)]  # returnImmediately = blocking false
    final = [d for d in doc["differences"] if d["exchange"] == "GetTask" and d["path"].startswith("response.body")]
    assert final == []  # the same task, translated


def test_ignore_leaves_no_difference_and_saved_dumps_diff_alike(run, demo_agent, tmp_path):
    saved = tmp_path / "dumps"
    done = run("diff", "-u", demo_agent.url, "--ignore", "*.data.id", "--save", str(saved), "--", *COMMAND)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    verbose = run("diff", str(saved / "v1"), str(saved / "v0"), "--ignore", "*.data.id", "-v")
    assert verbose.returncode == 0
    out = verbose.stdout.splitlines()
    assert "=== SendMessage: 002-SendMessage <> 002-message_send: 0 difference(s) (1 that do not count)" in out
    assert "-a2a-version: 1.0" in out and "+a2a-version: 0.3" in out
    again = run("diff", str(saved / "v1"), str(saved / "v0"), "--ignore", "*.data.id", "-o", "json")
    assert again.returncode == 0 and len(json.loads(again.stdout)["aside"]) == len(card_differences(demo_agent)) + 2
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
    assert same.stdout == "" and same.stderr.splitlines()[-1] == "same: the answers agree, 2 exchange(s) compared (canonical V1; ids and times aside)"
