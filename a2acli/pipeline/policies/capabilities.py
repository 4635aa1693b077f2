"""What the Agent Card claims before a capability-gated call (official CLI spec, A2ACLI_VER_003), and the checks of a push config the agent answered."""

from __future__ import annotations

from typing import Any, NamedTuple

from a2acli.errors import NotClaimedError, UsageError
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


def _skills(call: Call) -> list[dict[str, Any]]:
    """The skills the card lists (none when no card was read: --endpoint, --offline)."""
    card = call.target.card if call.sends else None
    skills = card.get("skills") if isinstance(card, dict) else None
    return (
        [s for s in skills if isinstance(s, dict) and isinstance(s.get("id"), str)] if isinstance(skills, list) else []
    )


def _media_types(parts: list[Any]) -> list[str]:
    """The media type of each part that has one: its own, else a text part's text/plain and a data
    part's application/json (a file part without one is left out: nothing to compare)."""
    found = []
    for part in parts:
        if not isinstance(part, dict):
            continue
        kind = "text/plain" if "text" in part else "application/json" if "data" in part else None
        if part.get("mediaType") or kind:
            found.append(str(part.get("mediaType") or kind))
    return found


def _takes(modes: list[str], media_type: str) -> bool:
    base = media_type.split(";", 1)[0].strip().lower()
    for mode in modes:
        m = str(mode).split(";", 1)[0].strip().lower()
        if m in ("*/*", base) or (m.endswith("/*") and base.startswith(m[:-1])):
            return True
    return False


def check_skill(call: Call, params: Any, *, strict: bool) -> None:
    """A send naming a skill (a data part `{"skill": ID}`, as --skill makes) to an agent whose card
    lists skills: a skill it does not list, or a part the skill's own input modes do not take, is
    said on stderr (with the closest skill ids), and, under --strict, refused before sending (exit 2)."""
    message = params.get("message") if isinstance(params, dict) else None
    parts = message.get("parts") if isinstance(message, dict) else None
    wanted = [
        p["data"]["skill"]
        for p in parts or []
        if isinstance(p, dict) and isinstance(p.get("data"), dict) and isinstance(p["data"].get("skill"), str)
    ]
    skills = _skills(call)
    if not wanted or not skills:
        return
    by_id = {s["id"]: s for s in skills}
    skill = wanted[0]
    if skill not in by_id:
        import difflib

        close = difflib.get_close_matches(skill, list(by_id), n=3, cutoff=0.6)
        problem = f"the Agent Card lists no skill {skill!r}" + (f" (did you mean {', '.join(close)}?)" if close else "")
        hint = "its skills: " + ", ".join(by_id) + ("" if strict else "; --strict refuses such a send")
    else:
        declared = by_id[skill].get("inputModes")
        modes: list[Any] = declared if isinstance(declared, list) else []
        refused = [m for m in _media_types(parts or []) if modes and not _takes(modes, m)]
        if not refused:
            return
        problem = f"skill {skill!r} takes {', '.join(map(str, modes))} (its inputModes on the card), not {', '.join(dict.fromkeys(refused))}"
        hint = "send the parts it takes" + ("" if strict else "; --strict refuses such a send")
    if strict:
        raise UsageError(problem, hint=hint)
    call.sink.emit(Warn(f"{problem}; sent anyway ({hint})"))


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
