"""Which origin credentials may go to (issue 14: credentials stay with their origin)."""

from __future__ import annotations

from urllib.parse import urlsplit

from a2acli.errors import CredentialsWithheldError


def origin(url: str) -> tuple[str, str, int | None]:
    """(scheme, host, port) of a URL; a gRPC `host:port` counts as plaintext-less `grpc`."""
    parts = urlsplit(url if "://" in url else "grpc://" + url)
    try:
        port = parts.port
    except ValueError:
        port = None
    default = {"http": 80, "https": 443}.get(parts.scheme)
    return parts.scheme, (parts.hostname or "").lower(), port or default


def check_origin(given: str, target: str, *, strict: bool, insecure: bool) -> str | None:
    """None when `target` is on the origin of `given` (the URL the user gave); else the note to
    show, or CredentialsWithheldError when the credentials must not go there."""
    a, b = origin(given), origin(target)
    if a == b:
        return None
    host = f"{b[1]}:{b[2]}" if b[2] else b[1]
    if strict:
        raise CredentialsWithheldError(
            f"the Agent Card of {given} sends calls to another origin, {target}: --strict-origin keeps the credentials at {a[1]}",
            hint=f"if you trust it, call it directly: --endpoint {target} (or drop --strict-origin)",
        )
    if a[0] == "https" and b[0] in ("http", "grpc") and not insecure:
        raise CredentialsWithheldError(
            f"the Agent Card at {given} (https) sends calls to {target} over plain http: the credentials would cross the network in clear",
            hint="pass --endpoint with the https URL, or --insecure if you accept it",
        )
    return f"credentials go to {host}, named by the Agent Card at {given}"
