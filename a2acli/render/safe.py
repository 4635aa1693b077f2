"""Agent text made safe to show on a terminal: control characters escaped, visible as `\\x1b`.

An agent's answer may carry `\\x1b[2J`, an OSC title or an OSC 52 clipboard write, or line breaks
(LF, CR, VT, FF, NEL U+0085, U+2028, U+2029) that forge a `hint:` line. Everything from the agent
reaches the terminal through `visible` and into a rich renderable through `safe_text` (the
spinner, panels): rich markup is never read in it (rich `Text`, not markup strings).

The rule render.output keeps, in every mode: each line a2a writes is one line. A stderr message
(a note, warning, hint, error, each `--debug` line), a text line, a field of a record and a table
cell are escaped with `one_line` (an agent's line feed shows as `\\n`, never starts a line of
a2a's); only a block's content (a message's or an artifact's text, a data part's JSON) keeps its
line feeds, each of its lines indented under its label. `-o json` escapes every line break too
(render.output.Output.json); `-o raw` keeps the bytes as they crossed the wire."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.text import Text

# C0 controls but tab and newline, DEL, C1 controls (NEL among them), the unicode line and paragraph
# separators, and the bidirectional overrides and isolates (which reorder what is shown: "Trojan
# source"). Compiled on first use (re's cache), not at import: the two cost ~0.7 ms to compile, every
# run paid it, and most text (ASCII, printable) never needs them.
_CONTROL = "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
_CONTROL_LINE = "[\x00-\x08\x0a-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
# Every character that `visible(…, one_line=True)` escapes: what no single line (nor a file name) may hold.
LINE_CONTROLS = _CONTROL_LINE
_NAMED = {"\n": "\\n", "\r": "\\r"}


def _escape(m: re.Match[str]) -> str:
    c = m.group()
    if c in _NAMED:
        return _NAMED[c]
    return f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"


def visible(text: str, *, one_line: bool = False) -> str:
    """`text` with its control characters escaped (`\\x1b`); with `one_line`, newlines too (`\\n`)."""
    if text.isascii() and text.isprintable():  # the usual text: no control character can be in it
        return text
    return re.sub(_CONTROL_LINE if one_line else _CONTROL, _escape, text)


def safe_text(*segments: str | tuple[str, str], one_line: bool = True, **text_options: object) -> Text:
    """The one way agent text enters a rich renderable (a spinner, a panel, a live view): a rich
    `Text`, so no markup is read, whose every segment (`"text"` or `("text", "style")`) is passed
    through `visible`, so no control sequence runs. Segments of our own cost nothing extra."""
    from rich.text import Text

    text = Text(**text_options)  # type: ignore[arg-type]
    for seg in segments:
        value, style = (seg, "") if isinstance(seg, str) else seg
        text.append(visible(str(value), one_line=one_line), style=style or None)
    return text
