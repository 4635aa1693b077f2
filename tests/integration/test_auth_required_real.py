"""In-task authorization against the demo agent (a real a2a-sdk server; A2A §7.6, official CLI
spec §8.2 and §10.3, A2ACLI_AUTH_011): its `auth` skill ends AUTH_REQUIRED asking for the card's
API key scheme; `a2a` stops there (exit 0), shows the ask and prints the command that continues the
task with that credential; that command, run as printed with the key, completes the task, and
without the key the agent asks again. Over JSON-RPC and HTTP+JSON (and gRPC when installed), 1.0
and 0.3; `tasks get --wait` and `stream` stop there too; `a2a chat` piped ends with the command,
and at a terminal (a pseudo-terminal here) reads the key unechoed for the next turn only."""

from __future__ import annotations

import json
import os
import re
import select
import shlex
import time
from typing import Any

import pytest
from a2a_testkit import assert_floor, floor_block

pytestmark = [pytest.mark.integration, pytest.mark.spec("A2ACLI_AUTH_011")]

ASKS = "This task needs a credential to go on: the API key of the Agent Card's security scheme 'apiKey', in header X-API-Key."
NAMED = {"securityScheme": "apiKey", "type": "apiKey", "location": "header", "name": "X-API-Key"}
BINDINGS = [(t, v) for t in ("jsonrpc", "rest", "grpc") for v in ("1.0", "0.3")]


NO_CONFIG = {"A2ACLI_GLOBAL_CONFIG": os.devnull, "A2ACLI_LOCAL_CONFIG": os.devnull}


@pytest.fixture
def run(run_a2a):
    """`a2a ARGS…` (the installed command) apart from the user's settings; asserts exit 0."""
    return run_a2a.isolated()


def hinted(stderr: str) -> list[str]:
    """The commands stderr prints to copy, as argv after `a2a`."""
    return [shlex.split(line[2:])[1:] for line in stderr.splitlines() if line.startswith("  a2a ")]


def connect(agent: Any, transport: str, version: str) -> list[str]:
    return ["-u", agent.url, "--transport", transport, "--a2a-version", version] + (["--plaintext"] if transport == "grpc" else [])


@pytest.mark.parametrize(("transport", "version"), BINDINGS)
def test_send_stops_at_auth_required_and_the_printed_command_with_the_key_completes_the_task(run, demo_agent, transport, version):
    if transport == "grpc" and not demo_agent.grpc_url:
        pytest.skip("grpcio is not installed: the demo agent serves no gRPC")
    first = run("send", "--skill", "auth", *connect(demo_agent, transport, version))
    labels = assert_floor(first.stdout)
    assert labels[:3] == ["Task", "Context", "State"] and "State: auth-required\n" in first.stdout
    (asked,) = floor_block(first.stdout, "Status message")  # one block: the ask's text, then its data part as JSON
    text, _, data = asked.partition("\n")
    assert text.startswith(ASKS) and json.loads(data) == NAMED  # the agent's ask, shown
    task_id = re.search(r"^Task: (\S+)$", first.stdout, re.M).group(1)  # type: ignore[union-attr]
    context_id = re.search(r"^Context: (\S+)$", first.stdout, re.M).group(1)  # type: ignore[union-attr]
    assert "the agent asks for the Agent Card's scheme 'apiKey' (apiKey, header X-API-Key); continue with the credential:" in first.stderr
    (argv,) = hinted(first.stderr)
    assert argv[:5] == ["send", "--task-id", task_id, "--context-id", context_id]
    said = connect(demo_agent, transport, version)
    if version == "1.0":  # the default: not repeated
        said = [a for a in said if a not in ("--a2a-version", "1.0")]
    assert argv[-3:] == ["--api-key", "KEY", "continue"] and argv[5:-3] == said

    without = [a for a in argv if a not in ("--api-key", "KEY")]
    again = run(*without, "-o", "json", "--as", "v1")  # no key: the agent asks again, same task
    task = json.loads(again.stdout)["task"]
    assert (task["id"], task["status"]["state"]) == (task_id, "TASK_STATE_AUTH_REQUIRED")
    assert task["status"]["message"]["parts"][1]["data"] == NAMED

    done = run(*[demo_agent.api_key if a == "KEY" else a for a in argv])  # as printed, with the key
    assert f"Task: {task_id}\n" in done.stdout and "State: completed\n" in done.stdout
    assert "Artifact: authorized\n" in done.stdout and "authorized with X-API-Key" in done.stdout
    assert demo_agent.api_key not in done.stdout + done.stderr  # the key itself is never printed


def test_tasks_get_wait_and_stream_stop_at_auth_required_with_the_command(run, demo_agent):
    started = json.loads(run("send", "--skill", "auth", "--async", "-o", "json", "-u", demo_agent.url).stdout)["task"]
    waited = run("tasks", "get", started["id"], "--wait", "--poll-interval", "0.1", "-u", demo_agent.url)
    assert "State: auth-required\n" in waited.stdout
    assert hinted(waited.stderr) == [["send", "--task-id", started["id"], "--context-id", started["contextId"], "-u", demo_agent.url, "--api-key", "KEY", "continue"]]
    for transport in ("jsonrpc", "rest"):
        streamed = run("stream", "--skill", "auth", "-o", "json", "-u", demo_agent.url, "--transport", transport)
        last = json.loads(streamed.stdout.splitlines()[-1])  # JSONL: the last event carries the state
        assert last["statusUpdate"]["status"]["state"] == "TASK_STATE_AUTH_REQUIRED"
        ((*_, key, value, message),) = hinted(streamed.stderr)
        assert (key, value, message) == ("--api-key", "KEY", "continue")


def test_a_first_message_sent_with_the_key_completes_at_once(run, demo_agent):
    done = run("send", "--skill", "auth", "-u", demo_agent.url, "-o", "json", "--as", "v1", "--api-key", demo_agent.api_key)
    assert json.loads(done.stdout)["task"]["status"]["state"] == "TASK_STATE_COMPLETED"


@pytest.mark.spec("A2ACLI_CHAT_001")
@pytest.mark.parametrize("transport", ["jsonrpc", "rest"])
def test_chat_piped_ends_at_auth_required_with_the_command(run, demo_agent, transport):
    task = json.loads(run("send", "--skill", "auth", "-o", "json", "-u", demo_agent.url, "--transport", transport).stdout)["task"]
    chat = run("chat", "--task-id", task["id"], "--context-id", task["contextId"], "-u", demo_agent.url, "--transport", transport, "-o", "json", input="hello\nnever sent\n")
    (answer,) = [json.loads(line) for line in chat.stdout.splitlines()]  # one turn, then the end
    assert answer["task"]["status"]["state"] == "TASK_STATE_AUTH_REQUIRED" and answer["task"]["id"] == task["id"]
    assert hinted(chat.stderr)[0][-3:] == ["--api-key", "KEY", "continue"]
    assert "chat ends here: it reads no credential from a pipe" in chat.stderr


class Terminal:
    """`a2a` on a pseudo-terminal (its stdin, stdout, stderr and /dev/tty, where getpass reads)."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        import pty

        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: becomes `a2a`
            os.execve(argv[0], argv, env)
        self.seen = b""

    def until(self, marker: str, timeout: float = 30) -> str:
        """What the terminal showed up to `marker` (and consumed it)."""
        end = time.monotonic() + timeout
        while marker.encode() not in self.seen:
            ready, _, _ = select.select([self.fd], [], [], max(end - time.monotonic(), 0))
            assert ready, f"no {marker!r} within {timeout}s; the terminal shows:\n{self.seen.decode(errors='replace')}"
            try:
                self.seen += os.read(self.fd, 65536)
            except OSError:  # the child closed the terminal
                raise AssertionError(f"a2a ended before {marker!r}:\n{self.seen.decode(errors='replace')}") from None
        head, _, self.seen = self.seen.partition(marker.encode())
        return head.decode(errors="replace")

    def type(self, line: str) -> None:
        os.write(self.fd, line.encode() + b"\n")

    def wait(self, timeout: float = 30) -> int:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            try:  # keep draining the terminal, so the child never blocks writing to it
                if select.select([self.fd], [], [], 0.1)[0]:
                    self.seen += os.read(self.fd, 65536)
            except OSError:
                pass
        os.kill(self.pid, 9)
        raise AssertionError("a2a chat did not end")


@pytest.mark.spec("A2ACLI_CHAT_001")
@pytest.mark.parametrize("transport", ["jsonrpc", "rest"])
def test_chat_at_a_terminal_reads_the_key_unechoed_and_sends_it_with_the_next_turn(run, a2a_bin, a2a_env, demo_agent, transport):
    if len(a2a_bin) != 1:
        pytest.skip("needs the installed `a2a` script")
    task = json.loads(run("send", "--skill", "auth", "-o", "json", "-u", demo_agent.url, "--transport", transport).stdout)["task"]
    term = Terminal([a2a_bin[0], "chat", "--task-id", task["id"], "--context-id", task["contextId"], "-u", demo_agent.url, "--transport", transport], a2a_env(**NO_CONFIG, NO_COLOR="1", TERM="dumb", COLUMNS="200"))  # dumb: the text floor, no control sequences to strip
    term.until("you> ")
    term.type("hello")  # the first turn goes without the key: the agent asks again
    shown = term.until("(not shown; Enter to skip): ")
    assert "[auth-required]" in shown and "This task needs a credential" in shown  # the ask: the agent's words, then the state (issue 25's REPL)
    assert "the agent asks for the Agent Card's scheme 'apiKey' (apiKey, header X-API-Key)" in shown
    assert "API key for header X-API-Key" in shown
    term.type(demo_agent.api_key)
    shown = term.until("you> ")
    assert "the credential goes with your next line only" in shown
    assert demo_agent.api_key not in shown  # not echoed, not printed
    term.type("go on")
    shown = term.until("you> ")
    assert "[auth-required]" not in shown and "authorized" in shown  # completed: the agent's words alone (issue 25's REPL)
    term.type("/quit")
    assert term.wait() == 0
