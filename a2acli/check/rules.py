"""The rules `a2a check` holds an agent to, one row per check: its RFC 2119 keyword (a MUST
broken is a failure, a SHOULD broken a warning, a MAY only informs), where the A2A specification
says it (1.0 and 0.3 sections; empty when that version has no such rule), and the official A2A
TCK's requirement ids (1.0-dev) and tests (0.3.x) where one matches. Every result is made from its
row (check.checks.finding), so its grade follows the row's level and cannot be chosen elsewhere;
docs/compliance-report.yaml (CONFORM_001) and docs/compliance.md §5b list them. Pure."""

from __future__ import annotations

from typing import NamedTuple

from a2acli.wire import Wire

MUST, SHOULD, MAY = "MUST", "SHOULD", "MAY"


LEVELS = (MUST, SHOULD, MAY)


class Rule(NamedTuple):
    keyword: str
    v10: str  # "§3.1.3", A2A 1.0 ("" when 1.0 has no such rule)
    v03: str  # "§7.3", A2A 0.3 ("" when 0.3 has no such rule)
    tck: str  # "CORE-GET-002" (a2a-tck 1.0-dev), "" when none matches
    what: str  # the rule in a few words (the check's title, the compliance report's line)
    v03_keyword: str = ""  # the keyword under 0.3 when it differs (0.3 names the error, without a MUST)
    tck03: str = ""  # the a2a-tck 0.3.x tests that probe the same (test function names; that branch has no ids)
    where: str = ""  # the text the rule rests on when it is not A2A's own: "JSON-RPC 2.0 §5"


RULES: dict[str, Rule] = {
    # the card (group "card")
    "card.fetch": Rule(
        MUST,
        "§8.1, §8.2",
        "§5.1, §5.3",
        "CARD-DISC-001",
        "Agent Card found",
        tck03="test_agent_card_available",
    ),
    "card.content-type": Rule(SHOULD, "§8.2, §11.1", "§5.3", "", "Content-Type"),
    "card.valid": Rule(
        MUST,
        "§4.4.1, §8.3",
        "§5.5",
        "CARD-STRUCT-001 CARD-PROTO-001 CARD-PROTO-002 BIND-FIELD-001",
        "card valid",
        tck03="test_agent_card_mandatory_fields test_mandatory_fields_present test_mandatory_field_types",
    ),
    "card.schema": Rule(MUST, "§4.4.1, §8.3", "§5.5", "", "card valid as an A2A Agent Card"),
    "card.signature": Rule(
        MUST,
        "§8.4",
        "",
        "CARD-SIGN-001 CARD-SIGN-002 CARD-SIGN-003 CARD-SIGN-004",
        "card signature (verified when the card is signed)",
    ),
    "card.path.agent-card.json": Rule(
        SHOULD, "§8.2", "§5.3", "", "GET /.well-known/agent-card.json (the well-known location of 0.3 and 1.0)"
    ),
    "card.path.agent.json": Rule(SHOULD, "", "§5.3", "", "GET /.well-known/agent.json (the location of 0.2 and older)"),
    "interface": Rule(MUST, "§8.3.1", "§5.5.5", "", "interface"),
    "interfaces": Rule(MUST, "§8.3", "§5.5", "CARD-PROTO-001", "an interface a2a speaks"),
    # every interface (group: the interface)
    "reachable": Rule(
        MUST,
        "§3, §8.3.1",
        "§3",
        "HTTP_JSON-URL-001 HTTP_JSON-URL-002 GRPC-SVC-001 GRPC-SVC-002 JSONRPC-FMT-001 BIND-EQUIV-001",
        "reachable, answers A2A",
    ),
    "probe": Rule(MUST, "§3", "§3", "", "probe"),
    "task-not-found": Rule(
        MUST,
        "§3.1.3",
        "§7.3, §8.2",
        "CORE-GET-002 CORE-ERR-001 JSONRPC-ERR-001 JSONRPC-ERR-002 JSONRPC-SSE-002 BIND-EQUIV-003",
        "GetTask of an unknown id",
        v03_keyword=SHOULD,
        tck03="test_tasks_get_nonexistent test_nonexistent_resource_error_validation",
    ),
    "version-unsupported": Rule(
        MUST,
        "§3.6.2",
        "",
        "VER-SERVER-002 HTTP_JSON-SVC-002 GRPC-META-001 JSONRPC-SVC-002",
        "A2A-Version: 99.0 refused",
    ),
    "version-missing": Rule(MUST, "§3.6.2", "", "VER-SERVER-003", "no A2A-Version header read as 0.3"),
    "method-not-found": Rule(
        MUST,
        "§9.5",
        "§8.1",
        "JSONRPC-SVC-001 JSONRPC-ERR-001",
        "unknown method",
        tck03="test_rejects_unknown_method test_invalid_method_error_validation",
        where="JSON-RPC 2.0 §5.1",
    ),
    "invalid-params": Rule(
        MUST,
        "§3.3.2, §9.5",
        "§8.1",
        "CORE-ERR-002",
        "malformed params",
        tck03="test_rejects_invalid_params test_invalid_params_error_validation",
        where="JSON-RPC 2.0 §5.1",
    ),
    "jsonrpc-version": Rule(
        MUST,
        "§9.1",
        "§6.11",
        "JSONRPC-FMT-001",
        'a request with "jsonrpc": "1.0" is refused with InvalidRequestError',
        tck03="test_invalid_jsonrpc_version test_rejects_invalid_json_rpc_requests",
        where="JSON-RPC 2.0 §4, §5.1",
    ),
    "no-method": Rule(
        MUST,
        "§9.1",
        "§6.11",
        "JSONRPC-FMT-001",
        "a request without `method` is refused with InvalidRequestError, not executed",
        tck03="test_missing_method_field test_rejects_invalid_json_rpc_requests",
        where="JSON-RPC 2.0 §4, §5.1",
    ),
    "error-id": Rule(
        MUST,
        "§9.5",
        "§6.11",
        "JSONRPC-ERR-001",
        "an error reply carries the request's id (null only when the id could not be read)",
        tck03="test_invalid_jsonrpc_version test_missing_method_field test_rejects_unknown_method",
        where="JSON-RPC 2.0 §5",
    ),
    "message-send": Rule(
        MUST,
        "§3.1.1, §5.5",
        "§7.1",
        "CORE-SEND-001 VER-SERVER-001 BIND-EQUIV-002",
        "message round trip",
        tck03="test_message_send_valid_text",
    ),
    "streaming": Rule(
        MUST,
        "§3.1.2, §9.4.2, §10.7, §11.7",
        "§7.2",
        "CORE-STREAM-001 JSONRPC-SSE-001 HTTP_JSON-SSE-001 GRPC-ERR-003",
        "streaming as the card claims",
        tck03="test_message_stream_basic test_sse_header_compliance test_sse_event_format_compliance",
    ),
    "push-config": Rule(
        MUST,
        "§3.1.7-§3.1.10",
        "§7.5-§7.8",
        "PUSH-CREATE-001 PUSH-GET-001 PUSH-LIST-001 PUSH-DEL-001",
        "push-notification configs as the card claims",
        tck03="test_set_push_notification_config test_get_push_notification_config test_list_push_notification_config test_delete_push_notification_config",
    ),
    "push-delivery": Rule(
        MUST,
        "§4.3.3",
        "§9.5",
        "PUSH-DELIVER-001 PUSH-DELIVER-002 PUSH-DELIVER-003",
        "push notification delivered to a local receiver",
    ),
    "extended-card": Rule(
        MUST,
        "§3.1.11",
        "§7.10",
        "CARD-EXT-001",
        "extended card: refused without credentials, answered with them",
        tck03="test_extended_agent_card_authentication_required",
    ),
    "list-tasks": Rule(
        MUST, "§3.1.4", "", "CORE-LIST-002 HTTP_JSON-QP-001", "ListTasks honours pageSize and pageToken"
    ),
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
    "get-task": Rule(
        MUST, "§3.1.3", "§7.3", "CORE-GET-001", "GetTask of the task just made returns it", tck03="test_tasks_get_valid"
    ),
    "history-length": Rule(
        MUST,
        "§3.2.4",
        "§7.3.1",
        "CORE-HIST-001 CORE-HIST-002",
        "historyLength caps the history; 0 omits it",
        v03_keyword=SHOULD,
        tck03="test_tasks_get_with_history_length test_task_history_length",
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
        tck03="test_tasks_cancel_valid",
    ),
    "cancel-unknown": Rule(
        MUST,
        "§3.1.5",
        "§7.4",
        "CORE-CANCEL-003",
        "cancelling an unknown task is TaskNotFoundError",
        v03_keyword=SHOULD,
        tck03="test_tasks_cancel_nonexistent",
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
        MUST,
        "§3.3.2",
        "§10.2",
        "CORE-ERR-002",
        "a message without a role is refused with InvalidParamsError",
        tck03="test_message_send_invalid_params",
    ),
    "message-empty-parts": Rule(
        MUST,
        "§3.3.2",
        "§10.2",
        "CORE-ERR-002",
        "a message with no parts is refused with InvalidParamsError",
        tck03="test_message_send_invalid_params",
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
        tck03="test_tasks_resubscribe_nonexistent",
    ),
    "subscribe-unknown-post": Rule(
        MUST,
        "§3.1.6, §11.3.2",
        "§7.9, §3.5.3",
        "STREAM-SUB-004",
        "POST …/tasks/{id}:subscribe (the spec text's verb; the proto's is GET) to an unknown task is TaskNotFoundError",
        v03_keyword=SHOULD,
    ),
    "subscribe-terminal": Rule(
        MUST,
        "§3.1.6",
        "",  # 0.3 §7.9 says only that a subscription may fail when the task is no longer active
        "STREAM-SUB-003",
        "subscribing to a terminal task is refused (UnsupportedOperationError)",
        v03_keyword=MAY,
    ),
    # capabilities the card does not claim (read-only: each asks about an unknown task)
    "unclaimed-streaming": Rule(
        MUST,
        "§3.3.4",
        "§8.2",
        "CORE-CAP-002",
        "streaming not claimed: SubscribeToTask is UnsupportedOperationError",
        v03_keyword=SHOULD,
        tck03="test_unsupported_operation_error_32004",
    ),
    "unclaimed-push": Rule(
        MUST,
        "§3.3.4",
        "§8.2",
        "CORE-CAP-001",
        "push notifications not claimed: a push-config call is PushNotificationNotSupportedError",
        v03_keyword=SHOULD,
        tck03="test_push_notification_not_supported_error_32003",
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
    "push-delete-result": Rule(
        MUST,
        "",
        "§7.8",
        "",
        "0.3: a delete answers with a `result` member, null",
        tck03="test_delete_push_notification_config",
        where="JSON-RPC 2.0 §5",
    ),
    "push-get-deleted": Rule(
        MUST,
        "§3.1.10",
        "§7.8",
        "PUSH-DEL-001 PUSH-GET-002",
        "a deleted config is gone: Get fails",
        tck03="test_get_push_notification_config_nonexistent",
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
        "§10.6, §11.6",
        "",
        "HTTP_JSON-ERR-001 HTTP_JSON-ERR-002 GRPC-ERR-001",
        "an A2A error carries google.rpc.ErrorInfo (reason, domain a2a-protocol.org; SHOULD over JSON-RPC); HTTP+JSON in google.rpc.Status form",
    ),
    "error-info.jsonrpc": Rule(  # the check error-info over JSON-RPC, where its level is SHOULD
        SHOULD,
        "§9.5",
        "",
        "JSONRPC-ERR-003",
        "an A2A error carries google.rpc.ErrorInfo in error.data (SHOULD over JSON-RPC)",
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
    """The level of rule `name` on an interface of `wire` (0.3's own where it differs)."""
    rule = RULES[name]
    return rule.v03_keyword or rule.keyword if wire is Wire.V0 else rule.keyword


def cite(name: str, wire: Wire | None = None, level: str = "") -> str:
    """Where rule `name` is written, for the interface's version, with the level of the finding
    (`level`; the rule's own by default): `A2A 1.0 §3.1.3 (MUST); TCK CORE-GET-002`. 0.3
    interfaces cite 0.3 where it has the rule, else 1.0, saying that 0.3 has none."""
    rule = RULES[name]
    level = level or keyword(name, wire)
    if wire is Wire.V0 and rule.v03:
        where = f"A2A 0.3 {rule.v03} ({level})"
    elif wire is Wire.V0 and rule.v10 and level != rule.keyword:
        where = f"A2A 1.0 {rule.v10} ({level}: 0.3 has no such rule; {rule.keyword} in 1.0)"
    elif rule.v10:
        where = f"A2A 1.0 {rule.v10} ({level})"
    else:
        where = f"A2A 0.3 {rule.v03} ({level})"
    return where + (f"; {rule.where}" if rule.where else "") + (f"; TCK {rule.tck}" if rule.tck else "")
