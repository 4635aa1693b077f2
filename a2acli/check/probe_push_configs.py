"""The rule steps of an interface's probe about push-notification configs (check.rules): a config
made, read by task id alone (0.3), deleted (0.3 JSON-RPC: result null), and gone after."""

from __future__ import annotations

import json
import uuid
from typing import Any

from a2acli.check.checks import FAIL, INVALID_PARAMS, INVALID_REQUEST, PASS, SKIP, TASK_NOT_FOUND, _code_name
from a2acli.check.probe_rules import INTERNAL_ERROR, RuleSteps
from a2acli.errors import A2acliError, TimeoutExpired, UnreachableError
from a2acli.wire import Wire
from a2acli.wire.methods import METHODS


class PushConfigRules(RuleSteps):
    """What each push-config call returns."""

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
            self.rule("push-get-by-task", FAIL, _code_name(e), call.ids.take())
            return
        result = reply[0].result if reply else None
        got = isinstance(result, dict) and result.get("taskId") == task_id
        status = PASS if got else FAIL
        self.rule(
            "push-get-by-task",
            status,
            "the task's config" if got else f"not a config of the task: {result!r}"[:200],
            call.ids.take(),
        )

    def _delete_result(self, deleted: Any, ids: tuple[str, ...]) -> None:
        """0.3 §7.8: the result is null; JSON-RPC 2.0 §5: a success carries a `result` member (the
        client reads an answer without one as null; the check must not)."""
        try:
            doc = json.loads(deleted.raw or b"null")
        except ValueError:
            doc = None
        if isinstance(doc, dict) and "result" not in doc and "error" not in doc:
            self.rule("push-delete-result", FAIL, f"no `result` member: {deleted.raw[:80]!r}", ids)
        elif deleted.result is None:
            self.rule("push-delete-result", PASS, "null", ids)
        else:
            self.rule("push-delete-result", FAIL, f"{deleted.raw[:80]!r}, not null", ids)

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
            self._delete_result(deleted, call.ids.take())
        else:
            self.rule("push-delete-result", SKIP, "only 0.3 JSON-RPC defines the delete's result (null)")
        self.expect_error(
            call,
            "push-get-deleted",
            lambda: call.unary(METHODS["GetTaskPushNotificationConfig"], ids),
            (TASK_NOT_FOUND, INVALID_PARAMS),
            also=(INTERNAL_ERROR, INVALID_REQUEST),  # a refusal, in the wrong words
        )
