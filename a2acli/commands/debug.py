"""`a2a diff` (two dumps, or one command run under 1.0 and 0.3) and `a2a translate` (one document
from one version to the other): their names, options and help; the work is flows.diff's. Here too
the one thing that needs the CLI: `_capture`, which parses the command after `diff --` with this
app into the flow it asks for."""

from typing import Annotated, Any

import typer

from a2acli.commands._options import CardOpt, ContextOpt, IgnoreOpt, KeepIdsOpt, VerboseAsideOpt
from a2acli.commands._run import run
from a2acli.flows.diff import FORWARDED

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
    from a2acli.flows.diff import run_diff

    argv = ctx.meta.get("a2acli.argv") or []
    items = list(args or [])
    command = argv[argv.index("--") + 1 :] if "--" in argv else None
    run(
        ctx,
        run_diff,
        items[: len(items) - len(command)] if command is not None else items,  # the dumps (none before --)
        command,
        capture=_capture,
        raw=raw,
        keep_ids=keep_ids,
        card=card,
        ignore=ignore or (),
        context=context,
        verbose=verbose,
        save=save,
    )


diff.shared_options = (FORWARDED, "With a command, passes on to both runs the shared options")  # type: ignore[attr-defined]  # named at the end of its help
diff.__doc__ = DIFF_HELP


def _capture(argv: list[str], redactor: Any) -> Any:
    """Parse `a2a ARGV` with our own app and return the flow it asks for, without running it
    (`flows.invocation.Captured`: the command hands its flow to an invocation that captures, and
    that masks through `redactor`, the diff's own). A usage error (Typer's, or one the command
    found) is raised as ours."""
    import io
    from contextlib import redirect_stderr, redirect_stdout

    from a2acli.commands.invocation import Invocation
    from a2acli.commands.registry import full_app
    from a2acli.errors import UsageError

    app = full_app()

    err = io.StringIO()
    inv = Invocation(redactor=redactor).capturing()  # the command's flow is recorded here, not run (Invocation.run)
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
    from a2acli.flows.diff import run_translate

    run(ctx, run_translate, source, to=to, method=method, compact=compact)
