"""Requests in either wire form, results back to core (V1) form: the METHODS table applied."""

from __future__ import annotations

from typing import Any, NamedTuple

from a2acli.errors import UsageError
from a2acli.wire import Wire, envelope
from a2acli.wire.dialects import Dialect
from a2acli.wire.methods import MethodSpec, find_method


class BuiltRequest(NamedTuple):
    spec: MethodSpec | None
    method: str  # as sent
    envelope: dict[str, Any]
    body: bytes  # the exact bytes to POST
    notes: tuple[str, ...] | list[str] = ()  # what the translation could not carry


def encode_params(spec: MethodSpec, core_params: Any, *, wire: Wire, dialect: Dialect, tenant: str = "", notes: list[str] | None = None) -> Any:
    """Core (V1) params in the form `wire` sends; None means "no params key"."""
    if wire is Wire.V1:
        params = dict(core_params or {})
        if tenant and "tenant" not in params:
            params["tenant"] = tenant
        if dialect.lowercase_v1_enums:
            from a2acli.wire.translate import lowercase_v1_enums

            params = lowercase_v1_enums(params)
        return params
    return spec.translators.params_to_compat(core_params or {}, notes)


def build_request(spec: MethodSpec, core_params: Any, *, wire: Wire, dialect: Dialect, request_id: str | int, tenant: str = "") -> BuiltRequest:
    method = spec.wire_name(wire, dialect)
    notes: list[str] = []
    params = encode_params(spec, core_params, wire=wire, dialect=dialect, tenant=tenant, notes=notes)
    env = envelope.request(method, params, request_id)
    return BuiltRequest(spec, method, env, envelope.dumps(env), notes)


def build_call(method: str, params: Any, *, wire: Wire, dialect: Dialect, request_id: str | int, tenant: str = "") -> BuiltRequest:
    """`a2a call`: a known method given by its V1 name takes the chosen wire's name and params
    form (an object); its V0 name is sent as given under V0 and refused under V1 (its params
    would be V0's); a method we do not know is sent exactly as given."""
    spec = find_method(method)
    if spec is not None:
        if params is not None and not isinstance(params, dict):
            from a2acli.wire.shapes import json_kind

            raise UsageError(f"the params of {spec.name} are a JSON object, not {json_kind(params)}", hint=f"e.g. a2a call {method} '{{\"id\": \"…\"}}'")
        if method == spec.name:
            return build_request(spec, params, wire=wire, dialect=dialect, request_id=request_id, tenant=tenant)
        if wire is Wire.V1 and method == spec.v0:
            raise UsageError(
                f"{method} is the 0.3 name of {spec.name}; under 1.0 it is {spec.name}",
                hint=f"call {spec.name} (params in V1 form), or pass --a2a-version 0.3 to send {method}",
            )
    env = envelope.request(method, params, request_id)
    return BuiltRequest(spec, method, env, envelope.dumps(env))


def decode_result(spec: MethodSpec | None, result: Any, notes: list[str] | None = None) -> Any:
    """Any result, V1 or V0, brought to canonical V1 (for rendering, `--as v1`, diffs)."""
    if spec is None:
        return result
    return spec.translators.result_to_core(result, notes)
