"""The rich rendering of the live stream view's state (render.live_state.LiveState): a header,
the timeline, a panel per artifact and, at the end, a summary. rich is imported only here, inside
the functions, for a human at a terminal."""

from __future__ import annotations

from typing import Any

from a2acli.render.live_state import LiveState
from a2acli.render.safe import safe_text

_STATE_STYLES = {
    "completed": "green",
    "failed": "red",
    "rejected": "red",
    "canceled": "yellow",
    "input-required": "yellow",
    "auth-required": "yellow",
    "working": "cyan",
    "submitted": "blue",
}


def render_live(s: LiveState) -> Any:
    """A rich renderable of the state (rich is imported only here, for a human at a terminal)."""
    from rich.console import Group
    from rich.text import Text

    # agent text (ids, states, notes, names, parts) enters through safe_text alone: escaped, no markup read
    parts: list[Any] = [_header(s)]
    if s.timeline:
        parts.append(_timeline(s))
    if s.artifacts_dropped:
        parts.append(Text(f"… {s.artifacts_dropped} earlier artifact(s) not shown", style="dim"))
    parts += [_artifact_panel(art) for art in s.artifacts.values()]
    if s.done:
        parts.append(_summary_panel(s))
    return Group(*parts)


def _timeline(s: LiveState) -> Any:
    """The states and status messages received, a line each (plain styled lines, not a Table: a
    frame must be cheap to draw)."""
    from rich.text import Text

    width = max(len(r.state) for r in s.timeline)
    timeline = Text(no_wrap=True, overflow="ellipsis")
    timeline.append(f"{'Received':<10}  {'Elapsed':>7}  {'State':<{width}}  Status message", style="bold dim")
    earlier = s.timeline_total - len(s.timeline)
    if earlier > 0:
        timeline.append(f"\n{'':<10}  {'':>7}  {'':<{width}}  … {earlier} earlier row(s) not shown", style="dim")
    for row in s.timeline:
        style = _STATE_STYLES.get(row.state, "magenta" if row.state.startswith("message") else "white")
        timeline.append("\n")
        timeline.append_text(
            safe_text(
                (f"{row.clock:<10}  {'+' + format(row.elapsed, '.1f') + 's':>7}  ", "dim"),
                (f"{row.state:<{width}}", style),
                f"  {row.note}",
            )
        )
    return timeline


def _artifact_panel(art: Any) -> Any:
    """One artifact as streamed so far: its name and chunks in the title, its parts inside."""
    from rich.console import Group
    from rich.panel import Panel
    from rich.text import Text

    named: list[str | tuple[str, str]] = [(art.name or art.artifact_id, "bold magenta")]
    if art.name and art.name != art.artifact_id:
        named.append((f" ({art.artifact_id})", "dim"))
    chunks = f"{art.chunks} chunk{'s' if art.chunks != 1 else ''}"
    named.append((f"  {chunks}, {'complete' if art.complete else 'streaming…'}", "dim"))
    body: list[Any] = []
    if art.description:
        body.append(safe_text(art.description, one_line=False, style="italic"))
    if art.continued:
        body.append(Text("(continued: earlier chunks not shown)", style="dim"))
    body += [_part_text(p) for p in art.parts]
    if art.more_parts:
        body.append(Text(f"… {art.more_parts} more part(s)", style="dim"))
    return Panel(
        Group(*body) if body else Text(""),
        title=safe_text(*named),
        title_align="left",
        border_style="magenta",
        expand=False,
    )


def _part_text(p: Any) -> Any:
    if p.kind == "text" and p.text is not None:
        return safe_text(p.text.render(), one_line=False)
    if p.kind == "data":
        return safe_text(p.pretty, one_line=False, style="green")
    if p.kind == "file":
        return safe_text("file " + p.file, style="cyan")
    return safe_text(p.pretty, one_line=False)


def _summary_panel(s: LiveState) -> Any:
    """The stream's end: task, context, state, and how many events in how long."""
    from rich.panel import Panel
    from rich.table import Table

    style = _STATE_STYLES.get(s.state, "white")
    summary = Table.grid(padding=(0, 2))
    summary.add_column(style=f"bold {style}", no_wrap=True)
    summary.add_column(overflow="fold")
    summary.add_row("Task", safe_text(s.task_id or "(none)"))
    summary.add_row("Context", safe_text(s.context_id))
    summary.add_row("State", safe_text(s.state or "unknown", style=f"bold {style}"))
    summary.add_row("Events", f"{s.events} in {s.elapsed():.1f}s" + (" (then polled)" if s.polled else ""))
    return Panel(summary, title="Summary", title_align="left", border_style=style, expand=False)


def _header(s: LiveState) -> Any:
    """`Task ID  STATE  N events, T s  Context ID`: one line when it fits the terminal, else the
    context on a line of its own, so a label is never wrapped away from its id."""
    events = f"  {s.events} event{'s' if s.events != 1 else ''}, {s.elapsed():.1f}s"
    head = safe_text(
        ("Task ", "bold"),
        s.task_id or "(none yet)",
        "  ",
        (s.state or "waiting", f"bold {_STATE_STYLES.get(s.state, 'white')}"),
        (events, "dim"),
    )
    if not s.context_id:
        return head
    return _OneLineOrTwo(head, safe_text(("Context ", "bold"), s.context_id))


class _OneLineOrTwo:
    """Two texts side by side when they fit the width the view is drawn at, else one below the other."""

    def __init__(self, first: Any, second: Any) -> None:
        self.first, self.second = first, second

    def __rich_console__(self, console: Any, options: Any) -> Any:
        from rich.text import Text

        if self.first.cell_len + 2 + self.second.cell_len <= options.max_width:
            yield Text.assemble(self.first, "  ", self.second)
        else:
            yield self.first
            yield self.second
