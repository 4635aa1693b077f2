"""A plain-HTTP port that answers in HTTP/2 only (a gRPC server's): told apart when an HTTP/1.1
answer broke, so the error names the port for what it is. Loaded on that error's path only."""

from __future__ import annotations

import httpx

from a2acli.errors import A2acliError, UnreachableError

GRPC_PROBE_SECONDS = 1.0  # connecting to and reading the first bytes of a port that broke an HTTP/1.1 answer


def speaks_http2_only(url: str) -> bool:
    """Whether a plain-HTTP port opens with an HTTP/2 SETTINGS frame before it is sent anything,
    as a gRPC server does (its answer to an HTTP/1.1 request breaks as `illegal request line`).
    A fresh connection on which nothing is sent: the request that failed is not sent again."""
    import socket

    parsed = httpx.URL(url)
    if parsed.scheme != "http" or not parsed.host:
        return False
    try:
        with socket.create_connection((parsed.host, parsed.port or 80), timeout=GRPC_PROBE_SECONDS) as sock:
            sock.settimeout(GRPC_PROBE_SECONDS)
            head = b""
            while len(head) < 9:
                chunk = sock.recv(9 - len(head))
                if not chunk:
                    break
                head += chunk
    except OSError:
        return False
    # A frame header: 3 bytes length, type 0x4 (SETTINGS), flags, stream 0.
    return len(head) == 9 and head[3] == 0x04 and head[5:9] == b"\0\0\0\0"


def grpc_port_error(url: str) -> A2acliError:
    parsed = httpx.URL(url)
    where = f"{parsed.host}:{parsed.port or 80}"
    return UnreachableError(
        f"{where} answers in HTTP/2 only: it looks like a gRPC port, not the agent's HTTP URL",
        hint=f"give -u the agent's HTTP URL (its card lists the gRPC interface; --transport grpc picks it), or call the port itself: --endpoint grpc://{where} --transport grpc",
    )
