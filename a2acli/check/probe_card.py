"""The card part of `a2a check URL`: found at its well-known paths, its Content-Type and caching
headers, its signature, and its validation (card.py) under each version header."""

from __future__ import annotations

from typing import Any

from a2acli.check.checks import FAIL, PASS, SKIP, WARN, Check, _call, broken, counted
from a2acli.check.rules import RULES, cite
from a2acli.errors import A2acliError
from a2acli.pipeline.options import CallOptions
from a2acli.wire import Wire


def card_checks(opts: CallOptions) -> tuple[list[Check], dict[str, Any] | None, list[Any], int | None]:
    """The card: found, where, its Content-Type and caching headers, the legacy path, and its
    validation under each version header. Returns the checks, the canonical V1 card, the card
    reports (for the findings), and the exit code of a discovery that failed (None when the card
    was found: then the canonical card is there)."""
    from a2acli.check.card import validate_card

    checks: list[Check] = []
    reports: list[Any] = []
    core: dict[str, Any] | None = None
    docs: list[Any] = []
    for wire in (Wire.V1, Wire.V0):
        with _call(opts._replace(wire=wire, version_auto=False)) as call:
            try:
                fetched = call.target.fetch_card()
            except A2acliError as e:
                if wire is Wire.V1:  # no card at all: the report says so (the exit code is the error's)
                    detail = e.message + (f" (hint: {e.hint})" if e.hint else "")
                    failed = Check(
                        "card.fetch", "card", "Agent Card found", FAIL, detail, "§7 discovery", call.ids.take()
                    )
                    return [failed], None, [], int(e.exit_code)
                checks.append(
                    Check(
                        "card.fetch.0.3",
                        "card",
                        "card under A2A-Version 0.3",
                        FAIL,
                        e.message,
                        "§7 discovery",
                        call.ids.take(),
                    )
                )
                continue
            ids = call.ids.take()
            if wire is Wire.V1:
                core = call.target.card
                checks.append(Check("card.fetch", "card", "Agent Card found", PASS, fetched.url, "§7 discovery", ids))
                checks.append(signature_check(fetched.doc, call))
                ex = fetched.exchange
                if ex is not None:
                    ctype = ex.content_type
                    ok = ctype == "application/json" or ctype.endswith("+json")
                    checks.append(
                        Check(
                            "card.content-type",
                            "card",
                            "Content-Type",
                            PASS if ok else WARN,
                            ctype or "none" if ok else f"{ctype or 'none'}: serve application/json",
                            "§7 discovery",
                            ids,
                        )
                    )
                    checks += caching_checks(ex, ids)
                    base = fetched.url.split("/.well-known/")[0] if "/.well-known/" in fetched.url else None
                    if base:
                        checks += _well_known(call, base)
            same = next((c for d, c in docs if d == fetched.doc), None)
            if same is not None:  # judged once: the same verdict as under the other version
                checks.append(
                    Check(
                        f"card.valid.{wire.version}",
                        "card",
                        f"card valid (A2A-Version {wire.version})",
                        same.status,
                        "the same card as under 1.0" + ("" if same.status == PASS else f": {same.detail}"),
                        "§7 CARD_GET_002",
                        ids,
                    )
                )
                continue
            report = validate_card(fetched.doc, fetched.url)
            reports.append((wire.version, fetched.url, report))
            status = FAIL if report.errors else WARN if report.warnings else PASS
            head = f"checked as {' + '.join(report.versions)}{' (hybrid)' if report.hybrid else ''}: {counted(report.errors, 'error')}, {counted(report.warnings, 'warning')}"
            first = next((f for f in report.findings if f.severity in ("error", "warning")), None)
            detail = head + (f"; first: {first.path} {first.message}" if first else "")
            checks.append(
                Check(
                    f"card.valid.{wire.version}",
                    "card",
                    f"card valid (A2A-Version {wire.version})",
                    status,
                    detail,
                    "§7 CARD_GET_002",
                    ids,
                )
            )
            docs.append((fetched.doc, checks[-1]))
    return checks, core, reports, None


def caching_checks(ex: Any, ids: tuple[str, ...]) -> list[Check]:
    """The card's caching headers (A2A 1.0 §8.6.1): Cache-Control with a max-age and an ETag
    (SHOULD: a warning when absent), Last-Modified (MAY: information)."""

    control = ex.header("Cache-Control") or ""
    max_age = any(d.strip().lower().startswith(("max-age=", "s-maxage=")) for d in control.split(","))
    etag, modified = ex.header("ETag"), ex.header("Last-Modified")
    rows = (
        ("card.cache-control", max_age, f"Cache-Control: {control}" if control else "no Cache-Control header"),
        ("card.etag", bool(etag), f"ETag: {etag}" if etag else "no ETag header"),
        ("card.last-modified", bool(modified), f"Last-Modified: {modified}" if modified else "none (optional)"),
    )
    out = []
    for name, ok, said in rows:
        status = PASS if ok else broken(name)
        detail = said + ("" if ok or name != "card.cache-control" or not control else " (no max-age)")
        out.append(Check(name, "card", RULES[name].what, status, detail, cite(name), ids))
    return out


def signature_check(doc: Any, call: Any = None, opts: CallOptions | None = None) -> Check:
    """The card's signatures (A2A §8.4, CARD_GET_004): verified passes, invalid fails,
    unverifiable warns, absent is skipped (signing is optional). `call`: a Call whose transport
    fetches a jku (None: one is opened with `opts`, for its TLS options, when the card is signed)."""
    from a2acli.wire import signing

    title, spec = "card signature", "§8.1 CARD_GET_004"
    if not (isinstance(doc, dict) and doc.get("signatures")):
        return Check("card.signature", "card", title, SKIP, "absent: the card is not signed (optional, A2A §8.4)", spec)
    from a2acli.transport.signature import verify_card

    if call is None:
        with _call((opts or CallOptions())._replace(version_auto=False)) as own:
            outcome = verify_card(doc, own.transport)
    else:
        outcome = verify_card(doc, call.transport)
    status = {signing.VERIFIED: PASS, signing.INVALID: FAIL}.get(outcome.status, WARN)
    detail = signing.outcome_line(outcome).split(": ", 1)[1] + (f" ({outcome.hint})" if outcome.hint else "")
    return Check("card.signature", "card", title, status, detail, spec)


def _well_known(call: Any, base: str) -> list[Check]:
    from a2acli.transport.card import get_card
    from a2acli.wire import CARD_PATHS

    out = []
    for path in CARD_PATHS:
        try:
            ex = get_card(call.transport, base + path)
        except A2acliError as e:
            out.append(
                Check(
                    f"card.path{path.replace('/.well-known/', '.')}",
                    "card",
                    f"GET {path}",
                    FAIL,
                    e.message,
                    "§7 discovery",
                    call.ids.take(),
                )
            )
            continue
        legacy = path.endswith("agent.json")
        ok = ex.status == 200
        status = PASS if ok or legacy else FAIL
        detail = f"HTTP {ex.status}" + (" (the path of 0.2 and older; optional)" if legacy else "")
        out.append(
            Check(
                f"card.path{path.replace('/.well-known/', '.')}",
                "card",
                f"GET {path}",
                status,
                detail,
                "§7 discovery",
                call.ids.take(),
            )
        )
    return out
