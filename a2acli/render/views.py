"""What a human is shown of each protocol object, as rows: a field (one `Label: value` line) or a
block (a `Label:` line, then content the field form cannot carry: an artifact's text, a data
part's JSON). Pure: both the plain printer (off a terminal, the spec's text floor) and the rich
printer (on one) render these same rows, and every label comes from the one table `L`.

Detail level: concise by default (history counted, every artifact part shown); `verbose` adds
each history message, metadata and every part's detail."""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from a2acli.wire import envelope
from a2acli.wire.words import Way, scheme_how, scheme_way, state_label  # noqa: F401  (the words the pipeline says too: one copy, in wire.words)


class Row(NamedTuple):
    label: str
    value: str
    block: bool = False  # a block: the label on its own line, then the value's lines (else one line)


Rows = list[Any]  # Row, or a plain (label, value) pair (a field: one line, whatever the value holds)


def prose(label: str, value: Any) -> Row:
    """A description or an example, written to be read: a field, or a block when it spans lines
    (its lines indented under the label, each escaped). An id, a name, a URL is a field (Row), one
    line whatever it holds: an agent's line feed there is shown `\\n`, never a line of its own."""
    text = str(value)
    return Row(label, text, "\n" in text)


class L:
    """The one label table of the text view. Labels never embed a value: the artifact's name is a
    field of its own (`Artifact: echo`), never part of a label."""

    TASK = "Task"
    CONTEXT = "Context"
    STATE = "State"
    UPDATED = "Updated"
    STATUS_MESSAGE = "Status message"
    STATUS_MESSAGE_ID = "Status message ID"
    STATUS_MESSAGE_ROLE = "Status message role"
    STATUS_MESSAGE_METADATA = "Status message metadata"
    EVENT = "Event"
    EVENTS = "Events"
    POLLED = "Polled"  # after a stream that ended early: the polls that showed the task
    APPEND = "Append"
    LAST_CHUNK = "Last chunk"
    FINAL = "Final"
    ARTIFACT = "Artifact"
    ARTIFACT_ID = "Artifact ID"
    ARTIFACT_DESCRIPTION = "Artifact description"
    TEXT = "Text"
    DATA = "Data"
    FILE = "File"
    MEDIA_TYPE = "Media type"
    SIZE = "Size"
    FILE_URL = "File URL"
    PART = "Part"
    PART_METADATA = "Part metadata"
    MESSAGE = "Message"
    ROLE = "Role"
    HISTORY_MESSAGES = "History messages"
    HISTORY_MESSAGE = "History message"
    METADATA = "Metadata"
    CONFIG = "Config"
    WEBHOOK = "Webhook"
    TOKEN = "Token"
    AUTH_SCHEME = "Auth scheme"
    AGENT = "Agent"
    DESCRIPTION = "Description"
    VERSION = "Version"
    PROVIDER = "Provider"
    SIGNATURE = "Signature"
    SIGNATURE_KEY = "Signature key"
    SIGNATURE_ALGORITHM = "Signature algorithm"
    SIGNATURE_KEY_SOURCE = "Signature key source"
    SIGNATURE_REASON = "Signature reason"
    INTERFACE = "Interface"
    INTERFACE_BINDING = "Interface binding"
    INTERFACE_VERSION = "Interface version"
    INTERFACE_TENANT = "Interface tenant"
    CAPABILITIES = "Capabilities"
    EXTENSION = "Extension"
    EXTENSION_REQUIRED = "Extension required"
    INPUT_MODES = "Input modes"
    OUTPUT_MODES = "Output modes"
    SECURITY = "Security"
    SECURITY_TYPE = "Security type"
    SECURITY_LOCATION = "Security location"
    SECURITY_FLAG = "Security flag"
    SECURITY_DESCRIPTION = "Security description"
    REQUIRES = "Requires"
    SKILL = "Skill"
    SKILL_NAME = "Skill name"
    SKILL_DESCRIPTION = "Skill description"
    SKILL_TAGS = "Skill tags"
    SKILL_EXAMPLE = "Skill example"
    SKILL_EXAMPLES_NOT_SHOWN = "Skill examples not shown"
    SKILL_INPUT_MODES = "Skill input modes"
    SKILL_OUTPUT_MODES = "Skill output modes"
    TASKS = "Tasks"
    SAVED = "Saved"
    SOURCE = "Source"
    REPLACED = "Replaced"
    NOTIFICATION = "Notification"
    SHAPE = "Shape"
    CREDENTIALS = "Credentials"
    BODY = "Body"
    DELETED = "Deleted"
    RESULT = "Result"
    TAGS = "Tags"
    CARD_AT = "Card at"
    REFERENCE = "Reference"


LABELS = frozenset(v for k, v in vars(L).items() if k.isupper())


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


def whole_numbers(value: Any) -> Any:
    """`value` with each float that is a whole number as an int: JSON has one kind of number, and
    an agent built on protobuf's Struct sends every one as a double (`-f age:=42` came back `42.0`).
    The text views show `42`; -o json and raw keep the wire's spelling."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, dict):
        return {k: whole_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [whole_numbers(v) for v in value]
    return value


def compact(value: Any, limit: int = 0) -> str:
    text = json.dumps(whole_numbers(value), ensure_ascii=False, separators=(", ", ": "))
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


def pretty(value: Any) -> str:
    """A data part or metadata as formatted JSON (the spec's "data part as formatted JSON")."""
    return envelope.pretty(whole_numbers(value))


def _size(part: dict[str, Any]) -> str:
    raw = part.get("raw")
    if isinstance(raw, str):
        s = raw.strip()
        return f"{max(len(s) * 3 // 4 - s[-2:].count('='), 0)} bytes"
    return "unknown"


def part_rows(part: Any, *, verbose: bool = False) -> Rows:
    """One part: a text block, a data block (formatted JSON), or a file's name, media type and size
    as fields. Nothing is dropped: any other shape is shown as a JSON block."""
    if not isinstance(part, dict):
        return [Row(L.PART, pretty(part), True)]
    rows: Rows
    if "text" in part:
        rows = [Row(L.TEXT, str(part["text"]), True)]
    elif "data" in part:
        rows = [Row(L.DATA, pretty(part["data"]), True)]
    elif "raw" in part or "url" in part:
        rows = [
            Row(L.FILE, str(part.get("filename") or "(unnamed file)")),
            Row(L.MEDIA_TYPE, str(part.get("mediaType") or "application/octet-stream")),
        ]
        rows.append(Row(L.SIZE, _size(part)) if "raw" in part else Row(L.FILE_URL, str(part["url"])))
    else:
        rows = [Row(L.PART, pretty(part), True)]
    if verbose and part.get("metadata"):
        rows.append(Row(L.PART_METADATA, pretty(part["metadata"]), True))
    return rows


def parts_rows(parts: Any, *, verbose: bool = False) -> Rows:
    rows: Rows = []
    for p in parts if isinstance(parts, list) else []:
        rows += part_rows(p, verbose=verbose)
    return rows


def _metadata(obj: dict[str, Any], verbose: bool) -> Rows:
    return [Row(L.METADATA, pretty(obj["metadata"]), True)] if verbose and obj.get("metadata") else []


def message_rows(msg: dict[str, Any], *, verbose: bool = False, label: str = L.MESSAGE) -> Rows:
    rows: Rows = [Row(label, str(msg.get("messageId", ""))), Row(L.ROLE, role_label(msg.get("role")))]
    if label == L.MESSAGE:  # a reply of its own: the ids it carries (a history message is the task's)
        for key, lab in (("taskId", L.TASK), ("contextId", L.CONTEXT)):
            if msg.get(key):
                rows.append(Row(lab, str(msg[key])))
    return rows + parts_rows(msg.get("parts"), verbose=verbose) + _metadata(msg, verbose)


def artifact_rows(art: dict[str, Any], *, verbose: bool = False) -> Rows:
    rows: Rows = [Row(L.ARTIFACT, str(art.get("name") or art.get("artifactId") or ""))]
    if verbose:
        rows.append(Row(L.ARTIFACT_ID, str(art.get("artifactId") or "")))
    if verbose and art.get("description"):
        rows.append(prose(L.ARTIFACT_DESCRIPTION, art["description"]))
    return rows + parts_rows(art.get("parts"), verbose=verbose) + _metadata(art, verbose)


def status_rows(status: Any, *, verbose: bool = False) -> Rows:
    """A status's time and message (its state is the caller's field)."""
    status = status if isinstance(status, dict) else {}
    rows: Rows = []
    if status.get("timestamp"):
        rows.append((L.UPDATED, str(status["timestamp"])))
    msg = status.get("message")
    if isinstance(
        msg, dict
    ):  # one form: a block of its parts, each as its kind reads (verbose: the message's id and role first)
        if verbose:
            rows += [
                Row(L.STATUS_MESSAGE_ID, str(msg.get("messageId", ""))),
                Row(L.STATUS_MESSAGE_ROLE, role_label(msg.get("role"))),
            ]
        parts: list[Any] = msg["parts"] if isinstance(msg.get("parts"), list) else []
        rows.append(Row(L.STATUS_MESSAGE, "\n".join(_status_part(p) for p in parts), True))
        if verbose and msg.get("metadata"):
            rows.append(Row(L.STATUS_MESSAGE_METADATA, pretty(msg["metadata"]), True))
    return rows


def _status_part(part: Any) -> str:
    """A status message's part inside its block: text as it is, data as formatted JSON, a file
    by name, media type and size (or URL)."""
    if isinstance(part, dict) and "text" in part:
        return str(part["text"])
    if isinstance(part, dict) and "data" in part:
        return pretty(part["data"])
    if isinstance(part, dict) and ("raw" in part or "url" in part):
        return part_text(part)
    return pretty(part)


def task_rows(task: dict[str, Any], *, verbose: bool = False) -> Rows:
    """Task, Context, State first (what the next command needs), then the status, every artifact
    with every part, and the history: counted when concise, each message when verbose."""
    status = task.get("status") or {}
    rows: Rows = [
        Row(L.TASK, str(task.get("id", ""))),
        Row(L.CONTEXT, str(task.get("contextId", ""))),
        Row(L.STATE, state_label(status.get("state"))),
    ]
    rows += status_rows(status, verbose=verbose)
    for art in task.get("artifacts") or []:
        rows += artifact_rows(art, verbose=verbose) if isinstance(art, dict) else [Row(L.ARTIFACT, compact(art))]
    history = [m for m in task.get("history") or [] if isinstance(m, dict)]
    if history and not verbose:
        rows.append(Row(L.HISTORY_MESSAGES, str(len(history))))
    for msg in history if verbose else []:
        rows += message_rows(msg, verbose=True, label=L.HISTORY_MESSAGE)
    return rows + _metadata(task, verbose)


def task_list_rows(task: dict[str, Any], *, verbose: bool = False) -> Rows:
    """One task of a list: its record (Task, Context, State, Updated), or all of it when verbose."""
    if verbose:
        return task_rows(task, verbose=True)
    status = task.get("status") or {}
    rows: Rows = [
        Row(L.TASK, str(task.get("id", ""))),
        Row(L.CONTEXT, str(task.get("contextId", ""))),
        Row(L.STATE, state_label(status.get("state"))),
    ]
    if status.get("timestamp"):
        rows.append((L.UPDATED, str(status["timestamp"])))
    return rows


def push_config_rows(cfg: dict[str, Any]) -> Rows:
    rows: Rows = [
        Row(L.CONFIG, str(cfg.get("id", ""))),
        Row(L.TASK, str(cfg.get("taskId", ""))),
        Row(L.WEBHOOK, str(cfg.get("url", ""))),
    ]
    if cfg.get("token"):
        rows.append(Row(L.TOKEN, str(cfg["token"])))
    auth = cfg.get("authentication")
    if isinstance(auth, dict) and auth.get("scheme"):
        rows.append(Row(L.AUTH_SCHEME, str(auth["scheme"])))
    return rows


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value] if value else []


def _scheme_rows(name: str, scheme: Any) -> Rows:
    kind, where, flag = scheme_how(scheme)
    body: Any = next(iter(scheme.values()), {}) if isinstance(scheme, dict) and scheme else {}
    rows: Rows = [Row(L.SECURITY, name), Row(L.SECURITY_TYPE, kind)]
    if where:
        rows.append(Row(L.SECURITY_LOCATION, where))
    if flag:
        rows.append(Row(L.SECURITY_FLAG, flag))
    if isinstance(body, dict) and body.get("description"):
        rows.append(prose(L.SECURITY_DESCRIPTION, body["description"]))
    return rows


def _skill_rows(skill: dict[str, Any], verbose: bool) -> Rows:
    rows: Rows = [Row(L.SKILL, str(skill.get("id", "")))]
    if skill.get("name"):
        rows.append(Row(L.SKILL_NAME, str(skill["name"])))
    if skill.get("description"):
        rows.append(prose(L.SKILL_DESCRIPTION, skill["description"]))
    if skill.get("tags"):
        rows.append(Row(L.SKILL_TAGS, ", ".join(str(t) for t in _listed(skill["tags"]))))
    examples = _listed(skill.get("examples"))
    shown = examples if verbose else examples[:3]
    rows += [prose(L.SKILL_EXAMPLE, example if isinstance(example, str) else compact(example)) for example in shown]
    if len(examples) > len(shown):
        rows.append(Row(L.SKILL_EXAMPLES_NOT_SHOWN, str(len(examples) - len(shown))))
    for key, label in (("inputModes", L.SKILL_INPUT_MODES), ("outputModes", L.SKILL_OUTPUT_MODES)):
        if skill.get(key):
            rows.append(Row(label, ", ".join(str(m) for m in _listed(skill[key]))))
    return rows


def signature_rows(outcome: Any) -> Rows:
    """An Agent Card's signature outcome (wire/signing.Outcome): verified, invalid, unverifiable
    or absent, then the kid, algorithm, where the key came from and why, each when known."""
    rows: Rows = [Row(L.SIGNATURE, outcome.status)]
    for label, value in (
        (L.SIGNATURE_KEY, outcome.kid),
        (L.SIGNATURE_ALGORITHM, outcome.alg),
        (L.SIGNATURE_KEY_SOURCE, outcome.key_source),
        (L.SIGNATURE_REASON, outcome.reason),
    ):
        if value:
            rows.append(Row(label, value))
    return rows


def card_rows(card: dict[str, Any], *, verbose: bool = False, signature: Any = None) -> Rows:
    """The card's main lines, in the order a first call needs them: who, where, how to
    authenticate (where each credential goes and the flag that sends it), then each skill with
    its tags, examples and modes. Cards vary widely, so every field is shown as well as its shape
    allows: an entry that is not an object is shown as JSON rather than dropped."""
    rows: Rows = [
        Row(L.AGENT, str(card.get("name", ""))),
        prose(L.DESCRIPTION, card.get("description", "")),
        Row(L.VERSION, str(card.get("version", ""))),
    ]
    if isinstance(card.get("provider"), dict):
        rows.append(Row(L.PROVIDER, str(card["provider"].get("organization", ""))))
    if signature is not None:
        rows += signature_rows(signature)
    rows += _interface_rows(card) + _capability_rows(card)
    for key, label in (("defaultInputModes", L.INPUT_MODES), ("defaultOutputModes", L.OUTPUT_MODES)):
        if card.get(key):
            rows.append(Row(label, ", ".join(str(m) for m in _listed(card[key]))))
    rows += _security_rows(card)
    for skill in _listed(card.get("skills")):
        rows += _skill_rows(skill, verbose) if isinstance(skill, dict) else [Row(L.SKILL, compact(skill))]
    return rows + _metadata(card, verbose)


def _interface_rows(card: dict[str, Any]) -> Rows:
    """Each interface: its URL, binding, version and tenant (one that is not an object, as JSON)."""
    rows: Rows = []
    for itf in _listed(card.get("supportedInterfaces")):
        if not isinstance(itf, dict):
            rows.append(Row(L.INTERFACE, compact(itf)))
            continue
        rows += [
            Row(L.INTERFACE, str(itf.get("url", ""))),
            Row(L.INTERFACE_BINDING, str(itf.get("protocolBinding", "?"))),
            Row(L.INTERFACE_VERSION, str(itf.get("protocolVersion", "?"))),
        ]
        if itf.get("tenant"):
            rows.append(Row(L.INTERFACE_TENANT, str(itf["tenant"])))
    return rows


def _capability_rows(card: dict[str, Any]) -> Rows:
    """The capabilities set, then each extension and whether it is required."""
    caps = card.get("capabilities")
    if not isinstance(caps, dict):
        caps = {}
    flags = [k for k in ("streaming", "pushNotifications", "extendedAgentCard") if caps.get(k)]
    rows: Rows = [Row(L.CAPABILITIES, ", ".join(flags) or "none")]
    for ext in _listed(caps.get("extensions")):  # A2A §4.6: the ones marked required must be declared (--extension)
        if isinstance(ext, dict) and ext.get("uri"):
            rows += [
                Row(L.EXTENSION, str(ext["uri"])),
                Row(L.EXTENSION_REQUIRED, "true" if ext.get("required") is True else "false"),
            ]
    return rows


def _security_rows(card: dict[str, Any]) -> Rows:
    """Each security scheme, then which of them a call needs."""
    rows: Rows = []
    schemes = card.get("securitySchemes")
    for name, scheme in schemes.items() if isinstance(schemes, dict) else []:
        rows += _scheme_rows(str(name), scheme)
    required = [
        sorted((r.get("schemes") or {}).keys())
        for r in _listed(card.get("securityRequirements"))
        if isinstance(r, dict)
    ]
    if required:
        rows.append(Row(L.REQUIRES, " or ".join(" and ".join(names) for names in required if names) or "none"))
    return rows


def event_kind(core: Any) -> str:
    if isinstance(core, dict):
        for key, name in (
            ("task", "task"),
            ("message", "message"),
            ("statusUpdate", "status-update"),
            ("artifactUpdate", "artifact-update"),
        ):
            if key in core:
                return name
    return "event"


def event_rows(core_event: dict[str, Any], *, verbose: bool = False) -> Rows:
    """One V1 StreamResponse: `Event: <kind>`, then the object in the same field-and-block form."""
    kind = event_kind(core_event)
    head: Rows = [(L.EVENT, kind)]  # (plain pairs on this path, one per stream event: no Row to build)
    if kind == "task":
        return head + task_rows(core_event["task"], verbose=verbose)
    if kind == "message":
        return head + message_rows(core_event["message"], verbose=verbose)
    if kind == "status-update":
        ev = core_event["statusUpdate"]
        status = ev.get("status") or {}
        rows = head + [
            (L.TASK, str(ev.get("taskId", ""))),
            (L.CONTEXT, str(ev.get("contextId", ""))),
            (L.STATE, state_label(status.get("state"))),
        ]
        rows += status_rows(status, verbose=verbose)
        if verbose and ev.get("final"):
            rows.append(Row(L.FINAL, "true"))
        return rows + _metadata(ev, verbose)
    if kind == "artifact-update":
        ev = core_event["artifactUpdate"]
        rows = head + [Row(L.TASK, str(ev.get("taskId", ""))), Row(L.CONTEXT, str(ev.get("contextId", "")))]
        rows += artifact_rows(ev.get("artifact") or {}, verbose=verbose)
        if ev.get("append"):
            rows.append(Row(L.APPEND, "true"))
        if ev.get("lastChunk"):
            rows.append(Row(L.LAST_CHUNK, "true"))
        return rows + _metadata(ev, verbose)
    return head + [Row(L.BODY, pretty(core_event), True)]
