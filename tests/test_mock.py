"""`a2a mock` over HTTP (a2acli/recording/mock.py), in process: dumps written here as `--dump` writes them,
served by a Mock on a real port, asked with httpx. The end-to-end runs with the `a2a` commands
against the demo agent are in tests/integration/test_mock_replay_real.py."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from a2acli import webhook
from a2acli.recording import mock


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
    """A card fetch, a JSON-RPC send of create-user and a GetTask of its task, recorded under `version`."""
    d.mkdir(parents=True)
    v0 = version == "0.3"
    message = {"messageId": MESSAGE_ID, "role": "user" if v0 else "ROLE_USER",
               "parts": [{"kind": "data", "data": {"skill": "create-user", "projectUserId": "u1"}} if v0 else {"data": {"skill": "create-user", "projectUserId": "u1"}}]}
    if v0:
        message["kind"] = "message"
    request = {"jsonrpc": "2.0", "id": "r-1", "method": "message/send" if v0 else "SendMessage", "params": {"message": message}}
    answer = {"jsonrpc": "2.0", "id": "r-1", "result": TASK_V0 if v0 else {"task": TASK_V1}}
    get = {"jsonrpc": "2.0", "id": "r-2", "method": "tasks/get" if v0 else "GetTask", "params": {"id": TASK_V1["id"]}}
    got = {"jsonrpc": "2.0", "id": "r-2", "result": TASK_V0 if v0 else TASK_V1}
    entries = [
        _exchange(d, 1, "001-card", "card", version, "GET /.well-known/agent-card.json HTTP/1.1", b"", json.dumps(card(version)).encode()),
        _exchange(d, 2, "002-" + ("message_send" if v0 else "SendMessage"), "message/send" if v0 else "SendMessage", version,
                  "POST / HTTP/1.1", json.dumps(request).encode(), json.dumps(answer).encode()),
        _exchange(d, 3, "003-" + ("tasks_get" if v0 else "GetTask"), get["method"], version, "POST / HTTP/1.1",
                  json.dumps(get).encode(), json.dumps(got).encode()),
    ]
    (d / "index.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))
    return d


@pytest.fixture
def served_v0(tmp_path):
    with mock.Mock(mock.load([str(write_send_dump(tmp_path / "rec", "0.3"))]), speed=0) as served:
        yield served


def send_body(method: str, role: str, kind: bool) -> dict:
    part = {"data": {"skill": "create-user", "projectUserId": "u1"}}
    message = {"messageId": "44444444-4444-4444-8444-444444444444", "role": role, "parts": [{**part, "kind": "data"} if kind else part]}
    if kind:
        message["kind"] = "message"
    return {"jsonrpc": "2.0", "id": 7, "method": method, "params": {"message": message}}


def test_a_v0_recording_answers_a_v1_client_with_the_recorded_result(served_v0):
    answer = httpx.post(served_v0.url + "/", json=send_body("SendMessage", "ROLE_USER", False), headers={"A2A-Version": "1.0"})
    assert answer.status_code == 200
    doc = answer.json()
    assert doc["id"] == 7 and doc["result"]["task"]["status"]["state"] == "TASK_STATE_COMPLETED"
    assert doc["result"]["task"]["artifacts"][0]["parts"] == [{"data": {"id": "user-1", "projectUserId": "u1"}}]
    # the same over HTTP+JSON, in both versions, though only JSON-RPC 0.3 was recorded
    rest = httpx.post(served_v0.url + "/message:send", json={"message": send_body("", "ROLE_USER", False)["params"]["message"]}, headers={"A2A-Version": "1.0"})
    assert rest.status_code == 200 and rest.headers["content-type"] == "application/a2a+json"
    assert rest.json()["task"]["artifacts"][0]["parts"][0]["data"]["id"] == "user-1"
    v0 = httpx.post(served_v0.url + "/", json=send_body("message/send", "user", True), headers={"A2A-Version": "0.3"})
    assert v0.json()["result"]["status"]["state"] == "completed" and v0.json()["result"]["kind"] == "task"


def test_the_card_of_each_version_lists_every_interface_the_mock_answers(served_v0):
    v1 = httpx.get(served_v0.url + "/.well-known/agent-card.json", headers={"A2A-Version": "1.0"}).json()
    assert {(i["protocolBinding"], i["protocolVersion"][:3]) for i in v1["supportedInterfaces"]} == {
        ("JSONRPC", "1.0"), ("HTTP+JSON", "1.0"), ("JSONRPC", "0.3"), ("HTTP+JSON", "0.3")}
    assert v1["supportedInterfaces"][0]["protocolVersion"] == "1.0"
    assert all(i["url"].startswith(served_v0.url) for i in v1["supportedInterfaces"])
    v0 = httpx.get(served_v0.url + "/.well-known/agent-card.json", headers={"A2A-Version": "0.3"}).json()
    assert v0["url"] == served_v0.url + "/" and v0["preferredTransport"] == "JSONRPC"


def test_an_unknown_task_is_task_not_found_in_each_binding_s_form(served_v0):
    unknown = "55555555-5555-4555-8555-555555555555"
    rpc = httpx.post(served_v0.url + "/", json={"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": unknown}}, headers={"A2A-Version": "1.0"}).json()
    assert rpc["error"]["code"] == -32001 and rpc["id"] == 1
    rest = httpx.get(f"{served_v0.url}/tasks/{unknown}", headers={"A2A-Version": "1.0"})
    assert rest.status_code == 404
    assert rest.json()["error"]["details"][0]["reason"] == "TASK_NOT_FOUND"
    # the recorded task is known: its recorded answer, in the asked version and binding
    known = httpx.post(served_v0.url + "/", json={"jsonrpc": "2.0", "id": 2, "method": "GetTask", "params": {"id": TASK_V1["id"]}}, headers={"A2A-Version": "1.0"}).json()
    assert known["result"]["status"]["state"] == "TASK_STATE_COMPLETED"
    assert httpx.get(f"{served_v0.url}/tasks/{TASK_V1['id']}", headers={"A2A-Version": "1.0"}).json()["id"] == TASK_V1["id"]


def test_an_unrecorded_method_is_method_not_found_and_an_unknown_version_is_refused(served_v0):
    rest = httpx.get(f"{served_v0.url}/tasks", headers={"A2A-Version": "1.0"})
    assert rest.status_code == 404
    assert [d["reason"] for d in rest.json()["error"]["details"]] == ["METHOD_NOT_FOUND", "NO_RECORDED_ANSWER"]
    bad = httpx.post(served_v0.url + "/", json=send_body("SendMessage", "ROLE_USER", False), headers={"A2A-Version": "99.0"}).json()
    assert bad["error"]["code"] == -32009


def test_mock_timeout_takes_a_duration(cli, tmp_path):
    dump = write_send_dump(tmp_path / "rec", "1.0")
    result = cli("mock", str(dump), "--port", "0", "--timeout", "100ms", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["url"].startswith("http://127.0.0.1:")
    bad = cli("mock", str(dump), "--timeout", "2 weeks")
    assert bad.exit_code == 2 and "is not a duration" in bad.stderr


@pytest.fixture
def served_send_only(tmp_path):
    """A recording of a card and a send only: no GetTask, CancelTask or SubscribeToTask recorded."""
    d = write_send_dump(tmp_path / "rec", "1.0")
    entries = [json.loads(line) for line in (d / "index.jsonl").read_text().splitlines()]
    (d / "index.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries if e["method"] != "GetTask"))
    with mock.Mock(mock.load([str(d)]), speed=0) as served:
        yield served


@pytest.mark.parametrize(("method", "version"), [("GetTask", "1.0"), ("CancelTask", "1.0"), ("SubscribeToTask", "1.0"), ("tasks/get", "0.3"), ("tasks/cancel", "0.3"), ("tasks/resubscribe", "0.3")])
def test_an_unknown_task_is_task_not_found_even_when_the_method_was_never_recorded(served_send_only, method, version):
    """Issue 45: as an agent answers, not -32601 (the method not recorded is the mock's matter)."""
    unknown = "55555555-5555-4555-8555-555555555555"
    rpc = httpx.post(served_send_only.url + "/", json={"jsonrpc": "2.0", "id": 3, "method": method, "params": {"id": unknown}}, headers={"A2A-Version": version})
    doc = rpc.json()
    assert doc["error"]["code"] == -32001 and doc["id"] == 3, doc


def test_the_rest_subscribe_route_by_either_verb_and_a_wrong_jsonrpc_version(served_send_only):
    unknown = "55555555-5555-4555-8555-555555555555"
    for verb in ("GET", "POST"):
        for path, version in ((f"/tasks/{unknown}:subscribe", "1.0"), (f"/v1/tasks/{unknown}:subscribe", "0.3")):
            answer = httpx.request(verb, served_send_only.url + path, headers={"A2A-Version": version})
            assert answer.status_code == 404 and answer.json()["error"]["details"][0]["reason"] == "TASK_NOT_FOUND", (verb, path, answer.text)
    wrong = httpx.post(served_send_only.url + "/", json={"jsonrpc": "1.0", "id": 4, "method": "GetTask", "params": {"id": unknown}}).json()
    assert wrong["error"]["code"] == -32600 and wrong["id"] == 4
