"""The rule steps of an interface's probe about errors (check.rules): what the card does not claim is
refused with the error the specification names, and every A2A error the probe provoked comes in
the binding's own form (its HTTP or gRPC status, its google.rpc.ErrorInfo; AIP-193's body)."""

from __future__ import annotations

import uuid
from typing import Any

from a2acli.check.checks import FAIL, METHOD_NOT_FOUND, PASS, SKIP, TASK_NOT_FOUND, _call
from a2acli.check.probe_rules import PUSH_NOT_SUPPORTED, UNSUPPORTED_OPERATION, RuleSteps
from a2acli.check.rules import ERROR_STATUS
from a2acli.errors import A2acliError
from a2acli.wire import Wire
from a2acli.wire.methods import METHODS
from a2acli.wire.translate.errors import ERROR_DOMAIN, error_name, error_reason


class ErrorRules(RuleSteps):
    """The refusals of what the card does not claim, and the per-binding error form."""

    # -- capabilities not claimed ---------------------------------------------------------------------

    def _unclaimed(self) -> None:
        """What the card does not claim is refused with the error §3.3.4 names (each call asks
        about an unknown task: nothing is created). Last, on connections of their own: a server
        that fails a method it lacks (an HTTP 500) may close the connection under the next call."""
        with _call(self.opts) as call:
            self._unclaimed_on(call)

    def _unclaimed_on(self, call: Any) -> None:
        unknown = f"a2acli-check-{uuid.uuid4()}"
        cases = (
            ("unclaimed-streaming", "streaming", lambda: self._drain(call, unknown), UNSUPPORTED_OPERATION),
            (
                "unclaimed-push",
                "pushNotifications",
                lambda: call.unary(METHODS["GetTaskPushNotificationConfig"], {"taskId": unknown, "id": unknown}),
                PUSH_NOT_SUPPORTED,
            ),
            (
                "unclaimed-extended-card",
                "extendedAgentCard",
                lambda: call.unary(METHODS["GetExtendedAgentCard"], {}),
                UNSUPPORTED_OPERATION,
            ),
        )
        for name, capability, run, code in cases:
            if self.caps.get(capability):
                self.rule(name, SKIP, f"the card claims {capability}")
            elif name == "unclaimed-extended-card" and self.itf.wire is Wire.V0:
                self.rule(name, SKIP, "0.3 names no error for it")
            else:
                self.expect_error(call, name, run, (code,), also=(TASK_NOT_FOUND, METHOD_NOT_FOUND))

    # -- per-binding errors ----------------------------------------------------------------------------

    def _error_forms(self) -> None:
        """Every A2A error the probe provoked, in the binding's own form (A2A 1.0 §5.4, §9.5,
        §10.6, §11.6): its HTTP status or gRPC status, and its google.rpc.ErrorInfo. An error
        that came inside a stream (HTTP 200) keeps no body to read: those are passed over."""
        seen = [
            (code, ex) for code, ex in self.a2a_errors if ex is not None and not (ex.streaming and ex.status == 200)
        ]
        if not seen:
            for name in ("error-status", "error-info"):
                self.rule(name, SKIP, "no A2A error was answered outside a stream")
            return
        self._error_statuses(seen)
        if self.itf.wire is Wire.V0:
            self.rule("error-info", SKIP, "0.3 defines no google.rpc.ErrorInfo")
        else:
            self._error_infos(seen)

    def _error_statuses(self, seen: list[tuple[int, Any]]) -> None:
        if self.itf.info.envelope:
            self.rule("error-status", SKIP, "JSON-RPC answers HTTP 200: the error's code is the checks' own")
            return
        if self.itf.wire is Wire.V0:  # 0.3 asks for "appropriate" codes: only not-found is beyond doubt
            seen = [(code, ex) for code, ex in seen if code == TASK_NOT_FOUND]
        rest = self.itf.info.routes
        good, bad = [], []
        for code, ex in seen:
            want = ERROR_STATUS[code][0 if rest else 1] if code in ERROR_STATUS else None
            got = ex.status if rest else ex.reason
            said = f"{got} for {error_name(code)}"
            if want is not None and str(got) != str(want):
                bad.append(f"{said}, want {want}")
            elif said not in good:
                good.append(said)
        where = "HTTP status" if rest else "gRPC status"
        if bad:
            self.rule("error-status", FAIL, f"{where}: " + "; ".join(dict.fromkeys(bad)))
        elif good:
            self.rule("error-status", PASS, f"{where}: " + ", ".join(good))
        else:
            self.rule("error-status", SKIP, "no TaskNotFoundError answered outside a stream")

    def _error_infos(self, seen: list[tuple[int, Any]]) -> None:
        where = {"jsonrpc": "error.data", "rest": "error.details", "grpc": "status details"}[self.itf.binding]
        wrong: list[str] = []
        reasons: list[str] = []
        for code, ex in seen:
            info = next((d for d in _details(ex, self.itf.info.envelope) if _is_error_info(d)), None)
            want = error_reason(code)
            if info is None:
                wrong.append(f"no google.rpc.ErrorInfo in {where} of {error_name(code)}")
                continue
            if info.get("reason") != want:
                wrong.append(f"reason {info.get('reason')!r} for {error_name(code)} (want {want})")
            if info.get("domain") != ERROR_DOMAIN:
                wrong.append(f"domain {info.get('domain')!r} (want {ERROR_DOMAIN})")
            wrong += _aip193(ex) if self.itf.info.routes else []
            reasons.append(want)
        row = "error-info.jsonrpc" if self.itf.info.envelope else ""  # JSON-RPC's error.data: a SHOULD (§9.5)
        if wrong:
            self.rule("error-info", FAIL, "; ".join(dict.fromkeys(wrong)), graded_by=row)
        else:
            said = f"ErrorInfo in {ERROR_DOMAIN}: " + ", ".join(dict.fromkeys(reasons))
            self.rule("error-info", PASS, said, graded_by=row)


def _details(ex: Any, in_envelope: bool) -> list[Any]:
    """The error details of an answered exchange: JSON-RPC `error.data`, a google.rpc.Status's
    `details` (HTTP+JSON; gRPC, as the transport wrote it)."""
    from a2acli.wire import envelope

    try:
        doc = envelope.loads(ex.response_body or b"null", what="the error")
    except A2acliError:
        return []
    error = doc.get("error") if isinstance(doc, dict) else None
    if not isinstance(error, dict):
        return []
    found = error.get("data" if in_envelope else "details")
    return found if isinstance(found, list) else []


def _is_error_info(detail: Any) -> bool:
    return isinstance(detail, dict) and str(detail.get("@type", "")).endswith("google.rpc.ErrorInfo")


def _aip193(ex: Any) -> list[str]:
    """What an HTTP+JSON error body lacks of AIP-193's `{"error": {code, status, message, details}}`."""
    from a2acli.wire import envelope

    try:
        doc = envelope.loads(ex.response_body or b"null", what="the error")
    except A2acliError:
        return ["the body is not JSON"]
    error = doc.get("error") if isinstance(doc, dict) else None
    if not isinstance(error, dict):
        return ['the body is not {"error": {…}} (AIP-193)']
    out = []
    if error.get("code") != ex.status:
        out.append(f"error.code {error.get('code')!r} is not the HTTP status {ex.status}")
    if not isinstance(error.get("status"), str):
        out.append("no error.status (NOT_FOUND)")
    if not isinstance(error.get("message"), str):
        out.append("no error.message")
    return out
