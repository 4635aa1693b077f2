"""`a2a completion SHELL`: the shell completion script, from Typer's completion support.

The script calls `a2a` back with `_A2A_COMPLETE=complete_<shell>`; main.run() registers Typer's
shell classes when that variable is set, so completing costs nothing on ordinary runs."""

from __future__ import annotations

from typing import Annotated

import typer

SHELLS = ("bash", "zsh", "fish")
PROG = "a2a"
COMPLETE_VAR = "_A2A_COMPLETE"


def script(shell: str) -> str:
    from typer.completion import get_completion_script

    return get_completion_script(prog_name=PROG, complete_var=COMPLETE_VAR, shell=shell)


def completion(
    shell: Annotated[str, typer.Argument(help="bash, zsh or fish.", autocompletion=lambda incomplete: [s for s in SHELLS if s.startswith(incomplete)], show_default=False)],
) -> None:
    """Print the shell completion script for bash, zsh or fish.

    It completes subcommands, options, and values: versions, dialects, output modes, task states.

    Examples:

      a2a completion bash > ~/.local/share/bash-completion/completions/a2a

      a2a completion zsh > "${fpath[1]}/_a2a"

      a2a completion fish > ~/.config/fish/completions/a2a.fish

      eval "$(a2a completion bash)"
    """
    from a2acli.commands._run import boundary
    from a2acli.errors import UsageError

    with boundary():
        name = shell.strip().lower()
        if name not in SHELLS:
            raise UsageError(f"no completion for shell {shell!r}", hint="a2a completion bash, zsh or fish")
        typer.echo(script(name))


def register_shells() -> None:
    """Make `_A2A_COMPLETE=complete_bash|zsh|fish a2a` answer (Typer registers its shell
    classes only with add_completion, which would also add --install-completion)."""
    from typer.completion import completion_init

    completion_init()
