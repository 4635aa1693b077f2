"""Small policies on top of `Call.invoke`: waiting for a task to settle, following list pages,
what the Agent Card claims before a capability-gated call, re-subscribing and then polling when a
stream breaks, and what a task's end state means for the exit code. Each works whatever binding
carries the calls."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import nullcontext
from typing import Any, NamedTuple

from a2acli.errors import A2acliError, ConnectionBrokenError, HttpError, NotClaimedError, RpcError, TimeoutExpired, UnexpectedStateError, UnreachableError, UsageError
from a2acli.pipeline.options import conn_flags
from a2acli.pipeline.session import Call, Reply
from a2acli.render.present import state_text, waiting
from a2acli.wire import Wire
from a2acli.wire.methods import METHODS


def settled(state: Any) -> bool:
    from a2acli.wire.translate import is_interrupted, is_terminal

    return is_terminal(state) or is_interrupted(state)


def parse_states(text: str | None) -> frozenset[str] | None:
    """`completed,failed` -> canonical V1 names; a UsageError for unknown names."""
    if not text:
        return None
    from a2acli.wire.translate import to_core_task_state

    states = set()
    for item in text.split(","):
        s = to_core_task_state(item.strip())
        if not str(s).startswith("TASK_STATE_"):
            raise UsageError(f"unknown task state {item.strip()!r}", hint="e.g. completed, failed, canceled, rejected, input-required, auth-required, working")
        states.add(s)
    return frozenset(states)


def as_stream_event(call: Call, reply: Reply) -> Reply:
    """A GetTask reply in the shape of a send answer or stream event: {"task": …}, or the bare task
    under 0.3 JSON-RPC."""
    bare = call.opts.wire is Wire.V0 and call.binding.flag == "jsonrpc"  # 0.3 JSON-RPC events are bare objects
    result = reply.result if bare else {"task": reply.result}
    return Reply(result, {"task": reply.core}, reply.raw, reply.exchange)


MIN_POLL = 0.05  # seconds: never a busy loop
MAX_POLL = 5.0  # seconds: where the backoff stops growing (unless the chosen interval is longer)
QUICK_START = 1 / 8  # a send's wait polls first after this share of the interval (0.25 s of 2 s)


class Backoff:
    """The waits between polls (A2ACLI_TASK_POLL_002): the chosen interval first, then 1.5 times
    longer after each poll that saw no change, up to MAX_POLL (or the interval itself when that is
    longer: never below what the user chose); a change of the task's status starts again from the
    interval, so a task that moves is followed closely and an idle one is not hammered.

    `first`: a shorter first wait (a send's wait: a task that is done at once costs a quick look,
    not the whole interval); the waits grow from it 1.5 times a poll through the interval, and a
    change of status does not slow them down meanwhile."""

    __slots__ = ("interval", "cap", "delay")

    def __init__(self, interval: float, cap: float = MAX_POLL, *, first: float | None = None) -> None:
        self.interval = max(interval, MIN_POLL)
        self.cap = max(cap, self.interval)
        self.delay = self.interval if first is None else min(max(first, MIN_POLL), self.interval)

    def next(self) -> float:
        delay = self.delay
        self.delay = min(delay * 1.5, self.cap)
        return delay

    def reset(self) -> None:
        self.delay = min(self.delay, self.interval)


def wait_for_task(call: Call, interval: float, *, wrap: bool = False, since: float | None = None, shown: Any = None, quick: bool = False, query: dict[str, Any] | None = None) -> Reply:
    """Poll GetTask until the task is terminal or interrupted (Backoff between polls; a state
    that is neither, TASK_STATE_UNSPECIFIED / V0 `unknown` included, keeps the wait going under
    --timeout); the wait shows on stderr (render.present.waiting: a spinner at a terminal), or in
    `shown`, a waiting display already open. `since`: when the wait began (a blocking send that
    came back unfinished); `quick`: the first poll after QUICK_START of the interval; `query`:
    more GetTask params (historyLength). Ctrl-C stops the sleep at once; the boundary then names
    the task and how to resume."""
    spec = METHODS["GetTask"]
    backoff = Backoff(interval, first=interval * QUICK_START if quick else None)
    status: Any = None
    with nullcontext(shown) if shown is not None else waiting(call.out, call.task, since=since) as shown:
        while True:
            delay = backoff.next()
            left = call.transport.time_left()  # the whole-call --timeout
            time.sleep(delay if left is None else max(min(delay, left), 0))
            call.transport.check_deadline()  # TimeoutExpired (exit 5); the boundary prints how to resume
            reply = call.unary(spec, {"id": call.task["id"], **(query or {})})
            call.track(reply.core)
            shown.update(reply.core)
            if settled(call.task.get("state")):
                break
            now = reply.core.get("status") if isinstance(reply.core, dict) else None
            if status is not None and now != status:
                backoff.reset()
            status = now
    return as_stream_event(call, reply) if wrap else reply


def explain_send_refusal(err: A2acliError, params: dict[str, Any]) -> A2acliError:
    """A send that went with returnImmediately (--follow, --async) and was refused in a way that may
    be the agent refusing that field rather than the message (refuses_return_immediately): the hint
    says so and names the default, one blocking SendMessage. Nothing is sent again: the agent may
    have acted on the message (A2A does not make messageId a deduplication key)."""
    config = params.get("configuration") if isinstance(params, dict) else None
    if isinstance(config, dict) and config.get("returnImmediately") is True and refuses_return_immediately(err):
        err.hint = (
            f"{err.hint}; " if err.hint else ""
        ) + "the agent may not take returnImmediately: without --follow and --async, a2a sends one blocking SendMessage (not resent now: the agent may have acted on it)"
    return err


def refuses_return_immediately(err: A2acliError) -> bool:
    """An error answer to a send with returnImmediately that may be the agent refusing that field,
    not the message: invalid params or request (-32602, -32600), or HTTP 400, 422 or 500 with no
    A2A error (fasta2a 2.x answers a 0.3 configuration without acceptedOutputModes with a bare 500)."""
    if isinstance(err, RpcError):
        return err.a2a_code in (-32602, -32600)
    return type(err) is HttpError and err.wire_code in (400, 422, 500)


def follow_task(call: Call, interval: float, *, query: dict[str, Any] | None = None, since: float | None = None) -> Reply:
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
    tid = call.task["id"]
    state = state_text(call.task.get("state"))
    call.out.note(f"task {tid} (context {call.task.get('contextId') or '?'}) is {state}; waiting for it", aside=" (Ctrl-C stops the wait, not the task)")
    with waiting(call.out, call.task, since=since, announced=True) as shown:
        if unclaimed(call, "SubscribeToTask") is None:
            subscribe_quietly(call, shown)
            reply = call.unary(METHODS["GetTask"], {"id": tid, **(query or {})})  # the task as it stands
            call.track(reply.core)
            shown.update(reply.core)
            if settled(call.task.get("state")):
                return as_stream_event(call, reply)
        return wait_for_task(call, interval, wrap=True, shown=shown, quick=True, query=query)


def until_settled(call: Call, replies: Iterator[Reply]) -> Iterator[Reply]:
    """A stream's replies up to the one after which the task is settled (consume has tracked it
    by then): an interrupted state ends a wait, though an agent keeps the stream open for the
    task to resume. The stream is closed when this ends."""
    try:
        for reply in replies:
            yield reply
            if settled(call.task.get("state")):
                return
    finally:
        getattr(replies, "close", lambda: None)()  # a generator: its HTTP stream is closed now


def subscribe_quietly(call: Call, shown: Any) -> None:
    """SubscribeToTask for a send's wait, until the stream ends; its events move `shown` (the
    waiting display) and nothing else. A subscription that fails (refused, unreachable, broken
    mid-way) is said on stderr, unless the refusal is for a task already finished; the caller
    then looks at the task and polls. Only --timeout and Ctrl-C end the wait here."""
    tid = call.task["id"]
    o = StreamOutcome()
    try:
        consume(call, until_settled(call, call.stream(METHODS["SubscribeToTask"], {"id": tid})), shown, o, subscribing=False)
    except TimeoutExpired:
        raise
    except A2acliError as e:  # refused before any event (-32004, a 404 route, no such method)
        if refuses_finished(e):
            return
        o.broken = e
    if o.broken is not None and not settled(call.task.get("state")):
        call.out.note(f"subscribing to task {tid} failed ({o.broken.message}); polling it instead")


# -- what the card claims (SPEC §11.3, A2ACLI_VER_003) ---------------------------------------------

# the capability each gated method needs, by its V1 field name in capabilities
CAPABILITY = {
    "SendStreamingMessage": "streaming",
    "SubscribeToTask": "streaming",
    "CreateTaskPushNotificationConfig": "pushNotifications",
    "GetTaskPushNotificationConfig": "pushNotifications",
    "ListTaskPushNotificationConfigs": "pushNotifications",
    "DeleteTaskPushNotificationConfig": "pushNotifications",
    "GetExtendedAgentCard": "extendedAgentCard",
}
_OFFERS = {"streaming": "streaming", "pushNotifications": "push notifications", "extendedAgentCard": "an extended Agent Card"}
_NOT_SUPPORTED = {"pushNotifications": "PushNotificationNotSupportedError", "extendedAgentCard": "ExtendedAgentCardNotConfiguredError"}
ABSENT: Any = type("Absent", (), {"__repr__": lambda self: "absent"})()


class Claim(NamedTuple):
    """What the card says of a capability it does not claim: the field as the card spells it
    (`supportsAuthenticatedExtendedCard` on a 0.3 card) and its value (ABSENT when not set)."""

    capability: str
    field: str
    value: Any

    @property
    def says(self) -> str:
        import json

        if self.value is ABSENT:
            return f"the card does not set {self.field} (so does not claim it)"
        return f"the card says {self.field} is {json.dumps(self.value)}"


def unclaimed(call: Call, method: str) -> Claim | None:
    """The card's word when it does not claim the capability `method` needs; None when it claims
    it, when the method needs none, or when no card was read (--endpoint). Only `true` claims: a
    field that is absent is not a claim, on 1.0 and 0.3 cards alike (both define it as optional
    and false by default, and a2a-sdk's clients read it so)."""
    cap = CAPABILITY.get(method)
    if cap is None or not isinstance(call.card, dict):
        return None
    caps = call.card.get("capabilities")
    value = caps.get(cap, ABSENT) if isinstance(caps, dict) else ABSENT
    if value is True:
        return None
    field = f"capabilities.{cap}"
    doc = call.card_doc if isinstance(call.card_doc, dict) else {}
    v1_field = isinstance(doc.get("capabilities"), dict) and cap in doc["capabilities"]
    if cap == "extendedAgentCard" and not v1_field and ("supportsAuthenticatedExtendedCard" in doc or "supportedInterfaces" not in doc and ("url" in doc or "protocolVersion" in doc)):
        field = "supportsAuthenticatedExtendedCard"  # where a 0.3 card says it (a card with both: the 1.0 field decides)
    return Claim(cap, field, value)


def gate(call: Call, method: str, *, force: bool) -> Claim | None:
    """The claim a gated call lacks, unless --force (then said on stderr, and None)."""
    claim = unclaimed(call, method)
    if claim is not None and force:
        call.out.note(f"{claim.says}; --force: calling {method} anyway")
        return None
    return claim


def require_capability(call: Call, method: str, *, force: bool) -> None:
    """Push configs and the extended card: refused before the call (exit 1) when the card does
    not claim them, with a hint that names the claim; --force sends anyway."""
    claim = gate(call, method, force=force)
    if claim is None:
        return
    err = NotClaimedError(f"the agent does not offer {_OFFERS[claim.capability]}: {claim.says}", hint=f"{claim.says}; --force sends anyway")
    err.code = _NOT_SUPPORTED.get(claim.capability, err.code)
    raise err


def note_push_url(call: Call, params: Any) -> None:
    """A send with --push-url to an agent whose card does not claim push notifications: said on
    stderr (the message is sent all the same; the agent may refuse it or never push)."""
    config = params.get("configuration") if isinstance(params, dict) else None
    if isinstance(config, dict) and config.get("taskPushNotificationConfig"):
        claim = unclaimed(call, "CreateTaskPushNotificationConfig")
        if claim is not None:
            call.out.warn(f"--push-url: {claim.says}; the agent may refuse the message or never call the webhook")


def send_and_wait(call: Call, params: dict[str, Any], view: Any, *, interval: float, request_id: str | None = None, headers: dict[str, str] | None = None) -> None:
    """`stream` / `send --stream` to an agent whose card does not claim streaming: a blocking
    SendMessage, then polling until the task settles; each answer goes to the stream's view (its
    shape is a StreamResponse's: {task} or {message}, a bare object under 0.3 JSON-RPC)."""
    with waiting(call.out, what="waiting for the agent's answer") as shown:
        reply = call.unary(METHODS["SendMessage"], params, request_id=request_id, headers=headers)
    call.sending = None
    call.track(reply.core)
    view.event(reply)
    if call.task.get("id") and not settled(call.task.get("state")):
        view.final(wait_for_task(call, interval, wrap=True, since=shown.started))


def poll_instead(call: Call, view: Any, *, interval: float) -> None:
    """`tasks subscribe` to an agent whose card does not claim streaming: the task polled until
    it settles (what `tasks get --wait` does), shown as the stream's last event."""
    reply = call.unary(METHODS["GetTask"], {"id": call.task["id"]})
    call.track(reply.core)
    view.final(as_stream_event(call, reply) if settled(call.task.get("state")) else wait_for_task(call, interval, wrap=True))


def list_pages(call: Call, params: dict[str, Any], request_id: str | None = None) -> Iterator[Reply]:
    """Every page of ListTasks: V1 follows nextPageToken; V0 (clix) steps limit/offset."""
    spec = METHODS["ListTasks"]
    v0 = call.opts.wire is Wire.V0
    if v0 and call.binding.flag == "jsonrpc":
        params = {"pageSize": 50, **params}
    page = call.unary(spec, params, request_id=request_id)
    yield page
    while True:
        if v0:
            size = int(params.get("pageSize") or 0)
            if not size or len(page.result or []) < size:
                return
            params = {**params, "pageToken": str(int(params.get("pageToken") or 0) + size)}
        else:
            token = (page.core or {}).get("nextPageToken")
            if not token:
                return
            params = {**params, "pageToken": token}
        page = call.unary(spec, params)
        yield page


def merge_pages(call: Call, pages: list[Reply]) -> Reply:
    """The pages of a list as one answer, in the wire's own spelling and in core form."""
    tasks: list[Any] = []
    raw_tasks: list[Any] = []
    for page in pages:
        tasks += (page.core or {}).get("tasks") or []
        raw_tasks += page.result if isinstance(page.result, list) else (page.result or {}).get("tasks") or []
    v0_array = call.opts.wire is Wire.V0 and isinstance(pages[0].result, list)
    merged = raw_tasks if v0_array else {"tasks": raw_tasks, "nextPageToken": "", "totalSize": len(raw_tasks)}
    return Reply(merged, {"tasks": tasks, "nextPageToken": ""}, b"", None)


class StreamOutcome:
    """What happened to a stream: events seen, whether it was SSE, refused or broken (and whether
    by an error the agent sent mid-stream)."""

    def __init__(self) -> None:
        self.events = 0
        self.sse = True
        self.refused = False
        self.broken: A2acliError | None = None
        self.server_error = False


RESUBSCRIBE_ATTEMPTS = 2  # re-subscriptions after a stream breaks, before polling instead


def consume(call: Call, replies: Iterator[Reply], view: Any, o: StreamOutcome, *, subscribing: bool) -> None:
    """Show a stream's events as they arrive; how it ended goes into `o`."""
    try:
        for reply in replies:
            o.events += 1
            if o.events == 1:  # one content type per exchange
                o.sse = reply.exchange.content_type == "text/event-stream"
                call.sending = None  # answered: Ctrl-C now names the task, if any
            call.track_reply(reply)
            view.event(reply)
    except RpcError as e:
        if subscribing and o.events == 0:
            o.refused = True
            subscribe_refused(call, view, e)  # the finished task shown, or polled below
        elif o.events and call.task.get("id"):  # an error event mid-stream: the task is polled (A2ACLI_TASK_POLL_004)
            o.broken, o.server_error = e, True
        else:
            raise
    except (UnreachableError, HttpError) as e:
        o.broken = e
    except ConnectionBrokenError as e:  # (a malformed answer is not: it ends the run)
        if not call.task.get("id"):
            raise
        o.broken = e


def follow_stream(call: Call, replies: Iterator[Reply], view: Any, *, subscribing: bool, follow: bool = True, interval: float = 1.0) -> None:
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
    done = settled(call.task.get("state"))
    tid = call.task.get("id")
    broke = bool(o.broken and tid and not done and follow)
    if subscribing and not o.refused and not broke:
        call.out.note(subscribe_kind(call, o, done))
    if broke and not o.server_error:
        assert o.broken is not None
        if resubscribe(call, view, o.broken):
            return
    elif broke:
        call.out.note(f"the stream ended with an error from the agent ({o.broken.message if o.broken else ''}); polling task {tid}")
    if tid and not settled(call.task.get("state")) and follow:
        if not subscribing and not broke:
            call.out.note(f"the agent closed the stream before the task finished; polling task {tid}")
        view.final(wait_for_task(call, interval, wrap=True))  # a StreamResponse {task} like the events
    elif o.broken and not broke:
        raise o.broken


def resubscribe(call: Call, view: Any, err: A2acliError, *, attempts: int = RESUBSCRIBE_ATTEMPTS) -> bool:
    """After a stream broke: SubscribeToTask again (A2ACLI_TASK_SUBSCRIBE_002), with Last-Event-ID
    when the server gave event ids, at most `attempts` times, a short backoff between them. True
    when a re-subscription followed the task until it settled; False to poll (said on stderr)."""
    from a2acli.pipeline.session import retry_delay

    tid = call.task["id"]
    spec = METHODS["SubscribeToTask"]
    for attempt in range(1, attempts + 1):
        last = call.event_ids.last
        since = f", Last-Event-ID {last}" if last else ""
        call.out.note(f"the stream broke ({err.message}); re-subscribing to task {tid} ({attempt}/{attempts}{since})")
        delay = retry_delay(attempt - 1)
        left = call.transport.time_left()
        time.sleep(delay if left is None else max(min(delay, left), 0))
        call.transport.check_deadline()
        call.event_ids.resume()
        skipped = call.event_ids.skipped
        o = StreamOutcome()
        try:
            consume(call, call.stream(spec, {"id": tid}, headers={"Last-Event-ID": last} if last else None), view, o, subscribing=False)
        except TimeoutExpired:
            raise
        except A2acliError as e:  # refused, or nothing came: try again, then poll
            err = e
            continue
        replayed = call.event_ids.skipped - skipped
        said = f"{o.events} new event(s)" + (f", {replayed} replayed event(s) not shown again" if replayed else "")
        if settled(call.task.get("state")):
            call.out.note(f"re-subscribed to task {tid}: {said}, until it was {state_text(call.task.get('state'))}")
            return True
        if o.broken is None:
            call.out.note(f"re-subscribed to task {tid}: {said}, then the agent closed the stream before the task finished; polling task {tid}")
            return False
        err = o.broken
    call.out.note(f"re-subscribing to task {tid} failed ({err.message}); polling task {tid}")
    return False


def subscribe_kind(call: Call, o: StreamOutcome, done: bool) -> str:
    """Which of the servers' SubscribeToTask behaviours this was, in one line."""
    tid, state = call.task["id"], state_text(call.task.get("state"))
    poll = f"; polling task {tid} until it settles"
    if o.events == 0:
        return "subscribe: the agent closed the stream without sending an event" + poll
    if o.broken:
        return f"subscribe: the stream broke after {o.events} event(s) ({o.broken.message})" + poll
    if not o.sse:
        return "subscribe: the agent answered with one plain JSON document, not an event stream" + (f"; the task is {state}" if done else poll)
    if o.events == 1:
        if done:
            return f"subscribe: one event (a snapshot) of a task that is already {state}"
        return "subscribe: snapshot then close: the agent sent the task's current state and closed the stream (it does not stream live updates)" + poll
    if done:
        return f"subscribe: full stream: {o.events} events, live until the task was {state}"
    return f"subscribe: the stream closed after {o.events} events before the task finished" + poll


def check_push_config_answer(call: Call, method: str, params: dict[str, Any], core: Any) -> None:
    """What the answer to a push-config get or delete does not say by itself: a config with
    another id than the one asked for (a2a-sdk 0.3 ignores the id and answers the task's first
    config), and a delete the agent reports done whether or not the id existed."""
    asked = params.get("id")
    if method == "GetTaskPushNotificationConfig" and isinstance(core, dict) and asked and core.get("id") not in (None, asked):
        call.out.warn(
            f"asked for push config {asked!r}, the agent answered config {core.get('id')!r}: it ignores the config id (or has no such config); `a2a push-config list {params.get('taskId')}` shows them all"
        )
    elif method == "DeleteTaskPushNotificationConfig":
        call.out.note(
            f"the agent reports push config {asked!r} of task {params.get('taskId')} deleted; agents report this for an id they do not know as well: `a2a push-config list {params.get('taskId')}` shows what is left"
        )


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
    how = {"text/event-stream": "as an SSE event", "application/grpc": "as a gRPC status"}.get(kind, "as a plain JSON answer")
    if refusal:
        how = "it closed the stream without an event"
    elif not refuses_finished(err):
        call.out.note(f"subscribe: the agent refused, {how}")
        raise err
    tid = call.task["id"]
    why = how if refusal else f"{err.message}, {how}"
    try:
        reply = call.unary(METHODS["GetTask"], {"id": tid})
    except A2acliError:
        raise err from None
    call.track(reply.core)
    label = state_text(call.task.get("state"))
    if not settled(call.task.get("state")):
        call.out.note(f"subscribe: the agent refused ({why}) though task {tid} is {label}; polling it instead")
        return False
    call.out.note(f"subscribe: task {tid} is already finished ({label}); the agent does not stream a finished task ({why}); showing it from GetTask")
    view.final(as_stream_event(call, reply))
    return True


def report_task_outcome(call: Call, expect: frozenset[str] | None, *, waited: bool = True) -> None:
    """Warnings for failed/rejected tasks, the command to continue an interrupted one or to follow
    one left running (`waited` False: `--async`), and the --expect-state gate (exit 6). The exit
    code never encodes the task's outcome otherwise."""
    from a2acli.wire.translate import is_interrupted, to_core_task_state

    t = call.task
    if not t.get("id"):
        if expect:
            raise UnexpectedStateError("the agent answered with a message, not a task", hint="--expect-state applies to tasks")
        return
    state = to_core_task_state(t.get("state") or "TASK_STATE_UNSPECIFIED")
    label = state_text(state)
    if state in ("TASK_STATE_FAILED", "TASK_STATE_REJECTED"):
        call.out.warn(f"task {t['id']} ended {label}")
    elif state == "TASK_STATE_AUTH_REQUIRED":
        auth_required_notes(call)  # exit 0 all the same: the outcome is the task's
    elif is_interrupted(state):  # a normal pause, not a fault: a note, kept under -q (the user must act on it)
        call.out.note(f"task {t['id']} is {label}: it needs input; continue with:", always=True)
        call.out.command(f"{continue_command(call)} 'your reply'", always=True)
    elif not waited and not settled(state):
        call.out.note(f"task {t['id']} is {label}; follow it with:")
        call.out.command(f"a2a tasks get {_q(t['id'])} --wait{conn_flags(call.opts)}")
    elif state == "TASK_STATE_COMPLETED" and call.out.mode == "text" and t.get("contextId"):
        call.out.note(f"task {t['id']} completed; a next message in its context:")
        call.out.command(f"a2a send --context-id {_q(t['contextId'])}{conn_flags(call.opts)} 'your message'")
    if expect and state not in expect:
        want = ", ".join(sorted(state_text(s) for s in expect))
        raise UnexpectedStateError(f"task {t['id']} ended {label}, expected {want}", hint="drop --expect-state to accept any end state")


def _q(value: Any) -> str:
    """A value in a command printed to paste, quoted for the shell whoever chose it (an agent's task
    id `t1; echo INJECTED` stays one word)."""
    import shlex

    return shlex.quote(str(value))


def continue_command(call: Call) -> str:
    """`a2a send --task-id T --context-id C` and this call's connection flags: the start of the
    command that continues the task in hand (the message follows)."""
    t = call.task
    return f"a2a send --task-id {_q(t['id'])} --context-id {_q(t.get('contextId', ''))}{conn_flags(call.opts)}"


AUTH_CONTINUE = "'continue'"  # the message that goes with the credential (the agent may read it)


class AuthWay(NamedTuple):
    """One way to give the credential an AUTH_REQUIRED task asks for: the card's scheme (its
    name and render.views.Way), and the commands that continue the task with it."""

    name: str
    way: Any
    commands: list[str]


def auth_ways(call: Call) -> tuple[Any, list[AuthWay]]:
    """What the task in AUTH_REQUIRED asks for (wire.security.auth_ask: the schemes its status
    message names, else the card's), and for each scheme the commands that continue it: with the
    flag that sends the credential where the card's scheme takes it (`--api-key KEY`), or
    `a2a auth login` first for an OAuth2 / OpenID Connect flow. Placeholders only, never a secret."""
    import shlex

    from a2acli.render.views import scheme_way
    from a2acli.wire.security import auth_ask

    card = call.card if isinstance(call.card, dict) else None
    ask = auth_ask(card, call.ask)
    schemes = (card or {}).get("securitySchemes") or {}
    opts, src = call.opts, call.opts.sources or {}
    profile = f" --profile {shlex.quote(opts.profile)}" if opts.profile else ""  # the token is kept in it
    url = f" -u {shlex.quote(opts.url)}" if opts.url and src.get("url") == "flag" else ""
    base = continue_command(call)
    ways: list[AuthWay] = []
    seen: set[tuple[str, str]] = set()
    for name, _kind, _body in ask.schemes:
        way = scheme_way(schemes.get(name) if isinstance(schemes, dict) else None)
        if (way.login, way.flag) in seen or not (way.login or way.flag):
            continue
        seen.add((way.login, way.flag))
        login_first = [f"{way.login}{url}{profile}", f"{base}{profile} {AUTH_CONTINUE}"]
        commands = login_first if way.login else [f"{base} {way.flag} {AUTH_CONTINUE}"]
        ways.append(AuthWay(name, way, commands))
    return ask, ways


def auth_required_notes(call: Call) -> None:
    """A task in AUTH_REQUIRED (A2A §7.6.2; official CLI spec §8.2, §10.3, A2ACLI_AUTH_011): on
    stderr, what it asks for (its status message read against the card's schemes, and a sign-in
    URL the message names) and the command(s) that continue it with that credential."""
    t = call.task
    ask, ways = auth_ways(call)
    head = f"task {t['id']} is {state_text('TASK_STATE_AUTH_REQUIRED')}: it needs authentication"
    signin = f"; it names {ask.url} to sign in" if ask.url else ""

    def say(msg: str) -> None:  # a normal pause, not a fault: a note, kept under -q (the user must act on it)
        call.out.note(msg, always=True)

    if not ways:
        if call.card is None or call.opts.endpoint:  # no card: credentials go as given
            say(f"{head}{signin}; its status message says which credential: add it (--api-key KEY, --bearer TOKEN or --basic USER:PASS) to continue:")
            call.out.command(f"{continue_command(call)} {AUTH_CONTINUE}", always=True)
        else:
            say(f"{head}{signin}; the Agent Card declares no security scheme that takes a credential, so --api-key and --bearer are not sent to it; -H sends what its status message asks for:")
            call.out.command(f"{continue_command(call)} -H 'NAME: VALUE' {AUTH_CONTINUE}", always=True)
        return
    said = "; or ".join(f"{w.name!r} ({w.way.kind}, {w.way.where})" for w in ways)
    asked = f"the agent asks for the Agent Card's scheme {said}" if ask.named else f"its status message names no scheme of the Agent Card, which declares {said}"
    get = "get the token, then continue" if all(w.way.login for w in ways) else "continue with the credential"
    say(f"{head}; {asked}{signin}; {get}{' (one of these)' if len(ways) > 1 else ''}:")
    for w in ways:
        for command in w.commands:
            call.out.command(command, always=True)


# what a typed secret is, by the option it fills (render.views.Way.option)
SECRET_WHAT = {"api_key": "API key", "bearer": "bearer token", "basic": "USER:PASSWORD"}


def read_credential(call: Call, secret: Any) -> dict[str, Any]:
    """At a terminal (`a2a chat`), for a task in AUTH_REQUIRED: say which of the card's schemes it
    asks for, read that credential with `secret` (getpass: not echoed) and return it as the
    options it fills ({"api_key": …}) for the next turn only. {} when skipped (Enter, Ctrl-D), or
    when no scheme takes a typed secret (mutual TLS, none declared): then the commands that
    continue the task are said instead."""
    _ask, ways = auth_ways(call)
    typed = [w for w in ways if w.way.option]
    tid = call.task["id"]
    if not typed:
        auth_required_notes(call)
        return {}
    w = typed[0]
    call.out.note(f"task {tid} needs authentication: the agent asks for the Agent Card's scheme {w.name!r} ({w.way.kind}, {w.way.where})")
    try:
        value = str(secret(f"{SECRET_WHAT[w.way.option]} for {w.way.where} (not shown; Enter to skip): ") or "")
    except EOFError:
        value = ""
    if w.way.option == "basic" and value.strip() and ":" not in value:
        call.out.warn("HTTP basic takes USER:PASSWORD (a colon between them): not sent")
        value = ""
    if not value.strip():
        call.out.note(f"no credential: your next line answers task {tid} without one (/new leaves it)")
        return {}
    given: dict[str, Any] = {w.way.option: value.strip()}
    call.redactor.add(value.strip())  # never shown, from now on (turn_credentials adds its encodings)
    call.out.note(f"the credential goes with your next line only, to task {tid} as {w.way.where}; it is not stored")
    return given


def resume_notes(out: Any, call: Call | None, why: str, *, unsettled_only: bool = False) -> bool:
    """`interrupted: task T (context C) was working` and the commands to pick it up again (the
    subscription with --stream when the events were being shown as they came); before the agent
    answered a send, what was sent and the command that finds its task."""
    task = call.task if call is not None else {}
    if not task.get("id") and call is not None and call.sending:
        return unanswered_notes(out, call, why)
    if not task.get("id") or unsettled_only and settled(task.get("state")):
        return False
    flags = conn_flags(call.opts) if call is not None else ""
    out.note(f"{why}: task {task['id']} (context {task.get('contextId') or '?'}) was {state_text(task.get('state'))}; resume with one of:")
    live = " --stream" if call is not None and call.live_view else ""  # back into the view that was interrupted
    out.command(f"a2a tasks subscribe {_q(task['id'])}{live}{flags}")
    out.command(f"a2a tasks get {_q(task['id'])} --wait{flags}")
    return True


def unanswered_notes(out: Any, call: Call, why: str) -> bool:
    """Ctrl-C (or --timeout) before the agent answered a send (A2ACLI_TASK_POLL_002): the message
    id, the context and task ids given, and how to find the task it may have started: ListTasks
    (by context when one was given) where the version has it; under 0.3, which has no way to list
    tasks, that is said instead of a command that would exit 2."""
    import shlex

    m = call.sending or {}
    flags = conn_flags(call.opts)
    ctx, tid = m.get("contextId"), m.get("taskId")
    known = ", ".join(f"{k} {v}" for k, v in (("context", ctx), ("task", tid)) if v)
    sent = f"{why} before the agent answered: message {m.get('messageId')}" + (f" ({known})" if known else "") + " was sent"
    if tid:
        out.note(f"{sent}; if the agent started a task, find it with:")
        out.command(f"a2a tasks get {shlex.quote(str(tid))}{flags}")
    elif can_list_tasks(call):
        out.note(f"{sent}; if the agent started a task, find it with:")
        out.command(f"a2a tasks list --context-id {shlex.quote(str(ctx))}{flags}" if ctx else f"a2a tasks list{flags}")
    else:
        out.note(f"{sent}; A2A 0.3 has no way to list tasks, so the task it may have started is known only to the agent (--follow says a task's id as soon as the agent takes the message)")
    return True


def can_list_tasks(call: Call) -> bool:
    """Whether `a2a tasks list` works with the version in use: 1.0, or 0.3 under a dialect with the
    vendor's tasks/list."""
    from a2acli.wire.methods import NoV0FormError

    try:
        METHODS["ListTasks"].wire_name(call.opts.wire, call.opts.dialect)
    except NoV0FormError:
        return False
    return True


def explain_rejected_ids(err: A2acliError, call: Call) -> A2acliError:
    """A send that carried --task-id or --context-id, refused by the agent (TaskNotFoundError, a
    task in a terminal state, a context that does not match, or any other A2A or HTTP error): the
    hint names the ids and points at --debug for the exchange. Nothing is retried, and no new task
    is started in their place (official CLI spec, A2ACLI_INTERACT_002)."""
    from a2acli.errors import HttpError

    if not isinstance(err, (RpcError, HttpError)) or call.sent is None or call.sent[0] not in ("SendMessage", "SendStreamingMessage"):
        return err
    if isinstance(err, HttpError) and isinstance(err.wire_code, int) and not 400 <= err.wire_code < 500:
        return err  # the agent failed (5xx): not a refusal of the ids
    params = call.sent[1] if isinstance(call.sent[1], dict) else {}
    message: dict[str, Any] = params["message"] if isinstance(params.get("message"), dict) else {}
    given = [f"{flag} {_q(message[key])}" for key, flag in (("taskId", "--task-id"), ("contextId", "--context-id")) if message.get(key)]
    if not given:
        return err
    ids = " and ".join(given)
    see = f"the request that carried {ids} and the answer are above (--debug)" if call.opts.debug else f"rerun with --debug to see the request that carried {ids} and the agent's answer"
    hint = err.hint
    if message.get("taskId") and (err.code == "UnsupportedOperationError" or "terminal" in err.message.lower()):
        # A2A: a task in a terminal state takes no more messages; the interaction goes on in a new task of the same context
        ctx = message.get("contextId")
        hint = "a task that has ended takes no more messages: go on in a new task of the same context, " + (
            f"--context-id {_q(ctx)} without --task-id" if ctx else f"with the task's --context-id (`a2a tasks get {_q(message['taskId'])}` shows it) and without --task-id"
        )
    err.hint = f"{see}; nothing was retried and no new task started" + (f"; {hint}" if hint else "")
    return err


def refused_credentials(err: A2acliError, call: Call) -> A2acliError:
    """A 401 / 403 to a call that carried a credential: the hint names what went, where it went
    and where its value came from (`the API key from env A2ACLI_API_KEY, sent in header
    X-API-Key`), and how to give another, as exactly as the hint of a missing one."""
    from a2acli.wire.endpoints import api_key_placement

    o, src = call.opts, call.opts.sources or {}

    def origin(option: str) -> str:
        said = src.get(option, "")
        return "" if said in ("", "flag", "default") else f" from {said}"

    where, name = api_key_placement(call.card if isinstance(call.card, dict) else None)
    grpc = call._binding is not None and getattr(call._binding, "carrier", "http") != "http"
    if grpc:  # gRPC metadata carries what headers carry, names in lowercase
        where, name = "metadata", name.lower()
    auth = "metadata authorization" if grpc else "header Authorization"
    what = {
        "api-key": f"the API key{origin('api-key')} (--api-key), sent in {where} {name}",
        "bearer": f"the bearer token{origin('bearer')} (--bearer), sent in {auth}",
        "basic": f"USER:PASSWORD{origin('basic')} (--basic), sent in {auth}",
        "oauth": f"the OAuth2 token of `a2a auth login`, sent in {auth}",
    }
    went = [what[c] for c in ("api-key", "bearer", "basic", "oauth") if c in call.creds_sent]
    went += [f"the -H {header} header" for header, _ in o.headers if header.lower() in ("authorization", "x-api-key")]
    if o.cert:
        went.append("the client certificate (--cert)")
    if not went:
        return err
    again = "`a2a auth login` again for a new token" if call.creds_sent == {"oauth"} else "check it, or give another"
    err.hint = f"the agent refused {' and '.join(went)}: {again}; `a2a card fetch` shows the schemes it accepts"
    return err


def explain_auth(err: A2acliError, call: Call | None) -> A2acliError:
    """A 401 (or 403) to a call that carried no credential: the agent requires one
    (A2ACLI_ERR_CREDENTIALS_MISSING), which scheme its card names, and the flag that sends it
    (instead of "refused the credentials", A2ACLI_ERR_AUTH_FAILED)."""
    from a2acli.errors import AuthError, CredentialsMissingError

    if not isinstance(err, AuthError) or err.http_status not in (401, 403) or call is None:
        return err
    o = call.opts
    given = o.api_key or o.bearer or o.basic or o.oauth
    if given and not call.withheld or call.creds_sent or o.cert or any(name.lower() in ("authorization", "x-api-key") for name, _ in o.headers):
        return refused_credentials(err, call)  # a credential went: it was refused
    from a2acli.render.views import scheme_how

    schemes = ((call.card or {}).get("securitySchemes") or {}) if isinstance(call.card, dict) else {}
    named = [(str(name), *scheme_how(scheme)) for name, scheme in schemes.items()] if isinstance(schemes, dict) else []
    status = err.message.split(": ", 1)[1] if ": " in err.message else f"HTTP {err.http_status}"
    if named:
        ways = "; or ".join(f"{name} ({kind} in {where}): pass {flag}" if where else f"{name} ({kind}): pass {flag}" for name, kind, where, flag in named)
        hint = f"the card names {ways}"
        if call.withheld:
            hint += f" (not sent, the card declares no scheme for it: {', '.join(call.withheld)})"
    else:
        hint = "pass --api-key, --bearer or --basic, or `a2a auth login` for OAuth2 (the card names no scheme)"
    return CredentialsMissingError(f"the agent requires credentials and none were sent ({status})", hint=hint, request_id=err.request_id, wire_code=err.wire_code)
