"""The deeper steps of an interface's probe, each a row of check.rules (its keyword, its sections
in A2A 1.0 and 0.3, the TCK's ids): input validation, a message naming an unknown task, blocking,
GetTask and historyLength, a message to and a cancel of a finished task, subscribing to an unknown
or a finished task, the stream's order, ListTasks' last page, artifacts and filter, the per-binding
error form, and the data model of every answer (check.datamodel).

A rule that depends on what the agent does (a terminal task, a history to cut) is judged only when
the answer shows the case; otherwise it is skipped with the reason. Steps that may create state
(a message that should be refused, a cancel) are skipped under --read-only."""

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
    WARN,
    _call,
    _code_name,
    broken,
)
from a2acli.check.probe_features import FeatureSteps
from a2acli.check.rules import ERROR_STATUS, RULES, cite
from a2acli.errors import A2acliError, TimeoutExpired, UnreachableError
from a2acli.wire import Wire
from a2acli.wire.methods import METHODS
from a2acli.wire.translate.enums import INTERRUPTED_STATES, TERMINAL_STATES
from a2acli.wire.translate.errors import ERROR_DOMAIN, error_name, error_reason

TASK_NOT_CANCELABLE, PUSH_NOT_SUPPORTED, UNSUPPORTED_OPERATION, INTERNAL_ERROR = -32002, -32003, -32004, -32603


def _message(text: str, **extra: Any) -> dict[str, Any]:
    return {"messageId": str(uuid.uuid4()), "role": "ROLE_USER", "parts": [{"text": text}], **extra}


class SemanticSteps(FeatureSteps):
    """The rule steps of one interface's probe (what the specification says, checked)."""

    def expect_rule(
        self, call: Any, name: str, run: Any, want: tuple[int, ...], also: tuple[int, ...] = ()
    ) -> A2acliError | None:
        err = self.expect_error(call, name, RULES[name].what, cite(name, self.itf.wire), run, want, also)
        last, status = self.checks[-1], broken(name, self.itf.wire)
        if last.status == FAIL and status != FAIL:  # a rule 0.3 states without a MUST
            self.checks[-1] = last._replace(status=status)
        return err

    def _created(self, name: str) -> bool:
        """Skipped under --read-only (a step whose request would create a task on a deviating agent)."""
        if self.read_only:
            self.rule(name, SKIP, "--read-only (a deviating agent would create a task)")
        return self.read_only

    # -- input validation ---------------------------------------------------------------------------

    def _input_validation(self, call: Any) -> None:
        cases = (
            ("message-no-role", {"messageId": str(uuid.uuid4()), "parts": [{"text": "a2a check: no role"}]}),
            ("message-empty-parts", {"messageId": str(uuid.uuid4()), "role": "ROLE_USER", "parts": []}),
        )
        for name, message in cases:
            if not self._created(name):
                self.expect_rule(
                    call,
                    name,
                    lambda m=message: self._invoke(call, "SendMessage", {"message": m}),
                    (INVALID_PARAMS,),
                    also=(INVALID_REQUEST,),
                )

    # -- operation semantics -------------------------------------------------------------------------

    def _unknown_task_message(self, call: Any) -> None:
        if self._created("send-unknown-task"):
            return
        message = _message("a2a check: unknown task", taskId=f"a2acli-check-{uuid.uuid4()}")
        self.expect_rule(
            call,
            "send-unknown-task",
            lambda: call.unary(METHODS["SendMessage"], {"message": message}),
            (TASK_NOT_FOUND,),
        )

    def _blocking(self) -> None:
        """The round trip is a blocking send (1.0's default): its task is terminal or interrupted."""
        if self.itf.wire is Wire.V0:
            self.rule("blocking", SKIP, "0.3 leaves the default (blocking or not) to the agent")
            return
        if self.task is None:
            self.rule("blocking", SKIP, "the round trip made no task (a Message answers at once)")
            return
        state = (self.task.get("status") or {}).get("state")
        if state in TERMINAL_STATES or state in INTERRUPTED_STATES:
            self.rule("blocking", PASS, f"answered in {state}")
        else:
            self.rule("blocking", broken("blocking", self.itf.wire), f"answered in {state} before the task finished")

    def _get_task(self, call: Any) -> None:
        if self.task is None:
            for name in ("get-task", "history-length"):
                self.rule(name, SKIP, "--read-only" if self.read_only else "the round trip made no task")
            return
        task_id = str(self.task.get("id"))
        try:
            full = call.unary(METHODS["GetTask"], {"id": task_id})
            self.saw()
            self.inspect(full.result, "GetTask")
            history = (full.core or {}).get("history") if isinstance(full.core, dict) else None
            long = isinstance(history, list) and len(history) > 1  # else there is nothing to cut to 1
            cut = call.unary(METHODS["GetTask"], {"id": task_id, "historyLength": 1}) if long else full
            none = (
                call.unary(METHODS["GetTask"], {"id": task_id, "historyLength": 0})
                if self.itf.wire is Wire.V1
                else full
            )
        except (UnreachableError, TimeoutExpired):
            raise
        except A2acliError as e:
            self.saw(e)
            self.rule(
                "get-task", broken("get-task", self.itf.wire), f"GetTask of {task_id}: {_code_name(e)}", call.ids.take()
            )
            self.rule("history-length", SKIP, "GetTask failed")
            return
        ids = call.ids.take()
        got = (full.core or {}).get("id") if isinstance(full.core, dict) else None
        if got == task_id:
            self.rule("get-task", PASS, f"task {task_id}", ids)
        else:
            self.rule("get-task", broken("get-task", self.itf.wire), f"asked for {task_id}, got {got!r}", ids)
        self._history(full.core, cut.core, none.core, ids)

    def _history(self, full: Any, cut: Any, none: Any, ids: tuple[str, ...]) -> None:
        def history(t: Any) -> list[Any]:
            h = t.get("history") if isinstance(t, dict) else None
            return h if isinstance(h, list) else []

        if len(history(cut)) > 1:
            self.rule(
                "history-length",
                broken("history-length", self.itf.wire),
                f"historyLength 1 gave {len(history(cut))} messages",
                ids,
            )
        elif history(none) and self.itf.wire is Wire.V1:  # 0.3 says nothing of 0
            self.rule(
                "history-length", WARN, f"historyLength 0 gave {len(history(none))} message(s) (SHOULD omit)", ids
            )
        elif len(history(full)) < 2:
            self.rule("history-length", SKIP, f"the task's history has {len(history(full))} message(s): nothing to cut")
        else:
            self.rule(
                "history-length",
                PASS,
                f"{len(history(full))} messages cut to {len(history(cut))}"
                + ("; 0 gave none" if self.itf.wire is Wire.V1 else ""),
                ids,
            )

    def _terminal(self) -> str | None:
        """The round trip's task id when the answer shows it in a terminal state."""
        if self.task is None:
            return None
        state = (self.task.get("status") or {}).get("state")
        return str(self.task.get("id")) if state in TERMINAL_STATES else None

    def _not_terminal(self, name: str) -> bool:
        if self._terminal() is not None:
            return False
        why = "--read-only" if self.read_only else "the round trip made no task"
        if self.task is not None:
            why = f"the round trip's task is {(self.task.get('status') or {}).get('state')}, not terminal: the case does not arise"
        self.rule(name, SKIP, why)
        return True

    def _continue_terminal(self, call: Any) -> None:
        if self._not_terminal("continue-terminal"):
            return
        task = self.task or {}
        message = _message("a2a check: to a finished task", taskId=task.get("id"), contextId=task.get("contextId"))
        self.expect_rule(
            call,
            "continue-terminal",
            lambda: call.unary(METHODS["SendMessage"], {"message": message}),
            (UNSUPPORTED_OPERATION,),
            also=(INVALID_PARAMS, INVALID_REQUEST, TASK_NOT_CANCELABLE),
        )

    def _cancel(self, call: Any) -> None:
        unknown = f"a2acli-check-{uuid.uuid4()}"
        self.expect_rule(
            call, "cancel-unknown", lambda: call.unary(METHODS["CancelTask"], {"id": unknown}), (TASK_NOT_FOUND,)
        )
        terminal = self._terminal()
        if terminal is not None:
            self.expect_rule(
                call,
                "cancel-terminal",
                lambda: call.unary(METHODS["CancelTask"], {"id": terminal}),
                (TASK_NOT_CANCELABLE,),
            )
            return
        self._not_terminal("cancel-terminal")
        if self.task is not None:  # still running or waiting: cancel it (the probe's cleanup), as the rule says
            self._cancel_running(call, str(self.task.get("id")))

    def _cancel_running(self, call: Any, task_id: str) -> None:
        try:
            reply = call.unary(METHODS["CancelTask"], {"id": task_id})
        except (UnreachableError, TimeoutExpired):
            raise
        except A2acliError as e:
            self.saw(e)
            status = WARN if e.a2a_code == TASK_NOT_CANCELABLE else broken("cancel", self.itf.wire)
            self.rule("cancel", status, f"CancelTask of {task_id}: {_code_name(e)}", call.ids.take())
            return
        self.saw()
        self.inspect(reply.result, "CancelTask")
        state = ((reply.core or {}).get("status") or {}).get("state") if isinstance(reply.core, dict) else None
        ids = call.ids.take()
        if state == "TASK_STATE_CANCELED":
            self.rule("cancel", PASS, f"the task is now {state}", ids)
        elif state in TERMINAL_STATES:  # it may have ended first: success "is not guaranteed" (§3.1.5)
            self.rule("cancel", SKIP, f"the task ended ({state}) before the cancel could tell", ids)
        else:
            self.rule("cancel", broken("cancel", self.itf.wire), f"the task is still {state}", ids)

    # -- streaming ---------------------------------------------------------------------------------------

    def _streams(self, call: Any) -> None:
        kinds: list[str] = []
        ended = self._streaming(call, kinds)
        self._stream_order(kinds, ended)

    def _stream_order(self, kinds: list[str], ended: bool) -> None:
        """The events of the streaming round trip (their kinds, in order): a Task first then updates,
        or exactly one Message (A2A 1.0 §3.1.2)."""
        if not kinds:
            self.rule("stream-order", SKIP, "no stream to read (not claimed, --read-only, or it failed)")
            return
        if kinds[0] == "message":
            status = PASS if len(kinds) == 1 else broken("stream-order", self.itf.wire)
            self.rule(
                "stream-order",
                status,
                "one Message" if len(kinds) == 1 else f"a Message, then {len(kinds) - 1} more event(s)",
            )
            return
        if kinds[0] != "task" and self.itf.wire is Wire.V1:
            self.rule(
                "stream-order", broken("stream-order", self.itf.wire), f"the first event is a {kinds[0]}, not the Task"
            )
            return
        if "message" in kinds[1:] or "task" in kinds[1:] and self.itf.wire is Wire.V1:
            self.rule(
                "stream-order", broken("stream-order", self.itf.wire), f"events after the Task: {', '.join(kinds[1:])}"
            )
            return
        self.rule(
            "stream-order",
            PASS if ended else broken("stream-order", self.itf.wire),
            f"{kinds[0]} first, {len(kinds)} event(s)" + ("" if ended else ", closed before a terminal state"),
        )

    def _subscribe(self, call: Any) -> None:
        if not self.caps.get("streaming"):
            for name in ("subscribe-unknown", "subscribe-terminal"):
                self.rule(name, SKIP, "the card does not claim streaming")
            return
        unknown = f"a2acli-check-{uuid.uuid4()}"
        err = self.expect_rule(call, "subscribe-unknown", lambda: self._drain(call, unknown), (TASK_NOT_FOUND,))
        ex = call.ids.last
        if err is not None and err.a2a_code is not None and ex is not None and ex.content_type == "text/event-stream":
            last = self.checks[-1]  # the SSE error envelope: an A2A error as the stream's event
            self.checks[-1] = last._replace(detail=f"{last.detail} (as an error event in the SSE stream)")
        terminal = self._terminal()
        if terminal is None:
            self._not_terminal("subscribe-terminal")
            return
        self.expect_rule(
            call,
            "subscribe-terminal",
            lambda: self._drain(call, terminal),
            (UNSUPPORTED_OPERATION,),
            also=(INVALID_PARAMS, INVALID_REQUEST, TASK_NOT_FOUND),
        )

    def _drain(self, call: Any, task_id: str) -> int:
        """A subscription that should be refused: its first event, if any, is the answer (the
        stream is closed there, so an agent that holds it open does not hold the check)."""
        for reply in call.stream(METHODS["SubscribeToTask"], {"id": task_id}):
            self.inspect(reply.result, "SubscribeToTask")
            return 1
        return 0

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
                self.expect_rule(call, name, run, (code,), also=(TASK_NOT_FOUND, METHOD_NOT_FOUND))

    # -- push-notification configs -------------------------------------------------------------------

    def _push_rules(self, call: Any, task_id: str | None) -> None:
        """What each push-config call returns: a config made, read by task id alone (0.3), deleted
        (0.3 JSON-RPC: result null), and gone after. Creates one config and deletes it."""
        names = ("push-get-by-task", "push-delete-result", "push-get-deleted")
        why = ""
        if not self.caps.get("pushNotifications"):
            why = "the card does not claim push notifications"
        elif self.read_only or not task_id:
            why = "--read-only (creates a push config)" if self.read_only else "the round trip made no task"
        if why or not task_id:
            for name in names:
                self.rule(name, SKIP, why)
            return
        config_id = f"a2acli-check-{uuid.uuid4().hex[:8]}"
        made = {"taskId": task_id, "id": config_id, "url": "http://127.0.0.1:9/a2a-check"}
        try:
            call.unary(METHODS["CreateTaskPushNotificationConfig"], made)
        except (UnreachableError, TimeoutExpired):
            raise
        except A2acliError as e:
            self.saw(e)
            for name in names:
                self.rule(name, SKIP, f"CreateTaskPushNotificationConfig failed ({_code_name(e)}): see push-config")
            return
        self._get_by_task(call, task_id)
        self._delete_config(call, task_id, config_id)

    def _get_by_task(self, call: Any, task_id: str) -> None:
        if self.itf.wire is not Wire.V0 or not self.itf.info.envelope:
            self.rule("push-get-by-task", SKIP, "only 0.3 JSON-RPC reads a config by the task id alone")
            return
        try:
            reply = self._invoke(call, "tasks/pushNotificationConfig/get", {"id": task_id})
        except (UnreachableError, TimeoutExpired):
            raise
        except A2acliError as e:
            self.saw(e)
            self.rule("push-get-by-task", broken("push-get-by-task", self.itf.wire), _code_name(e), call.ids.take())
            return
        result = reply[0].result if reply else None
        got = isinstance(result, dict) and result.get("taskId") == task_id
        status = PASS if got else broken("push-get-by-task", self.itf.wire)
        self.rule(
            "push-get-by-task",
            status,
            "the task's config" if got else f"not a config of the task: {result!r}"[:200],
            call.ids.take(),
        )

    def _delete_config(self, call: Any, task_id: str, config_id: str) -> None:
        ids = {"taskId": task_id, "id": config_id}
        try:
            deleted = call.unary(METHODS["DeleteTaskPushNotificationConfig"], ids)
        except (UnreachableError, TimeoutExpired):
            raise
        except A2acliError as e:
            self.saw(e)
            for name in ("push-delete-result", "push-get-deleted"):
                self.rule(name, SKIP, f"DeleteTaskPushNotificationConfig failed ({_code_name(e)}): see push-config")
            return
        if self.itf.wire is Wire.V0 and self.itf.info.envelope:
            null = deleted.result is None
            status = PASS if null else broken("push-delete-result", self.itf.wire)
            self.rule(
                "push-delete-result", status, "null" if null else f"{deleted.raw[:80]!r}, not null", call.ids.take()
            )
        else:
            self.rule("push-delete-result", SKIP, "only 0.3 JSON-RPC defines the delete's result (null)")
        self.expect_error(
            call,
            "push-get-deleted",
            RULES["push-get-deleted"].what,
            cite("push-get-deleted", self.itf.wire),
            lambda: call.unary(METHODS["GetTaskPushNotificationConfig"], ids),
            (TASK_NOT_FOUND, INVALID_PARAMS),
            also=(INTERNAL_ERROR, INVALID_REQUEST),  # a refusal, in the wrong words
        )

    # -- ListTasks ------------------------------------------------------------------------------------

    def _list_rules(self, call: Any) -> None:
        names = ("list-tasks-last-page", "list-tasks-artifacts", "list-tasks-filter")
        if self.itf.wire is Wire.V0:
            for name in names:
                self.rule(name, SKIP, "0.3 has no ListTasks")
            return
        context = (self.task or {}).get("contextId")
        try:
            page = call.unary(METHODS["ListTasks"], {"pageSize": 100})
            self.saw()
            mine = call.unary(METHODS["ListTasks"], {"contextId": context}) if context else None
        except (UnreachableError, TimeoutExpired):
            raise
        except A2acliError as e:  # the list-tasks check has failed on it already
            self.saw(e)
            for name in names:
                self.rule(name, SKIP, f"ListTasks failed ({_code_name(e)}): see list-tasks", call.ids.take())
            return
        ids = call.ids.take()
        self.inspect(page.result, "ListTasks")
        self._last_page(page.result, ids)
        self._no_artifacts(page.result, ids)
        self._filtered(mine, str(context or ""), ids)

    def _last_page(self, result: Any, ids: tuple[str, ...]) -> None:
        if not isinstance(result, dict):
            self.rule("list-tasks-last-page", FAIL, "the answer is not an object", ids)
            return
        token = result.get("nextPageToken")
        if token:
            self.rule("list-tasks-last-page", SKIP, "more than 100 tasks: the last page was not read", ids)
        elif self.itf.info.carrier_grpc:  # proto3: an empty string is not sent, and cannot be told from none
            self.rule("list-tasks-last-page", PASS, 'no next page (gRPC carries "" as the default)', ids)
        elif token == "":
            self.rule("list-tasks-last-page", PASS, 'nextPageToken ""', ids)
        else:
            self.rule(
                "list-tasks-last-page",
                broken("list-tasks-last-page", self.itf.wire),
                'the last page has no nextPageToken field (it must be "")',
                ids,
            )

    def _no_artifacts(self, result: Any, ids: tuple[str, ...]) -> None:
        tasks = result.get("tasks") if isinstance(result, dict) else None
        tasks = [t for t in tasks if isinstance(t, dict)] if isinstance(tasks, list) else []
        if not tasks:
            self.rule("list-tasks-artifacts", SKIP, "ListTasks gave no task", ids)
            return
        carry = [str(t.get("id")) for t in tasks if "artifacts" in t]
        if carry:
            detail = (
                f"{len(carry)} of {len(tasks)} task(s) carry artifacts without includeArtifacts (first: {carry[0]})"
            )
            self.rule("list-tasks-artifacts", broken("list-tasks-artifacts", self.itf.wire), detail, ids)
        else:
            self.rule("list-tasks-artifacts", PASS, f"{len(tasks)} task(s), none with artifacts", ids)

    def _filtered(self, reply: Any, context: str, ids: tuple[str, ...]) -> None:
        if reply is None:
            self.rule("list-tasks-filter", SKIP, "--read-only" if self.read_only else "the round trip made no task")
            return
        tasks = [t for t in (reply.core or {}).get("tasks") or [] if isinstance(t, dict)]
        others = [t.get("contextId") for t in tasks if t.get("contextId") != context]
        found = any(t.get("id") == (self.task or {}).get("id") for t in tasks)
        stamps = [str((t.get("status") or {}).get("timestamp") or "") for t in tasks]
        bad = broken("list-tasks-filter", self.itf.wire)
        if others:
            self.rule("list-tasks-filter", bad, f"contextId {context} also gave tasks of {others[0]}", ids)
        elif not found:
            self.rule("list-tasks-filter", bad, f"contextId {context} did not give the task just made", ids)
        elif all(stamps) and stamps != sorted(stamps, reverse=True):
            self.rule("list-tasks-filter", bad, "the tasks are not newest first (status timestamp)", ids)
        else:
            self.rule("list-tasks-filter", PASS, f"{len(tasks)} task(s) of context {context}", ids)

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
            self.rule(
                "error-status", broken("error-status", self.itf.wire), f"{where}: " + "; ".join(dict.fromkeys(bad))
            )
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
        if wrong and self.itf.info.envelope:  # JSON-RPC's error.data: ErrorInfo is a SHOULD (§9.5)
            spec = "A2A 1.0 §9.5 (SHOULD); TCK JSONRPC-ERR-003"
            self.add("error-info", RULES["error-info"].what, WARN, "; ".join(dict.fromkeys(wrong)), spec)
        elif wrong:
            self.rule("error-info", broken("error-info", self.itf.wire), "; ".join(dict.fromkeys(wrong)))
        else:
            self.rule("error-info", PASS, f"ErrorInfo in {ERROR_DOMAIN}: " + ", ".join(dict.fromkeys(reasons)))

    # -- the data model ------------------------------------------------------------------------------

    def _data_model(self) -> None:
        if not self.inspected:
            self.rule("data-model", SKIP, "no answer held a Task or Message (--read-only, or every call failed)")
            return
        seen = ", ".join(f"{n} {w}" for w, n in self.inspected.items())
        musts = [p for p in self.model if p.must]
        shoulds = [p for p in self.model if not p.must]
        if not self.model:
            self.rule("data-model", PASS, f"valid: {seen}")
            return
        first = (musts or shoulds)[:3]
        more = len(self.model) - len(first)
        detail = "; ".join(p.text for p in first) + (f"; and {more} more" if more else "") + f" (of {seen})"
        self.rule("data-model", FAIL if musts else WARN, detail)


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
