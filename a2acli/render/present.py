"""What a reply looks like in each output mode: raw bytes, the JSON document, or the human view
(task panels, state colours, list tables). Each function hands the choice to the Output's mode
class (render.output); commands and the pipeline never branch on the mode."""

from __future__ import annotations

from typing import Any


def state_text(state: Any) -> str:
    from a2acli.render.views import state_label

    return state_label(state)


def present(
    kind: str, reply: Any, out: Any, *, as_v1: bool = False, lines: bool = False, signature: Any = None, flags: str = ""
) -> None:
    """Show one reply (`kind` is the method table's `result`: send, task, task-list, …); `lines`:
    under -o json one compact line (one reply of several, as `a2a chat` prints them);
    `signature`: a card's signature outcome, shown in its text view; `flags`: the connection
    flags that end a command the view suggests (a card's skills). The mode decides (Output.reply)."""
    out.reply(kind, reply, as_v1=as_v1, lines=lines, signature=signature, flags=flags)


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


def catalog(out: Any, document: dict[str, Any], raw: bytes) -> None:
    """`a2a card catalog`: the agents of a catalog (raw: the catalog as it came; json: the
    listing; text: one row per agent, the reference that names it last)."""
    out.item(raw, document, lambda: _catalog_view(out, document))


def _catalog_view(out: Any, document: dict[str, Any]) -> None:
    from a2acli.render.views import L

    agents = document["agents"]
    fields = [
        (
            a["name"],
            a.get("description", ""),
            ", ".join(a.get("tags", [])),
            a.get("url") or "(in the catalog)",
            a["reference"],
        )
        for a in agents
    ]
    labels = (L.AGENT, L.DESCRIPTION, L.TAGS, L.CARD_AT, L.REFERENCE)
    if out.rich:
        out.table(
            list(labels),
            [list(f) for f in fields],
            title=f"{len(agents)} agent(s) in {document['catalog']}",
            keep=(L.CARD_AT, L.REFERENCE),
            drop=(L.TAGS, L.DESCRIPTION),
        )
    else:  # the text floor: one record per agent, its empty fields left out
        for f in fields:
            out.rows([(label, value) for label, value in zip(labels, f, strict=True) if value], title=L.AGENT)
    for a in agents:
        if a.get("problem"):
            out.warn(a["problem"])
    if not agents:
        out.note(f"no agents in {document['catalog']}")


def task_lines(page: Any, out: Any, *, as_v1: bool = False) -> None:
    """One page of a task list, delivered task by task (`tasks list --stream`): under -o json one
    Task a line as the wire spelt it (the spec's JSONL form of a list), in text one record each,
    under -o raw the page as it came (Output.task_page)."""
    out.task_page(page, as_v1=as_v1)


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


def next_page_note(out: Any, core: Any, again: str = "a2a tasks list") -> None:
    """After one page of a list (a human's view): the command that fetches the next, on its own line."""
    if (core or {}).get("nextPageToken"):
        import shlex

        out.next_step(
            "more tasks; the next page (or --all for every page):",
            f"{again} --page-token {shlex.quote(str(core['nextPageToken']))}",
        )


def waiting(
    out: Any,
    task: dict[str, Any] | None = None,
    *,
    what: str = "waiting for task",
    since: float | None = None,
    announced: bool = False,
) -> Any:
    """The wait for a task as a context: a spinner on stderr at a terminal (elapsed time, state,
    latest status message; `.update(task)` after each look, `.event(reply)` for a stream event),
    lines off one, nothing under -o json."""
    from a2acli.render.progress import Waiting

    return Waiting(out, task, what=what, since=since, announced=announced)


def progress(out: Any, text: str) -> None:
    """A waiting line (a human's view only: JSON and raw keep stderr for what matters)."""
    out.remark(text)


def passthrough(out: Any, data: bytes | str) -> None:
    """Under -o raw, bytes as they crossed the wire that no reply carries: an error body, the
    first answer before a wait, each page of a list."""
    out.passthrough(data)


def request(out: Any, head: list[str], body: bytes | None, document: Any, *, whole: Any = None) -> None:
    """A request as `--offline` shows it (Output.request): request line and headers, then the
    body (raw: the body alone on stdout, json: its JSON document, or `whole` where one is given;
    the head goes to stderr in both)."""
    out.request(head, body, document, whole=whole)
