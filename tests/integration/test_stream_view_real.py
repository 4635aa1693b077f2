"""Issue 25, item 6: the live stream view at a real terminal 80 columns wide (a pseudo-terminal,
tests/pty_terminal.py), against the demo agent, interrupted with Ctrl-C typed at the terminal."""

from __future__ import annotations

import os
import re
import sys

import pytest
from pty_terminal import COLUMNS, Terminal

pytestmark = [pytest.mark.integration, pytest.mark.skipif(sys.platform == "win32", reason="a POSIX pseudo-terminal")]


def terminal_env(a2a_env) -> dict[str, str]:
    env = a2a_env(A2ACLI_GLOBAL_CONFIG=os.devnull, A2ACLI_LOCAL_CONFIG=os.devnull, TERM="xterm", COLUMNS=str(COLUMNS), LINES="40", TERMINAL_WIDTH=None, NO_COLOR=None)
    return {k: v for k, v in env.items() if not k.startswith("_TYPER")}


@pytest.mark.parametrize("command", [["stream"], ["send", "--stream"]])
def test_ctrl_c_at_80_columns_leaves_one_whole_header_and_a_resume_command_into_the_view(a2a_bin, a2a_env, demo_agent, command):
    argv = [*a2a_bin, *command, "--skill", "slow", "-f", "steps:=20", "-f", "delay:=0.3", "-u", demo_agent.url]
    if not os.path.isabs(argv[0]):
        argv[0] = sys.executable
    term = Terminal(argv, terminal_env(a2a_env))
    term.read_until(r"step 3/20")
    os.write(term.fd, b"\x03")  # Ctrl-C typed at the terminal
    assert term.finish() == 130
    lines, flat = term.screen(), term.text()
    # (issue 46: a note wraps at spaces at a terminal, never inside an id)
    named = re.search(r"interrupted:\s+task\s+(\S+)\s+\(context\s+(\S+)\)\s+was\s+(submitted|working)", flat)
    assert named, flat
    tid, ctx = named.group(1), named.group(2)
    heads = [n for n, line in enumerate(lines) if line.startswith("Task ")]
    assert len(heads) == 1, "\n".join(lines)  # the view's last frame, its header once
    head = heads[0]
    assert re.fullmatch(rf"Task {tid}  working  \d+ events, \d+\.\ds", lines[head]), lines[head]
    assert lines[head + 1] == f"Context {ctx}"  # the label with its id, on a line of their own
    assert lines[head + 2].split() == ["Received", "Elapsed", "State", "Status", "message"]
    rows = [line for line in lines[head + 3 :] if re.match(r"\d\d:\d\d:\d\d", line)]
    assert len(rows) >= 4 and all(re.match(r"\d\d:\d\d:\d\d\.\d  ", row) for row in rows)  # one clock, one precision
    clocks = [row.split()[0] for row in rows]
    assert clocks == sorted(clocks)  # reads down in order
    assert f"a2a tasks subscribe {tid} --stream -u {demo_agent.url}\n" in flat  # resumes into the view that was interrupted
    assert f"a2a tasks get {tid} --wait -u {demo_agent.url}\n" in flat
