"""a2acli.recording.diff on its own: normalising, canonicalising, comparing, reading dumps."""

from __future__ import annotations

import json

import pytest

from a2acli.errors import UsageError
from a2acli.recording import diff as diffing
from a2acli.recording.diff import MISSING, Difference, IdNormaliser, canonical, drop_defaults, prune, structural

UUID_A = "0b8a9cb2-4d5d-4499-b7c3-30fb1d35032f"
UUID_B = "ed55b29a-4193-4d2a-9000-b05792f15819"


def test_ids_are_numbered_per_value_and_kind():
    n = IdNormaliser()
    req = {"jsonrpc": "2.0", "id": "r-1", "method": "SendMessage", "params": {"message": {"messageId": "m-1", "referenceTaskIds": ["t-0"]}}}
    assert n(req) == {"jsonrpc": "2.0", "id": "<rpc-id-1>", "method": "SendMessage", "params": {"message": {"messageId": "<message-1>", "referenceTaskIds": ["<task-1>"]}}}
    resp = {"jsonrpc": "2.0", "id": "r-1", "result": {"task": {
        "id": "task-0009", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED", "timestamp": "2026-01-01T00:00:00Z"},
        "history": [{"messageId": "m-1", "taskId": "task-0009", "contextId": "c-1"}],
        "artifacts": [{"artifactId": "a-1", "parts": [{"data": {"ref": UUID_A, "when": "2025-12-31T23:59:59.5+01:00", "note": "task-0009", "short": "c-1"}}]}]}}}
    assert n(resp)["result"]["task"] == {
        "id": "<task-2>", "contextId": "<context-1>", "status": {"state": "TASK_STATE_COMPLETED", "timestamp": "<timestamp>"},
        "history": [{"messageId": "<message-1>", "taskId": "<task-2>", "contextId": "<context-1>"}],
        "artifacts": [{"artifactId": "<artifact-1>", "parts": [{"data": {"ref": "<id-1>", "when": "<timestamp>", "note": "<task-2>", "short": "c-1"}}]}],
    }


def test_integer_rpc_ids_and_values_met_again_in_text():
    n = IdNormaliser()
    assert n({"jsonrpc": "2.0", "id": 7, "result": {"id": UUID_A, "status": {}}}) == {"jsonrpc": "2.0", "id": "<rpc-id-1>", "result": {"id": "<task-1>", "status": {}}}
    assert n.text(f"POST http://a/tasks/{UUID_A}") == "POST http://a/tasks/<task-1>"
    assert n({"version": 7, "skills": [{"id": "create-user"}]}) == {"version": 7, "skills": [{"id": "create-user"}]}  # not generated


def test_two_runs_of_one_conversation_normalise_alike():
    def run(tid, mid):
        return [{"jsonrpc": "2.0", "id": mid, "params": {"message": {"messageId": mid}}},
                {"jsonrpc": "2.0", "id": mid, "result": {"task": {"id": tid, "status": {}, "history": [{"messageId": mid, "taskId": tid}]}}}]

    a, b = IdNormaliser(), IdNormaliser()
    assert [a(d) for d in run("t-1", "m-1")] == [b(d) for d in run(UUID_A, UUID_B)]


def test_drop_defaults_like_protojson_but_keeps_zero_and_user_data():
    doc = {"a": "", "b": [], "c": {}, "d": None, "e": False, "f": 0, "g": {"h": "", "i": [False]},
           "data": {"empty": "", "off": False}, "metadata": {"x": []}, "configuration": {"returnImmediately": False}}
    assert drop_defaults(doc) == {"f": 0, "g": {"i": [False]}, "data": {"empty": "", "off": False}, "metadata": {"x": []}}


def test_structural_differences_name_paths_and_kinds():
    a = {"x": 1, "y": [1, 2], "z": {"k": "v"}, "odd key": True, "t": 1}
    b = {"x": 2, "y": [1], "z": {"k": "v", "n": None}, "odd key": True, "t": True}
    assert structural(a, b, "body", "GetTask") == [
        Difference("GetTask", "body.t", 1, True, "changed"),
        Difference("GetTask", "body.x", 1, 2, "changed"),
        Difference("GetTask", "body.y[1]", 2, MISSING, "removed"),
        Difference("GetTask", "body.z.n", MISSING, None, "added"),
    ]
    assert structural(a, a, "body", "GetTask") == []
    assert Difference("GetTask", "body.y[1]", 2, MISSING, "removed").to_json() == {"exchange": "GetTask", "path": "body.y[1]", "kind": "removed", "left": 2, "right": None}
    assert structural({"a.b": 1}, {"a.b": 2}, "s", "m")[0].path == 's["a.b"]'


def test_prune_takes_glob_patterns_where_star_crosses_dots_and_brackets():
    doc = {"result": {"task": {"artifacts": [{"parts": [{"data": {"id": "user-1", "keep": 1}}]}]}}}
    pats = [diffing._glob("*.data.id")]
    assert prune(doc, "response.body", pats) == {"result": {"task": {"artifacts": [{"parts": [{"data": {"keep": 1}}]}]}}}
    assert prune(doc, "response.body", [diffing._glob("response.body.result.task.artifacts[0]")]) == {"result": {"task": {"artifacts": []}}}
    assert prune(doc, "response.body", [diffing._glob("response.body")]) is MISSING


@pytest.mark.parametrize("v0,method,role", [
    ({"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": {"kind": "message", "messageId": "m", "role": "user", "parts": [{"kind": "text", "text": "hi"}]}, "configuration": {"blocking": True}}},
     "SendMessage", "request"),
    ({"jsonrpc": "2.0", "id": 1, "result": {"kind": "task", "id": "t", "contextId": "c", "status": {"state": "input-required"}}}, "SendMessage", "response"),
    ({"jsonrpc": "2.0", "id": 1, "result": {"kind": "status-update", "taskId": "t", "contextId": "c", "status": {"state": "completed"}, "final": True}}, "SendStreamingMessage", "event"),
    ({"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "Task not found", "data": {"taskId": "t"}}}, "GetTask", "response"),
])
def test_canonical_brings_v0_to_v1(v0, method, role):
    notes: list[str] = []
    out = drop_defaults(canonical(v0, method, role, notes))
    if role == "request":
        assert out == {"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "hi"}]}}}
    elif role == "event":
        assert out["result"] == {"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_COMPLETED"}}}
    elif "error" in v0:
        assert out["error"]["data"][0]["reason"] == "TASK_NOT_FOUND" and out["error"]["data"][0]["metadata"] == {"taskId": "t"}
        assert notes
    else:
        assert out["result"] == {"task": {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_INPUT_REQUIRED"}}}


def test_canonical_card_and_untranslatable_bodies():
    v0_card = {"name": "A", "url": "http://a/rpc", "protocolVersion": "0.3.0", "preferredTransport": "JSONRPC", "supportsAuthenticatedExtendedCard": True}
    assert canonical(v0_card, "card", "response", [])["supportedInterfaces"] == [{"url": "http://a/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "0.3.0"}]
    notes: list[str] = []
    assert canonical({"x": 1}, "x-vendor/ping", "response", notes) == {"x": 1}


def write_dump(d, stem="001-GetTask", *, index=True, body=b'{"jsonrpc":"2.0","id":1,"result":{"id":"t","status":{}}}'):
    d.mkdir(parents=True, exist_ok=True)
    (d / f"{stem}.request.http").write_text("POST http://a/rpc HTTP/1.1\r\nA2A-Version: 1.0\r\nContent-Type: application/json\r\n\r\n")
    (d / f"{stem}.request.body").write_bytes(b'{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"t"}}')
    (d / f"{stem}.response.http").write_text("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n")
    (d / f"{stem}.response.body").write_bytes(body)
    if index:
        (d / "index.jsonl").write_text(json.dumps({"seq": 1, "method": "GetTask", "version": "1.0", "files": stem, "stream": False}) + "\n")


def test_load_dump_reads_index_files_and_heads(tmp_path):
    write_dump(tmp_path)
    dump = diffing.load_dump(tmp_path)
    (ex,) = dump.exchanges
    assert dump.version == "1.0" and ex.method == "GetTask" and ex.seq == 1
    assert ex.request_line == "POST http://a/rpc HTTP/1.1" and ex.request_headers == (("A2A-Version", "1.0"), ("Content-Type", "application/json"))
    assert ex.status_line == "HTTP/1.1 200 OK" and json.loads(ex.response_body)["result"]["id"] == "t"


def test_load_dump_without_index_still_reads_the_files(tmp_path):
    write_dump(tmp_path, "003-tasks_get", index=False)
    (ex,) = diffing.load_dump(tmp_path).exchanges
    assert ex.seq == 3 and ex.label == "tasks/get" and ex.method == "GetTask"  # the file name spells `/` as `_`


def test_load_dump_rejects_what_is_not_a_dump(tmp_path):
    with pytest.raises(UsageError, match="no such dump directory"):
        diffing.load_dump(tmp_path / "nope")
    (tmp_path / "f").write_text("x")
    with pytest.raises(UsageError, match="is not a directory"):
        diffing.load_dump(tmp_path / "f")
    with pytest.raises(UsageError, match="is not a dump"):
        diffing.load_dump(tmp_path)


def test_compare_and_unified_text(tmp_path):
    write_dump(tmp_path / "a")
    write_dump(tmp_path / "b", body=b'{"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"t","status":{"state":"failed"}}}')
    report = diffing.compare(diffing.load_dump(tmp_path / "a"), diffing.load_dump(tmp_path / "b"))
    assert [d.to_json() for d in report.differences if d.path != "response.shape" and not d.path.startswith("response.shape[")] == [
        {"exchange": "GetTask", "path": "response.body.result.status", "kind": "added", "left": None, "right": {"state": "TASK_STATE_FAILED"}}]
    # the right answer is a V0 task (`kind`, lowercase state) under 1.0: a shape difference too
    assert any(d.path.startswith("response.shape") and "V0-shaped under 1.0" in str(d.right) for d in report.differences)
    (section,) = [s for s in report.exchanges[0].sections if s.differences and s.name != "response.shape"]
    assert section.unified() == [
        "--- a/001-GetTask.response.body", "+++ b/001-GetTask.response.body", "@@ -2,6 +2,9 @@",
        '   "id": "<rpc-id-1>",', '   "jsonrpc": "2.0",', '   "result": {',
        '-    "id": "<task-1>"', '+    "id": "<task-1>",', '+    "status": {', '+      "state": "TASK_STATE_FAILED"', "+    }", "   }", " }",
    ]
    assert diffing.compare(diffing.load_dump(tmp_path / "a"), diffing.load_dump(tmp_path / "a")).equal


def test_a_canonical_diff_notes_shape_differences_even_when_the_content_agrees(tmp_path):
    """Issue 10: fasta2a answers a 0.3 call with a V1-shaped task and lowercase enums; canonical
    V1 makes both sides equal, so the shape is compared on its own (as received)."""
    v1 = b'{"jsonrpc":"2.0","id":1,"result":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"}}}'
    v1_shaped = b'{"jsonrpc":"2.0","id":1,"result":{"id":"t","contextId":"c","status":{"state":"completed"}}}'
    write_dump(tmp_path / "a", body=v1)
    write_dump(tmp_path / "b", body=v1_shaped)
    (tmp_path / "b" / "index.jsonl").write_text(json.dumps({"seq": 1, "method": "tasks/get", "version": "0.3", "files": "001-GetTask", "stream": False}) + "\n")
    report = diffing.compare(diffing.load_dump(tmp_path / "a"), diffing.load_dump(tmp_path / "b"))
    shape = [d for d in report.differences if d.path.startswith("response.shape")]
    assert [d.right for d in shape] == ["answer is V1-shaped under 0.3 (no `kind`)", "lowercase enum values: this agent speaks the clix dialect (V1 objects, lowercase enums)"]
    assert not report.equal
    assert diffing.compare(diffing.load_dump(tmp_path / "a"), diffing.load_dump(tmp_path / "a")).equal


def test_generated_ids_inside_strings_are_replaced():
    n = IdNormaliser()
    doc = n({"jsonrpc": "2.0", "id": 1, "result": {"name": f"e-{UUID_A}", "metadata": {"user": f"A2A_USER_{UUID_B}"}}})
    assert doc["result"] == {"name": "e-<id-1>", "metadata": {"user": "A2A_USER_<id-2>"}}


# -- what counts (issue 36): one notion of "the same" for diff and replay ----------------------------


def _ex(version: str, line: str = "POST / HTTP/1.1", body: bytes = b'{"jsonrpc": "2.0", "id": 1, "method": "GetTask"}') -> diffing.DumpedExchange:
    return diffing.DumpedExchange(1, "001-GetTask", "GetTask", version, line, (), body, "HTTP/1.1 200 OK", (), b"", (), False)


def test_the_variables_of_a_pair_are_what_differs_between_its_runs():
    assert diffing.variables(_ex("1.0"), _ex("1.0")) == ("agent", "client")
    assert diffing.variables(_ex("1.0"), _ex("0.3")) == ("agent", "client", "version")
    rest = _ex("1.0", "GET /tasks/t-1 HTTP/1.1", b"")
    assert diffing.variables(_ex("1.0"), rest) == ("agent", "client", "binding")


@pytest.mark.parametrize("path,implied,aside", [
    ("request.headers.a2a-version", ("version",), "implied by the version"),
    ("response.headers.content-type", ("version",), "implied by the version"),
    ("request.line", ("binding",), "implied by the binding"),
    ("response.status", ("binding",), "implied by the binding"),
    ("response.shape[0]", ("binding",), "implied by the binding"),
    ("request.headers.host", ("agent", "client"), "implied by the agent"),
    ("request.headers.user-agent", ("agent", "client"), "implied by the client"),
    ("response.status", ("version",), ""),  # between versions an HTTP status is the answer's
    ("response.body.result.status.state", ("version", "binding"), ""),  # an answer always counts
    ("request.headers.x-team", ("version",), ""),
])
def test_what_the_compared_variable_implies_does_not_count(path, implied, aside):
    (judged,) = diffing.judged([Difference("GetTask", path, 1, 2, "changed")], implied)
    assert judged.aside == aside


def test_the_report_counts_only_what_counts_and_says_the_rest_in_one_line(tmp_path):
    counted = Difference("GetTask", "response.body.result.id", "a", "b", "changed")
    header = Difference("GetTask", "request.headers.a2a-version", "1.0", "0.3", "changed", "implied by the version")
    card = Difference("card", "response.body.name", "x", "y", "changed", diffing.CARD_ASIDE)
    sec = diffing.Section("request.headers", {}, {}, "a", "b", differences=[header, counted])
    xd = diffing.ExchangeDiff("GetTask", _ex("1.0"), _ex("0.3"), [sec])
    cd = diffing.ExchangeDiff("card", _ex("1.0"), _ex("0.3"), [diffing.Section("response.body", {}, {}, "a", "b", differences=[card])], aside=diffing.CARD_ASIDE)
    dump = diffing.Dump(str(tmp_path), ())
    report = diffing.Report(dump, dump, [cd, xd], raw=False, keep_ids=False)
    assert report.differences == [counted] and report.aside == [card, header] and not report.equal
    assert report.aside_summary() == "2 difference(s) do not count: 1 in the card (--card compares it); 1 implied by the version (a2a-version); -v shows them"
    assert report.verdict() == "different: 1 difference(s) in 1 of 2 exchange(s) (canonical V1; ids and times aside)"
    report.exchanges = [cd]
    assert report.equal and report.verdict() == "same: the answers agree, 1 exchange(s) compared (canonical V1; ids and times aside)"
