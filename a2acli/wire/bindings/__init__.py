"""The protocol bindings, one module each (docs/architecture.md, "Bindings"): a binding encodes a method call in
one wire version into an HTTP request description and reads answers, events and errors back.

`BINDINGS` is the one table of them: card spellings, `--transport` spellings and the modules.
Each module loads on first use."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, NamedTuple

from a2acli.errors import UsageError

if TYPE_CHECKING:
    from a2acli.wire.bindings.base import Binding


class BindingInfo(NamedTuple):
    card: str  # as Agent Cards spell it (protocolBinding, V0 transport)
    flag: str  # as --transport spells it
    module: str  # a2acli.wire.bindings.<module>, None when a2a does not speak it yet
    cls: str
    aliases: tuple[str, ...] = ()

    @property
    def carrier_grpc(self) -> bool:
        return self.flag == "grpc"


BINDINGS: tuple[BindingInfo, ...] = (
    BindingInfo("JSONRPC", "jsonrpc", "jsonrpc", "JsonRpcBinding", ("json-rpc",)),
    BindingInfo("HTTP+JSON", "rest", "rest", "RestBinding", ("http+json", "http", "http-json", "json")),
    BindingInfo("GRPC", "grpc", "grpc", "GrpcBinding"),
)
TRANSPORT_CHOICES = tuple(b.flag for b in BINDINGS)


def binding_info(spelling: str) -> BindingInfo | None:
    """The binding a card or `--transport` names, in any case; None when unknown."""
    key = (spelling or "").strip().lower()
    for b in BINDINGS:
        if key in (b.card.lower(), b.flag, *b.aliases):
            return b
    return None


def parse_transport(spelling: str) -> BindingInfo:
    info = binding_info(spelling)
    if info is None:
        raise UsageError(
            f"unknown transport {spelling!r}",
            hint=f"--transport {' | '.join(TRANSPORT_CHOICES)} (the card's JSONRPC, HTTP+JSON, GRPC work too)",
        )
    return info


_LOADED: dict[str, Binding] = {}


def get_binding(info: BindingInfo) -> Binding:
    if not info.module:
        raise UsageError(f"a2a does not speak {info.card} yet", hint="use --transport jsonrpc or rest")
    if info.flag not in _LOADED:
        module = importlib.import_module(f"{__name__}.{info.module}")
        _LOADED[info.flag] = getattr(module, info.cls)()
    return _LOADED[info.flag]
