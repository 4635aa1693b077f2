"""What the Agent Card claims before a capability-gated call (official CLI spec, A2ACLI_VER_003), and the checks of a push config the agent answered."""

from __future__ import annotations

from typing import Any, NamedTuple

from a2acli.errors import NotClaimedError
from a2acli.events import Note, Warn
from a2acli.pipeline.session import Call

# -- what the card claims (SPEC §11.3, A2ACLI_VER_003) ---------------------------------------------

# the capability each gated method needs, by its V1 field name in capabilities
CAPABILITY = {
    "SendStreamingMessage": "streaming",
    "SubscribeToTask": "streaming",
    "CreateTaskPushNotificationConfig": "pushNotifications",
    "GetTaskPushNotificationConfig": "pushNotifications",
    "ListTaskPushNotificationConfigs": "pushNotifications",
    "DeleteTaskPushNotificationConfig": "pushNotifications",
    "GetExtendedAgentCard": "extendedAgentCard",
}


_OFFERS = {
    "streaming": "streaming",
    "pushNotifications": "push notifications",
    "extendedAgentCard": "an extended Agent Card",
}


_NOT_SUPPORTED = {
    "pushNotifications": "PushNotificationNotSupportedError",
    "extendedAgentCard": "ExtendedAgentCardNotConfiguredError",
}


ABSENT: Any = type("Absent", (), {"__repr__": lambda self: "absent"})()


class Claim(NamedTuple):
    """What the card says of a capability it does not claim: the field as the card spells it
    (`supportsAuthenticatedExtendedCard` on a 0.3 card) and its value (ABSENT when not set)."""

    capability: str
    field: str
    value: Any

    @property
    def says(self) -> str:
        import json

        if self.value is ABSENT:
            return f"the card does not set {self.field} (so does not claim it)"
        return f"the card says {self.field} is {json.dumps(self.value)}"


def unclaimed(call: Call, method: str) -> Claim | None:
    """The card's word when it does not claim the capability `method` needs; None when it claims
    it, when the method needs none, when no card was read (--endpoint), or under --offline (the
    request is shown whatever the card claims). Only `true` claims: a
    field that is absent is not a claim, on 1.0 and 0.3 cards alike (both define it as optional
    and false by default, and a2a-sdk's clients read it so)."""
    cap = CAPABILITY.get(method)
    if cap is None or not isinstance(call.target.card, dict) or not call.sends:
        return None  # (--offline shows the request whatever the card claims)
    caps = call.target.card.get("capabilities")
    value = caps.get(cap, ABSENT) if isinstance(caps, dict) else ABSENT
    if value is True:
        return None
    field = f"capabilities.{cap}"
    doc = call.target.card_doc if isinstance(call.target.card_doc, dict) else {}
    v1_field = isinstance(doc.get("capabilities"), dict) and cap in doc["capabilities"]
    if (
        cap == "extendedAgentCard"
        and not v1_field
        and (
            "supportsAuthenticatedExtendedCard" in doc
            or "supportedInterfaces" not in doc
            and ("url" in doc or "protocolVersion" in doc)
        )
    ):
        field = (
            "supportsAuthenticatedExtendedCard"  # where a 0.3 card says it (a card with both: the 1.0 field decides)
        )
    return Claim(cap, field, value)


def gate(call: Call, method: str, *, force: bool) -> Claim | None:
    """The claim a gated call lacks, unless --force (then said on stderr, and None)."""
    claim = unclaimed(call, method)
    if claim is not None and force:
        call.sink.emit(Note(f"{claim.says}; --force: calling {method} anyway"))
        return None
    return claim


def require_capability(call: Call, method: str, *, force: bool) -> None:
    """Push configs and the extended card: refused before the call (exit 1) when the card does
    not claim them, with a hint that names the claim; --force sends anyway."""
    claim = gate(call, method, force=force)
    if claim is None:
        return
    err = NotClaimedError(
        f"the agent does not offer {_OFFERS[claim.capability]}: {claim.says}",
        hint=f"{claim.says}; --force sends anyway",
    )
    err.code = _NOT_SUPPORTED.get(claim.capability, err.code)
    raise err


def note_push_url(call: Call, params: Any) -> None:
    """A send with --push-url to an agent whose card does not claim push notifications: said on
    stderr (the message is sent all the same; the agent may refuse it or never push)."""
    config = params.get("configuration") if isinstance(params, dict) else None
    if isinstance(config, dict) and config.get("taskPushNotificationConfig"):
        claim = unclaimed(call, "CreateTaskPushNotificationConfig")
        if claim is not None:
            call.sink.emit(
                Warn(f"--push-url: {claim.says}; the agent may refuse the message or never call the webhook")
            )


def check_push_config_answer(call: Call, method: str, params: dict[str, Any], core: Any) -> None:
    """What the answer to a push-config get or delete does not say by itself: a config with
    another id than the one asked for (a2a-sdk 0.3 ignores the id and answers the task's first
    config), and a delete the agent reports done whether or not the id existed."""
    asked = params.get("id")
    if (
        method == "GetTaskPushNotificationConfig"
        and isinstance(core, dict)
        and asked
        and core.get("id") not in (None, asked)
    ):
        call.sink.emit(
            Warn(
                f"asked for push config {asked!r}, the agent answered config {core.get('id')!r}: it ignores the config id (or has no such config); `a2a push-config list {params.get('taskId')}` shows them all"
            )
        )
    elif method == "DeleteTaskPushNotificationConfig":
        call.sink.emit(
            Note(
                f"the agent reports push config {asked!r} of task {params.get('taskId')} deleted; agents report this for an id they do not know as well: `a2a push-config list {params.get('taskId')}` shows what is left"
            )
        )
