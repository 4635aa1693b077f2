"""A message to send, as core (V1) values: its parts in order, its ids, and SendMessage's
configuration (only what was asked for). The CLI builds the parts from its flags (flows.inputs),
`a2a mcp` from a tool's arguments (`parts`)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from a2acli.errors import UsageError


def parts(
    text: str | None = None, data: Any = None, skill: str | None = None, fields: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """A text part, a data part, then the skill's data part {"skill": ID, ...fields}: the parts a
    face that has no command line gives (a tool's arguments). A skill given is checked as --skill
    is (not blank)."""
    from a2acli.settings.values import check_id

    if skill is not None:
        check_id(skill, "--skill")
    made: list[dict[str, Any]] = []
    if text is not None:
        made.append({"text": text})
    if data is not None:
        made.append({"data": data})
    if skill or fields:
        made.append({"data": ({"skill": skill} if skill else {}) | dict(fields or {})})
    return made


def check_ids(*, message_id: str | None = None, context_id: str | None = None, task_id: str | None = None) -> None:
    """The ids a face without a command line was given for a message, checked as --message-id,
    --context-id and --task-id are (not blank: a blank one would reach the agent as an id)."""
    from a2acli.settings.values import check_id

    for value, flag in ((message_id, "--message-id"), (context_id, "--context-id"), (task_id, "--task-id")):
        if value is not None:
            check_id(value, flag)


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


@dataclass(frozen=True)
class MessageInput:
    """What `a2a send` and `a2a stream` were given, as one value (the CLI's class of those commands
    fills it from the command line: `commands._message_options`): the parts, as given and in the
    command line's order (`argv`, read by `flows.inputs.part_order`), the message's ids and
    metadata, SendMessage's configuration, and how to wait for the task."""

    argv: tuple[str, ...] = ()  # the command line as given: the order of the part flags
    text: str | None = None  # TEXT: the first part
    text_part: tuple[str, ...] = ()
    data: tuple[str, ...] = ()
    file: tuple[str, ...] = ()
    media_type: tuple[str, ...] = ()
    skill: str | None = None
    field: tuple[str, ...] = ()
    strict: bool = False
    message_id: str | None = None
    context_id: str | None = None
    task_id: str | None = None
    request_id: str | None = None
    metadata: str | None = None  # JSON, @file or -
    history_length: int | None = None
    accepted_output_modes: str | None = None
    push_url: str | None = None
    push_token: str | None = None
    idempotency_key: str | None = None
    retry: int = 0
    async_: bool = False
    follow: bool = False
    wait: bool = False
    blocking_call: bool = False
    stream: bool = False
    poll_interval: str = "2s"
    force: bool = False
    expect_state: str | None = None

    def check_waiting(self) -> None:
        """How to wait is one choice: --async, --follow, --wait / --blocking-call (the default) or --stream."""
        for flag, given in (("--wait", self.wait), ("--follow", self.follow), ("--blocking-call", self.blocking_call)):
            if given and self.async_:
                raise UsageError(
                    f"{flag} and --async contradict each other",
                    hint="--async returns at once without following the task; drop one of them",
                )
        if self.async_ and self.stream:  # --stream follows the events; --async returns at once: never one ignored
            raise UsageError(
                "--stream and --async contradict each other",
                hint="--stream follows the task's events live; --async returns its ids at once; drop one of them",
            )
        for flag, given in (("--follow", self.follow), ("--blocking-call", self.blocking_call)):
            if given and self.stream:
                raise UsageError(
                    f"{flag} applies to send without --stream",
                    hint="--stream follows the task's events; drop one of them",
                )
        if self.follow and self.blocking_call:
            raise UsageError(
                "--follow and --blocking-call contradict each other",
                hint="--follow sends with returnImmediately; the default is one blocking call",
            )

    def params(self, limit: int) -> dict[str, Any]:
        """SendMessage's params: the message (its parts read from the files and standard input
        named, each at most `limit` bytes) and the configuration asked for."""
        from a2acli.flows.inputs import build_parts, read_object

        parts = build_parts(
            list(self.argv),
            positional=self.text,
            texts=list(self.text_part),
            datas=list(self.data),
            files=list(self.file),
            media_types=list(self.media_type),
            skill=self.skill,
            fields=list(self.field),
            limit=limit,
        )
        message = build_message(
            parts,
            message_id=self.message_id,
            context_id=self.context_id,
            task_id=self.task_id,
            metadata=read_object(self.metadata, "--metadata"),
        )
        params: dict[str, Any] = {"message": message}
        configuration = send_configuration(
            self.accepted_output_modes,
            self.history_length,
            self.push_url,
            self.push_token,
            return_immediately=self.async_ or self.follow,
        )
        if configuration:
            params["configuration"] = configuration
        return params

    def headers(self, idempotency_header: str) -> dict[str, str]:
        """The idempotency key, given or (with --retry) made, in the dialect's header."""
        if self.idempotency_key or self.retry:
            return {idempotency_header: self.idempotency_key or str(uuid.uuid4())}
        return {}
