"""Verifying an Agent Card's signatures (A2A §8.4.3; official CLI spec A2ACLI_CARD_GET_004): each
JWS in `signatures` is checked against its key (the `jku` JWK Set, fetched here over https
with the card's TLS options, bounded in size and time; or an inline `jwk`) with the
`cryptography` package, imported only when a card is signed. Never raises for a bad signature,
a missing key or an unreachable key set: each is an Outcome (wire/signing.py)."""

from __future__ import annotations

from typing import Any

from a2acli.errors import A2acliError
from a2acli.net import is_loopback
from a2acli.transport.client import Transport
from a2acli.wire import signing
from a2acli.wire.signing import INVALID, UNVERIFIABLE, VERIFIED, Outcome

JWKS_TIMEOUT = 10.0  # seconds, at most (less when the call's --timeout has less left)


def verify_card(card: Any, transport: Transport | None) -> Outcome:
    """The outcome of a card's signatures (absent when it has none)."""
    sigs = card.get("signatures") if isinstance(card, dict) else None
    if not sigs:
        return signing.ABSENT_OUTCOME
    if not isinstance(sigs, list):
        return Outcome(UNVERIFIABLE, "`signatures` is not an array")
    try:
        crypto = _crypto()
    except ImportError:
        return Outcome(UNVERIFIABLE, "the `cryptography` package is not installed", hint=_verify_hint())
    try:
        payloads = signing.payloads(card)
    except (ValueError, UnicodeEncodeError) as e:
        return Outcome(UNVERIFIABLE, f"the card cannot be canonicalized (RFC 8785): {e}")
    except RecursionError:
        return Outcome(UNVERIFIABLE, "the card is nested too deeply to canonicalize")
    key_sets: dict[str, Any] = {}
    return signing.combine([_verify_one(entry, payloads, transport, key_sets, crypto) for entry in sigs])


def _crypto() -> Any:
    """The verifier of crypto_verify.py (ImportError when `cryptography` is not installed)."""
    import importlib

    return importlib.import_module("a2acli.transport.crypto_verify")


def _verify_one(
    entry: Any, payloads: list[bytes], transport: Transport | None, key_sets: dict[str, Any], crypto: Any
) -> Outcome:
    try:
        sig = signing.parse_signature(entry)
    except signing.SignatureProblem as e:
        return Outcome(UNVERIFIABLE, str(e))
    base = Outcome(UNVERIFIABLE, kid=sig.kid, alg=sig.alg)
    if problem := signing.algorithm_problem(sig.alg):
        return base._replace(reason=problem)
    if sig.jku:
        source = sig.jku
        jwks = key_sets.get(sig.jku)
        if jwks is None:
            jwks = key_sets[sig.jku] = _fetch_jwks(sig.jku, transport)
        if isinstance(jwks, str):
            return base._replace(reason=jwks, key_source=source)
        key = signing.choose_key(jwks, sig.kid, sig.alg)
    elif sig.jwk is not None:
        source = "jwk in the protected header (self-asserted: proves integrity, not who signed)"
        key = (
            sig.jwk
            if signing.key_fits(sig.jwk, sig.alg)
            else f"the header's jwk is not a {signing.ALGORITHMS[sig.alg][0]} signing key for {sig.alg}"
        )
    else:
        return base._replace(reason="the signature names no key (no `jku` or `jwk` in its protected header)")
    return _check(
        base._replace(key_source=source),
        sig,
        key,
        [sig.signing_input(p) for p in payloads],
        crypto,
        "the card: it was altered after signing, or signed with another key",
    )


def verify_with_key_set(sig: signing.Signature, jwks: Any, source: str, signing_input: bytes, what: str) -> Outcome:
    """Another JWS (an OpenID Connect ID token) against a JWK Set the caller fetched from
    `source`: the key is the set's for the signature's kid, never one the JWS names itself."""
    base = Outcome(UNVERIFIABLE, kid=sig.kid, alg=sig.alg, key_source=source)
    if problem := signing.algorithm_problem(sig.alg):
        return base._replace(reason=problem)
    try:
        crypto = _crypto()
    except ImportError:
        return base._replace(reason="the `cryptography` package is not installed", hint=_verify_hint())
    return _check(base, sig, signing.choose_key(jwks, sig.kid, sig.alg), [signing_input], crypto, what)


def _check(
    base: Outcome, sig: signing.Signature, key: dict[str, Any] | str, inputs: list[bytes], crypto: Any, what: str
) -> Outcome:
    """The outcome of one signature under the key found for it (a string: why there is none);
    verified when it signs one of `inputs`."""
    if isinstance(key, str):
        return base._replace(reason=key)
    try:
        verifier = crypto.public_key(key, sig.alg)
    except ValueError as e:
        return base._replace(reason=f"the key cannot be read: {e}")
    if any(crypto.check(verifier, sig.alg, sig.signature, data) for data in inputs):
        return base._replace(status=VERIFIED)
    return base._replace(status=INVALID, reason=f"the signature does not match {what}")


def _fetch_jwks(url: str, transport: Transport | None) -> Any:
    """The JWK Set at a jku (a string says why there is none)."""
    if problem := signing.jku_problem(url, is_loopback):
        return problem
    if transport is None:
        return f"the key set {url} was not fetched (offline)"
    from a2acli.wire import envelope

    try:
        ex = transport.get_public(
            url, label="jwks", accept="application/jwk-set+json, application/json", timeout=JWKS_TIMEOUT
        )
    except A2acliError as e:
        return f"the key set {url} could not be fetched: {e.message}"
    if not (ex.status and 200 <= ex.status < 300):
        return f"the key set {url} answered HTTP {ex.status}"
    try:
        return envelope.loads(ex.response_body, what=f"key set {url}")
    except A2acliError as e:
        return e.message


def _verify_hint() -> str:
    from a2acli.extras import install_hint

    return "install the verifier (the `cryptography` package, the verify extra): " + install_hint("verify")
