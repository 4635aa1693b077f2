"""HTTP transport: one httpx client, card resolution, JSON-RPC posts and SSE streams.

Every exchange is reported to taps (debug printer, dump writer, X-Request-ID reporter) with the
bytes exactly as they crossed the wire. httpx builds the requests and reads the answers over its
own transport (httpcore, h11), made on the first request of each scheme (connections.py); SSE is
read with httpx-sse (sse.py)."""

from __future__ import annotations

import sys

if "httpx" not in sys.modules:
    # httpx imports its own command-line tool (click, rich, pygments: ~40 ms of start-up) when
    # those happen to be installed. A None entry makes that optional import fail at once, which
    # httpx handles; `a2a` never uses httpx's CLI.
    sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]


def load() -> None:
    """httpx, and httpcore under it, imported now: by a flow about to send (flows.runs.session, `check`
    of a URL: check.run.gather, `replay`: flows.recorded.run_replay), from its first frames, before the pipeline that uses them.

    Why not where they would load by themselves (httpx with the pipeline's modules, httpcore inside
    httpx's first request, some 90 frames deep): CPython keeps its frames on a stack of 16 KiB
    chunks and frees a chunk as soon as the frames on it return. The two imports run some 60
    frames deep of their own (importlib's, and the regular expressions h11 and the email package
    compile as they load); begun that far down, they straddle a chunk boundary: one `a2a card
    fetch` mapped and unmapped a chunk some 180 times from the console script and 700 times under
    `python -m a2acli` (4% of its time there). Begun from a flow's first frames: 15 to 30 times."""
    import httpcore  # noqa: F401  # (httpx imports it inside its first request)
    import httpx  # noqa: F401
