"""Issue 27: every value in a command printed to paste is quoted for the shell, whoever chose it.
A hostile agent on 127.0.0.1 names its task `t1; echo INJECTED` and its context `$(touch pwned)`:
each printed command still splits (shlex) into the one id it means."""

from __future__ import annotations

import json
import shlex

import pytest
from a2a_testkit import v1_card
from hostile_server import hostile

TID, CTX = "t1; echo INJECTED", "c1 $(touch pwned) `id`"


def _agent(h, state):
    def answer(handler, seen):
        doc = json.loads(seen.body)
        task = {"id": TID, "contextId": CTX, "status": {"state": state}}
        result = {"task": task} if doc.get("method") == "SendMessage" else task
        handler._send(200, {"Content-Type": "application/json"}, json.dumps({"jsonrpc": "2.0", "id": doc["id"], "result": result}).encode())

    card = v1_card(url=f"{h.url}/rpc")
    card["capabilities"] = {"streaming": False}
    h.card(card)
    h.rpc(answer)


def _commands(stderr: str) -> list[list[str]]:
    return [shlex.split(line.strip()) for line in stderr.splitlines() if line.strip().startswith("a2a ")]


def _value(argv: list[str], flag: str) -> str:
    return argv[argv.index(flag) + 1]


def test_the_follow_and_next_message_lines_quote_the_agents_ids(cli):
    with hostile() as h:
        _agent(h, "TASK_STATE_WORKING")
        result = cli("send", "hi", "-u", h.url, "--async")
        assert result.exit_code == 0, result.stderr
        (follow,) = [c for c in _commands(result.stderr) if c[:3] == ["a2a", "tasks", "get"]]
        assert follow[3] == TID and "echo" not in follow[4:] and "INJECTED" not in follow[4:]
    with hostile() as h:
        _agent(h, "TASK_STATE_COMPLETED")
        result = cli("send", "hi", "-u", h.url)
        assert result.exit_code == 0, result.stderr
        (nxt,) = [c for c in _commands(result.stderr) if c[:2] == ["a2a", "send"]]
        assert _value(nxt, "--context-id") == CTX and _value(nxt, "-u") == h.url


def test_the_continue_line_quotes_the_agents_ids(cli):
    with hostile() as h:
        _agent(h, "TASK_STATE_INPUT_REQUIRED")
        result = cli("send", "hi", "-u", h.url)
        assert result.exit_code == 0, result.stderr
        (cont,) = [c for c in _commands(result.stderr) if c[:2] == ["a2a", "send"]]
        assert _value(cont, "--task-id") == TID and _value(cont, "--context-id") == CTX


@pytest.mark.parametrize("args", [["tasks", "get", "x", "--wait", "--poll-interval", "100ms", "--timeout", "1"], ["send", "hi", "--follow", "--poll-interval", "100ms", "--timeout", "1"]])
def test_the_resume_lines_quote_the_agents_ids(cli, args):
    with hostile() as h:
        _agent(h, "TASK_STATE_WORKING")
        result = cli(*args, "-u", h.url)
        assert result.exit_code == 5, result.stderr
        resume = [c for c in _commands(result.stderr) if c[:2] == ["a2a", "tasks"] and c[2] in ("subscribe", "get")]
        assert resume and all(c[3] == TID for c in resume), result.stderr
