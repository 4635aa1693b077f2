"""`a2a config`: the config file's profiles, and where every effective setting comes from. The
commands' work is `flows.config`'s."""

from typing import Annotated

import typer

from a2acli.commands import shared
from a2acli.commands._options import complete_profiles
from a2acli.commands._run import ran
from a2acli.commands.invocation import invocation

app = typer.Typer(help="Profiles in the config file, and where each setting comes from.", no_args_is_help=True)


def complete_keys(incomplete: str) -> list[str]:
    from a2acli.flows.config import keys

    return keys(incomplete)


def complete_values(ctx: typer.Context, incomplete: str) -> list[str]:
    from a2acli.flows.config import values

    return values(str(ctx.params.get("key") or ""), incomplete)


ProfileOpt = Annotated[
    str | None,
    typer.Option(
        "--profile",
        help="The profile to change (default: --profile/A2ACLI_PROFILE, the default profile, else 'default').",
        show_default=False,
        autocompletion=complete_profiles,
    ),
]


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
    from a2acli.flows.config import show

    ran(show(invocation(ctx)))


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
    from a2acli.flows.config import set_value

    ran(set_value(invocation(ctx), key, value, profile))


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
    from a2acli.flows.config import unset_value

    ran(unset_value(invocation(ctx), key, profile))


def config_use(
    ctx: typer.Context,
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
    from a2acli.flows.config import use

    ran(use(invocation(ctx), name))


def config_path(ctx: typer.Context) -> None:
    """Print the config file's path ($A2ACLI_GLOBAL_CONFIG, else the platform's config directory).

    Example:

      a2a config path
    """
    from a2acli.flows.config import path

    ran(path(invocation(ctx)))


app.command("show")(config_show)
app.command("set")(config_set)
app.command("unset")(config_unset)
app.command("use")(config_use)
app.command("path")(config_path)
