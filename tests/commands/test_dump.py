"""`--dump DIR`: every exchange byte for byte, numbered, with index.jsonl; credentials redacted in
every file; complete even when the call fails, times out or is interrupted mid-stream."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from a2a_testkit import AGENT, ANY_CREDENTIAL, RPC, rpc_result, sse, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
V1_TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}
V0_TASK = {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "completed"}}
V1_EVENTS = [
    {"task": {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_SUBMITTED"}}},
    {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}}},
    {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}},
]


@pytest.fixture
def agent(respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card(), headers={"X-Request-ID": "card-req"})
    return respx_mock


def index(d: Path) -> list[dict]:
    return [json.loads(line) for line in (d / "index.jsonl").read_text().splitlines()]


def names(d: Path) -> list[str]:
    return sorted(p.name for p in d.iterdir())


# -- what a dump holds ------------------------------------------------------------------------------


@pytest.mark.parametrize("version,label", [("1.0", "SendMessage"), ("0.3", "message_send")])
def test_unary_dump_is_the_bytes_that_crossed_the_wire(cli, agent, tmp_path, version, label):
    answer = json.dumps(rpc_result({"task": V1_TASK} if version == "1.0" else V0_TASK)).encode()
    route = agent.post(RPC).respond(content=answer, headers={"Content-Type": "application/json", "X-Request-ID": "rq-7"})
    result = cli("send", "hi", "-u", AGENT, "--a2a-version", version, "--dump", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    stem = f"002-{label}"
    assert names(tmp_path) == sorted([
        "001-card.request.http", "001-card.request.body", "001-card.response.http", "001-card.response.body",
        f"{stem}.request.http", f"{stem}.request.body", f"{stem}.response.http", f"{stem}.response.body", "index.jsonl",
    ])
    assert (tmp_path / f"{stem}.request.body").read_bytes() == route.calls.last.request.content
    assert (tmp_path / f"{stem}.response.body").read_bytes() == answer
    head = (tmp_path / f"{stem}.request.http").read_text().splitlines()
    # the request line's target in origin form, the host in its header, names spelt as sent
    assert head[0] == "POST /rpc HTTP/1.1" and "Host: agent.test" in head
    assert f"A2A-Version: {version}" in head and "Content-Type: application/json" in head
    response_head = (tmp_path / f"{stem}.response.http").read_text().splitlines()
    assert response_head[0] == "HTTP/1.1 200 OK" and "X-Request-ID: rq-7" in response_head
    assert json.loads((tmp_path / "001-card.response.body").read_bytes()) == v1_card()
    card, send = index(tmp_path)
    assert card["method"] == "card" and card["http"] == "GET" and card["requestId"] == "card-req"
    assert send["method"] == ("SendMessage" if version == "1.0" else "message/send")
    assert send["version"] == version and send["url"] == RPC and send["status"] == 200
    assert send["requestId"] == "rq-7" and send["files"] == stem and send["error"] is None
    assert isinstance(send["ms"], float) and send["startedAt"].endswith("Z")


def test_stream_dump_has_the_raw_sse_text_and_one_file_per_event(cli, agent, tmp_path):
    body = sse(*V1_EVENTS)
    agent.post(RPC).respond(content=body, headers={"Content-Type": "text/event-stream"})
    result = cli("stream", "hi", "-u", AGENT, "--dump", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    stem = "002-SendStreamingMessage"
    assert (tmp_path / f"{stem}.response.body").read_bytes() == body
    events = sorted(tmp_path.glob(f"{stem}.event-*.json"))
    assert [p.name for p in events] == [f"{stem}.event-000{i}.json" for i in (1, 2, 3)]
    assert [json.loads(p.read_text())["result"] for p in events] == V1_EVENTS
    entry = index(tmp_path)[1]
    assert entry["stream"] is True and entry["events"] == 3 and entry["contentType"] == "text/event-stream"


def test_numbering_continues_in_a_dump_directory_when_asked(cli, agent, tmp_path):
    agent.post(RPC).respond(json=rpc_result(V1_TASK))
    assert cli("tasks", "get", "t-1", "-u", AGENT, "--dump", str(tmp_path)).exit_code == 0
    assert cli("tasks", "get", "t-1", "-u", AGENT, "--dump", str(tmp_path), "--dump-append").exit_code == 0
    assert cli("tasks", "get", "t-1", "-u", AGENT, "--dump", str(tmp_path), env={"A2ACLI_DUMP_APPEND": "1"}).exit_code == 0  # CI: one dump of a job
    assert [e["files"] for e in index(tmp_path)] == ["001-card", "002-GetTask", "003-card", "004-GetTask", "005-card", "006-GetTask"]


def test_a_directory_holding_another_dump_is_refused_and_nothing_is_sent(cli, agent, tmp_path):
    route = agent.post(RPC).respond(json=rpc_result(V1_TASK))
    assert cli("tasks", "get", "t-1", "-u", AGENT, "--dump", str(tmp_path)).exit_code == 0
    before = names(tmp_path)
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--dump", str(tmp_path))
    assert result.exit_code == 2 and route.call_count == 1
    assert f"error: --dump {tmp_path} already holds a dump (2 exchange(s)): this run's would be mixed with them" in result.stderr
    assert "--dump-append" in result.stderr and names(tmp_path) == before
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    assert cli("tasks", "get", "t-1", "-u", AGENT, "--dump", str(tmp_path / "other")).exit_code == 0  # files that are no dump: fine


def test_a_dump_says_where_it_went_and_the_command_that_compares_it(cli, agent, tmp_path):
    agent.post(RPC).respond(json=rpc_result(V1_TASK))
    where = tmp_path / "run 1"
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--dump", str(where), "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines()[-1] == f"dump: 2 exchange(s) written to '{where}'; compare it with another run's: a2a diff '{where}' OTHER_DUMP"
    assert json.loads(result.stdout)["id"] == "t-1"  # stdout keeps the payload alone
    quiet = cli("tasks", "get", "t-1", "-u", AGENT, "--dump", str(tmp_path / "run 2"), "-q")
    assert quiet.exit_code == 0 and "dump:" not in quiet.stderr  # -q: a note, not a warning
    assert all(line.startswith("warning: ") for line in quiet.stderr.splitlines())  # (the mock's id 1 is warned about)


def test_dump_into_a_file_is_a_usage_error(cli, agent, tmp_path):
    target = tmp_path / "taken"
    target.write_text("x")
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--dump", str(target))
    assert result.exit_code == 2 and "--dump" in result.stderr


# -- failures leave a complete dump -----------------------------------------------------------------


def test_http_error_is_dumped(cli, agent, tmp_path):
    agent.post(RPC).respond(500, text="boom", headers={"X-Request-ID": "rq-500"})
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--dump", str(tmp_path))
    assert result.exit_code == 1
    assert (tmp_path / "002-GetTask.response.body").read_bytes() == b"boom"
    assert (tmp_path / "002-GetTask.response.http").read_text().startswith("HTTP/1.1 500 Internal Server Error")
    entry = index(tmp_path)[1]
    assert entry["status"] == 500 and entry["requestId"] == "rq-500"


@pytest.mark.parametrize("exc,code,says", [(httpx.ConnectError("Connection refused"), 3, "connect"), (httpx.ReadTimeout("slow"), 5, "timeout")])
def test_transport_failure_is_dumped(cli, agent, tmp_path, exc, code, says):
    agent.post(RPC).mock(side_effect=exc)
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--dump", str(tmp_path), "--timeout", "5")
    assert result.exit_code == code
    assert (tmp_path / "002-GetTask.request.body").read_bytes()
    assert not (tmp_path / "002-GetTask.response.http").exists()
    entry = index(tmp_path)[1]
    assert entry["status"] is None and says in entry["error"]


def test_a_unary_answer_cut_off_by_a_timeout_keeps_the_bytes_that_came(cli, agent, tmp_path):
    def chunks():
        yield b'{"jsonrpc": "2.0", "id": "r'
        raise httpx.ReadTimeout("slow")

    agent.post(RPC).mock(return_value=httpx.Response(200, headers={"Content-Type": "application/json"}, content=chunks()))
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--dump", str(tmp_path), "--timeout", "5")
    assert result.exit_code == 5
    assert (tmp_path / "002-GetTask.response.http").read_text().startswith("HTTP/1.1 200 OK")
    assert (tmp_path / "002-GetTask.response.body").read_bytes() == b'{"jsonrpc": "2.0", "id": "r'
    entry = index(tmp_path)[1]
    assert entry["status"] == 200 and "timeout" in entry["error"]


def test_header_bytes_outside_ascii_come_back_unchanged(cli, agent, tmp_path):
    agent.post(RPC).respond(json=rpc_result(V1_TASK), headers=[(b"X-Note", b"caf\xe9")])
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--dump", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert b"X-Note: caf\xe9\r\n" in (tmp_path / "002-GetTask.response.http").read_bytes()


def test_stream_interrupted_by_ctrl_c_leaves_a_complete_dump(cli, agent, tmp_path):
    def chunks():
        body = sse(*V1_EVENTS[:2]).decode()
        yield body.encode()
        raise KeyboardInterrupt

    agent.post(RPC).mock(return_value=httpx.Response(200, headers={"Content-Type": "text/event-stream", "X-Request-ID": "rq-c"}, content=chunks()))
    result = cli("stream", "hi", "-u", AGENT, "--dump", str(tmp_path))
    assert result.exit_code == 130
    assert "interrupted" in result.stderr
    stem = "002-SendStreamingMessage"
    assert names(tmp_path) == sorted([
        "001-card.request.http", "001-card.request.body", "001-card.response.http", "001-card.response.body",
        f"{stem}.request.http", f"{stem}.request.body", f"{stem}.response.http", f"{stem}.response.body",
        f"{stem}.event-0001.json", f"{stem}.event-0002.json", "index.jsonl",
    ])
    assert (tmp_path / f"{stem}.response.body").read_bytes() == sse(*V1_EVENTS[:2])
    assert json.loads((tmp_path / f"{stem}.event-0002.json").read_text())["result"] == V1_EVENTS[1]
    entry = index(tmp_path)[1]
    assert entry["files"] == stem and entry["status"] == 200 and entry["events"] == 2
    assert entry["requestId"] == "rq-c" and entry["error"] == "interrupted (Ctrl-C)"


# -- redaction ---------------------------------------------------------------------------------------

SECRETS = {
    "api_key": "key-SECRET-3",
    "bearer": "bear-SECRET-4",
    "session": "sess-SECRET-5",
    "token": "tok-SECRET-1",
    "credentials": "cred/SECRET\"2",  # JSON-escaped on the wire
}


ALL_SECRETS = tuple(SECRETS.values())


def assert_nowhere(where: dict[str, str], secrets: tuple[str, ...] = ALL_SECRETS) -> None:
    escaped = [json.dumps(s)[1:-1] for s in secrets]
    for name, text in where.items():
        for s in {*secrets, *escaped}:
            assert s not in text, f"{s!r} leaked into {name}"


def dumped(d: Path) -> dict[str, str]:
    return {p.name: p.read_bytes().decode("utf-8", "replace") for p in d.iterdir()}


CRED_ARGS = ["--api-key", SECRETS["api_key"], "--bearer", SECRETS["bearer"], "-H", f"X-Session-Token: {SECRETS['session']}"]


@pytest.mark.parametrize("version", ["1.0", "0.3"])
def test_push_config_secrets_are_redacted_in_every_file_and_in_debug(cli, agent, tmp_path, version):
    agent.get(CARD_URL).respond(json=v1_card(securitySchemes=ANY_CREDENTIAL), headers={"X-Request-ID": "card-req"})
    flat = {"id": "p-1", "taskId": "t-1", "url": "https://cb.example/h", "token": SECRETS["token"],
            "authentication": {"scheme": "Bearer", "credentials": SECRETS["credentials"]}}
    nested = {"taskId": "t-1", "pushNotificationConfig": {"id": "p-1", "url": "https://cb.example/h", "token": SECRETS["token"],
                                                          "authentication": {"schemes": ["Bearer"], "credentials": SECRETS["credentials"]}}}
    route = agent.post(RPC).respond(json=rpc_result(flat if version == "1.0" else nested))
    result = cli("push-config", "create", "t-1", "--webhook-url", "https://cb.example/h", "--token", SECRETS["token"],
                 "--auth-scheme", "Bearer", "--auth-credentials", SECRETS["credentials"],
                 "-u", AGENT, "--a2a-version", version, "--dump", str(tmp_path), "--debug", *CRED_ARGS)
    assert result.exit_code == 0, result.stderr
    sent = route.calls.last.request
    assert sent.headers["X-API-Key"] == SECRETS["api_key"] and SECRETS["token"] in sent.content.decode()  # the real thing went out
    files = dumped(tmp_path)
    assert len(files) == 9
    assert_nowhere(files)
    assert_nowhere({"stderr": result.stderr})
    body = files[f"002-{'CreateTaskPushNotificationConfig' if version == '1.0' else 'tasks_pushNotificationConfig_set'}.request.body"]
    assert '"token":"<redacted>"' in body.replace(" ", "") and "https://cb.example/h" in body  # the rest untouched
    head = files["002-" + ("CreateTaskPushNotificationConfig" if version == "1.0" else "tasks_pushNotificationConfig_set") + ".request.http"]
    assert "Authorization: <redacted>" in head and "X-API-Key: <redacted>" in head and "X-Session-Token: <redacted>" in head


def test_a_token_only_the_answer_knows_is_redacted(cli, agent, tmp_path):
    """`push-config get`: the token was never on our command line, it comes back in the answer."""
    only_in_answer = "tok-ANSWER-6"
    agent.post(RPC).respond(json=rpc_result({"id": "p-1", "taskId": "t-1", "url": "https://cb.example/h", "token": only_in_answer}))
    result = cli("push-config", "get", "t-1", "p-1", "-u", AGENT, "--dump", str(tmp_path), "--debug")
    assert result.exit_code == 0, result.stderr
    assert_nowhere(dumped(tmp_path) | {"stderr": result.stderr}, (only_in_answer,))


def test_stream_secrets_are_redacted_in_sse_body_and_event_files(cli, agent, tmp_path):
    late = "tok-LATE-7"  # first seen in an event: the chunks already written are redacted too
    events = [*V1_EVENTS[:2], {"task": {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}, "metadata": {"push": {"token": late}}}}]
    agent.post(RPC).respond(content=sse(*events), headers={"Content-Type": "text/event-stream"})
    result = cli("stream", "hi", "--push-url", "https://cb.example/h", "--push-token", SECRETS["token"], "-u", AGENT,
                 "--dump", str(tmp_path), "--debug", *CRED_ARGS)
    assert result.exit_code == 0, result.stderr
    assert_nowhere(dumped(tmp_path) | {"stderr": result.stderr}, (*SECRETS.values(), late))
    assert len(list(tmp_path.glob("*.event-*.json"))) == 3


def test_api_key_in_the_query_is_redacted_from_urls(cli, respx_mock, tmp_path):
    card = v1_card(securitySchemes={"k": {"apiKeySecurityScheme": {"location": "query", "name": "key"}}})
    respx_mock.get(CARD_URL).respond(json=card)
    route = respx_mock.post(url__startswith=RPC).mock(side_effect=httpx.ConnectError("Connection refused"))
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--api-key", SECRETS["api_key"], "--dump", str(tmp_path), "--debug")
    assert result.exit_code == 3
    assert route.calls.last.request.url.params["key"] == SECRETS["api_key"]
    files = dumped(tmp_path)
    assert "key=%3Credacted%3E" in files["002-GetTask.request.http"] or "key=<redacted>" in files["002-GetTask.request.http"]
    assert_nowhere(files | {"stderr": result.stderr, "stdout": result.stdout}, (SECRETS["api_key"],))
    as_json = cli("tasks", "get", "t-1", "-u", AGENT, "--api-key", SECRETS["api_key"], "-o", "json")
    assert_nowhere({"stdout": as_json.stdout, "stderr": as_json.stderr}, (SECRETS["api_key"],))


@pytest.mark.spec("A2ACLI_AUTH_004", "A2ACLI_OUT_007")
def test_debug_shows_the_exchange_with_credentials_redacted(cli, agent):
    agent.get(CARD_URL).respond(json=v1_card(securitySchemes=ANY_CREDENTIAL), headers={"X-Request-ID": "card-req"})
    agent.post(RPC).respond(json=rpc_result(V1_TASK), headers={"Set-Cookie": "sid=cookie-SECRET-8"})
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--debug", *CRED_ARGS)
    assert result.exit_code == 0, result.stderr
    err = result.stderr
    assert f"> POST {RPC}" in err and "> A2A-Version: 1.0" in err and '"method":"GetTask"' in err
    assert "< HTTP 200 OK" in err and "* GetTask: 200" in err
    assert "> Authorization: <redacted>" in err and "< Set-Cookie: <redacted>" in err
    assert_nowhere({"stderr": err, "stdout": result.stdout}, (*SECRETS.values(), "cookie-SECRET-8"))
    quiet = cli("tasks", "get", "t-1", "-u", AGENT, *CRED_ARGS)
    assert_nowhere({"stderr": quiet.stderr, "stdout": quiet.stdout})


def test_a_compressed_answer_is_written_as_it_crossed_the_wire_and_the_index_says_so(cli, agent, tmp_path):
    """(Earlier versions wrote it inflated under its gzip head; tests/commands/test_dump_wire.py has the rest.)"""
    import gzip

    answer = json.dumps(rpc_result(V1_TASK)).encode()
    agent.post(RPC).respond(content=gzip.compress(answer), headers={"Content-Type": "application/json", "Content-Encoding": "gzip"})
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--dump", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert gzip.decompress((tmp_path / "002-GetTask.response.body").read_bytes()) == answer
    assert index(tmp_path)[1]["contentEncoding"] == "gzip" and index(tmp_path)[0]["contentEncoding"] is None
