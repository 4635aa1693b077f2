"""One invocation of `a2a`, headless: the shared options as given, resolved once, what is built
from them (the `Output`), the environment the run sees, the call in flight and the last error.

A face builds one per run and hands it to the flows (`flows.runs`: each is a function of this
invocation and its own typed arguments). The CLI (`commands/`) makes it in `registry.RootGroup.main`
and keeps it in Click's `obj` (`commands.invocation.invocation(ctx)` reads it): the root's class
adds the shared options given before the command, the command's class (`registry.Command.invoke`)
those given after it, and opens the error boundary with it. `options()` resolves every setting once
(flag > env > local file > global file > default) into a `CallOptions`, with each value's source
(`CallOptions.sources`); `output()` builds the command's `Output` once; `output_mode()` is where
`-o` is asked (the boundary and the usage-error path ask it too, so `output = "json"` in a config
file reaches them): the resolved options' value; before they are resolved, the same setting read
the same way, without failing.

`a2a diff -- COMMAND` runs a command's flow twice: it parses the command with an invocation that
captures (`capturing()`), and the command hands its flow and arguments to `run`, which records
them instead of running them (`Captured`); each side then runs the flow with an invocation of its
own (`flows.boundary.run_captured`).

The binding is not resolved here: it is chosen from the Agent Card's interfaces, which only the
session reads. The invocation holds the preference (`CallOptions.transports`, `--transport` in
order; `CallOptions.preferred_binding`), the session the binding chosen (`Call.target.binding`)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

from a2acli.settings.table import OPTIONS

if TYPE_CHECKING:
    from pathlib import Path

    from a2acli.errors import A2acliError
    from a2acli.pipeline.options import CallOptions
    from a2acli.pipeline.session import Call
    from a2acli.redact import Redactor
    from a2acli.render.output import Output

ARGS = frozenset(s.arg for s in OPTIONS.values())  # the parameter names of the shared options
LISTS = frozenset(s.arg for s in OPTIONS.values() if s.kind == "list")  # the repeatable ones (-H, --transport…)


class Environment:
    """What the run sees of its surroundings, read when asked (nothing here costs start-up): its
    streams, whether they are terminals, the terminal's width, the config and cache directories,
    and the clock."""

    __slots__ = ("stdout", "stderr", "stdin")

    def __init__(self, stdout: TextIO | None = None, stderr: TextIO | None = None, stdin: TextIO | None = None) -> None:
        self.stdout, self.stderr, self.stdin = stdout, stderr, stdin

    def streams(self) -> tuple[TextIO, TextIO, TextIO]:
        """(stdin, stdout, stderr): the ones given, else the process's as they are now (a test's
        runner swaps them)."""
        return (self.stdin or sys.stdin, self.stdout or sys.stdout, self.stderr or sys.stderr)

    def tty(self, stream: TextIO | None = None) -> bool:
        """Whether `stream` (stdout by default) is a terminal (render.output's test)."""
        from a2acli.render.output import _isatty

        return _isatty(stream or self.streams()[1])

    def width(self) -> int:
        """The terminal's width in columns (COLUMNS, else the terminal's, else 80)."""
        import shutil

        return shutil.get_terminal_size().columns

    def config_path(self) -> Path:
        """The global config file (settings.config_path: XDG_CONFIG_HOME/a2acli/config.toml…; a
        UsageError when there is none to name: no home directory)."""
        from a2acli.settings import config_path

        return config_path()

    def cache_dir(self) -> Path | None:
        """The platform's cache directory for a2a (settings.cache_dir; None: none to name)."""
        from a2acli.settings import cache_dir

        return cache_dir()

    @staticmethod
    def clock() -> float:
        """Seconds on the monotonic clock (deadlines and waits)."""
        import time

        return time.monotonic()


class Captured:
    """A flow and its arguments, as a command line asked for them and not run (`a2a diff -- CMD`
    runs it twice, with two option sets: no argv rebuilt, no stdout scraped)."""

    def __init__(
        self, flow: Callable[..., int | None], args: tuple[Any, ...], kwargs: dict[str, Any], opts: CallOptions
    ) -> None:
        self.flow, self.args, self.kwargs, self.opts = flow, args, kwargs, opts  # (run: flows.boundary.run_captured)


class Invocation:
    """The shared options of one invocation and what they resolve to, each worked out once; the
    environment; the call in flight and the last error said."""

    def __init__(
        self, given: dict[str, Any] | None = None, env: Environment | None = None, redactor: Redactor | None = None
    ) -> None:
        self._redactor = redactor  # this run's (`redactor`, made on first use): told every secret, masks every output
        self.given: dict[str, Any] = {}  # shared options given on the command line, by parameter name
        self.env = env or Environment()
        self.opts: CallOptions | None = None  # resolved (options())
        self.out: Output | None = None  # the command's Output (output())
        self._mode: str | None = None
        self.refused: Exception | None = None  # a command line refused before parsing (bytes not UTF-8)
        self.captured: list[Captured] | None = None  # `a2a diff -- CMD`: the flow a command asks for, not run
        # a command whose exit code is a verdict (diff, replay, check): that code, set before its
        # report is written, so a reader that leaves early (`| head`) does not turn it into a pass
        self.verdict: int | None = None
        self.error: A2acliError | None = None  # the error its boundary said last (`a2a diff -- CMD` reads a side's)
        # the session in flight (flows.runs.session sets it): a Ctrl-C or a timeout names its task,
        # an auth error is explained from it; it stays past its close, for the boundary's report
        self.call: Call | None = None
        self.add(given or {})

    def add(self, params: dict[str, Any]) -> Invocation:
        """Shared options a command was given (`ctx.params`): those after the command win over the
        root's (before it), but a repeatable one (-H, --transport, --svc-param, --extension) adds
        its values to those given before, in command-line order (`a2a -H A send -H B` sends both,
        as `a2a send -H A -H B` does); a parameter that was not given changes nothing."""
        for name, value in params.items():
            if name in ARGS and value not in (None, False, [], ()):
                before = self.given.get(name) if name in LISTS else None
                self.given[name] = [*before, *value] if before else value
                self._mode = None
        return self

    def capturing(self) -> Invocation:
        """This invocation records the flow its command asks for instead of running it (`run`)."""
        self.captured = []
        return self

    def run(self, flow: Callable[..., int | None], *args: Any, **kwargs: Any) -> int:
        """Run `flow(self, *args, **kwargs)`: its exit code (None is 0). When capturing, the flow
        and its arguments are recorded instead, with the options resolved, and 0 is returned."""
        if self.captured is not None:
            self.captured.append(Captured(flow, args, kwargs, self.options()))
            return 0
        return flow(self, *args, **kwargs) or 0

    @property
    def debug(self) -> bool:
        return bool(self.opts.debug if self.opts is not None else self.given.get("debug"))

    def output_mode(self) -> str:
        """-o: the resolved options' (build_options reads it with every other setting, the one
        source); before they are resolved, the same setting read the same way without failing
        (`_decide_output`): an unknown mode or a broken config file is reported where the options
        are resolved, and here falls back to the environment, then auto."""
        if self.opts is not None:
            return str(self.opts.output)
        if self._mode is None:
            self._mode = _decide_output(self.given)
        return self._mode

    def options(self) -> CallOptions:
        """Every shared option resolved and parsed (settings table), once."""
        if self.opts is None:
            from a2acli.pipeline.options import build_options

            self.opts = build_options(self.given, warn=self._warn, redactor=self.redactor)
        return self.opts

    def output(self, among: tuple[type, ...] | None = None, otherwise: type | None = None) -> Output:
        """The command's Output, built once: every mode, or one of `among` (a command that offers
        only some modes), else `otherwise` (`render.output.pick`). It writes to the environment's
        streams (`Environment`: the ones a face gave, else the process's)."""
        if self.out is None:
            from a2acli.render.output import Output, pick

            opts = self.opts
            verbose, quiet = (opts.verbose, opts.quiet) if opts is not None else (False, self._quiet())
            mode = self.output_mode()
            stdout, stderr = self.env.stdout, self.env.stderr  # None: the process's
            if among is None:
                self.out = Output(
                    mode, verbose=verbose, quiet=quiet, redactor=self.redactor, stdout=stdout, stderr=stderr
                )
            else:
                chosen = pick(mode, among=among) if otherwise is None else pick(mode, among=among, otherwise=otherwise)
                self.out = chosen(quiet=quiet, redactor=self.redactor, stdout=stdout, stderr=stderr)
        return self.out

    def checked_output(self, among: tuple[type, ...]) -> Output:
        """output(among) for a command that resolves no options (`diff` of two dumps, `auth`):
        an unknown -o or A2ACLI_OUTPUT is refused as build_options refuses it, not read as auto."""
        if self.opts is None:
            from a2acli.settings.files import environ
            from a2acli.settings.values import parse_setting

            given = self.given.get("output") or environ("output")
            if given:
                parse_setting("output", given)  # UsageError: unknown output mode
        return self.output(among=among)

    def _quiet(self) -> bool:
        """-q before the options are resolved: as given, else A2ACLI_QUIET (the settings' boolean)."""
        if self.given.get("quiet"):
            return True
        from a2acli.settings.files import environ
        from a2acli.settings.values import parse_bool

        return parse_bool(environ("quiet") or "", "A2ACLI_QUIET")

    def error_output(self) -> Output:
        """Where an error is said: the command's Output once it has one, else one of the mode."""
        if self.out is not None:
            return self.out
        return self.bare_output(self.output_mode())

    def bare_output(self, mode: str | None = None) -> Output:
        """An Output of `mode` (auto by default) that masks through this run's redactor: a command's
        own (a report in text whatever -o says), not the one `output()` builds. It writes to the
        environment's streams, as `output()`'s does."""
        from a2acli.render.output import Output

        return Output(mode, redactor=self.redactor, stdout=self.env.stdout, stderr=self.env.stderr)

    @property
    def redactor(self) -> Redactor:
        """This invocation's redactor (`a2acli.redact`): every secret given or learned is told to
        it, and every Output, option set and session of the run masks through it."""
        if self._redactor is None:
            from a2acli.redact import Redactor

            self._redactor = Redactor()
        return self._redactor

    def _warn(self, mode: str, text: str) -> None:
        """What the config files warn of, on stderr in the run's output mode."""
        self.bare_output(mode).warn(text)


def _decide_output(given: dict[str, Any]) -> str:
    """-o before the options are resolved (an error said before, or while, resolving them): the
    setting as build_options reads it (settings.resolve's precedence, then the row's parser), but
    never an error: a broken config file or a missing profile falls back to the files' top level,
    then the flag or A2ACLI_OUTPUT; an unknown mode to auto."""
    from a2acli import settings
    from a2acli.errors import UsageError
    from a2acli.settings.files import environ
    from a2acli.settings.values import parse_setting

    flag = given.get("output")
    value = flag or environ("output")
    for profile in dict.fromkeys((given.get("profile"), None)):  # a profile that is not there: the files' top level
        try:
            res = settings.resolve({"output": flag}, profile, given.get("config"))
        except Exception:  # noqa: S112  # a broken file, a missing profile: said when the options are resolved
            continue
        value = res.values.get("output")
        break
    try:
        return str(parse_setting("output", value or "auto"))
    except UsageError:
        return "auto"
