"""An error, explained from the call it ended: credentials refused (401/403: which were sent,
which the card asks for), ids the agent rejected, a mock that has no such exchange. Every face
says the error it gets from here (the CLI's boundary, `a2a mcp`'s tool errors)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from a2acli.errors import A2acliError

if TYPE_CHECKING:
    from a2acli.redact import Redactor


def explained(e: A2acliError, call: Any) -> A2acliError:
    """`e` with the hint the call it ended gives it (`call`: the pipeline's Call, or None)."""
    if getattr(e, "http_status", None) in (401, 403):
        from a2acli.pipeline.policies import explain_auth

        e = explain_auth(e, call)
    if call is not None:
        from a2acli.pipeline.policies import explain_mock_miss, explain_rejected_ids

        e = explain_mock_miss(explain_rejected_ids(e, call))
    return e


def document(e: A2acliError, redactor: Redactor | None = None, *, code: str | None = None) -> dict[str, Any]:
    """The error as a face reports it in JSON, the keys of the CLI's `-o json` error envelope and
    the exit code: a2a's code (X_A2A_…), the message and hint (secrets redacted by the run's
    `redactor`; without one, URL userinfo only), the agent's A2A error code (`a2aCode`, null when it
    gave none), the error's `data` when the agent sent some, the exit code the CLI would give; and
    `task` ({id, contextId, state}) when the call left a task unsettled (a timeout mid-stream)."""
    if redactor is None:
        from a2acli.redact import Redactor

        redactor = Redactor()
    doc: dict[str, Any] = {
        "code": code or e.code,
        "message": redactor.text(e.message),
        "hint": redactor.text(e.hint) if e.hint else None,
        "a2aCode": e.wire_code,
        "exitCode": int(e.exit_code),
    }
    if e.data is not None:
        doc["data"] = redactor.value(e.data)
    if e.task is not None:  # the task the call left unsettled: the one to pick up again
        doc["task"] = e.task
    if e.request_id:
        doc["requestId"] = e.request_id
    return doc
