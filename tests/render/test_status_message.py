"""A2ACLI_OUT_005: `Status message` has one form in the text floor: a block holding the message's
parts (text as it is, data as formatted JSON, a file by name), whatever its parts and the detail
level; --verbose adds the message's id and role as fields of their own before it."""

from __future__ import annotations

import io

import pytest
from a2a_testkit import assert_floor, floor_block

from a2acli.render.output import Output
from a2acli.render.present import present

TEXT_ONLY = {"messageId": "m-1", "role": "ROLE_AGENT", "parts": [{"text": "Which colour?"}]}
MIXED = {"messageId": "m-2", "role": "ROLE_AGENT", "parts": [{"text": "Need a key"}, {"data": {"name": "X-API-Key"}}, {"url": "https://x.test/f", "filename": "f.txt", "mediaType": "text/plain"}]}


class Reply:
    def __init__(self, core):
        self.core, self.result, self.raw, self.exchange = core, core, b"", None


def shown(message: dict, *, verbose: bool) -> str:
    buf = io.StringIO()
    out = Output("text", stdout=buf, stderr=io.StringIO(), verbose=verbose)
    present("task", Reply({"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_INPUT_REQUIRED", "message": message}}), out)
    return buf.getvalue()


@pytest.mark.spec("A2ACLI_OUT_005")
@pytest.mark.parametrize("verbose", [False, True])
def test_status_message_is_always_one_block(verbose):
    text = shown(TEXT_ONLY, verbose=verbose)
    assert floor_block(text, "Status message") == ["Which colour?"]
    mixed = shown(MIXED, verbose=verbose)
    assert floor_block(mixed, "Status message") == ['Need a key\n{\n  "name": "X-API-Key"\n}\nfile f.txt (text/plain) at https://x.test/f']
    for t in (text, mixed):
        labels = assert_floor(t)
        assert "Role" not in labels and "Text" not in labels and "Data" not in labels  # never a line followed by the message's own fields
        assert ("Status message ID" in labels and "Status message role" in labels) is verbose
    if verbose:
        assert "Status message ID: m-2\nStatus message role: agent\nStatus message:\n" in mixed
