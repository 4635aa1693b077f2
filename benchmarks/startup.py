"""Start-up and per-call cost of `a2a`, next to curl, httpie and a bare Python, in one run.

    pip install -e '.[server,bench]' && python benchmarks/startup.py [--runs 21]

Starts the demo agent on a free port, then runs the commands round-robin --runs times (after two
warm-up rounds), so that a slow spell of a shared machine weighs on all of them alike, and
prints the median and best wall time, the peak RSS of the child, and ratios against
`python -c pass` and against httpie's `http GET` of the same card URL. The target (issue 26) is
`a2a card fetch -o json` at most 0.45x the time of httpie. The runs keep the Agent Card cache in a
directory of the benchmark's own (XDG_CACHE_HOME): `card fetch` revalidates the demo agent's card
(a 304) on each run, as it always asks the network, and `a2a send` uses the card kept (issue 47). A `python -c "import typer, httpx"` row
shows what the two libraries every command loads cost by themselves, and a bare Typer app that makes
the same GET with httpx and prints it (benchmarks/bare_card_fetch.py) is the fastest plain consumer
on those libraries: `a2a card fetch` above it is a2a's own cost, and it over httpie is the floor of
the ratio the target bounds. `a2a send` is set beside one blocking SendMessage
made by httpie (the same JSON-RPC request, one call; issue 21: the default send is one call, within
1.1x of it) and beside `a2a send --follow` (returnImmediately, then the task followed). Figures, not
assertions: this is not a test.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).parent
LIBS = 'python -c "import typer, httpx"'
LIBS_AS_USED = "  the same, as a2a loads them"
BARE = "bare typer+httpx card fetch"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def compile_up_front() -> str:
    """The byte-code of a2acli and of the installed packages written once, before anything is timed,
    and what was done, to print. `pip install` compiles every package it installs (a user starts
    with .pyc files), but not the source tree of an editable install, and under
    PYTHONDONTWRITEBYTECODE no run writes them: without this each run would compile a2acli from
    source (and any package installed without byte-code), and the figures would mean nothing."""
    import sysconfig

    source = str(Path(__file__).resolve().parent.parent / "a2acli")
    # a2acli always anew (-f): compileall keeps a .pyc whose recorded mtime matches its source's, so
    # a file edited in the second it was compiled keeps a stale one, which every import then
    # refuses (its recorded size differs) and compiles again from source: ~5 ms a run for one module
    subprocess.run([sys.executable, "-m", "compileall", "-q", "-f", source], check=False, stdout=subprocess.DEVNULL)
    subprocess.run([sys.executable, "-m", "compileall", "-q", sysconfig.get_paths()["purelib"]], check=False, stdout=subprocess.DEVNULL)
    said = "a2acli and the installed packages compiled to byte-code once, before the runs (as `pip install` leaves them)"
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        said += "; PYTHONDONTWRITEBYTECODE is set here, so no run writes any"
    return said


def run_once(argv: list[str]) -> tuple[float, int, float]:
    """(seconds, peak RSS in KiB, CPU seconds: user + system) of one run; fails loudly if the
    command fails."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode}: {proc.stderr.read().decode()[:300] if proc.stderr else ''}")
    return elapsed, usage.ru_maxrss, usage.ru_utime + usage.ru_stime


def measure_all(cases: list[tuple[str, list[str]]], runs: int) -> dict[str, dict[str, float]]:
    """Round-robin: run 1 of every command, then run 2 of every command, and so on, so that a
    slow spell of the machine (shared CPUs drift) weighs on every command alike."""
    for _ in range(2):  # warm-up: disk cache, the server's first-request paths
        for _, argv in cases:
            run_once(argv)
    samples: dict[str, list[tuple[float, int, float]]] = {name: [] for name, _ in cases}
    for _ in range(runs):
        for name, argv in cases:
            samples[name].append(run_once(argv))
    results = {}
    for name, got in samples.items():
        times, rss, cpu = zip(*got, strict=True)
        results[name] = {"median": statistics.median(times) * 1000, "best": min(times) * 1000, "rss": max(rss) / 1024, "times": times, "cpu": cpu}
    return results


def paired_ratio(a: list[float], b: list[float]) -> float:
    """The median over rounds of a/b, each pair taken in the same round: a drift of the machine
    between rounds cancels out, where a ratio of two medians would carry it."""
    return statistics.median(x / y for x, y in zip(a, b, strict=True))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=21)
    args = ap.parse_args()
    import tempfile

    # the Agent Card cache of these runs, not the user's (the child processes inherit it)
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="a2a-startup-cache-")

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-c", f"from a2acli.demo.server import serve; serve(port={port}, grpc_port=0)"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("the demo agent did not start (is the `server` extra installed?)") from None
                time.sleep(0.1)
        card = f"{url}/.well-known/agent-card.json"
        a2a = [str(BIN / "a2a")] if (BIN / "a2a").exists() else [sys.executable, "-m", "a2acli"]
        env_note = compile_up_front()
        cases: list[tuple[str, list[str]]] = [
            ("python -c pass", [sys.executable, "-c", "pass"]),
            # the two libraries every a2a command loads (typer parses, httpx sends): what is left
            # of `a2a card fetch` above this row is a2a's own share
            (LIBS, [sys.executable, "-c", "import typer, httpx"]),
            # the same as a2a loads them: httpx without its own command-line tool (rich, pygments,
            # click), which a2a keeps from loading (a2acli/transport/__init__.py), no garbage
            # collection while importing, and the end without the interpreter's teardown
            # (a2acli/__main__.py)
            (LIBS_AS_USED, [sys.executable, "-c", "import gc, os, sys; gc.disable(); sys.modules['httpx._main'] = None; import typer, httpx; os._exit(0)"]),
        ]
        if shutil.which("curl"):
            cases.append(("curl card", ["curl", "-sf", card]))
        httpie = shutil.which("http", path=str(BIN)) or shutil.which("http")
        if httpie:
            cases.append(("httpie GET card", [httpie, "--print=b", "GET", card]))
            send = '{"jsonrpc":"2.0","id":"b-1","method":"SendMessage","params":{"message":{"messageId":"b-1","role":"ROLE_USER","parts":[{"text":"hello"}]}}}'
            cases.append(("httpie one blocking send", [httpie, "--print=b", "--ignore-stdin", "POST", url + "/", "A2A-Version:1.0", "Content-Type:application/json", f"--raw={send}"]))
        cases += [
            ("a2a card fetch -o json", [*a2a, "card", "fetch", "-o", "json", "-u", url]),  # right after httpie
            # the fastest plain consumer on a2a's libraries: the same GET and JSON, no a2a (bare_card_fetch.py)
            (BARE, [sys.executable, str(Path(__file__).resolve().parent / "bare_card_fetch.py"), "card", "fetch", "-u", url, "-o", "json"]),
            ("a2a --version", [*a2a, "--version"]),
            ("a2a --help", [*a2a, "--help"]),
            ("a2a send -o json", [*a2a, "send", "hello", "-o", "json", "-u", url]),
            ("a2a send --follow -o json", [*a2a, "send", "hello", "--follow", "-o", "json", "-u", url]),
            ("a2a send --offline -o raw", [*a2a, "send", "hello", "--offline", "-o", "raw", "--rpc-url", url]),
        ]
        results = measure_all(cases, args.runs)
        churn = {name: chunk_churn(cmd) for name, cmd in cases if name in ("a2a card fetch -o json", BARE)}
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(os.environ["XDG_CACHE_HOME"], ignore_errors=True)

    base = results["python -c pass"]["median"]
    print(f"{'command':<34}{'median ms':>10}{'best ms':>9}{'cpu ms':>8}{'peak RSS MiB':>14}{'x python':>10}")
    for name, r in results.items():
        print(f"{name:<34}{r['median']:>10.1f}{r['best']:>9.1f}{statistics.median(r['cpu']) * 1000:>8.1f}{r['rss']:>14.1f}{r['median'] / base:>10.1f}")
    libs, card = results[LIBS_AS_USED], results["a2a card fetch -o json"]
    ours = statistics.median(c - li for c, li in zip(card["times"], libs["times"], strict=True)) * 1000
    ours_cpu = statistics.median(c - li for c, li in zip(card["cpu"], libs["cpu"], strict=True)) * 1000
    print(
        f"\na2a card fetch -o json above typer and httpx as a2a loads them: {ours:.1f} ms a run, {ours_cpu:.1f} ms of CPU (medians of the rounds'"
        " differences): a2a's own share (its modules, its HTTP connections, the work of the command)"
    )
    bare = results[BARE]
    over_bare = statistics.median(c - b for c, b in zip(card["times"], bare["times"], strict=True)) * 1000
    print(
        f"a2a card fetch -o json above the bare typer+httpx client (the same GET, httpcore and h11 included): {over_bare:.1f} ms a run,"
        f" {paired_ratio(card['times'], bare['times']):.2f}x its time: what a2a's own modules and work cost"
    )
    if "httpie GET card" in results:
        a2a_card, httpie_card = results["a2a card fetch -o json"], results["httpie GET card"]
        ratio = paired_ratio(a2a_card["times"], httpie_card["times"])
        cpu_ratio = paired_ratio(a2a_card["cpu"], httpie_card["cpu"])
        print(
            f"a2a card fetch / httpie GET: {ratio:.2f}, the median of {len(a2a_card['times'])} rounds' ratios "
            f"(ratio of the medians: {a2a_card['median'] / httpie_card['median']:.2f}; target <= 0.45: {'met' if ratio <= 0.45 else 'NOT met'});"
            f" of CPU time: {cpu_ratio:.2f} ({'met' if cpu_ratio <= 0.45 else 'NOT met'})"
        )
        print(f"typer and httpx as a2a loads them / httpie GET: {paired_ratio(libs['times'], httpie_card['times']):.2f} (the floor of that ratio while a2a uses both)")
        print(
            f"bare typer+httpx card fetch / httpie GET: {paired_ratio(bare['times'], httpie_card['times']):.2f} (the floor for any CLI on typer and"
            f" httpx's own transport; the 0.45 target leaves a2a {0.45 * httpie_card['median'] - bare['median']:.1f} ms above it here)"
        )
        send_a2a, send_httpie = results["a2a send -o json"], results["httpie one blocking send"]
        ratio = paired_ratio(send_a2a["times"], send_httpie["times"])
        print(f"a2a send / httpie's one blocking SendMessage: {ratio:.2f} (target <= 1.10: {'met' if ratio <= 1.1 else 'NOT met'})")
        print(f"a2a send / a2a send --follow: {paired_ratio(send_a2a['times'], results['a2a send --follow -o json']['times']):.2f}")
    else:
        print("\nhttpie not installed (pip install -e '.[bench]'): no ratio against it")
    if None not in churn.values():
        print(
            "CPython frame-stack chunks (16 KiB) mapped and unmapped in one run, by strace: "
            + ", ".join(f"{name} {n}" for name, n in churn.items())
            + " (a2acli/transport/__init__.py, load(): deep imports straddling a chunk's end map one at every call)"
        )
    print(env_note)
    if any("__editable__" in str(getattr(f, "__module__", "")) for f in sys.meta_path):
        print("a2acli is installed editable through an import hook here (~10 ms per start); pip with hatchling uses a plain path entry")


def chunk_churn(cmd: list[str]) -> int | None:
    """How many 16 KiB frame-stack chunks one run of `cmd` unmapped (strace), or None without
    strace. CPython (3.11+) frees such a chunk as soon as the frames on it return: code that runs
    back and forth over a chunk's end maps and unmaps one each time."""
    import tempfile

    if not shutil.which("strace"):
        return None
    with tempfile.NamedTemporaryFile("r", suffix=".strace") as log:
        done = subprocess.run(["strace", "-f", "-e", "trace=munmap", "-o", log.name, *cmd], capture_output=True, timeout=60)
        if done.returncode != 0:
            return None
        return sum(1 for line in log if line.startswith(tuple("0123456789")) and "munmap(" in line and ", 16384)" in line)


if __name__ == "__main__":
    main()
