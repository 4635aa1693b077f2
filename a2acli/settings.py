"""Effective settings: flag > environment > profile > built-in default, with where each came from.

The config file is TOML at $A2ACLI_CONFIG, else the platform's config dir
($XDG_CONFIG_HOME/a2acli/config.toml, ~/.config/a2acli/config.toml). It holds named profiles:

    default-profile = "local"
    [profiles.local]
    url = "http://127.0.0.1:41241"
    a2a-version = "1.0"
    [profiles.local.headers]
    X-Team = "qa"
    [profiles.local.auth]          # OAuth2 client credentials (`a2a auth login`)
    token-url = "https://idp.example/token"
    client-id = "cli"

`a2a config set/unset`, `a2a auth login` and `a2a auth logout` change the file through tomlkit,
which keeps what the user wrote (comments, blank lines, key order, quoting, table layout): only the
value changed moves. The file is replaced atomically (mode 0600, a new directory 0700), and a file
that is not valid TOML is never rewritten. Reading stays on tomllib (tomli before Python 3.11), which
is cheaper to import at start-up; tomlkit is imported by the writing commands only. Task and context
ids are never stored.
"""

from __future__ import annotations

import math
import os
import re
import sys
from pathlib import Path
from typing import Any, NamedTuple

from a2acli.errors import UsageError


class Setting(NamedTuple):  # NamedTuples here: cheaper than dataclasses to define at start-up
    name: str  # the flag without dashes, and the profile key
    env: str
    default: Any = None
    secret: bool = False
    old: str = ""  # the name it had before (`rpc-url`): still read from env A2ACLI_<OLD> and profiles


SETTINGS: dict[str, Setting] = {
    s.name: s
    for s in (
        Setting("url", "A2ACLI_URL"),
        Setting("endpoint", "A2ACLI_ENDPOINT", old="rpc-url"),
        Setting("transport", "A2ACLI_TRANSPORT"),
        Setting("a2a-version", "A2ACLI_A2A_VERSION", "1.0"),
        Setting("dialect", "A2ACLI_DIALECT", "spec"),
        Setting("api-key", "A2ACLI_API_KEY", secret=True),
        Setting("bearer", "A2ACLI_BEARER", secret=True),
        Setting("basic", "A2ACLI_BASIC", secret=True),
        Setting("cacert", "A2ACLI_CACERT"),
        Setting("cert", "A2ACLI_CERT"),
        Setting("key", "A2ACLI_KEY"),
        Setting("timeout", "A2ACLI_TIMEOUT"),
        Setting("max-body", "A2ACLI_MAX_BODY", "32M"),
        Setting("strict-origin", "A2ACLI_STRICT_ORIGIN", False),
        Setting("output", "A2ACLI_OUTPUT", "text"),
        Setting("dump", "A2ACLI_DUMP"),
    )
}


def config_path() -> Path:
    env = os.environ.get("A2ACLI_CONFIG")
    if env:
        return Path(env).expanduser()
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin" and not os.environ.get("XDG_CONFIG_HOME"):
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / "a2acli" / "config.toml"


def load_config(path: Path | None = None) -> dict[str, Any]:
    path = path or config_path()
    text = _read_text(path, writing=False)
    return {} if text is None else _parse(path, text, writing=False)


def _read_text(path: Path, *, writing: bool) -> str | None:
    """The config file's text; None when there is none. UsageError when it cannot be read as UTF-8."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as e:
        raise UsageError(f"cannot read the config file {path}: {e.strerror}", hint="check A2ACLI_CONFIG") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        column = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise _not_toml(path, line, column, "not UTF-8 text", writing=writing) from None


def _parse(path: Path, text: str, *, writing: bool) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    try:
        return tomllib.loads(text)
    except ValueError as e:  # tomllib.TOMLDecodeError
        line, column, what = _where(e, text)
        raise _not_toml(path, line, column, what, writing=writing) from None


def _where(e: ValueError, text: str) -> tuple[int, int, str]:
    """(line, column, message) of a tomllib/tomli error: attributes since Python 3.14 and tomli 2.1,
    only in the message before ("Invalid value (at line 3, column 9)", "... (at end of document)")."""
    lineno, colno, msg = getattr(e, "lineno", None), getattr(e, "colno", None), getattr(e, "msg", None)
    if isinstance(lineno, int) and isinstance(colno, int):
        return lineno, colno, str(msg or e)
    m = re.fullmatch(r"(.*) \(at line (\d+), column (\d+)\)", str(e), re.S)
    if m:
        return int(m[2]), int(m[3]), m[1]
    last = text.rsplit("\n", 1)[-1]
    return text.count("\n") + 1, len(last) + 1, str(e).replace(" (at end of document)", " at the end of the file")


def _not_toml(path: Path, line: int, column: int, what: str, *, writing: bool) -> UsageError:
    where = f"the config file {path} is not valid TOML: line {line}, column {column}: {what}"
    if writing:  # never rewrite what cannot be read: the rest of the user's file would go with it
        return UsageError(f"{where}; the file was not changed", hint=f"fix line {line} by hand, then run the command again")
    return UsageError(where, hint=f"fix line {line}, or remove the file")


def profile_values(profile: str | None, config: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
    """(name, values) of the profile in use: --profile / A2ACLI_PROFILE, else `default-profile`."""
    default = config.get("default-profile")
    if default is not None and not isinstance(default, str):
        raise _wrong_type("default-profile", default, "a string (a profile's name)")
    profiles = config.get("profiles") or {}
    if not isinstance(profiles, dict):
        raise _wrong_type("profiles", profiles, "a table of profiles")
    name = profile or os.environ.get("A2ACLI_PROFILE") or default
    if not name:
        return None, {}
    if name not in profiles:
        known = ", ".join(sorted(profiles)) or "none"
        raise UsageError(f"no profile {name!r} in {config_path()}", hint=f"profiles: {known}; `a2a config set --profile {name} url URL` makes one")
    if not isinstance(profiles[name], dict):
        raise _wrong_type(f"profiles.{name}", profiles[name], "a table of settings")
    return name, dict(profiles[name])


def _kind(value: Any) -> str:
    """What a TOML value is, in words."""
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "an array", dict: "a table"}.get(type(value), type(value).__name__)


def _wrong_type(key: str, value: Any, wanted: str) -> UsageError:
    return UsageError(f"{key} in the config file {config_path()} is {_kind(value)}, not {wanted}", hint=f"fix {key} in the file, or `a2a config set` it")


# What each setting may be in the file: a string always; besides, these TOML types.
_ALSO: dict[str, tuple[type, ...]] = {
    "a2a-version": (int, float),  # `a2a-version = 1.0` unquoted
    "timeout": (int, float),
    "max-body": (int,),
    "strict-origin": (bool,),
    "transport": (list,),
}


def check_profile_types(pname: str, pvals: dict[str, Any]) -> None:
    """Every value of a profile of the type its key takes (a usage error naming it, not a crash)."""
    for name, s in SETTINGS.items():
        for key in (name, s.old) if s.old else (name,):
            value = pvals.get(key)
            if value is None or isinstance(value, str):
                continue
            also = _ALSO.get(name, ())
            ok = isinstance(value, also) and not (isinstance(value, bool) and bool not in also)
            if ok and isinstance(value, list):
                ok = all(isinstance(v, str) for v in value)
            if not ok:
                wanted = "a string" + (" or an array of strings" if name == "transport" else " or a number" if int in also else " or a boolean" if bool in also else "")
                raise _wrong_type(f"profiles.{pname}.{key}", value, wanted)
    for table in ("headers", "auth"):
        sub = pvals.get(table)
        if sub is None:
            continue
        if not isinstance(sub, dict):
            raise _wrong_type(f"profiles.{pname}.{table}", sub, "a table")
        for k, v in sub.items():
            if isinstance(v, bool) or not isinstance(v, (str, int, float)):
                raise _wrong_type(f"profiles.{pname}.{table}.{k}", v, "a string")


class Resolved(NamedTuple):
    values: dict[str, Any]
    sources: dict[str, str]  # flag | env | profile NAME | default
    profile: str | None
    profile_headers: tuple[tuple[str, str], ...]
    auth: dict[str, str]  # the profile's [auth] table (OAuth2)
    exposed: str | None = None  # the config file holds this profile's secrets and others can read it


def resolve(flags: dict[str, Any], profile: str | None = None) -> Resolved:
    path = config_path()
    try:
        exists = path.exists()
    except OSError as e:  # a directory on the way that cannot be read
        raise UsageError(f"cannot read the config file {path}: {e.strerror}", hint="check the permissions of its directory, or set A2ACLI_CONFIG") from None
    need_config = profile or os.environ.get("A2ACLI_PROFILE") or os.environ.get("A2ACLI_CONFIG") or exists
    config = load_config() if need_config else {}
    pname, pvals = profile_values(profile, config)
    if pname:
        check_profile_types(pname, pvals)
    values, sources = resolve_values(flags, pname, pvals)
    headers = pvals.get("headers") or {}
    auth = {str(k): str(v) for k, v in (pvals.get("auth") or {}).items()}
    profile_headers = tuple((str(k), str(v)) for k, v in headers.items())
    return Resolved(values, sources, pname, profile_headers, auth, _exposed(path, pname, pvals, profile_headers, auth))


def _exposed(path: Path, pname: str | None, pvals: dict[str, Any], headers: tuple[tuple[str, str], ...], auth: dict[str, str]) -> str | None:
    """A warning when the profile in use keeps a secret in a config file others can read."""
    if not pname or os.name != "posix":
        return None
    from a2acli.redact import HARMLESS_HEADERS

    held = [k for k, s in SETTINGS.items() if s.secret and pvals.get(k) not in (None, "")]
    held += [f"auth.{k}" for k, secret in AUTH_KEYS.items() if secret and auth.get(k)]
    held += [f"header.{k}" for k, _ in headers if k.lower() not in HARMLESS_HEADERS]
    if not held:
        return None
    try:
        mode = path.stat().st_mode
    except OSError:
        return None
    if not mode & 0o044:
        return None
    return f"the config file {path} is readable by others (mode {mode & 0o777:o}) and holds secrets of profile {pname} ({', '.join(held)}); run: chmod 600 {path}"


def resolve_values(flags: dict[str, Any], pname: str | None, pvals: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """Each setting from the first of: flag, environment, profile, built-in default."""
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for name, s in SETTINGS.items():
        old_env = "A2ACLI_" + s.old.upper().replace("-", "_") if s.old else ""
        if flags.get(name) is not None:
            values[name], sources[name] = flags[name], "flag"
        elif os.environ.get(s.env):
            values[name], sources[name] = os.environ[s.env], f"env {s.env}"
        elif old_env and os.environ.get(old_env):
            values[name], sources[name] = os.environ[old_env], f"env {old_env}"
        elif pvals.get(name) is not None:
            values[name], sources[name] = pvals[name], f"profile {pname}"
        elif s.old and pvals.get(s.old) is not None:
            values[name], sources[name] = pvals[s.old], f"profile {pname}"
        else:
            values[name], sources[name] = s.default, "default"
    return values, sources


# -- keys a profile may hold, and their validation ------------------------------------------------

AUTH_KEYS: dict[str, bool] = {  # [profiles.NAME.auth] key -> secret?
    "token-url": False,
    "client-id": False,
    "client-secret": True,
    "scope": False,
    "client-auth": False,
}
PATH_SETTINGS = frozenset({"cacert", "cert", "key"})
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # RFC 9110 token


def profile_keys() -> list[str]:
    """Every key `a2a config set` accepts, for help and hints."""
    return list(SETTINGS) + ["header.NAME"] + [f"auth.{k}" for k in AUTH_KEYS] + ["default-profile"]


def _key_hint() -> str:
    return "keys: " + ", ".join(profile_keys())


def parse_key(key: str) -> tuple[str, str]:
    """`config set/unset KEY`: (table, name). table is "" for a profile's own settings, "headers",
    "auth", or "top" for default-profile. UsageError for anything else."""
    from a2acli.errors import UsageError

    k = key.strip()
    low = k.lower()
    if low.replace("_", "-") in ("task-id", "context-id", "taskid", "contextid", "task", "context"):
        raise UsageError(f"{k!r} cannot be stored: task and context ids are never kept in the config", hint="pass --task-id / --context-id on each call")
    if low == "default-profile":
        return "top", "default-profile"
    if low.startswith(("header.", "headers.")):
        name = k.split(".", 1)[1].strip()
        if not _HEADER_NAME.fullmatch(name):
            raise UsageError(f"{name!r} is not a header name", hint="e.g. a2a config set header.X-Team qa")
        return "headers", name
    if low.startswith("auth."):
        sub = low.split(".", 1)[1]
        if sub not in AUTH_KEYS:
            raise UsageError(f"unknown auth key {sub!r}", hint="auth keys: " + ", ".join(f"auth.{a}" for a in AUTH_KEYS))
        return "auth", sub
    renamed = {s.old: s.name for s in SETTINGS.values() if s.old}
    low = renamed.get(low, low)
    if low not in SETTINGS:
        raise UsageError(f"unknown config key {k!r}", hint=_key_hint())
    return "", low


def validate(key: str, value: str) -> tuple[str, str, Any]:
    """Check `config set KEY VALUE`: (table, name, value to store); UsageError when bad."""
    from a2acli.errors import UsageError

    table, name = parse_key(key)
    if table == "headers":
        if "\n" in value or "\r" in value:
            raise UsageError(f"the value of header {name} has a line break", hint="header values are one line")
        if not value.isascii():
            raise UsageError(f"the value of header {name} is not ASCII", hint="header values travel as ASCII: percent-encode or base64 it")
        return table, name, value
    if table == "auth":
        if name == "token-url":
            check_url(value, "auth.token-url", files=False)
        if name == "client-auth":
            if value.lower() not in ("basic", "post"):
                raise UsageError(f"auth.client-auth {value!r} is not basic or post", hint="basic (HTTP Basic, the default) or post (client_secret_post)")
            value = value.lower()
        return table, name, value
    if table == "top":
        return table, name, value
    return table, name, check_value(name, value)


def check_url(value: str, what: str, *, files: bool = False, grpc: bool = False) -> None:
    """A URL to call, or a usage error naming what is wrong with it (a2acli.net.url_problem)."""
    from a2acli.errors import UsageError
    from a2acli.net import url_problem

    problem = url_problem(str(value), files=files, grpc=grpc)
    if problem:
        example = "https://idp.example/oauth/token" if "token" in what else "127.0.0.1:50051 (gRPC) or http://127.0.0.1:41241" if grpc else "http://127.0.0.1:41241"
        shown = str(value) if len(str(value)) <= 100 else str(value)[:100] + "…"
        said = problem[3:] if problem.startswith("it is not an") else f"is not a valid URL: {problem}"
        raise UsageError(f"{what} {shown!r} {said}", hint=f"e.g. {example}")


MAX_TIMEOUT = 1_000_000  # seconds (11.6 days): longer is a typo, and overflows timers


_DURATION_UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}
_DURATION = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:ms|s|m|h)")


def parse_duration(value: Any) -> float | None:
    """A duration in seconds: a plain number of seconds (`2`, `0.5`), or a number with a unit,
    ms, s, m or h, pieces summed (`500ms`, `2s`, `1m`, `1m30s`); None when it is neither."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    text = str(value).strip().lower()
    try:
        return float(text)
    except ValueError:
        pass
    if not text or "".join(_DURATION.findall(text)) != text:
        return None
    total = 0.0
    for piece in _DURATION.findall(text):
        number = piece.rstrip("mhs")
        unit = piece[len(number) :]
        total += float(number) * _DURATION_UNITS[unit]
    return total


def parse_timeout(value: Any, what: str = "--timeout") -> float | None:
    """A timeout from any source (flag, env, profile), in seconds or as a duration (`30s`,
    `1m`, `500ms`): None when unset or 0, which means "no whole-call bound" everywhere. nan,
    inf, negative, huge and boolean values are usage errors."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    text = str(value).strip()
    t = parse_duration(value)
    if t is None or not math.isfinite(t) or t < 0 or t > MAX_TIMEOUT:
        raise UsageError(f"{what} {text!r} is not a duration from 0 to {MAX_TIMEOUT} seconds", hint="e.g. --timeout 30, 30s, 2m or 500ms (0: no whole-call bound)")
    return t or None


MIN_POLL_INTERVAL = 0.05  # seconds: a shorter wait between polls is a busy loop


def parse_poll_interval(value: Any, what: str = "--poll-interval") -> float:
    """--poll-interval: seconds or a duration (`2`, `2s`, `500ms`, `1m`), at least 50 ms."""
    text = str(value).strip()
    t = parse_duration(value)
    if t is None or not math.isfinite(t) or t < MIN_POLL_INTERVAL or t > MAX_TIMEOUT:
        raise UsageError(f"{what} {text!r} is not a duration from {MIN_POLL_INTERVAL:g}s to {MAX_TIMEOUT} seconds", hint="e.g. --poll-interval 2, 2s, 500ms or 1m")
    return t


def check_value(name: str, value: Any) -> Any:
    """Validate one setting's value (as text from the command line or a file); return what to store."""
    from a2acli.errors import UsageError

    text = str(value).strip()
    if name == "a2a-version":
        from a2acli.wire import AUTO, parse_version_choice

        try:
            wire = parse_version_choice(text)
        except ValueError as e:
            raise UsageError(str(e), hint="a2a-version is 1.0, 0.3 or auto (1.0 when the card offers it, else 0.3)") from None
        return wire.version if wire is not None else AUTO
    if name == "dialect":
        from a2acli.wire.dialects import get_dialect

        try:
            return get_dialect(text).name
        except ValueError as e:
            raise UsageError(str(e), hint="dialect is spec or clix") from None
    if name == "output":
        if text.lower() not in ("text", "json", "raw"):
            raise UsageError(f"unknown output mode {text!r}", hint="output is text, json or raw")
        return text.lower()
    if name == "timeout":  # stored as written: `30` an integer, `2.5` a float; 0 is "no bound", as on the flag
        parse_timeout(text, "timeout")
        if re.fullmatch(r"[0-9]{1,15}", text):
            return int(text)
        try:
            return float(text)
        except ValueError:
            return text  # a duration: `30s`, `2m`
    if name == "strict-origin":
        return parse_bool(text, "strict-origin")
    if name == "max-body":
        parse_size(text, "max-body")
        return text
    if name == "transport":
        from a2acli.wire.bindings import parse_transport

        return ",".join(parse_transport(t).flag for t in text.split(",") if t.strip())
    if name in ("url", "endpoint"):
        check_url(text, name, files=name == "url", grpc=name == "endpoint")
        return text
    if name == "basic" and ":" not in text:
        raise UsageError("basic must be USER:PASSWORD", hint="e.g. a2a config set basic alice:s3cret (or A2ACLI_BASIC)")
    if name in PATH_SETTINGS:
        p = Path(text).expanduser()
        if not p.is_file():
            raise UsageError(f"{name} {text!r}: no such file", hint="give the path of a PEM file")
        return str(p.resolve())
    return text


_SIZE = re.compile(r"([0-9]{1,13})\s*([kmg]?)(?:i?b)?", re.I)


def parse_bool(value: Any, name: str) -> bool:
    """true/false, yes/no, on/off, 1/0 (a TOML boolean as it is)."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("", "0", "false", "no", "off", "none"):
        return False
    raise UsageError(f"{name}: {value!r} is not true or false", hint="true or false (also yes/no, on/off, 1/0)")


def parse_size(value: Any, name: str = "--max-body") -> int:
    """A size in bytes: `1048576`, `512K`, `64M`, `1G` (powers of 1024; `MB`/`MiB` alike)."""
    text = str(value).strip()
    m = _SIZE.fullmatch(text) if not isinstance(value, bool) else None
    n = int(m.group(1)) * 1024 ** "_kmg".index(m.group(2).lower() or "_") if m else 0
    if n <= 0 or n > 1024**4:
        raise UsageError(f"{name} {text!r} is not a size", hint=f"a number of bytes with an optional K, M or G, e.g. {name} 64M")
    return n


# -- masking --------------------------------------------------------------------------------------


def mask(value: Any) -> str:
    """`****cret`: at most the last 4 characters, and never more than a quarter of the secret."""
    s = str(value)
    if not s:
        return ""
    return "****" + s[len(s) - min(4, len(s) // 4) :] if len(s) >= 4 else "****"


def mask_setting(name: str, value: Any) -> str:
    if name == "basic" and ":" in str(value):
        user, _, password = str(value).partition(":")
        return f"{user}:{mask(password)}"
    return mask(value)


SECRET_HEADER_WORDS = ("authorization", "cookie", "key", "token", "secret", "password")


def is_secret_header(name: str) -> bool:
    low = name.lower()
    return any(w in low for w in SECRET_HEADER_WORDS)


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
        raise UsageError(f"{path} is not a regular file; not writing to it", hint="point A2ACLI_CONFIG at a file")
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
        raise UsageError(f"cannot write {path}: {e.strerror or e}", hint="check A2ACLI_CONFIG and the directory's permissions") from None


class ConfigEdit:
    """The config file opened for a change.

    `data` is the file as read (tomllib), then as changed by `set` and `delete`: what it will hold.
    `save` applies the changes to the file's text through tomlkit, so that everything else the user
    wrote stays byte for byte, checks that the new text reads back (tomllib) as exactly `data`, and
    only then replaces the file. A file that does not parse is refused when opened."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or config_path()
        self.text = _read_text(self.path, writing=True) or ""
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
                raise UsageError(f"{'.'.join(keys[: i + 1])} in {self.path} is a value, not a table", hint="fix the file by hand")
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
            raise UsageError(f"cannot make this change to {self.path} without rewriting more of it than the change", hint="make it by hand; `a2a config show` shows the effective settings")
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


def _set(doc: Any, keys: tuple[str, ...], value: Any, style: str, new_tables: list[tuple[Any, str]], inlines: dict[int, tuple[Any, str, str]]) -> None:
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


def token_cache_path() -> Path:
    """OAuth2 tokens, next to the config file (mode 0600)."""
    return config_path().with_name("tokens.json")
