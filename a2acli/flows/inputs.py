"""Turning command-line input into core (V1) values: JSON from text/@file/stdin, -f fields, and
message parts in the order they were given."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from a2acli.errors import UsageError
from a2acli.settings.table import MAX_BODY_BYTES

MAX_INPUT = MAX_BODY_BYTES  # the default --max-body: an input file is capped like an answer


def read_file(path: Path, flag: str, limit: int, hint: str) -> bytes:
    """A regular file's bytes, at most `limit` of them (no device, FIFO or directory: /dev/zero
    would never end)."""
    import stat

    try:
        with open(path, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise UsageError(f"{flag}: {path} is not a regular file", hint=hint)
            data = f.read(limit + 1)
    except FileNotFoundError:
        raise UsageError(f"{flag}: no such file {path}", hint=hint) from None
    except OSError as e:
        raise UsageError(f"{flag}: cannot read {path}: {e.strerror or e}", hint=hint) from None
    if len(data) > limit:
        raise _too_large(f"{flag} {path}", limit)
    return data


def _too_large(what: str, limit: int) -> UsageError:
    from a2acli.transport.limits import size_text

    return UsageError(
        f"{what} is larger than the cap of {size_text(limit)}",
        hint="raise it with --max-body SIZE (e.g. --max-body 256M)",
    )


def read_stdin(flag: str, limit: int) -> bytes | str:
    """Standard input, at most `limit` bytes."""
    data = sys.stdin.buffer.read(limit + 1) if hasattr(sys.stdin, "buffer") else sys.stdin.read(limit + 1)
    if len(data) > limit:
        raise _too_large(f"{flag} (standard input)", limit)
    return data


def read_text(flag: str, limit: int) -> str:
    """Text from standard input (`--text -`, or `send` given no part while stdin is no terminal): its
    final line breaks dropped, as `$(...)` drops them (`echo hi | a2a send` sends "hi")."""
    data = read_stdin(flag, limit)
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError as e:
        raise UsageError(
            f"{flag}: standard input is not UTF-8 ({e.reason} at byte {e.start})",
            hint="send bytes as a file part: --file PATH",
        ) from None
    return text.rstrip("\r\n")


def read_json(value: str, flag: str, *, limit: int = MAX_INPUT, paths: bool = False) -> Any:
    """JSON given inline, as @file, or `-` for standard input (a file or stdin: at most `limit` bytes).
    With `paths`, a value that is not JSON but names a file that exists is that file (`--data d.json`)."""
    if paths and value != "-" and not value.startswith("@") and _is_file(value) and not _is_json(value):
        value = "@" + value
    hint = (
        f"{flag} takes JSON, @file, a file's path or - (stdin)" if paths else f"{flag} takes JSON, @file or - (stdin)"
    )
    if value == "-":
        data, where = read_stdin(flag, limit), "standard input"
    elif value.startswith("@"):
        path = Path(os.path.expanduser(value[1:]))
        data, where = read_file(path, flag, limit, hint), str(path)
    else:
        data, where = value, "the argument"
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError as e:
        raise UsageError(f"{flag}: {where} is not UTF-8 ({e.reason} at byte {e.start})", hint=hint) from None
    try:
        return checked_depth(json.loads(text, parse_constant=_no_constant, parse_float=_finite), f"{flag}: {where}")
    except RecursionError:
        raise UsageError(
            f"{flag}: {where} is nested too deeply", hint="JSON nested hundreds of levels deep is not accepted"
        ) from None
    except ValueError as e:
        if paths and where == "the argument" and _looks_like_path(value):
            raise UsageError(
                f"{flag}: no such file {value} (and it is not JSON either)",
                hint="check the path; inline JSON goes in quotes, e.g. " + f'{flag} \'{{"key": "value"}}\'',
            ) from None
        raise UsageError(
            f"{flag}: {where} is not valid JSON ({e})",
            hint=f'quote it for the shell, e.g. {flag} \'{{"key": "value"}}\', or use @file',
        ) from None


def _looks_like_path(value: str) -> bool:
    """A value meant as a file's path: a separator, a leading ~ or ., or a file extension."""
    return not value.lstrip().startswith(("{", "[", '"')) and (
        "/" in value or value.startswith(("~", ".")) or bool(Path(value).suffix)
    )


def _is_json(value: str) -> bool:
    try:
        json.loads(value, parse_constant=_no_constant, parse_float=_finite)
    except (ValueError, RecursionError):
        return False
    return True


def _is_file(value: str) -> bool:
    try:
        return Path(os.path.expanduser(value)).is_file()
    except (OSError, ValueError, RuntimeError):  # a name too long, a NUL byte, ~user unknown
        return False


MAX_DEPTH = 100  # levels of JSON nesting an input may have (more is no message anyone writes)


def _no_constant(name: str) -> Any:
    """NaN, Infinity and -Infinity: Python reads them, JSON has none (they would be sent as is)."""
    raise ValueError(f"{name} is not JSON (JSON numbers are finite)")


def _finite(text: str) -> float:
    """A JSON number too large for a float (`1e999`) reads as infinity, which goes out as
    `Infinity` (not JSON): refused like NaN (issue 27)."""
    import math

    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:40]} is out of range (JSON numbers are finite; it would be sent as Infinity)")
    return value


def checked_depth(doc: Any, what: str) -> Any:
    """`doc`, or a usage error when it nests deeper than MAX_DEPTH (later steps recurse on it)."""
    stack = [(doc, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise UsageError(f"{what} is nested too deeply (more than {MAX_DEPTH} levels)", hint="flatten the JSON")
        if isinstance(node, dict):
            stack.extend((v, depth + 1) for v in node.values())
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in node)
    return doc


def read_object(value: str | None, flag: str) -> dict[str, Any] | None:
    if value is None:
        return None
    obj = read_json(value, flag)
    if not isinstance(obj, dict):
        raise UsageError(
            f"{flag} must be a JSON object, not {type(obj).__name__}", hint=f'e.g. {flag} \'{{"key": "value"}}\''
        )
    return obj


def parse_fields(fields: list[str], *, flag: str = "-f ") -> dict[str, Any]:
    """-f key=value (a string) and -f key:=JSON (typed), httpie style. `flag`: how each item is
    written where it came from, for the errors (`-f ` on the command line; chat's `/skill` words:
    bare `key=value`)."""
    out: dict[str, Any] = {}
    for item in fields:
        typed = ":=" in item and (item.index(":=") < item.index("=") + 1 if "=" in item else True)
        key, sep, value = item.partition(":=") if typed else item.partition("=")
        if not sep or not key:
            raise UsageError(
                f"{flag}{item!r} is not key=value or key:=JSON",
                hint=f"e.g. {flag}projectUserId=user_123 {flag}age:=42",
            )
        if typed:
            try:
                out[key] = checked_depth(
                    json.loads(value, parse_constant=_no_constant, parse_float=_finite), f"{flag}{key}"
                )
            except RecursionError:
                raise UsageError(
                    f"{flag}{key}: the JSON is nested too deeply", hint=f"at most {MAX_DEPTH} levels"
                ) from None
            except UsageError:
                raise
            except ValueError as e:
                import shlex

                hint = f"`:=` takes JSON, e.g. {flag}age:=42 {flag}tags:='[\"a\"]'"
                if value.strip() and value.strip()[0] not in '[{"':  # a bare word: a string was probably meant
                    hint = f"for the string {value!r} use `=`: {flag}{shlex.quote(f'{key}={value}')}; `:=` takes JSON ({flag}age:=42)"
                raise UsageError(f"{flag}{item}: {value!r} is not valid JSON ({e})", hint=hint) from None
        else:
            out[key] = value
    return out


def file_part(path_text: str, media_type: str | None, *, limit: int = MAX_INPUT) -> dict[str, Any]:
    if path_text.startswith(("http://", "https://")):
        part: dict[str, Any] = {"url": path_text}
        name = path_text.rsplit("/", 1)[-1]
        if name:
            part["filename"] = name
        if media_type:
            part["mediaType"] = media_type
        return part
    path = Path(os.path.expanduser(path_text))
    import base64
    import mimetypes

    data = read_file(path, "--file", limit, "give a path to a readable file, or an http(s) URL")
    guessed = mimetypes.guess_type(path.name)[0]
    return {
        "raw": base64.b64encode(data).decode(),
        "mediaType": media_type or guessed or "application/octet-stream",
        "filename": path.name,
    }


_PART_FLAGS = {  # (the official spec's later names, --text-part…, are aliases: commands.message)
    "--text": "text",
    "--text-part": "text",
    "--data": "data",
    "--data-part": "data",
    "--file": "file",
    "--file-part": "file",
    "--skill": "skill",
    "--media-type": "media",
    "-f": "field",
    "--field": "field",
}


def part_order(argv: list[str]) -> list[str]:
    """The part flags in command-line order, e.g. ['data', 'media', 'text']."""
    order: list[str] = []
    skip = False
    for tok in argv:
        if skip:
            skip = False
            continue
        if tok == "--":
            break
        name = tok.split("=", 1)[0] if tok.startswith("--") else tok
        kind = _PART_FLAGS.get(name)
        if kind:
            order.append(kind)
            skip = "=" not in tok or not tok.startswith("--")
        elif tok.startswith("-") and not tok.startswith("--") and len(tok) > 2 and tok[:2] == "-f":
            order.append("field")
    return order


def build_parts(
    argv: list[str],
    *,
    positional: str | None,
    texts: list[str],
    datas: list[str],
    files: list[str],
    media_types: list[str],
    skill: str | None,
    fields: list[str],
    limit: int = MAX_INPUT,
) -> list[dict[str, Any]]:
    """The message's parts in command-line order. `--text -` is text from standard input; given no
    part at all, a standard input that is no terminal is the text (`echo hi | a2a send`)."""
    if [*texts, *datas].count("-") > 1:
        raise UsageError("standard input can be read once", hint="give `-` to one --text or --data; @file for others")
    parts: list[dict[str, Any]] = []
    if positional is not None:
        parts.append({"text": positional})
    its = {"text": iter(texts), "data": iter(datas), "file": iter(files), "media": iter(media_types)}
    skill_fields = parse_fields(fields)
    skill_done = False
    for kind in part_order(argv):
        if kind == "text":
            given = next(its["text"])
            parts.append({"text": read_text("--text", limit) if given == "-" else given})
        elif kind == "data":
            parts.append({"data": read_json(next(its["data"]), "--data", limit=limit, paths=True)})
        elif kind == "file":
            parts.append(file_part(next(its["file"]), None, limit=limit))
        elif kind in ("skill", "field") and not skill_done:
            parts.append({"data": ({"skill": skill} if skill else {}) | skill_fields})
            skill_done = True
        elif kind == "media":
            mt = next(its["media"])
            if len(parts) == (positional is not None):  # binds to the part FLAG before it (SPEC §8.2); TEXT is no flag
                import shlex

                hint = "put it after the --text/--data/--file it describes" + (
                    f" (for the text: --text {shlex.quote(positional)} --media-type {mt})"
                    if positional is not None
                    else ""
                )
                raise UsageError(f"--media-type {mt} comes before any part flag", hint=hint)
            parts[-1]["mediaType"] = mt
    if (skill or skill_fields) and not skill_done:  # flags given in a way the scan did not see
        parts.append({"data": ({"skill": skill} if skill else {}) | skill_fields})
    if not parts and not _isatty(sys.stdin):
        piped = read_text("standard input", limit)
        if piped:
            parts.append({"text": piped})
    return parts


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no stdin, or a closed one
        return False
