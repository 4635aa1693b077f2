"""The pictures in docs/images are recorded by scripts/record_images.py from real runs against the
demo agent: this runs the script (into a temporary directory, about 5 s) and compares what each new
picture shows with the committed one, so a picture that no longer shows what `a2a` prints fails
here. The comparison reads the text of each SVG, line by line at its columns, with what changes
from run to run (ids, clock times, durations, the port) replaced by placeholders."""

from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"
NAMES = ("stream", "task", "card")

TEXT = re.compile(r'<text [^>]*?x="([\d.]+)"[^>]*?textLength="([\d.]+)"[^>]*?-line-(\d+)\)"[^>]*>(.*?)</text>', re.S)
VARYING = [
    (re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"), "<id>"),
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z"), "<timestamp>"),
    (re.compile(r"\d\d:\d\d:\d\d(\.\d+)?"), "<time>"),
    (re.compile(r"\+?\d+\.\ds\b"), "<seconds>"),
    (re.compile(r"127\.0\.0\.1:\d+"), "127.0.0.1:<port>"),
    (re.compile(r" {2,}"), "  "),  # what the above leave shorter or longer moves the padding after it
]


def screen(svg: str) -> list[str]:
    """The lines of a rich terminal SVG as the terminal showed them (each text run at its column;
    runs of spaces rich draws as background only)."""
    runs = [(int(line), float(x), float(length), html.unescape(text).replace("\xa0", " ")) for x, length, line, text in TEXT.findall(svg)]
    cell = min(length / len(text) for _, _, length, text in runs if text)
    rows: dict[int, list[str]] = {}
    for line, x, _, text in runs:
        row = rows.setdefault(line, [])
        col = round(x / cell)
        row.extend(" " * (col + len(text) - len(row)))
        row[col : col + len(text)] = text
    return ["".join(rows.get(n, [])).rstrip() for n in range(max(rows) + 1)]


MEMBER = re.compile(r'^(\W*\s)"[^"]+": ')  # a line of pretty-printed JSON object: `│   "id": "user-1",`


def normalized(svg: str) -> list[str]:
    lines = screen(svg)
    for pattern, stand_in in VARYING:
        lines = [pattern.sub(stand_in, line) for line in lines]
    return _members_in_order(lines)


def _members_in_order(lines: list[str]) -> list[str]:
    """The members of a JSON object in one order: the demo agent's data parts come from a protobuf
    Struct, whose keys come out in another order each run (and with them the trailing commas)."""
    out: list[str] = []
    run: list[str] = []
    for line in [*lines, ""]:
        if MEMBER.match(line):
            run.append(re.sub(r",(\s*\W?)$", r"\1", line))
            continue
        out += sorted(run) + [line]
        run = []
    return out[:-1]


def test_screen_reads_the_text_at_its_columns():
    svg = '<text x="0" y="1" textLength="24.4" clip-path="url(#t-line-0)">ab</text><text x="61" y="1" textLength="24.4" clip-path="url(#t-line-0)">c&#160;</text><text x="0" y="2" textLength="12.2" clip-path="url(#t-line-2)">d</text>'
    assert screen(svg) == ["ab   c", "", "d"]
    assert normalized('<text x="0" y="1" textLength="12.2" clip-path="url(#t-line-0)">Task&#160;5f0c1f7e-8a3b-4c1d-9e2f-0123456789ab&#160;&#160;&#160;12:00:01.5&#160;&#160;+0.6s</text>') == ["Task <id>  <time>  <seconds>"]
    assert _members_in_order(["{", '  "b": 2,', '  "a": 1', "}"]) == _members_in_order(["{", '  "a": 1,', '  "b": 2', "}"]) == ["{", '  "a": 1', '  "b": 2', "}"]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    pytest.importorskip("a2a.server", reason="the demo agent needs the server extra")
    out = tmp_path_factory.mktemp("images")
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "record_images.py"), "--out", str(out)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return {p.stem: p.read_text() for p in out.glob("*.svg")}


def test_the_image_script_records_the_three_pictures(recorded):
    assert set(recorded) == set(NAMES)
    assert "Summary" in recorded["stream"] and "Received" in recorded["stream"]
    assert "create-user" in recorded["task"] and "completed" in recorded["task"]
    assert "--api-key&#160;KEY" in recorded["card"]


@pytest.mark.parametrize("name", NAMES)
def test_each_committed_picture_shows_what_a2a_prints_today(recorded, name):
    committed = normalized((IMAGES / f"{name}.svg").read_text())
    now = normalized(recorded[name])
    assert committed == now, f"docs/images/{name}.svg is stale: run `.venv/bin/python scripts/record_images.py` and review the pictures"


def test_the_readme_and_the_guide_show_the_pictures():
    for doc in ("README.md", "docs/guide.md"):
        text = (ROOT / doc).read_text()
        for name in NAMES:
            assert f"images/{name}.svg" in text, (doc, name)
        assert all((IMAGES / f"{n}.svg").is_file() for n in NAMES)
