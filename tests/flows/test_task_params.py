"""flows.tasks: the params of the task and push-config methods, from typed arguments (what
`a2a tasks get|cancel` and `a2a push-config list` send), built with no CLI runner."""

from __future__ import annotations

import io

import pytest

from a2acli.errors import UsageError
from a2acli.flows import tasks


def test_get_params_carry_the_history_length_only_when_given():
    assert tasks.get_params("t-1") == {"id": "t-1"}
    assert tasks.get_params("t-1", 0) == {"id": "t-1", "historyLength": 0}


def test_cancel_params_read_metadata_from_json_a_file_or_stdin(tmp_path, monkeypatch):
    assert tasks.cancel_params("t-1") == {"id": "t-1"}
    assert tasks.cancel_params("t-1", '{"why": "done"}') == {"id": "t-1", "metadata": {"why": "done"}}
    meta = tmp_path / "meta.json"
    meta.write_text('{"from": "file"}')
    assert tasks.cancel_params("t-1", f"@{meta}")["metadata"] == {"from": "file"}
    monkeypatch.setattr("sys.stdin", io.StringIO('{"from": "stdin"}'))
    assert tasks.cancel_params("t-1", "-")["metadata"] == {"from": "stdin"}
    with pytest.raises(UsageError, match="--metadata"):
        tasks.cancel_params("t-1", "[1, 2]")


def test_push_list_params_carry_the_page_only_when_given():
    assert tasks.push_list_params("t-1") == {"taskId": "t-1"}
    assert tasks.push_list_params("t-1", 5, "p2") == {"taskId": "t-1", "pageSize": 5, "pageToken": "p2"}
    assert tasks.push_list_params("t-1", None, "") == {"taskId": "t-1"}
