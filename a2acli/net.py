"""Small network facts shared by the local servers (demo agent, webhook receiver). Stdlib only."""

from __future__ import annotations

import ipaddress


def is_loopback(host: str) -> bool:
    """True for localhost, 127.0.0.0/8 and ::1 (brackets allowed): addresses only this machine reaches."""
    h = host.strip("[]")
    if h.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(h).is_loopback
    except ValueError:
        return False
