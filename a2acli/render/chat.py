"""`a2a chat` at a terminal, shown as a REPL: a banner naming the agent and how to leave, then each
answer as the agent's words (not a task panel), with the task's state only when it is not
`completed`. Off a terminal, and under -o json or --verbose, chat prints what `send` prints."""

from __future__ import annotations

from typing import Any

from a2acli.render import views
from a2acli.render.output import Output

SLASH_HELP = (
    ("/help", "this list"),
    ("/task", "the context and task ids of this session"),
    ("/new", "start a new context (the next line is a new conversation)"),
    ("/data", "/data JSON: send a data part (a JSON object)"),
    ("/skill", "/skill NAME [key=value|key:=JSON …]: send a skill's data part, as send --skill -f does"),
    ("/quit", "leave (also /exit, Ctrl-D)"),
    ("//text", "send a line that starts with /"),
)
KEYS = "Ctrl-C stops the turn (the task goes on at the agent) or clears the line; Ctrl-D leaves."


def banner(out: Output, card: dict[str, Any] | None, *, url: str, binding: str, version: str) -> None:
    """Who the chat is with (name and version as the card gives them, nothing invented), where,
    and how to leave; on stderr, so stdout keeps the agent's answers."""
    card = card or {}
    name = str(card.get("name") or "").strip() or url
    agent_version = str(card.get("version") or "").strip()
    out.tell(f"a2a chat with {name}" + (f" {agent_version}" if agent_version else ""))
    out.note(f"{binding} at {url}, A2A {version}")
    out.note(f"/help lists the commands; /quit or Ctrl-D leaves. {KEYS.split(';')[0]}.")


def slash_help(out: Output) -> None:
    width = max(len(cmd) for cmd, _ in SLASH_HELP)
    for cmd, what in SLASH_HELP:
        out.note(f"  {cmd:<{width}}  {what}")
    out.note(KEYS)


def _parts(parts: Any) -> list[str]:
    return [views.part_text(p) for p in parts if isinstance(p, dict)] if isinstance(parts, list) else []


def reply(out: Output, core: Any) -> None:
    """One answer as the agent's words: a Message's parts; a Task's status message (when it says
    something), then its artifacts' parts; `[state]` after them when the task is not completed
    (or said nothing)."""
    if not isinstance(core, dict):
        return
    if isinstance(core.get("message"), dict):
        lines = _parts(core["message"].get("parts"))
        state = "" if lines else "a message without text"
    else:
        task: dict[str, Any] = core["task"] if isinstance(core.get("task"), dict) else core
        status: dict[str, Any] = task["status"] if isinstance(task.get("status"), dict) else {}
        msg = status.get("message")
        lines = _parts(msg.get("parts")) if isinstance(msg, dict) else []
        for art in task.get("artifacts") or []:
            if isinstance(art, dict):
                lines += _parts(art.get("parts"))
        state = views.state_label(status.get("state"))
        state = "" if state == "completed" and lines else state
    for line in lines:  # the agent's words: its line feeds are the content's (each line escaped as any other)
        out.text(*line.split("\n"))
    if state:
        out.text(f"[{state}]")
