"""The options of one call, resolved (flag > env > local file > global file > default): what the
pipeline needs of the command line, and nothing of Typer."""

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from a2acli.settings.table import MAX_BODY_BYTES
from a2acli.wire import Wire


class CallOptions(NamedTuple):
    """Every shared option of one call, resolved (flag > env > local file > global file > default).
    A NamedTuple: immutable, and cheaper to define at start-up than a dataclass."""

    url: str | None = None
    catalog: str | None = None  # --catalog: the agent catalog catalog:NAME reads (URL, origin or file)
    catalogs: tuple[tuple[str, str], ...] = ()  # named catalogs ([catalogs]): catalog:CATALOG/NAME
    endpoint: str | None = None  # --endpoint (alias --rpc-url): call it with the chosen binding, no card
    transports: tuple[str, ...] = ()  # --transport, in order of preference (--transport spellings)
    wire: Wire = Wire.V1
    version_auto: bool = False  # --a2a-version auto: `wire` is chosen from the card (pipeline.session)
    dialect_name: str = "spec"
    headers: tuple[tuple[str, str], ...] = ()  # the profile's headers, --svc-param, then -H
    extensions: tuple[str, ...] = ()  # --extension URIs (the version's extensions service parameter)
    api_key: str | None = None
    bearer: str | None = None
    basic: str | None = None
    cacert: str | None = None
    cert: str | None = None
    key: str | None = None
    oauth: tuple[tuple[str, str], ...] = ()  # the profile's [auth] table: OAuth2 client credentials
    oauth_home: str | None = (
        None  # the agent that [auth] table is for (its section's url, as read): where its token goes
    )
    # api-key, bearer, basic that a config section keeps: (name, that section's agent as read or
    # None, the source as `config show` names it); each goes to that agent only (SessionCredentials)
    credential_homes: tuple[tuple[str, str | None, str], ...] = ()
    timeout: float | None = None
    no_timeout: bool = False  # --timeout 0 (any source): no bound at all, not even a unary call's default
    max_body: int = MAX_BODY_BYTES  # --max-body: bytes of one answer, one stream event, one input file
    insecure: bool = False
    strict_origin: bool = False  # --strict-origin: credentials go to the --url's origin only
    no_cache: bool = False  # --no-cache: the Agent Card cache neither read nor written (transport.card_cache)
    plaintext: bool = False  # gRPC without TLS for a host:port interface URL
    output: str = "auto"  # auto (rich at a terminal, else text), text (the floor everywhere), json, raw
    as_v1: bool = False
    offline: bool = False
    dump: str | None = None
    dump_append: bool = False  # --dump-append: add to a dump directory that holds a dump already
    quiet: bool = False  # -q: stderr keeps warnings and errors only
    debug: bool = False
    verbose: bool = False  # --verbose: the full text view (history, metadata, every part)
    profile: str | None = None
    config: str | None = None  # --config FILE as given on the command line (a printed command repeats it)
    sources: Mapping[str, str] = MappingProxyType({})
    values: Mapping[str, Any] = MappingProxyType({})  # every setting as resolved (config show)
    resolved: Any = None  # settings.Resolved: the files read and where each value came from (config show)
    # `a2a diff -- CMD`: the command's entry point records itself here instead of running (commands._run.entry_point)
    capture: list[Any] | None = None

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
