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

`a2a config set/unset` and `a2a auth login` rewrite the file (mode 0600, its directory 0700) with
the small TOML writer below: comments are not kept. Task and context ids are never stored.
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
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as e:
        raise UsageError(f"cannot read the config file {path}: {e.strerror}", hint="check A2ACLI_CONFIG") from None
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    try:
        return tomllib.loads(data.decode())
    except (ValueError, UnicodeDecodeError) as e:
        raise UsageError(f"the config file {path} is not valid TOML: {e}", hint="fix or remove it") from None


def profile_values(profile: str | None, config: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
    """(name, values) of the profile in use: --profile / A2ACLI_PROFILE, else `default-profile`."""
    name = profile or os.environ.get("A2ACLI_PROFILE") or config.get("default-profile")
    if not name:
        return None, {}
    profiles = config.get("profiles") or {}
    if name not in profiles:
        known = ", ".join(sorted(profiles)) or "none"
        raise UsageError(f"no profile {name!r} in {config_path()}", hint=f"profiles: {known}; `a2a config set --profile {name} url URL` makes one")
    return name, dict(profiles[name])


class Resolved(NamedTuple):
    values: dict[str, Any]
    sources: dict[str, str]  # flag | env | profile NAME | default
    profile: str | None
    profile_headers: tuple[tuple[str, str], ...]
    auth: dict[str, str]  # the profile's [auth] table (OAuth2)


def resolve(flags: dict[str, Any], profile: str | None = None) -> Resolved:
    need_config = profile or os.environ.get("A2ACLI_PROFILE") or os.environ.get("A2ACLI_CONFIG") or config_path().exists()
    config = load_config() if need_config else {}
    pname, pvals = profile_values(profile, config)
    values, sources = resolve_values(flags, pname, pvals)
    headers = pvals.get("headers") or {}
    auth = {str(k): str(v) for k, v in (pvals.get("auth") or {}).items()}
    return Resolved(values, sources, pname, tuple((str(k), str(v)) for k, v in headers.items()), auth)


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
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
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


def check_url(value: str, what: str, *, files: bool = False) -> None:
    from urllib.parse import urlsplit

    from a2acli.errors import UsageError

    parts = urlsplit(value)
    if files and (parts.scheme == "file" or (not parts.scheme and value.endswith(".json"))):
        return
    if parts.scheme not in ("http", "https") or not parts.netloc:
        example = "https://idp.example/oauth/token" if "token" in what else "http://127.0.0.1:41241"
        raise UsageError(f"{what} {value!r} is not an http(s) URL", hint=f"e.g. {example}")


def check_value(name: str, value: Any) -> Any:
    """Validate one setting's value (as text from the command line or a file); return what to store."""
    from a2acli.errors import UsageError

    text = str(value).strip()
    if name == "a2a-version":
        from a2acli.wire import parse_wire

        try:
            return parse_wire(text).version
        except ValueError as e:
            raise UsageError(str(e), hint="a2a-version is 1.0 or 0.3") from None
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
    if name == "timeout":
        try:
            t = float(text)
        except ValueError:
            t = -1.0
        if not math.isfinite(t) or t <= 0:
            raise UsageError(f"timeout {text!r} is not a positive number of seconds", hint="e.g. a2a config set timeout 30")
        return t
    if name == "transport":
        from a2acli.wire.bindings import parse_transport

        return ",".join(parse_transport(t).flag for t in text.split(",") if t.strip())
    if name in ("url", "endpoint"):
        check_url(text, name, files=name == "url")
        return text
    if name == "basic" and ":" not in text:
        raise UsageError("basic must be USER:PASSWORD", hint="e.g. a2a config set basic alice:s3cret (or A2ACLI_BASIC)")
    if name in PATH_SETTINGS:
        p = Path(text).expanduser()
        if not p.is_file():
            raise UsageError(f"{name} {text!r}: no such file", hint="give the path of a PEM file")
        return str(p.resolve())
    return text


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


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _toml_str(key)


def _toml_str(s: str) -> str:
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch in "\b\t\n\f\r":
            out.append({"\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}[ch])
        elif o < 0x20 or o == 0x7F:
            out.append(f"\\u{o:04X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if hasattr(v, "isoformat"):  # dates and times read from a hand-written file
        return v.isoformat()
    return _toml_str(str(v))


def dumps(data: dict[str, Any]) -> str:
    """TOML for the config's shape: scalars and arrays of scalars in nested tables."""
    lines = ["# a2a configuration, written by `a2a config` / `a2a auth login` (comments are not kept)."]

    def table(path: list[str], t: dict[str, Any]) -> None:
        scalars = [(k, v) for k, v in t.items() if not isinstance(v, dict)]
        subs = [(k, v) for k, v in t.items() if isinstance(v, dict)]
        if path and (scalars or not subs):
            lines.append("")
            lines.append("[" + ".".join(_toml_key(p) for p in path) + "]")
        for k, v in scalars:
            lines.append(f"{_toml_key(k)} = {_toml_value(v)}")
        for k, v in subs:
            table(path + [k], v)

    table([], data)
    return "\n".join(lines) + "\n"


def write_private(path: Path, text: str) -> None:
    """Write `text` to `path` atomically, readable by the owner only (0600; a new directory 0700)."""
    from a2acli.errors import UsageError

    if path.exists() and not path.is_file():
        raise UsageError(f"{path} is not a regular file; not writing to it", hint="point A2ACLI_CONFIG at a file")
    parent = path.parent
    try:
        if not parent.exists():
            parent.mkdir(parents=True, mode=0o700)
            os.chmod(parent, 0o700)
        tmp = parent / f".{path.name}.{os.getpid()}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, 0o600)
            os.replace(tmp, path)
        finally:
            if tmp.exists():
                tmp.unlink()
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror or e}", hint="check A2ACLI_CONFIG and the directory's permissions") from None


def save_config(config: dict[str, Any], path: Path | None = None) -> Path:
    path = path or config_path()
    write_private(path, dumps(config))
    return path


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
