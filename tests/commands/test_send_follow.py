"""`a2a send`'s wait against respx agents (official CLI spec §9.3, §10.2; A2ACLI_SEND_002,
A2ACLI_TASK_POLL_002 and A2ACLI_INTERACT_004): one blocking SendMessage, exactly as typed. A
settled answer is the answer; a task the agent answered early (or --follow's returnImmediately
answered) is said at once and followed (SubscribeToTask when the card claims streaming, else, or
when that fails, GetTask polls) until it settles; Ctrl-C and --timeout then name the task and how
to resume. Nothing sends a message twice."""

from __future__ import annotations

import json
import time

import httpx
import pytest
from a2a_testkit import AGENT, RPC, rpc_result, sse, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
SSE = {"Content-Type": "text/event-stream"}
NO_STREAMING = v1_card(capabilities={"streaming": False})
RETURN_IMMEDIATELY = {"1.0": {"returnImmediately": True}, "0.3": {"blocking": False}}
# the wire names of the four methods, per version
NAMES = {
    "1.0": {"send": "SendMessage", "subscribe": "SubscribeToTask", "get": "GetTask"},
    "0.3": {"send": "message/send", "subscribe": "tasks/resubscribe", "get": "tasks/get"},
}


def task(state: str, version: str = "1.0", **extra) -> dict:
    """A Task as the version spells it (V1 state names; 0.3 lowercase with `kind`)."""
    if version == "0.3":
        return {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": state[11:].lower().replace("_", "-")}, **extra}
    return {"id": "t-1", "contextId": "c-1", "status": {"state": state}, **extra}


def answer(version: str, state: str, **extra) -> dict:
    """A send's answer (or a stream's task event): {"task": …} under 1.0, the bare Task under 0.3."""
    t = task(state, version, **extra)
    return t if version == "0.3" else {"task": t}


def status(version: str, state: str, text: str = "") -> dict:
    st: dict = {"state": state if version == "1.0" else state[11:].lower().replace("_", "-")}
    if text:
        st["message"] = {"messageId": "m-s", "role": "ROLE_AGENT" if version == "1.0" else "agent", "parts": [{"text": text}]}
    if version == "0.3":
        return {"kind": "status-update", "taskId": "t-1", "contextId": "c-1", "status": st, "final": state == "TASK_STATE_COMPLETED"}
    return {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": st}}


ARTIFACT = {"artifactId": "a-1", "name": "result", "parts": [{"text": "done"}]}
HISTORY = [{"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "hi"}]}, {"messageId": "m-s", "role": "ROLE_AGENT", "parts": [{"text": "half"}]}]
DONE = task("TASK_STATE_COMPLETED", artifacts=[ARTIFACT], history=HISTORY)


@pytest.fixture
def agent(respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())  # claims streaming
    return respx_mock


def ok(*results: dict):
    """A respx side effect answering each call in turn (the last one again and again), echoing the
    request's JSON-RPC id."""
    left = list(results)

    def reply(request):
        result = left.pop(0) if len(left) > 1 else left[0]
        return httpx.Response(200, json=rpc_result(result, json.loads(request.content)["id"]))

    return reply


def stream(*events: dict):
    """A respx side effect answering an SSE body of `events`, echoing the request's id."""
    return lambda request: httpx.Response(200, headers=SSE, content=sse(*events, request_id=json.loads(request.content)["id"]))


def body(route, n: int = 0) -> dict:
    return json.loads(route.calls[n].request.content)


def methods(mock) -> list[str]:
    return [json.loads(c.request.content)["method"] for c in mock.calls if c.request.method == "POST"]


def said_at_once(stderr: str) -> None:
    """The first line on stderr names the task and its context (before any wait)."""
    assert stderr.splitlines()[0] == "task t-1 (context c-1) is submitted; waiting for it"  # the Ctrl-C aside: at a terminal only


# -- the answer needs no wait -------------------------------------------------------------------------


@pytest.mark.spec("A2ACLI_TASK_POLL_002")
@pytest.mark.parametrize("version", ["1.0", "0.3"])
def test_a_message_reply_is_the_answer(cli, agent, version):
    message = {"messageId": "m-2", "role": "ROLE_AGENT", "parts": [{"text": "Hello"}]}
    route = agent.post(RPC).mock(side_effect=ok({"message": message} if version == "1.0" else {"kind": "message", **message, "role": "agent"}))
    result = cli("send", "hi", "-u", AGENT, "--a2a-version", version)
    assert result.exit_code == 0, result.stderr
    assert route.call_count == 1 and methods(agent) == [NAMES[version]["send"]]
    assert "configuration" not in body(route)["params"]  # exactly what was typed: no returnImmediately, no blocking
    assert result.stdout == "Message: m-2\nRole: agent\nText:\n  Hello\n\n" and result.stderr == ""


@pytest.mark.spec("A2ACLI_INTERACT_004")
@pytest.mark.parametrize("state", ["TASK_STATE_COMPLETED", "TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"])
def test_a_task_settled_at_once_is_the_answer(cli, agent, state):
    route = agent.post(RPC).mock(side_effect=ok({"task": task(state)}))
    result = cli("send", "hi", "-u", AGENT, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert route.call_count == 1  # neither subscribed to nor polled
    assert json.loads(result.stdout) == {"task": task(state)}
    assert "waiting for it" not in result.stderr
    if state == "TASK_STATE_INPUT_REQUIRED":
        assert f"continue with:\n  a2a send --task-id t-1 --context-id c-1 -u {AGENT} 'your reply'\n" in result.stderr
    elif state == "TASK_STATE_AUTH_REQUIRED":  # the credential the card takes (none here: -H), A2ACLI_AUTH_011
        assert f"a2a send --task-id t-1 --context-id c-1 -u {AGENT} -H 'NAME: VALUE' 'continue'\n" in result.stderr


# -- followed by SubscribeToTask ------------------------------------------------------------------------


@pytest.mark.spec("A2ACLI_TASK_POLL_002", "A2ACLI_INTERACT_004")
@pytest.mark.parametrize("version", ["1.0", "0.3"])
@pytest.mark.parametrize("flag", [[], ["--follow"]])
def test_the_task_is_followed_by_subscribing_and_answered_from_get_task(cli, agent, version, flag, no_sleep):
    names = NAMES[version]
    done = task("TASK_STATE_COMPLETED", version, artifacts=[ARTIFACT])
    send = agent.post(RPC, json__method=names["send"]).mock(side_effect=ok(answer(version, "TASK_STATE_SUBMITTED")))
    events = stream(answer(version, "TASK_STATE_WORKING"), status(version, "TASK_STATE_WORKING", "half"), status(version, "TASK_STATE_COMPLETED"))
    sub = agent.post(RPC, json__method=names["subscribe"]).mock(side_effect=events)
    get = agent.post(RPC, json__method=names["get"]).mock(side_effect=ok(done))
    result = cli("send", "hi", "-u", AGENT, "--a2a-version", version, "-o", "json", *flag)
    assert result.exit_code == 0, result.stderr
    assert methods(agent) == [names["send"], names["subscribe"], names["get"]] and no_sleep == []  # no poll: the stream told the end
    asked = body(send)["params"].get("configuration")
    assert asked == ((RETURN_IMMEDIATELY[version]) if flag else None)  # the default asks the agent to block
    assert body(sub)["params"] == {"id": "t-1"} and body(get)["params"] == {"id": "t-1"}
    assert json.loads(result.stdout) == (done if version == "0.3" else {"task": done})  # one document, a send's answer
    said_at_once(result.stderr)
    assert "subscribe" not in result.stderr  # the events are folded quietly


def test_text_output_is_the_task_record_as_before(cli, agent):
    agent.post(RPC, json__method="SendMessage").mock(side_effect=ok({"task": task("TASK_STATE_SUBMITTED")}))
    agent.post(RPC, json__method="SubscribeToTask").mock(side_effect=stream(status("1.0", "TASK_STATE_COMPLETED")))
    agent.post(RPC, json__method="GetTask").mock(side_effect=ok(DONE))
    result = cli("send", "hi", "-u", AGENT)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("Task: t-1\nContext: c-1\nState: completed\n")
    assert "Artifact: result\nText:\n  done\n\n" in result.stdout
    said_at_once(result.stderr)
    assert f"a follow-up in its context:\n  a2a send --context-id c-1 -u {AGENT} 'your message'\n" in result.stderr


@pytest.mark.spec("A2ACLI_TASK_POLL_002")
def test_history_length_is_asked_of_get_task_too(cli, agent):
    send = agent.post(RPC, json__method="SendMessage").mock(side_effect=ok({"task": task("TASK_STATE_SUBMITTED")}))
    agent.post(RPC, json__method="SubscribeToTask").mock(side_effect=stream(status("1.0", "TASK_STATE_COMPLETED")))
    get = agent.post(RPC, json__method="GetTask").mock(side_effect=ok(DONE))
    assert cli("send", "hi", "--history-length", "1", "-u", AGENT).exit_code == 0
    assert body(send)["params"]["configuration"] == {"historyLength": 1}
    assert body(get)["params"] == {"id": "t-1", "historyLength": 1}


@pytest.mark.spec("A2ACLI_TASK_POLL_003", "A2ACLI_INTERACT_004")
def test_an_interrupted_state_on_the_stream_ends_the_wait_though_the_stream_stays_open(cli, agent):
    read_on: list[bool] = []

    def events():
        yield sse({"task": task("TASK_STATE_WORKING")}, status("1.0", "TASK_STATE_INPUT_REQUIRED", "Which colour?"))
        read_on.append(True)  # the agent keeps the stream open for the task to resume
        time.sleep(5)
        yield sse(status("1.0", "TASK_STATE_WORKING"))

    agent.post(RPC, json__method="SendMessage").mock(side_effect=ok({"task": task("TASK_STATE_SUBMITTED")}))
    agent.post(RPC, json__method="SubscribeToTask").mock(return_value=httpx.Response(200, headers=SSE, content=events()))
    agent.post(RPC, json__method="GetTask").mock(side_effect=ok(task("TASK_STATE_INPUT_REQUIRED")))
    started = time.monotonic()
    result = cli("send", "hi", "-u", AGENT)
    assert result.exit_code == 0, result.stderr
    assert time.monotonic() - started < 3 and read_on == []
    assert "State: input-required" in result.stdout
    assert "continue with:\n  a2a send --task-id t-1 --context-id c-1" in result.stderr


# -- falling back to polling ---------------------------------------------------------------------------


@pytest.mark.spec("A2ACLI_TASK_POLL_002")
@pytest.mark.parametrize("refusal,said", [
    ({"code": -32004, "message": "Streaming is not supported"}, ""),  # -32004: quietly, the task is looked at
    ({"code": -32601, "message": "Method not found"}, "subscribing to task t-1 failed (MethodNotFoundError: Method not found); polling it instead"),
])
def test_a_refused_subscription_falls_back_to_polling(cli, agent, no_sleep, refusal, said):
    agent.post(RPC, json__method="SendMessage").mock(side_effect=ok({"task": task("TASK_STATE_SUBMITTED")}))
    agent.post(RPC, json__method="SubscribeToTask").respond(json={"jsonrpc": "2.0", "id": 1, "error": refusal})
    get = agent.post(RPC, json__method="GetTask").mock(side_effect=ok(task("TASK_STATE_WORKING"), task("TASK_STATE_WORKING"), DONE))
    result = cli("send", "hi", "-u", AGENT, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert get.call_count == 3 and json.loads(result.stdout) == {"task": DONE}
    assert no_sleep == [0.25, 0.375]  # a look at once after the refusal, then polls from an eighth of the 2 s interval
    said_at_once(result.stderr)
    assert (said in result.stderr) if said else "polling" not in result.stderr


@pytest.mark.spec("A2ACLI_TASK_POLL_002", "A2ACLI_TASK_POLL_004")
def test_a_subscription_that_breaks_falls_back_to_polling(cli, agent, no_sleep):
    def events():
        yield sse({"task": task("TASK_STATE_WORKING")})
        raise httpx.ReadError("connection reset by peer")

    agent.post(RPC, json__method="SendMessage").mock(side_effect=ok({"task": task("TASK_STATE_SUBMITTED")}))
    agent.post(RPC, json__method="SubscribeToTask").mock(return_value=httpx.Response(200, headers=SSE, content=events()))
    agent.post(RPC, json__method="GetTask").mock(side_effect=ok(task("TASK_STATE_WORKING"), DONE))
    result = cli("send", "hi", "-u", AGENT, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == {"task": DONE}
    assert "subscribing to task t-1 failed (" in result.stderr and "connection reset by peer" in result.stderr and "polling it instead" in result.stderr


@pytest.mark.spec("A2ACLI_TASK_POLL_002")
@pytest.mark.parametrize("interval,first", [("2s", 0.25), ("800ms", 0.1), ("50ms", 0.05)])
def test_without_streaming_the_task_is_polled_the_first_poll_quick(cli, respx_mock, no_sleep, interval, first):
    respx_mock.get(CARD_URL).respond(json=NO_STREAMING)
    respx_mock.post(RPC, json__method="SendMessage").mock(side_effect=ok({"task": task("TASK_STATE_SUBMITTED")}))
    answers = [task("TASK_STATE_WORKING")] * 7 + [DONE]
    respx_mock.post(RPC, json__method="GetTask").mock(side_effect=ok(*answers))
    result = cli("send", "hi", "-u", AGENT, "--poll-interval", interval, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert methods(respx_mock) == ["SendMessage"] + ["GetTask"] * 8  # never subscribed
    assert json.loads(result.stdout) == {"task": DONE}
    assert no_sleep[0] == pytest.approx(first)  # an eighth of the interval (never below 50 ms)
    assert all(b == pytest.approx(min(a * 1.5, 5.0)) for a, b in zip(no_sleep, no_sleep[1:], strict=False)) and max(no_sleep) <= 5.0  # x1.5 through the interval, up to 5 s


# -- Ctrl-C and --timeout once the task is known -------------------------------------------------------


@pytest.mark.spec("A2ACLI_TASK_POLL_002", "A2ACLI_INTERACT_004")
@pytest.mark.parametrize("streaming", [True, False])
def test_ctrl_c_after_the_task_is_known_names_it_and_how_to_resume(cli, respx_mock, streaming):
    def events():
        yield sse({"task": task("TASK_STATE_WORKING")})
        raise KeyboardInterrupt

    def ctrl_c(request):
        raise KeyboardInterrupt

    respx_mock.get(CARD_URL).respond(json=v1_card() if streaming else NO_STREAMING)
    respx_mock.post(RPC, json__method="SendMessage").mock(side_effect=ok({"task": task("TASK_STATE_SUBMITTED")}))
    respx_mock.post(RPC, json__method="SubscribeToTask").mock(return_value=httpx.Response(200, headers=SSE, content=events()))
    respx_mock.post(RPC, json__method="GetTask").mock(side_effect=ctrl_c)
    result = cli("send", "hi", "-u", AGENT, "--poll-interval", "50ms", "-o", "json")
    assert result.exit_code == 130
    said_at_once(result.stderr)
    state = "working" if streaming else "submitted"
    resume = "one of:\n  a2a tasks subscribe t-1 -u {a}\n" if streaming else "this (the Agent Card claims no streaming):\n"  # no subscribe to an agent that cannot stream
    assert f"interrupted: task t-1 (context c-1) was {state}; resume with {resume.format(a=AGENT)}  a2a tasks get t-1 --wait -u {AGENT}\n" in result.stderr
    assert "before the agent answered" not in result.stderr
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "X_A2A_INTERRUPTED"
    # a script reading stdout gets the same commands in the hint
    subscribe = f"a2a tasks subscribe t-1 -u {AGENT} or: " if streaming else ""
    assert error["hint"] == f"resume with: {subscribe}a2a tasks get t-1 --wait -u {AGENT}"


@pytest.mark.spec("A2ACLI_TASK_POLL_002", "A2ACLI_INTERACT_004", "A2ACLI_EXIT_001")
@pytest.mark.parametrize("streaming", [True, False])
def test_timeout_after_the_task_is_known_exits_5_naming_it_and_how_to_resume(cli, respx_mock, streaming):
    def events():
        yield sse({"task": task("TASK_STATE_WORKING")})
        time.sleep(0.8)  # the agent is slow to send the next event
        yield sse(status("1.0", "TASK_STATE_WORKING", "still at it"))

    respx_mock.get(CARD_URL).respond(json=v1_card() if streaming else NO_STREAMING)
    respx_mock.post(RPC, json__method="SendMessage").mock(side_effect=ok({"task": task("TASK_STATE_SUBMITTED")}))
    respx_mock.post(RPC, json__method="SubscribeToTask").mock(return_value=httpx.Response(200, headers=SSE, content=events()))
    respx_mock.post(RPC, json__method="GetTask").mock(side_effect=ok(task("TASK_STATE_WORKING")))
    started = time.monotonic()
    result = cli("send", "hi", "-u", AGENT, "--timeout", "0.5", "--poll-interval", "100ms")
    assert result.exit_code == 5, result.stderr
    assert time.monotonic() - started < 3
    said_at_once(result.stderr)
    assert "--timeout 0.5s expired" in result.stderr
    resume = "one of:\n  a2a tasks subscribe t-1 -u {a}\n" if streaming else "this (the Agent Card claims no streaming):\n"
    assert f"timed out: task t-1 (context c-1) was working; resume with {resume.format(a=AGENT)}  a2a tasks get t-1 --wait -u {AGENT}\n" in result.stderr


# -- nothing is sent twice ---------------------------------------------------------------------------------


@pytest.mark.spec("A2ACLI_TASK_POLL_002")
def test_blocking_call_is_the_default_kept_for_scripts(cli, agent, no_sleep):
    send = agent.post(RPC, json__method="SendMessage").mock(side_effect=ok({"task": task("TASK_STATE_WORKING")}))
    agent.post(RPC, json__method="SubscribeToTask").mock(side_effect=stream(status("1.0", "TASK_STATE_COMPLETED")))
    agent.post(RPC, json__method="GetTask").mock(side_effect=ok(DONE))
    result = cli("send", "hi", "--blocking-call", "-u", AGENT, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert "configuration" not in body(send)["params"]
    assert methods(agent) == ["SendMessage", "SubscribeToTask", "GetTask"]  # answered early: followed as the default is
    assert json.loads(result.stdout) == {"task": DONE}


@pytest.mark.parametrize("answer", [
    httpx.Response(500, text="Internal Server Error"),
    httpx.Response(422, json={"detail": "bad"}),
    httpx.Response(400, text="Bad Request"),
    httpx.Response(200, json={"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "Invalid params"}}),
])
@pytest.mark.parametrize("flag", [[], ["--follow"], ["--async"]])
def test_a_refused_send_is_sent_once_and_the_hint_names_the_flag(cli, agent, answer, flag):
    send = agent.post(RPC, json__method="SendMessage").mock(return_value=answer)
    result = cli("send", "hi", "--message-id", "m-1", "-u", AGENT, *flag)
    assert result.exit_code == 1, result.stderr
    assert send.call_count == 1  # never resent: the agent may have acted on it
    refused_field = "the agent may not take returnImmediately: without --follow and --async, a2a sends one blocking SendMessage"
    assert (refused_field in result.stderr) == bool(flag)
    assert "Traceback" not in result.stderr and result.stderr.startswith("error: ")


@pytest.mark.spec("A2ACLI_INTERACT_002")
@pytest.mark.parametrize("given", [["--task-id", "t-1"], ["--context-id", "c-1"], ["--idempotency-key", "k-1"]])
def test_a_message_naming_a_task_or_bound_to_a_key_is_never_sent_twice(cli, agent, given):
    send = agent.post(RPC, json__method="SendMessage").respond(json={"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "Invalid params"}})
    result = cli("send", "more", *given, "--follow", "-u", AGENT)
    assert result.exit_code == 1 and send.call_count == 1
    assert "without --follow and --async, a2a sends one blocking SendMessage" in result.stderr


@pytest.mark.parametrize("flag", [["--async"], ["--stream"], ["--blocking-call"]])
def test_follow_contradicts_async_stream_and_blocking_call(cli, flag):
    result = cli("send", "hi", "--follow", *flag, "-u", AGENT)
    assert result.exit_code == 2 and "--follow" in result.stderr


# -- -q / --quiet (issue 25): stderr keeps warnings and errors ------------------------------------------


@pytest.mark.parametrize("quiet", [["-q"], ["--quiet"], []])
def test_quiet_keeps_stderr_to_warnings_and_errors(cli, agent, quiet):
    agent.post(RPC, json__method="SendMessage").mock(side_effect=ok({"task": task("TASK_STATE_SUBMITTED")}))
    agent.post(RPC, json__method="SubscribeToTask").mock(side_effect=stream(status("1.0", "TASK_STATE_FAILED")))
    agent.post(RPC, json__method="GetTask").mock(side_effect=ok(task("TASK_STATE_FAILED")))
    env = {} if quiet else {"A2ACLI_QUIET": "true"}  # the env var, as CI sets it
    result = cli("send", "hi", "-u", AGENT, "-o", "json", *quiet, env=env)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["task"]["status"]["state"] == "TASK_STATE_FAILED"  # the payload, unchanged
    assert result.stderr.startswith("warning: ") and all(line.startswith(("warning: ", "error: ", "hint: ")) for line in result.stderr.splitlines()), result.stderr
    loud = cli("send", "hi", "-u", AGENT, "-o", "json")
    assert "waiting for it" in loud.stderr  # the same run without -q: its notes


def test_quiet_keeps_errors_and_what_debug_asked_for(cli, agent):
    agent.post(RPC, json__method="GetTask").mock(return_value=httpx.Response(200, json={"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "nope"}}))
    result = cli("tasks", "get", "t-9", "-u", AGENT, "-q", "--debug")
    assert result.exit_code == 1
    assert "TaskNotFoundError" in result.stderr and "hint: " in result.stderr
    assert "> POST http://agent.test/rpc" in result.stderr  # --debug's lines: asked for, so said


def test_a_bad_quiet_value_in_the_environment_is_a_usage_error(cli):
    result = cli("tasks", "get", "t-1", "-u", AGENT, env={"A2ACLI_QUIET": "maybe"})
    assert result.exit_code == 2 and "error: env A2ACLI_QUIET: 'maybe' is not true or false" in result.stderr


def test_the_follow_up_note_of_a_uuid_task_fits_80_columns(cli, agent):
    """Issue 46's journeys at 80 columns: `task <uuid> completed; a next message in its context:`
    was 83 columns, so a terminal showed `context:` alone on a line of its own before the command."""
    uuid = "9e79ea2f-5fa5-488b-83f6-2203698ee5e8"
    done = {"task": {"id": uuid, "contextId": "e7fde1e8-24c6-4421-b890-9094a91eeb48", "status": {"state": "TASK_STATE_COMPLETED"}}}
    agent.post(RPC, json__method="SendMessage").respond(json=rpc_result(done))
    result = cli("send", "hi", "-u", AGENT)
    line = next(x for x in result.stderr.splitlines() if x.startswith(f"task {uuid} completed"))
    assert len(line) <= 80 and line.endswith("in its context:"), line
