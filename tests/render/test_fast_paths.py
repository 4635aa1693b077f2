"""Issue 12: the per-event shortcuts of the render layer give what the long way gives."""

from __future__ import annotations

import io
import json
import re

import pytest

from a2acli.render import output
from a2acli.render.safe import _CONTROL, _CONTROL_LINE, _escape, visible

TEXTS = ["", "plain", "TASK_STATE_WORKING", "tab\there", "two\nlines", "cr\rhere", "esc \x1b[2J", "del \x7f", "c1 \x85", "é accent", "bidi \u202e", "\u2066iso", "emoji 🙂", " ", "~"]


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("one_line", [False, True])
def test_visible_fast_path_is_the_regex(text, one_line):
    assert visible(text, one_line=one_line) == re.compile(_CONTROL_LINE if one_line else _CONTROL).sub(_escape, text)


DOCS = [
    {"statusUpdate": {"taskId": "t-1", "status": {"state": "TASK_STATE_WORKING", "timestamp": "2026-01-01T00:00:00Z"}}},
    {"a": [1, -2, 1.5, 1e300, -0.0, True, False, None], "b": {}, "c": [], "é": 'ü\u2028\x1b"\\/'},
    "a string",
    12,
    None,
    [[], [{}], {"k": [1, {"x": "y"}]}],
]


@pytest.mark.parametrize("doc", DOCS)
def test_json_lines_are_json_dumps(doc):
    buf = io.StringIO()
    output.Output("json", stdout=buf, stderr=io.StringIO()).json(doc, lines=True)
    # issue 42: the line breaks JSON leaves raw (NEL, U+2028, U+2029) are escaped: the same document
    breaks = {"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}
    assert buf.getvalue() == json.dumps(doc, ensure_ascii=False).translate(str.maketrans(breaks)) + "\n"
    assert json.loads(buf.getvalue()) == doc and len(buf.getvalue().splitlines()) == 1


def test_json_lines_refuse_what_json_refuses():
    encode = output._line_encoder()
    with pytest.raises(TypeError):
        "".join(encode({"x": object()}, 0))
