"""The rule steps of an interface's probe about streams (check.rules): the order of the streaming
round trip's events, and subscribing to an unknown or a finished task."""

from __future__ import annotations

import uuid
from typing import Any

from a2acli.check.checks import FAIL, INVALID_PARAMS, INVALID_REQUEST, PASS, SKIP, TASK_NOT_FOUND
from a2acli.check.probe_rules import UNSUPPORTED_OPERATION, RuleSteps
from a2acli.wire import Wire
from a2acli.wire.methods import METHODS


class StreamRules(RuleSteps):
    """The stream's order and the subscriptions that should be refused."""

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
            status = PASS if len(kinds) == 1 else FAIL
            self.rule(
                "stream-order",
                status,
                "one Message" if len(kinds) == 1 else f"a Message, then {len(kinds) - 1} more event(s)",
            )
            return
        if kinds[0] != "task" and self.itf.wire is Wire.V1:
            self.rule("stream-order", FAIL, f"the first event is a {kinds[0]}, not the Task")
            return
        if "message" in kinds[1:] or "task" in kinds[1:] and self.itf.wire is Wire.V1:
            self.rule("stream-order", FAIL, f"events after the Task: {', '.join(kinds[1:])}")
            return
        self.rule(
            "stream-order",
            PASS if ended else FAIL,
            f"{kinds[0]} first, {len(kinds)} event(s)" + ("" if ended else ", closed before a terminal state"),
        )

    def _subscribe_post(self, call: Any, unknown: str) -> None:
        """HTTP+JSON: the subscribe route by the other verb. The specification's text gives POST
        (1.0 §11.3.2; 0.3 §7.9 and its §3.5.3 table), the proto's annotation GET; a server that
        serves both must guard both (an unknown task: TaskNotFoundError, not an empty stream)."""
        if not self.itf.info.routes:
            self.rule("subscribe-unknown-post", SKIP, f"{self.itf.card_binding} has no HTTP verbs to choose between")
            return
        events: list[int] = []

        def run() -> None:
            call.resolve()
            enc = call.encode(METHODS["SubscribeToTask"], {"id": unknown}, stream=True)
            enc = enc._replace(request=enc.request._replace(verb="POST"))
            events.append(0)
            for reply in call.invoke(enc):
                self.inspect(reply.result, "SubscribeToTask")
                events[0] += 1

        err = self.expect_error(call, "subscribe-unknown-post", run, (TASK_NOT_FOUND,))
        if err is None and events:  # answered as a subscription: say what came
            last = self.checks[-1]
            came = f"an event stream of {events[0]} event(s), then closed"
            self.checks[-1] = last._replace(detail=f"{came}; expected error {TASK_NOT_FOUND} (TaskNotFoundError)")

    def _subscribe(self, call: Any) -> None:
        if not self.caps.get("streaming"):
            for name in ("subscribe-unknown", "subscribe-unknown-post", "subscribe-terminal"):
                self.rule(name, SKIP, "the card does not claim streaming")
            return
        unknown = f"a2acli-check-{uuid.uuid4()}"
        err = self.expect_error(call, "subscribe-unknown", lambda: self._drain(call, unknown), (TASK_NOT_FOUND,))
        ex = call.ids.last
        if err is not None and err.a2a_code is not None and ex is not None and ex.content_type == "text/event-stream":
            last = self.checks[-1]  # the SSE error envelope: an A2A error as the stream's event
            self.checks[-1] = last._replace(detail=f"{last.detail} (as an error event in the SSE stream)")
        self._subscribe_post(call, unknown)
        terminal = self._terminal()
        if terminal is None:
            self._not_terminal("subscribe-terminal")
            return
        self.expect_error(
            call,
            "subscribe-terminal",
            lambda: self._drain(call, terminal),
            (UNSUPPORTED_OPERATION,),
            also=(INVALID_PARAMS, INVALID_REQUEST, TASK_NOT_FOUND),
        )
