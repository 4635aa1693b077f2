"""The rules the deeper probes of `a2a check` hold an agent to: each with its RFC 2119 keyword (a
MUST broken is a failure, a SHOULD broken a warning, a MAY only informs), where the A2A
specification says it (1.0 and 0.3 sections; empty when that version has no such rule), and the
official A2A TCK's requirement ids where one matches. One row per check name; probes cite a row,
and docs/compliance-report.yaml (CONFORM_001) lists them. Pure."""

from __future__ import annotations

from typing import NamedTuple

from a2acli.wire import Wire

MUST, SHOULD, MAY = "MUST", "SHOULD", "MAY"


class Rule(NamedTuple):
    keyword: str
    v10: str  # "§3.1.3", A2A 1.0
    v03: str  # "§7.3", A2A 0.3 ("" when 0.3 has no such rule)
    tck: str  # "CORE-GET-002" (a2a-tck 1.0-dev), "" when none matches
    what: str  # the rule in a few words (the compliance report's line)
    v03_keyword: str = ""  # the keyword under 0.3 when it differs (0.3 names the error, without a MUST)


RULES: dict[str, Rule] = {
    # response data model
    "data-model": Rule(
        MUST,
        "§4.1, §5.5, §5.6.1",
        "§6.1-§6.7, §7.2",
        "DM-TASK-001 DM-TASK-002 DM-MSG-001 DM-MSG-002 DM-PART-001 DM-ART-001 DM-STATUS-001 DM-SERIAL-002 DM-SERIAL-003",
        "every Task, Message, Part, Artifact and update event answered: required fields, enum spellings, UTC timestamps",
    ),
    # operation semantics
    "send-unknown-task": Rule(
        MUST,
        "§3.4.2",
        "§7.1, §8.2",
        "CORE-MULTI-004",
        "a message naming an unknown taskId is TaskNotFoundError",
        v03_keyword=SHOULD,
    ),
    "blocking": Rule(
        MUST,
        "§3.2.2",
        "",
        "CORE-EXECUTION-MODE-001",
        "a blocking SendMessage answers in a terminal or interrupted state",
    ),
    "get-task": Rule(MUST, "§3.1.3", "§7.3", "CORE-GET-001", "GetTask of the task just made returns it"),
    "history-length": Rule(
        MUST,
        "§3.2.4",
        "§7.3.1",
        "CORE-HIST-001 CORE-HIST-002",
        "historyLength caps the history; 0 omits it",
        v03_keyword=SHOULD,
    ),
    "continue-terminal": Rule(
        MUST,
        "§3.1.1",
        "§7.1",
        "CORE-SEND-002",
        "a message to a task in a terminal state is refused",
        v03_keyword=SHOULD,
    ),
    "cancel-terminal": Rule(
        MUST,
        "§3.1.5",
        "§7.4",
        "CORE-CANCEL-002",
        "cancelling a terminal task is TaskNotCancelableError",
        v03_keyword=SHOULD,
    ),
    "cancel": Rule(
        MUST,
        "§3.1.5",
        "§7.4",
        "CORE-CANCEL-001",
        "cancelling a task in progress returns it canceled",
        v03_keyword=SHOULD,
    ),
    "cancel-unknown": Rule(
        MUST, "§3.1.5", "§7.4", "CORE-CANCEL-003", "cancelling an unknown task is TaskNotFoundError", v03_keyword=SHOULD
    ),
    "list-tasks-last-page": Rule(
        MUST, "§3.1.4", "", "CORE-LIST-004", "ListTasks' last page carries nextPageToken as an empty string"
    ),
    "list-tasks-artifacts": Rule(
        MUST, "§3.1.4", "", "CORE-LIST-005", "ListTasks without includeArtifacts omits every task's artifacts"
    ),
    "list-tasks-filter": Rule(
        MUST, "§3.1.4", "", "CORE-LIST-003", "ListTasks by contextId returns that context's tasks, newest first"
    ),
    # input validation
    "message-no-role": Rule(
        MUST, "§3.3.2", "§10.2", "CORE-ERR-002", "a message without a role is refused with InvalidParamsError"
    ),
    "message-empty-parts": Rule(
        MUST, "§3.3.2", "§10.2", "CORE-ERR-002", "a message with no parts is refused with InvalidParamsError"
    ),
    # streaming
    "stream-order": Rule(
        MUST,
        "§3.1.2",
        "§7.2",
        "CORE-STREAM-002 CORE-STREAM-003 STREAM-ORDER-001",
        "a stream begins with its Task (or is one Message) and ends at a terminal state",
    ),
    "subscribe-unknown": Rule(
        MUST,
        "§3.1.6",
        "§7.9",
        "STREAM-SUB-004",
        "subscribing to an unknown task is TaskNotFoundError",
        v03_keyword=SHOULD,
    ),
    "subscribe-terminal": Rule(
        MUST,
        "§3.1.6",
        "§7.9",
        "STREAM-SUB-003",
        "subscribing to a terminal task is refused (UnsupportedOperationError)",
        v03_keyword=SHOULD,
    ),
    # capabilities the card does not claim (read-only: each asks about an unknown task)
    "unclaimed-streaming": Rule(
        MUST,
        "§3.3.4",
        "§8.2",
        "CORE-CAP-002",
        "streaming not claimed: SubscribeToTask is UnsupportedOperationError",
        v03_keyword=SHOULD,
    ),
    "unclaimed-push": Rule(
        MUST,
        "§3.3.4",
        "§8.2",
        "CORE-CAP-001",
        "push notifications not claimed: a push-config call is PushNotificationNotSupportedError",
        v03_keyword=SHOULD,
    ),
    "unclaimed-extended-card": Rule(
        MUST,
        "§3.3.4",
        "",
        "CORE-CAP-003",
        "extended card not claimed: GetExtendedAgentCard is UnsupportedOperationError",
    ),
    # push-notification configs
    "push-get-by-task": Rule(
        SHOULD, "", "§7.6", "", "0.3: GetTaskPushNotificationConfig with only the task id returns its config"
    ),
    "push-delete-result": Rule(MUST, "", "§7.8", "", "0.3: the JSON-RPC result of a delete is null"),
    "push-get-deleted": Rule(
        MUST, "§3.1.10", "§7.8", "PUSH-DEL-001 PUSH-GET-002", "a deleted config is gone: Get fails"
    ),
    # per-binding errors
    "error-status": Rule(
        MUST,
        "§5.4",
        "§3.2.2, §3.2.3",
        "HTTP_JSON-STATUS-001 GRPC-ERR-002",
        "each A2A error as its HTTP status (HTTP+JSON) or gRPC status: TaskNotFoundError 404, NOT_FOUND…",
    ),
    "error-info": Rule(
        MUST,
        "§9.5, §10.6, §11.6",
        "",
        "JSONRPC-ERR-003 HTTP_JSON-ERR-001 HTTP_JSON-ERR-002 GRPC-ERR-001",
        "an A2A error carries google.rpc.ErrorInfo (reason, domain a2a-protocol.org; SHOULD over JSON-RPC); HTTP+JSON in google.rpc.Status form",
    ),
    # card caching
    "card.cache-control": Rule(
        SHOULD, "§8.6.1", "", "CARD-CACHE-001", "the card is served with Cache-Control and a max-age"
    ),
    "card.etag": Rule(SHOULD, "§8.6.1", "", "CARD-CACHE-002", "the card is served with an ETag"),
    "card.last-modified": Rule(MAY, "§8.6.1", "", "CARD-CACHE-003", "the card may be served with Last-Modified"),
}


# A2A 1.0.1 §5.4: each A2A error's HTTP status (HTTP+JSON) and gRPC status. (The TCK's 1.0-dev
# copy of the spec still has 409, 415, 502 and UNIMPLEMENTED in places; the released table rules.)
ERROR_STATUS: dict[int, tuple[int, str]] = {
    -32001: (404, "NOT_FOUND"),
    -32002: (400, "FAILED_PRECONDITION"),
    -32003: (400, "FAILED_PRECONDITION"),
    -32004: (400, "FAILED_PRECONDITION"),
    -32005: (400, "INVALID_ARGUMENT"),
    -32006: (500, "INTERNAL"),
    -32007: (400, "FAILED_PRECONDITION"),
    -32008: (400, "FAILED_PRECONDITION"),
    -32009: (400, "FAILED_PRECONDITION"),
}


def keyword(name: str, wire: Wire | None = None) -> str:
    rule = RULES[name]
    return rule.v03_keyword or rule.keyword if wire is Wire.V0 else rule.keyword


def cite(name: str, wire: Wire | None = None) -> str:
    """Where rule `name` is written, for the interface's version: `A2A 1.0 §3.1.3 (MUST); TCK
    CORE-GET-002`. 0.3 interfaces cite 0.3 where it has the rule, else 1.0."""
    rule = RULES[name]
    if wire is Wire.V0 and rule.v03:
        where = f"A2A 0.3 {rule.v03}"
    else:
        where = f"A2A 1.0 {rule.v10}" if rule.v10 else f"A2A 0.3 {rule.v03}"
    return f"{where} ({keyword(name, wire)})" + (f"; TCK {rule.tck}" if rule.tck else "")
