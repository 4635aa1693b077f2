"""A reply in a human's view (the text floor, or rich's at a terminal): task records and
panels, state colours, list tables, a card's screen. The text and auto modes of render.output
call it; JSON and raw never load it."""

from __future__ import annotations

from typing import Any


def view(out: Any, kind: str, reply: Any, *, signature: Any = None, flags: str = "") -> None:
    """A reply in a human's view: task panels, state colours, list tables."""
    from a2acli.render import views

    core = reply.core
    verbose = bool(getattr(out, "verbose", False))
    if kind in ("send", "event"):
        _send_view(out, core, verbose)
    elif kind == "task":
        out.rows(views.task_rows(core or {}, verbose=verbose), title="Task", style=state_style(core or {}))
    elif kind == "task-list":
        _task_list(out, core, verbose)
    elif kind in ("push-config", "push-config-list"):
        _push_configs(out, core, listed=kind == "push-config-list")
    elif kind == "card":
        _card_view(out, core, verbose, signature, flags)
    elif kind == "empty":
        out.rows([views.Row(views.L.DELETED, "true")], title="Push config")
    else:
        out.rows([views.Row(views.L.RESULT, views.pretty(core), True)], title="Result")


def _send_view(out: Any, core: Any, verbose: bool) -> None:
    """A send's answer or one event: a message, a task, or an update."""
    from a2acli.render import views

    if isinstance(core, dict) and "message" in core:
        out.rows(views.message_rows(core["message"], verbose=verbose), title="Message", style="green")
    elif isinstance(core, dict) and "task" in core:
        out.rows(views.task_rows(core["task"], verbose=verbose), title="Task", style=state_style(core["task"]))
    else:
        out.rows(views.event_rows(core if isinstance(core, dict) else {}, verbose=verbose), title="Event")


def _push_configs(out: Any, core: Any, *, listed: bool) -> None:
    from a2acli.render import views

    if not listed:
        out.rows(views.push_config_rows(core or {}), title="Push config")
        return
    configs = (core or {}).get("configs") or []
    for cfg in configs:
        out.rows(views.push_config_rows(cfg), title="Push config")
    if not configs:
        out.note("no push configs")


def _card_view(out: Any, core: Any, verbose: bool, signature: Any, flags: str) -> None:
    """At a terminal one screen, with the commands to try (render.card); else the card's record."""
    from a2acli.render import views

    if out.rich and not verbose:
        from a2acli.render import card

        card.show(out, core or {}, signature=signature, flags=flags)
    else:
        out.rows(views.card_rows(core or {}, verbose=verbose, signature=signature), title="Agent Card", style="magenta")


def task_records(out: Any, core: Any) -> None:
    """The tasks of one page, one record each (the text view of task_lines)."""
    from a2acli.render import views

    for task in (core or {}).get("tasks") or []:
        if isinstance(task, dict):
            out.rows(
                views.task_list_rows(task, verbose=bool(getattr(out, "verbose", False))),
                title="Task",
                style=state_style(task),
            )


def _task_list(out: Any, core: Any, verbose: bool) -> None:
    """One page of tasks (or all of them): a table at a terminal, the text floor's records else;
    how many there are on stderr when the agent says (totalSize)."""
    from a2acli.render import views

    tasks = [t for t in (core or {}).get("tasks") or [] if isinstance(t, dict)]
    counted = task_count(len(tasks), core)
    if out.rich and not verbose:
        L = views.L
        out.table(
            [L.TASK, L.CONTEXT, L.STATE, L.UPDATED],
            [
                [
                    str(t.get("id", "")),
                    str(t.get("contextId", "")),
                    views.state_label((t.get("status") or {}).get("state")),
                    str((t.get("status") or {}).get("timestamp", "")),
                ]
                for t in tasks
            ],
            title=counted or f"{len(tasks)} task(s)",
            keep=(L.TASK, L.CONTEXT),  # ids are copied into the next command: never wrapped or cut
            shorter={L.UPDATED: views.short_time},
            drop=(L.UPDATED,),
        )
    else:  # the text floor: one record per task, each closed by a blank line
        for t in tasks:
            out.rows(views.task_list_rows(t, verbose=verbose), title="Task", style=state_style(t))
        if counted and tasks:
            out.note(counted)  # stderr: stdout keeps the records only
    if not tasks:
        out.note("no tasks" + (f" on this page, of {counted}" if counted else ""))


def task_count(shown: int, core: Any) -> str:
    """`2 of 17 tasks` when the agent says how many there are (ListTasks' totalSize); "" when it
    does not."""
    total = (core or {}).get("totalSize") if isinstance(core, dict) else None
    if not isinstance(total, int) or isinstance(total, bool) or total < 0:
        return ""
    if shown == 0:  # `no tasks on this page, of 17 tasks`
        return f"{total} task{'s' if total != 1 else ''}" if total else ""
    return f"{shown} task{'s' if shown != 1 else ''}" + ("" if shown == total else f" of {total}")


def state_style(task: dict[str, Any]) -> str:
    from a2acli.wire.translate import is_interrupted, is_terminal

    state = (task.get("status") or {}).get("state")
    if state in ("TASK_STATE_FAILED", "TASK_STATE_REJECTED"):
        return "red"
    if is_interrupted(state):
        return "yellow"
    return "green" if is_terminal(state) else "cyan"
