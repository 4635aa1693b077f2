"""Streams: a send's wait that follows its task (SubscribeToTask, else polls), consuming a stream, re-subscribing and then polling when it breaks, and sending or polling instead when the card claims no streaming."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from a2acli.errors import A2acliError, ConnectionBrokenError, HttpError, RpcError, TimeoutExpired, UnreachableError
from a2acli.events import Note, Warn
from a2acli.pipeline.policies.capabilities import unclaimed
from a2acli.pipeline.policies.waiting import as_stream_event, settled, wait_for_task
from a2acli.pipeline.session import Call, Reply
from a2acli.wire.methods import METHODS
from a2acli.wire.words import state_label as state_text


def follow_task(
    call: Call, interval: float, *, query: dict[str, Any] | None = None, since: float | None = None
) -> Reply:
    """A send's wait (official CLI spec §7.3, A2ACLI_TASK_POLL_002): the agent answered a task that
    is not settled yet (the message went with --follow's returnImmediately, or the agent answered a
    blocking send early). Its id is said on
    stderr at once (Ctrl-C or --timeout then name it with the commands that resume), and the task
    is followed until it settles: SubscribeToTask when the Agent Card claims streaming (its events
    only move the waiting display), polling GetTask when it does not, or when the subscription is
    refused, fails or ends before the task settles (§7.3: a blocking wait falls back to polling on
    stream failure); the first poll comes after QUICK_START of the interval. The answer is the
    settled task from GetTask, in the shape of a send's answer: what a blocking SendMessage gives
    (history and artifacts, which the stream's events alone do not carry)."""
    from a2acli.wire.translate.enums import is_known_state

    tid = call.tracking.task["id"]
    state = state_text(call.tracking.task.get("state"))
    call.sink.emit(
        Note(
            f"task {tid} (context {call.tracking.task.get('contextId') or '?'}) is {state}; waiting for it",
            aside=" (Ctrl-C stops the wait, not the task)",
        )
    )
    if not is_known_state(call.tracking.task.get("state")):
        call.sink.emit(
            Warn(
                f"task {tid}: state {call.tracking.task.get('state')!r} is none A2A defines; waited for as a working task"
                + ("" if call.opts.timeout else " (--timeout S bounds the wait)")
            )
        )
    with call.sink.waiting(call.tracking.task, since=since, announced=True) as shown:
        if unclaimed(call, "SubscribeToTask") is None:
            subscribe_quietly(call, shown)
            reply = call.unary(METHODS["GetTask"], {"id": tid, **(query or {})})  # the task as it stands
            call.tracking.track(reply.core)
            shown.update(reply.core)
            if settled(call.tracking.task.get("state")):
                return as_stream_event(call, reply)
        return wait_for_task(call, interval, wrap=True, shown=shown, quick=True, query=query)


def until_settled(call: Call, replies: Iterator[Reply]) -> Iterator[Reply]:
    """A stream's replies up to the one after which the task is settled (consume has tracked it
    by then): an interrupted state ends a wait, though an agent keeps the stream open for the
    task to resume. The stream is closed when this ends."""
    try:
        for reply in replies:
            yield reply
            if settled(call.tracking.task.get("state")):
                return
    finally:
        getattr(replies, "close", lambda: None)()  # a generator: its HTTP stream is closed now


def subscribe_quietly(call: Call, shown: Any) -> None:
    """SubscribeToTask for a send's wait, until the stream ends; its events move `shown` (the
    waiting display) and nothing else. A subscription that fails (refused, unreachable, broken
    mid-way) is said on stderr, unless the refusal is for a task already finished; the caller
    then looks at the task and polls. Only --timeout and Ctrl-C end the wait here."""
    tid = call.tracking.task["id"]
    o = StreamOutcome()
    try:
        consume(
            call, until_settled(call, call.stream(METHODS["SubscribeToTask"], {"id": tid})), shown, o, subscribing=False
        )
    except TimeoutExpired:
        raise
    except A2acliError as e:  # refused before any event (-32004, a 404 route, no such method)
        if refuses_finished(e):
            return
        o.broken = e
    if o.broken is not None and not settled(call.tracking.task.get("state")):
        call.sink.emit(Note(f"subscribing to task {tid} failed ({o.broken.message}); polling it instead"))


def send_and_wait(
    call: Call,
    params: dict[str, Any],
    view: Any,
    *,
    interval: float,
    request_id: str | None = None,
    headers: dict[str, str] | None = None,
) -> None:
    """`stream` / `send --stream` to an agent whose card does not claim streaming: a blocking
    SendMessage, then polling until the task settles; each answer goes to the stream's view (its
    shape is a StreamResponse's: {task} or {message}, a bare object under 0.3 JSON-RPC)."""
    with call.sink.waiting(what="waiting for the agent's answer") as shown:
        reply = call.unary(METHODS["SendMessage"], params, request_id=request_id, headers=headers)
    call.sending = None
    call.tracking.track(reply.core)
    view.event(reply)
    if call.tracking.task.get("id") and not settled(call.tracking.task.get("state")):
        view.final(wait_for_task(call, interval, wrap=True, since=shown.started, shown=view.waiting))


def poll_instead(call: Call, view: Any, *, interval: float) -> None:
    """`tasks subscribe` to an agent whose card does not claim streaming: the task polled until
    it settles (what `tasks get --wait` does), shown as the stream's last event."""
    reply = call.unary(METHODS["GetTask"], {"id": call.tracking.task["id"]})
    call.tracking.track(reply.core)
    view.final(
        as_stream_event(call, reply)
        if settled(call.tracking.task.get("state"))
        else wait_for_task(call, interval, wrap=True, shown=view.waiting)
    )


class StreamOutcome:
    """What happened to a stream: events seen, whether it came as a stream (`sse`: SSE or a gRPC
    server stream, not one plain document), refused or broken (and whether by an error the agent
    sent mid-stream)."""

    def __init__(self) -> None:
        self.events = 0
        self.sse = True
        self.refused = False
        self.broken: A2acliError | None = None
        self.server_error = False


RESUBSCRIBE_ATTEMPTS = 2  # re-subscriptions after a stream breaks, before polling instead


def consume(call: Call, replies: Iterator[Reply], view: Any, o: StreamOutcome, *, subscribing: bool) -> None:
    """Show a stream's events as they arrive; how it ended goes into `o`. The events of one
    network read are written together, flushed before the stream is read again (Output.holding)."""
    try:
        with call.sink.holding():
            for reply in replies:
                o.events += 1
                if o.events == 1:  # one content type per exchange
                    o.sse = bool(
                        reply.exchange.streaming
                    )  # an event stream (SSE, a gRPC server stream), not one document
                    call.sending = None  # answered: Ctrl-C now names the task, if any
                call.tracking.track_reply(reply)
                view.event(reply)
    except RpcError as e:
        if subscribing and o.events == 0:
            o.refused = True
            subscribe_refused(call, view, e)  # the finished task shown, or polled below
        elif o.events and call.tracking.task.get(
            "id"
        ):  # an error event mid-stream: the task is polled (A2ACLI_TASK_POLL_004)
            o.broken, o.server_error = e, True
        else:
            raise
    except (UnreachableError, HttpError) as e:
        o.broken = e
    except ConnectionBrokenError as e:  # (a malformed answer is not: it ends the run)
        if not call.tracking.task.get("id"):
            raise
        o.broken = e


def follow_stream(
    call: Call, replies: Iterator[Reply], view: Any, *, subscribing: bool, follow: bool = True, interval: float = 1.0
) -> None:
    """Show a stream's events as they arrive. If the connection breaks before the task settles,
    re-subscribe (SubscribeToTask with Last-Event-ID when the server gave event ids; its first
    event is the whole Task) up to RESUBSCRIBE_ATTEMPTS times; if that fails, or the stream ends
    early (a snapshot-then-close server, an error event), poll until it settles. Each step is
    named on stderr.

    SubscribeToTask meets several server behaviours, each named in a note on stderr: a full
    stream, a snapshot then close, one plain JSON answer, and a refusal for a finished task
    (-32004, as a JSON body or as an SSE event), after which the task is shown from GetTask."""
    o = StreamOutcome()
    consume(call, replies, view, o, subscribing=subscribing)
    if o.broken and o.events == 0:
        if not (subscribing and isinstance(o.broken, ConnectionBrokenError)):
            raise o.broken
        # a2a-sdk's 0.3 REST server answers a subscribe it refuses with SSE headers, then hangs up
        o.refused, broken, o.broken = True, o.broken, None
        subscribe_refused(call, view, broken, refusal=True)
    done = settled(call.tracking.task.get("state"))
    tid = call.tracking.task.get("id")
    broke = bool(o.broken and tid and not done and follow)
    if subscribing and not o.refused and not broke:
        call.sink.emit(Note(subscribe_kind(call, o, done)))
    if broke and not o.server_error:
        assert o.broken is not None
        if resubscribe(call, view, o.broken):
            return
    elif broke:
        call.sink.emit(
            Note(
                f"the stream ended with an error from the agent ({o.broken.message if o.broken else ''}); polling task {tid}"
            )
        )
    if tid and not settled(call.tracking.task.get("state")) and follow:
        if not subscribing and not broke:
            call.sink.emit(Note(f"the agent closed the stream before the task finished; polling task {tid}"))
        view.final(
            wait_for_task(call, interval, wrap=True, shown=view.waiting)
        )  # a StreamResponse {task} like the events; the view's progress display, if any, shows the polls
    elif o.broken and not broke:
        raise o.broken


def resubscribe(call: Call, view: Any, err: A2acliError, *, attempts: int = RESUBSCRIBE_ATTEMPTS) -> bool:
    """After a stream broke: SubscribeToTask again (A2ACLI_TASK_SUBSCRIBE_002), with Last-Event-ID
    when the server gave event ids, at most `attempts` times, a short backoff between them. True
    when a re-subscription followed the task until it settled; False to poll (said on stderr)."""
    from a2acli.pipeline.session import retry_delay

    tid = call.tracking.task["id"]
    spec = METHODS["SubscribeToTask"]
    for attempt in range(1, attempts + 1):
        last = call.tracking.event_ids.last
        since = f", Last-Event-ID {last}" if last else ""
        call.sink.emit(
            Note(f"the stream broke ({err.message}); re-subscribing to task {tid} ({attempt}/{attempts}{since})")
        )
        delay = retry_delay(attempt - 1)
        left = call.transport.time_left()
        time.sleep(delay if left is None else max(min(delay, left), 0))
        call.transport.check_deadline()
        call.tracking.event_ids.resume()
        skipped = call.tracking.event_ids.skipped
        o = StreamOutcome()
        try:
            consume(
                call,
                call.stream(spec, {"id": tid}, headers={"Last-Event-ID": last} if last else None),
                view,
                o,
                subscribing=False,
            )
        except TimeoutExpired:
            raise
        except A2acliError as e:  # refused, or nothing came: try again, then poll
            err = e
            continue
        replayed = call.tracking.event_ids.skipped - skipped
        said = f"{o.events} new event(s)" + (f", {replayed} replayed event(s) not shown again" if replayed else "")
        if settled(call.tracking.task.get("state")):
            call.sink.emit(
                Note(f"re-subscribed to task {tid}: {said}, until it was {state_text(call.tracking.task.get('state'))}")
            )
            return True
        if o.broken is None:
            call.sink.emit(
                Note(
                    f"re-subscribed to task {tid}: {said}, then the agent closed the stream before the task finished; polling task {tid}"
                )
            )
            return False
        err = o.broken
    call.sink.emit(Note(f"re-subscribing to task {tid} failed ({err.message}); polling task {tid}"))
    return False


def subscribe_kind(call: Call, o: StreamOutcome, done: bool) -> str:
    """Which of the servers' SubscribeToTask behaviours this was, in one line."""
    tid, state = call.tracking.task["id"], state_text(call.tracking.task.get("state"))
    poll = f"; polling task {tid} until it settles"
    if o.events == 0:
        return "subscribe: the agent closed the stream without sending an event" + poll
    if o.broken:
        return f"subscribe: the stream broke after {o.events} event(s) ({o.broken.message})" + poll
    if not o.sse:
        return "subscribe: the agent answered with one plain JSON document, not an event stream" + (
            f"; the task is {state}" if done else poll
        )
    if o.events == 1:
        if done:
            return f"subscribe: one event (a snapshot) of a task that is already {state}"
        return (
            "subscribe: snapshot then close: the agent sent the task's current state and closed the stream (it does not stream live updates)"
            + poll
        )
    if done:
        return f"subscribe: full stream: {o.events} events, live until the task was {state}"
    return f"subscribe: the stream closed after {o.events} events before the task finished" + poll


def refuses_finished(err: A2acliError) -> bool:
    """An error that refuses a subscription because the task is finished: -32004 (the spec's),
    or -32602 naming a terminal state (a2a-sdk 0.3: "Task … is in terminal state: completed")."""
    return err.a2a_code == -32004 or (err.a2a_code in (-32602, -32002) and "terminal" in err.message.lower())


def subscribe_refused(call: Call, view: Any, err: A2acliError, *, refusal: bool = False) -> bool:
    """SubscribeToTask answered with an error before any event. For -32004 (a finished task, or
    no streaming), or a stream that ended before its first event (`refusal`), show the task from
    GetTask; True when it was shown settled, False to poll."""
    ex = call.transport.last
    kind = ex.content_type if ex is not None else ""
    how = {"text/event-stream": "as an SSE event", "application/grpc": "as a gRPC status"}.get(
        kind, "as a plain JSON answer"
    )
    if refusal:
        how = "it closed the stream without an event"
    elif not refuses_finished(err):
        call.sink.emit(Note(f"subscribe: the agent refused, {how}"))
        raise err
    tid = call.tracking.task["id"]
    why = how if refusal else f"{err.message}, {how}"
    try:
        reply = call.unary(METHODS["GetTask"], {"id": tid})
    except A2acliError:
        raise err from None
    call.tracking.track(reply.core)
    label = state_text(call.tracking.task.get("state"))
    if not settled(call.tracking.task.get("state")):
        call.sink.emit(Note(f"subscribe: the agent refused ({why}) though task {tid} is {label}; polling it instead"))
        return False
    call.sink.emit(
        Note(
            f"subscribe: task {tid} is already finished ({label}); the agent does not stream a finished task ({why}); showing it from GetTask"
        )
    )
    view.final(as_stream_event(call, reply))
    return True
