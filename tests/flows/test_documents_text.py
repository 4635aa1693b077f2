"""Issue 43: `a2a translate`'s work is a flow (flows.documents.translate_text, read_document), called
here headless: no CLI runner."""

from __future__ import annotations

import io

import pytest

from a2acli.errors import UsageError
from a2acli.flows.documents import read_document, translate_text

V0_TASK = '{"kind":"task","id":"t-1","contextId":"c-1","status":{"state":"completed"}}'


def test_one_document_is_translated_to_the_other_version_and_said_what_it_was():
    notes: list[str] = []
    done = translate_text(V0_TASK, "standard input", None, None, notes.append)
    assert done.events is None
    assert done.document["status"]["state"] == "TASK_STATE_COMPLETED" and "kind" not in done.document
    assert notes and "Task" in notes[0]


def test_sse_text_is_translated_event_by_event():
    text = "event: status\ndata: " + '{"jsonrpc":"2.0","id":1,"result":' + V0_TASK + "}\n\n"
    done = translate_text(text, "standard input", "v1", None, lambda _: None)
    assert done.document is None and done.events is not None and [name for name, _ in done.events] == ["status"]
    assert done.events[0][1]["result"]["task"]["id"] == "t-1"


def test_bad_input_is_a_usage_error_naming_where_it_came_from():
    with pytest.raises(UsageError, match="standard input is not valid JSON"):
        translate_text("{nope", "standard input", "v1", None, lambda _: None)
    with pytest.raises(UsageError, match="holds no SSE data"):
        translate_text(":\n\n", "x.sse", "v1", None, lambda _: None)


def test_a_document_is_read_from_a_file_or_a_pipe_never_from_a_terminal(tmp_path):
    (tmp_path / "t.json").write_text(V0_TASK, encoding="utf-8")
    assert read_document(str(tmp_path / "t.json"), io.StringIO()) == (V0_TASK, str(tmp_path / "t.json"))
    assert read_document("-", io.StringIO("piped")) == ("piped", "standard input")

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    with pytest.raises(UsageError, match="no document given"):
        read_document(None, Terminal())
    with pytest.raises(UsageError, match="no such file"):
        read_document(str(tmp_path / "missing.json"), io.StringIO())
