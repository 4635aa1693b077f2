"""The rule steps of an interface's probe about messages and tasks (check.rules): input validation,
a message naming an unknown task, blocking, GetTask and historyLength, a message to and a cancel
of a finished task, and the cancel of a running one (the probe's cleanup)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from functools import partial
from typing import Any

from a2acli.check.checks import FAIL, INVALID_PARAMS, INVALID_REQUEST, PASS, SKIP, TASK_NOT_FOUND, WARN, _code_name
from a2acli.check.probe_rules import TASK_NOT_CANCELABLE, UNSUPPORTED_OPERATION, RuleSteps, _message
from a2acli.errors import A2acliError, TimeoutExpired, UnreachableError
from a2acli.wire import Wire
from a2acli.wire.methods import METHODS
from a2acli.wire.translate.enums import INTERRUPTED_STATES, TERMINAL_STATES


class TaskRules(RuleSteps):
    """Input validation and the operations on a task, checked against the specification."""

    # -- input validation ---------------------------------------------------------------------------

    def _input_validation(self, call: Any) -> None:
        cases = (
            ("message-no-role", {"messageId": str(uuid.uuid4()), "parts": [{"text": "a2a check: no role"}]}),
            ("message-empty-parts", {"messageId": str(uuid.uuid4()), "role": "ROLE_USER", "parts": []}),
        )
        for name, message in cases:
            if not self._created(name):
                send: Callable[[], Any] = partial(self._invoke, call, "SendMessage", {"message": message})
                self.expect_error(call, name, send, (INVALID_PARAMS,), also=(INVALID_REQUEST,))

    # -- operation semantics -------------------------------------------------------------------------

    def _unknown_task_message(self, call: Any) -> None:
        if self._created("send-unknown-task"):
            return
        message = _message("a2a check: unknown task", taskId=f"a2acli-check-{uuid.uuid4()}")
        self.expect_error(
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
            self.rule("blocking", FAIL, f"answered in {state} before the task finished")

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
            self.rule("get-task", FAIL, f"GetTask of {task_id}: {_code_name(e)}", call.ids.take())
            self.rule("history-length", SKIP, "GetTask failed")
            return
        ids = call.ids.take()
        got = (full.core or {}).get("id") if isinstance(full.core, dict) else None
        if got == task_id:
            self.rule("get-task", PASS, f"task {task_id}", ids)
        else:
            self.rule("get-task", FAIL, f"asked for {task_id}, got {got!r}", ids)
        self._history(full.core, cut.core, none.core, ids)

    def _history(self, full: Any, cut: Any, none: Any, ids: tuple[str, ...]) -> None:
        def history(t: Any) -> list[Any]:
            h = t.get("history") if isinstance(t, dict) else None
            return h if isinstance(h, list) else []

        if len(history(cut)) > 1:
            self.rule(
                "history-length",
                FAIL,
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

    def _continue_terminal(self, call: Any) -> None:
        if self._not_terminal("continue-terminal"):
            return
        task = self.task or {}
        message = _message("a2a check: to a finished task", taskId=task.get("id"), contextId=task.get("contextId"))
        self.expect_error(
            call,
            "continue-terminal",
            lambda: call.unary(METHODS["SendMessage"], {"message": message}),
            (UNSUPPORTED_OPERATION,),
            also=(INVALID_PARAMS, INVALID_REQUEST, TASK_NOT_CANCELABLE),
        )

    def _cancel(self, call: Any) -> None:
        unknown = f"a2acli-check-{uuid.uuid4()}"
        self.expect_error(
            call, "cancel-unknown", lambda: call.unary(METHODS["CancelTask"], {"id": unknown}), (TASK_NOT_FOUND,)
        )
        terminal = self._terminal()
        if terminal is not None:
            self.expect_error(
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
            status = WARN if e.a2a_code == TASK_NOT_CANCELABLE else FAIL
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
            self.rule("cancel", FAIL, f"the task is still {state}", ids)
