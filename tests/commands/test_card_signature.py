"""Agent Card signature verification (A2ACLI_CARD_GET_004, A2A §8.4): cards signed here with keys
made here (EC P-256, RSA, Ed25519), the JWK Set served by respx (and once by a real local HTTP
server); each outcome (verified, invalid, unverifiable, absent) and how it is reported."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest
from a2a_testkit import AGENT, b64u, make_key, raw_sign, v1_card
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
JKU = "https://keys.test/jwks.json"


def sign(card: dict[str, Any], key: Any, alg: str, header: dict[str, Any]) -> dict[str, Any]:
    """The card with one more signature: a detached JWS over its canonical form (for a card of
    ASCII keys and no fractions, sorted compact JSON is RFC 8785's form: written independently
    of a2acli's canonicalizer, which tests/wire/test_jcs.py checks against the RFC)."""
    body = {k: v for k, v in card.items() if k != "signatures"}
    payload = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    protected = b64u(json.dumps({"alg": alg, **header}).encode())
    sig = raw_sign(key, alg, f"{protected}.{b64u(payload)}".encode())
    return {**card, "signatures": [*card.get("signatures", []), {"protected": protected, "signature": b64u(sig)}]}


@pytest.fixture(scope="module")
def keys() -> dict[str, tuple[Any, dict[str, Any]]]:
    return {alg: make_key(alg) for alg in ("ES256", "RS256", "PS256", "EdDSA")}


def signed_card(keys, alg: str = "ES256", kid: str = "k1", **header: Any) -> dict[str, Any]:
    return sign(v1_card(), keys[alg][0], alg, {"kid": kid, "jku": JKU, **header})


def jwks(keys, *algs: str) -> dict[str, Any]:
    return {"keys": [{**keys[a][1], "kid": "k1" if a == (algs or ("ES256",))[0] else f"k-{a}"} for a in (algs or ("ES256",))]}


def serve(respx_mock, card: dict[str, Any], key_set: Any = None) -> Any:
    respx_mock.get(CARD_URL).respond(json=card)
    return respx_mock.get(JKU).respond(json=key_set) if key_set is not None else None


def fields(stdout: str) -> dict[str, str]:
    return dict(line.split(": ", 1) for line in stdout.splitlines() if ": " in line and line.startswith("Signature"))


@pytest.mark.spec("A2ACLI_CARD_GET_004")
@pytest.mark.parametrize("alg", ["ES256", "RS256", "PS256", "EdDSA"])
def test_a_signed_card_is_verified_with_the_key_of_its_jku(cli, respx_mock, keys, alg):
    route = serve(respx_mock, signed_card(keys, alg), jwks(keys, alg))
    result = cli("card", "fetch", "-u", AGENT)
    assert result.exit_code == 0, result.stderr
    assert fields(result.stdout) == {"Signature": "verified", "Signature key": "k1", "Signature algorithm": alg, "Signature key source": JKU}
    assert route.called and "Authorization" not in route.calls.last.request.headers
    assert "warning" not in result.stderr


def test_verified_under_verify_signature_exits_0(cli, respx_mock, keys):
    serve(respx_mock, signed_card(keys), jwks(keys))
    result = cli("card", "fetch", "-u", AGENT, "--verify-signature")
    assert result.exit_code == 0, result.stderr
    assert "Signature: verified" in result.stdout


@pytest.mark.spec("A2ACLI_CARD_GET_004")
def test_json_output_is_the_card_unchanged_with_the_outcome_on_stderr(cli, respx_mock, keys):
    card = signed_card(keys)
    serve(respx_mock, card, jwks(keys))
    result = cli("card", "fetch", "-u", AGENT, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == card
    assert "Agent Card signature: verified (kid k1, ES256" in result.stderr


@pytest.mark.spec("A2ACLI_CARD_GET_004")
def test_a_tampered_card_is_invalid_never_verified_and_warned_about(cli, respx_mock, keys):
    card = signed_card(keys)
    card["supportedInterfaces"][0]["url"] = "https://evil.test/rpc"  # changed after signing
    serve(respx_mock, card, jwks(keys))
    result = cli("card", "fetch", "-u", AGENT)
    assert result.exit_code == 0, result.stderr
    assert fields(result.stdout)["Signature"] == "invalid"
    assert "verified" not in result.stdout
    assert "warning: the Agent Card's signature does NOT verify" in result.stderr
    as_json = cli("card", "fetch", "-u", AGENT, "-o", "json")
    assert "warning: the Agent Card's signature does NOT verify" in as_json.stderr and json.loads(as_json.stdout) == card


@pytest.mark.spec("A2ACLI_CARD_GET_004")
def test_verify_signature_refuses_a_tampered_card_with_x_a2a_signature(cli, respx_mock, keys):
    card = signed_card(keys)
    card["name"] = "Someone else"
    serve(respx_mock, card, jwks(keys))
    result = cli("card", "fetch", "-u", AGENT, "--verify-signature", "-o", "json")
    assert result.exit_code == 1
    err = json.loads(result.stdout)["error"]
    assert err["code"] == "X_A2A_SIGNATURE" and "invalid" in err["message"] and err["hint"]
    assert "Someone else" not in result.stdout  # the card is not shown


def test_a_signature_by_another_key_is_invalid(cli, respx_mock, keys):
    other, _ = make_key("ES256")
    serve(respx_mock, sign(v1_card(), other, "ES256", {"kid": "k1", "jku": JKU}), jwks(keys))
    assert fields(cli("card", "fetch", "-u", AGENT).stdout)["Signature"] == "invalid"


@pytest.mark.spec("A2ACLI_CARD_GET_004")
def test_unknown_kid_is_unverifiable(cli, respx_mock, keys):
    serve(respx_mock, signed_card(keys, kid="nope"), jwks(keys))
    result = cli("card", "fetch", "-u", AGENT)
    assert result.exit_code == 0, result.stderr
    got = fields(result.stdout)
    assert got["Signature"] == "unverifiable" and "no key with kid 'nope'" in got["Signature reason"]
    refused = cli("card", "fetch", "-u", AGENT, "--verify-signature")
    assert refused.exit_code == 1 and "unverifiable" in refused.stderr


@pytest.mark.spec("A2ACLI_CARD_GET_004")
def test_an_unsupported_algorithm_is_unverifiable_with_the_reason(cli, respx_mock, keys):
    card = signed_card(keys)
    hs = {"protected": b64u(json.dumps({"alg": "HS256", "kid": "k1", "jku": JKU}).encode()), "signature": b64u(b"x" * 32)}
    route = serve(respx_mock, {**card, "signatures": [hs]}, jwks(keys))
    got = fields(cli("card", "fetch", "-u", AGENT).stdout)
    assert got["Signature"] == "unverifiable" and "'HS256' is not supported" in got["Signature reason"]
    assert not route.called  # nothing fetched for a signature that cannot be checked


@pytest.mark.spec("A2ACLI_CARD_GET_004")
@pytest.mark.parametrize("failure", ["500", "connect", "not-json", "too-large"])
def test_a_jku_that_cannot_be_read_is_unverifiable_not_a_crash(cli, respx_mock, keys, failure):
    respx_mock.get(CARD_URL).respond(json=signed_card(keys))
    route = respx_mock.get(JKU)
    if failure == "500":
        route.respond(500)
    elif failure == "connect":
        route.mock(side_effect=httpx.ConnectError("connection refused"))
    elif failure == "not-json":
        route.respond(text="<html>", headers={"Content-Type": "text/html"})
    else:
        route.respond(content=b'{"keys": [' + b" " * (2 * 1024 * 1024) + b"]}")
    result = cli("card", "fetch", "-u", AGENT)
    assert result.exit_code == 0, result.stderr
    got = fields(result.stdout)
    assert got["Signature"] == "unverifiable"
    assert {"500": "HTTP 500", "connect": "could not be fetched", "not-json": "not JSON", "too-large": "larger than the cap"}[failure] in got["Signature reason"]


def test_a_plain_http_jku_elsewhere_is_not_fetched(cli, respx_mock, keys):
    card = sign(v1_card(), keys["ES256"][0], "ES256", {"kid": "k1", "jku": "http://keys.test/jwks.json"})
    respx_mock.get(CARD_URL).respond(json=card)
    route = respx_mock.get("http://keys.test/jwks.json").respond(json=jwks(keys))
    got = fields(cli("card", "fetch", "-u", AGENT).stdout)
    assert got["Signature"] == "unverifiable" and "not an https URL" in got["Signature reason"]
    assert not route.called


@pytest.mark.spec("A2ACLI_CARD_GET_004")
def test_no_signatures_is_absent_not_a_failure(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    result = cli("card", "fetch", "-u", AGENT)
    assert result.exit_code == 0, result.stderr
    assert fields(result.stdout) == {"Signature": "absent"}
    assert "signature" not in result.stderr.lower()
    required = cli("card", "fetch", "-u", AGENT, "--verify-signature")
    assert required.exit_code == 1 and "Agent:" not in required.stdout
    assert "Agent Card signature: absent" in required.stderr and "does not sign its card" in required.stderr


@pytest.mark.spec("A2ACLI_CARD_GET_004")
def test_without_cryptography_a_signed_card_is_unverifiable_with_the_extra_named(cli, respx_mock, keys, monkeypatch):
    route = serve(respx_mock, signed_card(keys), jwks(keys))
    for name in [m for m in sys.modules if m.split(".")[0] == "cryptography"]:
        monkeypatch.setitem(sys.modules, name, None)  # as if not installed: importing it raises ImportError
    monkeypatch.delitem(sys.modules, "a2acli.transport.crypto_verify", raising=False)
    result = cli("card", "fetch", "-u", AGENT)
    assert result.exit_code == 0, result.stderr
    got = fields(result.stdout)
    assert got["Signature"] == "unverifiable" and "cryptography" in got["Signature reason"]
    assert "the verify extra): " in result.stderr and "-m pip install 'cryptography<51,>=42'" in result.stderr
    assert not route.called


def test_a_card_served_with_empty_members_the_signer_left_out_still_verifies(cli, respx_mock, keys):
    card = signed_card(keys)
    card["securitySchemes"] = {}  # a server that spells defaults; the signer omitted them (A2A §8.4.1)
    card["documentationUrl"] = ""
    serve(respx_mock, card, jwks(keys))
    assert fields(cli("card", "fetch", "-u", AGENT).stdout)["Signature"] == "verified"


def test_an_inline_jwk_verifies_and_says_it_is_self_asserted(cli, respx_mock, keys):
    key, jwk = keys["EdDSA"]
    respx_mock.get(CARD_URL).respond(json=sign(v1_card(), key, "EdDSA", {"kid": "k1", "jwk": jwk}))
    got = fields(cli("card", "fetch", "-u", AGENT).stdout)
    assert got["Signature"] == "verified" and "self-asserted" in got["Signature key source"]


def test_one_good_signature_of_several_verifies(cli, respx_mock, keys):
    card = sign(signed_card(keys, kid="gone"), keys["ES256"][0], "ES256", {"kid": "k1", "jku": JKU})
    serve(respx_mock, card, jwks(keys))
    assert fields(cli("card", "fetch", "-u", AGENT).stdout)["Signature"] == "verified"


def test_a_signature_with_no_key_source_is_unverifiable(cli, respx_mock, keys):
    respx_mock.get(CARD_URL).respond(json=sign(v1_card(), keys["ES256"][0], "ES256", {"kid": "k1"}))
    got = fields(cli("card", "fetch", "-u", AGENT).stdout)
    assert got["Signature"] == "unverifiable" and "no `jku` or `jwk`" in got["Signature reason"]


def test_card_fetch_validate_reports_the_signature_too(cli, respx_mock, keys):
    serve(respx_mock, signed_card(keys), jwks(keys))
    result = cli("card", "fetch", "-u", AGENT, "--validate")
    assert "Signature: verified" in result.stdout


@pytest.mark.spec("A2ACLI_CARD_GET_004")
def test_verified_against_a_real_local_http_server(cli, keys):
    """No mocks: the card and its JWK Set from a real HTTP server on loopback (http is allowed there)."""
    docs: dict[str, bytes] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            body = docs.get(self.path)
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body or b"")))
            self.end_headers()
            self.wfile.write(body or b"")

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{server.server_port}"
        card = sign(v1_card(url=base + "/rpc"), keys["RS256"][0], "RS256", {"kid": "k1", "jku": base + "/jwks.json"})
        docs["/.well-known/agent-card.json"] = json.dumps(card).encode()
        docs["/jwks.json"] = json.dumps(jwks(keys, "RS256")).encode()
        result = cli("card", "fetch", "-u", base, "--verify-signature")
        assert result.exit_code == 0, result.stderr
        assert "Signature: verified" in result.stdout
        card["description"] = "altered"
        docs["/.well-known/agent-card.json"] = json.dumps(card).encode()
        assert cli("card", "fetch", "-u", base, "--verify-signature").exit_code == 1
    finally:
        server.shutdown()
        server.server_close()


def test_an_unsigned_card_does_not_load_cryptography(tmp_path):
    card = tmp_path / "card.json"
    card.write_text(json.dumps(v1_card()))
    code = (
        "import sys\n"
        f"sys.argv = ['a2a', 'card', 'fetch', '-u', {card.as_uri()!r}]\n"
        "from a2acli.main import run\n"
        "try:\n    run()\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
        "print('LOADED', sorted(m for m in sys.modules if m.split('.')[0] == 'cryptography' or m.endswith('crypto_verify')), file=sys.stderr)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "Signature: absent" in proc.stdout, proc.stderr
    assert "LOADED []" in proc.stderr, proc.stderr


def _self_signed(tmp_path) -> tuple[str, str]:
    """A certificate for 127.0.0.1 and its key, as PEM files."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_path.write_bytes(cert.public_bytes(Encoding.PEM))
    key_path.write_bytes(key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()))
    return str(cert_path), str(key_path)


@pytest.mark.spec("A2ACLI_CARD_GET_004")
def test_an_https_jku_is_fetched_with_the_cards_tls_options(cli, keys, tmp_path):
    """A real TLS server with a private CA: the key set is trusted with --cacert (or --insecure)
    as the card would be, and its certificate refused without them (unverifiable, not a crash)."""
    import ssl

    cert, key = _self_signed(tmp_path)
    body = json.dumps(jwks(keys, "PS256")).encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    server.socket = ctx.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        jku = f"https://127.0.0.1:{server.server_port}/jwks.json"
        card = tmp_path / "card.json"
        card.write_text(json.dumps(sign(v1_card(), keys["PS256"][0], "PS256", {"kid": "k1", "jku": jku})))
        trusted = cli("card", "fetch", "-u", str(card), "--cacert", cert)
        assert trusted.exit_code == 0, trusted.stderr
        assert fields(trusted.stdout)["Signature"] == "verified"
        assert fields(cli("card", "fetch", "-u", str(card), "--insecure").stdout)["Signature"] == "verified"
        refused = fields(cli("card", "fetch", "-u", str(card)).stdout)
        assert refused["Signature"] == "unverifiable" and "could not be fetched" in refused["Signature reason"], refused
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.spec("A2ACLI_CARD_GET_004")
def test_check_card_reports_the_signature_as_a_check(cli, keys, tmp_path):
    key, jwk = keys["ES256"]
    signed = sign(v1_card(), key, "ES256", {"kid": "k1", "jwk": jwk})
    path = tmp_path / "card.json"

    def check(card: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        path.write_text(json.dumps(card))
        result = cli("check", "card", str(path), "-o", "json")
        return result.exit_code, next(c for c in json.loads(result.stdout)["checks"] if c["id"] == "card.signature")

    code, got = check(signed)
    assert (code, got["status"]) == (0, "pass") and got["detail"].startswith("verified")
    code, got = check({**signed, "name": "altered"})
    assert (code, got["status"]) == (1, "fail") and got["detail"].startswith("invalid")
    code, got = check(v1_card())
    assert (code, got["status"]) == (0, "skip") and got["detail"].startswith("absent")


def test_verify_signature_with_extended_is_a_usage_error(cli):
    result = cli("card", "fetch", "-u", AGENT, "--extended", "--verify-signature", "-o", "json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"]["code"] == "A2ACLI_ERR_USAGE"


def test_a_jku_redirected_to_plain_http_is_not_followed(cli, respx_mock, keys):
    respx_mock.get(CARD_URL).respond(json=signed_card(keys))
    respx_mock.get(JKU).respond(302, headers={"Location": "http://keys.test/jwks.json"})
    plain = respx_mock.get("http://keys.test/jwks.json").respond(json=jwks(keys))
    got = fields(cli("card", "fetch", "-u", AGENT).stdout)
    assert got["Signature"] == "unverifiable" and "not https" in got["Signature reason"]
    assert not plain.called


def test_a_jku_redirected_within_https_is_followed(cli, respx_mock, keys):
    respx_mock.get(CARD_URL).respond(json=signed_card(keys))
    respx_mock.get(JKU).respond(302, headers={"Location": "https://cdn.keys.test/jwks.json"})
    respx_mock.get("https://cdn.keys.test/jwks.json").respond(json=jwks(keys))
    assert fields(cli("card", "fetch", "-u", AGENT).stdout)["Signature"] == "verified"
