"""The fast path of a stream (issue 26): a canonical V1 status or artifact update, what a 1.0
agent streams, is checked and its facts read in one pass, with no translation: under a translator
that returns a canonical event as is, the event is its own canonical form. Every other event takes
the long way (the translator, wire.shapes.check_result, wire.shapes.peek_event), which names what
is wrong with it, if anything. Kept apart from wire.shapes, which `a2a card fetch` loads."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from a2acli.wire.shapes import _CANONICAL_STATES, EventFacts
from a2acli.wire.translate.canonical import core_artifact, core_message


def canonical_event(result: Any) -> EventFacts | None:
    """The facts of a stream event that is a canonical V1 status or artifact update (what a 1.0
    agent streams) and a valid one, read in one pass; None for anything else, which the caller
    decodes and checks in full. A value it answers for is exactly one that
    translate.to_core_stream_response returns unchanged (canonical.core_stream_response), that
    check_result("event", …) passes, and whose facts peek_event reads alike: under a translator
    that returns a canonical event as is, the event is its own canonical form, checked."""
    if type(result) is not dict or len(result) != 1:
        return None
    ((key, inner),) = result.items()
    try:
        if type(inner) is not dict or "kind" in inner or "_" in "".join(inner):  # canonical._plain
            return None
        if key == "statusUpdate":
            status = inner.get("status")  # required by the check, an object
            if "final" in inner or type(status) is not dict or "kind" in status or "_" in "".join(status):
                return None
            state = status.get("state")
            if state is not None and state not in _CANONICAL_STATES:
                return None  # TASK_STATE_UNSPECIFIED, a V0 spelling, no string: the long way
            msg = status.get("message")
            if msg is not None and not (core_message(msg) and ("parts" not in msg or type(msg["parts"]) is list)):
                return None
            return EventFacts("status-update", inner.get("taskId"), inner.get("contextId"), state, False)
        if key == "artifactUpdate":
            artifact: Any = inner.get("artifact")  # required by the check, an object
            if "status" in inner or not core_artifact(artifact):
                return None
            if "parts" in artifact and type(artifact["parts"]) is not list:
                return None
            return EventFacts(
                "artifact-update", inner.get("taskId"), inner.get("contextId"), None, inner.get("final") is True
            )
    except TypeError:  # a key that is no string (not from JSON)
        return None
    return None  # a Task or a Message: rarer in a stream (its first event, its last)


_PROBE = {"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}}


def fast_events(decode: Callable[[Any], Any]) -> Callable[[Any], EventFacts | None] | None:
    """canonical_event, when a stream's `decode` (its binding's translator, then check_result)
    returns a canonical V1 event as is (translate.to_core_stream_response: JSON-RPC, HTTP+JSON and
    gRPC under 1.0); None when it copies one (0.3's proto-JSON translators), so every event of
    such a stream is decoded in full."""
    try:
        same = decode(_PROBE) is _PROBE
    except Exception:  # noqa: BLE001  (a decoder that refuses the probe: no fast path, nothing else)
        return None
    return canonical_event if same else None
