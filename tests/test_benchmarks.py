"""The benchmark scripts still run (on tiny inputs) and print their tables. Their figures are
not checked here: speed and memory are read from a full benchmark run, never from a test."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

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
    for name in ("python -c pass", 'python -c "import typer, httpx"', "a2a card fetch -o json", "bare typer+httpx card fetch", "a2a send -o json", "a2a --help"):
        assert name in out, out
    assert "a2a's own share" in out and "above the bare typer+httpx client" in out, out
    assert "a2a card fetch / httpie GET" in out or "httpie not installed" in out, out


def test_stream_throughput_runs():
    out = run("stream_throughput.py", "--quick", "--modes", "json,text")
    tables = {}
    for block in out.split("\n\n")[1:4]:
        head, _, *rows = block.splitlines()
        tables[head.split(":")[0]] = {line[:13].strip(): line.split() for line in rows}
    assert list(tables) == ["v1", "clix", "v0"], out  # the three shapes, each with its own floor
    assert list(tables["v1"]) == ["floor", "flush/event", "json", "text"], out
    assert list(tables["clix"]) == list(tables["v0"]) == ["floor", "json", "text"], out
    assert float(tables["v1"]["flush/event"][6]) >= 1000.0, out  # writes/1k: the per-event-flush loop's one write per event, counted
    for shape in tables:
        assert f"  {shape} -o json: " in out and f"  {shape} -o text: " in out, out  # a verdict per figure
    assert "median latency" in out and "peak RSS" in out and "figures meet their target" in out, out
    assert "live view at 1,000 events/s for 0.2 s: 200 events;" in out, out


def test_mock_latency_runs():
    out = run("mock_latency.py", "--calls", "12", "--parallel", "2")
    rows = [line[:34].strip() for line in out.splitlines()]
    assert "floor (http.server, fixed bytes)" in rows and "a2a mock --speed 0" in rows, out
    assert "mock / floor, median:" in out and "target: median < 5 ms:" in out, out


def test_mcp_startup_runs():
    pytest.importorskip("mcp", reason="a2a mcp needs the mcp extra")
    out = run("mcp_startup.py", "--no-handler", "--runs", "1", "--calls", "2")
    assert "a2a mcp" in out and "spawn to initialize" in out, out
    assert "overhead of a tool call over the A2A round trips it makes" in out, out


def test_card_cache_runs():
    out = run("card_cache.py", "--rounds", "1", "--runs", "2", "--delay-ms", "0")
    rows = {line[:34].strip(): line.split()[-1] for line in out.splitlines()[2:4]}
    assert rows == {"max-age=300 (cached)": "1", "no-store (uncached)": "2"}, out  # card requests: one kept, every one asked
    assert "cached / uncached: " in out and "target <= 0.75" in out, out


def test_the_bare_client_collects_as_an_a2a_run_does():
    """benchmarks/bare_card_fetch.py is the yardstick of a2a's own cost: it starts as a2a does,
    so it leaves the same first objects uncollected (it cannot import a2acli: that is what it
    measures against)."""
    from a2acli.main import RUN_GEN0_THRESHOLD

    source = (BENCH / "bare_card_fetch.py").read_text()
    assert f"gc.set_threshold({RUN_GEN0_THRESHOLD:_}," in source
