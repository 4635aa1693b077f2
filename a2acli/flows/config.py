"""`a2a config`'s work, headless: the effective settings and where each comes from (`show`, its
rows as data the face presents), and the config file's profiles changed (`set`, `unset`, `use`),
each a function of the invocation and its own arguments returning an exit code. The CLI's
`commands/config.py` declares the commands and calls these; a test calls them directly."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from a2acli.settings.files import environ

if TYPE_CHECKING:
    from a2acli.flows.invocation import Invocation
    from a2acli.pipeline.options import CallOptions
    from a2acli.render.output import Output

Row = tuple[str, str | None, str]  # (setting, its value as shown, its source)


def keys(incomplete: str) -> list[str]:
    """The keys `config set` / `unset` take that start with `incomplete` (completion)."""
    from a2acli import settings

    every = (
        list(settings.SETTINGS) + ["header.", "catalog.", "default-profile"] + [f"auth.{k}" for k in settings.AUTH_KEYS]
    )
    return [k for k in every if k.startswith(incomplete)]


def values(key: str, incomplete: str) -> list[str]:
    """The values `config set KEY` takes that start with `incomplete` (completion): a setting's
    choices from its row of the table (-o: OUTPUT_MODES), the profiles for default-profile."""
    from a2acli import settings

    key = key.lower()
    row = settings.SETTINGS.get(key)
    choices: list[str] = list(row.choices) if row is not None else {"auth.client-auth": ["basic", "post"]}.get(key, [])
    if key == "default-profile":
        try:
            choices = sorted((settings.load_config().get("profiles") or {}).keys())
        except Exception:
            choices = []
    return [c for c in choices if c.startswith(incomplete)]


def check_profile_name(name: str) -> None:
    """A profile name a file can hold and a shell can pass (UsageError otherwise)."""
    from a2acli.errors import UsageError

    if not name.strip() or name != name.strip() or any(c in name for c in "\n\r\t"):
        raise UsageError(f"{name!r} is not a usable profile name", hint="e.g. --profile staging")


# -- show -----------------------------------------------------------------------------------------


def show(inv: Invocation) -> int:
    """Every effective setting and where it came from (nothing changes): a document (-o json,
    raw), else the files, the profile and the agent scopes on stderr and the settings as a table."""
    from a2acli import settings

    opts = inv.options()
    out = inv.output()
    res = opts.resolved
    files = list(res.files) if res else []
    rows = setting_rows(opts)
    path = settings.global_config_path()  # None: no home directory, so no global file
    local = [f for f in files if f.kind != "global"]
    profiles = sorted({str(p) for f in files for p in (f.data.get("profiles") or {})})
    profile_source = res.profile_source if res else "none"
    agents = list(res.agents) if res else []

    def document() -> dict[str, Any]:
        return {
            "config": str(path) if path else None,
            "configExists": bool(path and path.is_file()),
            "local": [{"path": str(f.path), "kind": f.kind, "format": "dotenv" if f.dotenv else "toml"} for f in local],
            "profile": opts.profile,
            "profileSource": profile_source,
            "profiles": profiles,
            "agentScopes": agents,
            "settings": {
                name: {"value": value, "source": source, **_where(res, source)} for name, value, source in rows
            },
        }

    def human() -> None:
        _show_sources(out, path, local, opts.profile, profile_source, profiles, agents)
        _show_rows(out, rows)

    out.document(document, human, raw=lambda: out.json(document()))  # raw: the document as it is, no wire bytes
    return 0


def setting_rows(opts: CallOptions) -> list[Row]:
    """(name, value as shown, source) of every setting, then the headers, named catalogs and the
    OAuth2 table in effect; secrets masked."""
    from a2acli import redact, settings

    rows: list[Row] = []
    for name, s in settings.SETTINGS.items():
        value = opts.values.get(name)
        shown = None if value in (None, "") else (redact.mask_setting(name, value) if s.secret else _text(value))
        rows.append((name, shown, opts.sources.get(name, "default")))
    for hname, hvalue in opts.headers:
        shown = redact.mask(hvalue) if redact.is_secret_header(hname) else hvalue
        from_file = opts.values.get(f"header.{hname}") == hvalue
        rows.append((f"header.{hname}", shown, opts.sources.get(f"header.{hname}", "flag") if from_file else "flag"))
    rows += [
        (f"catalog.{cname}", location, opts.sources.get(f"catalog.{cname}", "default"))
        for cname, location in opts.catalogs
    ]
    for aname, avalue in opts.oauth:
        secret = settings.AUTH_KEYS.get(aname, False)
        rows.append(
            (f"auth.{aname}", redact.mask(avalue) if secret else avalue, opts.sources.get(f"auth.{aname}", "default"))
        )
    return rows


def _show_sources(
    out: Output,
    path: Any,
    local: list[Any],
    profile: str | None,
    profile_source: str,
    profiles: list[str],
    agents: list[str],
) -> None:
    """The files read, the profile and the agent scopes, on stderr."""
    if path is None:
        out.note("config: none (no home directory: set HOME, or XDG_CONFIG_HOME to an absolute path)")
    else:
        out.note(f"config: {path}" + ("" if path.is_file() else " (not there yet)"))
    for f in local:
        out.note(f"{f.kind}: {f.path}" + (" (.env)" if f.dotenv else ""))
    if not local:
        out.note("local: none (no .env or .a2acli.toml from here up)")
    out.note(
        f"profile: {profile} ({profile_source})"
        if profile
        else "profile: none" + (f" (profiles: {', '.join(profiles)})" if profiles else "")
    )
    for label in agents:
        out.note(f"agent scope: {label}")


def _show_rows(out: Output, rows: list[Row]) -> None:
    """The settings as a table at a terminal, else aligned columns."""
    if out.rich:
        out.table(
            ["Setting", "Value", "Source"], [[n, v or "-", src] for n, v, src in rows], title="Effective settings"
        )
        return
    width = max(len(r[0]) for r in rows)
    vwidth = min(max(len(r[1] or "-") for r in rows), 40)
    out.text(*(f"{n.ljust(width)}  {(v or '-').ljust(vwidth)}  {src}" for n, v, src in rows))


def _where(res: Any, source: str) -> dict[str, Any]:
    """For a value from a file: {"file": PATH, "section": "profiles.p" | 'agents."…"' | None (the top level)}."""
    found = res.where.get(source) if res else None
    return {"file": found[0], "section": found[1]} if found else {}


def _text(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


# -- set / unset / use / path ---------------------------------------------------------------------


def _notes(inv: Invocation) -> Output:
    """These commands' notes: on stderr, as text (they have no document)."""
    return inv.bare_output()


def set_value(inv: Invocation, key: str, value: str, profile: str | None = None) -> int:
    """KEY = VALUE in a profile of the config file (created when missing), checked first; `-`
    reads the value from stdin. A first profile becomes the default one."""
    from a2acli import settings

    out = _notes(inv)
    if value == "-":
        value = inv.env.streams()[0].readline().rstrip("\r\n")
    table, name, stored = settings.validate(key, value)
    edit = settings.ConfigEdit()  # refuses a file that is not valid TOML: it is never rewritten
    if table == "top":
        _make_default(edit, _table(edit.get(("profiles",))), stored, out)
        return 0
    pname, becomes_default = settings.target_profile(profile or inv.given.get("profile"), edit.data)
    check_profile_name(pname)
    unused = not becomes_default and not edit.get(("default-profile",)) and not environ("profile")
    if becomes_default:
        edit.set(("default-profile",), pname)
    if table == "":
        edit.set(("profiles", pname, name), stored)
        for old in _old_names(name):  # `rpc-url`: the same setting under its old name goes
            edit.delete(("profiles", pname, old))
    else:
        for existing in [
            k for k in _table(edit.get(("profiles", pname, table))) if k.lower() == name.lower() and k != name
        ]:
            edit.delete(("profiles", pname, table, existing))
        edit.set(("profiles", pname, table, name), stored)
    edit.save()
    out.note(
        f"{_label(table, name)} set in profile {pname} ({edit.path})"
        + (" — now the default profile" if becomes_default else "")
    )
    if unused:  # no default profile: the next command would not read this one
        import shlex

        out.note(
            f"no default profile is set, so commands use {pname} only with --profile {pname}; to use it by default:"
        )
        out.command(f"a2a config use {shlex.quote(pname)}")
    return 0


def unset_value(inv: Invocation, key: str, profile: str | None = None) -> int:
    """KEY removed from a profile (an emptied [headers] / [auth] table too), or default-profile
    from the file; a key that was not set is said, and is not an error."""
    from a2acli import settings
    from a2acli.errors import UsageError

    out = _notes(inv)
    table, name = settings.parse_key(key)
    edit = settings.ConfigEdit()
    path = edit.path
    if table == "top":
        if not edit.delete(("default-profile",)):
            out.note("default-profile was not set")
            return 0
        edit.save()
        out.note(f"default-profile unset ({path})")
        return 0
    pname, _ = settings.target_profile(profile or inv.given.get("profile"), edit.data)
    profiles = _table(edit.get(("profiles",)))
    if pname not in profiles:
        raise UsageError(f"no profile {pname!r} in {path}", hint="profiles: " + (", ".join(sorted(profiles)) or "none"))
    where = ("profiles", pname, table) if table else ("profiles", pname)
    names = {name.lower()} | {old.lower() for old in ([] if table else _old_names(name))}
    found = [k for k in _table(edit.get(where)) if k.lower() in names]
    if not found:
        out.note(f"{_label(table, name)} was not set in profile {pname}")
        return 0
    for k in found:
        edit.delete((*where, k), drop_emptied_table=bool(table))  # an emptied [headers] / [auth] goes too
    edit.save()
    out.note(f"{_label(table, name)} unset in profile {pname} ({path})")
    return 0


def use(inv: Invocation, name: str) -> int:
    """NAME, a profile the file has, made the default profile; A2ACLI_PROFILE winning over it is said."""
    from a2acli import settings

    out = _notes(inv)
    check_profile_name(name)
    edit = settings.ConfigEdit()
    _make_default(edit, _table(edit.get(("profiles",))), name, out)
    chosen = environ("profile")
    if chosen and chosen != name:
        out.warn(f"A2ACLI_PROFILE={chosen} is set and wins over the default profile")
    return 0


def path(inv: Invocation) -> int:
    """The config file's path, on stdout."""
    stdout = inv.env.streams()[1]
    stdout.write(f"{inv.env.config_path()}\n")
    stdout.flush()
    return 0


def _label(table: str, name: str) -> str:
    return f"{table.rstrip('s')}.{name}" if table else name


def _table(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _old_names(name: str) -> list[str]:
    from a2acli import settings

    s = settings.SETTINGS.get(name)
    return [s.old] if s and s.old else []


def _make_default(edit: Any, profiles: dict[str, Any], name: str, out: Output) -> None:
    """`default-profile = NAME` written, for a profile the file has (`config use`, `config set
    default-profile`)."""
    from a2acli.errors import UsageError

    if name not in profiles:
        raise UsageError(
            f"no profile {name!r} in {edit.path}",
            hint="profiles: "
            + (", ".join(sorted(profiles)) or "none")
            + f"; `a2a config set --profile {name} url URL` makes one",
        )
    edit.set(("default-profile",), name)
    edit.save()
    out.note(f"default profile: {name} ({edit.path})")
