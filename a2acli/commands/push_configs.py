"""`a2a push-config create|get|list|delete`: a task's webhook (push notification) configs."""

from typing import Annotated

import typer

from a2acli.commands import shared
from a2acli.commands._options import force_option, typed
from a2acli.commands._run import run
from a2acli.commands.shared import options
from a2acli.flows.runs import run_unary
from a2acli.settings.values import check_id, check_push_url

app = typer.Typer(help="Push-notification (webhook) configs of a task.", no_args_is_help=True)

TaskId = Annotated[
    str, typer.Argument(help="The task id.", show_default=False, metavar="TASK_ID", parser=typed(check_id, "TASK_ID"))
]
ConfigId = Annotated[
    str,
    typer.Argument(
        help="The push config id.", show_default=False, metavar="CONFIG_ID", parser=typed(check_id, "CONFIG_ID")
    ),
]
RequestId = Annotated[
    str | None, typer.Option("--request-id", help="The JSON-RPC id (default: a new UUID).", show_default=False)
]
Force = Annotated[bool, force_option("Call the agent")]


@app.command("create")
@shared.takes_shared
def push_config_create(
    ctx: typer.Context,
    task_id: TaskId,
    webhook_url: Annotated[
        str,
        typer.Option(
            "--webhook-url",
            help="Where the agent POSTs notifications (an http(s) URL).",
            show_default=False,
            metavar="URL",
            parser=typed(check_push_url, "--webhook-url"),
        ),
    ],
    config_id: Annotated[
        str | None,
        typer.Option(
            "--config-id",
            help="Id for the config (default: the agent picks).",
            show_default=False,
            metavar="ID",
            parser=typed(check_id, "--config-id"),
        ),
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
) -> None:
    """Register a webhook for a task (CreateTaskPushNotificationConfig / tasks/pushNotificationConfig/set).

    Example:

      a2a push-config create 5f0c… --webhook-url http://127.0.0.1:9000/hook \\
          --push-token t0k
    """
    options(ctx)  # resolved first: a bad setting is said before the arguments are read
    from a2acli.flows.tasks import push_config_params

    params = push_config_params(
        task_id,
        webhook_url,
        config_id=config_id,
        token=token or token_alias,
        auth_scheme=auth_scheme,
        auth_credentials=auth_credentials,
    )
    run(ctx, run_unary, "CreateTaskPushNotificationConfig", params, request_id=request_id, force=force)


@app.command("get")
@shared.takes_shared
def push_config_get(
    ctx: typer.Context,
    task_id: TaskId,
    config_id: ConfigId,
    request_id: RequestId = None,
    force: Force = False,
) -> None:
    """Get one webhook config of a task (GetTaskPushNotificationConfig / tasks/pushNotificationConfig/get).

    Example:

      a2a push-config get 5f0c… cfg-1 -u http://127.0.0.1:41241
    """
    run(
        ctx,
        run_unary,
        "GetTaskPushNotificationConfig",
        {"taskId": task_id, "id": config_id},
        request_id=request_id,
        force=force,
    )


@app.command("list")
@shared.takes_shared
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
) -> None:
    """List a task's webhook configs (ListTaskPushNotificationConfigs / tasks/pushNotificationConfig/list).

    Examples:

      a2a push-config list 5f0c… -u http://127.0.0.1:41241

      a2a push-config list 5f0c… -o json --as v1 | jq -r '.configs[].url'
    """
    from a2acli.flows.tasks import push_list_params

    params = push_list_params(task_id, page_size, page_token)
    run(ctx, run_unary, "ListTaskPushNotificationConfigs", params, request_id=request_id, force=force)


@app.command("delete")
@shared.takes_shared
def push_config_delete(
    ctx: typer.Context,
    task_id: TaskId,
    config_id: ConfigId,
    request_id: RequestId = None,
    force: Force = False,
) -> None:
    """Delete a webhook config (DeleteTaskPushNotificationConfig / tasks/pushNotificationConfig/delete).

    Example:

      a2a push-config delete 5f0c… cfg-1 -u http://127.0.0.1:41241
    """
    run(
        ctx,
        run_unary,
        "DeleteTaskPushNotificationConfig",
        {"taskId": task_id, "id": config_id},
        request_id=request_id,
        force=force,
    )
