"""The CLI's side of the error boundary: every command runs inside it once
(`registry.Command.invoke` opens it with this invocation, `commands.invocation`). What ends a flow
is said by `flows.boundary.ended` (message, hint, JSON error document, exit code); here that code
becomes `typer.Exit`. And a usage error Typer found (a click context's usage line, the command
names it could have meant) is said in the same voice."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import typer

from a2acli.errors import INTERNAL, USAGE

if TYPE_CHECKING:
    from a2acli.flows.invocation import Invocation


@contextmanager
def boundary(inv: Invocation) -> Iterator[None]:
    """Around one command: an error becomes its one-line message, hint, JSON error document and
    exit code (flows.boundary.ended), in the output mode of this invocation; the code Typer's exit."""
    try:
        yield
    except (typer.Exit, typer.Abort, typer.TyperException):  # Typer's own (an exit, a bad parameter): Typer says them
        raise
    except (Exception, KeyboardInterrupt) as e:
        from a2acli.flows.boundary import ended

        raise typer.Exit(ended(inv, e)) from None


def ran(code: int | None) -> None:
    """A flow's outcome as the command's end: a non-zero exit code is Typer's exit."""
    if code:
        raise typer.Exit(code)


def usage_error(e: Exception, inv: Any) -> int:
    """A usage error Typer found before any command ran (a missing argument, an unknown option
    or command, a bad value), reported like ours: `error:`, the usage line, `hint:`, in the output
    mode of this invocation (`inv`: the flags Typer read, A2ACLI_OUTPUT, the config files); its exit code."""
    code = int(getattr(e, "exit_code", 1))
    if type(e).__name__ == "NoArgsIsHelpError":  # `a2a tasks`: the help is shown already (on stdout)
        return 2  # a group without its subcommand is a usage error, whatever Click's version says
    ctx = getattr(e, "ctx", None)
    path = getattr(ctx, "command_path", None) or "a2a"
    message, hint = _usage_text(e, ctx, path)
    usage = None
    if ctx is not None:
        usage = " ".join(ctx.get_usage().split())
        usage = "usage: " + usage.split(":", 1)[1].strip() if usage.lower().startswith("usage:") else usage
    inv.error_output().error(
        message=message, hint=hint, code=USAGE if code == 2 else INTERNAL, a2a_code=None, usage=usage
    )
    return code


# Commands people look for that are options here: what to use instead (not the closest command's name).
ELSEWHERE = {
    "record": "--dump DIR records any command's exchanges (e.g. `a2a send hi --dump rec`); `a2a replay rec --to URL` and `a2a mock rec` play them back",
    "dump": "--dump DIR records any command's exchanges (e.g. `a2a send hi --dump rec`)",
}


def _usage_text(e: Exception, ctx: Any, path: str) -> tuple[str, str]:
    """Typer's message in our voice (lower case, no closing period), and a hint: the likely
    command or option, then where the help is."""
    import difflib
    import re

    see = f"see `{path} --help`"
    text = e.format_message() if hasattr(e, "format_message") else str(e)
    found = re.match(r"No such command '([^']*)'", text)
    if found and path == "a2a" and found.group(1) in ELSEWHERE:
        return f"no such command {found.group(1)!r}", f"{ELSEWHERE[found.group(1)]} ({see})"
    if found and ctx is not None:
        group = ctx.command
        names = [n for n in group.list_commands(ctx) if not getattr(group.get_command(ctx, n), "hidden", False)]
        close = difflib.get_close_matches(found.group(1), names, n=1, cutoff=0.6)
        message = f"no such command {found.group(1)!r}"
        return message, (f"did you mean `{path} {close[0]}`? ({see})" if close else see)
    name = getattr(e, "option_name", None)
    if name and type(e).__name__ == "NoSuchOption":
        if name == "-v" and ctx is not None and any("--verbose" in getattr(p, "opts", ()) for p in ctx.command.params):
            return (
                "no such option: -v",
                f"here --verbose gives the full view (-v is `a2a -v`, the version; only `a2a diff` takes -v for --verbose) ({see})",
            )
        close = difflib.get_close_matches(name, sorted(getattr(e, "possibilities", None) or ()), n=1, cutoff=0.7)
        return f"no such option: {name}", (f"did you mean {close[0]}? ({see})" if close else see)
    hint = getattr(e, "hint", None)
    if hint:  # a check of settings.values (commands._options.RefusedValue): in our voice already
        return text, hint
    message = text.strip().rstrip(".")
    return (message[:1].lower() + message[1:]), _what_is_missing(e, see) or see


def _what_is_missing(e: Exception, see: str) -> str | None:
    """For a missing option or argument: what it takes, from its help (`--to: the agent to replay
    against: base URL or card URL (as --url); see `a2a replay --help``)."""
    param = getattr(e, "param", None) if type(e).__name__ == "MissingParameter" else None
    text = " ".join(str(getattr(param, "help", None) or "").split())
    if param is None or not text:
        return None
    first = text.split(". ")[0].rstrip(".")
    if getattr(param, "param_type_name", "") == "argument":
        name = str(getattr(param, "human_readable_name", "") or "").strip("{}")
    else:
        opts = list(getattr(param, "opts", None) or [])
        name = next((o for o in opts if o.startswith("--")), opts[0] if opts else "")
    return f"{name}: {first[:1].lower() + first[1:]}; {see}"


def run(ctx: typer.Context, flow: Callable[..., int | None], *args: Any, **kwargs: Any) -> None:
    """The command's one flow, run through this invocation (`Invocation.run`: `a2a diff -- CMD`
    captures it there instead); its exit code is the command's."""
    from a2acli.commands.invocation import invocation

    ran(invocation(ctx).run(flow, *args, **kwargs))


def run_here(ctx: typer.Context, flow: Callable[..., int | None], *args: Any, **kwargs: Any) -> None:
    """A command that is not a method command (`mock`, `replay`, `webhook listen`, `demo-server`):
    its flow run with this invocation, never captured (`a2a diff -- CMD` finds no call in it);
    its exit code is the command's."""
    from a2acli.commands.invocation import invocation

    ran(flow(invocation(ctx), *args, **kwargs))
