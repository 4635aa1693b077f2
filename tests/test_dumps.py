"""A dump is input like any other (issue 42): a malformed one, whichever of `replay`, `diff` and
`mock` reads it, is one clean error naming the file and the field, exit 2 (as every other dump
that cannot be read), never an internal error; and nothing outside the dump's directory is read."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from test_mock import write_send_dump

from a2acli.recording import mock
from a2acli.recording.dumps import DUMP_MAX_DEPTH

SECRET = "s3cr3t-outside-the-dump"


def _index_field(key: str, value: object) -> Callable[[Path], None]:
    def edit(d: Path) -> None:
        entries = [json.loads(line) for line in (d / "index.jsonl").read_text().splitlines()]
        entries[1][key] = value
        (d / "index.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))

    return edit


def _deep_body(d: Path) -> None:
    (d / "002-SendMessage.request.body").write_bytes(b"[" * 100_000 + b"]" * 100_000)


def _dangling(d: Path) -> None:
    (d / "002-SendMessage.request.body").unlink()
    os.symlink(d / "gone" / "nothing", d / "002-SendMessage.request.body")


def _link_out(d: Path) -> None:
    (d / "002-SendMessage.request.body").unlink()
    os.symlink(d.parent / "secret.request.body", d / "002-SendMessage.request.body")


def _dangling_event(d: Path) -> None:
    os.symlink(d / "gone.json", d / "002-SendMessage.event-0001.json")


# (case, how the dump is spoilt, the file and the field the error must name)
CASES = [
    ("seq", _index_field("seq", "abc"), "index.jsonl", '"seq" is "abc"'),
    ("version", _index_field("version", 5), "index.jsonl", '"version" is 5'),
    ("files-absolute", _index_field("files", "/etc/passwd"), "index.jsonl", '"files" is "/etc/passwd"'),
    ("files-up", _index_field("files", "../secret"), "index.jsonl", '"files" is "../secret"'),
    ("ms", _index_field("ms", "slow"), "index.jsonl", '"ms" is "slow"'),
    ("deep", _deep_body, "002-SendMessage.request.body", f"nests more than {DUMP_MAX_DEPTH} levels"),
    ("dangling", _dangling, "002-SendMessage.request.body", "symbolic link to nothing"),
    ("dangling-event", _dangling_event, "002-SendMessage.event-0001.json", "symbolic link to nothing"),
    ("link-out", _link_out, "002-SendMessage.request.body", "symbolic link out of the dump's directory"),
]
COMMANDS = {
    "replay": lambda bad, good: ["replay", bad, "--to", "http://127.0.0.1:9"],
    "diff": lambda bad, good: ["diff", good, bad],
    "mock": lambda bad, good: ["mock", bad, "--timeout", "100ms"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize(("case", "spoil", "file", "field"), CASES, ids=[c[0] for c in CASES])
def test_a_malformed_dump_is_a_clean_usage_error(cli, tmp_path, command, case, spoil, file, field):
    (tmp_path / "secret.request.body").write_text(SECRET)
    (tmp_path / "secret.request.http").write_text(f"POST /{SECRET} HTTP/1.1\n\n")
    good = write_send_dump(tmp_path / "good", "1.0")
    bad = write_send_dump(tmp_path / "bad", "1.0")
    spoil(bad)
    result = cli(*COMMANDS[command](str(bad), str(good)))
    assert result.exit_code == 2, (result.exit_code, result.stderr)
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"error: cannot read {bad / file}: ") and field in first, first
    assert first.endswith("[A2ACLI_ERR_USAGE]") and "internal" not in result.stderr
    assert "Traceback" not in result.output + result.stderr
    assert SECRET not in result.output + result.stderr
    assert not (tmp_path / "bad.replay").exists()  # nothing was sent, nothing written


def test_a_link_inside_the_dump_and_a_body_nested_within_bounds_are_read(cli, tmp_path):
    d = write_send_dump(tmp_path / "rec", "1.0")
    request = json.loads((d / "002-SendMessage.request.body").read_text())
    request["params"]["message"]["metadata"] = {
        "deep": json.loads("[" * (DUMP_MAX_DEPTH - 10) + "]" * (DUMP_MAX_DEPTH - 10))
    }
    (d / "002-SendMessage.request.body").write_text(json.dumps(request))
    (d / "keep").mkdir()
    (d / "003-GetTask.response.body").rename(d / "keep" / "answer")
    os.symlink(Path("keep") / "answer", d / "003-GetTask.response.body")  # relative, inside the dump
    result = cli("diff", str(d), str(d))
    assert result.exit_code == 0, result.stderr
    with mock.Mock(mock.load([str(d)]), speed=0) as served:
        got = httpx.post(served.url + "/", json={**request, "id": 5}, headers={"A2A-Version": "1.0"})
        assert got.status_code == 200 and got.json()["result"]["task"]["status"]["state"] == "TASK_STATE_COMPLETED"
        task = httpx.post(
            served.url + "/",
            json={"jsonrpc": "2.0", "id": 6, "method": "GetTask", "params": {"id": got.json()["result"]["task"]["id"]}},
            headers={"A2A-Version": "1.0"},
        )
        assert task.json()["result"]["status"]["state"] == "TASK_STATE_COMPLETED"
