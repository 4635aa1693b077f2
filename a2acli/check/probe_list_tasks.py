"""The rule steps of an interface's probe about ListTasks (check.rules): its last page, artifacts
left out unless asked for, and the contextId filter."""

from __future__ import annotations

from typing import Any

from a2acli.check.checks import FAIL, PASS, SKIP, _code_name
from a2acli.check.probe_rules import RuleSteps
from a2acli.errors import A2acliError, TimeoutExpired, UnreachableError
from a2acli.wire import Wire
from a2acli.wire.methods import METHODS


class ListTaskRules(RuleSteps):
    """ListTasks' last page, artifacts and filter."""

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
                FAIL,
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
            self.rule("list-tasks-artifacts", FAIL, detail, ids)
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
        bad = FAIL
        if others:
            self.rule("list-tasks-filter", bad, f"contextId {context} also gave tasks of {others[0]}", ids)
        elif not found:
            self.rule("list-tasks-filter", bad, f"contextId {context} did not give the task just made", ids)
        elif all(stamps) and stamps != sorted(stamps, reverse=True):
            self.rule("list-tasks-filter", bad, "the tasks are not newest first (status timestamp)", ids)
        else:
            self.rule("list-tasks-filter", PASS, f"{len(tasks)} task(s) of context {context}", ids)
