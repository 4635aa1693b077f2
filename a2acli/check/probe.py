"""The live probe (`a2a check URL`, spec CONFORM_001): the card at its well-known paths
(probe_card.py), then for each interface the card lists (binding x version) whether the server does
what the card claims: the protocol's own answers here (an unknown task, versions, an unknown
method, malformed params), the capabilities in probe_features.py. Every request goes through the
pipeline (pipeline.session.Call, one per interface with its options replaced), so --dump, --debug,
credentials and timeouts behave as in every other command."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from a2acli.check.checks import (
    FAIL,
    PASS,
    SKIP,
    TASK_NOT_FOUND,
    VERSION_NOT_SUPPORTED,
    Check,
    Interface,
    _call,
    _code_name,
    finding,
)
from a2acli.check.probe_semantics import SemanticSteps
from a2acli.errors import A2acliError, MissingExtraError, TimeoutExpired, UnreachableError
from a2acli.pipeline.options import CallOptions
from a2acli.wire import Wire, version_of
from a2acli.wire.methods import METHODS


def interfaces(core_card: dict[str, Any]) -> tuple[list[Interface], list[Check]]:
    """The interfaces to probe, one per binding x version (the first the card lists), and a skip
    for each one a2a cannot speak."""
    from a2acli.wire.bindings import binding_info

    out: list[Interface] = []
    skipped: list[Check] = []
    seen: set[tuple[str, Wire]] = set()
    for itf in core_card.get("supportedInterfaces") or []:
        if not isinstance(itf, dict):
            continue
        info = binding_info(str(itf.get("protocolBinding") or ""))
        wire = version_of(str(itf.get("protocolVersion") or ""))
        label = f"{itf.get('protocolBinding')} {itf.get('protocolVersion')} {itf.get('url')}"
        if info is None or not info.module or wire is None:
            said = "a binding or version a2a does not speak"
            skipped.append(finding("interface", SKIP, said, group=label, check_id=f"interface.{len(skipped)}"))
            continue
        if (info.flag, wire) in seen:
            continue
        seen.add((info.flag, wire))
        out.append(Interface(info.flag, info.card, wire, str(itf.get("url"))))
    return out, skipped


class _Probe(SemanticSteps):
    """The checks of one interface, in order; a step that cannot reach the agent ends it."""

    def run(self) -> list[Check]:
        try:
            self._can_speak()
            with _call(self.opts) as call:
                self._steps(call)
        except MissingExtraError as e:  # not the agent's fault: this install cannot speak the binding
            detail = e.message + (f" ({e.hint})" if e.hint else "")
            self.checks = []
            self.rule("probe", SKIP, detail)
            return self.checks
        except (UnreachableError, TimeoutExpired) as e:
            self.rule("reachable", FAIL, e.message + (f" (hint: {e.hint})" if e.hint else ""), title="reachable")
            return self.checks
        except A2acliError as e:  # a step not meant to fail (the card could not be re-read…)
            self.saw(e)
            self.rule("probe", FAIL, e.message + (f" (hint: {e.hint})" if e.hint else ""))
        reachable = len(self.checks)
        self._reachable()
        self.checks.insert(0, self.checks.pop(reachable))
        return self.checks

    def _can_speak(self) -> None:
        """MissingExtraError when this install lacks what the binding needs (gRPC: the grpc extra)."""
        if self.itf.info.carrier_grpc:
            from a2acli.transport.grpc import message_classes
            from a2acli.wire.bindings.grpc import SERVICE

            message_classes(f"/{SERVICE[self.itf.wire]}/GetTask")

    def _reachable(self) -> None:
        """Passes on evidence only: some call got an A2A answer. Answers that were all something
        else (a non-JSON-RPC HTTP 500 to every call) fail it."""
        if self.answered:
            self.rule("reachable", PASS, f"{self.itf.wire.version} over {self.itf.card_binding}")
            return
        first = f" (first: {self.not_a2a})" if self.not_a2a else ""
        self.rule("reachable", FAIL, f"reachable, but no call got an A2A answer{first}")

    def _steps(self, call: Any) -> None:
        unknown = f"a2acli-check-{uuid.uuid4()}"
        get = METHODS["GetTask"]
        # reachable, and an unknown task is TaskNotFoundError
        self.expect_error(call, "task-not-found", lambda: call.unary(get, {"id": unknown}), (TASK_NOT_FOUND,))
        self._versions(call, get, unknown)
        self._envelope(call, unknown)
        self._input_validation(call)
        self._unknown_task_message(call)
        task_id = self._send(call) if not self.read_only else None
        if self.read_only:
            self.rule("message-send", SKIP, "--read-only")
        self._blocking()
        self._get_task(call)
        self._continue_terminal(call)
        self._streams(call)
        self._subscribe(call)
        self._push(call, task_id)
        self._push_rules(call, task_id)
        self._push_delivery(call)
        self._extended(call)
        self._paging(call)
        self._list_rules(call)
        self._cancel(call)
        self._unclaimed()
        self._error_forms()
        self._data_model()

    def _versions(self, call: Any, get: Any, unknown: str) -> None:
        """An explicit version it does not serve, once per binding (the header, not the body, is
        tested: gRPC's services are versioned by package too, and the metadata must still be read,
        A2A 1.0 §3.6.2); no header at all read as 0.3."""
        if self.itf.wire is Wire.V0 and not self.both:
            self._version_unsupported_v0(call, get, unknown)
        elif self.itf.wire is Wire.V1 or not self.both:
            self.expect_error(
                call,
                "version-unsupported",
                lambda: call.unary(get, {"id": unknown}, headers={"A2A-Version": "99.0"}),
                (VERSION_NOT_SUPPORTED,),
            )
        else:
            self.rule("version-unsupported", SKIP, f"checked on the {self.itf.card_binding} 1.0 interface")
        if self.itf.wire is Wire.V0:
            self.expect_error(
                call,
                "version-missing",
                lambda: self._without_version(call, get, {"id": unknown}),
                (TASK_NOT_FOUND,),
            )
        else:
            self.rule("version-missing", SKIP, "checked on the 0.3 interfaces")

    def _version_unsupported_v0(self, call: Any, get: Any, unknown: str) -> None:
        """A binding the card offers under 0.3 only: VersionNotSupportedError (-32009) exists only
        in 1.0, and 0.3 servers do not read A2A-Version, so any clean A2A refusal passes."""
        name = "version-unsupported"
        try:
            call.unary(get, {"id": unknown}, headers={"A2A-Version": "99.0"})
        except (UnreachableError, TimeoutExpired):
            raise
        except A2acliError as e:
            self.saw(e)
            ids = call.ids.take() or ((e.request_id,) if e.request_id else ())
            if e.a2a_code is None:
                self.rule(name, FAIL, f"not a clean A2A refusal: {e.message}", ids)
            elif e.a2a_code == VERSION_NOT_SUPPORTED:
                self.rule(name, PASS, _code_name(e), ids)
            else:
                clean = "a clean refusal (the agent speaks 0.3 only, whose spec has no -32009)"
                self.rule(name, PASS, f"{_code_name(e)}: {clean}", ids)
            return
        self.saw()
        self.rule(name, FAIL, "GetTask of an unknown id answered with success", call.ids.take())

    def _without_version(self, call: Any, spec: Any, params: Any) -> Any:
        """The request as prepared, with the A2A-Version header taken out."""
        call.target.endpoint()
        enc = call.encode(spec, params, stream=False)
        req = call.prepare(enc)
        if hasattr(req, "headers"):
            del req.headers["A2A-Version"]
        else:  # gRPC: metadata
            req = req._replace(metadata=tuple((k, v) for k, v in req.metadata if k.lower() != "a2a-version"))
        ex = call.carrier().exchange(req, label=enc.method)
        return call.binding_of(enc).read_unary(enc, ex, warn=lambda _t: None)


def probe(
    opts: CallOptions,
    core_card: dict[str, Any],
    *,
    read_only: bool = False,
    webhook: bool = False,
    progress: Callable[[str], None] | None = None,
) -> list[Check]:
    """Every interface's checks, in card order. `webhook`: a receiver on 127.0.0.1 (any free
    port) for the push deliveries, when the card claims push notifications. `progress` is told
    each interface as its probe starts (one line per binding x version)."""
    found, checks = interfaces(core_card)
    if opts.transports:  # --transport: those bindings only
        found = [i for i in found if i.binding in opts.transports]
    receiver = None
    if webhook and not read_only and found and (core_card.get("capabilities") or {}).get("pushNotifications"):
        from a2acli.webhook import Receiver

        receiver = Receiver("127.0.0.1", 0).start()
    try:
        for n, itf in enumerate(found, 1):
            if progress is not None:
                progress(f"probing {itf.label} ({n} of {len(found)})")
            both = any(o.binding == itf.binding and o.wire is Wire.V1 for o in found)
            checks += _Probe(itf, opts, core_card, read_only, both, receiver).run()
    finally:
        if receiver is not None:
            receiver.close()
    if not found:
        checks.append(
            finding("interfaces", FAIL, "the card lists no JSONRPC, HTTP+JSON or GRPC interface for 1.0 or 0.3")
        )
    return checks
