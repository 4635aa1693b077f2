"""`a2a check`, headless: the card validated and (a live check) each interface probed
(check.run.gather), as the report's document (-o json) and its exit code."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
