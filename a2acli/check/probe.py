"""The live probe (`a2a check URL`, spec CONFORM_001): the card at its well-known paths, then for each
interface the card lists (binding x version) whether the server does what the card claims. Every
request goes through the pipeline (pipeline.session.Call, one per interface with its options
replaced), so --dump, --debug, credentials and timeouts behave as in every other command.

A probe expects errors (an unknown task must give TaskNotFoundError): each step catches the
A2acliError it provokes and turns it into a check result. That is this module's own boundary."""

from __future__ import annotations

import io
import secrets
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

from a2acli.errors import A2acliError, AuthError, TimeoutExpired, UnreachableError
from a2acli.pipeline.options import CallOptions
from a2acli.transport.exchange import NullTap
from a2acli.wire import Wire, version_of
from a2acli.wire.methods import METHODS

PASS, FAIL, WARN, SKIP = "pass", "fail", "warn", "skip"

# A2A error codes the probe expects (the same over every binding: wire/translate/errors.py)
TASK_NOT_FOUND, METHOD_NOT_FOUND, INVALID_PARAMS, INVALID_REQUEST, VERSION_NOT_SUPPORTED = (
    -32001,
    -32601,
    -32602,
    -32600,
    -32009,
)

WEBHOOK_WAIT = 10.0  # seconds `--webhook` waits for a push delivery when --timeout is not given


class Check(NamedTuple):
    id: str  # stable: card.valid.1.0, jsonrpc-1.0.message-send
    group: str  # "card", or the interface: "JSONRPC 1.0 http://…"
    title: str
    status: str  # pass, fail, warn, skip
    detail: str
    spec: str  # where the rule comes from
    request_ids: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "group": self.group,
            "title": self.title,
            "status": self.status,
            "detail": self.detail,
            "spec": self.spec,
            "requestIds": list(self.request_ids),
        }


class _Ids(NullTap):
    """A tap that keeps the X-Request-ID of every answer (the check reports them)."""

    def __init__(self) -> None:
        self.ids: list[str] = []

    def on_response(self, ex: Any) -> None:
        if ex.request_id:
            self.ids.append(ex.request_id)

    def take(self) -> tuple[str, ...]:
        out, self.ids = tuple(self.ids), []
        return out


def quiet_output() -> Any:
    """The probe's calls write nothing: notes, warnings and X-Request-IDs are in the report."""
    from a2acli.render.output import Output

    return Output("json", stdout=io.StringIO(), stderr=io.StringIO())


@contextmanager
def _call(opts: CallOptions) -> Iterator[Any]:
    from a2acli.pipeline.session import Call

    with Call(opts, quiet_output()) as call:
        ids = _Ids()
        call.transport.taps.append(ids)
        call.ids = ids  # type: ignore[attr-defined]  # the probe's own tap, kept on its Call
        yield call


def _code_name(e: A2acliError) -> str:
    return (
        f"{e.a2a_code} {e.message.split(': ', 1)[0].split(' ', 1)[-1]}"
        if e.a2a_code is not None
        else f"{type(e).__name__}: {e.message}"
    )


# -- the card ---------------------------------------------------------------------------------------


def card_checks(opts: CallOptions) -> tuple[list[Check], dict[str, Any] | None, list[Any]]:
    """The card: found, where, its Content-Type and caching headers, the legacy path, and its
    validation under each version header. Returns the checks, the canonical V1 card, and the
    card reports (for the findings)."""
    from a2acli.check.card import validate_card

    checks: list[Check] = []
    reports: list[Any] = []
    core: dict[str, Any] | None = None
    docs: list[Any] = []
    for wire in (Wire.V1, Wire.V0):
        with _call(opts._replace(wire=wire, version_auto=False)) as call:
            try:
                fetched = call.fetch_card()
            except A2acliError as e:
                if wire is Wire.V1:
                    raise  # no card at all: the check cannot start (exit 3, as every command)
                checks.append(
                    Check(
                        "card.fetch.0.3",
                        "card",
                        "card under A2A-Version 0.3",
                        FAIL,
                        e.message,
                        "§7 discovery",
                        call.ids.take(),
                    )
                )
                continue
            ids = call.ids.take()
            if wire is Wire.V1:
                core = call.card
                checks.append(Check("card.fetch", "card", "Agent Card found", PASS, fetched.url, "§7 discovery", ids))
                checks.append(signature_check(fetched.doc, call))
                ex = fetched.exchange
                if ex is not None:
                    ctype = ex.content_type
                    ok = ctype == "application/json" or ctype.endswith("+json")
                    checks.append(
                        Check(
                            "card.content-type",
                            "card",
                            "Content-Type",
                            PASS if ok else WARN,
                            ctype or "none" if ok else f"{ctype or 'none'}: serve application/json",
                            "§7 discovery",
                            ids,
                        )
                    )
                    caching = [
                        f"{h}: {ex.header(h)}" for h in ("Cache-Control", "ETag", "Last-Modified") if ex.header(h)
                    ]
                    checks.append(
                        Check(
                            "card.caching",
                            "card",
                            "caching headers (information)",
                            PASS,
                            "; ".join(caching)
                            or "none (clients refetch every time; Cache-Control/ETag let them cache)",
                            "§7 discovery",
                            ids,
                        )
                    )
                    base = fetched.url.split("/.well-known/")[0] if "/.well-known/" in fetched.url else None
                    if base:
                        checks += _well_known(call, base)
            same = any(d == fetched.doc for d in docs)
            docs.append(fetched.doc)
            if same:
                checks.append(
                    Check(
                        f"card.valid.{wire.version}",
                        "card",
                        f"card valid (A2A-Version {wire.version})",
                        PASS,
                        "the same card as under 1.0",
                        "§7 CARD_GET_002",
                        ids,
                    )
                )
                continue
            report = validate_card(fetched.doc, fetched.url)
            reports.append((wire.version, fetched.url, report))
            status = FAIL if report.errors else WARN if report.warnings else PASS
            head = f"checked as {' + '.join(report.versions)}{' (hybrid)' if report.hybrid else ''}: {report.errors} error(s), {report.warnings} warning(s)"
            first = next((f for f in report.findings if f.severity in ("error", "warning")), None)
            detail = head + (f"; first: {first.path} {first.message}" if first else "")
            checks.append(
                Check(
                    f"card.valid.{wire.version}",
                    "card",
                    f"card valid (A2A-Version {wire.version})",
                    status,
                    detail,
                    "§7 CARD_GET_002",
                    ids,
                )
            )
    return checks, core, reports


def signature_check(doc: Any, call: Any = None, opts: CallOptions | None = None) -> Check:
    """The card's signatures (A2A §8.4, CARD_GET_004): verified passes, invalid fails,
    unverifiable warns, absent is skipped (signing is optional). `call`: a Call whose transport
    fetches a jku (None: one is opened with `opts`, for its TLS options, when the card is signed)."""
    from a2acli.wire import signing

    title, spec = "card signature", "§8.1 CARD_GET_004"
    if not (isinstance(doc, dict) and doc.get("signatures")):
        return Check("card.signature", "card", title, SKIP, "absent: the card is not signed (optional, A2A §8.4)", spec)
    from a2acli.transport.signature import verify_card

    if call is None:
        with _call((opts or CallOptions())._replace(version_auto=False)) as own:
            outcome = verify_card(doc, own.transport)
    else:
        outcome = verify_card(doc, call.transport)
    status = {signing.VERIFIED: PASS, signing.INVALID: FAIL}.get(outcome.status, WARN)
    detail = signing.outcome_line(outcome).split(": ", 1)[1] + (f" ({outcome.hint})" if outcome.hint else "")
    return Check("card.signature", "card", title, status, detail, spec)


def _well_known(call: Any, base: str) -> list[Check]:
    from a2acli.wire.methods import CARD_PATHS

    out = []
    for path in CARD_PATHS:
        try:
            ex = call.transport.get(base + path, label="card")
        except A2acliError as e:
            out.append(
                Check(
                    f"card.path{path.replace('/.well-known/', '.')}",
                    "card",
                    f"GET {path}",
                    FAIL,
                    e.message,
                    "§7 discovery",
                    call.ids.take(),
                )
            )
            continue
        legacy = path.endswith("agent.json")
        ok = ex.status == 200
        status = PASS if ok or legacy else FAIL
        detail = f"HTTP {ex.status}" + (" (the path of 0.2 and older; optional)" if legacy else "")
        out.append(
            Check(
                f"card.path{path.replace('/.well-known/', '.')}",
                "card",
                f"GET {path}",
                status,
                detail,
                "§7 discovery",
                call.ids.take(),
            )
        )
    return out


# -- each interface -----------------------------------------------------------------------------------


class Interface(NamedTuple):
    binding: str  # --transport spelling
    card_binding: str  # JSONRPC, HTTP+JSON, GRPC
    wire: Wire
    url: str

    @property
    def label(self) -> str:
        return f"{self.card_binding} {self.wire.version} {self.url}"

    @property
    def key(self) -> str:
        return f"{self.binding}-{self.wire.version}"


def interfaces(core_card: dict[str, Any]) -> tuple[list[Interface], list[Check]]:
    """The interfaces to probe, one per binding x version (the first the card lists), and a skip
    for each one a2a cannot speak."""
    from a2acli.wire.bindings import binding_info

    out: list[Interface] = []
    skipped: list[Check] = []
    seen: set[tuple[str, Wire]] = set()
    for itf in core_card.get("supportedInterfaces") or []:
        if not isinstance(itf, dict):
            continue
        info = binding_info(str(itf.get("protocolBinding") or ""))
        wire = version_of(str(itf.get("protocolVersion") or ""))
        label = f"{itf.get('protocolBinding')} {itf.get('protocolVersion')} {itf.get('url')}"
        if info is None or not info.module or wire is None:
            skipped.append(
                Check(
                    f"interface.{len(skipped)}",
                    label,
                    "interface",
                    SKIP,
                    "a binding or version a2a does not speak",
                    "§8.3.2",
                )
            )
            continue
        if (info.flag, wire) in seen:
            continue
        seen.add((info.flag, wire))
        out.append(Interface(info.flag, info.card, wire, str(itf.get("url"))))
    return out, skipped


class _Probe:
    """The checks of one interface, in order; a step that cannot reach the agent ends it."""

    def __init__(
        self,
        itf: Interface,
        opts: CallOptions,
        core_card: dict[str, Any],
        read_only: bool,
        both: bool = False,
        receiver: Any = None,
    ) -> None:
        self.itf, self.core_card, self.read_only = itf, core_card, read_only
        self.receiver = receiver  # the --webhook receiver (a2acli.webhook.Receiver), None without --webhook
        self.both = both  # the card lists this binding under 1.0 too
        self.opts = opts._replace(
            wire=itf.wire,
            version_auto=False,
            transports=(itf.binding,),
            endpoint=None,
            output="json",
            as_v1=False,
            offline=False,
        )
        self.checks: list[Check] = []
        self.caps = core_card.get("capabilities") or {}
        self.answered = False  # some call got an A2A answer (a result, or an error with an A2A code)
        self.not_a2a = ""  # the first answer that was not A2A (a non-JSON-RPC HTTP 500...)

    def saw(self, e: A2acliError | None = None) -> None:
        """Evidence for "answers A2A": a decoded result (`e` None) or an error with an A2A code."""
        if e is None or e.a2a_code is not None:
            self.answered = True
        elif not self.not_a2a:
            self.not_a2a = e.message

    def add(self, name: str, title: str, status: str, detail: str, spec: str, ids: tuple[str, ...] = ()) -> None:
        self.checks.append(Check(f"{self.itf.key}.{name}", self.itf.label, title, status, detail, spec, ids))

    def expect_error(
        self,
        call: Any,
        name: str,
        title: str,
        spec: str,
        run: Callable[[], Any],
        want: tuple[int, ...],
        also: tuple[int, ...] = (),
    ) -> A2acliError | None:
        """Run a step that must fail with one of `want` (`also`: accepted with a warning)."""
        try:
            run()
        except (UnreachableError, TimeoutExpired):
            raise
        except A2acliError as e:
            self.saw(e)
            ids = call.ids.take() or ((e.request_id,) if e.request_id else ())
            if e.a2a_code in want:
                self.add(name, title, PASS, _code_name(e), spec, ids)
            elif e.a2a_code in also:
                self.add(name, title, WARN, f"{_code_name(e)} (expected {', '.join(map(str, want))})", spec, ids)
            else:
                self.add(name, title, FAIL, f"{_code_name(e)}, expected {', '.join(map(str, want))}", spec, ids)
            return e
        self.saw()
        self.add(
            name,
            title,
            FAIL,
            f"the agent answered with success, expected error {', '.join(map(str, want))}",
            spec,
            call.ids.take(),
        )
        return None

    def run(self) -> list[Check]:
        try:
            with _call(self.opts) as call:
                self._steps(call)
        except (UnreachableError, TimeoutExpired) as e:
            self.add(
                "reachable", "reachable", FAIL, e.message + (f" (hint: {e.hint})" if e.hint else ""), "§3 / §8.3.2"
            )
            return self.checks
        except A2acliError as e:  # a step not meant to fail (the card could not be re-read…)
            self.saw(e)
            self.add("probe", "probe", FAIL, e.message + (f" (hint: {e.hint})" if e.hint else ""), "")
        self.checks.insert(0, self._reachable())
        return self.checks

    def _reachable(self) -> Check:
        """Passes on evidence only: some call got an A2A answer. Answers that were all something
        else (a non-JSON-RPC HTTP 500 to every call) fail it."""
        title, spec = "reachable, answers A2A", "§3"
        if self.answered:
            return Check(
                f"{self.itf.key}.reachable",
                self.itf.label,
                title,
                PASS,
                f"{self.itf.wire.version} over {self.itf.card_binding}",
                spec,
            )
        first = f" (first: {self.not_a2a})" if self.not_a2a else ""
        detail = f"reachable, but no call got an A2A answer{first}"
        return Check(f"{self.itf.key}.reachable", self.itf.label, title, FAIL, detail, spec)

    def _steps(self, call: Any) -> None:
        unknown = f"a2acli-check-{uuid.uuid4()}"
        get = METHODS["GetTask"]
        # reachable, and an unknown task is TaskNotFoundError
        self.expect_error(
            call,
            "task-not-found",
            "GetTask of an unknown id",
            "§8 TaskNotFoundError",
            lambda: call.unary(get, {"id": unknown}),
            (TASK_NOT_FOUND,),
        )
        # an explicit version it does not serve: once per binding (the header, not the body, is tested)
        if self.itf.wire is Wire.V0 and not self.both:
            self._version_unsupported_v0(call, get, unknown)
        elif self.itf.wire is Wire.V1 or not self.both:
            grpc = self.itf.binding == "grpc"  # its services are versioned by package: the metadata is a second say
            self.expect_error(
                call,
                "version-unsupported",
                "A2A-Version: 99.0 refused",
                "§3.6 VersionNotSupportedError",
                lambda: call.unary(get, {"id": unknown}, headers={"A2A-Version": "99.0"}),
                (VERSION_NOT_SUPPORTED,),
                also=(TASK_NOT_FOUND,) if grpc else (),
            )
        else:
            self.add(
                "version-unsupported",
                "A2A-Version: 99.0 refused",
                SKIP,
                f"checked on the {self.itf.card_binding} 1.0 interface",
                "§3.6",
            )
        if self.itf.wire is Wire.V0:
            self.expect_error(
                call,
                "version-missing",
                "no A2A-Version header read as 0.3",
                "§3.6 (missing header = 0.3)",
                lambda: self._without_version(call, get, {"id": unknown}),
                (TASK_NOT_FOUND,),
            )
        else:
            self.add(
                "version-missing", "no A2A-Version header read as 0.3", SKIP, "checked on the 0.3 interfaces", "§3.6"
            )
        if self.itf.binding == "jsonrpc":
            self.expect_error(
                call,
                "method-not-found",
                "unknown method",
                "§8 MethodNotFoundError",
                lambda: self._invoke(call, "x-a2acli/no-such-method", {}),
                (METHOD_NOT_FOUND,),
            )
        else:
            self.add(
                "method-not-found",
                "unknown method",
                SKIP,
                f"{self.itf.card_binding} names methods by route: no unknown method to send",
                "§8",
            )
        if self.itf.binding == "grpc":
            self.add("invalid-params", "malformed params", SKIP, "protobuf cannot carry a malformed message", "§8")
        else:
            self.expect_error(
                call,
                "invalid-params",
                "malformed params",
                "§8 InvalidParamsError",
                lambda: self._invoke(call, "SendMessage", {"message": 42}),
                (INVALID_PARAMS,),
                also=(INVALID_REQUEST,),
            )
        task_id = self._send(call) if not self.read_only else None
        if self.read_only:
            self.add("message-send", "message round trip", SKIP, "--read-only", "§3.1 SendMessage")
        self._streaming(call)
        self._push(call, task_id)
        self._push_delivery(call)
        self._extended(call)
        self._paging(call)

    def _version_unsupported_v0(self, call: Any, get: Any, unknown: str) -> None:
        """A binding the card offers under 0.3 only: VersionNotSupportedError (-32009) exists only
        in 1.0, and 0.3 servers do not read A2A-Version, so any clean A2A refusal passes."""
        title, spec = "A2A-Version: 99.0 refused", "§3.6 (1.0); 0.3 has no VersionNotSupportedError"
        try:
            call.unary(get, {"id": unknown}, headers={"A2A-Version": "99.0"})
        except (UnreachableError, TimeoutExpired):
            raise
        except A2acliError as e:
            self.saw(e)
            ids = call.ids.take() or ((e.request_id,) if e.request_id else ())
            if e.a2a_code is None:
                self.add("version-unsupported", title, FAIL, f"not a clean A2A refusal: {e.message}", spec, ids)
            elif e.a2a_code == VERSION_NOT_SUPPORTED:
                self.add("version-unsupported", title, PASS, _code_name(e), spec, ids)
            else:
                self.add(
                    "version-unsupported",
                    title,
                    PASS,
                    f"{_code_name(e)}: a clean refusal (the agent speaks 0.3 only, whose spec has no -32009)",
                    spec,
                    ids,
                )
            return
        self.saw()
        self.add(
            "version-unsupported", title, FAIL, "GetTask of an unknown id answered with success", spec, call.ids.take()
        )

    def _without_version(self, call: Any, spec: Any, params: Any) -> Any:
        """The request as prepared, with the A2A-Version header taken out."""
        call.endpoint()
        enc = call.encode(spec, params, stream=False)
        req = call.prepare(enc)
        if hasattr(req, "headers"):
            del req.headers["A2A-Version"]
        else:  # gRPC: metadata
            req = req._replace(metadata=tuple((k, v) for k, v in req.metadata if k.lower() != "a2a-version"))
        ex = call.carrier().exchange(req, label=enc.method)
        return call.binding_of(enc).read_unary(enc, ex, warn=lambda _t: None)

    def _invoke(self, call: Any, method: str, params: Any) -> Any:
        call.endpoint()
        return list(call.invoke(call.encode_call(method, params)))

    def _shape(self, result: Any) -> list[str]:
        """What in an answer is not shaped as the version asks: kind present in 0.3 and absent
        in 1.0, enum spellings (lowercase V1 enums are the clix dialect)."""
        from a2acli.wire.shapes import answer_shape

        if self.itf.binding != "jsonrpc":  # ProtoJSON under both versions: no kind to tell them by
            return []
        return answer_shape(result, self.itf.wire.version, lowercase_ok=False)

    def _send(self, call: Any) -> str | None:
        spec = METHODS["SendMessage"]
        params = {
            "message": {
                "messageId": str(uuid.uuid4()),
                "role": "ROLE_USER",
                "parts": [{"text": "hello from a2a check"}],
            }
        }
        try:
            reply = call.unary(spec, params)
        except (UnreachableError, TimeoutExpired):
            raise
        except A2acliError as e:
            self.saw(e)
            self.add("message-send", "message round trip", FAIL, e.message, "§3.1 SendMessage", call.ids.take())
            return None
        self.saw()
        ids = call.ids.take()
        core = reply.core if isinstance(reply.core, dict) else {}
        task = core.get("task") if isinstance(core.get("task"), dict) else None
        what = (
            f"a task, state {(task.get('status') or {}).get('state')}"
            if task
            else "a message"
            if "message" in core
            else "an answer"
        )
        odd = self._shape(reply.result)
        if odd:
            self.add(
                "message-send",
                "message round trip",
                FAIL,
                f"{what}, but: " + "; ".join(odd),
                "§3.1 SendMessage; §5 (kind, enums)",
                ids,
            )
        else:
            self.add(
                "message-send",
                "message round trip",
                PASS,
                f"{what}, shaped as {self.itf.wire.version}",
                "§3.1 SendMessage",
                ids,
            )
        return str(task.get("id")) if task and task.get("id") else None

    def _streaming(self, call: Any) -> None:
        from a2acli.wire.shapes import ends_stream

        title, spec = "streaming (SSE) as the card claims", "§3.1 SendStreamingMessage; capabilities.streaming"
        if not self.caps.get("streaming"):
            self.add("streaming", title, SKIP, "the card does not claim streaming", spec)
            return
        if self.read_only:
            self.add("streaming", title, SKIP, "--read-only", spec)
            return
        params = {
            "message": {
                "messageId": str(uuid.uuid4()),
                "role": "ROLE_USER",
                "parts": [{"text": "hello from a2a check (stream)"}],
            }
        }
        events, last, odd = 0, None, []
        try:
            for reply in call.stream(METHODS["SendStreamingMessage"], params):
                self.saw()
                events += 1
                last = reply
                odd += [t for t in self._shape(reply.result) if t not in odd]
        except (UnreachableError, TimeoutExpired):
            raise
        except A2acliError as e:
            self.saw(e)
            self.add("streaming", title, FAIL, f"after {events} event(s): {e.message}", spec, call.ids.take())
            return
        ended = last is not None and ends_stream(last.result, last.core)
        if odd:
            self.add("streaming", title, FAIL, f"{events} event(s), but: " + "; ".join(odd), spec, call.ids.take())
        elif not ended:
            self.add(
                "streaming",
                title,
                FAIL,
                f"{events} event(s), and the stream closed without a final event",
                spec,
                call.ids.take(),
            )
        else:
            self.add("streaming", title, PASS, f"{events} event(s), ending in a final one", spec, call.ids.take())

    def _push(self, call: Any, task_id: str | None) -> None:
        title, spec = (
            "push-notification configs as the card claims",
            "§3.1 push config methods; capabilities.pushNotifications",
        )
        if not self.caps.get("pushNotifications"):
            self.add("push-config", title, SKIP, "the card does not claim push notifications", spec)
            return
        if self.read_only or not task_id:
            self.add(
                "push-config",
                title,
                SKIP,
                "--read-only" if self.read_only else "no task to attach a config to (the round trip gave none)",
                spec,
            )
            return
        config_id = f"a2acli-check-{uuid.uuid4().hex[:8]}"
        steps = [
            (
                "CreateTaskPushNotificationConfig",
                {"taskId": task_id, "id": config_id, "url": "http://127.0.0.1:9/a2a-check"},
            ),
            ("GetTaskPushNotificationConfig", {"taskId": task_id, "id": config_id}),
            ("ListTaskPushNotificationConfigs", {"taskId": task_id}),
            ("DeleteTaskPushNotificationConfig", {"taskId": task_id, "id": config_id}),
        ]
        done: list[str] = []
        for method, params in steps:
            try:
                call.unary(METHODS[method], params)
                self.saw()
            except (UnreachableError, TimeoutExpired):
                raise
            except A2acliError as e:
                self.saw(e)
                self.add(
                    "push-config",
                    title,
                    FAIL,
                    f"{method} refused: {e.message}" + (f" (after {', '.join(done)})" if done else ""),
                    spec,
                    call.ids.take(),
                )
                return
            done.append(method[: method.index("Task")].lower() if "Task" in method else method)
        self.add("push-config", title, PASS, "create, get, list and delete accepted", spec, call.ids.take())

    def _push_delivery(self, call: Any) -> None:
        """--webhook: a new task sent with a push config (a fresh token, the receiver's URL); passes
        when a delivery about that task carrying that token reaches the receiver in time."""
        title, spec = (
            "push notification delivered to a local receiver",
            "§6 push notifications; capabilities.pushNotifications",
        )
        if not self.caps.get("pushNotifications"):
            self.add("push-delivery", title, SKIP, "the card does not claim push notifications", spec)
            return
        if self.read_only or self.receiver is None:
            self.add(
                "push-delivery",
                title,
                SKIP,
                "--read-only" if self.read_only else "needs --webhook (a receiver on 127.0.0.1; creates a task)",
                spec,
            )
            return
        token = secrets.token_urlsafe(16)
        url = f"{self.receiver.url}/a2a-check/{self.itf.key}"
        message = {
            "messageId": str(uuid.uuid4()),
            "role": "ROLE_USER",
            "parts": [{"text": "hello from a2a check (push)"}],
        }
        params = {"message": message, "configuration": {"taskPushNotificationConfig": {"url": url, "token": token}}}
        try:
            reply = call.unary(METHODS["SendMessage"], params)
        except (UnreachableError, TimeoutExpired):
            raise
        except A2acliError as e:
            self.add(
                "push-delivery",
                title,
                FAIL,
                f"SendMessage with a push config to {url} refused: {e.message}",
                spec,
                call.ids.take(),
            )
            return
        ids = call.ids.take()
        core = reply.core if isinstance(reply.core, dict) else {}
        task = core.get("task") if isinstance(core.get("task"), dict) else None
        if not task or not task.get("id"):
            self.add(
                "push-delivery",
                title,
                SKIP,
                "the agent answered the message with no task: nothing to push about",
                spec,
                ids,
            )
            return
        wait = self.opts.timeout or WEBHOOK_WAIT
        status, detail = await_delivery(self.receiver, str(task["id"]), token, wait)
        self.add("push-delivery", title, status, detail, spec, ids)

    def _extended(self, call: Any) -> None:
        title, spec = (
            "extended card: refused without credentials, answered with them",
            "§3.1 GetExtendedAgentCard; capabilities.extendedAgentCard",
        )
        if not self.caps.get("extendedAgentCard"):
            self.add("extended-card", title, SKIP, "the card does not claim an extended card", spec)
            return
        method = METHODS["GetExtendedAgentCard"]
        bare = self.opts._replace(
            api_key=None,
            bearer=None,
            basic=None,
            oauth=(),
            headers=tuple(h for h in self.opts.headers if h[0].lower() not in ("authorization", "x-api-key")),
        )
        refused = ""
        with _call(bare) as anon:
            try:
                anon.unary(method, {})
                refused = "answered WITHOUT credentials"
            except (UnreachableError, TimeoutExpired):
                raise
            except AuthError as e:
                refused = ""
                del e
            except A2acliError as e:
                refused = f"without credentials: {_code_name(e)} instead of an auth refusal"
            ids = anon.ids.take()
        creds = self.opts.api_key or self.opts.bearer or self.opts.basic or self.opts.oauth
        if not creds:
            status = FAIL if refused.startswith("answered") else SKIP
            self.add(
                "extended-card",
                title,
                status,
                refused or "refused without credentials; pass --api-key or --bearer to check it answers with them",
                spec,
                ids,
            )
            return
        try:
            reply = call.unary(method, {})
        except (UnreachableError, TimeoutExpired):
            raise
        except A2acliError as e:
            self.saw(e)
            self.add("extended-card", title, FAIL, f"with credentials: {e.message}", spec, ids + call.ids.take())
            return
        self.saw()
        name = (reply.core or {}).get("name") if isinstance(reply.core, dict) else None
        if refused:
            self.add(
                "extended-card",
                title,
                WARN if not refused.startswith("answered") else FAIL,
                refused,
                spec,
                ids + call.ids.take(),
            )
        else:
            self.add(
                "extended-card",
                title,
                PASS,
                f"refused without, answered with credentials ({name!r})",
                spec,
                ids + call.ids.take(),
            )

    def _paging(self, call: Any) -> None:
        title, spec = "ListTasks honours pageSize and pageToken", "§3.1 ListTasks"
        if self.itf.wire is Wire.V0:
            self.add("list-tasks", title, SKIP, "0.3 has no ListTasks", spec)
            return
        method = METHODS["ListTasks"]
        try:
            first = call.unary(method, {"pageSize": 1}).core or {}
            self.saw()
            tasks = first.get("tasks") or []
            if len(tasks) > 1:
                self.add("list-tasks", title, FAIL, f"pageSize 1 gave {len(tasks)} tasks", spec, call.ids.take())
                return
            token = first.get("nextPageToken")
            if not token:
                self.add(
                    "list-tasks",
                    title,
                    PASS,
                    f"pageSize 1 gave {len(tasks)} task(s), no next page",
                    spec,
                    call.ids.take(),
                )
                return
            second = call.unary(method, {"pageSize": 1, "pageToken": token}).core or {}
        except (UnreachableError, TimeoutExpired):
            raise
        except A2acliError as e:
            self.saw(e)
            self.add("list-tasks", title, FAIL, e.message, spec, call.ids.take())
            return
        again = [t.get("id") for t in second.get("tasks") or []]
        if tasks and tasks[0].get("id") in again:
            self.add(
                "list-tasks",
                title,
                FAIL,
                "the page after pageToken repeats the first page's task",
                spec,
                call.ids.take(),
            )
        else:
            self.add(
                "list-tasks",
                title,
                PASS,
                f"pageSize 1 honoured; pageToken gave the next page ({len(again)} task(s))",
                spec,
                call.ids.take(),
            )


# -- push delivery (--webhook) -----------------------------------------------------------------------


class _HeaderView:
    """A delivery's headers as webhook.check_credentials reads them (case-insensitive get)."""

    def __init__(self, delivery: Any) -> None:
        self.delivery = delivery

    def get(self, name: str) -> str | None:
        return self.delivery.header(name)


def delivered_task(delivery: Any) -> str | None:
    """The task id a delivery is about (any body shape the receiver recognises), or None."""
    shape = delivery.shape
    core = shape.core if shape is not None else None
    if not isinstance(core, dict):
        return None
    task = core.get("task")
    if isinstance(task, dict):
        return str(task.get("id")) if task.get("id") else None
    for member in ("statusUpdate", "artifactUpdate", "message"):
        event = core.get(member)
        if isinstance(event, dict) and event.get("taskId"):
            return str(event["taskId"])
    return None


def await_delivery(receiver: Any, task_id: str, token: str, timeout: float) -> tuple[str, str]:
    """Wait up to `timeout` seconds for a delivery about `task_id` that carries `token` (as
    `a2a webhook listen --token` checks it). Deliveries about other tasks (an earlier
    interface's) are passed over. Returns the check's status and detail."""
    from a2acli.webhook import TOKEN_HEADERS, check_credentials

    start = time.monotonic()
    deadline = start + timeout
    refused: list[str] = []
    other = 0
    while True:
        left = deadline - time.monotonic()
        delivery = receiver.next(left) if left > 0 else None
        if delivery is None:
            break
        if delivered_task(delivery) != task_id:
            other += 1
            continue
        problem = delivery.problem or check_credentials(_HeaderView(delivery), token=token, auth=None)
        problem = problem and problem.replace("--token", "the config's token")
        if problem:
            refused.append(problem)
            continue
        header = next(h for h in TOKEN_HEADERS if delivery.header(h) is not None)
        shape = delivery.shape.name if delivery.shape is not None else "a body"
        return PASS, f"{shape} about task {task_id}, token in {header} (waited {time.monotonic() - start:.1f}s)"
    detail = f"no delivery about task {task_id} with its token reached {receiver.url} within {timeout:g}s"
    if refused:
        detail += f"; {len(refused)} about it without the right token (first: {refused[0]})"
    if other:
        detail += f"; {other} other request(s) (other tasks, or not A2A events)"
    if not refused and not other:
        detail += "; the receiver got no request at all (can the agent reach 127.0.0.1 on this machine?)"
    return FAIL, detail


def probe(
    opts: CallOptions, core_card: dict[str, Any], *, read_only: bool = False, webhook: bool = False
) -> list[Check]:
    """Every interface's checks, in card order. `webhook`: a receiver on 127.0.0.1 (any free
    port) for the push deliveries, when the card claims push notifications."""
    found, checks = interfaces(core_card)
    if opts.transports:  # --transport: those bindings only
        found = [i for i in found if i.binding in opts.transports]
    receiver = None
    if webhook and not read_only and found and (core_card.get("capabilities") or {}).get("pushNotifications"):
        from a2acli.webhook import Receiver

        receiver = Receiver("127.0.0.1", 0).start()
    try:
        for itf in found:
            both = any(o.binding == itf.binding and o.wire is Wire.V1 for o in found)
            checks += _Probe(itf, opts, core_card, read_only, both, receiver).run()
    finally:
        if receiver is not None:
            receiver.close()
    if not found:
        checks.append(
            Check(
                "interfaces",
                "card",
                "an interface a2a speaks",
                FAIL,
                "the card lists no JSONRPC, HTTP+JSON or GRPC interface for 1.0 or 0.3",
                "§8.3.2",
            )
        )
    return checks
