"""`a2a chat`: talk with an agent turn by turn; the context and the waiting task carry over (a credential an auth-required task asks for is read at the terminal, for one turn)."""

import sys
from collections.abc import Generator
from pathlib import Path
from typing import Annotated, Any

import typer

from a2acli.commands import shared
from a2acli.commands._chat import run_chat
from a2acli.commands._options import POLL_INTERVAL, poll_interval_option, poll_seconds, typed
from a2acli.commands._run import run
from a2acli.commands.shared import options
from a2acli.settings.values import check_id

PROMPT = "you> "


def _typed(prompt: str) -> Generator[str, None, None]:
    """Lines typed at the terminal, as a REPL reads them: line editing and a history file where
    the platform has readline (loaded here, never at start-up); Ctrl-C clears the line, Ctrl-D
    leaves. The prompt goes where input() writes it (the terminal: stdout is one here)."""
    history = _History()
    try:
        while True:
            try:
                line = input(prompt)
            except KeyboardInterrupt:  # at the prompt: a fresh line, as a shell does
                sys.stdout.write("\n")
                continue
            except EOFError:  # Ctrl-D
                sys.stdout.write("\n")
                return
            yield line
    finally:
        history.save()


def history_path() -> Path | None:
    """The chat's history file (settings.files.chat_history_path: A2ACLI_CHAT_HISTORY, else the XDG
    state directory's)."""
    from a2acli.settings.files import chat_history_path

    return chat_history_path()


class _History:
    """readline's line editing and history, kept in history_path() (mode 0600: what was said to
    an agent is nobody else's). Without readline (Windows), plain lines."""

    LENGTH = 1000

    def __init__(self) -> None:
        try:
            import readline
        except ImportError:  # pragma: no cover (Windows)
            self.readline: Any = None
            return
        self.readline = readline
        self.path = history_path()
        readline.set_history_length(self.LENGTH)
        if self.path is not None:
            try:
                readline.read_history_file(str(self.path))
            except (OSError, UnicodeDecodeError):  # none yet, or unreadable: start afresh
                pass

    def save(self) -> None:
        if self.readline is None or self.path is None:
            return
        import os

        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            self.path.touch(mode=0o600, exist_ok=True)
            self.readline.write_history_file(str(self.path))
            os.chmod(self.path, 0o600)
        except OSError:  # a read-only home: the session still worked
            pass


def _ttys() -> tuple[bool, bool]:
    """Whether stdin and stdout are terminals (the gate of the interactive mode)."""
    return sys.stdin.isatty(), sys.stdout.isatty()


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
    options(ctx)  # resolved first: a bad setting is said before the terminal is read
    from a2acli.errors import UsageError

    stdin_tty, stdout_tty = _ttys()
    if stdin_tty and not stdout_tty:
        raise UsageError(
            "chat reads from the terminal but its answers go to a pipe: it would wait for typing nobody sees prompted",
            hint="pipe the messages in (printf 'hello\\n' | a2a chat ...), or use `a2a send` in scripts",
        )
    interactive = stdin_tty and stdout_tty
    lines = _typed(PROMPT) if interactive else iter(sys.stdin.readline, "")
    secret = _secret if interactive else None  # a credential is read from the terminal only
    try:
        run(
            ctx,
            run_chat,
            lines,
            context_id=context_id,
            task_id=task_id,
            poll_interval=poll_seconds(poll_interval),
            interactive=interactive,
            secret=secret,
        )
    finally:
        if isinstance(lines, Generator):
            lines.close()  # the history file is written now, however the session ended


def _secret(prompt: str) -> str:
    """A credential typed at the terminal, not echoed (getpass reads the terminal itself)."""
    import getpass

    return getpass.getpass(prompt)


chat_command = chat
