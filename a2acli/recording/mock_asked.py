"""`a2a mock`: an incoming HTTP request read as a call (JSON-RPC or HTTP+JSON), and the small
readers of recorded exchanges the mock shares."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from a2acli.errors import A2acliError
from a2acli.recording import forms
from a2acli.recording.dumps import DUMP_MAX_DEPTH, MISSING, DumpedExchange, nests_too_deep
from a2acli.recording.forms import MockAnswer, _listing, _rpc_error, _status_error
from a2acli.recording.playback import Calls
from a2acli.wire.bindings import JSONRPC, REST, BindingInfo

_HOP = frozenset(
    {"content-length", "transfer-encoding", "connection", "keep-alive", "date", "server", "content-encoding", "etag"}
)


@dataclass
class Asked:
    """An incoming request, read as a call."""

    binding: BindingInfo
    version: str  # "1.0" | "0.3"
    method: str  # V1 name
    params: Any
    rpc_id: Any = None  # JSON-RPC id


class Unmatched(Exception):  # noqa: N818 - a request the dumps have no answer for (not a failure of ours)
    def __init__(self, answer: MockAnswer) -> None:
        super().__init__(answer.line)
        self.answer = answer


class RequestReading:
    """Mock's reading of a request (a part of recording.mock.Mock)."""

    found: Calls

    def read(self, verb: str, target: str, headers: dict[str, str], body: bytes) -> Asked:
        """The call an HTTP request makes (Unmatched: no A2A call, or none the dumps know)."""
        if nests_too_deep(body):  # every reading below walks it, recursively
            message = f"the body nests more than {DUMP_MAX_DEPTH} levels deep"
            raise Unmatched(
                _rpc_error(None, -32700, message, {}, miss=False)
                if self._jsonrpc_path(verb, target, headers)
                else _status_error(message, None, None, status=400)
            )
        doc: Any = None
        if verb == "POST" and body.strip()[:1] == b"{":
            try:
                doc = json.loads(body)
            except ValueError:
                doc = None
        if isinstance(doc, dict) and "jsonrpc" in doc:
            return self._read_jsonrpc(doc)
        if self._jsonrpc_path(verb, target, headers):
            raise Unmatched(_rpc_error(None, -32700, "the body is not a JSON-RPC request", {}, miss=False))
        return self._read_rest(verb, target, headers, body)

    def _version_supported(self, verb: str, target: str, headers: dict[str, str], body: bytes) -> None:
        """A2A-Version naming a version the mock does not speak: VersionNotSupportedError, in the
        binding's form (a JSON-RPC body, else HTTP+JSON's Status)."""
        asked = (headers.get("a2a-version") or "").strip()
        if served(asked):
            return
        message = unserved(asked)
        rpc = body.lstrip()[:1] == b"{" and b'"jsonrpc"' in body
        if rpc:
            try:
                rpc_id = json.loads(body).get("id")
            except (ValueError, AttributeError):
                rpc_id = None
            doc: Any = forms.rpc_error_doc(rpc_id, forms.VERSION_NOT_SUPPORTED, message, "1.0")
            status = 200
        else:
            status, doc = forms.status_doc(forms.VERSION_NOT_SUPPORTED, message)
        raise Unmatched(
            MockAnswer(
                status,
                [("Content-Type", "application/json")],
                [(0.0, _dumps(doc))],
                line=f"VersionNotSupportedError: {asked}",
            )
        )

    def _jsonrpc_path(self, verb: str, target: str, headers: dict[str, str]) -> bool:
        """A POST to a recorded JSON-RPC endpoint that is no HTTP+JSON route."""
        return verb == "POST" and path_of(target) in self._rpc_paths() and not self._rest_route(verb, target, headers)

    def _rpc_paths(self) -> set[str]:
        return {path_of(_target(c.ex)) for c in self.found.calls if c.binding.envelope}

    def _read_jsonrpc(self, doc: dict[str, Any]) -> Asked:
        from a2acli.recording.diff import canonical, drop_defaults
        from a2acli.wire.methods import METHODS, V1_METHOD_NAMES

        rpc_id = doc.get("id")
        method = doc.get("method")
        if doc.get("jsonrpc") != "2.0":  # JSON-RPC 2.0 §4: exactly "2.0"
            raise Unmatched(_rpc_error(rpc_id, -32600, 'jsonrpc must be exactly "2.0"', {}, miss=False))
        if not isinstance(method, str):
            raise Unmatched(_rpc_error(rpc_id, -32600, "no method: not a JSON-RPC request", {}, miss=False))
        name = V1_METHOD_NAMES.get(method, method)
        if name not in METHODS:
            recorded = sorted({c.ex.label for c in self.found.calls if c.binding.envelope})
            raise Unmatched(
                _rpc_error(
                    rpc_id,
                    -32601,
                    f"method {method!r} is not an A2A method; the dumps hold {_listing(recorded)}",
                    {"method": method},
                )
            )
        version = "0.3" if method in V1_METHOD_NAMES else "1.0"
        core = canonical(doc, name, "request", [])
        params = core.get("params") if isinstance(core, dict) else None
        return Asked(JSONRPC, version, name, drop_defaults(params if params is not None else {}), rpc_id)

    def _rest_route(self, verb: str, target: str, headers: dict[str, str]) -> list[tuple[Any, str]]:
        """The (method spec, version) whose HTTP+JSON route this request takes, best first."""
        import re

        from a2acli.wire.bindings.rest import _template_regex
        from a2acli.wire.methods import METHODS

        path = path_of(target)
        found: list[tuple[Any, str]] = []
        for spec in METHODS.values():
            for route, version in ((spec.rest_v0, "0.3"), (spec.rest, "1.0")):
                # the subscribe route by either verb: the proto's GET, the specification text's POST
                verbs = (route.verb, "POST") if route is not None and spec.name == "SubscribeToTask" else ()
                if (
                    route is not None
                    and verb in (route.verb, *verbs)
                    and re.search(_template_regex(route.template) + "$", path)
                ):
                    found.append((spec, version))
        asked = (headers.get("a2a-version") or "").strip()
        if asked:  # the version the request names first; without one, 0.3 first (as a2a-sdk reads it)
            found.sort(key=lambda sv: not sv[1].startswith(asked[:1]))
        return found

    def _read_rest(self, verb: str, target: str, headers: dict[str, str], body: bytes) -> Asked:
        from a2acli.wire import Wire
        from a2acli.wire.bindings.rest import decode_request

        routes = self._rest_route(verb, target, headers)
        if not routes:
            recorded = [
                f"{c.ex.request_line.rsplit(' ', 1)[0]} ({c.name})" for c in self.found.calls if c.binding.routes
            ]
            raise Unmatched(
                _status_error(
                    f"no A2A route is {verb} {path_of(target)}; the dumps hold {_listing(recorded)}",
                    None,
                    None,
                    a2a_code=forms.METHOD_NOT_FOUND,
                )
            )
        recorded_versions = {(c.method, c.version) for c in self.found.calls if c.binding.routes}
        spec, version = next(((s, v) for s, v in routes if (s.name, v) in recorded_versions), routes[0])
        try:
            params = decode_request(spec, Wire.V0 if version == "0.3" else Wire.V1, target, body, [])
        except (ValueError, A2acliError) as e:
            raise Unmatched(
                _status_error(f"the {spec.name} request cannot be read: {e}", None, None, status=400)
            ) from None
        from a2acli.recording.diff import drop_defaults

        return Asked(REST, version, spec.name, drop_defaults(params))


def served(asked: str) -> bool:
    """An A2A-Version the mock answers: none (read as 0.3), 1.0 or 0.3 (any patch)."""
    return not asked or asked.split(".")[:2] in (["1", "0"], ["0", "3"]) or asked in ("1", "0.3")


def unserved(asked: str) -> str:
    return f"A2A-Version {asked} is not served: the mock answers 1.0 and 0.3"


def _dumps(doc: Any) -> bytes:
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()


def path_of(target: str) -> str:
    return target.split("?", 1)[0]


def _target(ex: DumpedExchange) -> str:
    parts = ex.request_line.split(" ")
    return parts[1] if len(parts) > 1 else "/"


def _status_code(line: str | None) -> int:
    try:
        return int((line or "").split(" ")[1])
    except (IndexError, ValueError):
        return 200


def _json(text: str) -> Any:
    try:
        return json.loads(text) if text.strip() else MISSING
    except ValueError:
        return MISSING


def _sse(ex: DumpedExchange) -> list[tuple[str, str]]:
    """Each recorded event (name, data): the names from the stream's bytes when they agree with
    the event files, else every event a `message`."""
    from a2acli.transport.sse_body import events_in

    parsed = events_in(ex.response_body)
    if len(parsed) == len(ex.events):
        return [(name, data) for (name, _), data in zip(parsed, ex.events, strict=True)]
    return [("message", data) for data in ex.events]
