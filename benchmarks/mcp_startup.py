"""`a2a mcp` next to a2a-handler's `handler mcp`: spawn to `initialize` answered, and what one tool
call costs over the A2A round trips it makes, in one run.

    pip install -e '.[server,mcp]' && python benchmarks/mcp_startup.py [--runs 11]

Start-up: each server is spawned, sent MCP's `initialize` on stdin, and timed until its answer
line arrives on stdout (then stdin is closed and the process reaped); the two alternate run by
run (after one warm-up each), so a slow spell of a shared machine weighs on both alike, and the
ratio is the median of each round's a2a/handler (target: at most 0.6x). a2a-handler 0.4.0 is
installed by this script into its own virtual environment (--handler-venv, kept between runs:
it pins `mcp<2` and the a2a-sdk, which must not touch a2a's environment); --no-handler skips it.

Per call: the demo agent on a free port, one `a2a mcp` session over stdio, and `tasks_get` of one
task called --calls times, against the same two A2A requests made by a plain httpx client (the
Agent Card GET and the GetTask POST: each tool call resolves the agent as a command does); the
overhead is the median call minus the median round trips (target: at most 5 ms). Figures, not
assertions: this is not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
HANDLER = "a2a-handler==0.4.0"
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}},
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def a2a_argv() -> list[str]:
    return [str(BIN / "a2a")] if (BIN / "a2a").exists() else [sys.executable, "-m", "a2acli"]


def handler_argv(venv: Path) -> list[str]:
    """`handler mcp` from its own venv, installed there on first use."""
    handler = venv / "bin" / "handler"
    if not handler.exists():
        print(f"installing {HANDLER} into {venv} (once) …", file=sys.stderr, flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", HANDLER], check=True)
    return [str(handler), "mcp"]


def spawn_to_initialize(argv: list[str], env: dict[str, str]) -> float:
    """Seconds from spawning `argv` to the answer to `initialize` on its stdout."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, bufsize=0
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write((json.dumps(INIT) + "\n").encode())
    proc.stdin.flush()
    while True:
        line = proc.stdout.readline()
        if not line:
            raise SystemExit(f"{' '.join(argv)} ended before answering initialize (exit {proc.wait()})")
        if json.loads(line).get("id") == 1:
            break
    elapsed = time.perf_counter() - t0
    proc.stdin.close()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    return elapsed


class Session:
    """One `a2a mcp` over stdio, spoken to in JSON-RPC lines (no client library in the way)."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, bufsize=0
        )
        self.ids = 1
        self.ask(INIT["method"], INIT["params"])
        self.tell("notifications/initialized")

    def tell(self, method: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps({"jsonrpc": "2.0", "method": method}) + "\n").encode())

    def ask(self, method: str, params: dict) -> dict:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.ids += 1
        self.proc.stdin.write(
            (json.dumps({"jsonrpc": "2.0", "id": self.ids, "method": method, "params": params}) + "\n").encode()
        )
        while True:
            answer = json.loads(self.proc.stdout.readline())
            if answer.get("id") == self.ids:
                return answer

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


def start_demo() -> tuple[subprocess.Popen, str]:
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-c", f"from a2acli.demo.server import serve; serve(port={port}, grpc_port=0)"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return server, f"http://127.0.0.1:{port}"
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit("the demo agent did not start (is the `server` extra installed?)") from None
            time.sleep(0.1)


def per_call(env: dict[str, str], calls: int) -> dict[str, float]:
    """Medians, in ms: a tasks_get tool call over stdio; the same two A2A requests (card GET, then
    GetTask POST) by httpx on a new connection, as each tool call opens one (a client made for
    the pair, TLS off: a plain http:// agent, as a2a reads no CA bundle for one), and on a kept
    connection; and the overhead: the median of each round's tool call minus its new-connection pair."""
    import httpx

    server, url = start_demo()
    try:
        # the card cache off (A2ACLI_NO_CACHE): every tool call makes the two requests the pair below
        # makes; with it on, a call after the first reads the card from the cache and makes one
        session = Session([*a2a_argv(), "mcp"], env | {"A2ACLI_NO_CACHE": "1"})
        sent = session.ask("tools/call", {"name": "send", "arguments": {"agent": url, "text": "hi"}})
        task_id = sent["result"]["structuredContent"]["task"]["id"]
        get = {"name": "tasks_get", "arguments": {"agent": url, "task_id": task_id}}
        body = {"jsonrpc": "2.0", "id": "b", "method": "GetTask", "params": {"id": task_id}}
        headers = {"A2A-Version": "1.0"}

        def pair(client: httpx.Client) -> None:
            client.get(url + "/.well-known/agent-card.json", headers=headers).raise_for_status()
            client.post(url + "/", json=body, headers=headers).raise_for_status()

        rows: list[tuple[float, float, float]] = []
        with httpx.Client(trust_env=False) as kept:
            for i in range(calls + 3):  # three warm-ups
                t0 = time.perf_counter()
                answer = session.ask("tools/call", get)
                t1 = time.perf_counter()
                assert not answer["result"].get("isError"), answer
                with httpx.Client(trust_env=False, verify=False) as fresh:
                    pair(fresh)
                t2 = time.perf_counter()
                pair(kept)
                t3 = time.perf_counter()
                if i >= 3:
                    rows.append((t1 - t0, t2 - t1, t3 - t2))
        session.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    tool, fresh_, kept_ = (statistics.median(column) * 1000 for column in zip(*rows, strict=True))
    overhead = statistics.median(t - f for t, f, _ in rows) * 1000
    return {"tool": tool, "fresh": fresh_, "kept": kept_, "overhead": overhead}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=11, help="start-ups of each server (default 11)")
    ap.add_argument("--calls", type=int, default=50, help="tool calls timed (default 50)")
    ap.add_argument("--handler-venv", type=Path, default=Path(tempfile.gettempdir()) / "a2acli-bench-handler-0.4.0")
    ap.add_argument("--no-handler", action="store_true", help="time a2a mcp alone")
    args = ap.parse_args()

    env = {k: v for k, v in os.environ.items() if not k.startswith("A2ACLI_")}
    env["A2ACLI_GLOBAL_CONFIG"] = os.devnull
    env["A2ACLI_LOCAL_CONFIG"] = os.devnull
    # bytecode for a2a's modules (PYTHONDONTWRITEBYTECODE, where set, would leave them compiled at
    # every start; pip compiled the handler's at install)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(__file__).resolve().parent.parent / "a2acli")], check=False, stdout=subprocess.DEVNULL)
    cases = {"a2a mcp": [*a2a_argv(), "mcp"]}
    if not args.no_handler:
        cases["handler mcp"] = handler_argv(args.handler_venv)
    for argv in cases.values():  # warm-up: the disk cache, the bytecode
        spawn_to_initialize(argv, env)
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.runs):
        for name, argv in cases.items():
            times[name].append(spawn_to_initialize(argv, env))
    print(f"spawn to initialize, {args.runs} runs each, alternating")
    print(f"{'server':<14}{'median ms':>10}{'best ms':>9}")
    for name, got in times.items():
        print(f"{name:<14}{statistics.median(got) * 1000:>10.1f}{min(got) * 1000:>9.1f}")
    if "handler mcp" in times:
        ratio = statistics.median(a / h for a, h in zip(times["a2a mcp"], times["handler mcp"], strict=True))
        print(f"a2a mcp / handler mcp: {ratio:.2f}x (median of each round's ratio; target <= 0.6x)")

    got = per_call(env, args.calls)
    print(f"\ntasks_get tool call over stdio, {args.calls} calls: median {got['tool']:.1f} ms")
    print(
        f"  its A2A requests (card GET + GetTask POST) by httpx, new connection: {got['fresh']:.1f} ms; kept connection: {got['kept']:.1f} ms"
    )
    print(
        f"overhead of a tool call over the A2A round trips it makes: {got['overhead']:.1f} ms (median of the rounds; target <= 5 ms)"
    )


if __name__ == "__main__":
    main()
