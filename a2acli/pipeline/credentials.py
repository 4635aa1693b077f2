"""Which credentials a session's requests carry, and to which origins: each only where the Agent
Card declares a scheme that takes it (A2ACLI_AUTH_008), the profile's OAuth2 token (cached,
requested, renewed after a 401), the origin rule, and the warning for credentials over a
connection whose certificate is not checked. They are worked out from the session's options as
they stand (a chat turn's one-off credential is the session's: `Call.turn_credentials`)."""

from __future__ import annotations

from typing import Any, Protocol

from a2acli.events import Note, Sink, Warn

FLAG_NAMES = {"api-key": "--api-key", "bearer": "--bearer", "basic": "--basic", "oauth": "the profile's OAuth2 token"}


def learn_secrets(redactor: Any, opts: Any) -> None:
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


def _check_card_header(name: str, where: str) -> None:
    """The header (or cookie) name the card's apiKey scheme gives, checked as h11 checks a name
    before anything is sent: a name that cannot be one is the card's fault (exit 1), and the
    call is not made."""
    from a2acli.wire.headers import name_problem, sent_name_problem, shown

    problem = sent_name_problem(name) if where == "header" else name_problem(name)
    if problem:
        from a2acli.errors import CardInvalidError

        raise CardInvalidError(
            f"the Agent Card's apiKey scheme puts the key in the {where} {shown(name)}, which is no {where} name: {problem}; nothing was sent",
            hint="the card is at fault; to call the agent anyway, pass --endpoint URL with -H 'NAME: KEY' under a valid name",
        )


class CredentialsHost(Protocol):
    """What SessionCredentials reads of its session (pipeline.session.Call); it writes nothing there."""

    opts: Any  # pipeline.options.CallOptions
    transport: Any  # transport.client.Transport
    redactor: Any  # redact.Redactor
    sink: Sink
    target: Any  # pipeline.target.Target: the card


class SessionCredentials:
    """The credentials of one session. `host` is the session (its `opts`, `sink`, `transport`,
    `redactor`, and `target` for the card)."""

    def __init__(self, host: CredentialsHost) -> None:
        self.host = host
        self.sent: set[str] = set()  # the credentials the last request carried (api-key, bearer, basic, oauth)
        self.withheld: list[str] = []  # the credentials the card declares no scheme for (not sent)
        self._oauth_token: str | None = None
        self._oauth_cached = False  # the token came from the cache (a 401 may mean it was revoked)
        self._origin_said = False
        self._insecure_said = False
        self._scope: bool | None = None  # whether the profile's OAuth2 token may go to this agent (oauth_in_scope)
        self._kept: dict[str, bool] = {}  # whether a credential a config section keeps may go here (kept_for_here)

    @property
    def opts(self) -> Any:
        return self.host.opts

    def for_request(self, base: str) -> Any:
        """The credentials of a request to `base` (transport.client.Credentials), after the origin
        rule and the --insecure warning."""
        creds = self.credentials()
        if creds.headers or creds.params or creds.cookies or self.given_credentials():
            self.check_origin(base)  # `-H` credentials too: the hint `-H 'X-API-Key: …'` is no way around it
        if self.opts.insecure and not base.startswith("http://") and not self._insecure_said:
            given = [n for n, _ in self.opts.headers if self.host.redactor.is_secret_header(n)]
            carried = sorted({*creds.headers, *creds.params, *creds.cookies, *given}, key=str.lower)
            if carried:  # A2ACLI_AUTH_003: a credential on a connection whose certificate is not checked
                self._insecure_said = True
                self.host.sink.emit(
                    Warn(
                        f"--insecure: credentials ({', '.join(carried)}) are sent over a connection whose TLS certificate is NOT verified: anyone on the path can read them"
                    )
                )
        return creds

    def credentials(self) -> Any:
        """The credentials this call carries: each only where the card declares a scheme that
        takes it (A2ACLI_AUTH_008; wire.security), the others withheld with a warning. With no card
        (--endpoint) they go as given: the user named the endpoint. `-H` is never filtered."""
        from a2acli.transport.client import Credentials
        from a2acli.wire.endpoints import api_key_placement

        opts = self.opts
        creds = Credentials()
        sent: set[str] = set()
        if opts.api_key and self.accepts("api-key") and self.kept_for_here("api-key"):
            where, name = api_key_placement(self.host.target.card)
            if where != "query":
                _check_card_header(name, where)
            {"header": creds.headers, "query": creds.params, "cookie": creds.cookies}[where][name] = opts.api_key
            self.host.redactor.add(**({"query": name} if where == "query" else {"header": name}))
            sent.add("api-key")
        if opts.bearer and self.accepts("bearer") and self.kept_for_here("bearer"):
            creds.headers["Authorization"] = f"Bearer {opts.bearer}"
            sent.add("bearer")
        elif opts.basic and self.accepts("basic") and self.kept_for_here("basic"):
            import base64

            encoded = base64.b64encode(str(opts.basic).encode()).decode()
            creds.headers["Authorization"] = f"Basic {encoded}"
            self.host.redactor.add(encoded)
            sent.add("basic")
        elif opts.oauth and not opts.bearer and self.accepts("oauth") and self.oauth_in_scope():
            token = self.oauth_token()
            if token:
                creds.headers["Authorization"] = f"Bearer {token}"
                sent.add("oauth")
        self.sent = sent
        return creds

    def accepts(self, credential: str) -> bool:
        """Whether `credential` (api-key, bearer, basic, oauth) may go to this agent: always with
        no card; else only when the card declares a scheme that takes it (said once when not)."""
        from a2acli.wire.security import withheld

        card = self.host.target.card
        if card is None or self.opts.endpoint:
            return True
        why = withheld(card, credential)
        if why is None:
            return True
        if credential not in self.withheld:
            self.withheld.append(credential)
            header = {"api-key": "X-API-Key: KEY", "basic": "Authorization: Basic …"}.get(
                credential, "Authorization: Bearer …"
            )
            self.host.sink.emit(Warn(f"{FLAG_NAMES[credential]} not sent: {why}; -H '{header}' sends it anyway"))
        return False

    def kept_for_here(self, credential: str) -> bool:
        """Whether `credential` (api-key, bearer, basic) may go to this call's agent. A flag's or
        the environment's goes to the agent the command names, an agent scope's to its agent; one
        that a config section keeps (a profile's, a file's) goes only to that section's agent (its
        url: the same reference, or the same origin). Elsewhere it is withheld, said once with how
        to send it deliberately (CLI.md: a profile's credential to that profile's agent)."""
        if credential not in self._kept:
            kept = next((row for row in self.opts.credential_homes if row[0] == credential), None)
            self._kept[credential] = kept is None or self._home_here(kept[1])
            if not self._kept[credential]:
                assert kept is not None
                self.host.sink.emit(Warn(self._kept_elsewhere(credential, kept[1], kept[2])))
        return self._kept[credential]

    def _home_here(self, home: str | None) -> bool:
        from a2acli import auth

        if home is None:
            return False
        opts, target = self.opts, self.host.target
        given = target.located.reference if target.located is not None else opts.url
        if not opts.endpoint and home == given:
            return True  # the section's own agent (a catalog entry or a card file as well as a URL)
        here = auth.audience(opts.endpoint or opts.url)
        return here is not None and here == auth.audience(home)

    def _kept_elsewhere(self, credential: str, home: str | None, source: str) -> str:
        import shlex

        from a2acli import auth

        opts = self.opts
        agent = opts.endpoint or opts.url or "?"
        here = auth.audience(agent) or agent
        whose = f"it is for {auth.audience(home) or home}" if home else "that section names no agent (no url)"
        what = {"api-key": "API key", "bearer": "bearer token", "basic": "basic credentials"}[credential]
        keep = (
            f"a2a config set --profile {shlex.quote(source.split()[1])} url {shlex.quote(agent)}"
            if source.startswith("profile ")
            else "name that agent (url) beside it in that file"
        )
        return (
            f"the {what} from {source} is not sent to {here}: {whose}; "
            f"to send it there deliberately, pass {FLAG_NAMES[credential]}, or make it that section's agent: {keep}"
        )

    def oauth_in_scope(self) -> bool:
        """Whether the profile's OAuth2 client may give this call's agent a token (issues 35, 42):
        the profile's own agent (the url beside its [auth] table), an agent a login got a token
        for, or an agent whose card names the same token endpoint or issuer. Each agent gets a
        token of its own (auth.cache: tokens are kept per agent), never another's. Elsewhere
        none is sent, said once with how to send a token there."""
        if self._scope is None:
            self._scope = self._token_home_here()
            if not self._scope:
                self.host.sink.emit(Warn(self._out_of_scope()))
        return self._scope

    def _token_home_here(self) -> bool:
        from a2acli import auth
        from a2acli.wire.security import names_token_server

        opts = self.opts
        cc = auth.ClientCredentials.from_profile(dict(opts.oauth))
        if cc is None:
            return True  # no token to send
        target = self.host.target
        given = target.located.reference if target.located is not None else opts.url
        if opts.oauth_home and not opts.endpoint and opts.oauth_home == given:
            return True  # the profile's own agent (a catalog entry or a card file as well as a URL)
        here = auth.audience(self.token_agent())
        mine = auth.entry_for(opts.profile, cc, here) if here else None
        if here is not None and (here == auth.audience(opts.oauth_home) or mine is not None):
            return True
        issuers: list[str] = []  # what the profile's logins learnt of the provider
        for entry in (mine, auth.entry_for(opts.profile, cc, opts.oauth_home), auth.unbound(opts.profile, cc)):
            identity = entry.get("identity") if isinstance(entry, dict) else None
            iss = identity.get("iss") if isinstance(identity, dict) else None
            issuers += [str(i) for i in (entry.get("issuer") if isinstance(entry, dict) else None, iss) if i]
        return target.card is not None and names_token_server(target.card, cc.token_url, tuple(issuers))

    def token_agent(self) -> str | None:
        """The agent a token of this call is for, which keys it in the cache: the endpoint, else
        the agent --url names (the profile's own, as the profile names it)."""
        return self.opts.endpoint or self.opts.url

    def _out_of_scope(self) -> str:
        """The warning of a withheld profile token: whose it is, for which agent, and how to send
        a token to this one deliberately."""
        import shlex

        from a2acli import auth

        opts = self.opts
        cc = auth.ClientCredentials.from_profile(dict(opts.oauth))
        token_url = cc.token_url if cc else "?"
        home = auth.audience(opts.oauth_home)
        agent = opts.endpoint or opts.url or "?"
        here = auth.audience(agent) or agent
        profile = opts.profile or "default"
        whose = f"it is for {home}" if home else "the profile names no agent"
        card = (
            f"this agent's card names neither its token endpoint ({token_url}) nor its issuer"
            if self.host.target.card is not None
            else f"no card is read to name its token endpoint ({token_url})"
        )
        return (
            f"the OAuth2 token of profile {profile} is not sent to {here}: {whose}, and {card}; "
            f"to send a token there deliberately, pass --bearer TOKEN, or make it the profile's agent: a2a config set --profile {shlex.quote(profile)} url {shlex.quote(agent)}"
        )

    def oauth_token(self) -> str | None:
        """The profile's OAuth2 token for this call's agent: cached, or requested when expired
        (through the session's transport: its caps, --debug and --dump). --offline never requests
        one: it shows a placeholder unless a cached token is still good."""
        from a2acli import auth

        opts = self.opts
        cc = auth.ClientCredentials.from_profile(dict(opts.oauth))
        if cc is None:
            return None
        if self._oauth_token is None:
            agent = self.token_agent()
            if opts.offline:
                entry = auth.cached(opts.profile, cc, agent)
                self._oauth_token = str(entry["access_token"]) if entry else f"<OAuth2 token from {cc.token_url}>"
            else:
                if auth.entry_for(opts.profile, cc, agent) is None:
                    auth.bind(opts.profile, cc, agent)  # a token a login got for no agent: this one's now
                self._oauth_cached = auth.cached(opts.profile, cc, agent) is not None
                self._oauth_token = auth.access_token(
                    opts.profile,
                    cc,
                    transport=self.host.transport,
                    note=self._note if opts.debug else None,
                    for_agent=agent,
                )
            self.host.redactor.add(self._oauth_token)
        return self._oauth_token

    def _note(self, text: str) -> None:
        self.host.sink.emit(Note(text))

    def renew_oauth_token(self, ex: Any) -> bool:
        """After a 401 to a call that carried the profile's cached OAuth2 token: drop that token
        (revoked, or the agent's keys rotated) and get a new one for one more try: with the client
        secret, or with the refresh token a device-code login got."""
        if ex.status != 401 or not self._oauth_cached or "oauth" not in self.sent:
            return False
        from a2acli import auth

        opts = self.opts
        cc = auth.ClientCredentials.from_profile(dict(opts.oauth))
        if cc is None:
            return False
        agent = self.token_agent()
        cache = auth.load_cache()
        key = auth.cache_key(opts.profile, cc, agent)
        entry = cache.get(key)
        if isinstance(entry, dict) and entry.get("refresh_token"):
            entry["expires_at"] = 0  # the access token is spent; its refresh token asks for the next
            auth.save_cache(cache)
        elif cc.client_secret and cc.flow == auth.CLIENT_CREDENTIALS:
            auth.forget(opts.profile, cc, agent)
        else:
            return False  # nothing to request a new one with: the 401 stands
        self._oauth_token, self._oauth_cached = None, False
        self.host.sink.emit(Note("HTTP 401 with the cached OAuth2 token: requesting a new one"))
        return True

    def given_credentials(self) -> list[str]:
        """The names of the `-H` headers that carry a credential (pipeline.origin.credential_header):
        they follow the origin rule of the card-declared credentials."""
        if not self.opts.headers:
            return []
        from a2acli.pipeline.origin import credential_headers

        return credential_headers(self.opts.headers, self.host.target.card)

    def check_origin(self, target: str) -> None:
        """Credentials go to the origin the user gave them for. An endpoint the card names on
        another host is said once on stderr (deployments do split them); refused when the card
        is https and the endpoint plain http (unless --insecure), or under --strict-origin."""
        from a2acli.pipeline.origin import check_origin

        opts = self.opts
        if opts.endpoint or not opts.url or self.host.target.card_is_local() or self._origin_said:
            return  # --endpoint is the user's own choice; a card file is theirs too
        self._origin_said = True
        note = check_origin(opts.url, target, strict=opts.strict_origin, insecure=opts.insecure)
        if note:
            self.host.sink.emit(Warn(note))
