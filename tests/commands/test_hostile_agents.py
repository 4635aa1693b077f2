"""Issue 27, internal errors of the second audit: each shape an agent (or a user) sent that ended
in `internal error: …` is now a clean error with its exit code, over respx (a server adds nothing
to these: the bytes are what matter)."""

from __future__ import annotations

import json

import pytest
from a2a_testkit import AGENT, RPC, rpc_result, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
TASK = {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_COMPLETED"}}
DEEP_EVENT = ("data: " + json.dumps(rpc_result({"task": {**TASK, "metadata": "X"}})).replace('"X"', "[" * 5000 + "]" * 5000) + "\n\n").encode()
V0_CARD = {"name": "x", "description": "d", "version": "1", "url": RPC, "protocolVersion": "0.3.0", "capabilities": {}, "defaultInputModes": [], "defaultOutputModes": [], "skills": []}


def _card_with_interface(**itf):
    card = v1_card()
    card["supportedInterfaces"] = [{"url": RPC, "protocolBinding": "JSONRPC", "protocolVersion": "1.0", **itf}]
    return card


CASES = {
    "deep stream event": (v1_card(), DEEP_EVENT, ["stream", "hi"], 1, "nested too deeply"),
    "deep subscribe event": (v1_card(), DEEP_EVENT, ["tasks", "subscribe", "t"], 1, "nested too deeply"),
    "deep subscribe event -o json": (v1_card(), DEEP_EVENT, ["tasks", "subscribe", "t", "-o", "json"], 1, "nested too deeply"),
    "interface url a number": (_card_with_interface(url=5), None, ["tasks", "get", "t"], 1, "interface URL is int, not a string"),
    "interface url a list": (_card_with_interface(url=["x"]), None, ["tasks", "get", "t"], 1, "not a string"),
    "interface binding a list": (_card_with_interface(protocolBinding=["JSONRPC"]), None, ["tasks", "get", "t"], 1, "offers no interface"),
    "interface url invalid IPv6": (_card_with_interface(url="http://[::1"), None, ["tasks", "get", "t"], 1, "Invalid IPv6 URL"),
    "interface url bad punycode": (_card_with_interface(url="http://xn--a.com/rpc"), None, ["tasks", "get", "t"], 1, "is not a valid URL"),
    "rpc error code a list": (v1_card(), {"jsonrpc": "2.0", "id": 1, "error": {"code": [1], "message": "m"}}, ["tasks", "get", "t"], 1, "error: [1]: m"),
    "rpc error code an object": (v1_card(), {"jsonrpc": "2.0", "id": 1, "error": {"code": {"a": 1}, "message": "m"}}, ["tasks", "get", "t"], 1, '{"a": 1}: m'),
    "0.3 preferredTransport [null]": ({**V0_CARD, "preferredTransport": [None]}, rpc_result({**TASK, "kind": "task", "status": {"state": "completed"}}), ["tasks", "get", "t", "--a2a-version", "0.3"], 0, ""),
    "0.3 url a list": ({**V0_CARD, "url": [RPC]}, None, ["tasks", "get", "t", "--a2a-version", "0.3"], 1, "not a string"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_no_internal_error(cli, respx_mock, name):
    card, answer, args, code, said = CASES[name]
    respx_mock.get(CARD_URL).respond(json=card)
    if isinstance(answer, bytes):
        respx_mock.post(RPC).respond(content=answer, headers={"content-type": "text/event-stream"})
    elif answer is not None:
        respx_mock.post(RPC).respond(json=answer)
    result = cli(*args, "-u", AGENT)
    assert "internal error" not in result.stderr + result.stdout, result.stderr
    assert result.exit_code == code, result.stderr
    assert said in result.stderr + result.stdout


def test_a_punycode_host_that_is_no_host_is_a_usage_error(cli):
    result = cli("tasks", "get", "t", "-u", "http://xn--a.com/")
    assert result.exit_code == 2 and "is not a valid internationalized host name" in result.stderr


# -- issue 27 (second part): one rule for a schema-invalid stream event, whatever the output ---------
# An event that is not a StreamResponse cannot be printed as one (official CLI spec, Appendix B:
# json emits the protocol's own types; §11.4: an error ending a stream is the last line; §11.6: a
# call the CLI could not complete exits 1). So every mode ends the stream there with exit 1, as the
# text view and `send` always did: -o json and -o raw used to print the event and exit 0.

WORKING = {"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}}
DONE = {"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_COMPLETED"}}}
BAD_EVENTS = {
    "status message parts a string": {"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_COMPLETED", "message": {"role": "ROLE_AGENT", "messageId": "m", "parts": "x"}}}},
    "task without an id": {"task": {"contextId": "c", "status": {"state": "TASK_STATE_WORKING"}}},
    "artifact parts an object": {"artifactUpdate": {"taskId": "t", "contextId": "c", "artifact": {"artifactId": "a", "parts": {"text": "x"}}}},
    "0.3 status message parts a string": {"kind": "status-update", "taskId": "t", "contextId": "c", "final": True, "status": {"state": "completed", "message": {"kind": "message", "role": "agent", "messageId": "m", "parts": "x"}}},
}


def _sse_answer(*results):
    """An SSE stream of JSON-RPC answers carrying the request's own id."""

    def answer(handler, seen):
        rid = json.loads(seen.body or b"{}").get("id", 1)
        body = "".join(f"data: {json.dumps({'jsonrpc': '2.0', 'id': rid, 'result': r})}\n\n" for r in results).encode()
        handler._send(200, {"Content-Type": "text/event-stream"}, body)

    return answer


@pytest.mark.parametrize("mode", ["text", "json", "raw"])
@pytest.mark.parametrize("command", [["stream", "hi"], ["tasks", "subscribe", "t"], ["stream", "hi", "--as", "v1"]])
@pytest.mark.parametrize("bad", sorted(BAD_EVENTS))
def test_a_schema_invalid_stream_event_fails_in_every_mode(cli, mode, command, bad):
    from hostile_server import hostile

    v0 = bad.startswith("0.3")
    with hostile() as agent:
        card = {**V0_CARD, "url": f"{agent.url}/rpc", "capabilities": {"streaming": True}} if v0 else v1_card(url=f"{agent.url}/rpc", capabilities={"streaming": True})
        agent.card(card)
        first = {"kind": "status-update", "taskId": "t", "contextId": "c", "status": {"state": "working"}} if v0 else WORKING
        agent.rpc(_sse_answer(first, BAD_EVENTS[bad], DONE))
        result = cli(*command, "-u", agent.url, "-o", mode, *(["--a2a-version", "0.3"] if v0 else []))
        posts = [s for s in agent.seen if s.method == "POST"]
    assert result.exit_code == 1, (result.stdout, result.stderr)
    assert "internal error" not in result.stderr
    said = result.stdout if mode == "json" else result.stderr
    assert "InvalidAgentResponseError" in said and "is not valid: result." in said
    assert '"parts": "x"' not in result.stdout and '"parts": {"text"' not in result.stdout  # the bad event is not printed as a result
    assert "TASK_STATE_COMPLETED" not in result.stdout  # the stream ended at the bad event
    assert len(posts) == 1  # nothing polled or re-subscribed after it
    if mode == "json":
        lines = result.stdout.splitlines()
        assert json.loads(lines[-1])["error"]["code"] == "InvalidAgentResponseError"  # the envelope is the last line


SEND_ANSWERS = {  # the same fault in the answer to SendMessage
    "status message parts a string": {"task": {"id": "t", "contextId": "c", **BAD_EVENTS["status message parts a string"]["statusUpdate"]}},
    "task without an id": BAD_EVENTS["task without an id"],
    "artifact parts an object": {"task": {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_COMPLETED"}, "artifacts": [BAD_EVENTS["artifact parts an object"]["artifactUpdate"]["artifact"]]}},
    "0.3 status message parts a string": {"kind": "task", "id": "t", "contextId": "c", "status": BAD_EVENTS["0.3 status message parts a string"]["status"]},
}


@pytest.mark.parametrize("bad", sorted(BAD_EVENTS))
def test_send_json_fails_on_the_same_fault(cli, bad):
    """The rule the stream modes now follow: `send -o json` exits 1 on the same fault."""
    from hostile_server import hostile, rpc_answer

    v0 = bad.startswith("0.3")
    with hostile() as agent:
        agent.card({**V0_CARD, "url": f"{agent.url}/rpc"} if v0 else v1_card(url=f"{agent.url}/rpc"))
        agent.rpc(rpc_answer(SEND_ANSWERS[bad]))
        result = cli("send", "hi", "-u", agent.url, "-o", "json", *(["--a2a-version", "0.3"] if v0 else []))
    assert result.exit_code == 1, (result.stdout, result.stderr)
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "InvalidAgentResponseError" and "is not valid: result." in error["message"]


# -- the card: look elsewhere only when nothing is there ---------------------------------------------

ROOT_CARD = "/.well-known/agent-card.json"
BROKEN_CARDS = {  # what a server has at a card's place -> what the error says it is
    "html": ((200, {"Content-Type": "text/html"}, b"<!doctype html><title>app</title>"), "an HTML page (text/html), not JSON"),
    "malformed": ((200, {"Content-Type": "application/json"}, b'{"name": "x",'), "not JSON: '{\"name\": \"x\",'"),
    "too deep": ((200, {"Content-Type": "application/json"}, b'{"name": ' + b"[" * 5000 + b"]" * 5000 + b"}"), "JSON nested too deeply to read"),
    "not utf-8": ((200, {"Content-Type": "application/json"}, b'{"name": "\xff\xfe"}'), "not UTF-8 text (byte 0xff at offset 10)"),
    "empty": ((200, {"Content-Type": "application/json"}, b""), "an empty answer"),
}


@pytest.mark.parametrize("broken", sorted(BROKEN_CARDS))
def test_a_broken_root_card_is_an_error_not_a_fallback(cli, broken):
    """`-u URL/agents/a`: nothing at the path's places (404), and the host's root card is broken.
    The error names the root card and what it is; the legacy root card (another agent) is not read."""
    from hostile_server import hostile, rpc_answer

    answer, what = BROKEN_CARDS[broken]
    with hostile() as host:
        host.route("GET", ROOT_CARD, answer)
        host.card({**v1_card(url=f"{host.url}/other"), "name": "Another agent"}, path="/.well-known/agent.json")
        host.rpc(rpc_answer(TASK), path="/other")
        result = cli("tasks", "get", "t", "-u", f"{host.url}/agents/a", "-o", "json")
        got = [s.path for s in host.seen]
    assert result.exit_code == 1, (result.stdout, result.stderr)
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "A2ACLI_ERR_CARD_INVALID"
    assert error["message"].startswith(f"the Agent Card at {host.url}{ROOT_CARD} is {what}; looked first at: {host.url}/agents/a (HTTP 404), "), error["message"]
    assert "404 or 410" in error["hint"]
    assert got[-1] == ROOT_CARD and "/.well-known/agent.json" not in got and "/other" not in got


@pytest.mark.parametrize("broken", ["html", "too deep"])
def test_a_broken_card_at_the_path_stops_before_the_root(cli, broken):
    from hostile_server import hostile

    answer, what = BROKEN_CARDS[broken]
    with hostile() as host:
        host.route("GET", "/agents/a" + ROOT_CARD, answer)
        host.card(v1_card(url=f"{host.url}/rpc"))  # the root's card: another agent, never read
        result = cli("card", "fetch", "-u", f"{host.url}/agents/a")
        got = [s.path for s in host.seen]
    assert result.exit_code == 1, result.stderr
    assert f"the Agent Card at {host.url}/agents/a{ROOT_CARD} is {what}" in result.stderr
    assert ROOT_CARD not in got


@pytest.mark.parametrize("status", [404, 410])
def test_nothing_at_the_path_falls_back_to_the_root_card(cli, status):
    from hostile_server import hostile, rpc_answer

    with hostile() as host:
        host.route("GET", "/agents/a" + ROOT_CARD, (status, {"Content-Type": "text/plain"}, b"gone"))
        host.card(v1_card(url=f"{host.url}/rpc"))
        host.rpc(rpc_answer(TASK))
        result = cli("tasks", "get", "t", "-u", f"{host.url}/agents/a", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["id"] == "t"


def test_a_card_url_nested_too_deep_says_so(cli):
    from hostile_server import hostile

    with hostile() as host:
        host.route("GET", "/card.json", BROKEN_CARDS["too deep"][0])
        result = cli("card", "fetch", "-u", f"{host.url}/card.json")
    assert result.exit_code == 1
    assert f"the Agent Card at {host.url}/card.json is JSON nested too deeply to read" in result.stderr
    assert "not JSON" not in result.stderr


# -- an agent's error, said cleanly, with a hint where one is known ----------------------------------


def _rpc_error_answer(error):
    def answer(handler, seen):
        rid = json.loads(seen.body or b"{}").get("id", 1)
        handler._send(200, {"Content-Type": "application/json"}, json.dumps({"jsonrpc": "2.0", "id": rid, "error": error}).encode())

    return answer


@pytest.mark.parametrize(
    ("error", "said", "a2a_code"),
    [
        ({"code": "E_BAD", "message": "bad thing"}, "E_BAD: bad thing", "E_BAD"),
        ({"code": "E_BAD", "message": {"k": "v"}}, 'E_BAD: {"k": "v"}', "E_BAD"),
        ({"code": -32001, "message": ["a", "b"]}, 'TaskNotFoundError: ["a", "b"]', -32001),
        ({"code": "", "message": "m"}, "the agent reported an error: m", None),
    ],
)
def test_an_agent_error_is_said_without_a_python_repr(cli, error, said, a2a_code):
    from hostile_server import hostile

    with hostile() as agent:
        agent.card(v1_card(url=f"{agent.url}/rpc"))
        agent.rpc(_rpc_error_answer(error))
        text = cli("tasks", "get", "t", "-u", agent.url)
        as_json = cli("tasks", "get", "t", "-u", agent.url, "-o", "json")
    assert text.exit_code == as_json.exit_code == 1
    assert text.stderr.splitlines()[0].startswith(f"error: {said}"), text.stderr
    assert "'" not in text.stderr.splitlines()[0]  # no Python repr: ['a', 'b'], {'k': 'v'}
    envelope = json.loads(as_json.stdout)["error"]
    assert envelope["message"] == said and envelope["a2aCode"] == a2a_code


def test_an_internal_error_has_its_hint(cli):
    from hostile_server import hostile

    with hostile() as agent:
        agent.card(v1_card(url=f"{agent.url}/rpc"))
        agent.rpc(_rpc_error_answer({"code": -32603, "message": "boom"}))
        result = cli("tasks", "get", "t", "-u", agent.url)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[:2] == [
        "error: InternalError: boom",
        "hint: the agent failed while handling the call (its fault, not the request's): retry later, or quote the X-Request-ID to its operator",
    ]


@pytest.mark.parametrize(
    ("data", "said", "hint"),
    [
        ("something broke", "the agent reported an error: something broke", "the agent ended the stream with an `event: error`"),
        ('{"jsonrpc": "2.0", "id": 1, "error": {"code": -31000, "message": "x"}}', "-31000: x", "the agent ended the stream with an `event: error`"),
        ('{"jsonrpc": "2.0", "id": 1, "error": {"code": -32603, "message": "boom"}}', "InternalError: boom", "the agent failed while handling the call"),
    ],
)
@pytest.mark.parametrize("command", [["stream", "hi"], ["tasks", "subscribe", "t"]])
def test_an_sse_error_event_has_a_hint(cli, data, said, hint, command):
    from hostile_server import hostile

    def answer(handler, seen):
        handler._send(200, {"Content-Type": "text/event-stream"}, f"event: error\ndata: {data}\n\n".encode())

    with hostile() as agent:
        agent.card(v1_card(url=f"{agent.url}/rpc", capabilities={"streaming": True}))
        agent.rpc(answer)
        result = cli(*command, "-u", agent.url)
    assert result.exit_code == 1, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith(("error:", "hint:"))]
    assert errors[0].startswith(f"error: {said}") and errors[1].startswith(f"hint: {hint}"), result.stderr


def _gzip_bomb() -> bytes:
    import gzip

    return gzip.compress(b"data: " + b"0" * (64 * 1024 * 1024) + b"\n\n", compresslevel=9)


STREAM_FAULTS = {  # issue 35: each ended with `Exception ignored in: <generator object Response.iter_raw …>`
    "noresult": (b'data: {"jsonrpc": "2.0", "id": 1}\n\n', {}),
    "sse-error": (b"event: error\ndata: boom\n\n", {}),
    "sse-nonjson": (b"data: not json\n\n", {}),
    "sse-nonrpc": (b'data: {"hello": "world"}\n\n', {}),
    "wrongtype-result-string": (b'data: {"jsonrpc": "2.0", "id": 1, "result": "x"}\n\n', {}),
    "wrongtype-result-list": (b'data: {"jsonrpc": "2.0", "id": 1, "result": [1]}\n\n', {}),
    "wrongtype-task-number": (b'data: {"jsonrpc": "2.0", "id": 1, "result": {"task": 5}}\n\n', {}),
    "wrongtype-status-string": (b'data: {"jsonrpc": "2.0", "id": 1, "result": {"statusUpdate": {"taskId": "t", "contextId": "c", "status": "x"}}}\n\n', {}),
    "gzipbomb": (_gzip_bomb(), {"Content-Encoding": "gzip"}),
    "hugegarbage": (b"data: " + b"x" * (3 * 1024 * 1024), {}),
}


@pytest.mark.parametrize("name", sorted(STREAM_FAULTS))
def test_a_stream_fault_leaves_nothing_for_exit(name):
    """A real `a2a stream` process: the clean error and its exit code, and no `Traceback` or
    `Exception ignored` on stderr (every streamed answer closed on every path, errors included)."""
    import subprocess
    import sys

    from hostile_server import hostile

    body, headers = STREAM_FAULTS[name]

    def answer(handler, seen):
        handler._send(200, {"Content-Type": "text/event-stream", **headers}, body)

    with hostile() as agent:
        agent.card(v1_card(url=f"{agent.url}/rpc", capabilities={"streaming": True}))
        agent.rpc(answer)
        for args in (["stream", "hi"], ["stream", "hi", "-o", "json"]):
            proc = subprocess.run(
                [sys.executable, "-m", "a2acli", *args, "-u", agent.url, "--max-body", "1M"],
                capture_output=True, text=True, timeout=120,
            )
            assert proc.returncode == 1, (args, proc.stderr)
            assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr, proc.stderr
