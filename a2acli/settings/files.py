"""The files settings come from: the global config (ours, else the official CLI spec's .env), the local .env / .a2acli.toml found from the working directory up or given by --config, and how each is read."""

import os
import re
import stat
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from a2acli.errors import UsageError
from a2acli.records import Record
from a2acli.settings.table import AUTH_KEYS, SETTINGS, env_names


def home_path(*parts: str, env: Mapping[str, str] | None = None) -> Path | None:
    """~/parts: the home directory (`env`'s HOME when given, else the system's for this user), or
    None when there is none to name (HOME unset, a user the system does not know)."""
    try:
        home = Path(env["HOME"]) if env is not None and env.get("HOME") else Path.home()
    except RuntimeError:  # Path.home(): "Could not determine home directory."
        return None
    return home.joinpath(*parts)


def xdg_path(name: str, env: Mapping[str, str] | None = None) -> Path | None:
    """$name (XDG_CONFIG_HOME, XDG_CACHE_HOME…, from `env`, else the environment) when it is an
    absolute path; a relative one is ignored, as the XDG Base Directory spec says (it would put
    a2a's files wherever a run starts)."""
    given = (os.environ if env is None else env).get(name)
    return Path(given) if given and os.path.isabs(given) else None


def _config_home() -> Path | None:
    """The platform's config directory: $XDG_CONFIG_HOME, else ~/.config, ~/Library/Application
    Support on macOS, %APPDATA% on Windows; None when there is none to name (xdg_path, home_path)."""
    if sys.platform == "win32":
        appdata = os.environ.get("APPDATA")
        return Path(appdata) if appdata else home_path("AppData", "Roaming")
    if sys.platform == "darwin":
        return xdg_path("XDG_CONFIG_HOME") or home_path("Library", "Application Support")
    return xdg_path("XDG_CONFIG_HOME") or home_path(".config")


def global_config_path() -> Path | None:
    """Our global file (TOML): $A2ACLI_GLOBAL_CONFIG, else in the platform's config directory;
    None when there is none to name (no home directory): there is no global file to read."""
    env = os.environ.get("A2ACLI_GLOBAL_CONFIG")
    if env:
        try:
            return Path(env).expanduser()
        except RuntimeError:  # `~/…` and no home directory to expand it to
            raise UsageError(
                f"A2ACLI_GLOBAL_CONFIG={env}: there is no home directory to expand ~ to",
                hint="give the file's absolute path",
            ) from None
    base = _config_home()
    return None if base is None else base / "a2acli" / "config.toml"


def config_path() -> Path:
    """Our global file, for a command that writes or names it (`config set`, `config path`):
    global_config_path(); a UsageError when there is none to name."""
    path = global_config_path()
    if path is None:
        raise no_config_home("global config file")
    return path


def no_config_home(what: str, *, config_flag: bool = False) -> UsageError:
    """The error of a command that must write or name a file kept in the config directory (our
    config file, the token cache beside it) when there is none: no home directory, and no
    absolute XDG_CONFIG_HOME."""
    xdg = os.environ.get("XDG_CONFIG_HOME")
    why = f", and XDG_CONFIG_HOME={xdg} is not an absolute path" if xdg else ""
    flag = ", or name the file that keeps the profile (a2a --config FILE auth ...)" if config_flag else ""
    return UsageError(
        f"no {what}: HOME is not set, the system names no home directory for this user{why}",
        hint=f"set HOME, or XDG_CONFIG_HOME to an absolute path (A2ACLI_GLOBAL_CONFIG names the file itself){flag}",
    )


def spec_global_path() -> Path | None:
    """The global file the official CLI spec names (§8.3): `a2a-cli/.env` in the user's config
    directory, beside ours. Read after ours (config_path), which wins a setting both set; `config
    set` writes ours. None when there is no config directory."""
    ours = global_config_path()
    return None if ours is None else ours.parent.parent / "a2a-cli" / ".env"


def load_config(path: Path | None = None) -> dict[str, Any]:
    """The global config file as read (a .env there reads as its top-level settings)."""
    path = path or global_config_path()
    f = None if path is None else read_config_file(path, "global")
    return {} if f is None else f.data


def global_files(warnings: list[str]) -> "list[ConfigFile]":
    """The global files that exist, in the order they are read: ours, then the spec's `.env`
    (§8.3). A setting both give with different values is named in a warning (its values are not
    shown: a secret may be one of them); ours wins it."""
    found: list[ConfigFile] = []
    for path in (global_config_path(), spec_global_path()):
        if path is None:  # no home directory: no global file
            continue
        try:
            exists = path.is_file()
        except OSError as e:  # a directory on the way that cannot be read
            raise UsageError(
                f"cannot read the config file {path}: {e.strerror}",
                hint="check the permissions of its directory, or set A2ACLI_GLOBAL_CONFIG",
            ) from None
        f = read_config_file(path, "global") if exists else None
        if f:
            found.append(f)
    if len(found) == 2:
        ours, spec = (f.data for f in found)
        differ = sorted(
            k
            for k, v in spec.items()
            if k in ours and not isinstance(v, dict) and k != "default-profile" and str(ours[k]) != str(v)
        )
        if differ:
            warnings.append(
                f"the global config files disagree on {', '.join(differ)}: {found[0].path} is used over {found[1].path}"
            )
    return found


def _read_text(path: Path, *, writing: bool) -> str | None:
    """The config file's text; None when there is none. UsageError when it cannot be read as UTF-8."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as e:
        raise UsageError(
            f"cannot read the config file {path}: {e.strerror}",
            hint="check the file, and A2ACLI_GLOBAL_CONFIG or --config",
        ) from None
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
        return UsageError(
            f"{where}; the file was not changed", hint=f"fix line {line} by hand, then run the command again"
        )
    return UsageError(where, hint=f"fix line {line}, or remove the file")


# -- the files settings come from ----------------------------------------------------------------
#
# Highest first: a flag, an environment variable, the local file (`--config FILE`, else the nearest
# `.env` / `.a2acli.toml` from the working directory up), the global file (config.toml above), the
# built-in default. Within one file: a profile named by --profile / A2ACLI_PROFILE, then the agent
# scope matching the agent (`[agents."https://agent.example"]`), then the default profile, then
# the file's top-level keys.

LOCAL_NAMES = (".env", ".a2acli.toml")  # both in one directory: the .env wins, key by key
DOTENV_SECRETS = ("A2ACLI_API_KEY", "A2ACLI_BEARER", "A2ACLI_BASIC", "A2ACLI_CLIENT_SECRET")
_NOT_SETTINGS = ("profiles", "agents", "default-profile")  # a file's top-level keys that are not settings


class ConfigFile(Record):
    __slots__ = ("path", "kind", "data", "dotenv", "secrets")
    path: Path
    kind: str  # "local", "--config" or "global"
    data: dict[str, Any]  # as TOML reads it; a .env becomes top-level settings (and default-profile)
    dotenv: bool
    secrets: tuple[str, ...]  # where it keeps a secret, anywhere in the file

    def __init__(
        self,
        path: Path,
        kind: str,
        data: dict[str, Any],
        dotenv: bool = False,
        secrets: tuple[str, ...] = (),
    ) -> None:
        self._set(path, kind, data, dotenv, secrets)

    @property
    def where(self) -> str:
        return f"{self.kind} {self.path}"


class Layer(Record):
    __slots__ = ("label", "values", "file", "section")
    label: str  # the source, as `config show` names it
    values: dict[str, Any]
    file: ConfigFile | None
    section: str | None  # "profiles.p", 'agents."https://a.example"', None: the file's top level

    def __init__(
        self,
        label: str,
        values: dict[str, Any],
        file: ConfigFile | None = None,
        section: str | None = None,
    ) -> None:
        self._set(label, values, file, section)


def is_dotenv(path: Path, text: str) -> bool:
    """A `.env` (dotenv) file rather than TOML: by its name (`.env`, `x.env`, `.env.local`; `.toml`
    is TOML), else by its first line that is not blank or a comment: `NAME=value` with an upper-case
    NAME (TOML keys here are lower-case, tables are `[...]`)."""
    name = path.name.lower()
    if name.endswith(".toml"):
        return False
    if name == ".env" or name.startswith(".env.") or name.endswith(".env"):
        return True
    for line in text.splitlines():
        s = line.strip()
        if s and not s.startswith("#"):
            return re.match(r"(export\s+)?[A-Z_][A-Z0-9_]*\s*=", s) is not None
    return False


_ASSIGN = r"\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*=[ \t]*(.*)"  # compiled on first use (re's cache)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "$": "$", "`": "`"}


def parse_dotenv(path: Path, text: str) -> dict[str, str]:
    """The `A2ACLI_*` assignments of a .env file (other names are skipped, as are lines that are not
    `NAME=value`; `export NAME=value` is read too). The file is read as data, never run: no variable
    expansion, no command substitution. A value in '…' is literal; one in "…" takes the escapes \\n
    \\t \\r \\" \\\\ \\$ and may span lines; an unquoted value ends at a ` #` comment, and is trimmed."""
    out: dict[str, str] = {}
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        lineno, line = i + 1, lines[i]
        i += 1
        m = re.fullmatch(_ASSIGN, line)
        if not m or line.lstrip().startswith("#"):
            continue
        name, rest = m[1], m[2]
        mine = name.startswith("A2ACLI_")
        if rest[:1] in ("'", '"'):
            quote, body = rest[0], rest[1:]
            value, end = _quoted(body, quote)
            while end < 0 and quote == '"' and i < len(lines):  # a double-quoted value may span lines
                body += "\n" + lines[i]
                i += 1
                value, end = _quoted(body, quote)
            if end < 0:
                if mine:
                    raise UsageError(
                        f"{path} line {lineno}: the value of {name} has no closing {quote}",
                        hint=f"close the quote, or write {name}=value unquoted",
                    )
                continue
            after = body[end + 1 :].strip()
            if after and not after.startswith("#"):
                if mine:
                    raise UsageError(
                        f"{path} line {lineno}: text after the closing quote of {name}",
                        hint="one value per line; a comment starts with ' #'",
                    )
                continue
        else:
            value = re.split(r"\s#", rest, maxsplit=1)[0].strip()
        if mine:
            out[name] = value
    return out


def _quoted(body: str, quote: str) -> tuple[str, int]:
    """The value inside quotes (`body` starts after the opening one) and the closing quote's index; -1 when unclosed."""
    if quote == "'":
        end = body.find("'")
        return body[: max(end, 0)], end
    chars: list[str] = []
    j = 0
    while j < len(body):
        c = body[j]
        if c == "\\" and j + 1 < len(body):
            chars.append(_ESCAPES.get(body[j + 1], c + body[j + 1]))
            j += 2
            continue
        if c == '"':
            return "".join(chars), j
        chars.append(c)
        j += 1
    return "", -1


def read_config_file(path: Path, kind: str, text: str | None = None) -> ConfigFile | None:
    """A config file, TOML or .env (told apart by is_dotenv); None when it is not there."""
    text = _read_text(path, writing=False) if text is None else text
    if text is None:
        return None
    if is_dotenv(path, text):
        names = parse_dotenv(path, text)
        data: dict[str, Any] = {}
        for name, s in SETTINGS.items():
            for env in env_names(s):
                if names.get(env):
                    data[name] = names[env]
                    break
        if names.get("A2ACLI_PROFILE"):
            data["default-profile"] = names["A2ACLI_PROFILE"]
        return ConfigFile(path, kind, data, True, tuple(n for n in DOTENV_SECRETS if names.get(n)))
    data = _parse(path, text, writing=False)
    return ConfigFile(path, kind, data, False, _secrets_in(data))


def _secrets_in(data: dict[str, Any]) -> tuple[str, ...]:
    """Where a TOML config keeps secrets: `bearer`, `profiles.p.auth.client-secret`, `agents."x".headers.Authorization`…"""
    held: list[str] = []

    def scan(prefix: str, sec: Any) -> None:
        if not isinstance(sec, dict):
            return
        held.extend(prefix + k for k, s in SETTINGS.items() if s.secret and sec.get(k) not in (None, ""))
        auth = sec.get("auth")
        if isinstance(auth, dict):
            held.extend(f"{prefix}auth.{k}" for k, secret in AUTH_KEYS.items() if secret and auth.get(k))
        headers = sec.get("headers")
        if isinstance(headers, dict) and headers:
            from a2acli.redact import given_secret

            held.extend(f"{prefix}headers.{k}" for k in headers if given_secret(str(k)))

    scan("", data)
    for table in ("profiles", "agents"):
        sections = data.get(table)
        if isinstance(sections, dict):
            for name, sec in sections.items():
                scan(f"{table}.{_toml_key(name)}.", sec)
    return tuple(held)


def _toml_key(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def find_local() -> tuple[list[tuple[Path, str | None]], list[str]]:
    """The local config files, from the working directory up: those of the nearest directory that
    holds a `.a2acli.toml` or a `.env` with an `A2ACLI_` line (a .env without one is someone
    else's and does not stop the search), as (path, text read or None), the .env first; and
    warnings. The search stops before $HOME (a file there would be a second global config, above
    the real one) and at the filesystem root. A file that belongs to another user is skipped with a
    warning (as git does): one written by someone else could send your credentials elsewhere."""
    try:
        here = os.getcwd()
    except OSError:  # the working directory was removed
        return [], []
    home = os.path.realpath(os.path.expanduser("~"))
    warnings: list[str] = []
    d = here
    while d != home:
        found: list[tuple[Path, str | None]] = []
        for name in LOCAL_NAMES:
            p = os.path.join(d, name)
            try:
                st = os.stat(p)
            except OSError:
                continue
            if not stat.S_ISREG(st.st_mode):
                continue
            text = None
            if name == ".env":
                text = _read_text(Path(p), writing=False)
                if text is None or not re.search(r"^\s*(export\s+)?A2ACLI_[A-Z0-9_]*\s*=", text, re.M):
                    continue
            if os.name == "posix" and st.st_uid != os.getuid():
                warnings.append(
                    f"ignoring {p}: it belongs to another user (uid {st.st_uid}); a config file someone else wrote could send your credentials elsewhere"
                )
                continue
            found.append((Path(p), text))
        if found:
            return found, warnings
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
    return [], warnings


def local_files(explicit: str | None, warnings: list[str]) -> list[ConfigFile]:
    """`--config FILE` (env A2ACLI_CONFIG, or its older name A2ACLI_LOCAL_CONFIG), else the
    discovered local files (highest first)."""
    explicit = explicit or os.environ.get("A2ACLI_CONFIG") or os.environ.get("A2ACLI_LOCAL_CONFIG") or None
    if explicit is not None:
        p = Path(os.path.abspath(os.path.expanduser(explicit)))
        if not p.exists() or p.is_dir():
            what = "is a directory" if p.is_dir() else "no such file"
            raise UsageError(
                f"--config {explicit}: {what}", hint="give a .env or TOML config file (--config /dev/null: none at all)"
            )
        f = read_config_file(p, "--config")
        return [f] if f else []
    found, warned = find_local()
    warnings.extend(warned)
    return [f for f in (read_config_file(p, "local", text) for p, text in found) if f]


def cache_dir() -> Path | None:
    """a2a's cache directory (the Agent Card cache): $XDG_CACHE_HOME/a2acli, else the platform's
    cache directory: ~/.cache/a2acli, ~/Library/Caches/a2acli on macOS,
    %LOCALAPPDATA%\\a2acli\\Cache on Windows; None when there is none to name (xdg_path: a
    relative XDG_CACHE_HOME is ignored; home_path: no home directory)."""
    xdg = xdg_path("XDG_CACHE_HOME")
    if xdg is not None:
        return xdg / "a2acli"
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA")
        base = Path(local) if local else home_path("AppData", "Local")
        return None if base is None else base / "a2acli" / "Cache"
    return home_path("Library", "Caches", "a2acli") if sys.platform == "darwin" else home_path(".cache", "a2acli")


def token_cache_path() -> Path | None:
    """OAuth2 tokens, next to the config file (mode 0600); None when there is no config directory
    (no home directory): no tokens are kept."""
    ours = global_config_path()
    return None if ours is None else ours.with_name("tokens.json")


def environ(name: str) -> str | None:
    """The environment's A2ACLI_<NAME> (`name` spelt as a setting is: `profile`, `chat-history`):
    the one place outside the settings' own resolution where a2a reads its variables."""
    return os.environ.get("A2ACLI_" + name.upper().replace("-", "_"))


def environ_snapshot() -> tuple[tuple[str, str], ...]:
    """Every A2ACLI_* variable set, sorted: what a cache of resolved values is keyed by."""
    return tuple(sorted((k, v) for k, v in os.environ.items() if k.startswith("A2ACLI_")))


def chat_history_path() -> Path | None:
    """The chat's history file: A2ACLI_CHAT_HISTORY (empty: none), else a2acli/chat_history in
    the XDG state directory (~/.local/state; a relative XDG_STATE_HOME is ignored); None when
    there is none to name (no home directory)."""
    given = environ("chat-history")
    if given is not None:
        return Path(os.path.expanduser(given)) if given.strip() else None
    base = xdg_path("XDG_STATE_HOME") or home_path(".local", "state")
    return None if base is None else base / "a2acli" / "chat_history"
