"""Effective settings (a package: `table` the rows, `files` reading, `precedence` resolving,
`values` parsing and checking, `editing` writing; masking lives in `a2acli.redact`): flag > environment > local file > global file > built-in default, with
where each came from (official CLI spec §6.4).

The local file is `--config FILE` (env A2ACLI_CONFIG, the spec's name for it; A2ACLI_LOCAL_CONFIG,
its older name), else the `.env` and `.a2acli.toml` of the nearest directory, from the working
directory up ($HOME and above excluded), that has one. Two global files are read, in this order
(the first wins a setting both set, and a warning names each setting they disagree on): ours, TOML
at $A2ACLI_GLOBAL_CONFIG, else the platform's config dir ($XDG_CONFIG_HOME/a2acli/config.toml,
~/.config/a2acli/config.toml; a relative XDG_CONFIG_HOME is ignored), which `config set` and `auth
login` write; then the official CLI spec's `a2a-cli/.env` beside it (~/.config/a2a-cli/.env, §8.3).
With no home directory (and no absolute XDG_CONFIG_HOME) there is no global file: the commands that
read settings run without one, those that write or name it say so. A TOML file holds settings at
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

from typing import Any

from a2acli.settings.files import (
    ConfigFile,
    Layer,
    cache_dir,
    config_path,
    global_config_path,
    load_config,
    local_files,
    no_config_home,
    parse_dotenv,
    read_config_file,
    spec_global_path,
    token_cache_path,
)
from a2acli.settings.precedence import Resolved, agent_match, profile_file, resolve, resolve_values
from a2acli.settings.table import AUTH_KEYS, PATH_SETTINGS, SETTINGS, Setting, env_names
from a2acli.settings.values import (
    MAX_TIMEOUT,
    MIN_POLL_INTERVAL,
    check_catalog,
    check_url,
    check_value,
    parse_bool,
    parse_duration,
    parse_key,
    parse_poll_interval,
    parse_size,
    parse_timeout,
    profile_keys,
    validate,
)

_EDITING = ("ConfigEdit", "write_private", "target_profile")  # imported when a command writes the file


def __getattr__(name: str) -> Any:
    if name in _EDITING:
        from a2acli.settings import editing

        return getattr(editing, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "AUTH_KEYS",
    "MAX_TIMEOUT",
    "MIN_POLL_INTERVAL",
    "PATH_SETTINGS",
    "SETTINGS",
    "ConfigEdit",
    "ConfigFile",
    "Layer",
    "Resolved",
    "Setting",
    "agent_match",
    "cache_dir",
    "check_catalog",
    "check_url",
    "check_value",
    "config_path",
    "env_names",
    "global_config_path",
    "load_config",
    "local_files",
    "no_config_home",
    "parse_bool",
    "parse_dotenv",
    "parse_duration",
    "parse_key",
    "parse_poll_interval",
    "parse_size",
    "parse_timeout",
    "profile_file",
    "profile_keys",
    "read_config_file",
    "resolve",
    "resolve_values",
    "spec_global_path",
    "target_profile",
    "token_cache_path",
    "validate",
    "write_private",
]
