"""Effective settings: flag > environment > local file > global file > built-in default, with
where each came from (official CLI spec §6.4).

The local file is `--config FILE` (env A2ACLI_CONFIG, the spec's name for it; A2ACLI_LOCAL_CONFIG,
its older name), else the `.env` and `.a2acli.toml` of the nearest directory, from the working
directory up ($HOME and above excluded), that has one. Two global files are read, in this order
(the first wins a setting both set, and a warning names each setting they disagree on): ours, TOML
at $A2ACLI_GLOBAL_CONFIG, else the platform's config dir ($XDG_CONFIG_HOME/a2acli/config.toml,
~/.config/a2acli/config.toml), which `config set` and `auth login` write; then the official CLI
spec's `a2a-cli/.env` beside it (~/.config/a2a-cli/.env, §8.3). A TOML file holds settings at
its top level, agent scopes (`[agents."https://agent.example"]`, applied when the agent matches)
and named profiles:

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
import stat  # os imports it: free
import sys
from pathlib import Path
from typing import Any, NamedTuple

from a2acli.errors import UsageError


class Setting(NamedTuple):  # NamedTuples here: cheaper than dataclasses to define at start-up
    name: str  # the flag without dashes, and the profile key
    env: str
    default: Any = None
    secret: bool = False
    old: str = ""  # another name (`rpc-url`, the old one; `agent-card`, the spec's): also read from env A2ACLI_<OLD> and profiles


SETTINGS: dict[str, Setting] = {
    s.name: s
    for s in (
        Setting("url", "A2ACLI_URL", old="agent-card"),
        Setting("endpoint", "A2ACLI_ENDPOINT", old="rpc-url"),
        Setting("catalog", "A2ACLI_CATALOG"),  # the agent catalog that catalog:NAME reads (A2ACLI_CARD_GET_005)
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
        Setting("output", "A2ACLI_OUTPUT", "auto"),
        Setting("dump", "A2ACLI_DUMP"),
    )
}


def config_path() -> Path:
    """Our global file (TOML): $A2ACLI_GLOBAL_CONFIG, else in the platform's config directory."""
    env = os.environ.get("A2ACLI_GLOBAL_CONFIG")
    if env:
        return Path(env).expanduser()
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin" and not os.environ.get("XDG_CONFIG_HOME"):
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / "a2acli" / "config.toml"


def spec_global_path() -> Path:
    """The global file the official CLI spec names (§8.3): `a2a-cli/.env` in the user's config
    directory, beside ours. Read after ours (config_path), which wins a setting both set; `config
    set` writes ours."""
    return config_path().parent.parent / "a2a-cli" / ".env"


def global_read_path() -> Path:
    """Our global file: the one `config set` writes, profiles and agent scopes live in."""
    return config_path()


def load_config(path: Path | None = None) -> dict[str, Any]:
    """The global config file as read (a .env there reads as its top-level settings)."""
    f = read_config_file(path or global_read_path(), "global")
    return {} if f is None else f.data


def global_files(warnings: list[str]) -> list[ConfigFile]:
    """The global files that exist, in the order they are read: ours, then the spec's `.env`
    (§8.3). A setting both give with different values is named in a warning (its values are not
    shown: a secret may be one of them); ours wins it."""
    found: list[ConfigFile] = []
    for path in (config_path(), spec_global_path()):
        try:
            exists = path.is_file()
        except OSError as e:  # a directory on the way that cannot be read
            raise UsageError(f"cannot read the config file {path}: {e.strerror}", hint="check the permissions of its directory, or set A2ACLI_GLOBAL_CONFIG") from None
        f = read_config_file(path, "global") if exists else None
        if f:
            found.append(f)
    if len(found) == 2:
        ours, spec = (f.data for f in found)
        differ = sorted(k for k, v in spec.items() if k in ours and not isinstance(v, dict) and k != "default-profile" and str(ours[k]) != str(v))
        if differ:
            warnings.append(f"the global config files disagree on {', '.join(differ)}: {found[0].path} is used over {found[1].path}")
    return found


def _read_text(path: Path, *, writing: bool) -> str | None:
    """The config file's text; None when there is none. UsageError when it cannot be read as UTF-8."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as e:
        raise UsageError(f"cannot read the config file {path}: {e.strerror}", hint="check the file, and A2ACLI_GLOBAL_CONFIG or --config") from None
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


# -- the files settings come from ----------------------------------------------------------------
#
# Highest first: a flag, an environment variable, the local file (`--config FILE`, else the nearest
# `.env` / `.a2acli.toml` from the working directory up), the global file (config.toml above), the
# built-in default. Within one file: a profile named by --profile / A2ACLI_PROFILE, then the agent
# scope matching the agent (`[agents."https://agent.example"]`), then the default profile, then
# the file's top-level keys.

OUTPUT_MODES = ("auto", "text", "json", "raw")  # auto: the rich view at a terminal, else text (the floor)
LOCAL_NAMES = (".env", ".a2acli.toml")  # both in one directory: the .env wins, key by key
DOTENV_SECRETS = ("A2ACLI_API_KEY", "A2ACLI_BEARER", "A2ACLI_BASIC", "A2ACLI_CLIENT_SECRET")
_NOT_SETTINGS = ("profiles", "agents", "default-profile")  # a file's top-level keys that are not settings


def env_names(s: Setting) -> tuple[str, ...]:
    """The environment variables (and .env names) of a setting, the first set one wins."""
    old = ("A2ACLI_" + s.old.upper().replace("-", "_"),) if s.old else ()
    return (s.env, *old)


class ConfigFile(NamedTuple):
    path: Path
    kind: str  # "local", "--config" or "global"
    data: dict[str, Any]  # as TOML reads it; a .env becomes top-level settings (and default-profile)
    dotenv: bool = False
    secrets: tuple[str, ...] = ()  # where it keeps a secret, anywhere in the file

    @property
    def where(self) -> str:
        return f"{self.kind} {self.path}"


class Layer(NamedTuple):
    label: str  # the source, as `config show` names it
    values: dict[str, Any]
    file: ConfigFile | None = None
    section: str | None = None  # "profiles.p", 'agents."https://a.example"', None: the file's top level


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


_ASSIGN = re.compile(r"\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*=[ \t]*(.*)")
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
        m = _ASSIGN.fullmatch(line)
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
                    raise UsageError(f"{path} line {lineno}: the value of {name} has no closing {quote}", hint=f"close the quote, or write {name}=value unquoted")
                continue
            after = body[end + 1 :].strip()
            if after and not after.startswith("#"):
                if mine:
                    raise UsageError(f"{path} line {lineno}: text after the closing quote of {name}", hint="one value per line; a comment starts with ' #'")
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
            from a2acli.redact import HARMLESS_HEADERS

            held.extend(f"{prefix}headers.{k}" for k in headers if str(k).lower() not in HARMLESS_HEADERS)

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
                warnings.append(f"ignoring {p}: it belongs to another user (uid {st.st_uid}); a config file someone else wrote could send your credentials elsewhere")
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
            raise UsageError(f"--config {explicit}: {what}", hint="give a .env or TOML config file (--config /dev/null: none at all)")
        f = read_config_file(p, "--config")
        return [f] if f else []
    found, warned = find_local()
    warnings.extend(warned)
    return [f for f in (read_config_file(p, "local", text) for p, text in found) if f]


def _table(f: ConfigFile, key: str) -> dict[str, Any]:
    value = f.data.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _wrong_type(key, value, "a table of profiles" if key == "profiles" else "a table of agents", f.path)
    return value


def _pick_profile(profile: str | None, files: list[ConfigFile]) -> tuple[str | None, str, bool]:
    """(name, where it was chosen, explicit?): --profile, A2ACLI_PROFILE (explicit: above agent
    scopes), else the default profile of the highest file that names one."""
    if profile:
        return profile, "flag", True
    if os.environ.get("A2ACLI_PROFILE"):
        return os.environ["A2ACLI_PROFILE"], "env A2ACLI_PROFILE", True
    for f in files:
        name = f.data.get("default-profile")
        if name is None:
            continue
        if not isinstance(name, str):
            raise _wrong_type("default-profile", name, "a string (a profile's name)", f.path)
        if name:
            return name, f"{'A2ACLI_PROFILE' if f.dotenv else 'default-profile'} ({f.where})", False
    return None, "none", False


def _split_ref(ref: str) -> tuple[str, str, int | None, str] | None:
    """(scheme, host, port, path) of an agent reference; a bare `host[:port][/path]` has scheme ""."""
    from urllib.parse import urlsplit

    text = ref.strip()
    bare = "://" not in text
    if bare and not re.match(r"[A-Za-z0-9\[][A-Za-z0-9.\-\[\]:]*(/|$)", text):  # a file path, not a host
        return None
    try:
        u = urlsplit("http://" + text if bare else text)
        port = u.port
    except ValueError:
        return None
    if not u.hostname:
        return None
    scheme = "" if bare else u.scheme.lower()
    return scheme, u.hostname.lower(), port or {"http": 80, "https": 443}.get(scheme), u.path.rstrip("/")


def agent_match(key: str, ref: str) -> int | None:
    """How closely the agent scope `key` matches the agent `ref` (the length of its path; longer
    wins), None when it does not. `https://a.example` matches that origin (scheme, host, port) and
    every path under it; `https://a.example/team1` only that path and under; a key without a
    scheme (`a.example`, `a.example:8443`) matches that host (and port, when given) on any scheme.
    Anything else (a file path) matches itself only."""
    k, r = _split_ref(key), _split_ref(ref)
    if k is None or r is None:
        return len(key) if key.strip() == ref.strip() else None
    ks, kh, kp, kpath = k
    rs, rh, rp, rpath = r
    if not rs:  # a bare host:port given to --url is read as http://
        rs, rp = "http", rp or 80
    if kh != rh or (ks and ks != rs) or (kp is not None and kp != rp):
        return None
    if kpath and rpath != kpath and not rpath.startswith(kpath + "/"):
        return None
    return len(kpath)


def _agent_section(f: ConfigFile, ref: str | None) -> tuple[str, dict[str, Any]] | None:
    agents = _table(f, "agents")
    if not ref or not agents:
        return None
    best: tuple[int, str] | None = None
    for key in agents:
        n = agent_match(str(key), ref)
        if n is not None and (best is None or n > best[0]):
            best = (n, str(key))
    if best is None:
        return None
    sec = agents[best[1]]
    where = f"agents.{_toml_key(best[1])}"
    if not isinstance(sec, dict):
        raise _wrong_type(where, sec, "a table of settings", f.path)
    if "url" in sec:
        raise UsageError(f"{where} in {f.path} sets url: an agent scope is chosen by the agent's URL and cannot change it", hint=f"remove url from [{where}]")
    return best[1], sec


def _sections(f: ConfigFile, pname: str | None, explicit: bool, agent: tuple[str, dict[str, Any]] | None) -> list[Layer]:
    """The layers of one file, highest first."""
    profiles = _table(f, "profiles")
    prof: Layer | None = None
    if pname and pname in profiles:
        where = f"profiles.{_toml_key(pname)}"
        if not isinstance(profiles[pname], dict):
            raise _wrong_type(where, profiles[pname], "a table of settings", f.path)
        prof = Layer(f"profile {pname} ({f.where})", profiles[pname], f, where)
    out: list[Layer] = []
    if prof and explicit:
        out.append(prof)
    if agent:
        out.append(Layer(f"agent {agent[0]} ({f.where})", agent[1], f, f"agents.{_toml_key(agent[0])}"))
    if prof and not explicit:
        out.append(prof)
    out.append(Layer(f.where, {k: v for k, v in f.data.items() if k not in _NOT_SETTINGS}, f, None))
    return out


# What each setting may be in the file: a string always; besides, these TOML types.
_ALSO: dict[str, tuple[type, ...]] = {
    "a2a-version": (int, float),  # `a2a-version = 1.0` unquoted
    "timeout": (int, float),
    "max-body": (int,),
    "strict-origin": (bool,),
    "transport": (list,),
}


def check_types(layer: Layer) -> None:
    """Every value of a section of the type its key takes (a usage error naming it, not a crash)."""
    if layer.file is None or layer.file.dotenv:
        return
    prefix = f"{layer.section}." if layer.section else ""
    path = layer.file.path
    for name, s in SETTINGS.items():
        for key in (name, s.old) if s.old else (name,):
            value = layer.values.get(key)
            if value is None or isinstance(value, str):
                continue
            also = _ALSO.get(name, ())
            ok = isinstance(value, also) and not (isinstance(value, bool) and bool not in also)
            if ok and isinstance(value, list):
                ok = all(isinstance(v, str) for v in value)
            if not ok:
                wanted = "a string" + (" or an array of strings" if name == "transport" else " or a number" if int in also else " or a boolean" if bool in also else "")
                raise _wrong_type(f"{prefix}{key}", value, wanted, path)
    for table in ("headers", "auth", "catalogs"):
        sub = layer.values.get(table)
        if sub is None:
            continue
        if not isinstance(sub, dict):
            raise _wrong_type(f"{prefix}{table}", sub, "a table", path)
        for k, v in sub.items():
            if isinstance(v, bool) or not isinstance(v, (str, int, float)):
                raise _wrong_type(f"{prefix}{table}.{k}", v, "a string", path)


def _kind(value: Any) -> str:
    """What a TOML value is, in words."""
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "an array", dict: "a table"}.get(type(value), type(value).__name__)


def _wrong_type(key: str, value: Any, wanted: str, path: Path | None = None) -> UsageError:
    return UsageError(f"{key} in the config file {path or config_path()} is {_kind(value)}, not {wanted}", hint=f"fix {key} in the file, or `a2a config set` it")


class Resolved(NamedTuple):
    values: dict[str, Any]  # every setting; also `header.NAME` and `auth.KEY` from the files
    sources: dict[str, str]  # flag | env NAME | a file and its section (`profile p (global PATH)`) | default
    profile: str | None
    profile_headers: tuple[tuple[str, str], ...]  # the files' headers, merged (the highest source wins a name)
    auth: dict[str, str]  # the [auth] table (OAuth2) of the highest section that has one
    warnings: tuple[str, ...] = ()  # files others can read that hold secrets, files skipped
    rank: dict[str, int] = {}  # noqa: RUF012  (read-only) setting -> 0 flag, 1 env, 2… file sections, 999 default
    files: tuple[ConfigFile, ...] = ()  # the files read, highest first
    profile_source: str = "none"
    agents: tuple[str, ...] = ()  # the agent scopes applied (their labels)
    where: dict[str, tuple[str, str | None]] = {}  # noqa: RUF012  (read-only) a file source's label -> (path, section)
    catalogs: tuple[tuple[str, str], ...] = ()  # named agent catalogs ([catalogs] tables): (name, URL or file)


def resolve(flags: dict[str, Any], profile: str | None = None, config: str | None = None) -> Resolved:
    """Every setting from the first of: flag, environment, local file (`config`, the --config
    FILE, else the one found from the working directory up), global file, built-in default."""
    warnings: list[str] = []
    files = local_files(config, warnings)
    path = global_read_path()
    files += global_files(warnings)
    pname, psource, explicit = _pick_profile(profile, files)
    if pname and not any(pname in _table(f, "profiles") for f in files):
        known = sorted({str(n) for f in files for n in _table(f, "profiles")})
        where = " or ".join(dict.fromkeys([*(str(f.path) for f in files if _table(f, "profiles")), str(path)]))
        raise UsageError(f"no profile {pname!r} in {where}", hint=f"profiles: {', '.join(known) or 'none'}; `a2a config set --profile {pname} url URL` makes one")
    # The agent: the URL (else the endpoint) from every source but the agent scopes, which it chooses.
    plain = [layer for f in files for layer in _sections(f, pname, explicit, None)]
    ref_values, _, _ = _pick_values({k: flags.get(k) for k in ("url", "endpoint")}, plain, only=("url", "endpoint"))
    ref = ref_values.get("url") or ref_values.get("endpoint")
    layers: list[Layer] = []
    agents: list[str] = []
    for f in files:
        agent = _agent_section(f, str(ref) if ref else None)
        section = _sections(f, pname, explicit, agent)
        layers += section
        agents += [layer.label for layer in section if layer.section and layer.section.startswith("agents.")]
    for layer in layers:
        check_types(layer)
    values, sources, rank = _pick_values(flags, layers)
    headers: dict[str, tuple[str, str]] = {}  # lower-case name -> (name, value)
    for layer in layers:
        for k, v in (layer.values.get("headers") or {}).items():
            if str(k).lower() not in headers:
                headers[str(k).lower()] = (str(k), str(v))
                values[f"header.{k}"], sources[f"header.{k}"] = str(v), layer.label
    catalogs: dict[str, str] = {}  # named catalogs (`[catalogs]`): the highest source wins a name
    for layer in layers:
        for k, v in (layer.values.get("catalogs") or {}).items():
            if str(k) not in catalogs:
                catalogs[str(k)] = str(v)
                values[f"catalog.{k}"], sources[f"catalog.{k}"] = str(v), layer.label
    auth: dict[str, str] = {}
    for layer in layers:
        if layer.values.get("auth"):
            auth = {str(k): str(v) for k, v in layer.values["auth"].items()}
            for k, v in auth.items():
                values[f"auth.{k}"], sources[f"auth.{k}"] = v, layer.label
            break
    warnings += filter(None, (_exposed(f) for f in files))
    wheres = {layer.label: (str(layer.file.path), layer.section) for layer in layers if layer.file}
    return Resolved(values, sources, pname, tuple(headers.values()), auth, tuple(warnings), rank, tuple(files), psource, tuple(agents), wheres, tuple(catalogs.items()))


def _exposed(f: ConfigFile) -> str | None:
    """A warning when a config file keeps a secret and others can read it."""
    if not f.secrets or os.name != "posix":
        return None
    try:
        mode = f.path.stat().st_mode
    except OSError:
        return None
    if not mode & 0o044 or not stat.S_ISREG(mode):  # not readable by others, or not a regular file (/dev/null)
        return None
    return f"the config file {f.path} is readable by others (mode {mode & 0o777:o}) and holds secrets ({', '.join(f.secrets)}); run: chmod 600 {f.path}"


def _pick_values(flags: dict[str, Any], layers: list[Layer], only: tuple[str, ...] | None = None) -> tuple[dict[str, Any], dict[str, str], dict[str, int]]:
    """Each setting from the first of: flag, environment, the layers in order, built-in default."""
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    rank: dict[str, int] = {}
    for name, s in SETTINGS.items():
        if only and name not in only:
            continue
        if flags.get(name) is not None:
            values[name], sources[name], rank[name] = flags[name], "flag", 0
            continue
        env = next((e for e in env_names(s) if os.environ.get(e)), None)
        if env:
            values[name], sources[name], rank[name] = os.environ[env], f"env {env}", 1
            continue
        for i, layer in enumerate(layers):
            value = layer.values.get(name)
            if value is None and s.old:
                value = layer.values.get(s.old)
            if value is not None:
                values[name], sources[name], rank[name] = value, layer.label, 2 + i
                break
        else:
            values[name], sources[name], rank[name] = s.default, "default", 999
    return values, sources, rank


def resolve_values(flags: dict[str, Any], pname: str | None, pvals: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """Each setting from the first of: flag, environment, the profile's values, built-in default."""
    values, sources, _ = _pick_values(flags, [Layer(f"profile {pname}", pvals)] if pname else [])
    return values, sources


# -- keys a profile may hold, and their validation ------------------------------------------------

AUTH_KEYS: dict[str, bool] = {  # [profiles.NAME.auth] key -> secret?
    "token-url": False,
    "client-id": False,
    "client-secret": True,
    "scope": False,
    "client-auth": False,
    "flow": False,  # client-credentials (default), device-code or authorization-code
    "device-authorization-url": False,
    "authorization-url": False,
    "redirect-port": False,  # authorization-code: the loopback redirect's port (0: a free one)
}
PATH_SETTINGS = frozenset({"cacert", "cert", "key"})
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # RFC 9110 token
_CATALOG_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")  # no `/`: catalog:CATALOG/NAME splits there


def profile_keys() -> list[str]:
    """Every key `a2a config set` accepts, for help and hints."""
    return list(SETTINGS) + ["header.NAME", "catalog.NAME"] + [f"auth.{k}" for k in AUTH_KEYS] + ["default-profile"]


def _key_hint() -> str:
    return "keys: " + ", ".join(profile_keys())


def parse_key(key: str) -> tuple[str, str]:
    """`config set/unset KEY`: (table, name). table is "" for a profile's own settings, "headers",
    "catalogs" (named agent catalogs), "auth", or "top" for default-profile. UsageError for anything else."""
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
    if low.startswith(("catalog.", "catalogs.")):
        name = k.split(".", 1)[1].strip()
        if not _CATALOG_NAME.fullmatch(name):
            raise UsageError(
                f"{name!r} is not a catalog name", hint="letters, digits, - and _ (catalog:NAME/ENTRY names an entry of it), e.g. a2a config set catalog.team https://registry.example/agents.json"
            )
        return "catalogs", name
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
    if table == "catalogs":
        check_catalog(value, f"catalog.{name}")
        return table, name, _catalog_stored(value)
    if table == "auth":
        if name in ("token-url", "device-authorization-url", "authorization-url"):
            check_url(value, f"auth.{name}", files=False)
        if name == "flow":
            from a2acli.auth import FLOWS

            if value.lower() not in FLOWS:
                raise UsageError(f"auth.flow {value!r} is not {', '.join(FLOWS[:-1])} or {FLOWS[-1]}", hint=f"{FLOWS[0]} (the default), {', '.join(FLOWS[1:])}")
            value = value.lower()
        if name == "redirect-port":
            if not value.strip().isdigit() or int(value) > 65535:
                raise UsageError(f"auth.redirect-port {value!r} is not a port number", hint="0 (a free port, the default) to 65535")
            return table, name, int(value)
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


def check_catalog(value: Any, what: str) -> None:
    """An agent catalog's location (--catalog, a named catalog), or a usage error naming what is
    wrong with it (a2acli.net.catalog_problem)."""
    from a2acli.errors import UsageError
    from a2acli.net import catalog_problem

    problem = catalog_problem(str(value))
    if problem:
        said = problem[3:] if problem.startswith("it is not an") else f"is not an agent catalog's URL or file: {problem}"
        raise UsageError(f"{what} {str(value)[:100]!r} {said}", hint="e.g. https://registry.example/agents.json, an origin serving /.well-known/ai-catalog.json, or a file's path")


def _catalog_stored(value: str) -> str:
    """A catalog as `config set` stores it: a URL as given, a file's path made absolute (the
    config is read from any directory)."""
    text = value.strip()
    return text if "://" in text else str(Path(text).expanduser().absolute())


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
        if text.lower() not in OUTPUT_MODES:
            raise UsageError(f"unknown output mode {text!r}", hint="output is auto, text, json or raw")
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
    if name == "catalog":
        check_catalog(text, "catalog")
        return _catalog_stored(text)
    if name in ("url", "endpoint"):
        from a2acli.net import agent_reference

        check_url(agent_reference(text) if name == "url" else text, name, files=name == "url", grpc=name == "endpoint")
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
        raise UsageError(f"{path} is not a regular file; not writing to it", hint="point A2ACLI_GLOBAL_CONFIG at a file")
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
        raise UsageError(f"cannot write {path}: {e.strerror or e}", hint="check A2ACLI_GLOBAL_CONFIG and the directory's permissions") from None


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
                f"{self.path} is a .env file: `a2a config set/unset` and `auth login` write TOML; the file was not changed", hint="edit it by hand, or point A2ACLI_GLOBAL_CONFIG at a TOML file"
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
