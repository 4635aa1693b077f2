"""docs/compliance-report.yaml (the official CLI spec's Appendix A report) and the tests agree, both
ways: the report lists exactly the spec's 66 requirement ids, docs/compliance.md and the summary are
what scripts/gen_compliance.py computes (the fail-closed rules of Appendix A.3), every `pass` names
tests, every test it names exists and carries `pytest.mark.spec` citing that id, and every id any
spec marker under tests/ cites is in the report with that test listed. A static AST scan: no
collection, so it is quick and needs none of the extras."""

from __future__ import annotations

import ast
import copy
import importlib.util
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml  # the dev extra

import a2acli

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"

# The registry of the official CLI spec v0.2 (COMPLIANCE.md, revision 2026-08-17): id -> tier.
REGISTRY: dict[str, int] = {
    **dict.fromkeys(
        """CARD_GET_001 SEND_001 SEND_002 SEND_003 SEND_004 SEND_005 SEND_006 TASK_GET_001 TASK_CANCEL_001
        INTERACT_001 INTERACT_002 INTERACT_003 INTERACT_004 INTERACT_005 TASK_POLL_001 TASK_POLL_002
        TASK_POLL_003 TASK_POLL_004 OUT_001 OUT_002 OUT_003 OUT_004 OUT_005 OUT_006 EXIT_001 EXIT_002
        AUTH_001 AUTH_002 AUTH_003 AUTH_004 TX_001 TX_002 TX_003 VER_001 DEFAULT_001 CONFIG_001 CLI_001
        SKILL_001 SKILL_002""".split(),
        1,
    ),
    **dict.fromkeys(
        """CARD_GET_002 TASK_LIST_001 TASK_SUBSCRIBE_001 TASK_SUBSCRIBE_002 AUTH_005 AUTH_006 AUTH_007
        TX_004 VER_003 CONFIG_002 DOWNLOAD_001 OUT_007 CONFORM_001 CLI_002 PUSH_001""".split(),
        2,
    ),
    **dict.fromkeys(
        """CARD_GET_003 AUTH_008 CARD_GET_004 CARD_GET_005 PUSH_002 CHAT_001 TX_005 AUTH_009 AUTH_010
        AUTH_011 DEMO_SERVER_001 VER_002""".split(),
        3,
    ),
}
REGISTRY = {f"A2ACLI_{k}": v for k, v in REGISTRY.items()}
# Each requirement's `Spec §` cell in COMPLIANCE.md's tier tables (SPEC.md's own section numbers).
SPEC_SECTIONS: dict[str, str] = {
    "A2ACLI_CARD_GET_001": "§10.1, §13",
    "A2ACLI_SEND_001": "§10.2",
    "A2ACLI_SEND_002": "§10.2, §6.5",
    "A2ACLI_SEND_003": "§10.2, §9.2",
    "A2ACLI_SEND_004": "§10.2",
    "A2ACLI_SEND_005": "§10.2",
    "A2ACLI_SEND_006": "§10.2",
    "A2ACLI_TASK_GET_001": "§10.3",
    "A2ACLI_TASK_CANCEL_001": "§10.4",
    "A2ACLI_INTERACT_001": "§8.1",
    "A2ACLI_INTERACT_002": "§8.1",
    "A2ACLI_INTERACT_003": "§4.1, §4",
    "A2ACLI_INTERACT_004": "§8.2",
    "A2ACLI_INTERACT_005": "§6.3, §4.1, §8.3",
    "A2ACLI_TASK_POLL_001": "§9.3",
    "A2ACLI_TASK_POLL_002": "§9.3",
    "A2ACLI_TASK_POLL_003": "§9.1, §9.3",
    "A2ACLI_TASK_POLL_004": "§9.3",
    "A2ACLI_OUT_001": "§11.1, §11.5, §8.2",
    "A2ACLI_OUT_002": "§11.3, App. B",
    "A2ACLI_OUT_003": "§11.3, §11.4, App. B",
    "A2ACLI_OUT_004": "§11.4, App. B, App. D",
    "A2ACLI_OUT_005": "§11.2, §6.1",
    "A2ACLI_OUT_006": "§11.5",
    "A2ACLI_EXIT_001": "§11.6, App. D",
    "A2ACLI_EXIT_002": "§6.6, §11.6",
    "A2ACLI_AUTH_001": "§12.1",
    "A2ACLI_AUTH_002": "§12.1, §6.5",
    "A2ACLI_AUTH_003": "§12.1, §6.5",
    "A2ACLI_AUTH_004": "§12.1, §7.2",
    "A2ACLI_TX_001": "§13.1",
    "A2ACLI_TX_002": "§13.1, §6.5",
    "A2ACLI_TX_003": "§13.1",
    "A2ACLI_VER_001": "§13.2",
    "A2ACLI_DEFAULT_001": "§6.5",
    "A2ACLI_CONFIG_001": "§8.3",
    "A2ACLI_CLI_001": "§7.1, §7.2, §6.5",
    "A2ACLI_SKILL_001": "§14.1, §14.2",
    "A2ACLI_SKILL_002": "§14.3",
    "A2ACLI_CARD_GET_002": "§10.1",
    "A2ACLI_TASK_LIST_001": "§7.1, App. A",
    "A2ACLI_TASK_SUBSCRIBE_001": "§7.1, §9.2",
    "A2ACLI_TASK_SUBSCRIBE_002": "§9.4, §9.2",
    "A2ACLI_AUTH_005": "§12.2",
    "A2ACLI_AUTH_006": "§12.2",
    "A2ACLI_AUTH_007": "§12.2",
    "A2ACLI_TX_004": "§13.1",
    "A2ACLI_VER_003": "§13.3",
    "A2ACLI_CONFIG_002": "§8.3",
    "A2ACLI_DOWNLOAD_001": "§7.1",
    "A2ACLI_OUT_007": "§7.2",
    "A2ACLI_CONFORM_001": "§7.1",
    "A2ACLI_CLI_002": "§7.1",
    "A2ACLI_PUSH_001": "§7.1, App. A",
    "A2ACLI_CARD_GET_003": "§10.1, §12.4",
    "A2ACLI_AUTH_008": "§12.4",
    "A2ACLI_CARD_GET_004": "§10.1",
    "A2ACLI_CARD_GET_005": "§10.1",
    "A2ACLI_PUSH_002": "§9.2",
    "A2ACLI_CHAT_001": "§8.1, §7.1",
    "A2ACLI_TX_005": "§13.1",
    "A2ACLI_AUTH_009": "§12.3",
    "A2ACLI_AUTH_010": "§12.3",
    "A2ACLI_AUTH_011": "§12.3",
    "A2ACLI_DEMO_SERVER_001": "§7.1, §3",
    "A2ACLI_VER_002": "§13.3, A2A §4.6",
}
CONDITIONAL = {"A2ACLI_TX_003", "A2ACLI_SKILL_001", "A2ACLI_SKILL_002"}  # the only rows `na` may mark
ERROR_CODES = {f"A2ACLI_ERR_{c}" for c in "USAGE CARD_NOT_FOUND CARD_INVALID UNREACHABLE CREDENTIALS_MISSING AUTH_FAILED TIMEOUT INTERNAL".split()}


@cache
def gen() -> Any:
    spec = importlib.util.spec_from_file_location("gen_compliance", ROOT / "scripts" / "gen_compliance.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@cache
def report() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "docs" / "compliance-report.yaml").read_text(encoding="utf-8"))


def rows() -> dict[str, dict[str, Any]]:
    return report()["requirements"]


# -- the static scan of spec markers ------------------------------------------------------------


def _spec_ids(node: ast.expr, where: str) -> list[str]:
    """The ids of a `pytest.mark.spec(...)` call (or of a list/tuple holding one); [] otherwise."""
    if isinstance(node, (ast.List, ast.Tuple)):
        return [i for elt in node.elts for i in _spec_ids(elt, where)]
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "spec"):
        return []
    mark = node.func.value
    if not (isinstance(mark, ast.Attribute) and mark.attr == "mark"):
        return []
    ids = []
    for arg in node.args:
        assert isinstance(arg, ast.Constant) and isinstance(arg.value, str), f"{where}: pytest.mark.spec takes literal ids"
        ids.append(arg.value)
    assert ids, f"{where}: pytest.mark.spec() cites no id"
    return ids


def _pytestmark(body: list[ast.stmt], where: str) -> list[str]:
    ids: list[str] = []
    for stmt in body:
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in stmt.targets):
            ids += _spec_ids(stmt.value, where)
    return ids


@cache
def scan() -> dict[str, set[str]]:
    """Node id (`tests/x.py::test_f` or `tests/x.py::Class::test_f`) of every test function -> the
    spec ids it carries (its own decorators, its class's and the module's pytestmark)."""
    found: dict[str, set[str]] = {}
    for path in sorted(TESTS.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=rel)
        module_ids = _pytestmark(tree.body, rel)

        def add(fn: ast.FunctionDef | ast.AsyncFunctionDef, prefix: str, inherited: list[str]) -> None:
            node = f"{prefix}::{fn.name}"
            found[node] = set(inherited) | {i for d in fn.decorator_list for i in _spec_ids(d, node)}

        for stmt in tree.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name.startswith("test"):
                add(stmt, rel, module_ids)
            elif isinstance(stmt, ast.ClassDef):
                cls = f"{rel}::{stmt.name}"
                class_ids = module_ids + [i for d in stmt.decorator_list for i in _spec_ids(d, cls)] + _pytestmark(stmt.body, cls)
                for sub in stmt.body:
                    if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)) and sub.name.startswith("test"):
                        add(sub, cls, class_ids)
    return found


# -- the report against the registry --------------------------------------------------------------


def test_the_report_lists_exactly_the_registry_ids_with_their_tiers():
    assert len(REGISTRY) == 66 and [list(REGISTRY.values()).count(t) for t in (1, 2, 3)] == [39, 15, 12]
    assert gen().TIER_TOTALS == {1: 39, 2: 15, 3: 12}
    assert set(rows()) == set(REGISTRY), f"missing {sorted(set(REGISTRY) - set(rows()))}, unknown {sorted(set(rows()) - set(REGISTRY))}"
    for rid, row in rows().items():
        assert row["tier"] == REGISTRY[rid], rid
        assert rid == f"A2ACLI_{row['area']}_{rid.rsplit('_', 1)[1]}", rid
        assert {"tier", "area", "spec", "requirement", "status", "note", "evidence"} <= set(row), rid
        assert row["spec"] and row["requirement"], rid


def test_each_row_cites_the_spec_sections_compliance_md_gives_it():
    assert set(SPEC_SECTIONS) == set(REGISTRY)
    wrong = {rid: (row["spec"], SPEC_SECTIONS[rid]) for rid, row in rows().items() if row["spec"] != SPEC_SECTIONS[rid]}
    assert not wrong, f"spec cells that are not COMPLIANCE.md's (report, registry): {wrong}"


def test_the_report_names_the_tool_the_spec_revision_and_the_agent():
    r = report()["report"]
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert r["tool"] == "a2a" and r["tool_version"] == a2acli.__version__
    assert re.search(rf'^version = "{re.escape(a2acli.__version__)}"$', pyproject, re.M)
    assert (r["spec_version"], r["spec_revision"]) == ("0.2", "2026-08-17")
    assert r["agent_tck_conformant"] in ("yes", "no", "unknown") and "demo-server" in r["agent_tested"]
    assert set(r["transports_covered"]) <= {"JSON-RPC", "HTTP+JSON", "gRPC"} and r["transports_covered"]
    assert set(report()["error_codes"]) == ERROR_CODES
    assert set(report()["default_001_breakdown"]) == set(gen().BREAKDOWN)
    for code, entry in report()["error_codes"].items():
        assert entry["emitted"] in (True, False) and (entry["emitted"] or entry["note"]), code
    assert report()["attestation"]["reported_by"] and report()["attestation"]["date"]


def test_the_markdown_and_the_summary_are_what_the_script_computes():
    g = gen()
    text = (ROOT / "docs" / "compliance-report.yaml").read_text(encoding="utf-8")
    assert g.with_summary(text, g.summary(report())) == text, "stale summary: run python scripts/gen_compliance.py"
    assert report()["summary"] == g.summary(report())
    md = (ROOT / "docs" / "compliance.md").read_text(encoding="utf-8")
    assert g.markdown(report()) == md, "stale docs/compliance.md: run python scripts/gen_compliance.py"
    assert g.main(["--check"]) == 0


# -- the fail-closed rules (Appendix A.3) -----------------------------------------------------------


def test_the_rows_keep_the_fail_closed_rules():
    r = report()
    assert r["report"]["designation"] == "conformant"
    for rid, row in rows().items():
        assert row["status"] in gen().STATUSES and row["status"] != "withdrawn", f"{rid}: {row['status']!r}"
        if row["status"] != "pass":
            assert isinstance(row["note"], str) and row["note"].strip(), f"{rid} is {row['status']} without a note"
        if row["status"] == "pass":
            assert "pending:" not in str(row["note"] or "").lower(), f"{rid} passes with a pending note"
        if row["status"] == "na":
            assert rid in CONDITIONAL, f"{rid}: only a conditional requirement may be na"
        if "deviation" in str(row["note"] or "").lower():  # a deliberate deviation is never a pass
            assert row["status"] == "partial", f"{rid}: its note names a deviation, so it is partial, not {row['status']}"
    if rows()["A2ACLI_DEFAULT_001"]["status"] == "pass":
        assert gen().breakdown_complete(r), "DEFAULT_001 passes only when every breakdown row is shipped and overridable"
    assert r["report"]["tier_claimed"] == gen().supported_tier(gen().summary(r))


def _all(status: str) -> dict[str, Any]:
    r = copy.deepcopy(report())
    for row in r["requirements"].values():
        row["status"] = status
    for b in r["default_001_breakdown"].values():
        b["shipped"] = b["overridable"] = True
    return r


def test_the_computed_summary_fails_closed():
    g = gen()
    every = _all("pass")
    assert [g.summary(every)[f"tier_{t}"]["satisfied"] for t in (1, 2, 3)] == [True, True, True] and g.supported_tier(g.summary(every)) == 3
    missing = copy.deepcopy(every)
    del missing["requirements"]["A2ACLI_SEND_001"]
    s = g.summary(missing)
    assert not s["tier_1"]["satisfied"] and not s["tier_3"]["satisfied"] and s["tier_1"]["not_measured"] == 1  # cumulative
    assert not g.summary({"requirements": {}, "default_001_breakdown": {}})["tier_1"]["satisfied"]
    assert not any(v["satisfied"] for v in g.summary(_all("not_measured")).values())
    odd = copy.deepcopy(every)
    odd["requirements"]["A2ACLI_TX_004"]["status"] = "passed"  # unrecognised: never skipped
    assert g.summary(odd)["tier_1"]["satisfied"] and not g.summary(odd)["tier_2"]["satisfied"]
    bare = copy.deepcopy(every)
    bare["default_001_breakdown"]["detail_level_concise"]["overridable"] = False
    assert not g.summary(bare)["tier_1"]["satisfied"]
    na = copy.deepcopy(every)
    na["requirements"]["A2ACLI_SKILL_001"]["status"] = "na"
    assert g.summary(na)["tier_1"]["satisfied"] and g.summary(na)["tier_1"]["na"] == 1
    for s in g.summary(report()).values():
        assert sum(s[k] for k in g.COUNTED) == s["total"]


# -- the report and the tests, both ways ------------------------------------------------------------


def test_every_pass_names_at_least_one_test():
    bare = [rid for rid, row in rows().items() if row["status"] == "pass" and not row["evidence"]]
    assert not bare, f"pass without a test: {bare}"


def test_every_test_a_row_names_exists_and_carries_the_spec_marker_for_that_row():
    tests = scan()
    for rid, row in rows().items():
        evidence = row["evidence"] or []
        assert isinstance(evidence, list) and len(evidence) == len(set(evidence)), rid
        for node in evidence:
            assert re.fullmatch(r"tests/[\w/]+\.py::\w+(::\w+)?", node), f"{rid}: {node!r} is not a node id (no [params])"
            assert (ROOT / node.split("::")[0]).is_file(), f"{rid}: {node}: no such file"
            assert node in tests, f"{rid}: {node}: no such test function"
            assert rid in tests[node], f"{rid}: {node} does not carry pytest.mark.spec({rid!r})"


def test_every_spec_marker_cites_a_registry_id_whose_row_lists_that_test():
    cited = {node: ids for node, ids in scan().items() if ids}
    assert len(cited) > 50  # the scan sees the markers (a broken scan must not pass vacuously)
    for node, ids in cited.items():
        for rid in ids:
            assert rid in REGISTRY, f"{node} cites {rid!r}, which is no requirement id of the spec"
            assert node in (rows()[rid]["evidence"] or []), f"{node} cites {rid} but the report's {rid} row does not list it"


def test_the_scan_reads_decorators_class_marks_and_pytestmark(tmp_path, monkeypatch):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "import pytest\n"
        "pytestmark = [pytest.mark.integration, pytest.mark.spec('A2ACLI_SEND_001')]\n"
        "@pytest.mark.spec('A2ACLI_SEND_002', 'A2ACLI_OUT_006')\n@pytest.mark.parametrize('x', [1])\ndef test_a(x): pass\n"
        "def helper(): pass\n"
        "@pytest.mark.spec('A2ACLI_TX_001')\nclass TestC:\n    pytestmark = pytest.mark.spec('A2ACLI_TX_002')\n    def test_m(self): pass\n"
    )
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    monkeypatch.setattr(f"{__name__}.TESTS", tmp_path / "tests")
    scan.cache_clear()
    try:
        assert scan() == {
            "tests/test_x.py::test_a": {"A2ACLI_SEND_001", "A2ACLI_SEND_002", "A2ACLI_OUT_006"},
            "tests/test_x.py::TestC::test_m": {"A2ACLI_SEND_001", "A2ACLI_TX_001", "A2ACLI_TX_002"},
        }
    finally:
        scan.cache_clear()


# -- CONFORM_001 against the TCK's catalogue (the report's tck_coverage, a2acli/check/rules.py) ------


def test_tck_coverage_and_the_check_rules_agree():
    """Every TCK id a rule of `a2a check` cites is listed as probed by that rule; every check the
    block names exists; a requirement no check probes says why."""
    from a2acli.check.rules import RULES

    coverage = report()["tck_coverage"]
    base = {"reachable", "task-not-found", "version-unsupported", "version-missing", "method-not-found", "invalid-params", "message-send", "streaming", "push-config", "push-delivery", "extended-card", "list-tasks", "card.fetch", "card.valid", "card.signature"}
    for tck_id, row in coverage.items():
        assert row["level"] in ("MUST", "SHOULD", "MAY"), tck_id
        assert set(row["checks"]) <= base | set(RULES), f"{tck_id} names a check a2a check does not have: {row['checks']}"
        assert row["checks"] or row.get("note"), f"{tck_id}: probed by no check, and no note says why"
    for name, rule in RULES.items():
        for tck_id in rule.tck.split():
            assert name in coverage[tck_id]["checks"], f"rule {name} cites {tck_id}, which tck_coverage does not list it under"
    probed = sum(1 for row in coverage.values() if row["checks"])
    assert f"of the catalogue's {len(coverage)} requirements (1.0-dev), {probed} are probed" in rows()["A2ACLI_CONFORM_001"]["note"]


@pytest.mark.parametrize("argv", [["tasks", "get", "t-1"], ["tasks", "cancel", "t-1"], ["card", "fetch"]])
def test_the_appendix_b_single_line_stream_forms_are_refused_as_the_report_says(cli, argv):
    """not_in_the_registry: §7.2 gives --stream to send and task subscribe only; a2a follows it."""
    report = yaml.safe_load((ROOT / "docs" / "compliance-report.yaml").read_text(encoding="utf-8"))
    assert any("Appendix B" in i["item"] and "Refused" in i["choice"] for i in report["not_in_the_registry"])
    result = cli(*argv, "-u", "http://agent.test", "-o", "json", "--stream")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"]["code"] == "A2ACLI_ERR_USAGE" and "--stream" in result.stdout


def test_every_item_outside_the_registry_says_what_a2a_chose():
    report = yaml.safe_load((ROOT / "docs" / "compliance-report.yaml").read_text(encoding="utf-8"))
    items = report["not_in_the_registry"]
    assert len(items) >= 3 and all(i.get("item") and i.get("spec") and i.get("choice") for i in items)
