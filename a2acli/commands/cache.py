"""`a2a cache clear`: empty the Agent Card cache (flows.cache)."""

import typer

app = typer.Typer(help="The Agent Card cache (in the platform's cache directory).", no_args_is_help=True)


def cache_clear(ctx: typer.Context) -> None:
    """Empty the Agent Card cache: each agent's card is fetched again on its next run.

    The cache lives in $XDG_CACHE_HOME/a2acli (~/.cache/a2acli; ~/Library/Caches/a2acli on macOS, %LOCALAPPDATA%\\a2acli\\Cache on Windows); --no-cache (A2ACLI_NO_CACHE=1) bypasses it for one run. Exit 1 when an entry cannot be removed.

    Example:

      a2a cache clear
    """
    from a2acli.commands._run import run_here
    from a2acli.flows.cache import clear

    run_here(ctx, clear)


app.command("clear")(cache_clear)
