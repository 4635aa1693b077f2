"""Effective settings: flag > environment > profile > built-in default, with where each came from.

The config file is TOML at $A2ACLI_CONFIG, else the platform's config dir
($XDG_CONFIG_HOME/a2acli/config.toml, ~/.config/a2acli/config.toml). It holds named profiles:

    default-profile = "local"
    [profiles.local]
    url = "http://127.0.0.1:41241"
    a2a-version = "1.0"
    [profiles.local.headers]
    X-Team = "qa"
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from a2acli.errors import UsageError


@dataclass(frozen=True)
class Setting:
    name: str  # the flag without dashes, and the profile key
    env: str
    default: Any = None
    secret: bool = False


SETTINGS: dict[str, Setting] = {
    s.name: s
    for s in (
        Setting("url", "A2ACLI_URL"),
        Setting("rpc-url", "A2ACLI_RPC_URL"),
        Setting("a2a-version", "A2ACLI_A2A_VERSION", "1.0"),
        Setting("dialect", "A2ACLI_DIALECT", "spec"),
        Setting("api-key", "A2ACLI_API_KEY", secret=True),
        Setting("bearer", "A2ACLI_BEARER", secret=True),
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


@dataclass(frozen=True)
class Resolved:
    values: dict[str, Any]
    sources: dict[str, str]  # flag | env | profile NAME | default
    profile: str | None
    profile_headers: tuple[tuple[str, str], ...]


def resolve(flags: dict[str, Any], profile: str | None = None) -> Resolved:
    need_config = profile or os.environ.get("A2ACLI_PROFILE") or os.environ.get("A2ACLI_CONFIG") or config_path().exists()
    config = load_config() if need_config else {}
    pname, pvals = profile_values(profile, config)
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for name, s in SETTINGS.items():
        if flags.get(name) is not None:
            values[name], sources[name] = flags[name], "flag"
        elif os.environ.get(s.env):
            values[name], sources[name] = os.environ[s.env], f"env {s.env}"
        elif pvals.get(name) is not None:
            values[name], sources[name] = pvals[name], f"profile {pname}"
        else:
            values[name], sources[name] = s.default, "default"
    headers = pvals.get("headers") or {}
    return Resolved(values, sources, pname, tuple((str(k), str(v)) for k, v in headers.items()))
