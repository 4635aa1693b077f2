"""One invocation of `a2a`: the shared options as given on the command line, resolved once, and
what is built from them (the `Output`, the redactor).

The shared options are declared once, on the command's class (`registry.Command`, for a function
marked `shared.takes_shared`; the root's, `registry.RootGroup`): the root's class puts this
invocation in `ctx.obj` with the options given before the command, and the command's class
(`registry.Command.invoke`) takes those given after it out of the parsed parameters, adds them
(the function never sees them), then opens the error boundary with it. A command takes it with
`invocation(ctx)`: `options()` resolves every setting once (flag > env > local file > global
file > default) into a `CallOptions`, `output()` builds the command's
`Output` once, and `output_mode()` is where `-o` is asked (the boundary and the usage-error path
ask it too, so `output = "json"` in a config file reaches them): the resolved options' value, read
by `build_options` with every other setting; before they are resolved, the same setting read the
same way, without failing.

The binding is not resolved here: it is chosen from the Agent Card's interfaces, which only the
session reads. The invocation holds the preference (`CallOptions.transports`, `--transport` in
order; `CallOptions.preferred_binding`), the session the binding chosen (`Call.target.binding`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from a2acli.settings.table import OPTIONS

if TYPE_CHECKING:
    import typer

    from a2acli.pipeline.options import CallOptions
    from a2acli.render.output import Output

ARGS = frozenset(s.arg for s in OPTIONS.values())  # the parameter names of the shared options


class Invocation:
    """The shared options of one invocation and what they resolve to, each worked out once."""

    def __init__(self, given: dict[str, Any] | None = None) -> None:
        self.given: dict[str, Any] = {}  # shared options given on the command line, by parameter name
        self.opts: CallOptions | None = None  # resolved (options())
        self.out: Output | None = None  # the command's Output (output())
        self._mode: str | None = None
        self.refused: Exception | None = None  # a command line refused before parsing (bytes not UTF-8)
        self.capture: list[Any] | None = None  # `a2a diff -- CMD`: the entry point the command calls goes here, not run
        # a command whose exit code is a verdict (diff, replay, check): that code, set before its
        # report is written, so a reader that leaves early (`| head`) does not turn it into a pass
        self.verdict: int | None = None
        self.error: Any = None  # the A2acliError its boundary said last (`a2a diff -- CMD` reads a side's)
        self.add(given or {})

    def add(self, params: dict[str, Any]) -> Invocation:
        """Shared options a command was given (`ctx.params`): those after the command win over the
        root's (before it); a parameter that was not given changes nothing."""
        for name, value in params.items():
            if name in ARGS and value not in (None, False, [], ()):
                self.given[name] = value
                self._mode = None
        return self

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
            from a2acli.commands._options import build_options

            self.opts = build_options(self.given)
            if self.capture is not None:  # carried by the options to the command's entry point
                self.opts = self.opts._replace(capture=self.capture)
        return self.opts

    def output(self, among: tuple[type, ...] | None = None, otherwise: type | None = None) -> Output:
        """The command's Output, built once: every mode, or one of `among` (a command that offers
        only some modes), else `otherwise` (`render.output.pick`)."""
        if self.out is None:
            from a2acli.render.output import Output, pick

            opts = self.opts
            verbose, quiet = (opts.verbose, opts.quiet) if opts is not None else (False, self._quiet())
            mode = self.output_mode()
            if among is None:
                self.out = Output(mode, verbose=verbose, quiet=quiet)
            else:
                chosen = pick(mode, among=among) if otherwise is None else pick(mode, among=among, otherwise=otherwise)
                self.out = chosen(quiet=quiet)
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
        from a2acli.render.output import Output

        return Output(self.output_mode())

    @property
    def redactor(self) -> Any:
        """This invocation's redactor (`a2acli.redact`: every secret given is told to it)."""
        from a2acli.redact import active

        return active()


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


def invocation(ctx: typer.Context) -> Invocation:
    """This invocation, from the root's `ctx.obj` (made here when the root did not run: a usage
    error Typer found first)."""
    root = ctx.find_root()
    if not isinstance(root.obj, Invocation):
        root.obj = Invocation(root.params)
    inv: Invocation = root.obj
    return inv
