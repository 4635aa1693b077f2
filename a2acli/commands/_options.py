"""The options every method command shares, declared once and injected into each command.

`@method_options` adds them to a command's signature (so they work after the subcommand), the
root callback accepts them too (before it), and both are merged into one frozen CallOptions."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Annotated, Any

import typer
from typer.models import OptionInfo

from a2acli.pipeline.options import CallOptions
from a2acli.wire import VERSION_CHOICES
from a2acli.wire.bindings import TRANSPORT_CHOICES

CONN = "Connection"
AUTH = "Authentication and TLS"
OUT = "Output and debugging"
SVC = "Service parameters"
PS = "A flag shows in the process table and the shell history: prefer the env var."


def _opt(*decls: str, help: str, panel: str = CONN, setting: str | None = None, **kw: Any) -> Any:
    info = typer.Option(*decls, help=help, rich_help_panel=panel, show_default=False, **kw)
    if setting:  # the help ends with the effective default, worked out when the command tree is built
        info.__class__ = _EffectiveDefaultHelp
        info.setting = setting
        info.template = info.__dict__.pop("help")
    return info


# Whether option help is worked out in full. `run()` turns it off when the command line asks for
# no help: Typer reads every option's help while building the tree, and working out effective
# defaults reads the config file and the environment, which a plain call does not need.
HELP_WANTED = True
HELP_PROFILE: str | None = None  # `--profile NAME` on the command line that asks for help
HELP_CONFIG: str | None = None  # `--config FILE` on the command line that asks for help


class _EffectiveDefaultHelp(OptionInfo):
    """An option whose help text ends with its effective default and where it comes from:
    `(default: 0.3, from env A2ACLI_A2A_VERSION)`. Typer reads `help` each time it builds the
    command tree (once per run), so the text follows the environment and the active profile."""

    setting: str = ""
    template: str = ""

    @property
    def help(self) -> str:
        return f"{self.template} {effective_default_text(self.setting)}" if HELP_WANTED else self.template

    @help.setter
    def help(self, value: str) -> None:
        self.template = value


def complete_from(choices: Any) -> Callable[[str], list[str]]:
    def complete(incomplete: str) -> list[str]:
        return [c for c in choices() if c.startswith(incomplete)]

    return complete


def complete_profiles(incomplete: str) -> list[str]:
    """Profile names from the config file."""
    from a2acli import settings

    try:
        names = sorted((settings.load_config().get("profiles") or {}).keys())
    except Exception:  # a broken config file completes nothing
        names = []
    return [n for n in names if n.startswith(incomplete)]


def complete_agents(ctx: typer.Context, incomplete: str) -> list[str]:
    """-u: after `catalog:`, the entry names of the catalogs in a file (--catalog, the named
    ones); a catalog on the network is not read to complete a word."""
    from a2acli.net import CATALOG_PREFIX

    if not incomplete.startswith(CATALOG_PREFIX[: len(incomplete)]) or not incomplete:
        return []
    try:
        from a2acli import settings
        from a2acli.transport.catalog import catalog_location, is_file, read_catalog

        res = settings.resolve({"catalog": ctx.params.get("catalog")}, ctx.params.get("profile"), ctx.params.get("config"))
        sources = [("", res.values.get("catalog"))] + [(f"{n}/", loc) for n, loc in res.catalogs]
        words = []
        for prefix, value in sources:
            location = catalog_location(str(value)) if value else ""
            if is_file(location):
                words += [f"{CATALOG_PREFIX}{prefix}{e.name}" for e in read_catalog(None, location).catalog.entries]
            elif prefix:
                words.append(f"{CATALOG_PREFIX}{prefix}")
    except Exception:  # a broken config or catalog completes nothing
        return []
    return [w for w in words if w.startswith(incomplete)]


TASK_STATES = ("submitted", "working", "input-required", "auth-required", "completed", "canceled", "failed", "rejected")


def complete_task_states(incomplete: str) -> list[str]:
    """Completion for a comma list of task states (--status, --expect-state)."""
    done, _, last = incomplete.rpartition(",")
    prefix = done + "," if done else ""
    taken = set(done.split(",")) if done else set()
    return [prefix + s for s in TASK_STATES if s.startswith(last) and s not in taken]


POLL_INTERVAL = "2s"  # the spec's recommended default (§7.3) of --poll-interval (backs off from there; pipeline.policies.poll_delays)
POLL_HELP = "Wait between polls: seconds or a duration (2, 2s, 500ms, 1m); grows 1.5x per unchanged poll up to 5 s, never below this."


def poll_interval_option(panel: str | None = None) -> Any:
    """--poll-interval DURATION (the spec's name): how long to wait between polls of a task."""
    return typer.Option("--poll-interval", help=POLL_HELP, metavar="DURATION", rich_help_panel=panel)


def force_option(what: str, panel: str | None = None) -> Any:
    """--force: call even when the Agent Card says the capability is not offered."""
    return typer.Option("--force", help=f"{what} even when the Agent Card does not claim the capability it needs (an agent whose card is wrong).", rich_help_panel=panel)


def poll_seconds(text: str, opts: CallOptions) -> float:
    """--poll-interval in seconds (a usage error, reported like the others, when it is not a duration)."""
    from a2acli import settings
    from a2acli.commands._run import boundary

    with boundary(output_hint=opts.output, debug=opts.debug):
        return settings.parse_poll_interval(text)
    raise AssertionError("unreachable")  # the boundary exits  # pragma: no cover


def effective_default_text(setting: str) -> str:
    """`(default: 1.0; env: A2ACLI_A2A_VERSION)`, or, when the environment or the active profile
    sets it, `(default: 0.3, from env A2ACLI_A2A_VERSION)`. Secrets say only that they are set."""
    from a2acli import settings

    s = settings.SETTINGS[setting]
    value, source = _effective_defaults().get(setting, (s.default, "default"))
    if source == "default":
        return f"(default: {value}; env: {s.env})" if value is not None else f"(env: {s.env})"
    shown = "set" if s.secret else f"default: {value}"
    if source.startswith(("profile ", "agent ")):  # `profile p (global PATH)`: the section is enough here
        source = source.split(" (", 1)[0]
    return f"({shown}, from {source})" if source.startswith("env") else f"({shown}, from {source}; env: {s.env})"


_DEFAULTS_CACHE: dict[Any, dict[str, tuple[Any, str]]] = {}


def _effective_defaults() -> dict[str, tuple[Any, str]]:
    import os

    from a2acli import settings

    path = settings.config_path()
    try:
        stamp: Any = path.stat().st_mtime_ns
    except OSError:
        stamp = None
    key = (tuple(sorted((k, v) for k, v in os.environ.items() if k.startswith("A2ACLI_"))), str(path), stamp, HELP_PROFILE, HELP_CONFIG, _cwd())
    if key not in _DEFAULTS_CACHE:
        try:
            res = settings.resolve({}, HELP_PROFILE, HELP_CONFIG)
            _DEFAULTS_CACHE[key] = {k: (res.values[k], res.sources[k]) for k in res.values}
        except Exception:  # a broken config or a missing profile: say it when a command runs, not in help
            _DEFAULTS_CACHE[key] = {}
    return _DEFAULTS_CACHE[key]


def _cwd() -> str:
    import os

    try:
        return os.getcwd()
    except OSError:
        return ""


# name -> (annotation, default). Env vars are resolved in settings.py so `config show` can say
# where each value came from; the help text names them.
COMMON: dict[str, tuple[Any, Any]] = {
    "url": (
        Annotated[
            str | None,
            _opt(
                "--url",
                "-u",
                "--agent-card",
                "-a",
                help="The agent, by its Agent Card: an origin or host[:port] (http:// when no scheme is given; the card is looked up at /.well-known/agent-card.json), the card's URL, a card file (file:// or a path), or an entry of an agent catalog, catalog:NAME (catalog:CATALOG/NAME for a named one). A2ACLI_AGENT_CARD works too.",
                setting="url",
                metavar="URL|FILE|catalog:NAME",
                autocompletion=complete_agents,
            ),
        ],
        None,
    ),
    "catalog": (
        Annotated[
            str | None,
            _opt(
                "--catalog",
                help="The agent catalog that -u catalog:NAME reads: its http(s) URL (an origin: its /.well-known/ai-catalog.json, then /.well-known/api-catalog) or a file. Read like the public card, with no credentials; `a2a card catalog` lists it.",
                setting="catalog",
                metavar="URL|FILE",
            ),
        ],
        None,
    ),
    "endpoint": (Annotated[str | None, _opt("--endpoint", "--rpc-url", help="Call this endpoint with the chosen --transport (default jsonrpc) and skip the card look-up.", setting="endpoint")], None),
    "transport": (
        Annotated[
            list[str] | None,
            _opt(
                "--transport",
                help=f"Binding: {', '.join(TRANSPORT_CHOICES)} (or the card's JSONRPC, HTTP+JSON, GRPC); repeatable, in order of preference. Default: the card's order.",
                setting="transport",
                metavar="jsonrpc|rest|grpc",
                autocompletion=complete_from(lambda: TRANSPORT_CHOICES),
            ),
        ],
        None,
    ),
    "a2a_version": (
        Annotated[
            str | None,
            _opt(
                "--a2a-version",
                help="Wire form: 1.0 or 0.3; auto reads the card and uses 1.0 when it is offered, else 0.3 (says which on stderr).",
                setting="a2a-version",
                metavar="1.0|0.3|auto",
                autocompletion=complete_from(lambda: VERSION_CHOICES),
            ),
        ],
        None,
    ),
    "dialect": (
        Annotated[str | None, _opt("--dialect", help="Vendor deviations: spec or clix.", setting="dialect", metavar="spec|clix", autocompletion=complete_from(lambda: ("spec", "clix")))],
        None,
    ),
    "header": (Annotated[list[str] | None, _opt("--header", "-H", help="Extra header 'Name: value' (repeatable).")], None),
    "svc_param": (
        Annotated[
            list[str] | None,
            _opt(
                "--svc-param",
                help="An A2A service parameter NAME=VALUE (or NAME:VALUE), repeatable: sent as an HTTP header (JSON-RPC, HTTP+JSON) or as gRPC metadata (the name in lowercase). Like -H values, a value is shown as <redacted> in --debug, --dump and --offline unless its name is a known harmless one.",
                panel=SVC,
                metavar="NAME=VALUE",
            ),
        ],
        None,
    ),
    "extension": (
        Annotated[
            list[str] | None,
            _opt(
                "--extension",
                help="Ask for this A2A extension, by URI (repeatable, or a comma list): sent as the version's extensions service parameter, A2A-Extensions (X-A2A-Extensions under 0.3).",
                panel=SVC,
                metavar="URI",
            ),
        ],
        None,
    ),
    "api_key": (
        Annotated[
            str | None,
            _opt(
                "--api-key",
                help=f"API key, sent only where the card declares an apiKey scheme, placed where it says (header, query or cookie; header X-API-Key with --endpoint, no card). {PS}",
                panel=AUTH,
                setting="api-key",
            ),
        ],
        None,
    ),
    "bearer": (
        Annotated[
            str | None, _opt("--bearer", help=f"Bearer token for Authorization, sent only where the card declares an http bearer, oauth2 or openIdConnect scheme. {PS}", panel=AUTH, setting="bearer")
        ],
        None,
    ),
    "basic": (
        Annotated[
            str | None, _opt("--basic", help=f"HTTP Basic credentials USER:PASSWORD, sent only where the card declares an http basic scheme. {PS}", panel=AUTH, setting="basic", metavar="USER:PASS")
        ],
        None,
    ),
    "cacert": (Annotated[str | None, _opt("--cacert", help="Trust this CA bundle (PEM) instead of the default ones.", panel=AUTH, setting="cacert", metavar="PATH")], None),
    "cert": (Annotated[str | None, _opt("--cert", help="Client certificate (PEM) for mutual TLS; may hold the key too.", panel=AUTH, setting="cert", metavar="PATH")], None),
    "key": (Annotated[str | None, _opt("--key", help="Private key (PEM) of --cert, when it is a separate file.", panel=AUTH, setting="key", metavar="PATH")], None),
    "timeout": (
        Annotated[str | None, _opt("--timeout", help="Whole-call bound: seconds, or a duration (30s, 2m, 500ms); exit 5 when it expires.", setting="timeout", metavar="DURATION")],
        None,
    ),
    "max_body": (
        Annotated[
            str | None, _opt("--max-body", help="Cap on one answer, one stream event or one input file (bytes, or with K, M, G); reading stops there, exit 1.", setting="max-body", metavar="SIZE")
        ],
        None,
    ),
    "plaintext": (Annotated[bool, _opt("--plaintext", help="gRPC: no TLS for a host:port interface URL (http:// and grpc:// URLs are plaintext already).", panel=AUTH)], False),
    "strict_origin": (
        Annotated[bool, _opt("--strict-origin", help="Refuse to send credentials to any origin but --url's (a card naming another host is an error): for CI.", panel=AUTH)],
        False,
    ),
    "insecure": (Annotated[bool, _opt("--insecure", help="Skip TLS certificate verification (unsafe; warns on every call). Default: certificates are verified.", panel=AUTH)], False),
    "profile": (Annotated[str | None, _opt("--profile", help="Named settings from the config file (`a2a config show`). (env: A2ACLI_PROFILE)", autocompletion=complete_profiles)], None),
    "config": (
        Annotated[
            str | None,
            _opt(
                "--config",
                help="Read settings from this .env or TOML file instead of the local one (the nearest .env / .a2acli.toml from here up); flags and env vars still win. (env: A2ACLI_CONFIG)",
                metavar="FILE",
            ),
        ],
        None,
    ),
    "output": (
        Annotated[
            str | None,
            _opt(
                "--output",
                "-o",
                help="auto (the rich view at a terminal, text elsewhere), text (the plain `Label: value` floor everywhere), json or raw.",
                panel=OUT,
                setting="output",
                metavar="auto|text|json|raw",
                autocompletion=complete_from(lambda: ("auto", "text", "json", "raw")),
            ),
        ],
        None,
    ),
    "as_version": (
        Annotated[str | None, _opt("--as", help="With -o json: convert what was received to canonical v1 JSON.", panel=OUT, metavar="v1", autocompletion=complete_from(lambda: ("v1",)))],
        None,
    ),
    "offline": (Annotated[bool, _opt("--offline", help="Print the request(s) exactly as they would be sent; send nothing.", panel=OUT)], False),
    "dump": (Annotated[str | None, _opt("--dump", help="Write every exchange byte for byte into this directory.", panel=OUT, setting="dump")], None),
    "verbose": (Annotated[bool, _opt("--verbose", help="Text output: the full breakdown (history, metadata, every part); concise by default.", panel=OUT)], False),
    "debug": (Annotated[bool, _opt("--debug", help="Requests and responses on stderr (credentials redacted); tracebacks.", panel=OUT)], False),
}


def _named(flag: str, source: str) -> str:
    """`--timeout`, or `--timeout (env A2ACLI_TIMEOUT)` when the value came from elsewhere."""
    return flag if source == "flag" else f"{flag} ({source})"


def _check_credential(value: object, what: str) -> None:
    """A bearer token or API key travels in a header: printable ASCII, one line."""
    if value in (None, ""):
        return
    from a2acli.errors import UsageError

    text = str(value)
    if not text.isascii() or any(ord(c) < 0x20 or ord(c) == 0x7F for c in text):
        raise UsageError(f"{what} holds a non-ASCII or control character (the value is not shown)", hint="credentials travel in headers as ASCII: percent-encode or base64 it")


_TOKEN = r"[!#$%&'*+.^_`|~0-9A-Za-z-]+"  # RFC 9110 token: a header name


def check_header(name: str, value: str, what: str) -> tuple[str, str]:
    """A header name and value that can be sent: a token name, a one-line printable ASCII value."""
    import re

    from a2acli.errors import UsageError

    if not re.fullmatch(_TOKEN, name):
        shown = name if len(name) <= 64 and name.isprintable() else name[:64].encode("unicode_escape").decode() + "…"
        raise UsageError(f"{what}: {shown!r} is not a header name", hint="a name is letters, digits and !#$%&'*+.^_`|~- (e.g. -H 'X-Team: qa')")
    if "\r" in value or "\n" in value:
        raise UsageError(f"{what}: the value of {name} has a line break (the value is not shown)", hint="header values are one line")
    if not value.isascii():
        raise UsageError(f"{what}: the value of {name} is not ASCII (the value is not shown)", hint="header names and values travel as ASCII: percent-encode or base64 the value")
    if any(ord(c) < 0x20 and c != "\t" or ord(c) == 0x7F for c in value):
        raise UsageError(f"{what}: the value of {name} holds a control character (the value is not shown)", hint="header values are printable text")
    return name, value


def parse_header(text: str) -> tuple[str, str]:
    """`Name: value` of -H. Errors never quote the value (it is likely a credential): at most the
    name, or the first word of a line without a colon."""
    name, sep, value = text.partition(":")
    if not sep or not name.strip() or any(c.isspace() for c in name.strip()):
        import re

        from a2acli.errors import UsageError

        first = re.match(r"[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}(?=[\s=])", text.strip())  # a name, then something
        shown = f"-H '{first.group()} …'" if first else "an -H value"
        raise UsageError(f"{shown} is not 'Name: value' (the value is not shown)", hint="e.g. -H 'X-Team: qa'; a colon follows the name")
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

        raise UsageError("a --svc-param value is not NAME=VALUE (the value is not shown)", hint="e.g. --svc-param x-trace-id=abc123 (or x-trace-id:abc123)")
    return check_header(name, value, "--svc-param")


def parse_extensions(values: list[str]) -> tuple[str, ...]:
    """`--extension URI` (repeatable, or a comma list): the URIs in order, each once."""
    from a2acli.errors import UsageError

    uris: list[str] = []
    for value in values:
        for uri in str(value).split(","):
            uri = uri.strip()
            if not uri:
                raise UsageError("--extension needs a URI", hint="e.g. --extension https://example.com/ext/v1 (repeatable)")
            if not uri.isascii() or any(c.isspace() or ord(c) < 0x20 or ord(c) == 0x7F for c in uri):
                raise UsageError(f"--extension {uri[:80]!r} is not a URI (a space, a control or a non-ASCII character)", hint="percent-encode it, e.g. https://example.com/ext/v1")
            if uri not in uris:
                uris.append(uri)
    return tuple(uris)


def build_options(raw: dict[str, Any], root: dict[str, Any] | None = None) -> CallOptions:
    """Merge leaf flags over root flags, then resolve env / profile / defaults."""
    from a2acli import settings
    from a2acli.errors import UsageError
    from a2acli.wire import Wire, parse_version_choice
    from a2acli.wire.dialects import get_dialect

    root = root or {}
    merged = {k: (raw.get(k) if raw.get(k) not in (None, False, []) else root.get(k)) for k in COMMON}
    flags = {k.replace("_", "-"): v for k, v in merged.items()}
    flags["strict-origin"] = True if merged.get("strict_origin") else None  # unset: env or profile decides
    res = settings.resolve(flags, merged.get("profile"), merged.get("config"))
    v = res.values
    _learn_secrets(v, res, merged.get("header") or [], merged.get("svc_param") or [])
    try:
        chosen = parse_version_choice(str(v["a2a-version"]))
    except ValueError as e:
        raise UsageError(str(e), hint="--a2a-version 1.0 (default), 0.3, or auto (1.0 when the card offers it, else 0.3)") from None
    wire = chosen or Wire.V1  # auto: 1.0 until the card says otherwise
    try:
        get_dialect(str(v["dialect"]))
    except ValueError as e:
        raise UsageError(str(e), hint="--dialect spec (default) or clix") from None
    transports: list[str] = []
    given = v["transport"]
    for item in given if isinstance(given, (list, tuple)) else str(given or "").split(","):
        for t in str(item).split(","):
            if t.strip():
                from a2acli.wire.bindings import parse_transport

                try:
                    flag = parse_transport(t).flag
                except UsageError as e:
                    raise UsageError(f"{e.message} ({res.sources['transport']})", hint=e.hint) from None
                if flag not in transports:
                    transports.append(flag)
    output = str(v["output"]).lower()
    if output not in settings.OUTPUT_MODES:
        raise UsageError(f"unknown output mode {output!r}", hint="-o auto, text, json or raw")
    if res.warnings:
        from a2acli.render.output import Output

        for warning in res.warnings:
            Output(output).warn(warning)
    as_v = (merged.get("as_version") or "").lower()
    if as_v not in ("", "v1", "1.0"):
        raise UsageError(f"--as {merged['as_version']!r} is not supported", hint="--as v1 (canonical V1 JSON)")
    timeout = settings.parse_timeout(v.get("timeout"), _named("--timeout", res.sources["timeout"]))
    if v["url"] not in (None, ""):
        from a2acli.net import agent_reference

        v["url"] = agent_reference(str(v["url"]))
    if v["catalog"] not in (None, ""):
        settings.check_catalog(v["catalog"], _named("--catalog", res.sources["catalog"]))
    for cname, location in res.catalogs:
        settings.check_catalog(location, f"catalog.{cname} ({res.sources[f'catalog.{cname}']})")
    for name, flag in (("url", "--url"), ("endpoint", "--endpoint")):
        if v[name] not in (None, ""):
            settings.check_url(str(v[name]), _named(flag, res.sources[name]), files=name == "url", grpc=name == "endpoint" and (transports or ["jsonrpc"])[0] == "grpc")
    for name in ("api-key", "bearer"):
        _check_credential(v[name], _named(f"--{name}", res.sources[name]))
    max_body = settings.parse_size(v["max-body"], f"--max-body ({res.sources['max-body']})" if res.sources["max-body"] != "flag" else "--max-body")
    headers = [check_header(n, val, f"header.{n} ({res.sources[f'header.{n}']})") for n, val in res.profile_headers]
    headers += [parse_svc_param(p) for p in (merged.get("svc_param") or [])]
    headers += [parse_header(h) for h in (merged.get("header") or [])]
    if v["basic"] and ":" not in str(v["basic"]):
        raise UsageError(f"--basic must be USER:PASSWORD ({res.sources['basic']})", hint="e.g. --basic alice:s3cret, or A2ACLI_BASIC=alice:s3cret")
    basic, bearer = v["basic"], v["bearer"]
    if basic and bearer:  # both set Authorization: the higher source wins, a tie is an error
        rb, rt = res.rank["basic"], res.rank["bearer"]
        if rb == rt:
            raise UsageError(
                f"--basic ({res.sources['basic']}) and --bearer ({res.sources['bearer']}) both set Authorization",
                hint="pass one of them",
            )
        basic, bearer = (basic, None) if rb < rt else (None, bearer)
    paths = {}
    for name in ("cacert", "cert", "key"):
        if v[name]:
            from pathlib import Path

            p = Path(str(v[name])).expanduser()
            if not p.is_file():
                raise UsageError(f"--{name} {v[name]}: no such file ({res.sources[name]})", hint=f"give the path of a PEM file to --{name}")
            paths[name] = str(p)
    if paths.get("key") and not paths.get("cert"):
        raise UsageError("--key needs --cert", hint="--cert PATH is the client certificate, --key PATH its private key")
    return CallOptions(
        url=v["url"],
        catalog=v["catalog"] or None,
        catalogs=res.catalogs,
        endpoint=v["endpoint"],
        transports=tuple(transports),
        wire=wire,
        version_auto=chosen is None,
        dialect_name=str(v["dialect"]).lower(),
        headers=tuple(headers),
        extensions=parse_extensions(merged.get("extension") or []),
        api_key=v["api-key"],
        bearer=bearer,
        basic=basic,
        cacert=paths.get("cacert"),
        cert=paths.get("cert"),
        key=paths.get("key"),
        oauth=tuple(sorted(res.auth.items())),
        timeout=timeout,
        max_body=max_body,
        insecure=bool(merged.get("insecure")),
        strict_origin=settings.parse_bool(v["strict-origin"], res.sources["strict-origin"]),
        plaintext=bool(merged.get("plaintext")),
        output=output,
        as_v1=bool(as_v),
        offline=bool(merged.get("offline")),
        dump=v["dump"],
        debug=bool(merged.get("debug")),
        verbose=bool(merged.get("verbose")),
        profile=res.profile,
        config=merged.get("config") or None,
        sources=res.sources,
        values={**res.values, "transport": ",".join(transports) or None},
        resolved=res,
    )


def _learn_secrets(v: dict[str, Any], res: Any, header_args: list[str], svc_params: list[str]) -> None:
    """Every secret of the command line, environment and profile, told to the invocation's
    redactor before anything is checked: a usage error quoting one shows `<redacted>`."""
    from a2acli.redact import active

    r = active()
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


def common_parameters() -> list[inspect.Parameter]:
    return [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=ann) for name, (ann, default) in COMMON.items()]


def method_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Give a command the shared options; it receives them merged as `opts: CallOptions`."""
    sig = inspect.signature(fn, eval_str=True)
    own = [p for p in sig.parameters.values() if p.name not in ("opts", "ctx")]
    wants_ctx = "ctx" in sig.parameters
    ctx_param = inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context)

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        ctx = kwargs.pop("ctx")
        raw = {k: kwargs.pop(k) for k in list(kwargs) if k in COMMON}
        root = ctx.find_root().obj if isinstance(ctx.find_root().obj, dict) else {}

        from a2acli.commands._run import boundary

        with boundary(output_hint=raw.get("output") or root.get("output"), debug=bool(raw.get("debug") or root.get("debug"))):
            opts = build_options(raw, root)
        if wants_ctx:
            kwargs["ctx"] = ctx
        return fn(*args, opts=opts, **kwargs)

    return with_signature(wrapper, sig.replace(parameters=[ctx_param] + own + common_parameters()))


def with_signature(fn: Callable[..., Any], sig: inspect.Signature) -> Callable[..., Any]:
    """Make Typer read `sig` (annotations already evaluated) instead of fn's own."""
    fn.__signature__ = sig  # type: ignore[attr-defined]
    fn.__annotations__ = {p.name: p.annotation for p in sig.parameters.values() if p.annotation is not inspect.Parameter.empty}
    if hasattr(fn, "__wrapped__"):
        del fn.__wrapped__
    return fn
