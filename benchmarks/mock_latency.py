"""Latency and calls per second of `a2a mock` for a recorded unary call, next to a floor.

    python benchmarks/mock_latency.py [--calls 400] [--parallel 8]

Writes a dump of one recorded SendMessage (JSON-RPC, 1.0), serves it with the mock (`a2a mock DUMP
--speed 0`, in a process of its own), and sends the same SendMessage from httpx clients over
kept-alive connections: one client alone (median and 90th percentile latency, calls per second), then
--parallel clients at once (calls per second). The floor, measured in the same run with the same
clients: a minimal http.server in a process of its own (HTTP/1.1, TCP_NODELAY) that answers the
same bytes whatever was asked, so the ratio says what the mock's matching costs. The target (issue 36) is a median under
5 ms on a kept-alive connection. Figures, not assertions: this is not a test.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

TASK = {
    "id": "task-1",
    "contextId": "ctx-1",
    "status": {"state": "TASK_STATE_COMPLETED", "timestamp": "2026-01-01T00:00:00Z"},
    "artifacts": [
        {"artifactId": "art-1", "name": "user", "parts": [{"data": {"id": "user-1", "projectUserId": "u1"}}]}
    ],
}


def request(message_id: str, rpc_id: str) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": rpc_id,
        "method": "SendMessage",
        "params": {
            "message": {
                "messageId": message_id,
                "role": "ROLE_USER",
                "parts": [{"data": {"skill": "create-user", "projectUserId": "u1"}}],
            }
        },
    }


def write_dump(directory: Path) -> bytes:
    """A dump of one SendMessage as `--dump` writes it; returns the recorded answer's bytes."""
    body = json.dumps(request(str(uuid.uuid4()), str(uuid.uuid4()))).encode()
    answer = json.dumps({"jsonrpc": "2.0", "id": "1", "result": {"task": TASK}}).encode()
    stem = "001-SendMessage"
    (directory / f"{stem}.request.http").write_text(
        "POST / HTTP/1.1\nHost: 127.0.0.1\nA2A-Version: 1.0\nContent-Type: application/json\n\n"
    )
    (directory / f"{stem}.request.body").write_bytes(body)
    (directory / f"{stem}.response.http").write_text("HTTP/1.1 200 OK\ncontent-type: application/json\n\n")
    (directory / f"{stem}.response.body").write_bytes(answer)
    entry = {"seq": 1, "method": "SendMessage", "version": "1.0", "http": "POST", "status": 200, "ms": 1.0}
    (directory / "index.jsonl").write_text(json.dumps({**entry, "files": stem}) + "\n")
    return answer


FLOOR = """
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
answer = open(sys.argv[1], "rb").read()
class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)
    def log_message(self, *args):
        pass
class Server(ThreadingHTTPServer):
    daemon_threads = True
server = Server(("127.0.0.1", 0), Handler)
print(f"http://127.0.0.1:{server.server_address[1]}", flush=True)
server.serve_forever()
"""


@contextmanager
def serving(argv: list[str]) -> Iterator[str]:
    """A server in a process of its own (the clients' GIL is not its), until the block ends; yields
    the URL it prints first on stdout."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()
        if not url.startswith("http"):
            raise SystemExit(f"{' '.join(argv)} printed no URL (exit {proc.poll()})")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def one_client(url: str, calls: int) -> list[float]:
    """Seconds per call, one kept-alive httpx client, after a few warm-up calls."""
    times = []
    with httpx.Client(headers={"A2A-Version": "1.0"}) as client:
        for i in range(calls + 5):
            doc = request(str(uuid.uuid4()), str(i))
            t0 = time.perf_counter()
            answer = client.post(url + "/", json=doc)
            elapsed = time.perf_counter() - t0
            assert answer.status_code == 200 and "result" in answer.json(), answer.text[:200]
            if i >= 5:
                times.append(elapsed)
    return times


def parallel(url: str, calls: int, clients: int) -> float:
    """Calls per second with `clients` kept-alive clients at once, `calls` each."""
    threads = [threading.Thread(target=one_client, args=(url, calls)) for _ in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return clients * (calls + 5) / (time.perf_counter() - t0)


def row(name: str, times: list[float], rate: float) -> tuple[str, float, float, float, float]:
    median = statistics.median(times) * 1000
    p90 = statistics.quantiles(times, n=10)[-1] * 1000 if len(times) >= 10 else max(times) * 1000
    return name, median, p90, len(times) / sum(times), rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=400, help="calls per client (default 400)")
    parser.add_argument("--parallel", type=int, default=8, help="clients at once (default 8)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="a2a-mock-bench-") as tmp:
        dump = Path(tmp) / "dump"
        dump.mkdir()
        (Path(tmp) / "answer.json").write_bytes(write_dump(dump))
        servers = (
            ("floor (http.server, fixed bytes)", [sys.executable, "-c", FLOOR, str(Path(tmp) / "answer.json")]),
            ("a2a mock --speed 0", [sys.executable, "-m", "a2acli", "mock", str(dump), "--speed", "0", "-q"]),
        )
        rows = []
        for name, argv in servers:
            with serving(argv) as url:
                times = one_client(url, args.calls)
                rows.append(row(name, times, parallel(url, args.calls // 2 or 1, args.parallel)))
    print(
        f"recorded unary SendMessage (JSON-RPC 1.0), {args.calls} calls per client, {args.parallel} clients in parallel"
    )
    print(f"{'server':34} {'median ms':>10} {'p90 ms':>8} {'calls/s, 1':>11} {f'calls/s, {args.parallel}':>12}")
    for name, median, p90, one, many in rows:
        print(f"{name:34} {median:10.2f} {p90:8.2f} {one:11.0f} {many:12.0f}")
    (_, floor_median, *_), (_, mock_median, *_) = rows
    print(
        f"mock / floor, median: {mock_median / floor_median:.1f}x; target: median < 5 ms: {'met' if mock_median < 5 else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
