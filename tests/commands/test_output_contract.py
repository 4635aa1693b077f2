"""The output contract of every method command, against respx-mocked agents in both versions:
the text floor off a terminal (one `Label: value` a line, labels from the one table, blocks
closed by a blank line), `-o json` as exactly one document (the terminal protocol object) and
JSON Lines only under --stream, --verbose, and what the end of a task says on stderr."""

from __future__ import annotations

import json

import httpx
import pytest
from a2a_testkit import AGENT, RPC, assert_floor, floor_block, rpc_result, sse, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
FILE_B64 = "aGVsbG8gd29ybGQ="  # "hello world", 11 bytes
HISTORY = [{"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "make a user"}], "metadata": {"trace": "abc"}}]
V1_TASK = {
    "id": "t-1",
    "contextId": "c-1",
    "status": {"state": "TASK_STATE_COMPLETED", "timestamp": "2026-01-01T00:00:00Z"},
    "artifacts": [
        {"artifactId": "a-1", "name": "echo: hi", "parts": [{"text": "line one\n\nline three"}]},
        {"artifactId": "a-2", "name": "user", "parts": [{"data": {"id": "user-1", "tags": ["x"]}}, {"raw": FILE_B64, "filename": "hello.txt", "mediaType": "text/plain"}]},
    ],
    "history": HISTORY,
    "metadata": {"origin": "test"},
}
V0_TASK = {
    "kind": "task",
    "id": "t-1",
    "contextId": "c-1",
    "status": {"state": "completed", "timestamp": "2026-01-01T00:00:00Z"},
    "artifacts": [
        {"artifactId": "a-1", "name": "echo: hi", "parts": [{"kind": "text", "text": "line one\n\nline three"}]},
        {"artifactId": "a-2", "name": "user", "parts": [{"kind": "data", "data": {"id": "user-1", "tags": ["x"]}}, {"kind": "file", "file": {"bytes": FILE_B64, "name": "hello.txt", "mimeType": "text/plain"}}]},
    ],
    "history": [{"kind": "message", "messageId": "m-1", "role": "user", "parts": [{"kind": "text", "text": "make a user"}], "metadata": {"trace": "abc"}}],
    "metadata": {"origin": "test"},
}
V1_EVENTS = [
    {"task": {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_SUBMITTED"}}},
    {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING", "message": {"messageId": "s-1", "role": "ROLE_AGENT", "parts": [{"text": "step 1"}]}}}},
    {"artifactUpdate": {"taskId": "t-1", "contextId": "c-1", "artifact": {"artifactId": "a-1", "name": "story", "parts": [{"text": "Once upon "}]}}},
    {"artifactUpdate": {"taskId": "t-1", "contextId": "c-1", "append": True, "lastChunk": True, "artifact": {"artifactId": "a-1", "parts": [{"text": "a time"}]}}},
    {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}},
]
V0_EVENTS = [
    {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "submitted"}},
    {"kind": "status-update", "taskId": "t-1", "contextId": "c-1", "status": {"state": "working", "message": {"kind": "message", "messageId": "s-1", "role": "agent", "parts": [{"kind": "text", "text": "step 1"}]}}, "final": False},
    {"kind": "artifact-update", "taskId": "t-1", "contextId": "c-1", "artifact": {"artifactId": "a-1", "name": "story", "parts": [{"kind": "text", "text": "Once upon "}]}},
    {"kind": "artifact-update", "taskId": "t-1", "contextId": "c-1", "append": True, "lastChunk": True, "artifact": {"artifactId": "a-1", "parts": [{"kind": "text", "text": "a time"}]}},
    {"kind": "status-update", "taskId": "t-1", "contextId": "c-1", "status": {"state": "completed"}, "final": True},
]
V1_FOLDED = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}, "artifacts": [{"artifactId": "a-1", "name": "story", "parts": [{"text": "Once upon "}, {"text": "a time"}]}]}
V0_FOLDED = {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "completed"}, "artifacts": [{"artifactId": "a-1", "name": "story", "parts": [{"kind": "text", "text": "Once upon "}, {"kind": "text", "text": "a time"}]}]}
V1_PUSH = {"id": "p-1", "taskId": "t-1", "url": "https://cb.example/h", "token": "tok-1"}
V0_PUSH = {"taskId": "t-1", "pushNotificationConfig": {"id": "p-1", "url": "https://cb.example/h", "token": "tok-1"}}
VERSIONS = [("1.0", "v1"), ("0.3", "v0")]
@pytest.fixture
def agent(respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes={"key": {"apiKeySecurityScheme": {"location": "header", "name": "X-API-Key", "description": "For the\nextended card."}}}))
    return respx_mock


def _mock(agent, wire: str, command: str) -> None:
    v1 = wire == "v1"
    task, events = (V1_TASK, V1_EVENTS) if v1 else (V0_TASK, V0_EVENTS)
    if command in ("send", "tasks get", "tasks cancel"):
        answer = {"task": task} if v1 and command == "send" else task
        agent.post(RPC).respond(json=rpc_result(answer))
    elif command == "send message":
        msg = {"messageId": "r-1", "contextId": "c-9", "role": "ROLE_AGENT", "parts": [{"text": "hello back"}]} if v1 else \
            {"kind": "message", "messageId": "r-1", "contextId": "c-9", "role": "agent", "parts": [{"kind": "text", "text": "hello back"}]}
        agent.post(RPC).respond(json=rpc_result({"message": msg} if v1 else msg))
    elif command == "tasks list":
        agent.post(RPC).respond(json=rpc_result({"tasks": [V1_TASK, dict(V1_TASK, id="t-2")], "nextPageToken": "", "pageSize": 2, "totalSize": 2} if v1 else [V0_TASK, dict(V0_TASK, id="t-2")]))
    elif command in ("tasks subscribe", "stream"):
        agent.post(RPC).respond(content=sse(*events), headers={"Content-Type": "text/event-stream"})
    elif command == "push-config create" or command == "push-config get":
        agent.post(RPC).respond(json=rpc_result(V1_PUSH if v1 else V0_PUSH))
    elif command == "push-config list":
        agent.post(RPC).respond(json=rpc_result({"configs": [V1_PUSH], "nextPageToken": ""} if v1 else [V0_PUSH]))
    elif command == "push-config delete":
        agent.post(RPC).respond(json=rpc_result(None))


ARGV = {
    "card fetch": ["card", "fetch"],
    "send": ["send", "hi"],
    "send message": ["send", "hi"],
    "tasks get": ["tasks", "get", "t-1"],
    "tasks cancel": ["tasks", "cancel", "t-1"],
    "tasks list": ["tasks", "list"],
    "tasks subscribe": ["tasks", "subscribe", "t-1"],
    "stream": ["stream", "hi"],
    "push-config create": ["push-config", "create", "t-1", "--webhook-url", "https://cb.example/h", "--token", "tok-1"],
    "push-config get": ["push-config", "get", "t-1", "p-1"],
    "push-config list": ["push-config", "list", "t-1"],
    "push-config delete": ["push-config", "delete", "t-1", "p-1"],
}
V0_FREE = {"tasks list"}  # ListTasks has no V0 method without --dialect clix


def _argv(command: str, version: str) -> list[str]:
    extra = ["--dialect", "clix"] if command in V0_FREE and version == "0.3" else []
    return [*ARGV[command], "-u", AGENT, "--a2a-version", version, *extra]


# -- the text floor -----------------------------------------------------------------------------


@pytest.mark.spec("A2ACLI_OUT_005", "A2ACLI_OUT_001")
@pytest.mark.parametrize("verbose", [False, True], ids=["concise", "verbose"])
@pytest.mark.parametrize("version,wire", VERSIONS)
@pytest.mark.parametrize("command", list(ARGV))
def test_every_command_prints_the_text_floor(cli, agent, command, version, wire, verbose):
    _mock(agent, wire, command)
    result = cli(*_argv(command, version), *(["--verbose"] if verbose else []))
    assert result.exit_code == 0, result.stderr
    labels = assert_floor(result.stdout)
    if command.startswith(("send", "tasks", "stream")) and command != "send message":
        assert {"Task", "Context", "State"} <= set(labels), "a command that touches a task names its task, context and state"
    if command == "send message":
        assert labels[:2] == ["Message", "Role"] and "Context" in labels
    if command.startswith("push-config") and command != "push-config delete":
        assert "Task" in labels


@pytest.mark.spec("A2ACLI_OUT_005", "A2ACLI_SEND_004", "A2ACLI_TASK_GET_001")
@pytest.mark.parametrize("version,wire", VERSIONS)
def test_artifacts_in_the_floor_every_part_as_its_kind(cli, agent, version, wire):
    _mock(agent, wire, "tasks get")
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--a2a-version", version)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert out.startswith("Task: t-1\nContext: c-1\nState: completed\n")
    assert "Artifact: echo: hi\n" in out and "Artifact: user\n" in out  # the name is a value, never a label
    assert floor_block(out, "Text") == ["line one\n\nline three"]  # a blank line inside a text stays inside its block
    assert json.loads(floor_block(out, "Data")[0]) == {"id": "user-1", "tags": ["x"]}
    assert floor_block(out, "Data")[0].startswith("{\n  ")  # formatted JSON
    assert "File: hello.txt\nMedia type: text/plain\nSize: 11 bytes\n" in out
    assert "History messages: 1\n" in out and "make a user" not in out and "Metadata" not in out  # concise


@pytest.mark.spec("A2ACLI_OUT_005")
@pytest.mark.parametrize("version,wire", VERSIONS)
def test_verbose_shows_history_metadata_and_every_part(cli, agent, version, wire):
    _mock(agent, wire, "tasks get")
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--a2a-version", version, "--verbose")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "History message: m-1\nRole: user\nText:\n  make a user\n\n" in out
    assert json.loads(floor_block(out, "Metadata")[0]) == {"trace": "abc"} and json.loads(floor_block(out, "Metadata")[-1]) == {"origin": "test"}
    assert "Artifact ID: a-1\n" in out and "File: hello.txt" in out


def test_verbose_leaves_json_alone(cli, agent):
    _mock(agent, "v1", "tasks get")
    plain = cli("tasks", "get", "t-1", "-u", AGENT, "-o", "json")
    verbose = cli("tasks", "get", "t-1", "-u", AGENT, "-o", "json", "--verbose")
    assert json.loads(plain.stdout) == json.loads(verbose.stdout) == V1_TASK


@pytest.mark.spec("A2ACLI_OUT_005")
def test_card_floor_has_no_packed_fields(cli, agent):
    result = cli("card", "fetch", "-u", AGENT)
    out = result.stdout
    assert_floor(out)
    assert "Input modes: text/plain\nOutput modes: text/plain\n" in out and "Modes:" not in out
    assert "Interface: http://agent.test/rpc\nInterface binding: JSONRPC\nInterface version: 1.0\n" in out
    assert "Security: key\nSecurity type: apiKey\nSecurity location: header X-API-Key\nSecurity flag: --api-key KEY\nSecurity description:\n  For the\n  extended card.\n\n" in out
    assert "Skill: echo\nSkill name: Echo\nSkill description: Repeats input\nSkill tags: demo\n" in out


@pytest.mark.spec("A2ACLI_OUT_005", "A2ACLI_OUT_003")
@pytest.mark.parametrize("version,wire", VERSIONS)
@pytest.mark.parametrize("argv", [["stream", "hi"], ["send", "hi", "--stream"], ["tasks", "subscribe", "t-1", "--stream"]], ids=["stream", "send-stream", "subscribe-stream"])
def test_stream_text_is_one_record_per_event_and_ends_with_task_context_state(cli, agent, version, wire, argv):
    _mock(agent, wire, "stream")
    result = cli(*argv, "-u", AGENT, "--a2a-version", version)
    assert result.exit_code == 0, result.stderr
    labels = assert_floor(result.stdout)
    assert labels.count("Event") == 5
    records = result.stdout.split("\nEvent: ")
    assert records[1].startswith("status-update\nTask: t-1\nContext: c-1\nState: working\n") and floor_block(result.stdout, "Status message") == ["step 1"]
    assert "artifact-update\nTask: t-1\nContext: c-1\nArtifact: a-1\nText:\n  a time\n\nAppend: true\nLast chunk: true\n" in result.stdout
    assert result.stdout.endswith("Task: t-1\nContext: c-1\nState: completed\nEvents: 5\n\n")


# -- -o json: one document, or JSON Lines under --stream ------------------------------------------


@pytest.mark.spec("A2ACLI_OUT_002")
@pytest.mark.parametrize("version,wire", VERSIONS)
@pytest.mark.parametrize("command", [c for c in ARGV if c != "stream"])
def test_json_without_stream_is_one_document(cli, agent, command, version, wire):
    _mock(agent, wire, command)
    result = cli(*_argv(command, version), "-o", "json")
    assert result.exit_code == 0, result.stderr
    json.loads(result.stdout)  # exactly one document: a second one would not parse


@pytest.mark.spec("A2ACLI_OUT_002", "A2ACLI_TASK_SUBSCRIBE_001")
@pytest.mark.parametrize("version,wire", VERSIONS)
def test_subscribe_json_is_the_terminal_task(cli, agent, version, wire):
    _mock(agent, wire, "tasks subscribe")
    result = cli("tasks", "subscribe", "t-1", "-u", AGENT, "--a2a-version", version, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == (V1_FOLDED if wire == "v1" else V0_FOLDED)
    canon = cli("tasks", "subscribe", "t-1", "-u", AGENT, "--a2a-version", version, "-o", "json", "--as", "v1")
    assert json.loads(canon.stdout) == V1_FOLDED


@pytest.mark.spec("A2ACLI_OUT_003", "A2ACLI_TASK_SUBSCRIBE_001")
@pytest.mark.parametrize("version,wire", VERSIONS)
def test_subscribe_stream_json_is_json_lines(cli, agent, version, wire):
    _mock(agent, wire, "tasks subscribe")
    result = cli("tasks", "subscribe", "t-1", "--stream", "-u", AGENT, "--a2a-version", version, "-o", "json")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [json.loads(line) for line in lines] == (V1_EVENTS if wire == "v1" else V0_EVENTS)
    assert all(line.startswith("{") and line.endswith("}") for line in lines)  # compact, one a line


def test_subscribe_text_without_stream_prints_the_final_task(cli, agent):
    _mock(agent, "v1", "tasks subscribe")
    result = cli("tasks", "subscribe", "t-1", "-u", AGENT)
    assert result.exit_code == 0, result.stderr
    assert_floor(result.stdout)
    assert result.stdout == "Task: t-1\nContext: c-1\nState: completed\nArtifact: story\nText:\n  Once upon \n\nText:\n  a time\n\n"
    assert "Event" not in result.stdout


def test_stream_is_never_read_from_the_environment(cli, agent):
    _mock(agent, "v1", "tasks subscribe")
    result = cli("tasks", "subscribe", "t-1", "-u", AGENT, "-o", "json", env={"A2ACLI_STREAM": "1"})
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["id"] == "t-1"


@pytest.mark.spec("A2ACLI_OUT_002")
@pytest.mark.parametrize("version,wire", VERSIONS)
def test_send_json_waits_and_prints_the_protocols_response_type(cli, agent, version, wire):
    working = {"task": dict(V1_TASK, status={"state": "TASK_STATE_WORKING"})} if wire == "v1" else dict(V0_TASK, status={"state": "working"})
    done = V1_TASK if wire == "v1" else V0_TASK
    # the send answers at once (returnImmediately); the subscription ends with the task; GetTask gives the whole of it
    ended = {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}} if wire == "v1" else \
        {"kind": "status-update", "taskId": "t-1", "contextId": "c-1", "status": {"state": "completed"}, "final": True}
    answers = {"SendMessage": working, "message/send": working, "GetTask": done, "tasks/get": done}
    agent.post(RPC).mock(side_effect=lambda req: httpx.Response(200, headers={"Content-Type": "text/event-stream"}, content=sse(working, ended))
                         if "ubscribe" in json.loads(req.content)["method"] else httpx.Response(200, json=rpc_result(answers[json.loads(req.content)["method"]])))
    result = cli("send", "hi", "-u", AGENT, "--a2a-version", version, "-o", "json", "--poll-interval", "0.05")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == ({"task": V1_TASK} if wire == "v1" else V0_TASK)


# -- the end of a task, on stderr ------------------------------------------------------------------


@pytest.mark.spec("A2ACLI_OUT_006")
@pytest.mark.parametrize("version,wire", VERSIONS)
def test_async_prints_the_ids_and_the_command_to_poll(cli, agent, version, wire):
    submitted = {"task": {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_SUBMITTED"}}} if wire == "v1" else \
        {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "submitted"}}
    agent.post(RPC).respond(json=rpc_result(submitted))
    doc = json.loads(cli("send", "hi", "--async", "-u", AGENT, "--a2a-version", version, "-o", "json").stdout)
    task = doc["task"] if wire == "v1" else doc
    assert (task["id"], task["contextId"]) == ("t-1", "c-1")
    text = cli("send", "hi", "--async", "-u", AGENT, "--a2a-version", version)
    assert text.stdout.startswith("Task: t-1\nContext: c-1\nState: submitted\n")
    assert "a2a tasks get t-1 --wait" in text.stderr


@pytest.mark.spec("A2ACLI_INTERACT_004", "A2ACLI_EXIT_002")
@pytest.mark.parametrize(
    "state,says,then",
    [
        ("TASK_STATE_INPUT_REQUIRED", "needs input", "'your reply'"),
        ("TASK_STATE_AUTH_REQUIRED", "needs authentication", "--api-key KEY 'continue'"),  # the credential this card's apiKey scheme takes
    ],
)
def test_interrupted_task_exits_0_with_a_note_and_the_resume_command_quiet_keeps_the_record(cli, agent, state, says, then):
    agent.post(RPC).respond(json=rpc_result({"task": dict(V1_TASK, status={"state": state})}))
    result = cli("send", "hi", "-u", AGENT)
    assert result.exit_code == 0
    assert "Task: t-1\nContext: c-1\n" in result.stdout
    assert f"\ntask t-1 is {state[11:].lower().replace('_', '-')}: it {says}" in "\n" + result.stderr  # a normal pause: a note...
    assert "warning: task" not in result.stderr  # ...not a warning
    assert f"\n  a2a send --task-id t-1 --context-id c-1 -u {AGENT} {then}\n" in result.stderr
    # -q (CLI.md: warnings, errors and verdicts only; no hints, no notes): the record on stdout
    # still names the task, its context and its state; the note and the command are dropped
    quiet = cli("send", "hi", "-u", AGENT, "-q")
    assert quiet.exit_code == 0
    assert "Task: t-1\nContext: c-1\n" in quiet.stdout and state[11:].lower().replace("_", "-") in quiet.stdout
    assert "a2a send --task-id" not in quiet.stderr and "task t-1 is" not in quiet.stderr


@pytest.mark.spec("A2ACLI_INTERACT_004")
def test_completed_task_names_the_command_that_continues_its_context(cli, agent):
    _mock(agent, "v1", "send")
    result = cli("send", "hi", "-u", AGENT)
    assert result.exit_code == 0
    assert f"a2a send --context-id c-1 -u {AGENT} 'your message'" in result.stderr
    quiet = cli("send", "hi", "-u", AGENT, "-o", "json")
    assert "--context-id" not in quiet.stderr  # JSON keeps stderr for what matters


@pytest.mark.spec("A2ACLI_EXIT_002")
@pytest.mark.parametrize("state", ["TASK_STATE_FAILED", "TASK_STATE_REJECTED"])
def test_failed_or_rejected_task_exits_0_with_a_warning(cli, agent, state):
    agent.post(RPC).respond(json=rpc_result({"task": dict(V1_TASK, status={"state": state})}))
    for output in ("text", "json"):
        result = cli("send", "hi", "-u", AGENT, "-o", output)
        assert result.exit_code == 0
        assert f"warning: task t-1 ended {state[11:].lower()}" in result.stderr


@pytest.mark.spec("A2ACLI_OUT_003")
@pytest.mark.parametrize("version,wire", VERSIONS)
def test_tasks_list_stream_json_is_one_task_a_line(cli, agent, version, wire):
    _mock(agent, wire, "tasks list")
    result = cli(*_argv("tasks list", version), "--stream", "-o", "json")
    assert result.exit_code == 0, result.stderr
    tasks = [json.loads(line) for line in result.stdout.splitlines()]
    assert [t["id"] for t in tasks] == ["t-1", "t-2"] and tasks[0] == (V1_TASK if wire == "v1" else V0_TASK)
    text = cli(*_argv("tasks list", version), "--stream")
    assert assert_floor(text.stdout).count("Task") == 2
