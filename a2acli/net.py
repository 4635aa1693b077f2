"""Small network facts shared by the local servers (demo agent, webhook receiver), and how an
Agent Card reference (`--url`, `-a/--agent-card`) reads: a URL, a path, a bare host[:port], or a
catalog entry (`catalog:NAME`). Stdlib only."""

from __future__ import annotations

import ipaddress
import os
import re


def is_loopback(host: str) -> bool:
    """True for localhost, 127.0.0.0/8 and ::1 (brackets allowed): addresses only this machine reaches."""
    h = host.strip("[]")
    if h.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(h).is_loopback
    except ValueError:
        return False


def port_taken(e: OSError) -> bool:
    """Whether a local server could not listen because its port is taken (each platform's errno)."""
    import errno

    return e.errno in (errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", errno.EADDRINUSE))


def listen_failure(e: OSError) -> str:
    """Why a local server (demo agent, mock, webhook receiver, sign-in redirect) could not listen,
    in the same words wherever it is said."""
    return "address already in use" if port_taken(e) else (e.strerror or str(e))


MAX_URL = 8192  # longer is no URL a person meant (and no server takes it)


def url_problem(value: str, *, files: bool = False, grpc: bool = False) -> str | None:
    """Why `value` is not a URL to call (None when it is one): http(s), a host name or address
    that can be one, a port in 1-65535; with `files` a file:// card, a .json path or a catalog
    entry (`catalog:NAME`, a name that is not a port); with `grpc`
    also `host:port`, grpc:// and grpcs:// (a2acli.transport.grpc.grpc_target)."""
    from urllib.parse import urlsplit

    text_problem = _text_problem(value, files=files)
    if text_problem is not None:
        return text_problem or None  # "": a catalog entry or a card file, fine as it is
    bare = grpc and "://" not in value
    try:
        parts = urlsplit(f"//{value}" if bare else value)
        port, host = parts.port, parts.hostname
    except ValueError as e:  # "Invalid IPv6 URL", "Port out of range 0-65535", "Port could not be cast…"
        text = str(e)
        return "its port is not a number in 1-65535" if "port" in text.lower() else text[:1].lower() + text[1:]
    schemes = ("http", "https", "grpc", "grpcs") if grpc else ("http", "https")
    if not bare and parts.scheme not in schemes:
        return f"it is not an {'http(s), grpc(s) or host:port' if grpc else 'http(s)'} URL"
    if not host:
        return "it has no host"
    if port == 0:
        return "its port is not a number in 1-65535"
    return host_problem(host)


def _text_problem(value: str, *, files: bool) -> str | None:
    """What is wrong with `value` as text, before it is read as a URL: None to read it as one, ""
    when it is fine as it is (a catalog entry, a card file)."""
    if len(value) > MAX_URL:
        return f"it is {len(value)} characters long (at most {MAX_URL})"
    entry = catalog_entry(value) if files else None
    if entry is not None:  # an entry's name may hold a space, not a control character
        if any(ord(c) < 0x20 or ord(c) == 0x7F for c in value):
            return "it holds a line break or another control character"
        return "" if entry.strip() else "it names no catalog entry (catalog:NAME, or catalog:CATALOG/NAME)"
    if any(c.isspace() or ord(c) < 0x20 or ord(c) == 0x7F for c in value):
        return "it holds a space, a line break or another control character"
    if files and (value.startswith("file://") or ("://" not in value and value.endswith(".json"))):
        return ""
    if files and "://" not in value and (value.startswith(("/", ".", "~")) or "\\" in value):
        return "it is not an http(s) URL, and no card file is there"
    return None


def host_problem(host: str) -> str | None:
    """Why `host` (a URL's, as urlsplit gives it) cannot be called: an IPv6 literal that is not an
    address, an empty or overlong label, a name IDNA refuses."""
    if ":" in host:
        try:
            ipaddress.ip_address(host.split("%")[0])
        except ValueError:
            return f"{host!r} is not an IPv6 address"
        return None
    labels = host[:-1].split(".") if host.endswith(".") else host.split(".")
    if len(host) > 253 or any(not label or len(label) > 63 for label in labels):
        return f"{host[:80]!r} is not a host name (an empty or overlong label)"
    return idna_problem(host)


def idna_problem(host: str) -> str | None:
    """Why an internationalized host (non-ASCII, or an `xn--` punycode label) is no host name
    httpx can call (`xn--a.com`, `-é.com`), else None."""
    if host.isascii() and "xn--" not in host.lower():
        return None
    import idna  # httpx's own dependency; imported only for such a host

    try:
        if host.isascii():
            idna.decode(host)
        else:
            idna.encode(host.lower())
    except (idna.IDNAError, UnicodeError, ValueError) as e:
        return f"{host[:80]!r} is not a valid internationalized host name ({e})"
    return None


def catalog_problem(value: str) -> str | None:
    """Why `value` cannot be an agent catalog's location (--catalog, a named catalog), None when
    it can: an http(s) URL (an origin looks at the well-known catalog paths), a file:// URL, or a
    file's path."""
    text = str(value).strip()
    if not text:
        return "it is empty"
    if "://" not in text or text.startswith("file://"):
        return None if text.isprintable() else "it holds a line break or another control character"
    return url_problem(text)


# host[:port][/path] with no scheme: a name or IPv4 address, or an [IPv6] address. The patterns of
# this module are compiled on first use (re's own cache), not at start-up: most runs use none.
_BARE_HOST = r"(?s)(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?\.?|\[[0-9A-Fa-f:.%]+\])(?::[0-9]{1,5})?(?:[/?#].*)?"


CATALOG_PREFIX = "catalog:"
_PORT_AFTER = r"(?s)[0-9]{1,5}(?:[/?#].*)?"  # `catalog:8080/x` is the host catalog, port 8080


def catalog_entry(value: str | None) -> str | None:
    """What follows `catalog:` in a catalog reference (A2ACLI_CARD_GET_005): the entry NAME, or
    CATALOG/NAME for a named catalog (pipeline resolves it); "" for a bare `catalog:`. None for
    anything else, `catalog:PORT` included: that is the host `catalog` (a container's name), as
    it always was."""
    if not value or not value.startswith(CATALOG_PREFIX):
        return None
    rest = value[len(CATALOG_PREFIX) :]
    return None if re.fullmatch(_PORT_AFTER, rest) else rest


def agent_reference(value: str) -> str:
    """An Agent Card reference (`--url`, `-a/--agent-card`) as what to read: a catalog entry
    (`catalog:NAME`, resolved by the session before anything else) as given; an http(s) or
    file:// URL as given; a path to a card file that exists, or anything spelt as a path (`/`,
    `./`, `../`, `~`), as its file:// URL; a `.json` path that does not exist as given (reading
    either says there is no card: exit 3); a bare host or `host:port` (with a path or
    not) as https://, or http:// when the host is this machine's (is_loopback: `localhost`,
    127.0.0.0/8, `::1`); anything else as given (the URL check says what is wrong with it)."""
    if "://" in value or catalog_entry(value) is not None:
        return value
    from pathlib import Path

    try:
        path = Path(os.path.expanduser(value))
        if value and path.is_file():
            return path.resolve().as_uri()
    except (OSError, ValueError, RuntimeError):  # a name too long, a NUL, ~user unknown: no file
        pass
    if value.startswith(("/", "./", "../", "~")):  # a path, not a host: no card there is CARD_NOT_FOUND, exit 3
        try:
            return Path(os.path.expanduser(value)).absolute().as_uri()
        except (OSError, ValueError, RuntimeError):
            return value
    if value.lower().endswith(".json") or not re.fullmatch(_BARE_HOST, value):
        return value
    return bare_scheme(value) + "://" + value


def bare_scheme(value: str) -> str:
    """The scheme a bare `host[:port][/path]` is read with: http for loopback, else https."""
    from urllib.parse import urlsplit

    try:
        host = urlsplit("//" + value).hostname or ""
    except ValueError:
        return "https"
    return "http" if is_loopback(host) else "https"
