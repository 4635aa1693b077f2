"""`a2a diff`: two dumps, or one command run under 1.0 and 0.3, compared in canonical V1."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from a2a_testkit import AGENT, ANY_CREDENTIAL, RPC, rpc_result, sse, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"


def v1_task(tid: str, cid: str, mid: str, ts: str, user: str = "user-1") -> dict:
    return {"id": tid, "contextId": cid, "status": {"state": "TASK_STATE_COMPLETED", "timestamp": ts},
            "artifacts": [{"artifactId": f"a-{tid}", "name": "user", "parts": [{"data": {"id": user}}]}],
            "history": [{"messageId": mid, "contextId": cid, "taskId": tid, "role": "ROLE_USER", "parts": [{"text": "hi"}]}]}


def v0_task(tid: str, cid: str, mid: str, ts: str, user: str = "user-1") -> dict:
    return {"kind": "task", "id": tid, "contextId": cid, "status": {"state": "completed", "timestamp": ts},
            "artifacts": [{"artifactId": f"a-{tid}", "name": "user", "parts": [{"kind": "data", "data": {"id": user}}]}],
            "history": [{"kind": "message", "messageId": mid, "contextId": cid, "taskId": tid, "role": "user", "parts": [{"kind": "text", "text": "hi"}]}]}


def echo_send(version: str, user: str = "user-1", *, history_task: str | None = None):
    """A mock agent answering SendMessage with a task that quotes the request's ids."""
    counter = iter(range(100))

    def answer(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        n = next(counter)
        tid, cid = f"task-{version}-{n}", f"ctx-{version}-{n}"
        mid = body["params"]["message"]["messageId"]
        ts = f"2026-01-0{n + 1}T00:00:00Z" if version == "1.0" else f"2026-02-0{n + 1}T10:00:00.123Z"
        task = (v1_task if version == "1.0" else v0_task)(tid, cid, mid, ts, user)
        if history_task:
            task["history"][0]["taskId"] = history_task
        result = {"task": task} if version == "1.0" else task
        return httpx.Response(200, json=rpc_result(result, body["id"]), headers={"X-Request-ID": f"rq-{version}-{n}"})

    return answer


@pytest.fixture
def agent(respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    return respx_mock


def make_dump(cli, agent, path: Path, version: str, **kw) -> Path:
    agent.post(RPC).mock(side_effect=echo_send(version, **kw))
    result = cli("send", "hi", "-u", AGENT, "--a2a-version", version, "--dump", str(path))
    assert result.exit_code == 0, result.stderr
    return path


@pytest.fixture
def dumps(cli, agent, tmp_path):
    return make_dump(cli, agent, tmp_path / "v1", "1.0"), make_dump(cli, agent, tmp_path / "v0", "0.3")


def as_json(result) -> dict:
    return json.loads(result.stdout)


# -- two dumps -----------------------------------------------------------------------------------------


def test_v1_and_v0_dumps_agree_and_the_version_header_does_not_count(cli, dumps):
    """What the compared variable (the version) implies is set aside: the A2A-Version header, and
    the card each version serves; the answers agree, so exit 0 (as diff(1))."""
    result = cli("diff", *map(str, dumps), "-o", "json")
    assert result.exit_code == 0, result.stderr
    doc = as_json(result)
    assert doc["equal"] is True and doc["mode"] == "canonical-v1" and doc["idsNormalised"] is True
    assert doc["left"]["version"] == "1.0" and doc["right"]["version"] == "0.3"
    assert [(e["method"], e["left"], e["right"]) for e in doc["exchanges"]] == [
        ("card", "001-card", "001-card"), ("SendMessage", "002-SendMessage", "002-message_send")]
    assert doc["differences"] == []
    assert doc["aside"] == [
        {"exchange": "card", "path": "request.headers.a2a-version", "kind": "changed", "left": "1.0", "right": "0.3",
         "aside": "in the card (--card compares it)"},
        {"exchange": "SendMessage", "path": "request.headers.a2a-version", "kind": "changed", "left": "1.0", "right": "0.3",
         "aside": "implied by the version"},
    ]
    assert result.stderr.splitlines()[-1] == "same: the answers agree, 2 exchange(s) compared (canonical V1; ids and times aside)"


def test_text_diff_shows_what_does_not_count_with_v_and_sums_it_up_without(cli, dumps):
    result = cli("diff", *map(str, dumps))
    assert result.exit_code == 0 and result.stdout == ""
    assert result.stderr.splitlines()[-2:] == [
        "2 difference(s) do not count: 1 in the card (--card compares it); 1 implied by the version (a2a-version); -v shows them",
        "same: the answers agree, 2 exchange(s) compared (canonical V1; ids and times aside)",
    ]
    shown = cli("diff", *map(str, dumps), "-v")
    assert shown.exit_code == 0
    out = shown.stdout.splitlines()
    assert "=== SendMessage: 002-SendMessage <> 002-message_send: 0 difference(s) (1 that do not count)" in out
    assert "# does not count: implied by the version" in out
    assert "--- v1/002-SendMessage.request.http" in out and "+++ v0/002-message_send.request.http" in out
    assert "-a2a-version: 1.0" in out and "+a2a-version: 0.3" in out


def test_card_compares_the_card_fetches_too(cli, dumps):
    card = dumps[1] / "001-card.response.body"
    card.write_text(json.dumps({**json.loads(card.read_text()), "name": "Another agent"}))
    assert cli("diff", *map(str, dumps)).exit_code == 0
    result = cli("diff", *map(str, dumps), "--card", "-o", "json")
    assert result.exit_code == 1, result.stderr
    doc = as_json(result)
    assert doc["cardCompared"] is True
    assert [(d["exchange"], d["path"]) for d in doc["differences"]] == [("card", "response.body.name")]
    assert result.stderr.splitlines()[-1].startswith("different: 1 difference(s) in 1 of 2 exchange(s)")


def test_quiet_keeps_the_verdict_only(cli, dumps):
    for argv in (["diff", *map(str, dumps), "-q"], ["-q", "diff", *map(str, dumps)]):
        result = cli(*argv)
        assert result.exit_code == 0, result.stderr
        assert result.stderr.splitlines() == ["same: the answers agree, 2 exchange(s) compared (canonical V1; ids and times aside)"]


def test_same_dump_twice_is_equal_exit_0_and_prints_nothing(cli, dumps):
    result = cli("diff", str(dumps[0]), str(dumps[0]))
    assert result.exit_code == 0
    assert result.stdout == "" and result.stderr.splitlines() == ["same: the answers agree, 2 exchange(s) compared (canonical V1; ids and times aside)"]


def test_keep_ids_shows_the_generated_values(cli, dumps):
    paths = {d["path"] for d in as_json(cli("diff", *map(str, dumps), "--keep-ids", "-o", "json"))["differences"]}
    assert {"request.body.id", "request.body.params.message.messageId", "response.body.result.task.id",
            "response.body.result.task.contextId", "response.body.result.task.status.timestamp",
            "response.headers.x-request-id", "request.headers.content-length"} <= paths


def test_two_v1_dumps_of_different_calls_are_equal_once_ids_are_normalised(cli, agent, tmp_path):
    a = make_dump(cli, agent, tmp_path / "a", "1.0")
    b = make_dump(cli, agent, tmp_path / "b", "1.0")
    assert cli("diff", str(a), str(b)).exit_code == 0


def test_a_wrong_cross_reference_still_shows(cli, agent, tmp_path):
    """Placeholders are per value: a history message pointing at another task is a difference."""
    a = make_dump(cli, agent, tmp_path / "a", "1.0")
    b = make_dump(cli, agent, tmp_path / "b", "0.3", history_task="some-other-task")
    diffs = as_json(cli("diff", str(a), str(b), "-o", "json"))["differences"]
    assert {"exchange": "SendMessage", "path": "response.body.result.task.history[0].taskId", "kind": "changed",
            "left": "<task-1>", "right": "<task-2>"} in diffs


def test_a_real_difference_and_ignore(cli, agent, tmp_path):
    a = make_dump(cli, agent, tmp_path / "a", "1.0", user="user-1")
    b = make_dump(cli, agent, tmp_path / "b", "0.3", user="user-2")
    diffs = as_json(cli("diff", str(a), str(b), "-o", "json"))["differences"]
    assert {"exchange": "SendMessage", "path": "response.body.result.task.artifacts[0].parts[0].data.id", "kind": "changed",
            "left": "user-1", "right": "user-2"} in diffs
    text = cli("diff", str(a), str(b)).stdout
    assert '-                "id": "user-1"' in text and '+                "id": "user-2"' in text
    ignored = as_json(cli("diff", str(a), str(b), "-o", "json", "--ignore", "*.data.id", "--ignore", "request.headers.a2a-version"))
    assert ignored["differences"] == [] and ignored["equal"] is True


@pytest.mark.parametrize("users,verdict", [(("user-1", "user-2"), 1), (("user-1", "user-1"), 0)])
def test_a_reader_that_leaves_early_does_not_turn_a_difference_into_a_pass(cli, agent, tmp_path, users, verdict):
    """`a2a diff A B | head -1` under `set -o pipefail`: the pipe closes before the report is
    written; the exit code is still the verdict."""
    import os
    import subprocess
    import sys

    a = make_dump(cli, agent, tmp_path / "a", "1.0", user=users[0])
    b = make_dump(cli, agent, tmp_path / "b", "0.3", user=users[1])
    r, w = os.pipe()
    os.close(r)  # the reader has left before a2a writes
    try:
        out = subprocess.run([sys.executable, "-m", "a2acli", "diff", str(a), str(b), "-v"], stdout=w, stderr=subprocess.PIPE, text=True, timeout=60)
    finally:
        os.close(w)
    assert out.returncode == verdict, out.stderr
    assert "Traceback" not in out.stderr and "internal error" not in out.stderr


def test_an_ignore_pattern_that_matches_nothing_is_said(cli, agent, tmp_path):
    a = make_dump(cli, agent, tmp_path / "a", "1.0", user="user-1")
    b = make_dump(cli, agent, tmp_path / "b", "0.3", user="user-2")
    doc = as_json(cli("diff", str(a), str(b), "-o", "json", "--ignore", "*.data.id", "--ignore", "*.dta.id", "--ignore", "request.headers.a2a-version"))
    assert doc["equal"] is True  # the typo hides nothing and changes no verdict...
    assert doc["notes"] == ["--ignore '*.dta.id' matched no path of either dump: check it against the paths `-o json` names"]  # ...and is said
    # a pattern whose paths another pattern already left out matched them too: nothing said
    nested = as_json(cli("diff", str(a), str(b), "-o", "json", "--ignore", "response.body", "--ignore", "*.data.id", "--ignore", "request.headers.a2a-version"))
    assert nested["notes"] == []
    text = cli("diff", str(a), str(b), "--ignore", "[")
    assert text.exit_code == 1 and "--ignore '[' matched no path of either dump" in text.stderr


def test_raw_compares_the_bodies_as_sent(cli, dumps):
    result = cli("diff", *map(str, dumps), "--raw", "-o", "json")
    assert result.exit_code == 1
    doc = as_json(result)
    assert doc["mode"] == "raw"
    by_path = {d["path"]: d for d in doc["differences"]}
    assert by_path["request.body.method"]["left"] == "SendMessage" and by_path["request.body.method"]["right"] == "message/send"
    assert by_path["request.body.params.message.role"] == {"exchange": "SendMessage", "path": "request.body.params.message.role",
                                                            "kind": "changed", "left": "ROLE_USER", "right": "user"}
    assert by_path["request.body.params.message.kind"]["kind"] == "added"
    assert by_path["response.body.result.task"]["kind"] == "removed"
    text = cli("diff", *map(str, dumps), "--raw").stdout
    assert '+      "kind": "message",' in text


def test_header_differences_are_reported(cli, respx_mock, tmp_path):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    respx_mock.post(RPC).mock(side_effect=[
        httpx.Response(200, json=rpc_result({"task": v1_task("t", "c", "m", "2026-01-01T00:00:00Z")}), headers={"A2A-Extensions": "urn:x"}),
        httpx.Response(200, json=rpc_result(v0_task("t", "c", "m", "2026-01-01T00:00:00Z")), headers={"Content-Type": "application/json; charset=utf-8"}),
    ])
    cli("tasks", "get", "t", "-u", AGENT, "--dump", str(tmp_path / "a"), "-H", "A2A-Extensions: urn:x")
    cli("tasks", "get", "t", "-u", AGENT, "--dump", str(tmp_path / "b"), "--a2a-version", "0.3", "-H", "X-A2A-Extensions: urn:x")
    doc = as_json(cli("diff", str(tmp_path / "a"), str(tmp_path / "b"), "-o", "json"))
    diffs = {d["path"]: d for d in doc["differences"] if d["exchange"] == "GetTask"}
    assert diffs["request.headers.a2a-extensions"]["kind"] == "removed"
    assert diffs["request.headers.x-a2a-extensions"] == {"exchange": "GetTask", "path": "request.headers.x-a2a-extensions", "kind": "added", "left": None, "right": "urn:x"}
    assert diffs["response.headers.a2a-extensions"]["kind"] == "removed"
    aside = {d["path"]: d for d in doc["aside"] if d["exchange"] == "GetTask"}  # the media type is the version's
    assert aside["response.headers.content-type"]["right"] == "application/json; charset=utf-8"
    assert aside["response.headers.content-type"]["aside"] == "implied by the version"


def test_streams_are_compared_event_by_event(cli, respx_mock, tmp_path):
    v1 = [{"task": {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_SUBMITTED"}}},
          {"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_COMPLETED"}}}]
    v0 = [{"kind": "task", "id": "t", "contextId": "c", "status": {"state": "submitted"}},
          {"kind": "status-update", "taskId": "t", "contextId": "c", "status": {"state": "working"}, "final": False},
          {"kind": "status-update", "taskId": "t", "contextId": "c", "status": {"state": "completed"}, "final": True}]
    respx_mock.get(CARD_URL).respond(json=v1_card())
    respx_mock.post(RPC).mock(side_effect=[httpx.Response(200, content=sse(*events), headers={"Content-Type": "text/event-stream"}) for events in (v1, v0)])
    assert cli("stream", "hi", "-u", AGENT, "--dump", str(tmp_path / "a")).exit_code == 0
    assert cli("stream", "hi", "-u", AGENT, "--dump", str(tmp_path / "b"), "--a2a-version", "0.3").exit_code == 0
    diffs = [d for d in as_json(cli("diff", str(tmp_path / "a"), str(tmp_path / "b"), "-o", "json"))["differences"] if not d["path"].startswith("request.headers")]
    assert diffs == [
        {"exchange": "SendStreamingMessage", "path": "response.events[1].result.statusUpdate.status.state", "kind": "changed",
         "left": "TASK_STATE_COMPLETED", "right": "TASK_STATE_WORKING"},
        {"exchange": "SendStreamingMessage", "path": "response.events[2]", "kind": "added", "left": None,
         "right": {"id": "<rpc-id-2>", "jsonrpc": "2.0", "result": {"statusUpdate": {"contextId": "<context-1>", "status": {"state": "TASK_STATE_COMPLETED"}, "taskId": "<task-1>"}}}},
    ]


def test_an_exchange_on_one_side_only(cli, agent, tmp_path):
    a = make_dump(cli, agent, tmp_path / "a", "1.0")
    agent.post(RPC).mock(return_value=httpx.Response(200, json=rpc_result({"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}})))
    assert cli("tasks", "get", "t", "-u", AGENT, "--dump", str(a), "--dump-append").exit_code == 0  # a second call into the same dump, asked for
    b = make_dump(cli, agent, tmp_path / "b", "1.0")
    doc = as_json(cli("diff", str(a), str(b), "-o", "json"))
    assert [d for d in doc["differences"] if d["path"] == "exchange"] == [
        {"exchange": "GetTask", "path": "exchange", "kind": "removed", "left": "004-GetTask (GetTask)", "right": None},
    ]
    assert [d for d in doc["aside"] if d["path"] == "exchange"] == [
        {"exchange": "card", "path": "exchange", "kind": "removed", "left": "003-card (card)", "right": None, "aside": "in the card (--card compares it)"},
    ]
    text = cli("diff", str(a), str(b)).stdout
    assert "only in the left dump: 004-GetTask" in text


@pytest.mark.parametrize("argv,says", [
    (["/no/such/dir", "/tmp"], "no such dump directory"),
    (["one-only"], "takes two dump directories"),
    ([], "takes two dump directories"),
])
def test_usage_errors_exit_2(cli, argv, says):
    result = cli("diff", *argv)
    assert result.exit_code == 2, result.stderr
    assert says in result.stderr and "hint:" in result.stderr


def test_a_directory_that_is_not_a_dump_exits_2(cli, tmp_path):
    (tmp_path / "x").mkdir()
    result = cli("diff", str(tmp_path / "x"), str(tmp_path / "x"), "-o", "json")
    assert result.exit_code == 2
    assert as_json(result)["error"]["code"] == "A2ACLI_ERR_USAGE" and "is not a dump" in as_json(result)["error"]["message"]


def test_a_dump_without_its_index_reads_the_method_and_version_from_its_files(cli, dumps):
    """A dump whose index.jsonl is gone is read from its files (`002-message_send` is message/send,
    the version its A2A-Version header): the same call under both versions, not two calls on one
    side each; the mock serves it too."""
    for d in dumps:
        (d / "index.jsonl").unlink()
    result = cli("diff", *map(str, dumps), "-o", "json")
    assert result.exit_code == 0, result.stdout
    doc = as_json(result)
    assert [(e["method"], e["left"], e["right"]) for e in doc["exchanges"]] == [
        ("card", "001-card", "001-card"), ("SendMessage", "002-SendMessage", "002-message_send")]
    assert doc["right"]["version"] == "0.3"
    mock = cli("mock", str(dumps[1]), "--timeout", "0.1")
    assert mock.exit_code == 0 and "not an A2A method call" not in mock.stderr, mock.stderr
    assert "SendMessage under 0.3 over JSON-RPC" in mock.stderr


@pytest.mark.parametrize("gone", ["response.body", "response.http", "request.body"])
def test_a_file_missing_from_a_dump_is_said(cli, dumps, gone):
    """A file the dump wrote and that is gone is no empty answer: a note names it (text and -o json)."""
    (dumps[1] / f"002-message_send.{gone}").unlink()
    result = cli("diff", *map(str, dumps))
    assert result.exit_code == 1
    assert f"note: right 002-message_send: 002-message_send.{gone} is missing from the dump" in result.stderr
    doc = as_json(cli("diff", *map(str, dumps), "-o", "json"))
    assert f"right 002-message_send: 002-message_send.{gone} is missing from the dump" in doc["notes"]


# -- one command, both versions ----------------------------------------------------------------------


def by_version(request: httpx.Request) -> httpx.Response:
    body = json.loads(request.content)
    if request.headers["A2A-Version"] == "1.0":
        assert body["method"] == "GetTask"
        return httpx.Response(200, json=rpc_result({"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}}, body["id"]))
    assert body["method"] == "tasks/get"
    return httpx.Response(200, json=rpc_result({"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "working"}}, body["id"]))


def test_diff_runs_the_command_under_both_versions(cli, agent):
    route = agent.post(RPC).mock(side_effect=by_version)
    result = cli("diff", "-u", AGENT, "-o", "json", "--", "tasks", "get", "t-1")
    assert result.exit_code == 0, result.stderr
    assert route.call_count == 2
    doc = as_json(result)
    assert doc["differences"] == []
    assert [(d["exchange"], d["path"]) for d in doc["aside"]] == [("card", "request.headers.a2a-version"), ("GetTask", "request.headers.a2a-version")]
    assert doc["runs"] == [{"version": "1.0", "exit": 0, "error": None, "dump": None}, {"version": "0.3", "exit": 0, "error": None, "dump": None}]
    assert doc["left"]["path"] is None and doc["right"]["path"] is None  # the temporary dumps are gone: no path to them
    assert "ran under 1.0: exit 0" in result.stderr and "ran under 0.3: exit 0" in result.stderr


def test_options_before_the_command_go_to_both_runs_and_save_keeps_the_dumps(cli, agent, tmp_path):
    agent.get(CARD_URL).respond(json=v1_card(securitySchemes=ANY_CREDENTIAL))  # a card that takes the API key
    route = agent.post(RPC).mock(side_effect=by_version)
    result = cli("diff", "-u", AGENT, "--api-key", "k-123", "-H", "X-Team: qa", "--save", str(tmp_path / "d"), "--", "tasks", "get", "t-1")
    assert result.exit_code == 0, result.stderr
    assert [c.request.headers["X-API-Key"] for c in route.calls] == ["k-123", "k-123"]
    assert [c.request.headers["X-Team"] for c in route.calls] == ["qa", "qa"]
    assert (tmp_path / "d" / "v1" / "002-GetTask.request.body").exists()
    assert (tmp_path / "d" / "v0" / "002-tasks_get.request.body").exists()
    assert "k-123" not in (tmp_path / "d" / "v1" / "002-GetTask.request.http").read_text()
    again = cli("diff", str(tmp_path / "d" / "v1"), str(tmp_path / "d" / "v0"), "-o", "json")
    assert again.exit_code == 0 and len(as_json(again)["aside"]) == 2
    busy = cli("diff", "-u", AGENT, "--save", str(tmp_path / "d"), "--", "tasks", "get", "t-1")
    assert busy.exit_code == 2 and "already holds files" in busy.stderr


@pytest.mark.parametrize("where", ["before", "after"])
def test_the_config_file_given_to_diff_is_the_one_both_runs_read(cli, agent, tmp_path, where):
    """`a2a --config FILE --profile P diff -- CMD` (or `diff --config FILE`): the runs read the
    profile in that file, as the command alone does. --profile was passed on and --config not, so
    the runs looked for P in the global file ("no profile 'P' in …/config.toml", exit 2)."""
    route = agent.post(RPC).mock(side_effect=by_version)
    config = tmp_path / "team.toml"
    config.write_text(f'[profiles.team]\nurl = "{AGENT}"\n')
    given = ["--config", str(config), "--profile", "team"]
    argv = [*given, "diff"] if where == "before" else ["diff", *given]
    result = cli(*argv, "--", "tasks", "get", "t-1")
    assert result.exit_code == 0, result.stderr
    assert route.call_count == 2 and "no profile" not in result.stderr


def test_a_method_v0_lacks_shows_as_a_missing_exchange(cli, agent):
    agent.post(RPC).respond(json=rpc_result({"tasks": [], "nextPageToken": ""}))
    result = cli("diff", "-u", AGENT, "-o", "json", "--", "tasks", "list")
    assert result.exit_code == 1, result.stderr
    doc = as_json(result)
    assert {"exchange": "ListTasks", "path": "exchange", "kind": "removed", "left": "002-ListTasks (ListTasks)", "right": None} in doc["differences"]
    assert doc["runs"][1]["exit"] == 2 and "has no V0 (0.3) form" in doc["runs"][1]["error"]


def test_a_jsonrpc_error_under_one_version_is_a_difference(cli, agent):
    def answer(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        if body["method"] == "GetTask":
            return httpx.Response(200, json=rpc_result({"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}}, body["id"]))
        return httpx.Response(200, json={"jsonrpc": "2.0", "id": body["id"], "error": {"code": -32601, "message": "Method not found"}})

    agent.post(RPC).mock(side_effect=answer)
    result = cli("diff", "-u", AGENT, "--", "tasks", "get", "t-1")
    assert result.exit_code == 1
    assert '+  "error": {' in result.stdout and '-  "result": {' in result.stdout
    assert "ran under 0.3: exit 1 (MethodNotFoundError: Method not found)" in result.stderr


def test_unreachable_agent_is_exit_3(cli, respx_mock):
    respx_mock.get(url__startswith=AGENT).mock(side_effect=httpx.ConnectError("Connection refused"))
    result = cli("diff", "-u", AGENT, "--", "tasks", "get", "t-1")
    assert result.exit_code == 3
    assert "both runs failed" in result.stderr and "cannot connect" in result.stderr


@pytest.mark.parametrize("command,says", [
    (["tasks", "get", "t-1", "--a2a-version", "0.3"], "diff sets --a2a-version itself"),
    (["tasks", "get", "t-1", "--dump", "x"], "diff sets --dump itself"),
    (["tasks", "get", "t-1", "-o", "json"], "diff sets -o itself"),
    (["diff", "a", "b"], "not a method command"),
    ([], "no command after --"),
    (["tasks", "get"], "the command after -- is not valid"),
])
def test_command_usage_errors_exit_2(cli, agent, command, says):
    result = cli("diff", "-u", AGENT, "--", *command)
    assert result.exit_code == 2, result.stderr
    assert says in result.stderr


def test_a_usage_error_of_the_run_keeps_the_commands_own_hint(cli):
    """No agent given: the run's own hint (how to give one), not one about the command after --."""
    result = cli("diff", "--", "send", "hi")
    assert result.exit_code == 2
    assert "the command failed under 1.0: no agent given" in result.stderr
    assert "hint: pass --url URL" in result.stderr, result.stderr


def test_dumps_and_a_command_together_is_a_usage_error(cli, agent, tmp_path):
    result = cli("diff", str(tmp_path), "--", "tasks", "get", "t-1")
    assert result.exit_code == 2 and "not both" in result.stderr


@pytest.mark.parametrize("command,says,hint", [
    (["send", "--bogus"], "no such option: --bogus", "see `a2a send --help`"),
    (["send", "--folow", "hi"], "no such option: --folow", "did you mean --follow?"),
    (["tasks", "get"], "missing argument 'TASK_ID'", "TASK_ID: the task id"),
])
def test_a_usage_error_in_the_command_after_the_dashes_is_named_as_the_command_alone_names_it(cli, command, says, hint):
    result = cli("diff", "-u", AGENT, "--", *command)
    assert result.exit_code == 2
    assert f"the command after -- is not valid: {says}" in result.stderr and "─" not in result.stderr
    assert hint in result.stderr and "Possible options" not in result.stderr


def test_the_command_is_parsed_once_so_standard_input_serves_both_runs(cli, agent):
    """The command line is parsed (and its input read) once; the two runs share it."""
    agent.post(RPC).respond(json=rpc_result({"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}))
    result = cli("diff", "-u", AGENT, "-o", "json", "--", "call", "GetTask", "-", input='{"id": "t-1"}')
    assert result.exit_code == 1, result.stderr  # one V1-shaped answer serves both: wrong under 0.3
    doc = as_json(result)
    assert [d["path"] for d in doc["differences"]] == ["response.shape[0]", "response.shape[1]"]
    assert [r["exit"] for r in doc["runs"]] == [0, 0]
    assert [e["method"] for e in doc["exchanges"]] == ["card", "GetTask"]


def test_two_transports_compare_one_call_over_two_bindings(cli, respx_mock):
    """`--transport A --transport B`: one version, two bindings; the bodies compare equal in
    binding-neutral form, the request line and media types differ."""
    task = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}
    interfaces = [{"url": RPC, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}, {"url": AGENT, "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}]
    respx_mock.get(CARD_URL).respond(json=v1_card(supportedInterfaces=interfaces))
    respx_mock.post(RPC).respond(json=rpc_result(task))
    respx_mock.get(f"{AGENT}/tasks/t-1").respond(json=task)
    result = cli("diff", "-u", AGENT, "--transport", "jsonrpc", "--transport", "rest", "-o", "json", "--", "tasks", "get", "t-1")
    assert result.exit_code == 0, result.stderr  # paths, media types and framing are the binding's
    doc = as_json(result)
    assert [(r["version"], r["transport"], r["exit"]) for r in doc["runs"]] == [("1.0", "jsonrpc", 0), ("1.0", "rest", 0)]
    assert doc["differences"] == []
    paths = {d["path"] for d in doc["aside"] if d["exchange"] == "GetTask"}
    assert "request.line" in paths and not [p for p in paths if "body" in p], paths
    assert {d["aside"] for d in doc["aside"] if d["exchange"] == "GetTask"} == {"implied by the binding"}


def test_a_different_answer_between_bindings_counts(cli, respx_mock):
    task = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}
    interfaces = [{"url": RPC, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}, {"url": AGENT, "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}]
    respx_mock.get(CARD_URL).respond(json=v1_card(supportedInterfaces=interfaces))
    respx_mock.post(RPC).respond(json=rpc_result(task))
    respx_mock.get(f"{AGENT}/tasks/t-1").respond(json={**task, "status": {"state": "TASK_STATE_WORKING"}})
    result = cli("diff", "-u", AGENT, "--transport", "jsonrpc", "--transport", "rest", "-q", "--", "tasks", "get", "t-1")
    assert result.exit_code == 1, result.stderr
    assert '-      "state": "TASK_STATE_COMPLETED"' in result.stdout and '+      "state": "TASK_STATE_WORKING"' in result.stdout
    assert result.stderr.splitlines() == ["different: 1 difference(s) in 1 of 2 exchange(s) (canonical V1; ids and times aside)"]


BREAKS = ["\x85", "\u2028", "\u2029", "\x0b", "\x0c", "\r"]


@pytest.mark.parametrize("raw", [False, True], ids=["canonical", "raw"])
def test_agent_text_forges_no_line_of_the_diff(cli, respx_mock, tmp_path, raw):
    """Issue 42: a body's string with NEL, U+2028 or U+2029 (JSON leaves them raw) was split into
    lines of the diff, and a NEL in a recorded header (X-Request-ID: a<NEL>FORGED) made a header
    of its own: each stays on its line, escaped."""
    respx_mock.get(CARD_URL).respond(json=v1_card())
    for n, side in enumerate("ab"):
        text = side + "".join(f"{b}FORGED hint: {n}" for b in BREAKS)
        task = {**v1_task("t", "c", "m", "2026-01-01T00:00:00Z"), "metadata": {"note": text}}
        respx_mock.post(RPC).mock(return_value=httpx.Response(200, json=rpc_result(task), headers={"X-Request-ID": f"r{n}\x85FORGED: {n}".encode("latin-1")}))
        assert cli("tasks", "get", "t", "-u", AGENT, "--dump", str(tmp_path / side)).exit_code == 0
    result = cli("diff", str(tmp_path / "a"), str(tmp_path / "b"), *(["--raw"] if raw else []), "--keep-ids")
    assert result.exit_code == 1, result.stderr
    assert "FORGED" in result.stdout
    for line in (result.stdout + result.stderr).splitlines():
        assert not line.lstrip(" +-").lower().startswith("forged"), line
