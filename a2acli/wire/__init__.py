"""The wire layer: pure functions from core (V1) values to the bytes of either version, and back.

Nothing here does I/O. The version strings "1.0" and "0.3" live only in this package.
"""

from __future__ import annotations

from enum import Enum


class Wire(str, Enum):
    V1 = "v1"
    V0 = "v0"

    @property
    def version(self) -> str:
        """The protocol version as the `A2A-Version` header spells it."""
        return "1.0" if self is Wire.V1 else "0.3"


_SPELLINGS = {
    "1.0": Wire.V1,
    "1": Wire.V1,
    "v1": Wire.V1,
    "1.0.0": Wire.V1,
    "1.0.1": Wire.V1,
    "0.3": Wire.V0,
    "v0": Wire.V0,
    "0.3.0": Wire.V0,
    "0": Wire.V0,
}

# The service parameters (headers over HTTP, lowercase metadata over gRPC) each version names:
# the version signal, and the extensions the client asks for (a comma-separated list of URIs).
VERSION_HEADER = "A2A-Version"
# Where the public Agent Card is (an HTTP GET, not a method: wire.methods lists it for the docs and
# goldens); here, so `a2a card fetch` does not load the method table.
CARD_PATHS = ("/.well-known/agent-card.json", "/.well-known/agent.json")
EXTENSIONS_HEADERS = {Wire.V1: "A2A-Extensions", Wire.V0: "X-A2A-Extensions"}


def extensions_header(version: str) -> str:
    """The extensions service parameter of the version spelt `version` (`1.0`, `0.3`)."""
    return EXTENSIONS_HEADERS[parse_wire(version)]


AUTO = "auto"  # --a2a-version auto: 1.0 when the card offers it, else 0.3 (pipeline.session)
VERSION_CHOICES = ("1.0", "0.3", AUTO)


def parse_wire(text: str) -> Wire:
    """`1.0`/`v1` -> V1, `0.3`/`v0` -> V0; anything else raises ValueError."""
    key = (text or "").strip().lower()
    if key in _SPELLINGS:
        return _SPELLINGS[key]
    if key.startswith("1."):
        return Wire.V1
    if key.startswith("0.3."):
        return Wire.V0
    raise ValueError(f"unknown A2A version {text!r}: use 1.0 or 0.3")


def parse_version_choice(text: str) -> Wire | None:
    """--a2a-version as given: a Wire, or None for `auto` (chosen from the card); ValueError else."""
    key = (text or "").strip().lower()
    if key == AUTO:
        return None
    import re

    if key not in _SPELLINGS and not re.fullmatch(
        r"1\.[0-9]{1,4}(\.[0-9]{1,4})?|0\.3\.[0-9]{1,4}", key
    ):  # not 1.garbage
        raise ValueError(f"unknown A2A version {text!r}: use 1.0, 0.3 or auto")
    try:
        return parse_wire(text)
    except ValueError:
        raise ValueError(f"unknown A2A version {text!r}: use 1.0, 0.3 or auto") from None


def is_pre_v03(protocol_version: str | None) -> bool:
    """A card's protocolVersion from before 0.3 (0.1.x, 0.2.x): these agents speak the V0 wire."""
    key = (protocol_version or "").strip().lower()
    return any(key == v or key.startswith(v + ".") for v in ("0.1", "0.2"))


def version_of(protocol_version: str | None) -> Wire | None:
    """Map a card's protocolVersion string (`1.0`, `0.3.0`, ...) to a Wire, or None. 0.1 and 0.2
    (older agents still deployed) speak the V0 wire: they are V0."""
    if is_pre_v03(protocol_version):
        return Wire.V0
    try:
        return parse_wire(protocol_version or "")
    except ValueError:
        return None
