"""What a reply looks like in each output mode: raw bytes, the JSON document, or the human view
(task panels, state colours, list tables). Each function hands the choice to the Output's mode
class (render.output); commands and the pipeline never branch on the mode."""

from __future__ import annotations

from typing import Any


def state_text(state: Any) -> str:
    from a2acli.wire.words import state_label

    return state_label(state)


def present(
    kind: str, reply: Any, out: Any, *, as_v1: bool = False, lines: bool = False, signature: Any = None, flags: str = ""
) -> None:
    """Show one reply (`kind` is the method table's `result`: send, task, task-list, …); `lines`:
    under -o json one compact line (one reply of several, as `a2a chat` prints them);
    `signature`: a card's signature outcome, shown in its text view; `flags`: the connection
    flags that end a command the view suggests (a card's skills). The mode decides (Output.reply)."""
    out.reply(kind, reply, as_v1=as_v1, lines=lines, signature=signature, flags=flags)


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


def debug_body(out: Any, mark: str, text: str) -> None:
    """A --debug body as stderr shows it, each line behind its mark (`>` sent, `<` received: no line
    of the agent's starts a line of ours): a JSON body indented when stderr is a terminal (one line
    of a few kilobytes is unreadable there); as it crossed the wire elsewhere (a log, a pipe, grep)."""
    from a2acli.render.output import terminal

    laid = text
    if terminal(out.err) and text.lstrip().startswith(("{", "[")):
        import json

        try:
            laid = json.dumps(json.loads(text), indent=2, ensure_ascii=False)
        except ValueError:
            pass
    for line in laid.split("\n"):  # as transport.taps.DebugTap writes a body it lays out itself
        line = line.removesuffix("\r")
        out.note(f"{mark} {line}" if line else mark, always=True)


def passthrough(out: Any, data: bytes | str) -> None:
    """Under -o raw, bytes as they crossed the wire that no reply carries: an error body, the
    first answer before a wait, each page of a list."""
    out.passthrough(data)


def request(out: Any, head: list[str], body: bytes | None, document: Any, *, whole: Any = None) -> None:
    """A request as `--offline` shows it (Output.request): request line and headers, then the
    body (raw: the body alone on stdout, json: its JSON document, or `whole` where one is given;
    the head goes to stderr in both)."""
    out.request(head, body, document, whole=whole)
