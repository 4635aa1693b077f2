"""Issue 25, item 6: the live stream view and the waiting spinner at 80 columns. The header keeps
each label with its id, the spinner stays on one line, the timeline has one clock and one
precision, and Ctrl-C typed at a terminal (a pseudo-terminal, tests/pty_terminal.py) leaves the
view's last frame once, not its first line twice."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import sys
import threading
import time

import pytest
from a2a_testkit import v1_card
from pty_terminal import Screen, Terminal
from rich.console import Console

from a2acli.render.live import render_live
from a2acli.render.live_state import LiveState
from a2acli.render.output import Output
from a2acli.render.progress import Waiting, ctrl_c_held, hide_control_echo

TID, CTX = "5f0c1f7e-8a3b-4c1d-9e2f-0123456789ab", "c0ffee00-1234-4abc-8def-fedcba987654"
POSIX = pytest.mark.skipif(sys.platform == "win32", reason="a POSIX terminal")


def draw(renderable, width: int) -> list[str]:
    """The lines a live display draws (through a Group, as Live renders: `print` of a bare Text
    would join it with others and drop its no_wrap)."""
    from rich.console import Group

    console = Console(file=io.StringIO(), width=width, no_color=True, highlight=False)
    console.print(Group(renderable))
    return console.file.getvalue().rstrip("\n").split("\n")


def state() -> LiveState:
    s = LiveState()
    s.feed({"task": {"id": TID, "contextId": CTX, "status": {"state": "TASK_STATE_SUBMITTED"}}})  # no timestamp
    s.feed({"statusUpdate": {"taskId": TID, "contextId": CTX, "status": {"state": "TASK_STATE_WORKING", "timestamp": "2020-01-01T00:00:00.123456Z", "message": {"parts": [{"text": "step 4/6"}]}}}})
    return s


def test_at_80_columns_the_context_has_a_line_of_its_own_with_its_id():
    lines = draw(render_live(state()), 80)
    assert re.fullmatch(rf"Task {TID}  working  2 events, \d+\.\ds", lines[0])
    assert lines[1] == f"Context {CTX}"
    assert all(len(line) <= 80 for line in lines)


def test_when_it_fits_the_header_is_one_line():
    lines = draw(render_live(state()), 140)
    assert re.fullmatch(rf"Task {TID}  working  2 events, \d+\.\ds  Context {CTX}", lines[0])
    assert lines[1].startswith("Received")


def test_the_timeline_is_one_clock_and_one_precision_in_order_of_arrival():
    lines = draw(render_live(state()), 80)
    rows = [line for line in lines if re.match(r"\d\d:", line)]
    assert [row.split()[2] for row in rows] == ["submitted", "working"]
    assert all(re.match(r"\d\d:\d\d:\d\d\.\d  ", row) for row in rows)  # when it reached us, to a tenth of a second
    assert "00:00:00" not in "\n".join(lines)  # not the agent's timestamp (another clock)
    assert [row.split()[0] for row in rows] == sorted(row.split()[0] for row in rows)
    assert not any(line.startswith("~") or "~ =" in line for line in lines)  # no second clock to explain


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_spinner_is_one_line_at_80_columns():
    err = Tty()
    out = Output("auto", stdout=Tty(), stderr=err)  # the rich view (-o text is the floor: no spinner)
    out._err_console = Console(file=err, width=80, force_terminal=True, no_color=True, stderr=True)
    with Waiting(out, {"id": TID, "state": "TASK_STATE_WORKING"}) as w:
        assert w.spinner and w._live is not None
        w.update({"id": TID, "status": {"state": "TASK_STATE_WORKING", "message": {"parts": [{"text": "step 4/6 of the long job that takes its time"}]}}})
        frame = w._renderable()
    lines = draw(frame, 80)
    assert len(lines) == 1 and len(lines[0]) <= 80, lines  # not `step` / `4/6` on two lines
    assert f"waiting for task {TID}  working  step" in lines[0] and lines[0].endswith("…")


# -- Ctrl-C at a terminal --------------------------------------------------------------------------------


def test_the_screen_emulator_wraps_as_xterm_does():
    s = Screen(4)
    s.feed("abcd\r\nef")  # a full line: the CR LF does not add an empty line
    assert s.text() == ["abcd", "ef"]
    s = Screen(4)
    s.feed("abcd^C\r\x1b[2Kxy")  # the echoed ^C wraps: the erase and the redraw land a line lower
    assert s.text() == ["abcd", "xy"]
    s = Screen(4)
    s.feed("one\r\ntwo\r\x1b[2K\x1b[1A\x1b[2Knew\x03")  # \x03 (ETX) moves nothing
    assert s.text() == ["new"]


@POSIX
def test_the_terminal_does_not_echo_ctrl_c_while_a_view_is_live_and_is_put_back_after():
    import pty
    import termios

    master, slave = pty.openpty()
    try:
        attrs = termios.tcgetattr(slave)
        attrs[3] |= termios.ECHOCTL
        termios.tcsetattr(slave, termios.TCSANOW, attrs)
        restore = hide_control_echo(slave)
        assert not termios.tcgetattr(slave)[3] & termios.ECHOCTL
        restore()
        assert termios.tcgetattr(slave)[3] & termios.ECHOCTL
        assert hide_control_echo(os.open(os.devnull, os.O_RDONLY))() is None  # not a terminal: nothing changed
    finally:
        os.close(master)
        os.close(slave)


@POSIX
def test_ctrl_c_during_a_draw_takes_effect_once_the_frame_is_out():
    drawn = []
    with pytest.raises(KeyboardInterrupt), ctrl_c_held():
        signal.raise_signal(signal.SIGINT)
        drawn.append("frame")  # not cut off by the interrupt
    assert drawn == ["frame"]
    with pytest.raises(KeyboardInterrupt), ctrl_c_held():  # a second Ctrl-C is not held
        signal.raise_signal(signal.SIGINT)
        signal.raise_signal(signal.SIGINT)
        drawn.append("never")
    assert drawn == ["frame"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back


class _StreamingAgent:
    """A JSON-RPC agent on 127.0.0.1 that streams a task, then a working status whose message is
    longer than the terminal is wide (the view's last line then fills the width), and holds the
    stream open until the test ends."""

    def __init__(self) -> None:
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        agent = self
        self.release = threading.Event()

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def do_GET(self):
                body = json.dumps(v1_card(url=f"{agent.url}/rpc")).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self):
                req = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                long = "a status message longer than the terminal is wide, " * 3 + "END"
                for result in (
                    {"task": {"id": TID, "contextId": CTX, "status": {"state": "TASK_STATE_SUBMITTED"}}},
                    {"statusUpdate": {"taskId": TID, "contextId": CTX, "status": {"state": "TASK_STATE_WORKING", "message": {"messageId": "m", "role": "ROLE_AGENT", "parts": [{"text": long}]}}}},
                ):
                    self.wfile.write(f"data: {json.dumps({'jsonrpc': '2.0', 'id': req['id'], 'result': result})}\n\n".encode())
                    self.wfile.flush()
                    time.sleep(0.3)
                agent.release.wait(30)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


@POSIX
def test_ctrl_c_after_a_full_width_last_line_leaves_the_header_once():
    agent = _StreamingAgent()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("A2ACLI_", "_TYPER")) and k not in ("TERMINAL_WIDTH", "NO_COLOR")}
    env.update({"A2ACLI_CONFIG": os.devnull, "A2ACLI_LOCAL_CONFIG": os.devnull, "TERM": "xterm", "COLUMNS": "80", "LINES": "40"})
    try:
        term = Terminal([sys.executable, "-m", "a2acli", "stream", "hi", "-u", agent.url], env)
        term.read_until(r"a status message longer[^\n]*…")  # the frame is out to its last row; the stream waits
        os.write(term.fd, b"\x03")
        assert term.finish() == 130
    finally:
        agent.close()
    lines = term.screen()
    assert [line for line in lines if line.startswith("Task ")] == [f"Task {TID}  working  2 events, " + lines[0].rsplit(", ", 1)[1]], "\n".join(lines)
    assert lines[1] == f"Context {CTX}"
    last_row = next(line for line in lines if "a status message longer" in line)
    assert len(last_row) == 80 and last_row.endswith("…")  # the line the ^C echo would have wrapped
    assert f"a2a tasks subscribe {TID} --stream -u {agent.url}" in term.text()
