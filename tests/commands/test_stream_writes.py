"""Issue 26: a stream's events are written per network read, not per event, and still each reaches
stdout before `a2a` reads the network again.

Liveness: a real server on 127.0.0.1 sends one event, then waits until that event's line is on the
stdout (a pipe) of the `a2a` process before it sends the next. An `a2a` that held an event while it
waited for the next read would stall the server (each stall is recorded, and the test fails). Every
output mode, for `stream`, `send --stream`, `tasks subscribe --stream`, and `webhook listen`.

Batching: the server sends all of a stream's events in one write; `a2a` runs with its stdout over
a file that counts the write() calls that reach it: a handful for the whole stream, not one per
event."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest

A2A = [sys.executable, "-m", "a2acli"]
STALL = 5.0  # seconds the server waits for an event to show before it gives up and goes on
EVENTS = 4  # status updates after the first event (the task), the last one completed


def event(i: int, n: int, rid: Any) -> dict[str, Any]:
    """Event i of a stream of n: the task, then status updates, the last one completed. Each
    carries a mark, `event-<i>`, in a status message (text mode shows it; JSON modes carry it)."""
    if i == 0:
        result: dict[str, Any] = {"task": {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_SUBMITTED"}}}
    else:
        state = "TASK_STATE_COMPLETED" if i == n - 1 else "TASK_STATE_WORKING"
        message = {"messageId": f"m-{i}", "role": "ROLE_AGENT", "parts": [{"text": f"event-{i}"}]}
        result = {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": state, "message": message}}}
    return {"jsonrpc": "2.0", "id": rid, "result": result}


class Agent:
    """Answers every POST with an SSE stream of `n` events. Paced: event i+1 is sent only once
    `shown(i)` said event i is on the client's stdout (or after STALL seconds, recorded as a
    stall). Unpaced: all events in one write."""

    def __init__(self, n: int, *, paced: bool) -> None:
        self.n, self.paced = n, paced
        self.seen = threading.Semaphore(0)
        self.stalls: list[int] = []
        self.methods: list[str] = []
        agent = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                request = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
                agent.methods.append(request.get("method"))
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                frames = [f"data: {json.dumps(event(i, agent.n, request.get('id')))}\n\n".encode() for i in range(agent.n)]
                if not agent.paced:
                    self.wfile.write(b"".join(frames))
                    return
                for i, frame in enumerate(frames):
                    self.wfile.write(frame)
                    self.wfile.flush()
                    if i < agent.n - 1 and not agent.seen.acquire(timeout=STALL):
                        agent.stalls.append(i)  # event i never reached stdout while a2a waited for i+1

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def shown(self) -> None:
        self.seen.release()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@contextmanager
def agent(n: int, *, paced: bool) -> Iterator[Agent]:
    a = Agent(n, paced=paced)
    try:
        yield a
    finally:
        a.close()


COMMANDS = {
    "stream": ["stream", "hello"],
    "send --stream": ["send", "hello", "--stream"],
    "tasks subscribe --stream": ["tasks", "subscribe", "t-1", "--stream"],
}
MODES = {"json": ["-o", "json"], "raw": ["-o", "raw"], "as-v1": ["-o", "json", "--as", "v1"], "text": []}
MARK = re.compile(r"event-(\d+)")


def marks_of(line: str, mode: str) -> bool:
    """Whether `line` is where an event shows on stdout: a JSON line (json, raw), or the record's
    `Event:` line (text: the record is written in one piece, so its first line is all of it)."""
    return line.startswith("Event: ") if mode == "text" else line.startswith("{")


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("mode", list(MODES))
def test_each_event_reaches_stdout_before_the_next_read(command, mode):
    n = EVENTS + 1
    with agent(n, paced=True) as a:
        proc = subprocess.Popen([*A2A, *COMMANDS[command], "--endpoint", a.url, *MODES[mode]], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        shown, out = 0, []
        for line in proc.stdout:
            out.append(line)
            if marks_of(line, mode):
                shown += 1
                a.shown()
        err = proc.stderr.read() if proc.stderr else ""
        proc.wait(timeout=30)
    assert proc.returncode == 0, err
    assert a.methods == ["SubscribeToTask" if "subscribe" in command else "SendStreamingMessage"]
    assert a.stalls == [], f"{command} {mode}: events {a.stalls} were not on stdout before a2a read again\n{''.join(out)}{err}"
    assert shown == n, "".join(out)
    assert [int(m) for m in MARK.findall("".join(out))] == list(range(1, n)), "".join(out)


def test_a_stream_read_at_once_is_written_at_once(tmp_path):
    """40 events in one server write: a few write() calls reach stdout (one per read), not 40."""
    counter = (
        "import io, os, sys\n"
        "class Counting(io.FileIO):\n"
        "    writes = 0\n"
        "    def write(self, b):\n"
        "        Counting.writes += 1\n"
        "        return super().write(b)\n"
        "sys.stdout = io.TextIOWrapper(io.BufferedWriter(Counting(os.dup(1), 'w')), encoding='utf-8', write_through=True)\n"
        "sys.argv = ['a2a', *sys.argv[1:]]\n"
        "from a2acli.main import run\n"
        "try:\n"
        "    run()\n"
        "finally:\n"
        "    sys.stdout.flush()\n"
        "    os.write(2, f'WRITES {Counting.writes}'.encode())\n"
    )
    n = 40
    for mode in ("json", "raw", "text"):
        with agent(n, paced=False) as a:
            proc = subprocess.run([sys.executable, "-c", counter, "stream", "hello", "--endpoint", a.url, *MODES[mode]], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        assert [int(m) for m in MARK.findall(proc.stdout)] == list(range(1, n)), proc.stdout
        writes = int(re.findall(r"WRITES (\d+)", proc.stderr)[-1])
        # write_through: every write() of the text layer reaches the file (as PYTHONUNBUFFERED does):
        # one per event before issue 26; now one per network read (the headers and body may be two)
        assert 1 <= writes <= 4, (mode, writes)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("mode", ["json", "raw", "text"])
def test_webhook_listen_writes_each_delivery_before_it_waits_again(mode):
    """A delivery is posted only once the one before it is on `a2a webhook listen`'s stdout."""
    n = 4
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([*A2A, "webhook", "listen", "--port", str(port), "--count", str(n), "--timeout", "60", *MODES[mode]], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(url, timeout=1)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and proc.poll() is None, "the listener did not start"
                time.sleep(0.05)
        assert proc.stdout is not None
        lines: list[str] = []
        for i in range(1, n + 1):
            answer = httpx.post(url + "/hook", json=event(i, n + 1, None)["result"], timeout=10)
            assert answer.status_code == 200
            got = threading.Event()

            def read(got: threading.Event = got) -> None:
                assert proc.stdout is not None
                for line in proc.stdout:
                    lines.append(line)
                    if line.startswith("Notification: " if mode == "text" else "{"):  # a delivery's first line
                        got.set()
                        return

            reader = threading.Thread(target=read, daemon=True)
            reader.start()
            assert got.wait(STALL), f"delivery {i} not on stdout while the listener waited for the next: {''.join(lines)}"
            reader.join(STALL)
        lines.append(proc.stdout.read())  # the rest of the last record
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0
    assert [int(m) for m in MARK.findall("".join(lines))] == list(range(1, n + 1))


def test_ordered_with_stderr_when_both_go_to_one_pipe():
    """Held stdout is written before anything goes to stderr: `2>&1` keeps the order of old."""
    with agent(3, paced=False) as a:
        proc = subprocess.run([*A2A, "stream", "hello", "--endpoint", a.url, "-o", "json", "--debug"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.returncode == 0, proc.stdout
    lines = proc.stdout.splitlines()
    debug = [i for i, line in enumerate(lines) if line.startswith("< event ")]
    shown = [i for i, line in enumerate(lines) if line.startswith(('{"task"', '{"statusUpdate"'))]
    assert len(debug) == len(shown) == 3, proc.stdout
    # each event's debug line (said as it is read) comes before its JSON line, and after the one before
    assert debug[0] < shown[0] < debug[1] < shown[1] < debug[2] < shown[2], proc.stdout
