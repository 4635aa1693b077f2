"""`a2a chat`: talk with an agent turn by turn; the context and the waiting task carry over (a credential an auth-required task asks for is read at the terminal, for one turn)."""

from typing import Annotated

import typer

from a2acli.commands import shared
from a2acli.commands._options import POLL_INTERVAL, poll_interval_option, poll_seconds, typed
from a2acli.commands._run import run
from a2acli.settings.values import check_id


@shared.takes_shared
def chat(
    ctx: typer.Context,
    context_id: Annotated[
        str | None,
        typer.Option(
            "--context-id",
            help="Continue this context from the first turn.",
            show_default=False,
            metavar="ID",
            parser=typed(check_id, "--context-id"),
        ),
    ] = None,
    task_id: Annotated[
        str | None,
        typer.Option(
            "--task-id",
            help="The first turn answers this task (one waiting for input or authentication).",
            show_default=False,
            metavar="ID",
            parser=typed(check_id, "--task-id"),
        ),
    ] = None,
    poll_interval: Annotated[str, poll_interval_option()] = POLL_INTERVAL,
) -> None:
    """Talk with the agent turn by turn: a REPL at a terminal, one turn per line when piped.

    Each line is one SendMessage, or SendStreamingMessage when the Agent Card claims streaming (the waiting line then shows the task's state and status message as they come); the context, and the task while it waits for input or authentication, carry over to the next turn.

    At a terminal: a banner names the agent; type after `you> ` with line editing and history (kept
    in $XDG_STATE_HOME/a2acli/chat_history, or A2ACLI_CHAT_HISTORY; empty: none). Each answer is the
    agent's text, with the task's state when it is not completed. Slash commands stay here: /help,
    /task (the context and task ids), /new (a new context), /data JSON (a data part), /skill NAME
    \\[key=value|key:=JSON …] (a skill's data part, as `send --skill -f`), /quit (or Ctrl-D); //text
    sends a line starting with /. Ctrl-C stops the current turn (the task goes on at the agent, and
    how to pick it up is said) or clears the line; an error is said and the session goes on. A task
    that asks for authentication (auth-required): the credential its Agent Card's scheme takes (an
    API key, a bearer token) is read without echo and sent with your next line only, never stored.

    Not at a terminal (stdin or stdout is a pipe): no prompt, each line of stdin is one turn (slash
    commands work as at a terminal), the output is what `send` prints (or one JSON document per
    turn, a line each, under -o json), the first error ends the session with its exit code, and a
    task that asks for authentication ends it (exit 0) with the command that continues it.

    Examples:

      a2a chat -u http://127.0.0.1:41241

      printf 'hello\\nand again\\n' | a2a chat -u http://127.0.0.1:41241

      printf '/skill create-user projectUserId=u1\\n' \\
          | a2a chat -u http://127.0.0.1:41241
    """
    from a2acli.flows.chat import chat as chat_flow

    run(ctx, chat_flow, context_id=context_id, task_id=task_id, poll_interval=poll_seconds(poll_interval))


chat_command = chat
