"""The version a build says agrees with the CHANGELOG: while its topmost section is unreleased, the
package is a development release of the next version (a build never claims a released one)."""

from __future__ import annotations

import re
from pathlib import Path

import a2acli

ROOT = Path(__file__).resolve().parents[1]


def _sections() -> list[str]:
    return re.findall(r"^## (.+)$", (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), re.M)


def test_the_topmost_changelog_section_is_keep_a_changelogs_unreleased():
    sections = _sections()
    assert sections[0] == "[Unreleased]"
    assert all(re.fullmatch(r"\[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}", s) for s in sections[1:]), sections


def test_an_unreleased_changelog_makes_the_package_a_dev_release_above_the_last_release():
    last = re.match(r"\[(\d+)\.(\d+)\.(\d+)\]", _sections()[1])
    assert last
    m = re.fullmatch(r"(\d+)\.(\d+)\.(\d+)\.dev\d+", a2acli.__version__)
    assert m, f"{a2acli.__version__} is not a .devN version while the CHANGELOG is unreleased"
    assert tuple(map(int, m.groups())) > tuple(map(int, last.groups()))
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(rf'^version = "{re.escape(a2acli.__version__)}"$', pyproject, re.M)
