"""One invocation's session (transport and taps; its parts: pipeline.target, .credentials,
.tracking) and its one `invoke()`: a call encoded by the binding, prepared once as the
httpx.Request that `--offline`, `--debug`, `--dump` and the send all use, and read back as a
stream of replies (a unary call is a stream of one). Under `--offline` invoke prints that request
and sends nothing."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from a2acli.errors import (
    A2acliError,
    ConnectionBrokenError,
    HttpError,
    InvalidResponseError,
    RpcError,
    TimeoutExpired,
    UnreachableError,
)
from a2acli.events import DebugBody, Note, Passthrough, RequestPrepared, Retry, Sink, Warn
from a2acli.pipeline.credentials import SessionCredentials, learn_secrets
from a2acli.pipeline.options import CallOptions
from a2acli.pipeline.target import Target
from a2acli.wire import Wire, envelope

if TYPE_CHECKING:
    from a2acli.pipeline.tracking import Tracking
    from a2acli.wire.bindings.base import Binding, Encoded
    from a2acli.wire.endpoints import Endpoint
    from a2acli.wire.methods import MethodSpec  # (a type only: the method table stays off `card fetch`)


_UNSET: Any = object()


class Reply:
    """One answer: `result` as the wire spelt it, `core` its canonical V1 form (worked out on first
    use when `decode` is given instead), `raw` what crossed the wire (the body's bytes, or a stream
    event's data as the SSE reader decoded it: text, which -o raw writes as it stands), the
    exchange, and for a stream event its `facts` (wire.shapes)."""

    __slots__ = ("result", "_core", "raw", "exchange", "_decode", "facts")

    def __init__(
        self,
        result: Any,
        core: Any = _UNSET,
        raw: bytes | str = b"",
        exchange: Any = None,
        *,
        decode: Any = None,
        facts: Any = None,
    ) -> None:
        self.result, self._core, self.raw, self.exchange, self._decode, self.facts = (
            result,
            core,
            raw,
            exchange,
            decode,
            facts,
        )

    @property
    def core(self) -> Any:
        if self._core is _UNSET:
            self._core = self._decode(self.result)
        return self._core

    def _replace(self, **changes: Any) -> Reply:
        fields = {"result": self.result, "core": self.core, "raw": self.raw, "exchange": self.exchange, **changes}
        return Reply(fields["result"], fields["core"], fields["raw"], fields["exchange"], facts=self.facts)


class OfflineShown(Exception):  # noqa: N818 (a signal, not an error)
    """`--offline`: invoke printed the prepared request and sent nothing; the flow that asked
    for it ends here (flows.runs.session ends it with exit 0; a chat goes on to its next line)."""


class Call:
    """One invocation's session: its transport and taps, and the parts that answer each question
    of a call, reached as attributes: `target` (which agent, card, endpoint, binding and version),
    `creds` (which credentials, to which origins), `tracking` (what the replies say of the task in
    hand). The session itself resolves (`resolve`, once, at the start of a flow), encodes,
    prepares, invokes (`invoke`, `unary`, `stream`) and closes; its options change in one place,
    `adopt`, which takes what the parts resolve (they return it and write nothing here)."""

    def __init__(self, opts: CallOptions, sink: Sink) -> None:
        from a2acli.redact import Redactor
        from a2acli.transport.client import UNARY_BOUND, Transport, TransportConfig
        from a2acli.transport.taps import DebugTap, RequestIdTap

        # the run's redactor, which its options carry (its Outputs, error envelope and tracebacks use it
        # too); options resolved outside a run: one of the call's own
        self.redactor = opts.redactor if opts.redactor is not None else Redactor()
        self.opts = opts._replace(redactor=self.redactor)
        self.sink = sink  # what the call tells the user goes here, as events (a2acli.events)
        learn_secrets(self.redactor, opts)
        taps: list[Any] = [RequestIdTap(lambda line: sink.emit(Note(line)))]
        if opts.debug:
            taps.append(
                DebugTap(
                    lambda line: sink.emit(Note(line, always=True)),
                    self.redactor,
                    lambda mark, body: sink.emit(DebugBody(mark, body)),
                )
            )  # asked for: said under -q too
        if opts.dump:
            from a2acli.recording.record import DumpTap  # loaded only when --dump asks

            taps.append(
                DumpTap(
                    opts.dump,
                    self.redactor,
                    version=None if opts.version_auto else opts.wire.version,
                    append=opts.dump_append,
                )
            )
        if opts.insecure:
            sink.emit(
                Warn(
                    "--insecure: TLS certificates are NOT verified; anyone on the path can read and change this traffic"
                )
            )
        self.transport = Transport(
            TransportConfig(
                version=opts.wire.version,
                headers=opts.headers,
                extensions=opts.extensions,
                timeout=opts.timeout,
                unary_bound=None if opts.timeout or opts.no_timeout else UNARY_BOUND,
                max_body=opts.max_body,
                insecure=opts.insecure,
                cacert=opts.cacert,
                cert=opts.cert,
                key=opts.key,
            ),
            taps,
        )
        self.target = Target(self)
        self.creds = SessionCredentials(self)
        self._tracking: Tracking | None = None  # built on first use (`tracking`)
        self._grpc: Any = None  # the gRPC carrier, once a gRPC interface is used
        self._binding: Any = None  # the endpoint's binding, once an answer is read
        self.sending: dict[str, Any] | None = None  # the message of a send not answered yet (Ctrl-C names it)
        self.live_view = False  # events are shown as they come (stream, --stream): Ctrl-C resumes into that view
        self.shapes: list[str] = []  # answers not shaped as the version asked for, said once each
        self.sent: tuple[str, Any] | None = None  # the last method encoded and its core params
        self._extension_said = False  # the --force extension note (once a run)
        self.answered: dict[str, list[str]] = {}  # endpoint URL -> the methods it gave an A2A answer to in this run
        self.v0_extensions = False  # --force: a method 0.3 lacks goes in the binding's extension form (tasks list)

    def close(self) -> None:
        for tap in self.transport.taps:  # a dump finishes the exchanges a Ctrl-C left open, then says where they went
            getattr(tap, "close", lambda: None)()
            if line := getattr(tap, "summary", lambda: None)():
                self.sink.emit(Note(line))
        if self._grpc is not None:
            self._grpc.close()
        self.transport.close()

    def __enter__(self) -> Call:
        return self

    def __exit__(self, *exc: Any) -> None:
        if isinstance(exc[1], A2acliError):  # messages quote URLs, which may carry an API key
            exc[1].message = self.redactor.text(exc[1].message)
            exc[1].args = (exc[1].message,)  # what a --debug traceback prints
            for tap in self.transport.taps:  # a run refused before its call was sent: the dump says why
                getattr(tap, "refused", lambda *a: None)(exc[1].message, exc[1].hint)
        self.close()

    @property
    def sends(self) -> bool:
        """Whether requests go out: not under --offline (invoke prints them), so nothing waits
        for an answer there (no spinner, no live view)."""
        return not self.opts.offline

    def resolve(self) -> Endpoint | None:
        """The start of a flow: the agent, its card, the version and the endpoint, resolved once
        (pipeline.target: what it resolves, the session adopts)."""
        return self.target.resolve()

    def adopt(self, **changes: Any) -> None:
        """The one place the session's options change, for every later request to carry: the agent
        a catalog entry names and the version chosen from the card (pipeline.target resolves them),
        a chat turn's one-off credentials (`turn_credentials`). The transport sends the version;
        the redactor learns every secret they carry."""
        self.opts = self.opts._replace(**changes)
        if "wire" in changes:
            self.transport.cfg = self.transport.cfg._replace(version=self.opts.wire.version)
        learn_secrets(self.redactor, self.opts)

    @contextmanager
    def turn_credentials(self, given: dict[str, Any]) -> Iterator[None]:
        """Credentials for the calls made inside only (a chat turn that answers an AUTH_REQUIRED
        task): `given` fills options (api_key, bearer, basic), which go where the card's schemes
        take them, as a flag's would; then those options are as they were. Never stored; redacted
        in everything written from the moment they are known."""
        saved = {name: getattr(self.opts, name) for name in given}
        self.adopt(**given)
        try:
            yield
        finally:
            self.adopt(**saved)

    @property
    def tracking(self) -> Tracking:
        """What the replies say of the task in hand, built on first use: `a2a card fetch` reads no
        task, and does not load pipeline.tracking (nor the task states it imports)."""
        if self._tracking is None:
            from a2acli.pipeline.tracking import Tracking

            self._tracking = Tracking()
        return self._tracking

    # -- encoding and preparing -----------------------------------------------------------------------
    def encode(
        self, spec: MethodSpec, params: Any, request_id: str | None = None, *, stream: bool | None = None
    ) -> Encoded:
        """A method of the table, encoded by the endpoint's binding for the chosen version."""
        from a2acli.wire.methods import NoV0FormError

        ep = self.target.known_endpoint()
        self.redactor.learn(params)  # push-config token / credentials: redacted in dumps and --debug
        self.sent = (spec.name, params)
        try:
            enc = self.target.binding.encode(
                spec,
                params,
                wire=self.opts.wire,
                dialect=self._dialect_for(spec),
                tenant=ep.tenant if ep else "",
                request_id=request_id,
                stream=spec.streaming if stream is None else stream,
            )
        except NoV0FormError as e:  # what to do depends on what the card offers
            if self.target.card is not None:
                from a2acli.wire.endpoints import offered_versions

                offers_v1: bool | None = Wire.V1 in offered_versions(self.target.card, self.opts.transports)
                if (
                    not offers_v1 and self.target.card_varies
                ):  # asked for with A2A-Version 0.3, this card came back in its 0.3 form
                    offers_v1 = None
                e.hint = e.spec.no_v0_hint(offers_v1, self.target.binding.info)
            raise
        return self._noted(enc, request_id)

    def _dialect_for(self, spec: MethodSpec) -> Any:
        """The dialect a method is encoded in: the chosen one, or (--force on a method 0.3 has
        only as an extension, `v0_extensions`) one that takes the binding's extension form, said
        once a run."""
        dialect = self.opts.dialect
        if not (self.v0_extensions and spec.v0_vendor_only and self.opts.wire is Wire.V0) or dialect.v0_list_tasks:
            return dialect
        form = spec.v0_extension(self.target.binding.info)
        if form and not self._extension_said:
            self._extension_said = True  # every page is encoded
            self.sink.emit(Note(f"0.3 has no {spec.name}: sending the extension {form} anyway (--force)"))
        return dialect._replace(v0_list_tasks=True)

    def encode_call(self, method: str, params: Any, request_id: str | None = None, *, stream: bool = False) -> Encoded:
        """`a2a call`: a method by any name (see the bindings' encode_call)."""
        ep = self.target.known_endpoint()
        self.redactor.learn(params)
        enc = self.target.binding.encode_call(
            method,
            params,
            wire=self.opts.wire,
            dialect=self.opts.dialect,
            tenant=ep.tenant if ep else "",
            request_id=request_id,
            stream=stream,
        )
        return self._noted(enc, request_id)

    def _noted(self, enc: Encoded, request_id: str | None = None) -> Encoded:
        for n in enc.notes:
            self.sink.emit(Warn(f"not carried to V0: {n}"))
        if request_id is not None and enc.request_id is None:
            self.sink.emit(
                Warn(f"--request-id is the JSON-RPC id: {self.target.binding.name} has none, so it is not sent")
            )
        return enc

    def carrier(self, binding: Binding | None = None) -> Any:
        """What moves a binding's requests: the httpx transport (JSON-RPC, HTTP+JSON), or the gRPC
        one (loaded only when a gRPC interface is used). Both share the deadline and the taps."""
        binding = binding or self.target.binding
        if not binding.info.carrier_grpc:
            return self.transport
        if self._grpc is None:
            from a2acli.transport.grpc import GrpcTransport

            self._grpc = GrpcTransport(self.transport, plaintext=self.opts.plaintext)
        return self._grpc

    def prepare(self, enc: Encoded, *, headers: dict[str, str] | None = None, url: str | None = None) -> Any:
        """The one request of a call (the carrier's prepare), on the endpoint's URL: what
        --offline, --debug, --dump and the send all use."""
        base = url if url is not None else self.target.endpoint().url
        creds = self.creds.for_request(base)  # which credentials, to which origin
        return self.carrier().prepare(base, enc.request, creds=creds, headers=headers)

    # -- offline --------------------------------------------------------------------------------------
    def _print_offline(self, enc: Encoded, *, headers: dict[str, str] | None = None) -> None:
        """Print the request exactly as it would be sent: the prepared httpx.Request. When the
        endpoint is on a card not fetched, its URL is a placeholder that says so."""
        ep = self.target.known_endpoint()
        placeholder = None
        if ep is None:
            placeholder = f"<{self.target.binding.name} URL from the Agent Card of {self.opts.url or '--url'}>"
            req = self.prepare(enc, headers=headers, url="http://agent-card.invalid")
        else:
            req = self.prepare(enc, headers=headers)
        line, raw_headers, body = self.carrier().describe(req)
        if placeholder:
            import re

            # the stand-in URL as each carrier shows it (http://agent-card.invalid, grpc://agent-card.invalid:80)
            line = re.sub(r"[a-z]+://agent-card\.invalid(:\d+)?", lambda _: placeholder, line)
            host = f"<host of the {self.target.binding.name} URL from the Agent Card of {self.opts.url or '--url'}>"
            raw_headers = [(k, host if k.lower() in ("host", ":authority") else v) for k, v in raw_headers]
        if ep is None and not self.opts.transports:
            self.sink.emit(
                Note(
                    f"the binding comes from the Agent Card, which --offline does not read: showing {self.target.binding.name}; --transport picks one"
                )
            )
        if ep is None and (self.opts.api_key or self.opts.bearer or self.opts.basic or self.opts.oauth):
            self.sink.emit(
                Note(
                    "credentials are shown as given: the Agent Card, which --offline does not read, decides which are sent (only those its schemes take)"
                )
            )
        if ep is None and self.opts.version_auto:
            self.sink.emit(
                Note(
                    f"--a2a-version auto: the version comes from the Agent Card, which --offline does not read: showing {self.opts.wire.version}"
                )
            )
        head = [self.redactor.text(line)] + [f"{k}: {v}" for k, v in self.redactor.headers(raw_headers)]
        document = enc.document
        if enc.request_id is None:  # no envelope names the call: the JSON document is the whole request
            verb, _, target = head[0].partition(" ")
            document = {
                "method": verb,
                "url": target,
                "headers": dict(self.redactor.headers(raw_headers)),
                "body": enc.document,
            }
        self.sink.emit(RequestPrepared(head, body, enc.document, whole=document))

    # -- invoke -----------------------------------------------------------------------------------------
    def invoke(self, enc: Encoded, *, headers: dict[str, str] | None = None, retries: int = 0) -> Iterator[Reply]:
        """Send an encoded call and yield its replies: one for a unary call, each event of a
        stream as it arrives, up to the last one (the agent closing the stream, or a final event).
        The one place a prepared request is sent: under --offline it is printed instead, nothing
        is sent, and OfflineShown ends the flow (as httpie's collect_messages stops there)."""
        if self.opts.offline:
            self._print_offline(enc, headers=headers)
            raise OfflineShown(enc.method)
        if enc.stream:
            yield from self._stream(enc, headers=headers)
        else:
            yield self._unary(enc, headers=headers, retries=retries)

    def unary(
        self,
        spec: MethodSpec,
        params: Any,
        *,
        request_id: str | None = None,
        headers: dict[str, str] | None = None,
        retries: int = 0,
    ) -> Reply:
        self.resolve()  # before encoding: the interface's binding and tenant shape the request
        enc = self.encode(spec, params, request_id, stream=False)
        try:
            (reply,) = self.invoke(enc, headers=headers, retries=retries)
            return reply
        except (RpcError, HttpError) as e:
            other = self._other_form(spec, params, e)
            if other is None:
                raise
        (reply,) = self.invoke(
            other, headers=headers, retries=retries
        )  # outside the except: the dump does not pin the refusal on it
        return reply

    def _other_form(self, spec: MethodSpec, params: Any, err: A2acliError) -> Encoded | None:
        """The call in the route's other body form, when the first was refused as a request the
        agent could not read: HTTP 400 or 422, -32602 or -32600 (a2a-js 1.3's 0.3 mount answers
        "…missing pushNotificationConfig" to the whole request; a2a-js 0.3 "Request must include a
        `config` object" and a2a-sdk 1.x "No task for" to the proto's form), or an HTTP 500 naming
        no A2A error (a2a-sdk 0.3 fails to parse the proto's form).
        Sent once, with a note: a server reads one form or the other, so the two cannot both set
        a config."""
        refused = err.a2a_code in (-32602, -32600) or type(err) is HttpError and err.wire_code in (400, 422, 500)
        if not refused:
            return None
        ep = self.target.known_endpoint()
        other = self.target.binding.encode_other(
            spec, params, wire=self.opts.wire, dialect=self._dialect_for(spec), tenant=ep.tenant if ep else ""
        )
        if other is None:
            return None
        self.sink.emit(
            Note(
                f"{spec.name}: the agent refused the body the 0.3 proto's route defines ({err.message}); sending it once more with the whole request as the body, as a2a-sdk and a2a-js 0.3 read it"
            )
        )
        return self._noted(other)

    def stream(
        self, spec: MethodSpec, params: Any, *, request_id: str | None = None, headers: dict[str, str] | None = None
    ) -> Iterator[Reply]:
        self.resolve()
        yield from self.invoke(self.encode(spec, params, request_id, stream=True), headers=headers)

    def _unary(self, enc: Encoded, *, headers: dict[str, str] | None = None, retries: int = 0) -> Reply:
        """Send (retrying as asked) and read the result. A message is sent again only under an
        idempotency key (the agent then runs it once): without one, `retries` is not used for it."""
        attempt = 0
        same = [f"{k}: {v}" for k, v in (headers or {}).items() if "idempotency" in k.lower()]
        if not same and enc.spec is not None and enc.spec.result == "send":
            retries = 0  # never a message twice without its key
        while True:
            try:
                ex = self.carrier().exchange(self.prepare(enc, headers=headers), label=enc.method)
                if self.creds.renew_oauth_token(ex):
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
                self.sink.emit(Retry(attempt, retries, delay, e.message, same[0] if same else ""))
                time.sleep(delay)
        try:
            result = self.binding_of(enc).read_unary(enc, ex, warn=self._warn)
        except A2acliError as e:  # an A2A error, an HTTP error, an answer that is no JSON
            if ex.response_body:
                self.sink.emit(Passthrough(ex.response_body))  # raw: the error body as it came
            self._answered(enc, e)
            self._predates(enc, e)
            raise
        self._answered(enc)
        try:
            core = self._decode(enc, result)
        except InvalidResponseError:  # an answer that breaks the schema: raw shows it as it came
            self.sink.emit(Passthrough(ex.response_body))
            raise
        return Reply(result, core, ex.response_body, ex)

    def _predates(self, enc: Encoded, err: A2acliError) -> None:
        """A method 0.3 brought, refused as unknown (-32601) or as a bad envelope (-32600: a2a-sdk
        0.2 validates the method name against the methods it has) by an agent whose card is from
        before 0.3: the card predates the method, and the hint says so."""
        from a2acli.wire import is_pre_v03

        pv = self.target.card_doc.get("protocolVersion") if isinstance(self.target.card_doc, dict) else None
        if not (
            enc.spec is not None
            and enc.spec.v0_since_0_3
            and isinstance(err, RpcError)
            and err.a2a_code in (-32600, -32601)
            and isinstance(pv, str)
            and is_pre_v03(pv)
        ):
            return
        err.hint = (
            f"the Agent Card says protocolVersion {pv}, and {enc.method} came with 0.3: the agent predates the method"
        )
        if enc.spec.name == "GetExtendedAgentCard":
            err.hint += " (0.2 agents built with a2a-sdk serve an extended card, if any, by HTTP GET at /agent/authenticatedExtendedCard)"

    def _answered(self, enc: Encoded, err: A2acliError | None = None) -> None:
        """Note which endpoint gave an A2A answer (a result, an A2A error) to which method; an
        error whose hint doubts the endpoint (a 404, a 5xx that is no JSON-RPC answer) from an
        endpoint that answered other methods in this run, or that the Agent Card names, is the
        agent lacking the method: its hint says so."""
        url = self.target.endpoint().url
        if err is None or isinstance(err, RpcError):
            methods = self.answered.setdefault(url, [])
            if enc.method not in methods:
                methods.append(enc.method)
            return
        if not getattr(err, "doubts_endpoint", False):
            return
        others = [m for m in self.answered.get(url, []) if m != enc.method]
        if others:
            why = f"{url} answered {', '.join(others)} in this run"
        elif self.target.card is not None and not self.opts.endpoint:
            why = f"{url} is the endpoint the Agent Card names"
        else:
            return
        what = (
            f"{enc.method} ({enc.request.verb} {enc.request.path})" if self.binding_of(enc).info.routes else enc.method
        )
        err.hint = f"{why}: the agent probably does not implement {what}; -o raw or --debug shows the body"

    def _warn(self, text: str) -> None:
        self.sink.emit(Warn(text))

    def binding_of(self, enc: Encoded) -> Binding:
        """The binding that encoded `enc` (the endpoint's, looked up once per call)."""
        if self._binding is None:
            self._binding = self.target.binding
        return self._binding

    def _decode(self, enc: Encoded, result: Any, *, shape: bool = True) -> Any:
        """The result in canonical V1, checked against what the method promises (InvalidResponse
        otherwise; `a2a call` of an unknown method is not checked). `shape`: also check its shape
        against the version asked for (a stream does that once per kind of event)."""
        from a2acli.wire.shapes import check_result

        core = self.binding_of(enc).to_core(enc, result)
        if enc.spec is not None:
            check_result(enc.spec.result, core, enc.method)
        if shape:
            self._check_shape(enc, result)
        return core

    def _check_shape(self, enc: Encoded, result: Any) -> None:
        """An answer not shaped as the version asked for (wire.shapes.answer_shape): one warning
        per kind of deviation per run, each recorded in the dump index."""
        from a2acli.wire.shapes import answer_shape

        if self.binding_of(enc).info.proto_json or enc.spec is None:
            return  # HTTP+JSON and gRPC carry ProtoJSON under both versions: no kind to tell them by
        for text in answer_shape(result, enc.wire.version, lowercase_ok=self.opts.dialect.lowercase_v1_enums):
            if text.split(" (")[0] not in self.shapes:  # one warning per kind of deviation
                self.shapes.append(text.split(" (")[0])
                self.sink.emit(Warn(f"{text}; rendered as read"))
                last = self.transport.last
                for tap in self.transport.taps:
                    getattr(tap, "shape", lambda *a: None)(getattr(last, "seq", None), enc.method, text)

    def _stream(self, enc: Encoded, *, headers: dict[str, str] | None = None) -> Iterator[Reply]:
        """Each event as it arrives, decoded to canonical V1 and checked against what the method
        promises in every output mode: an event that is not a StreamResponse ends the stream with
        InvalidResponseError (exit 1) under -o json and raw as in text, as `send` does with an
        answer. Its few facts (wire.shapes.peek_event) serve tracking and the end of the stream."""
        from a2acli.wire.fastpath import core_of, fast_events
        from a2acli.wire.shapes import check_result, ends_stream, peek_event

        binding = self.binding_of(enc)
        to_core, promised = binding.to_core, enc.spec.result if enc.spec is not None else None

        def decode(result: Any) -> Any:  # self._decode(enc, result, shape=False), its look-ups done once
            core = to_core(enc, result)
            if promised is not None:
                check_result(promised, core, enc.method)
            return core

        vouch = fast_events(decode) if promised == "event" else None  # an event of any usual shape: checked in one pass

        shaped: set[str] = set()  # kinds of event whose shape was checked (once each: warnings are once per run)

        warned: set[str] = set()

        def warn_once(text: str) -> None:  # one line per stream, not one per event
            if text not in warned:
                warned.add(text)
                self.sink.emit(Warn(text))

        while True:
            with self.carrier().stream(self.prepare(enc, headers=headers), label=enc.method, idle=self.sink.flush) as (
                ex,
                stream,
            ):
                if not 200 <= (ex.status or 0) < 300:
                    if self.creds.renew_oauth_token(ex):
                        continue
                    failed = binding.error(ex)
                    self._answered(enc, failed)
                    raise failed
                events = 0
                ids, check_deadline = self.tracking.event_ids, self.transport.check_deadline
                for ev in stream:
                    if ev.id and not ids.fresh(ev.id):
                        events += 1
                        continue  # shown already: a server replaying after a re-subscription
                    try:
                        result = binding.read_event(enc, ex, ev.event, ev.data, warn=warn_once)
                    except RpcError:
                        self.sink.emit(Passthrough(ev.data))  # raw: the error event's data as it came
                        raise
                    vouched = vouch(result) if vouch is not None else None
                    facts = vouched if vouched is not None else peek_event(result)
                    if facts is None or facts.kind not in shaped:
                        shaped.add(facts.kind if facts is not None else "")
                        self._check_shape(enc, result)
                    # checked in every output mode (-o json and raw print the wire form, but an event that
                    # is not what the method promises ends the stream, exit 1, in each mode alike); a vouched
                    # event's canonical form is itself, or built when a view asks for it (text, --as v1)
                    if vouched is None:
                        reply = Reply(result, decode(result), ev.data, ex, facts=facts)
                    elif vouched.same:
                        reply = Reply(result, result, ev.data, ex, facts=facts)
                    else:
                        reply = Reply(result, raw=ev.data, exchange=ex, decode=core_of, facts=facts)
                    ends = facts.ends if facts is not None else ends_stream(result, reply.core)
                    events += 1
                    if events == 1:
                        self._answered(enc)
                    yield reply
                    check_deadline()
                    if ends:
                        return
                if not events:
                    raise InvalidResponseError(
                        f"the stream of {enc.method} closed without a single event",
                        hint="the agent accepted the call but sent nothing; see the exchange with --debug",
                    )
                return


def retry_delay(attempt: int, ex: Any = None) -> float:
    """Exponential backoff (0.5 s, 1 s, 2 s … up to 8 s), or the answer's Retry-After seconds
    when it asks for longer (capped at 60 s)."""
    delay = min(0.5 * 2**attempt, 8.0)
    after = (ex.header("retry-after") or "").strip() if ex is not None and ex.status else ""
    if after.isdigit():
        delay = max(delay, min(float(after), 60.0))
    return delay


def new_request_id() -> str:
    return envelope.new_id()
