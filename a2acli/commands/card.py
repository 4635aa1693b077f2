"""`a2a card fetch` (the public Agent Card) and `a2a card extended` (GetExtendedAgentCard)."""

from typing import Annotated

import typer

from a2acli.commands import shared
from a2acli.commands._options import force_option
from a2acli.commands._run import run
from a2acli.commands.shared import options
from a2acli.flows.runs import run_card_fetch, run_card_validate, run_catalog, run_unary

app = typer.Typer(help="The Agent Card: public and extended; the agents of an agent catalog.", no_args_is_help=True)


@shared.takes_shared
def card_fetch(
    ctx: typer.Context,
    extended: Annotated[
        bool,
        typer.Option("--extended", help="Fetch the authenticated extended card instead (same as `card extended`)."),
    ] = False,
    validate: Annotated[
        bool,
        typer.Option(
            "--validate",
            help="Also validate the card (the findings of `a2a check card` on stderr); exit 1 when it has errors.",
        ),
    ] = False,
    verify_signature: Annotated[
        bool,
        typer.Option(
            "--verify-signature",
            help="Require a verified signature (A2A §8.4): exit 1 (X_A2A_SIGNATURE) when the card's signature is absent, unverifiable or invalid.",
        ),
    ] = False,
    force: Annotated[bool, force_option("With --extended: ask for the extended card")] = False,
) -> None:
    """Fetch the public Agent Card (GET /.well-known/agent-card.json, then agent.json).

    Examples:

      a2a card fetch -u http://127.0.0.1:41241

      a2a card fetch -u catalog:weather \\
          --catalog https://registry.example/agents.json

      a2a card fetch -u https://agent.example -o json --as v1 | jq .skills

      a2a card fetch -u https://agent.example --validate

      a2a card fetch -u https://agent.example --verify-signature

    A signed card's signatures are verified (JWS over the RFC 8785 form of the card, the key
    from the signature's jku JWK Set over https); the text view's `Signature:` field says
    verified, invalid, unverifiable or absent.
    """
    opts = options(ctx)
    if extended and verify_signature:
        from a2acli.errors import UsageError

        raise UsageError(
            "--verify-signature checks the public card, not the extended one",
            hint="drop --extended, or --verify-signature",
        )
    if extended:
        run(ctx, run_unary, "GetExtendedAgentCard", {}, force=force)
    elif validate and not opts.offline:
        run(ctx, run_card_validate, verify_signature=verify_signature)
    else:
        run(ctx, run_card_fetch, verify_signature=verify_signature)


@shared.takes_shared
def card_extended(
    ctx: typer.Context,
    request_id: Annotated[
        str | None, typer.Option("--request-id", help="The JSON-RPC id (default: a new UUID).", show_default=False)
    ] = None,
    force: Annotated[bool, force_option("Ask for it")] = False,
) -> None:
    """Fetch the authenticated extended Agent Card (GetExtendedAgentCard / agent/getAuthenticatedExtendedCard).

    Example:

      A2ACLI_API_KEY=demo-key a2a card extended -u http://127.0.0.1:41241
    """
    run(ctx, run_unary, "GetExtendedAgentCard", {}, request_id=request_id, force=force)


def complete_catalogs(incomplete: str) -> list[str]:
    """Named catalogs from the config files."""
    try:
        from a2acli import settings

        names = [n for n, _ in settings.resolve({}).catalogs]
    except Exception:  # a broken config completes nothing
        names = []
    return [n for n in names if n.startswith(incomplete)]


@shared.takes_shared
def card_catalog(
    ctx: typer.Context,
    name: Annotated[
        str | None,
        typer.Argument(
            help="A named catalog (\\[catalogs] in the config, `a2a config set catalog.NAME URL`); default: --catalog.",
            show_default=False,
            metavar="[CATALOG]",
            autocompletion=complete_catalogs,
        ),
    ] = None,
) -> None:
    """List the agents of an agent catalog: name, description, where each card is, and the
    -u catalog:NAME that names it.

    A catalog is JSON at an http(s) URL or in a file: {"agents": [...]} or a bare array of
    entries (an Agent Card, or {"name", "url"|"card", "description", "tags"}), an AI Catalog
    ({"specVersion", "entries"}, /.well-known/ai-catalog.json), or an RFC 9727 API catalog
    ({"linkset"}, /.well-known/api-catalog). It is read like the public card: no credentials.

    Examples:

      a2a card catalog --catalog ./agents.json

      a2a card catalog --catalog https://registry.example -o json \\
          | jq -r '.agents[].reference'

      a2a config set catalog.team https://registry.example/agents.json \\
          && a2a card catalog team

      a2a send -u catalog:weather --catalog ./agents.json "forecast for Paris"
    """
    run(ctx, run_catalog, name)


fetch_command = card_fetch
app.command("fetch")(fetch_command)
app.command("get", hidden=True)(fetch_command)
app.command("extended")(card_extended)
app.command("catalog")(card_catalog)
