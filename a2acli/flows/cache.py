"""`a2a cache clear`, headless: the Agent Card cache (transport.card_cache) emptied, and said."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from a2acli.flows.invocation import Invocation


def clear(inv: Invocation) -> int:
    """Empty the cache in the environment's cache directory; the count said on stderr, in text
    (its errors too, whatever -o says: the report has no document). An entry that cannot be
    removed is an error (exit 1); with no cache directory to name (no home directory, no
    XDG_CACHE_HOME) there is nothing to empty."""
    from a2acli.errors import CANNOT_WRITE, A2acliError
    from a2acli.transport.card_cache import BYPASS, CardCache

    out = inv.out = inv.bare_output()
    where = inv.env.cache_dir()
    if where is None:  # no XDG_CACHE_HOME and no home directory: no cache was ever kept
        out.note("there is no Agent Card cache: no home directory, and XDG_CACHE_HOME is not set")
        return 0
    removed, failed = CardCache(where, BYPASS).clear()
    if failed:
        more = f" (and {len(failed) - 1} more)" if len(failed) > 1 else ""
        raise A2acliError(
            f"cannot empty the Agent Card cache {where}: {failed[0]}{more} ({removed} card(s) removed)",
            hint="check the directory's owner and permissions, or remove it yourself",
            code=CANNOT_WRITE,
        )
    out.note(f"the Agent Card cache is empty: {removed} card(s) removed from {where}")
    return 0
