"""pipeline.policies.streaming: a send's wait that follows its task (SubscribeToTask, else polls),
streams consumed up to a settled task, the SubscribeToTask behaviours servers have (a full stream,
a snapshot then close, a plain JSON answer, a refusal for a finished task), re-subscribing with
Last-Event-ID when a stream breaks, and polling when the card claims no streaming. Over respx, the
waits recorded; the view is a recorder of what it was shown."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from a2a_testkit import rpc_result, sse
from pipeline_kit import AGENT, CARD_URL, RPC, rpc_answer, rpc_answers

from a2acli.errors import A2acliError, ConnectionBrokenError, RpcError
from a2acli.pipeline.policies import (
    QUICK_START,
    StreamOutcome,
    follow_stream,
    follow_task,
    poll_instead,
    refuses_finished,
    send_and_wait,
    subscribe_kind,
    until_settled,
)
from a2acli.wire.methods import METHODS

SSE = {"Content-Type": "text/event-stream"}


def task(state: str) -> dict[str, Any]:
    return {"id": "t-1", "contextId": "c-1", "status": {"state": state}}


def status(state: str) -> dict[str, Any]:
    return {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": state}}}


def with_ids(*events: tuple[str, Any]) -> bytes:
    return "".join(f"id: {eid}\ndata: {json.dumps(rpc_result(ev))}\n\n" for eid, ev in events).encode()


def breaking(body: bytes) -> Any:
    def gen() -> Any:
        yield body
        raise httpx.ReadError("connection reset by peer")

    return gen()


def streamed(body: Any) -> httpx.Response:
    return httpx.Response(200, headers=SSE, content=body)


def rpc_error(code: int, message: str) -> httpx.Response:
    return httpx.Response(200, json={"jsonrpc": "2.0", "id": 1, "error": {"code": code, "message": message}})


class View:
    """What a stream's view is shown: each event, the final answer, and the waiting display's looks."""

    def __init__(self) -> None:
        self.events: list[Any] = []
        self.finals: list[Any] = []
        self.looks: list[Any] = []
        self.waiting = SimpleNamespace(update=self.looks.append)

    def event(self, reply: Any) -> None:
        self.events.append(reply.core)

    def final(self, reply: Any) -> None:
        self.finals.append(reply.core)


def card(streaming: bool) -> dict[str, Any]:
    return {
        "name": "t",
        "description": "d",
        "version": "1",
        "supportedInterfaces": [{"url": RPC, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
        "capabilities": {"streaming": streaming},
    }


@pytest.fixture
def agent(mock):
    """The agent's routes by method: `agent.on(method, side_effect)`; `agent.methods()` the
    methods called, in order."""
    calls: list[str] = []
    routes: dict[str, Any] = {}

    def dispatch(request: httpx.Request) -> Any:
        method = json.loads(request.content)["method"]
        calls.append(method)
        answer = routes[method]
        if isinstance(answer, list):
            answer = answer.pop(0) if len(answer) > 1 else answer[0]
        return answer(request) if callable(answer) else answer

    mock.post(RPC).mock(side_effect=dispatch)
    return SimpleNamespace(on=routes.__setitem__, methods=lambda: list(calls), mock=mock)


def working_call(make_call, mock, *, streaming: bool | None = True, state: str = "TASK_STATE_WORKING"):
    """A session that has sent its message and holds the task the agent answered."""
    if streaming is None:
        c = make_call(endpoint=RPC)
    else:
        mock.get(CARD_URL).mock(return_value=httpx.Response(200, json=card(streaming)))
        c = make_call(url=AGENT)
        c.resolve()
    c.tracking.track({"task": task(state)})
    return c


# -- follow_task: a send's wait ---------------------------------------------------------------------


def test_a_followed_task_is_subscribed_to_then_read_once_settled(make_call, mock, agent, recorder, no_sleep):
    agent.on("SubscribeToTask", lambda r: streamed(sse(status("TASK_STATE_WORKING"), status("TASK_STATE_COMPLETED"))))
    agent.on("GetTask", rpc_answer(task("TASK_STATE_COMPLETED")))
    c = working_call(make_call, mock)
    reply = follow_task(c, 2.0)
    assert agent.methods() == ["SubscribeToTask", "GetTask"] and no_sleep == []
    assert reply.core == {"task": task("TASK_STATE_COMPLETED")}
    assert recorder.notes[0] == "task t-1 (context c-1) is working; waiting for it"


def test_a_followed_task_is_polled_when_the_card_claims_no_streaming(make_call, mock, agent, no_sleep):
    agent.on("GetTask", [rpc_answer(task("TASK_STATE_WORKING")), rpc_answer(task("TASK_STATE_COMPLETED"))])
    reply = follow_task(working_call(make_call, mock, streaming=False), 2.0)
    assert agent.methods() == ["GetTask", "GetTask"]
    assert no_sleep == [2.0 * QUICK_START, 2.0 * QUICK_START * 1.5]  # a quick first look
    assert reply.core["task"]["status"]["state"] == "TASK_STATE_COMPLETED"


def test_a_subscription_refused_for_a_finished_task_is_read_without_a_word(make_call, mock, agent, recorder, no_sleep):
    agent.on("SubscribeToTask", rpc_error(-32004, "Task is in a terminal state"))
    agent.on("GetTask", rpc_answer(task("TASK_STATE_COMPLETED")))
    follow_task(working_call(make_call, mock), 2.0)
    assert agent.methods() == ["SubscribeToTask", "GetTask"]
    assert not recorder.saying("failed")


def test_a_subscription_that_fails_is_said_and_the_task_polled(make_call, mock, agent, recorder, no_sleep):
    agent.on("SubscribeToTask", httpx.Response(502, text="bad gateway"))
    agent.on("GetTask", [rpc_answer(task("TASK_STATE_WORKING")), rpc_answer(task("TASK_STATE_COMPLETED"))])
    follow_task(working_call(make_call, mock), 2.0)
    assert agent.methods() == ["SubscribeToTask", "GetTask", "GetTask"]
    (said,) = recorder.saying("subscribing to task t-1 failed")
    assert said.endswith("; polling it instead")


def test_a_stream_that_stops_at_a_question_ends_the_wait(make_call, mock, agent, no_sleep):
    agent.on(
        "SubscribeToTask", lambda r: streamed(sse(status("TASK_STATE_INPUT_REQUIRED"), status("TASK_STATE_WORKING")))
    )
    agent.on("GetTask", rpc_answer(task("TASK_STATE_INPUT_REQUIRED")))
    c = working_call(make_call, mock)
    follow_task(c, 2.0)
    assert c.tracking.task["state"] == "TASK_STATE_INPUT_REQUIRED"  # the event after the question was not read


def test_a_state_a2a_does_not_define_is_waited_for_as_working(make_call, mock, agent, recorder, no_sleep):
    agent.on("GetTask", rpc_answer(task("TASK_STATE_COMPLETED")))
    follow_task(working_call(make_call, mock, streaming=False, state="TASK_STATE_PONDERING"), 2.0)
    assert recorder.warnings == [
        "task t-1: state 'TASK_STATE_PONDERING' is none A2A defines; waited for as a working task (--timeout S bounds the wait)"
    ]


# -- until_settled ----------------------------------------------------------------------------------


def test_until_settled_stops_after_the_settling_reply_and_closes_the_stream(make_call):
    c = make_call(endpoint=RPC)
    closed: list[bool] = []

    def replies() -> Any:
        try:
            for state in ("TASK_STATE_WORKING", "TASK_STATE_COMPLETED", "TASK_STATE_WORKING"):
                c.tracking.track(status(state))
                yield state
        finally:
            closed.append(True)

    assert list(until_settled(c, replies())) == ["TASK_STATE_WORKING", "TASK_STATE_COMPLETED"]
    assert closed == [True]


# -- follow_stream: what the stream did, and what follows -------------------------------------------


def stream_of(c, method: str = "SubscribeToTask") -> Any:
    return c.stream(
        METHODS[method],
        {"id": "t-1"}
        if method == "SubscribeToTask"
        else {"message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "hi"}]}},
    )


def test_a_full_subscription_is_named_and_nothing_is_polled(make_call, mock, agent, recorder, no_sleep):
    agent.on(
        "SubscribeToTask", lambda r: streamed(sse({"task": task("TASK_STATE_WORKING")}, status("TASK_STATE_COMPLETED")))
    )
    c = working_call(make_call, mock, streaming=None)
    view = View()
    follow_stream(c, stream_of(c), view, subscribing=True)
    assert len(view.events) == 2 and view.finals == [] and agent.methods() == ["SubscribeToTask"]
    assert recorder.notes == ["subscribe: full stream: 2 events, live until the task was completed"]


def test_a_snapshot_then_close_is_named_and_the_task_polled(make_call, mock, agent, recorder, no_sleep):
    agent.on("SubscribeToTask", lambda r: streamed(sse({"task": task("TASK_STATE_WORKING")})))
    agent.on("GetTask", rpc_answer(task("TASK_STATE_COMPLETED")))
    c = working_call(make_call, mock, streaming=None)
    view = View()
    follow_stream(c, stream_of(c), view, subscribing=True, interval=1.0)
    assert agent.methods() == ["SubscribeToTask", "GetTask"] and no_sleep == [1.0]
    assert recorder.notes[0].startswith(
        "subscribe: snapshot then close: the agent sent the task's current state and closed the stream"
    )
    assert view.finals == [{"task": task("TASK_STATE_COMPLETED")}]


def test_a_plain_json_answer_to_a_subscription_is_named(make_call, mock, agent, recorder, no_sleep):
    agent.on("SubscribeToTask", rpc_answer({"task": task("TASK_STATE_COMPLETED")}))
    c = working_call(make_call, mock, streaming=None)
    follow_stream(c, stream_of(c), View(), subscribing=True)
    assert recorder.notes == [
        "subscribe: the agent answered with one plain JSON document, not an event stream; the task is completed"
    ]


def test_a_subscription_to_a_finished_task_shows_it_from_get_task(make_call, mock, agent, recorder, no_sleep):
    agent.on("SubscribeToTask", lambda r: streamed(sse(error={"code": -32004, "message": "Task is in terminal state"})))
    agent.on("GetTask", rpc_answer(task("TASK_STATE_COMPLETED")))
    c = working_call(make_call, mock, streaming=None)
    view = View()
    follow_stream(c, stream_of(c), view, subscribing=True)
    assert view.finals == [{"task": task("TASK_STATE_COMPLETED")}]
    (said,) = recorder.notes
    assert said.startswith(
        "subscribe: task t-1 is already finished (completed); the agent does not stream a finished task"
    )
    assert "as an SSE event" in said


def test_a_subscription_refused_otherwise_is_the_error(make_call, mock, agent, recorder, no_sleep):
    agent.on("SubscribeToTask", rpc_error(-32001, "Task not found"))
    c = working_call(make_call, mock, streaming=None)
    with pytest.raises(RpcError):
        follow_stream(c, stream_of(c), View(), subscribing=True)
    assert recorder.notes == ["subscribe: the agent refused, as a plain JSON answer"] and agent.methods() == [
        "SubscribeToTask"
    ]


def test_a_stream_closed_before_the_task_settled_is_polled(make_call, mock, agent, recorder, no_sleep):
    agent.on(
        "SendStreamingMessage",
        lambda r: streamed(sse({"task": task("TASK_STATE_SUBMITTED")}, status("TASK_STATE_WORKING"))),
    )
    agent.on("GetTask", rpc_answer(task("TASK_STATE_COMPLETED")))
    c = make_call(endpoint=RPC)
    view = View()
    follow_stream(c, stream_of(c, "SendStreamingMessage"), view, subscribing=False)
    assert agent.methods() == ["SendStreamingMessage", "GetTask"]
    assert "the agent closed the stream before the task finished; polling task t-1" in recorder.notes
    assert view.finals == [{"task": task("TASK_STATE_COMPLETED")}]


def test_an_error_event_mid_stream_polls_the_task(make_call, mock, agent, recorder, no_sleep):
    body = sse({"task": task("TASK_STATE_WORKING")}, error={"code": -32603, "message": "agent crashed"})
    agent.on("SendStreamingMessage", lambda r: streamed(body))
    agent.on("GetTask", rpc_answer(task("TASK_STATE_FAILED")))
    c = make_call(endpoint=RPC)
    view = View()
    follow_stream(c, stream_of(c, "SendStreamingMessage"), view, subscribing=False)
    assert agent.methods() == ["SendStreamingMessage", "GetTask"]  # no re-subscription: the agent said why
    assert (
        recorder.saying("the stream ended with an error from the agent (")
        and view.finals[0]["task"]["status"]["state"] == "TASK_STATE_FAILED"
    )


def test_an_error_before_any_event_is_the_error(make_call, mock, agent, no_sleep):
    agent.on("SendStreamingMessage", rpc_error(-32602, "Invalid params"))
    c = make_call(endpoint=RPC)
    with pytest.raises(RpcError):
        follow_stream(c, stream_of(c, "SendStreamingMessage"), View(), subscribing=False)
    assert agent.methods() == ["SendStreamingMessage"]


def test_a_broken_stream_is_resumed_with_last_event_id_and_replays_are_dropped(
    make_call, mock, agent, recorder, no_sleep
):
    first = with_ids(("1", {"task": task("TASK_STATE_SUBMITTED")}), ("2", status("TASK_STATE_WORKING")))
    again = with_ids(
        ("1", {"task": task("TASK_STATE_SUBMITTED")}),
        ("2", status("TASK_STATE_WORKING")),
        ("3", status("TASK_STATE_COMPLETED")),
    )
    agent.on("SendStreamingMessage", lambda r: streamed(breaking(first)))
    seen: list[httpx.Request] = []
    agent.on("SubscribeToTask", lambda r: seen.append(r) or streamed(again))
    c = make_call(endpoint=RPC)
    view = View()
    follow_stream(c, stream_of(c, "SendStreamingMessage"), view, subscribing=False)
    assert agent.methods() == ["SendStreamingMessage", "SubscribeToTask"] and no_sleep == [0.5]
    assert seen[0].headers["Last-Event-ID"] == "2"
    assert [next(iter(e)) for e in view.events] == ["task", "statusUpdate", "statusUpdate"]  # each event shown once
    assert (
        recorder.notes[-1]
        == "re-subscribed to task t-1: 1 new event(s), 2 replayed event(s) not shown again, until it was completed"
    )
    assert recorder.saying("re-subscribing to task t-1 (1/2, Last-Event-ID 2)")


def test_resubscribing_gives_up_after_two_tries_and_polls(make_call, mock, agent, recorder, no_sleep):
    agent.on("SendStreamingMessage", lambda r: streamed(breaking(sse({"task": task("TASK_STATE_WORKING")}))))
    agent.on("SubscribeToTask", httpx.Response(503, text="busy"))
    agent.on("GetTask", rpc_answer(task("TASK_STATE_COMPLETED")))
    c = make_call(endpoint=RPC)
    view = View()
    follow_stream(c, stream_of(c, "SendStreamingMessage"), view, subscribing=False, interval=1.0)
    assert agent.methods() == ["SendStreamingMessage", "SubscribeToTask", "SubscribeToTask", "GetTask"]
    assert no_sleep == [0.5, 1.0, 1.0]  # the two re-subscriptions' backoff, then the poll's interval
    assert recorder.saying("re-subscribing to task t-1 failed (") and view.finals


def test_without_follow_a_broken_stream_is_the_error(make_call, mock, agent, no_sleep):
    agent.on("SendStreamingMessage", lambda r: streamed(breaking(sse({"task": task("TASK_STATE_WORKING")}))))
    c = make_call(endpoint=RPC)
    with pytest.raises(ConnectionBrokenError):
        follow_stream(c, stream_of(c, "SendStreamingMessage"), View(), subscribing=False, follow=False)
    assert agent.methods() == ["SendStreamingMessage"]


# -- without streaming: send and wait, poll instead ---------------------------------------------------


def test_send_and_wait_sends_once_then_polls_into_the_view(make_call, mock, agent, no_sleep):
    agent.on("SendMessage", rpc_answer({"task": task("TASK_STATE_WORKING")}))
    agent.on("GetTask", [rpc_answer(task("TASK_STATE_WORKING")), rpc_answer(task("TASK_STATE_COMPLETED"))])
    c = make_call(endpoint=RPC)
    c.sending = {"messageId": "m"}
    view = View()
    send_and_wait(
        c, {"message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "hi"}]}}, view, interval=1.0
    )
    assert agent.methods() == ["SendMessage", "GetTask", "GetTask"]
    assert view.events == [{"task": task("TASK_STATE_WORKING")}] and view.finals == [
        {"task": task("TASK_STATE_COMPLETED")}
    ]
    assert c.sending is None  # answered: a Ctrl-C now names the task


def test_send_and_wait_of_a_direct_answer_polls_nothing(make_call, mock, agent, no_sleep):
    message = {"message": {"messageId": "r", "role": "ROLE_AGENT", "parts": [{"text": "done"}]}}
    agent.on("SendMessage", rpc_answer(message))
    view = View()
    send_and_wait(
        make_call(endpoint=RPC), {"message": {"messageId": "m", "role": "ROLE_USER", "parts": []}}, view, interval=1.0
    )
    assert agent.methods() == ["SendMessage"] and view.events == [message] and view.finals == []


@pytest.mark.parametrize(
    ("answers", "gets", "slept"),
    [
        ([task("TASK_STATE_COMPLETED")], 1, []),  # settled: shown at once
        ([task("TASK_STATE_WORKING"), task("TASK_STATE_COMPLETED")], 2, [1.0]),
    ],
)
def test_poll_instead_shows_the_settled_task_as_the_last_event(make_call, mock, agent, no_sleep, answers, gets, slept):
    agent.on("GetTask", rpc_answers(*answers))
    c = working_call(make_call, mock, streaming=None)
    view = View()
    poll_instead(c, view, interval=1.0)
    assert agent.methods() == ["GetTask"] * gets and no_sleep == slept
    assert view.finals == [{"task": task("TASK_STATE_COMPLETED")}]


# -- the names of what a subscription did ---------------------------------------------------------------


def outcome(events: int, *, sse: bool = True, broken: A2acliError | None = None) -> StreamOutcome:
    o = StreamOutcome()
    o.events, o.sse, o.broken = events, sse, broken
    return o


@pytest.mark.parametrize(
    ("o", "done", "line"),
    [
        (
            outcome(0),
            False,
            "subscribe: the agent closed the stream without sending an event; polling task t-1 until it settles",
        ),
        (
            outcome(3, broken=A2acliError("reset")),
            False,
            "subscribe: the stream broke after 3 event(s) (reset); polling task t-1 until it settles",
        ),
        (
            outcome(1, sse=False),
            True,
            "subscribe: the agent answered with one plain JSON document, not an event stream; the task is completed",
        ),
        (
            outcome(1, sse=False),
            False,
            "subscribe: the agent answered with one plain JSON document, not an event stream; polling task t-1 until it settles",
        ),
        (outcome(1), True, "subscribe: one event (a snapshot) of a task that is already completed"),
        (outcome(4), True, "subscribe: full stream: 4 events, live until the task was completed"),
        (
            outcome(4),
            False,
            "subscribe: the stream closed after 4 events before the task finished; polling task t-1 until it settles",
        ),
    ],
)
def test_subscribe_kind_names_each_server_behaviour(o, done, line):
    call = SimpleNamespace(
        tracking=SimpleNamespace(task={"id": "t-1", "state": "TASK_STATE_COMPLETED" if done else "TASK_STATE_WORKING"})
    )
    assert subscribe_kind(call, o, done) == line


@pytest.mark.parametrize(
    ("code", "message", "finished"),
    [
        (-32004, "Unsupported operation", True),
        (-32602, "Task t-1 is in terminal state: completed", True),  # a2a-sdk 0.3
        (-32002, "Task is in TERMINAL state", True),
        (-32602, "Invalid params", False),
        (-32001, "Task not found (terminal)", False),
        (None, "terminal", False),
    ],
)
def test_refuses_finished_reads_the_code_and_the_words(code, message, finished):
    assert refuses_finished(RpcError(message, a2a_code=code)) is finished


@pytest.mark.parametrize(("content_type", "streaming", "sse"), [
    ("text/event-stream", True, True),
    ("application/grpc", True, True),  # a gRPC server stream is a stream (it said "one plain JSON document")
    ("application/json", False, False),  # a server that answered a subscription with one document
])  # fmt: skip
def test_a_stream_is_told_by_its_exchange_not_by_its_content_type(content_type, streaming, sse):
    from contextlib import nullcontext

    from a2acli.pipeline.policies.streaming import consume

    tracked: list[Any] = []
    call = SimpleNamespace(
        sink=SimpleNamespace(holding=nullcontext), sending="m-1", tracking=SimpleNamespace(track_reply=tracked.append)
    )
    reply = SimpleNamespace(exchange=SimpleNamespace(content_type=content_type, streaming=streaming))
    shown: list[Any] = []
    o = StreamOutcome()
    consume(call, iter([reply, reply]), SimpleNamespace(event=shown.append), o, subscribing=True)
    assert (o.events, o.sse, len(shown), len(tracked), call.sending) == (2, sse, 2, 2, None)
