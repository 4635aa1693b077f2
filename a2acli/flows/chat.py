"""`a2a chat`'s flow: each line one SendMessage turn through the session, the context and the
waiting task carried from turn to turn. `chat` is the whole session as a face runs it (a REPL at a
terminal, one turn per line of stdin otherwise); `run_chat` the turns over any lines (a test hands
it a list), with a `secret` callable for a credential an auth-required task asks for."""

from __future__ import annotations

import sys
from collections.abc import Callable, Generator, Iterable
from pathlib import Path
from typing import Any

from a2acli.errors import A2acliError, interrupt_handled
from a2acli.flows.boundary import say_error
from a2acli.flows.invocation import Invocation
from a2acli.flows.runs import session
from a2acli.pipeline.session import OfflineShown
from a2acli.wire.methods import METHODS

PROMPT = "you> "


def chat(
    inv: Invocation, *, context_id: str | None = None, task_id: str | None = None, poll_interval: float = 2.0
) -> None:
    """`a2a chat` as run from a shell: at a terminal (stdin and stdout both) a REPL reading typed
    lines (`typed`) and a credential unechoed (`_secret`); otherwise one turn per line of stdin and
    no credential read. A terminal reading into a pipe is refused (it would wait for typing nobody
    sees prompted)."""
    from a2acli.errors import UsageError

    inv.options()  # resolved first: a bad setting is said before the terminal is read
    stdin_tty, stdout_tty = _ttys()
    if stdin_tty and not stdout_tty:
        raise UsageError(
            "chat reads from the terminal but its answers go to a pipe: it would wait for typing nobody sees prompted",
            hint="pipe the messages in (printf 'hello\\n' | a2a chat ...), or use `a2a send` in scripts",
        )
    interactive = stdin_tty and stdout_tty
    lines = typed(PROMPT) if interactive else iter(inv.env.streams()[0].readline, "")
    try:
        run_chat(
            inv,
            lines,
            context_id=context_id,
            task_id=task_id,
            poll_interval=poll_interval,
            interactive=interactive,
            secret=_secret if interactive else None,  # a credential is read from the terminal only
        )
    finally:
        if isinstance(lines, Generator):
            lines.close()  # the history file is written now, however the session ended


def typed(prompt: str) -> Generator[str, None, None]:
    """Lines typed at the terminal, as a REPL reads them: line editing and a history file where
    the platform has readline (loaded here, never at start-up); Ctrl-C clears the line, Ctrl-D
    leaves. The prompt goes where input() writes it (the terminal: stdout is one here)."""
    history = _History()
    try:
        while True:
            try:
                line = input(prompt)
            except KeyboardInterrupt:  # at the prompt: a fresh line, as a shell does
                interrupt_handled()
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


def _secret(prompt: str) -> str:
    """A credential typed at the terminal, not echoed (getpass reads the terminal itself)."""
    import getpass

    return getpass.getpass(prompt)


def run_chat(
    inv: Invocation,
    lines: Iterable[str],
    *,
    context_id: str | None = None,
    task_id: str | None = None,
    poll_interval: float = 2.0,
    interactive: bool = False,
    secret: Callable[[str], str] | None = None,
) -> None:
    """`a2a chat`: each line one SendMessage turn, waited for like `send`; the context (and the
    task while it waits for input or authentication) is carried to the next turn. `/new` starts
    a new context, `/quit` ends. At a terminal (`interactive`) it is a REPL: a banner, slash
    commands handled here (`/help`, `/task`; `//text` sends `/text`), each answer as the agent's
    words, an error said and Ctrl-C stopping the turn (the task goes on) while the session goes
    on. Otherwise the first error ends it with its exit code, as `send` would.

    A task in AUTH_REQUIRED (A2A §7.6): with `secret` (getpass, at a terminal) the credential its
    card's scheme takes is read unechoed and sent with the next turn only; without it (piped) the
    commands that continue the task are said and the session ends (exit 0): a pipe never answers
    a prompt."""
    from a2acli.flows.messages import build_message
    from a2acli.render.present import present

    opts = inv.options()
    with session(inv) as call:
        chat = _Chat(call, context_id, task_id)
        if interactive and call.sends:  # the banner reads the card: not under --offline
            _banner(call)
        for line in lines:
            text = line.strip()
            if not text:
                continue
            if text.startswith("//"):
                parts: list[dict[str, Any]] = [{"text": text[1:]}]  # `//text`: a message that starts with /
            elif text.startswith("/"):  # handled here, at a terminal or piped alike: never sent as text
                if text.split()[0] in ("/quit", "/exit"):
                    break
                handled = chat.slash(text, interactive=interactive)
                if handled is None:
                    continue
                parts = handled
            else:
                parts = [{"text": text}]
            message = build_message(parts, message_id=None, context_id=chat.ctx, task_id=chat.tid, metadata=None)
            params = {"message": message}
            reply = chat.turn(params, poll_interval, interactive=interactive)
            if reply is None:
                continue
            if interactive and call.sink.out.human and not opts.verbose:
                from a2acli.render.chat import reply as said

                said(call.sink.out, reply.core)
            else:
                present(
                    "send", reply, call.sink.out, as_v1=opts.as_v1, lines=True
                )  # -o json: JSON Lines, one answer a turn
            if not chat.carry(reply, secret):
                break


def slash_part(word: str, rest: str) -> dict[str, Any]:
    """The data part of `/data JSON` (an object) or `/skill NAME [key=value|key:=JSON …]` (as
    `send --skill NAME -f …` builds it)."""
    import shlex

    from a2acli.errors import UsageError
    from a2acli.flows.inputs import parse_fields, read_json

    if word == "/data":
        doc = read_json(rest, "/data") if rest else None
        if not isinstance(doc, dict):
            raise UsageError("/data takes a JSON object", hint='e.g. /data {"skill": "echo", "text": "hi"}')
        return {"data": doc}
    try:
        words = shlex.split(rest)
    except ValueError as e:
        raise UsageError(
            f"/skill: {e}", hint="quote values as a shell does: /skill create-user projectUserId='u 1'"
        ) from None
    if not words:
        raise UsageError(
            "/skill needs the skill's id", hint="e.g. /skill create-user projectUserId=u1 (see the card's skills)"
        )
    try:
        fields = parse_fields(words[1:], flag="")  # (its words as /skill takes them, not -f's)
    except UsageError as e:
        raise UsageError(f"/skill {words[0]}: {e.message}", hint=e.hint) from None
    return {"data": {"skill": words[0]} | fields}


def _banner(call: Any) -> None:
    """The chat's first lines at a terminal: the agent (its card read now), where, how to leave.
    An agent that cannot be reached ends the session here, with its exit code."""
    from a2acli.render.chat import banner

    ep = call.target.endpoint()
    banner(call.sink.out, call.target.card, url=ep.url, binding=ep.binding, version=call.opts.wire.version)


class _Chat:
    """What carries from one turn of `a2a chat` to the next: the context, the task waiting for an
    answer, and a credential given for the next turn only."""

    def __init__(self, call: Any, ctx: str | None, tid: str | None) -> None:
        self.call, self.ctx, self.tid = call, ctx, tid
        self.given: dict[str, Any] = {}
        self.last: str | None = None  # the last task's id (for /task)

    def slash(self, text: str, *, interactive: bool = True) -> list[dict[str, Any]] | None:
        """A slash command (at a terminal or piped alike): handled here; the parts to send for
        /data and /skill, else None. A bad /data or /skill is said at a terminal (the session goes
        on) and ends a piped session (exit 2), as any error does."""
        from a2acli.render.chat import slash_help

        out = self.call.sink.out
        word, _, rest = text.partition(" ")
        if word in ("/data", "/skill"):
            try:
                return [slash_part(word, rest.strip())]
            except A2acliError as e:
                if not interactive:
                    raise
                say_error(e, out, debug=self.call.opts.debug, call=self.call)
                return None
        if word == "/new":
            self.ctx = self.tid = None
            self.given = {}
            out.note("the next message starts a new context")
        elif word == "/help":
            slash_help(out)
        elif word == "/task":
            out.note(f"context: {self.ctx or '(none yet: the next message starts one)'}")
            if self.tid:
                out.note(f"task: {self.tid} (waits for you: your next line answers it)")
            elif self.last:
                out.note(f"last task: {self.last}")
        else:
            import difflib

            from a2acli.render.chat import SLASH_HELP

            close = difflib.get_close_matches(word, [c for c, _ in SLASH_HELP if c != "//text"] + ["/exit"], n=1)
            out.warn(
                f"no command {word}: not sent"
                + (f"; did you mean {close[0]}?" if close else "")
                + " (/help lists them; //text sends a line that starts with /)"
            )
        return None

    def turn(self, params: dict[str, Any], poll_interval: float, *, interactive: bool) -> Any:
        """One SendMessage and the wait for its task; None when the turn ended without an answer
        (at a terminal: an error said, or Ctrl-C)."""
        from contextlib import nullcontext

        from a2acli.pipeline.policies import resume_notes, settled, unclaimed, wait_for_task
        from a2acli.render.present import waiting

        call = self.call
        call.tracking.task.clear()
        try:
            with call.turn_credentials(self.given):
                self.given = {}
                call.resolve()
                call.sending = params["message"]  # Ctrl-C before the answer names it
                if call.sends and unclaimed(call, "SendStreamingMessage") is None:
                    return self._streamed(params, poll_interval)
                with waiting(call.sink.out, what="waiting for the agent's answer") if call.sends else nullcontext():
                    reply = call.unary(METHODS["SendMessage"], params)
                call.sending = None
                call.tracking.track(reply.core)
                if call.tracking.task.get("id") and not settled(call.tracking.task.get("state")):
                    reply = wait_for_task(call, poll_interval, wrap=True)
            return reply
        except OfflineShown:  # --offline: the turn's request is printed; the next line is the next turn
            return None
        except A2acliError as e:
            if not interactive:
                raise
            call.sending = None
            say_error(e, call.sink.out, debug=call.opts.debug, call=call)
        except KeyboardInterrupt:
            if not interactive:
                raise
            interrupt_handled()
            resume_notes(call.sink, call, "turn stopped")
            goes_on = (
                f"task {call.tracking.task['id']} goes on at the agent"
                if call.tracking.task.get("id")
                else "the agent may go on with it"
            )
            call.sink.out.note(f"{goes_on}; this session goes on (Ctrl-D leaves)")
            call.sending = None
            self._carry_ids()
            self.tid = None  # the stopped task is not waiting for an answer
        return None

    def _streamed(self, params: dict[str, Any], poll_interval: float) -> Any:
        """A turn to an agent whose card claims streaming: SendStreamingMessage, each event moving the
        waiting line (state and status message, as they come: a slow skill's progress), then the
        settled task from GetTask, as a send answers it (history and artifacts); polled if the
        stream ended before the task settled. A direct Message answer is the answer."""
        from a2acli.pipeline.policies import as_stream_event, settled, wait_for_task
        from a2acli.render.present import waiting

        call = self.call
        last = None
        with waiting(call.sink.out, what="waiting for the agent's answer") as shown:
            for reply in call.stream(METHODS["SendStreamingMessage"], params):
                call.sending = None
                call.tracking.track_reply(reply)
                shown.event(reply)
                last = reply
        call.sending = None
        tid = call.tracking.task.get("id")
        if last is None or not tid or isinstance(last.core, dict) and isinstance(last.core.get("message"), dict):
            return last
        if not settled(call.tracking.task.get("state")):
            return wait_for_task(call, poll_interval, wrap=True)
        reply = call.unary(METHODS["GetTask"], {"id": tid})
        call.tracking.track(reply.core)
        return as_stream_event(call, reply)

    def _carry_ids(self) -> None:
        if self.call.tracking.task.get("id"):
            self.ctx = self.call.tracking.task.get("contextId") or self.ctx
            self.last = self.call.tracking.task["id"]

    def carry(self, reply: Any, secret: Callable[[str], str] | None) -> bool:
        """Carry the ids of this turn's answer to the next; False: the session ends here."""
        from a2acli.pipeline.policies import auth_required_notes, read_credential
        from a2acli.wire.translate import is_interrupted, to_core_task_state

        call = self.call
        core = reply.core if isinstance(reply.core, dict) else {}
        if call.tracking.task.get("id"):
            self._carry_ids()
            waiting_on = is_interrupted(call.tracking.task.get("state"))
            self.tid = call.tracking.task["id"] if waiting_on else None
            if to_core_task_state(call.tracking.task.get("state")) == "TASK_STATE_AUTH_REQUIRED":
                if secret is None:  # piped: nothing here can answer it
                    auth_required_notes(call)
                    call.sink.out.note("chat ends here: it reads no credential from a pipe")
                    return False
                self.given = read_credential(call, secret)
            elif waiting_on:
                call.sink.out.note(f"task {call.tracking.task['id']} waits for you: your next line answers it")
        elif isinstance(core.get("message"), dict):
            self.ctx = core["message"].get("contextId") or self.ctx
            self.tid = None
        return True
