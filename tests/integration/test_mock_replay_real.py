"""Record, replay and mock (issue 28) against real demo agents started here (fresh ones: their
user counters and task lists start empty, so a replay onto another fresh agent answers alike).

Recorded on agent A, per binding (JSON-RPC, HTTP+JSON, and gRPC when the `grpc` extra is
installed), into one dump with --dump-append: a `send --skill create-user`, a `stream --skill
slow`, a `tasks get` of the send's task and a `tasks list`. Then:
- `a2a mock` of each dump answers the same commands with the same results (gRPC on the mock's
  gRPC port, which its card lists);
- `a2a replay` of each onto a fresh agent B exits 0, onto agent C (create-user changed) exits 1."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from tests.integration.conftest import HAS_GRPC, _serve

pytestmark = pytest.mark.integration

BINDINGS = ("jsonrpc", "rest", *(("grpc",) if HAS_GRPC else ()))
CHANGED_SERVER = Path(__file__).with_name("changed_demo_server.py")
STREAM = ["stream", "--skill", "slow", "-f", "steps:=2", "-f", "delay:=0.25"]
SEND = ["send", "--skill", "create-user", "-f", "projectUserId=u1"]


@pytest.fixture(scope="module")
def a2a(run_a2a):
    """`a2a ARGS…` (exit code not asserted: `ok` does where it matters)."""
    return run_a2a


def ok(done: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    assert done.returncode == 0, done.stderr
    return done


MOCK_HINT = "the mock answers only what its dumps recorded"


def demo(port: int) -> list[str]:
    """A fresh demo agent; gRPC on a free port (grpc_port=-1) when grpcio is installed."""
    return [sys.executable, "-c", f"from a2acli.demo.server import serve; serve(port={port}, grpc_port={-1 if HAS_GRPC else 0})"]


@dataclass
class Recording:
    root: Path
    agent: str
    outputs: dict[str, dict[str, object]] = field(default_factory=dict)  # binding -> command -> parsed -o json output

    def dump(self, name: str) -> str:
        return str(self.root / name)


@pytest.fixture(scope="module")
def recording(a2a, tmp_path_factory):
    root = tmp_path_factory.mktemp("rec")
    with _serve(demo, root / "agent-a.log", "demo agent A") as url:
        rec = Recording(root, url)
        for binding in BINDINGS:
            common = ["-u", url, "--transport", binding, "-o", "json", "--dump", rec.dump(binding), "--dump-append"]
            outs: dict[str, object] = {}
            outs["send"] = json.loads(ok(a2a(*SEND, *common)).stdout)
            outs["stream"] = [json.loads(line) for line in ok(a2a(*STREAM, *common)).stdout.splitlines()]
            task = outs["send"]["task"]["id"]
            outs["get"] = json.loads(ok(a2a("tasks", "get", task, *common)).stdout)
            outs["list"] = json.loads(ok(a2a("tasks", "list", *common)).stdout)
            rec.outputs[binding] = outs
        # For the cross-run id test: a send alone, and the get of another run's task alone.
        ok(a2a("send", "--skill", "create-user", "-f", "projectUserId=u7", "-u", url, "--dump", rec.dump("send-only")))
        other = json.loads(ok(a2a("send", "--skill", "create-user", "-f", "projectUserId=u8", "-u", url, "-o", "json")).stdout)["task"]
        ok(a2a("tasks", "get", other["id"], "-u", url, "--dump", rec.dump("get-other")))
        rec.outputs["other"] = other
        # A send that carried a credential (redacted in the dump).
        ok(a2a(*SEND, "-u", url, "--api-key", "demo-key", "--dump", rec.dump("with-key")))
        yield rec


@pytest.fixture
def mock_of(a2a_bin, a2a_env, tmp_path):
    """Start `a2a mock DUMPS --speed 0` on a free port; yields its URL."""
    stack = []

    def start(*dumps: str, speed: str = "0") -> str:
        cm = _serve(lambda port: [*a2a_bin, "mock", *dumps, "--port", str(port), "--speed", speed], tmp_path / f"mock-{len(stack)}.log", "a2a mock", env=a2a_env())
        stack.append(cm)
        return cm.__enter__()

    yield start
    for cm in reversed(stack):
        cm.__exit__(None, None, None)


def _states(events: list[dict]) -> list[tuple[str, str | None]]:
    out = []
    for e in events:
        kind = next(iter(e))
        body = e[kind]
        state = (body.get("status") or {}).get("state") if kind in ("task", "statusUpdate") else None
        out.append((kind, state))
    return out


def _artifacts(task: dict) -> list:
    return [(a.get("name"), a.get("parts")) for a in task.get("artifacts") or []]


def test_a_dump_records_when_each_stream_event_came(recording):
    entries = [json.loads(line) for line in (recording.root / "jsonrpc" / "index.jsonl").read_text().splitlines()]
    (stream,) = [e for e in entries if e.get("method") == "SendStreamingMessage"]
    times = stream["eventMs"]
    assert len(times) == stream["events"] >= 4
    assert times == sorted(times)
    assert times[-1] - times[0] >= 400  # two steps of 0.25 s


@pytest.mark.spec("A2ACLI_DEMO_SERVER_001")
@pytest.mark.parametrize("binding", BINDINGS)
def test_mock_answers_the_recorded_commands_with_the_recorded_results(a2a, recording, mock_of, binding):
    url = mock_of(recording.dump(binding))
    was = recording.outputs[binding]
    common = ["-u", url, "--transport", binding, "-o", "json"]
    card = json.loads(ok(a2a("card", "fetch", "-u", url, "-o", "json")).stdout)
    assert card["name"] == "a2a demo agent"
    # the interfaces the mock answers: JSON-RPC and HTTP+JSON under both versions (a recording is
    # written in the asked form), gRPC as recorded (under 1.0, at the mock's gRPC port)
    answered = {(b, v) for b in ("JSONRPC", "HTTP+JSON") for v in ("1.0", "0.3")} | ({("GRPC", "1.0")} if binding == "grpc" else set())
    assert {(i["protocolBinding"], i["protocolVersion"]) for i in card["supportedInterfaces"]} == answered
    assert card["supportedInterfaces"][0]["protocolVersion"] == "1.0"
    # so a command that names no --transport reaches the recordings
    assert json.loads(ok(a2a(*SEND, "-u", url, "-o", "json")).stdout)["task"]["status"]["state"] == "TASK_STATE_COMPLETED"
    mock_host = url.removeprefix("http://").rsplit(":", 1)[0]
    for i in card["supportedInterfaces"]:  # moved to the mock, not the recorded agent
        assert i["url"].startswith(url) if i["protocolBinding"] != "GRPC" else i["url"].startswith(f"grpc://{mock_host}:") and i["url"] != url
    send = json.loads(ok(a2a(*SEND, *common)).stdout)["task"]
    assert send["id"] == was["send"]["task"]["id"] and send["status"]["state"] == "TASK_STATE_COMPLETED"
    assert _artifacts(send) == _artifacts(was["send"]["task"])
    events = [json.loads(line) for line in ok(a2a(*STREAM, *common)).stdout.splitlines()]
    assert _states(events) == _states(was["stream"])
    assert events[-2]["artifactUpdate"]["artifact"]["parts"] == was["stream"][-2]["artifactUpdate"]["artifact"]["parts"]
    got = json.loads(ok(a2a("tasks", "get", send["id"], *common)).stdout)
    assert (got["id"], got["contextId"], got["status"]["state"], _artifacts(got)) == (send["id"], send["contextId"], "TASK_STATE_COMPLETED", _artifacts(was["get"]))
    listed = json.loads(ok(a2a("tasks", "list", *common)).stdout)
    assert [(t["id"], t["status"]["state"]) for t in listed["tasks"]] == [(t["id"], t["status"]["state"]) for t in was["list"]["tasks"]]


def test_mock_of_a_send_and_another_runs_get_answers_get_of_the_sent_task(a2a, recording, mock_of):
    """Ids rewritten consistently: the recorded GetTask was of another task; asked for the task the
    mock's send gave, it answers under that id, in the context the send gave."""
    url = mock_of(recording.dump("send-only"), recording.dump("get-other"))
    sent = json.loads(ok(a2a("send", "--skill", "create-user", "-f", "projectUserId=u7", "-u", url, "-o", "json")).stdout)["task"]
    other = recording.outputs["other"]
    assert sent["id"] != other["id"]
    got = json.loads(ok(a2a("tasks", "get", sent["id"], "-u", url, "-o", "json")).stdout)
    assert got["id"] == sent["id"] and got["contextId"] == sent["contextId"]
    assert got["artifacts"][0]["parts"][0]["data"]["projectUserId"] == "u8"  # the recorded answer, under the asked id
    assert other["id"] not in json.dumps(got) and other["contextId"] not in json.dumps(got)


def test_mock_answers_with_the_requests_jsonrpc_id_and_the_clients_message_id(a2a, recording, mock_of):
    url = mock_of(recording.dump("jsonrpc"))
    task = recording.outputs["jsonrpc"]["send"]["task"]["id"]
    raw = json.loads(ok(a2a("call", "GetTask", json.dumps({"id": task}), "--request-id", "req-42", "-u", url, "-o", "raw")).stdout)
    assert raw["id"] == "req-42" and raw["result"]["id"] == task
    sent = json.loads(ok(a2a(*SEND, "--message-id", "my-message-1", "-u", url, "-o", "json")).stdout)["task"]
    assert sent["history"][0]["messageId"] == "my-message-1"


def test_mock_unmatched_jsonrpc_requests_get_jsonrpc_errors_naming_the_closest_recording(a2a, recording, mock_of):
    url = mock_of(recording.dump("jsonrpc"))
    done = a2a("send", "--skill", "create-user", "-f", "projectUserId=zz", "-u", url, "-o", "json")
    assert done.returncode == 1
    err = json.loads(done.stdout)["error"]
    assert err["a2aCode"] == -32602
    assert "jsonrpc/002-SendMessage" in err["message"] and "params.message.parts[0].data.projectUserId" in err["message"] and '"zz"' in err["message"]
    assert MOCK_HINT in err["hint"]  # not the agent's "rejected the params" hint: the recordings'
    known = recording.outputs["jsonrpc"]["send"]["task"]["id"]  # a recorded task: its cancel was never recorded
    done = a2a("tasks", "cancel", known, "-u", url, "-o", "json")
    assert done.returncode == 1
    err = json.loads(done.stdout)["error"]
    assert err["a2aCode"] == -32601 and "no recorded CancelTask under 1.0 over JSON-RPC" in err["message"] and "jsonrpc/002-SendMessage" in err["message"]
    assert MOCK_HINT in err["hint"]  # not "pass --a2a-version 0.3"
    # a task the recording never saw: TaskNotFoundError, as an agent says, recorded method or not (issue 45)
    unknown = json.loads(a2a("tasks", "cancel", "t-1", "-u", url, "-o", "json").stdout)["error"]
    assert unknown["a2aCode"] == -32001, unknown


def test_mock_unmatched_rest_requests_get_a_status_naming_the_closest_recording(a2a, recording, mock_of):
    url = mock_of(recording.dump("rest"))
    done = a2a("send", "--skill", "create-user", "-f", "projectUserId=zz", "-u", url, "--transport", "rest")
    assert done.returncode == 1
    assert "InvalidParamsError" in done.stderr and "rest/002-SendMessage" in done.stderr and "params.message.parts[0].data.projectUserId" in done.stderr
    assert MOCK_HINT in done.stderr
    known = recording.outputs["rest"]["send"]["task"]["id"]
    answer = httpx.post(url + f"/tasks/{known}:cancel", json={}, headers={"A2A-Version": "1.0"})
    assert answer.status_code == 404
    status = answer.json()["error"]
    assert status["status"] == "NOT_FOUND" and "no recorded CancelTask under 1.0 over HTTP+JSON" in status["message"]
    assert [d["reason"] for d in status["details"]] == ["METHOD_NOT_FOUND", "NO_RECORDED_ANSWER"]  # MethodNotFoundError, from the mock


@pytest.mark.skipif(not HAS_GRPC, reason="the grpc extra is not installed")
def test_mock_unmatched_grpc_requests_get_unimplemented_naming_the_closest_recording(a2a, recording, mock_of):
    url = mock_of(recording.dump("grpc"))
    done = a2a("send", "--skill", "create-user", "-f", "projectUserId=zz", "-u", url, "--transport", "grpc", "-o", "json")
    assert done.returncode == 1
    err = json.loads(done.stdout)["error"]
    assert err["a2aCode"] == "UNIMPLEMENTED"
    assert "grpc/002-SendMessage" in err["message"] and "params.message.parts[0].data.projectUserId" in err["message"] and '"zz"' in err["message"]
    assert err["data"][0]["metadata"] == {"closest": "grpc/002-SendMessage", "field": "params.message.parts[0].data.projectUserId"}
    done = a2a("tasks", "cancel", recording.outputs["grpc"]["send"]["task"]["id"], "-u", url, "--transport", "grpc")
    assert done.returncode == 1
    assert "UNIMPLEMENTED" in done.stderr and "no recorded CancelTask under 1.0 over gRPC" in done.stderr and "grpc/002-SendMessage" in done.stderr
    assert MOCK_HINT in done.stderr


@pytest.mark.skipif(not HAS_GRPC, reason="the grpc extra is not installed")
def _lines_in_time(argv: list[str], env: dict[str, str]) -> list[float]:
    """When each line of a command's stdout arrived (monotonic seconds): the pacing of a stream as
    its reader sees it, whatever the command's start-up costs on a busy machine."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    stamps = [time.monotonic() for _ in proc.stdout]
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    return stamps


def test_mock_replays_a_grpc_stream_with_its_recorded_timing(a2a_bin, a2a_env, recording, mock_of):
    """The recorded gaps between events, replayed at --speed 1 and dropped at --speed 0: measured
    between the events as they reach the reader, not over the whole command (start-up varies)."""
    index = [json.loads(line) for line in (recording.root / "grpc" / "index.jsonl").read_text().splitlines()]
    (entry,) = [e for e in index if e.get("method") == "SendStreamingMessage"]
    gaps = (entry["eventMs"][-1] - entry["eventMs"][0]) / 1000
    assert gaps >= 0.2  # the recording paced its events (the slow skill's delay)
    spread = {}
    for speed in ("1", "0"):
        url = mock_of(recording.dump("grpc"), speed=speed)
        stamps = _lines_in_time([*a2a_bin, *STREAM, "-u", url, "--transport", "grpc", "-o", "json"], a2a_env())
        assert len(stamps) == entry["events"]
        spread[speed] = stamps[-1] - stamps[0]
    assert spread["1"] >= gaps * 0.9  # waits are never shorter than asked
    assert spread["0"] < gaps * 0.5  # no recorded wait: the events come together


def _stream_seconds(url: str, body: bytes) -> tuple[float, int]:
    start = time.monotonic()
    events = 0
    with httpx.stream("POST", url + "/", content=body, headers={"Content-Type": "application/json", "Accept": "text/event-stream", "A2A-Version": "1.0"}, timeout=30) as r:
        for line in r.iter_lines():
            events += line.startswith("data:")
    return time.monotonic() - start, events


def test_mock_replays_a_stream_with_its_recorded_timing_and_speed_0_does_not_wait(recording, mock_of):
    index = [json.loads(line) for line in (recording.root / "jsonrpc" / "index.jsonl").read_text().splitlines()]
    (entry,) = [e for e in index if e.get("method") == "SendStreamingMessage"]
    body = (recording.root / "jsonrpc" / f"{entry['files']}.request.body").read_bytes()
    span = entry["eventMs"][-1] / 1000
    slow, n = _stream_seconds(mock_of(recording.dump("jsonrpc"), speed="1"), body)
    assert n == entry["events"] and slow >= span * 0.9
    fast, n = _stream_seconds(mock_of(recording.dump("jsonrpc"), speed="0"), body)
    assert n == entry["events"] and fast < span / 2


def test_replay_onto_a_fresh_agent_exits_0_and_dumps_beside_the_old(a2a, recording, tmp_path):
    with _serve(demo, tmp_path / "agent-b.log", "demo agent B") as url:
        for binding in BINDINGS:  # in recorded order: agent B's tasks then are A's
            done = a2a("replay", recording.dump(binding), "--to", url, "--save", str(tmp_path / binding))
            assert done.returncode == 0, done.stdout + done.stderr
            assert done.stderr.splitlines()[-1].endswith(": same: the answers agree, 5 exchange(s) compared (canonical V1; ids and times aside)"), done.stderr
            # four runs appended to the dump, four card fetches; the replay fetched the card once:
            # the three left unpaired are no difference
            assert "only in the left" not in done.stdout and "-card" not in done.stdout.replace("001-card", "")
            new = [json.loads(line)["method"] for line in (tmp_path / binding / "index.jsonl").read_text().splitlines()]
            assert [m for m in new if m != "card"] == ["SendMessage", "SendStreamingMessage", "GetTask", "ListTasks"]
        # --keep-ids (as a2a diff's): new task ids are differences then, so the answers differ
        done = a2a("replay", recording.dump("jsonrpc"), "--to", url, "--save", str(tmp_path / "kept"), "--keep-ids")
        assert done.returncode == 1 and ": different: " in done.stderr.splitlines()[-1], done.stderr
        assert "ids kept" in done.stderr.splitlines()[-1]
        # -q: the verdict alone, still the last line (agent B numbered users on: the answers differ)
        quiet = a2a("replay", recording.dump("jsonrpc"), "--to", url, "--save", str(tmp_path / "quiet"), "-q")
        assert quiet.returncode == 1, quiet.stderr
        assert len(quiet.stderr.splitlines()) == 1 and quiet.stderr.startswith("replayed 4 request(s) to "), quiet.stderr
        assert ": different: " in quiet.stderr and "=== SendMessage" in quiet.stdout


def test_replay_onto_an_agent_that_answers_differently_exits_1_and_shows_the_difference(a2a, recording, tmp_path):
    with _serve(lambda port: [sys.executable, str(CHANGED_SERVER), str(port)], tmp_path / "agent-c.log", "changed demo agent") as url:
        done = a2a("replay", recording.dump("jsonrpc"), "--to", url, "--save", str(tmp_path / "text"))
        assert done.returncode == 1, done.stderr
        assert '+                "role": "admin"' in done.stdout
        assert ": different: " in done.stderr.splitlines()[-1]
        doc = json.loads(a2a("replay", recording.dump("rest"), "--to", url, "--save", str(tmp_path / "json"), "-o", "json").stdout)
        assert doc["answersEqual"] is False
        paths = {d["path"] for d in doc["answerDifferences"]}
        assert "response.body.result.task.artifacts[0].parts[0].data.role" in paths


@pytest.mark.skipif(not HAS_GRPC, reason="the grpc extra is not installed")
def test_replay_of_a_grpc_dump_onto_an_agent_that_answers_differently_exits_1(a2a, recording, tmp_path):
    with _serve(lambda port: [sys.executable, str(CHANGED_SERVER), str(port)], tmp_path / "agent-c.log", "changed demo agent") as url:
        doc = json.loads(a2a("replay", recording.dump("grpc"), "--to", url, "--save", str(tmp_path / "grpc"), "-o", "json").stdout)
    assert doc["replay"]["transport"] == "grpc" and doc["answersEqual"] is False
    assert "response.body.result.task.artifacts[0].parts[0].data.role" in {d["path"] for d in doc["answerDifferences"]}
    new = [json.loads(line)["url"] for line in (tmp_path / "grpc" / "index.jsonl").read_text().splitlines()]
    assert any(u.startswith("grpc://") and u.endswith("/lf.a2a.v1.A2AService/SendMessage") for u in new)


@pytest.mark.skipif(not HAS_GRPC, reason="the grpc extra is not installed")
def test_replay_of_a_jsonrpc_dump_with_transport_grpc_sends_over_grpc_and_exits_0(a2a, recording, tmp_path):
    with _serve(demo, tmp_path / "agent-f.log", "demo agent F") as url:
        done = a2a("replay", recording.dump("jsonrpc"), "--to", url, "--transport", "grpc", "--save", str(tmp_path / "over-grpc"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "under 1.0 over grpc, new dump in " in done.stderr.splitlines()[-1]
    assert done.stderr.splitlines()[-1].endswith(": same: the answers agree, 5 exchange(s) compared (canonical V1; ids and times aside)")
    sent = [json.loads(line) for line in (tmp_path / "over-grpc" / "index.jsonl").read_text().splitlines()]
    assert [e["url"].rsplit("/", 1)[1] for e in sent if e["method"] != "card"] == ["SendMessage", "SendStreamingMessage", "GetTask", "ListTasks"]
    assert all(e["url"].startswith("grpc://") for e in sent if e["method"] != "card")


def test_replay_under_another_version_translates_each_request(a2a, recording, tmp_path):
    with _serve(demo, tmp_path / "agent-d.log", "demo agent D") as url:
        done = a2a("replay", recording.dump("jsonrpc"), "--to", url, "--a2a-version", "0.3", "--save", str(tmp_path / "v0"), "-o", "json")
        doc = json.loads(done.stdout)
        outcomes = {r["method"]: r["outcome"] for r in doc["replay"]["requests"]}
        assert outcomes["SendMessage"] == "answered" and outcomes["GetTask"] == "answered"
        assert outcomes["ListTasks"].startswith("not sent: ListTasks has no V0 (0.3) form")  # 0.3 has no tasks/list
        sent = [json.loads(line)["method"] for line in (tmp_path / "v0" / "index.jsonl").read_text().splitlines()]
        assert sent[1:] == ["message/send", "message/stream", "tasks/get"]
        assert done.returncode == 1  # a request could not be replayed


def test_replay_names_redacted_credentials_and_sends_a_message_once(a2a, recording, tmp_path):
    dump = tmp_path / "twice"
    source = Path(recording.dump("with-key"))
    dump.mkdir()
    for f in source.iterdir():
        (dump / f.name).write_bytes(f.read_bytes())
    lines = (source / "index.jsonl").read_text().splitlines()
    send = json.loads(lines[-1])
    for f in source.glob(f"{send['files']}.*"):  # the same send again, as a retried send leaves it
        (dump / f.name.replace("002-", "003-")).write_bytes(f.read_bytes())
    (dump / "index.jsonl").write_text("\n".join([*lines, json.dumps({**send, "seq": 3, "files": send["files"].replace("002-", "003-")})]) + "\n")
    assert "<redacted>" in (dump / "002-SendMessage.request.http").read_text()
    with _serve(demo, tmp_path / "agent-e.log", "demo agent E") as url:
        done = a2a("replay", str(dump), "--to", url, "--save", str(tmp_path / "new"))
    assert "recorded with a credential (redacted in the dump): 002-SendMessage (X-API-Key), 003-SendMessage (X-API-Key)" in done.stderr
    assert "pass --api-key, --bearer or -H" in done.stderr
    assert "003-SendMessage SendMessage: not sent again" in done.stderr
    sent = [json.loads(line)["method"] for line in (tmp_path / "new" / "index.jsonl").read_text().splitlines()]
    assert sent.count("SendMessage") == 1


def test_a_v1_send_against_the_mock_of_a_v0_recording_answers_with_the_recorded_result(a2a, mock_of, tmp_path):
    with _serve(demo, tmp_path / "agent-g.log", "demo agent G") as url:
        recorded = json.loads(ok(a2a(*SEND, "-u", url, "--a2a-version", "0.3", "-o", "json", "--dump", str(tmp_path / "v0"))).stdout)
    mock_url = mock_of(str(tmp_path / "v0"))
    for transport in ("jsonrpc", "rest"):
        got = json.loads(ok(a2a(*SEND, "-u", mock_url, "--a2a-version", "1.0", "--transport", transport, "-o", "json", "--as", "v1")).stdout)
        assert got["task"]["artifacts"][0]["parts"][0]["data"] == recorded["artifacts"][0]["parts"][0]["data"]
        assert got["task"]["status"]["state"] == "TASK_STATE_COMPLETED"


def test_check_against_the_mock_of_the_demo_agent_passes(a2a, mock_of, tmp_path):
    """`a2a check --dump` records the demo agent's answers to check's own calls; the mock of that
    recording passes the same checks (unknown task ids, methods and versions included)."""
    with _serve(demo, tmp_path / "agent-h.log", "demo agent H") as url:
        ok(a2a("check", "-u", url, "--dump", str(tmp_path / "check")))
    done = a2a("check", "-u", mock_of(str(tmp_path / "check")))
    assert done.returncode == 0, done.stdout + done.stderr
    assert " 0 failed" in done.stdout + done.stderr


def test_replay_against_the_mock_of_its_own_recording_agrees(a2a, recording, mock_of):
    """The mock's own headers (`Server`, `X-A2A-Mock`) are the agent's name, not its answer: a
    recording replayed against its mock agrees (exit 0), with `--to` given as a bare host:port
    (read as -u reads it: http on loopback)."""
    url = mock_of(recording.dump("jsonrpc"))
    done = a2a("replay", recording.dump("jsonrpc"), "--to", url.removeprefix("http://"), "-q")
    assert done.returncode == 0, done.stderr
    assert ": same: the answers agree" in done.stderr.rstrip().splitlines()[-1], done.stderr


def test_diff_over_a_binding_the_card_does_not_offer_is_refused_not_compared(a2a, recording, mock_of):
    """`--transport grpc` against an agent whose card lists no gRPC interface falls back to another
    binding: `diff` says so (exit 1) instead of labelling a JSON-RPC run "gRPC" and agreeing."""
    url = mock_of(recording.dump("jsonrpc"))
    done = a2a("diff", "-u", url, "--transport", "grpc", "--transport", "rest", "--", *SEND)
    if HAS_GRPC and "gRPC" in a2a("card", "fetch", "-u", url, "-o", "json").stdout:
        pytest.skip("the mock's card lists gRPC here")
    assert done.returncode == 1, done.stderr
    assert "the gRPC side ran over JSON-RPC: the agent's card offers no gRPC interface" in done.stderr
    assert "UnsupportedOperationError" in done.stderr and "same:" not in done.stderr
