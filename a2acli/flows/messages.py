"""A message to send, as core (V1) values: its parts in order, its ids, and SendMessage's
configuration (only what was asked for). The CLI builds the parts from its flags (flows.inputs),
`a2a mcp` from a tool's arguments (`parts`)."""

from __future__ import annotations

import uuid
from typing import Any

from a2acli.errors import UsageError


def parts(
    text: str | None = None, data: Any = None, skill: str | None = None, fields: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """A text part, a data part, then the skill's data part {"skill": ID, ...fields}: the parts a
    face that has no command line gives (a tool's arguments)."""
    made: list[dict[str, Any]] = []
    if text is not None:
        made.append({"text": text})
    if data is not None:
        made.append({"data": data})
    if skill or fields:
        made.append({"data": ({"skill": skill} if skill else {}) | dict(fields or {})})
    return made


def build_message(
    parts: list[dict[str, Any]],
    *,
    message_id: str | None,
    context_id: str | None,
    task_id: str | None,
    metadata: dict[str, Any] | None,
) -> dict[str, Any]:
    if not parts:
        raise UsageError(
            "nothing to send",
            hint="give TEXT, --text, --data, --file or --skill, or pipe the text in (e.g. a2a send 'hello', echo hello | a2a send)",
        )
    msg: dict[str, Any] = {"messageId": message_id or str(uuid.uuid4()), "role": "ROLE_USER", "parts": parts}
    if context_id:
        msg["contextId"] = context_id
    if task_id:
        msg["taskId"] = task_id
    if metadata:
        msg["metadata"] = metadata
    return msg


def send_configuration(
    accepted_output_modes: str | None,
    history_length: int | None,
    push_url: str | None,
    push_token: str | None,
    *,
    return_immediately: bool,
) -> dict[str, Any]:
    """SendMessage's configuration: only what a flag asked for (none by default: the request is the
    one typed)."""
    config: dict[str, Any] = {}
    if accepted_output_modes:
        config["acceptedOutputModes"] = [m.strip() for m in accepted_output_modes.split(",") if m.strip()]
    if history_length is not None:
        config["historyLength"] = history_length
    if push_token and not push_url:
        raise UsageError(
            "--push-token needs --push-url", hint="e.g. --push-url http://127.0.0.1:9000/hook --push-token t0k"
        )
    if push_url:
        config["taskPushNotificationConfig"] = {"url": push_url} | ({"token": push_token} if push_token else {})
    if return_immediately:  # --async and --follow: the agent answers at once with the task
        config["returnImmediately"] = True
    return config
