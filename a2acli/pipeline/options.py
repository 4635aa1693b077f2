"""The options of one call, resolved (flag > env > local file > global file > default): what the
pipeline needs of the command line, and nothing of Typer."""

from __future__ import annotations

from collections.abc import Mapping
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
    timeout: float | None = None
    no_timeout: bool = False  # --timeout 0 (any source): no bound at all, not even a unary call's default
    max_body: int = MAX_BODY_BYTES  # --max-body: bytes of one answer, one stream event, one input file
    insecure: bool = False
    strict_origin: bool = False  # --strict-origin: credentials go to the --url's origin only
    plaintext: bool = False  # gRPC without TLS for a host:port interface URL
    output: str = "text"
    as_v1: bool = False
    offline: bool = False
    dump: str | None = None
    dump_append: bool = False  # --dump-append: add to a dump directory that holds a dump already
    quiet: bool = False  # -q: stderr keeps warnings and errors only
    debug: bool = False
    verbose: bool = False  # --verbose: the full text view (history, metadata, every part)
    profile: str | None = None
    sources: Mapping[str, str] = MappingProxyType({})
    values: Mapping[str, Any] = MappingProxyType({})  # every setting as resolved (config show)
    resolved: Any = None  # settings.Resolved: the files read and where each value came from (config show)

    @property
    def dialect(self):  # noqa: ANN201
        from a2acli.wire.dialects import get_dialect

        return get_dialect(self.dialect_name)


def conn_flags(opts: CallOptions) -> str:
    """The connection flags given on this command line, for a command to paste (` -u URL …`)."""
    import shlex

    src = getattr(opts, "sources", None) or {}
    flags = []
    if opts.url and src.get("url") == "flag":
        flags.append(f"-u {shlex.quote(opts.url)}")
    if opts.endpoint and src.get("endpoint") == "flag":
        flags.append(f"--endpoint {shlex.quote(opts.endpoint)}")
    if opts.transports and src.get("transport") == "flag":
        flags += [f"--transport {t}" for t in opts.transports]
    if opts.wire is not Wire.V1 and src.get("a2a-version") == "flag":
        flags.append(f"--a2a-version {opts.wire.version}")
    if opts.plaintext:
        flags.append("--plaintext")
    if opts.dialect_name != "spec" and src.get("dialect") == "flag":
        flags.append(f"--dialect {opts.dialect_name}")
    return "".join(" " + f for f in flags)
