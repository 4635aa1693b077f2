"""Issue 46: the official CLI spec's reconciliation (a2aproject/a2a-cli, after v0.2) renamed
`demo-server` to `server`, added `-e/--endpoint`, renamed `--config` (the .env file) to `--env-file`
and `--text/--file/--data` to `--text-part/--file-part/--data-part`. The newer names are accepted
beside ours, each declared once (the settings table, the command's own option, the command table),
so --help, completion and docs/reference.md list them; `-v` stays the version."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_completion import bash_complete

ROOT = Path(__file__).resolve().parents[2]
RPC = "http://agent.test/rpc"


def offline(cli, *args: str) -> dict:
    result = cli(*args, "--offline", "-o", "raw")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_e_is_endpoint(cli):
    assert offline(cli, "send", "hi", "-e", RPC, "--request-id", "r", "--message-id", "m") == offline(
        cli, "send", "hi", "--endpoint", RPC, "--request-id", "r", "--message-id", "m"
    )
    shown = cli("send", "hi", "-e", RPC, "--offline")
    assert f"POST {RPC}" in shown.stdout + shown.stderr


def test_env_file_is_config(cli, tmp_path):
    env_file = tmp_path / "agent.env"
    env_file.write_text(f"A2ACLI_ENDPOINT={RPC}\nA2ACLI_A2A_VERSION=0.3\n")
    for flag in ("--env-file", "--config"):
        request = offline(cli, "send", "hi", flag, str(env_file))
        assert request["method"] == "message/send", flag  # the file's version, 0.3
    shown = cli("config", "show", "--env-file", str(env_file))
    assert shown.exit_code == 0 and RPC in shown.stdout


def test_part_names_of_the_spec_keep_command_line_order_beside_ours(cli, tmp_path):
    blob = tmp_path / "b.bin"
    blob.write_bytes(b"\x00\x01")
    request = offline(
        cli, "send", "--data-part", '{"a": 1}', "--text", "one", "--file-part", str(blob), "--text-part", "two", "--data", '{"b": 2}', "--rpc-url", RPC
    )  # fmt: skip
    parts = request["params"]["message"]["parts"]
    assert [next(k for k in ("data", "text", "raw") if k in p) for p in parts] == [
        "data",
        "text",
        "raw",
        "text",
        "data",
    ]
    assert parts[1]["text"] == "one" and parts[3]["text"] == "two"


def test_server_is_demo_server(cli):
    server, demo = cli("server", "--help"), cli("demo-server", "--help")
    assert server.exit_code == demo.exit_code == 0
    lines = [line.rstrip() for line in server.stdout.replace("a2a server", "a2a demo-server").splitlines()]
    assert lines == [line.rstrip() for line in demo.stdout.splitlines()]
    root = cli("--help").stdout
    assert "demo-server, by the official CLI spec's name." in " ".join(root.split())


def test_completion_offers_the_newer_names():
    assert {"server", "demo-server"} <= set(bash_complete("a2a "))
    assert {"--text-part", "--file-part", "--data-part", "--text", "--file", "--data"} <= set(
        bash_complete("a2a send --")
    )
    assert {"--env-file", "--endpoint", "--config"} <= set(bash_complete("a2a send --"))


@pytest.mark.parametrize(
    "name", ["`-e`", "`--env-file`", "`--text-part`", "`--file-part`", "`--data-part`", "## a2a server\n"]
)
def test_the_reference_lists_them(name):
    assert name in (ROOT / "docs" / "reference.md").read_text()


def test_v_stays_the_version(cli):
    assert cli("-v").stdout.startswith("a2a ")
