"""Exit codes, error codes and the error tree. Lower layers raise these; only the boundary
(flows/boundary.py, which commands/_run.py opens around each command) catches them.

Every error the CLI reports carries one `code` (the `-o json` envelope's `code`, official CLI spec
§9.4 and Appendix B) and one exit code (§9.6), and the two always agree:

- a protocol failure carries the A2A error the agent reported, by its A2A 1.0 name
  (`TaskNotFoundError`), whichever binding carried it (RpcError; the names live in
  wire/translate/errors.py, one table for JSON-RPC codes, ErrorInfo reasons and gRPC details);
- a CLI-local failure carries one of the spec's Appendix E codes (`A2ACLI_ERR_*`, the set below,
  checked by a test against the spec);
- a condition of our own with no Appendix E code carries a vendor code, `X_A2A_<SYMBOL>`; no
  code is ever invented in the `A2ACLI_ERR_` namespace.

`a2a_code` is the A2A error's JSON-RPC code whatever the binding (policies compare it);
`wire_code` is what the envelope's `a2aCode` shows: the transport-level code as it crossed the
wire (the JSON-RPC code, the HTTP status, or the gRPC status name), else None."""

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


# -- the official CLI spec's Appendix E: CLI-local error codes, with the exit code each maps to ----
USAGE = "A2ACLI_ERR_USAGE"
CARD_NOT_FOUND = "A2ACLI_ERR_CARD_NOT_FOUND"
CARD_INVALID = "A2ACLI_ERR_CARD_INVALID"
UNREACHABLE = "A2ACLI_ERR_UNREACHABLE"
CREDENTIALS_MISSING = "A2ACLI_ERR_CREDENTIALS_MISSING"
AUTH_FAILED = "A2ACLI_ERR_AUTH_FAILED"
TIMEOUT = "A2ACLI_ERR_TIMEOUT"
INTERNAL = "A2ACLI_ERR_INTERNAL"

APPENDIX_E: dict[str, ExitCode] = {
    USAGE: ExitCode.USAGE,
    CARD_NOT_FOUND: ExitCode.UNREACHABLE,
    CARD_INVALID: ExitCode.FAILED,
    UNREACHABLE: ExitCode.UNREACHABLE,
    CREDENTIALS_MISSING: ExitCode.AUTH,
    AUTH_FAILED: ExitCode.AUTH,
    TIMEOUT: ExitCode.TIMEOUT,
    INTERNAL: ExitCode.FAILED,
}

# -- our own conditions with no Appendix E code: vendor codes, never in the A2ACLI_ERR_ namespace --
VENDOR_PREFIX = "X_A2A_"
HTTP_ERROR = "X_A2A_HTTP_ERROR"  # a non-2xx answer (HTTP status, gRPC status) naming no A2A error
RPC_ERROR = "X_A2A_RPC_ERROR"  # a JSON-RPC error object whose code A2A does not define
# The ErrorInfo reason (JSON-RPC: the error data's `reason`) of `a2a mock`'s answer to a call no
# recording answers, over every binding; the client's hint then speaks of the recordings.
NO_RECORDED_ANSWER = "NO_RECORDED_ANSWER"
BODY_TOO_LARGE = "X_A2A_BODY_TOO_LARGE"  # an answer or event over --max-body: reading stopped
CONNECTION_BROKEN = "X_A2A_CONNECTION_BROKEN"  # reached, but the answer broke off: worth a retry
TRANSPORT_NOT_OFFERED = "X_A2A_TRANSPORT_NOT_OFFERED"  # the card offers the version, not over --transport
CREDENTIALS_WITHHELD = "X_A2A_CREDENTIALS_WITHHELD"  # not sent: another origin, or in clear
MISSING_EXTRA = "X_A2A_MISSING_EXTRA"  # an optional dependency (an extra) is not installed
EXPECT_STATE = "X_A2A_EXPECT_STATE"  # --expect-state: the task ended in another state
INTERRUPTED = "X_A2A_INTERRUPTED"  # Ctrl-C
SIGNATURE = "X_A2A_SIGNATURE"  # --verify-signature: the Agent Card's signature is not verified
FILE_EXISTS = "X_A2A_FILE_EXISTS"  # `tasks download`: a file of that name is there; not replaced without --overwrite
NO_ARTIFACTS = "X_A2A_NO_ARTIFACTS"  # `tasks download`: the task has no artifact part to save (yet)
CANNOT_LISTEN = "X_A2A_CANNOT_LISTEN"  # a server of ours (mock, demo, webhook listen, a sign-in's redirect) has no port
CANNOT_WRITE = "X_A2A_CANNOT_WRITE"  # the output cannot be written: a full disk, a read-only or failing device

VENDOR: dict[str, ExitCode] = {
    HTTP_ERROR: ExitCode.FAILED,
    RPC_ERROR: ExitCode.FAILED,
    BODY_TOO_LARGE: ExitCode.FAILED,
    CONNECTION_BROKEN: ExitCode.FAILED,
    TRANSPORT_NOT_OFFERED: ExitCode.FAILED,
    CREDENTIALS_WITHHELD: ExitCode.AUTH,
    MISSING_EXTRA: ExitCode.FAILED,
    EXPECT_STATE: ExitCode.UNEXPECTED_STATE,
    INTERRUPTED: ExitCode.INTERRUPTED,
    SIGNATURE: ExitCode.FAILED,
    FILE_EXISTS: ExitCode.FAILED,
    CANNOT_LISTEN: ExitCode.FAILED,
    CANNOT_WRITE: ExitCode.FAILED,
}

# A protocol failure the CLI detects itself, named as A2A names it (A2A 1.0 §3.3.2): an answer
# that is no valid answer to the method, a version the Agent Card does not offer.
INVALID_AGENT_RESPONSE = "InvalidAgentResponseError"
VERSION_NOT_SUPPORTED = "VersionNotSupportedError"


class A2acliError(Exception):
    """Base of every error the CLI reports. `code`: the envelope's code (see above); an instance
    may carry its own (an RpcError: the A2A error's name)."""

    exit_code: ExitCode = ExitCode.FAILED
    code: str = INTERNAL
    # the task the failed call left unsettled ({id, contextId, state}), for a face that reports
    # errors as documents (`a2a mcp`: flows.calls.against sets it); the CLI says it as resume notes
    task: dict[str, Any] | None = None

    def __init__(
        self,
        message: str,
        *,
        hint: str | None = None,
        a2a_code: int | None = None,
        data: Any = None,
        request_id: str | None = None,
        wire_code: int | str | None = None,
        code: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.a2a_code = a2a_code
        self.data = data
        self.request_id = request_id
        self.wire_code = wire_code if wire_code is not None else a2a_code
        if code is not None:
            self.code = code


class UsageError(A2acliError):
    exit_code = ExitCode.USAGE
    code = USAGE


class UnreachableError(A2acliError):
    exit_code = ExitCode.UNREACHABLE
    code = UNREACHABLE


class CardNotFoundError(UnreachableError):
    """No Agent Card at the reference given: nothing at the well-known paths, an unreadable file."""

    code = CARD_NOT_FOUND


class AuthError(A2acliError):
    """Credentials sent and refused (by the agent, or by a token endpoint)."""

    exit_code = ExitCode.AUTH
    code = AUTH_FAILED
    http_status: int | None = None  # 401/403 when the agent answered so


class CredentialsMissingError(AuthError):
    """The agent (or the OAuth2 flow) needs a credential and none was given."""

    code = CREDENTIALS_MISSING


class CredentialsWithheldError(AuthError):
    """A credential the CLI will not send where it would go (another origin under
    --strict-origin, plain http from an https card)."""

    code = CREDENTIALS_WITHHELD


class TimeoutExpired(A2acliError):
    exit_code = ExitCode.TIMEOUT
    code = TIMEOUT


class HttpError(A2acliError):
    """A non-2xx answer that names no A2A error (wire_code: the HTTP status or gRPC status).
    `doubts_endpoint`: its hint asks whether the URL is the agent's endpoint (a 404, a 5xx that is
    no JSON-RPC answer); the pipeline words it otherwise when it knows the endpoint is right."""

    code = HTTP_ERROR
    doubts_endpoint = False


class InvalidResponseError(A2acliError):
    """An answer that is no valid answer to the method: A2A's InvalidAgentResponseError."""

    code = INVALID_AGENT_RESPONSE


class CardInvalidError(InvalidResponseError):
    """An Agent Card fetched or read, but no card: not JSON, not an object, no interface."""

    code = CARD_INVALID


class BodyTooLargeError(InvalidResponseError):
    """An answer, a stream event or an input larger than its cap (--max-body): reading stopped."""

    code = BODY_TOO_LARGE


class ConnectionBrokenError(InvalidResponseError):
    """The connection broke before the answer was complete: unlike a malformed answer, worth a
    retry (same idempotency key) or, for a stream, polling the task."""

    code = CONNECTION_BROKEN


class RpcError(A2acliError):
    """An A2A error the agent returned (over any binding); `code` is its A2A 1.0 name, or
    X_A2A_RPC_ERROR for a JSON-RPC code A2A does not define."""

    code = RPC_ERROR


class NotClaimedError(A2acliError):
    """The Agent Card does not claim the capability a call needs (push notifications, the
    extended card); `--force` sends it anyway. `code` is the A2A error the agent would answer."""

    code = "UnsupportedOperationError"


class UnexpectedStateError(A2acliError):
    exit_code = ExitCode.UNEXPECTED_STATE
    code = EXPECT_STATE


class Interrupted(A2acliError):
    exit_code = ExitCode.INTERRUPTED
    code = INTERRUPTED


class MissingExtraError(A2acliError):
    """An optional dependency (an extra) is not installed."""

    exit_code = ExitCode.FAILED
    code = MISSING_EXTRA


class SignatureError(A2acliError):
    """--verify-signature: the Agent Card's signature is absent, unverifiable or invalid."""

    code = SIGNATURE


def exit_code_of(code: str) -> ExitCode:
    """The exit code a code maps to: Appendix E's, ours, or 1 for an A2A error."""
    return APPENDIX_E.get(code) or VENDOR.get(code) or ExitCode.FAILED


# Process state, not a run's: the Ctrl-Cs this process received through `on_interrupt`.
_SIGINTS: list[int] = []


def on_interrupt(signum: int, frame: object) -> None:
    """`a2a`'s Ctrl-C handler once its entry point runs (a2acli/__main__.py): Python's own (a
    KeyboardInterrupt), the Ctrl-C noted first. CPython can lose the KeyboardInterrupt: raised while
    a C extension imports another module (`_ssl` importing `_socket` as httpx loads), it comes out as
    an ImportError with no trace of it ("PyCapsule_Import could not import module"), which would be
    said as an internal error, exit 1 (caused_by_interrupt reads the note)."""
    _SIGINTS.append(signum)
    raise KeyboardInterrupt


def interrupt_handled() -> None:
    """A Ctrl-C was caught and the run goes on (`a2a chat`: at its prompt, in a turn): it was not
    lost, so no error raised later is that Ctrl-C (caused_by_interrupt)."""
    _SIGINTS.clear()


def main_thread_interrupts() -> Any:
    """A context manager: threads started in its block never take a Ctrl-C (SIGINT blocked in
    them), so it reaches the main thread. The kernel gives a signal to any thread that does not
    block it; one given to a helper thread (rich's refresh thread, a call's watchdog) leaves a main
    thread that waits in a socket read waiting on, until the agent sends again (a stream that had
    gone quiet: 30 seconds before the Ctrl-C took effect). Threads inherit the mask of the thread
    that starts them: SIGINT is blocked in this thread for the block, and a Ctrl-C that comes
    meanwhile is taken as the block ends. A no-op off the main thread and where POSIX masks are not
    (Windows)."""
    import contextlib
    import signal
    import threading

    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        return contextlib.nullcontext()

    @contextlib.contextmanager
    def blocked() -> Any:
        before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)

    return blocked()


def caused_by_interrupt(e: BaseException) -> bool:
    """Whether `e` is a Ctrl-C that Python wrapped or lost on its way out: a KeyboardInterrupt raised
    in a class's `__set_name__` (an import under way) comes out of Python 3.11 as a RuntimeError whose
    cause it is; one raised while a C extension imports a module comes out as an error with no trace
    of it, taken for a Ctrl-C when one was received (on_interrupt) and `e` was raised importing."""
    seen: set[int] = set()
    cause: BaseException | None = e
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__
    return bool(_SIGINTS) and _raised_importing(e)


def _raised_importing(e: BaseException) -> bool:
    """Whether `e` was raised while a module was being imported (a module's body or the import
    system on its traceback)."""
    tb = e.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_name == "<module>" or code.co_filename.startswith("<frozen importlib"):
            return True
        tb = tb.tb_next
    return False


# What the system says when written output cannot be kept: no space (ENOSPC), over a quota
# (EDQUOT), a file too large (EFBIG), a read-only file system (EROFS), a failing device (EIO).
_WRITE_FAILURES = ("ENOSPC", "EDQUOT", "EFBIG", "EROFS", "EIO")


def cannot_write(exc: BaseException) -> A2acliError | None:
    """The error for output that could not be written (`a2a … > /dev/full`), or None when `exc`
    is not such a failure."""
    import errno

    if not isinstance(exc, OSError) or exc.errno not in {getattr(errno, n, None) for n in _WRITE_FAILURES}:
        return None
    where = f" {exc.filename}" if exc.filename else " the output"
    return A2acliError(
        f"cannot write{where}: {exc.strerror or exc}",
        hint="free some space (or pick another place for the output: a file elsewhere, a pipe)",
        code=CANNOT_WRITE,
    )
