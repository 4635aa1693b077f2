"""gRPC over TLS against a real local grpcio server: a private CA (--cacert), mutual TLS
(--cert/--key), --insecure (trusts what the server presents, with its warning), --plaintext
against a TLS server and TLS against a plaintext one (exit 3 with a hint), and the dump of a gRPC
exchange (each message as ProtoJSON and as base64 bytes)."""

from __future__ import annotations

import base64
import json
import shutil
import socket
from collections.abc import Iterator
from concurrent import futures
from pathlib import Path
from typing import Any

import pytest

grpc = pytest.importorskip("grpc")
a2a_pb2 = pytest.importorskip("a2a.types.a2a_pb2")
a2a_pb2_grpc = pytest.importorskip("a2a.types.a2a_pb2_grpc")

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command to make certificates")


class _Agent(a2a_pb2_grpc.A2AServiceServicer):
    def GetTask(self, request: Any, context: Any) -> Any:  # noqa: N802 - the rpc's name
        if request.id != "t-1":
            context.abort(grpc.StatusCode.NOT_FOUND, "Task not found")
        task = a2a_pb2.Task(id="t-1", context_id="c-1")
        task.status.state = a2a_pb2.TASK_STATE_COMPLETED
        return task


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(pki: Path, *, tls: bool, client_auth: bool = False) -> Iterator[str]:
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    a2a_pb2_grpc.add_A2AServiceServicer_to_server(_Agent(), server)
    port = _free_port()
    if tls:
        creds = grpc.ssl_server_credentials(
            [((pki / "server.key").read_bytes(), (pki / "server.pem").read_bytes())],
            root_certificates=(pki / "ca.pem").read_bytes() if client_auth else None,
            require_client_auth=client_auth,
        )
        server.add_secure_port(f"127.0.0.1:{port}", creds)
    else:
        server.add_insecure_port(f"127.0.0.1:{port}")
    server.start()
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.stop(0)


@pytest.fixture(scope="module")
def tls_agent(pki: Path) -> Iterator[str]:
    yield from _serve(pki, tls=True)


@pytest.fixture(scope="module")
def mtls_agent(pki: Path) -> Iterator[str]:
    yield from _serve(pki, tls=True, client_auth=True)


@pytest.fixture(scope="module")
def plain_agent(pki: Path) -> Iterator[str]:
    yield from _serve(pki, tls=False)


def get(cli: Any, target: str, *extra: str) -> Any:
    return cli("tasks", "get", "t-1", "--endpoint", target, "--transport", "grpc", "--timeout", "10", "-o", "json", *extra)


def test_a_private_ca_is_trusted_with_cacert(cli, tls_agent, pki):
    result = get(cli, tls_agent, "--cacert", str(pki / "ca.pem"))
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["status"]["state"] == "TASK_STATE_COMPLETED"


def test_an_unknown_ca_is_refused_with_a_hint(cli, tls_agent):
    result = get(cli, tls_agent)
    assert result.exit_code == 3, result.stderr
    error = json.loads(result.stdout)["error"]
    assert error["message"].startswith("TLS with") and "--cacert" in error["hint"]


@pytest.mark.spec("A2ACLI_AUTH_003")
def test_insecure_trusts_the_presented_certificate_and_warns(cli, tls_agent):
    result = get(cli, tls_agent, "--insecure")
    assert result.exit_code == 0, result.stderr
    assert "NOT verified" in result.stderr


@pytest.mark.spec("A2ACLI_AUTH_009", "A2ACLI_TX_005")
def test_mutual_tls_with_cert_and_key(cli, mtls_agent, pki):
    ok = get(cli, mtls_agent, "--cacert", str(pki / "ca.pem"), "--cert", str(pki / "client.pem"), "--key", str(pki / "client.key"))
    assert ok.exit_code == 0, ok.stderr
    refused = get(cli, mtls_agent, "--cacert", str(pki / "ca.pem"))
    assert refused.exit_code == 3, refused.stderr


def test_plaintext_against_tls_and_tls_against_plaintext_fail_with_a_hint(cli, tls_agent, plain_agent):
    assert get(cli, tls_agent, "--plaintext").exit_code == 3
    result = get(cli, plain_agent)
    assert result.exit_code == 3 and "--plaintext" in json.loads(result.stdout)["error"]["hint"]
    assert get(cli, plain_agent, "--plaintext").exit_code == 0


def test_a_grpc_dump_keeps_each_message_as_json_and_as_bytes(cli, plain_agent, tmp_path):
    result = get(cli, plain_agent, "--plaintext", "--dump", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    (head,) = tmp_path.glob("*.request.http")
    assert head.read_text().splitlines()[0] == "POST /lf.a2a.v1.A2AService/GetTask HTTP/2"
    stem = head.name.removesuffix(".request.http")
    assert json.loads((tmp_path / f"{stem}.request.body").read_text()) == {"id": "t-1"}
    request = a2a_pb2.GetTaskRequest.FromString(base64.b64decode((tmp_path / f"{stem}.request.pb.b64").read_text()))
    assert request.id == "t-1"
    task = a2a_pb2.Task.FromString(base64.b64decode((tmp_path / f"{stem}.response.pb.b64").read_text()))
    assert task.id == "t-1" and json.loads((tmp_path / f"{stem}.response.body").read_text())["id"] == "t-1"


def test_a_grpc_status_reads_as_the_a2a_error_over_the_other_bindings(cli, plain_agent):
    result = cli("tasks", "get", "nope", "--endpoint", plain_agent, "--transport", "grpc", "--plaintext", "-o", "json")
    assert result.exit_code == 1
    error = json.loads(result.stdout)["error"]
    # no ErrorInfo from this bare server: the status word and message, as an HTTP twin error
    assert error["message"] == "the agent answered gRPC NOT_FOUND: Task not found"
    assert error["code"] == "X_A2A_HTTP_ERROR" and error["a2aCode"] == "NOT_FOUND"  # the gRPC status


def test_without_timeout_a_silent_grpc_answer_is_bounded_by_the_idle_bound(cli, pki, monkeypatch):
    """No --timeout: a unary answer that never comes ends at the idle bound (exit 5), as over HTTP."""
    import threading

    import a2acli.transport.client as client

    release = threading.Event()

    class Silent(a2a_pb2_grpc.A2AServiceServicer):
        def GetTask(self, request: Any, context: Any) -> Any:  # noqa: N802
            release.wait(10)
            return a2a_pb2.Task(id="t-1")

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    a2a_pb2_grpc.add_A2AServiceServicer_to_server(Silent(), server)
    port = _free_port()
    server.add_insecure_port(f"127.0.0.1:{port}")
    server.start()
    monkeypatch.setattr(client.TransportConfig, "__init__", _with_idle(client.TransportConfig.__init__, 0.5))
    try:
        result = cli("tasks", "get", "t-1", "--endpoint", f"127.0.0.1:{port}", "--transport", "grpc", "--plaintext")
    finally:
        release.set()
        server.stop(0)
    assert result.exit_code == 5, result.stderr


def _with_idle(init: Any, idle: float) -> Any:
    def make(self: Any, *args: Any, **kw: Any) -> None:
        kw["idle_timeout"] = idle
        init(self, *args, **kw)

    return make
