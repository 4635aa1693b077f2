"""`a2a chat`: talk with an agent turn by turn; the context and the waiting task carry over (a credential an auth-required task asks for is read at the terminal, for one turn)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Annotated

import typer

from a2acli.commands._options import POLL_INTERVAL, CallOptions, method_options, poll_interval_option, poll_seconds
from a2acli.commands._run import boundary, run_chat

PROMPT = "you> "


def _typed(prompt: str) -> Iterator[str]:
    """Lines typed at the terminal, the prompt on stderr (stdout keeps the agent's answers)."""
    while True:
        sys.stderr.write(prompt)
        sys.stderr.flush()
        line = sys.stdin.readline()
        if not line:  # Ctrl-D
            sys.stderr.write("\n")
            return
        yield line


def _ttys() -> tuple[bool, bool]:
    """Whether stdin and stdout are terminals (the gate of the interactive mode)."""
    return sys.stdin.isatty(), sys.stdout.isatty()


def chat(
    context_id: Annotated[str | None, typer.Option("--context-id", help="Continue this context from the first turn.", show_default=False)] = None,
    task_id: Annotated[str | None, typer.Option("--task-id", help="The first turn answers this task (one waiting for input or authentication).", show_default=False)] = None,
    poll_interval: Annotated[str, poll_interval_option()] = POLL_INTERVAL,
    *,
    opts: CallOptions,
) -> None:
    """Talk with the agent turn by turn (SendMessage per line): the context, and the task while it
    waits for input or authentication, carry over to the next turn.

    At a terminal: type a message after `you> `; `/new` starts a new context, `/quit` or Ctrl-D
    ends; an error is said and the session goes on. A task that asks for authentication
    (auth-required): the credential its Agent Card's scheme takes (an API key, a bearer token) is
    read without echo and sent with your next line only, never stored. Not at a terminal (stdin or
    stdout is a pipe): no prompt, each line of stdin is one turn, the output is plain text (or one
    JSON document per turn, a line each, under -o json), the first error ends the session with its
    exit code, and a task that asks for authentication ends it (exit 0) with the command that
    continues it.

    Examples:

      a2a chat -u http://127.0.0.1:41241

      printf 'hello\\nand again\\n' | a2a chat -u http://127.0.0.1:41241
    """
    from a2acli.errors import UsageError

    stdin_tty, stdout_tty = _ttys()
    with boundary(output_hint=opts.output, debug=opts.debug):
        if stdin_tty and not stdout_tty:
            raise UsageError(
                "chat reads from the terminal but its answers go to a pipe: it would wait for typing nobody sees prompted",
                hint="pipe the messages in (printf 'hello\\n' | a2a chat ...), or use `a2a send` in scripts",
            )
    interactive = stdin_tty and stdout_tty
    lines = _typed(PROMPT) if interactive else iter(sys.stdin.readline, "")
    secret = _secret if interactive else None  # a credential is read from the terminal only
    run_chat(lines, opts, context_id=context_id, task_id=task_id, poll_interval=poll_seconds(poll_interval, opts), interactive=interactive, secret=secret)


def _secret(prompt: str) -> str:
    """A credential typed at the terminal, not echoed (getpass reads the terminal itself)."""
    import getpass

    return getpass.getpass(prompt)


chat_command = method_options(chat)
