"""The live probe (`a2a check URL`, spec CONFORM_001): the card at its well-known paths
(probe_card.py), then for each interface the card lists (binding x version) whether the server does
what the card claims: the protocol's own answers here (an unknown task, versions, an unknown
method, malformed params), the capabilities in probe_features.py. Every request goes through the
pipeline (pipeline.session.Call, one per interface with its options replaced), so --dump, --debug,
credentials and timeouts behave as in every other command."""

from __future__ import annotations

import uuid
from typing import Any

from a2acli.check.checks import (
    FAIL,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PASS,
    SKIP,
    TASK_NOT_FOUND,
    VERSION_NOT_SUPPORTED,
    Check,
    Interface,
    _call,
    _code_name,
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
            skipped.append(
                Check(
                    f"interface.{len(skipped)}",
                    label,
                    "interface",
                    SKIP,
                    "a binding or version a2a does not speak",
                    "§8.3.2",
                )
            )
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
            return [Check(f"{self.itf.key}.probe", self.itf.label, "probe", SKIP, detail, "")]
        except (UnreachableError, TimeoutExpired) as e:
            self.add(
                "reachable", "reachable", FAIL, e.message + (f" (hint: {e.hint})" if e.hint else ""), "§3 / §8.3.2"
            )
            return self.checks
        except A2acliError as e:  # a step not meant to fail (the card could not be re-read…)
            self.saw(e)
            self.add("probe", "probe", FAIL, e.message + (f" (hint: {e.hint})" if e.hint else ""), "")
        self.checks.insert(0, self._reachable())
        return self.checks

    def _can_speak(self) -> None:
        """MissingExtraError when this install lacks what the binding needs (gRPC: the grpc extra)."""
        if self.itf.info.carrier_grpc:
            from a2acli.transport.grpc import message_classes
            from a2acli.wire.bindings.grpc import SERVICE

            message_classes(f"/{SERVICE[self.itf.wire]}/GetTask")

    def _reachable(self) -> Check:
        """Passes on evidence only: some call got an A2A answer. Answers that were all something
        else (a non-JSON-RPC HTTP 500 to every call) fail it."""
        title, spec = "reachable, answers A2A", "§3"
        if self.answered:
            return Check(
                f"{self.itf.key}.reachable",
                self.itf.label,
                title,
                PASS,
                f"{self.itf.wire.version} over {self.itf.card_binding}",
                spec,
            )
        first = f" (first: {self.not_a2a})" if self.not_a2a else ""
        detail = f"reachable, but no call got an A2A answer{first}"
        return Check(f"{self.itf.key}.reachable", self.itf.label, title, FAIL, detail, spec)

    def _steps(self, call: Any) -> None:
        unknown = f"a2acli-check-{uuid.uuid4()}"
        get = METHODS["GetTask"]
        # reachable, and an unknown task is TaskNotFoundError
        self.expect_error(
            call,
            "task-not-found",
            "GetTask of an unknown id",
            "§8 TaskNotFoundError",
            lambda: call.unary(get, {"id": unknown}),
            (TASK_NOT_FOUND,),
        )
        # an explicit version it does not serve: once per binding (the header, not the body, is tested)
        if self.itf.wire is Wire.V0 and not self.both:
            self._version_unsupported_v0(call, get, unknown)
        elif self.itf.wire is Wire.V1 or not self.both:
            grpc = self.itf.info.carrier_grpc  # its services are versioned by package: the metadata is a second say
            self.expect_error(
                call,
                "version-unsupported",
                "A2A-Version: 99.0 refused",
                "§3.6 VersionNotSupportedError",
                lambda: call.unary(get, {"id": unknown}, headers={"A2A-Version": "99.0"}),
                (VERSION_NOT_SUPPORTED,),
                also=(TASK_NOT_FOUND,) if grpc else (),
            )
        else:
            self.add(
                "version-unsupported",
                "A2A-Version: 99.0 refused",
                SKIP,
                f"checked on the {self.itf.card_binding} 1.0 interface",
                "§3.6",
            )
        if self.itf.wire is Wire.V0:
            self.expect_error(
                call,
                "version-missing",
                "no A2A-Version header read as 0.3",
                "§3.6 (missing header = 0.3)",
                lambda: self._without_version(call, get, {"id": unknown}),
                (TASK_NOT_FOUND,),
            )
        else:
            self.add(
                "version-missing", "no A2A-Version header read as 0.3", SKIP, "checked on the 0.3 interfaces", "§3.6"
            )
        if self.itf.info.envelope:  # the method is named in the body
            self.expect_error(
                call,
                "method-not-found",
                "unknown method",
                "§8 MethodNotFoundError",
                lambda: self._invoke(call, "x-a2acli/no-such-method", {}),
                (METHOD_NOT_FOUND,),
            )
        else:
            self.add(
                "method-not-found",
                "unknown method",
                SKIP,
                f"{self.itf.card_binding} names methods by route: no unknown method to send",
                "§8",
            )
        if self.itf.info.carrier_grpc:
            self.add("invalid-params", "malformed params", SKIP, "protobuf cannot carry a malformed message", "§8")
        else:
            self.expect_error(
                call,
                "invalid-params",
                "malformed params",
                "§8 InvalidParamsError",
                lambda: self._invoke(call, "SendMessage", {"message": 42}),
                (INVALID_PARAMS,),
                also=(INVALID_REQUEST,),
            )
        self._input_validation(call)
        self._unknown_task_message(call)
        task_id = self._send(call) if not self.read_only else None
        if self.read_only:
            self.add("message-send", "message round trip", SKIP, "--read-only", "§3.1 SendMessage")
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

    def _version_unsupported_v0(self, call: Any, get: Any, unknown: str) -> None:
        """A binding the card offers under 0.3 only: VersionNotSupportedError (-32009) exists only
        in 1.0, and 0.3 servers do not read A2A-Version, so any clean A2A refusal passes."""
        title, spec = "A2A-Version: 99.0 refused", "§3.6 (1.0); 0.3 has no VersionNotSupportedError"
        try:
            call.unary(get, {"id": unknown}, headers={"A2A-Version": "99.0"})
        except (UnreachableError, TimeoutExpired):
            raise
        except A2acliError as e:
            self.saw(e)
            ids = call.ids.take() or ((e.request_id,) if e.request_id else ())
            if e.a2a_code is None:
                self.add("version-unsupported", title, FAIL, f"not a clean A2A refusal: {e.message}", spec, ids)
            elif e.a2a_code == VERSION_NOT_SUPPORTED:
                self.add("version-unsupported", title, PASS, _code_name(e), spec, ids)
            else:
                self.add(
                    "version-unsupported",
                    title,
                    PASS,
                    f"{_code_name(e)}: a clean refusal (the agent speaks 0.3 only, whose spec has no -32009)",
                    spec,
                    ids,
                )
            return
        self.saw()
        self.add(
            "version-unsupported", title, FAIL, "GetTask of an unknown id answered with success", spec, call.ids.take()
        )

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
    opts: CallOptions, core_card: dict[str, Any], *, read_only: bool = False, webhook: bool = False
) -> list[Check]:
    """Every interface's checks, in card order. `webhook`: a receiver on 127.0.0.1 (any free
    port) for the push deliveries, when the card claims push notifications."""
    found, checks = interfaces(core_card)
    if opts.transports:  # --transport: those bindings only
        found = [i for i in found if i.binding in opts.transports]
    receiver = None
    if webhook and not read_only and found and (core_card.get("capabilities") or {}).get("pushNotifications"):
        from a2acli.webhook import Receiver

        receiver = Receiver("127.0.0.1", 0).start()
    try:
        for itf in found:
            both = any(o.binding == itf.binding and o.wire is Wire.V1 for o in found)
            checks += _Probe(itf, opts, core_card, read_only, both, receiver).run()
    finally:
        if receiver is not None:
            receiver.close()
    if not found:
        checks.append(
            Check(
                "interfaces",
                "card",
                "an interface a2a speaks",
                FAIL,
                "the card lists no JSONRPC, HTTP+JSON or GRPC interface for 1.0 or 0.3",
                "§8.3.2",
            )
        )
    return checks
