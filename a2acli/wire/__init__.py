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

VERSION_CHOICES = ("1.0", "0.3")


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


def version_of(protocol_version: str | None) -> Wire | None:
    """Map a card's protocolVersion string (`1.0`, `0.3.0`, ...) to a Wire, or None."""
    try:
        return parse_wire(protocol_version or "")
    except ValueError:
        return None
