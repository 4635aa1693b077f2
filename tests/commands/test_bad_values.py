"""Issue 42: every bad value a typed command takes is a usage error (exit 2) on one `error:` line
naming the option, with a hint, before anything is sent (respx sees no request). `a2a call`
stays the way to send anything on purpose; its METHOD is still not empty."""

from __future__ import annotations

import json

import httpx
import pytest
from a2a_testkit import RPC

NOT_OURS = ("Traceback", "internal error")

BAD = {  # id: (argv, what the error line names)
    "page-size-101": (["tasks", "list", "--page-size", "101"], "--page-size"),
    "page-size-1e9": (["tasks", "list", "--page-size", "1e9"], "--page-size"),
    "page-size-0": (["tasks", "list", "--page-size", "0"], "--page-size"),
    "timestamp-word": (["tasks", "list", "--status-timestamp-after", "yesterday"], "--status-timestamp-after"),
    "timestamp-month-13": (["tasks", "list", "--status-timestamp-after", "2024-13-45"], "--status-timestamp-after"),
    "timestamp-day-32": (
        ["tasks", "list", "--status-timestamp-after", "2024-01-32T00:00:00Z"],
        "--status-timestamp-after",
    ),
    "timestamp-no-offset": (
        ["tasks", "list", "--status-timestamp-after", "2024-01-01T00:00:00"],
        "--status-timestamp-after",
    ),
    "push-url-javascript": (["send", "hi", "--push-url", "javascript:alert(1)"], "--push-url"),
    "push-url-word": (["send", "hi", "--push-url", "notaurl"], "--push-url"),
    "push-url-ftp": (["send", "hi", "--push-url", "ftp://x"], "--push-url"),
    "stream-push-url": (["stream", "hi", "--push-url", "ftp://x"], "--push-url"),
    "webhook-url-javascript": (
        ["push-config", "create", "t1", "--webhook-url", "javascript:alert(1)"],
        "--webhook-url",
    ),
    "media-type-words": (["send", "--text", "hi", "--media-type", "not a type"], "--media-type"),
    "media-type-no-subtype": (["send", "--text", "hi", "--media-type", "text"], "--media-type"),
    "file-url-no-host": (["send", "--file", "http://"], "--file"),
    "empty-context-id": (["send", "hi", "--context-id", ""], "--context-id"),
    "empty-task-id": (["send", "hi", "--task-id", ""], "--task-id"),
    "empty-message-id": (["send", "hi", "--message-id", ""], "--message-id"),
    "list-empty-context-id": (["tasks", "list", "--context-id", ""], "--context-id"),
    "get-empty-id": (["tasks", "get", ""], "TASK_ID"),
    "cancel-empty-id": (["tasks", "cancel", ""], "TASK_ID"),
    "subscribe-empty-id": (["tasks", "subscribe", ""], "TASK_ID"),
    "get-blank-id": (["tasks", "get", "  "], "TASK_ID"),
    "push-config-empty-task": (["push-config", "get", "", "c1"], "TASK_ID"),
    "push-config-empty-config": (["push-config", "delete", "t1", ""], "CONFIG_ID"),
    "push-config-empty-config-id": (
        ["push-config", "create", "t1", "--webhook-url", "http://127.0.0.1:9/h", "--config-id", ""],
        "--config-id",
    ),
    "call-empty-method": (["call", "", "{}"], "METHOD"),
    "empty-skill": (["send", "--skill", "", "-f", "a=b"], "--skill"),
    "blank-skill": (["stream", "--skill", " "], "--skill"),
    "timeout-underflow": (["tasks", "get", "t1", "--timeout", "1e-400"], "--timeout"),
    "timeout-nan": (["tasks", "get", "t1", "--timeout", "nan"], "--timeout"),
    "timeout-inf": (["tasks", "get", "t1", "--timeout", "inf"], "--timeout"),
    "timeout-negative": (["tasks", "get", "t1", "--timeout", "-1"], "--timeout"),
    "idempotency-key-crlf": (["send", "hi", "--idempotency-key", "k\r\nX-Evil: 1"], "--idempotency-key"),
    "idempotency-key-lf": (["send", "hi", "--idempotency-key", "k\nv"], "--idempotency-key"),
    "idempotency-key-empty": (["send", "hi", "--idempotency-key", ""], "--idempotency-key"),
}


@pytest.fixture
def wire(respx_mock):
    """Any request at all is answered (and counted): none may be made."""
    respx_mock.route().mock(return_value=httpx.Response(200, json={"jsonrpc": "2.0", "id": "1", "result": {}}))
    return respx_mock


@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_value_is_a_usage_error_before_anything_is_sent(cli, wire, case):
    argv, named = BAD[case]
    result = cli(*argv, "--endpoint", RPC)
    text = result.stdout + result.stderr
    assert result.exit_code == 2, text
    assert not any(n in text for n in NOT_OURS), text
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, result.stderr
    assert named in errors[0], errors[0]
    assert any(line.startswith("hint:") for line in result.stderr.splitlines()), result.stderr
    assert not wire.calls, [c.request.url for c in wire.calls]


@pytest.mark.parametrize("case", ["push-url-javascript", "get-empty-id", "timestamp-word"])
def test_the_error_is_the_json_envelope_under_o_json(cli, wire, case):
    argv, named = BAD[case]
    result = cli(*argv, "--endpoint", RPC, "-o", "json")
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "A2ACLI_ERR_USAGE" and named in error["message"] and error["hint"]
    assert not wire.calls


def test_a_timeout_that_underflows_from_the_environment_is_refused_too(cli, wire):
    result = cli("tasks", "get", "t1", "--endpoint", RPC, env={"A2ACLI_TIMEOUT": "1e-400"})
    assert result.exit_code == 2 and "A2ACLI_TIMEOUT" in result.stderr
    assert not wire.calls


GOOD = [
    ["tasks", "list", "--page-size", "100", "--status-timestamp-after", "2024-02-29T12:00:00.123456789Z"],
    ["tasks", "list", "--page-size", "1", "--status-timestamp-after", "2024-05-01T09:30:00+02:00"],
    ["send", "--text", "hi", "--media-type", "text/plain; charset=utf-8"],
    ["send", "--file", "https://files.example/report.pdf", "--media-type", "application/vnd.api+json"],
    ["send", "hi", "--push-url", "http://127.0.0.1:9000/hook", "--idempotency-key", "k-1"],
    ["send", "hi", "--context-id", "c1", "--task-id", "t1", "--message-id", "m1"],
    ["tasks", "get", "t1", "--timeout", "0"],
    ["call", "x-vendor/ping", "{}"],
]


@pytest.mark.parametrize("argv", GOOD, ids=lambda a: " ".join(a[:2]) + " " + a[-1][:20])
def test_good_values_still_pass(cli, argv):
    result = cli(*argv, "--endpoint", RPC, "--offline", "-o", "raw")
    assert result.exit_code == 0, result.stderr


def test_status_timestamp_after_is_sent_as_typed(cli):
    result = cli(
        "tasks",
        "list",
        "--status-timestamp-after",
        "2024-05-01T09:30:00+02:00",
        "--endpoint",
        RPC,
        "--offline",
        "-o",
        "raw",
    )
    body = json.loads(result.stdout[result.stdout.index("{") :])
    assert body["params"]["statusTimestampAfter"] == "2024-05-01T09:30:00+02:00"
