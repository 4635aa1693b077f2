"""A short text on a method's result, for a face that gives one beside the protocol's JSON (`a2a
mcp`'s tool results): a task's id, context, state and text; a message's text; a card's name and
interfaces; a list's length; a push config's id and URL."""

from __future__ import annotations

from typing import Any


def summary(value: Any, *, card: bool = False) -> str:
    """One or two lines on a result: a task's id, context, state and text; a message's text; a
    card's name and interfaces; a list's length; a push config's id and URL."""
    if not isinstance(value, dict) or not value:
        return "done (an empty answer)"
    if card:
        return _card(value)
    task = value.get("task") or (value if "status" in value and "id" in value else None)
    if isinstance(task, dict):
        return _task(task)
    for key, say in _BY_KEY:
        if isinstance(value.get(key), (dict, list)):
            return say(value)
    if "url" in value and "taskId" in value:
        return f"push config {value.get('id')} of task {value.get('taskId')} -> {value.get('url')}"
    return "done"


def _card(card: dict[str, Any]) -> str:
    interfaces = ", ".join(
        f"{i.get('protocolBinding')} {i.get('protocolVersion')}" for i in card.get("supportedInterfaces") or []
    )
    skills = len(card.get("skills") or [])
    return f"Agent Card: {card.get('name')} {card.get('version') or ''}, {skills} skills; interfaces: {interfaces}"


def _task(task: dict[str, Any]) -> str:
    from a2acli.render.views import parts_text
    from a2acli.wire.words import state_label

    status = task.get("status") or {}
    texts = [parts_text((status.get("message") or {}).get("parts"))]
    texts += [parts_text(a.get("parts")) for a in task.get("artifacts") or []]
    said = "\n".join(t for t in texts if t)
    head = f"task {task.get('id')} (context {task.get('contextId')}): {state_label(status.get('state'))}"
    return head + (f"\n{said}" if said else "")


def _message(value: dict[str, Any]) -> str:
    from a2acli.render.views import parts_text

    return "message: " + parts_text(value["message"].get("parts"))


def _tasks(value: dict[str, Any]) -> str:
    from a2acli.wire.words import state_label

    more = f" (next page: {value['nextPageToken']})" if value.get("nextPageToken") else ""
    return f"{len(value['tasks'])} task(s){more}: " + ", ".join(
        f"{t.get('id')} {state_label((t.get('status') or {}).get('state'))}" for t in value["tasks"][:20]
    )


def _configs(value: dict[str, Any]) -> str:
    return f"{len(value['configs'])} push config(s): " + ", ".join(
        f"{c.get('id')} -> {c.get('url')}" for c in value["configs"]
    )


_BY_KEY = (("message", _message), ("tasks", _tasks), ("configs", _configs))
