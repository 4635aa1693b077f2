"""The headless pipeline (issue 34): a Call says what it has to say as typed events
(a2acli.events) to the sink it is given, and imports nothing of render/. These tests drive the
session and its policies with a Recording sink and an agent on respx, and check what was said;
the last ones check that render.events.Presenter writes each event as the terminal showed it
before."""

from __future__ import annotations

import io
import json

import httpx
import pytest
import respx

from a2acli.errors import HttpError, RpcError
from a2acli.events import (
    CommandLine,
    NextStep,
    Note,
    Passthrough,
    Recording,
    RequestPrepared,
    Retry,
    Silent,
    TaskShown,
    Warn,
)
from a2acli.pipeline import policies
from a2acli.pipeline.options import CallOptions
from a2acli.pipeline.session import Call, OfflineShown, Reply
from a2acli.render.events import Presenter
from a2acli.render.output import Output
from a2acli.wire import Wire
from a2acli.wire.methods import METHODS

AGENT = "http://agent.test"
RPC = f"{AGENT}/rpc"
TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}}
DONE = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}


def answer(result, *, headers=None):
    """A JSON-RPC answer to whatever request came, its id echoed."""
    return lambda r: httpx.Response(
        200, json={"jsonrpc": "2.0", "id": json.loads(r.content)["id"], "result": result}, headers=headers
    )


def session(sink=None, **opts) -> tuple[Call, Recording]:
    rec = sink if sink is not None else Recording()
    return Call(CallOptions(**{"endpoint": RPC, **opts}), rec), rec


@pytest.fixture
def no_sleep(monkeypatch):
    """Retries and polls wait with time.sleep: the waits asked for are kept, none is slept."""
    import a2acli.pipeline.policies.waiting as waiting_module
    import a2acli.pipeline.session as session_module

    slept: list[float] = []
    monkeypatch.setattr(session_module.time, "sleep", slept.append)
    assert waiting_module.time is session_module.time  # (the one time module: both waits are caught)
    return slept


# -- the session: what a call says -----------------------------------------------------------------


@respx.mock
def test_an_answers_request_id_is_a_note():
    respx.post(RPC).mock(side_effect=answer(TASK, headers={"X-Request-ID": "rid-42"}))
    c, rec = session()
    with c:
        c.unary(METHODS["GetTask"], {"id": "t-1"})
    notes = [e.text for e in rec.of(Note)]
    assert notes == ["X-Request-ID: rid-42 (GetTask)"]
    assert not rec.of(Warn)


@respx.mock
def test_an_answer_without_request_id_says_nothing():
    respx.post(RPC).mock(side_effect=answer(TASK))
    c, rec = session()
    with c:
        reply = c.unary(METHODS["GetTask"], {"id": "t-1"})
    assert reply.core["id"] == "t-1"
    assert rec.events == []


def test_a_field_v0_lacks_is_a_warning():
    c, rec = session(wire=Wire.V0, offline=True)
    with c:
        c.encode(METHODS["GetTask"], {"id": "t-1", "tenant": "acme"})
    assert rec.events == [Warn("not carried to V0: params: tenant 'acme' dropped (V0 has no tenants)")]


def test_a_request_id_a_binding_cannot_carry_is_a_warning():
    c, rec = session(transports=("http-json",), offline=True)
    with c:
        c.encode(METHODS["GetTask"], {"id": "t-1"}, "my-id")
    (warning,) = rec.of(Warn)
    assert warning.text.startswith("--request-id is the JSON-RPC id: ") and "not sent" in warning.text


def test_offline_emits_the_prepared_request_and_sends_nothing():
    with respx.mock(assert_all_called=False) as mock:
        rpc = mock.post(RPC)
        c, rec = session(offline=True, bearer="tok-123")
        with c, pytest.raises(OfflineShown):
            c.unary(METHODS["GetTask"], {"id": "t-1"}, request_id="req-1")
    assert not rpc.called
    (shown,) = rec.of(RequestPrepared)
    assert shown.head[0] == f"POST {RPC}"
    assert shown.document["method"] == "GetTask" and shown.document["id"] == "req-1"
    assert json.loads(shown.body or b"") == shown.document
    assert shown.whole == shown.document  # a JSON-RPC envelope names the call: it is the whole request
    assert "tok-123" not in "\n".join(shown.head)  # the credential is shown redacted


def test_offline_without_an_envelope_emits_the_whole_request():
    c, rec = session(transports=("http-json",), offline=True)
    with c, pytest.raises(OfflineShown):
        c.unary(METHODS["GetTask"], {"id": "t-1"})
    (shown,) = rec.of(RequestPrepared)
    assert shown.whole["method"] == "GET" and shown.whole["url"].endswith("/tasks/t-1")
    assert shown.whole["body"] == shown.document


def test_offline_before_the_card_is_read_notes_what_it_cannot_know():
    c, rec = session(endpoint=None, url=AGENT, offline=True, version_auto=True)
    with c, pytest.raises(OfflineShown):
        c.unary(METHODS["GetTask"], {"id": "t-1"})
    notes = [e.text for e in rec.of(Note)]
    assert any(n.startswith("the binding comes from the Agent Card, which --offline does not read") for n in notes)
    assert any(n.startswith("--a2a-version auto: the version comes from the Agent Card") for n in notes)
    head = rec.of(RequestPrepared)[0].head
    assert head[0] == f"POST <JSONRPC URL from the Agent Card of {AGENT}>"
    assert f"Host: <host of the JSONRPC URL from the Agent Card of {AGENT}>" in head  # a host goes there, not a URL


@respx.mock
def test_a_retry_is_an_event_with_its_attempt_and_delay(no_sleep):
    respx.post(RPC).mock(side_effect=[httpx.Response(503), answer(TASK)])
    c, rec = session()
    with c:
        reply = c.unary(METHODS["GetTask"], {"id": "t-1"}, retries=2, headers={"Idempotency-Key": "k-1"})
    assert reply.core["id"] == "t-1"
    (retry,) = rec.of(Retry)
    assert (retry.attempt, retry.of, retry.delay) == (1, 2, 0.5)
    assert retry.same == "Idempotency-Key: k-1" and "503" in retry.reason
    assert no_sleep == [0.5]  # the delay the event names is the one waited
    assert retry.text == f"retry 1/2 in 0.5s (same Idempotency-Key: k-1): {retry.reason}"


@respx.mock
def test_a_retry_waits_as_long_as_retry_after_asks(no_sleep):
    respx.post(RPC).mock(side_effect=[httpx.Response(429, headers={"Retry-After": "3"}), answer(TASK)])
    c, rec = session()
    with c:
        c.unary(METHODS["GetTask"], {"id": "t-1"}, retries=1)
    assert [(r.attempt, r.of, r.delay, r.same) for r in rec.of(Retry)] == [(1, 1, 3.0, "")]
    assert no_sleep == [3.0]


@respx.mock
def test_an_error_body_passes_through_as_it_came():
    body = b'{"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "Task not found"}}'
    respx.post(RPC).mock(return_value=httpx.Response(200, content=body, headers={"Content-Type": "application/json"}))
    c, rec = session()
    with c, pytest.raises(RpcError):
        c.unary(METHODS["GetTask"], {"id": "nope"})
    assert rec.of(Passthrough) == [Passthrough(body)]


@respx.mock
def test_an_http_error_body_passes_through_as_it_came():
    respx.post(RPC).mock(return_value=httpx.Response(502, text="<html>bad gateway</html>"))
    c, rec = session()
    with c, pytest.raises(HttpError):
        c.unary(METHODS["GetTask"], {"id": "t-1"})
    assert [e.data for e in rec.of(Passthrough)] == [b"<html>bad gateway</html>"]


def test_insecure_is_a_warning_as_the_session_opens():
    c, rec = session(insecure=True, offline=True)
    with c:
        pass
    assert [type(e) for e in rec.events] == [Warn]
    assert rec.events[0].text.startswith("--insecure: TLS certificates are NOT verified")


@respx.mock
def test_debug_lines_are_notes_said_under_quiet_too():
    respx.post(RPC).mock(side_effect=answer(TASK))
    c, rec = session(debug=True)
    with c:
        c.unary(METHODS["GetTask"], {"id": "t-1"})
    debug = rec.of(Note)
    assert debug and all(n.always for n in debug)
    assert any(f"POST {RPC}" in n.text for n in debug)  # the request, as --debug shows it


@respx.mock
def test_a_stream_yields_its_replies_and_passes_an_error_event_through():
    def events(request):
        rid = json.loads(request.content)["id"]
        ok = json.dumps({"jsonrpc": "2.0", "id": rid, "result": {"task": TASK}})
        bad = json.dumps({"jsonrpc": "2.0", "id": rid, "error": {"code": -32603, "message": "boom"}})
        return httpx.Response(
            200, content=f"data: {ok}\n\ndata: {bad}\n\n".encode(), headers={"Content-Type": "text/event-stream"}
        )

    respx.post(RPC).mock(side_effect=events)
    c, rec = session()
    seen: list[Reply] = []
    with c, pytest.raises(RpcError):
        for reply in c.stream(
            METHODS["SendStreamingMessage"], {"message": {"role": "ROLE_USER", "parts": [], "messageId": "m"}}
        ):
            seen.append(reply)
    assert [type(r) for r in seen] == [Reply] and seen[0].core == {"task": TASK}  # a reply is its own event
    (passed,) = rec.of(Passthrough)
    assert json.loads(passed.data)["error"]["message"] == "boom"


# -- the policies: what a flow says ----------------------------------------------------------------


def test_a_failed_task_is_a_warning_and_an_input_required_one_a_note_and_a_command():
    c, rec = session(offline=True)
    with c:
        c.tracking.track({**TASK, "status": {"state": "TASK_STATE_FAILED"}})
        policies.report_task_outcome(c, None)
        assert rec.events == [Warn("task t-1 ended failed")]
        rec.events.clear()
        c.tracking.track({**TASK, "status": {"state": "TASK_STATE_INPUT_REQUIRED"}})
        policies.report_task_outcome(c, None)
    assert [type(e) for e in rec.events] == [Note, CommandLine]
    assert rec.events[0].text == "task t-1 is input-required: it needs input; continue with:"
    assert rec.events[1].text.startswith("a2a send --task-id t-1 --context-id c-1") and rec.events[1].text.endswith(
        "'your reply'"
    )


def test_a_completed_task_suggests_the_next_message_as_a_next_step():
    c, rec = session(offline=True)
    with c:
        c.tracking.track(DONE)
        policies.report_task_outcome(c, None)
    (step,) = rec.events
    assert isinstance(step, NextStep) and step.command.startswith("a2a send --context-id c-1")


def test_resume_notes_go_to_the_sink_given():
    c, _ = session(offline=True)
    rec = Recording()
    with c:
        c.tracking.track(TASK)
        assert policies.resume_notes(rec, c, "interrupted") is True
    assert rec.events[0] == Note(
        "interrupted: task t-1 (context c-1) was working; resume with one of:"
    )  # no card read: the agent may stream
    assert [e.text.split(" --")[0] for e in rec.of(CommandLine)] == ["a2a tasks subscribe t-1", "a2a tasks get t-1"]


@respx.mock
def test_a_refused_cancel_shows_the_task_as_an_event():
    respx.post(RPC).mock(side_effect=answer(DONE))
    c, rec = session()
    err = RpcError("TaskNotCancelableError: the task cannot be canceled")
    err.code = "TaskNotCancelableError"
    with c:
        out = policies.refused_cancel(c, "t-1", err)
    (shown,) = rec.of(TaskShown)
    assert shown.kind == "task" and shown.reply.core["id"] == "t-1"
    assert out.message.endswith("task t-1 is completed")


@respx.mock
def test_a_wait_polls_until_the_task_settles_with_no_one_watching(no_sleep):
    route = respx.post(RPC).mock(side_effect=[answer(TASK), answer(TASK), answer(DONE)])
    c, rec = session()
    with c:
        c.tracking.track(TASK)
        reply = policies.wait_for_task(c, 1.0)
    assert reply.core["status"]["state"] == "TASK_STATE_COMPLETED"
    assert route.call_count == 3 and len(no_sleep) == 3
    assert rec.events == []  # the wait's display is the sink's: a Recording shows none


def test_a_silent_sink_takes_every_event_and_says_nothing(capsys):
    c, rec = session(Silent(), offline=True, insecure=True)
    with c, pytest.raises(OfflineShown):
        c.unary(METHODS["GetTask"], {"id": "t-1", "tenant": "x"})
    assert capsys.readouterr() == ("", "")


# -- render.events.Presenter: each event shown as before -------------------------------------------


def presenter(mode: str = "text", **kw) -> tuple[Presenter, io.StringIO, io.StringIO]:
    stdout, stderr = io.StringIO(), io.StringIO()
    return Presenter(Output(mode, stdout=stdout, stderr=stderr, **kw)), stdout, stderr


@pytest.mark.parametrize(
    "event, direct",
    [
        (Note("hello"), lambda out: out.note("hello")),
        (Note("aside", aside=" (Ctrl-C)"), lambda out: out.note("aside", aside=" (Ctrl-C)")),
        (Warn("careful"), lambda out: out.warn("careful")),
        (CommandLine("a2a tasks get t-1"), lambda out: out.command("a2a tasks get t-1")),
        (NextStep("next:", "a2a send hi"), lambda out: out.next_step("next:", "a2a send hi")),
        (Retry(2, 3, 1.0, "HTTP 503"), lambda out: out.note("retry 2/3 in 1s: HTTP 503")),
        (Passthrough(b"raw body"), lambda out: out.passthrough(b"raw body")),
    ],
)
@pytest.mark.parametrize("mode", ["text", "json", "raw"])
def test_the_presenter_writes_each_event_as_the_output_call_it_replaces(event, direct, mode):
    shown, out, err = presenter(mode)
    shown.emit(event)
    before, out2, err2 = presenter(mode)
    direct(before.out)
    assert (out.getvalue(), err.getvalue()) == (out2.getvalue(), err2.getvalue())


def test_the_presenter_keeps_quiet_for_notes_but_not_warnings():
    shown, out, err = presenter("text", quiet=True)
    shown.emit(Note("a note"))
    shown.emit(Note("asked for", always=True))
    shown.emit(Warn("a warning"))
    assert err.getvalue() == "asked for\nwarning: a warning\n" and out.getvalue() == ""


def test_the_presenter_shows_an_offline_request_in_each_mode():
    c, rec = session(offline=True)
    with c, pytest.raises(OfflineShown):
        c.unary(METHODS["GetTask"], {"id": "t-1"}, request_id="req-1")
    (event,) = rec.of(RequestPrepared)
    shown, out, err = presenter("json")
    shown.emit(event)
    assert json.loads(out.getvalue())["id"] == "req-1" and f"POST {RPC}" in err.getvalue()
    shown, out, err = presenter("raw")
    shown.emit(event)
    assert out.getvalue().rstrip("\n").encode() == event.body
