"""pipeline.policies.paging: every page of ListTasks (1.0 follows nextPageToken; 0.3 under the
clix dialect steps limit/offset) and the pages merged into one answer. Over respx."""

from __future__ import annotations

from typing import Any

import pytest
from pipeline_kit import RPC, rpc_answers, sent

from a2acli.pipeline.policies import list_pages, merge_pages
from a2acli.wire import Wire


def v1_task(n: int) -> dict[str, Any]:
    return {"id": f"t-{n}", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}


def v0_task(n: int) -> dict[str, Any]:
    return {"kind": "task", "id": f"t-{n}", "contextId": "c-1", "status": {"state": "completed"}}


def v1_page(first: int, count: int, token: str | None) -> dict[str, Any]:
    page: dict[str, Any] = {
        "tasks": [v1_task(n) for n in range(first, first + count)],
        "pageSize": count,
        "totalSize": 5,
    }
    if token is not None:
        page["nextPageToken"] = token
    return page


@pytest.mark.parametrize("last_token", ["", None])  # an empty token, or none at all, ends the list
def test_1_0_follows_next_page_token_until_there_is_none(mock, make_call, last_token):
    rpc = mock.post(RPC).mock(
        side_effect=rpc_answers(v1_page(1, 2, "p2"), v1_page(3, 2, "p3"), v1_page(5, 1, last_token))
    )
    c = make_call(endpoint=RPC)
    pages = list(list_pages(c, {"contextId": "c-1", "pageSize": 2}))
    assert len(pages) == 3
    assert [b["params"] for b in sent(rpc)] == [
        {"contextId": "c-1", "pageSize": 2},
        {"contextId": "c-1", "pageSize": 2, "pageToken": "p2"},
        {"contextId": "c-1", "pageSize": 2, "pageToken": "p3"},
    ]
    assert [t["id"] for p in pages for t in p.core["tasks"]] == ["t-1", "t-2", "t-3", "t-4", "t-5"]


def test_one_page_is_one_call(mock, make_call):
    rpc = mock.post(RPC).mock(side_effect=rpc_answers(v1_page(1, 1, "")))
    assert len(list(list_pages(make_call(endpoint=RPC), {}))) == 1 and rpc.call_count == 1


def test_the_request_id_goes_with_the_first_page_only(mock, make_call):
    rpc = mock.post(RPC).mock(side_effect=rpc_answers(v1_page(1, 1, "p2"), v1_page(2, 1, "")))
    list(list_pages(make_call(endpoint=RPC), {}, request_id="my-id"))
    first, second = sent(rpc)
    assert first["id"] == "my-id" and second["id"] != "my-id"


def test_pages_are_asked_for_as_they_are_read(mock, make_call):
    rpc = mock.post(RPC).mock(side_effect=rpc_answers(v1_page(1, 1, "p2"), v1_page(2, 1, "")))
    pages = list_pages(make_call(endpoint=RPC), {})
    next(pages)
    assert rpc.call_count == 1  # a reader that stops after a page costs no more calls


def test_0_3_steps_limit_and_offset_in_pages_of_50(mock, make_call):
    rpc = mock.post(RPC).mock(
        side_effect=rpc_answers([v0_task(n) for n in range(50)], [v0_task(n) for n in range(50, 70)])
    )
    c = make_call(endpoint=RPC, wire=Wire.V0, dialect_name="clix")
    pages = list(list_pages(c, {}))
    assert len(pages) == 2
    assert [b["method"] for b in sent(rpc)] == ["tasks/list", "tasks/list"]
    assert [b["params"] for b in sent(rpc)] == [{"limit": 50}, {"limit": 50, "offset": 50}]


def test_0_3_a_full_last_page_costs_one_empty_page(mock, make_call):
    rpc = mock.post(RPC).mock(side_effect=rpc_answers([v0_task(1), v0_task(2)], []))
    c = make_call(endpoint=RPC, wire=Wire.V0, dialect_name="clix")
    assert len(list(list_pages(c, {"pageSize": 2}))) == 2
    assert [b["params"] for b in sent(rpc)] == [{"limit": 2}, {"limit": 2, "offset": 2}]


def test_merged_1_0_pages_are_one_answer_with_no_next_page(mock, make_call):
    mock.post(RPC).mock(side_effect=rpc_answers(v1_page(1, 2, "p2"), v1_page(3, 1, "")))
    c = make_call(endpoint=RPC)
    merged = merge_pages(c, list(list_pages(c, {})))
    assert [t["id"] for t in merged.core["tasks"]] == ["t-1", "t-2", "t-3"] and merged.core["nextPageToken"] == ""
    assert merged.result["totalSize"] == 3 and merged.result["nextPageToken"] == ""
    assert [t["id"] for t in merged.result["tasks"]] == ["t-1", "t-2", "t-3"]


def test_merged_0_3_pages_stay_an_array_as_the_wire_spelt_them(mock, make_call):
    mock.post(RPC).mock(side_effect=rpc_answers([v0_task(1), v0_task(2)], [v0_task(3)]))
    c = make_call(endpoint=RPC, wire=Wire.V0, dialect_name="clix")
    merged = merge_pages(c, list(list_pages(c, {"pageSize": 2})))
    assert [t["id"] for t in merged.result] == ["t-1", "t-2", "t-3"]
    assert merged.result[0]["status"]["state"] == "completed"  # the wire's own spelling
    assert [t["status"]["state"] for t in merged.core["tasks"]] == ["TASK_STATE_COMPLETED"] * 3
