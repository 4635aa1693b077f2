"""The message options of `a2a send` and `a2a stream`: declared once, as a table (`MESSAGE_OPTIONS`, one row
per option: its flags, help, panel, metavar and parser, in the order --help shows them), that the
commands' class (`MessageCommand`) adds at the Click level, after the command's own parameters and
before the shared options (`registry.Command`), each built as Typer builds an option from a
signature (`typer.core.TyperOption`). The class takes their parsed values out of the parsed
parameters into one frozen `flows.messages.MessageInput` before the function runs; the function
lists none of them and reads it with `message_input(ctx)`:

    @takes_message(SendCommand)
    @shared.takes_shared
    def send(ctx: typer.Context) -> None:
        given = message_input(ctx)

A new message option is one row here and one field of `MessageInput`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

import typer

from a2acli.commands._options import POLL_HELP, POLL_INTERVAL, complete_task_states, typed
from a2acli.commands.registry import OrderedCommand
from a2acli.flows.messages import MessageInput
from a2acli.settings.values import check_file_ref, check_id, check_idempotency_key, check_media_type, check_push_url

MSG = "Message"
PARTS = "Parts (kept in command-line order)"
RUN = "Waiting and result"
KEY = "a2acli.message"  # where the class leaves this invocation's MessageInput (Click's `ctx.meta`)


@dataclass(frozen=True)
class MessageOption:
    """One message option. `name` is its parameter's name and the `MessageInput` field it fills
    (an alias's: the field of `alias_of`, which wins when both are given); `kind` is `text` (one
    value), `list` (repeatable), `switch`, `count` (an integer, 0 or more) or `argument`."""

    name: str
    flags: tuple[str, ...]
    help: str
    panel: str | None = None
    metavar: str | None = None
    parser: Callable[[str], Any] | None = None
    kind: str = "text"
    default: Any = None
    show_default: bool = False
    hidden: bool = False
    complete: Callable[[str], list[str]] | None = None
    alias_of: str | None = None
    send_only: bool = False  # `a2a stream` always streams: how to wait is `send`'s alone

    def param(self) -> Any:
        """The Click parameter, as Typer makes it from `Annotated[..., typer.Option(...)]`."""
        completer = self.complete
        common: dict[str, Any] = {
            "type": self.parser,  # Click turns a callable into its type; none: Click's STRING
            "default": self.default,
            "metavar": self.metavar,
            "help": self.help,
            "show_default": self.show_default,
            "hidden": self.hidden,
            "rich_help_panel": self.panel,
            "autocompletion": (lambda ctx, args, incomplete: completer(incomplete)) if completer else None,
            "show_envvar": True,  # typer.Option's default
        }
        if self.kind == "argument":
            return typer.core.TyperArgument(param_decls=[self.name], **common)
        if self.kind == "count":
            common["type"] = _at_least_zero()
        if self.kind == "switch":
            common["type"], common["default"] = bool, False
        return typer.core.TyperOption(
            param_decls=[self.name, *self.flags],
            is_flag=True if self.kind == "switch" else None,
            multiple=self.kind == "list",
            **common,
        )


def _at_least_zero() -> Any:
    """The type Typer gives `int` with `min=0` (help: `N [x>=0]`; -1 refused in Click's words)."""
    return typer.main.get_click_type(annotation=int, parameter_info=typer.Option(min=0))


MESSAGE_OPTIONS: tuple[MessageOption, ...] = (
    MessageOption(
        "text",
        (),
        "Text of a text part (first part). None given, and no other part: the text piped to standard input.",
        metavar="TEXT",
        kind="argument",
    ),
    MessageOption(
        "text_part",
        ("--text", "--text-part"),
        "A text part (repeatable); - reads it from standard input.",
        PARTS,
        kind="list",
    ),
    MessageOption(
        "data",
        ("--data", "--data-part"),
        "A data part: JSON, @file, a file's path (when not JSON itself) or - for stdin (repeatable).",
        PARTS,
        kind="list",
    ),
    MessageOption(
        "file",
        ("--file", "--file-part"),
        "A file part: a path (sent inline) or an http(s) URL (repeatable).",
        PARTS,
        "PATH|URL",
        typed(check_file_ref, "--file"),
        kind="list",
    ),
    MessageOption(
        "media_type",
        ("--media-type",),
        "Media type of the part flag just before it (type/subtype, RFC 6838).",
        PARTS,
        "TYPE",
        typed(check_media_type, "--media-type"),
        kind="list",
    ),
    MessageOption(
        "skill", ("--skill",), 'A data part {"skill": ID, ...fields}.', PARTS, parser=typed(check_id, "--skill")
    ),
    MessageOption(
        "field",
        ("--field", "-f"),
        "Field of the skill's data part: key=value (string) or key:=JSON.",
        PARTS,
        kind="list",
    ),
    MessageOption(
        "message_id",
        ("--message-id",),
        "messageId (default: a new UUID).",
        MSG,
        "ID",
        typed(check_id, "--message-id"),
    ),
    MessageOption(
        "context_id", ("--context-id",), "Continue this context.", MSG, "ID", typed(check_id, "--context-id")
    ),
    MessageOption(
        "task_id",
        ("--task-id",),
        "Continue this task (e.g. one that needs input).",
        MSG,
        "ID",
        typed(check_id, "--task-id"),
    ),
    MessageOption("request_id", ("--request-id",), "The JSON-RPC id (default: a new UUID).", MSG),
    MessageOption("metadata", ("--metadata",), "Message metadata: a JSON object, @file or -.", MSG),
    MessageOption(
        "history_length",
        ("--history-length", "--history"),
        "At most N history messages in the answer.",
        MSG,
        "N",
        kind="count",
    ),
    MessageOption(
        "accepted_output_modes", ("--accepted-output-modes",), "Comma-separated media types the client accepts.", MSG
    ),
    MessageOption(
        "push_url",
        ("--push-url",),
        "Webhook for this task's push notifications (an http(s) URL).",
        MSG,
        "URL",
        typed(check_push_url, "--push-url"),
    ),
    MessageOption("push_token", ("--push-token",), "Token the agent echoes to --push-url.", MSG),
    MessageOption(
        "token",
        ("--token",),
        "Same as --push-token (the name `push-config create` used).",
        hidden=True,
        alias_of="push_token",
    ),
    MessageOption(
        "idempotency_key",
        ("--idempotency-key",),
        "Idempotency key, sent in the dialect's header (Idempotency-Key; X-Clix-Idempotency-Key under clix).",
        RUN,
        "KEY",
        typed(check_idempotency_key, "--idempotency-key"),
    ),
    MessageOption(
        "retry",
        ("--retry",),
        "Retry transport failures and HTTP 5xx N times with backoff, reusing one idempotency key.",
        RUN,
        "N",
        kind="count",
        default=0,
        show_default=True,
        send_only=True,
    ),
    MessageOption(
        "async_",
        ("--async", "--no-wait"),
        "Return at once with the task and context ids (returnImmediately / blocking=false; also --return-immediately), without following the task. Default: wait until the task is done or needs input (one blocking SendMessage).",
        RUN,
        kind="switch",
        show_default=True,
        send_only=True,
    ),
    MessageOption(
        "return_immediately",
        ("--return-immediately",),
        "Same as --async (the official CLI spec's name).",
        kind="switch",
        show_default=True,
        hidden=True,
        alias_of="async_",
        send_only=True,
    ),
    MessageOption(
        "follow",
        ("--follow",),
        "Send with returnImmediately (0.3: blocking false), say the task id at once, then follow the task until it is done or needs input (SubscribeToTask, else GetTask polls).",
        RUN,
        kind="switch",
        show_default=True,
        send_only=True,
    ),
    MessageOption(
        "wait",
        ("--wait",),
        "Wait until the task is done or needs input: the default, said explicitly (not with --async).",
        RUN,
        kind="switch",
        show_default=True,
        send_only=True,
    ),
    MessageOption(
        "blocking_call",
        ("--blocking-call",),
        "One blocking SendMessage: the default (kept for scripts that pass it).",
        kind="switch",
        show_default=True,
        hidden=True,
        send_only=True,
    ),
    MessageOption(
        "stream",
        ("--stream",),
        "Stream the task's events (same as `a2a stream`).",
        RUN,
        kind="switch",
        show_default=True,
        send_only=True,
    ),
    MessageOption(
        "poll_interval",
        ("--poll-interval",),
        POLL_HELP,
        RUN,
        "DURATION",
        default=POLL_INTERVAL,
        show_default=True,
    ),
    MessageOption(
        "force",
        ("--force",),
        "Stream (send --stream, a2a stream) even when the Agent Card does not claim the capability it needs (an agent whose card is wrong).",
        RUN,
        kind="switch",
        show_default=True,
    ),
    MessageOption(
        "strict",
        ("--strict",),
        "Refuse before sending (exit 2) a --skill the Agent Card does not list, or parts the skill's input modes do not take (default: a warning).",
        PARTS,
        kind="switch",
        show_default=True,
    ),
    MessageOption(
        "expect_state",
        ("--expect-state",),
        "Exit 6 unless the task ends in one of these states (comma list).",
        RUN,
        complete=complete_task_states,
    ),
)


class MessageCommand(OrderedCommand):
    """The class of a command that takes the message options (`rows`): it declares them after the
    command's own parameters (Click's `params`), and `invoke` takes their values out of the parsed
    parameters into one `MessageInput` (`ctx.meta`, Click's store shared by this invocation's
    contexts) before the function is called. Ordered: the parts follow the command line
    (`registry.OrderedCommand` keeps it)."""

    rows: ClassVar[tuple[MessageOption, ...]] = MESSAGE_OPTIONS

    def __init__(self, *args: Any, params: list[Any] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, params=[*(params or []), *(row.param() for row in self.rows)], **kwargs)

    def invoke(self, ctx: Any) -> Any:
        ctx.meta[KEY] = _message_input(
            {row: ctx.params.pop(row.name) for row in self.rows if row.name in ctx.params},
            ctx.meta.get("a2acli.argv", ()),
        )
        return super().invoke(ctx)


class SendCommand(MessageCommand):
    """`a2a send`: every message option."""


class StreamCommand(MessageCommand):
    """`a2a stream`: the message options but how to wait (it streams)."""

    rows = tuple(row for row in MESSAGE_OPTIONS if not row.send_only)


def _message_input(given: dict[MessageOption, Any], argv: Any) -> MessageInput:
    """The values given, each under its field (a repeated option's as a tuple; an alias's under
    the field it is another name of, unless that was given too)."""
    fields = {row.name: _plain(value) for row, value in given.items() if row.alias_of is None}
    for row, value in given.items():
        if row.alias_of is not None and value and not fields.get(row.alias_of):
            fields[row.alias_of] = _plain(value)
    return MessageInput(argv=tuple(argv), **{k: v for k, v in fields.items() if v is not None})


def _plain(value: Any) -> Any:
    return tuple(value) if isinstance(value, list | tuple) else value


def message_input(ctx: typer.Context) -> MessageInput:
    """This invocation's message options, as the command's class took them (`MessageCommand`)."""
    given = ctx.meta.get(KEY)
    assert isinstance(given, MessageInput), "a command that reads the message options is marked takes_message"
    return given


F = TypeVar("F", bound=Callable[..., Any])


def takes_message(cls: type[MessageCommand]) -> Callable[[F], F]:
    """Marks a command whose class is `cls`, which declares the message options and hands their
    values over (`message_input`); the function's signature lists none of them."""

    def mark(command: F) -> F:
        command.command_class = cls  # type: ignore[attr-defined]  # read by registry._command
        return command

    return mark
