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


def test_every_released_changelog_section_has_its_tag_in_a_git_checkout():
    """Issue 46: each released section `## [X.Y.Z] - date` has the git tag vX.Y.Z, and the tagged
    tree says that version (a checkout without git metadata, or cloned without tags, cannot show it)."""
    import shutil
    import subprocess

    import pytest

    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    tags = subprocess.run(["git", "-C", str(ROOT), "tag", "--list", "v*"], capture_output=True, text=True, check=True).stdout.split()
    if not tags:
        pytest.skip("a clone without tags (git fetch --tags)")
    for section in _sections()[1:]:
        m = re.match(r"\[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})", section)
        assert m, section
        version, day = m.groups()
        assert f"v{version}" in tags, f"release {version} has no tag v{version}"
        tagged = subprocess.run(["git", "-C", str(ROOT), "show", f"v{version}:pyproject.toml"], capture_output=True, text=True, check=True).stdout
        assert re.search(rf'^version = "{re.escape(version)}"$', tagged, re.M), f"v{version} does not build {version}"
        when = subprocess.run(["git", "-C", str(ROOT), "log", "-1", "--format=%cs", f"v{version}^{{commit}}"], capture_output=True, text=True, check=True).stdout.strip()
        assert when == day, f"v{version} is a commit of {when}, the CHANGELOG dates it {day}"
