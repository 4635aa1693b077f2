"""One invocation's session (transport, card, interface and binding, credentials, taps) and its
one `invoke()`: a call encoded by the binding, prepared once as the httpx.Request that
`--offline`, `--debug`, `--dump` and the send all use, and read back as a stream of replies (a
unary call is a stream of one)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from a2acli.errors import (
    A2acliError,
    CardInvalidError,
    ConnectionBrokenError,
    HttpError,
    InvalidResponseError,
    RpcError,
    TimeoutExpired,
    UnreachableError,
    UsageError,
)
from a2acli.pipeline.options import CallOptions
from a2acli.render import present
from a2acli.wire import Wire, envelope
from a2acli.wire.methods import MethodSpec
from a2acli.wire.translate.enums import INTERRUPTED_STATES, is_interrupted

if TYPE_CHECKING:
    from a2acli.wire.bindings.base import Binding, Encoded
    from a2acli.wire.endpoints import Endpoint

CURRENT: dict[str, Any] = {}  # the Call in flight, for Ctrl-C reporting


_UNSET: Any = object()
FLAG_NAMES = {"api-key": "--api-key", "bearer": "--bearer", "basic": "--basic", "oauth": "the profile's OAuth2 token"}


class Reply:
    """One answer: `result` as the wire spelt it, `core` its canonical V1 form (worked out on first
    use when `decode` is given instead), `raw` the bytes (the body, or the event's data), the
    exchange, and for a stream event its `facts` (wire.shapes)."""

    __slots__ = ("result", "_core", "raw", "exchange", "_decode", "facts")

    def __init__(
        self,
        result: Any,
        core: Any = _UNSET,
        raw: bytes = b"",
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


def learn_secrets(redactor: Any, opts: CallOptions) -> None:
    """Tell the redactor every secret of these options: credentials, `-H` values (but those of
    known harmless headers), URL userinfo."""
    import base64

    basic = str(opts.basic or "")
    redactor.add(
        opts.api_key,
        opts.bearer,
        basic.partition(":")[2],
        basic and base64.b64encode(basic.encode("utf-8", "replace")).decode(),
    )
    for name, value in opts.headers:
        redactor.header_value(name, value, given=True)
    redactor.url(opts.url)
    redactor.url(opts.endpoint)
    for location in (opts.catalog, *(loc for _, loc in opts.catalogs)):
        redactor.url(location)
    redactor.add(dict(opts.oauth).get("client-secret"))


class Call:
    """One invocation's connection: transport, card, endpoint, binding, credentials, taps."""

    def __init__(self, opts: CallOptions, out: Any) -> None:
        from a2acli.redact import active
        from a2acli.transport.client import UNARY_BOUND, Transport, TransportConfig
        from a2acli.transport.record import DebugTap, DumpTap, RequestIdTap

        self.opts = opts
        self.out = out
        self.redactor = active()  # the invocation's: stderr, the error envelope and tracebacks use it too
        learn_secrets(self.redactor, opts)
        taps: list[Any] = [RequestIdTap(out.note)]
        if opts.debug:
            taps.append(
                DebugTap(lambda line: out.note(line, always=True), self.redactor)
            )  # asked for: said under -q too
        if opts.dump:
            taps.append(
                DumpTap(
                    opts.dump,
                    self.redactor,
                    version=None if opts.version_auto else opts.wire.version,
                    append=opts.dump_append,
                )
            )
        if opts.insecure:
            out.warn(
                "--insecure: TLS certificates are NOT verified; anyone on the path can read and change this traffic"
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
        self._oauth_token: str | None = None
        self._oauth_cached = False  # the token came from the cache (a 401 may mean it was revoked)
        self.creds_sent: set[str] = set()  # the credentials the last request carried (api-key, bearer, basic, oauth)
        self.withheld: list[str] = []  # the credentials the card declares no scheme for (not sent)
        self._endpoint: Endpoint | None = None
        self._grpc: Any = None  # the gRPC carrier, once a gRPC interface is used
        self._binding: Any = None  # the endpoint's binding, once an answer is read
        self.card: dict[str, Any] | None = None  # canonical V1
        self.task: dict[str, Any] = {}  # id, contextId, state of the task in hand
        self.ask: Any = None  # the status message of its interrupted status: what it asks for (A2A §7.6)
        self.sending: dict[str, Any] | None = None  # the message of a send not answered yet (Ctrl-C names it)
        self.live_view = False  # events are shown as they come (stream, --stream): Ctrl-C resumes into that view
        self.card_doc: Any = None  # the card as fetched (its own version's field names)
        self.card_varies = False  # the card answer varies by A2A-Version (Vary): a 0.3 card may hide 1.0
        self.event_ids = EventIds()  # SSE event ids seen: Last-Event-ID, and replays dropped after a re-subscription
        self.shapes: list[str] = []  # answers not shaped as the version asked for, said once each
        self.sent: tuple[str, Any] | None = None  # the last method encoded and its core params
        self._extension_said = False  # the --force extension note (once a run)
        self.answered: dict[str, list[str]] = {}  # endpoint URL -> the methods it gave an A2A answer to in this run
        self.v0_extensions = False  # --force: a method 0.3 lacks goes in the binding's extension form (tasks list)
        self.located: Any = None  # transport.catalog.Located: the catalog and entry of -u catalog:NAME
        self.catalog_read: Any = None  # transport.catalog.ReadCatalog, once read
        self.inline_card: Any = None  # the FetchedCard of a card the catalog holds inline
        self._resolved = False
        CURRENT["call"] = self

    def close(self) -> None:
        for tap in self.transport.taps:  # a dump finishes the exchanges a Ctrl-C left open, then says where they went
            getattr(tap, "close", lambda: None)()
            if line := getattr(tap, "summary", lambda: None)():
                self.out.note(line)
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

    # -- where and how ------------------------------------------------------------------------------
    def resolve_agent(self) -> None:
        """A catalog reference (`-u catalog:NAME`, A2ACLI_CARD_GET_005), resolved before anything
        reads the agent: the catalog read (a public GET, no -H, no credentials; the taps see it as
        they see the card's), its entry found, and the session's agent becomes where the entry
        says the card is, or, for a card the catalog holds itself, the catalog. Under --offline a
        catalog on the network is not read (a catalog file is, as a card file is)."""
        if self._resolved:
            return
        self._resolved = True
        if not (self.opts.url or "").startswith("catalog:"):  # (net.CATALOG_PREFIX; `catalog:PORT` is told apart below)
            return  # no catalog reference: the catalog modules stay off the start-up path
        from a2acli.transport.catalog import is_file, locate, resolve

        located = locate(self.opts.url, self.opts.catalog, self.opts.catalogs)
        if located is None:
            return
        self.located = located
        if self.opts.offline and not is_file(located.location):
            self.out.note(
                f"--offline: the catalog {located.catalog} is not read, so the agent {located.reference} is not known"
            )
            return
        found = resolve(self.transport, located)
        self.catalog_read, self.inline_card = found.read, found.card
        self.redactor.url(found.agent)
        self.opts = self.opts._replace(url=found.agent)
        self.out.note(f"{located.reference}: {found.note}, from the catalog {located.catalog}")

    def catalog_pending(self) -> bool:
        """A catalog reference not resolved: --offline does not read a catalog on the network."""
        return self.located is not None and self.opts.url == self.located.reference

    def fetch_card(self) -> Any:
        from a2acli.transport.card import fetch_card
        from a2acli.wire.endpoints import card_notes
        from a2acli.wire.translate import to_core_card

        self.resolve_agent()
        if not self.opts.url:
            raise UsageError(
                "no agent given", hint="pass --url URL (or set A2ACLI_URL, or a profile); `a2a demo-server` starts one"
            )
        if self.catalog_pending():
            raise UsageError(
                f"--offline does not read the catalog {self.located.catalog}",
                hint="drop --offline, or pass the agent's URL to -u",
            )
        fetched = self.inline_card or fetch_card(self.transport, self.opts.url)
        if not isinstance(fetched.doc, dict):
            raise CardInvalidError(
                f"{fetched.url} is not an Agent Card (a JSON {type(fetched.doc).__name__})", hint="check --url"
            )
        self.card = to_core_card(fetched.doc)
        self.card_doc = fetched.doc
        vary = {k.lower(): v for k, v in fetched.exchange.response_headers}.get("vary", "") if fetched.exchange else ""
        self.card_varies = "a2a-version" in vary.lower()  # the agent answers each version with its own card
        for level, text in card_notes(self.card, fetched.doc, fetched.url, self.opts.url, fetched.tried):
            (self.out.warn if level == "warn" else self.out.note)(text)
        from a2acli.wire.shapes import card_problems

        if problems := card_problems(self.card):
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            self.out.warn(
                f"the Agent Card at {fetched.url} is not valid: {problems[0]}{more}; `a2a card fetch --validate` lists every finding"
            )
        return fetched

    def endpoint(self) -> Endpoint:
        from a2acli.wire.endpoints import Endpoint

        if self._endpoint is None:
            if self.opts.endpoint:
                if self.opts.version_auto:
                    if not self.opts.url:
                        raise UsageError(
                            "--a2a-version auto reads the Agent Card, and --endpoint skips it",
                            hint="pass --a2a-version 1.0 or 0.3, or -u URL of the agent too",
                        )
                    self.fetch_card()
                    self.choose_version()
                self._endpoint = Endpoint(self.opts.endpoint, "", (self.opts.transports or ("jsonrpc",))[0])
            else:
                fetched = self.fetch_card()
                self.choose_version()
                self._endpoint = self._select(fetched.url)
                self._note_required_extensions()
        return self._endpoint

    def _note_required_extensions(self) -> None:
        """Before the call: an extension the card requires that --extension does not declare
        (A2A §4.6; official CLI spec A2ACLI_VER_002) is named with the flag that declares it."""
        from a2acli.wire.endpoints import missing_required_extensions

        for uri in missing_required_extensions(self.card or {}, self.opts.extensions):
            self.out.warn(
                f"the Agent Card requires the extension {uri}, which this call does not declare: the agent may refuse it; pass --extension {uri} if a2a's request meets it"
            )

    def _select(self, card_url: str) -> Endpoint:
        """The card's interface for the version: the first --transport binding it offers, else
        (none offered) the card's own order, said on stderr; --endpoint stays exact (above)."""
        from a2acli.wire.endpoints import VersionNotOfferedError, fallback_interface, select_interface

        try:
            return select_interface(self.card or {}, self.opts.wire, card_url, self.opts.transports)
        except VersionNotOfferedError:
            fallback = fallback_interface(self.card or {}, self.opts.wire, card_url, self.opts.transports)
            if fallback is None:
                raise
            self.out.note(fallback[1])
            return fallback[0]

    def choose_version(self) -> None:
        """--a2a-version auto, once the card is read: 1.0 when it offers it, else 0.3; said on
        stderr, and recorded in --dump. Every later request carries the version chosen."""
        from a2acli.wire.endpoints import choose_version

        if not self.opts.version_auto or self.card is None:
            return
        wire, line = choose_version(self.card, self.opts.transports)
        self.opts = self.opts._replace(wire=wire, version_auto=False)
        self.transport.cfg = self.transport.cfg._replace(version=wire.version)
        self.out.note(line)
        for tap in self.transport.taps:
            if hasattr(tap, "version_chosen"):
                tap.version_chosen(wire.version, line)

    def _card_is_local(self) -> bool:
        url = self.opts.url or ""
        return not self.catalog_pending() and (
            url.startswith("file://") or (url.endswith(".json") and "://" not in url)
        )

    def card_in_hand(self) -> bool:
        """The card can be read without the network: a card file, or a card a catalog held."""
        self.resolve_agent()
        return self.inline_card is not None or self._card_is_local()

    def known_endpoint(self) -> Endpoint | None:
        """The endpoint, when it can be known without the network (--endpoint, a local card, a
        card a catalog held)."""
        if self.opts.endpoint or self._endpoint is not None or self.card_in_hand():
            return self.endpoint()
        return None

    @property
    def binding(self) -> Binding:
        from a2acli.wire.bindings import get_binding, parse_transport

        ep = self.known_endpoint()
        flag = ep.binding if ep is not None else (self.opts.transports or ("jsonrpc",))[0]
        return get_binding(parse_transport(flag))

    def credentials(self) -> Any:
        """The credentials this call carries: each only where the card declares a scheme that
        takes it (A2ACLI_AUTH_008; wire.security), the others withheld with a warning. With no card
        (--endpoint) they go as given: the user named the endpoint. `-H` is never filtered."""
        from a2acli.transport.client import Credentials
        from a2acli.wire.endpoints import api_key_placement

        creds = Credentials()
        sent: set[str] = set()
        if self.opts.api_key and self.accepts("api-key"):
            where, name = api_key_placement(self.card)
            {"header": creds.headers, "query": creds.params, "cookie": creds.cookies}[where][name] = self.opts.api_key
            self.redactor.add(**({"query": name} if where == "query" else {"header": name}))
            sent.add("api-key")
        if self.opts.bearer and self.accepts("bearer"):
            creds.headers["Authorization"] = f"Bearer {self.opts.bearer}"
            sent.add("bearer")
        elif self.opts.basic and self.accepts("basic"):
            import base64

            encoded = base64.b64encode(str(self.opts.basic).encode()).decode()
            creds.headers["Authorization"] = f"Basic {encoded}"
            self.redactor.add(encoded)
            sent.add("basic")
        elif self.opts.oauth and not self.opts.bearer and self.accepts("oauth"):
            token = self.oauth_token()
            if token:
                creds.headers["Authorization"] = f"Bearer {token}"
                sent.add("oauth")
        self.creds_sent = sent
        return creds

    @contextmanager
    def turn_credentials(self, given: dict[str, Any]) -> Iterator[None]:
        """Credentials for the calls made inside only (a chat turn that answers an AUTH_REQUIRED
        task): `given` fills options (api_key, bearer, basic), which go where the card's schemes
        take them, as a flag's would; then the options are as they were. Never stored; redacted
        in everything written from the moment they are known."""
        saved = self.opts
        self.opts = saved._replace(**given)
        learn_secrets(self.redactor, self.opts)
        try:
            yield
        finally:
            self.opts = saved

    def accepts(self, credential: str) -> bool:
        """Whether `credential` (api-key, bearer, basic, oauth) may go to this agent: always with
        no card; else only when the card declares a scheme that takes it (said once when not)."""
        from a2acli.wire.security import withheld

        if self.card is None or self.opts.endpoint:
            return True
        why = withheld(self.card, credential)
        if why is None:
            return True
        if credential not in self.withheld:
            self.withheld.append(credential)
            header = {"api-key": "X-API-Key: KEY", "basic": "Authorization: Basic …"}.get(
                credential, "Authorization: Bearer …"
            )
            self.out.warn(f"{FLAG_NAMES[credential]} not sent: {why}; -H '{header}' sends it anyway")
        return False

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
                    self.opts.profile,
                    cc,
                    verify=tls_verify(self.transport.cfg),
                    timeout=self.opts.timeout,
                    note=self.out.note if self.opts.debug else None,
                )
            self.redactor.add(self._oauth_token)
        return self._oauth_token

    def renew_oauth_token(self, ex: Any) -> bool:
        """After a 401 to a call that carried the profile's cached OAuth2 token: drop that token
        (revoked, or the agent's keys rotated) and get a new one for one more try: with the client
        secret, or with the refresh token a device-code login got."""
        if ex.status != 401 or not self._oauth_cached or "oauth" not in self.creds_sent:
            return False
        from a2acli import auth

        cc = auth.ClientCredentials.from_profile(dict(self.opts.oauth))
        if cc is None:
            return False
        cache = auth.load_cache()
        key = auth.cache_key(self.opts.profile, cc.token_url)
        entry = cache.get(key)
        if isinstance(entry, dict) and entry.get("refresh_token"):
            entry["expires_at"] = 0  # the access token is spent; its refresh token asks for the next
            auth.save_cache(cache)
        elif cc.client_secret and cc.flow == auth.CLIENT_CREDENTIALS:
            auth.forget(self.opts.profile, cc.token_url)
        else:
            return False  # nothing to request a new one with: the 401 stands
        self._oauth_token, self._oauth_cached = None, False
        self.out.note("HTTP 401 with the cached OAuth2 token: requesting a new one")
        return True

    # -- encoding and preparing -----------------------------------------------------------------------
    def encode(
        self, spec: MethodSpec, params: Any, request_id: str | None = None, *, stream: bool | None = None
    ) -> Encoded:
        """A method of the table, encoded by the endpoint's binding for the chosen version."""
        from a2acli.wire.methods import NoV0FormError

        ep = self.known_endpoint()
        self.redactor.learn(params)  # push-config token / credentials: redacted in dumps and --debug
        self.sent = (spec.name, params)
        try:
            enc = self.binding.encode(
                spec,
                params,
                wire=self.opts.wire,
                dialect=self._dialect_for(spec),
                tenant=ep.tenant if ep else "",
                request_id=request_id,
                stream=spec.streaming if stream is None else stream,
            )
        except NoV0FormError as e:  # what to do depends on what the card offers
            if self.card is not None:
                from a2acli.wire.endpoints import offered_versions

                offers_v1: bool | None = Wire.V1 in offered_versions(self.card, self.opts.transports)
                if (
                    not offers_v1 and self.card_varies
                ):  # asked for with A2A-Version 0.3, this card came back in its 0.3 form
                    offers_v1 = None
                e.hint = e.spec.no_v0_hint(offers_v1, self.binding.flag)
            raise
        return self._noted(enc, request_id)

    def _dialect_for(self, spec: MethodSpec) -> Any:
        """The dialect a method is encoded in: the chosen one, or (--force on a method 0.3 has
        only as an extension, `v0_extensions`) one that takes the binding's extension form, said
        once a run."""
        dialect = self.opts.dialect
        if not (self.v0_extensions and spec.v0_vendor_only and self.opts.wire is Wire.V0) or dialect.v0_list_tasks:
            return dialect
        form = spec.v0_extension(self.binding.flag)
        if form and not self._extension_said:
            self._extension_said = True  # every page is encoded
            self.out.note(f"0.3 has no {spec.name}: sending the extension {form} anyway (--force)")
        return dialect._replace(v0_list_tasks=True)

    def encode_call(self, method: str, params: Any, request_id: str | None = None, *, stream: bool = False) -> Encoded:
        """`a2a call`: a method by any name (see the bindings' encode_call)."""
        ep = self.known_endpoint()
        self.redactor.learn(params)
        enc = self.binding.encode_call(
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
            self.out.warn(f"not carried to V0: {n}")
        if request_id is not None and enc.request_id is None:
            self.out.warn(f"--request-id is the JSON-RPC id: {self.binding.name} has none, so it is not sent")
        return enc

    def carrier(self, binding: Binding | None = None) -> Any:
        """What moves a binding's requests: the httpx transport (JSON-RPC, HTTP+JSON), or the gRPC
        one (loaded only when a gRPC interface is used). Both share the deadline and the taps."""
        binding = binding or self.binding
        if getattr(binding, "carrier", "http") == "http":
            return self.transport
        if self._grpc is None:
            from a2acli.transport.grpc import GrpcTransport

            self._grpc = GrpcTransport(self.transport, plaintext=self.opts.plaintext)
        return self._grpc

    def prepare(self, enc: Encoded, *, headers: dict[str, str] | None = None, url: str | None = None) -> Any:
        """The one request of a call (the carrier's prepare), on the endpoint's URL: what
        --offline, --debug, --dump and the send all use."""
        base = url if url is not None else self.endpoint().url
        creds = self.credentials()
        if creds.headers or creds.params or creds.cookies or self.given_credentials():
            self._check_origin(base)  # `-H` credentials too: the hint `-H 'X-API-Key: …'` is no way around it
        if self.opts.insecure and not base.startswith("http://") and not getattr(self, "_insecure_said", False):
            given = [n for n, _ in self.opts.headers if self.redactor.is_secret_header(n)]
            carried = sorted({*creds.headers, *creds.params, *creds.cookies, *given}, key=str.lower)
            if carried:  # A2ACLI_AUTH_003: a credential on a connection whose certificate is not checked
                self._insecure_said = True
                self.out.warn(
                    f"--insecure: credentials ({', '.join(carried)}) are sent over a connection whose TLS certificate is NOT verified: anyone on the path can read them"
                )
        return self.carrier().prepare(base, enc.request, creds=creds, headers=headers)

    def given_credentials(self) -> list[str]:
        """The names of the `-H` headers that carry a credential (pipeline.origin.credential_header):
        they follow the origin rule of the card-declared credentials."""
        from a2acli.pipeline.origin import credential_headers

        return credential_headers(self.opts.headers, self.card) if self.opts.headers else []

    def _check_origin(self, target: str) -> None:
        """Credentials go to the origin the user gave them for. An endpoint the card names on
        another host is said once on stderr (deployments do split them); refused when the card
        is https and the endpoint plain http (unless --insecure), or under --strict-origin."""
        from a2acli.pipeline.origin import check_origin

        if self.opts.endpoint or not self.opts.url or self._card_is_local() or getattr(self, "_origin_said", False):
            return  # --endpoint is the user's own choice; a card file is theirs too
        self._origin_said = True
        note = check_origin(self.opts.url, target, strict=self.opts.strict_origin, insecure=self.opts.insecure)
        if note:
            self.out.warn(note)

    # -- offline --------------------------------------------------------------------------------------
    def print_offline(self, enc: Encoded, *, headers: dict[str, str] | None = None) -> None:
        """Print the request exactly as it would be sent: the prepared httpx.Request. When the
        endpoint is on a card not fetched, its URL is a placeholder that says so."""
        ep = self.known_endpoint()
        placeholder = None
        if ep is None:
            placeholder = f"<{self.binding.name} URL from the Agent Card of {self.opts.url or '--url'}>"
            req = self.prepare(enc, headers=headers, url="http://agent-card.invalid")
        else:
            req = self.prepare(enc, headers=headers)
        line, raw_headers, body = self.carrier().describe(req)
        if placeholder:
            import re

            # the stand-in URL as each carrier shows it (http://agent-card.invalid, grpc://agent-card.invalid:80)
            line = re.sub(r"[a-z]+://agent-card\.invalid(:\d+)?", lambda _: placeholder, line)
            raw_headers = [(k, placeholder if k.lower() in ("host", ":authority") else v) for k, v in raw_headers]
        if ep is None and not self.opts.transports:
            self.out.note(
                f"the binding comes from the Agent Card, which --offline does not read: showing {self.binding.name}; --transport picks one"
            )
        if ep is None and (self.opts.api_key or self.opts.bearer or self.opts.basic or self.opts.oauth):
            self.out.note(
                "credentials are shown as given: the Agent Card, which --offline does not read, decides which are sent (only those its schemes take)"
            )
        if ep is None and self.opts.version_auto:
            self.out.note(
                f"--a2a-version auto: the version comes from the Agent Card, which --offline does not read: showing {self.opts.wire.version}"
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
        present.request(self.out, head, body, document if self.out.mode == "json" else enc.document)

    # -- invoke -----------------------------------------------------------------------------------------
    def invoke(self, enc: Encoded, *, headers: dict[str, str] | None = None, retries: int = 0) -> Iterator[Reply]:
        """Send an encoded call and yield its replies: one for a unary call, each event of a
        stream as it arrives, up to the last one (the agent closing the stream, or a final event)."""
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
        self.endpoint()  # before encoding: the interface's binding and tenant shape the request
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
        ep = self.known_endpoint()
        other = self.binding.encode_other(
            spec, params, wire=self.opts.wire, dialect=self._dialect_for(spec), tenant=ep.tenant if ep else ""
        )
        if other is None:
            return None
        self.out.note(
            f"{spec.name}: the agent refused the body the 0.3 proto's route defines ({err.message}); sending it once more with the whole request as the body, as a2a-sdk and a2a-js 0.3 read it"
        )
        return self._noted(other)

    def stream(
        self, spec: MethodSpec, params: Any, *, request_id: str | None = None, headers: dict[str, str] | None = None
    ) -> Iterator[Reply]:
        self.endpoint()
        yield from self.invoke(self.encode(spec, params, request_id, stream=True), headers=headers)

    def _unary(self, enc: Encoded, *, headers: dict[str, str] | None = None, retries: int = 0) -> Reply:
        """Send (retrying as asked) and read the result."""
        attempt = 0
        while True:
            try:
                ex = self.carrier().exchange(self.prepare(enc, headers=headers), label=enc.method)
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
                self.out.note(
                    f"retry {attempt}/{retries} in {delay:g}s"
                    + (f" (same {same[0]})" if same else "")
                    + f": {e.message}"
                )
                time.sleep(delay)
        try:
            result = self.binding_of(enc).read_unary(enc, ex, warn=self.out.warn)
        except A2acliError as e:  # an A2A error, an HTTP error, an answer that is no JSON
            if ex.response_body:
                present.passthrough(self.out, ex.response_body)  # raw: the error body as it came
            self._answered(enc, e)
            self._predates(enc, e)
            raise
        self._answered(enc)
        return Reply(result, self._decode(enc, result), ex.response_body, ex)

    def _predates(self, enc: Encoded, err: A2acliError) -> None:
        """A method 0.3 brought, refused as unknown (-32601) or as a bad envelope (-32600: a2a-sdk
        0.2 validates the method name against the methods it has) by an agent whose card is from
        before 0.3: the card predates the method, and the hint says so."""
        from a2acli.wire import is_pre_v03

        pv = self.card_doc.get("protocolVersion") if isinstance(self.card_doc, dict) else None
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
        url = self.endpoint().url
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
        elif self.card is not None and not self.opts.endpoint:
            why = f"{url} is the endpoint the Agent Card names"
        else:
            return
        what = (
            f"{enc.method} ({enc.request.verb} {enc.request.path})"
            if self.binding_of(enc).flag == "rest"
            else enc.method
        )
        err.hint = f"{why}: the agent probably does not implement {what}; -o raw or --debug shows the body"

    def binding_of(self, enc: Encoded) -> Binding:
        """The binding that encoded `enc` (the endpoint's, looked up once per call)."""
        if self._binding is None:
            self._binding = self.binding
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

        if self.binding_of(enc).flag != "jsonrpc" or enc.spec is None:
            return  # HTTP+JSON and gRPC carry ProtoJSON under both versions: no kind to tell them by
        for text in answer_shape(result, enc.wire.version, lowercase_ok=self.opts.dialect.lowercase_v1_enums):
            if text.split(" (")[0] not in self.shapes:  # one warning per kind of deviation
                self.shapes.append(text.split(" (")[0])
                self.out.warn(f"{text}; rendered as read")
                last = self.transport.last
                for tap in self.transport.taps:
                    getattr(tap, "shape", lambda *a: None)(getattr(last, "seq", None), enc.method, text)

    def _stream(self, enc: Encoded, *, headers: dict[str, str] | None = None) -> Iterator[Reply]:
        """Each event as it arrives, decoded to canonical V1 and checked against what the method
        promises in every output mode: an event that is not a StreamResponse ends the stream with
        InvalidResponseError (exit 1) under -o json and raw as in text, as `send` does with an
        answer. Its few facts (wire.shapes.peek_event) serve tracking and the end of the stream."""
        from a2acli.wire.fastpath import fast_events
        from a2acli.wire.shapes import check_result, ends_stream, peek_event

        binding = self.binding_of(enc)
        to_core, promised = binding.to_core, enc.spec.result if enc.spec is not None else None

        def decode(result: Any) -> Any:  # self._decode(enc, result, shape=False), its look-ups done once
            core = to_core(enc, result)
            if promised is not None:
                check_result(promised, core, enc.method)
            return core

        canonical = fast_events(decode) if promised == "event" else None  # a canonical V1 event: checked in one pass

        shaped: set[str] = set()  # kinds of event whose shape was checked (once each: warnings are once per run)

        warned: set[str] = set()

        def warn_once(text: str) -> None:  # one line per stream, not one per event
            if text not in warned:
                warned.add(text)
                self.out.warn(text)

        while True:
            with self.carrier().stream(self.prepare(enc, headers=headers), label=enc.method, idle=self.out.flush) as (
                ex,
                stream,
            ):
                if not 200 <= (ex.status or 0) < 300:
                    if self.renew_oauth_token(ex):
                        continue
                    failed = binding.error(ex)
                    self._answered(enc, failed)
                    raise failed
                events = 0
                ids = self.event_ids
                for ev in stream:
                    if ev.id and not ids.fresh(ev.id):
                        events += 1
                        continue  # shown already: a server replaying after a re-subscription
                    try:
                        result = binding.read_event(enc, ex, ev.event, ev.data, warn=warn_once)
                    except RpcError:
                        present.passthrough(self.out, ev.data)  # raw: the error event's data as it came
                        raise
                    facts = canonical(result) if canonical is not None else None
                    fast = facts is not None
                    if not fast:
                        facts = peek_event(result)
                    if facts is None or facts.kind not in shaped:
                        shaped.add(facts.kind if facts is not None else "")
                        self._check_shape(enc, result)
                    # decoded and checked in every output mode (-o json and raw print the wire form, but an
                    # event that is not what the method promises ends the stream, exit 1, in each mode alike)
                    reply = Reply(result, result if fast else decode(result), ev.data.encode(), ex, facts=facts)
                    ends = facts.ends if facts is not None else ends_stream(result, reply.core)
                    events += 1
                    if events == 1:
                        self._answered(enc)
                    yield reply
                    self.transport.check_deadline()
                    if ends:
                        return
                if not events:
                    raise InvalidResponseError(
                        f"the stream of {enc.method} closed without a single event",
                        hint="the agent accepted the call but sent nothing; see the exchange with --debug",
                    )
                return

    # -- task tracking --------------------------------------------------------------------------------
    def track_reply(self, reply: Reply) -> None:
        """Remember the task in hand from a reply: from its facts when it has them."""
        f = reply.facts
        if f is None:
            self.track(reply.core)
        elif f.kind == "artifact-update":
            self.task.setdefault("id", f.task_id)
        elif f.state in INTERRUPTED_STATES:  # (facts carry the state canonical: no spelling to undo)
            self.track(reply.core)  # its status message is what the task asks for: decoded
        elif f.kind != "message":
            task = self.task
            if f.task_id:
                task["id"] = f.task_id
            if f.context_id:
                task["contextId"] = f.context_id
            if f.state:
                task["state"] = f.state  # already canonical
                self.ask = None

    def track(self, core: Any) -> None:
        """Remember the task in hand from a core Task, send result or stream event."""
        if not isinstance(core, dict):
            return
        if "task" in core:
            core = core["task"]
        if "statusUpdate" in core:
            ev = core["statusUpdate"]
            self.task.update(
                {
                    k: v
                    for k, v in (
                        ("id", ev.get("taskId")),
                        ("contextId", ev.get("contextId")),
                        ("state", (ev.get("status") or {}).get("state")),
                    )
                    if v
                }
            )
            self._asks(ev.get("status"))
            return
        if "artifactUpdate" in core:
            ev = core["artifactUpdate"]
            self.task.setdefault("id", ev.get("taskId"))
            return
        if "id" in core and "status" in core:
            self.task.update(
                {
                    "id": core.get("id"),
                    "contextId": core.get("contextId"),
                    "state": (core.get("status") or {}).get("state"),
                }
            )
            self._asks(core.get("status"))

    def _asks(self, status: Any) -> None:
        """Keep an interrupted status's message (what the task asks for); a new state drops it."""
        if isinstance(status, dict) and status.get("state"):
            self.ask = status.get("message") if is_interrupted(status["state"]) else None


class EventIds:
    """The SSE event ids of a call's streams (only servers that send `id:` lines have any): the
    last one, sent as Last-Event-ID when re-subscribing, and how many events came with each id,
    so that after a re-subscription the events a server replays are not shown again.

    An event without an `id:` line keeps the id before it (the SSE rule), hence counts per id:
    a replay is an event whose id already came as often as it comes again. Bounded: the ids of
    the last MAX ids are kept."""

    MAX = 4096
    __slots__ = ("last", "seen", "replay", "skipped")

    def __init__(self) -> None:
        self.last = ""
        self.seen: dict[str, int] = {}
        self.replay: dict[str, int] | None = None  # per id, events dropped as replays on this connection
        self.skipped = 0

    def resume(self) -> None:
        """A re-subscription starts: what comes now may replay what was shown."""
        self.replay = {}

    def fresh(self, eid: str) -> bool:
        """Whether an event with this id is new (and remember it), or a replay to drop."""
        seen = self.seen
        if self.replay is not None:
            n = self.replay.get(eid, 0)
            if n < seen.get(eid, 0):
                self.replay[eid] = n + 1
                self.skipped += 1
                return False
        seen[eid] = seen.get(eid, 0) + 1
        if len(seen) > self.MAX:
            del seen[next(iter(seen))]
        self.last = eid
        return True


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
