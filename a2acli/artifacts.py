"""`a2a tasks download ID`: a task's artifacts saved as files.

Text parts become .txt files, data parts .json, file parts their bytes: decoded from `raw`
(base64) or fetched from `url` through the call's Transport (so -H, --timeout, TLS options and the
dump apply). Credentials, the card's and the `-H` ones that carry one, go only to the agent's own
origin; a file on another host is fetched without them, and said so. Names come from the part's
filename, else the artifact's name (else its id), reduced to one plain file name inside the target
directory: `../`, absolute paths and hidden-file dots never get out of it. The target directory is
--dir, or one named after the task; a file there is never replaced without --overwrite (issue 27:
an agent's `Makefile` must not replace the user's)."""

from __future__ import annotations

import base64
import binascii
import json
import mimetypes
import re
import shlex
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from a2acli.errors import CANNOT_WRITE, FILE_EXISTS, NO_ARTIFACTS, A2acliError, InvalidResponseError, UsageError
from a2acli.render.safe import LINE_CONTROLS

# control and reserved characters, and what breaks a line or reorders what is shown (C1, U+2028,
# bidirectional overrides): none of them reaches a file's name
_UNSAFE = re.compile(r'[\x00-\x1f\x7f<>:"|?*]|' + LINE_CONTROLS)
MAX_NAME = 180  # bytes of UTF-8 (a file system's limit is 255 bytes, not characters)


@dataclass(frozen=True)
class PlannedFile:
    name: str  # a plain file name, no directory
    artifact_id: str
    artifact_name: str
    part: int  # index in the artifact's parts
    kind: str  # text | data | file
    media_type: str
    source: str  # "inline" or the URL

    @property
    def effective_media_type(self) -> str:
        """The part's media type, or what its kind implies (a text part is text/plain, a data part JSON)."""
        return self.media_type or {"text": "text/plain", "data": "application/json"}.get(
            self.kind, "application/octet-stream"
        )


@dataclass(frozen=True)
class SavedFile:
    path: Path  # as the user named the directory, for printing
    size: int
    planned: PlannedFile
    replaced: bool


def safe_name(name: Any, fallback: str = "artifact") -> str:
    """One plain file name: the last path segment, no control or reserved characters, no leading
    dots (no hidden files, no `..`), at most MAX_NAME characters; `fallback` when nothing is left."""
    text = str(name or "").replace("\\", "/").split("/")[-1]
    text = _UNSAFE.sub("_", text).strip().lstrip(".").strip()
    if not text:
        text = _UNSAFE.sub("_", fallback.replace("\\", "/").replace("/", "_")).strip().lstrip(".") or "artifact"
    if len(text.encode("utf-8")) > MAX_NAME:
        stem, dot, ext = text.rpartition(".")
        if dot and len(ext) < 12:
            text = _cut(stem, MAX_NAME - len(ext.encode("utf-8")) - 1) + "." + ext
        else:
            text = _cut(text, MAX_NAME)
    return text


def _cut(text: str, size: int) -> str:
    """`text` cut to at most `size` bytes of UTF-8, on a character boundary."""
    return text.encode("utf-8")[:size].decode("utf-8", "ignore")


def _ext(media_type: str, default: str) -> str:
    media = (media_type or "").split(";")[0].strip().lower()
    special = {
        "application/json": ".json",
        "text/plain": ".txt",
        "text/markdown": ".md",
        "application/octet-stream": ".bin",
    }
    return special.get(media) or (mimetypes.guess_extension(media) if media else None) or default


def _with_ext(stem: str, ext: str) -> str:
    return stem if stem.lower().endswith(ext.lower()) else stem + ext


def plan(task: dict[str, Any]) -> list[PlannedFile]:
    """The files a canonical V1 task's artifacts become, names unique (`name-2.json` …)."""
    return [p for p, _ in plan_parts(task)]


def plan_parts(task: dict[str, Any]) -> list[tuple[PlannedFile, dict[str, Any]]]:
    planned: list[tuple[PlannedFile, dict[str, Any]]] = []
    taken: set[str] = set()
    for n, art in enumerate(task.get("artifacts") or [], 1):
        if not isinstance(art, dict):
            continue
        aid = str(art.get("artifactId") or f"artifact-{n}")
        aname = str(art.get("name") or "")
        stem = safe_name(aname or aid, f"artifact-{n}")
        for i, part in enumerate(art.get("parts") or []):
            if not isinstance(part, dict):
                continue
            media = str(part.get("mediaType") or "")
            given = safe_name(part.get("filename"), "") if part.get("filename") else ""
            if "text" in part:
                kind, source, name = "text", "inline", given or _with_ext(stem, ".txt")
            elif "data" in part:
                kind, source, name = "data", "inline", given or _with_ext(stem, ".json")
            elif "raw" in part:
                kind, source, name = "file", "inline", given or _with_ext(stem, _ext(media, ".bin"))
            elif "url" in part:
                url = str(part["url"])
                last = urllib.parse.unquote(urllib.parse.urlsplit(url).path.rsplit("/", 1)[-1])
                from_url = safe_name(last, "") if "." in last.strip(".") else ""
                kind, source, name = "file", url, given or from_url or _with_ext(stem, _ext(media, ".bin"))
            else:
                continue
            name = _unique(name, taken)
            planned.append((PlannedFile(name, aid, aname, i, kind, media, source), part))
    return planned


def _unique(name: str, taken: set[str]) -> str:
    candidate, k = name, 1
    while candidate.lower() in taken:
        k += 1
        stem, dot, ext = name.rpartition(".")
        candidate = f"{stem}-{k}.{ext}" if dot and stem else f"{name}-{k}"
    taken.add(candidate.lower())
    return candidate


def content(part: dict[str, Any], p: PlannedFile, fetch: Callable[[str], bytes]) -> bytes:
    if p.kind == "text":
        return str(part["text"]).encode("utf-8")
    if p.kind == "data":
        return (json.dumps(part["data"], ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    if p.source == "inline":
        raw = str(part["raw"]).strip()
        try:
            padded = raw + "=" * (-len(raw) % 4)
            return base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
        except (binascii.Error, ValueError):
            raise InvalidResponseError(
                f"artifact {p.artifact_id} part {p.part}: `raw` is not base64",
                hint="the agent sent broken file bytes; see them with `a2a tasks get ID -o json`",
            ) from None
    return fetch(p.source)


def inside(directory: Path, name: str) -> Path:
    """directory/name, refusing anything that would land outside the directory."""
    root = directory.resolve()
    target = (root / name).resolve()
    if target.parent != root:
        raise InvalidResponseError(
            f"refusing to write {name!r} outside {directory}",
            hint="the artifact's file name tried to leave the directory",
        )
    return target


def default_directory(task_id: str) -> Path:
    """Where files go without --dir: a directory of the task's own (`./TASK_ID/`), so an agent's
    `Makefile` never lands among the user's files."""
    return Path(safe_name(task_id, "task"))


def existing(planned: list[PlannedFile], directory: Path) -> list[Path]:
    """The files of the plan that are there already (a dangling link counts: writing would follow it)."""
    if not directory.exists():
        return []
    found = []
    for p in planned:
        path = directory / p.name
        if path.exists() or path.is_symlink():
            found.append(path)
    return found


def refuse_existing(found: list[Path], directory: Path) -> A2acliError:
    names = ", ".join(str(f) for f in found[:5]) + (f" and {len(found) - 5} more" if len(found) > 5 else "")
    return A2acliError(
        f"{len(found)} file(s) already exist in {directory}: {names}; nothing was written",
        hint="--overwrite replaces them; --dir DIR saves somewhere else",
        code=FILE_EXISTS,
    )


def save(
    task: dict[str, Any], directory: Path, fetch: Callable[[str], bytes], *, overwrite: bool = False
) -> tuple[list[SavedFile], list[tuple[PlannedFile, A2acliError]]]:
    """Write every part of every artifact of a canonical V1 task into `directory`. An existing
    file is never replaced unless `overwrite`: the whole download is refused before anything is
    fetched or written (and a file that appears meanwhile is not replaced either). A part that
    cannot be fetched (or whose bytes are broken) does not stop the others: it is returned with
    its error, beside the files saved."""
    planned = plan_parts(task)
    found = existing([p for p, _ in planned], directory)
    if found and not overwrite:
        raise refuse_existing(found, directory)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UsageError(f"cannot create {directory}: {e.strerror}", hint="choose another --dir") from None
    saved: list[SavedFile] = []
    failed: list[tuple[PlannedFile, A2acliError]] = []
    for p, part in planned:
        try:
            data = content(part, p, fetch)
        except A2acliError as e:  # this part only: the others are still saved
            failed.append((p, e))
            continue
        path = inside(directory, p.name)
        replaced = path.exists()
        _write(path, data, overwrite=overwrite, directory=directory, name=p.name)
        saved.append(SavedFile(directory / p.name, len(data), p, replaced))
    return saved, failed


def _write(path: Path, data: bytes, *, overwrite: bool, directory: Path, name: str) -> None:
    """Write `data` to a temporary file beside `path`, then give it the final name: a write that
    fails (a full disk) leaves no partial file under that name. Without `overwrite` the final
    name is taken by a hard link, which never replaces a file behind the user's back (one that
    appeared meanwhile either); where links are not supported, only when nothing is there."""
    import os
    import tempfile

    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name[:60]}.", suffix=".part", dir=path.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        if overwrite:
            os.replace(tmp, path)
            tmp = None
            return
        try:
            os.link(tmp, path)
        except FileExistsError:
            raise
        except OSError:  # no hard links here (some file systems): nothing may be there
            if os.path.lexists(path):
                raise FileExistsError(path) from None
            os.replace(tmp, path)
            tmp = None
    except FileExistsError:
        raise refuse_existing([directory / name], directory) from None
    except OSError as e:
        raise A2acliError(
            f"cannot write {path}: {e.strerror}",
            hint="check the directory's permissions and free space",
            code=CANNOT_WRITE,
        ) from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


# -- the command's pipeline -------------------------------------------------------------------------


def _origin(url: str) -> tuple[str, str, int | None]:
    u = urllib.parse.urlsplit(url)
    return (u.scheme.lower(), (u.hostname or "").lower(), u.port or {"http": 80, "https": 443}.get(u.scheme.lower()))


def download(task: dict[str, Any], directory: Path | None, call: Any, out: Any, *, overwrite: bool = False) -> None:
    """Save a task's artifacts (fetched with the session's transport) and report them. Without a
    directory, into one named after the task."""
    from a2acli.transport.client import http_status_error
    from a2acli.wire.words import state_label

    task_id = str(task.get("id") or "")
    state = state_label((task.get("status") or {}).get("state"))
    if not plan(task):
        none = "no artifacts" if not task.get("artifacts") else "no text, data or file parts in its artifacts"
        hint = (
            "it is still running: `a2a tasks get ID --wait`, then download"
            if state in ("submitted", "working")
            else "see it with `a2a tasks get ID`"
        )
        raise A2acliError(
            f"task {task_id} ({state}) has {none}", hint=hint.replace("ID", shlex.quote(task_id)), code=NO_ARTIFACTS
        )
    agent = _origin(call.target.endpoint().url)
    if directory is None:
        directory = default_directory(task_id)
        out.note(
            f"saving into {directory}{'/' if not str(directory).endswith('/') else ''} (--dir chooses another directory)"
        )

    def fetch(url: str) -> bytes:
        try:
            there = _origin(url)
        except ValueError:
            there = ("", "", None)
        if there[0] not in ("http", "https") or not there[1]:
            raise InvalidResponseError(f"cannot fetch {url!r}: only http(s) URLs", hint="download it yourself")
        if there == agent:
            ex = call.transport.get(
                url, label="download", headers={"Accept": "*/*", **call.creds.credentials().headers}
            )
        else:  # another host: no credential (neither the card's nor a -H one), and said so
            from a2acli.pipeline.origin import credential_headers

            dropped = credential_headers(call.opts.headers, call.target.card)
            host = (
                f"{there[1]}:{there[2]}" if there[2] not in (None, {"http": 80, "https": 443}[there[0]]) else there[1]
            )
            out.warn(
                f"fetching {url} from another host, {host}: no credentials sent"
                + (f" (not {', '.join(dropped)})" if dropped else "")
            )
            ex = call.transport.get(
                url, label="download", headers={"Accept": "*/*"}, drop=frozenset(n.lower() for n in dropped)
            )
        if not 200 <= (ex.status or 0) < 300:
            raise http_status_error(ex, "the file's server")
        return ex.response_body

    saved, failed = save(task, directory, fetch, overwrite=overwrite)
    for p, err in failed:
        out.warn(f"artifact {p.artifact_name or p.artifact_id} part {p.part} ({p.name}) not saved: {err.message}")
    _report(out, task, saved, failed)
    if failed:
        first, why = failed[0]
        failure = A2acliError(
            f"{len(failed)} of {len(failed) + len(saved)} part(s) could not be saved (the first: {first.source})",
            hint="the others were saved; fetch a part's URL yourself, or ask the agent again for the task",
            code=why.code,  # what went wrong with the first, as its own error says it (not an internal error)
        )
        failure.exit_code = why.exit_code
        raise failure


def _report(
    out: Any, task: dict[str, Any], saved: list[SavedFile], failed: list[tuple[PlannedFile, A2acliError]] | None = None
) -> None:
    def paths() -> None:  # -o raw: one path a line
        for s in saved:
            out.text(str(s.path))

    out.document(lambda: _saved_document(task, saved, failed), lambda: _saved_rows(out, task, saved), raw=paths)


def _saved_document(
    task: dict[str, Any], saved: list[SavedFile], failed: list[tuple[PlannedFile, A2acliError]] | None
) -> dict[str, Any]:
    """The files saved (and those that could not be), as -o json shows them."""
    return {
        "taskId": task.get("id"),
        "contextId": task.get("contextId"),
        "state": (task.get("status") or {}).get("state"),
        "files": [
            {
                "path": str(s.path),
                "bytes": s.size,
                "artifactId": s.planned.artifact_id,
                "artifactName": s.planned.artifact_name or None,
                "part": s.planned.part,
                "kind": s.planned.kind,
                "mediaType": s.planned.effective_media_type,
                "mediaTypeGiven": bool(s.planned.media_type),
                "source": s.planned.source,
                "replaced": s.replaced,
            }
            for s in saved
        ],
        **(
            {
                "failed": [
                    {"artifactId": p.artifact_id, "part": p.part, "source": p.source, "error": err.message}
                    for p, err in failed
                ]
            }
            if failed
            else {}
        ),
    }


def _saved_rows(out: Any, task: dict[str, Any], saved: list[SavedFile]) -> None:
    """The files saved, as a record: the task, then each file's path and what it holds."""
    from a2acli.render.views import L
    from a2acli.wire.words import state_label

    rows = [
        (L.TASK, str(task.get("id", ""))),
        (L.CONTEXT, str(task.get("contextId", ""))),
        (L.STATE, state_label((task.get("status") or {}).get("state"))),
    ]
    for s in saved:  # one field per line: the path, then what it holds
        rows += [(L.SAVED, str(s.path)), (L.SIZE, f"{s.size} bytes"), (L.MEDIA_TYPE, s.planned.effective_media_type)]
        if s.planned.source != "inline":
            rows.append((L.SOURCE, str(s.planned.source)))
        if s.replaced:
            rows.append((L.REPLACED, "true"))
    out.rows(rows, title=f"{len(saved)} file(s)")
