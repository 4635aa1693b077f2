"""What the rule steps of an interface's probe share (check.probe_semantics composes them): a
rule checked as the error it expects, the steps skipped under --read-only, the round trip's
task when it is terminal, a subscription that should be refused, and the A2A error codes the
rules name beyond check.checks' own."""

from __future__ import annotations

import uuid
from typing import Any

from a2acli.check.checks import SKIP
from a2acli.check.probe_features import FeatureSteps
from a2acli.wire.methods import METHODS
from a2acli.wire.translate.enums import TERMINAL_STATES

TASK_NOT_CANCELABLE, PUSH_NOT_SUPPORTED, UNSUPPORTED_OPERATION, INTERNAL_ERROR = -32002, -32003, -32004, -32603


def _message(text: str, **extra: Any) -> dict[str, Any]:
    return {"messageId": str(uuid.uuid4()), "role": "ROLE_USER", "parts": [{"text": text}], **extra}


class RuleSteps(FeatureSteps):
    """The helpers of the rule steps (each group of rules is a subclass; SemanticSteps holds them all)."""

    def _created(self, name: str) -> bool:
        """Skipped under --read-only (a step whose request would create a task on a deviating agent)."""
        if self.read_only:
            self.rule(name, SKIP, "--read-only (a deviating agent would create a task)")
        return self.read_only

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

    def _drain(self, call: Any, task_id: str) -> int:
        """A subscription that should be refused: its first event, if any, is the answer (the
        stream is closed there, so an agent that holds it open does not hold the check)."""
        for reply in call.stream(METHODS["SubscribeToTask"], {"id": task_id}):
            self.inspect(reply.result, "SubscribeToTask")
            return 1
        return 0
