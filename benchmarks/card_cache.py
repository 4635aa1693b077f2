"""What the Agent Card cache saves a CI script: ten `a2a send` runs against an agent whose card may
be kept (`Cache-Control: max-age=300`), next to ten against the same agent whose card says
`no-store`, the agent 50 ms away (each request answered after 50 ms).

    pip install -e . && python benchmarks/card_cache.py [--rounds 3] [--runs 10] [--delay-ms 50]

The agent is a small local HTTP server (this process, 127.0.0.1, a free port) mounted twice: its
card at /cached/.well-known/agent-card.json and /uncached/.well-known/agent-card.json, and under
each a JSON-RPC endpoint answering SendMessage with a completed task. Each round runs the ten cached runs
(the first fetches the card, the nine others use it) and the ten uncached ones, alternately, in
a cache directory of the benchmark's own (XDG_CACHE_HOME, emptied before each round), and counts
the card requests each group made. Prints each group's median time over the rounds and the ratio
cached / uncached (issue 47: target <= 0.75), and that a2acli and the installed packages were compiled
to byte-code first (benchmarks/startup.py's `compile_up_front`). Figures, not assertions: this is not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from startup import compile_up_front  # (benchmarks/startup.py, beside this script)

BIN = Path(sys.executable).parent


def make_handler(delay: float, counts: dict[str, int]) -> type[BaseHTTPRequestHandler]:
    class Agent(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def _send(self, body: bytes, headers: dict[str, str]) -> None:
            time.sleep(delay)  # the agent 50 ms away
            self.send_response(200)
            for k, v in {"Content-Type": "application/json", "Content-Length": str(len(body)), **headers}.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:  # noqa: N802
            kind = self.path.split("/")[1]
            counts[kind] = counts.get(kind, 0) + 1
            host = f"http://127.0.0.1:{self.server.server_address[1]}"
            card = {
                "name": "bench",
                "description": "an agent 50 ms away",
                "version": "1",
                "supportedInterfaces": [
                    {"url": f"{host}/{kind}/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
                ],
                "capabilities": {},
                "defaultInputModes": ["text/plain"],
                "defaultOutputModes": ["text/plain"],
                "skills": [],
            }
            control = "max-age=300" if kind == "cached" else "no-store"
            self._send(json.dumps(card).encode(), {"Cache-Control": control, "ETag": '"bench-1"'})

        def do_POST(self) -> None:  # noqa: N802
            request = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
            task = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}
            self._send(json.dumps({"jsonrpc": "2.0", "id": request.get("id"), "result": {"task": task}}).encode(), {})

    return Agent


def ten_runs(a2a: list[str], url: str, runs: int, env: dict[str, str]) -> float:
    """Seconds that `runs` runs of `a2a send` take one after the other (a CI script's calls)."""
    t0 = time.perf_counter()
    for _ in range(runs):
        subprocess.run([*a2a, "send", "hello", "-o", "json", "-u", url], env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--delay-ms", type=float, default=50.0)
    args = ap.parse_args()

    counts: dict[str, int] = {}
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(args.delay_ms / 1000, counts))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    a2a = [str(BIN / "a2a")] if (BIN / "a2a").exists() else [sys.executable, "-m", "a2acli"]
    cache_home = Path(tempfile.mkdtemp(prefix="a2a-card-cache-bench-"))
    env = {**os.environ, "XDG_CACHE_HOME": str(cache_home)}
    env.pop("A2ACLI_NO_CACHE", None)
    times: dict[str, list[float]] = {"cached": [], "uncached": []}
    fetched: dict[str, list[int]] = {"cached": [], "uncached": []}
    compiled = compile_up_front()
    try:
        ten_runs(a2a, f"{base}/uncached/", 2, env)  # warm-up: the disk cache, the byte-code
        for _ in range(args.rounds):
            for kind in ("cached", "uncached"):
                shutil.rmtree(cache_home / "a2acli", ignore_errors=True)  # each round starts with no card kept
                before = counts.get(kind, 0)
                times[kind].append(ten_runs(a2a, f"{base}/{kind}/", args.runs, env))
                fetched[kind].append(counts.get(kind, 0) - before)
    finally:
        server.shutdown()
        shutil.rmtree(cache_home, ignore_errors=True)

    print(
        f"{args.runs} runs of `a2a send -o json`, each request answered after {args.delay_ms:g} ms, {args.rounds} round(s):"
    )
    print(f"{'card':<34}{'median s':>10}{'best s':>9}{'card requests':>15}")
    labels = {"cached": "max-age=300 (cached)", "uncached": "no-store (uncached)"}
    for kind in ("cached", "uncached"):
        print(
            f"{labels[kind]:<34}{statistics.median(times[kind]):>10.2f}{min(times[kind]):>9.2f}{statistics.median(fetched[kind]):>15g}"
        )
    ratio = statistics.median(c / u for c, u in zip(times["cached"], times["uncached"], strict=True))
    print(
        f"cached / uncached: {ratio:.2f}, the median of the rounds' ratios (target <= 0.75: {'met' if ratio <= 0.75 else 'NOT met'})"
    )
    print(compiled)


if __name__ == "__main__":
    main()
