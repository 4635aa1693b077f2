#!/usr/bin/env python3
"""Generate docs/compliance.md, and the `summary:` block of docs/compliance-report.yaml, from the
report's requirement rows (the YAML is the single source).

    python scripts/gen_compliance.py          # rewrite both
    python scripts/gen_compliance.py --check  # exit 1 when either is stale (tests/test_compliance.py too)

The per-tier counts and `satisfied` are computed here with the fail-closed rules of the official
CLI spec's COMPLIANCE.md Appendix A.3: a missing row counts as not measured, only `pass` (and `na`)
satisfies, an unknown status never does, `DEFAULT_001: pass` needs every breakdown row yes/yes, and
tiers are cumulative. Needs PyYAML (the `dev` extra)."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
REPORT = ROOT / "docs" / "compliance-report.yaml"
MARKDOWN = ROOT / "docs" / "compliance.md"

# Requirements per tier in the registry of spec v0.2 (COMPLIANCE.md §3); withdrawn ones (none yet)
# would come off these totals.
TIER_TOTALS = {1: 39, 2: 15, 3: 12}
TIER_NAMES = {1: "Tier 1 — Core", 2: "Tier 2 — Standard", 3: "Tier 3 — Advanced"}
COUNTED = ["pass", "partial", "fail", "not_measured", "na"]
STATUSES = [*COUNTED, "withdrawn"]
MARKS = {"pass": "✅ Pass", "partial": "◐ Partial", "fail": "❌ Fail", "not_measured": "⊘ Not measured", "na": "— N/A", "withdrawn": "⊗ Withdrawn"}
BREAKDOWN = {
    "transport_server_preference_order": "Transport — server preference order",
    "task_completion_wait_by_default": "Task completion — wait by default",
    "output_human_readable_text": "Output — human-readable `text`",
    "detail_level_concise": "Detail level — concise",
    "protocol_version_highest_mutual": "Protocol version — highest mutually supported, never below 1.0",
    "transport_security_tls_on": "Transport security — TLS verification on",
}
ERROR_CODES = ["USAGE", "CARD_NOT_FOUND", "CARD_INVALID", "UNREACHABLE", "CREDENTIALS_MISSING", "AUTH_FAILED", "TIMEOUT", "INTERNAL"]


def load(path: Path = REPORT) -> dict[str, Any]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def yes(value: Any) -> bool:
    """YAML 1.1 reads a bare yes as True; a quoted "yes" is a string."""
    return value is True or str(value).lower() == "yes"


def breakdown_complete(report: dict[str, Any]) -> bool:
    rows = report.get("default_001_breakdown") or {}
    return all(isinstance(rows.get(key), dict) and yes(rows[key].get("shipped")) and yes(rows[key].get("overridable")) for key in BREAKDOWN)


def effective_status(report: dict[str, Any], rid: str, row: Any) -> str:
    """The status that counts: an unknown value, or DEFAULT_001 pass without its breakdown, is not
    a pass (A.3 rules 2 and 4)."""
    status = row.get("status") if isinstance(row, dict) else None
    if status not in STATUSES:
        return "unknown"
    if rid == "A2ACLI_DEFAULT_001" and status == "pass" and not breakdown_complete(report):
        return "unknown"
    return str(status)


def summary(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    rows = report.get("requirements") or {}
    out: dict[str, dict[str, Any]] = {}
    lower_satisfied = True
    for tier, total in TIER_TOTALS.items():
        mine = {rid: row for rid, row in rows.items() if isinstance(row, dict) and row.get("tier") == tier}
        statuses = [effective_status(report, rid, row) for rid, row in mine.items()]
        withdrawn = statuses.count("withdrawn")
        active = total - withdrawn
        counts = {s: statuses.count(s) for s in COUNTED}
        missing = active - (len(statuses) - withdrawn)
        counts["not_measured"] += max(missing, 0)  # a missing row is not measured, never a pass
        unknown = statuses.count("unknown")
        counts["fail"] += unknown  # counted against the tier, never skipped
        satisfied = lower_satisfied and missing == 0 and unknown == 0 and counts["pass"] + counts["na"] == active and len(statuses) - withdrawn == active
        out[f"tier_{tier}"] = {"total": active, **counts, "satisfied": satisfied}
        lower_satisfied = satisfied
    return out


def supported_tier(computed: dict[str, dict[str, Any]]) -> int | None:
    best = None
    for tier in TIER_TOTALS:
        if not computed[f"tier_{tier}"]["satisfied"]:
            break
        best = tier
    return best


def summary_yaml(computed: dict[str, dict[str, Any]]) -> str:
    lines = ["# Computed by scripts/gen_compliance.py from the statuses below; do not edit.", "summary:"]
    for key, row in computed.items():
        cells = ", ".join(f"{k}: {str(v).lower() if isinstance(v, bool) else v}" for k, v in row.items())
        lines.append(f"  {key}: {{{cells}}}")
    return "\n".join(lines) + "\n"


def with_summary(text: str, computed: dict[str, dict[str, Any]]) -> str:
    """The YAML text with its summary block (and the comment line above it) replaced."""
    pattern = re.compile(r"^(?:#[^\n]*\n)?summary:\n(?:[ \t]+[^\n]*\n|[ \t]*\n)*", re.M)
    if not pattern.search(text):
        raise SystemExit(f"{REPORT}: no top-level `summary:` block")
    return pattern.sub(lambda m: summary_yaml(computed) + "\n", text, count=1)


def _cell(value: Any) -> str:
    text = "" if value is None else " ".join(str(value).split())
    return text.replace("|", "\\|")


def _yn(value: Any) -> str:
    return "yes" if yes(value) else "no"


def markdown(report: dict[str, Any]) -> str:
    r = report["report"]
    computed = summary(report)
    rows = report.get("requirements") or {}
    claimed = r.get("tier_claimed")
    out: list[str] = []
    add = out.append
    add("# a2a-cli Compliance Report: `a2a`")
    add("")
    add("<!-- Generated by scripts/gen_compliance.py from docs/compliance-report.yaml; edit that file, then rerun the script. -->")
    add("")
    add(
        f"The compliance report of `{r['tool']}` {r['tool_version']} against the official A2A CLI specification `SPEC.md` v{r['spec_version']} (revised {r['spec_revision']}), in the form of its `COMPLIANCE.md`. The machine-readable form, and the single source of this page, is [`compliance-report.yaml`](compliance-report.yaml)."
    )
    add("")
    add("## 1. Summary")
    add("")
    add("| Field | Value |")
    add("| --- | --- |")
    fields = [
        ("Tool name", f"`{r['tool']}` (Python package `a2acli`)"),
        ("Tool version", f"`{r['tool_version']}`"),
        ("Implementation language", r["language"]),
        ("Repository", r["repository"]),
        ("Maintainer / contact", r["maintainer"]),
        ("Report date", r["report_date"]),
        ("Specification version targeted", f"`{r['spec_version']}`"),
        ("Specification revision (Last updated)", f"`{r['spec_revision']}`"),
        ("**Tier claimed**", f"Tier {claimed}" if claimed else "none (no tier is satisfied yet; see §3)"),
        ("A2A protocol version(s)", ", ".join(str(v) for v in r["a2a_versions"])),
        ("Agent exercised against", r["agent_tested"]),
        ("That agent is TCK-conformant?", r["agent_tck_conformant"]),
        ("Transports covered", ", ".join(r["transports_covered"])),
        ("Designation", f"`{r['designation']}`"),
    ]
    for name, value in fields:
        add(f"| {name} | {_cell(value)} |")
    add("")
    add(
        '*Designation is `conformant` for a self-reported compliance report. "Official" is a project decision recorded in the A2A compatibility matrix, never self-asserted here.*'
    )
    add("")
    add("## 2. Legend")
    add("")
    add("| Mark | Meaning |")
    add("| --- | --- |")
    add("| `✅ Pass` | Implemented and verified |")
    add("| `◐ Partial` | Partially implemented — the note says what is missing |")
    add("| `❌ Fail` | Not implemented, or does not behave as specified |")
    add("| `⊘ Not measured` | Applicable, but could not be exercised. **Not a pass** |")
    add("| `— N/A` | Inapplicable to this tool; the note says why. Does not block tier satisfaction |")
    add("| `⊗ Withdrawn` | A retired requirement (unused while the spec is pre-Proposed) |")
    add("")
    add('A note beginning "pending:" names behaviour being built under the same issue; the row flips when it lands with its tests.')
    add("")
    add("## 3. Results at a glance")
    add("")
    add("*Computed from the rows below with the fail-closed rules of `COMPLIANCE.md` Appendix A.3 (a missing row is not measured, only a pass or a genuine N/A satisfies, tiers are cumulative).*")
    add("")
    add("| Tier | Requirements | `✅` | `◐` | `❌` | `⊘` | `—` | Tier satisfied? |")
    add("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for tier in TIER_TOTALS:
        s = computed[f"tier_{tier}"]
        add(f"| {TIER_NAMES[tier]} | {s['total']} | {s['pass']} | {s['partial']} | {s['fail']} | {s['not_measured']} | {s['na']} | {'yes' if s['satisfied'] else 'no'} |")
    add("")
    sections = {1: ("4", "Tier 1 — Core (required)"), 2: ("5", "Tier 2 — Standard"), 3: ("6", "Tier 3 — Advanced")}
    for tier, (num, title) in sections.items():
        add(f"## {num}. {title}")
        add("")
        add("| ID | Requirement | Spec § | Status | Notes |")
        add("| --- | --- | --- | --- | --- |")
        for rid, row in rows.items():
            if isinstance(row, dict) and row.get("tier") == tier:
                mark = MARKS.get(str(row.get("status")), f"? {row.get('status')}")
                add(f"| `{rid}` | {_cell(row.get('requirement'))} | {_cell(row.get('spec'))} | `{mark}` | {_cell(row.get('note'))} |")
        add("")
        if tier == 1:
            add("### 4a. `A2ACLI_DEFAULT_001` breakdown")
            add("")
            add("| Default (§6.5) | Shipped? (yes/no) | Overridable by flag? (yes/no) | Notes |")
            add("| --- | --- | --- | --- |")
            for key, label in BREAKDOWN.items():
                b = (report.get("default_001_breakdown") or {}).get(key) or {}
                add(f"| {label} | {_yn(b.get('shipped'))} | {_yn(b.get('overridable'))} | {_cell(b.get('note'))} |")
            add("")
        if tier == 2:
            tck_coverage(report.get("tck_coverage") or {}, add)
            check_rules(add)
    ev = report.get("test_evidence") or {}
    add("## 7. Test evidence")
    add("")
    add(f"- **How the tool was exercised:** {_cell(ev.get('how'))}")
    add(f"- **Results / logs:** {_cell(ev.get('results'))}")
    add(f"- **Environment:** {_cell(ev.get('environment'))}")
    add(f"- **Known gaps / caveats:** {_cell(ev.get('caveats'))}")
    add("")
    add("To rerun every test below (the integration tests start the demo agent themselves):")
    add("")
    add(
        "<!-- docs-test: skip: installs into the environment and runs the spec-marked tests (minutes; the integration ones start agents of their own); tests/test_compliance.py checks that the markers they select are this report's evidence -->"
    )
    add("```sh")
    add("pip install -e '.[dev]'")
    add("pytest -m spec                          # every test that shows a requirement")
    add('pytest -m "spec and not integration"    # only the ones against mock agents')
    add("```")
    add("")
    add('Each test carries `@pytest.mark.spec("A2ACLI_…")` naming the requirements it shows, and `tests/test_compliance.py` fails the suite when a row and the tests disagree, either way.')
    add("")
    add("| ID | Status | Tests |")
    add("| --- | --- | --- |")
    for rid, row in rows.items():
        if not isinstance(row, dict):
            continue
        tests = row.get("evidence") or []
        shown = "<br>".join(f"`{t}`" for t in tests) if tests else "none yet"
        add(f"| `{rid}` | `{MARKS.get(str(row.get('status')), row.get('status'))}` | {shown} |")
    add("")
    add("## 8. Error code coverage")
    add("")
    add("Which `A2ACLI_ERR_*` codes (`SPEC.md` Appendix D) the tool can emit.")
    add("")
    add("| Code | Emitted (yes/no) | Notes |")
    add("| --- | --- | --- |")
    for name in ERROR_CODES:
        code = f"A2ACLI_ERR_{name}"
        e = (report.get("error_codes") or {}).get(code) or {}
        add(f"| `{code}` | {_yn(e.get('emitted'))} | {_cell(e.get('note'))} |")
    add("")
    att = report.get("attestation") or {}
    add("## 9. Attestation")
    add("")
    add(f"Reported by {_cell(att.get('reported_by'))} on {_cell(att.get('date'))}. {_cell(att.get('statement'))}")
    add("")
    add("## 10. Not in the registry")
    add("")
    add("What the specification asks for that no registry row covers, and what `a2a` chose.")
    add("")
    add("| Item | Spec § | What a2a does |")
    add("| --- | --- | --- |")
    for item in report.get("not_in_the_registry") or []:
        add(f"| {_cell(item.get('item'))} | {_cell(item.get('spec'))} | {_cell(item.get('choice'))} |")
    add("")
    return "\n".join(out)


def tck_coverage(coverage: dict[str, Any], add: Any) -> None:
    """§5a: A2ACLI_CONFORM_001 requirement by requirement, against the official TCK's catalogue."""
    probed = sum(1 for row in coverage.values() if row.get("checks"))
    add("### 5a. `A2ACLI_CONFORM_001` against the A2A TCK's requirement catalogue")
    add("")
    add(
        f"The official TCK (a2aproject/a2a-tck, branch `1.0-dev`) lists {len(coverage)} requirements; `a2a check` probes {probed} of them. "
        "Each check cites its A2A 1.0 or 0.3 section and the TCK id (`a2acli/check/rules.py`); its id in `-o json` is `BINDING-VERSION.CHECK` (`card.CHECK` for the card)."
    )
    add("")
    add("| TCK requirement | Keyword | `a2a check` checks | Not probed because |")
    add("| --- | --- | --- | --- |")
    for tck_id, row in coverage.items():
        checks = ", ".join(f"`{c}`" for c in row.get("checks") or []) or "—"
        add(f"| `{tck_id}` | {row.get('level')} | {checks} | {_cell(row.get('note') or '')} |")
    add("")


def check_rules(add: Any) -> None:
    """§5b: every check of `a2a check`, from its rule table (a2acli/check/rules.py): its level, its
    sections, and the TCK requirement ids (1.0-dev) and tests (0.3.x) that probe the same."""
    sys.path.insert(0, str(ROOT))
    from a2acli.check.rules import RULES

    add("### 5b. Every check of `a2a check`, its level and the TCK's ids")
    add("")
    add(
        "One row per rule of `a2acli/check/rules.py`: the grade of a check follows its level (MUST broken: fail; SHOULD: warning; MAY: information), "
        "under 0.3 the level 0.3 gives where it differs. The TCK's `0.3.x` branch has no requirement ids: its tests are named. "
        "A check's id in `-o json` is `BINDING-VERSION.CHECK` (`card.CHECK` for the card), and its `rule` and `level` are in the document."
    )
    add("")
    add("| Check | Level (1.0 / 0.3) | A2A 1.0 | A2A 0.3 | Also | TCK `1.0-dev` | TCK `0.3.x` | What |")
    add("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, rule in RULES.items():
        level = rule.keyword + (f" / {rule.v03_keyword}" if rule.v03_keyword else "")
        ids = ", ".join(f"`{t}`" for t in rule.tck.split()) or "—"
        tests = ", ".join(f"`{t}`" for t in rule.tck03.split()) or "—"
        add(
            f"| `{name}` | {level} | {rule.v10 or '—'} | {rule.v03 or '—'} | {rule.where or ''} | {ids} | {tests} | {_cell(rule.what)} |"
        )
    add("")


def main(argv: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="gen_compliance.py", description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="exit 1 when docs/compliance.md or the report's summary is stale, without writing them")
    check = parser.parse_args(argv).check  # --help prints this and exits 0; an unknown argument exits 2, writing nothing
    text = REPORT.read_text(encoding="utf-8")
    report = yaml.safe_load(text)
    computed = summary(report)
    claimed, supported = report["report"].get("tier_claimed"), supported_tier(computed)
    if claimed != supported:
        print(f"{REPORT.relative_to(ROOT)}: tier_claimed is {claimed!r} but the rows support {supported!r}", file=sys.stderr)
        return 1
    new_yaml = with_summary(text, computed)
    new_md = markdown(yaml.safe_load(new_yaml))
    stale = [p for p, new in ((REPORT, new_yaml), (MARKDOWN, new_md)) if not p.exists() or p.read_text(encoding="utf-8") != new]
    if check:
        for p in stale:
            print(f"{p.relative_to(ROOT)} is stale: run python scripts/gen_compliance.py", file=sys.stderr)
        return 1 if stale else 0
    for p, new in ((REPORT, new_yaml), (MARKDOWN, new_md)):
        if p in stale:
            p.write_text(new, encoding="utf-8")
            print(f"wrote {p.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
