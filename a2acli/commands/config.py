"""`a2a config`: the config file's profiles, and where every effective setting comes from."""

import sys
from typing import Annotated, Any

import typer

from a2acli.commands import shared
from a2acli.commands._options import CallOptions, complete_profiles
from a2acli.commands.shared import options
from a2acli.settings.files import environ

app = typer.Typer(help="Profiles in the config file, and where each setting comes from.", no_args_is_help=True)


def complete_keys(incomplete: str) -> list[str]:
    from a2acli import settings

    keys = (
        list(settings.SETTINGS) + ["header.", "catalog.", "default-profile"] + [f"auth.{k}" for k in settings.AUTH_KEYS]
    )
    return [k for k in keys if k.startswith(incomplete)]


def complete_values(ctx: typer.Context, incomplete: str) -> list[str]:
    from a2acli import settings

    key = str(ctx.params.get("key") or "").lower()
    row = settings.SETTINGS.get(key)  # a setting's values, from its row of the table (-o: OUTPUT_MODES)
    choices: list[str] = list(row.choices) if row is not None else {"auth.client-auth": ["basic", "post"]}.get(key, [])
    if key == "default-profile":
        try:
            choices = sorted((settings.load_config().get("profiles") or {}).keys())
        except Exception:
            choices = []
    return [c for c in choices if c.startswith(incomplete)]


ProfileOpt = Annotated[
    str | None,
    typer.Option(
        "--profile",
        help="The profile to change (default: --profile/A2ACLI_PROFILE, the default profile, else 'default').",
        show_default=False,
        autocompletion=complete_profiles,
    ),
]


def _root_profile(ctx: typer.Context, profile: str | None) -> str | None:
    root = ctx.find_root().obj
    return profile or (root.get("profile") if isinstance(root, dict) else None)


def _check_profile_name(name: str) -> None:
    from a2acli.errors import UsageError

    if not name.strip() or name != name.strip() or any(c in name for c in "\n\r\t"):
        raise UsageError(f"{name!r} is not a usable profile name", hint="e.g. --profile staging")


# -- show -----------------------------------------------------------------------------------------


@shared.takes_shared
def config_show(
    ctx: typer.Context,
) -> None:
    """Print every effective setting and where it came from (read-only: it changes nothing).

    The sources, highest first: a flag, an environment variable, the local file (--config FILE,
    else the nearest .env or .a2acli.toml from the working directory up, $HOME excluded), the global
    config file, the built-in default. Within a file: a profile named by --profile/A2ACLI_PROFILE,
    the agent scope matching the agent (\\[agents."https://…"]), the default profile, the top level.
    A value from a file is shown with the file and its section. Secrets are masked (****cret).
    Flags given here or before the subcommand count, as on any other command, so this shows exactly
    what a call with the same flags would use.

    Examples:

      a2a config show

      a2a config show --profile staging -o json | jq -r .settings.url.value

      A2ACLI_A2A_VERSION=0.3 a2a config show --url http://127.0.0.1:41241

      a2a config show --config ./agent.env
    """
    opts = options(ctx)
    from a2acli import settings
    from a2acli.commands.invocation import invocation

    out = invocation(ctx).output()
    res = opts.resolved
    files = list(res.files) if res else []
    rows = _setting_rows(opts)
    path = settings.config_path()
    local = [f for f in files if f.kind != "global"]
    profiles = sorted({str(p) for f in files for p in (f.data.get("profiles") or {})})
    profile_source = res.profile_source if res else "none"
    agents = list(res.agents) if res else []

    def document() -> dict[str, Any]:
        return {
            "config": str(path),
            "configExists": path.is_file(),
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


def _setting_rows(opts: CallOptions) -> list[tuple[str, str | None, str]]:
    """(name, value as shown, source) of every setting, then the headers, named catalogs and the
    OAuth2 table in effect; secrets masked."""
    from a2acli import redact, settings

    rows: list[tuple[str, str | None, str]] = []
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
    out: Any,
    path: Any,
    local: list[Any],
    profile: str | None,
    profile_source: str,
    profiles: list[str],
    agents: list[str],
) -> None:
    """The files read, the profile and the agent scopes, on stderr."""
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


def _show_rows(out: Any, rows: list[tuple[str, str | None, str]]) -> None:
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


# -- set / unset / path ---------------------------------------------------------------------------


def config_set(
    ctx: typer.Context,
    key: Annotated[
        str,
        typer.Argument(
            help="url, endpoint, catalog, transport, a2a-version, dialect, output, timeout, dump, api-key, bearer, basic, cacert, cert, key, header.NAME, catalog.NAME, auth.KEY, default-profile.",
            autocompletion=complete_keys,
            show_default=False,
            metavar="KEY",
        ),
    ],
    value: Annotated[
        str,
        typer.Argument(
            help="The value; - reads it from stdin (keeps secrets out of the shell history).",
            autocompletion=complete_values,
            show_default=False,
            metavar="VALUE",
        ),
    ],
    profile: ProfileOpt = None,
) -> None:
    """Set KEY to VALUE in a profile (created when missing) of the config file.

    The file is written with mode 0600 (its directory 0700). Values are checked first: an unknown
    key, a bad version or output mode exits 2. Task and context ids are never stored.

    Examples:

      a2a config set --profile local url http://127.0.0.1:41241

      a2a config set --profile local a2a-version 0.3

      a2a config set --profile local header.X-Team qa

      a2a config set --profile local \\
          catalog.team https://registry.example/agents.json

      printf %s "$KEY" | a2a config set --profile prod api-key -

      a2a config set default-profile local
    """
    from a2acli import settings
    from a2acli.render.output import Output

    out = Output("auto")
    if value == "-":
        value = sys.stdin.readline().rstrip("\r\n")
    table, name, stored = settings.validate(key, value)
    edit = settings.ConfigEdit()  # refuses a file that is not valid TOML: it is never rewritten
    path = edit.path
    profiles = _table(edit.get(("profiles",)))
    if table == "top":
        _make_default(edit, profiles, stored, out)
        return
    pname, becomes_default = settings.target_profile(_root_profile(ctx, profile), edit.data)
    _check_profile_name(pname)
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
    label = f"{table.rstrip('s')}.{name}" if table else name
    out.note(f"{label} set in profile {pname} ({path})" + (" — now the default profile" if becomes_default else ""))
    if unused:  # no default profile: the next command would not read this one
        out.note(
            f"no default profile is set, so commands use {pname} only with --profile {pname}; to use it by default:"
        )
        import shlex

        out.command(f"a2a config use {shlex.quote(pname)}")


def _table(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _old_names(name: str) -> list[str]:
    from a2acli import settings

    s = settings.SETTINGS.get(name)
    return [s.old] if s and s.old else []


def config_unset(
    ctx: typer.Context,
    key: Annotated[
        str,
        typer.Argument(
            help="The key to remove (as for `config set`).",
            autocompletion=complete_keys,
            show_default=False,
            metavar="KEY",
        ),
    ],
    profile: ProfileOpt = None,
) -> None:
    """Remove KEY from a profile (or default-profile from the file).

    Examples:

      a2a config unset --profile local a2a-version

      a2a config unset --profile local header.X-Team
    """
    from a2acli import settings
    from a2acli.errors import UsageError
    from a2acli.render.output import Output

    out = Output("auto")
    table, name = settings.parse_key(key)
    edit = settings.ConfigEdit()
    path = edit.path
    if table == "top":
        if not edit.delete(("default-profile",)):
            out.note("default-profile was not set")
            return
        edit.save()
        out.note(f"default-profile unset ({path})")
        return
    pname, _ = settings.target_profile(_root_profile(ctx, profile), edit.data)
    profiles = _table(edit.get(("profiles",)))
    if pname not in profiles:
        raise UsageError(f"no profile {pname!r} in {path}", hint="profiles: " + (", ".join(sorted(profiles)) or "none"))
    where = ("profiles", pname, table) if table else ("profiles", pname)
    names = {name.lower()} | {old.lower() for old in ([] if table else _old_names(name))}
    found = [k for k in _table(edit.get(where)) if k.lower() in names]
    label = f"{table.rstrip('s')}.{name}" if table else name
    if not found:
        out.note(f"{label} was not set in profile {pname}")
        return
    for k in found:
        edit.delete((*where, k), drop_emptied_table=bool(table))  # an emptied [headers] / [auth] goes too
    edit.save()
    out.note(f"{label} unset in profile {pname} ({path})")


def config_use(
    name: Annotated[
        str,
        typer.Argument(
            help="The profile to use by default.", autocompletion=complete_profiles, show_default=False, metavar="NAME"
        ),
    ],
) -> None:
    """Make NAME the default profile (the one used without --profile or A2ACLI_PROFILE).

    Same as `a2a config set default-profile NAME`.

    Example:

      a2a config use local
    """
    from a2acli import settings
    from a2acli.render.output import Output

    out = Output("auto")
    _check_profile_name(name)
    edit = settings.ConfigEdit()
    _make_default(edit, _table(edit.get(("profiles",))), name, out)
    chosen = environ("profile")
    if chosen and chosen != name:
        out.warn(f"A2ACLI_PROFILE={chosen} is set and wins over the default profile")


def config_path() -> None:
    """Print the config file's path ($A2ACLI_GLOBAL_CONFIG, else the platform's config directory).

    Example:

      a2a config path
    """
    from a2acli import settings

    typer.echo(str(settings.config_path()))


app.command("show")(config_show)
app.command("set")(config_set)
app.command("unset")(config_unset)
app.command("use")(config_use)
app.command("path")(config_path)


def _make_default(edit: Any, profiles: dict[str, Any], name: str, out: Any) -> None:
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
