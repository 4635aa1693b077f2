"""`a2a tasks get|list|cancel|subscribe` (alias `a2a task …`)."""

from typing import Annotated

import typer

from a2acli.commands import shared
from a2acli.commands._options import (
    POLL_INTERVAL,
    complete_task_states,
    force_option,
    poll_interval_option,
    poll_seconds,
    typed,
)
from a2acli.commands._run import run
from a2acli.commands.shared import options
from a2acli.flows.runs import run_download, run_list_tasks, run_stream, run_unary
from a2acli.settings.values import check_id, check_page_size, check_timestamp

app = typer.Typer(
    help="Tasks: get, list, cancel, subscribe, download, and their push-config (also `a2a push-config`).",
    no_args_is_help=True,
)

TaskId = Annotated[
    str, typer.Argument(help="The task id.", show_default=False, metavar="TASK_ID", parser=typed(check_id, "TASK_ID"))
]
RequestId = Annotated[
    str | None, typer.Option("--request-id", help="The JSON-RPC id (default: a new UUID).", show_default=False)
]
ExpectState = Annotated[
    str | None,
    typer.Option(
        "--expect-state",
        help="Exit 6 unless the task is in one of these states (comma list).",
        show_default=False,
        autocompletion=complete_task_states,
    ),
]
HistoryLength = Annotated[
    int | None,
    typer.Option(
        "--history-length",
        "--history",
        help="At most N history messages per task.",
        min=0,
        show_default=False,
        metavar="N",
    ),
]


@app.command("get")
@shared.takes_shared
def tasks_get(
    ctx: typer.Context,
    task_id: TaskId,
    history_length: HistoryLength = None,
    wait: Annotated[
        bool, typer.Option("--wait", "--watch", help="Poll until the task is terminal or needs input.")
    ] = False,
    poll_interval: Annotated[str, poll_interval_option()] = POLL_INTERVAL,
    expect_state: ExpectState = None,
    request_id: RequestId = None,
) -> None:
    """Get a task (GetTask / tasks/get).

    Examples:

      a2a tasks get 5f0c… -u http://127.0.0.1:41241

      a2a tasks get 5f0c… --wait --expect-state completed
    """
    from a2acli.flows.tasks import get_params

    run(
        ctx,
        run_unary,
        "GetTask",
        get_params(task_id, history_length),
        request_id=request_id,
        expect=expect_state,
        wait=wait,
        poll_interval=poll_seconds(poll_interval),
    )


@app.command("list")
@shared.takes_shared
def tasks_list(
    ctx: typer.Context,
    page_size: Annotated[
        int | None,
        typer.Option(
            "--page-size",
            help="Tasks per page (V1 pageSize 1-100; V0 clix limit).",
            show_default=False,
            metavar="N",
            parser=typed(check_page_size, "--page-size"),  # not min/max: Typer shows [1<=x<=100] beside N
        ),
    ] = None,
    page_token: Annotated[
        str | None,
        typer.Option("--page-token", help="Page to fetch (V1 pageToken; V0 clix offset).", show_default=False),
    ] = None,
    context_id: Annotated[
        str | None,
        typer.Option(
            "--context-id",
            help="Only tasks of this context.",
            show_default=False,
            metavar="ID",
            parser=typed(check_id, "--context-id"),
        ),
    ] = None,
    status: Annotated[
        str | None,
        typer.Option(
            "--status",
            help="Only tasks in this state (e.g. working, completed).",
            show_default=False,
            autocompletion=complete_task_states,
        ),
    ] = None,
    history_length: HistoryLength = None,
    include_artifacts: Annotated[
        bool, typer.Option("--include-artifacts", help="Include each task's artifacts.")
    ] = False,
    status_timestamp_after: Annotated[
        str | None,
        typer.Option(
            "--status-timestamp-after",
            help="Only tasks updated at or after this time (RFC 3339, with its offset: 2026-05-01T00:00:00Z).",
            show_default=False,
            metavar="TIME",
            parser=typed(check_timestamp, "--status-timestamp-after"),
        ),
    ] = None,
    all_pages: Annotated[bool, typer.Option("--all", help="Follow every page and print them as one list.")] = False,
    stream: Annotated[
        bool,
        typer.Option(
            "--stream", help="Print each task as its page arrives (JSON Lines under -o json: one Task a line)."
        ),
    ] = False,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Under --a2a-version 0.3, which has no ListTasks: send the binding's extension form anyway (JSON-RPC tasks/list with limit/offset, HTTP+JSON GET /v1/tasks), which some 0.3 agents answer.",
        ),
    ] = False,
    request_id: RequestId = None,
) -> None:
    """List tasks (ListTasks; 0.3 has none: --force, or --dialect clix, sends an extension form).

    Examples:

      a2a tasks list --page-size 20

      a2a tasks list --status working --all -o json | jq -r '.tasks[].id'

      a2a tasks list --all --stream -o json | jq -r .id
    """
    options(ctx)  # resolved first: a bad setting is said before the arguments are read
    from a2acli.flows.tasks import list_params

    params = list_params(
        status=status,
        context_id=context_id,
        page_size=page_size,
        page_token=page_token,
        history_length=history_length,
        status_timestamp_after=status_timestamp_after,
        include_artifacts=include_artifacts,
    )
    run(ctx, run_list_tasks, params, all_pages=all_pages, request_id=request_id, stream=stream, force=force)


@app.command("cancel")
@shared.takes_shared
def tasks_cancel(
    ctx: typer.Context,
    task_id: TaskId,
    metadata: Annotated[
        str | None, typer.Option("--metadata", help="Request metadata: a JSON object, @file or -.", show_default=False)
    ] = None,
    expect_state: ExpectState = None,
    request_id: RequestId = None,
) -> None:
    """Cancel a task (CancelTask / tasks/cancel).

    Example:

      a2a tasks cancel 5f0c… --expect-state canceled
    """
    options(ctx)  # resolved first: a bad setting is said before the arguments are read
    from a2acli.flows.tasks import cancel_params

    params = cancel_params(task_id, metadata)
    run(ctx, run_unary, "CancelTask", params, request_id=request_id, expect=expect_state)


@app.command("subscribe")
@shared.takes_shared
def tasks_subscribe(
    ctx: typer.Context,
    task_id: TaskId,
    poll_interval: Annotated[str, poll_interval_option()] = POLL_INTERVAL,
    force: Annotated[bool, force_option("Subscribe")] = False,
    stream: Annotated[
        bool,
        typer.Option(
            "--stream",
            help="Show each event as it arrives (JSON Lines under -o json); without it, the task as the stream leaves it.",
        ),
    ] = False,
    expect_state: ExpectState = None,
    request_id: RequestId = None,
) -> None:
    """Follow an existing task's events (SubscribeToTask / tasks/resubscribe) until it settles.

    Without --stream, prints the task as the stream leaves it (-o json: one document, the terminal
    Task); with --stream, each event as it arrives (-o json: JSON Lines, one StreamResponse a line).
    If the agent sends a snapshot and closes (some do), a2a polls until the task settles; if the
    stream breaks, it re-subscribes (with Last-Event-ID when the agent gives event ids), then polls.
    When the Agent Card does not claim streaming, the task is polled instead (--force subscribes).

    Examples:

      a2a tasks subscribe 5f0c… -o json

      a2a tasks subscribe 5f0c… --stream -o json | jq -c .
    """
    run(
        ctx,
        run_stream,
        "SubscribeToTask",
        {"id": task_id},
        request_id=request_id,
        expect=expect_state,
        force=force,
        poll_interval=poll_seconds(poll_interval),
        live=stream,
    )


@app.command("download")
@shared.takes_shared
def tasks_download(
    ctx: typer.Context,
    task_id: TaskId,
    directory: Annotated[
        str | None,
        typer.Option(
            "--dir",
            help="Directory to save the files in (created if missing); default: ./TASK_ID/.",
            show_default=False,
        ),
    ] = None,
    overwrite: Annotated[
        bool,
        typer.Option(
            "--overwrite",
            help="Replace files that exist already (without it, a download that would replace one writes nothing, exit 1).",
        ),
    ] = False,
    request_id: RequestId = None,
) -> None:
    """Save a task's artifacts as files (GetTask, then one file per part).

    Text parts become .txt files, data parts .json, file parts their bytes (decoded from `raw`, or fetched from `url` with this command's headers and --timeout; credentials only to the agent's own origin). Names come from the part's filename or the artifact's name and never leave the directory: --dir, or by default one named after the task. An existing file is never replaced without --overwrite.

    Examples:

      a2a tasks download 5f0c… --dir out

      a2a tasks download 5f0c… -o json | jq -r '.files[].path'
    """
    run(ctx, run_download, task_id, directory, request_id=request_id, overwrite=overwrite)


from a2acli.commands import push_configs  # noqa: E402

app.add_typer(
    push_configs.app, name="push-config"
)  # the spec's `a2a task push-config …`, the same as `a2a push-config …`
