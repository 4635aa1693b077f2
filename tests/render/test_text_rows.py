"""The text floor's record (Output.rows off a terminal): the usual record, fields of printable
ASCII, is written in one piece without escaping; anything else goes the general way. Both ways give
the same text: checked here against the rule written out plainly, on random rows holding what an
agent may send (control characters, bidi overrides, line breaks, non-ASCII, empty values)."""

from __future__ import annotations

import io
import random

import pytest

from a2acli.render.output import Output
from a2acli.render.safe import visible

ALPHABET = ["a", "b", " ", "\x1b", "\t", "é", "\u202e", "\r", "\x00", "\x7f", "\n", "x:", "1"]


def plainly(rows: list[tuple]) -> str:
    """The rule: a field is `Label: value` escaped to one line, whatever its value holds (issue 42:
    an agent's line feed in an id is no line of its own); a block is `Label:` then its lines
    indented, then a blank line; the record ends with a blank line."""
    lines: list[str] = []
    for row in rows:
        label, value = visible(row[0], one_line=True), str(row[1] or "")
        if len(row) > 2 and row[2]:
            lines += [f"{label}:", *("  " + line for line in visible(value).split("\n")), ""]
        else:
            lines.append(f"{label}: {visible(value, one_line=True)}")
    if lines and lines[-1]:
        lines.append("")
    return "\n".join(lines) + "\n"


def shown(rows: list[tuple]) -> str:
    out = Output("text", stdout=io.StringIO(), stderr=io.StringIO())
    out.rows(rows)
    return out.out.getvalue()


@pytest.mark.parametrize("seed", range(4))
def test_every_record_reads_as_the_rule_says(seed):
    rnd = random.Random(seed)

    def text(n: int) -> str:
        return "".join(rnd.choice(ALPHABET) for _ in range(n))

    for _ in range(1500):
        rows = []
        for _ in range(rnd.randint(0, 5)):
            value = text(rnd.randint(0, 6)) if rnd.random() < 0.8 else rnd.choice([None, 0, 5, ""])
            row = (text(rnd.randint(1, 4)), value)
            rows.append(row if rnd.random() < 0.9 else (*row, rnd.random() < 0.5))
        assert shown(rows) == plainly(rows), rows


def test_a_stream_events_record_is_written_as_is():
    rows = [("Event", "status-update"), ("Task", "t-1"), ("State", "working"), ("Updated", "2026-01-01T00:00:00Z")]
    assert shown(rows) == "Event: status-update\nTask: t-1\nState: working\nUpdated: 2026-01-01T00:00:00Z\n\n"
    assert shown([("Task", "t-\x1b[2J")]) == "Task: t-\\x1b[2J\n\n"  # an agent's control character: escaped
