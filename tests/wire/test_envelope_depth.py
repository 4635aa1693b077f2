"""One depth rule on every Python: from 3.13 `json.loads` reads JSON nested thousands deep (before,
its C scanner raised RecursionError near 1,000), so wire.envelope checks the depth itself."""

from __future__ import annotations

import json

import pytest

from a2acli.errors import InvalidResponseError
from a2acli.wire import envelope


def nested(depth: int) -> bytes:
    return b'{"a": ' + b"[" * (depth - 1) + b"]" * (depth - 1) + b"}"


def test_an_answer_nested_past_the_limit_is_refused_as_too_deep():
    with pytest.raises(InvalidResponseError, match="nested too deeply"):
        envelope.loads(nested(envelope.MAX_DEPTH + 1))


def test_an_answer_at_the_limit_is_read():
    assert envelope.loads(nested(envelope.MAX_DEPTH))["a"] == json.loads(nested(envelope.MAX_DEPTH))["a"]


def test_many_brackets_side_by_side_are_not_depth():
    wide = json.dumps({"items": [[] for _ in range(5 * envelope.MAX_DEPTH)]}).encode()
    assert len(envelope.loads(wide)["items"]) == 5 * envelope.MAX_DEPTH
    assert not envelope.too_deep(wide, json.loads(wide))
