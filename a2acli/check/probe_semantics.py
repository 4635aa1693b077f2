"""The deeper steps of an interface's probe, each a row of check.rules (its keyword, its sections
in A2A 1.0 and 0.3, the TCK's ids): input validation, a message naming an unknown task, blocking,
GetTask and historyLength, a message to and a cancel of a finished task, subscribing to an unknown
or a finished task, the stream's order, ListTasks' last page, artifacts and filter, the per-binding
error form, and the data model of every answer (check.datamodel).

A rule that depends on what the agent does (a terminal task, a history to cut) is judged only when
the answer shows the case; otherwise it is skipped with the reason. Steps that may create state
(a message that should be refused, a cancel) are skipped under --read-only."""

from __future__ import annotations

from a2acli.check.checks import FAIL, PASS, SKIP, WARN
from a2acli.check.probe_envelope import EnvelopeRules
from a2acli.check.probe_errors import ErrorRules
from a2acli.check.probe_list_tasks import ListTaskRules
from a2acli.check.probe_push_configs import PushConfigRules
from a2acli.check.probe_streams import StreamRules
from a2acli.check.probe_tasks import TaskRules


class SemanticSteps(EnvelopeRules, TaskRules, StreamRules, PushConfigRules, ListTaskRules, ErrorRules):
    """The rule steps of one interface's probe (what the specification says, checked), one group of
    rules a module: probe_envelope, probe_tasks, probe_streams, probe_push_configs, probe_list_tasks, probe_errors
    (their shared helpers in probe_rules); the data model of every answer here."""

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
