"""`a2a auth login|status|logout`: OAuth2 client credentials kept in a profile, tokens cached. The
login is declared in auth_login, the options the commands share in auth_common; their work is
flows.auth's (the login's plan, flows.auth_plan's)."""

import typer

from a2acli.commands._run import ran
from a2acli.commands.auth_common import OutputOpt, ProfileOpt
from a2acli.commands.auth_login import auth_login
from a2acli.commands.invocation import invocation

app = typer.Typer(
    help="OAuth2 and OpenID Connect: get a token for a profile (client credentials, device code, browser sign-in), show it, forget it.",
    no_args_is_help=True,
)


def auth_status(
    ctx: typer.Context,
    profile: ProfileOpt = None,
    output: OutputOpt = None,
) -> None:
    """Show the profile's OAuth2 settings, cached token (masked) and who signed in (an ID token's subject and issuer). Exit 4 when no token can be had.

    Examples:

      a2a auth status --profile prod

      a2a auth status -o json | jq .expiresIn
    """
    from a2acli.flows.auth import status

    ran(status(invocation(ctx)))


def auth_logout(
    ctx: typer.Context,
    profile: ProfileOpt = None,
) -> None:
    """Forget the profile's cached tokens and its stored client secret (the other settings stay).

    Example:

      a2a auth logout --profile prod
    """
    from a2acli.flows.auth import logout

    ran(logout(invocation(ctx)))


app.command("login")(auth_login)
app.command("status")(auth_status)
app.command("logout")(auth_logout)
