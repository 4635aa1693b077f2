"""What `a2a check` prints: a table per group (the card, each interface) on a terminal, plain lines
off one, one JSON document under -o json, and JUnit XML (--junit FILE) for CI systems. And the
verdict: the exit code."""

from __future__ import annotations

from typing import Any

from a2acli.check.checks import FAIL, PASS, SKIP, WARN, Check, counted, finding

MARK = {PASS: "PASS", FAIL: "FAIL", WARN: "WARN", SKIP: "skip"}
SEVERITY = {FAIL: "failure", WARN: "warning", SKIP: "skipped", PASS: "passed"}  # JUnit's words


def card_findings_checks(report: Any, url: str | None, version: str = "") -> list[Check]:
    """A card report as checks (`a2a check card`): one per version checked."""
    checks = []
    for v in report.versions or ("",):  # (none: the card is no JSON object, no version to read)
        mine = [f for f in report.findings if f.version in (v, "")]
        errors = sum(1 for f in mine if f.severity == "error")
        warnings = sum(1 for f in mine if f.severity == "warning")
        status = FAIL if errors else WARN if warnings else PASS
        hybrid = " (hybrid card)" if report.hybrid else ""
        title = f"card valid as A2A {v}{hybrid}" if v else "card valid as an A2A Agent Card"
        detail = f"{counted(errors, 'error')}, {counted(warnings, 'warning')}"
        checks.append(finding("card.schema", status, detail, check_id=f"card.schema.{v or 'unknown'}", title=title))
    return checks


def summary(checks: list[Check]) -> dict[str, int]:
    return {s: sum(1 for c in checks if c.status == s) for s in (PASS, FAIL, WARN, SKIP)}


def exit_code(checks: list[Check], *, strict: bool) -> int:
    bad = {FAIL, WARN} if strict else {FAIL}
    return 1 if any(c.status in bad for c in checks) else 0


PROBLEMS = (FAIL, WARN)  # what --only-problems keeps: not a pass, and not a skip


def document(
    target: str | None,
    checks: list[Check],
    cards: list[tuple[str, str | None, Any]],
    *,
    strict: bool,
    only_problems: bool = False,
) -> dict[str, Any]:
    """The -o json document: every check (the failures and warnings alone with `only_problems`;
    the summary counts them all), and every card's findings."""
    return {
        "target": target,
        "passed": exit_code(checks, strict=strict) == 0,
        "strict": strict,
        "summary": summary(checks),
        "cards": [
            {
                "fetchedWith": version,
                "url": url,
                "versions": list(r.versions),
                "hybrid": r.hybrid,
                "findings": [f.as_json() for f in r.findings],
            }
            for version, url, r in cards
        ],
        "checks": [c.as_json() for c in checks if not only_problems or c.status in PROBLEMS],
    }


def render_text(
    out: Any,
    target: str | None,
    checks: list[Check],
    cards: list[tuple[str, str | None, Any]],
    *,
    strict: bool,
    show_info: bool = True,
    only_problems: bool = False,
) -> None:
    """On a terminal: a table per group; off one, one line per check and per finding (the
    information findings only counted unless `show_info`: -o json has them all). Then the recap:
    every failure and warning again, with its id, above the verdict. `only_problems`: the card's
    errors and warnings, the recap and the verdict alone."""
    groups: dict[str, list[Check]] = {}
    for c in checks if not only_problems else ():  # --only-problems: the recap alone says them
        groups.setdefault(c.group, []).append(c)
    for version, url, report in cards:
        shown = [f for f in report.findings if show_info and not only_problems or f.severity in ("error", "warning")]
        if not shown:
            continue
        title = f"Card findings ({url or 'stdin'}" + (f", fetched with A2A-Version {version}" if version else "") + ")"
        rows = [[f.severity, f.path, f.message] for f in shown]
        if out.rich:
            out.table(["severity", "path", "finding"], rows, title=title, keep=("path",))
        else:
            out.text(title)
            for sev, path, msg in rows:
                out.text(f"  {sev:<7} {path}: {msg}")
            out.text("")
    for group, items in groups.items():
        if out.rich:
            out.table(["check", "result", "detail"], [[c.title, MARK[c.status], c.detail] for c in items], title=group)
        else:
            out.text(group)
            for c in items:
                out.text(f"  {MARK[c.status]:<4}  {c.title}: {c.detail}")
            out.text("")
    _recap(out, checks)
    s = summary(checks)
    verdict = "passed" if exit_code(checks, strict=strict) == 0 else "FAILED"
    out.text(
        f"{verdict}: {s[PASS]} passed, {s[FAIL]} failed, {counted(s[WARN], 'warning')}, {s[SKIP]} skipped"
        + (" (--strict: warnings fail)" if strict else "")
    )


def _recap(out: Any, checks: list[Check]) -> None:
    """Every failure, then every warning, one line each with its id and the level it rests on:
    what the verdict's counts are made of, where a reader of a long report looks last."""
    problems = sorted((c for c in checks if c.status in PROBLEMS), key=lambda c: c.status != FAIL)
    if not problems:
        return
    failures, warnings = sum(1 for c in problems if c.status == FAIL), sum(1 for c in problems if c.status == WARN)
    said = [counted(n, word) for n, word in ((failures, "failure"), (warnings, "warning")) if n]
    out.text(" and ".join(said) + ":")
    for c in problems:
        out.text(f"  {MARK[c.status]:<4}  {c.id} ({c.level or '?'}): {c.title}: {c.detail}")
    out.text("")


def junit(checks: list[Check], *, strict: bool, name: str = "a2a check") -> str:
    """JUnit XML: one testsuite per group, one testcase per check (warn is a failure under --strict)."""
    from xml.etree import ElementTree as ET

    root = ET.Element("testsuites", name=name, tests=str(len(checks)))
    groups: dict[str, list[Check]] = {}
    for c in checks:
        groups.setdefault(c.group, []).append(c)
    failures_total = 0
    for group, items in groups.items():
        failed = [c for c in items if c.status == FAIL or (strict and c.status == WARN)]
        failures_total += len(failed)
        suite = ET.SubElement(
            root,
            "testsuite",
            name=group,
            tests=str(len(items)),
            failures=str(len(failed)),
            skipped=str(sum(1 for c in items if c.status == SKIP)),
            errors="0",
        )
        for c in items:
            case = ET.SubElement(suite, "testcase", classname=group, name=f"{c.id}: {c.title}")
            props = ET.SubElement(case, "properties")  # every finding with its severity and its source
            ET.SubElement(props, "property", name="severity", value=SEVERITY[c.status])
            ET.SubElement(props, "property", name="spec", value=c.spec)
            ET.SubElement(props, "property", name="level", value=c.level)  # MUST, SHOULD, MAY: what the status follows
            if c.status == FAIL or (strict and c.status == WARN):
                ET.SubElement(
                    case, "failure", message=c.detail, type=c.status
                ).text = f"{c.detail}\nspec: {c.spec}\nX-Request-IDs: {', '.join(c.request_ids) or 'none'}"
            elif c.status == SKIP:
                ET.SubElement(case, "skipped", message=c.detail)
            elif c.status == WARN:
                ET.SubElement(case, "system-out").text = f"warning: {c.detail}"
    root.set("failures", str(failures_total))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
