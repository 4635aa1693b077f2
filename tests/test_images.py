"""The pictures in docs/images are recorded by scripts/record_images.py from real runs against the
demo agent: this runs the script (into a temporary directory) so that it cannot silently rot."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_image_script_records_the_three_pictures(tmp_path):
    pytest.importorskip("a2a.server", reason="the demo agent needs the server extra")
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "record_images.py"), "--out", str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    svgs = {p.stem: p.read_text() for p in tmp_path.glob("*.svg")}
    assert set(svgs) == {"stream", "task", "card"}
    assert "Summary" in svgs["stream"] and "rows&#160;in&#160;order&#160;of&#160;arrival" in svgs["stream"]
    assert "create-user" in svgs["task"] and "completed" in svgs["task"]
    assert "--api-key&#160;KEY" in svgs["card"]


def test_the_readme_and_the_guide_show_the_pictures():
    for doc in ("README.md", "docs/guide.md"):
        text = (ROOT / doc).read_text()
        for name in ("stream", "task", "card"):
            assert f"images/{name}.svg" in text, (doc, name)
        assert all((ROOT / "docs" / "images" / f"{n}.svg").is_file() for n in ("stream", "task", "card"))
