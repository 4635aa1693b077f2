"""The Agent Card, headless: the public card as the session resolved it (canonical V1), and the
extended card (GetExtendedAgentCard, sent with the credentials a2a's scoping sends to the agent)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from a2acli.pipeline.session import Call


def fetch(call: Call) -> dict[str, Any]:
    """The public Agent Card (no credentials), canonical V1; under `auto` the version it settles
    on is said as a note."""
    call.target.fetch_card()
    if call.opts.version_auto:
        call.target.settle_version()
    card = call.target.card
    return card if isinstance(card, dict) else {}


def extended(call: Call, *, force: bool = False) -> Any:
    """The extended Agent Card (only when the public card claims one, unless `force`), canonical V1."""
    from a2acli.flows.calls import unary

    return unary(call, "GetExtendedAgentCard", {}, force=force).core
