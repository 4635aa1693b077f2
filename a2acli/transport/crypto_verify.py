"""The JWS signature check itself, with `cryptography` (the optional extra `a2acli[verify]`).
Importing this module fails with ImportError when the package is missing: signature.py turns
that into the outcome `unverifiable`."""

from __future__ import annotations

from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from a2acli.wire.signing import ALGORITHMS, SignatureProblem, b64url_decode

_CURVES: dict[str, Any] = {"P-256": ec.SECP256R1, "P-384": ec.SECP384R1, "P-521": ec.SECP521R1}
_HASHES: dict[str, Any] = {"SHA256": hashes.SHA256, "SHA384": hashes.SHA384, "SHA512": hashes.SHA512}


def _int(jwk: dict[str, Any], name: str) -> int:
    try:
        return int.from_bytes(b64url_decode(jwk.get(name), name), "big")
    except SignatureProblem as e:
        raise ValueError(str(e)) from None


def public_key(jwk: dict[str, Any], alg: str) -> Any:
    """The public key of a JWK (RFC 7518 §6, RFC 8037) for alg (ValueError when it is none)."""
    kty, _, curve = ALGORITHMS[alg]
    if kty == "EC":
        return ec.EllipticCurvePublicNumbers(_int(jwk, "x"), _int(jwk, "y"), _CURVES[curve or ""]()).public_key()
    if kty == "RSA":
        return rsa.RSAPublicNumbers(_int(jwk, "e"), _int(jwk, "n")).public_key()
    try:
        return ed25519.Ed25519PublicKey.from_public_bytes(b64url_decode(jwk.get("x"), "x"))
    except SignatureProblem as e:
        raise ValueError(str(e)) from None


def check(key: Any, alg: str, signature: bytes, data: bytes) -> bool:
    """True when `signature` is alg's signature of `data` under `key`."""
    kty, hash_name, _ = ALGORITHMS[alg]
    try:
        if kty == "EC":
            size = (key.curve.key_size + 7) // 8
            if len(signature) != 2 * size:  # JWS ECDSA: r || s, fixed width (RFC 7518 §3.4), not DER
                return False
            r, s = int.from_bytes(signature[:size], "big"), int.from_bytes(signature[size:], "big")
            key.verify(encode_dss_signature(r, s), data, ec.ECDSA(_HASHES[hash_name]()))
        elif kty == "RSA":
            h = _HASHES[hash_name]()
            pad = (
                padding.PSS(mgf=padding.MGF1(h), salt_length=h.digest_size)
                if alg.startswith("PS")
                else padding.PKCS1v15()
            )
            key.verify(signature, data, pad, h)
        else:
            key.verify(signature, data)
    except InvalidSignature:
        return False
    return True
