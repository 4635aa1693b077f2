"""`a2a check`, headless: the card validated and (a live check) each interface probed
(check.run.gather), as the report's document (-o json) and its exit code (`check`, for a face that
wants the document: `a2a mcp`); or written as the run's report in its output mode, rows as they are
checked (`run_check`, the CLI's command)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from a2acli.flows.invocation import Invocation
    from a2acli.pipeline.options import CallOptions


def check(
    opts: CallOptions,
    target: str | None = None,
    *,
    card_only: bool = False,
    read_only: bool = True,
    strict: bool = False,
    warn: Callable[[str], None] = lambda _text: None,
) -> tuple[dict[str, Any], int]:
    """The check's report (the document `a2a check -o json` prints) and its exit code (0 pass, 1 a
    check failed, 3 no card there). `read_only` (the default here): no probe creates a task or a
    push config."""
    from a2acli.check import report
    from a2acli.check.run import gather

    words = (["card"] if card_only else []) + ([target] if target else [])
    done = gather(words, opts, warn, read_only=read_only)
    document = report.document(done.target, done.checks, done.cards, strict=strict)
    return document, done.failed or report.exit_code(done.checks, strict=strict)


def run_check(
    inv: Invocation,
    target: list[str],
    *,
    read_only: bool = False,
    strict: bool = False,
    junit: str | None = None,
    webhook: bool = False,
    only_problems: bool = False,
) -> int:
    """`a2a check [card] [URL]`: the report written through the invocation's Output as the checks
    run, its exit code the verdict (0 pass, 1 a check failed, 3 no card there). Under --dump, one
    run's calls go to one dump (a dump another run wrote is refused) and the summary is said."""
    from a2acli.check.run import run_check as checked

    opts = inv.options()
    out = inv.output()
    held = 0
    if opts.dump:  # one run, a call per interface: only another run's dump is refused
        from a2acli.recording.record import held_exchanges, refuse_held_dump

        refuse_held_dump(opts.dump, opts.dump_append)
        held, opts = held_exchanges(opts.dump), opts._replace(dump_append=True)
    inv.verdict = 1  # rows are written as the checks run: a check cut short by a reader that left is no pass
    code = inv.verdict = checked(
        list(target),
        opts,
        out,
        read_only=read_only,
        strict=strict,
        junit_path=junit,
        webhook=webhook,
        only_problems=only_problems,
    )
    if opts.dump and (written := held_exchanges(opts.dump) - held):
        from a2acli.recording.record import dump_summary

        out.note(dump_summary(opts.dump, written))
    return code
