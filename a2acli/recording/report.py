"""What a comparison of two dumps found (`a2a diff`, `a2a replay`): the differences, per
section the two texts shown as a unified diff, and the report's verdict and JSON. Pure."""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from typing import Any

from a2acli.recording.dumps import MISSING, Dump, DumpedExchange, lines_of


@dataclass(frozen=True)
class Difference:
    exchange: str  # the V1 method name (or "card")
    path: str  # section.json.path: response.body.result.task.status.state
    left: Any  # MISSING when only the right side has it
    right: Any  # MISSING when only the left side has it
    kind: str  # changed | added (right only) | removed (left only)
    aside: str = ""  # why it does not count (what the compared variable implies); "" when it counts

    def to_json(self) -> dict[str, Any]:
        return {
            "exchange": self.exchange,
            "path": self.path,
            "kind": self.kind,
            "left": None if self.left is MISSING else self.left,
            "right": None if self.right is MISSING else self.right,
            **({"aside": self.aside} if self.aside else {}),
        }


@dataclass
class Section:
    name: str  # request.line, request.headers, request.body, response.status, response.headers, response.body, response.events
    left: Any  # prepared value (MISSING: the side has no such section)
    right: Any
    left_file: str
    right_file: str
    raw: bool = False
    differences: list[Difference] = field(default_factory=list)

    def text(self, side: Any) -> list[str]:
        if side is MISSING:
            return []
        if self.name.endswith("headers"):
            return [f"{k}: {v}" for k, v in side.items()]
        if isinstance(side, str):
            return lines_of(side)
        return lines_of(json.dumps(side, indent=2, ensure_ascii=False, sort_keys=not self.raw))

    def unified(self, context: int = 3, *, everything: bool = False) -> list[str]:
        """The section's unified diff; a header that differs only as the compared variable
        implies is left out of it unless `everything`."""
        left, right = self.left, self.right
        hidden = {d.path[len(self.name) + 1 :] for d in self.differences if d.aside} if not everything else set()
        if hidden and self.name.endswith("headers"):
            left, right = (
                {k: v for k, v in side.items() if k not in hidden} if isinstance(side, dict) else side
                for side in (left, right)
            )
        return list(
            difflib.unified_diff(
                self.text(left), self.text(right), self.left_file, self.right_file, n=context, lineterm=""
            )
        )


@dataclass
class ExchangeDiff:
    method: str
    left: DumpedExchange | None
    right: DumpedExchange | None
    sections: list[Section] = field(default_factory=list)

    aside: str = ""  # why none of this exchange's differences counts (the card without --card)

    @property
    def everything(self) -> list[Difference]:
        """Every difference, those that do not count included."""
        if self.left is None or self.right is None:
            side = self.left or self.right
            assert side is not None
            kind = "removed" if self.right is None else "added"
            value = f"{side.stem} ({side.label})"
            return [
                Difference(
                    self.method,
                    "exchange",
                    value if kind == "removed" else MISSING,
                    value if kind == "added" else MISSING,
                    kind,
                    self.aside,
                )
            ]
        return [d for s in self.sections for d in s.differences]

    @property
    def differences(self) -> list[Difference]:
        """The differences that count."""
        return [d for d in self.everything if not d.aside]


@dataclass
class Report:
    left: Dump
    right: Dump
    exchanges: list[ExchangeDiff]
    raw: bool
    keep_ids: bool
    notes: list[str] = field(default_factory=list)
    card: bool = False  # --card: the card fetches count too

    @property
    def differences(self) -> list[Difference]:
        """The differences that count: exit 1 when there is one."""
        return [d for e in self.exchanges for d in e.differences]

    @property
    def aside(self) -> list[Difference]:
        """The differences that do not count (what the compared variable implies), for -v."""
        return [d for e in self.exchanges for d in e.everything if d.aside]

    @property
    def equal(self) -> bool:
        return not self.differences

    def verdict(self) -> str:
        """The one line that ends `diff` and `replay` on stderr (under -q too)."""
        what = "canonical V1" if not self.raw else "raw bodies"
        ids = "ids kept" if self.keep_ids else "ids and times aside"
        n = len(self.exchanges)
        if self.equal:
            return f"same: the answers agree, {n} exchange(s) compared ({what}; {ids})"
        changed = sum(1 for e in self.exchanges if e.differences)
        return f"different: {len(self.differences)} difference(s) in {changed} of {n} exchange(s) ({what}; {ids})"

    def aside_summary(self) -> str | None:
        """One line on the differences that do not count, or None when there is none."""
        aside = self.aside
        if not aside:
            return None
        reasons: dict[str, list[Difference]] = {}
        for d in aside:
            reasons.setdefault(d.aside, []).append(d)
        said = []
        for why, found in reasons.items():
            where = list(dict.fromkeys(_where(d.path) for d in found)) if why.startswith("implied") else []
            said.append(f"{len(found)} {why}" + (f" ({', '.join(where)})" if where else ""))
        return f"{len(aside)} difference(s) do not count: {'; '.join(said)}; -v shows them"

    def to_json(self) -> dict[str, Any]:
        return {
            "equal": self.equal,
            "left": {"path": self.left.path, "version": self.left.version},
            "right": {"path": self.right.path, "version": self.right.version},
            "mode": "raw" if self.raw else "canonical-v1",
            "idsNormalised": not self.keep_ids,
            "cardCompared": self.card,
            "exchanges": [
                {
                    "method": e.method,
                    "left": e.left.stem if e.left else None,
                    "right": e.right.stem if e.right else None,
                    "differences": len(e.differences),
                    "aside": len(e.everything) - len(e.differences),
                }
                for e in self.exchanges
            ],
            "differences": [d.to_json() for d in self.differences],
            "aside": [d.to_json() for d in self.aside],
            "notes": self.notes,
        }


def _where(path: str) -> str:
    """A path as the line on what does not count names it: `request.headers.a2a-version` is the
    header `a2a-version`, `request.line` the request line."""
    section, _, rest = path.partition(".")
    part, _, name = rest.partition(".")
    if part == "headers" and name:
        return name
    return {"line": "request line", "status": "status", "shape": "JSON-RPC framing"}.get(part, path)
