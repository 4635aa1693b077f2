"""`a2a check [card] [URL]` from start to verdict: read the card (URL, card URL, file or stdin),
validate it, probe the agent unless only the card was asked for, report, and return the exit code."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, NamedTuple

from a2acli.errors import UsageError
from a2acli.pipeline.options import CallOptions


def read_card(source: str | None, opts: CallOptions) -> tuple[Any, str | None]:
    """The card document and where it came from: `-` is stdin; a URL, card URL or file through
    the pipeline's card fetch (with the chosen A2A-Version header)."""
    from a2acli.wire import envelope

    if source == "-":
        from a2acli.errors import A2acliError, CardInvalidError

        try:
            return envelope.loads(sys.stdin.buffer.read(), what="card on stdin"), None
        except A2acliError as e:  # as a card file that is no JSON (transport.card.fetch_card)
            raise CardInvalidError(e.message, hint="pipe an Agent Card's JSON to stdin") from None
    from a2acli.check.checks import _call

    with _call(opts._replace(url=source or opts.url, version_auto=False)) as call:
        fetched = call.target.fetch_card()
    return fetched.doc, fetched.url


def run_check(
    words: list[str],
    opts: CallOptions,
    out: Any,
    *,
    read_only: bool,
    strict: bool,
    junit_path: str | None,
    webhook: bool = False,
    only_problems: bool = False,
) -> int:
    from a2acli.check import report

    done = gather(words, opts, out.warn, read_only=read_only, webhook=webhook, progress=out.progress)
    if junit_path:
        from pathlib import Path

        try:
            Path(junit_path).write_text(report.junit(done.checks, strict=strict), encoding="utf-8")
        except OSError as e:
            raise UsageError(
                f"cannot write --junit {junit_path}: {e.strerror or e}", hint="give a path in a directory that exists"
            ) from None
    out.document(
        lambda: report.document(done.target, done.checks, done.cards, strict=strict, only_problems=only_problems),
        lambda: report.render_text(
            out,
            done.target,
            done.checks,
            done.cards,
            strict=strict,
            show_info=done.card_only,
            only_problems=only_problems,
        ),
    )
    return done.failed or report.exit_code(done.checks, strict=strict)


class Gathered(NamedTuple):
    """What a check found: its target, the checks, the cards read, the exit code of a discovery
    that failed (3: no card there), and whether the card alone was checked."""

    target: str
    checks: list[Any]
    cards: list[Any]
    failed: int | None
    card_only: bool


def gather(
    words: list[str],
    opts: CallOptions,
    warn: Callable[[str], None],
    *,
    read_only: bool,
    webhook: bool = False,
    progress: Callable[[str], None] | None = None,
) -> Gathered:
    """`a2a check [card] [URL]`'s checks, run: the card validated, and (a live check) every
    interface probed; `warn` says where the credentials go, `progress` (a face at a terminal) what
    is being probed."""
    from a2acli.check import report
    from a2acli.check.card import validate_card

    card_only = bool(words) and words[0] == "card"
    rest = words[1:] if card_only else words
    if len(rest) > 1:
        raise UsageError(
            f"one agent at a time, got {len(rest)}: {' '.join(rest)}",
            hint="a2a check URL, or a2a check card URL|FILE|-",
        )
    if rest and not card_only:  # a bare host:port as -u reads it (https, http on loopback)
        from a2acli.net import agent_reference

        rest = [agent_reference(rest[0])]
    target = rest[0] if rest else opts.url
    if not target:
        raise UsageError(
            "no agent given", hint="a2a check URL (or -u URL, A2ACLI_URL); a2a check card FILE validates a card offline"
        )
    failed: int | None = None  # the exit code of a discovery that failed (3: no card there)
    if card_only:
        if webhook:
            raise UsageError(
                "--webhook needs a live check: the card alone sends no notification",
                hint=f"a2a check {target} --webhook",
            )
        if target is not None and target.startswith(("http://", "https://")):
            from a2acli import transport

            transport.load()  # a card fetched over HTTP: as for a live check, below
        doc, url = read_card(target, opts)
        card = validate_card(doc, url)
        cards = [("" if url is None or url.startswith("file:") else opts.wire.version, url, card)]
        from a2acli.check.probe_card import signature_check

        checks = [*report.card_findings_checks(card, url), signature_check(doc, opts=opts)]
    else:
        if webhook and read_only:
            raise UsageError("--webhook creates a task, --read-only creates none", hint="drop one of them")
        if target == "-" or target.startswith("file:") or target.endswith(".json") and "://" not in target:
            raise UsageError(
                "a live check needs the agent's URL", hint=f"a2a check card {target} validates the card alone"
            )
        from a2acli import transport

        transport.load()  # the HTTP stack loaded here, near the top of the stack (its docstring: why)
        from a2acli.check.probe import probe
        from a2acli.check.probe_card import card_checks

        opts = opts._replace(url=target)
        if progress is not None:
            progress(f"checking the Agent Card of {target}")
        checks, core, reports, failed = card_checks(opts)
        cards = reports
        if core is not None:  # else the failed discovery is the report's one finding
            say_credential_destinations(opts, core, warn)
            checks += probe(opts, core, read_only=read_only, webhook=webhook, progress=progress)
    return Gathered(target, checks, cards, failed, card_only)


def say_credential_destinations(opts: CallOptions, core_card: dict[str, Any], warn: Callable[[str], None]) -> None:
    """The probe sends the credentials to every interface it checks: one on another host than the
    agent's is said on stderr once, as every other command says it (`credentials go to HOST`).
    Where they must not go (--strict-origin, https to plain http) the probe's calls are refused
    and the checks say so."""
    from a2acli.check.probe import interfaces
    from a2acli.errors import CredentialsWithheldError
    from a2acli.pipeline.origin import check_origin, credential_headers

    if not (opts.api_key or opts.bearer or opts.basic or opts.oauth or credential_headers(opts.headers, core_card)):
        return
    said: set[str] = set()
    for itf in interfaces(core_card)[0]:
        try:
            note = check_origin(str(opts.url), itf.url, strict=False, insecure=opts.insecure)
        except CredentialsWithheldError:
            continue
        if note and note not in said:
            said.add(note)
            warn(note)


def invalid_card_error(doc: Any, url: str | None) -> Any:
    """`a2a card fetch --validate -o json` on a card with errors: the error object (official CLI
    spec Appendix B) that stands for the card on stdout, its findings in `data`; None when the card
    has no error (then the card itself is the document)."""
    from a2acli.check.card import validate_card
    from a2acli.errors import CardInvalidError

    card = validate_card(doc, url)
    if not card.errors:
        return None
    first = next(f for f in card.findings if f.severity == "error")
    return CardInvalidError(
        f"the Agent Card has {card.errors} error(s) and {card.warnings} warning(s); the first: {first.path}: {first.message}",
        hint="`a2a check card -u URL` shows every finding; fix the card, or drop --validate to read it anyway",
        data={"versions": list(card.versions), "hybrid": card.hybrid, "findings": [f.as_json() for f in card.findings]},
    )


def validate_fetched(doc: Any, url: str | None, out: Any) -> int:
    """`a2a card fetch --validate`: the findings on stderr after the card, exit 1 on an error."""
    from a2acli.check.card import validate_card

    card = validate_card(doc, url)
    for f in card.findings:  # each labelled as what it is: `error:`, `warning:`, a note for an info
        say = {"error": out.problem, "warning": out.warn}.get(f.severity)
        if say is not None:
            say(f"card ({f.version}) {f.path}: {f.message}")
        else:
            out.note(f"card {f.severity} ({f.version}) {f.path}: {f.message}")
    out.note(
        f"card checked as {' + '.join(card.versions) or '?'}{' (hybrid)' if card.hybrid else ''}: {card.errors} error(s), {card.warnings} warning(s)"
    )
    return 1 if card.errors else 0
