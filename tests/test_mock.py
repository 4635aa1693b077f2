"""`a2a mock` over HTTP (a2acli/mock.py), in process: dumps written here as `--dump` writes them,
served by a Mock on a real port, asked with httpx. The end-to-end runs with the `a2a` commands
against the demo agent are in tests/integration/test_mock_replay_real.py."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from a2acli import mock, webhook


def test_the_mock_and_the_webhook_receiver_answer_without_nagle(tmp_path):
    """TCP_NODELAY on every accepted connection (http.server's disable_nagle_algorithm): a
    kept-alive client's second request is not held behind its delayed ACK (~40 ms a call)."""
    served = mock.Mock(mock.load([str(write_send_dump(tmp_path / "rec", "1.0"))]), speed=0)
    try:
        assert served.server.RequestHandlerClass.disable_nagle_algorithm is True
    finally:
        served.server.server_close()
    assert webhook._handler(None).disable_nagle_algorithm is True  # type: ignore[arg-type]


# -- dumps ---------------------------------------------------------------------------------------------

TASK_V1 = {
    "id": "11111111-1111-4111-8111-111111111111",
    "contextId": "22222222-2222-4222-8222-222222222222",
    "status": {"state": "TASK_STATE_COMPLETED", "timestamp": "2026-01-01T00:00:00Z"},
    "artifacts": [{"artifactId": "a-1", "name": "user", "parts": [{"data": {"id": "user-1", "projectUserId": "u1"}}]}],
}
TASK_V0 = {
    "kind": "task",
    "id": TASK_V1["id"],
    "contextId": TASK_V1["contextId"],
    "status": {"state": "completed", "timestamp": "2026-01-01T00:00:00Z"},
    "artifacts": [{"artifactId": "a-1", "name": "user", "parts": [{"kind": "data", "data": {"id": "user-1", "projectUserId": "u1"}}]}],
}
MESSAGE_ID = "33333333-3333-4333-8333-333333333333"


def card(version: str) -> dict:
    if version == "1.0":
        return {"name": "rec", "description": "d", "version": "1", "capabilities": {},
                "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"], "skills": [],
                "supportedInterfaces": [
                    {"url": "http://10.0.0.9:8000/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
                    {"url": "http://10.0.0.9:8000", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
                ]}
    return {"name": "rec", "description": "d", "version": "1", "protocolVersion": "0.3.0", "url": "http://10.0.0.9:8000/",
            "preferredTransport": "JSONRPC", "capabilities": {}, "defaultInputModes": ["text/plain"],
            "defaultOutputModes": ["text/plain"], "skills": [],
            "additionalInterfaces": [{"url": "http://10.0.0.9:8000", "transport": "HTTP+JSON"}]}


def _exchange(d: Path, seq: int, stem: str, method: str, version: str, line: str, body: bytes, answer: bytes) -> dict:
    (d / f"{stem}.request.http").write_text(f"{line}\nHost: 10.0.0.9:8000\nA2A-Version: {version}\nContent-Type: application/json\n\n")
    (d / f"{stem}.request.body").write_bytes(body)
    (d / f"{stem}.response.http").write_text("HTTP/1.1 200 OK\ncontent-type: application/json\n\n")
    (d / f"{stem}.response.body").write_bytes(answer)
    return {"seq": seq, "method": method, "version": version, "status": 200, "files": stem}


def write_send_dump(d: Path, version: str) -> Path:
    """A card fetch and a JSON-RPC send of create-user, recorded under `version`."""
    d.mkdir(parents=True)
    v0 = version == "0.3"
    message = {"messageId": MESSAGE_ID, "role": "user" if v0 else "ROLE_USER",
               "parts": [{"kind": "data", "data": {"skill": "create-user", "projectUserId": "u1"}} if v0 else {"data": {"skill": "create-user", "projectUserId": "u1"}}]}
    if v0:
        message["kind"] = "message"
    request = {"jsonrpc": "2.0", "id": "r-1", "method": "message/send" if v0 else "SendMessage", "params": {"message": message}}
    answer = {"jsonrpc": "2.0", "id": "r-1", "result": TASK_V0 if v0 else {"task": TASK_V1}}
    entries = [
        _exchange(d, 1, "001-card", "card", version, "GET /.well-known/agent-card.json HTTP/1.1", b"", json.dumps(card(version)).encode()),
        _exchange(d, 2, "002-" + ("message_send" if v0 else "SendMessage"), "message/send" if v0 else "SendMessage", version,
                  "POST / HTTP/1.1", json.dumps(request).encode(), json.dumps(answer).encode()),
    ]
    (d / "index.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))
    return d
