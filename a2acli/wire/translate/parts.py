# Parts. V1 Part is a oneof told apart by its key (`text`, `raw`, `url`, `data`) with
# `mediaType`/`filename` beside it; V0 tags each part with `kind` and nests files as
# `file: {bytes|uri, mimeType, name}`. V0 text parts have no media type or filename, and
# V0 data must be an object: other V1 values travel as {"value": X} with a metadata flag.
from __future__ import annotations

from typing import Any

from ._common import Notes, drop, entity, fields, is_empty, note, with_kind

_COMPAT_FLAG = "data_part_compat"
# (V0 key inside `file`, V1 key on the part)
_FILE_KEYS = (("bytes", "raw"), ("uri", "url"), ("mimeType", "mediaType"), ("name", "filename"))
_GRPC_FILE_KEYS = {"fileWithBytes": "bytes", "fileWithUri": "uri"}  # 0.3 gRPC proto spellings


@entity("part")
def to_core_part(part: dict[str, Any], notes: Notes) -> dict[str, Any]:
    if isinstance(part.get("file"), dict):
        file = _compat_file(part.pop("file"))
        content = {v1: file.pop(v0) for v0, v1 in _FILE_KEYS if v0 in file}
        return {**content, **file, **part}  # unknown keys of `file` surface on the part
    meta = part.get("metadata")
    if isinstance(meta, dict) and meta.get(_COMPAT_FLAG) is True:
        if isinstance(part.get("data"), dict) and "value" in part["data"]:
            part["data"] = part["data"]["value"]
        meta = {k: v for k, v in meta.items() if k != _COMPAT_FLAG}
        part = {k: v for k, v in part.items() if k != "metadata"} | ({"metadata": meta} if meta else {})
    return part


@entity("part")
def to_compat_part(part: dict[str, Any], notes: Notes) -> dict[str, Any]:
    if "text" in part:
        drop(part, ("mediaType", "filename"), notes, "text part", "V0 text parts have neither")
        return with_kind("text", part)
    if isinstance(part.get("file"), dict):  # already V0
        return with_kind("file", {**part, "file": _compat_file(part["file"])})
    if "raw" in part or "url" in part:
        file = {v0: part.pop(v1) for v0, v1 in _FILE_KEYS if v1 in part}
        file = {k: v for k, v in file.items() if not (k in ("mimeType", "name") and is_empty(v))}
        return with_kind("file", {"file": file, **part})
    if "data" in part:
        drop(part, ("mediaType", "filename"), notes, "data part", "V0 data parts have neither")
        if not isinstance(part["data"], dict):
            part["data"] = {"value": part["data"]}
            part["metadata"] = {**(part.get("metadata") or {}), _COMPAT_FLAG: True}
        return with_kind("data", part)
    note(notes, f"part: no text, raw, url, data or file content (keys {sorted(part)}); left unchanged")
    return part


def _compat_file(file: dict[str, Any]) -> dict[str, Any]:
    return {_GRPC_FILE_KEYS.get(k, k): v for k, v in fields(file).items()}
