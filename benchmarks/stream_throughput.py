"""Stream throughput, latency, stdout writes and peak memory of `a2a stream`, for each shape of
event a server streams, next to the plainest Python consumer of the same bytes, measured in the
same run against the same loopback server.

The shapes (issue 33), each a stream of N status updates of one task, the last one completed,
each event carrying the request's JSON-RPC id as a conforming server does:

    v1          canonical V1             {"statusUpdate": {… "state": "TASK_STATE_WORKING" …}}
    clix        the vendor's V1          {"statusUpdate": {… "state": "working" …}}, a2a --dialect clix
    v0          V0 (0.3)                 {"kind": "status-update", … "state": "working" …, "final": false},
                                         a2a --a2a-version 0.3

The floor of each shape: httpx + httpx-sse (`connect_sse`, `iter_sse`), `json.loads` of each
event's data, its result written as one JSON line, stdout block-buffered (one `write` per 8 KB):
the fastest plain consumer of those bytes with the libraries a2a stands on. Every ratio is against
the floor of the same shape. Beside the floor of the first shape, the same loop flushing after
every event (flush/event, one `write` per event) for reference.

Each `a2a` mode runs the installed CLI as a subprocess with stdout on /dev/null:

    json        a2a stream -o json          (events as the wire spelt them, JSON Lines)
    raw         a2a stream -o raw           (each event's data as received)
    text        a2a stream                  (plain text, off a terminal)
    as-v1       a2a stream -o json --as v1  (canonical V1; not in the default modes)

Figures, per shape and consumer:

- events/s and x floor: ROUNDS runs of N events round-robin; the median over rounds of each
  round's ratio to the floor (paired: a slow spell of a shared machine weighs on both sides alike),
  of wall time and of CPU time (the child's user + system time: on a busy machine wall time mostly
  measures the wait for a core, CPU time what the consumer costs).
- writes/1k: write() calls to stdout per 1,000 events, counted on one run of --write-events events
  under `strace -f -e trace=write` (or, without strace, by a counting wrapper around stdout's file).
- latency: the server sends --latency-events events 10 ms apart, each stamped with its send time;
  the median ms from stamp to the line on the consumer's stdout (a pipe read here).
- peak RSS: the child's peak resident memory (getrusage ru_maxrss) in the N-event rounds (median)
  and, for a2a's modes, in one run of --rss-events events (1,000,000 by default); flat when the
  second is within 10% of the first. (benchmarks/stream_memory.py looks inside: the Python heap of each renderer, the
  live view's included, and the state each view holds.)

Targets (issue 33), printed pass/fail per figure: -o json >= 0.85x the floor, -o raw >= 0.9x, plain
text >= 0.6x (wall time), median latency < 5 ms, peak RSS flat from N to --rss-events events.

Live view at a set rate (--live-rate, default 5000 events/s, 0 to skip): the server paces
--live-seconds of canonical V1 events at that rate; `a2a stream` draws its rich live view
(FORCE_COLOR=1) into a file. Printed: how long after the server's last event `a2a` ended, frames
drawn per second, and what the final screen says.

Every run has PYTHONUNBUFFERED removed from its environment (a stdout block-buffered is the floor).
a2acli's bytecode is compiled up front (python -m compileall), as an installed a2acli has it.

    pip install -e '.[dev]' && python benchmarks/stream_throughput.py   # 100k events x 3 rounds, RSS at 1M
    python benchmarks/stream_throughput.py --quick                      # a smoke run: small numbers, no verdict worth reading
    python benchmarks/stream_throughput.py --shapes clix --modes json --rss-events 0

Figures, not assertions: this is a script, not a test (a smoke test runs it with --quick).
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

TARGETS = {"json": 0.85, "raw": 0.9, "text": 0.6}  # x the floor of the same shape (issue 33)
LATENCY_TARGET_MS = 5.0
RSS_FLAT = 1.10  # peak RSS at --rss-events over peak RSS at --events: flat below this


def consumer_argv(url: str, flush: bool) -> list[str]:
    return [sys.executable, "-c", CONSUMER, url, "flush" if flush else "buffered"]


_ID = "@request-id@"  # stands for the request's JSON-RPC id in a prepared body


def result_of(shape: str, last: bool, stamp: float | None = None) -> dict:
    """One status update in the shape's spelling; `stamp`: a status message carrying the time."""
    v1 = shape == "v1"
    status: dict = {"state": ("TASK_STATE_" if v1 else "") + ("COMPLETED" if last else "WORKING")}
    if not v1:
        status["state"] = status["state"].lower()
    status["timestamp"] = "2026-01-01T00:00:00Z"
    if stamp is not None:
        part: dict = {"text": f"{stamp!r}"}
        msg = {"messageId": "m", "role": "ROLE_AGENT" if v1 else "agent", "parts": [part]}
        if shape == "v0":
            msg, part["kind"] = {"kind": "message", **msg}, "text"
        status["message"] = msg
    ids = {"taskId": "t-1", "contextId": "c-1"}
    if shape == "v0":
        return {"kind": "status-update", **ids, "status": status, "final": last}
    return {"statusUpdate": {**ids, "status": status}}


def frame(shape: str, last: bool, rid: object = _ID, stamp: float | None = None) -> bytes:
    return f"data: {json.dumps({'jsonrpc': '2.0', 'id': rid, 'result': result_of(shape, last, stamp)})}\n\n".encode()


BLOCK = 1000  # events per prepared block: a body of any length is written block by block


class Server:
    """Answers POST /<shape>/ with an SSE stream of `events` status updates of that shape (written
    in 64 KB pieces of a prepared block, so a stream of a million events is never held whole);
    /latency/<shape>/ with stamped events 10 ms apart; /paced/ with the live view's paced stream."""

    def __init__(self, events: int) -> None:
        self.events = events
        self.latency_events = 0
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
                parts = [p for p in self.path.split("/") if p]
                if parts and parts[0] == "paced":
                    outer.serve_paced(self.wfile, rid)
                elif parts and parts[0] == "latency":
                    for i in range(outer.latency_events):
                        time.sleep(0.01)
                        self.wfile.write(frame(parts[1], i == outer.latency_events - 1, rid, time.time()))
                        self.wfile.flush()
                else:
                    outer.serve_body(self.wfile, parts[0] if parts else "v1", rid)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def serve_body(self, wfile: object, shape: str, rid: object) -> None:
        """`events` events: the working ones block by block, then the completed one. The request's
        id is put in each prepared frame once per request (every consumer pays this alike)."""
        working = frame(shape, False, rid)
        block = working * BLOCK
        whole, rest = divmod(self.events - 1, BLOCK)
        pending = b""
        for piece in [*([block] * whole), working * rest, frame(shape, True, rid)]:
            pending += piece
            while len(pending) >= 1 << 16:
                wfile.write(pending[: 1 << 16])  # type: ignore[attr-defined]
                pending = pending[1 << 16 :]
        wfile.write(pending)  # type: ignore[attr-defined]

    def serve_paced(self, wfile: object, rid: object) -> None:
        rate, seconds = self.paced
        total, batch = int(rate * seconds), max(int(rate / 100), 1)
        t0 = time.perf_counter()
        for start in range(0, total, batch):
            pause = t0 + start / rate - time.perf_counter()
            if pause > 0:
                time.sleep(pause)
            wfile.write(b"".join(frame("v1", i == total - 1, rid) for i in range(start, min(start + batch, total))))  # type: ignore[attr-defined]
            wfile.flush()  # type: ignore[attr-defined]
        self.paced_end = time.perf_counter()

    def close(self) -> None:
        self.httpd.shutdown()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


SHAPES: dict[str, tuple[str, list[str]]] = {  # name -> (what it is, a2a's flags for it)
    "v1": ("canonical V1 (TASK_STATE_WORKING)", []),
    "clix": ("the vendor's V1, lowercase states (working), --dialect clix", ["--dialect", "clix"]),
    "v0": ("V0 (kind: status-update, final)", ["--a2a-version", "0.3"]),
}
MODES: dict[str, tuple[list[str], dict[str, str]]] = {
    "json": (["-o", "json"], {}),
    "raw": (["-o", "raw"], {}),
    "text": ([], {}),
    "as-v1": (["-o", "json", "--as", "v1"], {}),
    "live": ([], {"FORCE_COLOR": "1", "COLUMNS": "100"}),
}
DEFAULT_MODES = "json,raw,text"


def child_env(env: dict[str, str]) -> dict[str, str]:
    """The environment of a measured run: this one without PYTHONUNBUFFERED (which would make the
    floor's stdout unbuffered, one write per event), plus the mode's own variables."""
    return {**{k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}, **env}


def run_timed(argv: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds: the child's user + system time, peak RSS in KiB) of one run,
    stdout /dev/null."""
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
    return took, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def a2a_argv(url: str, extra: list[str]) -> list[str]:
    return [*A2A, "stream", "go", "--endpoint", url, *extra]


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
        proc = subprocess.run(a2a_argv(server.url + "/paced/", []), stdout=screen, stderr=subprocess.PIPE, env=child_env(MODES["live"][1]), timeout=120 + seconds * 4)
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


def mib(kib: float) -> str:
    return f"{kib / 1024:.1f}"


QUICK = {"events": 300, "rounds": 1, "latency_events": 5, "write_events": 200, "rss_events": 3000, "live_rate": 1000.0, "live_seconds": 0.2}
FULL = {"events": 100_000, "rounds": 3, "latency_events": 100, "write_events": 20_000, "rss_events": 1_000_000, "live_rate": 5000.0, "live_seconds": 3.0}


def arguments() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="a smoke run: " + ", ".join(f"{k.replace('_', '-')} {v:g}" for k, v in QUICK.items()))
    ap.add_argument("--events", type=int, help=f"events per measured run (default {FULL['events']:,})")
    ap.add_argument("--rounds", type=int, help=f"rounds of runs, round-robin (default {FULL['rounds']})")
    ap.add_argument("--shapes", default=",".join(SHAPES), help=f"among {', '.join(SHAPES)}")
    ap.add_argument("--modes", default=DEFAULT_MODES, help=f"a2a's output modes, among {', '.join(m for m in MODES if m != 'live')}")
    ap.add_argument("--latency-events", type=int, help=f"stamped events 10 ms apart per latency run (default {FULL['latency_events']}; 0: skip)")
    ap.add_argument("--write-events", type=int, help=f"events of the run whose write() calls are counted (default {FULL['write_events']:,}; 0: skip)")
    ap.add_argument("--rss-events", type=int, help=f"events of the run whose peak RSS is set against the rounds' (default {FULL['rss_events']:,}; 0: skip)")
    ap.add_argument("--live-rate", type=float, help=f"events/s for the paced live-view check (default {FULL['live_rate']:g}; 0: skip)")
    ap.add_argument("--live-seconds", type=float)
    args = ap.parse_args()
    for key, value in (QUICK if args.quick else FULL).items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    return args


class Figures:
    """What was measured of one consumer of one shape."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.argv, self.env = argv, env
        self.times: list[float] = []
        self.cpu: list[float] = []
        self.rss: list[int] = []
        self.writes: float | None = None
        self.latency: float | None = None
        self.rss_large: int | None = None


def measure(args: argparse.Namespace, server: Server, shapes: list[str], modes: list[str]) -> dict[str, dict[str, Figures]]:
    """Every figure of every consumer of every shape, each kind of run round-robin over them."""
    table: dict[str, dict[str, Figures]] = {}
    for shape in shapes:
        url = f"{server.url}/{shape}/"
        row = table[shape] = {"floor": Figures(consumer_argv(url, False), {})}
        if shape == shapes[0]:
            row["flush/event"] = Figures(consumer_argv(url, True), {})
        for m in modes:
            row[m] = Figures(a2a_argv(url, [*SHAPES[shape][1], *MODES[m][0]]), MODES[m][1])
    everyone = [f for row in table.values() for f in row.values()]
    for _ in range(args.rounds):
        for f in everyone:
            took, cpu, rss = run_timed(f.argv, f.env)
            f.times.append(took)
            f.cpu.append(cpu)
            f.rss.append(rss)
    if args.write_events:
        server.events = args.write_events
        for f in everyone:
            if f.argv[:2] == [sys.executable, "-c"]:  # a baseline: the consumer's code under the counter
                counter = [sys.executable, "-c", WRITE_COUNTER, "-c", CONSUMER, *f.argv[3:]]
            else:
                counter = [sys.executable, "-c", WRITE_COUNTER, *f.argv[len(A2A) :]]
            n, measure.how = write_count(f.argv, f.env, counter)  # type: ignore[attr-defined]
            f.writes = n * 1000 / args.write_events
    if args.latency_events:
        server.latency_events = args.latency_events
        for row in table.values():
            for name, f in row.items():
                if name != "floor":  # block-buffered: its lines wait for 8 KB, by design
                    f.latency = latency([a.replace(f"{server.url}/", f"{server.url}/latency/") for a in f.argv], f.env)
    if args.rss_events:  # a2a's runs only: the targets are a2a's (a long run each, on a busy machine)
        server.events = args.rss_events
        for row in table.values():
            for name, f in row.items():
                if name in MODES:
                    f.rss_large = run_timed(f.argv, f.env)[2]
    server.events = args.events
    return table


def report(args: argparse.Namespace, table: dict[str, dict[str, Figures]]) -> list[tuple[str, bool]]:
    """Print the tables; return each target's (line, met)."""
    large = f"@{args.rss_events:,}" if args.rss_events else ""
    verdicts: list[tuple[str, bool]] = []
    for shape, row in table.items():
        floor = row["floor"]
        print(f"\n{shape}: {SHAPES[shape][0]}")
        print(f"{'consumer':<13}{'events/s':>10}{'seconds':>9}{'x floor':>9}{'cpu s':>7}{'cpu x floor':>13}{'writes/1k':>11}{'latency ms':>12}{'RSS MiB':>9}{large:>12}")
        for name, f in row.items():
            t = statistics.median(f.times)
            ratio, cpu_ratio = paired(floor.times, f.times), paired(floor.cpu, f.cpu)
            rss = statistics.median(f.rss)
            print(
                f"{name:<13}{args.events / t:>10,.0f}{t:>9.2f}{ratio:>9.2f}{statistics.median(f.cpu):>7.2f}{cpu_ratio:>13.2f}"
                f"{'-' if f.writes is None else format(f.writes, '.1f'):>11}{'-' if f.latency is None else format(f.latency, '.2f'):>12}"
                f"{mib(rss):>9}{'-' if f.rss_large is None else mib(f.rss_large):>12}"
            )
            if name in TARGETS:
                target = TARGETS[name]
                verdicts.append((f"{shape} -o {name}: {ratio:.2f}x the floor, wall (cpu {cpu_ratio:.2f}x); target >= {target}x", ratio >= target))
            if name in MODES and f.latency is not None:
                verdicts.append((f"{shape} -o {name}: median latency {f.latency:.2f} ms; target < {LATENCY_TARGET_MS:g} ms", f.latency < LATENCY_TARGET_MS))
            if name in MODES and f.rss_large is not None:
                grow = f.rss_large / rss
                verdicts.append((f"{shape} -o {name}: peak RSS {mib(rss)} MiB at {args.events:,} events, {mib(f.rss_large)} MiB at {args.rss_events:,} (x{grow:.2f}); target flat (< x{RSS_FLAT:.2f})", grow < RSS_FLAT))
    return verdicts


def main() -> None:
    args = arguments()
    shapes = [s for s in args.shapes.split(",") if s]
    modes = [m for m in args.modes.split(",") if m]
    for name, known in (("shape", SHAPES), ("mode", MODES)):
        unknown = [x for x in (shapes if name == "shape" else modes) if x not in known]
        if unknown:
            raise SystemExit(f"unknown {name} {', '.join(unknown)}: use {', '.join(known)}")
    # an installed a2acli has its bytecode compiled (pip does it); under PYTHONDONTWRITEBYTECODE
    # every run would otherwise compile a2acli's modules anew: compiled once here, as startup.py does
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(__file__).resolve().parent.parent / "a2acli")], check=False, stdout=subprocess.DEVNULL)
    server = Server(args.events)
    try:
        started = time.perf_counter()
        table = measure(args, server, shapes, modes)
        print(
            f"{args.events:,} events a run, {args.rounds} round(s), stdout /dev/null; medians, ratios to the floor of the same shape paired by round"
            + (f"; writes/1k counted by {measure.how} on {args.write_events:,} events" if args.write_events else "")  # type: ignore[attr-defined]
            + (f"; latency over {args.latency_events} events 10 ms apart, stdout a pipe" if args.latency_events else "")
        )
        verdicts = report(args, table)
        print(f"\ntargets, issue 33 (wall-clock ratios; {time.perf_counter() - started:.0f} s of runs):")
        for line, met in verdicts:
            print(f"  {'pass' if met else 'FAIL'}  {line}")
        failed = sum(not met for _, met in verdicts)
        print(f"{len(verdicts) - failed} of {len(verdicts)} figures meet their target" + (" (--quick: too small to judge)" if args.quick else ""))
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
