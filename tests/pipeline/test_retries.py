"""session.retry_delay and Call's unary retries, over respx with the waits recorded: retried only
as asked (`a2a send --retry N` always sends an idempotency key with them), on transport failures,
HTTP 5xx, 409 and 429, the same request each time; never a second send otherwise."""

from __future__ import annotations

import json
from types import SimpleNamespace

import httpx
import pytest
from pipeline_kit import RPC, rpc_answer, sent

from a2acli.errors import A2acliError, HttpError, RpcError, TimeoutExpired, UnreachableError
from a2acli.pipeline.session import retry_delay
from a2acli.wire.methods import METHODS

TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}
MESSAGE = {"message": {"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "hi"}]}}
KEY = {"Idempotency-Key": "k-1"}


def answered(status: int, **headers: str) -> SimpleNamespace:
    """An exchange as retry_delay reads it: its status and a header look-up."""
    low = {k.lower(): v for k, v in headers.items()}
    return SimpleNamespace(status=status, header=lambda name: low.get(name.lower()))


# -- retry_delay ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("attempt", "delay"), [(0, 0.5), (1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0), (5, 8.0), (12, 8.0)])
def test_retry_delay_doubles_from_half_a_second_up_to_eight(attempt, delay):
    assert retry_delay(attempt) == delay


@pytest.mark.parametrize(
    ("attempt", "retry_after", "delay"),
    [
        (0, "3", 3.0),  # longer than the backoff: the agent's word
        (3, "3", 4.0),  # shorter: the backoff
        (0, "120", 60.0),  # capped
        (0, "0", 0.5),
        (0, " 7 ", 7.0),
        (0, "Wed, 21 Oct 2026 07:28:00 GMT", 0.5),  # an HTTP date is not read
        (0, "-5", 0.5),
        (0, "2.5", 0.5),  # delta-seconds are whole
    ],
)
def test_retry_delay_honours_retry_after_seconds(attempt, retry_after, delay):
    assert retry_delay(attempt, answered(503, **{"Retry-After": retry_after})) == delay


def test_retry_delay_without_an_answer_ignores_the_header():
    assert retry_delay(1, answered(0, **{"Retry-After": "30"})) == 1.0  # no status: a transport failure
    assert retry_delay(1, None) == 1.0


# -- Call's unary retries ------------------------------------------------------------------------------


def unavailable(status: int = 503, **headers: str) -> httpx.Response:
    return httpx.Response(status, headers=headers, text="busy")


@pytest.mark.parametrize("status", [500, 502, 503, 504, 409, 429])
def test_a_retried_call_goes_again_after_a_5xx_409_or_429(mock, make_call, recorder, no_sleep, status):
    rpc = mock.post(RPC).mock(side_effect=[unavailable(status), unavailable(status), rpc_answer(TASK)])
    reply = make_call(endpoint=RPC).unary(METHODS["GetTask"], {"id": "t-1"}, retries=2)
    assert reply.core["id"] == "t-1" and rpc.call_count == 3
    assert no_sleep == [0.5, 1.0]
    assert [n.split(": ")[0] for n in recorder.notes if n.startswith("retry ")] == [
        "retry 1/2 in 0.5s",
        "retry 2/2 in 1s",
    ]


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422])
def test_an_answer_that_would_not_change_is_not_retried(mock, make_call, no_sleep, status):
    rpc = mock.post(RPC).mock(return_value=httpx.Response(status, text="no"))
    with pytest.raises(A2acliError):
        make_call(endpoint=RPC).unary(METHODS["GetTask"], {"id": "t-1"}, retries=3)
    assert rpc.call_count == 1 and no_sleep == []


def test_an_a2a_error_is_not_retried(mock, make_call, no_sleep):
    rpc = mock.post(RPC).mock(
        side_effect=lambda r: httpx.Response(
            200, json={"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "Task not found"}}
        )
    )
    with pytest.raises(RpcError):
        make_call(endpoint=RPC).unary(METHODS["GetTask"], {"id": "t-1"}, retries=3)
    assert rpc.call_count == 1


def test_the_retries_run_out_and_the_last_failure_stands(mock, make_call, no_sleep):
    rpc = mock.post(RPC).mock(return_value=unavailable(503))
    with pytest.raises(HttpError) as failed:
        make_call(endpoint=RPC).unary(METHODS["GetTask"], {"id": "t-1"}, retries=2)
    assert rpc.call_count == 3 and no_sleep == [0.5, 1.0]
    assert failed.value.wire_code == 503  # the agent's answer, read as any other


def test_an_unreachable_agent_is_tried_again(mock, make_call, recorder, no_sleep):
    rpc = mock.post(RPC).mock(side_effect=[httpx.ConnectError("refused"), rpc_answer(TASK)])
    make_call(endpoint=RPC).unary(METHODS["GetTask"], {"id": "t-1"}, retries=1)
    assert rpc.call_count == 2
    assert recorder.saying("retry 1/1 in 0.5s: ")


def test_an_unreachable_agent_without_retries_fails_at_once(mock, make_call, no_sleep):
    rpc = mock.post(RPC).mock(side_effect=httpx.ConnectError("refused"))
    with pytest.raises(UnreachableError):
        make_call(endpoint=RPC).unary(METHODS["GetTask"], {"id": "t-1"})
    assert rpc.call_count == 1 and no_sleep == []


def test_retry_after_sets_the_wait(mock, make_call, recorder, no_sleep):
    mock.post(RPC).mock(side_effect=[unavailable(429, **{"Retry-After": "4"}), rpc_answer(TASK)])
    make_call(endpoint=RPC).unary(METHODS["GetTask"], {"id": "t-1"}, retries=1)
    assert no_sleep == [4.0] and recorder.saying("retry 1/1 in 4s")


def test_a_wait_that_would_outlive_the_timeout_is_not_waited(mock, make_call, no_sleep):
    rpc = mock.post(RPC).mock(side_effect=[unavailable(503, **{"Retry-After": "30"}), rpc_answer(TASK)])
    with pytest.raises(TimeoutExpired, match=r"--timeout 5s would expire during the 30s wait before retry 1/2"):
        make_call(endpoint=RPC, timeout=5.0).unary(METHODS["GetTask"], {"id": "t-1"}, retries=2)
    assert rpc.call_count == 1 and no_sleep == []


# -- a message is sent once, or again only under the same idempotency key ------------------------


def test_a_send_with_a_key_is_retried_as_the_same_request(mock, make_call, recorder, no_sleep):
    rpc = mock.post(RPC).mock(side_effect=[unavailable(503), rpc_answer({"task": TASK})])
    make_call(endpoint=RPC).unary(METHODS["SendMessage"], MESSAGE, headers=KEY, retries=1)
    first, second = rpc.calls
    assert first.request.content == second.request.content  # the same message id, the same JSON-RPC id
    assert first.request.headers["idempotency-key"] == second.request.headers["idempotency-key"] == "k-1"
    assert recorder.saying("retry 1/1 in 0.5s (same Idempotency-Key: k-1): ")


@pytest.mark.parametrize(
    "failure",
    [
        unavailable(503),
        unavailable(429, **{"Retry-After": "1"}),
        httpx.ConnectError("refused"),
        httpx.ReadTimeout("slow"),
        httpx.Response(200, json={"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "Invalid params"}}),
        httpx.Response(400, text="bad"),
    ],
    ids=["503", "429", "unreachable", "timeout", "-32602", "400"],
)
def test_a_send_without_retries_is_sent_once_whatever_fails(mock, make_call, no_sleep, failure):
    rpc = mock.post(RPC).mock(side_effect=[failure, rpc_answer({"task": TASK})])
    with pytest.raises(A2acliError):
        make_call(endpoint=RPC).unary(METHODS["SendMessage"], MESSAGE)
    assert rpc.call_count == 1 and [b["method"] for b in sent(rpc)] == ["SendMessage"]


def test_a_send_over_http_json_refused_as_unreadable_is_not_sent_in_another_form(mock, make_call, no_sleep):
    route = mock.post(f"{RPC}/message:send").mock(
        return_value=httpx.Response(400, json={"error": {"code": 400, "message": "bad"}})
    )
    with pytest.raises(A2acliError):
        make_call(endpoint=RPC, transports=("rest",)).unary(METHODS["SendMessage"], MESSAGE)
    assert route.call_count == 1


def test_the_session_never_sends_a_message_twice_without_an_idempotency_key(mock, make_call, no_sleep):
    """The session guards it itself, not only `a2a send` (which adds a key with --retry)."""
    rpc = mock.post(RPC).mock(side_effect=[unavailable(503), rpc_answer({"task": TASK})])
    with pytest.raises(A2acliError):
        make_call(endpoint=RPC).unary(METHODS["SendMessage"], MESSAGE, retries=2)
    assert rpc.call_count == 1 and no_sleep == []


def test_get_task_retried_needs_no_key(mock, make_call, no_sleep):
    rpc = mock.post(RPC).mock(side_effect=[unavailable(502), rpc_answer(TASK)])
    make_call(endpoint=RPC).unary(METHODS["GetTask"], {"id": "t-1"}, retries=1)
    assert all("idempotency-key" not in c.request.headers for c in rpc.calls) and rpc.call_count == 2


# -- a request the agent could not read, sent once in its other body form -------------------------

PUSH = {"taskId": "t-1", "id": "c-1", "url": "https://hook.test/h"}
PUSH_ROUTE = f"{RPC}/v1/tasks/t-1/pushNotificationConfigs"
CREATED = {
    "name": "tasks/t-1/pushNotificationConfigs/c-1",
    "pushNotificationConfig": {"id": "c-1", "url": "https://hook.test/h"},
}


def push_call(make_call):
    from a2acli.wire import Wire

    return make_call(endpoint=RPC, wire=Wire.V0, transports=("rest",))


@pytest.mark.parametrize("refusal", [400, 422, 500])
def test_a_0_3_push_config_refused_as_unreadable_is_sent_once_more_whole(mock, make_call, recorder, refusal):
    route = mock.post(PUSH_ROUTE).mock(
        side_effect=[httpx.Response(refusal, json={"error": "bad"}), httpx.Response(200, json=CREATED)]
    )
    reply = push_call(make_call).unary(METHODS["CreateTaskPushNotificationConfig"], PUSH)
    assert reply.core == PUSH and route.call_count == 2
    first, second = (json.loads(c.request.content) for c in route.calls)
    assert "parent" not in first and second["parent"] == "tasks/t-1" and second["config"] == first
    assert recorder.saying("sending it once more with the whole request as the body")


def test_the_other_form_refused_too_is_the_error_after_two_requests(mock, make_call):
    route = mock.post(PUSH_ROUTE).mock(return_value=httpx.Response(400, json={"error": "bad"}))
    with pytest.raises(HttpError):
        push_call(make_call).unary(METHODS["CreateTaskPushNotificationConfig"], PUSH)
    assert route.call_count == 2


@pytest.mark.parametrize("refusal", [401, 404, 409])
def test_a_refusal_that_is_not_about_the_body_is_not_sent_again(mock, make_call, refusal):
    route = mock.post(PUSH_ROUTE).mock(return_value=httpx.Response(refusal, json={"error": "no"}))
    with pytest.raises(A2acliError):
        push_call(make_call).unary(METHODS["CreateTaskPushNotificationConfig"], PUSH)
    assert route.call_count == 1
