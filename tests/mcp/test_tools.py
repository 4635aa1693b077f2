"""`a2a mcp`'s tool table, headless (no MCP SDK, no CLI runner): every tool's schemas and
annotations, no credential among the inputs, the offline tools' results, a tool error as an
A2acliError with a2a's code and hint, and the `a2a mcp` command's edges (the missing extra, --http)."""

from __future__ import annotations

import sys

import pytest
from a2a_testkit import AGENT, RPC, rpc_result, v1_card

from a2acli.errors import A2acliError, UsageError
from a2acli.flows.errors import document
from a2acli.mcp import tools

CARD_URL = f"{AGENT}/.well-known/agent-card.json"


@pytest.mark.spec("A2ACLI_SKILL_001")
def test_every_tool_has_schemas_annotations_and_no_credential_input():
    assert len(tools.TOOLS) == 15
    for tool in tools.TOOLS:
        schema = tool.input_schema()
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        assert set(tool.required) <= set(schema["properties"])
        assert tool.output["type"] == "object"
        names = {n.lower() for n in schema["properties"]}
        assert not names & {"api_key", "bearer", "basic", "token", "password", "header", "headers", "authorization"}
        assert ("agent" in names) == tool.agent
    hints = {t.name: t.annotations for t in tools.TOOLS}
    assert all(
        hints[n]["readOnlyHint"] for n in ("card_fetch", "tasks_get", "tasks_list", "check", "translate", "diff")
    )
    assert hints["tasks_cancel"]["destructiveHint"] and hints["push_config_delete"]["destructiveHint"]
    assert not hints["send"]["readOnlyHint"] and not hints["send"]["destructiveHint"]


def test_translate_and_diff_need_no_agent():
    face = tools.Face()
    v0 = {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "completed"}}
    out = tools.run("translate", {"document": v0}, face)
    assert out.structured["document"]["status"]["state"] == "TASK_STATE_COMPLETED"
    assert out.text.startswith("recognised: V0 (0.3) Task")
    same = tools.run("diff", {"left": v0, "right": out.structured["document"]}, face)
    assert same.structured["equal"] is True and same.text == "the same"


def test_a_send_against_an_agent_returns_v1_json_and_a_summary(respx_mock, monkeypatch):
    monkeypatch.setenv("A2ACLI_GLOBAL_CONFIG", "/dev/null")
    respx_mock.get(CARD_URL).respond(json=v1_card())
    done = {
        "id": "t-1",
        "contextId": "c-1",
        "status": {"state": "TASK_STATE_COMPLETED"},
        "artifacts": [{"artifactId": "a", "parts": [{"text": "echo: hi"}]}],
    }
    respx_mock.post(RPC).respond(json=rpc_result({"task": done}))  # (id 1: not the request's, a warning)
    out = tools.run("send", {"agent": AGENT, "text": "hi"}, tools.Face())
    assert out.structured == {"task": done}
    summary, warning = out.text.rsplit("\n", 1)
    assert summary == "task t-1 (context c-1): completed\necho: hi"
    assert warning.startswith("warning: the answer's id 1 is not the request's")


def test_a_failed_call_is_an_a2acli_error_said_with_its_code_and_hint(respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    respx_mock.post(RPC).respond(json={"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "no such task"}})
    with pytest.raises(A2acliError) as raised:
        tools.run("tasks_get", {"agent": AGENT, "task_id": "nope"}, tools.Face())
    said = document(raised.value)
    assert (said["a2aCode"], said["code"], said["exitCode"]) == (-32001, "TaskNotFoundError", 1)
    assert "task" not in said  # no task in hand
    assert said["hint"]
    with pytest.raises(UsageError):
        tools.run("send", {"agent": AGENT}, tools.Face())  # nothing to send
    with pytest.raises(UsageError):
        tools.run("no_such_tool", {}, tools.Face())


def test_a2a_mcp_without_the_extra_names_the_install_command(cli, monkeypatch):
    monkeypatch.setitem(sys.modules, "mcp", None)  # `import mcp` fails as it does without the extra
    monkeypatch.delitem(sys.modules, "a2acli.mcp.server", raising=False)
    result = cli("mcp")
    assert result.exit_code == 1
    assert "a2a mcp needs the mcp extra" in result.stderr
    assert "install" in result.stderr and "mcp" in result.stderr.split("hint:", 1)[1]


def test_a2a_mcp_http_takes_host_and_port(cli):
    result = cli("mcp", "--http", "nope")
    assert result.exit_code == 2 and "[HOST:]PORT" in result.stderr
    from a2acli.commands.mcp_server import _address

    # parsed, never bound: compared as lists (a tuple of host and port reads as an address to bind)
    assert list(_address("8000")) == ["127.0.0.1", 8000]
    assert list(_address("0.0.0.0:9")) == ["0.0.0.0", 9]
    assert list(_address("[::1]:9")) == ["::1", 9]


def test_a2a_mcp_collects_garbage_while_it_serves(cli, monkeypatch):
    """The entry point keeps the collector off for a command's short life; a server turns it on."""
    import gc

    seen = {}

    def serve(base, *, host=None, port=None):
        seen.update(enabled=gc.isenabled(), base=base, port=port)

    monkeypatch.setattr("a2acli.commands.mcp_server._load_serve", lambda: serve)
    gc.disable()
    try:
        result = cli("mcp", "-u", "http://agent.test", "--http", "127.0.0.1:0")
    finally:
        gc.enable()
    assert result.exit_code == 0, result.stderr
    assert seen == {"enabled": True, "base": {"url": "http://agent.test"}, "port": 0}


@pytest.mark.parametrize(
    ("argv", "env", "said"),
    [
        (["--profile", "nope"], {}, "no profile 'nope'"),
        (["--timeout", "soon"], {}, "--timeout 'soon' is not a duration"),
        ([], {"A2ACLI_TIMEOUT": "abc"}, "--timeout (env A2ACLI_TIMEOUT) 'abc' is not a duration"),
    ],
)
def test_a2a_mcp_refuses_a_bad_setting_before_it_serves(cli, argv, env, said):
    """The settings every tool call starts from are checked once, when `a2a mcp` starts, as every
    command checks its own: a usage error (exit 2). It served, and each tool call failed with it."""
    result = cli("mcp", *argv, env=env)
    assert result.exit_code == 2 and said in result.stderr


def test_a_stream_tells_its_progress_and_stays_within_the_tools_timeout(respx_mock):
    import time

    import httpx
    from a2a_testkit import sse

    respx_mock.get(CARD_URL).respond(json=v1_card(capabilities={"streaming": True}))
    task = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}}

    def body():
        yield sse({"task": task})
        time.sleep(
            1.0
        )  # the agent goes quiet: the timeout ends the call at its next read (respx has no socket to shut)
        yield sse({"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}}})

    respx_mock.post(RPC).mock(
        return_value=httpx.Response(200, headers={"Content-Type": "text/event-stream"}, content=body())
    )
    face, heard = tools.Face(), []
    face.progress = lambda n, message: heard.append((n, message))
    started = time.monotonic()
    with pytest.raises(A2acliError) as raised:
        tools.run("stream", {"agent": AGENT, "text": "hi", "timeout": 0.5}, face)
    assert time.monotonic() - started < 2.5
    assert int(raised.value.exit_code) == 5 and "0.5s" in raised.value.message
    assert heard[0] == (1, "working")  # each event told as it came, before the time ran out
    # the task the timeout left working, in the error (the CLI prints the commands that resume it)
    assert document(raised.value)["task"] == {"id": "t-1", "contextId": "c-1", "state": "TASK_STATE_WORKING"}
    from a2acli.mcp.server import _tool_error

    said = _tool_error(raised.value).content[0].text
    assert said.endswith(
        "task t-1 (context c-1) was TASK_STATE_WORKING: tasks_subscribe or tasks_get with its task_id picks it up again"
    )


def test_each_tool_call_masks_its_error_through_its_own_redactor(respx_mock):
    """Issue 43: a tool call's Face owns the redactor its options and session are told secrets by;
    its error is said through it. Another call's Face knows none of them."""
    secret = "mcp-bearer-s3cret"
    respx_mock.get(CARD_URL).respond(json=v1_card())
    respx_mock.post(RPC).respond(json={"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": f"no {secret}"}})
    face = tools.Face({"bearer": secret})
    with pytest.raises(A2acliError) as raised:
        tools.run("tasks_get", {"agent": AGENT, "task_id": "nope"}, face)
    said = document(raised.value, face.redactor)
    assert secret not in said["message"] and "<redacted>" in said["message"]
    assert tools.Face().redactor.text(secret) == secret  # not a shared, global redactor


def test_every_method_a_tool_calls_is_a_row_of_the_method_table():
    """The tool table names each A2A method by string (`_unary("GetTask", ...)`): each is a row of
    wire.methods.METHODS, the one method table (a misspelt name would be found only when called)."""
    import ast
    from pathlib import Path

    import a2acli.mcp.tools as tools
    from a2acli.wire.methods import METHODS

    tree = ast.parse(Path(tools.__file__).read_text(encoding="utf-8"))
    named = [
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "_unary"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    ]
    assert len(named) >= 5, named
    assert [m for m in named if m not in METHODS] == []


@pytest.mark.parametrize(
    ("name", "args", "said"),
    [
        ("tasks_get", {"task_id": " "}, "TASK_ID is empty"),
        ("tasks_cancel", {"task_id": ""}, "TASK_ID is empty"),
        ("tasks_subscribe", {"task_id": ""}, "TASK_ID is empty"),
        ("tasks_list", {"page_size": 500}, "--page-size '500' is not a number from 1 to 100"),
        ("tasks_list", {"context_id": " "}, "--context-id is empty"),
        ("push_config_create", {"task_id": "t-1", "url": "not a url"}, "--webhook-url"),
        ("push_config_get", {"task_id": "t-1", "config_id": ""}, "CONFIG_ID is empty"),
        ("push_config_delete", {"task_id": "", "config_id": "c-1"}, "TASK_ID is empty"),
        ("push_config_list", {"task_id": ""}, "TASK_ID is empty"),
        ("send", {"text": "hi", "task_id": " "}, "--task-id is empty"),
        ("send", {"text": "hi", "message_id": ""}, "--message-id is empty"),
        ("stream", {"text": "hi", "context_id": ""}, "--context-id is empty"),
        ("send", {"skill": "", "fields": {"a": 1}}, "--skill is empty"),
    ],
)
def test_a_tool_checks_its_arguments_as_the_command_line_checks_its_flags(respx_mock, name, args, said):
    """Issue 43's review: the checks of ids, page sizes and webhook URLs lived in the CLI's parser
    alone; `a2a mcp` sent a blank task id, a page size of 500 or a webhook URL that is none to the
    agent, and a blank skill, message, context or task id too. Now flows.tasks and flows.messages
    check them for every face: a usage error (exit code 2), nothing sent."""
    card = respx_mock.get(CARD_URL).respond(json=v1_card())
    rpc = respx_mock.post(RPC).respond(json=rpc_result({"id": "t-1", "status": {"state": "TASK_STATE_WORKING"}}))
    with pytest.raises(UsageError, match=said) as refused:
        tools.run(name, {"agent": AGENT, **args}, tools.Face())
    assert document(refused.value)["exitCode"] == 2
    assert not rpc.called and not card.called


def test_a_tool_sends_the_params_its_checked_arguments_make(respx_mock):
    import json

    respx_mock.get(CARD_URL).respond(json=v1_card())
    rpc = respx_mock.post(RPC).respond(json=rpc_result({"id": "t-1", "status": {"state": "TASK_STATE_COMPLETED"}}))
    tools.run("tasks_get", {"agent": AGENT, "task_id": "t-1", "history_length": 2}, tools.Face())
    tools.run("push_config_get", {"agent": AGENT, "task_id": "t-1", "config_id": "c-1"}, tools.Face())
    sent = [json.loads(c.request.content)["params"] for c in rpc.calls]
    assert sent == [{"id": "t-1", "historyLength": 2}, {"taskId": "t-1", "id": "c-1"}]


def test_a_tool_error_has_the_keys_of_the_cli_error_envelope(respx_mock):
    """docs/mcp.md: `structuredContent.error` holds {code, message, hint, a2aCode, exitCode}, as
    `-o json`'s envelope holds {code, message, hint, a2aCode, data}: `a2aCode` is there (null)
    when the agent gave no code (it was left out), and the agent's error `data` is kept."""
    import httpx

    respx_mock.get(CARD_URL).respond(json=v1_card())
    info = [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "TASK_NOT_FOUND"}]
    respx_mock.post(RPC).respond(
        json={"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "no such task", "data": info}}
    )
    with pytest.raises(A2acliError) as raised:
        tools.run("tasks_get", {"agent": AGENT, "task_id": "t-1"}, tools.Face())
    said = document(raised.value)
    assert (said["a2aCode"], said["data"]) == (-32001, info)
    respx_mock.get("http://unreachable.test/.well-known/agent-card.json").mock(
        side_effect=httpx.ConnectError("refused")
    )
    with pytest.raises(A2acliError) as raised:
        tools.run("tasks_get", {"agent": "http://unreachable.test", "task_id": "t-1"}, tools.Face())
    said = document(raised.value)
    assert said["code"] == "A2ACLI_ERR_UNREACHABLE" and said["exitCode"] == 3
    assert "a2aCode" in said and said["a2aCode"] is None and "data" not in said


def test_a_dump_asked_for_records_every_tool_call_of_the_server(respx_mock, tmp_path, monkeypatch, cli):
    """A2ACLI_DUMP (or --dump in a profile) with `a2a mcp`: the server is one run, each tool call
    adds its exchanges to the dump. The second call was refused ("already holds a dump") for the
    first one's exchanges. A dump another run left there is refused once, when the server starts."""
    import json

    from a2acli.flows.agents import serving

    respx_mock.get(CARD_URL).respond(json=v1_card())
    respx_mock.post(RPC).respond(json=rpc_result({"id": "t-1", "status": {"state": "TASK_STATE_COMPLETED"}}))
    monkeypatch.setenv("A2ACLI_DUMP", str(tmp_path / "d"))
    base = serving({"url": AGENT})
    for _ in range(2):
        tools.run("tasks_get", {"task_id": "t-1"}, tools.Face(base))
    index = [json.loads(line) for line in (tmp_path / "d" / "index.jsonl").read_text().splitlines()]
    methods = [e["method"] for e in index]
    assert methods.count("card") == 2 and methods[0] == "card" and "GetTask" in methods[1 : methods.index("card", 1)]
    assert sorted({e["seq"] for e in index}) == [
        1,
        2,
        3,
        4,
    ]  # one run's numbering: the second call's follow the first's
    result = cli("mcp", "-u", AGENT)  # another run's dump there now: said before serving
    assert result.exit_code == 2 and "already holds a dump" in result.stderr
