"""Precedence: flag > environment > local file > global file > built-in default, with where each value came from (official CLI spec §6.4); profiles and agent scopes choose the file sections."""

import os
import re
import stat
from pathlib import Path
from typing import Any

from a2acli.errors import UsageError
from a2acli.records import Record
from a2acli.settings.files import (
    _NOT_SETTINGS,
    ConfigFile,
    Layer,
    _toml_key,
    global_config_path,
    global_files,
    local_files,
    no_config_home,
)
from a2acli.settings.table import SETTINGS, env_names
from a2acli.wire.endpoints import json_kind


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
    if not rs:  # a bare host:port given to --url is read as https:// (http:// on loopback: net.bare_scheme)
        from a2acli.net import bare_scheme

        rs = bare_scheme(rh)
        rp = rp or {"http": 80, "https": 443}[rs]
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
        raise UsageError(
            f"{where} in {f.path} sets url: an agent scope is chosen by the agent's URL and cannot change it",
            hint=f"remove url from [{where}]",
        )
    return best[1], sec


def _sections(
    f: ConfigFile, pname: str | None, explicit: bool, agent: tuple[str, dict[str, Any]] | None
) -> list[Layer]:
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
            also = s.also  # the TOML types the file may give besides a string
            ok = isinstance(value, also) and not (isinstance(value, bool) and bool not in also)
            if ok and isinstance(value, list):
                ok = all(isinstance(v, str) for v in value)
            if not ok:
                wanted = "a string" + (
                    " or an array of strings"
                    if list in also
                    else " or a number"
                    if int in also
                    else " or a boolean"
                    if bool in also
                    else ""
                )
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


def _wrong_type(key: str, value: Any, wanted: str, path: Path | None = None) -> UsageError:
    path = path or global_config_path()
    return UsageError(
        f"{key} in the config file{f' {path}' if path else ''} is {json_kind(value, mapping='a table')}, not {wanted}",
        hint=f"fix {key} in the file, or `a2a config set` it",
    )


class Resolved(Record):
    __slots__ = (
        "values", "sources", "profile", "profile_headers", "auth", "warnings", "rank", "files", "profile_source",
        "agents", "where", "catalogs", "auth_home", "credential_homes"
    )  # fmt: skip
    values: dict[str, Any]  # every setting; also `header.NAME` and `auth.KEY` from the files
    sources: dict[str, str]  # flag | env NAME | a file and its section (`profile p (global PATH)`) | default
    profile: str | None
    profile_headers: tuple[tuple[str, str], ...]  # the files' headers, merged (the highest source wins a name)
    auth: dict[str, str]  # the [auth] table (OAuth2) of the highest section that has one
    warnings: tuple[str, ...]  # files others can read that hold secrets, files skipped
    rank: dict[str, int]  # (read-only) setting -> 0 flag, 1 env, 2… file sections, 999 default
    files: tuple[ConfigFile, ...]  # the files read, highest first
    profile_source: str
    agents: tuple[str, ...]  # the agent scopes applied (their labels)
    where: dict[str, tuple[str, str | None]]  # (read-only) a file source's label -> (path, section)
    catalogs: tuple[tuple[str, str], ...]  # named agent catalogs ([catalogs] tables): (name, URL or file)
    # the agent of the section whose [auth] table applies: its url (an agent scope's: the agent it matched)
    auth_home: str | None
    # api-key, bearer, basic kept in a file section that is no agent scope: the agent of that
    # section (its url, else its endpoint; None when it names none), where the credential may go
    credential_homes: dict[str, str | None]  # (read-only)

    def __init__(
        self,
        values: dict[str, Any],
        sources: dict[str, str],
        profile: str | None,
        profile_headers: tuple[tuple[str, str], ...],
        auth: dict[str, str],
        warnings: tuple[str, ...],
        rank: dict[str, int],
        files: tuple[ConfigFile, ...],
        profile_source: str,
        agents: tuple[str, ...],
        where: dict[str, tuple[str, str | None]],
        catalogs: tuple[tuple[str, str], ...],
        auth_home: str | None,
        credential_homes: dict[str, str | None],
    ) -> None:
        self._set(
            values, sources, profile, profile_headers, auth, warnings, rank, files, profile_source, agents, where,
            catalogs, auth_home, credential_homes
        )  # fmt: skip


def resolve(
    flags: dict[str, Any], profile: str | None = None, config: str | None = None, *, new_profile: bool = False
) -> Resolved:
    """Every setting from the first of: flag, environment, local file (`config`, the --config
    FILE, else the one found from the working directory up), global file, built-in default.
    `new_profile`: a profile no file defines yet is no error (`auth login` makes it)."""
    warnings: list[str] = []
    files = local_files(config, warnings)
    files += global_files(warnings)
    pname, psource, explicit = _pick_profile(profile, files)
    if not new_profile:
        _check_profile(pname, files)
    layers, agents = _layers(flags, files, pname, explicit)
    for layer in layers:
        check_types(layer)
    values, sources, rank = _pick_values(flags, layers)
    headers, catalogs, auth, auth_home = _tables(layers, values, sources)
    homes = _credential_homes(layers, rank)
    warnings += filter(None, (_exposed(f) for f in files))
    wheres = {layer.label: (str(layer.file.path), layer.section) for layer in layers if layer.file}
    return Resolved(
        values,
        sources,
        pname,
        tuple(headers.values()),
        auth,
        tuple(warnings),
        rank,
        tuple(files),
        psource,
        tuple(agents),
        wheres,
        tuple(catalogs.items()),
        auth_home,
        homes,
    )


KEPT_CREDENTIALS = ("api-key", "bearer", "basic")  # (OAuth2's [auth] table has its own home: _tables)


def _credential_homes(layers: list[Layer], rank: dict[str, int]) -> dict[str, str | None]:
    """For each credential that a file section keeps (not a flag's, not the environment's, not an
    agent scope's, which applies only to its agent): the agent that section names, its url (else
    its endpoint), None when it names none. The credential goes there only (CLI.md, credentials)."""
    homes: dict[str, str | None] = {}
    for name in KEPT_CREDENTIALS:
        at = rank.get(name, 999)
        if not 2 <= at < 999:
            continue
        layer = layers[at - 2]
        if (layer.section or "").startswith("agents."):
            continue
        home = _agent_of(layer, ("url", "endpoint"))
        homes[name] = str(home) if isinstance(home, str) and home else None
    return homes


def _agent_of(layer: Layer, names: tuple[str, ...]) -> Any:
    """The agent a section names: the first of `names` it sets, under its name or its other one
    (a `.env`'s A2ACLI_AGENT_CARD is `url`, A2ACLI_RPC_URL `endpoint`)."""
    for name in names:
        old = SETTINGS[name].old
        value = layer.values.get(name) or (layer.values.get(old) if old else None)
        if value:
            return value
    return None


def profile_file(res: Resolved, pname: str) -> Path:
    """The file a profile is kept in, as the commands that change it (`auth login`, `auth logout`)
    write it: the highest file read that defines it (a --config / A2ACLI_CONFIG file included),
    else our global file."""
    for f in res.files:
        if not f.dotenv and pname in _table(f, "profiles"):
            return f.path
    ours = global_config_path()
    if ours is None:
        raise no_config_home("global config file to keep the profile in", config_flag=True)
    return ours


def _check_profile(pname: str | None, files: list[ConfigFile]) -> None:
    """A profile named (by flag, environment or default-profile) that no file defines is an error."""
    if pname and not any(pname in _table(f, "profiles") for f in files):
        known = sorted({str(n) for f in files for n in _table(f, "profiles")})
        ours = global_config_path()
        where = (
            " or ".join(
                dict.fromkeys([*(str(f.path) for f in files if _table(f, "profiles")), *([str(ours)] if ours else [])])
            )
            or "any config file (there is no global one: no home directory)"
        )
        raise UsageError(
            f"no profile {pname!r} in {where}",
            hint=f"profiles: {', '.join(known) or 'none'}; `a2a config set --profile {pname} url URL` makes one",
        )


def _layers(
    flags: dict[str, Any], files: list[ConfigFile], pname: str | None, explicit: bool
) -> tuple[list[Layer], list[str]]:
    """The file sections that apply, highest first, and the labels of the agent scopes among them.
    The agent: the URL (else the endpoint) from every source but the agent scopes, which it chooses."""
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
    return layers, agents


def _tables(
    layers: list[Layer], values: dict[str, Any], sources: dict[str, str]
) -> tuple[dict[str, tuple[str, str]], dict[str, str], dict[str, str], str | None]:
    """The [headers], [catalogs] and [auth] tables of the layers, each entry (into `values` and
    `sources` too, as header.NAME, catalog.NAME, auth.KEY): a header or catalog from the highest
    layer that names it, the [auth] table whole from the highest layer that has one; and the
    agent that layer is for (its url; an agent scope's, the agent it matched), None when it names none."""
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
    home: Any = None
    for layer in layers:
        if layer.values.get("auth"):
            auth = {str(k): str(v) for k, v in layer.values["auth"].items()}
            for k, v in auth.items():
                values[f"auth.{k}"], sources[f"auth.{k}"] = v, layer.label
            scope = (layer.section or "").startswith("agents.")
            home = (values.get("url") or values.get("endpoint")) if scope else _agent_of(layer, ("url",))
            break
    return headers, catalogs, auth, str(home) if isinstance(home, str) and home else None


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


def _pick_values(
    flags: dict[str, Any], layers: list[Layer], only: tuple[str, ...] | None = None
) -> tuple[dict[str, Any], dict[str, str], dict[str, int]]:
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


def resolve_values(
    flags: dict[str, Any], pname: str | None, pvals: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, str]]:
    """Each setting from the first of: flag, environment, the profile's values, built-in default."""
    values, sources, _ = _pick_values(flags, [Layer(f"profile {pname}", pvals)] if pname else [])
    return values, sources
