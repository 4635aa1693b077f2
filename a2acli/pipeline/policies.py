"""Small policies on top of `Call.invoke`: waiting for a task to settle, following list pages,
falling back to polling when a stream ends early, and what a task's end state means for the
exit code. Each works whatever binding carries the calls."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from a2acli.errors import A2acliError, ConnectionBrokenError, HttpError, RpcError, UnexpectedStateError, UnreachableError, UsageError
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


def wait_for_task(call: Call, interval: float, *, wrap: bool = False, max_interval: float = 5.0, since: float | None = None) -> Reply:
    """Poll GetTask until the task is terminal or interrupted, backing off up to max_interval; the
    wait shows on stderr (render.present.waiting: a spinner at a terminal). `since`: when the
    wait began (a blocking send that came back unfinished)."""
    spec = METHODS["GetTask"]
    delay = max(interval, 0.05)
    with waiting(call.out, call.task, since=since) as shown:
        while True:
            left = call.transport.time_left()  # the whole-call --timeout
            time.sleep(delay if left is None else max(min(delay, left), 0))
            call.transport.check_deadline()  # TimeoutExpired (exit 5); the boundary prints how to resume
            reply = call.unary(spec, {"id": call.task["id"]})
            call.track(reply.core)
            shown.update(reply.core)
            if settled(call.task.get("state")):
                break
            delay = min(delay * 1.5, max_interval)
    return as_stream_event(call, reply) if wrap else reply


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
    """What happened to a stream: events seen, whether it was SSE, refused or broken."""

    def __init__(self) -> None:
        self.events = 0
        self.sse = True
        self.refused = False
        self.broken: A2acliError | None = None


def follow_stream(call: Call, replies: Iterator[Reply], view: Any, *, subscribing: bool, follow: bool = True) -> None:
    """Show a stream's events as they arrive; if it ends before the task does (a snapshot-then-
    close server, a dropped connection), poll until it settles.

    SubscribeToTask meets several server behaviours, each named in a note on stderr: a full
    stream, a snapshot then close, one plain JSON answer, and a refusal for a finished task
    (-32004, as a JSON body or as an SSE event), after which the task is shown from GetTask."""
    o = StreamOutcome()
    try:
        for reply in replies:
            o.events += 1
            if o.events == 1:  # one content type per exchange
                o.sse = reply.exchange.content_type == "text/event-stream"
            call.track_reply(reply)
            view.event(reply)
    except RpcError as e:
        if not (subscribing and o.events == 0):
            raise
        o.refused = True
        subscribe_refused(call, view, e)  # the finished task shown, or polled below
    except (UnreachableError, HttpError) as e:
        o.broken = e
    except ConnectionBrokenError as e:  # (a malformed answer is not: it ends the run)
        if not call.task.get("id"):
            raise
        o.broken = e
    if o.broken and o.events == 0:
        if not (subscribing and isinstance(o.broken, ConnectionBrokenError)):
            raise o.broken
        # a2a-sdk's 0.3 REST server answers a subscribe it refuses with SSE headers, then hangs up
        o.refused, broken, o.broken = True, o.broken, None
        subscribe_refused(call, view, broken, refusal=True)
    done = settled(call.task.get("state"))
    if subscribing and not o.refused:
        call.out.note(subscribe_kind(call, o, done))
    if call.task.get("id") and not done and follow:
        if not subscribing:
            why = f"the stream broke ({o.broken.message})" if o.broken else "the agent closed the stream before the task finished"
            call.out.note(f"{why}; polling task {call.task['id']}")
        view.final(wait_for_task(call, 0.5, wrap=True))  # a StreamResponse {task} like the events; backs off to 5 s
    elif o.broken:
        raise o.broken


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
    elif is_interrupted(state):
        what = "input" if state == "TASK_STATE_INPUT_REQUIRED" else "authentication"
        call.out.warn(f"task {t['id']} is {label}: it needs {what}; continue with:")  # exit 0 all the same: the outcome is the task's
        call.out.command(f"a2a send --task-id {t['id']} --context-id {t.get('contextId', '')}{conn_flags(call.opts)} 'your reply'")
    elif not waited and not settled(state):
        call.out.note(f"task {t['id']} is {label}; follow it with:")
        call.out.command(f"a2a tasks get {t['id']} --wait{conn_flags(call.opts)}")
    elif state == "TASK_STATE_COMPLETED" and call.out.mode == "text" and t.get("contextId"):
        call.out.note(f"task {t['id']} completed; a next message in its context:")
        call.out.command(f"a2a send --context-id {t['contextId']}{conn_flags(call.opts)} 'your message'")
    if expect and state not in expect:
        want = ", ".join(sorted(state_text(s) for s in expect))
        raise UnexpectedStateError(f"task {t['id']} ended {label}, expected {want}", hint="drop --expect-state to accept any end state")


def resume_notes(out: Any, call: Call | None, why: str, *, unsettled_only: bool = False) -> bool:
    """`interrupted: task T (context C) was working` and the commands to pick it up again."""
    task = call.task if call is not None else {}
    if not task.get("id") or unsettled_only and settled(task.get("state")):
        return False
    flags = conn_flags(call.opts) if call is not None else ""
    out.note(f"{why}: task {task['id']} (context {task.get('contextId') or '?'}) was {state_text(task.get('state'))}; resume with one of:")
    out.command(f"a2a tasks subscribe {task['id']}{flags}")
    out.command(f"a2a tasks get {task['id']} --wait{flags}")
    return True


def explain_auth(err: A2acliError, call: Call | None) -> A2acliError:
    """A 401 to a call that carried no credential: the agent requires one, which scheme its card
    names, and the flag that sends it (instead of "refused the credentials")."""
    from a2acli.errors import AuthError

    if not isinstance(err, AuthError) or err.http_status != 401 or call is None:
        return err
    o = call.opts
    if o.api_key or o.bearer or o.basic or o.oauth or o.cert or any(name.lower() in ("authorization", "x-api-key") for name, _ in o.headers):
        return err
    from a2acli.render.views import scheme_how

    schemes = ((call.card or {}).get("securitySchemes") or {}) if isinstance(call.card, dict) else {}
    named = [(str(name), *scheme_how(scheme)) for name, scheme in schemes.items()] if isinstance(schemes, dict) else []
    status = err.message.split(": ", 1)[1] if ": " in err.message else "HTTP 401"
    if named:
        ways = "; or ".join(f"{name} ({kind} in {where}): pass {flag}" if where else f"{name} ({kind}): pass {flag}" for name, kind, where, flag in named)
        hint = f"the card names {ways}"
    else:
        hint = "pass --api-key, --bearer or --basic, or `a2a auth login` for OAuth2 (the card names no scheme)"
    return AuthError(f"the agent requires credentials and none were sent ({status})", hint=hint, request_id=err.request_id)
