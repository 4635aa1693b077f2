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


def _root(ctx: typer.Context) -> dict[str, Any]:
    obj = ctx.find_root().obj
    return obj if isinstance(obj, dict) else {}


def _pick(ctx: typer.Context, name: str, value: Any) -> Any:
    return value if value not in (None, False, []) else _root(ctx).get(name)


def _output(ctx: typer.Context, output: str | None) -> Any:
    """`auth`'s output: json or text (its reports have no wire bytes: any other mode is auto);
    the boundary says errors through it."""
    from a2acli.commands._run import known
    from a2acli.render.output import JsonOutput, TextOutput, pick

    out = pick(_pick(ctx, "output", output), among=(JsonOutput, TextOutput))()
    known(out=out)
    return out


def _profile(ctx: typer.Context, profile: str | None, config: dict[str, Any]) -> tuple[str, bool]:
    from a2acli import settings

    return settings.target_profile(_pick(ctx, "profile", profile), config)


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
