from __future__ import annotations

import pytest

from a2acli.wire.translate import to_compat_part, to_core_part

FLAG = {"data_part_compat": True}

# Lossless (V1, V0) pairs: each translates exactly into the other.
PAIRS = {
    "text": ({"text": "hi"}, {"kind": "text", "text": "hi"}),
    "text+metadata": ({"text": "hi", "metadata": {"k": 1}}, {"kind": "text", "text": "hi", "metadata": {"k": 1}}),
    "raw": (
        {"raw": "aGk=", "mediaType": "image/png", "filename": "a.png"},
        {"kind": "file", "file": {"bytes": "aGk=", "mimeType": "image/png", "name": "a.png"}},
    ),
    "url": (
        {"url": "https://x/a.pdf", "mediaType": "application/pdf"},
        {"kind": "file", "file": {"uri": "https://x/a.pdf", "mimeType": "application/pdf"}},
    ),
    "url bare": ({"url": "https://x/a"}, {"kind": "file", "file": {"uri": "https://x/a"}}),
    "file+metadata": (
        {"raw": "aGk=", "metadata": {"k": "v"}},
        {"kind": "file", "file": {"bytes": "aGk="}, "metadata": {"k": "v"}},
    ),
    "data object": ({"data": {"skill": "x"}}, {"kind": "data", "data": {"skill": "x"}}),
    "data list": ([1, 2], None),
    "data string": ("s", None),
    "data number": (4.5, None),
    "data null": (None, None),
    "data list+metadata": ({"data": [1], "metadata": {"k": 1}},
                           {"kind": "data", "data": {"value": [1]}, "metadata": {"k": 1, "data_part_compat": True}}),
}
# non-object data: V0 wraps it as {"value": X} and flags the metadata
for _name in ("data list", "data string", "data number", "data null"):
    _x = PAIRS[_name][0]
    PAIRS[_name] = ({"data": _x}, {"kind": "data", "data": {"value": _x}, "metadata": FLAG})

CASES = list(PAIRS.values())
IDS = list(PAIRS)


@pytest.mark.parametrize(("v1", "v0"), CASES, ids=IDS)
def test_to_compat(tr, v1, v0):
    assert tr(to_compat_part, v1) == (v0, [])


@pytest.mark.parametrize(("v1", "v0"), CASES, ids=IDS)
def test_to_core(tr, v1, v0):
    assert tr(to_core_part, v0) == (v1, [])


@pytest.mark.parametrize(("v1", "v0"), CASES, ids=IDS)
def test_round_trips_and_idempotence(v1, v0):
    assert to_core_part(to_compat_part(v1)) == v1
    assert to_compat_part(to_core_part(v0)) == v0
    assert to_core_part(v1) == v1
    assert to_compat_part(v0) == v0


@pytest.mark.parametrize(
    ("v1", "v0", "note"),
    [
        ({"text": "# hi", "mediaType": "text/markdown"}, {"kind": "text", "text": "# hi"},
         "text part: mediaType 'text/markdown' dropped (V0 text parts have neither)"),
        ({"text": "hi", "filename": "a.txt"}, {"kind": "text", "text": "hi"},
         "text part: filename 'a.txt' dropped (V0 text parts have neither)"),
        ({"data": {"a": 1}, "mediaType": "application/json"}, {"kind": "data", "data": {"a": 1}},
         "data part: mediaType 'application/json' dropped (V0 data parts have neither)"),
    ],
)
def test_lossy_to_compat_is_noted(tr, v1, v0, note):
    assert tr(to_compat_part, v1) == (v0, [note])


def test_empty_defaults_are_dropped_silently(tr):
    assert tr(to_compat_part, {"text": "hi", "mediaType": ""}) == ({"kind": "text", "text": "hi"}, [])
    assert tr(to_compat_part, {"url": "u", "mediaType": "", "filename": ""}) == (
        {"kind": "file", "file": {"uri": "u"}}, [])


@pytest.mark.parametrize(
    ("lenient", "v1"),
    [
        ({"kind": "text", "text": "hi"}, {"text": "hi"}),  # stray kind on a V1 part
        ({"raw": "aGk=", "media_type": "image/png"}, {"raw": "aGk=", "mediaType": "image/png"}),
        ({"kind": "file", "file": {"fileWithBytes": "aGk=", "mime_type": "a/b"}}, {"raw": "aGk=", "mediaType": "a/b"}),
        ({"kind": "file", "file": {"fileWithUri": "u"}}, {"url": "u"}),
        ({"text": "hi", "x_vendor": 1}, {"text": "hi", "x_vendor": 1}),  # unknown keys kept as spelt
        ({"kind": "file", "file": {"uri": "u", "size": 3}}, {"url": "u", "size": 3}),
        ({"kind": "data", "data": {"value": 1}, "metadata": {"data_part_compat": True, "k": 2}},
         {"data": 1, "metadata": {"k": 2}}),
        ({"kind": "data", "data": {"value": 1}}, {"data": {"value": 1}}),  # no flag: an ordinary object
    ],
)
def test_lenient_to_core(tr, lenient, v1):
    assert tr(to_core_part, lenient) == (v1, [])


def test_unknown_keys_kept_to_compat(tr):
    assert tr(to_compat_part, {"url": "u", "x": 1}) == ({"kind": "file", "file": {"uri": "u"}, "x": 1}, [])
    assert tr(to_compat_part, {"kind": "file", "file": {"fileWithUri": "u"}}) == (
        {"kind": "file", "file": {"uri": "u"}}, [])


@pytest.mark.parametrize("fn", [to_core_part, to_compat_part])
def test_not_a_part(tr, fn):
    assert tr(fn, "hi") == ("hi", ["part: expected an object, got a string; left unchanged"])


def test_part_without_content_is_noted(tr):
    out, notes = tr(to_compat_part, {"metadata": {}})
    assert out == {"metadata": {}}
    assert notes == ["part: no text, raw, url, data or file content (keys ['metadata']); left unchanged"]
