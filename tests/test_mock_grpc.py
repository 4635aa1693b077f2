"""`a2a mock` over gRPC (a2acli/recording/mock_grpc.py), in process: a dump written here as `--dump` writes a
gRPC exchange (request line `POST /<service>/<rpc> HTTP/2`, the messages as ProtoJSON and as
base64 protobuf, a stream's events and their times), served by a Mock on real grpcio ports, asked
with raw bytes over a real channel. The end-to-end run with the `a2a` commands against the demo
agent is tests/integration/test_mock_replay_real.py."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

grpc = pytest.importorskip("grpc")
a2a_pb2 = pytest.importorskip("a2a.types.a2a_pb2")

from google.protobuf import json_format  # noqa: E402
from google.rpc import error_details_pb2, status_pb2  # noqa: E402

from a2acli.recording import mock  # noqa: E402
from a2acli.recording.diff import load_dump  # noqa: E402

V1 = "lf.a2a.v1.A2AService"
V0 = "a2a.v1.A2AService"
U_MSG = "6089e13f-b2f7-48d4-bb70-11ee6bc049d2"
U_TASK = "3713d3f3-1f42-48b6-97b6-2512b9963c38"
U_CTX = "b9dca041-f013-41d5-ac33-cffe6f1f76c1"
CARD = {
    "name": "recorded agent",
    "description": "d",
    "version": "1",
    "supportedInterfaces": [
        {"url": "http://10.0.0.9:8000/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
        {"url": "grpc://10.0.0.9:8001", "protocolBinding": "GRPC", "protocolVersion": "1.0"},
        {"url": "10.0.0.9:8001", "protocolBinding": "GRPC", "protocolVersion": "0.3"},
    ],
    "capabilities": {"streaming": True},
    "defaultInputModes": ["text/plain"],
    "defaultOutputModes": ["text/plain"],
    "skills": [],
    "signatures": [{"protected": "eyJhbGciOiJFUzI1NiJ9", "signature": "c2ln"}],
}


def _send(message_id: str, user: str) -> dict:
    return {"message": {"messageId": message_id, "role": "ROLE_USER", "parts": [{"data": {"skill": "create-user", "projectUserId": user}}]}}


def _task(state: str = "TASK_STATE_COMPLETED", message_id: str = U_MSG) -> dict:
    return {
        "id": U_TASK,
        "contextId": U_CTX,
        "status": {"state": state},
        "artifacts": [{"artifactId": "a-1", "name": "user", "parts": [{"data": {"projectUserId": "u1", "n": 2}}]}],
        "history": [{"messageId": message_id, "contextId": U_CTX, "taskId": U_TASK, "role": "ROLE_USER", "parts": [{"text": "hi"}]}],
    }


class DumpWriter:
    """Writes a dump directory as DumpTap does for gRPC calls."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.mkdir()
        self.seq = 0

    def _head(self, first: str, headers: list[tuple[str, str]]) -> bytes:
        return (first + "\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers) + "\r\n").encode()

    def card(self, doc: dict) -> None:
        self.seq += 1
        stem = f"{self.seq:03d}-card"
        (self.path / f"{stem}.request.http").write_bytes(self._head("GET /.well-known/agent-card.json HTTP/1.1", []))
        (self.path / f"{stem}.request.body").write_bytes(b"")
        (self.path / f"{stem}.response.http").write_bytes(self._head("HTTP/1.1 200 OK", [("content-type", "application/json")]))
        (self.path / f"{stem}.response.body").write_bytes(json.dumps(doc).encode())
        self._index(stem, "card", "1.0", ms=5.0)

    def call(self, rpc: str, request: dict, answer: dict | list[dict], *, service: str = V1, version: str = "1.0", ms: float = 50.0, event_ms: list[float] | None = None, status: str = "200 OK", label: str | None = None) -> str:
        """One gRPC exchange: `answer` a response message (or a Status doc when `status` is not
        200), a list of messages for a stream (a last {"error": …} one: the status it ended in)."""
        from a2acli.transport.grpc import message_classes

        self.seq += 1
        label = label or rpc  # the method as sent: the V1 name, or 0.3's (`tasks/get`)
        stem = f"{self.seq:03d}-{label.replace('/', '_')}"
        path = f"/{service}/{rpc}"
        request_cls, response_cls = message_classes(path)
        (self.path / f"{stem}.request.http").write_bytes(self._head(f"POST {path} HTTP/2", [("a2a-version", version)]))
        (self.path / f"{stem}.request.body").write_bytes(json.dumps(request).encode())
        (self.path / f"{stem}.request.pb.b64").write_bytes(base64.b64encode(json_format.ParseDict(request, request_cls()).SerializeToString()) + b"\n")
        code = int(status.split()[0])
        headers = [("content-type", "application/grpc")]
        if code != 200:
            headers += [("grpc-status", "5"), ("grpc-message", answer["error"]["message"])]
        (self.path / f"{stem}.response.http").write_bytes(self._head(f"HTTP/2 {status}", headers))
        stream = isinstance(answer, list)
        if stream:
            lines = b""
            for i, event in enumerate(answer):
                (self.path / f"{stem}.event-{i + 1:04d}.json").write_text(json.dumps(event) + "\n")
                if "error" not in event:
                    lines += base64.b64encode(json_format.ParseDict(event, response_cls()).SerializeToString()) + b"\n"
            (self.path / f"{stem}.response.body").write_bytes(lines)
        else:
            (self.path / f"{stem}.response.body").write_bytes(json.dumps(answer).encode())
            if code == 200:
                (self.path / f"{stem}.response.pb.b64").write_bytes(base64.b64encode(json_format.ParseDict(answer, response_cls()).SerializeToString()) + b"\n")
        self._index(stem, label, version, ms=ms, stream=stream, events=len(answer) if stream else 0, event_ms=event_ms, status=code)
        return stem

    def _index(self, stem: str, method: str, version: str, *, ms: float, stream: bool = False, events: int = 0, event_ms: list[float] | None = None, status: int = 200) -> None:
        entry = {"seq": self.seq, "method": method, "version": version, "status": status, "ms": ms, "stream": stream, "events": events, "eventMs": event_ms, "files": stem}
        with (self.path / "index.jsonl").open("a") as f:
            f.write(json.dumps(entry) + "\n")


@pytest.fixture
def dump(tmp_path) -> Path:
    d = DumpWriter(tmp_path / "rec")
    d.card(CARD)
    d.call("SendMessage", _send(U_MSG, "u1"), {"task": _task()})
    d.call(
        "SendStreamingMessage",
        _send("m-stream-1", "u1"),
        [
            {"task": {**_task("TASK_STATE_SUBMITTED", "m-stream-1"), "artifacts": []}},
            {"statusUpdate": {"taskId": U_TASK, "contextId": U_CTX, "status": {"state": "TASK_STATE_WORKING"}}},
            {"statusUpdate": {"taskId": U_TASK, "contextId": U_CTX, "status": {"state": "TASK_STATE_COMPLETED"}}},
        ],
        ms=700.0,
        event_ms=[10.0, 300.0, 600.0],
    )
    d.call("ListTasks", {}, {"tasks": [_task()], "totalSize": 1, "pageSize": 50})
    d.call("GetTask", {"name": "tasks/t-recorded-0.3"}, {"id": "t-recorded-0.3", "contextId": "c-0.3", "status": {"state": "TASK_STATE_COMPLETED"}}, service=V0, version="0.3", label="tasks/get")
    d.call("CancelTask", {"id": "t-gone"}, {"error": {"code": 404, "status": "NOT_FOUND", "message": "Task not found", "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "TASK_NOT_FOUND", "domain": "a2a-protocol.org"}]}}, status="404 NOT_FOUND")
    return d.path


@pytest.fixture
def served(dump):
    started = []

    def start(speed: float = 0.0) -> mock.Mock:
        m = mock.Mock([load_dump(dump)], speed=speed).start()
        started.append(m)
        return m

    yield start
    for m in started:
        m.close()


def _unary(m: mock.Mock, path: str, request: bytes) -> tuple[bytes, dict]:
    with grpc.insecure_channel(f"127.0.0.1:{m.grpc.port}") as channel:
        body, call = channel.unary_unary(path).with_call(request, timeout=10)
        return body, dict(call.initial_metadata())


def _fails(m: mock.Mock, path: str, request: bytes) -> grpc.RpcError:
    with grpc.insecure_channel(f"127.0.0.1:{m.grpc.port}") as channel, pytest.raises(grpc.RpcError) as caught:
        channel.unary_unary(path)(request, timeout=10)
    return caught.value


def _details(error: grpc.RpcError) -> status_pb2.Status:
    raw = dict(error.trailing_metadata() or ())["grpc-status-details-bin"]
    return status_pb2.Status.FromString(raw)


def _message(cls, doc: dict) -> bytes:
    return json_format.ParseDict(doc, cls()).SerializeToString()


def test_a_recorded_unary_call_is_answered_and_the_clients_message_id_comes_back(served):
    m = served()
    body, metadata = _unary(m, f"/{V1}/SendMessage", _message(a2a_pb2.SendMessageRequest, _send("my-own-message", "u1")))
    answer = json_format.MessageToDict(a2a_pb2.SendMessageResponse.FromString(body))
    assert answer["task"]["id"] == U_TASK and answer["task"]["status"]["state"] == "TASK_STATE_COMPLETED"
    assert answer["task"]["history"][0]["messageId"] == "my-own-message"  # rewritten: the recorded one was U_MSG
    assert answer["task"]["artifacts"][0]["parts"][0]["data"] == {"projectUserId": "u1", "n": 2}
    assert metadata["x-a2a-mock"] == "rec/002-SendMessage"


def test_an_answer_with_no_id_to_rewrite_is_the_recorded_bytes(dump):
    recorded = dump / "004-ListTasks.response.pb.b64"
    exact = base64.b64decode(recorded.read_bytes()) + b"\x98\x06\x01"  # + field 99, unknown: re-encoding would lose it
    recorded.write_bytes(base64.b64encode(exact) + b"\n")
    with mock.Mock([load_dump(dump)], speed=0) as m:
        body, _ = _unary(m, f"/{V1}/ListTasks", b"")
    assert body == exact


def test_the_03_service_is_matched_and_its_task_id_rewritten(served):
    from a2a.compat.v0_3 import a2a_v0_3_pb2

    m = served()
    body, _ = _unary(m, f"/{V0}/GetTask", _message(a2a_v0_3_pb2.GetTaskRequest, {"name": "tasks/t-recorded-0.3"}))
    task = json_format.MessageToDict(a2a_v0_3_pb2.Task.FromString(body))
    assert task["id"] == "t-recorded-0.3" and task["status"]["state"] == "TASK_STATE_COMPLETED"
    # a task the mock neither recorded nor served: TaskNotFoundError, as gRPC says it
    error = _fails(m, f"/{V0}/GetTask", _message(a2a_v0_3_pb2.GetTaskRequest, {"name": "tasks/t-asked"}))
    assert error.code() == grpc.StatusCode.NOT_FOUND and "t-asked is not in the recording" in error.details()


def test_a_recorded_failure_is_answered_with_its_status_and_details(served):
    m = served()
    error = _fails(m, f"/{V1}/CancelTask", _message(a2a_pb2.CancelTaskRequest, {"id": "t-gone"}))
    assert error.code() == grpc.StatusCode.NOT_FOUND and error.details() == "Task not found"
    info = error_details_pb2.ErrorInfo()
    _details(error).details[0].Unpack(info)
    assert info.reason == "TASK_NOT_FOUND"


@pytest.mark.spec("A2ACLI_DEMO_SERVER_001")
def test_unmatched_requests_get_unimplemented_naming_the_closest_recording_and_the_field(served):
    m = served()
    error = _fails(m, f"/{V1}/SendMessage", _message(a2a_pb2.SendMessageRequest, _send(U_MSG, "zz")))
    assert error.code() == grpc.StatusCode.UNIMPLEMENTED
    assert "no recorded SendMessage under 1.0 over gRPC has these params" in error.details()
    assert "rec/002-SendMessage" in error.details() and "params.message.parts[0].data.projectUserId" in error.details()
    assert 'recorded "u1", got "zz"' in error.details()
    info = error_details_pb2.ErrorInfo()
    _details(error).details[0].Unpack(info)
    assert info.reason == "NO_RECORDED_ANSWER"
    assert dict(info.metadata) == {"closest": "rec/002-SendMessage", "field": "params.message.parts[0].data.projectUserId"}
    error = _fails(m, f"/{V1}/SubscribeToTask", _message(a2a_pb2.SubscribeToTaskRequest, {"id": U_TASK}))
    assert error.code() == grpc.StatusCode.UNIMPLEMENTED and "no recorded SubscribeToTask under 1.0 over gRPC" in error.details()
    assert "rec/002-SendMessage" in error.details()
    error = _fails(m, "/other.Service/Do", b"")
    assert error.code() == grpc.StatusCode.UNIMPLEMENTED and "/other.Service/Do is not an A2A rpc" in error.details()
    error = _fails(m, f"/{V1}/GetTask", b"\xff\xff\xff")
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and "the GetTask request cannot be read" in error.details()


def _stream(m: mock.Mock, request: bytes) -> tuple[float, list[dict]]:
    start = time.monotonic()
    with grpc.insecure_channel(f"127.0.0.1:{m.grpc.port}") as channel:
        events = [json_format.MessageToDict(a2a_pb2.StreamResponse.FromString(b)) for b in channel.unary_stream(f"/{V1}/SendStreamingMessage")(request, timeout=10)]
    return time.monotonic() - start, events


def test_a_stream_is_replayed_event_by_event_with_its_recorded_timing_and_speed_0_does_not_wait(served):
    request = _message(a2a_pb2.SendMessageRequest, _send("m-mine", "u1"))
    slow, events = _stream(served(speed=1), request)
    states = [(next(iter(e)), e[next(iter(e))]["status"]["state"]) for e in events]
    assert states == [("task", "TASK_STATE_SUBMITTED"), ("statusUpdate", "TASK_STATE_WORKING"), ("statusUpdate", "TASK_STATE_COMPLETED")]
    assert events[0]["task"]["history"][0]["messageId"] == "m-mine"
    assert slow >= 0.6 * 0.9
    half, _ = _stream(served(speed=2), request)
    assert 0.3 * 0.9 <= half < 0.6
    fast, events = _stream(served(speed=0), request)
    assert fast < 0.3 and len(events) == 3


def test_a_stream_that_ended_in_a_status_ends_in_it_again(tmp_path):
    d = DumpWriter(tmp_path / "failing")
    d.call("SendStreamingMessage", _send(U_MSG, "u1"), [{"task": _task("TASK_STATE_WORKING")}, {"error": {"code": 500, "status": "INTERNAL", "message": "the agent fell over"}}], event_ms=[5.0, 10.0])
    with mock.Mock([load_dump(d.path)], speed=0) as m, grpc.insecure_channel(f"127.0.0.1:{m.grpc.port}") as channel:
        got = []
        with pytest.raises(grpc.RpcError) as caught:
            for b in channel.unary_stream(f"/{V1}/SendStreamingMessage")(_message(a2a_pb2.SendMessageRequest, _send("m-2", "u1")), timeout=10):
                got.append(b)
    assert len(got) == 1 and caught.value.code() == grpc.StatusCode.INTERNAL and caught.value.details() == "the agent fell over"


def test_the_card_lists_the_grpc_interfaces_at_the_mocks_grpc_port_and_drops_its_signatures(served):
    m = served()
    card = httpx.get(m.url + "/.well-known/agent-card.json").json()
    # the interfaces the mock answers: gRPC as recorded (1.0 and 0.3), JSON-RPC under both versions
    # (the gRPC recordings written as JSON-RPC): a client that takes the first interface is answered
    assert [(i["url"], i["protocolVersion"]) for i in card["supportedInterfaces"]] == [
        (m.url + "/", "1.0"), (f"grpc://127.0.0.1:{m.grpc.port}", "1.0"), (m.url + "/", "0.3"), (f"127.0.0.1:{m.grpc.port}", "0.3")]
    assert "signatures" not in card
    (warning,) = m.warnings()
    assert "001-card" in warning and "signatures would not verify" in warning and "served without them" in warning
    assert f"gRPC on grpc://127.0.0.1:{m.grpc.port} (plaintext)" in m.summary()


def test_without_grpc_the_mock_serves_http_alone_and_says_why(dump):
    code = (
        "import sys\n"
        "sys.modules['grpc'] = None  # as if grpcio were not installed\n"
        "import httpx\n"
        "from a2acli.recording import mock\n"
        "from a2acli.recording.diff import load_dump\n"
        f"with mock.Mock([load_dump({str(dump)!r})], speed=0) as m:\n"
        "    card = httpx.get(m.url + '/.well-known/agent-card.json').json()\n"
        "    print([i['protocolBinding'] for i in card['supportedInterfaces']])\n"
        "    print(m.warnings()[0])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True).stdout
    assert "['JSONRPC', 'JSONRPC']" in out
    assert "the recorded gRPC exchanges are not served: gRPC needs the grpc extra" in out and "-m pip install 'a2a-sdk[grpc]<1.4,>=1.3'" in out


def test_a_mock_of_http_exchanges_loads_no_grpc(tmp_path):
    d = tmp_path / "http"
    d.mkdir()
    (d / "001-GetTask.request.http").write_bytes(b"POST / HTTP/1.1\r\nA2A-Version: 1.0\r\n\r\n")
    (d / "001-GetTask.request.body").write_bytes(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "t-1"}}).encode())
    (d / "001-GetTask.response.http").write_bytes(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n")
    (d / "001-GetTask.response.body").write_bytes(json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}}).encode())
    (d / "index.jsonl").write_text(json.dumps({"seq": 1, "method": "GetTask", "version": "1.0", "files": "001-GetTask"}) + "\n")
    code = (
        "import sys, httpx\n"
        "from a2acli.recording import mock\n"
        "from a2acli.recording.diff import load_dump\n"
        f"with mock.Mock([load_dump({str(d)!r})], speed=0) as m:\n"
        "    answer = httpx.post(m.url + '/', json={'jsonrpc': '2.0', 'id': 7, 'method': 'GetTask', 'params': {'id': 't-1'}}, headers={'A2A-Version': '1.0'}).json()\n"
        "print(answer['result']['id'], sorted(n for n in ('grpc', 'google.protobuf') if n in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True).stdout
    assert out.strip() == "t-1 []"


def test_mock_json_output_names_the_grpc_url_beside_the_http_one(cli, dump):
    result = cli("mock", str(dump), "--port", "0", "--grpc-port", "0", "--timeout", "0", "-o", "json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["url"].startswith("http://127.0.0.1:") and doc["grpcUrl"].startswith("grpc://127.0.0.1:")
    assert "rec/002-SendMessage" in doc["calls"]


def test_ctrl_c_stops_the_mock_as_webhook_listen_stops_and_keeps_stdout_one_document(dump):
    """Ctrl-C is the way to stop `a2a mock`: a note on stderr, exit 130, and under -o json stdout
    stays the one document it printed at start (no error document after it)."""
    import os
    import signal

    env = {k: v for k, v in os.environ.items() if not k.startswith("A2ACLI_")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "a2acli", "mock", str(dump), "--speed", "0", "-o", "json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**env, "A2ACLI_GLOBAL_CONFIG": os.devnull}
    )
    try:
        assert proc.stdout is not None
        first = b""
        while not first.endswith(b"}\n"):  # the document (indented): the mock is serving
            line = proc.stdout.readline()
            assert line, proc.stderr.read() if proc.stderr else ""
            first += line
        assert json.loads(first)["url"].startswith("http://127.0.0.1:")
        proc.send_signal(signal.SIGINT)
        rest, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert rest == b"" and b"interrupted: the mock stopped" in err and b"error:" not in err


def test_an_a2a_version_the_mock_does_not_serve_is_refused_over_grpc_too(served):
    """Issue 45 (A2A 1.0 §3.6.2): the a2a-version metadata is read over gRPC as over HTTP."""
    m = served()
    with grpc.insecure_channel(f"127.0.0.1:{m.grpc.port}") as channel, pytest.raises(grpc.RpcError) as caught:
        channel.unary_unary(f"/{V1}/GetTask")(_message(a2a_pb2.GetTaskRequest, {"id": "x"}), timeout=10, metadata=(("a2a-version", "99"),))
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "A2A-Version 99 is not served" in caught.value.details()
