"""envelope.pretty: the formatted JSON of data parts, metadata and -o json documents, written
without the stdlib's indenting encoder (whose closures leave cyclic garbage on every call)."""

from __future__ import annotations

import gc
import json
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from a2acli.wire.envelope import pretty

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck), database=None)
@given(JSON)
def test_the_same_bytes_as_json_dumps_with_indent(value):
    assert pretty(value) == json.dumps(value, ensure_ascii=False, indent=2)


def test_keys_that_are_not_strings_are_spelled_as_json_spells_them():
    value = {3: "a", 2.5: [], None: {}, True: [1, {"x": None}]}  # (not 1: True would be the same key)
    assert pretty(value) == json.dumps(value, ensure_ascii=False, indent=2)


def test_it_leaves_no_cyclic_garbage():
    doc = {"skill": "create-user", "fields": [1, 2, {"nested": ["a", {"b": None}]}]}
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(50):
            pretty(doc)
        assert gc.collect() == 0
        for _ in range(50):
            json.dumps(doc, indent=2)
        if sys.version_info < (3, 13):  # the cost pretty() avoids: the indenting encoder's closures leave
            assert gc.collect() > 0  # cycles up to Python 3.12 (3.13's encoder leaves none)
    finally:
        if was:
            gc.enable()
