"""a2a: drive and debug A2A (Agent2Agent protocol) endpoints from the command line."""

from __future__ import annotations

__version__ = "0.1.0"
