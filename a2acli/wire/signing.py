"""Agent Card signatures (A2A §8.4; official CLI spec §8.1, A2ACLI_CARD_GET_004), the pure part:
RFC 8785 (JCS) canonicalization, the parts of each JWS in `signatures`, the signing input, the
key a JWK Set offers for a kid, and what an outcome says. No I/O, no crypto: the caller
(transport/signature.py) fetches a `jku` and checks the signature with `cryptography`.

A2A §8.4: each entry of `signatures` is a JWS (RFC 7515) in the flattened JSON form with a
detached payload: `protected` (base64url of the JSON protected header: `alg`, `kid`, and where
the key is: `jku`, the URL of a JWK Set, or an inline `jwk`), `signature` (base64url), and an
optional unprotected `header`. The payload is the card canonicalized per RFC 8785 with the
`signatures` member removed; the signing input is `protected + "." + base64url(payload)`."""

from __future__ import annotations

import json
import math
import re
from typing import Any, NamedTuple

VERIFIED, UNVERIFIABLE, INVALID, ABSENT = "verified", "unverifiable", "invalid", "absent"
OUTCOMES = (VERIFIED, UNVERIFIABLE, INVALID, ABSENT)

# alg -> (key type, hash name, EC curve or None); EdDSA's curve comes from the key (Ed25519)
ALGORITHMS: dict[str, tuple[str, str, str | None]] = {
    "ES256": ("EC", "SHA256", "P-256"),
    "ES384": ("EC", "SHA384", "P-384"),
    "ES512": ("EC", "SHA512", "P-521"),
    "RS256": ("RSA", "SHA256", None),
    "RS384": ("RSA", "SHA384", None),
    "RS512": ("RSA", "SHA512", None),
    "PS256": ("RSA", "SHA256", None),
    "PS384": ("RSA", "SHA384", None),
    "PS512": ("RSA", "SHA512", None),
    "EdDSA": ("OKP", "", None),
}
_B64URL = r"[A-Za-z0-9_-]+"  # compiled on first use (re's cache): a card fetch loads this module


class Outcome(NamedTuple):
    """What verifying a card's signatures found. `status`: verified (a signature checks out
    against its key), invalid (a key was found and the signature does not match it: the card
    may have been altered), unverifiable (no verdict: no key, an algorithm not supported, the
    key set unreachable), absent (the card is not signed: no failure, A2A makes signing
    optional)."""

    status: str
    reason: str = ""
    kid: str = ""
    alg: str = ""
    key_source: str = ""  # the jku URL, or "jwk in the protected header"
    hint: str = ""


ABSENT_OUTCOME = Outcome(ABSENT)


class SignatureProblem(Exception):
    """A signature entry that cannot be read (not the outcome invalid: nothing was checked)."""


def b64url_decode(text: Any, what: str) -> bytes:
    import base64  # (here, not at the top: `a2a card fetch` of an unsigned card loads this module)
    import binascii

    if not isinstance(text, str) or not text:
        raise SignatureProblem(f"`{what}` is missing or not a string")
    if not re.fullmatch(_B64URL, text):
        raise SignatureProblem(f"`{what}` is not unpadded base64url")
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise SignatureProblem(f"`{what}` is not base64url") from None


def b64url_encode(data: bytes) -> str:
    import base64

    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


# -- RFC 8785: JSON Canonicalization Scheme ---------------------------------------------------
def canonicalize(value: Any) -> bytes:
    """The RFC 8785 form of a JSON value: no whitespace, members sorted by their UTF-16 code
    units, numbers as ECMAScript writes them, strings with the minimal escapes; UTF-8."""
    return _jcs(value).encode("utf-8")  # a lone surrogate fails here (UnicodeEncodeError): no valid JSON text


def _jcs(value: Any) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return _number(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # the escapes JCS keeps: \" \\ \b \f \n \r \t, \u00xx
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_jcs(v) for v in value) + "]"
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise ValueError("JSON object keys must be strings")
        keys = sorted(value, key=lambda k: k.encode("utf-16-be", "surrogatepass"))
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + _jcs(value[k]) for k in keys) + "}"
    raise ValueError(f"not a JSON value: {type(value).__name__}")


def _number(x: int | float) -> str:
    """ECMAScript's Number.prototype.toString of an IEEE 754 double (RFC 8785 §3.2.2.3)."""
    if isinstance(x, int):
        if abs(x) < 2**53:
            return str(x)
        x = float(x)
    if math.isnan(x) or math.isinf(x):
        raise ValueError("NaN and Infinity are not JSON numbers")
    if x == 0:
        return "0"  # -0 too
    sign = "-" if x < 0 else ""
    mantissa, _, exp = repr(abs(x)).partition("e")  # repr: the shortest digits that round-trip, as ES
    whole, _, frac = mantissa.partition(".")
    raw = (whole + frac).lstrip("0")
    digits = raw.rstrip("0")
    k = len(digits)
    n = int(exp or 0) - len(frac) + (len(raw) - k) + k  # value = 0.digits × 10^n
    if k <= n <= 21:
        out = digits + "0" * (n - k)
    elif 0 < n <= 21:
        out = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        out = "0." + "0" * -n + digits
    else:
        e = n - 1
        out = (digits if k == 1 else digits[0] + "." + digits[1:]) + "e" + ("+" if e >= 0 else "-") + str(abs(e))
    return sign + out


def _pruned(value: Any) -> Any:
    """The value without nulls, empty strings, and objects and arrays that are empty once pruned
    (members and elements alike), or None when nothing is left: how a signer that omits default
    values (A2A §8.4.1; the official Python SDK's signer) saw a card a server spells with them."""
    if isinstance(value, dict):
        kept = {k: p for k, v in value.items() if (p := _pruned(v)) is not None}
        return kept or None
    if isinstance(value, list):
        items = [p for v in value if (p := _pruned(v)) is not None]
        return items or None
    return None if value == "" else value


def payloads(card: dict[str, Any]) -> list[bytes]:
    """What the signature may cover, in the order tried: the card as served minus `signatures`,
    canonicalized; then the same with empty and null members left out (when that differs)."""
    body = {k: v for k, v in card.items() if k != "signatures"}
    first = canonicalize(body)
    second = canonicalize(_pruned(body) or {})
    return [first] if second == first else [first, second]


# -- the JWS parts ----------------------------------------------------------------------------
class Signature(NamedTuple):
    protected: str  # as given (base64url): part of the signing input
    header: dict[str, Any]  # the protected header, then unprotected members it does not set
    signature: bytes
    alg: str
    kid: str
    jku: str
    jwk: dict[str, Any] | None

    def signing_input(self, payload: bytes) -> bytes:
        return self.protected.encode("ascii") + b"." + b64url_encode(payload).encode("ascii")


def b64url_json_object(text: Any, what: str, name: str) -> dict[str, Any]:
    """A base64url JSON object (a JWS header or payload); SignatureProblem naming `what` otherwise."""
    try:
        value = json.loads(b64url_decode(text, name))
    except (ValueError, UnicodeDecodeError):
        raise SignatureProblem(f"{what} is not JSON") from None
    if not isinstance(value, dict):
        raise SignatureProblem(f"{what} is not a JSON object")
    return value


def parse_signature(entry: Any) -> Signature:
    """One `signatures` entry read (SignatureProblem when it cannot be)."""
    if not isinstance(entry, dict):
        raise SignatureProblem("the entry is not an object with `protected` and `signature`")
    protected = entry.get("protected")
    head = b64url_json_object(protected, "the protected header", "protected")
    sig = b64url_decode(entry.get("signature"), "signature")
    given = entry.get("header")
    unprotected: dict[str, Any] = given if isinstance(given, dict) else {}
    if set(head) & set(unprotected):
        raise SignatureProblem(
            f"the protected and unprotected headers both set {sorted(set(head) & set(unprotected))} (RFC 7515 §7.2.1)"
        )
    if "crit" in head:
        raise SignatureProblem(f"the header marks extensions critical ({head['crit']!r}); none is understood")
    alg = head.get("alg")
    if not isinstance(alg, str) or not alg:
        raise SignatureProblem("the protected header names no `alg`")
    merged = {**unprotected, **head}
    kid, jku, jwk = merged.get("kid"), head.get("jku"), head.get("jwk")  # where the key is: protected only
    return Signature(
        str(protected),
        merged,
        sig,
        alg,
        kid if isinstance(kid, str) else "",
        jku if isinstance(jku, str) else "",
        jwk if isinstance(jwk, dict) else None,
    )


def algorithm_problem(alg: str) -> str | None:
    if alg == "none":
        return "`alg` is `none`: an unsigned JWS"
    if alg not in ALGORITHMS:
        return f"the algorithm {alg!r} is not supported (supported: {', '.join(ALGORITHMS)})"
    return None


def key_fits(jwk: dict[str, Any], alg: str) -> bool:
    kty, _, curve = ALGORITHMS[alg]
    if jwk.get("kty") != kty or jwk.get("use", "sig") != "sig":
        return False
    if jwk.get("alg") not in (None, alg):
        return False
    if curve and jwk.get("crv") != curve:
        return False
    return not (kty == "OKP" and jwk.get("crv") != "Ed25519")


def choose_key(jwks: Any, kid: str, alg: str) -> dict[str, Any] | str:
    """The key of a JWK Set (RFC 7517 §5) for a signature: the one with its kid (and a type
    that fits alg); without a kid, the only key that fits. A string says why there is none."""
    keys = jwks.get("keys") if isinstance(jwks, dict) else None
    if not isinstance(keys, list):
        return "the JWK Set has no `keys` array"
    keys = [k for k in keys if isinstance(k, dict)]
    if kid:
        named = [k for k in keys if k.get("kid") == kid]
        if not named:
            return f"no key with kid {kid!r} in the JWK Set"
        fitting = [k for k in named if key_fits(k, alg)]
        return fitting[0] if fitting else f"the key {kid!r} is not a {ALGORITHMS[alg][0]} signing key for {alg}"
    fitting = [k for k in keys if key_fits(k, alg)]
    if len(fitting) == 1:
        return fitting[0]
    return (
        "the signature names no kid, and the JWK Set has "
        + ("no key" if not fitting else "several keys")
        + f" for {alg}"
    )


def jku_problem(url: str, is_loopback: Any) -> str | None:
    """Why a jku is not fetched (None when it is): https only, or http on this machine."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
    except ValueError:
        return f"the jku {url!r} is not a URL"
    if parts.scheme == "https" and host:
        return None
    if parts.scheme == "http" and host and is_loopback(host):
        return None
    return f"the jku {url!r} is not an https URL (keys are fetched over https only, or http on loopback)"


def combine(outcomes: list[Outcome]) -> Outcome:
    """The card's outcome from its signatures': verified when one verifies; else invalid when
    one was checked and failed; else the first unverifiable."""
    for status in (VERIFIED, INVALID, UNVERIFIABLE):
        for o in outcomes:
            if o.status == status:
                return o
    return ABSENT_OUTCOME


def outcome_detail(o: Outcome) -> str:
    """` (kid k1, ES256, key from https://…/jwks.json)`, or "" when none is known."""
    bits = [f"kid {o.kid}" if o.kid else "", o.alg, f"key from {o.key_source}" if o.key_source else ""]
    detail = ", ".join(b for b in bits if b)
    return f" ({detail})" if detail else ""


def outcome_line(o: Outcome) -> str:
    """One stderr line: `Agent Card signature: verified (kid k1, ES256, key from …)`."""
    return f"Agent Card signature: {o.status}{outcome_detail(o)}" + (f": {o.reason}" if o.reason else "")
