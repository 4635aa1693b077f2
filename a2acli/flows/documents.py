"""Offline work on A2A documents: one translated between V1 (1.0) and V0 (0.3) (`a2a translate`),
two compared (`a2a mcp`'s diff: both brought to canonical V1, generated ids and timestamps
numbered, then every difference by JSON path, as `a2a diff` compares two dumps' bodies)."""

from __future__ import annotations

from typing import Any

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
