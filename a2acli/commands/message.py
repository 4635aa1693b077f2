"""`a2a send` (SendMessage / message/send) and `a2a stream` (SendStreamingMessage / message/stream).

Their options (the parts, the message's ids, the configuration, how to wait) are declared once,
in `commands._message_options`, by the commands' class; each body reads them as one
`MessageInput` (`message_input(ctx)`) and the shared options resolved (`options(ctx)`)."""

import dataclasses
import inspect

import typer

from a2acli.commands import shared
from a2acli.commands._message_options import SendCommand, StreamCommand, message_input, takes_message
from a2acli.commands._options import poll_seconds
from a2acli.commands._run import run
from a2acli.commands.shared import options
from a2acli.flows.messages import MessageInput
from a2acli.flows.runs import run_stream, run_unary

EXAMPLES = """

Examples:

  a2a send 'hello' -u http://127.0.0.1:41241

  a2a send --skill create-user -f projectUserId=user_123 -f age:=42

  a2a send --data @payload.json --file report.pdf --media-type application/pdf

  a2a send --skill slow --follow

  a2a send --skill slow --stream -o json | jq .

  a2a send --skill create-user --offline -o raw --a2a-version 0.3
"""


@takes_message(SendCommand)
@shared.takes_shared
def send(ctx: typer.Context) -> None:
    """Send a message (SendMessage / message/send) and wait for the task.

    One SendMessage, exactly the request given: the agent answers when the task is done or needs
    input. When it answers earlier with a task still working, a2a says the task's id and follows it
    (SubscribeToTask when the Agent Card claims streaming, else GetTask polls) until it settles.
    Ctrl-C or --timeout leave the task running and say how to find it. --follow sends with
    returnImmediately and follows the task (its id known at once); --async returns at once."""
    _send(ctx, message_input(ctx))


send.__doc__ = inspect.cleandoc(send.__doc__ or "") + EXAMPLES


def _send(ctx: typer.Context, given: MessageInput) -> None:
    opts = options(ctx)
    given.check_waiting()
    params = given.params(opts.max_body)
    headers = given.headers(opts.dialect.idempotency_header)
    interval = poll_seconds(given.poll_interval)
    if given.stream:
        if given.retry:
            typer.echo(
                "warning: --retry applies to `send` without --stream (a stream is not replayed); sending once", err=True
            )
        run(
            ctx,
            run_stream,
            "SendStreamingMessage",
            params,
            request_id=given.request_id,
            expect=given.expect_state,
            headers=headers,
            force=given.force,
            poll_interval=interval,
            strict=given.strict,
        )
    else:
        run(
            ctx,
            run_unary,
            "SendMessage",
            params,
            request_id=given.request_id,
            expect=given.expect_state,
            wait=not given.async_,
            poll_interval=interval,
            headers=headers,
            retries=given.retry,
            strict=given.strict,
        )


@takes_message(StreamCommand)
@shared.takes_shared
def stream_command(ctx: typer.Context) -> None:
    """Send a message and stream the task's events live (SendStreamingMessage / message/stream).

    Examples:

      a2a stream --skill slow -f steps:=3

      a2a stream 'hello' -o json | jq -c .
    """
    _send(ctx, dataclasses.replace(message_input(ctx), stream=True))


send_command = send
