"""Stream throughput and latency of `a2a stream`, next to the simplest Python consumer that does
the same job, measured in the same run against the same loopback server.

The server (a thread of this script, 127.0.0.1, a free port) answers any POST with an SSE stream
of N small JSON-RPC events: status updates of one task, the last one completed, each carrying the
request's JSON-RPC id as a conforming server does (a wrong id would have `a2a` warn about it).

Two baselines, the same httpx + httpx-sse loop (`json.loads` of each event's data, its result
written as one JSON line), measured round-robin with every `a2a` mode:

    floor       stdout block-buffered (one `write` per 8 KB): the floor for a Python consumer;
                the ratios and targets are against it
    flush/event the same loop flushing stdout after every event (one `write` per event), beside it
                for reference

Each `a2a` mode runs the installed CLI as a subprocess with stdout on /dev/null:

    json        a2a stream -o json                 (events as the wire spelt them)
    raw         a2a stream -o raw                  (each event's data as received)
    json-v1     a2a stream -o json --as v1         (canonical V1)
    v0          a2a stream -o json --a2a-version 0.3 (a V0 stream: bare events with `kind`)
    text        a2a stream                         (plain text, off a terminal)
    live        a2a stream with FORCE_COLOR=1      (the rich live view, drawn to /dev/null)

Each mode runs ROUNDS times round-robin with the baselines; the table gives the median events per
second, the median over rounds of each round's ratio to the floor (paired: a slow spell of a
shared machine weighs on both sides of a ratio alike), the same ratio of CPU time (the child's
user + system time: on a machine other work keeps busy, wall time mostly measures the wait for a
core, CPU time what the consumer itself costs), the ratio to the flush/event loop, and the
`write` system calls to stdout per 1,000 events (counted on one run of --write-events events under
`strace -f -e trace=write`, or, without strace, by a counting wrapper around stdout's file). The
targets (issue 26) are printed against the floor: -o json >= 0.8x, -o raw >= 0.9x, --as v1 >= 0.6x,
plain text >= 0.5x.

Latency: the server sends LAT_N events LAT_GAP apart, each stamped with its send time; the median
time from stamp to the line arriving on the consumer's stdout (a pipe read here) is printed for the
flush/event consumer and for `a2a` in each output mode measured (target: < 5 ms at the median).

Live view at a set rate (--live-rate, default 5000 events/s, 0 to skip): the server paces
--live-seconds of events at that rate (a batch every 10 ms); `a2a stream` draws its rich live view
(FORCE_COLOR=1) into a file. Printed: how long after the server's last event `a2a` ended (the view
keeps up when that stays near zero), the frames drawn per second (bounded by the view's refresh
rate, whatever the event rate), and what the final screen says: its event count against the
events sent, and the final state.

Every run has PYTHONUNBUFFERED removed from its environment (a stdout block-buffered is the floor).
a2acli's bytecode is compiled up front (python -m compileall), as an installed a2acli has it: under
PYTHONDONTWRITEBYTECODE each run would otherwise compile a2acli's modules anew.

    pip install -e '.[dev]' && python benchmarks/stream_throughput.py [--events 100000] [--rounds 3]

Figures, not assertions: this is a script, not a test (a smoke test runs it on a tiny stream).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

BIN = Path(sys.executable).parent
A2A = [str(BIN / "a2a")] if (BIN / "a2a").exists() else [sys.executable, "-m", "a2acli"]

CONSUMER = r"""
import json, sys, httpx, httpx_sse
out = sys.stdout
flush = sys.argv[2] == "flush"
with httpx.Client(timeout=None) as client:
    with httpx_sse.connect_sse(client, "POST", sys.argv[1], json={"jsonrpc": "2.0", "id": 1, "method": "SendStreamingMessage", "params": {}}) as source:
        for sse in source.iter_sse():
            doc = json.loads(sse.data)
            out.write(json.dumps(doc.get("result", doc)) + "\n")
            if flush:
                out.flush()
"""

# Counts the write() calls that reach stdout's file, where strace is missing: runs `a2a` (or the
# consumer, given as `-c CODE`) in this process with stdout over a counting file.
WRITE_COUNTER = r"""
import atexit, io, os, runpy, sys
class Counting(io.FileIO):
    writes = 0
    def write(self, b):
        Counting.writes += 1
        return super().write(b)
sys.stdout = io.TextIOWrapper(io.BufferedWriter(Counting(os.dup(1), "w")), encoding="utf-8")
atexit.register(lambda: os.write(2, f"\nWRITES {Counting.writes}\n".encode()))
args = sys.argv[1:]
if args[0] == "-c":
    sys.argv = ["-c", *args[2:]]
    exec(compile(args[1], "<consumer>", "exec"), {"__name__": "__main__"})
    sys.stdout.flush()
else:
    sys.argv = ["a2a", *args]
    from a2acli.main import run
    try:
        run()
    finally:
        sys.stdout.flush()
"""

BASELINES = ("floor", "flush/event")
TARGETS = {"json": 0.8, "raw": 0.9, "json-v1": 0.6, "text": 0.5}  # x the floor (issue 26)
LATENCY_TARGET_MS = 5.0


def consumer_argv(url: str, flush: bool) -> list[str]:
    return [sys.executable, "-c", CONSUMER, url, "flush" if flush else "buffered"]


_ID = "@request-id@"  # stands for the request's JSON-RPC id in a prepared body


def v1_event(i: int, last: bool, stamp: float | None = None, rid: object = _ID) -> dict:
    state = "TASK_STATE_COMPLETED" if last else "TASK_STATE_WORKING"
    status: dict = {"state": state, "timestamp": "2026-01-01T00:00:00Z"}
    if stamp is not None:
        status["message"] = {"messageId": f"m{i}", "role": "ROLE_AGENT", "parts": [{"text": f"{stamp!r}"}]}
    return {"jsonrpc": "2.0", "id": rid, "result": {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": status}}}


def v0_event(i: int, last: bool) -> dict:
    state = "completed" if last else "working"
    event = {"kind": "status-update", "taskId": "t-1", "contextId": "c-1", "status": {"state": state, "timestamp": "2026-01-01T00:00:00Z"}, "final": last}
    return {"jsonrpc": "2.0", "id": _ID, "result": event}


def sse_body(n: int, v0: bool) -> bytes:
    make = v0_event if v0 else v1_event
    return "".join(f"data: {json.dumps(make(i, i == n - 1))}\n\n" for i in range(n)).encode()


class Server:
    """Answers every POST with the prepared SSE body (or, for latency, stamped events)."""

    def __init__(self, n: int) -> None:
        self.bodies = {"v1": sse_body(n, False), "v0": sse_body(n, True)}
        self.latency: tuple[int, float] = (0, 0.0)
        self.paced: tuple[float, float] = (0.0, 0.0)
        self.paced_end = 0.0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"  # a body delimited by the close: no chunking cost

            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                request = self.rfile.read(length)
                try:
                    rid = json.loads(request).get("id")
                except (ValueError, AttributeError):
                    rid = None
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                if self.path.startswith("/paced"):
                    rate, seconds = outer.paced
                    total, batch = int(rate * seconds), max(int(rate / 100), 1)
                    t0 = time.perf_counter()
                    for start in range(0, total, batch):
                        pause = t0 + start / rate - time.perf_counter()
                        if pause > 0:
                            time.sleep(pause)
                        chunk = "".join(f"data: {json.dumps(v1_event(i, i == total - 1, rid=rid))}\n\n" for i in range(start, min(start + batch, total)))
                        self.wfile.write(chunk.encode())
                        self.wfile.flush()
                    outer.paced_end = time.perf_counter()
                    return
                if self.path.startswith("/latency"):
                    n, gap = outer.latency
                    for i in range(n):
                        time.sleep(gap)
                        self.wfile.write(f"data: {json.dumps(v1_event(i, i == n - 1, time.time(), rid))}\n\n".encode())
                        self.wfile.flush()
                    return
                body = outer.bodies["v0" if b'"message/stream"' in request else "v1"]
                body = body.replace(json.dumps(_ID).encode(), json.dumps(rid).encode())  # every consumer pays this
                for start in range(0, len(body), 1 << 16):
                    self.wfile.write(body[start : start + (1 << 16)])

        self.httpd = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


MODES: dict[str, tuple[list[str], dict[str, str]]] = {
    "json": (["-o", "json"], {}),
    "raw": (["-o", "raw"], {}),
    "json-v1": (["-o", "json", "--as", "v1"], {}),
    "v0": (["-o", "json", "--a2a-version", "0.3"], {}),
    "text": ([], {}),
    "live": ([], {"FORCE_COLOR": "1", "COLUMNS": "100"}),
}


def child_env(env: dict[str, str]) -> dict[str, str]:
    """The environment of a measured run: this one without PYTHONUNBUFFERED (which would make the
    floor's stdout unbuffered, one write per event), plus the mode's own variables."""
    return {**{k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}, **env}


def run_timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds: the child's user + system time) of one run, stdout /dev/null."""
    import tempfile

    with open(os.devnull, "w") as null, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=null, stderr=err, env=child_env(env))
        _, status, usage = os.wait4(proc.pid, 0)
        took = time.perf_counter() - t0
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            raise SystemExit(f"{' '.join(argv)} failed ({os.waitstatus_to_exitcode(status)}): {err.read().decode()[-400:]}")
    proc.returncode = os.waitstatus_to_exitcode(status)
    return took, usage.ru_utime + usage.ru_stime


def a2a_argv(url: str, extra: list[str]) -> list[str]:
    return [*A2A, "stream", "go", "--endpoint", url + "/", *extra]


_STAMP = re.compile(r"\b(1\d{9}\.\d+)\b")  # the server's time.time() stamp, in any output mode


def latency(argv: list[str], env: dict[str, str]) -> float:
    """Median ms from an event's stamp to its line on the consumer's stdout (a pipe read here):
    the stamp is found in the line whatever the output mode (JSON, raw, text's indented message)."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=child_env(env), text=True, bufsize=1)
    delays = []
    assert proc.stdout is not None
    for line in proc.stdout:
        now = time.time()
        m = _STAMP.search(line)
        if m:
            delays.append((now - float(m.group(1))) * 1000)
    proc.wait(timeout=60)
    return statistics.median(delays) if delays else float("nan")


def write_count(argv: list[str], env: dict[str, str], counter_argv: list[str]) -> tuple[int, str]:
    """(write() calls to stdout, how they were counted) of one run with stdout on /dev/null:
    strace when it is here and allowed to trace, else the counting wrapper."""
    strace = shutil.which("strace")
    if strace:
        import tempfile

        with tempfile.NamedTemporaryFile("r", suffix=".strace") as log, open(os.devnull, "w") as null:
            proc = subprocess.run([strace, "-f", "-qq", "-e", "trace=write", "-o", log.name, *argv], stdout=null, stderr=subprocess.PIPE, env=child_env(env), timeout=900)
            if proc.returncode == 0:
                return sum(1 for line in log if re.match(r"(\d+\s+)?write\(1,", line)), "strace"
    with open(os.devnull, "w") as null:
        proc = subprocess.run(counter_argv, stdout=null, stderr=subprocess.PIPE, env=child_env(env), timeout=900)
    found = re.findall(rb"WRITES (\d+)", proc.stderr)
    if proc.returncode != 0 or not found:
        raise SystemExit(f"counting writes failed ({proc.returncode}): {proc.stderr.decode()[-400:]}")
    return int(found[-1]), "a counting wrapper"


_FRAME = re.compile(r"(\d+) events?, \d+\.\ds")  # the live view's head line, once per frame


def live_check(server: Server, rate: float, seconds: float) -> str:
    """The live view fed `rate` events/s for `seconds`: does it keep up, at what frame rate, and
    does its final screen tell the truth?"""
    import tempfile

    server.paced = (rate, seconds)
    total = int(rate * seconds)
    with tempfile.TemporaryFile() as screen:
        t0 = time.perf_counter()
        proc = subprocess.run(a2a_argv(server.url + "/paced", []), stdout=screen, stderr=subprocess.PIPE, env=child_env(MODES["live"][1]), timeout=120 + seconds * 4)
        ended = time.perf_counter()
        if proc.returncode != 0:
            raise SystemExit(f"live view at {rate:,.0f}/s failed ({proc.returncode}): {proc.stderr.decode()[-400:]}")
        screen.seek(0)
        drawn = screen.read().decode("utf-8", "replace")
    counts = [int(m) for m in _FRAME.findall(drawn)]
    last = drawn[drawn.rfind("Summary") :] if "Summary" in drawn else ""
    shown = counts[-1] if counts else -1
    behind = ended - server.paced_end
    took = ended - t0
    verdict = "keeps up" if behind < 0.5 and shown == total and "completed" in last else "FALLS BEHIND or WRONG"
    return (
        f"live view at {rate:,.0f} events/s for {seconds:g} s: {total:,} events; ended {behind * 1000:.0f} ms after the server's last event;"
        f" {len(counts)} frames in {took:.1f} s ({len(counts) / took:.1f}/s); final screen: {shown:,} events,"
        f" state {'completed' if 'completed' in last else 'NOT completed'}: {verdict}"
    )


def paired(a: list[float], b: list[float]) -> float:
    """The median over rounds of a/b: how fast b ran next to a (both times), each pair from one round."""
    return statistics.median(x / y for x, y in zip(a, b, strict=True))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--events", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--latency-events", type=int, default=200)
    ap.add_argument("--write-events", type=int, default=20_000, help="events of the run whose write() calls are counted (0: skip)")
    ap.add_argument("--live-rate", type=float, default=5000, help="events/s for the paced live-view check (0: skip it)")
    ap.add_argument("--live-seconds", type=float, default=3.0)
    args = ap.parse_args()
    modes = [m for m in args.modes.split(",") if m]
    # an installed a2acli has its bytecode compiled (pip does it); under PYTHONDONTWRITEBYTECODE
    # every run would compile a2acli's modules anew (~70 ms a run): compiled once here, as
    # benchmarks/startup.py does (the baselines' httpx and httpx-sse come compiled from pip)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(__file__).resolve().parent.parent / "a2acli")], check=False, stdout=subprocess.DEVNULL)
    server = Server(args.events)
    server.latency = (args.latency_events, 0.01)
    try:
        argvs: dict[str, tuple[list[str], dict[str, str]]] = {
            "floor": (consumer_argv(server.url + "/", False), {}),
            "flush/event": (consumer_argv(server.url + "/", True), {}),
        }
        for m in modes:
            extra, env = MODES[m]
            argvs[m] = (a2a_argv(server.url, extra), env)
        times: dict[str, list[float]] = {name: [] for name in argvs}
        cpu: dict[str, list[float]] = {name: [] for name in argvs}
        for _ in range(args.rounds):
            for name, (argv, env) in argvs.items():
                took, used = run_timed(argv, env)
                times[name].append(took)
                cpu[name].append(used)
        writes: dict[str, str] = {}
        how = ""
        if args.write_events:
            counted = Server(args.write_events)
            try:
                for name in argvs:
                    if name in BASELINES:
                        argv = consumer_argv(counted.url + "/", name == "flush/event")
                        counter = [sys.executable, "-c", WRITE_COUNTER, "-c", CONSUMER, counted.url + "/", argv[-1]]
                    else:
                        argv = a2a_argv(counted.url, MODES[name][0])
                        counter = [sys.executable, "-c", WRITE_COUNTER, *argv[len(A2A) :]]
                    n, how = write_count(argv, MODES[name][1] if name in MODES else {}, counter)
                    writes[name] = f"{n * 1000 / args.write_events:.1f}"
            finally:
                counted.close()
        print(f"{args.events:,} events, {args.rounds} round(s), stdout /dev/null; median of each, ratios paired by round")
        print(f"{'consumer':<14}{'events/s':>12}{'seconds':>9}{'x floor':>9}{'cpu s':>7}{'cpu x floor':>13}{'x flush/event':>15}{'writes/1k':>11}  target")
        floor, flushed = times["floor"], times["flush/event"]
        verdicts = []
        for name, ts in times.items():
            t = statistics.median(ts)
            ratio, cpu_ratio = paired(floor, ts), paired(cpu["floor"], cpu[name])
            target = TARGETS.get(name)
            said = ""
            if target is not None:
                said = f">= {target}x: wall {'met' if ratio >= target else 'NOT met'}, cpu {'met' if cpu_ratio >= target else 'NOT met'}"
                verdicts.append(f"{name} {ratio:.2f}x wall, {cpu_ratio:.2f}x cpu (target >= {target}x)")
            print(
                f"{name:<14}{args.events / t:>12,.0f}{t:>9.2f}{ratio:>9.2f}{statistics.median(cpu[name]):>7.2f}{cpu_ratio:>13.2f}{paired(flushed, ts):>15.2f}{writes.get(name, '-'):>11}  {said}".rstrip()
            )
        if writes:
            print(f"writes/1k: write() calls to stdout per 1,000 events, counted by {how} on a run of {args.write_events:,} events")
        if verdicts:
            print("against the block-buffered floor: " + "; ".join(verdicts))
            print("x floor: the floor's time over the consumer's (wall clock; cpu: the child's user + system time, which a busy machine disturbs less)")
        if args.latency_events:
            lat = {"flush/event": latency(consumer_argv(server.url + "/latency", True), {})}
            for m in modes:
                if m in TARGETS:  # the modes a line of JSON or text comes out of, stamped as the server sent it
                    extra, env = MODES[m]
                    lat[m] = latency(a2a_argv(server.url + "/latency", extra), env)
            print(
                f"latency, median ms from the server's stamp to a line on stdout ({args.latency_events} events 10 ms apart; target < {LATENCY_TARGET_MS:g} ms): "
                + ", ".join(f"{name} {ms:.2f}" for name, ms in lat.items())
                + f" ({'met' if all(ms < LATENCY_TARGET_MS for name, ms in lat.items() if name != 'flush/event') else 'NOT met'})"
            )
        if args.live_rate:
            print(live_check(server, args.live_rate, args.live_seconds))
    finally:
        server.close()
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        print("PYTHONDONTWRITEBYTECODE is set: a2acli compiled once up front")
    if shutil.which("a2a") is None and not (BIN / "a2a").exists():
        print("note: ran `python -m a2acli` (no a2a script next to this Python)")


if __name__ == "__main__":
    main()
