"""Waiting, polling, streaming fallbacks and capability checks (official CLI spec §7.1-§7.4, §8.2,
§11.3), against respx agents: what the Agent Card claims before a gated call, --force, the
send-and-wait and polling fallbacks, durations and the backoff schedule, Ctrl-C before the
agent answers, TASK_STATE_UNSPECIFIED, and re-subscribing (with Last-Event-ID) after a stream
breaks."""

from __future__ import annotations

import json

import httpx
import pytest
from a2a_testkit import AGENT, RPC, rpc_result, sse, v1_card

from a2acli import settings
from a2acli.errors import UsageError
from a2acli.pipeline.policies import Backoff

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
SSE = {"Content-Type": "text/event-stream"}


def task(state: str, text: str | None = None) -> dict:
    st: dict = {"state": state}
    if text:
        st["message"] = {"messageId": "m", "role": "ROLE_AGENT", "parts": [{"text": text}]}
    return {"id": "t-1", "contextId": "c-1", "status": st}


def status(state: str) -> dict:
    return {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": state}}}


WORKING, COMPLETED = task("TASK_STATE_WORKING"), task("TASK_STATE_COMPLETED")


def card_with(**caps) -> dict:
    """The test card with these capabilities (a value None: the field left out)."""
    card = v1_card()
    card["capabilities"] = {k: v for k, v in {"streaming": True, "pushNotifications": True, "extendedAgentCard": True, **caps}.items() if v is not None}
    return card


def v0_card(**caps) -> dict:
    card = {
        "name": "Test agent",
        "description": "for tests",
        "version": "1.0.0",
        "protocolVersion": "0.3.0",
        "url": RPC,
        "preferredTransport": "JSONRPC",
        "capabilities": {k: v for k, v in caps.items() if v is not None and k != "supportsAuthenticatedExtendedCard"},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [],
    }
    if caps.get("supportsAuthenticatedExtendedCard") is not None:
        card["supportsAuthenticatedExtendedCard"] = caps["supportsAuthenticatedExtendedCard"]
    return card


def method_of(request) -> str:
    return json.loads(request.content)["method"]


# -- VER_003: the card's claim before a gated call -------------------------------------------------

PUSH_COMMANDS = {
    "push-config create": (["push-config", "create", "t-1", "--webhook-url", "http://127.0.0.1:9/hook"], {"taskId": "t-1", "id": "cfg-1", "url": "http://127.0.0.1:9/hook"}),
    "push-config get": (["push-config", "get", "t-1", "cfg-1"], {"taskId": "t-1", "id": "cfg-1", "url": "http://127.0.0.1:9/hook"}),
    "push-config list": (["push-config", "list", "t-1"], {"configs": []}),
    "push-config delete": (["push-config", "delete", "t-1", "cfg-1"], {}),
}
EXTENDED_COMMANDS = {"card extended": ["card", "extended"], "card fetch --extended": ["card", "fetch", "--extended"]}


@pytest.mark.spec("A2ACLI_VER_003")
@pytest.mark.parametrize("value,said", [(False, "the card says capabilities.pushNotifications is false"), (None, "the card does not set capabilities.pushNotifications")])
@pytest.mark.parametrize("name", list(PUSH_COMMANDS))
def test_push_config_is_refused_when_the_card_does_not_claim_push(cli, respx_mock, name, value, said):
    respx_mock.get(CARD_URL).respond(json=card_with(pushNotifications=value))
    route = respx_mock.post(RPC).respond(json=rpc_result({}))
    argv, _ = PUSH_COMMANDS[name]
    result = cli(*argv, "-u", AGENT)
    assert result.exit_code == 1, result.stderr
    assert "error: the agent does not offer push notifications: " + said in result.stderr
    assert f"hint: {said}" in result.stderr and "; --force sends anyway" in result.stderr
    assert route.call_count == 0  # nothing was sent


@pytest.mark.spec("A2ACLI_VER_003")
def test_a_refusal_is_machine_readable_under_json(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=card_with(pushNotifications=False))
    result = cli("push-config", "list", "t-1", "-u", AGENT, "-o", "json")
    assert result.exit_code == 1
    error = json.loads(result.stdout)["error"]
    assert error["hint"] == "the card says capabilities.pushNotifications is false; --force sends anyway"


@pytest.mark.spec("A2ACLI_VER_003")
@pytest.mark.parametrize("name", list(PUSH_COMMANDS))
@pytest.mark.parametrize("how", ["--force", "claimed"])
def test_push_config_is_sent_when_claimed_or_forced(cli, respx_mock, name, how):
    respx_mock.get(CARD_URL).respond(json=card_with(pushNotifications=how != "--force"))
    argv, answer = PUSH_COMMANDS[name]
    route = respx_mock.post(RPC).respond(json=rpc_result(answer))
    result = cli(*argv, "-u", AGENT, *([how] if how == "--force" else []))
    assert result.exit_code == 0, result.stderr
    assert route.call_count == 1
    assert ("--force: calling" in result.stderr) is (how == "--force")


@pytest.mark.spec("A2ACLI_VER_003")
@pytest.mark.parametrize("name", list(EXTENDED_COMMANDS))
@pytest.mark.parametrize("value", [False, None])
def test_extended_card_is_refused_unless_claimed(cli, respx_mock, name, value):
    respx_mock.get(CARD_URL).respond(json=card_with(extendedAgentCard=value))
    route = respx_mock.post(RPC).respond(json=rpc_result(v1_card()))
    refused = cli(*EXTENDED_COMMANDS[name], "-u", AGENT)
    assert refused.exit_code == 1 and route.call_count == 0
    assert "the agent does not offer an extended Agent Card" in refused.stderr and "capabilities.extendedAgentCard" in refused.stderr
    forced = cli(*EXTENDED_COMMANDS[name], "-u", AGENT, "--force")
    assert forced.exit_code == 0, forced.stderr
    assert route.call_count == 1


@pytest.mark.spec("A2ACLI_VER_003")
def test_a_v0_card_is_quoted_in_its_own_words(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v0_card(streaming=True, supportsAuthenticatedExtendedCard=False))
    result = cli("card", "extended", "-u", AGENT, "--a2a-version", "0.3")
    assert result.exit_code == 1
    assert "hint: the card says supportsAuthenticatedExtendedCard is false; --force sends anyway" in result.stderr


@pytest.mark.spec("A2ACLI_VER_003")
def test_with_endpoint_no_card_is_read_and_nothing_is_checked(cli, respx_mock):
    route = respx_mock.post(RPC).respond(json=rpc_result({"configs": []}))
    result = cli("push-config", "list", "t-1", "--endpoint", RPC)
    assert result.exit_code == 0, result.stderr
    assert route.call_count == 1


@pytest.mark.spec("A2ACLI_VER_003", "A2ACLI_SEND_003")
@pytest.mark.parametrize("argv", [["stream", "hi"], ["send", "hi", "--stream"]])
@pytest.mark.parametrize("card,said", [
    (card_with(streaming=False), "the card says capabilities.streaming is false"),
    (card_with(streaming=None), "the card does not set capabilities.streaming (so does not claim it)"),
    (v0_card(), "the card does not set capabilities.streaming (so does not claim it)"),  # 0.3: absent is not a claim either
])
def test_stream_falls_back_to_send_and_wait_when_streaming_is_not_claimed(cli, respx_mock, no_sleep, argv, card, said):
    respx_mock.get(CARD_URL).respond(json=card)
    v0 = "url" in card
    answers = {"SendMessage": {"task": task("TASK_STATE_WORKING")}, "GetTask": COMPLETED}
    if v0:
        answers = {"message/send": {"kind": "task", **task("working")}, "tasks/get": {"kind": "task", **task("completed")}}
    route = respx_mock.post(RPC).mock(side_effect=lambda req: httpx.Response(200, json=rpc_result(answers[method_of(req)])))
    result = cli(*argv, "-u", AGENT, "-o", "json", "--expect-state", "completed", *(["--a2a-version", "0.3"] if v0 else []))
    assert result.exit_code == 0, result.stderr
    assert f"{said}: sending the message with SendMessage and polling its task instead of streaming (--force streams anyway)" in result.stderr
    assert [method_of(c.request) for c in route.calls] == (["message/send", "tasks/get"] if v0 else ["SendMessage", "GetTask"])
    lines = [json.loads(line) for line in result.stdout.splitlines()]  # still valid JSON Lines
    assert lines[-1] == ({"kind": "task", **task("completed")} if v0 else {"task": COMPLETED})
    sent = json.loads(route.calls[0].request.content)["params"]
    assert "returnImmediately" not in json.dumps(sent) and sent.get("configuration", {}).get("blocking", True) is not False  # a blocking send


@pytest.mark.spec("A2ACLI_VER_003")
def test_force_streams_though_the_card_says_no(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=card_with(streaming=False))
    route = respx_mock.post(RPC, json__method="SendStreamingMessage").respond(content=sse({"task": WORKING}, status("TASK_STATE_COMPLETED")), headers=SSE)
    result = cli("stream", "hi", "-u", AGENT, "--force", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert route.call_count == 1 and "--force: calling SendStreamingMessage anyway" in result.stderr
    assert len(result.stdout.splitlines()) == 2


@pytest.mark.spec("A2ACLI_VER_003")
def test_streaming_claimed_streams(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=card_with(streaming=True))
    route = respx_mock.post(RPC, json__method="SendStreamingMessage").respond(content=sse({"task": WORKING}, status("TASK_STATE_COMPLETED")), headers=SSE)
    result = cli("send", "hi", "--stream", "-u", AGENT)
    assert result.exit_code == 0, result.stderr
    assert route.call_count == 1 and "the card" not in result.stderr


@pytest.mark.spec("A2ACLI_VER_003")
@pytest.mark.parametrize("value", [False, None])
def test_subscribe_polls_when_streaming_is_not_claimed(cli, respx_mock, no_sleep, value):
    respx_mock.get(CARD_URL).respond(json=card_with(streaming=value))
    route = respx_mock.post(RPC, json__method="GetTask").mock(side_effect=[httpx.Response(200, json=rpc_result(WORKING)), httpx.Response(200, json=rpc_result(COMPLETED))])
    result = cli("tasks", "subscribe", "t-1", "-u", AGENT, "--poll-interval", "200ms", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert "capabilities.streaming" in result.stderr and "polling task t-1 instead of subscribing (--force subscribes anyway)" in result.stderr
    assert route.call_count == 2 and no_sleep == [pytest.approx(0.2)]
    assert json.loads(result.stdout) == COMPLETED  # without --stream: one document, the terminal Task


# -- SEND_003: --stream and answers that are not a task stream --------------------------------------


@pytest.mark.spec("A2ACLI_SEND_003")
@pytest.mark.parametrize("how", ["sse", "plain json"])
def test_stream_with_a_message_only_answer_exits_0(cli, respx_mock, how):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    message = {"message": {"messageId": "r-1", "contextId": "c-1", "role": "ROLE_AGENT", "parts": [{"text": "hello back"}]}}
    if how == "sse":
        respx_mock.post(RPC).respond(content=sse(message), headers=SSE)
    else:
        respx_mock.post(RPC).respond(json=rpc_result(message))
    result = cli("send", "hi", "--stream", "-u", AGENT, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert [json.loads(line) for line in result.stdout.splitlines()] == [message]
    assert "error" not in result.stderr


@pytest.mark.spec("A2ACLI_SEND_003")
def test_a_server_that_answers_a_stream_with_plain_json_does_not_hang(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    respx_mock.post(RPC).respond(json=rpc_result({"task": COMPLETED}))
    result = cli("stream", "hi", "-u", AGENT, "--timeout", "5s")
    assert result.exit_code == 0, result.stderr
    assert "Task: t-1" in result.stdout and "State: completed" in result.stdout


# -- TASK_POLL_002: durations, backoff, Ctrl-C ----------------------------------------------------------


@pytest.mark.spec("A2ACLI_TASK_POLL_002")
@pytest.mark.parametrize("text,seconds", [("2", 2.0), ("2s", 2.0), ("0.5", 0.5), ("500ms", 0.5), ("1m", 60.0), ("1m30s", 90.0), ("1h", 3600.0), (" 2S ", 2.0), (".5s", 0.5)])
def test_durations(text, seconds):
    assert settings.parse_duration(text) == pytest.approx(seconds)
    assert settings.parse_timeout(text) == pytest.approx(seconds)


@pytest.mark.spec("A2ACLI_TASK_POLL_002")
@pytest.mark.parametrize("text", ["2x", "s", "ms", "-1", "1 m", "nan", "inf", "1e9", "true", "2s3"])
def test_not_durations(text):
    with pytest.raises(UsageError):
        settings.parse_timeout(text)


@pytest.mark.spec("A2ACLI_TASK_POLL_002")
def test_backoff_grows_to_a_cap_never_below_the_interval_and_restarts_on_change():
    b = Backoff(1.0)
    assert [b.next() for _ in range(7)] == [1.0, 1.5, 2.25, 3.375, 5.0, 5.0, 5.0]
    b.reset()
    assert b.next() == 1.0
    slow = Backoff(10.0)  # an interval above the cap is kept as it is
    assert [slow.next() for _ in range(3)] == [10.0, 10.0, 10.0]
    assert Backoff(0.0).next() == 0.05  # never a busy loop


@pytest.mark.spec("A2ACLI_TASK_POLL_002")
def test_wait_backs_off_and_starts_again_when_the_task_moves(cli, respx_mock, no_sleep):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    answers = [task("TASK_STATE_WORKING", "a")] * 4 + [task("TASK_STATE_WORKING", "b")] * 2 + [COMPLETED]
    respx_mock.post(RPC).mock(side_effect=[httpx.Response(200, json=rpc_result(a)) for a in answers])
    result = cli("tasks", "get", "t-1", "--wait", "--poll-interval", "2s", "-u", AGENT, "-o", "json")
    assert result.exit_code == 0, result.stderr
    # polls 2..7: 2, 3, 4.5 (unchanged), 5 (cap) -> the status moved: 2 again, then 3
    assert no_sleep == [2.0, 3.0, 4.5, 5.0, 2.0, 3.0]


@pytest.mark.spec("A2ACLI_TASK_POLL_002")
@pytest.mark.parametrize("value", ["2x", "10ms", "0"])
@pytest.mark.parametrize("argv", [["tasks", "get", "t-1", "--wait"], ["send", "hi"], ["stream", "hi"], ["tasks", "subscribe", "t-1"]])
def test_a_bad_poll_interval_is_a_usage_error(cli, argv, value):
    result = cli(*argv, "--poll-interval", value, "-u", AGENT)
    assert result.exit_code == 2
    assert f"--poll-interval {value!r} is not a duration" in result.stderr


@pytest.mark.spec("A2ACLI_TASK_POLL_002")
def test_timeout_takes_a_duration(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    respx_mock.post(RPC).respond(json=rpc_result(WORKING))
    result = cli("tasks", "get", "t-1", "--wait", "--poll-interval", "100ms", "--timeout", "300ms", "-u", AGENT)
    assert result.exit_code == 5
    assert "--timeout 0.3s expired" in result.stderr and "a2a tasks get t-1 --wait" in result.stderr
    bad = cli("tasks", "get", "t-1", "--timeout", "soon", "-u", AGENT)
    assert bad.exit_code == 2 and "--timeout 'soon' is not a duration" in bad.stderr


def ctrl_c(request):
    raise KeyboardInterrupt  # the user pressed Ctrl-C while this request was in flight


@pytest.mark.spec("A2ACLI_TASK_POLL_002", "A2ACLI_INTERACT_004")
@pytest.mark.parametrize("argv", [["send", "hi"], ["stream", "hi"]])
@pytest.mark.parametrize("ids,found", [
    (["--context-id", "c-9"], "a2a tasks list --context-id c-9 -u http://agent.test"),
    (["--context-id", "c-9", "--task-id", "t-9"], "a2a tasks get t-9 -u http://agent.test"),
])
def test_ctrl_c_before_the_answer_names_the_message_and_how_to_find_its_task(cli, respx_mock, argv, ids, found):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    respx_mock.post(RPC).mock(side_effect=ctrl_c)
    result = cli(*argv, "--message-id", "m-7", *ids, "-u", AGENT)
    assert result.exit_code == 130
    known = {("--context-id", "c-9"): " (context c-9)", ("--context-id", "c-9", "--task-id", "t-9"): " (context c-9, task t-9)"}[tuple(ids)]
    assert f"interrupted before the agent answered: message m-7{known} was sent; if the agent started a task, find it with:\n  {found}\n" in result.stderr


@pytest.mark.spec("A2ACLI_TASK_POLL_002")
def test_timeout_before_the_answer_names_the_message_too(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    respx_mock.post(RPC).mock(side_effect=httpx.ReadTimeout("slow"))
    result = cli("send", "hi", "--message-id", "m-7", "--timeout", "1m", "-u", AGENT)
    assert result.exit_code == 5
    assert "timed out before the agent answered: message m-7 was sent" in result.stderr and "a2a tasks list" in result.stderr


# -- TASK_POLL_003: UNSPECIFIED is neither terminal nor interrupted -------------------------------------


@pytest.mark.spec("A2ACLI_TASK_POLL_003")
@pytest.mark.parametrize("version,unspecified,done", [("1.0", "TASK_STATE_UNSPECIFIED", "TASK_STATE_COMPLETED"), ("0.3", "unknown", "completed")])
def test_unspecified_keeps_the_wait_going(cli, respx_mock, no_sleep, version, unspecified, done):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    shape = (lambda s: task(s)) if version == "1.0" else (lambda s: {"kind": "task", **task(s)})
    route = respx_mock.post(RPC).mock(side_effect=[httpx.Response(200, json=rpc_result(shape(s))) for s in (unspecified, unspecified, unspecified, done)])
    result = cli("tasks", "get", "t-1", "--wait", "--poll-interval", "50ms", "-u", AGENT, "--a2a-version", version, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert route.call_count == 4 and len(no_sleep) == 3
    assert json.loads(result.stdout) == shape(done)


@pytest.mark.spec("A2ACLI_TASK_POLL_003")
def test_unspecified_is_reported_as_received_and_bounded_by_timeout(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    respx_mock.post(RPC).respond(json=rpc_result(task("TASK_STATE_UNSPECIFIED")))
    result = cli("tasks", "get", "t-1", "--wait", "--poll-interval", "50ms", "--timeout", "0.3", "-u", AGENT)
    assert result.exit_code == 5
    assert "timed out: task t-1 (context c-1) was unspecified" in result.stderr


@pytest.mark.spec("A2ACLI_TASK_POLL_003")
@pytest.mark.parametrize("state", ["TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"])
def test_an_interrupted_state_stops_the_wait_at_once(cli, respx_mock, no_sleep, state):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    route = respx_mock.post(RPC).mock(side_effect=[httpx.Response(200, json=rpc_result(WORKING)), httpx.Response(200, json=rpc_result(task(state)))])
    result = cli("tasks", "get", "t-1", "--wait", "-u", AGENT)
    assert result.exit_code == 0, result.stderr
    assert route.call_count == 2 and no_sleep == [2.0]  # the default --poll-interval, 2s


# -- TASK_SUBSCRIBE_002 / TASK_POLL_004: a stream that breaks ------------------------------------------


def with_ids(*events: tuple[str, dict], error: dict | None = None) -> bytes:
    """An SSE body whose events carry `id:` lines."""
    out = "".join(f"id: {eid}\ndata: {json.dumps(rpc_result(ev))}\n\n" for eid, ev in events)
    if error:
        out += f"event: error\ndata: {json.dumps({'jsonrpc': '2.0', 'id': 1, 'error': error})}\n\n"
    return out.encode()


def breaking(body: bytes):
    def gen():
        yield body
        raise httpx.ReadError("connection reset by peer")

    return gen()


@pytest.mark.spec("A2ACLI_TASK_SUBSCRIBE_002")
@pytest.mark.parametrize("argv", [["stream", "hi"], ["send", "hi", "--stream"], ["tasks", "subscribe", "t-1", "--stream"]])
def test_a_broken_stream_is_resumed_with_last_event_id_and_replays_are_not_shown_again(cli, respx_mock, no_sleep, argv):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    first = with_ids(("1", {"task": task("TASK_STATE_SUBMITTED")}), ("2", status("TASK_STATE_WORKING")))
    resumed = with_ids(("1", {"task": task("TASK_STATE_SUBMITTED")}), ("2", status("TASK_STATE_WORKING")), ("3", status("TASK_STATE_COMPLETED")))  # a server that replays
    calls: list[httpx.Request] = []

    def answer(request):
        calls.append(request)
        if len(calls) == 1:
            return httpx.Response(200, headers=SSE, content=breaking(first))
        return httpx.Response(200, headers=SSE, content=resumed)

    respx_mock.post(RPC).mock(side_effect=answer)
    result = cli(*argv, "-u", AGENT, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert [method_of(r) for r in calls][1:] == ["SubscribeToTask"]  # no GetTask: the re-subscription carried the task
    assert calls[1].headers["Last-Event-ID"] == "2" and json.loads(calls[1].content)["params"] == {"id": "t-1"}
    assert "Last-Event-ID" not in calls[0].headers
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines == [{"task": task("TASK_STATE_SUBMITTED")}, status("TASK_STATE_WORKING"), status("TASK_STATE_COMPLETED")]
    assert "the stream broke (the connection to http://agent.test/rpc broke before the answer was complete (connection reset by peer)); re-subscribing to task t-1 (1/2, Last-Event-ID 2)" in result.stderr
    assert "re-subscribed to task t-1: 3 new event(s), 2 replayed event(s) not shown again, until it was completed" not in result.stderr
    assert "re-subscribed to task t-1: 1 new event(s), 2 replayed event(s) not shown again, until it was completed" in result.stderr


@pytest.mark.spec("A2ACLI_TASK_SUBSCRIBE_002")
def test_a_stream_that_ends_in_the_middle_of_an_event_is_resumed_not_cut_short_silently(cli, respx_mock, no_sleep, tmp_path):
    """The agent closes the stream halfway through its last event: the SSE standard drops that
    event, so a2a would say nothing and poll; it says what was cut and re-subscribes."""
    respx_mock.get(CARD_URL).respond(json=v1_card())
    first = with_ids(("1", {"task": task("TASK_STATE_SUBMITTED")})) + b'id: 2\ndata: {"jsonrpc": "2.0", "id": 1, "res'
    respx_mock.post(RPC, json__method="SendStreamingMessage").respond(headers=SSE, content=first)
    sub = respx_mock.post(RPC, json__method="SubscribeToTask").respond(content=sse(status("TASK_STATE_COMPLETED")), headers=SSE)
    result = cli("stream", "hi", "-u", AGENT, "-o", "json", "--dump", str(tmp_path / "d"))
    assert result.exit_code == 0, result.stderr
    assert sub.call_count == 1 and sub.calls[0].request.headers["Last-Event-ID"] == "1"
    assert "the stream broke (the stream from http://agent.test/rpc ended in the middle of an event (44 bytes after the last whole one)); re-subscribing to task t-1 (1/2, Last-Event-ID 1)" in result.stderr
    assert [json.loads(line) for line in result.stdout.splitlines()] == [{"task": task("TASK_STATE_SUBMITTED")}, status("TASK_STATE_COMPLETED")]
    index = [json.loads(line) for line in (tmp_path / "d" / "index.jsonl").read_text().splitlines()]
    streamed = next(e for e in index if e["method"] == "SendStreamingMessage")
    assert streamed["events"] == 1 and "ended in the middle of an event (44 bytes" in streamed["error"]  # the dump says so too
    assert (tmp_path / "d" / f"{streamed['files']}.response.body").read_bytes() == first  # and keeps every byte that came


def test_a_stream_cut_in_its_first_event_is_an_error(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    respx_mock.post(RPC).respond(headers=SSE, content=b'data: {"jsonrpc"')
    result = cli("stream", "hi", "-u", AGENT)
    assert result.exit_code == 1 and result.stdout == ""
    assert "error: the stream from http://agent.test/rpc ended in the middle of an event (16 bytes after the last whole one)" in result.stderr


@pytest.mark.spec("A2ACLI_TASK_SUBSCRIBE_002")
def test_without_event_ids_the_resubscription_starts_with_the_task(cli, respx_mock, no_sleep):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    respx_mock.post(RPC, json__method="SendStreamingMessage").mock(return_value=httpx.Response(200, headers=SSE, content=breaking(sse({"task": task("TASK_STATE_SUBMITTED")}))))
    sub = respx_mock.post(RPC, json__method="SubscribeToTask").respond(content=sse({"task": WORKING}, status("TASK_STATE_COMPLETED")), headers=SSE)
    result = cli("stream", "hi", "-u", AGENT, "-o", "json", "--expect-state", "completed")
    assert result.exit_code == 0, result.stderr
    assert "Last-Event-ID" not in sub.calls[0].request.headers
    assert "re-subscribing to task t-1 (1/2)" in result.stderr and "re-subscribed to task t-1: 2 new event(s), until it was completed" in result.stderr
    assert len(result.stdout.splitlines()) == 3
    assert no_sleep == [0.5]  # the short wait before the re-subscription


@pytest.mark.spec("A2ACLI_TASK_SUBSCRIBE_002", "A2ACLI_TASK_POLL_004")
def test_when_resubscribing_fails_the_task_is_polled(cli, respx_mock, no_sleep):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    respx_mock.post(RPC, json__method="SendStreamingMessage").mock(return_value=httpx.Response(200, headers=SSE, content=breaking(sse({"task": task("TASK_STATE_SUBMITTED")}))))
    sub = respx_mock.post(RPC, json__method="SubscribeToTask").mock(side_effect=httpx.ConnectError("refused"))
    poll = respx_mock.post(RPC, json__method="GetTask").mock(side_effect=[httpx.Response(200, json=rpc_result(WORKING)), httpx.Response(200, json=rpc_result(COMPLETED))])
    result = cli("stream", "hi", "-u", AGENT, "-o", "json", "--poll-interval", "0.2")
    assert result.exit_code == 0, result.stderr
    assert sub.call_count == 2 and poll.call_count == 2
    assert "re-subscribing to task t-1 (2/2)" in result.stderr
    assert "re-subscribing to task t-1 failed (" in result.stderr and "); polling task t-1" in result.stderr
    assert json.loads(result.stdout.splitlines()[-1]) == {"task": COMPLETED}
    assert no_sleep == pytest.approx([0.5, 1.0, 0.2, 0.3])  # two re-subscription waits, then the poll interval, backing off


@pytest.mark.spec("A2ACLI_TASK_POLL_004")
def test_an_error_event_mid_stream_falls_back_to_polling(cli, respx_mock, no_sleep):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    respx_mock.post(RPC, json__method="SendStreamingMessage").respond(
        content=sse({"task": task("TASK_STATE_SUBMITTED")}, status("TASK_STATE_WORKING"), error={"code": -32603, "message": "worker lost"}), headers=SSE
    )
    poll = respx_mock.post(RPC, json__method="GetTask").respond(json=rpc_result(COMPLETED))
    result = cli("stream", "hi", "-u", AGENT, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert "the stream ended with an error from the agent (" in result.stderr and "worker lost" in result.stderr and "polling task t-1" in result.stderr
    assert poll.call_count == 1
    assert json.loads(result.stdout.splitlines()[-1]) == {"task": COMPLETED}


@pytest.mark.spec("A2ACLI_TASK_POLL_004")
def test_a_stream_that_closes_early_is_polled_to_the_end(cli, respx_mock, no_sleep):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    respx_mock.post(RPC, json__method="SendStreamingMessage").respond(content=sse({"task": task("TASK_STATE_SUBMITTED")}), headers=SSE)
    poll = respx_mock.post(RPC, json__method="GetTask").mock(side_effect=[httpx.Response(200, json=rpc_result(task(s))) for s in ("TASK_STATE_WORKING", "TASK_STATE_INPUT_REQUIRED")])
    result = cli("stream", "hi", "-u", AGENT, "--poll-interval", "0.5")
    assert result.exit_code == 0, result.stderr
    assert poll.call_count == 2 and no_sleep == [0.5, 0.75]
    assert "needs input; continue with:" in result.stderr


@pytest.mark.spec("A2ACLI_TASK_SUBSCRIBE_002")
def test_replays_are_told_by_their_ids_counted_as_often_as_they_came():
    from a2acli.pipeline.tracking import EventIds

    ids = EventIds()
    assert [ids.fresh(i) for i in ("1", "1", "3")] == [True, True, True]  # the 2nd event had no id line: it keeps "1"
    assert ids.last == "3"
    ids.resume()  # a server that replays everything, then goes on
    assert [ids.fresh(i) for i in ("1", "1", "3", "3", "5")] == [False, False, False, True, True]
    assert ids.skipped == 3 and ids.last == "5"


@pytest.mark.spec("A2ACLI_VER_003")
def test_a_card_with_both_spellings_is_judged_and_quoted_by_its_1_0_field(cli, respx_mock):
    card = card_with(extendedAgentCard=False)
    card["supportsAuthenticatedExtendedCard"] = True  # the 0.3 field a hybrid card keeps
    respx_mock.get(CARD_URL).respond(json=card)
    result = cli("card", "extended", "-u", AGENT)
    assert result.exit_code == 1
    assert "hint: the card says capabilities.extendedAgentCard is false; --force sends anyway" in result.stderr


@pytest.mark.spec("A2ACLI_VER_003")
@pytest.mark.parametrize("argv", [["send", "hi"], ["stream", "hi"]])
def test_push_url_to_an_agent_that_does_not_claim_push_is_warned_and_sent(cli, respx_mock, argv):
    respx_mock.get(CARD_URL).respond(json=card_with(pushNotifications=False))
    route = respx_mock.post(RPC).mock(side_effect=lambda req: httpx.Response(200, json=rpc_result({"task": COMPLETED})))
    result = cli(*argv, "--push-url", "http://127.0.0.1:9/hook", "-u", AGENT)
    assert result.exit_code == 0, result.stderr
    assert route.call_count == 1
    assert "warning: --push-url: the card says capabilities.pushNotifications is false; the agent may refuse the message or never call the webhook" in result.stderr
