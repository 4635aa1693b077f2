"""The method calls, headless: a unary call (waiting for a send's task, or polling one), a stream
(or a subscription, or what stands in for one when the card claims no streaming), a list of tasks
one page or every page. Each takes the open session (`pipeline.session.Call`: the options it was
opened with, and the sink its notes go to) and its own typed arguments, and returns the answer;
the face presents it (the CLI's `flows.runs`, `a2a mcp`). A stream's events go to a view the
face gives (`event`, `final`, `waiting`, `summary`: render.stream for the CLI)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import TYPE_CHECKING, Any

from a2acli.errors import A2acliError
from a2acli.events import Note, Passthrough

if TYPE_CHECKING:
    from a2acli.events import Sink
    from a2acli.pipeline.options import CallOptions
    from a2acli.pipeline.session import Call, Reply


def against(opts: CallOptions, work: Callable[[Call], Any]) -> tuple[Any, list[str]]:
    """`work(call)` in one session over `opts` whose notes are kept, not shown: its value and the
    warnings the call gave; an A2acliError it ends with is explained from the call (flows.errors)."""
    from a2acli.events import Recording, Warn
    from a2acli.flows.errors import explained

    sink = Recording()
    with opened(opts, sink) as call:
        try:
            value = work(call)
        except A2acliError as e:
            said = explained(e, call)
            said.task = _unsettled(call)
            raise said from None
    return value, [w.text for w in sink.of(Warn)]


def _unsettled(call: Call) -> dict[str, Any] | None:
    """The task the call had in hand and left unsettled (a timeout, a stream cut short): its id,
    context and state, so that a face can say which task to pick up again; None otherwise."""
    from a2acli.pipeline.policies.waiting import settled

    task = call.tracking.task
    if not task.get("id") or settled(task.get("state")):
        return None
    return {"id": task["id"], "contextId": task.get("contextId"), "state": task.get("state")}


@contextmanager
def opened(opts: CallOptions, sink: Sink) -> Iterator[Call]:
    """One session over these options, its events to `sink`; closed at the end."""
    from a2acli.pipeline.session import Call

    with Call(opts, sink) as call:
        yield call


def unary(
    call: Call,
    method: str,
    params: Any,
    *,
    request_id: str | None = None,
    wait: bool = False,
    poll_interval: float = 1.0,
    headers: dict[str, str] | None = None,
    retries: int = 0,
    force: bool = False,
    strict: bool = False,
) -> Reply:
    """One call and its answer. `wait`: a task that is not settled yet is waited for: a send's
    task followed (subscribed to, else polled: pipeline.policies.follow_task), any other polled."""
    from a2acli.pipeline.policies import (
        CAPABILITY,
        check_push_config_answer,
        check_skill,
        explain_send_refusal,
        follow_task,
        note_held_answer,
        note_push_url,
        require_capability,
        settled,
        wait_for_task,
    )
    from a2acli.wire.methods import METHODS

    spec = METHODS[method]
    call.resolve()  # the agent, its card, the version and the endpoint (under --offline: what is known)
    if spec.name in CAPABILITY:  # push configs, the extended card: only when the card claims them
        require_capability(call, spec.name, force=force)
    blocking = wait and spec.result == "send" and call.sends  # a blocking send: the agent may answer late
    if spec.result == "send":
        note_push_url(call, params)
        check_skill(call, params, strict=strict)  # a --skill the card does not list: a warning (--strict: refused)
        call.sending = params.get("message")  # Ctrl-C before the answer names it
    with call.sink.waiting(what="waiting for the agent's answer") if blocking else nullcontext() as shown:
        try:
            reply = call.unary(spec, params, request_id=request_id, headers=headers, retries=retries)
        except A2acliError as e:
            if spec.result == "send":
                explain_send_refusal(e, params)  # the hint, when returnImmediately may be what was refused
            if spec.name == "CancelTask":
                from a2acli.pipeline.policies import refused_cancel

                refused_cancel(call, str(params["id"]), e)  # the task's state, read after the refusal
            raise
    call.sending = None
    call.tracking.track(reply.core)
    check_push_config_answer(call, spec.name, params, reply.core)
    if spec.result == "send":
        note_held_answer(call, params, reply)
    if wait and call.tracking.task.get("id") and not settled(call.tracking.task.get("state")):
        call.sink.emit(Passthrough(reply.raw))  # raw: the first answer too, as it came
        since = shown.started if shown else None
        history = (
            (params.get("configuration") or {}).get("historyLength")
            if spec.result == "send"
            else params.get("historyLength")
        )
        query = {} if history is None else {"historyLength": history}  # --history on every poll, not only the first
        reply = (
            follow_task(call, poll_interval, query=query, since=since)
            if spec.result == "send"
            else wait_for_task(call, poll_interval, since=since, query=query)
        )
    return reply


def stream(
    call: Call,
    method: str,
    params: Any,
    view: Callable[[], AbstractContextManager[Any]],
    *,
    request_id: str | None = None,
    headers: dict[str, str] | None = None,
    follow: bool = True,
    force: bool = False,
    poll_interval: float = 1.0,
    live: bool = True,
    strict: bool = False,
) -> dict[str, Any]:
    """A method's events, each to the view `view()` opens once the agent is resolved
    (pipeline.policies.follow_stream); the task as the events left it. `live` False (`tasks
    subscribe` without --stream): a Ctrl-C resumes into the view of the end only. When the Agent
    Card does not claim streaming (and no `force`): a send is sent blocking and its task polled, a
    subscription polls the task; a note says so."""
    from a2acli.pipeline.policies import check_skill, follow_stream, gate, note_push_url, poll_instead, send_and_wait
    from a2acli.wire.methods import METHODS

    spec = METHODS[method]
    subscribing = spec.name == "SubscribeToTask"
    if subscribing:
        call.tracking.task["id"] = params["id"]  # known before any event: Ctrl-C can name it
    else:
        call.sending = params.get("message")  # Ctrl-C before the first event names it
    call.live_view = live  # Ctrl-C or --timeout: the resume command streams too
    call.resolve()  # the card, if any: does it claim streaming?
    claim = gate(call, spec.name, force=force)
    note_push_url(call, params)
    if not subscribing:
        check_skill(call, params, strict=strict)
    with view() as shown:
        if claim is None:
            follow_stream(
                call,
                call.stream(spec, params, request_id=request_id, headers=headers),
                shown,
                subscribing=subscribing,
                follow=follow,
                interval=poll_interval,
            )
        elif subscribing:
            call.sink.emit(
                Note(f"{claim.says}: polling task {params['id']} instead of subscribing (--force subscribes anyway)")
            )
            poll_instead(call, shown, interval=poll_interval)
        else:
            call.sink.emit(
                Note(
                    f"{claim.says}: sending the message with SendMessage and polling its task instead of streaming (--force streams anyway)"
                )
            )
            send_and_wait(call, params, shown, interval=poll_interval, request_id=request_id, headers=headers)
        shown.summary(call.tracking.task)
    return call.tracking.task


def list_tasks(
    call: Call,
    params: dict[str, Any],
    *,
    all_pages: bool = False,
    request_id: str | None = None,
    page: Callable[[Reply], None] | None = None,
) -> Reply:
    """ListTasks: one page, or every page (V1 pageToken cursor; V0 clix limit/offset) merged into
    one answer, each page handed to `page` as it arrives."""
    from a2acli.pipeline.policies import list_pages, merge_pages
    from a2acli.wire.methods import METHODS

    spec = METHODS["ListTasks"]
    if not all_pages:
        return call.unary(spec, params, request_id=request_id)
    pages = []
    for one in list_pages(call, params, request_id):
        if page is not None:
            page(one)
        pages.append(one)
    return merge_pages(call, pages)


class Collected:
    """A stream's view that shows nothing (the view `stream` takes, for a face with no terminal):
    it keeps the last event, the task's state and the text so far (status messages and artifact
    text, an appended chunk joined to its artifact), and tells `progress` after each event (the
    event's number, the state, the text so far)."""

    def __init__(self, progress: Callable[[int, str, str], None] | None = None) -> None:
        from a2acli.events import QuietWait

        self.progress = progress
        self.events = 0
        self.state = ""
        self.last: Reply | None = None
        self.said: list[str] = []  # status messages' text, in order
        self.artifacts: dict[str, str] = {}  # artifact id -> its text so far
        self.waiting = QuietWait()  # polls (after a broken stream) show nothing either

    def __enter__(self) -> Collected:
        return self

    def __exit__(self, *exc: Any) -> None:
        pass

    @property
    def text(self) -> str:
        return "\n".join([*self.said, *(t for t in self.artifacts.values() if t)])

    def event(self, reply: Reply) -> None:
        from a2acli.render.views import parts_text
        from a2acli.wire.words import state_label

        self.events += 1
        self.last = reply
        core = reply.core if isinstance(reply.core, dict) else {}
        task = core.get("task") or {}
        update = core.get("statusUpdate") or {}
        status = task.get("status") or update.get("status") or {}
        if status.get("state"):
            self.state = state_label(status["state"])
        said = parts_text((status.get("message") or {}).get("parts")) or parts_text(
            (core.get("message") or {}).get("parts")
        )
        if said:
            self.said.append(said)
        for artifact in task.get("artifacts") or []:
            self.artifacts[str(artifact.get("artifactId"))] = parts_text(artifact.get("parts"))
        if change := core.get("artifactUpdate"):
            artifact = change.get("artifact") or {}
            key, chunk = str(artifact.get("artifactId")), parts_text(artifact.get("parts"))
            self.artifacts[key] = self.artifacts.get(key, "") + chunk if change.get("append") else chunk
        if self.progress is not None:
            self.progress(self.events, self.state, self.text)

    final = event  # the task polled after the stream ended: one more event

    def summary(self, task: dict[str, Any]) -> None:
        pass
