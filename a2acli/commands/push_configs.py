"""`a2a push-config create|get|list|delete`: a task's webhook (push notification) configs."""

from typing import Annotated, Any

import typer

from a2acli.commands import shared
from a2acli.commands._options import force_option
from a2acli.commands._run import run_unary
from a2acli.commands.shared import options

app = typer.Typer(help="Push-notification (webhook) configs of a task.", no_args_is_help=True)

TaskId = Annotated[str, typer.Argument(help="The task id.", show_default=False, metavar="TASK_ID")]
ConfigId = Annotated[str, typer.Argument(help="The push config id.", show_default=False, metavar="CONFIG_ID")]
RequestId = Annotated[
    str | None, typer.Option("--request-id", help="The JSON-RPC id (default: a new UUID).", show_default=False)
]
Force = Annotated[bool, force_option("Call the agent")]


@app.command("create")
def push_config_create(
    ctx: typer.Context,
    task_id: TaskId,
    webhook_url: Annotated[
        str, typer.Option("--webhook-url", help="Where the agent POSTs notifications.", show_default=False)
    ],
    config_id: Annotated[
        str | None,
        typer.Option("--config-id", help="Id for the config (default: the agent picks).", show_default=False),
    ] = None,
    token: Annotated[
        str | None,
        typer.Option(
            "--push-token",
            help="Token the agent echoes with each notification (--token works too).",
            show_default=False,
        ),
    ] = None,
    token_alias: Annotated[
        str | None, typer.Option("--token", hidden=True, help="Same as --push-token.", show_default=False)
    ] = None,
    auth_scheme: Annotated[
        str | None,
        typer.Option(
            "--auth-scheme",
            help="Authorization scheme the agent uses on the webhook (e.g. Bearer).",
            show_default=False,
        ),
    ] = None,
    auth_credentials: Annotated[
        str | None, typer.Option("--auth-credentials", help="Credentials for --auth-scheme.", show_default=False)
    ] = None,
    request_id: RequestId = None,
    force: Force = False,
    url: shared.UrlOpt = None,
    catalog: shared.CatalogOpt = None,
    endpoint: shared.EndpointOpt = None,
    transport: shared.TransportOpt = None,
    a2a_version: shared.A2aVersionOpt = None,
    dialect: shared.DialectOpt = None,
    header: shared.HeaderOpt = None,
    svc_param: shared.SvcParamOpt = None,
    extension: shared.ExtensionOpt = None,
    api_key: shared.ApiKeyOpt = None,
    bearer: shared.BearerOpt = None,
    basic: shared.BasicOpt = None,
    cacert: shared.CacertOpt = None,
    cert: shared.CertOpt = None,
    key: shared.KeyOpt = None,
    timeout: shared.TimeoutOpt = None,
    max_body: shared.MaxBodyOpt = None,
    plaintext: shared.PlaintextOpt = False,
    strict_origin: shared.StrictOriginOpt = False,
    insecure: shared.InsecureOpt = False,
    profile: shared.ProfileOpt = None,
    config: shared.ConfigOpt = None,
    output: shared.OutputOpt = None,
    as_version: shared.AsOpt = None,
    offline: shared.OfflineOpt = False,
    quiet: shared.QuietOpt = False,
    dump: shared.DumpOpt = None,
    dump_append: shared.DumpAppendOpt = False,
    verbose: shared.VerboseOpt = False,
    debug: shared.DebugOpt = False,
) -> None:
    """Register a webhook for a task (CreateTaskPushNotificationConfig / tasks/pushNotificationConfig/set).

    Example:

      a2a push-config create 5f0c… --webhook-url http://127.0.0.1:9000/hook \\
          --push-token t0k
    """
    opts = options(ctx)
    params: dict[str, Any] = {"taskId": task_id, "url": webhook_url}
    if config_id:
        params["id"] = config_id
    token = token or token_alias
    if token:
        params["token"] = token
    if auth_scheme or auth_credentials:
        params["authentication"] = {"scheme": auth_scheme or "Bearer"} | (
            {"credentials": auth_credentials} if auth_credentials else {}
        )
    run_unary("CreateTaskPushNotificationConfig", params, opts, request_id=request_id, force=force)


@app.command("get")
def push_config_get(
    ctx: typer.Context,
    task_id: TaskId,
    config_id: ConfigId,
    request_id: RequestId = None,
    force: Force = False,
    url: shared.UrlOpt = None,
    catalog: shared.CatalogOpt = None,
    endpoint: shared.EndpointOpt = None,
    transport: shared.TransportOpt = None,
    a2a_version: shared.A2aVersionOpt = None,
    dialect: shared.DialectOpt = None,
    header: shared.HeaderOpt = None,
    svc_param: shared.SvcParamOpt = None,
    extension: shared.ExtensionOpt = None,
    api_key: shared.ApiKeyOpt = None,
    bearer: shared.BearerOpt = None,
    basic: shared.BasicOpt = None,
    cacert: shared.CacertOpt = None,
    cert: shared.CertOpt = None,
    key: shared.KeyOpt = None,
    timeout: shared.TimeoutOpt = None,
    max_body: shared.MaxBodyOpt = None,
    plaintext: shared.PlaintextOpt = False,
    strict_origin: shared.StrictOriginOpt = False,
    insecure: shared.InsecureOpt = False,
    profile: shared.ProfileOpt = None,
    config: shared.ConfigOpt = None,
    output: shared.OutputOpt = None,
    as_version: shared.AsOpt = None,
    offline: shared.OfflineOpt = False,
    quiet: shared.QuietOpt = False,
    dump: shared.DumpOpt = None,
    dump_append: shared.DumpAppendOpt = False,
    verbose: shared.VerboseOpt = False,
    debug: shared.DebugOpt = False,
) -> None:
    """Get one webhook config of a task (GetTaskPushNotificationConfig / tasks/pushNotificationConfig/get).

    Example:

      a2a push-config get 5f0c… cfg-1 -u http://127.0.0.1:41241
    """
    opts = options(ctx)
    run_unary(
        "GetTaskPushNotificationConfig", {"taskId": task_id, "id": config_id}, opts, request_id=request_id, force=force
    )


@app.command("list")
def push_config_list(
    ctx: typer.Context,
    task_id: TaskId,
    page_size: Annotated[
        int | None,
        typer.Option("--page-size", help="Configs per page (V1 only).", min=1, metavar="N", show_default=False),
    ] = None,
    page_token: Annotated[
        str | None, typer.Option("--page-token", help="Page to fetch (V1 only).", show_default=False)
    ] = None,
    request_id: RequestId = None,
    force: Force = False,
    url: shared.UrlOpt = None,
    catalog: shared.CatalogOpt = None,
    endpoint: shared.EndpointOpt = None,
    transport: shared.TransportOpt = None,
    a2a_version: shared.A2aVersionOpt = None,
    dialect: shared.DialectOpt = None,
    header: shared.HeaderOpt = None,
    svc_param: shared.SvcParamOpt = None,
    extension: shared.ExtensionOpt = None,
    api_key: shared.ApiKeyOpt = None,
    bearer: shared.BearerOpt = None,
    basic: shared.BasicOpt = None,
    cacert: shared.CacertOpt = None,
    cert: shared.CertOpt = None,
    key: shared.KeyOpt = None,
    timeout: shared.TimeoutOpt = None,
    max_body: shared.MaxBodyOpt = None,
    plaintext: shared.PlaintextOpt = False,
    strict_origin: shared.StrictOriginOpt = False,
    insecure: shared.InsecureOpt = False,
    profile: shared.ProfileOpt = None,
    config: shared.ConfigOpt = None,
    output: shared.OutputOpt = None,
    as_version: shared.AsOpt = None,
    offline: shared.OfflineOpt = False,
    quiet: shared.QuietOpt = False,
    dump: shared.DumpOpt = None,
    dump_append: shared.DumpAppendOpt = False,
    verbose: shared.VerboseOpt = False,
    debug: shared.DebugOpt = False,
) -> None:
    """List a task's webhook configs (ListTaskPushNotificationConfigs / tasks/pushNotificationConfig/list).

    Examples:

      a2a push-config list 5f0c… -u http://127.0.0.1:41241

      a2a push-config list 5f0c… -o json --as v1 | jq -r '.configs[].url'
    """
    opts = options(ctx)
    params: dict[str, Any] = {"taskId": task_id}
    if page_size is not None:
        params["pageSize"] = page_size
    if page_token:
        params["pageToken"] = page_token
    run_unary("ListTaskPushNotificationConfigs", params, opts, request_id=request_id, force=force)


@app.command("delete")
def push_config_delete(
    ctx: typer.Context,
    task_id: TaskId,
    config_id: ConfigId,
    request_id: RequestId = None,
    force: Force = False,
    url: shared.UrlOpt = None,
    catalog: shared.CatalogOpt = None,
    endpoint: shared.EndpointOpt = None,
    transport: shared.TransportOpt = None,
    a2a_version: shared.A2aVersionOpt = None,
    dialect: shared.DialectOpt = None,
    header: shared.HeaderOpt = None,
    svc_param: shared.SvcParamOpt = None,
    extension: shared.ExtensionOpt = None,
    api_key: shared.ApiKeyOpt = None,
    bearer: shared.BearerOpt = None,
    basic: shared.BasicOpt = None,
    cacert: shared.CacertOpt = None,
    cert: shared.CertOpt = None,
    key: shared.KeyOpt = None,
    timeout: shared.TimeoutOpt = None,
    max_body: shared.MaxBodyOpt = None,
    plaintext: shared.PlaintextOpt = False,
    strict_origin: shared.StrictOriginOpt = False,
    insecure: shared.InsecureOpt = False,
    profile: shared.ProfileOpt = None,
    config: shared.ConfigOpt = None,
    output: shared.OutputOpt = None,
    as_version: shared.AsOpt = None,
    offline: shared.OfflineOpt = False,
    quiet: shared.QuietOpt = False,
    dump: shared.DumpOpt = None,
    dump_append: shared.DumpAppendOpt = False,
    verbose: shared.VerboseOpt = False,
    debug: shared.DebugOpt = False,
) -> None:
    """Delete a webhook config (DeleteTaskPushNotificationConfig / tasks/pushNotificationConfig/delete).

    Example:

      a2a push-config delete 5f0c… cfg-1 -u http://127.0.0.1:41241
    """
    opts = options(ctx)
    run_unary(
        "DeleteTaskPushNotificationConfig",
        {"taskId": task_id, "id": config_id},
        opts,
        request_id=request_id,
        force=force,
    )
