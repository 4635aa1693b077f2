"""Which origin credentials may go to (issue 14: credentials stay with their origin)."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from a2acli.errors import CredentialsWithheldError


def origin(url: str) -> tuple[str, str, int | None]:
    """(scheme, host, port) of a URL; a gRPC `host:port` counts as plaintext-less `grpc`."""
    try:
        parts = urlsplit(url if "://" in url else "grpc://" + url)
        port = parts.port
    except ValueError:  # `http://[::1` (a card's), a port out of range: no origin to share
        return url.partition(":")[0].lower(), url, None
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


# `-H` headers that carry a credential (issue 27): the usual ones, any header an apiKey scheme of
# the card names, and names that say so (`X-Api-Key`, `X-Access-Key`, `X-Auth-Token`, `Private-Token`,
# `X-Session-Id`, `X-Secret`...). They follow the origin rule of --api-key and --bearer.
_CREDENTIAL_NAMES = frozenset({"authorization", "proxy-authorization", "cookie", "x-api-key", "api-key", "apikey"})
_CREDENTIAL_WORDS = re.compile(
    r"(^|[-_])(auth|authorization|token|secret|password|passwd|key|apikey|session|sessionid|cookie|credentials?|signature)($|[-_])",
    re.I,
)


def credential_header(name: str, card: Any = None) -> bool:
    """Whether a `-H` header of this name carries a credential (see above)."""
    low = name.strip().lower()
    if low.endswith("idempotency-key"):  # a request's key, not a credential (X-Clix-Idempotency-Key)
        return False
    if low in _CREDENTIAL_NAMES or bool(_CREDENTIAL_WORDS.search(low)):
        return True
    return low in scheme_header_names(card)


def scheme_header_names(card: Any) -> set[str]:
    """The header names the card's apiKey schemes put a key in (lowercase)."""
    from a2acli.wire.security import declared

    names: set[str] = set()
    for _name, kind, body in declared(card):
        where = str(body.get("location") or body.get("in") or "").lower()
        if kind == "apiKey" and where == "header" and isinstance(body.get("name"), str):
            names.add(body["name"].strip().lower())
    return names


def credential_headers(headers: Any, card: Any = None) -> list[str]:
    """The names of the `-H` headers (name, value pairs) that carry a credential, as given."""
    return [str(n) for n, _ in headers if credential_header(str(n), card)]


def same_origin(a: str, b: str) -> bool:
    return origin(a) == origin(b)
