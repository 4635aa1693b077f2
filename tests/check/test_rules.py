"""The rule table of `a2a check` (a2acli/check/rules.py) holds the level of every check, and the
grade follows it (issue 45): every row is well formed, the grade is derived from the level and from
nothing else, and no result is made outside the one builder that reads the table."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from a2acli.check import checks
from a2acli.check.checks import FAIL, PASS, SKIP, WARN, finding, graded
from a2acli.check.rules import LEVELS, MAY, MUST, RULES, SHOULD, cite, keyword
from a2acli.wire import Wire

CHECK = Path(checks.__file__).parent


@pytest.mark.parametrize("name", sorted(RULES))
def test_every_rule_has_a_level_a_section_and_words(name):
    rule = RULES[name]
    assert rule.keyword in LEVELS and rule.v03_keyword in ("", *LEVELS), name
    assert rule.v10 or rule.v03, f"{name}: no section in either version"
    assert all(s.startswith("§") for part in (rule.v10, rule.v03) if part for s in part.split(", ")), name
    assert rule.what, name
    for wire in (Wire.V1, Wire.V0):
        assert f"({keyword(name, wire)}" in cite(name, wire), (name, cite(name, wire))


@pytest.mark.spec("A2ACLI_CONFORM_001")
@pytest.mark.parametrize("name", sorted(RULES))
@pytest.mark.parametrize("wire", [Wire.V1, Wire.V0])
def test_the_grade_follows_the_level(name, wire):
    level = keyword(name, wire)
    assert graded(name, FAIL, wire) == ({MUST: FAIL, SHOULD: WARN, MAY: PASS}[level], level)
    status, said = graded(name, WARN, wire)  # a lesser finding: SHOULD at most
    assert said == (SHOULD if level in (MUST, SHOULD) else MAY) and status == (WARN if said == SHOULD else PASS)
    assert graded(name, PASS, wire) == (PASS, level) and graded(name, SKIP, wire) == (SKIP, level)
    made = finding(name, FAIL, "x", wire=wire)
    assert (made.status, made.level, made.rule) == (*graded(name, FAIL, wire), name)
    assert f"({made.level}" in made.spec


def test_no_result_is_made_but_by_the_builder_that_reads_the_table():
    """`Check(...)` is called only by checks.finding: a call site cannot pick a grade or a citation."""
    makers = []
    for path in CHECK.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Check":
                makers.append(path.name)
    assert makers == ["checks.py"], makers


def test_03_rules_cite_03_or_say_03_has_none():
    """subscribe-terminal cited "0.3 §7.9 (SHOULD)", a rule 0.3 does not have: it cites 1.0 and
    grades as information under 0.3."""
    said = cite("subscribe-terminal", Wire.V0)
    assert "0.3 §7.9" not in said and "0.3 has no such rule" in said and said.startswith("A2A 1.0 §3.1.6")
    assert graded("subscribe-terminal", FAIL, Wire.V0) == (PASS, MAY)
    assert graded("subscribe-terminal", FAIL, Wire.V1) == (FAIL, MUST)
