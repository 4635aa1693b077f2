"""Following list pages: every page of ListTasks (V1 pageToken; V0 clix limit/offset) and their merge."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from a2acli.pipeline.session import Call, Reply
from a2acli.wire import Wire
from a2acli.wire.methods import METHODS


def list_pages(call: Call, params: dict[str, Any], request_id: str | None = None) -> Iterator[Reply]:
    """Every page of ListTasks: V1 follows nextPageToken; V0 (clix) steps limit/offset."""
    spec = METHODS["ListTasks"]
    v0 = call.opts.wire is Wire.V0
    if v0 and call.target.binding.info.envelope:  # 0.3 JSON-RPC pages by limit/offset
        params = {"pageSize": 50, **params}
    page = call.unary(spec, params, request_id=request_id)
    yield page
    while True:
        if v0:
            size = int(params.get("pageSize") or 0)
            if not size or len(page.result or []) < size:
                return
            params = {**params, "pageToken": str(int(params.get("pageToken") or 0) + size)}
        else:
            token = (page.core or {}).get("nextPageToken")
            if not token:
                return
            params = {**params, "pageToken": token}
        page = call.unary(spec, params)
        yield page


def merge_pages(call: Call, pages: list[Reply]) -> Reply:
    """The pages of a list as one answer, in the wire's own spelling and in core form."""
    tasks: list[Any] = []
    raw_tasks: list[Any] = []
    for page in pages:
        tasks += (page.core or {}).get("tasks") or []
        raw_tasks += page.result if isinstance(page.result, list) else (page.result or {}).get("tasks") or []
    v0_array = call.opts.wire is Wire.V0 and isinstance(pages[0].result, list)
    merged = raw_tasks if v0_array else {"tasks": raw_tasks, "nextPageToken": "", "totalSize": len(raw_tasks)}
    return Reply(merged, {"tasks": tasks, "nextPageToken": ""}, b"", None)
