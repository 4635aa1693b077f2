"""What the `a2a auth` commands share: the --profile and --output options, the profile a command
acts on, and durations and ID-token subjects in words."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from a2acli.commands._options import complete_profiles

ProfileOpt = Annotated[
    str | None,
    typer.Option(
        "--profile",
        help="The profile holding the OAuth2 settings (default: A2ACLI_PROFILE, the default profile, else 'default').",
        show_default=False,
        metavar="NAME",
        autocompletion=complete_profiles,
    ),
]
OutputOpt = Annotated[
    str | None, typer.Option("--output", "-o", help="text or json.", show_default=False, metavar="text|json")
]


def _output(ctx: typer.Context) -> Any:
    """`auth`'s output: json or text (its reports have no wire bytes: any other mode is auto), in
    the mode this invocation decides (-o before or after the command, A2ACLI_OUTPUT, the config
    files); the boundary says errors through it."""
    from a2acli.commands.invocation import invocation
    from a2acli.render.output import JsonOutput, TextOutput

    return invocation(ctx).checked_output(among=(JsonOutput, TextOutput))


def _pick(ctx: typer.Context, name: str, value: Any) -> Any:
    """A shared option of this invocation (before or after the command) that a command takes."""
    from a2acli.commands.invocation import invocation

    return value if value not in (None, False, []) else invocation(ctx).given.get(name)


def _settings(ctx: typer.Context, flags: dict[str, Any] | None = None, *, new_profile: bool = False) -> Any:
    """The settings an `auth` command acts on, read as every command reads them (settings.resolve:
    --config / A2ACLI_CONFIG, the local files, the global one; --profile before or after the
    command, A2ACLI_PROFILE, a default-profile), so `auth status` sees the [auth] table `send`
    uses: (the Resolved, the profile's name, whether it becomes the default profile: none is set).
    `new_profile`: `auth login` may name a profile no file defines yet."""
    from a2acli import settings
    from a2acli.commands.invocation import invocation

    given = invocation(ctx).given
    res = settings.resolve(flags or {}, given.get("profile"), given.get("config"), new_profile=new_profile)
    return res, res.profile or "default", res.profile is None


def _ago(seconds: float) -> str:
    s = abs(int(seconds))
    text = f"{s // 3600} h {s % 3600 // 60} min" if s >= 3600 else f"{s // 60} min" if s >= 120 else f"{s} s"
    return text


def _who(identity: dict[str, Any]) -> str:
    """`alice (alice@example.com), issuer https://idp.example`: an ID token's subject, in words."""
    name = identity.get("email") or identity.get("preferred_username") or identity.get("name")
    return (
        f"{identity.get('sub')}"
        + (f" ({name})" if name and name != identity.get("sub") else "")
        + (f", issuer {identity['iss']}" if identity.get("iss") else "")
    )


def _id_token_json(identity: dict[str, Any]) -> dict[str, Any]:
    shown = {"subject": identity.get("sub"), "issuer": identity.get("iss"), "signature": identity.get("signature")}
    for key, name in (("email", "email"), ("preferred_username", "preferredUsername"), ("name", "name")):
        if identity.get(key):
            shown[name] = identity[key]
    return shown
