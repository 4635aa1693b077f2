"""`a2a help [COMMAND [SUBCOMMAND]]`: the usage `a2a COMMAND --help` prints, from the same tree."""

import functools
from typing import Annotated, Any

import typer


def _complete_words(ctx: typer.Context, incomplete: str) -> list[str]:
    """The commands, then a group's members."""
    from a2acli.commands.registry import COMMANDS, build_app

    words = [w for w in (ctx.params.get("words") or []) if w != incomplete]
    if not words:
        names = [n for n in COMMANDS if n not in ("task", "conformance")] + ["options"]
    else:
        root = typer.main.get_command(build_app())
        sub = root.get_command(ctx, words[0]) if isinstance(root, typer.core.TyperGroup) else None
        names = sorted(sub.list_commands(ctx)) if isinstance(sub, typer.core.TyperGroup) else []
    return [n for n in names if n.startswith(incomplete)]


def help_command(
    ctx: typer.Context,
    words: Annotated[
        list[str] | None,
        typer.Argument(
            help="The command (and subcommand) to show the usage of; none: every command.",
            show_default=False,
            metavar="[COMMAND [SUBCOMMAND]]",
            autocompletion=_complete_words,
        ),
    ] = None,
) -> None:
    """Show the usage of a2a, or of one command (the same as `a2a COMMAND --help`); `a2a help
    options` explains the shared options.

    Examples:

      a2a help send

      a2a help options

      a2a help card fetch
    """
    from a2acli.commands.registry import COMMANDS, build_app

    words = list(words or [])
    if words == ["options"]:
        from a2acli.commands.invocation import invocation

        given = invocation(ctx).given
        typer.echo(shared_options_text(scope={k: given.get(k) for k in ("profile", "config")}), nl=False)
        raise typer.Exit(0)
    if words and words[0] not in COMMANDS:
        import difflib

        from a2acli.errors import UsageError

        close = difflib.get_close_matches(words[0], list(COMMANDS), n=1)
        hint = f"did you mean `a2a help {close[0]}`? " if close else ""
        raise UsageError(f"no command {words[0]!r}", hint=hint + "`a2a help` lists the commands")
    code = build_app()([*words, "--help"], prog_name="a2a", standalone_mode=False)
    raise typer.Exit(code if isinstance(code, int) else 0)


INTRO = (
    "The options every command that talks to an agent takes, before or after the command's name "
    "(`a2a -u URL tasks get ID` is `a2a tasks get ID -u URL`). Precedence: flag > environment > local file "
    "(--config, else the nearest .env / .a2acli.toml) > global file > built-in default; "
    "`a2a config show` says where each value comes from."
)


def shared_options_text(width: int | None = None, scope: dict[str, Any] | None = None) -> str:
    """`a2a help options`: each shared option on a line of its own (all its names and its
    metavar), its help below, indented and wrapped at word boundaries, never cut; by section.
    Each setting's help ends with its default in effect (`scope`: this invocation's --profile and
    --config)."""
    import shutil
    import textwrap

    from a2acli.commands._options import option_help
    from a2acli.settings.table import OPTIONS

    width = max(40, min(width or shutil.get_terminal_size().columns, 100))
    wrap = functools.partial(textwrap.fill, break_long_words=False, break_on_hyphens=False)
    sections: dict[str, list[str]] = {}
    for s in OPTIONS.values():  # the settings table, not the Click parameters Typer builds from it
        short = [f for f in s.flags if not f.startswith("--")]
        names = ", ".join([*short, f"--{s.name}", *(f for f in s.flags if f.startswith("--"))])
        head = names if s.kind == "switch" else f"{names} {s.metavar}"
        body = wrap(
            option_help(s, scope if scope is not None else {}),
            width=width,
            initial_indent="      ",
            subsequent_indent="      ",
        )
        sections.setdefault(s.panel, []).append(
            wrap(head, width=width, initial_indent="  ", subsequent_indent="    ") + "\n" + body
        )
    out = [wrap(INTRO, width=width), ""]
    for title, items in sections.items():
        out += [f"{title}:", *items, ""]
    return "\n".join(out)
