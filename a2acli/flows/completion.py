"""`a2a completion`'s work, headless: the script for a shell printed, or installed where the
user's shell finds it (with the rc-file line it needs). The script itself is the face's (Typer's
completion support, `commands/completion.py`), handed in as `script(shell)`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from a2acli.flows.invocation import Invocation

SHELLS = ("bash", "zsh", "fish")
PROG = "a2a"


def completion(inv: Invocation, shell: str, install_shell: str | None, script: Callable[[str], str]) -> int:
    """`a2a completion SHELL`: the script on stdout; `a2a completion install [SHELL]`: installed."""
    from a2acli.errors import UsageError

    name = shell.strip().lower()
    if name == "install":
        return install(inv, install_shell, script)
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
    stdout = inv.env.streams()[1]
    stdout.write(script(name) + "\n")
    stdout.flush()
    return 0


def install(inv: Invocation, shell: str | None, script: Callable[[str], str]) -> int:
    """The script written for `shell` (default: the one $SHELL names) in the user's home; where,
    and the rc-file line to add, said on stderr."""
    import os

    from a2acli.errors import UsageError

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
    out = inv.bare_output()
    out.note(f"{name} completion written to {path}")
    if rc_line:
        out.note("add this line to your shell's rc file, then open a new shell:")
        out.command(rc_line)
    else:
        out.note("open a new shell to use it")
    return 0


def install_target(shell: str, env: dict[str, str]) -> tuple[Path, str | None]:
    """Where the script goes for `shell` in the user's home, and the rc-file line it needs (None:
    the shell finds it by itself). A relative XDG_DATA_HOME / XDG_CONFIG_HOME is ignored (the XDG
    Base Directory spec); with no home directory (HOME unset, a user the system does not know) only
    an absolute one names a place, else it is a UsageError."""
    from a2acli.settings.files import home_path, xdg_path

    home = home_path(env=env)

    def base(name: str, *below: str) -> Path:
        place = xdg_path(name, env) or home_path(*below, env=env)
        if place is None:
            from a2acli.errors import UsageError

            xdg = f", or {name} to an absolute path" if below else ""
            raise UsageError(
                f"nowhere to install the {shell} completion: HOME is not set and the system names no home directory for this user",
                hint=f"set HOME{xdg}, or print the script instead: a2a completion {shell} > FILE",
            )
        return place

    if shell == "bash":  # bash-completion loads it from here; without that package, the rc line does
        path = base("XDG_DATA_HOME", ".local", "share") / "bash-completion" / "completions" / PROG
        return (
            path,
            f"[ -f {_tilde(path, home)} ] && . {_tilde(path, home)}   # in ~/.bashrc (not needed with the bash-completion package)",
        )
    if shell == "zsh":
        path = base("HOME") / ".zfunc" / f"_{PROG}"
        return (
            path,
            "fpath=(~/.zfunc $fpath); autoload -Uz compinit && compinit   # in ~/.zshrc, before any other compinit",
        )
    return base("XDG_CONFIG_HOME", ".config") / "fish" / "completions" / f"{PROG}.fish", None


def _tilde(path: Path, home: Path | None) -> str:
    if home is None:
        return str(path)
    try:
        return "~/" + str(path.relative_to(home))
    except ValueError:
        return str(path)
