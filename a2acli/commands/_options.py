"""The options every method command shares: each row of the settings table as a Typer option
(`option`, which `commands.shared` names as `Annotated` aliases), their completion and help, and
how the values given resolve into one frozen CallOptions (`build_options`, which this
invocation calls once: `commands.invocation`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import typer

from a2acli.pipeline.options import CallOptions
from a2acli.settings.table import OPTIONS, PS, Setting

__all__ = ["PS", "CallOptions", "build_options", "option"]


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

        res = settings.resolve(
            {"catalog": ctx.params.get("catalog")}, ctx.params.get("profile"), ctx.params.get("config")
        )
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
    return typer.Option(
        "--force",
        help=f"{what} even when the Agent Card does not claim the capability it needs (an agent whose card is wrong).",
        rich_help_panel=panel,
    )


def poll_seconds(text: str) -> float:
    """--poll-interval in seconds (a usage error, reported like the others, when it is not a duration)."""
    from a2acli import settings

    return settings.parse_poll_interval(text)


def effective_default_text(setting: str, scope: dict[str, Any] | None = None) -> str:
    """`(default: 1.0; env: A2ACLI_A2A_VERSION)`, or, when the environment or the active profile
    sets it, `(default: 0.3, from env A2ACLI_A2A_VERSION)`. Secrets say only that they are set.
    `scope`: the --profile and --config of this invocation (none: the built-in default)."""
    from a2acli import settings

    s = settings.SETTINGS[setting]
    found = _effective_defaults(scope or {}) if scope is not None else {}
    value, source = found.get(setting, (s.default, "default"))
    if source == "default":
        return f"(default: {value}; env: {s.env})" if value is not None else f"(env: {s.env})"
    shown = "set" if s.secret else f"default: {value}"
    if source.startswith(("profile ", "agent ")):  # `profile p (global PATH)`: the section is enough here
        source = source.split(" (", 1)[0]
    return f"({shown}, from {source})" if source.startswith("env") else f"({shown}, from {source}; env: {s.env})"


_DEFAULTS_CACHE: dict[Any, dict[str, tuple[Any, str]]] = {}


def _effective_defaults(scope: dict[str, Any]) -> dict[str, tuple[Any, str]]:
    """Each setting's value and source without flags, for this invocation's --profile and --config."""
    import os

    from a2acli import settings

    path = settings.config_path()
    try:
        stamp: Any = path.stat().st_mtime_ns
    except OSError:
        stamp = None
    key = (
        tuple(sorted((k, v) for k, v in os.environ.items() if k.startswith("A2ACLI_"))),
        str(path),
        stamp,
        scope.get("profile"),
        scope.get("config"),
        _cwd(),
    )
    if key not in _DEFAULTS_CACHE:
        try:
            res = settings.resolve({}, scope.get("profile"), scope.get("config"))
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


# The options of comparing two dumps, which `a2a diff` and `a2a replay` share.
KeepIdsOpt = Annotated[
    bool,
    typer.Option(
        "--keep-ids",
        help="Keep generated values (JSON-RPC ids, message/task/context ids, timestamps, Date…) instead of placeholders.",
    ),
]
IgnoreOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--ignore",
        help="Leave out paths matching this pattern, * matching anything (e.g. '*.data.id'); repeatable.",
        show_default=False,
        metavar="PATTERN",
    ),
]
ContextOpt = Annotated[int, typer.Option("--context", "-U", help="Lines of context around each change.", min=0)]
CardOpt = Annotated[
    bool,
    typer.Option("--card", help="Compare the card fetches too (each version serves its own card: not by default)."),
]
VerboseAsideOpt = Annotated[
    bool,
    typer.Option(
        "--verbose", "-v", help="Show the differences that do not count too (what the compared variable implies)."
    ),
]


def option_help(s: Setting, scope: dict[str, Any] | None = None) -> str:
    """The help of one shared option: a setting's ends with its default and its environment
    variable; given this invocation's `scope` (its --profile and --config), with the default in
    effect and where it comes from (`a2a help options`)."""
    return f"{s.help} {effective_default_text(s.name, scope)}" if s.setting else s.help


def _completing() -> bool:
    """Whether the shell asks this run for completions (`_A2A_COMPLETE`, commands.completion)."""
    import os

    from a2acli.commands.completion import COMPLETE_VAR

    return bool(os.environ.get(COMPLETE_VAR))


def option(name: str) -> Any:
    """The Typer option of one row of the settings table (`commands.shared` names each as an
    `Annotated` alias). It is hidden from a command's --help, which folds the shared options into
    one closing section (`shared_help`; `a2a help options` explains them, docs/reference.md lists
    them), except when the shell asks for completions: completion offers no hidden option."""
    s = OPTIONS[name]
    completing = _completing()  # a completer is read only when the shell asks for words (Typer inspects each)
    completers: dict[str, Callable[..., list[str]]] = {"agents": complete_agents, "profiles": complete_profiles}
    completer = completers.get(s.complete)
    return typer.Option(
        f"--{s.name}",
        *s.flags,
        help=option_help(s),
        rich_help_panel=s.panel,
        show_default=False,
        metavar=s.metavar,
        autocompletion=(completer or (complete_from(lambda: s.choices) if s.choices else None)) if completing else None,
        hidden=not completing,
    )


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


class Refused(typer.BadParameter):
    """A value a check of `settings.values` refused while Typer parsed the command line: said in
    the check's own words (they name the option) with its hint (commands._run.usage_error)."""

    def __init__(self, message: str, hint: str | None) -> None:
        super().__init__(message)
        self.hint = hint

    def format_message(self) -> str:
        return self.message


def typed(check: Callable[[str, str], Any], what: str) -> Callable[[str], Any]:
    """The Typer `parser=` of a command's own option or argument: `check(value, what)` from
    `settings.values`, so a bad value is a usage error (exit 2) before anything is sent."""
    from a2acli.errors import UsageError

    def parse(value: str) -> Any:
        try:
            return check(value, what)
        except UsageError as e:
            raise Refused(e.message, e.hint) from None

    parse.__name__ = "str"  # Click names the value's type after its parser: help says <str>, as of a plain str
    return parse


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


def build_options(raw: dict[str, Any], root: dict[str, Any] | None = None) -> CallOptions:
    """Merge leaf flags over root flags, resolve env / profile / files / defaults (settings), parse
    each setting by its row of the table, then apply the rules that tie settings together."""
    from a2acli import settings
    from a2acli.settings.values import named, parse_setting

    merged = _merged(raw, root or {})
    flags = {s.name: merged[s.arg] for s in OPTIONS.values() if s.setting}
    for s in _SWITCH_SETTINGS:  # a switch not given: env or profile decides
        flags[s.name] = True if merged.get(s.arg) else None
    res = settings.resolve(flags, merged.get("profile"), merged.get("config"))
    v = res.values
    _learn_secrets(v, res, merged.get("header") or [], merged.get("svc_param") or [])
    parsed = {
        s.arg: parse_setting(s.name, v[s.name] if s.setting else merged[s.arg], res.sources.get(s.name, "flag"))
        for s in _PARSED
    }
    v["url"] = parsed["url"]  # an agent reference as it will be read (host:port -> https://host:port, loopback http://)
    wire, version_auto = _version(v, res)
    transports = list(parsed["transport"])  # settings.values.parse_transports, the one reading
    if res.warnings:
        from a2acli.render.output import Output

        for warning in res.warnings:
            Output(parsed["output"]).warn(warning)
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
        arg: value for arg, value in parsed.items() if arg in CallOptions._fields and arg not in ("basic", "bearer")
    }
    return CallOptions(
        **fields,
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


# The shared options a command's --help names in its closing section, most used first.
SHARED_NAMED = (
    "-u/--url",
    "--transport",
    "--a2a-version",
    "-H",
    "--api-key",
    "--bearer",
    "--timeout",
    "-o/--output",
    "-q/--quiet",
    "--offline",
    "--dump",
    "--debug",
)


def flag_of(arg: str) -> str:
    """The first flag of a shared option (`--url` of "url"), by its parameter name."""
    return next(f"--{s.name}" for s in OPTIONS.values() if s.arg == arg)


def shared_help(
    names: tuple[str, ...] | None = None,
    lead: str = "Also takes the shared options",
    scope: dict[str, Any] | None = None,
) -> str:
    """The closing section of the help of a command that takes the shared options (gh's
    INHERITED FLAGS): the most used ones by name (`names`: the few this command takes), where
    all of them are explained, and the values in effect that are not the built-in default (from
    the environment or a profile; `scope`: this invocation's --profile and --config)."""
    if names is None:
        lines = [
            f"Shared options: {', '.join(SHARED_NAMED)} and {len(OPTIONS) - len(SHARED_NAMED)} more, before or after the command; `a2a help options` explains each."
        ]
    else:
        lines = [f"{lead} {', '.join(flag_of(n) for n in names)}; `a2a help options` explains each."]
    if scope is not None:
        from a2acli import settings

        set_here = []
        for name, (value, source) in sorted(_effective_defaults(scope).items()):
            s = settings.SETTINGS.get(name)
            if (
                s is None
                or source == "default"
                or value in (None, "")
                or names is not None
                and name.replace("-", "_") not in names
            ):
                continue
            shown = "set" if s.secret else str(value)
            set_here.append(f"--{name} {shown} ({source.split(' (', 1)[0]})")
        if set_here:
            from rich.markup import escape  # help is rendered by rich: a value's brackets are not markup

            lines.append(escape("In effect: " + "; ".join(set_here) + "."))
    return "\n\n".join(lines)
