"""The pipeline every method command runs: options -> request -> (offline print | send) -> output.

This module holds the package's one error boundary: lower layers raise A2acliError, it becomes a
message, a hint and an exit code here."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

import typer

from a2acli.commands._options import CallOptions
from a2acli.errors import A2acliError, ExitCode, Interrupted, TimeoutExpired, UnexpectedStateError, UnreachableError, HttpError, ConnectionBrokenError, InvalidResponseError, RpcError, UsageError
from a2acli.render.output import Output
from a2acli.wire import Wire, envelope
from a2acli.wire.methods import METHODS, MethodSpec

# -- the error boundary ---------------------------------------------------------------------------

_CURRENT: dict[str, Any] = {}  # the Call in flight, for Ctrl-C reporting


@contextmanager
def boundary(*, output_hint: str | None = None, debug: bool = False, out: Output | None = None) -> Iterator[None]:
    try:
        yield
    except (typer.Exit, typer.Abort):
        raise
    except A2acliError as e:
        if debug:
            import traceback

            traceback.print_exc(file=sys.stderr)
        o = out or Output(_mode(output_hint))
        o.error(message=e.message, hint=e.hint, code=e.code, a2a_code=e.a2a_code, data=e.data, request_id=e.request_id)
        if isinstance(e, TimeoutExpired):
            _resume_notes(o, _CURRENT.get("call"), "timed out", unsettled_only=True)
        raise typer.Exit(int(e.exit_code)) from None
    except KeyboardInterrupt:
        o = out or Output(_mode(output_hint))
        if not _resume_notes(o, _CURRENT.get("call"), "interrupted"):
            o.note("interrupted")
        raise typer.Exit(int(ExitCode.INTERRUPTED)) from None
    except BrokenPipeError:
        raise typer.Exit(0) from None
    except Exception as e:  # a bug: say so plainly, trace only with --debug
        if debug:
            raise
        o = out or Output(_mode(output_hint))
        o.error(message=f"internal error: {type(e).__name__}: {e}", hint="rerun with --debug for the traceback, and report it", code="internal", a2a_code=None)
        raise typer.Exit(int(ExitCode.FAILED)) from None
    finally:
        _CURRENT.pop("call", None)  # kept past Call.close() so the handlers above can name the task


def conn_flags(opts: CallOptions) -> str:
    """The connection flags given on this command line, for a command to paste (` -u URL …`)."""
    import shlex

    src = getattr(opts, "sources", None) or {}
    flags = []
    if opts.url and src.get("url") == "flag":
        flags.append(f"-u {shlex.quote(opts.url)}")
    if opts.rpc_url and src.get("rpc-url") == "flag":
        flags.append(f"--rpc-url {shlex.quote(opts.rpc_url)}")
    if opts.wire is not Wire.V1 and src.get("a2a-version") == "flag":
        flags.append(f"--a2a-version {opts.wire.version}")
    if opts.dialect_name != "spec" and src.get("dialect") == "flag":
        flags.append(f"--dialect {opts.dialect_name}")
    return "".join(" " + f for f in flags)


def _resume_notes(o: Output, call: Any, why: str, *, unsettled_only: bool = False) -> bool:
    """`interrupted: task T (context C) was working` and the commands to pick it up again."""
    task = call.task if call is not None else {}
    if not task.get("id") or unsettled_only and _settled(task.get("state")):
        return False
    flags = conn_flags(call.opts)
    o.note(f"{why}: task {task['id']} (context {task.get('contextId') or '?'}) was {_state_text(task.get('state'))}")
    o.note(f"resume with: a2a tasks subscribe {task['id']}{flags}   or: a2a tasks get {task['id']} --wait{flags}")
    return True


def _mode(hint: str | None) -> str:
    import os

    m = (hint or os.environ.get("A2ACLI_OUTPUT") or "text").lower()
    return m if m in ("text", "json", "raw") else "text"


def _state_text(state: Any) -> str:
    from a2acli.render.views import state_label

    return state_label(state)


# -- one call -------------------------------------------------------------------------------------


class Reply(NamedTuple):
    result: Any  # as the wire spelt it
    core: Any  # canonical V1
    raw: bytes  # the response body (unary) or the event's data (stream)
    exchange: Any


class Call:
    """One invocation's connection: transport, card, endpoint, credentials, taps."""

    def __init__(self, opts: CallOptions, out: Output) -> None:
        from a2acli.transport.client import Transport, TransportConfig
        from a2acli.transport.record import DebugTap, DumpTap, Redactor, RequestIdTap

        self.opts = opts
        self.out = out
        self.redactor = Redactor({s for s in (opts.api_key, opts.bearer, (opts.basic or "").partition(":")[2]) if s})
        taps: list[Any] = [RequestIdTap(out.note)]
        if opts.debug:
            taps.append(DebugTap(out.note, self.redactor))
        if opts.dump:
            taps.append(DumpTap(opts.dump, self.redactor, version=opts.wire.version))
        if opts.insecure:
            out.warn("--insecure: TLS certificates are NOT verified; anyone on the path can read and change this traffic")
        self.transport = Transport(
            TransportConfig(version=opts.wire.version, headers=opts.headers, timeout=opts.timeout, insecure=opts.insecure,
                            cacert=opts.cacert, cert=opts.cert, key=opts.key), taps
        )
        self._oauth_token: str | None = None
        self._oauth_cached = False  # the token came from the cache (a 401 may mean it was revoked)
        self._endpoint: Any = None
        self.card: dict[str, Any] | None = None  # canonical V1
        self.task: dict[str, Any] = {}  # id, contextId, state of the task in hand
        _CURRENT["call"] = self

    def close(self) -> None:
        for tap in self.transport.taps:  # a dump finishes the exchanges a Ctrl-C left open
            getattr(tap, "close", lambda: None)()
        self.transport.close()

    def __enter__(self) -> Call:
        return self

    def __exit__(self, *exc: Any) -> None:
        if isinstance(exc[1], A2acliError):  # messages quote URLs, which may carry an API key
            exc[1].message = self.redactor.text(exc[1].message)
            exc[1].args = (exc[1].message,)  # what a --debug traceback prints
        self.close()

    # -- where and how ------------------------------------------------------------------------------
    def fetch_card(self) -> Any:
        from a2acli.transport.card import fetch_card
        from a2acli.wire.translate import to_core_card

        if not self.opts.url:
            raise UsageError("no agent given", hint="pass --url URL (or set A2ACLI_URL, or a profile); `a2a demo-server` starts one")
        fetched = fetch_card(self.transport, self.opts.url)
        if not isinstance(fetched.doc, dict):
            raise UsageError(f"{fetched.url} is not an Agent Card")
        self.card = to_core_card(fetched.doc)
        return fetched

    def endpoint(self) -> Any:
        from a2acli.wire.endpoints import Endpoint, select_interface

        if self._endpoint is None:
            if self.opts.rpc_url:
                self._endpoint = Endpoint(self.opts.rpc_url)
            else:
                fetched = self.fetch_card()
                self._endpoint = select_interface(self.card or {}, self.opts.wire, fetched.url)
        return self._endpoint

    def credentials(self) -> Any:
        from a2acli.transport.client import Credentials
        from a2acli.wire.endpoints import api_key_placement

        creds = Credentials()
        if self.opts.api_key:
            where, name = api_key_placement(self.card)
            {"header": creds.headers, "query": creds.params, "cookie": creds.cookies}[where][name] = self.opts.api_key
            self.redactor.add(**({"query": name} if where == "query" else {"header": name}))
        if self.opts.bearer:
            creds.headers["Authorization"] = f"Bearer {self.opts.bearer}"
        elif self.opts.basic:
            import base64

            encoded = base64.b64encode(str(self.opts.basic).encode()).decode()
            creds.headers["Authorization"] = f"Basic {encoded}"
            self.redactor.add(encoded)
        elif self.opts.oauth:
            token = self.oauth_token()
            if token:
                creds.headers["Authorization"] = f"Bearer {token}"
        return creds

    def oauth_token(self) -> str | None:
        """The profile's OAuth2 token (client credentials): cached, or requested when expired.
        --offline never requests one: it shows a placeholder unless a cached token is still good."""
        from a2acli import auth
        from a2acli.transport.client import tls_verify

        cc = auth.ClientCredentials.from_profile(dict(self.opts.oauth))
        if cc is None:
            return None
        if self._oauth_token is None:
            if self.opts.offline:
                entry = auth.cached(self.opts.profile, cc.token_url)
                self._oauth_token = str(entry["access_token"]) if entry else f"<OAuth2 token from {cc.token_url}>"
            else:
                self._oauth_cached = auth.cached(self.opts.profile, cc.token_url) is not None
                self._oauth_token = auth.access_token(
                    self.opts.profile, cc, verify=tls_verify(self.transport.cfg), timeout=self.opts.timeout,
                    note=self.out.note if self.opts.debug else None,
                )
            self.redactor.add(self._oauth_token)
        return self._oauth_token

    def renew_oauth_token(self, ex: Any) -> bool:
        """After a 401 to a call that carried the profile's cached OAuth2 token: drop that token
        (revoked, or the agent's keys rotated) and get a new one for one more try."""
        if ex.status != 401 or not self._oauth_cached or self.opts.bearer or self.opts.basic:
            return False
        from a2acli import auth

        cc = auth.ClientCredentials.from_profile(dict(self.opts.oauth))
        if cc is None or not cc.client_secret:
            return False  # nothing to request a new one with: the 401 stands
        auth.forget(self.opts.profile, cc.token_url)
        self._oauth_token, self._oauth_cached = None, False
        self.out.note("HTTP 401 with the cached OAuth2 token: requesting a new one")
        return True

    def build(self, spec: MethodSpec, params: Any, request_id: str | None = None) -> Any:
        from a2acli.wire.codec import build_request

        return self._built(params, lambda tenant, rid: build_request(spec, params, wire=self.opts.wire, dialect=self.opts.dialect, request_id=rid, tenant=tenant), request_id)

    def build_call(self, method: str, params: Any, request_id: str | None = None) -> Any:
        """`a2a call`: a method by any name (see codec.build_call)."""
        from a2acli.wire.codec import build_call

        return self._built(params, lambda tenant, rid: build_call(method, params, wire=self.opts.wire, dialect=self.opts.dialect, request_id=rid, tenant=tenant), request_id)

    def _built(self, params: Any, make: Any, request_id: str | None) -> Any:
        tenant = self._endpoint.tenant if self._endpoint is not None else ""
        self.redactor.learn(params)  # push-config token / credentials: redacted in dumps and --debug
        built = make(tenant, request_id or envelope.new_id())
        for n in built.notes:
            self.out.warn(f"not carried to V0: {n}")
        return built

    # -- offline --------------------------------------------------------------------------------------
    def offline_url(self) -> str:
        if self.opts.rpc_url:
            return self.opts.rpc_url
        if self.opts.url and (self.opts.url.startswith("file://") or self.opts.url.endswith(".json") and "://" not in self.opts.url):
            return self.endpoint().url
        return f"<JSON-RPC URL from the Agent Card of {self.opts.url or '--url'}>"

    def print_offline(self, build: Callable[[], Any], *, stream: bool, headers: dict[str, str] | None = None) -> None:
        """Print the request as it would be sent. `build` runs once what can be known offline is
        known: a local card's endpoint (its tenant goes into V1 params) and where the card puts
        the API key (a header, the query string or a cookie)."""
        url = self.offline_url()
        creds = self.credentials()
        built = build()
        if creds.params:
            from urllib.parse import urlencode

            url += ("&" if "?" in url else "?") + urlencode(creds.params)
        h = self.transport.headers({"Content-Type": "application/json", "Accept": "text/event-stream" if stream else "application/json", **creds.headers, **(headers or {})})
        if creds.cookies:
            h["Cookie"] = "; ".join(f"{k}={v}" for k, v in creds.cookies.items())
        head = [self.redactor.text(f"POST {url}")] + [f"{k}: {v}" for k, v in self.redactor.headers(list(h.items()))]
        if self.out.mode == "raw":
            for line in head:
                self.out.note(line)
            self.out.raw(built.body)
        elif self.out.mode == "json":
            for line in head:
                self.out.note(line)
            self.out.json(built.envelope)
        else:
            self.out.text("\n".join(head) + "\n\n" + json.dumps(built.envelope, ensure_ascii=False, indent=2))

    # -- sending --------------------------------------------------------------------------------------
    def unary(self, spec: MethodSpec, params: Any, *, request_id: str | None = None, headers: dict[str, str] | None = None, retries: int = 0) -> Reply:
        self.endpoint()  # before building: the interface's tenant goes into V1 params
        return self.send(self.build(spec, params, request_id), headers=headers, retries=retries)

    def send(self, built: Any, *, headers: dict[str, str] | None = None, retries: int = 0) -> Reply:
        """POST a built request (retrying as asked) and read its result."""
        from a2acli.transport.jsonrpc import read_result
        from a2acli.wire.codec import decode_result

        ep = self.endpoint()
        attempt = 0
        while True:
            try:
                ex = self.transport.post(ep.url, built.body, label=built.method, creds=self.credentials(), headers=headers)
                if self.renew_oauth_token(ex):
                    continue
                # 409: the first attempt with this idempotency key is still running; 429/5xx: try later
                if retries > attempt and ex.status is not None and (ex.status >= 500 or ex.status in (409, 429)):
                    raise HttpError(f"HTTP {ex.status} {ex.reason}".strip())
                break
            # a connection broken mid-answer: the same idempotency key makes a retry safe
            except (UnreachableError, HttpError, TimeoutExpired, ConnectionBrokenError) as e:
                if attempt >= retries or isinstance(e, TimeoutExpired) and self.opts.timeout:
                    raise  # (an answered 409/429/5xx only raises while retries are left)
                delay = retry_delay(attempt, self.transport.last)
                left = self.transport.time_left()
                if left is not None and delay >= left:  # waiting would outlive --timeout
                    raise TimeoutExpired(
                        f"--timeout {self.opts.timeout:g}s would expire during the {delay:g}s wait before retry {attempt + 1}/{retries} ({e.message})",
                        hint="raise --timeout, or retry later",
                    ) from e
                attempt += 1
                same = [f"{k}: {v}" for k, v in (headers or {}).items() if "idempotency" in k.lower()]
                self.out.note(f"retry {attempt}/{retries} in {delay:g}s" + (f" (same {same[0]})" if same else "") + f": {e.message}")
                time.sleep(delay)
        try:
            result = read_result(ex, expect_id=built.envelope.get("id"), warn=self.out.warn)
        except RpcError:
            if self.out.mode == "raw" and ex.response_body:  # raw: the error envelope as it came
                self.out.raw(ex.response_body)
            raise
        return Reply(result, self._decode(built, result), ex.response_body, ex)

    @staticmethod
    def _decode(built: Any, result: Any) -> Any:
        """The result in canonical V1, checked against what the method promises (InvalidResponse
        otherwise; `a2a call` of an unknown method is not checked)."""
        from a2acli.wire.codec import decode_result
        from a2acli.wire.shapes import check_result

        core = decode_result(built.spec, result)
        if built.spec is not None:
            check_result(built.spec.result, core, built.method)
        return core

    def stream(self, spec: MethodSpec, params: Any, *, request_id: str | None = None, headers: dict[str, str] | None = None) -> Iterator[Reply]:
        self.endpoint()  # before building: the interface's tenant goes into V1 params
        yield from self.send_stream(self.build(spec, params, request_id), headers=headers)

    def send_stream(self, built: Any, *, headers: dict[str, str] | None = None) -> Iterator[Reply]:
        """POST a built request and yield each SSE event's result as it arrives, up to the last
        one (the agent closing the stream, or a final event: see shapes.ends_stream)."""
        from a2acli.transport.jsonrpc import event_result, read_document
        from a2acli.transport.sse import iter_events
        from a2acli.wire.shapes import ends_stream

        ep = self.endpoint()
        warned: set[str] = set()

        def warn_once(text: str) -> None:  # one line per stream, not one per event
            if text not in warned:
                warned.add(text)
                self.out.warn(text)

        while True:
            with self.transport.open_stream(ep.url, built.body, label=built.method, creds=self.credentials(), headers=headers) as (ex, resp):
                if not 200 <= resp.status_code < 300:
                    ex.response_body = resp.read()
                    if self.renew_oauth_token(ex):
                        continue
                    read_document(ex)  # raises the JSON-RPC or HTTP error it carries
                events = 0
                for ev in iter_events(ex, resp, self.transport.taps):
                    try:
                        result = event_result(ex, ev.event, ev.data, expect_id=built.envelope.get("id"), warn=warn_once)
                    except RpcError:
                        if self.out.mode == "raw":  # raw: the error event's data as it came
                            self.out.raw(ev.data)
                        raise
                    core = self._decode(built, result)
                    events += 1
                    yield Reply(result, core, ev.data.encode(), ex)
                    self.transport.check_deadline()
                    if ends_stream(result, core):
                        return
                if not events:
                    raise InvalidResponseError(
                        f"the stream of {built.method} closed without a single event",
                        hint="the agent accepted the call but sent nothing; see the exchange with --debug",
                    )
                return

    # -- task tracking --------------------------------------------------------------------------------
    def track(self, core: Any) -> None:
        """Remember the task in hand from a core Task, send result or stream event."""
        if not isinstance(core, dict):
            return
        if "task" in core:
            core = core["task"]
        if "statusUpdate" in core:
            ev = core["statusUpdate"]
            self.task.update({k: v for k, v in (("id", ev.get("taskId")), ("contextId", ev.get("contextId")), ("state", (ev.get("status") or {}).get("state"))) if v})
            return
        if "artifactUpdate" in core:
            ev = core["artifactUpdate"]
            self.task.setdefault("id", ev.get("taskId"))
            return
        if "id" in core and "status" in core:
            self.task.update({"id": core.get("id"), "contextId": core.get("contextId"), "state": (core.get("status") or {}).get("state")})


def retry_delay(attempt: int, ex: Any = None) -> float:
    """Exponential backoff (0.5 s, 1 s, 2 s … up to 8 s), or the answer's Retry-After seconds
    when it asks for longer (capped at 60 s)."""
    delay = min(0.5 * 2**attempt, 8.0)
    after = (ex.header("retry-after") or "").strip() if ex is not None and ex.status else ""
    if after.isdigit():
        delay = max(delay, min(float(after), 60.0))
    return delay


# -- presenting results ---------------------------------------------------------------------------


def present(kind: str, reply: Reply, call: Call) -> None:
    out, opts = call.out, call.opts
    if out.mode == "raw":
        out.raw(reply.raw)
        return
    if out.mode == "json":
        out.json(reply.core if opts.as_v1 else reply.result)
        return
    from a2acli.render import views

    core = reply.core
    if kind in ("send", "event"):
        if isinstance(core, dict) and "message" in core:
            out.rows(views.message_rows(core["message"]), title="Message", style="green")
        elif isinstance(core, dict) and "task" in core:
            out.rows(views.task_rows(core["task"]), title="Task", style=_state_style(core["task"]))
        else:
            out.rows(views.event_rows(core if isinstance(core, dict) else {}), title="Event")
    elif kind == "task":
        out.rows(views.task_rows(core or {}), title="Task", style=_state_style(core or {}))
    elif kind == "task-list":
        tasks = (core or {}).get("tasks") or []
        out.table(
            ["Task", "Context", "State", "Updated"],
            [[str(t.get("id", "")), str(t.get("contextId", "")), views.state_label((t.get("status") or {}).get("state")), str((t.get("status") or {}).get("timestamp", ""))] for t in tasks],
            title=f"{len(tasks)} task(s)",
        )
        if not tasks:
            out.note("no tasks")
    elif kind == "push-config":
        out.rows(views.push_config_rows(core or {}), title="Push config")
    elif kind == "push-config-list":
        configs = (core or {}).get("configs") or []
        for cfg in configs:
            out.rows(views.push_config_rows(cfg), title="Push config")
        if not configs:
            out.note("no push configs")
    elif kind == "card":
        out.rows(views.card_rows(core or {}), title="Agent Card", style="magenta")
    elif kind == "empty":
        out.text("Deleted.")
    else:
        out.text(json.dumps(core, ensure_ascii=False, indent=2))


def _state_style(task: dict[str, Any]) -> str:
    from a2acli.wire.translate import is_interrupted, is_terminal

    state = (task.get("status") or {}).get("state")
    if state in ("TASK_STATE_FAILED", "TASK_STATE_REJECTED"):
        return "red"
    if is_interrupted(state):
        return "yellow"
    return "green" if is_terminal(state) else "cyan"


def report_task_outcome(call: Call, expect: frozenset[str] | None) -> None:
    """Warnings for failed/rejected tasks, the command to continue an interrupted one, and the
    --expect-state gate (exit 6). The exit code never encodes the task's outcome otherwise."""
    from a2acli.wire.translate import is_interrupted, to_core_task_state

    t = call.task
    if not t.get("id"):
        if expect:
            raise UnexpectedStateError("the agent answered with a message, not a task", hint="--expect-state applies to tasks")
        return
    state = to_core_task_state(t.get("state") or "TASK_STATE_UNSPECIFIED")
    label = _state_text(state)
    if state in ("TASK_STATE_FAILED", "TASK_STATE_REJECTED"):
        call.out.warn(f"task {t['id']} ended {label}")
    elif is_interrupted(state):
        what = "input" if state == "TASK_STATE_INPUT_REQUIRED" else "authentication"
        call.out.note(f"task {t['id']} needs {what}; continue with: a2a send --task-id {t['id']} --context-id {t.get('contextId', '')}{conn_flags(call.opts)} 'your reply'")
    if expect and state not in expect:
        want = ", ".join(sorted(_state_text(s) for s in expect))
        raise UnexpectedStateError(f"task {t['id']} ended {label}, expected {want}", hint="drop --expect-state to accept any end state")


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


# -- the entry points the commands call -----------------------------------------------------------


def output_for(opts: CallOptions) -> Output:
    return Output(opts.output)


def run_unary(
    method: str,
    params: Any,
    opts: CallOptions,
    *,
    request_id: str | None = None,
    expect: str | None = None,
    wait: bool = False,
    poll_interval: float = 1.0,
    headers: dict[str, str] | None = None,
    retries: int = 0,
) -> None:
    spec = METHODS[method]
    out = output_for(opts)
    with boundary(output_hint=opts.output, debug=opts.debug, out=out):
        expected = parse_states(expect)
        with Call(opts, out) as call:
            if opts.offline:
                call.print_offline(lambda: call.build(spec, params, request_id), stream=False, headers=headers)
                return
            reply = call.unary(spec, params, request_id=request_id, headers=headers, retries=retries)
            call.track(reply.core)
            if wait and call.task.get("id") and not _settled(call.task.get("state")):
                if out.mode == "raw":
                    out.raw(reply.raw)
                reply = wait_for_task(call, poll_interval, wrap=spec.result == "send")
            present(spec.result, reply, call)
            if spec.result in ("send", "task"):
                report_task_outcome(call, expected)


def _settled(state: Any) -> bool:
    from a2acli.wire.translate import is_interrupted, is_terminal

    return is_terminal(state) or is_interrupted(state)


def wait_for_task(call: Call, interval: float, *, wrap: bool = False, max_interval: float = 5.0) -> Reply:
    """Poll GetTask until the task is terminal or interrupted, backing off up to max_interval."""
    spec = METHODS["GetTask"]
    last_state = call.task.get("state")
    if call.out.mode == "text":
        call.out.note(f"waiting for task {call.task['id']} ({_state_text(last_state)}) …")
    delay = max(interval, 0.05)
    while True:
        left = call.transport.time_left()  # the whole-call --timeout
        time.sleep(delay if left is None else max(min(delay, left), 0))
        call.transport.check_deadline()  # TimeoutExpired (exit 5); boundary() prints how to resume
        reply = call.unary(spec, {"id": call.task["id"]})
        call.track(reply.core)
        state = call.task.get("state")
        if state != last_state and call.out.mode == "text":
            call.out.note(f"task {call.task['id']}: {_state_text(state)}")
        last_state = state
        if _settled(state):
            break
        delay = min(delay * 1.5, max_interval)
    if wrap:  # keep the shape of a send answer: V1 {"task": …}, V0 the bare task
        result = {"task": reply.result} if call.opts.wire is Wire.V1 else reply.result
        return Reply(result, {"task": reply.core}, reply.raw, reply.exchange)
    return reply


def run_stream(
    method: str,
    params: Any,
    opts: CallOptions,
    *,
    request_id: str | None = None,
    expect: str | None = None,
    headers: dict[str, str] | None = None,
    follow: bool = True,
) -> None:
    """Stream a method's events to the output as they arrive; if the stream ends before the task
    does (a snapshot-then-close server, a dropped connection), poll until it settles.

    SubscribeToTask meets several server behaviours, each named in a note on stderr: a full
    stream, a snapshot then close, one plain JSON answer, and a refusal for a finished task
    (-32004, as a JSON body or as an SSE event), after which the task is shown from GetTask."""
    from a2acli.errors import RpcError
    from a2acli.render.stream import StreamView

    spec = METHODS[method]
    subscribing = spec.name == "SubscribeToTask"
    out = output_for(opts)
    with boundary(output_hint=opts.output, debug=opts.debug, out=out):
        expected = parse_states(expect)
        with Call(opts, out) as call:
            if opts.offline:
                call.print_offline(lambda: call.build(spec, params, request_id), stream=True, headers=headers)
                return
            if subscribing:
                call.task["id"] = params["id"]  # known before any event: Ctrl-C can name it
            with StreamView(out, as_v1=opts.as_v1) as view:
                events, sse, refused = 0, True, False
                broken: A2acliError | None = None
                try:
                    for reply in call.stream(spec, params, request_id=request_id, headers=headers):
                        events += 1
                        sse = reply.exchange.content_type == "text/event-stream"
                        call.track(reply.core)
                        view.event(reply)
                except RpcError as e:
                    if not (subscribing and events == 0):
                        raise
                    refused = True
                    _subscribe_refused(call, view, e)  # the finished task shown, or polled below
                except (UnreachableError, HttpError) as e:
                    broken = e
                except ConnectionBrokenError as e:  # (a malformed answer is not: it ends the run)
                    if not call.task.get("id"):
                        raise
                    broken = e
                if broken and events == 0:
                    raise broken
                settled = _settled(call.task.get("state"))
                if subscribing and not refused:
                    out.note(_subscribe_kind(call, events, sse, settled, broken))
                if call.task.get("id") and not settled and follow:
                    if not subscribing:
                        why = f"the stream broke ({broken.message})" if broken else "the agent closed the stream before the task finished"
                        out.note(f"{why}; polling task {call.task['id']}")
                    view.final(wait_for_task(call, 0.5, wrap=True))  # a StreamResponse {task} like the events; backs off to 5 s
                elif broken:
                    raise broken
                view.summary(call.task)
            report_task_outcome(call, expected)


def _subscribe_kind(call: Call, events: int, sse: bool, settled: bool, broken: A2acliError | None) -> str:
    """Which of the servers' SubscribeToTask behaviours this was, in one line."""
    tid, state = call.task["id"], _state_text(call.task.get("state"))
    poll = f"; polling task {tid} until it settles"
    if events == 0:
        return "subscribe: the agent closed the stream without sending an event" + poll
    if broken:
        return f"subscribe: the stream broke after {events} event(s) ({broken.message})" + poll
    if not sse:
        return "subscribe: the agent answered with one plain JSON document, not an event stream" + (f"; the task is {state}" if settled else poll)
    if events == 1:
        if settled:
            return f"subscribe: one event (a snapshot) of a task that is already {state}"
        return "subscribe: snapshot then close: the agent sent the task's current state and closed the stream (it does not stream live updates)" + poll
    if settled:
        return f"subscribe: full stream: {events} events, live until the task was {state}"
    return f"subscribe: the stream closed after {events} events before the task finished" + poll


def _subscribe_refused(call: Call, view: Any, err: A2acliError) -> bool:
    """SubscribeToTask answered with an error before any event. For -32004 (a finished task, or
    no streaming) show the task from GetTask; True when it was shown settled, False to poll."""
    ex = call.transport.last
    how = "as an SSE event" if ex is not None and ex.content_type == "text/event-stream" else "as a plain JSON answer"
    if err.a2a_code != -32004:
        call.out.note(f"subscribe: the agent refused, {how}")
        raise err
    tid = call.task["id"]
    try:
        reply = call.unary(METHODS["GetTask"], {"id": tid})
    except A2acliError:
        raise err from None
    call.track(reply.core)
    label = _state_text(call.task.get("state"))
    if not _settled(call.task.get("state")):
        call.out.note(f"subscribe: the agent refused ({err.message}, {how}) though task {tid} is {label}; polling it instead")
        return False
    call.out.note(f"subscribe: task {tid} is already finished ({label}); the agent does not stream a finished task ({err.message}, {how}); showing it from GetTask")
    result = {"task": reply.result} if call.opts.wire is Wire.V1 else reply.result  # as a stream event
    view.final(Reply(result, {"task": reply.core}, reply.raw, reply.exchange))
    return True


def run_list_tasks(params: dict[str, Any], opts: CallOptions, *, all_pages: bool = False, request_id: str | None = None) -> None:
    """ListTasks, one page or every page (V1 pageToken cursor; V0 clix limit/offset)."""
    spec = METHODS["ListTasks"]
    out = output_for(opts)
    with boundary(output_hint=opts.output, debug=opts.debug, out=out):
        with Call(opts, out) as call:
            if opts.offline:
                call.print_offline(lambda: call.build(spec, params, request_id), stream=False)
                return
            v0 = opts.wire is Wire.V0
            if all_pages and v0:
                params = {"pageSize": 50, **params}
            reply = call.unary(spec, params, request_id=request_id)
            if not all_pages:
                present(spec.result, reply, call)
                if out.mode == "text" and (reply.core or {}).get("nextPageToken"):
                    out.note(f"more: --page-token {reply.core['nextPageToken']}  (or --all)")
                return
            tasks = list((reply.core or {}).get("tasks") or [])
            raw_tasks = list(reply.result if isinstance(reply.result, list) else (reply.result or {}).get("tasks") or [])
            if out.mode == "raw":
                out.raw(reply.raw)
            page = reply
            while True:
                if v0:
                    size = int(params["pageSize"])
                    if len(page.result or []) < size:
                        break
                    params = {**params, "pageToken": str(int(params.get("pageToken") or 0) + size)}
                else:
                    token = (page.core or {}).get("nextPageToken")
                    if not token:
                        break
                    params = {**params, "pageToken": token}
                page = call.unary(spec, params)
                tasks += (page.core or {}).get("tasks") or []
                raw_tasks += page.result if isinstance(page.result, list) else (page.result or {}).get("tasks") or []
                if out.mode == "raw":
                    out.raw(page.raw)
            if out.mode == "raw":
                return
            merged_core = {"tasks": tasks, "nextPageToken": ""}
            merged = raw_tasks if v0 else {"tasks": raw_tasks, "nextPageToken": "", "totalSize": len(raw_tasks)}
            present(spec.result, Reply(merged, merged_core, b"", None), call)


def run_card_fetch(opts: CallOptions) -> None:
    """The public Agent Card: an HTTP GET with the A2A-Version header, no credentials."""
    out = output_for(opts)
    with boundary(output_hint=opts.output, debug=opts.debug, out=out):
        with Call(opts, out) as call:
            if opts.offline:
                from a2acli.transport.card import card_candidates

                if not opts.url:
                    raise UsageError("no agent given", hint="pass --url URL (or set A2ACLI_URL)")
                first = card_candidates(opts.url)[0]
                head = [f"GET {first}"] + [f"{k}: {v}" for k, v in call.redactor.headers(list(call.transport.headers({"Accept": "application/json"}).items()))]
                (out.text if out.mode == "text" else out.note)("\n".join(head))
                return
            fetched = call.fetch_card()
            raw = fetched.exchange.response_body if fetched.exchange else b""
            if out.mode == "raw" and not raw:
                raw = envelope.dumps(fetched.doc)
            present("card", Reply(fetched.doc, call.card, raw, fetched.exchange), call)


def run_call(method: str, params: Any, opts: CallOptions, *, request_id: str | None = None, stream: bool | None = None) -> None:
    """`a2a call`: any method, known or not; known ones are rendered like their command."""
    from a2acli.wire.methods import find_method

    out = output_for(opts)
    with boundary(output_hint=opts.output, debug=opts.debug, out=out):
        spec = find_method(method)
        streaming = stream if stream is not None else bool(spec and spec.streaming)
        with Call(opts, out) as call:
            if opts.offline:
                call.print_offline(lambda: call.build_call(method, params, request_id), stream=streaming)
                return
            call.endpoint()  # before building: the interface's tenant goes into V1 params
            built = call.build_call(method, params, request_id)
            if streaming:
                from a2acli.render.stream import StreamView

                with StreamView(out, as_v1=opts.as_v1) as view:
                    for reply in call.send_stream(built):
                        view.event(reply)
                return
            reply = call.send(built)
            present(spec.result if spec else "json", reply, call)
