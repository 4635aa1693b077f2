"""The task lifecycle against respx agents with scripted SSE bodies: streams that end, break or
time out, waiting and its backoff, interrupted states, Ctrl-C, every SubscribeToTask behaviour,
and --expect-state under streams."""

from __future__ import annotations

import json
import time

import httpx
import pytest
from a2a_testkit import AGENT, RPC, rpc_result, sse, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
SSE = {"Content-Type": "text/event-stream"}


def task(state: str, **extra) -> dict:
    return {"id": "t-1", "contextId": "c-1", "status": {"state": state}, **extra}


def v0_task(state: str) -> dict:
    return {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": state}}


def status(state: str, text: str | None = None) -> dict:
    st: dict = {"state": state}
    if text:
        st["message"] = {"messageId": "m", "role": "ROLE_AGENT", "parts": [{"text": text}]}
    return {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": st}}


WORKING, COMPLETED = task("TASK_STATE_WORKING"), task("TASK_STATE_COMPLETED")


@pytest.fixture
def agent(respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    return respx_mock


def ctrl_c(request):
    raise KeyboardInterrupt  # the user pressed Ctrl-C while this request was in flight


def sent(route, n: int = -1) -> dict:
    return json.loads(route.calls[n].request.content)


# -- streams that do not end cleanly ------------------------------------------------------------


@pytest.mark.spec("A2ACLI_TASK_POLL_004")
def test_broken_stream_falls_back_to_polling_and_reaches_the_end_state(cli, agent, monkeypatch):
    monkeypatch.setattr("time.sleep", lambda s: None)

    def body():
        yield sse({"task": task("TASK_STATE_SUBMITTED")}, status("TASK_STATE_WORKING", "step 1"))
        raise httpx.ReadError("connection reset by peer")

    agent.post(RPC, json__method="SendStreamingMessage").mock(return_value=httpx.Response(200, headers=SSE, content=body()))
    resub = agent.post(RPC, json__method="SubscribeToTask").respond(json={"jsonrpc": "2.0", "id": 1, "error": {"code": -32004, "message": "Streaming is not supported"}})
    poll = agent.post(RPC, json__method="GetTask").mock(side_effect=[httpx.Response(200, json=rpc_result(WORKING)), httpx.Response(200, json=rpc_result(COMPLETED))])
    result = cli("stream", "hi", "-u", AGENT, "-o", "json", "--expect-state", "completed")
    assert result.exit_code == 0, result.stderr
    assert "the stream broke" in result.stderr and "connection reset by peer" in result.stderr and "re-subscribing to task t-1 (1/2)" in result.stderr
    assert resub.call_count == 2 and "re-subscribing to task t-1 failed (UnsupportedOperationError" in result.stderr and "); polling task t-1" in result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 3 and lines[-1] == {"task": COMPLETED}  # the polled task comes last, as a stream event
    assert poll.call_count == 2 and sent(poll)["params"] == {"id": "t-1"}


@pytest.mark.spec("A2ACLI_TASK_POLL_004")
@pytest.mark.parametrize("version", ["1.0", "0.3"])
def test_clean_early_close_polls_until_settled(cli, agent, no_sleep, version):
    first = {"task": task("TASK_STATE_SUBMITTED")} if version == "1.0" else v0_task("submitted")
    agent.post(RPC).mock(side_effect=lambda req: httpx.Response(200, headers=SSE, content=sse(first)) if "stream" in json.loads(req.content)["method"].lower()
                         else httpx.Response(200, json=rpc_result(COMPLETED if version == "1.0" else v0_task("completed"))))
    result = cli("stream", "hi", "-u", AGENT, "--a2a-version", version)
    assert result.exit_code == 0, result.stderr
    assert "closed the stream before the task finished; polling task t-1" in result.stderr
    assert result.stdout.endswith("Task: t-1\nContext: c-1\nState: completed\nEvents: 1\nPolled: 1\n\n")  # the last record restates the ids and state, and counts the polled record (issue 23)


@pytest.mark.spec("A2ACLI_SEND_003", "A2ACLI_INTERACT_004")
def test_stream_stops_at_input_required_and_prints_how_to_continue(cli, agent):
    agent.post(RPC).respond(content=sse({"task": task("TASK_STATE_SUBMITTED")}, status("TASK_STATE_INPUT_REQUIRED", "Which colour?")), headers=SSE)
    result = cli("stream", "hi", "-u", AGENT)
    assert result.exit_code == 0, result.stderr
    assert "Status message:\n  Which colour?\n\n" in result.stdout
    assert f"continue with:\n  a2a send --task-id t-1 --context-id c-1 -u {AGENT} 'your reply'\n" in result.stderr
    assert "polling" not in result.stderr  # an interrupted state ends the wait at once
    quiet = cli("stream", "hi", "-u", AGENT, "-q")
    assert quiet.exit_code == 0 and "State: input-required" in quiet.stdout
    assert "continue with" not in quiet.stderr and "a2a send" not in quiet.stderr  # -q drops every hint (a warning stays)


def test_stream_timeout_exits_5_with_the_resume_command(cli, agent):
    def body():
        yield sse({"task": task("TASK_STATE_SUBMITTED")})
        time.sleep(0.6)
        yield sse(status("TASK_STATE_WORKING"))

    agent.post(RPC).mock(return_value=httpx.Response(200, headers=SSE, content=body()))
    result = cli("stream", "hi", "-u", AGENT, "--timeout", "0.4")
    assert result.exit_code == 5, result.stderr
    assert "--timeout 0.4s expired" in result.stderr
    assert f"resume with one of:\n  a2a tasks subscribe t-1 --stream -u {AGENT}\n" in result.stderr and "a2a tasks get t-1 --wait" in result.stderr


def test_ctrl_c_during_a_stream_names_the_task_and_how_to_resume(cli, agent):
    def body():
        yield sse({"task": task("TASK_STATE_SUBMITTED")}, status("TASK_STATE_WORKING"))
        raise KeyboardInterrupt

    agent.post(RPC).mock(return_value=httpx.Response(200, headers=SSE, content=body()))
    result = cli("stream", "hi", "-u", AGENT, "--a2a-version", "1.0")
    assert result.exit_code == 130
    assert "interrupted: task t-1 (context c-1) was working" in result.stderr
    assert f"resume with one of:\n  a2a tasks subscribe t-1 --stream -u {AGENT}\n  a2a tasks get t-1 --wait -u {AGENT}\n" in result.stderr  # back into the view


@pytest.mark.spec("A2ACLI_INTERACT_004")
@pytest.mark.parametrize("argv", [["stream", "hi"], ["send", "hi", "--stream"], ["tasks", "subscribe", "t-1", "--stream"], ["tasks", "subscribe", "t-1"]])
def test_the_resume_command_after_ctrl_c_goes_back_into_the_view_that_was_interrupted(cli, agent, argv):
    def body():
        yield sse({"task": task("TASK_STATE_SUBMITTED")}, status("TASK_STATE_WORKING"))
        raise KeyboardInterrupt

    agent.post(RPC).mock(return_value=httpx.Response(200, headers=SSE, content=body()))
    result = cli(*argv, "-u", AGENT, "--a2a-version", "1.0")
    assert result.exit_code == 130, result.stderr
    live = "--stream" in argv or argv[0] == "stream"  # events shown as they came: subscribe with --stream
    assert f"\n  a2a tasks subscribe t-1{' --stream' if live else ''} -u {AGENT}\n" in result.stderr


@pytest.mark.parametrize("argv", [["stream", "hi"], ["tasks", "subscribe", "t-1"]])
def test_expect_state_under_streams(cli, agent, argv):
    agent.post(RPC).respond(content=sse({"task": task("TASK_STATE_WORKING")}, status("TASK_STATE_FAILED", "boom")), headers=SSE)
    bad = cli(*argv, "-u", AGENT, "--expect-state", "completed")
    assert bad.exit_code == 6 and "task t-1 ended failed, expected completed" in bad.stderr
    assert bad.stderr.count("ended failed") == 1  # the error says it: no warning before it (issue 46)
    ok = cli(*argv, "-u", AGENT, "--expect-state", "completed,failed", "-o", "json")
    if argv[0] == "stream":  # JSON Lines: one event a line
        assert ok.exit_code == 0 and len(ok.stdout.splitlines()) == 2
    else:  # subscribe without --stream: one document, the terminal task
        assert ok.exit_code == 0 and json.loads(ok.stdout)["status"]["state"] == "TASK_STATE_FAILED"


# -- waiting ------------------------------------------------------------------------------------------


@pytest.mark.spec("A2ACLI_TASK_POLL_002")
def test_tasks_get_wait_backs_off_and_is_bounded(cli, agent, monkeypatch):
    calls: list[int] = []
    slept: list[float] = []
    monkeypatch.setattr("time.sleep", slept.append)  # the waits asked for, not wall time (no flakes)

    def answer(request):
        calls.append(1)
        return httpx.Response(200, json=rpc_result(COMPLETED if len(calls) == 6 else WORKING))

    agent.post(RPC).mock(side_effect=answer)
    result = cli("tasks", "get", "t-1", "--wait", "--poll-interval", "0.05", "-u", AGENT, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == COMPLETED
    assert len(slept) == 5 and all(later > earlier for earlier, later in zip(slept, slept[1:], strict=False))  # 0.05 * 1.5^n
    assert slept[0] == pytest.approx(0.05)


@pytest.mark.spec("A2ACLI_TASK_GET_001")
def test_history_is_asked_for_on_every_poll_of_a_wait(cli, agent, monkeypatch):
    monkeypatch.setattr("time.sleep", lambda s: None)
    answers = iter([WORKING, WORKING, COMPLETED])
    route = agent.post(RPC).mock(side_effect=lambda request: httpx.Response(200, json=rpc_result(next(answers))))
    result = cli("tasks", "get", "t-1", "--wait", "--history", "1", "-u", AGENT, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert [sent(route, n)["params"] for n in range(3)] == [{"id": "t-1", "historyLength": 1}] * 3


@pytest.mark.spec("A2ACLI_TASK_POLL_002", "A2ACLI_EXIT_001")
def test_tasks_get_wait_timeout_exits_5_and_prints_the_resume_command(cli, agent):
    route = agent.post(RPC).respond(json=rpc_result(WORKING))
    started = time.monotonic()
    result = cli("tasks", "get", "t-1", "--wait", "--poll-interval", "0.1", "--timeout", "0.5", "-u", AGENT)
    assert result.exit_code == 5, result.stderr
    assert time.monotonic() - started < 2.0  # no sleeping past the deadline
    assert route.call_count >= 2
    assert "--timeout 0.5s expired" in result.stderr
    assert "timed out: task t-1 (context c-1) was working" in result.stderr
    assert f"resume with one of:\n  a2a tasks subscribe t-1 -u {AGENT}\n  a2a tasks get t-1 --wait -u {AGENT}\n" in result.stderr


def test_timeout_under_json_keeps_the_error_envelope_on_stdout(cli, agent):
    agent.post(RPC).respond(json=rpc_result(WORKING))
    result = cli("tasks", "get", "t-1", "--wait", "--poll-interval", "0.1", "--timeout", "0.3", "-u", AGENT, "-o", "json")
    assert result.exit_code == 5
    assert json.loads(result.stdout)["error"]["code"] == "A2ACLI_ERR_TIMEOUT"
    assert "resume with one of:\n  a2a tasks subscribe t-1" in result.stderr


@pytest.mark.spec("A2ACLI_TASK_POLL_003", "A2ACLI_INTERACT_004")
@pytest.mark.parametrize(
    "state,what",
    [
        ("TASK_STATE_INPUT_REQUIRED", "input; continue with:\n  a2a send --task-id t-1 --context-id c-1 -u {AGENT} --a2a-version 0.3 'your reply'\n"),
        ("TASK_STATE_AUTH_REQUIRED", "authentication; the Agent Card declares no security scheme"),  # the command: tests/commands/test_auth_required.py
    ],
)
def test_wait_stops_at_once_at_an_interrupted_state(cli, agent, state, what):
    route = agent.post(RPC).mock(side_effect=[httpx.Response(200, json=rpc_result(WORKING)), httpx.Response(200, json=rpc_result(task(state)))])
    result = cli("tasks", "get", "t-1", "--wait", "--poll-interval", "0.05", "-u", AGENT, "--a2a-version", "0.3")
    assert result.exit_code == 0, result.stderr
    assert route.call_count == 2
    assert f"task t-1 is {state[11:].lower().replace('_', '-')}: it needs {what.format(AGENT=AGENT)}" in result.stderr


@pytest.mark.spec("A2ACLI_TASK_POLL_002")
def test_ctrl_c_during_a_wait_names_the_task_and_how_to_resume(cli, agent):
    def answer(request):
        if answer.calls:
            raise KeyboardInterrupt
        answer.calls += 1
        return httpx.Response(200, json=rpc_result({"task": task("TASK_STATE_SUBMITTED")}))

    answer.calls = 0
    agent.post(RPC).mock(side_effect=answer)
    result = cli("send", "hi", "-u", AGENT, "--poll-interval", "0.05")
    assert result.exit_code == 130
    assert "interrupted: task t-1 (context c-1) was submitted" in result.stderr
    assert "resume with one of:\n  a2a tasks subscribe t-1" in result.stderr and "a2a tasks get t-1 --wait" in result.stderr


def test_ctrl_c_before_any_task_just_says_interrupted(cli, agent):
    agent.post(RPC).mock(side_effect=ctrl_c)
    result = cli("tasks", "get", "t-1", "-u", AGENT)
    assert result.exit_code == 130 and result.stderr.strip() == "interrupted"


def test_ctrl_c_before_a_send_is_answered_names_the_message(cli, agent):
    agent.post(RPC).mock(side_effect=ctrl_c)
    result = cli("send", "hi", "--message-id", "m-1", "-u", AGENT)
    assert result.exit_code == 130
    # no context was given: the agent chose it, so no filter of ListTasks finds this message's task
    assert result.stderr == (
        "interrupted before the agent answered: message m-1 was sent; it named no context or task, so no filter finds"
        f" the task it may have started; the agent's newest tasks:\n  a2a tasks list --page-size 5 -u {AGENT}\n"
    )


@pytest.mark.spec("A2ACLI_OUT_006")
def test_send_async_returns_at_once_with_the_ids(cli, agent):
    route = agent.post(RPC).respond(json=rpc_result({"task": task("TASK_STATE_SUBMITTED")}))
    result = cli("send", "hi", "-u", AGENT, "--async", "-o", "json")
    assert result.exit_code == 0 and route.call_count == 1
    assert json.loads(result.stdout)["task"]["id"] == "t-1"


# -- subscribe: the servers' behaviours ----------------------------------------------------------------


@pytest.mark.spec("A2ACLI_TASK_SUBSCRIBE_001")
def test_subscribe_full_stream(cli, agent):
    agent.post(RPC).respond(content=sse({"task": WORKING}, status("TASK_STATE_WORKING", "half"), status("TASK_STATE_COMPLETED")), headers=SSE)
    result = cli("tasks", "subscribe", "t-1", "-u", AGENT)
    assert result.exit_code == 0, result.stderr
    assert "subscribe: full stream: 3 events, live until the task was completed" in result.stderr
    assert result.stdout.startswith("Task: t-1\nContext: c-1\nState: completed\n") and "Event:" not in result.stdout


@pytest.mark.spec("A2ACLI_TASK_SUBSCRIBE_002")
def test_subscribe_snapshot_then_close_is_named_and_polled(cli, agent, no_sleep):
    snapshot = {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "working"}}}  # the vendor's lowercase
    agent.post(RPC, json__method="SubscribeToTask").respond(content=sse(snapshot), headers=SSE)
    agent.post(RPC, json__method="GetTask").respond(json=rpc_result(COMPLETED))
    result = cli("tasks", "subscribe", "t-1", "--stream", "-u", AGENT, "--dialect", "clix", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert "subscribe: snapshot then close" in result.stderr and "polling task t-1" in result.stderr
    assert [json.loads(line) for line in result.stdout.splitlines()] == [snapshot, {"task": COMPLETED}]
    one = cli("tasks", "subscribe", "t-1", "-u", AGENT, "--dialect", "clix", "-o", "json")
    assert json.loads(one.stdout) == COMPLETED  # without --stream: the terminal task alone


def test_subscribe_snapshot_of_a_settled_task(cli, agent):
    agent.post(RPC).respond(content=sse(status("TASK_STATE_COMPLETED")), headers=SSE)
    result = cli("tasks", "subscribe", "t-1", "-u", AGENT)
    assert result.exit_code == 0, result.stderr
    assert "subscribe: one event (a snapshot) of a task that is already completed" in result.stderr


def test_subscribe_answered_with_plain_json(cli, agent):
    agent.post(RPC).respond(json=rpc_result({"task": COMPLETED}))
    result = cli("tasks", "subscribe", "t-1", "-u", AGENT)
    assert result.exit_code == 0, result.stderr
    assert "subscribe: the agent answered with one plain JSON document, not an event stream; the task is completed" in result.stderr
    assert "State: completed" in result.stdout


@pytest.mark.parametrize("version", ["1.0", "0.3"])
@pytest.mark.parametrize("how", ["as a plain JSON answer", "as an SSE event"])
def test_subscribe_to_a_finished_task_shows_it_from_get_task(cli, agent, version, how):
    error = {"code": -32004, "message": "Task t-1 is in terminal state: TASK_STATE_COMPLETED"}
    envelope = {"jsonrpc": "2.0", "id": 1, "error": error}
    refused = httpx.Response(200, json=envelope) if how.startswith("as a plain") else httpx.Response(200, headers=SSE, content=f"data: {json.dumps(envelope)}\n\n".encode())
    done = COMPLETED if version == "1.0" else v0_task("completed")
    agent.post(RPC).mock(side_effect=lambda req: refused if json.loads(req.content)["method"] in ("SubscribeToTask", "tasks/resubscribe") else httpx.Response(200, json=rpc_result(done)))
    result = cli("tasks", "subscribe", "t-1", "-u", AGENT, "--a2a-version", version, "-o", "json", "--expect-state", "completed")
    assert result.exit_code == 0, result.stderr
    assert "subscribe: task t-1 is already finished (completed)" in result.stderr
    assert "UnsupportedOperationError" in result.stderr and how in result.stderr and "showing it from GetTask" in result.stderr
    assert json.loads(result.stdout) == done  # the terminal Task, bare (Appendix B)


def test_subscribe_refused_for_a_running_task_falls_back_to_polling(cli, agent, no_sleep):
    agent.post(RPC, json__method="SubscribeToTask").respond(json={"jsonrpc": "2.0", "id": 1, "error": {"code": -32004, "message": "Streaming is not supported"}})
    agent.post(RPC, json__method="GetTask").mock(side_effect=[httpx.Response(200, json=rpc_result(WORKING)), httpx.Response(200, json=rpc_result(COMPLETED))])
    result = cli("tasks", "subscribe", "t-1", "-u", AGENT)
    assert result.exit_code == 0, result.stderr
    assert "though task t-1 is working; polling it instead" in result.stderr
    assert "State: completed" in result.stdout


def test_subscribe_error_sent_as_an_sse_event(cli, agent):
    envelope = {"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "Task not found"}}
    agent.post(RPC).respond(content=f"event: error\ndata: {json.dumps(envelope)}\n\n".encode(), headers=SSE)
    result = cli("tasks", "subscribe", "t-9", "-u", AGENT)
    assert result.exit_code == 1
    assert "subscribe: the agent refused, as an SSE event" in result.stderr
    assert "TaskNotFoundError: Task not found" in result.stderr


def test_subscribe_unreachable_is_not_polled(cli, agent):
    agent.post(RPC).mock(side_effect=httpx.ConnectError("refused"))
    result = cli("tasks", "subscribe", "t-1", "-u", AGENT)
    assert result.exit_code == 3 and "polling" not in result.stderr


def test_ctrl_c_before_the_first_subscribe_event_still_names_the_task(cli, agent):
    agent.post(RPC).mock(side_effect=ctrl_c)
    result = cli("tasks", "subscribe", "t-1", "-u", AGENT)
    assert result.exit_code == 130
    assert "interrupted: task t-1 (context ?) was unknown" in result.stderr and "a2a tasks subscribe t-1" in result.stderr


# -- the live view end to end -------------------------------------------------------------------------


def test_stream_draws_the_live_view_on_a_terminal(cli, agent):
    agent.post(RPC).respond(content=sse({"task": task("TASK_STATE_SUBMITTED")}, status("TASK_STATE_WORKING", "step 1/1"),
                                        {"artifactUpdate": {"taskId": "t-1", "contextId": "c-1", "lastChunk": True, "artifact": {"artifactId": "a-1", "name": "user", "parts": [{"data": {"id": "user-1"}}]}}},
                                        status("TASK_STATE_COMPLETED")), headers=SSE)
    result = cli("stream", "hi", "-u", AGENT, env={"FORCE_COLOR": "1", "NO_COLOR": None})
    assert result.exit_code == 0, result.stderr
    assert "\x1b[" in result.stdout  # drawn with control sequences, not plain blocks
    text = result.stdout
    assert "step 1/1" in text and '"id": "user-1"' in text and "Summary" in text
    assert "Event: status-update" not in text  # the plain record form is for non-terminals


@pytest.mark.spec("A2ACLI_TASK_POLL_003")
def test_an_unspecified_state_is_neither_terminal_nor_interrupted_so_the_wait_goes_on(cli, agent, monkeypatch):
    monkeypatch.setattr("time.sleep", lambda seconds: None)
    unspecified = task("TASK_STATE_UNSPECIFIED")
    route = agent.post(RPC).mock(side_effect=[httpx.Response(200, json=rpc_result(unspecified))] * 2 + [httpx.Response(200, json=rpc_result(COMPLETED))])
    result = cli("tasks", "get", "t-1", "--wait", "--poll-interval", "0.05", "-u", AGENT, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert route.call_count == 3 and json.loads(result.stdout) == COMPLETED


@pytest.mark.spec("A2ACLI_TASK_POLL_003", "A2ACLI_TASK_POLL_002")
def test_an_unspecified_state_is_polled_until_the_timeout_and_reported_as_received(cli, agent):
    route = agent.post(RPC).respond(json=rpc_result(task("TASK_STATE_UNSPECIFIED")))
    result = cli("tasks", "get", "t-1", "--wait", "--poll-interval", "0.05", "--timeout", "0.4", "-u", AGENT)
    assert result.exit_code == 5, result.stderr
    assert route.call_count >= 2
    assert "task t-1 (context c-1) was unspecified" in result.stderr
