"""`a2a diff` (two dumps, or one command run twice: under 1.0 and 0.3, or over two bindings) and
`a2a translate` (one document from one version to the other), headless: each a function of the
invocation and its own arguments returning its exit code. The comparing lives in
a2acli/recording/diff.py, the translating in a2acli/wire/translate and flows.documents; here the
runs of `diff -- COMMAND`, and what is said of them. A face hands `run_diff` the command line
after `--` and a `capture` that parses it into the flow it asks for (`flows.invocation.Captured`):
the CLI parses it with its own app (commands.debug)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from a2acli.flows.invocation import Captured, Invocation

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
    "config",  # the file the profile may be in (and the settings it gives): the runs read the one diff read
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
    "config": "--config",
}
# Flags `diff` sets itself on each run.
_OWN_FLAGS = ("--a2a-version", "--dump", "--output", "-o", "--offline")  # and --transport with two of them
_NOT_METHODS = ("diff", "translate", "demo-server")
SIDES = (("v1", "1.0"), ("v0", "0.3"))


def run_diff(
    inv: Invocation,
    dumps: Iterable[str],
    command: list[str] | None,
    *,
    capture: Callable[[list[str], Any], Captured],
    raw: bool = False,
    keep_ids: bool = False,
    card: bool = False,
    ignore: Iterable[str] = (),
    context: int = 3,
    verbose: bool = False,
    save: str | None = None,
) -> int:
    """`a2a diff`: two dump directories (`dumps`), or `command` (what followed `--`; None when
    there was no `--`) run twice with the connection options given, `capture` parsing it; the
    report said (json or a unified diff), the verdict last on stderr. 0 when the answers agree, 1
    when they differ."""
    from a2acli.errors import UsageError
    from a2acli.recording import diff as diffing
    from a2acli.render.output import JsonOutput, TextOutput

    conn = {name: inv.given.get(name) for name in FORWARDED}  # before or after `diff`
    # json (the list of differences) or text (a unified diff); any other mode (raw: a diff has no
    # wire bytes of its own) is auto; the boundary says errors through it
    out = inv.checked_output(among=(JsonOutput, TextOutput))
    items = list(dumps)
    if command is not None:
        if items:
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
        forwarded = _forwarded({**conn, "transport": chosen if len(chosen) == 1 else None})
        (left, right), runs = _run_both(
            lambda argv: capture(argv, inv.redactor),  # the sides' secrets: masked in this run's report too
            command,
            forwarded,
            save,
            chosen if len(chosen) == 2 else None,
        )
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
    report = diffing.compare(left, right, raw=raw, keep_ids=keep_ids, ignore=tuple(ignore), card=card)
    verdict = inv.verdict = 0 if report.equal else 1
    render(report, out, context=context, runs=runs, verbose=verbose)
    out.note(report.verdict(), always=True)
    return verdict


def _forwarded(conn: dict[str, Any]) -> list[str]:
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
    capture: Callable[[list[str]], Captured],
    command: list[str],
    forwarded: list[str],
    save: str | None,
    transports: list[str] | None = None,
) -> tuple[tuple[Any, Any], list[dict[str, Any]]]:
    """Run `a2a COMMAND` twice, each run with its own --dump, and load the two dumps: under 1.0
    and 0.3, or, given two --transport values, over each binding under one version. The command
    line is parsed once (its input read once); the two runs are one invocation with two option
    sets (flows.invocation.Captured: the command's flow and its arguments)."""
    import tempfile

    from a2acli.errors import UsageError
    from a2acli.recording import diff as diffing

    _check_diff_command(command, transports)
    invocation = capture([*_with_flags(command, forwarded)])
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


def _run_side(invocation: Any, opts: Any) -> tuple[int, str | None, str | None]:
    """One run of the invocation, its output discarded (the dump is what is compared): its exit
    code, and the message and hint of its error."""
    import io

    from a2acli.flows.boundary import run_captured
    from a2acli.flows.invocation import Environment

    # the side writes to streams of its own (nothing swaps the process's sys.stdout and sys.stderr)
    code, found = run_captured(invocation, opts, Environment(stdout=io.StringIO(), stderr=io.StringIO()))
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


def render(
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


def run_translate(
    inv: Invocation, source: str | None, *, to: str = "", method: str | None = None, compact: bool = False
) -> None:
    """`a2a translate`: the document (a file, or stdin for None or -) in the version `to` names
    ("v1", "v0"; empty: the other one than its own) on stdout, as indented JSON (`compact`: one
    line) or, for SSE, as SSE; what it was recognised as and what could not be carried across on
    stderr, errors in text."""
    out = inv.bare_output("json")
    inv.out = inv.bare_output()  # errors in text: stdout is for the translated document
    from a2acli.errors import UsageError
    from a2acli.flows.documents import read_document, translate_text
    from a2acli.wire import parse_wire

    try:
        target = parse_wire(to).value if to else None
    except ValueError:
        raise UsageError(f"--to {to!r} is not a version", hint="--to v1 (1.0) or --to v0 (0.3)") from None
    text, where = read_document(source, inv.env.streams()[0])
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
