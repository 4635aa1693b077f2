"""`a2a completion SHELL`: the shell completion script, from Typer's completion support.

The script calls `a2a` back with `_A2A_COMPLETE=complete_<shell>`; main.run() registers Typer's
shell classes when that variable is set, so completing costs nothing on ordinary runs."""

from pathlib import Path
from typing import Annotated

import typer

SHELLS = ("bash", "zsh", "fish")
PROG = "a2a"
COMPLETE_VAR = "_A2A_COMPLETE"


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
    shell: Annotated[
        str,
        typer.Argument(
            help="bash, zsh or fish; or `install`.",
            autocompletion=lambda incomplete: [s for s in (*SHELLS, "install") if s.startswith(incomplete)],
            show_default=False,
            metavar="SHELL|install",
        ),
    ],
    install_shell: Annotated[
        str | None,
        typer.Argument(
            help="With install: the shell (default: the one $SHELL names).",
            autocompletion=lambda incomplete: [s for s in SHELLS if s.startswith(incomplete)],
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
    from a2acli.errors import UsageError

    name = shell.strip().lower()
    if name == "install":
        install(install_shell)
        return
    if install_shell is not None:
        raise UsageError(
            f"unexpected argument {install_shell!r}",
            hint="a2a completion bash|zsh|fish, or a2a completion install [SHELL]",
        )
    if name not in SHELLS:
        raise UsageError(
            f"no completion for shell {shell!r}",
            hint="a2a completion bash, zsh or fish (or a2a completion install)",
        )
    typer.echo(script(name))


def install_target(shell: str, env: dict[str, str]) -> tuple[Path, str | None]:
    """Where the script goes for `shell` in the user's home, and the rc-file line it needs (None:
    the shell finds it by itself)."""
    home = Path(env.get("HOME") or Path.home())
    data = Path(env["XDG_DATA_HOME"]) if env.get("XDG_DATA_HOME") else home / ".local" / "share"
    config = Path(env["XDG_CONFIG_HOME"]) if env.get("XDG_CONFIG_HOME") else home / ".config"
    if shell == "bash":  # bash-completion loads it from here; without that package, the rc line does
        path = data / "bash-completion" / "completions" / PROG
        return (
            path,
            f"[ -f {_tilde(path, home)} ] && . {_tilde(path, home)}   # in ~/.bashrc (not needed with the bash-completion package)",
        )
    if shell == "zsh":
        path = home / ".zfunc" / f"_{PROG}"
        return (
            path,
            "fpath=(~/.zfunc $fpath); autoload -Uz compinit && compinit   # in ~/.zshrc, before any other compinit",
        )
    return config / "fish" / "completions" / f"{PROG}.fish", None


def _tilde(path: Path, home: Path) -> str:
    try:
        return "~/" + str(path.relative_to(home))
    except ValueError:
        return str(path)


def install(shell: str | None) -> None:
    import os

    from a2acli.errors import UsageError
    from a2acli.render.output import Output

    name = (shell or Path(os.environ.get("SHELL") or "").name).strip().lower()
    if name not in SHELLS:
        raise UsageError(
            f"cannot tell which shell to install for ({'$SHELL is ' + repr(os.environ.get('SHELL')) if not shell else repr(shell)})",
            hint="name it: a2a completion install bash|zsh|fish",
        )
    path, rc_line = install_target(name, dict(os.environ))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(script(name) + "\n", encoding="utf-8")
    except OSError as e:
        raise UsageError(
            f"cannot write {path}: {e.strerror}", hint=f"print the script instead: a2a completion {name} > FILE"
        ) from None
    out = Output("auto")
    out.note(f"{name} completion written to {path}")
    if rc_line:
        out.note("add this line to your shell's rc file, then open a new shell:")
        out.command(rc_line)
    else:
        out.note("open a new shell to use it")


def register_shells() -> None:
    """Make `_A2A_COMPLETE=complete_bash|zsh|fish a2a` answer (Typer registers its shell
    classes only with add_completion, which would also add --install-completion)."""
    from typer.completion import completion_init

    completion_init()
