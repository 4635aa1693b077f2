"""The options every method command shares: each row of the settings table as a Click option
(`click_option`, which the command's class declares: `commands.shared`), their completion and help.
The values given resolve into one frozen CallOptions in the run's Invocation, once
(`flows.invocation.Invocation.options`: `pipeline.options.build_options`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import typer

from a2acli.pipeline.options import CallOptions
from a2acli.settings.table import OPTIONS, PS, Setting

__all__ = ["PS", "CallOptions", "click_option"]


def complete_from(choices: Any) -> Callable[[str], list[str]]:
    def complete(incomplete: str) -> list[str]:
        return [c for c in choices() if c.startswith(incomplete)]

    return complete


def complete_profiles(ctx: typer.Context, incomplete: str) -> list[str]:
    """Profile names from the config files a run reads: the `--config FILE` given on the line
    (before the command or after it; else A2ACLI_CONFIG, else the local file found) and the two
    files of the user's config directory (flows.agents.profiles)."""
    from a2acli.flows.agents import profiles

    given: Any = ctx
    config = None
    while given is not None and config is None:  # the command's, then its groups', the root's
        config = (given.params or {}).get("config")
        given = given.parent
    try:
        names = profiles(config)
    except Exception:  # a broken or missing config file completes nothing
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


def port_number(value: str | int) -> int:
    """A listener's TCP port, 0 (a free one) to 65535: a parser with the metavar PORT, not `min`/`max`,
    which Typer shows beside the metavar (`<int range> [0<=x<=65535]`, a third of the help's width)."""
    text = str(value).strip()
    if not text.isdigit() or int(text) > 65535:
        raise typer.BadParameter(f"{text!r} is not a port number (0 for a free one, up to 65535)")
    return int(text)


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
    from a2acli import settings
    from a2acli.settings.files import environ_snapshot

    try:
        path = settings.global_config_path()  # None: no home directory, no global file
    except Exception:  # A2ACLI_GLOBAL_CONFIG=~/… and no home to expand it to: said when a command runs
        path = None
    try:
        stamp: Any = path.stat().st_mtime_ns if path else None
    except OSError:
        stamp = None
    key = (
        environ_snapshot(),
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
ContextOpt = Annotated[
    int, typer.Option("--context", "-U", help="Lines of context around each change.", min=0, metavar="N")
]
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

    from a2acli.commands import COMPLETE_VAR

    return bool(os.environ.get(COMPLETE_VAR))


def click_option(name: str) -> Any:
    """One row of the settings table as the Click option a command's class declares
    (`registry.Command`, for a command marked `shared.takes_shared`; the root's), built as Typer
    builds an option from a signature (`typer.core.TyperOption`). It is hidden from a command's
    --help, which folds the shared options into one closing section (`shared_help`; `a2a help
    options` explains them, docs/reference.md lists them), except when the shell asks for
    completions: completion offers no hidden option. Its value reaches the command through this
    invocation (`registry.Command.invoke`), never as a parameter."""
    s = OPTIONS[name]
    completing = _completing()  # a completer is read only when the shell asks for words
    completer: Callable[..., list[str]] | None = None
    if completing and s.complete == "agents":
        completer = lambda ctx, args, incomplete: complete_agents(ctx, incomplete)  # noqa: E731
    elif completing and s.complete == "profiles":
        completer = lambda ctx, args, incomplete: complete_profiles(ctx, incomplete)  # noqa: E731
    elif completing and s.choices:
        words = complete_from(lambda: s.choices)
        completer = lambda ctx, args, incomplete: words(incomplete)  # noqa: E731
    switch = s.kind == "switch"
    return typer.core.TyperOption(
        param_decls=[s.arg, f"--{s.name}", *s.flags],
        type=None,  # a switch's BOOL, else Click's STRING: the types Typer gives bool and str
        default=False if switch else None,
        is_flag=True if switch else None,
        multiple=s.kind == "list",
        help=option_help(s),
        rich_help_panel=s.panel,
        show_default=False,
        metavar=s.metavar,
        autocompletion=completer,
        hidden=not completing,
        show_envvar=True,  # typer.Option's default
    )


class RefusedValue(typer.BadParameter):
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
            raise RefusedValue(e.message, e.hint) from None

    parse.__name__ = "str"  # Click names the value's type after its parser: help says <str>, as of a plain str
    return parse


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
