"""`a2a diff` (two dumps, or one command run under 1.0 and 0.3) and `a2a translate` (one document
from one version to the other). The comparing lives in a2acli/recording/diff.py, the translating in
a2acli/wire/translate; this module only reads arguments and prints."""

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from a2acli.commands._options import CardOpt, ContextOpt, IgnoreOpt, KeepIdsOpt, VerboseAsideOpt

# The connection options of every method command, accepted by `diff` (`diff.shared_options`: its
# class declares them, commands.shared) and given to both runs.
FORWARDED = (
    "url",
    "endpoint",
    "transport",
    "a2a_version",
    "dialect",
    "header",
    "svc_param",
    "extension",
    "api_key",
    "bearer",
    "timeout",
    "insecure",
    "profile",
)
_FLAGS = {
    "url": "--url",
    "endpoint": "--endpoint",
    "transport": "--transport",
    "a2a_version": "--a2a-version",
    "dialect": "--dialect",
    "header": "-H",
    "svc_param": "--svc-param",
    "extension": "--extension",
    "api_key": "--api-key",
    "bearer": "--bearer",
    "timeout": "--timeout",
    "insecure": "--insecure",
    "profile": "--profile",
}
# Flags `diff` sets itself on each run.
_OWN_FLAGS = ("--a2a-version", "--dump", "--output", "-o", "--offline")  # and --transport with two of them
_NOT_METHODS = ("diff", "translate", "demo-server")
SIDES = (("v1", "1.0"), ("v0", "0.3"))

DIFF_HELP = """Compare two dumps, or run one command twice and compare what crossed the wire: under 1.0 and 0.3, or, with two --transport values, over two bindings under one version.

Both sides are brought to canonical V1 (method names, kind, enum spellings, wrappers, defaults, key order), generated ids and timestamps become placeholders, and what still differs is shown as a unified diff, headers included. What the compared variable implies does not count: the version header, content types and routes between versions; paths, content types, status codes and framing between bindings; the card each version serves (--card compares it). One line sums those up (-v shows them). The verdict is the last line on stderr, under -q too. Exit 0 when the answers agree, 1 when they differ (as diff(1)), 2 on bad input.

Examples:

  a2a diff dump-v1 dump-v0

  a2a diff -u http://127.0.0.1:41241 -- \\
      send --skill create-user -f projectUserId=u1

  a2a diff --save dumps -u http://127.0.0.1:41241 -- tasks get 5f0c…

  a2a diff -u http://127.0.0.1:41241 --transport jsonrpc --transport rest \\
      -- send hi

  a2a diff dump-v1 dump-v0 --raw --keep-ids -o json | jq '.differences[]'
"""


def _output(value: str | None, ctx: typer.Context) -> Any:
    """`diff`'s output: json (the list of differences) or text (a unified diff); any other mode
    (raw: a diff has no wire bytes of its own) is auto. -q (here or before `diff`, or A2ACLI_QUIET)
    keeps the verdict and errors only on stderr."""
    from a2acli.commands.invocation import invocation
    from a2acli.render.output import JsonOutput, TextOutput

    return invocation(ctx).checked_output(among=(JsonOutput, TextOutput))  # the boundary says errors through it


def diff(
    ctx: typer.Context,
    args: Annotated[
        list[str] | None,
        typer.Argument(
            help="Two dump directories (DUMP_A DUMP_B), or -- followed by a method command (`-- tasks get ID`).",
            show_default=False,
            metavar="DUMP_A DUMP_B | -- COMMAND",
        ),
    ] = None,
    raw: Annotated[
        bool,
        typer.Option(
            "--raw", help="Diff the bodies as they crossed the wire: no translation to V1, keys in their order."
        ),
    ] = False,
    keep_ids: KeepIdsOpt = False,
    card: CardOpt = False,
    ignore: IgnoreOpt = None,
    context: ContextOpt = 3,
    verbose: VerboseAsideOpt = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="stderr keeps the verdict and errors only.")] = False,
    save: Annotated[
        str | None,
        typer.Option(
            "--save",
            help="With a command: keep the two dumps in DIR/v1 and DIR/v0 (DIR/<transport> with two --transport values).",
            show_default=False,
        ),
    ] = None,
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            help="text (a unified diff) or json (the list of differences). (env: A2ACLI_OUTPUT)",
            show_default=False,
        ),
    ] = None,
    debug: Annotated[bool, typer.Option("--debug", help="Tracebacks on errors.")] = False,
) -> None:
    from a2acli.commands.invocation import invocation

    conn = {name: invocation(ctx).given.get(name) for name in FORWARDED}  # before or after `diff`
    out = _output(output, ctx)
    from a2acli.errors import UsageError
    from a2acli.recording import diff as diffing

    argv = ctx.meta.get("a2acli.argv") or []
    items = list(args or [])
    if "--" in argv:
        command = argv[argv.index("--") + 1 :]
        if items[: len(items) - len(command)]:
            raise UsageError(
                "give either two dumps or a command after --, not both",
                hint="a2a diff DUMP_A DUMP_B, or a2a diff -u URL -- tasks get ID",
            )
        from a2acli.settings.values import parse_transports

        chosen = list(parse_transports(conn.get("transport") or []))
        if len(conn.get("transport") or []) == 2 and len(chosen) == 1:
            raise UsageError(
                f"both --transport values name {chosen[0]}",
                hint="give two different bindings, e.g. --transport jsonrpc --transport rest",
            )
        if len(chosen) > 2:
            raise UsageError(
                "diff compares two runs: give two --transport values at most",
                hint="e.g. a2a diff -u URL --transport jsonrpc --transport rest -- tasks get ID",
            )
        forwarded = _forwarded(ctx, {**conn, "transport": chosen if len(chosen) == 1 else None})
        (left, right), runs = _run_both(command, forwarded, save, chosen if len(chosen) == 2 else None)
    else:
        if len(items) != 2:
            raise UsageError(
                f"diff takes two dump directories, got {len(items)} argument(s)",
                hint="a2a diff DUMP_A DUMP_B; to run a command under both versions put it after --: a2a diff -u URL -- tasks get ID",
            )
        if save:
            raise UsageError("--save goes with a command after --", hint="the dumps given are already on disk")
        left, right = (diffing.load_dump(p) for p in items)
        runs = []
    report = diffing.compare(left, right, raw=raw, keep_ids=keep_ids, ignore=ignore or (), card=card)
    verdict = invocation(ctx).verdict = 0 if report.equal else 1
    _render(report, out, context=context, runs=runs, verbose=verbose)
    out.note(report.verdict(), always=True)
    raise typer.Exit(verdict)


diff.shared_options = (FORWARDED, "With a command, passes on to both runs the shared options")  # type: ignore[attr-defined]  # named at the end of its help
diff.__doc__ = DIFF_HELP


def _forwarded(ctx: typer.Context, conn: dict[str, Any]) -> list[str]:
    """The connection flags given to `diff` (or to `a2a` before it), for both runs."""
    argv: list[str] = []
    for name in FORWARDED:
        value = conn.get(name)
        if value in (None, False, []):
            continue
        if name == "insecure":
            argv.append(_FLAGS[name])
        elif name in ("header", "transport", "svc_param", "extension"):
            for h in value:
                argv += [_FLAGS[name], h]
        else:
            argv += [_FLAGS[name], str(value)]
    return argv


def _run_both(
    command: list[str], forwarded: list[str], save: str | None, transports: list[str] | None = None
) -> tuple[tuple[Any, Any], list[dict[str, Any]]]:
    """Run `a2a COMMAND` twice, each run with its own --dump, and load the two dumps: under 1.0
    and 0.3, or, given two --transport values, over each binding under one version. The command
    line is parsed once (its input read once); the two runs are one invocation with two option
    sets (flows.invocation.Captured: the command's flow and its arguments)."""
    import tempfile

    from a2acli.errors import UsageError
    from a2acli.recording import diff as diffing

    _check_diff_command(command, transports)
    invocation = _capture([*_with_flags(command, forwarded)])
    sides = _sides(invocation.opts, transports)
    with tempfile.TemporaryDirectory(prefix="a2a-diff-") as tmp:
        base = Path(save) if save else Path(tmp)
        dumps: list[Any] = []
        runs: list[dict[str, Any]] = []
        hints: list[str | None] = []  # each run's own hint, for a usage error (no agent given…)
        for (label, side_opts), name in zip(sides, transports or ("v1", "v0"), strict=True):
            directory = base / name
            if save and directory.exists() and any(directory.iterdir()):
                raise UsageError(f"{directory} already holds files", hint="--save wants a new or empty directory")
            # each side asks the agent for its card (no card cache): the two runs compare what it answers
            code, error, hint = _run_side(
                invocation, side_opts._replace(dump=str(directory), output="json", offline=False, no_cache=True)
            )
            hints.append(hint)
            runs.append({**label, "exit": code, "error": error, "dump": str(directory) if save else None})
            if code == 130:
                from a2acli.errors import Interrupted

                raise Interrupted("interrupted")
            try:
                dumps.append(diffing.load_dump(directory))
            except UsageError:
                dumps.append(diffing.Dump(str(directory), ()))
        if transports:
            _ran_over_asked(transports, dumps)
        first, second = runs
        if first["exit"] == 2:
            where = f"over {first['transport']}" if transports else "under 1.0"
            raise UsageError(
                f"the command failed {where}: {first['error']}",
                hint=hints[0] or "check the command after --; `a2a <command> --help`",
            )
        answered = any(e.status_line for d in dumps for e in d.exchanges)
        if not answered and first["exit"] and second["exit"]:
            raise _failure(first["exit"], f"both runs failed: {first['error']}")
        return (dumps[0], dumps[1]), runs  # loaded into memory: the temporary files may go


def _ran_over_asked(transports: list[str], dumps: list[Any]) -> None:
    """Each side's calls went over the binding it names: a card without that interface makes the
    run fall back to another (with a note), and a comparison labelled with a binding that was never
    used would say nothing."""
    from a2acli.errors import NotClaimedError
    from a2acli.wire.bindings import by_flag

    for asked, dump in zip(transports, dumps, strict=True):
        want = by_flag(asked)
        used = {e.binding for e in dump.exchanges if e.binding is not None}
        if used and want not in used:
            got = ", ".join(sorted(b.label for b in used))
            raise NotClaimedError(
                f"the {want.label} side ran over {got}: the agent's card offers no {want.label} interface",
                hint="compare bindings the card lists (`a2a card fetch` shows them), or give --endpoint",
            )


def _check_diff_command(command: list[str], transports: list[str] | None) -> None:
    """The command after `--` is a method command that leaves the options diff sets to diff."""
    from a2acli.errors import UsageError

    if not command:
        raise UsageError("no command after --", hint="e.g. a2a diff -u URL -- tasks get ID")
    if command[0] in _NOT_METHODS or command[0].startswith("-"):
        raise UsageError(
            f"`{command[0]}` is not a method command",
            hint="put a method command after --, e.g. -- send 'hi', -- tasks get ID, -- card fetch",
        )
    own = _OWN_FLAGS + (("--transport",) if transports else ())
    for flag in command:
        name = flag.split("=", 1)[0]
        if name in own:
            hint = (
                "give it to diff, before --"
                if name == "--a2a-version" and transports
                else f"drop {name} from the command after --"
            )
            raise UsageError(f"diff sets {name} itself on each run", hint=hint)


def _sides(opts: Any, transports: list[str] | None) -> list[tuple[dict[str, Any], Any]]:
    """The two option sets to run with, each with its label: one per --transport given, else 1.0
    and 0.3."""
    from a2acli.errors import UsageError
    from a2acli.wire import parse_wire

    if transports:
        sides = [({"version": opts.wire.version, "transport": t}, opts._replace(transports=(t,))) for t in transports]
    else:
        if opts.sources.get("a2a-version") == "flag":
            raise UsageError(
                "diff runs the command under 1.0 and under 0.3 itself",
                hint="drop --a2a-version; with two --transport values, give it to diff (before --) to pick the version",
            )
        sides = [
            ({"version": version}, opts._replace(wire=parse_wire(version), version_auto=False)) for _, version in SIDES
        ]
    return sides


def _with_flags(command: list[str], flags: list[str]) -> list[str]:
    if "--" in command:
        i = command.index("--")
        return [*command[:i], *flags, *command[i:]]
    return [*command, *flags]


def _capture(argv: list[str]) -> Any:
    """Parse `a2a ARGV` with our own app and return the flow it asks for, without running it
    (`flows.invocation.Captured`: the command hands its flow to an invocation that captures). A
    usage error (Typer's, or one the command found) is raised as ours."""
    import io
    from contextlib import redirect_stderr, redirect_stdout

    from a2acli.commands.invocation import Invocation
    from a2acli.commands.registry import full_app
    from a2acli.errors import UsageError

    app = full_app()

    err = io.StringIO()
    inv = Invocation().capturing()  # the command's flow is recorded here, not run (Invocation.run)
    with redirect_stdout(io.StringIO()), redirect_stderr(err):
        try:
            app(argv, prog_name="a2a", standalone_mode=False, obj=inv)
        except typer.TyperException as e:  # a usage error Typer found: said as the command alone says it
            from a2acli.commands._run import _usage_text

            ctx = getattr(e, "ctx", None)
            message, hint = _usage_text(e, ctx, getattr(ctx, "command_path", None) or "a2a <command>")
            raise UsageError(f"the command after -- is not valid: {message}", hint=hint) from None
        except (typer.Exit, SystemExit, typer.Abort):
            pass
    seen = inv.captured or []
    if not seen:
        found = inv.error  # what the command's boundary said (this invocation's)
        if found is not None:
            raise found
        raise UsageError(
            f"`{' '.join(argv[:2])}` makes no call to compare",
            hint="put a method command after --, e.g. -- send 'hi', -- tasks get ID",
        )
    return seen[0]


def _run_side(invocation: Any, opts: Any) -> tuple[int, str | None, str | None]:
    """One run of the invocation, its output discarded (the dump is what is compared): its exit
    code, and the message and hint of its error."""
    import io
    from contextlib import redirect_stderr, redirect_stdout

    from a2acli.flows.boundary import run_captured

    with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
        code, found = run_captured(invocation, opts)
    if found is None or not code:
        return code, None, None
    return code, found.message, found.hint


def _failure(code: int, message: str) -> Any:
    from a2acli import errors

    cls = {3: errors.UnreachableError, 4: errors.AuthError, 5: errors.TimeoutExpired, 130: errors.Interrupted}.get(
        code, errors.A2acliError
    )
    return cls(message, hint="fix the call first: run the command alone to see the whole error")


# -- rendering ------------------------------------------------------------------------------------


def _document(report: Any, runs: list[dict[str, Any]]) -> dict[str, Any]:
    """-o json's report, with the runs of `diff -- CMD`: a side's `path` is its dump when kept
    (--save), else null (the runs' temporary dumps are gone when the report is read)."""
    doc = report.to_json()
    if not runs:
        return doc
    for side, run in zip(("left", "right"), runs, strict=True):
        doc[side]["path"] = run["dump"]
    return {**doc, "runs": runs}


def _render(
    report: Any, out: Any, *, context: int, runs: list[dict[str, Any]], verbose: bool = False, document: Any = None
) -> None:
    """The runs, the diff (text) or the report (json: `document`, else the report's), and the line
    on what does not count; the caller says the verdict last."""
    for run in runs:
        state = f"exit {run['exit']}" + (f" ({run['error']})" if run["error"] else "")
        where = f"over {run['transport']} under {run['version']}" if "transport" in run else f"under {run['version']}"
        out.note(f"ran {where}: {state}" + (f"; dump in {run['dump']}" if run["dump"] else ""))
    out.document(
        document or (lambda: _document(report, runs)),
        lambda: _diff_text(report, out, context, verbose=verbose),
    )
    aside = report.aside_summary()
    if aside and not verbose:
        out.note(aside)


def _diff_text(report: Any, out: Any, context: int, *, verbose: bool = False) -> None:
    for note in report.notes:
        out.note(f"note: {note}")
    lines = _diff_lines(report, context, verbose=verbose)
    if out.rich:
        from a2acli.render.safe import safe_text

        for line, style in lines:  # the dumps' bytes are the agent's: escaped, as out.text does
            out.console.print(safe_text(line, style=style))
    else:
        for line, _ in lines:
            out.text(line)


def _diff_lines(report: Any, context: int, *, verbose: bool = False) -> list[tuple[str, str]]:
    """The unified diff of each exchange that differs in what counts (with -v: in anything), with
    a style for each line."""
    lines: list[tuple[str, str]] = []
    for xd in report.exchanges:
        diffs = xd.everything if verbose else xd.differences
        if not diffs:
            continue
        left = f"{xd.left.stem}" if xd.left else "—"
        right = f"{xd.right.stem}" if xd.right else "—"
        counted = len(xd.differences)
        aside = f" ({len(diffs) - counted} that do not count)" if len(diffs) > counted else ""
        lines.append((f"=== {xd.method}: {left} <> {right}: {counted} difference(s){aside}", "bold"))
        if xd.left is None or xd.right is None:
            lines.append(
                (f"only in the {'left' if xd.right is None else 'right'} dump: {(xd.left or xd.right).stem}", "yellow")
            )
        for section in xd.sections:
            shown = section.differences if verbose else [d for d in section.differences if not d.aside]
            if shown:
                if verbose and all(d.aside for d in shown):
                    lines.append((f"# does not count: {shown[0].aside}", "dim"))
                lines += [(line, _style(line)) for line in section.unified(context, everything=verbose)]
        lines.append(("", ""))
    return lines


def _style(line: str) -> str:
    if line.startswith(("---", "+++")):
        return "bold"
    if line.startswith("@@"):
        return "cyan"
    if line.startswith("-"):
        return "red"
    if line.startswith("+"):
        return "green"
    return ""


# -- translate ------------------------------------------------------------------------------------


def translate(
    ctx: typer.Context,
    source: Annotated[
        str | None,
        typer.Argument(
            help="The JSON document: a file, or - for standard input (the default). An SSE `data: {...}` line (or a whole SSE stream) works too.",
            show_default=False,
            metavar="[FILE|-]",
        ),
    ] = None,
    to: Annotated[
        str,
        typer.Option(
            "--to",
            help="The version to write: v1 (1.0) or v0 (0.3). Default: the other one than the document's.",
            show_default=False,
        ),
    ] = "",
    method: Annotated[
        str | None,
        typer.Option(
            "--method",
            help="The method a JSON-RPC response or result answers (V1 or V0 name): settles a bare V0 task (GetTask) vs a send result (SendMessage).",
            show_default=False,
        ),
    ] = None,
    compact: Annotated[bool, typer.Option("--compact", help="One line of JSON instead of indented.")] = False,
    debug: Annotated[bool, typer.Option("--debug", help="Tracebacks on errors.")] = False,
) -> None:
    """Translate an A2A JSON document between V1 (1.0) and V0 (0.3).

    The result goes to stdout; stderr says what the document was recognised as and what could not be carried across.

    Without --to, the document is written in the other version than its own.

    Examples:

      a2a translate request-v0.json

      a2a translate --to v1 request-v0.json

      echo '{"kind":"task","id":"t-1","contextId":"c-1",' \\
          '"status":{"state":"completed"}}' | a2a translate --to v1

      echo 'data: {"jsonrpc":"2.0","id":1,"result":{"statusUpdate":' \\
          '{"taskId":"t-1","contextId":"c-1",' \\
          '"status":{"state":"TASK_STATE_WORKING"}}}}' | a2a translate --to v0
    """
    from a2acli.commands.invocation import invocation
    from a2acli.render.output import Output

    out = Output("json")
    invocation(ctx).out = Output("auto")  # errors in text: stdout is for the translated document
    from a2acli.errors import UsageError
    from a2acli.flows.documents import read_document, translate_text
    from a2acli.wire import parse_wire

    try:
        target = parse_wire(to).value if to else None
    except ValueError:
        raise UsageError(f"--to {to!r} is not a version", hint="--to v1 (1.0) or --to v0 (0.3)") from None
    text, where = read_document(source, sys.stdin)
    done = translate_text(text, where, target, method, out.note)
    if done.events is None:
        out.text(
            *(
                json.dumps(done.document, ensure_ascii=False, separators=(",", ":"))
                if compact
                else json.dumps(done.document, ensure_ascii=False, indent=2)
            ).split("\n")
        )
        return
    for name, result in done.events:
        out.text(
            *([f"event: {name}"] if name != "message" else []),
            "data: " + json.dumps(result, ensure_ascii=False, separators=(",", ":")),
            "",
        )
