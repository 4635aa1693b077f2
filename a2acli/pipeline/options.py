"""The options of one call, resolved (flag > env > local file > global file > default): what the
pipeline needs of the command line, and nothing of Typer."""

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from a2acli.records import Record
from a2acli.settings.table import MAX_BODY_BYTES, OPTIONS
from a2acli.wire import Wire


class CallOptions(Record):
    """Every shared option of one call, resolved (flag > env > local file > global file > default).
    A record (a2acli.records): immutable (`_replace` makes a changed copy), and cheap to define at
    start-up, which a NamedTuple or a dataclass is not."""

    __slots__ = (
        "url", "catalog", "catalogs", "endpoint", "transports", "wire", "version_auto", "dialect_name", "headers",
        "extensions", "api_key", "bearer", "basic", "cacert", "cert", "key", "oauth", "oauth_home",
        "credential_homes", "timeout", "no_timeout", "max_body", "insecure", "strict_origin", "no_cache",
        "plaintext", "output", "as_v1", "offline", "dump", "dump_append", "quiet", "debug", "verbose", "profile",
        "config", "sources", "values", "resolved", "redactor"
    )  # fmt: skip
    url: str | None
    catalog: str | None  # --catalog: the agent catalog catalog:NAME reads (URL, origin or file)
    catalogs: tuple[tuple[str, str], ...]  # named catalogs ([catalogs]): catalog:CATALOG/NAME
    endpoint: str | None  # --endpoint (alias --rpc-url): call it with the chosen binding, no card
    transports: tuple[str, ...]  # --transport, in order of preference (--transport spellings)
    wire: Wire
    version_auto: bool  # --a2a-version auto: `wire` is chosen from the card (pipeline.session)
    dialect_name: str
    headers: tuple[tuple[str, str], ...]  # the profile's headers, --svc-param, then -H
    extensions: tuple[str, ...]  # --extension URIs (the version's extensions service parameter)
    api_key: str | None
    bearer: str | None
    basic: str | None
    cacert: str | None
    cert: str | None
    key: str | None
    oauth: tuple[tuple[str, str], ...]  # the profile's [auth] table: OAuth2 client credentials
    oauth_home: str | None  # the agent that [auth] table is for (its section's url, as read): where its token goes
    # api-key, bearer, basic that a config section keeps: (name, that section's agent as read or
    # None, the source as `config show` names it); each goes to that agent only (SessionCredentials)
    credential_homes: tuple[tuple[str, str | None, str], ...]
    timeout: float | None
    no_timeout: bool  # --timeout 0 (any source): no bound at all, not even a unary call's default
    max_body: int  # --max-body: bytes of one answer, one stream event, one input file
    insecure: bool
    strict_origin: bool  # --strict-origin: credentials go to the --url's origin only
    no_cache: bool  # --no-cache: the Agent Card cache neither read nor written (transport.card_cache)
    plaintext: bool  # gRPC without TLS for a host:port interface URL
    output: str  # auto (rich at a terminal, else text), text (the floor everywhere), json, raw
    as_v1: bool
    offline: bool
    dump: str | None
    dump_append: bool  # --dump-append: add to a dump directory that holds a dump already
    quiet: bool  # -q: stderr keeps warnings and errors only
    debug: bool
    verbose: bool  # --verbose: the full text view (history, metadata, every part)
    profile: str | None
    config: str | None  # --config FILE as given on the command line (a printed command repeats it)
    sources: Mapping[str, str]
    values: Mapping[str, Any]  # every setting as resolved (config show)
    resolved: Any  # settings.Resolved: the files read and where each value came from (config show)
    # the run's redactor (redact.Redactor): told every secret above as the options were resolved;
    # each session over these options masks through it (a Call given none makes its own)
    redactor: Any

    def __init__(
        self,
        url: str | None = None,
        catalog: str | None = None,
        catalogs: tuple[tuple[str, str], ...] = (),
        endpoint: str | None = None,
        transports: tuple[str, ...] = (),
        wire: Wire = Wire.V1,
        version_auto: bool = False,
        dialect_name: str = "spec",
        headers: tuple[tuple[str, str], ...] = (),
        extensions: tuple[str, ...] = (),
        api_key: str | None = None,
        bearer: str | None = None,
        basic: str | None = None,
        cacert: str | None = None,
        cert: str | None = None,
        key: str | None = None,
        oauth: tuple[tuple[str, str], ...] = (),
        oauth_home: str | None = None,
        credential_homes: tuple[tuple[str, str | None, str], ...] = (),
        timeout: float | None = None,
        no_timeout: bool = False,
        max_body: int = MAX_BODY_BYTES,
        insecure: bool = False,
        strict_origin: bool = False,
        no_cache: bool = False,
        plaintext: bool = False,
        output: str = "auto",
        as_v1: bool = False,
        offline: bool = False,
        dump: str | None = None,
        dump_append: bool = False,
        quiet: bool = False,
        debug: bool = False,
        verbose: bool = False,
        profile: str | None = None,
        config: str | None = None,
        sources: Mapping[str, str] = MappingProxyType({}),
        values: Mapping[str, Any] = MappingProxyType({}),
        resolved: Any = None,
        redactor: Any = None,
    ) -> None:
        self._set(
            url, catalog, catalogs, endpoint, transports, wire, version_auto, dialect_name, headers, extensions,
            api_key, bearer, basic, cacert, cert, key, oauth, oauth_home, credential_homes, timeout, no_timeout,
            max_body, insecure, strict_origin, no_cache, plaintext, output, as_v1, offline, dump, dump_append,
            quiet, debug, verbose, profile, config, sources, values, resolved, redactor
        )  # fmt: skip

    @property
    def preferred_binding(self) -> str:
        """The binding asked for: the first --transport (its flag), JSON-RPC when none is given.
        The one a call uses is chosen with the Agent Card (pipeline.target: `Call.target.binding`)."""
        if self.transports:
            return self.transports[0]
        from a2acli.wire.bindings import DEFAULT

        return DEFAULT.flag

    @property
    def dialect(self):  # noqa: ANN201
        from a2acli.wire.dialects import get_dialect

        return get_dialect(self.dialect_name)


# Credentials given as flags: a printed command names the flag, never the value (the user gives
# it again, or moves it to the environment or a config file, which the command then reads).
_SECRET_FLAGS = (("api-key", "--api-key KEY"), ("bearer", "--bearer TOKEN"), ("basic", "--basic USER:PASS"))


def conn_flags(opts: CallOptions, *, secrets: bool = True) -> str:
    """The options of this command line that chose the agent, the binding, the version, the
    dialect and where the credentials come from, for a printed command to run as printed in the
    same directory and environment (` --config FILE --profile P -u URL …`). What came from the
    environment or a file is not repeated (the same environment and files give it again); a
    credential given as a flag is named by its placeholder, never its value (`secrets=False`: not
    at all, for a command that names the credential to send itself)."""
    src = getattr(opts, "sources", None) or {}

    def given(name: str) -> bool:
        return src.get(name) == "flag"

    flags = [*_agent_flags(opts, given), *_tls_and_credential_flags(opts, given, secrets=secrets)]
    return "".join(" " + f for f in flags)


def _agent_flags(opts: CallOptions, given: Callable[[str], bool]) -> list[str]:
    """--config, --profile, the agent (--catalog, -u, --endpoint), the binding, the version, the
    dialect and the extensions, as conn_flags repeats them."""
    import shlex

    resolved = getattr(opts, "resolved", None)
    named = (
        ("--config", opts.config, True),
        ("--profile", opts.profile, getattr(resolved, "profile_source", "") == "flag"),
        ("--catalog", opts.catalog, given("catalog")),
        ("-u", opts.url, given("url")),
        ("--endpoint", opts.endpoint, given("endpoint")),
    )
    flags = [f"{flag} {shlex.quote(value)}" for flag, value, ok in named if value and ok]
    if given("transport"):
        flags += [f"--transport {t}" for t in opts.transports]
    if given("a2a-version") and (opts.version_auto or opts.wire is not Wire.V1):  # 1.0 is the default
        flags.append(f"--a2a-version {'auto' if opts.version_auto else opts.wire.version}")
    if opts.dialect_name != "spec" and given("dialect"):
        flags.append(f"--dialect {opts.dialect_name}")
    return flags + [f"--extension {shlex.quote(uri)}" for uri in opts.extensions]


def _tls_and_credential_flags(opts: CallOptions, given: Callable[[str], bool], *, secrets: bool) -> list[str]:
    """The TLS files, the credentials given as flags (their placeholders) and the switches, as
    conn_flags repeats them."""
    import shlex

    flags = [
        f"--{name} {shlex.quote(str(getattr(opts, name)))}"
        for name in ("cacert", "cert", "key")
        if getattr(opts, name) and given(name)
    ]
    flags += [
        placeholder
        for name, placeholder in _SECRET_FLAGS
        if secrets and getattr(opts, name.replace("-", "_")) and given(name)
    ]
    switches = (
        ("--plaintext", opts.plaintext),
        ("--insecure", opts.insecure),
        ("--strict-origin", opts.strict_origin and given("strict-origin")),
    )
    return flags + [flag for flag, on in switches if on]


# -- resolving: the values given (flags by parameter name), the environment and the files, into one CallOptions


def check_header(name: str, value: str, what: str) -> tuple[str, str]:
    """A header name and value that can be sent (wire.headers: as h11 checks them), and a value
    in ASCII; else a usage error that never quotes the value."""
    from a2acli.errors import UsageError
    from a2acli.settings.values import check_header_value
    from a2acli.wire.headers import name_problem, sent_name_problem, shown

    if name_problem(name):
        raise UsageError(
            f"{what}: {shown(name)} is not a header name",
            hint="a name is letters, digits and !#$%&'*+.^_`|~- (e.g. -H 'X-Team: qa')",
        )
    framing = sent_name_problem(name)
    if framing:
        raise UsageError(f"{what}: {shown(name)} cannot be given: {framing}", hint="drop that header")
    return name, check_header_value(name, value, what)


def parse_header(text: str) -> tuple[str, str]:
    """`Name: value` of -H. Errors never quote the value (it is likely a credential): at most the
    name, or the first word of a line without a colon."""
    name, sep, value = text.partition(":")
    if not sep or not name.strip() or any(c.isspace() for c in name.strip()):
        import re

        from a2acli.errors import UsageError

        first = re.match(r"[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}(?=[\s=])", text.strip())  # a name, then something
        shown = f"-H '{first.group()} …'" if first else "an -H value"
        raise UsageError(
            f"{shown} is not 'Name: value' (the value is not shown)",
            hint="e.g. -H 'X-Team: qa'; a colon follows the name"
            + ("; a header name has no space" if sep and name.strip() else ""),
        )
    return check_header(name.strip(), value.strip(), "-H")


def _split_svc_param(text: str) -> tuple[str, str, str]:
    """(name, separator, value) of `NAME=VALUE` or `NAME:VALUE`: a name has neither character, so
    the first of them separates (the value may hold both)."""
    cut = min((i for i in (text.find("="), text.find(":")) if i >= 0), default=-1)
    return (text, "", "") if cut < 0 else (text[:cut].strip(), text[cut], text[cut + 1 :].strip())


def parse_svc_param(text: str) -> tuple[str, str]:
    """`--svc-param NAME=VALUE` (or the spec's `NAME:VALUE`): an A2A service parameter, sent as a
    header (gRPC metadata) on every request. Errors never quote the value."""
    name, sep, value = _split_svc_param(text)
    if not sep or not name:
        from a2acli.errors import UsageError

        raise UsageError(
            "a --svc-param value is not NAME=VALUE (the value is not shown)",
            hint="e.g. --svc-param x-trace-id=abc123 (or x-trace-id:abc123)",
        )
    return check_header(name, value, "--svc-param")


def parse_extensions(values: list[str]) -> tuple[str, ...]:
    """`--extension URI` (repeatable, or a comma list): the URIs in order, each once."""
    from a2acli.errors import UsageError

    uris: list[str] = []
    for value in values:
        for uri in str(value).split(","):
            uri = uri.strip()
            if not uri:
                raise UsageError(
                    "--extension needs a URI", hint="e.g. --extension https://example.com/ext/v1 (repeatable)"
                )
            if not uri.isascii() or any(c.isspace() or ord(c) < 0x20 or ord(c) == 0x7F for c in uri):
                raise UsageError(
                    f"--extension {uri[:80]!r} is not a URI (a space, a control or a non-ASCII character)",
                    hint="percent-encode it, e.g. https://example.com/ext/v1",
                )
            if uri not in uris:
                uris.append(uri)
    return tuple(uris)


def build_options(
    raw: dict[str, Any],
    root: dict[str, Any] | None = None,
    *,
    warn: Callable[[str, str], None] | None = None,
    redactor: Any = None,
) -> CallOptions:
    """Merge leaf flags over root flags, resolve env / profile / files / defaults (settings), parse
    each setting by its row of the table, then apply the rules that tie settings together. `warn`
    says what the files warn of (the output mode, the text): the CLI's Output on stderr; any face
    (a2a mcp) its own way. `redactor` (the run's, else a new one) is told every secret before
    anything is checked, and the options carry it (`CallOptions.redactor`)."""
    from a2acli import settings
    from a2acli.settings.values import named, parse_setting

    merged = _merged(raw, root or {})
    flags = {s.name: merged[s.arg] for s in OPTIONS.values() if s.setting}
    for s in _SWITCH_SETTINGS:  # a switch not given: env or profile decides
        flags[s.name] = True if merged.get(s.arg) else None
    res = settings.resolve(flags, merged.get("profile"), merged.get("config"))
    v = res.values
    redactor = _learn_secrets(redactor, v, res, merged.get("header") or [], merged.get("svc_param") or [])
    parsed = {
        s.arg: parse_setting(s.name, v[s.name] if s.setting else merged[s.arg], res.sources.get(s.name, "flag"))
        for s in _PARSED
    }
    v["url"] = parsed["url"]  # an agent reference as it will be read (host:port -> https://host:port, loopback http://)
    wire, version_auto = _version(v, res)
    transports = list(parsed["transport"])  # settings.values.parse_transports, the one reading
    if warn is not None:
        for warning in res.warnings:
            warn(str(parsed["output"]), warning)
    as_v1 = _as_v1(merged.get("as_version"))
    for cname, location in res.catalogs:
        settings.check_catalog(location, f"catalog.{cname} ({res.sources[f'catalog.{cname}']})")
    if v["endpoint"] not in (None, ""):
        from a2acli.wire.bindings import by_flag

        settings.check_url(
            str(v["endpoint"]),
            named("--endpoint", res.sources["endpoint"]),
            grpc=bool(transports) and by_flag(transports[0]).carrier_grpc,
        )
    headers = _headers(res, merged)
    basic, bearer = _one_authorization(parsed["basic"], parsed["bearer"], res)
    if parsed["key"] and not parsed["cert"]:
        from a2acli.errors import UsageError

        raise UsageError("--key needs --cert", hint="--cert PATH is the client certificate, --key PATH its private key")
    fields = {
        arg: value for arg, value in parsed.items() if arg in CallOptions.__slots__ and arg not in ("basic", "bearer")
    }
    return CallOptions(
        **fields,
        redactor=redactor,
        catalogs=res.catalogs,
        transports=tuple(transports),
        wire=wire,
        version_auto=version_auto,
        dialect_name=str(v["dialect"]).lower(),
        headers=tuple(headers),
        extensions=parse_extensions(merged.get("extension") or []),
        basic=basic,
        bearer=bearer,
        oauth=tuple(sorted(res.auth.items())),
        oauth_home=_oauth_home(res),
        credential_homes=_credential_homes(res),
        no_timeout=parsed["timeout"] is None
        and res.sources["timeout"] != "default"
        and v.get("timeout") not in (None, ""),
        as_v1=as_v1,
        profile=res.profile,
        config=merged.get("config") or None,
        sources=res.sources,
        values={**res.values, "transport": ",".join(transports) or None},
        resolved=res,
    )


_SWITCH_SETTINGS = tuple(s for s in OPTIONS.values() if s.setting and s.kind == "switch")
_PARSED = tuple(
    s for s in OPTIONS.values() if s.parse != "text" or s.setting
)  # the rows with a CallOptions value of their own


def _merged(raw: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    """Each shared option as given after the command, else before it (the root's)."""
    return {
        s.arg: (raw.get(s.arg) if raw.get(s.arg) not in (None, False, []) else root.get(s.arg))
        for s in OPTIONS.values()
    }


def _headers(res: Any, merged: dict[str, Any]) -> list[tuple[str, str]]:
    """The profile's headers, then --svc-param, then -H (in that order on the wire)."""
    headers = [check_header(n, val, f"header.{n} ({res.sources[f'header.{n}']})") for n, val in res.profile_headers]
    headers += [parse_svc_param(p) for p in (merged.get("svc_param") or [])]
    return headers + [parse_header(h) for h in (merged.get("header") or [])]


def _oauth_home(res: Any) -> str | None:
    """The agent the [auth] table's token is for, read as --url reads it (a bare host: https://)."""
    if not res.auth_home:
        return None
    from a2acli.net import agent_reference

    return agent_reference(res.auth_home)


def _credential_homes(res: Any) -> tuple[tuple[str, str | None, str], ...]:
    """The credentials a config section keeps, each with its section's agent read as --url reads
    it (a bare host: https://), and its source."""
    from a2acli.net import agent_reference

    return tuple(
        (name, agent_reference(home) if home else None, res.sources[name])
        for name, home in res.credential_homes.items()
    )


def _as_v1(value: str | None) -> bool:
    """--as v1 (or 1.0): canonical V1 JSON; nothing else is supported."""
    as_v = (value or "").lower()
    if as_v not in ("", "v1", "1.0"):
        from a2acli.errors import UsageError

        raise UsageError(f"--as {value!r} is not supported", hint="--as v1 (canonical V1 JSON)")
    return bool(as_v)


def _version(v: dict[str, Any], res: Any) -> tuple[Any, bool]:
    """The wire version (1.0 until the card says otherwise under `auto`) and whether it is auto;
    the dialect is checked here too."""
    from a2acli.errors import UsageError
    from a2acli.wire import Wire, parse_version_choice
    from a2acli.wire.dialects import get_dialect

    try:
        chosen = parse_version_choice(str(v["a2a-version"]))
    except ValueError as e:
        raise UsageError(
            str(e), hint="--a2a-version 1.0 (default), 0.3, or auto (1.0 when the card offers it, else 0.3)"
        ) from None
    try:
        get_dialect(str(v["dialect"]))
    except ValueError as e:
        raise UsageError(str(e), hint="--dialect spec (default) or clix") from None
    return chosen or Wire.V1, chosen is None


def _one_authorization(basic: Any, bearer: Any, res: Any) -> tuple[Any, Any]:
    """--basic and --bearer both set Authorization: the higher source wins, a tie is an error."""
    if not (basic and bearer):
        return basic, bearer
    rb, rt = res.rank["basic"], res.rank["bearer"]
    if rb == rt:
        from a2acli.errors import UsageError

        raise UsageError(
            f"--basic ({res.sources['basic']}) and --bearer ({res.sources['bearer']}) both set Authorization",
            hint="pass one of them",
        )
    return (basic, None) if rb < rt else (None, bearer)


def _learn_secrets(r: Any, v: dict[str, Any], res: Any, header_args: list[str], svc_params: list[str]) -> Any:
    """Every secret of the command line, environment and profile, told to the invocation's
    redactor `r` (None: a new one) before anything is checked: a usage error quoting one shows
    `<redacted>`. Returns the redactor."""
    from a2acli.redact import Redactor

    r = r if r is not None else Redactor()
    for name in ("api-key", "bearer", "basic"):
        if isinstance(v.get(name), str):
            r.add(v[name], v[name].partition(":")[2] if name == "basic" else None)
    for text in header_args:
        name, sep, value = str(text).partition(":")
        if sep:
            r.header_value(name, value, given=True)
        else:  # malformed: all of it, in case it is `Authorization Bearer SECRET`
            r.add(*str(text).split()[1:])
    for text in svc_params:  # NAME=VALUE or NAME:VALUE: redacted as -H values are
        name, sep, value = _split_svc_param(str(text))
        if sep:
            r.header_value(name, value, given=True)
        else:  # malformed: all of it
            r.add(str(text))
    for name, value in res.profile_headers:
        r.header_value(name, value, given=True)
    for name in ("url", "endpoint"):
        if isinstance(v.get(name), str):
            r.url(v[name])
    r.add(res.auth.get("client-secret"))
    return r
