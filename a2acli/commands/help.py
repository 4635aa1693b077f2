"""`a2a help [COMMAND [SUBCOMMAND]]`: the usage `a2a COMMAND --help` prints, from the same tree."""

from __future__ import annotations

from typing import Annotated

import typer


def _complete_words(ctx: typer.Context, incomplete: str) -> list[str]:
    """The commands, then a group's members."""
    from a2acli.commands.registry import COMMANDS, build_app

    words = [w for w in (ctx.params.get("words") or []) if w != incomplete]
    if not words:
        names = [n for n in COMMANDS if n not in ("task", "conformance")]
    else:
        group = typer.main.get_command(build_app(words[0]))
        sub = getattr(group, "commands", {}).get(words[0])
        names = sorted(getattr(sub, "commands", {}) or {})
    return [n for n in names if n.startswith(incomplete)]


def help_command(
    ctx: typer.Context,
    words: Annotated[
        list[str] | None,
        typer.Argument(help="The command (and subcommand) to show the usage of; none: every command.", show_default=False, metavar="[COMMAND [SUBCOMMAND]]", autocompletion=_complete_words),
    ] = None,
) -> None:
    """Show the usage of a2a, or of one command (the same as `a2a COMMAND --help`).

    Examples:

      a2a help send

      a2a help card fetch
    """
    from a2acli.commands._run import boundary
    from a2acli.commands.registry import COMMANDS, build_app

    words = list(words or [])
    root = ctx.find_root().obj if isinstance(ctx.find_root().obj, dict) else {}
    with boundary(output_hint=root.get("output")):
        if words and words[0] not in COMMANDS:
            import difflib

            from a2acli.errors import UsageError

            close = difflib.get_close_matches(words[0], list(COMMANDS), n=1)
            hint = f"did you mean `a2a help {close[0]}`? " if close else ""
            raise UsageError(f"no command {words[0]!r}", hint=hint + "`a2a help` lists the commands")
    app = build_app(words[0] if words else None, words[1] if len(words) > 1 else None)
    code = app([*words, "--help"], prog_name="a2a", standalone_mode=False)
    raise typer.Exit(code if isinstance(code, int) else 0)
