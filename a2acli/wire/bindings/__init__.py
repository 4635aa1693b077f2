"""The protocol bindings, one module each (docs/architecture.md, "Bindings"): a binding encodes a method call in
one wire version into an HTTP request description and reads answers, events and errors back.

`BINDINGS` is the one table of them: card spellings, `--transport` spellings, the modules, and
what callers ask of a binding (its carrier, whether it streams over SSE, how its errors arrive,
its bodies' form). A binding is looked up by name here only (`binding_info`, `parse_transport`,
`by_flag`); elsewhere it is compared by identity or asked an attribute, never by its names
(tests/test_architecture.py). Each module loads on first use."""

import importlib
from enum import Enum
from typing import TYPE_CHECKING

from a2acli.errors import UsageError
from a2acli.records import Record

if TYPE_CHECKING:
    from a2acli.wire.bindings.base import Binding


class Carrier(Enum):
    """What moves a binding's requests."""

    HTTP = "http"  # transport.client: HTTP/1.1, SSE for streams
    GRPC = "grpc"  # transport.grpc: grpcio, server-streaming rpcs (the `grpc` extra)


class ErrorForm(Enum):
    """How a binding's errors arrive."""

    JSONRPC = "a JSON-RPC error object (code, message, data) in a 200 answer"
    AIP193 = "an HTTP status and a google.rpc.Status body (AIP-193, ErrorInfo in details)"
    GRPC_STATUS = "a gRPC status (code, message, google.rpc.Status details)"


class BindingInfo(Record):
    """One binding: how cards and `--transport` name it, and what callers ask of it. Callers test
    these attributes (or the binding's identity: `info is JSONRPC`), never its names."""

    __slots__ = (
        "card", "flag", "label", "module", "cls", "carrier", "sse", "errors", "envelope", "proto_json", "routes",
        "media_v1", "mock_transcodes", "aliases"
    )  # fmt: skip
    card: str  # as Agent Cards spell it (protocolBinding, V0 transport)
    flag: str  # as --transport spells it; a dump's and `replay -o json`'s name of it
    label: str  # as a person reads it (mock's and replay's lines)
    module: str  # a2acli.wire.bindings.<module>, "" when a2a does not speak it yet
    cls: str
    carrier: Carrier  # what moves its requests; the mock serves Carrier.GRPC bindings on a second port
    sse: bool  # streams arrive as Server-Sent Events (else as the carrier's own stream)
    errors: ErrorForm  # how its errors arrive
    envelope: bool  # bodies are JSON-RPC envelopes (method, id, params / result, error)
    proto_json: bool  # bodies are ProtoJSON of the proto messages (the same form under 1.0 and 0.3)
    routes: bool  # a method is an HTTP verb and path (wire/methods.py's REST routes)
    media_v1: str  # the Content-Type of its JSON answers under 1.0
    # what `a2a mock` serves over it: True, any recorded call of the method, over any binding and
    # version, written in this one's form; False, only the calls recorded over it, as recorded
    mock_transcodes: bool
    aliases: tuple[str, ...]

    def __init__(
        self,
        card: str,
        flag: str,
        label: str,
        module: str,
        cls: str,
        carrier: Carrier,
        sse: bool,
        errors: ErrorForm,
        envelope: bool,
        proto_json: bool,
        routes: bool,
        media_v1: str,
        mock_transcodes: bool,
        aliases: tuple[str, ...] = (),
    ) -> None:
        self._set(
            card, flag, label, module, cls, carrier, sse, errors, envelope, proto_json, routes, media_v1,
            mock_transcodes, aliases
        )  # fmt: skip

    @property
    def carrier_grpc(self) -> bool:
        return self.carrier is Carrier.GRPC


JSONRPC = BindingInfo(
    "JSONRPC", "jsonrpc", "JSON-RPC", "jsonrpc", "JsonRpcBinding", Carrier.HTTP, True, ErrorForm.JSONRPC,
    envelope=True, proto_json=False, routes=False, media_v1="application/json", mock_transcodes=True,
    aliases=("json-rpc",),
)  # fmt: skip
REST = BindingInfo(
    "HTTP+JSON", "rest", "HTTP+JSON", "rest", "RestBinding", Carrier.HTTP, True, ErrorForm.AIP193,
    envelope=False, proto_json=True, routes=True, media_v1="application/a2a+json", mock_transcodes=True,
    aliases=("http+json", "http", "http-json", "json"),
)  # fmt: skip
GRPC = BindingInfo(
    "GRPC", "grpc", "gRPC", "grpc", "GrpcBinding", Carrier.GRPC, False, ErrorForm.GRPC_STATUS,
    envelope=False, proto_json=True, routes=False, media_v1="application/grpc", mock_transcodes=False,
)  # fmt: skip
BINDINGS: tuple[BindingInfo, ...] = (JSONRPC, REST, GRPC)
DEFAULT = JSONRPC  # the binding when neither the card nor --transport names one
TRANSPORT_CHOICES = tuple(b.flag for b in BINDINGS)


def binding_info(spelling: str) -> BindingInfo | None:
    """The binding a card or `--transport` names, in any case; None when unknown."""
    key = (spelling or "").strip().lower()
    for b in BINDINGS:
        if key in (b.card.lower(), b.flag, *b.aliases):
            return b
    return None


def by_flag(flag: str) -> BindingInfo:
    """The binding a recorded or resolved `--transport` spelling names (a KeyError when none)."""
    return _BY_FLAG[flag]


_BY_FLAG = {b.flag: b for b in BINDINGS}


def parse_transport(spelling: str) -> BindingInfo:
    info = binding_info(spelling)
    if info is None:
        raise UsageError(
            f"unknown transport {spelling!r}",
            hint=f"--transport {' | '.join(TRANSPORT_CHOICES)} (the card's JSONRPC, HTTP+JSON, GRPC work too)",
        )
    return info


_LOADED: "dict[str, Binding]" = {}


def get_binding(info: BindingInfo) -> "Binding":
    if not info.module:
        raise UsageError(f"a2a does not speak {info.card} yet", hint="use --transport jsonrpc or rest")
    if info.flag not in _LOADED:
        module = importlib.import_module(f"{__name__}.{info.module}")
        _LOADED[info.flag] = getattr(module, info.cls)()
    return _LOADED[info.flag]
