"""Exit codes and the error tree. Lower layers raise these; only commands/_run.py catches them."""

from __future__ import annotations

from enum import IntEnum
from typing import Any


class ExitCode(IntEnum):
    OK = 0
    FAILED = 1  # JSON-RPC error, invalid answer, HTTP 4xx/5xx other than auth
    USAGE = 2  # bad flags, bad --data, unknown method under the chosen version
    UNREACHABLE = 3  # DNS, connection refused, TLS, no Agent Card
    AUTH = 4  # 401/403, credentials missing
    TIMEOUT = 5  # --timeout expired
    UNEXPECTED_STATE = 6  # --expect-state: the task ended in another state
    INTERRUPTED = 130  # Ctrl-C


class A2acliError(Exception):
    """Base of every error the CLI reports. `code` is a short symbolic name for -o json."""

    exit_code: ExitCode = ExitCode.FAILED
    code: str = "error"

    def __init__(
        self,
        message: str,
        *,
        hint: str | None = None,
        a2a_code: int | None = None,
        data: Any = None,
        request_id: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.a2a_code = a2a_code
        self.data = data
        self.request_id = request_id


class UsageError(A2acliError):
    exit_code = ExitCode.USAGE
    code = "usage"


class UnreachableError(A2acliError):
    exit_code = ExitCode.UNREACHABLE
    code = "unreachable"


class CardNotFoundError(UnreachableError):
    code = "card_not_found"


class AuthError(A2acliError):
    exit_code = ExitCode.AUTH
    code = "auth"
    http_status: int | None = None  # 401/403 when the agent answered so


class TimeoutExpired(A2acliError):
    exit_code = ExitCode.TIMEOUT
    code = "timeout"


class HttpError(A2acliError):
    code = "http_error"


class InvalidResponseError(A2acliError):
    code = "invalid_response"


class BodyTooLargeError(InvalidResponseError):
    """An answer, a stream event or an input larger than its cap (--max-body): reading stopped."""

    code = "body_too_large"


class ConnectionBrokenError(InvalidResponseError):
    """The connection broke before the answer was complete: unlike a malformed answer, worth a
    retry (same idempotency key) or, for a stream, polling the task."""


class RpcError(A2acliError):
    """A JSON-RPC error object returned by the agent."""

    code = "rpc_error"


class NotClaimedError(A2acliError):
    """The Agent Card does not claim the capability a call needs (push notifications, the
    extended card); `--force` sends it anyway. `code` is the A2A error the agent would answer."""

    code = "UnsupportedOperationError"


class UnexpectedStateError(A2acliError):
    exit_code = ExitCode.UNEXPECTED_STATE
    code = "unexpected_state"


class Interrupted(A2acliError):
    exit_code = ExitCode.INTERRUPTED
    code = "interrupted"


class MissingExtraError(A2acliError):
    """An optional dependency (an extra) is not installed."""

    exit_code = ExitCode.FAILED
    code = "missing_extra"
