"""`a2a auth login`: its options and help; its work (the connection it reads, the plan run by its
OAuth2 flow, the profile and the token saved) is flows.auth.login's."""

from typing import Annotated

import typer

from a2acli.commands._options import PS, port_number
from a2acli.commands._run import ran
from a2acli.commands.auth_common import OutputOpt, ProfileOpt
from a2acli.commands.invocation import invocation

ENDPOINTS = "Endpoints"  # a panel of their own: long names and URLs, kept whole at 80 columns
# The shared options this command takes (`auth_login.shared_options`: its class declares them,
# commands.shared), folded in its help like every command's (named at the end of it, explained by
# `a2a help options`); their values come from this invocation, before or after the command (flows.auth).
LOGIN_SHARED = (
    "url",
    "catalog",
    "a2a_version",
    "cacert",
    "cert",
    "key",
    "insecure",
    "strict_origin",
    "no_cache",
    "timeout",
    "debug",
)


FlowOpt = Annotated[
    str | None,
    typer.Option(
        "--flow",
        metavar="FLOW",
        help="client-credentials, device-code (RFC 8628: you approve the sign-in on any device) or authorization-code (you sign in with a browser on this machine: PKCE, a loopback redirect). "
        "Default: the profile's, else what the Agent Card (or its discovery document) offers: client credentials when a client secret is given, "
        "authorization code at a terminal, device code, client credentials.",
        show_default=False,
        autocompletion=lambda: ["client-credentials", "device-code", "authorization-code"],
    ),
]


def auth_login(
    ctx: typer.Context,
    token_url: Annotated[
        str | None,
        typer.Option(
            "--token-url",
            metavar="URL",
            rich_help_panel=ENDPOINTS,
            envvar="A2ACLI_TOKEN_URL",
            show_envvar=False,
            help="The OAuth2 token endpoint (default: the profile's, else from the Agent Card of --url: its OAuth2 flow, or the discovery document it names; env: A2ACLI_TOKEN_URL).",
            show_default=False,
        ),
    ] = None,
    client_id: Annotated[
        str | None,
        typer.Option(
            "--client-id",
            metavar="ID",
            envvar="A2ACLI_CLIENT_ID",
            show_envvar=False,
            help="The OAuth2 client id (default: the profile's; env: A2ACLI_CLIENT_ID).",
            show_default=False,
        ),
    ] = None,
    client_secret: Annotated[
        str | None,
        typer.Option(
            "--client-secret",
            metavar="SECRET",
            envvar="A2ACLI_CLIENT_SECRET",
            show_envvar=False,
            help=f"The client secret (default: the profile's; env: A2ACLI_CLIENT_SECRET; optional for --device, a public client). {PS}",
            show_default=False,
        ),
    ] = None,
    scope: Annotated[
        list[str] | None,
        typer.Option(
            "--scope",
            metavar="SCOPE",
            help="A scope to ask for (repeatable; default: the profile's).",
            show_default=False,
        ),
    ] = None,
    client_auth: Annotated[
        str | None,
        typer.Option(
            "--client-auth",
            metavar="basic|post",
            help="How the client authenticates: basic (HTTP Basic, default) or post (form fields).",
            show_default=False,
            autocompletion=lambda: ["basic", "post"],
        ),
    ] = None,
    flow: FlowOpt = None,
    device: Annotated[
        bool, typer.Option("--device", help="The device-code flow (same as --flow device-code).")
    ] = False,
    device_authorization_url: Annotated[
        str | None,
        typer.Option(
            "--device-authorization-url",
            metavar="URL",
            rich_help_panel=ENDPOINTS,
            envvar="A2ACLI_DEVICE_AUTHORIZATION_URL",
            show_envvar=False,
            help="The RFC 8628 device authorization endpoint (implies --device; default: the profile's, else from the Agent Card; env: A2ACLI_DEVICE_AUTHORIZATION_URL).",
            show_default=False,
        ),
    ] = None,
    authorization_url: Annotated[
        str | None,
        typer.Option(
            "--authorization-url",
            metavar="URL",
            rich_help_panel=ENDPOINTS,
            envvar="A2ACLI_AUTHORIZATION_URL",
            show_envvar=False,
            help="The OAuth2 authorization endpoint the browser signs in at (implies --flow authorization-code; default: the profile's, else from the Agent Card; env: A2ACLI_AUTHORIZATION_URL).",
            show_default=False,
        ),
    ] = None,
    no_browser: Annotated[
        bool,
        typer.Option(
            "--no-browser",
            help="authorization-code: only print the sign-in link (on stderr), do not open a browser. Off a terminal none is opened anyway.",
        ),
    ] = False,
    redirect_port: Annotated[
        int | None,
        typer.Option(
            "--redirect-port",
            metavar="PORT",
            parser=port_number,
            help="authorization-code: the port of the redirect http://127.0.0.1:PORT/callback (default: the profile's, else a free one; for a provider that wants it registered).",
            show_default=False,
        ),
    ] = None,
    discovery_url: Annotated[
        str | None,
        typer.Option(
            "--discovery-url",
            metavar="URL",
            rich_help_panel=ENDPOINTS,
            help="An OpenID Connect discovery document (…/.well-known/openid-configuration) or RFC 8414 metadata to read the endpoints from (its issuer must be the one its URL names).",
            show_default=False,
        ),
    ] = None,
    profile: ProfileOpt = None,
    output: OutputOpt = None,
) -> None:
    """Get an OAuth2 token (client credentials, device code, or a browser sign-in) and keep the settings in a profile.

    The token is cached next to the config file (mode 0600) and sent as `Authorization: Bearer`
    by every method command using that profile, to agents whose card declares an http bearer,
    oauth2 or openIdConnect scheme. Client credentials: the token is requested again when it has
    expired; the client secret is stored in the profile (config file mode 0600) so that can happen
    unattended. Device code (RFC 8628): the code to enter and where go to stderr. Authorization
    code (PKCE, RFC 8252): the sign-in link goes to stderr and opens in your browser at a
    terminal, which comes back to 127.0.0.1; the wait ends at --timeout (default 5 min). Both
    renew the token with its refresh token when the server gave one, else `auth login` again.
    An OpenID Connect ID token is checked (issuer, audience, expiry, nonce, signature) and
    `auth status` shows who signed in. Endpoints come from flags, the profile, or the Agent Card
    of --url (its OAuth2 flow, or the OpenID Connect discovery document it names).

    Examples:

      a2a auth login --profile prod --token-url https://idp.example/oauth/token \\
          --client-id cli --client-secret "$SECRET"

      A2ACLI_CLIENT_SECRET=... a2a auth login --profile prod \\
          -u https://agent.example --client-id cli --scope a2a.read

      a2a auth login --device --profile me -u https://agent.example \\
          --client-id a2a-cli

      a2a auth login --flow authorization-code --profile me \\
          -u https://agent.example --client-id a2a-cli

      a2a --profile prod send "hello"
    """

    from a2acli.flows.auth import flow_flag, login
    from a2acli.flows.auth_plan import LoginAsked

    asked = LoginAsked(
        flow_flag(flow, device),
        token_url,
        client_id,
        client_secret,
        tuple(scope or ()),
        client_auth,
        device_authorization_url,
        authorization_url,
        redirect_port,
        discovery_url,
    )
    ran(login(invocation(ctx), asked, no_browser=no_browser))


auth_login.shared_options = (LOGIN_SHARED,)  # type: ignore[attr-defined]  # named at the end of its help
