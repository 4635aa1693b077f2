"""`a2a cache clear`, headless: the Agent Card cache (transport.card_cache) emptied, and said."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from a2acli.flows.invocation import Invocation


def clear(inv: Invocation) -> int:
    """Empty the cache in the environment's cache directory; the count said on stderr, in text
    (its errors too, whatever -o says: the report has no document)."""
    from a2acli.transport.card_cache import BYPASS, CardCache

    out = inv.out = inv.bare_output()
    where = inv.env.cache_dir()
    removed = CardCache(where, BYPASS).clear()
    out.note(f"the Agent Card cache is empty: {removed} card(s) removed from {where}")
    return 0
