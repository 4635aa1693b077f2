"""RFC 8785 (JCS) canonicalization, checked against the RFC's own examples, and the pure parts
of Agent Card signature verification (wire/signing.py)."""

from __future__ import annotations

import json
import struct

import pytest

from a2acli.wire import signing

# RFC 8785 Appendix B: IEEE 754 doubles (hex) and their canonical text
NUMBERS = [
    ("0000000000000000", "0"),
    ("8000000000000000", "0"),
    ("0000000000000001", "5e-324"),
    ("8000000000000001", "-5e-324"),
    ("7fefffffffffffff", "1.7976931348623157e+308"),
    ("ffefffffffffffff", "-1.7976931348623157e+308"),
    ("4340000000000000", "9007199254740992"),
    ("c340000000000000", "-9007199254740992"),
    ("4430000000000000", "295147905179352830000"),
    ("44b52d02c7e14af5", "9.999999999999997e+22"),
    ("44b52d02c7e14af6", "1e+23"),
    ("44b52d02c7e14af7", "1.0000000000000001e+23"),
    ("444b1ae4d6e2ef4e", "999999999999999700000"),
    ("444b1ae4d6e2ef4f", "999999999999999900000"),
    ("444b1ae4d6e2ef50", "1e+21"),
    ("3eb0c6f7a0b5ed8c", "9.999999999999997e-7"),
    ("3eb0c6f7a0b5ed8d", "0.000001"),
    ("41b3de4355555553", "333333333.3333332"),
    ("41b3de4355555554", "333333333.33333325"),
    ("41b3de4355555555", "333333333.3333333"),
    ("41b3de4355555556", "333333333.3333334"),
    ("41b3de4355555557", "333333333.33333343"),
    ("becbf647612f3696", "-0.0000033333333333333333"),
    ("43143ff3c1cb0959", "1424953923781206.2"),
]


@pytest.mark.spec("A2ACLI_CARD_GET_004")
@pytest.mark.parametrize(("bits", "text"), NUMBERS)
def test_numbers_are_written_as_ecmascript_writes_them(bits, text):
    value = struct.unpack(">d", bytes.fromhex(bits))[0]
    assert signing.canonicalize(value) == text.encode()


def test_integers_beyond_2_53_are_doubles():
    assert signing.canonicalize(12) == b"12"
    assert signing.canonicalize(-7) == b"-7"
    assert signing.canonicalize(2**70) == b"1.1805916207174113e+21"


@pytest.mark.spec("A2ACLI_CARD_GET_004")
def test_rfc8785_section_3_2_2_example():
    text = '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001], "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/", "literals": [null, true, false]}'
    expected = '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}'
    assert signing.canonicalize(json.loads(text)) == expected.encode()


@pytest.mark.spec("A2ACLI_CARD_GET_004")
def test_rfc8785_section_3_2_3_members_sort_by_utf16_code_units():
    doc = json.loads(
        '{"\\u20ac": "Euro Sign", "\\r": "Carriage Return", "\\ufb33": "Hebrew Letter Dalet With Dagesh", "1": "One", "\\ud83d\\ude00": "Emoji: Grinning Face", "\\u0080": "Control", "\\u00f6": "Latin Small Letter O With Diaeresis"}'
    )
    values = list(json.loads(signing.canonicalize(doc)).values())
    assert values == ["Carriage Return", "One", "Control", "Latin Small Letter O With Diaeresis", "Euro Sign", "Emoji: Grinning Face", "Hebrew Letter Dalet With Dagesh"]


def test_nested_objects_sorted_and_unicode_kept_as_utf8():
    assert signing.canonicalize({"b": [1, {"z": "é", "a": None}], "a": "\u2028"}) == '{"a":"\u2028","b":[1,{"a":null,"z":"é"}]}'.encode()


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), {1: 2}])
def test_what_is_no_json_is_refused(bad):
    with pytest.raises(ValueError):
        signing.canonicalize(bad)


def test_payload_leaves_out_signatures_and_tries_the_pruned_form():
    card = {"name": "x", "skills": [], "signatures": [{"protected": "e30", "signature": "AA"}]}
    assert signing.payloads(card) == [b'{"name":"x","skills":[]}', b'{"name":"x"}']
    assert signing.payloads({"name": "x"}) == [b'{"name":"x"}']


def _entry(header: dict, sig: bytes = b"\x01") -> dict:
    return {"protected": signing.b64url_encode(json.dumps(header).encode()), "signature": signing.b64url_encode(sig)}


def test_parse_signature_reads_alg_kid_and_where_the_key_is():
    sig = signing.parse_signature({**_entry({"alg": "ES256", "jku": "https://k/jwks.json"}), "header": {"kid": "k1"}})
    assert (sig.alg, sig.kid, sig.jku, sig.signature) == ("ES256", "k1", "https://k/jwks.json", b"\x01")
    assert sig.signing_input(b"{}") == sig.protected.encode() + b".e30"


@pytest.mark.parametrize(
    ("entry", "reason"),
    [
        ("x", "not an object"),
        ({"signature": "AA"}, "`protected` is missing"),
        ({"protected": "e30=", "signature": "AA"}, "unpadded base64url"),
        ({"protected": "e3!0", "signature": "AA"}, "unpadded base64url"),
        ({"protected": signing.b64url_encode(b"[1]"), "signature": "AA"}, "not a JSON object"),
        (_entry({"kid": "k"}), "no `alg`"),
        ({**_entry({"alg": "ES256", "kid": "a"}), "header": {"kid": "b"}}, "both set"),
        (_entry({"alg": "ES256", "crit": ["b64"]}), "critical"),
    ],
)
def test_unreadable_signatures_say_why(entry, reason):
    with pytest.raises(signing.SignatureProblem, match=reason):
        signing.parse_signature(entry)


def test_algorithms():
    assert signing.algorithm_problem("ES256") is None and signing.algorithm_problem("EdDSA") is None
    assert "none" in (signing.algorithm_problem("none") or "")
    assert "HS256" in (signing.algorithm_problem("HS256") or "")


def test_choose_key_by_kid_and_type():
    ec = {"kty": "EC", "crv": "P-256", "kid": "e", "x": "", "y": ""}
    rsa = {"kty": "RSA", "kid": "r", "n": "", "e": ""}
    jwks = {"keys": [ec, rsa]}
    assert signing.choose_key(jwks, "e", "ES256") == ec
    assert signing.choose_key(jwks, "r", "PS256") == rsa
    assert "no key with kid 'z'" in signing.choose_key(jwks, "z", "ES256")
    assert "not a EC signing key" in signing.choose_key(jwks, "r", "ES256")
    assert signing.choose_key({"keys": [ec]}, "", "ES256") == ec
    assert "several keys" in signing.choose_key({"keys": [ec, {**ec, "kid": "f"}]}, "", "ES256")
    assert "no `keys`" in signing.choose_key([], "e", "ES256")
    assert "no key" in signing.choose_key({"keys": [{**ec, "use": "enc"}]}, "", "ES256")  # an encryption key signs nothing
    assert "no key" in signing.choose_key({"keys": [ec]}, "", "ES384")  # a P-256 key is no ES384 key


def test_jku_must_be_https_or_loopback():
    from a2acli.net import is_loopback

    assert signing.jku_problem("https://agent.example/jwks.json", is_loopback) is None
    assert signing.jku_problem("http://127.0.0.1:8000/jwks.json", is_loopback) is None
    assert "https" in (signing.jku_problem("http://agent.example/jwks.json", is_loopback) or "")
    assert "https" in (signing.jku_problem("file:///etc/passwd", is_loopback) or "")


def test_combine_prefers_verified_then_invalid():
    v, i, u = signing.Outcome("verified", kid="a"), signing.Outcome("invalid", kid="b"), signing.Outcome("unverifiable", kid="c")
    assert signing.combine([u, i, v]) == v
    assert signing.combine([u, i]) == i
    assert signing.combine([u]) == u
    assert signing.combine([]).status == "absent"


def test_pruning_drops_what_the_official_sdk_signer_drops():
    card = {"name": "x", "a": {"b": "", "c": [None, "", {}, 0, False]}, "d": [], "e": None}
    assert signing.payloads(card)[1] == b'{"a":{"c":[0,false]},"name":"x"}'


json_values = None
try:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    scalars = st.none() | st.booleans() | st.integers(min_value=-(2**53 - 1), max_value=2**53 - 1) | st.floats(allow_nan=False, allow_infinity=False) | st.text()
    json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=20)
except ImportError:  # pragma: no cover
    pass


@pytest.mark.skipif(json_values is None, reason="hypothesis not installed")
def test_canonical_form_agrees_with_the_official_python_sdk():
    """A second implementation of RFC 8785 (a2a-sdk's, used by its card signer) writes the same bytes."""
    sdk = pytest.importorskip("a2a.utils._jcs")

    @settings(max_examples=300, derandomize=True, deadline=None, database=None)
    @given(json_values)
    def agree(value):
        assert signing.canonicalize(value) == sdk.canonicalize(value).encode("utf-8")

    agree()
