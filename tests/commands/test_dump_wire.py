"""`--dump DIR` keeps an encoded answer (Content-Encoding: gzip or deflate) as it crossed the wire,
consistent with its head; every reader of a dump (diff, replay, mock, playback) inflates it through
one function (limits.decoded, with the decompression-bomb guard); dumps written before, inflated
under a gzip head, still read; `a2a mock` serves a recorded coding as the agent did."""

from __future__ import annotations

import gzip
import json
import zlib
from pathlib import Path

import httpx
import pytest
from a2a_testkit import AGENT, ANY_CREDENTIAL, RPC, rpc_result, sse, v1_card

from a2acli.errors import UsageError
from a2acli.recording import mock
from a2acli.recording.dumps import load_dump
from a2acli.recording.forms import accepts
from a2acli.transport.limits import decoded, encoded, is_encoded

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
V1_TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}
ANSWER = json.dumps(rpc_result(V1_TASK)).encode()
V1_EVENTS = [
    {"task": {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_SUBMITTED"}}},
    {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}},
]
PACK = {"gzip": gzip.compress, "deflate": zlib.compress}
BEARER = "bear-SECRET-4"


@pytest.fixture
def agent(respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    return respx_mock


def index(d: Path) -> list[dict]:
    return [json.loads(line) for line in (d / "index.jsonl").read_text().splitlines()]


def dump_get(cli, agent, d: Path, coding: str | None, *extra: str):
    body = PACK[coding](ANSWER) if coding else ANSWER
    headers = {"Content-Type": "application/json", **({"Content-Encoding": coding} if coding else {})}
    agent.post(RPC).respond(content=body, headers=headers)
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--dump", str(d), *extra)
    assert result.exit_code == 0, result.stderr
    return result


# -- what a dump holds ------------------------------------------------------------------------------


@pytest.mark.parametrize("coding", ["gzip", "deflate"])
def test_an_encoded_answer_is_dumped_as_it_crossed_the_wire_and_debug_says_it_shows_it_inflated(
    cli, agent, tmp_path, coding
):
    result = dump_get(cli, agent, tmp_path, coding, "--debug")
    wire = (tmp_path / "002-GetTask.response.body").read_bytes()
    assert wire == PACK[coding](ANSWER)  # the bytes as received: gzip starts 1f 8b
    assert (wire[:2] == b"\x1f\x8b") is (coding == "gzip")
    assert (gzip.decompress(wire) if coding == "gzip" else zlib.decompress(wire)) == ANSWER
    assert f"Content-Encoding: {coding}" in (tmp_path / "002-GetTask.response.http").read_text()
    entry = index(tmp_path)[1]
    assert entry["contentEncoding"] == coding and "recoded" not in entry
    # every reader gets the text
    ex = load_dump(tmp_path).exchanges[1]
    assert ex.response_body == ANSWER and ex.wire_body == wire
    # --debug shows the text, after a line that says it was inflated
    assert f"< ({coding}-encoded: {len(wire)} bytes on the wire, shown inflated: {len(ANSWER)} bytes)" in result.stderr
    assert ANSWER.decode() in result.stderr


def test_a_gzip_stream_is_dumped_as_its_raw_reads_and_read_back_as_its_text(cli, agent, tmp_path):
    text = sse(*V1_EVENTS)
    packed = gzip.compress(text)
    agent.post(RPC).respond(
        content=iter([packed[:9], packed[9:]]),
        headers={"Content-Type": "text/event-stream", "Content-Encoding": "gzip"},
    )
    result = cli("stream", "hi", "-u", AGENT, "--dump", str(tmp_path), "--debug")
    assert result.exit_code == 0, result.stderr
    stem = "002-SendStreamingMessage"
    assert (tmp_path / f"{stem}.response.body").read_bytes() == packed
    assert [json.loads(p.read_text())["result"] for p in sorted(tmp_path.glob(f"{stem}.event-*.json"))] == V1_EVENTS
    ex = load_dump(tmp_path).exchanges[1]
    assert ex.stream and ex.response_body == text and ex.wire_body == packed
    assert "< (the stream is gzip-encoded: its events are shown inflated)" in result.stderr


def test_a_secret_in_an_encoded_answer_is_redacted_and_the_body_encoded_again(cli, respx_mock, tmp_path):
    respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes=ANY_CREDENTIAL))
    said = json.dumps(rpc_result({**V1_TASK, "metadata": {"echo": BEARER}})).encode()
    respx_mock.post(RPC).respond(
        content=gzip.compress(said), headers={"Content-Type": "application/json", "Content-Encoding": "gzip"}
    )
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--bearer", BEARER, "--dump", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    wire = (tmp_path / "002-GetTask.response.body").read_bytes()
    assert wire[:2] == b"\x1f\x8b" and BEARER.encode() not in wire
    text = gzip.decompress(wire)
    assert BEARER.encode() not in text and json.loads(text)["result"]["id"] == "t-1"
    assert index(tmp_path)[1]["recoded"] is True


# -- readers: diff, replay, mock; dumps written before --------------------------------------------


def test_diff_of_a_gzip_dump_and_an_identity_dump_of_the_same_answer_agrees(cli, agent, tmp_path):
    dump_get(cli, agent, tmp_path / "gz", "gzip")
    dump_get(cli, agent, tmp_path / "plain", None)
    result = cli("diff", str(tmp_path / "gz"), str(tmp_path / "plain"))
    assert result.exit_code == 0, result.stdout + result.stderr


def test_an_older_dump_inflated_under_a_gzip_head_still_reads(cli, agent, tmp_path):
    """Dumps written before the fix hold the inflated text under `Content-Encoding: gzip`."""
    dump_get(cli, agent, tmp_path / "old", "gzip")
    (tmp_path / "old" / "002-GetTask.response.body").write_bytes(ANSWER)  # as the earlier versions wrote it
    ex = load_dump(tmp_path / "old").exchanges[1]
    assert ex.response_body == ANSWER and ex.response_wire is None
    dump_get(cli, agent, tmp_path / "new", "gzip")
    assert cli("diff", str(tmp_path / "old"), str(tmp_path / "new")).exit_code == 0


def test_replay_of_a_gzip_dump_compares_its_inflated_answer(cli, agent, tmp_path):
    dump_get(cli, agent, tmp_path / "gz", "gzip")
    agent.post(RPC).respond(json=rpc_result(V1_TASK))  # the agent now answers uncompressed
    result = cli("replay", str(tmp_path / "gz"), "--to", AGENT)
    assert result.exit_code == 0, result.stdout + result.stderr


def _write_gzip_dump(d: Path, answer: bytes, *, stream: bool = False) -> Path:
    """A card and a GetTask (or a SendStreamingMessage) whose answer came gzip-encoded, as --dump writes them."""
    d.mkdir()
    method = "SendStreamingMessage" if stream else "GetTask"
    params = (
        {"message": {"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "hi"}]}} if stream else {"id": "t-1"}
    )
    files = {
        "001-card.request.http": b"GET /.well-known/agent-card.json HTTP/1.1\r\nHost: agent.test\r\n\r\n",
        "001-card.request.body": b"",
        "001-card.response.http": b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n",
        "001-card.response.body": json.dumps(v1_card()).encode(),
        f"002-{method}.request.http": b"POST /rpc HTTP/1.1\r\nHost: agent.test\r\nA2A-Version: 1.0\r\nContent-Type: application/json\r\n\r\n",
        f"002-{method}.request.body": json.dumps(
            {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
        ).encode(),
        f"002-{method}.response.http": (
            f"HTTP/1.1 200 OK\r\nContent-Type: {'text/event-stream' if stream else 'application/json'}\r\nContent-Encoding: gzip\r\n\r\n"
        ).encode(),
        f"002-{method}.response.body": gzip.compress(answer),
    }
    for name, data in files.items():
        (d / name).write_bytes(data)
    entries = [
        {"seq": 1, "method": "card", "version": None, "status": 200, "files": "001-card"},
        {"seq": 2, "method": method, "version": "1.0", "status": 200, "stream": stream, "files": f"002-{method}"},
    ]
    if stream:
        for i, event in enumerate(V1_EVENTS, 1):
            (d / f"002-{method}.event-{i:04d}.json").write_text(json.dumps(rpc_result(event)) + "\n")
    (d / "index.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))
    return d


def test_mock_serves_a_recorded_gzip_answer_gzip_encoded_and_inflated_to_who_does_not_accept_it(cli, tmp_path):
    recorded = _write_gzip_dump(tmp_path / "rec", ANSWER)
    get = {"jsonrpc": "2.0", "id": 7, "method": "GetTask", "params": {"id": "t-1"}}
    with mock.Mock(mock.load([str(recorded)]), speed=0) as served:
        with httpx.Client() as client:
            with client.stream(
                "POST", served.url + "/rpc", json=get, headers={"A2A-Version": "1.0", "Accept-Encoding": "gzip"}
            ) as answer:
                raw = b"".join(answer.iter_raw())
            assert answer.headers["content-encoding"] == "gzip" and raw[:2] == b"\x1f\x8b"
            doc = json.loads(gzip.decompress(raw))
            assert doc["id"] == 7 and doc["result"] == V1_TASK  # the request's JSON-RPC id, the recorded task
            plain = client.post(
                served.url + "/rpc", json=get, headers={"A2A-Version": "1.0", "Accept-Encoding": "identity"}
            )
            assert "content-encoding" not in plain.headers and plain.json()["result"] == V1_TASK
        # a2a itself, through the mock: the answer crosses the wire gzip-encoded again, and is dumped so
        result = cli("tasks", "get", "t-1", "-u", served.url, "-o", "json", "--dump", str(tmp_path / "again"))
        assert result.exit_code == 0, result.stderr
        assert json.loads(result.stdout)["status"]["state"] == "TASK_STATE_COMPLETED"
        assert (tmp_path / "again" / "002-GetTask.response.body").read_bytes()[:2] == b"\x1f\x8b"
    assert json.loads(load_dump(tmp_path / "again").exchanges[1].response_body)["result"] == V1_TASK


def test_mock_serves_a_recorded_gzip_stream_as_one_gzip_stream(cli, tmp_path):
    recorded = _write_gzip_dump(tmp_path / "rec", sse(*V1_EVENTS), stream=True)
    with mock.Mock(mock.load([str(recorded)]), speed=0) as served:
        result = cli("stream", "hi", "-u", served.url, "-o", "json", "--dump", str(tmp_path / "again"))
        assert result.exit_code == 0, result.stderr
    again = load_dump(tmp_path / "again").exchanges[1]
    assert ("Content-Encoding", "gzip") in again.response_headers and again.wire_body[:2] == b"\x1f\x8b"
    assert [json.loads(e)["result"] for e in again.events] == V1_EVENTS


# -- the one reading of a dumped body ---------------------------------------------------------------


def test_a_dumped_body_is_inflated_when_it_is_in_its_coding_and_read_as_it_stands_when_not():
    text = b'{"jsonrpc":"2.0","id":1,"result":{}}'
    for coding, packed in (
        ("gzip", gzip.compress(text)),
        ("deflate", zlib.compress(text)),
        ("deflate", zlib.compress(text)[2:-4]),
        ("gzip, deflate", zlib.compress(gzip.compress(text))),
    ):
        assert is_encoded(packed, coding) and decoded(packed, coding) == text, coding
    for body in (text, b"{}", b"data: {}\n\n", b""):  # inflated already (older dumps), under either head
        for coding in ("gzip", "deflate", None, "identity"):
            assert not is_encoded(body, coding) and decoded(body, coding) == body, (body, coding)
    assert encoded(text, "gzip")[:2] == b"\x1f\x8b" and decoded(encoded(text, "deflate"), "deflate") == text


def test_a_gzip_bomb_in_a_dump_is_refused_not_inflated(tmp_path):
    bomb = gzip.compress(b"\0" * (64 * 1024 * 1024), compresslevel=9)
    d = _write_gzip_dump(tmp_path / "rec", ANSWER)
    (d / "002-GetTask.response.body").write_bytes(bomb)
    with pytest.raises(UsageError, match="decompression bomb") as e:
        load_dump(d)
    assert "002-GetTask.response.body" in e.value.message


def test_accept_encoding_is_read_by_name_and_weight():
    assert accepts("gzip, deflate", "gzip") and accepts("br;q=1, *;q=0.5", "deflate")
    assert not accepts("identity", "gzip") and not accepts("gzip;q=0", "gzip") and not accepts("", "gzip")
