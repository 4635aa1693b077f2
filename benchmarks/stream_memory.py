"""Does a long stream keep memory flat? Peak memory of `a2a stream`'s event path, per output mode.

Synthetic SSE events (status updates with messages, streamed text chunks appended to one artifact,
a new data artifact every 50 events, a file part every 500) are generated lazily by an
httpx.MockTransport and read the way `a2a stream` reads them: an httpx streaming response ->
transport.sse.iter_events -> JsonRpcBinding.read_event -> JsonRpcBinding.to_core -> render.stream.StreamView.
Every mode writes to os.devnull; the live mode renders the rich Live view on a forced-terminal
Console (its refresh thread included). The baseline is the same loop with a view that does nothing,
measured in the same run.

For each mode: tracemalloc's peak (above what was allocated before the loop) after SMALL and after
LARGE events, and LARGE/SMALL. Flat memory means a ratio near 1 (it would be LARGE/SMALL = 20 if
the view kept every event). "state" is what the view itself holds at the end (the live view's
bounded LiveState; the other views hold nothing). Each mode first streams WARMUP events untraced
(imports, first-use caches).

The live view's peak still rises between the sizes, by a bounded amount: rich keeps a process-wide
LRU cache of cell widths (4096 strings shorter than 512 characters), and the frames of a long
stream (streamed text changing every frame) keep replacing short entries with long ones until the
cache holds its ~2-3 MiB worst case. That is printed apart and checked against the bound; the
view's own state must not grow at all.

    /work/venv/bin/python benchmarks/stream_memory.py            # 10k vs 200k events
    /work/venv/bin/python benchmarks/stream_memory.py --small 2000 --large 20000 --modes json,live

This is a script, not a test: it takes a minute or two.
"""

from __future__ import annotations

import argparse
import base64
import gc
import json
import os
import sys
import time
import tracemalloc
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx  # noqa: E402
from rich.console import Console  # noqa: E402

from a2acli.pipeline.session import Reply  # noqa: E402
from a2acli.render.output import Output  # noqa: E402
from a2acli.render.stream import StreamView  # noqa: E402
from a2acli.transport.exchange import Exchange, NullTap  # noqa: E402
from a2acli.transport.sse import iter_events  # noqa: E402
from a2acli.wire import Wire  # noqa: E402
from a2acli.wire.bindings.jsonrpc import JsonRpcBinding  # noqa: E402
from a2acli.wire.dialects import DIALECTS  # noqa: E402
from a2acli.wire.methods import METHODS  # noqa: E402

SPEC = METHODS["SendStreamingMessage"]
BINDING = JsonRpcBinding()
ENC = BINDING.encode(SPEC, {}, wire=Wire.V1, dialect=DIALECTS["spec"], request_id=None, stream=True)._replace(request_id=None)
RPC = "http://agent.bench/rpc"
FILE_B64 = base64.b64encode(os.urandom(3000)).decode()


def event(i: int) -> dict[str, Any]:
    ids = {"taskId": "t-bench", "contextId": "c-bench"}
    if i == 0:
        return {"task": {"id": "t-bench", "contextId": "c-bench", "status": {"state": "TASK_STATE_SUBMITTED"}}}
    if i % 500 == 0:
        art = {"artifactId": f"file-{i}", "name": f"file {i}", "parts": [{"raw": FILE_B64, "mediaType": "application/octet-stream", "filename": f"blob-{i}.bin"}]}
        return {"artifactUpdate": {**ids, "artifact": art, "lastChunk": True}}
    if i % 50 == 0:
        art = {"artifactId": f"data-{i}", "name": f"record {i}", "parts": [{"data": {"n": i, "tags": ["x", "y"], "nested": {"k": "v" * 40}}}]}
        return {"artifactUpdate": {**ids, "artifact": art, "lastChunk": True}}
    if i % 2:
        msg = {"messageId": f"m-{i}", "role": "ROLE_AGENT", "parts": [{"text": f"step {i}: still working on it"}]}
        return {"statusUpdate": {**ids, "status": {"state": "TASK_STATE_WORKING", "message": msg, "timestamp": "2026-01-01T00:00:00.000Z"}}}
    chunk = {"artifactId": "log", "name": "log", "parts": [{"text": f"token {i} "}]}
    return {"artifactUpdate": {**ids, "artifact": chunk, "append": i > 2, "lastChunk": False}}


def body(n: int, batch: int = 64) -> Iterator[bytes]:
    """The SSE body, generated as it is read (the mock never holds the whole stream)."""
    out: list[str] = []
    for i in range(n):
        out.append("data: " + json.dumps({"jsonrpc": "2.0", "id": 1, "result": event(i)}) + "\n\n")
        if len(out) == batch:
            yield "".join(out).encode()
            out = []
    if out:
        yield "".join(out).encode()


class NoopView:
    def __init__(self, *_: Any, **__: Any) -> None:
        pass

    def __enter__(self) -> NoopView:
        return self

    def __exit__(self, *exc: Any) -> None:
        return None

    def event(self, reply: Any) -> None:
        pass

    def summary(self, task: dict[str, Any]) -> None:
        pass


def make_view(mode: str, sink: Any) -> Any:
    if mode == "baseline":
        return NoopView()
    if mode == "live":
        console = Console(file=sink, force_terminal=True, width=100)
        return StreamView(Output("text", stdout=sink, stderr=sink), console=console)
    out = Output({"text": "text", "json": "json", "raw": "raw"}[mode], stdout=sink, stderr=sink)
    assert not out.rich
    return StreamView(out)


def deep_size(obj: Any, seen: set[int] | None = None) -> int:
    """Bytes held by an object graph (the live view's state): containers, dataclasses, slots."""
    seen = set() if seen is None else seen
    if id(obj) in seen or obj is None or isinstance(obj, (bool, int, float)):
        return 0
    seen.add(id(obj))
    size = sys.getsizeof(obj)
    if isinstance(obj, dict):
        size += sum(deep_size(k, seen) + deep_size(v, seen) for k, v in obj.items())
    elif isinstance(obj, (list, tuple, set, frozenset, deque)):
        size += sum(deep_size(v, seen) for v in obj)
    elif hasattr(obj, "__dict__") and not isinstance(obj, type):
        size += deep_size(vars(obj), seen)
    for slot in getattr(type(obj), "__slots__", ()):
        size += deep_size(getattr(obj, slot, None), seen)
    return size


def run(mode: str, n: int) -> tuple[int, int, float]:
    """(peak bytes above the start, bytes held by the view's state at the end, seconds) of
    streaming n events through one view."""
    sink = open(os.devnull, "w")  # noqa: SIM115
    client = httpx.Client(transport=httpx.MockTransport(lambda req: httpx.Response(200, headers={"Content-Type": "text/event-stream"}, content=body(n))))
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    t0 = time.perf_counter()
    seen = 0
    with client.stream("POST", RPC, content=b"{}") as resp:
        ex = Exchange(1, SPEC.name, "POST", RPC, [], streaming=True)
        ex.status, ex.response_headers = resp.status_code, list(resp.headers.items())
        with make_view(mode, sink) as view:
            for ev in iter_events(ex, resp, [NullTap()]):
                result = BINDING.read_event(ENC, ex, ev.event, ev.data)
                view.event(Reply(result, BINDING.to_core(ENC, result), ev.data.encode(), ex))
                seen += 1
            view.summary({"id": "t-bench", "contextId": "c-bench", "state": "TASK_STATE_WORKING"})
            held = deep_size(getattr(view, "state", None))
    elapsed = time.perf_counter() - t0
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    client.close()
    sink.close()
    assert seen == n, (seen, n)
    return peak, held, elapsed


def kib(n: int) -> str:
    return f"{n / 1024:,.0f} KiB"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--small", type=int, default=10_000)
    ap.add_argument("--large", type=int, default=200_000)
    ap.add_argument("--modes", default="baseline,raw,json,text,live")
    ap.add_argument("--warmup", type=int, default=20_000, help="events streamed untraced first, per mode")
    ap.add_argument("--no-verdict", action="store_true", help="print the figures and exit 0: runs of a few dozen events (the smoke test) are too small to judge")
    args = ap.parse_args()
    from a2acli.main import RUN_GEN0_THRESHOLD

    gc.set_threshold(RUN_GEN0_THRESHOLD, *gc.get_threshold()[1:])  # the collector as an `a2a` run has it
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    print(f"events: {args.small:,} vs {args.large:,}; peak = tracemalloc peak above the start of the loop; state = bytes the view holds at the end\n")
    print(f"{'mode':<10}{'peak @ small':>14}{'peak @ large':>14}{'ratio':>7}{'state @ small':>15}{'state @ large':>15}{'time @ large':>14}")
    rows = {}
    for mode in modes:
        run(mode, args.warmup)  # imports and first-use caches: not the stream's memory
        small, held_small, _ = run(mode, args.small)
        large, held_large, secs = run(mode, args.large)
        rows[mode] = (small, large, held_small, held_large)
        print(f"{mode:<10}{kib(small):>14}{kib(large):>14}{large / max(small, 1):>7.2f}{kib(held_small):>15}{kib(held_large):>15}{secs:>12.1f} s", flush=True)
    if "baseline" in rows:
        base = rows["baseline"][1]
        print("\nabove the no-op baseline at the large size: " + ", ".join(f"{m} {kib(r[1] - base)}" for m, r in rows.items() if m != "baseline"))
    plain = [r for m, r in rows.items() if m != "live"]
    worst_peak = max((r[1] / max(r[0], 1) for r in plain), default=1.0)
    worst_state = max((r[3] / r[2] if r[2] else 1.0) for r in rows.values())
    print(f"\n{args.large / args.small:.0f}x the events: the views' own state x{worst_state:.2f} at worst; peak x{worst_peak:.2f} at worst without the live view")
    flat = worst_peak < 1.5 and worst_state < 1.2
    if "live" in rows:
        small, large = rows["live"][:2]
        # rich's cached_cell_len: an LRU of 4096 strings shorter than 512 characters; a live frame's
        # changing lines (streamed text) replace short entries with long ones until it holds ~2 MiB.
        bound = 4096 * (sys.getsizeof("x" * 511) + 120)
        print(
            f"live: peak +{kib(large - small)} between the sizes: rich's process-wide cell-width cache (4096 strings"
            f" under 512 characters, at most ~{bound / 2**20:.1f} MiB) taking longer lines; not per event"
        )
        flat = flat and large - small < bound
    if args.no_verdict:
        print("no verdict (--no-verdict)")
        return
    print(f"memory is {'flat' if flat else 'GROWING'}")
    sys.exit(0 if flat else 1)


if __name__ == "__main__":
    main()
