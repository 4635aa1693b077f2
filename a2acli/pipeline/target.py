"""Which agent a session talks to: the agent (a catalog reference resolved), its Agent Card, the
endpoint and binding, and the protocol version (`--a2a-version auto` chosen from the card).
Resolved once, at the start of a flow (`resolve()`); under `--offline` only what is known without
the network (`--endpoint`, a card file, a card a catalog file holds)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from a2acli.errors import CardInvalidError, UsageError
from a2acli.events import Note, Sink, Warn

if TYPE_CHECKING:
    from a2acli.wire import Wire
    from a2acli.wire.bindings.base import Binding
    from a2acli.wire.endpoints import Endpoint


class TargetHost(Protocol):
    """What Target reads of its session (pipeline.session.Call), and the one thing it asks of it:
    `adopt`, through which the session takes what Target resolved (the agent a catalog entry
    names, the version chosen from the card) into its options, in one place. Target writes
    nothing into its session itself."""

    opts: Any  # pipeline.options.CallOptions
    transport: Any  # transport.client.Transport
    redactor: Any  # redact.Redactor
    sink: Sink

    def adopt(self, **changes: Any) -> None: ...


class Target:
    """The agent, card, endpoint and version of one session. `host` is the session (its `opts`,
    `sink`, `transport` and `redactor`, read); what Target resolves is returned (`resolve_agent`,
    `choose_version`) and handed to the session's `adopt`, so that every later request carries it."""

    def __init__(self, host: TargetHost) -> None:
        self.host = host
        self.card: dict[str, Any] | None = None  # canonical V1
        self.card_doc: Any = None  # the card as fetched (its own version's field names)
        self.card_varies = False  # the card answer varies by A2A-Version (Vary): a 0.3 card may hide 1.0
        self.located: Any = None  # transport.catalog.Located: the catalog and entry of -u catalog:NAME
        self.catalog_read: Any = None  # transport.catalog.ReadCatalog, once read
        self.inline_card: Any = None  # the FetchedCard of a card the catalog holds inline
        self._endpoint: Endpoint | None = None
        self._agent_known = False  # the catalog reference, if any, resolved (`_agent`)

    @property
    def opts(self) -> Any:
        return self.host.opts

    @property
    def sink(self) -> Sink:
        return self.host.sink

    # -- the agent --------------------------------------------------------------------------------------
    def resolve_agent(self) -> str | None:
        """A catalog reference (`-u catalog:NAME`, A2ACLI_CARD_GET_005), resolved before anything
        reads the agent: the catalog read (a public GET, no -H, no credentials; the taps see it as
        they see the card's), its entry found, and the agent it names returned: where the entry
        says the card is, or, for a card the catalog holds itself, the catalog. None when there is
        no catalog reference, or it is not read: under --offline a catalog on the network is not
        read (a catalog file is, as a card file is)."""
        if not (self.opts.url or "").startswith("catalog:"):  # (net.CATALOG_PREFIX; `catalog:PORT` is told apart below)
            return None  # no catalog reference: the catalog modules stay off the start-up path
        from a2acli.transport.catalog import is_file, locate, resolve

        located = locate(self.opts.url, self.opts.catalog, self.opts.catalogs)
        if located is None:
            return None
        self.located = located
        if self.opts.offline and not is_file(located.location):
            self.sink.emit(
                Note(
                    f"--offline: the catalog {located.catalog} is not read, so the agent {located.reference} is not known"
                )
            )
            return None
        found = resolve(self.host.transport, located)
        self.catalog_read, self.inline_card = found.read, found.card
        self.sink.emit(Note(f"{located.reference}: {found.note}, from the catalog {located.catalog}"))
        return str(found.agent)

    def _agent(self) -> None:
        """The agent resolved, once, before anything reads it: the session adopts the URL a
        catalog entry names."""
        if self._agent_known:
            return
        self._agent_known = True
        agent = self.resolve_agent()
        if agent is not None:
            self.host.adopt(url=agent)

    def catalog_pending(self) -> bool:
        """A catalog reference not resolved: --offline does not read a catalog on the network."""
        return self.located is not None and self.opts.url == self.located.reference

    # -- the card -----------------------------------------------------------------------------------------
    def card_cache(self, revalidate: bool) -> Any:
        """The Agent Card cache of this session (transport.card_cache), or None under --no-cache
        (or with no cache directory to name: no home directory); `revalidate`: every entry is
        revalidated, none used without asking (`card fetch`)."""
        if self.opts.no_cache:
            return None
        from a2acli.settings import cache_dir
        from a2acli.transport.card_cache import REVALIDATE, USE, CardCache

        where = cache_dir()
        return None if where is None else CardCache(where, REVALIDATE if revalidate else USE)

    def fetch_card(self, *, revalidate: bool = False) -> Any:
        """The Agent Card, through the card cache (a fresh entry used as it is, unless
        `revalidate`: `card fetch` always asks the network); kept there once it reads as a usable
        card."""
        from a2acli.transport.card import fetch_card
        from a2acli.wire.endpoints import card_notes
        from a2acli.wire.translate import to_core_card

        self._agent()
        if not self.opts.url:
            raise UsageError(
                "no agent given", hint="pass --url URL (or set A2ACLI_URL, or a profile); `a2a demo-server` starts one"
            )
        if self.catalog_pending():
            raise UsageError(
                f"--offline does not read the catalog {self.located.catalog}",
                hint="drop --offline, or pass the agent's URL to -u",
            )
        cache = None if self.inline_card else self.card_cache(revalidate)
        fetched = self.inline_card or fetch_card(self.host.transport, self.opts.url, cache)
        if not isinstance(fetched.doc, dict):
            if cache is not None:
                cache.settle(fetched.url, usable=False)
                self._cache_notes(cache)
            local = fetched.url.startswith("file:") or self.inline_card is not None
            raise CardInvalidError(
                f"{fetched.url} is not an Agent Card (a JSON {type(fetched.doc).__name__})",
                hint="an Agent Card is one JSON object: check the file" if local else "check --url",
            )
        from a2acli.wire.endpoints import card_problems, usable_card

        core = to_core_card(fetched.doc)
        problems = card_problems(core)
        if cache is not None:
            cache.settle(fetched.url, usable=not problems)  # a card that fails validation is not kept
            self._cache_notes(cache)
        self.card = usable_card(core)  # what a call reads, of the kinds it reads (the rest: said below)
        self.card_doc = fetched.doc
        vary = {k.lower(): v for k, v in fetched.exchange.response_headers}.get("vary", "") if fetched.exchange else ""
        self.card_varies = "a2a-version" in vary.lower()  # the agent answers each version with its own card
        for level, text in card_notes(self.card, fetched.doc, fetched.url, self.opts.url, fetched.tried):
            self.sink.emit(Warn(text) if level == "warn" else Note(text))
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            self.sink.emit(
                Warn(
                    f"the Agent Card at {fetched.url} is not valid: {problems[0]}{more}; `a2a card fetch --validate` lists every finding"
                )
            )
        return fetched

    def _cache_notes(self, cache: Any) -> None:
        """--debug: what the card cache did beside the exchanges (an entry file it ignored, a card
        it could not keep), in the debug output's own form."""
        if self.opts.debug:
            for text in cache.notes:
                self.sink.emit(Note(f"* card cache: {text}", always=True))

    def card_is_local(self) -> bool:
        url = self.opts.url or ""
        return not self.catalog_pending() and (
            url.startswith("file://") or (url.endswith(".json") and "://" not in url)
        )

    def card_in_hand(self) -> bool:
        """The card can be read without the network: a card file, or a card a catalog held."""
        self._agent()
        return self.inline_card is not None or self.card_is_local()

    # -- the endpoint and the version -----------------------------------------------------------------
    def resolve(self) -> Endpoint | None:
        """The start of a flow: the agent, its card, the version and the endpoint, resolved once
        (later calls return the same endpoint). Under --offline only what is known without the
        network; None when that is not the endpoint (the request shows a placeholder for it)."""
        return self.known_endpoint() if self.opts.offline else self.endpoint()

    def endpoint(self) -> Endpoint:
        """The endpoint, resolved on first use: --endpoint as given (the card read only for
        --a2a-version auto), else the card's interface for the version."""
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
                    self.settle_version()
                self._endpoint = Endpoint(self.opts.endpoint, "", self.opts.preferred_binding)
            else:
                fetched = self.fetch_card()
                self.settle_version()
                self._endpoint = self._select(fetched.url)
                self._note_required_extensions()
        return self._endpoint

    def known_endpoint(self) -> Endpoint | None:
        """The endpoint, when it can be known without the network (--endpoint, a local card, a
        card a catalog held)."""
        if self.opts.endpoint or self._endpoint is not None or self.card_in_hand():
            return self.endpoint()
        return None

    @property
    def binding(self) -> Binding:
        """The binding of the endpoint when known, else of the first --transport (JSON-RPC)."""
        from a2acli.wire.bindings import get_binding, parse_transport

        ep = self.known_endpoint()
        flag = ep.binding if ep is not None else self.opts.preferred_binding
        return get_binding(parse_transport(flag))

    def _note_required_extensions(self) -> None:
        """Before the call: an extension the card requires that --extension does not declare
        (A2A §4.6; official CLI spec A2ACLI_VER_002) is named with the flag that declares it."""
        from a2acli.wire.endpoints import missing_required_extensions

        for uri in missing_required_extensions(self.card or {}, self.opts.extensions):
            self.sink.emit(
                Warn(
                    f"the Agent Card requires the extension {uri}, which this call does not declare: the agent may refuse it; pass --extension {uri} if a2a's request meets it"
                )
            )

    def _select(self, card_url: str) -> Endpoint:
        """The card's interface for the version: the first --transport binding it offers, else
        (none offered) the card's own order, said on stderr; --endpoint stays exact (above)."""
        from a2acli.wire.endpoints import VersionNotOfferedError, fallback_interface, select_interface

        try:
            chosen = select_interface(self.card or {}, self.opts.wire, card_url, self.opts.transports)
            return self._without_missing_extra(chosen, card_url)
        except VersionNotOfferedError:
            fallback = fallback_interface(self.card or {}, self.opts.wire, card_url, self.opts.transports)
            if fallback is None:
                raise
            self.sink.emit(Note(fallback[1]))
            return fallback[0]

    def _without_missing_extra(self, chosen: Endpoint, card_url: str) -> Endpoint:
        """A gRPC interface the card lists first, in an install without the grpc extra: the next
        interface in card order instead, with a note (--transport grpc stays exact, and a card
        that offers nothing else keeps it: the call then names the extra to add)."""
        from a2acli.wire.bindings import binding_info

        info = binding_info(chosen.binding)
        if info is None or not info.carrier_grpc or self.opts.transports:
            return chosen  # (transport.grpc, its SSE and httpx-sse not imported: a JSON-RPC call needs none)
        from a2acli.transport import grpc
        from a2acli.wire.endpoints import VersionNotOfferedError, select_interface

        if grpc.installed():
            return chosen
        try:
            other = select_interface(self.card or {}, self.opts.wire, card_url, skip=(info.flag,))
        except VersionNotOfferedError:
            return chosen
        self.sink.emit(
            Note(
                f"skipping the Agent Card's gRPC interface {chosen.url}: the grpc extra is not installed"
                f" ({grpc.extra_hint()}); using {getattr(binding_info(other.binding), 'card', other.binding)} at {other.url}"
            )
        )
        return other

    def choose_version(self) -> tuple[Wire, str] | None:
        """--a2a-version auto, once the card is read: 1.0 when it offers it, else 0.3, and the line
        that says why; None when the version is not to be chosen (given, or no card read)."""
        from a2acli.wire.endpoints import choose_version

        if not self.opts.version_auto or self.card is None:
            return None
        return choose_version(self.card, self.opts.transports)

    def settle_version(self) -> None:
        """The version chosen (`choose_version`), adopted by the session (every later request
        carries it), said on stderr and recorded in --dump."""
        chosen = self.choose_version()
        if chosen is None:
            return
        wire, line = chosen
        self.host.adopt(wire=wire, version_auto=False)
        self.sink.emit(Note(line))
        for tap in self.host.transport.taps:
            if hasattr(tap, "version_chosen"):
                tap.version_chosen(wire.version, line)
