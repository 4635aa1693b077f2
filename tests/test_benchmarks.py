"""The benchmark scripts still run (on tiny inputs) and print their tables. Their figures are
not checked here: speed and memory are read from a full benchmark run, never from a test."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


def run(script: str, *args: str) -> str:
    proc = subprocess.run([sys.executable, str(BENCH / script), *args], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def test_stream_memory_runs():
    out = run("stream_memory.py", "--small", "40", "--large", "80", "--warmup", "10", "--modes", "baseline,json,text", "--no-verdict")
    rows = [line.split()[0] for line in out.splitlines() if line.split() and line.split()[0] in ("baseline", "json", "text")]
    assert rows == ["baseline", "json", "text"], out
    assert "no verdict" in out, out


def test_startup_runs():
    out = run("startup.py", "--runs", "1")
    for name in ("python -c pass", 'python -c "import typer, httpx"', "a2a card fetch -o json", "a2a send -o json", "a2a --help"):
        assert name in out, out
    assert "a2a's own share" in out, out
    assert "a2a card fetch / httpie GET" in out or "httpie not installed" in out, out


def test_stream_throughput_runs():
    out = run("stream_throughput.py", "--events", "300", "--rounds", "1", "--latency-events", "5", "--write-events", "200", "--modes", "json,raw,text", "--live-rate", "1000", "--live-seconds", "0.2")
    rows = {line[:14].strip(): line.split() for line in out.splitlines() if line[:14].strip() in ("floor", "flush/event", "raw", "json", "text")}
    assert list(rows) == ["floor", "flush/event", "json", "raw", "text"], out
    assert float(rows["flush/event"][7]) >= 1000.0, out  # writes/1k: the per-event-flush loop's one write per event, counted
    assert "json" in out.split("against the block-buffered floor:")[1], out
    assert "latency, median ms" in out, out
    assert "live view at 1,000 events/s for 0.2 s: 200 events;" in out, out


def test_mock_latency_runs():
    out = run("mock_latency.py", "--calls", "12", "--parallel", "2")
    rows = [line[:34].strip() for line in out.splitlines()]
    assert "floor (http.server, fixed bytes)" in rows and "a2a mock --speed 0" in rows, out
    assert "mock / floor, median:" in out and "target: median < 5 ms:" in out, out
