"""`a2a translate --to v0|v1`: every kind of A2A document, both ways, against golden files
(tests/golden/translate/out, regenerate with A2ACLI_UPDATE_GOLDEN=1 and review the diff)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent.parent / "golden"
IN = GOLDEN / "translate" / "in"
OUT = GOLDEN / "translate" / "out"
SEED = GOLDEN / "seed"

# (input file, target version): each V1 document to V0 and each V0 one to V1, plus the seed.
CASES = [(p, "v0" if ".v1." in p.name else "v1") for p in sorted(IN.iterdir())] + [
    (SEED / "v0-create-user.request.json", "v1"),
    (SEED / "v1-create-user.request.json", "v0"),
]


def golden(path: Path, text: str) -> str:
    if os.environ.get("A2ACLI_UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return path.read_text()


@pytest.mark.parametrize("source,to", CASES, ids=[f"{p.stem}->{to}" for p, to in CASES])
def test_translate_golden(cli, source, to):
    result = cli("translate", "--to", to, str(source))
    assert result.exit_code == 0, result.stderr
    stem = ("seed-" if source.parent == SEED else "") + source.name.rsplit(".", 1)[0]
    assert result.stdout == golden(OUT / f"{stem}.to-{to}.out", result.stdout), "stdout differs from the golden file"
    assert result.stderr == golden(OUT / f"{stem}.to-{to}.err", result.stderr), "stderr differs from the golden file"
    assert "recognised: " in result.stderr.splitlines()[0]


def test_the_seed_requests_translate_into_each_other():
    """The seed's V0 example becomes its V1 example (which spells the role the clix way) and back."""
    from typer.testing import CliRunner

    from a2acli.main import app

    runner = CliRunner()
    v0, v1 = (json.loads((SEED / f"{v}-create-user.request.json").read_text()) for v in ("v0", "v1"))
    to_v1 = json.loads(runner.invoke(app, ["translate", "--to", "v1", str(SEED / "v0-create-user.request.json")]).stdout)
    assert to_v1 == v1 | {"params": {"message": v1["params"]["message"] | {"role": "ROLE_USER"}}}
    to_v0 = json.loads(runner.invoke(app, ["translate", "--to", "v0", str(SEED / "v1-create-user.request.json")]).stdout)
    assert to_v0 == v0


@pytest.mark.parametrize("name", ["task", "message", "push-config", "agent-card", "request-get-task", "request-push-get", "status-update"])
def test_round_trip_through_the_other_version(cli, tmp_path, name):
    original = json.loads((IN / f"{name}.v1.json").read_text())
    there = cli("translate", "--to", "v0", str(IN / f"{name}.v1.json"))
    back = cli("translate", "--to", "v1", "-", input=there.stdout)
    assert back.exit_code == 0, back.stderr
    restored = json.loads(back.stdout)
    if name == "message":  # a non-object data part survives; text mediaType does not (noted)
        assert "mediaType" not in restored["parts"][0] and restored["parts"][3] == original["parts"][3]
        assert "text: mediaType" in there.stderr or "mediaType" in there.stderr
    elif name == "agent-card":
        # the V0 card keeps the 0.3 interface only: it comes back as the card's one interface
        assert [i["url"] for i in restored["supportedInterfaces"]] == [original["supportedInterfaces"][1]["url"]]
        assert "1 interface(s) for other protocol versions dropped" in there.stderr
    elif name == "status-update":  # a bare V0 event comes back as the V1 StreamResponse it is on the wire
        assert restored == {"statusUpdate": original}
    else:
        assert restored == original


def test_stdin_and_a_single_sse_line(cli):
    line = 'data: {"jsonrpc":"2.0","id":1,"result":{"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}}'
    result = cli("translate", "--to", "v0", input=line + "\n")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("data: {") and result.stdout.endswith("\n\n")
    event = json.loads(result.stdout.removeprefix("data: "))
    assert event["result"] == {"kind": "status-update", "taskId": "t", "contextId": "c", "status": {"state": "working"}, "final": False}
    assert "recognised: V1 (1.0) JSON-RPC response" in result.stderr


def test_a_v0_stream_reads_its_first_task_as_a_stream_event(cli):
    events = [
        {"kind": "task", "id": "t", "contextId": "c", "status": {"state": "submitted"}},
        {"kind": "status-update", "taskId": "t", "contextId": "c", "status": {"state": "completed"}, "final": True},
    ]
    body = "".join(f"data: {json.dumps({'jsonrpc': '2.0', 'id': 1, 'result': e})}\n\n" for e in events)
    result = cli("translate", "--to", "v1", input=body)
    assert result.exit_code == 0, result.stderr
    first, second = (json.loads(chunk.removeprefix("data: "))["result"] for chunk in result.stdout.strip().split("\n\n"))
    assert first == {"task": {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_SUBMITTED"}}}
    assert second == {"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_COMPLETED"}}}


def test_method_settles_a_bare_v0_task(cli):
    doc = json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"kind": "task", "id": "t", "contextId": "c", "status": {"state": "working"}}})
    guessed = cli("translate", "--to", "v1", input=doc)
    assert "result" in json.loads(guessed.stdout) and "task" not in json.loads(guessed.stdout)["result"]
    assert "bare V0 task taken as a GetTask/CancelTask result" in guessed.stderr
    told = cli("translate", "--to", "v1", "--method", "message/send", "--compact", input=doc)
    assert json.loads(told.stdout)["result"]["task"]["status"]["state"] == "TASK_STATE_WORKING"
    assert "(SendMessage)" in told.stderr and len(told.stdout.splitlines()) == 1


@pytest.mark.parametrize("source,to", CASES, ids=[f"{p.stem}->{to}" for p, to in CASES])
def test_without_to_the_document_is_written_in_the_other_version(cli, source, to):
    result = cli("translate", str(source))
    assert result.exit_code == 0, result.stderr
    stem = ("seed-" if source.parent == SEED else "") + source.name.rsplit(".", 1)[0]
    assert result.stdout == (OUT / f"{stem}.to-{to}.out").read_text()  # as with --to the other version
    assert result.stderr == (OUT / f"{stem}.to-{to}.err").read_text()


def test_already_in_the_target_version_is_said(cli):
    result = cli("translate", "--to", "v1", str(IN / "task.v1.json"))
    assert result.exit_code == 0 and "already V1 (1.0)" in result.stderr
    assert json.loads(result.stdout) == json.loads((IN / "task.v1.json").read_text())


@pytest.mark.parametrize("argv,stdin,says", [
    (["--to", "v1"], '{"hello": "world"}', "not an A2A document"),
    (["--to", "v1"], '[1, 2]', "not an A2A document"),
    (["--to", "v1"], '{"jsonrpc": "2.0", "id": 1, "method": "x/ping"}', "not an A2A method"),
    (["--to", "v1"], "{bad", "is not valid JSON"),
    (["--to", "v1"], "data: {bad}\n", "SSE event 1 is not valid JSON"),
    (["--to", "v1"], ": only a comment\n\n", "holds no SSE data"),
    (["--to", "v3"], "{}", "is not a version"),
    ([], "{}", "not an A2A document"),
    ([], '{"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "x"}}', "cannot tell which version this JSON-RPC error response is written in"),
    (["--to", "v1", "/no/such/file.json"], None, "no such file"),
    (["--to", "v1", "--method", "Nope"], '{"jsonrpc": "2.0", "id": 1, "result": {}}', "unknown A2A method"),
])
def test_bad_input_exits_2_with_a_hint(cli, argv, stdin, says):
    result = cli("translate", *argv, input=stdin)
    assert result.exit_code == 2, result.stderr
    assert says in result.stderr and "hint:" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_method_the_result_does_not_fit_is_refused(cli):
    doc = json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"task": {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_COMPLETED"}}}})
    wrong = cli("translate", "--to", "v0", "--method", "GetTask", input=doc)
    assert wrong.exit_code == 2 and "the result does not fit --method GetTask: result.id is missing" in wrong.stderr
    right = cli("translate", "--to", "v0", "--method", "SendMessage", "--compact", input=doc)
    assert right.exit_code == 0 and json.loads(right.stdout)["result"]["kind"] == "task"
