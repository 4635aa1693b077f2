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
