"""What a human is shown of each protocol object, as (label, value) rows. Pure: both the plain
printer (off a terminal) and the rich printer (on one) render these same rows."""

from __future__ import annotations

import json
from typing import Any

Rows = list[tuple[str, str]]


def state_label(state: Any) -> str:
    """`TASK_STATE_INPUT_REQUIRED` -> `input-required` (already-lowercase spellings pass through)."""
    s = str(state or "unknown")
    if s.startswith("TASK_STATE_"):
        s = s[len("TASK_STATE_") :]
    return s.lower().replace("_", "-")


def short_time(timestamp: Any, now: Any = None) -> str:
    """An ISO 8601 timestamp, short: `14:03:07` today (local time), `2025-03-01 14:03` before."""
    from datetime import datetime

    text = str(timestamp or "").strip()
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00")[:32])
    except ValueError:
        return text[:16]
    local = when.astimezone() if when.tzinfo else when
    today = (now or datetime.now(local.tzinfo)).date()
    return local.strftime("%H:%M:%S") if local.date() == today else local.strftime("%Y-%m-%d %H:%M")


def role_label(role: Any) -> str:
    s = str(role or "")
    return s[len("ROLE_") :].lower() if s.startswith("ROLE_") else s.lower()


def compact(value: Any, limit: int = 0) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return text if not limit or len(text) <= limit else text[: limit - 1] + "…"


def part_text(part: dict[str, Any]) -> str:
    """One line (or block, for text) describing a V1 part."""
    if "text" in part:
        return str(part["text"])
    if "data" in part:
        return compact(part["data"])
    name = part.get("filename") or "(unnamed file)"
    media = part.get("mediaType") or "application/octet-stream"
    if "raw" in part:
        size = len(str(part["raw"])) * 3 // 4
        return f"file {name} ({media}, {size} bytes inline)"
    if "url" in part:
        return f"file {name} ({media}) at {part['url']}"
    return compact(part)


def parts_text(parts: Any) -> str:
    return "\n".join(part_text(p) for p in parts or [] if isinstance(p, dict))


def message_rows(msg: dict[str, Any], label: str = "Message") -> Rows:
    rows: Rows = [(label, str(msg.get("messageId", ""))), ("Role", role_label(msg.get("role")))]
    for key, lab in (("contextId", "Context"), ("taskId", "Task")):
        if msg.get(key):
            rows.append((lab, str(msg[key])))
    rows.append(("Text" if all("text" in p for p in msg.get("parts") or []) else "Parts", parts_text(msg.get("parts"))))
    return rows


def artifact_rows(art: dict[str, Any]) -> Rows:
    name = art.get("name") or art.get("artifactId") or "artifact"
    return [(f"Artifact {name}", parts_text(art.get("parts")))]


def task_rows(task: dict[str, Any]) -> Rows:
    status = task.get("status") or {}
    rows: Rows = [
        ("Task", str(task.get("id", ""))),
        ("Context", str(task.get("contextId", ""))),
        ("State", state_label(status.get("state"))),
    ]
    if status.get("timestamp"):
        rows.append(("Updated", str(status["timestamp"])))
    if isinstance(status.get("message"), dict):
        rows.append(("Status message", parts_text(status["message"].get("parts"))))
    for art in task.get("artifacts") or []:
        if isinstance(art, dict):
            rows += artifact_rows(art)
    if task.get("history"):
        rows.append(("History", f"{len(task['history'])} message(s)"))
    return rows


def push_config_rows(cfg: dict[str, Any]) -> Rows:
    rows: Rows = [("Config", str(cfg.get("id", ""))), ("Task", str(cfg.get("taskId", ""))), ("Webhook", str(cfg.get("url", "")))]
    if cfg.get("token"):
        rows.append(("Token", str(cfg["token"])))
    auth = cfg.get("authentication")
    if isinstance(auth, dict) and auth.get("scheme"):
        rows.append(("Auth scheme", str(auth["scheme"])))
    return rows


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value] if value else []


def scheme_how(scheme: Any) -> tuple[str, str, str]:
    """A V1 security scheme as (kind, where the credential goes, the flag that supplies it):
    `("apiKey", "header X-API-Key", "--api-key KEY")`."""
    if not isinstance(scheme, dict) or not scheme:
        return "?", "", ""
    key = str(next(iter(scheme)))
    body = scheme[key] if isinstance(scheme[key], dict) else {}
    kind = key.replace("SecurityScheme", "")
    if kind == "apiKey":
        return kind, f"{body.get('location') or 'header'} {body.get('name') or 'X-API-Key'}", "--api-key KEY"
    if kind == "httpAuth":
        http = str(body.get("scheme") or "bearer")
        if http.lower() == "basic":
            return f"http {http}", "header Authorization: Basic", "--basic USER:PASS"
        return f"http {http}", f"header Authorization: {http.capitalize()}", "--bearer TOKEN"
    if kind == "oauth2":
        flows: dict[str, Any] = body["flows"] if isinstance(body.get("flows"), dict) else {}
        flow = str(next(iter(flows), ""))
        how = {"clientCredentials": "`a2a auth login` (client credentials)", "deviceCode": "`a2a auth login --device` (device code)"}.get(flow, "--bearer TOKEN")
        return f"oauth2{' ' + flow if flow else ''}", "header Authorization: Bearer", how
    if kind == "openIdConnect":
        return kind, "header Authorization: Bearer", "`a2a auth login` (OpenID Connect discovery) or --bearer TOKEN"
    if kind == "mtls":
        return "mutual TLS", "the TLS handshake", "--cert PATH --key PATH"
    return kind, "", ""


def _scheme_line(name: str, scheme: Any) -> str:
    kind, where, flag = scheme_how(scheme)
    body: Any = next(iter(scheme.values()), {}) if isinstance(scheme, dict) and scheme else {}
    line = f"{name}: {kind}" + (f" in {where}" if where else "") + (f", pass {flag}" if flag else "")
    if isinstance(body, dict) and body.get("description"):
        line += f"\n{body['description']}"
    return line


def _skill_value(skill: dict[str, Any]) -> str:
    lines = [f"{skill.get('id', '')}: {skill.get('description') or skill.get('name', '')}"]
    if skill.get("tags"):
        lines.append("tags: " + ", ".join(str(t) for t in _listed(skill["tags"])))
    examples = _listed(skill.get("examples"))
    for example in examples[:3]:
        lines.append(f"e.g. {example if isinstance(example, str) else compact(example)}")
    if len(examples) > 3:
        lines.append(f"… {len(examples) - 3} more example(s)")
    modes = [f"{label} {', '.join(str(m) for m in _listed(skill.get(key)))}" for key, label in (("inputModes", "in:"), ("outputModes", "out:")) if skill.get(key)]
    if modes:
        lines.append("modes: " + "  ".join(modes))
    return "\n".join(lines)


def card_rows(card: dict[str, Any]) -> Rows:
    """The card's main lines, in the order a first call needs them: who, where, how to
    authenticate (where each credential goes and the flag that sends it), then each skill with
    its tags, examples and modes. Cards vary widely, so every field is shown as well as its shape
    allows: an entry that is not an object is shown as JSON rather than dropped."""
    rows: Rows = [("Agent", str(card.get("name", ""))), ("Description", str(card.get("description", ""))), ("Version", str(card.get("version", "")))]
    if isinstance(card.get("provider"), dict):
        rows.append(("Provider", str(card["provider"].get("organization", ""))))
    for itf in _listed(card.get("supportedInterfaces")):
        if not isinstance(itf, dict):
            rows.append(("Interface", compact(itf)))
            continue
        rows.append(("Interface", f"{itf.get('protocolBinding', '?')} {itf.get('protocolVersion', '?')} {itf.get('url', '')}" + (f" tenant={itf['tenant']}" if itf.get("tenant") else "")))
    caps = card.get("capabilities")
    if not isinstance(caps, dict):
        caps = {}
    flags = [k for k in ("streaming", "pushNotifications", "extendedAgentCard") if caps.get(k)]
    rows.append(("Capabilities", ", ".join(flags) or "none"))
    modes = [f"{label} {', '.join(str(m) for m in _listed(card.get(key)))}" for key, label in (("defaultInputModes", "in:"), ("defaultOutputModes", "out:")) if card.get(key)]
    if modes:
        rows.append(("Modes", "  ".join(modes)))
    schemes = card.get("securitySchemes")
    for name, scheme in schemes.items() if isinstance(schemes, dict) else []:
        rows.append(("Security", _scheme_line(str(name), scheme)))
    required = [sorted((r.get("schemes") or {}).keys()) for r in _listed(card.get("securityRequirements")) if isinstance(r, dict)]
    if required:
        rows.append(("Requires", " or ".join(" and ".join(names) for names in required if names) or "none"))
    for skill in _listed(card.get("skills")):
        if not isinstance(skill, dict):
            rows.append(("Skill", compact(skill)))
            continue
        rows.append(("Skill", _skill_value(skill)))
    return rows


def event_rows(core_event: dict[str, Any]) -> Rows:
    """One V1 StreamResponse, as the lines of its block."""
    if "task" in core_event:
        return task_rows(core_event["task"])
    if "message" in core_event:
        return message_rows(core_event["message"])
    if "statusUpdate" in core_event:
        ev = core_event["statusUpdate"]
        status = ev.get("status") or {}
        rows: Rows = [("Status", state_label(status.get("state"))), ("Task", str(ev.get("taskId", "")))]
        if status.get("timestamp"):
            rows.append(("At", str(status["timestamp"])))
        if isinstance(status.get("message"), dict):
            rows.append(("Status message", parts_text(status["message"].get("parts"))))
        return rows
    if "artifactUpdate" in core_event:
        ev = core_event["artifactUpdate"]
        rows = artifact_rows(ev.get("artifact") or {}) + [("Task", str(ev.get("taskId", "")))]
        if ev.get("append"):
            rows.append(("Append", "true"))
        if ev.get("lastChunk"):
            rows.append(("Last chunk", "true"))
        return rows
    return [("Event", compact(core_event))]
