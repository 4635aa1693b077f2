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
