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


# -- a stream event's data (text): envelope.loads_event reads the usual one in one call ---------------


@pytest.mark.parametrize("data", ['{"a": 1}', ' {"a": 1}', '{"a": 1}\n', '\t{"a": 1} \r\n', '\ufeff{"a": 1}'])
def test_an_event_reads_as_json_loads_reads_it_whitespace_around_it_included(data):
    try:
        want = json.loads(data.encode())
    except ValueError:
        with pytest.raises(InvalidResponseError, match="not JSON"):
            envelope.loads_event(data)
        return
    assert envelope.loads_event(data) == want


@pytest.mark.parametrize("data", ['{"a": 1} {"b": 2}', '{"a": 1}x', "", "   ", "not json", '{"a": '])
def test_an_event_that_is_not_one_json_document_is_refused_naming_what_came(data):
    with pytest.raises(InvalidResponseError, match="stream event is (not JSON|empty)"):
        envelope.loads_event(data)


def test_an_event_nested_past_the_limit_is_refused_as_too_deep():
    with pytest.raises(InvalidResponseError, match="stream event is JSON nested too deeply"):
        envelope.loads_event(nested(envelope.MAX_DEPTH + 1).decode())
    assert envelope.loads_event(nested(envelope.MAX_DEPTH).decode())["a"] == json.loads(nested(envelope.MAX_DEPTH))["a"]
