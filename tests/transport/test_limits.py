"""Issue 14, section 1: memory is bounded. A card, a unary answer and one SSE event are read in
pieces, counted after decompression, and stopped at their cap (exit 1, the cap named); inputs
(--file, --data @file, -) the same, and only regular files."""

from __future__ import annotations

import gzip
import json
import struct
import tracemalloc
import zlib

import httpx
import pytest
from a2a_testkit import AGENT, RPC, rpc_result, v1_card

from a2acli.errors import BodyTooLargeError, InvalidResponseError
from a2acli.transport.limits import EventBound, capped, inflate

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}


def gzip_of_repeats(piece: bytes, times: int) -> bytes:
    """`piece` repeated `times` times, gzipped: one deflate block of it (ended by a full flush, so
    that it stands alone) repeated, inside a gzip header and trailer. The same bytes a gzip of the
    whole decompresses to, made in a fraction of the time of compressing hundreds of MiB."""
    z = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    block = z.compress(piece) + z.flush(zlib.Z_FULL_FLUSH)
    crc = 0
    for _ in range(times):
        crc = zlib.crc32(piece, crc)
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"  # gzip, deflate, no name, no time
    return header + block * times + z.flush() + struct.pack("<II", crc, (len(piece) * times) & 0xFFFFFFFF)


def bomb(size: int) -> bytes:
    """`size` zero bytes, gzipped (about a thousandth of it)."""
    piece = bytes(1024 * 1024)
    return gzip_of_repeats(piece, size // len(piece))


def test_the_bombs_are_gzip_of_what_they_say():
    assert gzip.decompress(bomb(8 * 1024 * 1024)) == bytes(8 * 1024 * 1024)
    assert gzip.decompress(gzip_of_repeats(b"data: x\n\n" * 3, 5)) == b"data: x\n\n" * 15


def test_inflate_undoes_gzip_and_deflate_in_bounded_pieces():
    data = json.dumps({"x": "y" * 300_000}).encode()
    for encoded, coding in ((gzip.compress(data), "gzip"), (zlib.compress(data), "deflate"), (zlib.compress(data)[2:-4], "deflate"), (data, None), (data, "identity")):
        pieces = list(inflate(iter([encoded[:10], encoded[10:]]), coding))
        assert b"".join(pieces) == data
        if coding not in (None, "identity"):  # (an unencoded body comes in the network's chunks)
            assert max(len(p) for p in pieces) <= 64 * 1024


def test_inflate_refuses_codings_it_did_not_ask_for_and_broken_ones():
    with pytest.raises(InvalidResponseError, match="'br'"):
        list(inflate(iter([b"x"]), "br"))
    with pytest.raises(InvalidResponseError, match="gzip encoding is broken"):
        list(inflate(iter([b"\x1f\x8bnot gzip at all"]), "gzip"))


def test_capped_stops_at_the_cap_and_names_it():
    with pytest.raises(BodyTooLargeError, match="larger than the cap of 1 MiB"):
        list(capped(inflate(iter([bomb(64 * 1024 * 1024)]), "gzip"), 1024 * 1024, "the answer"))


def test_an_sse_event_is_bounded_not_the_stream():
    bound = EventBound(100)
    for _ in range(1000):  # a long stream of small events is fine
        bound.feed(b"data: " + b"x" * 50 + b"\n\n")
    bound.feed(b"data: " + b"x" * 50)
    with pytest.raises(BodyTooLargeError, match="an event of the stream"):
        bound.feed(b"y" * 60)  # one event past the cap, across chunks


def _peak(fn):
    tracemalloc.start()
    try:
        result = fn()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_gzip_bomb_answer_to_send_stops_at_the_cap(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    respx_mock.post(RPC).respond(content=iter([bomb(256 * 1024 * 1024)]), headers={"content-type": "application/json", "content-encoding": "gzip"})
    result, peak = _peak(lambda: cli("send", "hi", "-u", AGENT, "--max-body", "2M"))
    assert result.exit_code == 1, result.output
    assert "larger than the cap of 2 MiB" in result.stderr and "--max-body" in result.stderr
    assert peak < 40 * 1024 * 1024  # bounded by the cap, not by the 256 MB the bomb inflates to


def test_the_default_cap_holds_without_the_flag(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    respx_mock.post(RPC).respond(content=iter([bomb(64 * 1024 * 1024)]), headers={"content-type": "application/json", "content-encoding": "gzip"})
    result = cli("send", "hi", "-u", AGENT)
    assert result.exit_code == 1
    assert "larger than the cap of 32 MiB" in result.stderr


def test_a_card_is_capped_at_a_few_mb(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(content=iter([bomb(64 * 1024 * 1024)]), headers={"content-type": "application/json", "content-encoding": "gzip"})
    result = cli("card", "fetch", "-u", AGENT)
    assert result.exit_code == 1
    assert "the Agent Card at" in result.stderr and "larger than the cap of 4 MiB" in result.stderr


def test_one_huge_sse_event_stops_the_stream(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    first = f"data: {json.dumps(rpc_result({'kind': 'task', **TASK, 'status': {'state': 'TASK_STATE_WORKING'}}))}\n\n".encode()
    endless = (b"x" * 65536 for _ in range(100))  # 6.4 MB of one data line
    body = iter([first, b"data: ", *endless])
    respx_mock.post(RPC).mock(return_value=httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body))
    result = cli("stream", "hi", "-u", AGENT, "--max-body", "1M", "-o", "json")
    assert result.exit_code == 1
    assert "an event of the stream is larger than the cap of 1 MiB" in result.stdout


def test_max_body_is_a_size(cli):
    for bad in ("0", "-1", "lots", "1e9", "nan"):
        result = cli("send", "hi", "-u", AGENT, "--max-body", bad, "--offline")
        assert result.exit_code == 2, bad
        assert "is not a size" in result.stderr
    result = cli("send", "hi", "-u", AGENT, "--offline", env={"A2ACLI_MAX_BODY": "x"})
    assert result.exit_code == 2 and "env A2ACLI_MAX_BODY" in result.stderr


def test_inputs_are_capped_and_regular_files_only(cli, tmp_path):
    big = tmp_path / "big.bin"
    big.write_bytes(b"x" * (2 * 1024 * 1024))
    result = cli("send", "--file", str(big), "-u", AGENT, "--offline", "--max-body", "1M")
    assert result.exit_code == 2 and "larger than the cap of 1 MiB" in result.stderr
    result = cli("send", "--file", "/dev/zero", "-u", AGENT, "--offline")
    assert result.exit_code == 2 and "is not a regular file" in result.stderr
    result = cli("send", "--data", "@/dev/zero", "-u", AGENT, "--offline")
    assert result.exit_code == 2 and "is not a regular file" in result.stderr
    result = cli("send", "--data", "@" + str(tmp_path), "-u", AGENT, "--offline")
    assert result.exit_code == 2 and "Is a directory" in result.stderr
    result = cli("send", "--data", "-", "-u", AGENT, "--offline", "--max-body", "1K", input="[" + "1," * 1000 + "1]")
    assert result.exit_code == 2 and "standard input) is larger than the cap of 1 KiB" in result.stderr


# -- issue 27: a decompression bomb on a stream ends within seconds; a long honest stream does not --


def test_inflate_stops_a_bomb_by_its_ratio_whatever_the_cap():
    import time

    data = bomb(512 * 1024 * 1024)
    chunks = [data[i : i + 16384] for i in range(0, len(data), 16384)]  # as the network hands them
    t0 = time.monotonic()
    out = 0
    with pytest.raises(BodyTooLargeError, match=r"expands \d+:1 .*: a decompression bomb"):
        for piece in inflate(iter(chunks), "gzip", bomb_guard=True):
            out += len(piece)
    assert time.monotonic() - t0 < 5 and out < 16 * 1024 * 1024


def test_a_long_honest_compressed_stream_is_not_cut():
    z = zlib.compressobj(6, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    chunks = []
    for i in range(60_000):  # ~8 MiB of events, each flushed as a streaming server does
        event = b'data: {"jsonrpc":"2.0","id":1,"result":{"statusUpdate":{"taskId":"t-1","status":{"state":"TASK_STATE_WORKING"},"n":%d}}}\n\n' % i
        chunks.append(z.compress(event) + z.flush(zlib.Z_SYNC_FLUSH))
    chunks.append(z.flush())
    total = sum(len(p) for p in inflate(iter(chunks), "gzip", bomb_guard=True))
    assert total > 7 * 1024 * 1024


def test_a_gzip_sse_flood_ends_within_seconds_with_body_too_large(cli):
    """A hostile agent on 127.0.0.1 answers a stream with 1 MiB of gzip: millions of events."""
    import time

    from hostile_server import hostile

    event = b'data: {"jsonrpc":"2.0","id":1,"result":{"statusUpdate":{"taskId":"t-1","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}}\n\n'
    body = gzip_of_repeats(event * 8192, 256)  # ~270 MiB of events, ~2 million
    assert len(body) < 2 * 1024 * 1024

    with hostile() as h:
        h.card(v1_card(url=f"{h.url}/rpc"))
        h.rpc((200, {"Content-Type": "text/event-stream", "Content-Encoding": "gzip"}, body))
        for mode in ("text", "json"):
            t0 = time.monotonic()
            result = cli("stream", "hi", "-u", h.url, "-o", mode)
            assert time.monotonic() - t0 < 30, mode
            assert result.exit_code == 1, (mode, result.stderr[-500:])
            assert "decompression bomb" in result.stderr + result.stdout
            assert len(result.stdout) < 64 * 1024 * 1024
            if mode == "json":
                assert json.loads(result.stdout.splitlines()[-1])["error"]["code"] == "X_A2A_BODY_TOO_LARGE"


# -- issue 42: a compressed stream that stops before its end is a body cut short ----------------

_WHOLE = bytes(range(256)) * 40


@pytest.mark.parametrize("coding", ["gzip", "deflate"])
@pytest.mark.parametrize("cut", [1, 8, 100])
def test_a_compressed_body_cut_short_is_an_error(coding, cut):
    from a2acli.errors import ConnectionBrokenError

    body = gzip.compress(_WHOLE, mtime=0) if coding == "gzip" else zlib.compress(_WHOLE)
    assert b"".join(inflate(iter([body]), coding)) == _WHOLE
    with pytest.raises(ConnectionBrokenError, match=f"the answer's {coding} stream ends before its end"):
        b"".join(inflate(iter([body[:-cut]]), coding))
    assert b"".join(inflate(iter([b""]), coding)) == b""  # no body at all: nothing to end


def test_a_dump_body_cut_short_is_read_as_far_as_it_came():
    from a2acli.transport.limits import decoded

    body = gzip.compress(_WHOLE, mtime=0)[:-100]
    assert _WHOLE.startswith(decoded(body, "gzip")) and decoded(body, "gzip")
