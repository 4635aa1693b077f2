"""docs/reference.md is generated from the CLI (scripts/gen_reference.py) and must not go stale;
every command's --help carries examples; the docs name every command."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from typer.main import get_command

from a2acli.main import app

ROOT = Path(__file__).resolve().parents[1]


def _generator():
    spec = importlib.util.spec_from_file_location("gen_reference", ROOT / "scripts" / "gen_reference.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _leaves():
    root = get_command(app)
    out = []

    def walk(cmd, path):
        subs = getattr(cmd, "commands", None)
        if subs is None:
            out.append((path, cmd))
            return
        for name, sub in subs.items():
            if not getattr(sub, "hidden", False):
                walk(sub, f"{path} {name}")

    walk(root, "a2a")
    return out


def test_reference_is_up_to_date():
    gen = _generator()
    text = gen.render()
    if os.environ.get("A2ACLI_UPDATE_GOLDEN"):
        gen.REFERENCE.write_text(text)
    assert gen.REFERENCE.read_text() == text, "docs/reference.md is stale: run `python scripts/gen_reference.py` (or A2ACLI_UPDATE_GOLDEN=1 pytest)"


def test_reference_names_every_command_and_option():
    text = (ROOT / "docs" / "reference.md").read_text()
    common = {tuple(p.opts) for p in get_command(app).params}
    for path, cmd in _leaves():
        assert f"## {path}\n" in text, path
        for p in cmd.params:
            if getattr(p, "hidden", False) and tuple(p.opts) not in common:
                continue  # an old or alias name --help does not show (`--token`): the reference neither
            for opt in getattr(p, "opts", []):
                if opt.startswith("--") and opt != "--help":
                    assert f"`{opt}`" in text, (path, opt)


def test_every_command_help_has_examples():
    missing = [path for path, cmd in _leaves() if "Example" not in (cmd.help or "")]
    assert not missing, f"--help without examples: {missing}"


def test_guide_covers_every_command():
    guide = (ROOT / "docs" / "guide.md").read_text()
    for path, _cmd in _leaves():
        assert path in guide, f"docs/guide.md does not mention `{path}`"


def test_the_script_checks(tmp_path):
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_reference.py"), "--check"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_each_usage_line_in_the_reference_is_the_one_help_shows():
    """The usage line under each command's heading is --help's, word for word (metavars as the
    command gives them: `[FILE|-]`, `DUMP...`, `SHELL|install [SHELL]`)."""
    import re

    from typer.testing import CliRunner

    text = (ROOT / "docs" / "reference.md").read_text()
    found = re.findall(r"^## (a2a[^\n]*)\n\n```\n([^\n]*)\n```", text, re.M)
    assert len(found) > 40
    runner = CliRunner()
    for path, usage in found:
        result = runner.invoke(app, [*path.split()[1:], "--help"], prog_name="a2a", env={"COLUMNS": "200"})
        assert result.exit_code == 0, (path, result.output)
        shown = re.search(r"Usage: (.*)", result.output)
        assert shown and shown.group(1).strip() == usage, (path, usage, shown and shown.group(1))


def test_the_reference_shows_no_option_help_hides():
    text = (ROOT / "docs" / "reference.md").read_text()
    for hidden in ("`--blocking-call`", "`--return-immediately`", "| `--token` STR | Same as --push-token"):
        assert hidden not in text, hidden


def _test_command(text: str) -> str:
    """The one line of `text` that runs the suite (`… -m pytest …`)."""
    lines = [line for line in text.splitlines() if "-m pytest" in line and not line.lstrip().startswith("#")]
    assert len(lines) == 1, lines
    return lines[0].strip()


def test_the_readme_s_test_command_is_what_ci_runs_and_runs_the_tests_in_parallel():
    """Issue 43: the README's test command, verbatim in .ci/run, runs the suite with pytest-xdist on
    every core; pytest-xdist is in the dev extra with a tested range."""
    readme = _test_command((ROOT / "README.md").read_text())
    ci = (ROOT / ".ci" / "run").read_text()
    assert _test_command(ci) == readme
    assert " -m pytest -q -n auto " in readme
    assert ci.rstrip("\n").splitlines()[-1] == readme  # the last command: its exit status is the script's
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib

    dev = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["dev"]
    assert [d for d in dev if d.startswith("pytest-xdist")] == ["pytest-xdist>=3.6,<4"]


_FAKE_PYTHON3 = """#!/bin/sh
# python3 as .ci/run calls it: --version, and `-m venv .venv` (a venv whose tools exit as $FAIL says)
[ "$1" = "--version" ] && { echo "Python 3"; exit 0; }
mkdir -p .venv/bin
for tool in pip python ruff mypy; do
  printf '#!/bin/sh\\ncase "$*" in *pytest*) [ "$FAIL" = pytest ] && exit 1;; esac\\n[ "$FAIL" = %s ] && exit 1\\nexit 0\\n' "$tool" > .venv/bin/$tool
  chmod +x .venv/bin/$tool
done
"""


def test_ci_fails_when_the_tests_ruff_or_mypy_fail(tmp_path):
    """.ci/run exits non-zero when any step of the test command fails (a failing test, ruff, mypy),
    and 0 when none does: run here with stand-ins for python3 and the venv's tools."""
    import subprocess

    (tmp_path / ".ci").mkdir()
    (tmp_path / ".ci" / "run").write_text((ROOT / ".ci" / "run").read_text())
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "python3").write_text(_FAKE_PYTHON3)
    (bindir / "python3").chmod(0o755)
    codes = {}
    for fail in ("", "pytest", "ruff", "mypy"):
        env = {"PATH": f"{bindir}:/usr/bin:/bin", "FAIL": fail}
        codes[fail] = subprocess.run(["bash", str(tmp_path / ".ci" / "run")], env=env, capture_output=True, timeout=30).returncode
    assert codes == {"": 0, "pytest": 1, "ruff": 1, "mypy": 1}


def test_every_json_fence_holds_json():
    """Issue 46: a fence labelled `json` holds a JSON document, or JSON Lines (four in
    docs/notes/a2a-sdk-rest.md held request lines and fragments: they are `text`)."""
    import json
    import re

    wrong = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        for m in re.finditer(r"^```json\n(.*?)^```", text, re.M | re.S):
            body = m.group(1)
            try:
                json.loads(body)
                continue
            except ValueError:
                pass
            try:
                [json.loads(line) for line in body.splitlines() if line.strip()]
            except ValueError:
                wrong.append(f"{page.relative_to(ROOT)}:{text[: m.start()].count(chr(10)) + 1}")
    assert not wrong, f"json fences that hold no JSON: {wrong}"
