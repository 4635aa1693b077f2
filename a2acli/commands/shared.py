"""The shared options as `Annotated` aliases, one per row of the settings table
(`settings.table.OPTIONS`), which every command that takes them lists in its signature, as the
Hugging Face CLI's `_cli_utils` does (`token: TokenOpt = None`):

    def tasks_get(ctx: typer.Context, task_id: ..., url: shared.UrlOpt = None, ...) -> None:
        opts = options(ctx)

The values reach the command through this invocation (`commands.invocation`: the root callback
and `registry.Command.invoke` add what was given), resolved once by `options(ctx)`; a command
reads its options from there, not from the parameters. Each option is hidden from a command's
--help (which ends with one short section naming them, `_options.shared_help`) except when the
shell asks for completions. `tests/commands/test_invocation.py` checks that this module has one
alias per row, of the row's kind, and that every method command lists them all."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from a2acli.commands._options import option

if TYPE_CHECKING:
    import typer

    from a2acli.pipeline.options import CallOptions

UrlOpt = Annotated[str | None, option("url")]
CatalogOpt = Annotated[str | None, option("catalog")]
EndpointOpt = Annotated[str | None, option("endpoint")]
TransportOpt = Annotated[list[str] | None, option("transport")]
A2aVersionOpt = Annotated[str | None, option("a2a-version")]
DialectOpt = Annotated[str | None, option("dialect")]
HeaderOpt = Annotated[list[str] | None, option("header")]
SvcParamOpt = Annotated[list[str] | None, option("svc-param")]
ExtensionOpt = Annotated[list[str] | None, option("extension")]
ApiKeyOpt = Annotated[str | None, option("api-key")]
BearerOpt = Annotated[str | None, option("bearer")]
BasicOpt = Annotated[str | None, option("basic")]
CacertOpt = Annotated[str | None, option("cacert")]
CertOpt = Annotated[str | None, option("cert")]
KeyOpt = Annotated[str | None, option("key")]
TimeoutOpt = Annotated[str | None, option("timeout")]
MaxBodyOpt = Annotated[str | None, option("max-body")]
PlaintextOpt = Annotated[bool, option("plaintext")]
StrictOriginOpt = Annotated[bool, option("strict-origin")]
NoCacheOpt = Annotated[bool, option("no-cache")]
InsecureOpt = Annotated[bool, option("insecure")]
ProfileOpt = Annotated[str | None, option("profile")]
ConfigOpt = Annotated[str | None, option("config")]
OutputOpt = Annotated[str | None, option("output")]
AsOpt = Annotated[str | None, option("as")]
OfflineOpt = Annotated[bool, option("offline")]
QuietOpt = Annotated[bool, option("quiet")]
DumpOpt = Annotated[str | None, option("dump")]
DumpAppendOpt = Annotated[bool, option("dump-append")]
VerboseOpt = Annotated[bool, option("verbose")]
DebugOpt = Annotated[bool, option("debug")]


def options(ctx: typer.Context) -> CallOptions:
    """This invocation's shared options, resolved once (flag > env > local file > global file >
    default) and parsed by the settings table."""
    from a2acli.commands.invocation import invocation

    return invocation(ctx).options()
