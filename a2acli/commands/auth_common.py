"""What the `a2a auth` commands share: the --profile and --output options (their work, and the
profile a command acts on, is flows.auth's)."""

from __future__ import annotations

from typing import Annotated

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
