"""What a task's end state means for the exit code, the commands printed to continue or resume, credentials asked for mid-task, and the hints that explain a refusal."""

from __future__ import annotations

from typing import Any, NamedTuple

from a2acli.errors import NO_RECORDED_ANSWER, A2acliError, HttpError, RpcError, UnexpectedStateError
from a2acli.events import CommandLine, NextStep, Note, Sink, TaskShown, Warn
from a2acli.pipeline.options import conn_flags
from a2acli.pipeline.policies.waiting import settled
from a2acli.pipeline.session import Call
from a2acli.wire.methods import METHODS
from a2acli.wire.words import state_label as state_text


def refused_cancel(call: Call, task_id: str, err: A2acliError) -> A2acliError:
    """A CancelTask the agent refused (TaskNotCancelableError, A2A §3.1.5): the task's resulting
    state, read with one GetTask (official CLI spec §10.4: "MUST report the resulting state"), is
    shown in text (the task record on stdout) and named in the error, which still ends the command
    with exit 1. A GetTask that fails too leaves the refusal as it was."""
    if err.code != "TaskNotCancelableError":
        return err
    try:
        reply = call.unary(METHODS["GetTask"], {"id": task_id})
    except A2acliError:
        return err
    call.tracking.track(reply.core)
    state = call.tracking.task.get("state")
    if not state:
        return err
    call.sink.emit(TaskShown("task", reply, as_v1=call.opts.as_v1))  # -o json: stdout is the one error document
    err.message = f"{err.message}: task {task_id} is {state_text(state)}"
    if not err.hint:
        err.hint = f"a task that is {state_text(state)} cannot be canceled" if settled(state) else None
    return err


def explain_send_refusal(err: A2acliError, params: dict[str, Any]) -> A2acliError:
    """A send that went with returnImmediately (--follow, --async) and was refused in a way that may
    be the agent refusing that field rather than the message (refuses_return_immediately): the hint
    says so and names the default, one blocking SendMessage. Nothing is sent again: the agent may
    have acted on the message (A2A does not make messageId a deduplication key)."""
    config = params.get("configuration") if isinstance(params, dict) else None
    if isinstance(config, dict) and config.get("returnImmediately") is True and refuses_return_immediately(err):
        err.hint = (
            (f"{err.hint}; " if err.hint else "")
            + "the agent may not take returnImmediately: without --follow and --async, a2a sends one blocking SendMessage (not resent now: the agent may have acted on it)"
        )
    return err


def refuses_return_immediately(err: A2acliError) -> bool:
    """An error answer to a send with returnImmediately that may be the agent refusing that field,
    not the message: invalid params or request (-32602, -32600), or HTTP 400, 422 or 500 with no
    A2A error (fasta2a 2.x answers a 0.3 configuration without acceptedOutputModes with a bare 500)."""
    if isinstance(err, RpcError):
        return err.a2a_code in (-32602, -32600)
    return type(err) is HttpError and err.wire_code in (400, 422, 500)


def report_task_outcome(call: Call, expect: frozenset[str] | None, *, waited: bool = True) -> None:
    """Warnings for failed/rejected tasks, the command to continue an interrupted one or to follow
    one left running (`waited` False: `--async`), and the --expect-state gate (exit 6). The exit
    code never encodes the task's outcome otherwise."""
    from a2acli.wire.translate import is_interrupted, to_core_task_state

    t = call.tracking.task
    if not t.get("id"):
        if expect:
            raise UnexpectedStateError(
                "the agent answered with a message, not a task", hint="--expect-state applies to tasks"
            )
        return
    state = to_core_task_state(t.get("state") or "TASK_STATE_UNSPECIFIED")
    label = state_text(state)
    if state in ("TASK_STATE_FAILED", "TASK_STATE_REJECTED"):
        if not expect or state in expect:  # else the --expect-state error below says it, once
            call.sink.emit(Warn(f"task {t['id']} ended {label}"))
    elif state == "TASK_STATE_AUTH_REQUIRED":
        auth_required_notes(call)  # exit 0 all the same: the outcome is the task's
    elif is_interrupted(state):  # a normal pause, not a fault: a hint, which -q drops (stdout names the state)
        call.sink.emit(Note(f"task {t['id']} is {label}: it needs input; continue with:"))
        call.sink.emit(CommandLine(f"{continue_command(call)} 'your reply'"))
    elif not waited and not settled(state):
        call.sink.emit(Note(f"task {t['id']} is {label}; follow it with:"))
        call.sink.emit(CommandLine(f"a2a tasks get {_q(t['id'])} --wait{conn_flags(call.opts)}"))
    elif state == "TASK_STATE_COMPLETED" and t.get("contextId"):  # a human's view only
        call.sink.emit(
            NextStep(
                f"task {t['id']} completed; a follow-up in its context:",
                f"a2a send --context-id {_q(t['contextId'])}{conn_flags(call.opts)} 'your message'",
            )
        )
    if expect and state not in expect:
        labels = sorted(state_text(s) for s in expect)
        want = ", ".join(labels)
        if settled(state):
            raise UnexpectedStateError(
                f"task {t['id']} ended {label}, expected {want}", hint="drop --expect-state to accept any end state"
            )
        wait = f"a2a tasks get {_q(t['id'])} --wait --expect-state {_q(','.join(labels))}{conn_flags(call.opts)}"
        raise UnexpectedStateError(  # an answer given before the task ended (--async, tasks get without --wait)
            f"task {t['id']} is {label}, not ended: expected {want}",
            hint=("--async returns before the task ends (--follow waits for it); " if not waited else "")
            + f"wait for its end and check it with: {wait}",
        )


def _q(value: Any) -> str:
    """A value in a command printed to paste, quoted for the shell whoever chose it (an agent's task
    id `t1; echo INJECTED` stays one word)."""
    import shlex

    return shlex.quote(str(value))


def continue_command(call: Call, *, secrets: bool = True) -> str:
    """`a2a send --task-id T --context-id C` and this call's connection flags: the start of the
    command that continues the task in hand (the message follows)."""
    t = call.tracking.task
    return f"a2a send --task-id {_q(t['id'])} --context-id {_q(t.get('contextId', ''))}{conn_flags(call.opts, secrets=secrets)}"


AUTH_CONTINUE = "'continue'"  # the message that goes with the credential (the agent may read it)


class AuthWay(NamedTuple):
    """One way to give the credential an AUTH_REQUIRED task asks for: the card's scheme (its
    name and wire.words.Way), and the commands that continue the task with it."""

    name: str
    way: Any
    commands: list[str]


def auth_ways(call: Call) -> tuple[Any, list[AuthWay]]:
    """What the task in AUTH_REQUIRED asks for (wire.security.auth_ask: the schemes its status
    message names, else the card's), and for each scheme the commands that continue it: with the
    flag that sends the credential where the card's scheme takes it (`--api-key KEY`), or
    `a2a auth login` first for an OAuth2 / OpenID Connect flow. Placeholders only, never a secret."""
    import shlex

    from a2acli.wire.security import auth_ask
    from a2acli.wire.words import scheme_way

    card = call.target.card if isinstance(call.target.card, dict) else None
    ask = auth_ask(card, call.tracking.ask)
    schemes = (card or {}).get("securitySchemes") or {}
    opts, src = call.opts, call.opts.sources or {}
    profile = f" --profile {shlex.quote(opts.profile)}" if opts.profile else ""  # the token is kept in it
    url = f" -u {shlex.quote(opts.url)}" if opts.url and src.get("url") == "flag" else ""
    base = continue_command(call, secrets=False)  # each way names the credential it sends
    kept = (
        "" if f" --profile {shlex.quote(opts.profile or '')} " in f"{base} " else profile
    )  # the flag is in base already
    ways: list[AuthWay] = []
    seen: set[tuple[str, str]] = set()
    for name, _kind, _body in ask.schemes:
        way = scheme_way(schemes.get(name) if isinstance(schemes, dict) else None)
        if (way.login, way.flag) in seen or not (way.login or way.flag):
            continue
        seen.add((way.login, way.flag))
        login_first = [f"{way.login}{url}{profile}", f"{base}{kept} {AUTH_CONTINUE}"]
        commands = login_first if way.login else [f"{base} {way.flag} {AUTH_CONTINUE}"]
        ways.append(AuthWay(name, way, commands))
    return ask, ways


def auth_required_notes(call: Call) -> None:
    """A task in AUTH_REQUIRED (A2A §7.6.2; official CLI spec §8.2, §10.3, A2ACLI_AUTH_011): on
    stderr, what it asks for (its status message read against the card's schemes, and a sign-in
    URL the message names) and the command(s) that continue it with that credential."""
    t = call.tracking.task
    ask, ways = auth_ways(call)
    head = f"task {t['id']} is {state_text('TASK_STATE_AUTH_REQUIRED')}: it needs authentication"
    signin = f"; it names {ask.url} to sign in" if ask.url else ""

    def say(msg: str) -> None:  # a normal pause, not a fault: a hint, which -q drops (stdout names the state)
        call.sink.emit(Note(msg))

    if not ways:
        if call.target.card is None or call.opts.endpoint:  # no card: credentials go as given
            say(
                f"{head}{signin}; its status message says which credential: add it (--api-key KEY, --bearer TOKEN or --basic USER:PASS) to continue:"
            )
            call.sink.emit(CommandLine(f"{continue_command(call)} {AUTH_CONTINUE}"))
        else:
            say(
                f"{head}{signin}; the Agent Card declares no security scheme that takes a credential, so --api-key and --bearer are not sent to it; -H sends what its status message asks for:"
            )
            call.sink.emit(CommandLine(f"{continue_command(call)} -H 'NAME: VALUE' {AUTH_CONTINUE}"))
        return
    said = "; or ".join(f"{w.name!r} ({w.way.kind}, {w.way.where})" for w in ways)
    asked = (
        f"the agent asks for the Agent Card's scheme {said}"
        if ask.named
        else f"its status message names no scheme of the Agent Card, which declares {said}"
    )
    get = "get the token, then continue" if all(w.way.login for w in ways) else "continue with the credential"
    say(f"{head}; {asked}{signin}; {get}{' (one of these)' if len(ways) > 1 else ''}:")
    for w in ways:
        for command in w.commands:
            call.sink.emit(CommandLine(command))


# what a typed secret is, by the option it fills (wire.words.Way.option)
SECRET_WHAT = {"api_key": "API key", "bearer": "bearer token", "basic": "USER:PASSWORD"}


def read_credential(call: Call, secret: Any) -> dict[str, Any]:
    """At a terminal (`a2a chat`), for a task in AUTH_REQUIRED: say which of the card's schemes it
    asks for, read that credential with `secret` (getpass: not echoed) and return it as the
    options it fills ({"api_key": …}) for the next turn only. {} when skipped (Enter, Ctrl-D), or
    when no scheme takes a typed secret (mutual TLS, none declared): then the commands that
    continue the task are said instead."""
    _ask, ways = auth_ways(call)
    typed = [w for w in ways if w.way.option]
    tid = call.tracking.task["id"]
    if not typed:
        auth_required_notes(call)
        return {}
    w = typed[0]
    call.sink.emit(
        Note(
            f"task {tid} needs authentication: the agent asks for the Agent Card's scheme {w.name!r} ({w.way.kind}, {w.way.where})"
        )
    )
    try:
        value = str(secret(f"{SECRET_WHAT[w.way.option]} for {w.way.where} (not shown; Enter to skip): ") or "")
    except EOFError:
        value = ""
    if w.way.option == "basic" and value.strip() and ":" not in value:
        call.sink.emit(Warn("HTTP basic takes USER:PASSWORD (a colon between them): not sent"))
        value = ""
    if not value.strip():
        call.sink.emit(Note(f"no credential: your next line answers task {tid} without one (/new leaves it)"))
        return {}
    given: dict[str, Any] = {w.way.option: value.strip()}
    call.redactor.add(value.strip())  # never shown, from now on (turn_credentials adds its encodings)
    call.sink.emit(
        Note(f"the credential goes with your next line only, to task {tid} as {w.way.where}; it is not stored")
    )
    return given


def resume_notes(sink: Sink, call: Call | None, why: str, *, unsettled_only: bool = False) -> bool:
    """`interrupted: task T (context C) was working` and the commands to pick it up again (the
    subscription with --stream when the events were being shown as they came); before the agent
    answered a send, what was sent and the command that finds its task."""
    task = call.tracking.task if call is not None else {}
    if not task.get("id") and call is not None and call.sending:
        return unanswered_notes(sink, call, why)
    if not task.get("id") or unsettled_only and settled(task.get("state")):
        return False
    flags = conn_flags(call.opts) if call is not None else ""
    card = call.target.card if call is not None and isinstance(call.target.card, dict) else None
    caps = card.get("capabilities") if card is not None else None
    subscribe = card is None or (
        isinstance(caps, dict) and caps.get("streaming") is True
    )  # no card read: the agent may stream
    sink.emit(
        Note(
            f"{why}: task {task['id']} (context {task.get('contextId') or '?'}) was {state_text(task.get('state'))}; resume with {'one of' if subscribe else 'this (the Agent Card claims no streaming)'}:"
        )
    )
    if subscribe:
        live = " --stream" if call is not None and call.live_view else ""  # back into the view that was interrupted
        sink.emit(CommandLine(f"a2a tasks subscribe {_q(task['id'])}{live}{flags}"))
    sink.emit(CommandLine(f"a2a tasks get {_q(task['id'])} --wait{flags}"))
    return True


def unanswered_notes(sink: Sink, call: Call, why: str) -> bool:
    """Ctrl-C (or --timeout) before the agent answered a send (A2ACLI_TASK_POLL_002): the message
    id, the context and task ids given, and how to find the task it may have started: ListTasks
    (by context when one was given) where the version has it; under 0.3, which has no way to list
    tasks, that is said instead of a command that would exit 2."""
    import shlex

    m = call.sending or {}
    flags = conn_flags(call.opts)
    ctx, tid = m.get("contextId"), m.get("taskId")
    known = ", ".join(f"{k} {v}" for k, v in (("context", ctx), ("task", tid)) if v)
    sent = (
        f"{why} before the agent answered: message {m.get('messageId')}"
        + (f" ({known})" if known else "")
        + " was sent"
    )
    if tid:
        sink.emit(Note(f"{sent}; if the agent started a task, find it with:"))
        sink.emit(CommandLine(f"a2a tasks get {shlex.quote(str(tid))}{flags}"))
    elif can_list_tasks(call) and ctx:
        sink.emit(Note(f"{sent}; if the agent started a task, find it with:"))
        sink.emit(CommandLine(f"a2a tasks list --context-id {shlex.quote(str(ctx))}{flags}"))
    elif can_list_tasks(call):  # the agent chose the context: no filter of ListTasks names this message
        sink.emit(
            Note(
                f"{sent}; it named no context or task, so no filter finds the task it may have started; the agent's newest tasks:"
            )
        )
        sink.emit(CommandLine(f"a2a tasks list --page-size 5{flags}"))
    else:
        sink.emit(
            Note(
                f"{sent}; A2A 0.3 has no way to list tasks, so the task it may have started is known only to the agent (--follow says a task's id as soon as the agent takes the message)"
            )
        )
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


def explain_mock_miss(err: A2acliError) -> A2acliError:
    """`a2a mock` had no recording of the call (its error's data or details carry the reason
    NO_RECORDED_ANSWER, over every binding): the hint is about the recordings, not the agent."""
    data = err.data if isinstance(err.data, list) else [err.data]
    if any(isinstance(d, dict) and d.get("reason") == NO_RECORDED_ANSWER for d in data):
        err.hint = (
            "the mock answers only what its dumps recorded: send what was recorded (the message names "
            "the closest recording and the field that differs), or record this call with --dump"
        )
    return err


def explain_rejected_ids(err: A2acliError, call: Call) -> A2acliError:
    """A send that carried --task-id or --context-id, refused by the agent (TaskNotFoundError, a
    task in a terminal state, a context that does not match, or any other A2A or HTTP error): the
    hint names the ids and points at --debug for the exchange. Nothing is retried, and no new task
    is started in their place (official CLI spec, A2ACLI_INTERACT_002)."""
    from a2acli.errors import HttpError

    if (
        not isinstance(err, (RpcError, HttpError))
        or call.sent is None
        or call.sent[0] not in ("SendMessage", "SendStreamingMessage")
    ):
        return err
    if isinstance(err, HttpError) and isinstance(err.wire_code, int) and not 400 <= err.wire_code < 500:
        return err  # the agent failed (5xx): not a refusal of the ids
    params = call.sent[1] if isinstance(call.sent[1], dict) else {}
    message: dict[str, Any] = params["message"] if isinstance(params.get("message"), dict) else {}
    given = [
        f"{flag} {_q(message[key])}"
        for key, flag in (("taskId", "--task-id"), ("contextId", "--context-id"))
        if message.get(key)
    ]
    if not given:
        return err
    ids = " and ".join(given)
    see = (
        f"the request that carried {ids} and the answer are above (--debug)"
        if call.opts.debug
        else f"rerun with --debug to see the request that carried {ids} and the agent's answer"
    )
    hint = err.hint
    if message.get("taskId") and (err.code == "UnsupportedOperationError" or "terminal" in err.message.lower()):
        # A2A: a task in a terminal state takes no more messages; the interaction goes on in a new task of the same context
        ctx = message.get("contextId")
        hint = "a task that has ended takes no more messages: go on in a new task of the same context, " + (
            f"--context-id {_q(ctx)} without --task-id"
            if ctx
            else f"with the task's --context-id (`a2a tasks get {_q(message['taskId'])}` shows it) and without --task-id"
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

    where, name = api_key_placement(call.target.card if isinstance(call.target.card, dict) else None)
    grpc = call._binding is not None and call._binding.info.carrier_grpc
    if grpc:  # gRPC metadata carries what headers carry, names in lowercase
        where, name = "metadata", name.lower()
    auth = "metadata authorization" if grpc else "header Authorization"
    what = {
        "api-key": f"the API key{origin('api-key')} (--api-key), sent in {where} {name}",
        "bearer": f"the bearer token{origin('bearer')} (--bearer), sent in {auth}",
        "basic": f"USER:PASSWORD{origin('basic')} (--basic), sent in {auth}",
        "oauth": f"the OAuth2 token of `a2a auth login`, sent in {auth}",
    }
    went = [what[c] for c in ("api-key", "bearer", "basic", "oauth") if c in call.creds.sent]
    went += [f"the -H {header} header" for header, _ in o.headers if header.lower() in ("authorization", "x-api-key")]
    if o.cert:
        went.append("the client certificate (--cert)")
    if not went:
        return err
    again = "`a2a auth login` again for a new token" if call.creds.sent == {"oauth"} else "check it, or give another"
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
    if (
        given
        and not call.creds.withheld
        or call.creds.sent
        or o.cert
        or any(name.lower() in ("authorization", "x-api-key") for name, _ in o.headers)
    ):
        return refused_credentials(err, call)  # a credential went: it was refused
    from a2acli.wire.words import scheme_how

    schemes = ((call.target.card or {}).get("securitySchemes") or {}) if isinstance(call.target.card, dict) else {}
    named = [(str(name), *scheme_how(scheme)) for name, scheme in schemes.items()] if isinstance(schemes, dict) else []
    status = err.message.split(": ", 1)[1] if ": " in err.message else f"HTTP {err.http_status}"
    if named:
        ways = "; or ".join(
            f"{name} ({kind} in {where}): pass {flag}" if where else f"{name} ({kind}): pass {flag}"
            for name, kind, where, flag in named
        )
        hint = f"the card names {ways}"
        if call.creds.withheld:
            hint += f" (not sent, the card declares no scheme for it: {', '.join(call.creds.withheld)})"
    else:
        hint = "pass --api-key, --bearer or --basic, or `a2a auth login` for OAuth2 (the card names no scheme)"
    return CredentialsMissingError(
        f"the agent requires credentials and none were sent ({status})",
        hint=hint,
        request_id=err.request_id,
        wire_code=err.wire_code,
    )
