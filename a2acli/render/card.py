"""The Agent Card at a terminal: what a first call needs, on one screen. One line per interface
(binding, version, URL), one per security scheme (where the credential goes, the flag that sends
it), then per skill its name, what it needs (the flag of its own security requirement) and a
command ready to paste, built from the card's own examples. Nothing the card does not contain is
shown as if it did. Off a terminal (and with --verbose) the card keeps the text floor's
`Label: value` lines (views.card_rows)."""

from __future__ import annotations

import json
import shlex
from typing import Any, NamedTuple

from a2acli.render import views
from a2acli.render.views import Row, Rows


class SkillUse(NamedTuple):
    """How to call one skill, from its card entry alone."""

    id: str
    name: str
    tags: list[str]
    needs: list[str]  # flags its own security requirement takes ("--api-key KEY")
    commands: list[str]  # ready to paste, one per example the card gives
    more: int  # examples not turned into a command (only the first is, when concise)


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def interface_lines(card: dict[str, Any]) -> list[str]:
    """`JSONRPC    1.0  http://…` per interface, columns aligned; a value the card leaves out is `?`."""
    rows = []
    for itf in _listed(card.get("supportedInterfaces")):
        if not isinstance(itf, dict):
            rows.append((views.compact(itf), "", ""))
            continue
        url = str(itf.get("url") or "?") + (f" (tenant {itf['tenant']})" if itf.get("tenant") else "")
        rows.append((str(itf.get("protocolBinding") or "?"), str(itf.get("protocolVersion") or "?"), url))
    width = [max((len(r[i]) for r in rows), default=0) for i in range(2)]
    return [f"{b:<{width[0]}}  {v:<{width[1]}}  {u}".rstrip() for b, v, u in rows]


def scheme_line(name: str, scheme: Any) -> str:
    """`apiKey 'key': header X-API-Key, --api-key KEY. Its description`."""
    kind, where, how = views.scheme_how(scheme)
    body: Any = next(iter(scheme.values()), {}) if isinstance(scheme, dict) and scheme else {}
    line = f"{kind} {name!r}" + (f": {where}" if where else "") + (f", {how}" if how else "")
    if isinstance(body, dict) and body.get("description"):
        line += f". {body['description']}"
    return line


def _example_command(skill_id: str, example: Any) -> str | None:
    """`a2a send …` for one example: a JSON object naming the skill becomes --skill ID and -f
    fields (key=value for a string, key:=JSON otherwise); any other JSON object a --data part;
    plain text the message's text."""
    text = example if isinstance(example, str) else json.dumps(example, ensure_ascii=False)
    try:
        doc = json.loads(text)
    except ValueError:
        doc = None
    if isinstance(doc, dict) and doc.get("skill") == skill_id:
        fields = []
        for key, value in doc.items():
            if key == "skill":
                continue
            if not isinstance(key, str) or not key or any(c in key for c in "=:"):
                return f"a2a send --data {shlex.quote(json.dumps(doc, ensure_ascii=False))}"  # -f cannot name it
            fields.append(
                f"{key}={value}" if isinstance(value, str) else f"{key}:={json.dumps(value, ensure_ascii=False)}"
            )
        return " ".join(["a2a send --skill", shlex.quote(skill_id), *(f"-f {shlex.quote(f)}" for f in fields)])
    if isinstance(doc, dict):
        return f"a2a send --data {shlex.quote(json.dumps(doc, ensure_ascii=False))}"
    text = text.strip()
    return f"a2a send {shlex.quote(text)}" if text else None


def skill_uses(card: dict[str, Any], *, verbose: bool = False) -> list[SkillUse]:
    """Each skill's name, needs and commands (the first example only, unless verbose)."""
    schemes: dict[str, Any] = card["securitySchemes"] if isinstance(card.get("securitySchemes"), dict) else {}
    uses = []
    for skill in _listed(card.get("skills")):
        if not isinstance(skill, dict):
            continue
        sid = str(skill.get("id") or "")
        needs: list[str] = []
        for req in _listed(skill.get("securityRequirements")):
            for name in (
                (req.get("schemes") or {}) if isinstance(req, dict) and isinstance(req.get("schemes"), dict) else {}
            ):
                way = views.scheme_way(schemes.get(name))
                flag = (f"`{way.login}`" if way.login else way.flag) or f"the card's scheme {name!r}"
                if flag not in needs:
                    needs.append(flag)
        examples = _listed(skill.get("examples"))
        shown = examples if verbose else examples[:1]
        commands = [c for c in (_example_command(sid, e) for e in shown) if c]
        tags = [str(t) for t in _listed(skill.get("tags"))]
        uses.append(SkillUse(sid, str(skill.get("name") or ""), tags, needs, commands, len(examples) - len(shown)))
    return uses


def card_rows(card: dict[str, Any], *, signature: Any = None) -> Rows:
    """The panel: who, where (one line per interface), what it can do, how to authenticate."""
    rows = _who_rows(card, signature)
    interfaces = interface_lines(card)
    if interfaces:
        rows.append(Row("Interfaces", _lines(interfaces), True))
    caps: dict[str, Any] = card["capabilities"] if isinstance(card.get("capabilities"), dict) else {}
    rows.append(
        Row(
            views.L.CAPABILITIES,
            ", ".join(k for k in ("streaming", "pushNotifications", "extendedAgentCard") if caps.get(k)) or "none",
        )
    )
    return rows + _mode_rows(card) + _security_rows(card)


def _lines(lines: list[str]) -> str:
    """A block of a2a's own lines, one per interface or scheme: each kept to its line (an agent's
    line feed in a URL or a description is shown `\\n`, never a line of its own)."""
    from a2acli.render.safe import visible

    return "\n".join(visible(line, one_line=True) for line in lines)


def _who_rows(card: dict[str, Any], signature: Any) -> Rows:
    """Name, then description, version, provider and signature where the card has them."""
    rows: Rows = [Row(views.L.AGENT, str(card.get("name", "")))]
    if card.get("description"):
        rows.append(views.prose(views.L.DESCRIPTION, card["description"]))
    if card.get("version"):
        rows.append(Row(views.L.VERSION, str(card["version"])))
    if isinstance(card.get("provider"), dict) and card["provider"].get("organization"):
        rows.append(Row(views.L.PROVIDER, str(card["provider"]["organization"])))
    if signature is not None:
        rows.append(Row(views.L.SIGNATURE, signature.status))
    return rows


def _mode_rows(card: dict[str, Any]) -> Rows:
    """The default input and output media types: one line when they are the same."""
    modes_in, modes_out = (
        ", ".join(str(m) for m in _listed(card.get(k))) for k in ("defaultInputModes", "defaultOutputModes")
    )
    if modes_in and modes_in == modes_out:
        return [Row("Modes", f"{modes_in} (in and out)")]
    return [
        Row(label, value)
        for label, value in ((views.L.INPUT_MODES, modes_in), (views.L.OUTPUT_MODES, modes_out))
        if value
    ]


def _security_rows(card: dict[str, Any]) -> Rows:
    """A line per security scheme, then which of them a call needs."""
    rows: Rows = []
    schemes = card.get("securitySchemes")
    lines = [scheme_line(str(name), scheme) for name, scheme in schemes.items()] if isinstance(schemes, dict) else []
    if lines:
        rows.append(Row(views.L.SECURITY, _lines(lines), True))
    required = [
        sorted((r.get("schemes") or {}).keys())
        for r in _listed(card.get("securityRequirements"))
        if isinstance(r, dict)
    ]
    if required:
        rows.append(Row(views.L.REQUIRES, " or ".join(" and ".join(names) for names in required if names) or "none"))
    return rows


def show(out: Any, card: dict[str, Any], *, signature: Any = None, flags: str = "") -> None:
    """The card's panel, then its skills: a line each (id, name, needs), under it the commands,
    printed whole (the terminal wraps them, so a copy is one line); `flags` (` -u URL`) end them."""
    from rich.text import Text

    from a2acli.render.safe import visible

    out.rows(card_rows(card, signature=signature), title="Agent Card", style="magenta")
    uses = skill_uses(card)
    if not uses:
        return
    console = out.console
    console.print(Text(f"Skills ({len(uses)})", style="bold magenta"))
    for use in uses:
        head = Text("  ")
        head.append(visible(use.id, one_line=True), style="bold")
        if use.name and use.name != use.id:
            head.append(f"  {visible(use.name, one_line=True)}")
        if use.tags:
            head.append(f"  ({visible(', '.join(use.tags), one_line=True)})", style="dim")
        if use.needs:
            head.append(f"  needs {', '.join(use.needs)}", style="yellow")
        console.print(head)
        for command in use.commands:
            console.print(Text(f"    {visible(command + flags, one_line=True)}", style="cyan"), soft_wrap=True)
        if use.more:
            console.print(
                Text(
                    f"    ({use.more} more example{'s' if use.more > 1 else ''}: --verbose shows {'them' if use.more > 1 else 'it'})",
                    style="dim",
                )
            )
    console.print(Text("--verbose: every field of the card, skill descriptions included", style="dim"))
