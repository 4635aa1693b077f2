"""`a2a completion SHELL`: the shell completion script, from Typer's completion support (its
printing and installing: flows.completion).

The script calls `a2a` back with `_A2A_COMPLETE=complete_<shell>`; main.run() registers Typer's
shell classes when that variable is set, so completing costs nothing on ordinary runs."""

from typing import Annotated

import typer

from a2acli.commands import COMPLETE_VAR
from a2acli.commands._run import ran

PROG = "a2a"


# zsh: Typer's script, two things changed. Autoloaded from $fpath (what `completion install` sets
# up), a file's body is the first call of its function: Typer's only defined a function there, so
# the first Tab of a shell completed nothing; this one completes on that call too (compdef when
# sourced). Typer writes an apostrophe in a description as '' inside single quotes, which zsh
# reads as one only under RC_QUOTES (set here, for the function only), and its eval of an unquoted
# $(...) split the answer into words.
ZSH_SCRIPT = f"""#compdef {PROG}

_{PROG}() {{
  setopt localoptions rcquotes
  eval "$(env _TYPER_COMPLETE_ARGS="${{words[1,$CURRENT]}}" {COMPLETE_VAR}=complete_zsh {PROG})"
}}

if [ "$funcstack[1]" = "_{PROG}" ]; then
  _{PROG} "$@"  # autoloaded by compinit: this first call completes too
else
  compdef _{PROG} {PROG}  # sourced: eval "$({PROG} completion zsh)"
fi"""


def script(shell: str) -> str:
    if shell == "zsh":
        return ZSH_SCRIPT
    from typer.completion import get_completion_script

    return get_completion_script(prog_name=PROG, complete_var=COMPLETE_VAR, shell=shell)


def completion(
    ctx: typer.Context,
    shell: Annotated[
        str,
        typer.Argument(
            help="bash, zsh or fish; or `install`.",
            autocompletion=lambda incomplete: _shells(incomplete, "install"),
            show_default=False,
            metavar="SHELL|install",
        ),
    ],
    install_shell: Annotated[
        str | None,
        typer.Argument(
            help="With install: the shell (default: the one $SHELL names).",
            autocompletion=lambda incomplete: _shells(incomplete),
            show_default=False,
            metavar="[SHELL]",
        ),
    ] = None,
) -> None:
    """Print the shell completion script for bash, zsh or fish, or install it for you.

    It completes subcommands, options, and values: versions, dialects, output modes, task states.
    `a2a completion install` writes the script where your shell (from $SHELL) finds it in your
    home directory, and prints the line to add to your shell's rc file when one is needed.

    Examples:

      a2a completion install

      a2a completion install zsh

      eval "$(a2a completion bash)"

      mkdir -p ~/.config/fish/completions && \\
          a2a completion fish > ~/.config/fish/completions/a2a.fish
    """
    from a2acli.commands.invocation import invocation
    from a2acli.flows.completion import completion as run_completion

    ran(run_completion(invocation(ctx), shell, install_shell, script))


def _shells(incomplete: str, *more: str) -> list[str]:
    from a2acli.flows.completion import SHELLS

    return [s for s in (*SHELLS, *more) if s.startswith(incomplete)]


def register_shells() -> None:
    """Make `_A2A_COMPLETE=complete_bash|zsh|fish a2a` answer (Typer registers its shell
    classes only with add_completion, which would also add --install-completion)."""
    from typer.completion import completion_init

    completion_init()
