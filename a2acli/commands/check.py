"""`a2a check [card] [URL]` (alias `conformance`): validate an Agent Card, and probe what the agent
really speaks over each interface its card lists. The work is in a2acli/check, run by
flows.check.run_check."""

from typing import Annotated

import typer

from a2acli.commands import shared
from a2acli.commands.shared import options


@shared.takes_shared
def check(
    ctx: typer.Context,
    target: Annotated[
        list[str] | None,
        typer.Argument(
            help="The agent's URL (or -u). `card URL|FILE|-` validates the card alone, offline for a file or stdin.",
            show_default=False,
            metavar="[card] [URL]",
        ),
    ] = None,
    read_only: Annotated[
        bool,
        typer.Option(
            "--read-only",
            help="Skip the probes that create tasks or push configs (message round trip, streaming, push configs, refusals a deviating agent would take as a task).",
        ),
    ] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Warnings fail the check too (exit 1).")] = False,
    only_problems: Annotated[
        bool,
        typer.Option(
            "--only-problems",
            help="Show only the failures and warnings (text and -o json; the summary still counts every check).",
        ),
    ] = False,
    webhook: Annotated[
        bool,
        typer.Option(
            "--webhook",
            help="Also check push-notification delivery: start a receiver on 127.0.0.1 (a free port), create a task with a push config pointing at it, and wait (--timeout, default 10s) for the agent's delivery with the config's token. Only an agent that can reach this machine's loopback can pass.",
        ),
    ] = False,
    junit: Annotated[
        str | None,
        typer.Option(
            "--junit",
            help="Also write the checks as JUnit XML to FILE (one testcase per check, with its severity and spec).",
            show_default=False,
            metavar="FILE",
        ),
    ] = None,
) -> None:
    """Validate an Agent Card and probe what the agent really speaks, for people and CI.

    `a2a check card SOURCE` validates the card against the version(s) it declares (both when it
    is hybrid): every finding with its severity, JSON path and fix. `a2a check URL` does that for
    the card under each A2A-Version header (and its caching headers), then, for each interface the
    card lists (binding x version): reachable; an unsupported A2A-Version refused; a missing one
    read as 0.3; the error codes of an unknown task, method and malformed params, in the binding's
    own form; input validation; a message round trip and the data model of every answer;
    operation semantics (unknown task ids, blocking, history length, a finished task continued,
    cancelled or subscribed to); and what the card claims: streaming and its order,
    push-notification configs, the extended card, ListTasks paging, last page, artifacts and
    filter. Each check cites its A2A 1.0 or 0.3 section and the official TCK's requirement id; a
    MUST broken fails, a SHOULD broken warns. The text report ends with a recap of every failure
    and warning with its id (`--only-problems` shows those alone); at a terminal, each interface
    is said on stderr as its probe starts. With `--webhook`, push-notification delivery too: a
    receiver on 127.0.0.1 gets the agent's notification about a new task, with the config's token.

    The round trip, streaming, push-config and `--webhook` probes, and the refusals a deviating
    agent would take as a new task, CREATE STATE on the agent (`--read-only` skips them; push
    configs made are deleted). Exit 0 when every check passes (warnings too, unless --strict), 1
    when one fails, 3 when the agent or its card is unreachable (the report still says so).

    Examples:

      a2a check http://127.0.0.1:41241

      a2a check http://127.0.0.1:41241 --webhook --timeout 15

      a2a check card ./agent-card.json

      curl -s https://agent.example/.well-known/agent-card.json | a2a check card -

      a2a check https://agent.example --read-only --strict \\
          --junit check.xml -o json
    """
    options(ctx)  # resolved first: a bad setting is said before the card or the agent is read
    from a2acli.commands._run import run_here
    from a2acli.flows.check import run_check

    run_here(
        ctx,
        run_check,
        list(target or []),
        read_only=read_only,
        strict=strict,
        junit=junit,
        webhook=webhook,
        only_problems=only_problems,
    )
