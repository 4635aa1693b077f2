"""Shared test helpers (a module of its own, so `from a2a_testkit import …` means the same thing
whichever test directory pytest collects first)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from typing import Any

AGENT = "http://agent.test"
RPC = "http://agent.test/rpc"

# Each test runs with a HOME and XDG directories of its own (tests/conftest.py), so that no test
# reads or writes the user's (or another test's) config, tokens or caches. The machine's own are
# kept here, read when tests/conftest.py imports this module (before any test runs), for the tools
# that need their configuration: pip (its mirror, in ~/.config/pip) and npm (~/.npmrc).
OWN_DIRS = ("HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME")
_MACHINE = {k: os.environ.get(k) for k in OWN_DIRS}


def tool_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """`base` (this process's environment by default) with the machine's HOME and XDG
    directories back: for pip and npm, which a test runs to install a server."""
    env = dict(os.environ if base is None else base)
    for k, v in _MACHINE.items():
        env.pop(k, None)
        if v is not None:
            env[k] = v
    return env


def v1_card(url: str = RPC, **extra: Any) -> dict[str, Any]:
    card = {
        "name": "Test agent",
        "description": "for tests",
        "version": "1.0.0",
        "supportedInterfaces": [
            {"url": url, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": url, "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
        ],
        "capabilities": {"streaming": True, "pushNotifications": True},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "echo", "name": "Echo", "description": "Repeats input", "tags": ["demo"]}],
    }
    card.update(extra)
    return card


# Security schemes of a card that takes every credential: an API key in header X-API-Key, a bearer
# token, HTTP basic, and OAuth2 (client credentials). `a2a` sends a credential only to a card that
# declares a scheme taking it (A2ACLI_AUTH_008): tests about something else use this.
ANY_CREDENTIAL: dict[str, Any] = {
    "key": {"apiKeySecurityScheme": {"location": "header", "name": "X-API-Key"}},
    "bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}},
    "basic": {"httpAuthSecurityScheme": {"scheme": "Basic"}},
    "oauth": {"oauth2SecurityScheme": {"flows": {"clientCredentials": {"tokenUrl": "https://idp.test/oauth/token", "scopes": {}}}}},
}


def rpc_result(result: Any, request_id: Any = 1) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def sse(*results: Any, error: dict[str, Any] | None = None, request_id: Any = 1) -> bytes:
    """An SSE body of JSON-RPC responses, one event each."""
    chunks = [f"data: {json.dumps(rpc_result(r, request_id))}\n\n" for r in results]
    if error:
        chunks.append(f"event: error\ndata: {json.dumps({'jsonrpc': '2.0', 'id': request_id, 'error': error})}\n\n")
    return "".join(chunks).encode()


# -- JOSE: keys, signatures and compact JWTs made here (the `verify` extra's cryptography) ----------


def b64u(data: bytes) -> str:
    import base64

    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _b64_int(n: int, size: int | None = None) -> str:
    return b64u(n.to_bytes(size or (n.bit_length() + 7) // 8, "big"))


def make_key(alg: str) -> tuple[Any, dict[str, Any]]:
    """A private key for alg (ES256, RS256, PS256, EdDSA) and its public JWK."""
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

    if alg == "ES256":
        key = ec.generate_private_key(ec.SECP256R1())
        nums = key.public_key().public_numbers()
        return key, {"kty": "EC", "crv": "P-256", "x": _b64_int(nums.x, 32), "y": _b64_int(nums.y, 32)}
    if alg in ("RS256", "PS256"):
        rkey = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        rnums = rkey.public_key().public_numbers()
        return rkey, {"kty": "RSA", "n": _b64_int(rnums.n), "e": _b64_int(rnums.e)}
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    okey = ed25519.Ed25519PrivateKey.generate()
    return okey, {"kty": "OKP", "crv": "Ed25519", "x": b64u(okey.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw))}


def raw_sign(key: Any, alg: str, data: bytes) -> bytes:
    """The JWS signature of data (RFC 7518: ECDSA as r || s, not DER)."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, padding
    from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

    if alg == "ES256":
        r, s = decode_dss_signature(key.sign(data, ec.ECDSA(hashes.SHA256())))
        return r.to_bytes(32, "big") + s.to_bytes(32, "big")
    if alg == "RS256":
        return key.sign(data, padding.PKCS1v15(), hashes.SHA256())
    if alg == "PS256":
        return key.sign(data, padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=32), hashes.SHA256())
    return key.sign(data)


def jwt(claims: dict[str, Any], key: Any, alg: str = "ES256", **header: Any) -> str:
    """A compact JWS (an ID token) of claims, signed with key."""
    head = b64u(json.dumps({"alg": alg, "typ": "JWT", **header}).encode())
    body = b64u(json.dumps(claims).encode())
    return f"{head}.{body}.{b64u(raw_sign(key, alg, f'{head}.{body}'.encode()))}"


def wait_until(predicate: Callable[[], Any], timeout: float = 10.0, what: str = "the state", interval: float = 0.02) -> Any:
    """Poll `predicate` until it returns something true; that value. A test that waits for a state
    waits on the state with this, not with a fixed sleep. Fails naming `what` after `timeout`
    seconds (a bound for a slow machine, not a measurement)."""
    import time

    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        assert time.monotonic() < deadline, f"{what}: not seen within {timeout:g}s"
        time.sleep(interval)


def clean_env(**extra: str) -> dict[str, str]:
    """This process's environment without the user's A2ACLI_* settings (the one scrub every
    subprocess test uses), plus `extra`."""
    import os

    return {k: v for k, v in os.environ.items() if not k.startswith("A2ACLI_")} | extra


# -- the text floor --------------------------------------------------------------------------------

FIELD = re.compile(r"^([^:\s][^:]*): (.*)$")
BLOCK = re.compile(r"^([^:\s][^:]*):$")


def assert_floor(text: str) -> list[str]:
    """The text floor (official CLI spec §9.2). Every line a `Label: value` field, a block's `Label:` line, the block's (indented) content,
    or a blank line; every label from the one table; no control sequence. The labels, in order."""
    from a2acli.render.views import LABELS

    assert "\x1b" not in text and "\r" not in text
    labels: list[str] = []
    in_block = False
    lines = text.split("\n")
    assert lines[-1] == "", "output ends with a newline"
    for n, line in enumerate(lines[:-1]):
        if in_block:
            if line == "":
                in_block = False
                continue
            assert line.startswith("  "), f"line {n}: block content not indented: {line!r}"
            continue
        if line == "":
            continue
        if m := BLOCK.match(line):
            assert m.group(1) in LABELS, f"line {n}: block label {m.group(1)!r} not in the label table"
            assert lines[n + 1].startswith("  "), f"line {n}: block {line!r} has no content"
            labels.append(m.group(1))
            in_block = True
            continue
        m = FIELD.match(line)
        assert m, f"line {n}: not a field: {line!r}"
        assert m.group(1) in LABELS, f"line {n}: label {m.group(1)!r} not in the label table"
        labels.append(m.group(1))
    assert not in_block, "a block is closed by a blank line"
    return labels


def floor_block(text: str, label: str) -> list[str]:
    """The content lines of each `label` block, de-indented, one string per block."""
    found, lines = [], text.split("\n")
    for i, line in enumerate(lines):
        if line == f"{label}:":
            content = []
            for nxt in lines[i + 1 :]:
                if nxt == "":
                    break
                content.append(nxt[2:])
            found.append("\n".join(content))
    return found


def token_key(cache: Any, profile: str, agent: str = "*") -> str:
    """The key of the one token tokens.json (`cache`, a path) keeps for `profile`, of `agent`'s
    origin when given (`-`: a token obtained for no agent). Tokens are keyed by profile, agent,
    token endpoint, client and scopes (issue 42)."""
    data = json.loads(cache.read_text())
    keys = [k for k in data if k.split(" ")[0] == profile and agent in ("*", k.split(" ")[1])]
    assert len(keys) == 1, list(data)
    return keys[0]


def token_entry(cache: Any, profile: str, agent: str = "*") -> dict[str, Any]:
    """The one token entry tokens.json keeps for `profile` (token_key)."""
    return json.loads(cache.read_text())[token_key(cache, profile, agent)]
