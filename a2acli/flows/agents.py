"""Which agent a face calls, and with what: the options of one call resolved as the command line's
are (pipeline.options.build_options: flag > env > local file > global file > default), from what a
face that has no command line gives: an agent (a URL, or the name of a configured profile), the A2A
version, the binding, a timeout. Credentials are never among them: they come from the profile, the
config files and the environment alone, and go only where their section's scoping sends them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from a2acli.errors import UsageError

if TYPE_CHECKING:
    from a2acli.pipeline.options import CallOptions

VERSIONS = ("1.0", "0.3")  # what a face offers to choose (auto: the card decides, a2a's default when none given)


def profiles(config: str | None = None) -> list[str]:
    """The profile names the config files define, read as a run reads them (settings.resolve: the
    local file, `--config FILE` or A2ACLI_CONFIG, else the one found from here up; and the global
    files): a name any of them defines is a profile a run can select."""
    from a2acli.settings.files import global_files, local_files

    files = local_files(config, []) + global_files([])
    return sorted({str(name) for f in files if isinstance(f.data.get("profiles"), dict) for name in f.data["profiles"]})


def new_redactor() -> Any:
    """A new run's redactor (`redact.Redactor`): a face's unit of work (an `a2a mcp` tool call)
    owns one, hands it to `options`, and masks what it reports through it."""
    from a2acli.redact import Redactor

    return Redactor()


def options(
    base: Mapping[str, Any] | None = None,
    *,
    agent: str | None = None,
    a2a_version: str | None = None,
    binding: str | None = None,
    timeout: float | None = None,
    warn: Callable[[str], None] | None = None,
    redactor: Any = None,
) -> CallOptions:
    """The options of one call: `base` (the shared options the face was started with, by
    parameter name: `profile`, `config`, `url`…), then `agent` (a profile's name selects that
    profile, anything else is the agent's URL, as -u reads it; either way it replaces the base's
    `url` and `endpoint`), `a2a_version` ("1.0", "0.3" or
    "auto"), `binding` (a --transport spelling: jsonrpc, rest, grpc) and `timeout` (seconds, the
    whole call). `warn` hears what the config files warn of; `redactor` (the run's: a tool call's
    in `a2a mcp`) is told every secret the options hold, and they carry it to their session."""
    from a2acli.pipeline.options import build_options

    given: dict[str, Any] = dict(base or {})
    if agent:  # the call's agent replaces the face's (its -u, --endpoint): a flag's URL would beat the profile's
        given.pop("url", None)
        given.pop("endpoint", None)
        if agent in profiles(given.get("config")):
            given["profile"] = agent
        else:
            given["url"] = agent
    if a2a_version:
        given["a2a_version"] = a2a_version
    if binding:
        given["transport"] = [binding]
    if timeout is not None:
        if timeout <= 0:
            raise UsageError(f"timeout {timeout:g} is not a positive number of seconds", hint="e.g. timeout 30")
        given["timeout"] = f"{timeout:g}s"
    return build_options(given, warn=None if warn is None else lambda _mode, text: warn(text), redactor=redactor)


def serving(base: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The base of a face that serves many calls from one start (`a2a mcp`): its settings checked
    once, now (a bad one is a UsageError before anything is served); and when they name a dump
    directory (--dump, A2ACLI_DUMP), the server is one run: a dump another run left there is
    refused now, once, and each call adds its exchanges to the dump (`dump_append`), instead of
    the second call being refused for the first one's."""
    given = dict(base or {})
    opts = options(given)
    if opts.dump:
        from a2acli.recording.record import refuse_held_dump

        refuse_held_dump(opts.dump, opts.dump_append)
        given["dump_append"] = True
    return given


def bindings() -> tuple[str, ...]:
    """The bindings a face offers to choose, as --transport spells them (the binding table's rows)."""
    from a2acli.wire.bindings import BINDINGS

    return tuple(b.flag for b in BINDINGS)
