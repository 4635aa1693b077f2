"""`a2a cache clear`: empty the Agent Card cache (transport.card_cache)."""

import typer

app = typer.Typer(help="The Agent Card cache (in the platform's cache directory).", no_args_is_help=True)


def cache_clear(ctx: typer.Context) -> None:
    """Empty the Agent Card cache: each agent's card is fetched again on its next run.

    The cache lives in $XDG_CACHE_HOME/a2acli (~/.cache/a2acli; ~/Library/Caches/a2acli on macOS, %LOCALAPPDATA%\\a2acli\\Cache on Windows); --no-cache (A2ACLI_NO_CACHE=1) bypasses it for one run. Exit 1 when an entry cannot be removed.

    Example:

      a2a cache clear
    """
    from a2acli.commands.invocation import invocation
    from a2acli.errors import CANNOT_WRITE, A2acliError
    from a2acli.settings import cache_dir
    from a2acli.transport.card_cache import BYPASS, CardCache

    inv = invocation(ctx)
    out = inv.out = inv.bare_output()  # its errors in text, like its report
    where = cache_dir()
    if where is None:  # no XDG_CACHE_HOME and no home directory: no cache was ever kept
        out.note("there is no Agent Card cache: no home directory, and XDG_CACHE_HOME is not set")
        return
    removed, failed = CardCache(where, BYPASS).clear()
    if failed:
        more = f" (and {len(failed) - 1} more)" if len(failed) > 1 else ""
        raise A2acliError(
            f"cannot empty the Agent Card cache {where}: {failed[0]}{more} ({removed} card(s) removed)",
            hint="check the directory's owner and permissions, or remove it yourself",
            code=CANNOT_WRITE,
        )
    out.note(f"the Agent Card cache is empty: {removed} card(s) removed from {where}")


app.command("clear")(cache_clear)
