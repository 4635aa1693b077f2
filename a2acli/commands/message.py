"""`a2a send` (SendMessage / message/send) and `a2a stream` (SendStreamingMessage / message/stream)."""

import inspect
from typing import Annotated, Any

import typer

from a2acli.commands import shared
from a2acli.commands._options import (
    POLL_INTERVAL,
    complete_task_states,
    force_option,
    poll_interval_option,
    poll_seconds,
    typed,
)
from a2acli.commands._run import run
from a2acli.commands.shared import options
from a2acli.flows.inputs import build_parts, read_object
from a2acli.flows.messages import build_message, send_configuration
from a2acli.flows.runs import run_stream, run_unary
from a2acli.settings.values import check_file_ref, check_id, check_idempotency_key, check_media_type, check_push_url

MSG = "Message"
PARTS = "Parts (kept in command-line order)"
RUN = "Waiting and result"

EXAMPLES = """

Examples:

  a2a send 'hello' -u http://127.0.0.1:41241

  a2a send --skill create-user -f projectUserId=user_123 -f age:=42

  a2a send --data @payload.json --file report.pdf --media-type application/pdf

  a2a send --skill slow --follow

  a2a send --skill slow --stream -o json | jq .

  a2a send --skill create-user --offline -o raw --a2a-version 0.3
"""


TextArg = Annotated[
    str | None,
    typer.Argument(
        help="Text of a text part (first part). None given, and no other part: the text piped to standard input.",
        show_default=False,
        metavar="TEXT",
    ),
]

TextPartOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--text",
        "--text-part",
        help="A text part (repeatable); - reads it from standard input.",
        rich_help_panel=PARTS,
        show_default=False,
    ),
]

DataOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--data",
        "--data-part",
        help="A data part: JSON, @file, a file's path (when not JSON itself) or - for stdin (repeatable).",
        rich_help_panel=PARTS,
        show_default=False,
    ),
]

FileOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--file",
        "--file-part",
        help="A file part: a path (sent inline) or an http(s) URL (repeatable).",
        rich_help_panel=PARTS,
        show_default=False,
        metavar="PATH|URL",
        parser=typed(check_file_ref, "--file"),
    ),
]

MediaTypeOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--media-type",
        help="Media type of the part flag just before it (type/subtype, RFC 6838).",
        rich_help_panel=PARTS,
        show_default=False,
        metavar="TYPE",
        parser=typed(check_media_type, "--media-type"),
    ),
]

SkillOpt = Annotated[
    str | None,
    typer.Option(
        "--skill",
        help='A data part {"skill": ID, ...fields}.',
        rich_help_panel=PARTS,
        show_default=False,
        parser=typed(check_id, "--skill"),
    ),
]

FieldOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--field",
        "-f",
        help="Field of the skill's data part: key=value (string) or key:=JSON.",
        rich_help_panel=PARTS,
        show_default=False,
    ),
]

MessageIdOpt = Annotated[
    str | None,
    typer.Option(
        "--message-id",
        help="messageId (default: a new UUID).",
        rich_help_panel=MSG,
        show_default=False,
        metavar="ID",
        parser=typed(check_id, "--message-id"),
    ),
]

ContextIdOpt = Annotated[
    str | None,
    typer.Option(
        "--context-id",
        help="Continue this context.",
        rich_help_panel=MSG,
        show_default=False,
        metavar="ID",
        parser=typed(check_id, "--context-id"),
    ),
]

TaskIdOpt = Annotated[
    str | None,
    typer.Option(
        "--task-id",
        help="Continue this task (e.g. one that needs input).",
        rich_help_panel=MSG,
        show_default=False,
        metavar="ID",
        parser=typed(check_id, "--task-id"),
    ),
]

RequestIdOpt = Annotated[
    str | None,
    typer.Option(
        "--request-id", help="The JSON-RPC id (default: a new UUID).", rich_help_panel=MSG, show_default=False
    ),
]

MetadataOpt = Annotated[
    str | None,
    typer.Option(
        "--metadata", help="Message metadata: a JSON object, @file or -.", rich_help_panel=MSG, show_default=False
    ),
]

HistoryLengthOpt = Annotated[
    int | None,
    typer.Option(
        "--history-length",
        "--history",
        help="At most N history messages in the answer.",
        rich_help_panel=MSG,
        show_default=False,
        min=0,
        metavar="N",
    ),
]

AcceptedOutputModesOpt = Annotated[
    str | None,
    typer.Option(
        "--accepted-output-modes",
        help="Comma-separated media types the client accepts.",
        rich_help_panel=MSG,
        show_default=False,
    ),
]

PushUrlOpt = Annotated[
    str | None,
    typer.Option(
        "--push-url",
        help="Webhook for this task's push notifications (an http(s) URL).",
        rich_help_panel=MSG,
        show_default=False,
        metavar="URL",
        parser=typed(check_push_url, "--push-url"),
    ),
]

PushTokenOpt = Annotated[
    str | None,
    typer.Option("--push-token", help="Token the agent echoes to --push-url.", rich_help_panel=MSG, show_default=False),
]

TokenOpt = Annotated[
    str | None,
    typer.Option(
        "--token",
        hidden=True,
        help="Same as --push-token (the name `push-config create` used).",
        show_default=False,
    ),
]

IdempotencyKeyOpt = Annotated[
    str | None,
    typer.Option(
        "--idempotency-key",
        help="Idempotency key, sent in the dialect's header (Idempotency-Key; X-Clix-Idempotency-Key under clix).",
        rich_help_panel=RUN,
        show_default=False,
        metavar="KEY",
        parser=typed(check_idempotency_key, "--idempotency-key"),
    ),
]

RetryOpt = Annotated[
    int,
    typer.Option(
        "--retry",
        help="Retry transport failures and HTTP 5xx N times with backoff, reusing one idempotency key.",
        rich_help_panel=RUN,
        min=0,
        metavar="N",
    ),
]

AsyncOpt = Annotated[
    bool,
    typer.Option(
        "--async",
        "--no-wait",
        help="Return at once with the task and context ids (returnImmediately / blocking=false; also --return-immediately), without following the task. Default: wait until the task is done or needs input (one blocking SendMessage).",
        rich_help_panel=RUN,
    ),
]

ReturnImmediatelyOpt = Annotated[
    bool, typer.Option("--return-immediately", hidden=True, help="Same as --async (the official CLI spec's name).")
]

FollowOpt = Annotated[
    bool,
    typer.Option(
        "--follow",
        help="Send with returnImmediately (0.3: blocking false), say the task id at once, then follow the task until it is done or needs input (SubscribeToTask, else GetTask polls).",
        rich_help_panel=RUN,
    ),
]

WaitOpt = Annotated[
    bool,
    typer.Option(
        "--wait",
        help="Wait until the task is done or needs input: the default, said explicitly (not with --async).",
        rich_help_panel=RUN,
    ),
]

BlockingCallOpt = Annotated[
    bool,
    typer.Option(
        "--blocking-call",
        hidden=True,
        help="One blocking SendMessage: the default (kept for scripts that pass it).",
    ),
]

StreamOpt = Annotated[
    bool, typer.Option("--stream", help="Stream the task's events (same as `a2a stream`).", rich_help_panel=RUN)
]

PollIntervalOpt = Annotated[str, poll_interval_option(RUN)]

ForceOpt = Annotated[bool, force_option("Stream (send --stream, a2a stream)", RUN)]

StrictOpt = Annotated[
    bool,
    typer.Option(
        "--strict",
        help="Refuse before sending (exit 2) a --skill the Agent Card does not list, or parts the skill's input modes do not take (default: a warning).",
        rich_help_panel=PARTS,
    ),
]

ExpectStateOpt = Annotated[
    str | None,
    typer.Option(
        "--expect-state",
        help="Exit 6 unless the task ends in one of these states (comma list).",
        rich_help_panel=RUN,
        show_default=False,
        autocompletion=complete_task_states,
    ),
]


@shared.takes_shared
def send(
    ctx: typer.Context,
    text: TextArg = None,
    text_part: TextPartOpt = None,
    data: DataOpt = None,
    file: FileOpt = None,
    media_type: MediaTypeOpt = None,
    skill: SkillOpt = None,
    field: FieldOpt = None,
    message_id: MessageIdOpt = None,
    context_id: ContextIdOpt = None,
    task_id: TaskIdOpt = None,
    request_id: RequestIdOpt = None,
    metadata: MetadataOpt = None,
    history_length: HistoryLengthOpt = None,
    accepted_output_modes: AcceptedOutputModesOpt = None,
    push_url: PushUrlOpt = None,
    push_token: PushTokenOpt = None,
    token: TokenOpt = None,
    idempotency_key: IdempotencyKeyOpt = None,
    retry: RetryOpt = 0,
    async_: AsyncOpt = False,
    return_immediately: ReturnImmediatelyOpt = False,
    follow: FollowOpt = False,
    wait: WaitOpt = False,
    blocking_call: BlockingCallOpt = False,
    stream: StreamOpt = False,
    poll_interval: PollIntervalOpt = POLL_INTERVAL,
    force: ForceOpt = False,
    strict: StrictOpt = False,
    expect_state: ExpectStateOpt = None,
) -> None:
    """Send a message (SendMessage / message/send) and wait for the task.

    One SendMessage, exactly the request given: the agent answers when the task is done or needs
    input. When it answers earlier with a task still working, a2a says the task's id and follows it
    (SubscribeToTask when the Agent Card claims streaming, else GetTask polls) until it settles.
    Ctrl-C or --timeout leave the task running and say how to find it. --follow sends with
    returnImmediately and follows the task (its id known at once); --async returns at once."""

    opts = options(ctx)
    async_ = async_ or return_immediately  # one flag, its aliases apart only to keep --help narrow
    _check_waiting_flags(async_=async_, follow=follow, wait=wait, blocking_call=blocking_call, stream=stream)
    parts = build_parts(
        ctx.meta.get("a2acli.argv", []),
        positional=text,
        texts=text_part or [],
        datas=data or [],
        files=file or [],
        media_types=media_type or [],
        skill=skill,
        fields=field or [],
        limit=opts.max_body,
    )
    message = build_message(
        parts,
        message_id=message_id,
        context_id=context_id,
        task_id=task_id,
        metadata=read_object(metadata, "--metadata"),
    )
    params: dict[str, Any] = {"message": message}
    configuration = send_configuration(
        accepted_output_modes, history_length, push_url, push_token or token, return_immediately=async_ or follow
    )
    if configuration:
        params["configuration"] = configuration
    headers = {}
    if idempotency_key or retry:
        import uuid

        headers[opts.dialect.idempotency_header] = idempotency_key or str(uuid.uuid4())
    interval = poll_seconds(poll_interval)
    if stream:
        if retry:
            typer.echo(
                "warning: --retry applies to `send` without --stream (a stream is not replayed); sending once", err=True
            )
        run(
            ctx,
            run_stream,
            "SendStreamingMessage",
            params,
            request_id=request_id,
            expect=expect_state,
            headers=headers,
            force=force,
            poll_interval=interval,
            strict=strict,
        )
    else:
        run(
            ctx,
            run_unary,
            "SendMessage",
            params,
            request_id=request_id,
            expect=expect_state,
            wait=not async_,
            poll_interval=interval,
            headers=headers,
            retries=retry,
            strict=strict,
        )


send.__doc__ = inspect.cleandoc(send.__doc__ or "") + EXAMPLES


def _check_waiting_flags(*, async_: bool, follow: bool, wait: bool, blocking_call: bool, stream: bool) -> None:
    """How to wait is one choice: --async, --follow, --wait / --blocking-call (the default) or --stream."""
    from a2acli.errors import UsageError

    for flag, given in (("--wait", wait), ("--follow", follow), ("--blocking-call", blocking_call)):
        if given and async_:
            raise UsageError(
                f"{flag} and --async contradict each other",
                hint="--async returns at once without following the task; drop one of them",
            )
    if async_ and stream:  # --stream follows the events; --async returns at once: never one ignored
        raise UsageError(
            "--stream and --async contradict each other",
            hint="--stream follows the task's events live; --async returns its ids at once; drop one of them",
        )
    for flag, given in (("--follow", follow), ("--blocking-call", blocking_call)):
        if given and stream:
            raise UsageError(
                f"{flag} applies to send without --stream", hint="--stream follows the task's events; drop one of them"
            )
    if follow and blocking_call:
        raise UsageError(
            "--follow and --blocking-call contradict each other",
            hint="--follow sends with returnImmediately; the default is one blocking call",
        )


@shared.takes_shared
def stream_command(
    ctx: typer.Context,
    text: TextArg = None,
    text_part: TextPartOpt = None,
    data: DataOpt = None,
    file: FileOpt = None,
    media_type: MediaTypeOpt = None,
    skill: SkillOpt = None,
    field: FieldOpt = None,
    message_id: MessageIdOpt = None,
    context_id: ContextIdOpt = None,
    task_id: TaskIdOpt = None,
    request_id: RequestIdOpt = None,
    metadata: MetadataOpt = None,
    history_length: HistoryLengthOpt = None,
    accepted_output_modes: AcceptedOutputModesOpt = None,
    push_url: PushUrlOpt = None,
    push_token: PushTokenOpt = None,
    token: TokenOpt = None,
    idempotency_key: IdempotencyKeyOpt = None,
    poll_interval: PollIntervalOpt = POLL_INTERVAL,
    force: ForceOpt = False,
    strict: StrictOpt = False,
    expect_state: ExpectStateOpt = None,
) -> None:
    """Send a message and stream the task's events live (SendStreamingMessage / message/stream)."""
    send(
        ctx,
        text=text,
        text_part=text_part,
        data=data,
        file=file,
        media_type=media_type,
        skill=skill,
        field=field,
        message_id=message_id,
        context_id=context_id,
        task_id=task_id,
        request_id=request_id,
        metadata=metadata,
        history_length=history_length,
        accepted_output_modes=accepted_output_modes,
        push_url=push_url,
        push_token=push_token,
        token=token,
        idempotency_key=idempotency_key,
        poll_interval=poll_interval,
        force=force,
        strict=strict,
        expect_state=expect_state,
        stream=True,
        async_=False,
        return_immediately=False,
        follow=False,
        wait=False,
        blocking_call=False,
        retry=0,
    )


send_command = send
stream_command.__doc__ = """Send a message and stream the task's events live (SendStreamingMessage / message/stream).

Examples:

  a2a stream --skill slow -f steps:=3

  a2a stream 'hello' -o json | jq -c .
"""
