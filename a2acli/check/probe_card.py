"""The card part of `a2a check URL`: found at its well-known paths, its Content-Type and caching
headers, its signature, and its validation (card.py) under each version header."""

from __future__ import annotations

from typing import Any

from a2acli.check.checks import FAIL, PASS, SKIP, WARN, Check, _call, counted, finding
from a2acli.errors import A2acliError
from a2acli.pipeline.options import CallOptions
from a2acli.wire import Wire


def card_checks(opts: CallOptions) -> tuple[list[Check], dict[str, Any] | None, list[Any], int | None]:
    """The card: found, where, its Content-Type and caching headers, the legacy path, and its
    validation under each version header. Returns the checks, the canonical V1 card, the card
    reports (for the findings), and the exit code of a discovery that failed (None when the card
    was found: then the canonical card is there)."""
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
                    return [finding("card.fetch", FAIL, detail, ids=call.ids.take())], None, [], int(e.exit_code)
                checks.append(
                    finding(
                        "card.fetch",
                        FAIL,
                        e.message,
                        check_id="card.fetch.0.3",
                        title="card under A2A-Version 0.3",
                        ids=call.ids.take(),
                    )
                )
                continue
            ids = call.ids.take()
            if wire is Wire.V1:
                core = call.target.card
                checks += _first_fetch(call, fetched, ids)
            checks.append(_validity(fetched, wire, ids, docs, reports))
    return checks, core, reports, None


def _first_fetch(call: Any, fetched: Any, ids: tuple[str, ...]) -> list[Check]:
    """The card as first fetched: found, signed, served as JSON with its caching headers, at the
    well-known paths of the version it declares."""
    out = [finding("card.fetch", PASS, fetched.url, ids=ids), signature_check(fetched.doc, call)]
    ex = fetched.exchange
    if ex is None:
        return out
    ctype = ex.content_type
    ok = ctype == "application/json" or ctype.endswith("+json")
    detail = ctype or "none" if ok else f"{ctype or 'none'}: serve application/json"
    out.append(finding("card.content-type", PASS if ok else FAIL, detail, ids=ids))
    declared = declared_protocol_versions(fetched.doc)
    out += caching_checks(ex, ids, declared)
    base = fetched.url.split("/.well-known/")[0] if "/.well-known/" in fetched.url else None
    if base:
        out += _well_known(call, base, declared)
    return out


def _validity(fetched: Any, wire: Wire, ids: tuple[str, ...], docs: list[Any], reports: list[Any]) -> Check:
    """The card fetched under `wire`'s header, validated (once per distinct document)."""
    from a2acli.check.card import validate_card

    check_id, title = f"card.valid.{wire.version}", f"card valid (A2A-Version {wire.version})"
    same = next((c for d, c in docs if d == fetched.doc), None)
    if same is not None:  # judged once: the same verdict as under the other version
        detail = "the same card as under 1.0" + ("" if same.status == PASS else f": {same.detail}")
        return same._replace(id=check_id, title=title, detail=detail, request_ids=ids)
    report = validate_card(fetched.doc, fetched.url)
    reports.append((wire.version, fetched.url, report))
    status = FAIL if report.errors else WARN if report.warnings else PASS
    head = f"checked as {' + '.join(report.versions)}{' (hybrid)' if report.hybrid else ''}: {counted(report.errors, 'error')}, {counted(report.warnings, 'warning')}"
    first = next((f for f in report.findings if f.severity in ("error", "warning")), None)
    detail = head + (f"; first: {first.path} {first.message}" if first else "")
    check = finding("card.valid", status, detail, check_id=check_id, title=title, ids=ids)
    docs.append((fetched.doc, check))
    return check


def declared_protocol_versions(doc: Any) -> tuple[str, ...]:
    """The protocol versions a card declares: its interfaces' (1.0 form), else its
    `protocolVersion` (0.3 and older). ("0.2.6",) for an agent of 0.2.6."""
    if not isinstance(doc, dict):
        return ()
    listed = doc.get("supportedInterfaces")
    found = [
        str(i.get("protocolVersion"))
        for i in (listed if isinstance(listed, list) else [])
        if isinstance(i, dict) and i.get("protocolVersion")
    ]
    if doc.get("protocolVersion"):
        found.append(str(doc["protocolVersion"]))
    return tuple(dict.fromkeys(found))


def _speaks_1_0(declared: tuple[str, ...]) -> bool:
    return not declared or any(v.split(".")[0] not in ("0", "") for v in declared)


def _before_0_3(declared: tuple[str, ...]) -> bool:
    """Every version the card declares is older than 0.3 (0.2.x: its card lives at agent.json)."""

    def old(v: str) -> bool:
        parts = v.split(".")
        return parts[0] == "0" and len(parts) > 1 and parts[1].isdigit() and int(parts[1]) < 3

    return bool(declared) and all(old(v) for v in declared)


def caching_checks(ex: Any, ids: tuple[str, ...], declared: tuple[str, ...] = ()) -> list[Check]:
    """The card's caching headers (A2A 1.0 §8.6.1): Cache-Control with a max-age and an ETag
    (SHOULD: a warning when absent), Last-Modified (MAY: information). A card that declares
    only 0.3 or older is not held to them: 0.3 has no such rule."""
    control = ex.header("Cache-Control") or ""
    max_age = any(d.strip().lower().startswith(("max-age=", "s-maxage=")) for d in control.split(","))
    etag, modified = ex.header("ETag"), ex.header("Last-Modified")
    rows = (
        ("card.cache-control", max_age, f"Cache-Control: {control}" if control else "no Cache-Control header"),
        ("card.etag", bool(etag), f"ETag: {etag}" if etag else "no ETag header"),
        ("card.last-modified", bool(modified), f"Last-Modified: {modified}" if modified else "none (optional)"),
    )
    out = []
    only_0 = not _speaks_1_0(declared)
    for name, ok, said in rows:
        detail = said + ("" if ok or name != "card.cache-control" or not control else " (no max-age)")
        if only_0 and not ok:
            detail += f" (the card declares only {', '.join(declared)}: A2A 0.3 has no caching rule)"
            out.append(finding(name, SKIP, detail, ids=ids))
        else:
            out.append(finding(name, PASS if ok else FAIL, detail, ids=ids))
    return out


def signature_check(doc: Any, call: Any = None, opts: CallOptions | None = None) -> Check:
    """The card's signatures (A2A §8.4, CARD_GET_004): verified passes, invalid fails,
    unverifiable warns, absent is skipped (signing is optional). `call`: a Call whose transport
    fetches a jku (None: one is opened with `opts`, for its TLS options, when the card is signed)."""
    from a2acli.wire import signing

    if not (isinstance(doc, dict) and doc.get("signatures")):
        return finding("card.signature", SKIP, "absent: the card is not signed (optional, A2A §8.4)")
    from a2acli.transport.signature import verify_card

    if call is None:
        with _call((opts or CallOptions())._replace(version_auto=False)) as own:
            outcome = verify_card(doc, own.transport)
    else:
        outcome = verify_card(doc, call.transport)
    status = {signing.VERIFIED: PASS, signing.INVALID: FAIL}.get(outcome.status, WARN)
    detail = signing.outcome_line(outcome).split(": ", 1)[1] + (f" ({outcome.hint})" if outcome.hint else "")
    return finding("card.signature", status, detail)


def _well_known(call: Any, base: str, declared: tuple[str, ...] = ()) -> list[Check]:
    """The card at each well-known path: agent-card.json is 0.3's and 1.0's (recommended),
    agent.json the path of 0.2 and older: the one an agent that declares only those must serve."""
    from a2acli.transport.card import get_card
    from a2acli.wire import CARD_PATHS

    old = _before_0_3(declared)
    out = []
    for path in CARD_PATHS:
        name = f"card.path{path.replace('/.well-known/', '.')}"
        try:
            ex = get_card(call.transport, base + path)
        except A2acliError as e:
            out.append(finding(name, FAIL, e.message, title=f"GET {path}", ids=call.ids.take()))
            continue
        legacy = path.endswith("agent.json")
        ok = ex.status == 200
        detail = f"HTTP {ex.status}"
        if legacy and not old:
            detail += " (the path of 0.2 and older; optional)"
        if ok or legacy and not old:
            status = PASS
        elif not legacy and old:
            status = SKIP
            detail += f" (the card declares {', '.join(declared)}, whose path is /.well-known/agent.json)"
        else:
            status = FAIL
        if legacy and old and not ok:
            detail += f" (the card declares {', '.join(declared)}: this is its well-known path)"
        out.append(finding(name, status, detail, title=f"GET {path}", ids=call.ids.take()))
    return out
