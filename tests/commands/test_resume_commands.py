"""A2ACLI_INTERACT_004: every command `a2a` prints to resume or continue a task carries the options
that chose the agent, the binding, the version, the dialect and where the credentials come from
(--config, --profile, -u, --transport, …), and names a credential given as a flag by its
placeholder, never its value; run as printed (same directory, same environment), it reaches the
same agent the same way."""

from __future__ import annotations

import json
import shlex

import httpx
import pytest
from a2a_testkit import AGENT, ANY_CREDENTIAL, RPC, rpc_result, sse, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
ASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_INPUT_REQUIRED"}}
DONE = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}


def printed(stderr: str) -> list[str]:
    """The commands printed on stderr (indented two spaces under the line that introduces them)."""
    return [line[2:] for line in stderr.splitlines() if line.startswith("  a2a ")]


def run_printed(cli, command: str, reply: str = "blue", env: dict[str, str] | None = None):
    argv = shlex.split(command)
    assert argv[0] == "a2a"
    argv[-1] = reply  # the placeholder message
    return cli(*argv[1:], "-o", "json", env=env)


@pytest.fixture
def agent(respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes=ANY_CREDENTIAL))
    return respx_mock


@pytest.mark.spec("A2ACLI_INTERACT_004")
def test_the_continue_command_keeps_config_and_runs_as_printed(cli, agent, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "agentA.env").write_text(f"A2ACLI_URL={AGENT}\nA2ACLI_TRANSPORT=jsonrpc\n")
    route = agent.post(RPC)
    route.side_effect = [
        httpx.Response(200, json=rpc_result({"task": ASK})),
        httpx.Response(200, json=rpc_result({"task": DONE})),
    ]
    first = cli("--config", "agentA.env", "send", "--skill", "ask")
    assert first.exit_code == 0, first.stderr
    (command,) = printed(first.stderr)
    assert command == "a2a send --task-id t-1 --context-id c-1 --config agentA.env 'your reply'"
    again = run_printed(cli, command)
    assert again.exit_code == 0, again.stderr
    sent = json.loads(route.calls.last.request.content)["params"]["message"]
    assert (sent["taskId"], sent["contextId"], sent["parts"]) == ("t-1", "c-1", [{"text": "blue"}])
    assert json.loads(again.stdout)["task"]["status"]["state"] == "TASK_STATE_COMPLETED"


@pytest.mark.spec("A2ACLI_INTERACT_004")
def test_the_profile_and_the_binding_version_and_dialect_flags_are_kept(cli, agent, cfg):
    cfg.parent.mkdir(parents=True)
    cfg.write_text(f'[profiles.ops]\nurl = "{AGENT}"\n')
    agent.post(RPC).respond(json=rpc_result({"task": ASK}))
    result = cli("send", "hi", "--profile", "ops", "--transport", "jsonrpc", "--a2a-version", "0.3", "--dialect", "clix", "--extension", "https://ext.test/x")
    assert result.exit_code == 0, result.stderr
    assert printed(result.stderr) == [
        "a2a send --task-id t-1 --context-id c-1 --profile ops --transport jsonrpc --a2a-version 0.3 --dialect clix --extension https://ext.test/x 'your reply'"
    ]


@pytest.mark.spec("A2ACLI_INTERACT_004", "A2ACLI_AUTH_004")
@pytest.mark.parametrize("flag,placeholder", [("--api-key", "--api-key KEY"), ("--bearer", "--bearer TOKEN")])
def test_a_credential_given_as_a_flag_is_named_never_repeated(cli, agent, flag, placeholder):
    agent.post(RPC).respond(json=rpc_result({"task": {**ASK, "status": {"state": "TASK_STATE_WORKING"}}}))
    result = cli("send", "hi", "-u", AGENT, flag, "s3cret-value", "--async")
    assert result.exit_code == 0, result.stderr
    assert printed(result.stderr) == [f"a2a tasks get t-1 --wait -u {AGENT} {placeholder}"]
    assert "s3cret-value" not in result.stderr + result.stdout


@pytest.mark.spec("A2ACLI_INTERACT_004")
def test_the_follow_command_of_an_async_send_keeps_config_profile_and_insecure(cli, agent, cfg, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg.parent.mkdir(parents=True)
    cfg.write_text(f'[profiles.ops]\nurl = "{AGENT}"\n')
    (tmp_path / "local.env").write_text("A2ACLI_TIMEOUT=5\n")
    agent.post(RPC).respond(json=rpc_result({"task": {**ASK, "status": {"state": "TASK_STATE_WORKING"}}}))
    result = cli("--config", "local.env", "send", "hi", "--profile", "ops", "--insecure", "--async")
    assert result.exit_code == 0, result.stderr
    assert printed(result.stderr) == ["a2a tasks get t-1 --wait --config local.env --profile ops --insecure"]


@pytest.mark.parametrize("method", ["SendStreamingMessage", "message/stream"])
def test_a_call_stream_interrupted_names_its_task_and_how_to_resume_it(cli, respx_mock, method):
    """CLI.md: on Ctrl-C (exit 130) "the task id and the command to resume are printed first".
    `a2a call` showed the task's events, then said only `interrupted`: its flow tracked no task."""
    respx_mock.get(CARD_URL).respond(json=v1_card(capabilities={"streaming": True}))
    v1 = {"task": {"id": "t-9", "contextId": "c-9", "status": {"state": "TASK_STATE_WORKING"}}}
    working = v1 if "/" not in method else {"kind": "task", "id": "t-9", "contextId": "c-9", "status": {"state": "working"}}

    def chunks():
        yield sse(working)
        raise KeyboardInterrupt  # the user presses Ctrl-C while the stream is read

    respx_mock.post(RPC).mock(
        return_value=httpx.Response(200, headers={"Content-Type": "text/event-stream"}, content=chunks())
    )
    params = {"message": {"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "hi"}]}}
    version = ["--a2a-version", "0.3"] if "/" in method else []
    result = cli("call", method, json.dumps(params), "-u", AGENT, *version)
    assert result.exit_code == 130
    assert "interrupted: task t-9 (context c-9) was working" in result.stderr
    assert "a2a tasks get t-9 --wait -u http://agent.test" in result.stderr
