"""Editing the config file: an atomic private write, and ConfigEdit, which changes values through tomlkit keeping what the user wrote."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from a2acli.errors import UsageError
from a2acli.settings.files import _not_toml, _parse, _read_text, config_path, is_dotenv

# -- writing the file -----------------------------------------------------------------------------


def write_private(path: Path, text: str) -> None:
    """Replace `path` with `text` atomically, readable by the owner only (0600; a new directory 0700).

    The text goes to a temporary file in the same directory, is flushed to disk, then renamed over
    the old file: an interrupted write leaves the old file whole, and no temporary file behind. A
    symbolic link (a dotfiles checkout) stays one: the file it points to is replaced."""
    import tempfile

    if path.is_symlink():
        path = path.resolve()
    if path.exists() and not path.is_file():
        raise UsageError(
            f"{path} is not a regular file; not writing to it", hint="point A2ACLI_GLOBAL_CONFIG at a file"
        )
    parent = path.parent
    tmp: str | None = None
    try:
        if not parent.exists():
            parent.mkdir(parents=True, mode=0o700)
            os.chmod(parent, 0o700)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=parent)  # 0600, O_EXCL
        try:
            with os.fdopen(fd, "wb") as f:  # bytes: no newline translation, the text's own line ends
                f.write(text.encode("utf-8"))
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, 0o600)
            os.replace(tmp, path)
            tmp = None
        finally:
            if tmp is not None:
                os.unlink(tmp)
        if os.name == "posix":  # the rename itself, on disk
            dirfd = os.open(parent, os.O_RDONLY)
            try:
                os.fsync(dirfd)
            finally:
                os.close(dirfd)
    except OSError as e:
        raise UsageError(
            f"cannot write {path}: {e.strerror or e}", hint="check A2ACLI_GLOBAL_CONFIG and the directory's permissions"
        ) from None


class ConfigEdit:
    """The config file opened for a change.

    `data` is the file as read (tomllib), then as changed by `set` and `delete`: what it will hold.
    `save` applies the changes to the file's text through tomlkit, so that everything else the user
    wrote stays byte for byte, checks that the new text reads back (tomllib) as exactly `data`, and
    only then replaces the file. A file that does not parse is refused when opened."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or config_path()
        self.text = _read_text(self.path, writing=True) or ""
        if self.text.strip() and is_dotenv(self.path, self.text):
            raise UsageError(
                f"{self.path} is a .env file: `a2a config set/unset` and `auth login` write TOML; the file was not changed",
                hint="edit it by hand, or point A2ACLI_GLOBAL_CONFIG at a TOML file",
            )
        self.data = _parse(self.path, self.text, writing=True)
        self._ops: list[tuple[str, tuple[str, ...], Any]] = []
        self._doc = _tomlkit_parse(self.path, self.text)

    def get(self, keys: tuple[str, ...]) -> Any:
        node: Any = self.data
        for k in keys:
            if not isinstance(node, dict) or k not in node:
                return None
            node = node[k]
        return node

    def set(self, keys: tuple[str, ...], value: Any) -> None:
        """Set the value at `keys` (tables created as needed). Nothing changes if it is already that value."""
        node = self.data
        for i, k in enumerate(keys[:-1]):
            node = node.setdefault(k, {})
            if not isinstance(node, dict):
                raise UsageError(
                    f"{'.'.join(keys[: i + 1])} in {self.path} is a value, not a table", hint="fix the file by hand"
                )
        old = node.get(keys[-1])
        if type(old) is type(value) and old == value:
            return
        if isinstance(old, dict):
            raise UsageError(f"{'.'.join(keys)} in {self.path} is a table, not a value", hint="fix the file by hand")
        node[keys[-1]] = value
        self._ops.append(("set", keys, value))

    def delete(self, keys: tuple[str, ...], *, drop_emptied_table: bool = False) -> bool:
        """Remove the key at `keys`; False when it is not there. With drop_emptied_table, the table
        that held it goes too once it has neither keys nor comments left."""
        parent = self.get(keys[:-1]) if len(keys) > 1 else self.data
        if not isinstance(parent, dict) or keys[-1] not in parent:
            return False
        del parent[keys[-1]]
        self._ops.append(("delete", keys, None))
        if drop_emptied_table and len(keys) > 1 and not parent and not _has_comments(self._doc, keys[:-1]):
            self.delete(keys[:-1])
        return True

    def save(self) -> Path:
        """Write the changes (nothing when there are none); the path written."""
        if not self._ops:
            return self.path
        for style in _NEW_TABLE_STYLES:
            text = _apply(self.text, self._ops, style)
            if text is not None and _reads_as(text, self.data):
                break
        else:
            raise UsageError(
                f"cannot make this change to {self.path} without rewriting more of it than the change",
                hint="make it by hand; `a2a config show` shows the effective settings",
            )
        write_private(self.path, text)
        return self.path


# How a table that does not exist yet is written, tried in this order until the text reads back right:
# [profiles.NAME.headers] headers (a file laid out with table headers, or a new file), a dotted key
# (`NAME.headers.X-Team = "qa"` where the profile is written with dotted keys), an inline table.
_NEW_TABLE_STYLES = ("header", "dotted", "inline")


def _tomlkit_parse(path: Path, text: str) -> Any:
    import tomlkit
    from tomlkit.exceptions import ParseError

    try:
        return tomlkit.parse(text)
    except ParseError as e:  # tomllib read it but tomlkit cannot: refuse rather than guess
        raise _not_toml(path, e.line, e.col, str(e).rsplit(" at line ", 1)[0], writing=True) from None


def _reads_as(text: str, data: dict[str, Any]) -> bool:
    """Whether `text` reads as `data`, types included (30 == 30.0 in Python, not in the file)."""
    try:
        return _typed(_parse(Path(), text, writing=True)) == _typed(data)
    except UsageError:
        return False


def _typed(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_typed(v) for v in value]
    return type(value).__name__, repr(value) if isinstance(value, float) else value  # nan == nan by repr


def _has_comments(doc: Any, keys: tuple[str, ...]) -> bool:
    """Whether the table at `keys` holds a comment (kept: a note the user wrote there)."""
    from tomlkit.items import Comment, InlineTable, Table

    node = doc
    for k in keys:
        if k not in node:
            return False  # a table this edit made
        node = node[k]
    if isinstance(node, InlineTable):
        return False
    if not isinstance(node, Table):
        return True  # a table in several pieces: keep it rather than look inside
    return bool(node.trivia.comment) or any(isinstance(v, Comment) for _, v in node.value.body)


def _apply(text: str, ops: list[tuple[str, tuple[str, ...], Any]], style: str) -> str | None:
    """The file's text with `ops` applied by tomlkit; None when tomlkit cannot apply them this way."""
    import tomlkit
    from tomlkit.items import InlineTable

    doc = tomlkit.parse(text)
    new_tables: list[tuple[Any, str]] = []  # (table, blank lines to repeat after it)
    inlines: dict[int, tuple[Any, str, str]] = {}  # outermost inline table touched: (container, key, text before)
    try:
        for op, keys, value in ops:
            if op == "set":
                _set(doc, keys, value, style, new_tables, inlines)
            else:
                container = _walk(doc, keys[:-1], inlines)
                del container[keys[-1]]
        for table, blank in new_tables:
            _last_table(table).add(tomlkit.ws(blank))
        for container, key, before in inlines.values():
            if key not in container or not isinstance(container[key], InlineTable):
                continue  # deleted since
            rebuilt = _inline_text(container[key], before)
            if rebuilt is not None:
                container[key] = tomlkit.parse(f"x = {rebuilt}\n")["x"]
        out = doc.as_string()
    except Exception:  # tomlkit has no layout for this change in this style: the next style is tried
        return None
    return _line_ends(out, text)


def _walk(doc: Any, keys: tuple[str, ...], inlines: dict[int, tuple[Any, str, str]]) -> Any:
    """The existing table at `keys`, noting the outermost inline table on the way (it is rewritten)."""
    from tomlkit.items import InlineTable

    node = doc
    for k in keys:
        child = node[k]
        if isinstance(child, InlineTable) and not isinstance(node, InlineTable):
            inlines.setdefault(id(child), (node, k, child.as_string()))
        node = child
    return node


def _set(
    doc: Any,
    keys: tuple[str, ...],
    value: Any,
    style: str,
    new_tables: list[tuple[Any, str]],
    inlines: dict[int, tuple[Any, str, str]],
) -> None:
    import tomlkit
    from tomlkit.items import InlineTable

    node = doc
    for i, k in enumerate(keys[:-1]):
        if k in node:
            node = _walk(node, (k,), inlines)
            continue
        rest = keys[i:]
        if isinstance(node, InlineTable) or style == "inline":
            new: Any = tomlkit.inline_table()
            leaf = new
            for sub in rest[1:-1]:
                leaf[sub] = tomlkit.inline_table()
                leaf = leaf[sub]
            leaf[rest[-1]] = _item(value, None)
            node[k] = new
            if not isinstance(node, InlineTable):  # else the inline table holding it is rewritten
                inlines.setdefault(id(node[k]), (node, k, "{ }"))
            return
        if style == "dotted":
            node[tomlkit.key(list(rest))] = _item(value, None)
            return
        blank = _trailing_blank(node)
        table = tomlkit.table()
        node[k] = table
        node = node[k]
        if blank:
            new_tables.append((node, blank))
        for sub in rest[1:-1]:
            node[sub] = tomlkit.table()
            node = node[sub]
        break
    old = node.get(keys[-1]) if keys[-1] in node else None
    node[keys[-1]] = _item(value, old)


def _trailing_blank(node: Any) -> str:
    """The blank lines that end what is written before a table appended to `node`: a new table
    repeats them after itself, so that what follows stays apart from it as it was."""
    from tomlkit.container import Container
    from tomlkit.items import Table, Whitespace

    while True:
        body = node.body if isinstance(node, Container) else node.value.body if isinstance(node, Table) else None
        if not body:
            return ""
        last = body[-1][1]
        if isinstance(last, Whitespace):
            return last.s if "\n" in last.s else ""
        if not isinstance(last, Table):
            return ""
        node = last


def _last_table(table: Any) -> Any:
    """The table written last in `table`'s block: itself, or its last sub-table (and so on)."""
    from tomlkit.items import Table

    while table.value.body and isinstance(table.value.body[-1][1], Table):
        table = table.value.body[-1][1]
    return table


def _item(value: Any, old: Any) -> Any:
    """The TOML item for `value`, of its own type (30 stays an integer), a string in the quotes
    the old value had when they can hold it."""
    import tomlkit
    from tomlkit.items import String

    literal = isinstance(old, String) and old.as_string()[:1] == "'" and old.as_string()[:3] != "'''"
    if literal and isinstance(value, str) and "'" not in value and all(c == "\t" or " " <= c != "\x7f" for c in value):
        return tomlkit.string(value, literal=True)
    return tomlkit.item(value)


def _inline_text(table: Any, before: str) -> str | None:
    """An inline table written back in the spacing it had (`{ a = 1, b = 2 }` or `{a=1,b=2}`):
    tomlkit leaves an added key's separator where the closing brace's space was. None when it holds
    dotted keys (tomlkit's own text is kept then)."""
    pad = " " if before[1:2] == " " else ""
    comma = "," if "," in before and not re.search(r",\s", before) else ", "
    return _inline_pairs(table, pad, comma)


def _inline_pairs(table: Any, pad: str, comma: str) -> str | None:
    from tomlkit.items import InlineTable

    keys = [key for key, _ in table.value.body if key is not None]
    # A parsed key keeps the spaces before its `=` (`url ` + `= `); one tomlkit adds has ` = `: it
    # takes the spacing of the table's first key.
    first = keys[0].as_string() if keys else ""
    house = first[len(first.rstrip()) :] + keys[0].sep if keys else " = "
    pairs = []
    for key, item in table.value.body:
        if key is None:  # whitespace, commas, what a delete left
            continue
        if key.is_dotted():
            return None
        text = _inline_pairs(item, pad, comma) if isinstance(item, InlineTable) else item.as_string()
        if text is None:
            return None
        pairs.append(f"{key.as_string()}{house if key.sep == ' = ' else key.sep}{text}")
    return "{" + pad + comma.join(pairs) + pad + "}" if pairs else "{}"


def _line_ends(out: str, before: str) -> str:
    """The new text with the old text's line ends (CRLF stays CRLF), ending with one."""
    crlf = "\r\n" in before and before.count("\r\n") == before.count("\n")
    if crlf:
        out = re.sub(r"(?<!\r)\n", "\r\n", out)
    nl = "\r\n" if crlf else "\n"
    if not before.rstrip("\r\n") or not before.endswith(nl + nl):  # no blank line at the end before: none now
        out = out.rstrip("\r\n")
    return out if out.endswith(nl) else out + nl


def target_profile(explicit: str | None, config: dict[str, Any]) -> tuple[str, bool]:
    """The profile `config set` / `auth login` change: --profile, A2ACLI_PROFILE, default-profile,
    else "default". The flag says whether it becomes the default profile (none was set)."""
    name = explicit or os.environ.get("A2ACLI_PROFILE") or config.get("default-profile")
    if name:
        return str(name), False
    return "default", True
