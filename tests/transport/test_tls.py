"""TLS against a real local HTTPS server: a private CA (--cacert), mutual TLS (--cert/--key),
--insecure's warning, bad paths (exit 2) and refused handshakes (exit 3 with a hint)."""

from __future__ import annotations

import json
import shutil
import ssl
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

CARD = {"name": "Test agent", "description": "for tests", "version": "1.0.0", "capabilities": {}, "skills": [],
        "supportedInterfaces": [{"url": "https://127.0.0.1/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"]}

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command to make certificates")


class _Card(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802
        body = json.dumps(CARD).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Cache-Control", "max-age=300")  # kept by the card cache, but for a client certificate
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:  # noqa: N802
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


def _serve(pki: Path, *, require_client_cert: bool) -> Iterator[str]:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(pki / "server.pem", pki / "server.key")
    if require_client_cert:
        ctx.verify_mode = ssl.CERT_REQUIRED
        ctx.load_verify_locations(pki / "ca.pem")
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Card)
    server.daemon_threads = True
    server.socket = ctx.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"https://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def https(pki) -> Iterator[str]:
    yield from _serve(pki, require_client_cert=False)


@pytest.fixture(scope="module")
def mtls(pki) -> Iterator[str]:
    yield from _serve(pki, require_client_cert=True)


@pytest.mark.spec("A2ACLI_DEFAULT_001")
def test_unknown_ca_is_exit_3_with_a_hint(cli, https):
    result = cli("card", "fetch", "-u", https, "--timeout", "10")
    assert result.exit_code == 3, result.stderr
    assert "TLS" in result.stderr and "--cacert" in result.stderr


def test_cacert_flag_and_env(cli, https, pki):
    result = cli("card", "fetch", "-u", https, "--cacert", str(pki / "ca.pem"))
    assert result.exit_code == 0, result.stderr
    assert "Agent: Test agent" in result.stdout
    result = cli("card", "fetch", "-u", https, env={"A2ACLI_CACERT": str(pki / "ca.pem")})
    assert result.exit_code == 0, result.stderr


@pytest.mark.spec("A2ACLI_AUTH_003", "A2ACLI_DEFAULT_001")
def test_insecure_warns_loudly(cli, https):
    result = cli("card", "fetch", "-u", https, "--insecure")
    assert result.exit_code == 0, result.stderr
    assert "warning: --insecure: TLS certificates are NOT verified" in result.stderr


@pytest.mark.spec("A2ACLI_AUTH_003")
def test_insecure_warns_that_the_credentials_cross_an_unverified_connection(cli, https):
    result = cli("tasks", "get", "t-1", "--endpoint", f"{https}/rpc", "--bearer", "tok-0123456789", "--api-key", "key-0123456789", "--insecure")
    assert result.exit_code == 0, result.stderr
    warning = "warning: --insecure: credentials (Authorization, X-API-Key) are sent over a connection whose TLS certificate is NOT verified"
    assert result.stderr.count(warning) == 1
    assert "tok-0123456789" not in result.stderr and "key-0123456789" not in result.stderr
    without = cli("tasks", "get", "t-1", "--endpoint", f"{https}/rpc", "--bearer", "tok-0123456789")
    assert without.exit_code == 3  # and without --insecure, the unknown CA stops the call: nothing is sent


def test_mtls_without_a_client_certificate_is_exit_3(cli, mtls, pki):
    result = cli("card", "fetch", "-u", mtls, "--cacert", str(pki / "ca.pem"), "--timeout", "10")
    assert result.exit_code == 3, result.stdout + result.stderr
    assert "--cert" in result.stderr


@pytest.mark.spec("A2ACLI_AUTH_009")
@pytest.mark.parametrize("combined", [False, True])
def test_mtls_with_a_client_certificate(cli, mtls, pki, combined):
    args = ["--cert", str(pki / "client-combined.pem")] if combined else ["--cert", str(pki / "client.pem"), "--key", str(pki / "client.key")]
    result = cli("card", "fetch", "-u", mtls, "--cacert", str(pki / "ca.pem"), *args)
    assert result.exit_code == 0, result.stderr


def test_a_card_fetched_with_a_client_certificate_is_never_kept(cli, https, mtls, pki, card_cache_dir):
    """The card cache keeps no answer to a request that carried a credential: a client certificate
    is one (issue 47); the same card without one is kept."""
    tls = ["--cacert", str(pki / "ca.pem"), "--cert", str(pki / "client.pem"), "--key", str(pki / "client.key")]
    for _ in range(2):
        result = cli("card", "fetch", "-u", mtls, *tls, "--debug")
        assert result.exit_code == 0, result.stderr
        assert "> GET " in result.stderr and "card from cache" not in result.stderr
    assert not card_cache_dir.exists() or not list(card_cache_dir.iterdir())
    assert cli("card", "fetch", "-u", https, "--cacert", str(pki / "ca.pem")).exit_code == 0
    assert len(list(card_cache_dir.glob("card-*.json"))) == 1


@pytest.mark.spec("A2ACLI_AUTH_009")
def test_mtls_from_env(cli, mtls, pki):
    env = {"A2ACLI_CACERT": str(pki / "ca.pem"), "A2ACLI_CERT": str(pki / "client.pem"), "A2ACLI_KEY": str(pki / "client.key")}
    result = cli("card", "fetch", "-u", mtls, env=env)
    assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--cacert", "/no/such/ca.pem"], "no such file"),
        (["--cert", "/no/such/client.pem"], "no such file"),
        (["--key", "KEY"], "--key needs --cert"),
        (["--cacert", "NOTPEM"], "cannot load the CA bundle"),
        (["--cert", "NOTPEM"], "cannot load the client certificate"),
        (["--cert", "CLIENT", "--key", "SERVERKEY"], "cannot load the client certificate"),
    ],
)
def test_bad_files_are_exit_2(cli, https, pki, args, needle):
    subst = {"KEY": pki / "client.key", "NOTPEM": pki / "not-pem.txt", "CLIENT": pki / "client.pem", "SERVERKEY": pki / "server.key"}
    args = [str(subst.get(a, a)) for a in args]
    result = cli("card", "fetch", "-u", https, *args)
    assert result.exit_code == 2, result.stderr
    assert needle in result.stderr and "hint:" in result.stderr


@pytest.mark.parametrize("extra", [[], ["--cert", "CERT"]], ids=["default", "with-cert"])
def test_ssl_cert_file_naming_no_bundle_is_a_usage_error(cli, monkeypatch, pki, extra):
    """SSL_CERT_FILE (read by httpx's default context) naming nothing: exit 2, not an internal error;
    read with --cert too (issue 35)."""
    monkeypatch.setenv("SSL_CERT_FILE", "/nonexistent/ca.pem")
    args = [str(pki / "client-combined.pem") if a == "CERT" else a for a in extra]
    result = cli("card", "fetch", "-u", "https://127.0.0.1:1", *args)
    assert result.exit_code == 2, result.stderr
    assert "SSL_CERT_FILE" in result.stderr and "Traceback" not in result.stderr


# -- issue 35: the CA settings of the environment are read as the flags are -------------------------


@pytest.mark.parametrize(("name", "bad"), [("SSL_CERT_FILE", "/no/such/ca.pem"), ("SSL_CERT_FILE", "NOTPEM"), ("SSL_CERT_DIR", "/no/such/dir")])
def test_a_bad_ca_from_the_environment_is_a_usage_error(cli, https, pki, monkeypatch, name, bad):
    """SSL_CERT_FILE=/nonexistent was an internal error where A2ACLI_CACERT with the same path is a
    usage error (a directory of no certificates loads: OpenSSL looks in it per certificate)."""
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    monkeypatch.setenv(name, str(pki / "not-pem.txt") if bad == "NOTPEM" else bad)
    result = cli("card", "fetch", "-u", https)
    assert result.exit_code == 2, result.stderr
    assert f"cannot load the CA bundle {name}=" in result.stderr and "internal error" not in result.stderr
    assert "unset the environment variable" in result.stderr


def test_the_environment_ca_is_trusted_and_kept_with_cert(cli, mtls, pki, monkeypatch):
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    monkeypatch.setenv("SSL_CERT_FILE", str(pki / "ca.pem"))
    result = cli("card", "fetch", "-u", mtls, "--cert", str(pki / "client.pem"), "--key", str(pki / "client.key"))
    assert result.exit_code == 0, result.stderr  # --cert no longer drops SSL_CERT_FILE
    monkeypatch.setenv("SSL_CERT_FILE", "/no/such/ca.pem")
    result = cli("card", "fetch", "-u", mtls, "--cert", str(pki / "client.pem"), "--key", str(pki / "client.key"))
    assert result.exit_code == 2 and "SSL_CERT_FILE=/no/such/ca.pem" in result.stderr
    # --cacert wins over the environment
    result = cli("card", "fetch", "-u", mtls, "--cacert", str(pki / "ca.pem"), "--cert", str(pki / "client.pem"), "--key", str(pki / "client.key"))
    assert result.exit_code == 0, result.stderr
