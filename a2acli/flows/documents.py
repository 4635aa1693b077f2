"""Offline work on A2A documents: one translated between V1 (1.0) and V0 (0.3) (`a2a translate`),
two compared (`a2a mcp`'s diff: both brought to canonical V1, generated ids and timestamps
numbered, then every difference by JSON path, as `a2a diff` compares two dumps' bodies)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any, NamedTuple

KIND_LABELS = {
    "jsonrpc-request": "JSON-RPC request",
    "jsonrpc-response": "JSON-RPC response",
    "jsonrpc-error": "JSON-RPC error response",
    "task": "Task",
    "message": "Message",
    "status-update": "status update event",
    "artifact-update": "artifact update event",
    "stream-response": "StreamResponse (stream event or webhook body)",
    "send-result": "{task}/{message} wrapper (SendMessage result or stream event)",
    "task-list": "task list",
    "agent-card": "Agent Card",
    "push-config": "push-notification config",
    "push-config-list": "push-notification config list",
    "webhook-jsonrpc": "webhook body wrapped in JSON-RPC tasks/pushNotification",
}
_NAMES = {"v1": "V1 (1.0)", "v0": "V0 (0.3)"}
TRANSLATE_HINT = "translate takes a JSON-RPC request or response, an SSE `data:` line, a Task, a Message, a status or artifact update, an Agent Card, a push config (or a list of them), or a webhook body"


def other_version(docs: list[Any]) -> str | None:
    """Without --to: the other version than the one the (first telling) document is written in."""
    from a2acli.wire.translate.detect import detect

    for doc in docs:
        version = detect(doc).version
        if version is not None:
            return "v0" if version == "v1" else "v1"
    return None


def _check_fits(core_doc: Any, method: str, *, told: bool, prefix: str) -> None:
    """The result, in canonical V1, is what `method` answers with; if not, a document the user
    said answers that method is refused (exit 2). One we only assumed it of (an SSE event) is
    translated as it is."""
    from a2acli.errors import InvalidResponseError, UsageError
    from a2acli.wire.methods import find_method
    from a2acli.wire.shapes import check_result

    spec = find_method(method)
    if spec is None or not isinstance(core_doc, dict):
        return
    try:
        check_result(spec.result, core_doc.get("result"), spec.name)
    except InvalidResponseError as e:
        why = e.message.split(": ", 1)[-1]
        if told:
            raise UsageError(
                f"{prefix}the result does not fit --method {method}: {why}",
                hint="give the method this answer is for, or drop --method",
            ) from None


def translate(
    doc: Any, to: str | None, method: str | None = None, *, prefix: str = "", stream: bool = False
) -> tuple[Any, list[str]]:
    """One document. `stream`: it is an SSE event, so without --method it answers a streaming
    method (a bare V0 task there is the stream's first event, a V1 {task}, not a GetTask result).
    `to` None: no --to, and the document does not tell its version. The document in the version
    `to` names ("v1" or "v0"), and the notes: what it was recognised as, what was not carried across."""
    from a2acli.errors import UsageError
    from a2acli.wire.methods import V1_METHOD_NAMES
    from a2acli.wire.translate import translate_document
    from a2acli.wire.translate.detect import detect

    found = detect(doc)
    if found.kind == "unknown" or (found.kind == "jsonrpc-request" and found.method is None):
        what = (
            f"a JSON-RPC request for {doc.get('method')!r}, not an A2A method"
            if found.kind == "jsonrpc-request"
            else "not an A2A document"
        )
        raise UsageError(f"{prefix}{what}", hint=TRANSLATE_HINT)
    if to is None:
        raise UsageError(
            f"{prefix}cannot tell which version this {KIND_LABELS.get(found.kind, found.kind)} is written in, so not which to write",
            hint="give --to v1 (1.0) or --to v0 (0.3)",
        )
    notes: list[str] = []
    effective = method or ("SendStreamingMessage" if stream else None)
    try:
        result = translate_document(doc, to, notes, method=effective)
        if effective and found.kind == "jsonrpc-response" and isinstance(doc, dict) and "result" in doc:
            _check_fits(
                result if to == "v1" else translate_document(doc, "v1", [], method=effective),
                effective,
                told=bool(method),
                prefix=prefix,
            )
    except ValueError as e:
        raise UsageError(str(e), hint="--method takes an A2A method name, V1 (GetTask) or V0 (tasks/get)") from None
    said = KIND_LABELS.get(found.kind, found.kind)
    if found.version:
        said = f"{_NAMES[found.version]} {said}"
    named = found.method or (method and V1_METHOD_NAMES.get(method, method))
    if named:
        said += f" ({named})"
    elif found.kind == "jsonrpc-response" and isinstance(doc, dict):
        inner = detect(doc.get("result")).kind
        label = KIND_LABELS.get(inner, inner)
        said += f" with {'an' if label[0].lower() in 'aeiou' else 'a'} {label}" if inner != "unknown" else ""
    said_notes = [f"{prefix}recognised: {said}; written as {_NAMES[to]}"]
    if found.version == to:
        said_notes.append(f"{prefix}note: already {_NAMES[to]}; written in canonical form")
    return result, said_notes + [f"{prefix}not carried across: {n}" for n in notes]


def diff(
    left: Any, right: Any, *, raw: bool = False, keep_ids: bool = False, ignore: tuple[str, ...] = ()
) -> dict[str, Any]:
    """Two A2A documents compared: {equal, differences: [{path, kind, left, right}], notes}.
    Semantic by default (each brought to canonical V1 by the translators, defaults dropped,
    generated ids and timestamps numbered on each side, keys unordered); `raw` compares them as
    given, `keep_ids` keeps the generated values; `ignore` drops the paths its globs match
    (`$.result.id`, `*.timestamp`)."""
    from a2acli.recording.canonical import IdNormaliser, drop_defaults
    from a2acli.recording.diff import _glob, prune, structural
    from a2acli.wire.translate import translate_document

    notes: list[str] = []
    sides = []
    for name, doc in (("left", left), ("right", right)):
        if not raw:
            said: list[str] = []
            try:
                doc = drop_defaults(translate_document(doc, "v1", said))
            except ValueError as e:  # not an A2A document the translators know: compared as it is
                said.append(f"compared as given ({e})")
            notes += [f"{name}: {n}" for n in said]
        if not keep_ids:
            doc = IdNormaliser()(doc)
        sides.append(prune(doc, "$", [_glob(p) for p in ignore]))
    differences = [d.to_json() for d in structural(sides[0], sides[1], "$", "document")]
    for d in differences:
        d.pop("exchange", None)
    return {"equal": not differences, "differences": differences, "notes": notes}


# -- `a2a translate`'s input: a file or standard input, one JSON document or SSE `data:` lines


class Translated(NamedTuple):
    """A translated input: one document (`events` None), or each SSE event's name and document."""

    document: Any
    events: list[tuple[str, Any]] | None


def read_document(source: str | None, stdin: Any) -> tuple[str, str]:
    """The text to translate and where it came from: the file `source`, or `stdin` (None or `-`)
    unless it is a terminal (nothing piped: a usage error)."""
    from pathlib import Path

    from a2acli.errors import UsageError

    if source in (None, "-"):
        if source is None and stdin.isatty():
            raise UsageError(
                "no document given", hint="a2a translate --to v1 FILE, or pipe it: … | a2a translate --to v1"
            )
        return stdin.read(), "standard input"
    path = Path(os.path.expanduser(source))
    try:
        return path.read_text(encoding="utf-8"), str(path)
    except FileNotFoundError:
        raise UsageError(f"no such file: {path}", hint="give a JSON file, or - for standard input") from None
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"cannot read {path}: {e}", hint="give a UTF-8 JSON file, or - for standard input") from None


def translate_text(
    text: str, where: str, to: str | None, method: str | None, note: Callable[[str], None]
) -> Translated:
    """`text` (from `where`) translated to `to` ("v1"/"v0"; None: the other version than its own):
    one JSON document, or each event of SSE text; what each was recognised as goes to `note`."""
    from a2acli.errors import UsageError

    def one(doc: Any, target: str | None, prefix: str, stream: bool = False) -> Any:
        result, notes = translate(doc, target, method, prefix=prefix, stream=stream)
        for line in notes:
            note(line)
        return result

    events = _sse_events(text)
    if events is None:
        doc = _loads(text, where)
        return Translated(one(doc, to or other_version([doc]), ""), None)
    if not events:
        raise UsageError(f"{where} holds no SSE data", hint="give a `data: {...}` line")
    docs = [_loads(data, f"SSE event {i}") for i, (_, data) in enumerate(events, 1)]
    target = to or other_version(docs)
    return Translated(
        None,
        [
            (name, one(doc, target, f"event {i}: " if len(events) > 1 else "", stream=True))
            for i, ((name, _), doc) in enumerate(zip(events, docs, strict=True), 1)
        ],
    )


def _sse_events(text: str) -> list[tuple[str, str]] | None:
    """(event name, data) of each event of the text, read by the transport's SSE reader
    (httpx-sse), or None when the text is not SSE (a JSON document): it opens with a field of an
    SSE event or a comment."""
    if not text.removeprefix("\ufeff").lstrip().startswith(("data:", "event:", "id:", "retry:", ":")):
        return None
    from a2acli.transport.sse_body import events_in

    return events_in(text.encode("utf-8", "surrogatepass"))


def _loads(text: str, where: str) -> Any:
    from a2acli.errors import UsageError

    try:
        return json.loads(text)
    except ValueError as e:
        raise UsageError(
            f"{where} is not valid JSON: {e}", hint="give one JSON document (or SSE `data:` lines)"
        ) from None
