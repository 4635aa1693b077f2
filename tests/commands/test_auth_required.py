"""A task in AUTH_REQUIRED (A2A §7.6; official CLI spec §8.2, §10.3, A2ACLI_AUTH_011) against respx
agents: the wait stops (send, stream, tasks get --wait) with exit 0, the agent's ask is shown, and
stderr names the command that continues the task with the credential the card's scheme takes
(the scheme the status message names, else every scheme the card declares), placeholders only.
The hinted command, run as printed with a real key, sends it where the card says."""

from __future__ import annotations

import json
import shlex

import httpx
import pytest
from a2a_testkit import AGENT, ANY_CREDENTIAL, RPC, assert_floor, floor_block, rpc_result, sse, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
SSE = {"Content-Type": "text/event-stream"}
API_KEY = {"apiKey": {"apiKeySecurityScheme": {"location": "header", "name": "X-API-Key"}}}
ASK_TEXT = "This task needs a credential to go on: the API key of the card's scheme 'apiKey'."
NAMES_API_KEY = {"securityScheme": "apiKey", "type": "apiKey", "location": "header", "name": "X-API-Key"}

pytestmark = pytest.mark.spec("A2ACLI_AUTH_011")


def ask(*data: dict) -> dict:
    return {"messageId": "m-ask", "role": "ROLE_AGENT", "parts": [{"text": ASK_TEXT}, *({"data": d} for d in data)]}


def auth_task(message: dict | None = None, state: str = "TASK_STATE_AUTH_REQUIRED") -> dict:
    status: dict = {"state": state}
    if message is not None:
        status["message"] = message
    return {"id": "t-1", "contextId": "c-1", "status": status}


def card_with(schemes: dict) -> None:
    import respx

    respx.get(CARD_URL).respond(json=v1_card(securitySchemes=schemes))


def commands(stderr: str) -> list[str]:
    """The commands stderr prints to copy (each on its own line, indented two spaces)."""
    return [line[2:] for line in stderr.splitlines() if line.startswith("  a2a ")]


def test_send_stops_at_auth_required_shows_the_ask_and_names_the_command_with_the_credential(cli, respx_mock):
    card_with(API_KEY)
    route = respx_mock.post(RPC).respond(json=rpc_result({"task": auth_task(ask(NAMES_API_KEY))}))
    result = cli("send", "hi", "-u", AGENT, "--api-key", "wrong-s3cret")
    assert result.exit_code == 0, result.stderr  # the CLI did its job: the outcome is the task's
    assert route.calls[0].request.headers["X-API-Key"] == "wrong-s3cret"  # the first turn carried it too
    labels = assert_floor(result.stdout)  # the text floor: Label: value lines and blocks
    assert labels[:3] == ["Task", "Context", "State"] and "State: auth-required\n" in result.stdout
    (asked,) = floor_block(result.stdout, "Status message")  # one block: the ask's text, then its data part as JSON
    text, _, data = asked.partition("\n")
    assert text == ASK_TEXT and json.loads(data) == NAMES_API_KEY  # the agent's ask, whole
    assert (
        "task t-1 is auth-required: it needs authentication; the agent asks for the Agent Card's scheme 'apiKey' (apiKey, header X-API-Key); continue with the credential:\n" in result.stderr
    )
    assert commands(result.stderr) == [f"a2a send --task-id t-1 --context-id c-1 -u {AGENT} --api-key KEY 'continue'"]
    assert "wrong-s3cret" not in result.stdout + result.stderr  # a placeholder, never the value


@pytest.mark.parametrize("version", ["1.0", "0.3"])
def test_under_json_stdout_is_the_protocol_object_and_the_hint_goes_to_stderr(cli, respx_mock, version):
    card_with(API_KEY)
    if version == "1.0":
        answer = {"task": auth_task(ask(NAMES_API_KEY))}
    else:
        parts = [{"kind": "text", "text": ASK_TEXT}, {"kind": "data", "data": NAMES_API_KEY}]
        message = {"kind": "message", "messageId": "m-ask", "role": "agent", "parts": parts}
        answer = {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "auth-required", "message": message}}
    respx_mock.post(RPC).respond(json=rpc_result(answer))
    result = cli("send", "hi", "-u", AGENT, "--a2a-version", version, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == answer  # as the wire spelt it, nothing added
    flags = "" if version == "1.0" else " --a2a-version 0.3"
    assert commands(result.stderr) == [f"a2a send --task-id t-1 --context-id c-1 -u {AGENT}{flags} --api-key KEY 'continue'"]


def test_the_hinted_command_run_as_printed_sends_the_key_where_the_card_says_and_completes(cli, respx_mock):
    card_with({"apiKey": {"apiKeySecurityScheme": {"location": "header", "name": "X-Agent-Key"}}})
    done = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}, "artifacts": [{"artifactId": "a", "name": "authorized", "parts": [{"text": "done"}]}]}
    route = respx_mock.post(RPC).mock(side_effect=[httpx.Response(200, json=rpc_result({"task": auth_task(ask({"securityScheme": "apiKey"}))})), httpx.Response(200, json=rpc_result({"task": done}))])
    first = cli("send", "hi", "-u", AGENT)
    (hint,) = commands(first.stderr)
    argv = shlex.split(hint.replace("KEY", "k-123"))
    assert argv[:2] == ["a2a", "send"]
    second = cli(*argv[1:])
    assert second.exit_code == 0, second.stderr
    request = route.calls[1].request
    message = json.loads(request.content)["params"]["message"]
    assert (message["taskId"], message["contextId"]) == ("t-1", "c-1")  # the same task
    assert request.headers["X-Agent-Key"] == "k-123" and "X-API-Key" not in request.headers  # where the card's scheme says
    assert "k-123" not in json.dumps(message)  # in the header, never in the message
    assert "State: completed" in second.stdout and "Artifact: authorized" in second.stdout


def test_an_oauth2_scheme_named_by_kind_gets_the_login_first_and_the_sign_in_url(cli, respx_mock, tmp_path, monkeypatch):
    config = tmp_path / "config.toml"
    config.write_text("[profiles.ops]\ntimeout = 30\n")
    monkeypatch.setenv("A2ACLI_GLOBAL_CONFIG", str(config))
    card_with(ANY_CREDENTIAL)
    respx_mock.post(RPC).respond(json=rpc_result({"task": auth_task(ask({"authScheme": "oauth2", "authUrl": "https://idp.test/authorize?x=1"}))}))
    result = cli("send", "hi", "-u", AGENT, "--profile", "ops")
    assert result.exit_code == 0, result.stderr
    assert "the agent asks for the Agent Card's scheme 'oauth' (oauth2 clientCredentials, header Authorization: Bearer)" in result.stderr
    assert "it names https://idp.test/authorize?x=1 to sign in; get the token, then continue:" in result.stderr
    assert commands(result.stderr) == [f"a2a auth login -u {AGENT} --profile ops", f"a2a send --task-id t-1 --context-id c-1 --profile ops -u {AGENT} 'continue'"]


def test_a_message_that_names_no_scheme_gets_every_way_the_card_takes(cli, respx_mock):
    card_with({**ANY_CREDENTIAL, "mtls": {"mtlsSecurityScheme": {}}})
    respx_mock.post(RPC).respond(json=rpc_result({"task": auth_task(ask({"securityScheme": "not-on-the-card"}))}))
    result = cli("send", "hi", "-u", AGENT)
    assert result.exit_code == 0, result.stderr
    assert "its status message names no scheme of the Agent Card, which declares 'key' (apiKey, header X-API-Key); or 'bearer'" in result.stderr
    assert "continue with the credential (one of these):" in result.stderr
    base = f"a2a send --task-id t-1 --context-id c-1 -u {AGENT}"
    assert commands(result.stderr) == [
        f"{base} --api-key KEY 'continue'",
        f"{base} --bearer TOKEN 'continue'",
        f"{base} --basic USER:PASS 'continue'",
        f"a2a auth login -u {AGENT}",
        f"{base} 'continue'",
        f"{base} --cert PATH --key PATH 'continue'",
    ]


@pytest.mark.parametrize(
    ("where", "says", "then"),
    [
        # a card without schemes: --api-key and --bearer would be withheld, -H carries it
        (("-u", AGENT), "the Agent Card declares no security scheme that takes a credential, so --api-key and --bearer are not sent to it", f"-u {AGENT} -H 'NAME: VALUE' 'continue'"),
        # --endpoint: no card, credential flags go as given
        (("--endpoint", RPC), "its status message says which credential: add it (--api-key KEY, --bearer TOKEN or --basic USER:PASS) to continue:", f"--endpoint {RPC} 'continue'"),
    ],
    ids=["card-without-schemes", "endpoint-without-card"],
)
def test_without_a_scheme_to_name_the_hint_says_how_the_credential_can_go(cli, respx_mock, where, says, then):
    card_with({})
    respx_mock.post(RPC).respond(json=rpc_result({"task": auth_task(ask())}))
    result = cli("send", "hi", *where)
    assert result.exit_code == 0, result.stderr
    assert says in result.stderr
    assert commands(result.stderr) == [f"a2a send --task-id t-1 --context-id c-1 {then}"]


def test_a_stream_that_ends_at_auth_required_shows_the_ask_and_the_command(cli, respx_mock):
    card_with(API_KEY)
    update = {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_AUTH_REQUIRED", "message": ask(NAMES_API_KEY)}}}
    respx_mock.post(RPC).respond(content=sse({"task": auth_task(state="TASK_STATE_SUBMITTED")}, update), headers=SSE)
    for output in ("text", "json"):
        result = cli("stream", "hi", "-u", AGENT, "-o", output)
        assert result.exit_code == 0, result.stderr
        assert commands(result.stderr) == [f"a2a send --task-id t-1 --context-id c-1 -u {AGENT} --api-key KEY 'continue'"]
        assert "polling" not in result.stderr  # an interrupted state ends the stream's wait
    assert json.loads(result.stdout.splitlines()[-1]) == rpc_result(update)["result"]  # JSONL: the events as they came
    text = cli("stream", "hi", "-u", AGENT)
    assert ASK_TEXT in text.stdout and "State: auth-required" in text.stdout


def test_tasks_get_wait_stops_at_auth_required_with_the_command(cli, respx_mock):
    card_with(API_KEY)
    working = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}}
    route = respx_mock.post(RPC).mock(side_effect=[httpx.Response(200, json=rpc_result(working)), httpx.Response(200, json=rpc_result(auth_task(ask(NAMES_API_KEY))))])
    result = cli("tasks", "get", "t-1", "--wait", "--poll-interval", "0.05", "-u", AGENT)
    assert result.exit_code == 0, result.stderr
    assert route.call_count == 2
    assert commands(result.stderr) == [f"a2a send --task-id t-1 --context-id c-1 -u {AGENT} --api-key KEY 'continue'"]
