"""The rule steps of an interface's probe about the request itself (check.rules): an unknown
method, malformed params, and over JSON-RPC the envelope JSON-RPC 2.0 §4 requires (a `jsonrpc`
other than "2.0", no `method`: InvalidRequestError, never executed), with every error reply
carrying the request's id (§5: null only when the id could not be read)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from a2acli.check.checks import FAIL, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PASS, SKIP
from a2acli.check.probe_rules import RuleSteps
from a2acli.errors import A2acliError

_NOT_SENT = object()  # no reply read yet


class EnvelopeRules(RuleSteps):
    """The probes of a request's form, and the id of the error replies they provoke."""

    def _envelope(self, call: Any, unknown: str) -> None:
        replies: list[tuple[str, Any, Any]] = []  # (probe, the id sent, the id answered)
        get = {"id": unknown}  # a GetTask of an unknown task: an agent that executes it anyway makes nothing
        envelope = self.itf.info.envelope
        if envelope:  # the method is named in the body
            self._enveloped(call, "method-not-found", "x-a2acli/no-such-method", {}, None, (METHOD_NOT_FOUND,), replies)
        else:
            said = f"{self.itf.card_binding} names methods by route: no unknown method to send"
            self.rule("method-not-found", SKIP, said)
        if self.itf.info.carrier_grpc:
            self.rule("invalid-params", SKIP, "protobuf cannot carry a malformed message")
        else:
            bad = {"message": 42}
            self._enveloped(
                call, "invalid-params", "SendMessage", bad, None, (INVALID_PARAMS,), replies, (INVALID_REQUEST,)
            )
        if not envelope:
            for name in ("jsonrpc-version", "no-method", "error-id"):
                self.rule(name, SKIP, f"{self.itf.card_binding} has no JSON-RPC envelope")
            return
        method = "GetTask"  # (a2a call's names: tasks/get under 0.3)
        self._enveloped(
            call, "jsonrpc-version", method, get, lambda d: {**d, "jsonrpc": "1.0"}, (INVALID_REQUEST,), replies
        )
        self._enveloped(
            call,
            "no-method",
            method,
            get,
            lambda d: {k: v for k, v in d.items() if k != "method"},
            (INVALID_REQUEST,),
            replies,
        )
        self._error_ids(replies)

    def _enveloped(
        self,
        call: Any,
        name: str,
        method: str,
        params: Any,
        change: Callable[[dict[str, Any]], dict[str, Any]] | None,
        want: tuple[int, ...],
        replies: list[tuple[str, Any, Any]],
        also: tuple[int, ...] = (),
    ) -> None:
        """One request as `a2a call` builds it, its envelope changed by `change` (a member dropped
        or replaced); the id of the error reply kept for error-id."""
        sent: list[Any] = []

        def run() -> Any:
            call.target.endpoint()
            enc = call.encode_call(method, params)
            if change is not None:
                doc = change(dict(enc.document))
                body = json.dumps(doc).encode()  # read as an unknown method's answer: any result is a success
                enc = enc._replace(spec=None, request=enc.request._replace(body=body), document=doc)
            sent.append(enc.request_id)
            return list(call.invoke(enc))

        err = self.expect_error(call, name, run, want, also)
        if change is not None and err is not None and err.a2a_code is not None and -32099 <= err.a2a_code <= -32001:
            last = self.checks[-1]  # an A2A error is a method's answer: the request was run, not refused
            self.checks[-1] = last._replace(detail=f"{last.detail} (the request was run as a call, not refused)")
        if err is not None and sent and self.itf.info.envelope:
            replies.append((name, sent[0], _answered_id(call.ids.last)))

    def _error_ids(self, replies: list[tuple[str, Any, Any]]) -> None:
        """Each error reply names the request's id: every probe sent a readable one."""
        seen = [(name, sent, got) for name, sent, got in replies if got is not _NOT_SENT]
        if not seen:
            self.rule("error-id", SKIP, "no error reply to read (every probe was answered with success)")
            return
        wrong = [f"{name}: id {_said(got)}, the request's was {sent!r}" for name, sent, got in seen if got != sent]
        if wrong:
            self.rule("error-id", FAIL, "; ".join(wrong))
        else:
            self.rule(
                "error-id",
                PASS,
                f"the request's id in each of {len(seen)} error replies ({', '.join(n for n, _, _ in seen)})",
            )


def _answered_id(ex: Any) -> Any:
    """The `id` member of the JSON-RPC reply an exchange holds; absent and unreadable are told apart."""
    try:
        doc = json.loads(ex.response_body or b"null") if ex is not None else None
    except (ValueError, A2acliError):
        return _NOT_SENT
    if not isinstance(doc, dict):
        return _NOT_SENT
    return doc.get("id", _NoMember)


class _NoMember:
    """An error reply without an `id` member (JSON-RPC 2.0 §5 requires one, null at the least)."""


def _said(got: Any) -> str:
    return "missing" if got is _NoMember else repr(got)
