"""Issue 25, item 8: the guide's first-steps sample is what `a2a` prints. The sample's command runs
against the demo agent; its stdout must be the sample, ids, timestamps and the user's number aside
(and the order of a data part's keys, which the demo agent's protobuf Struct does not keep)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration
GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guide.md"
VARYING = [
    (re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"), "<id>"),
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z"), "<timestamp>"),
    (re.compile(r'"user-\d+"'), '"user-<n>"'),  # the demo agent numbers the users it creates
]
MEMBER = re.compile(r'^\s+"[^"]+": ')


def normalized(text: str) -> list[str]:
    lines = text.rstrip("\n").split("\n")
    for pattern, stand_in in VARYING:
        lines = [pattern.sub(stand_in, line) for line in lines]
    out: list[str] = []
    run: list[str] = []
    for line in [*lines, ""]:
        if MEMBER.match(line):
            run.append(line.rstrip(","))
            continue
        out += sorted(run) + [line]
        run = []
    return out[:-1]


def first_steps_sample() -> tuple[list[str], str]:
    """(the command's arguments, what the guide shows it printing) of the first `text` block of
    'First steps with the demo agent'."""
    section = GUIDE.read_text().split("## First steps with the demo agent", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```text\n\$ a2a (.*?)\n(.*?)```", section, re.S)
    assert block, "the first-steps section has no ```text sample"
    return shlex.split(block.group(1)), block.group(2)


def test_the_first_steps_sample_is_what_a2a_prints(run_a2a, demo_agent):
    args, shown = first_steps_sample()
    done = run_a2a.at(demo_agent.url)(*args)
    assert normalized(done.stdout) == normalized(shown), f"docs/guide.md's first-steps sample is stale; a2a prints:\n{done.stdout}"
