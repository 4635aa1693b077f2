"""This invocation (`flows.invocation.Invocation`, headless), as the CLI reaches it: from the
root's `ctx.obj` (registry.RootGroup.main puts it there)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from a2acli.flows.invocation import ARGS, Invocation

if TYPE_CHECKING:
    import typer

__all__ = ["ARGS", "Invocation", "invocation"]


def invocation(ctx: typer.Context) -> Invocation:
    """This invocation, from the root's `ctx.obj` (made here when the root did not run: a usage
    error Typer found first)."""
    root = ctx.find_root()
    if not isinstance(root.obj, Invocation):
        root.obj = Invocation(root.params)
    inv: Invocation = root.obj
    return inv
