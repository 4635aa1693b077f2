"""What may be sent as an HTTP header, as h11 (the HTTP/1.1 parser httpx's own transport uses)
checks it before anything is written: a name is an RFC 9110 token (letters, digits and
!#$%&'*+.^_`|~-: no space, TAB, `:`, CR/LF, NUL, ESC, DEL or other control); a value holds no
CR, LF, NUL or other control character but TAB. The one rule for the headers the user gives
(`-H`, `--svc-param`, a profile's headers: a usage error) and the header an Agent Card's apiKey
scheme names (the card is at fault). Pure: no I/O."""

from __future__ import annotations

import re

TOKEN = r"[!#$%&'*+.^_`|~0-9A-Za-z-]+"  # RFC 9110 §5.6.2 token: a header name


def name_problem(name: str) -> str | None:
    """Why `name` cannot be sent as a header name (None when it can)."""
    if not name:
        return "it is empty"
    if re.fullmatch(TOKEN, name):
        return None
    bad = next(c for c in name if not re.fullmatch(TOKEN, c))
    what = {" ": "a space", "\t": "a TAB", ":": "a colon", "\r": "a CR", "\n": "a line feed", "\x00": "a NUL"}.get(bad)
    if what is None:
        what = f"the control character 0x{ord(bad):02x}" if ord(bad) < 0x20 or ord(bad) == 0x7F else shown(bad)
    return f"it holds {what} (a name is letters, digits and !#$%&'*+.^_`|~-)"


# The headers that say how a message's body is framed: the HTTP layer sets them from the body it
# sends; given as well, h11 refuses the request (Content-Length) or it goes framed two ways.
FRAMING = ("content-length", "transfer-encoding")


def sent_name_problem(name: str) -> str | None:
    """Why a header named `name` cannot be sent with a value given for it (-H, a card's apiKey
    header): it is no header name (name_problem), or it frames the body (FRAMING). None when it can."""
    problem = name_problem(name)
    if problem is None and name.lower() in FRAMING:
        return "it frames the body, which a2a's HTTP layer does itself (Content-Length, Transfer-Encoding)"
    return problem


def value_problem(value: str) -> str | None:
    """Why `value` cannot be sent as a header value (None when it can); never quotes the value."""
    if "\r" in value or "\n" in value:
        return "it has a line break"
    if any((ord(c) < 0x20 and c != "\t") or ord(c) == 0x7F for c in value):
        return "it holds a control character"
    return None


def shown(name: str) -> str:
    """A header name as an error message quotes it: in single quotes, at most 64 characters, a
    character that cannot be shown (a control, a line break) escaped (`\\x00`), each other one
    as it is (a backslash once, not doubled)."""
    text = "".join(c if c.isprintable() else _escaped(c) for c in name[:64])
    return f"'{text}'" + ("…" if len(name) > 64 else "")


def _escaped(c: str) -> str:
    return {"\t": "\\t", "\r": "\\r", "\n": "\\n"}.get(c) or (
        f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"
    )
