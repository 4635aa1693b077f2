"""`a2a chat` against respx agents: one SendMessage per line, the context (and the task while it
waits for input) carried to the next turn, the terminal gate, and errors in and out of a terminal."""

from __future__ import annotations

import json

import httpx
import pytest
from a2a_testkit import AGENT, RPC, rpc_result, sse, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
BLOCKING = {"capabilities": {"streaming": False}}  # one SendMessage a turn (a card that claims streaming: a stream)
pytestmark = pytest.mark.spec("A2ACLI_CHAT_001")


def rpc_error(code: int, message: str) -> dict:
    return {"jsonrpc": "2.0", "id": 1, "error": {"code": code, "message": message}}


def task(tid: str, state: str, ctx: str = "c-1") -> dict:
    return {"task": {"id": tid, "contextId": ctx, "status": {"state": state}}}


@pytest.fixture(autouse=True)
def history_file(tmp_path, monkeypatch):
    """The chat's history file, here rather than in the home of whoever runs the tests."""
    path = tmp_path / "state" / "chat_history"
    monkeypatch.setenv("A2ACLI_CHAT_HISTORY", str(path))
    return path


@pytest.fixture
def agent(respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card(**BLOCKING))
    return respx_mock


def sent(route) -> list[dict]:
    """The messages of every SendMessage the agent received, in order."""
    return [json.loads(call.request.content)["params"]["message"] for call in route.calls]


def answers(*results):
    return [httpx.Response(200, json=rpc_result(r)) for r in results]


def test_the_context_carries_over_and_new_starts_afresh(cli, agent):
    route = agent.post(RPC, json__method="SendMessage").mock(side_effect=answers(task("t-1", "TASK_STATE_COMPLETED"), task("t-2", "TASK_STATE_COMPLETED"), task("t-3", "TASK_STATE_COMPLETED", ctx="c-2")))
    result = cli("chat", "-u", AGENT, input="hello\nagain\n/new\nfresh\n")
    assert result.exit_code == 0, result.stderr
    first, second, third = sent(route)
    assert "contextId" not in first and "taskId" not in first  # never invented
    assert second["contextId"] == "c-1" and "taskId" not in second  # the task ended: only the context carries
    assert "contextId" not in third  # /new
    assert [t for t in ("t-1", "t-2", "t-3") if f"Task: {t}" in result.stdout] == ["t-1", "t-2", "t-3"]
    assert "you>" not in result.stderr  # not a terminal: no prompt


def test_a_task_waiting_for_input_is_answered_by_the_next_line(cli, agent):
    route = agent.post(RPC, json__method="SendMessage").mock(side_effect=answers(task("t-1", "TASK_STATE_INPUT_REQUIRED"), task("t-1", "TASK_STATE_COMPLETED"), task("t-2", "TASK_STATE_COMPLETED")))
    result = cli("chat", "-u", AGENT, input="book a table\nfor two\nthanks\n")
    assert result.exit_code == 0, result.stderr
    ask, reply, after = sent(route)
    assert reply["taskId"] == "t-1" and reply["contextId"] == "c-1"
    assert "taskId" not in after and after["contextId"] == "c-1"
    assert "task t-1 waits for you: your next line answers it" in result.stderr


def test_a_message_answer_carries_its_context(cli, agent):
    message = {"message": {"messageId": "m-1", "contextId": "c-9", "role": "ROLE_AGENT", "parts": [{"text": "hi there"}]}}
    route = agent.post(RPC, json__method="SendMessage").mock(side_effect=answers(message, message))
    result = cli("chat", "-u", AGENT, input="hi\nhi again\n")
    assert result.exit_code == 0, result.stderr
    assert sent(route)[1]["contextId"] == "c-9"
    assert "hi there" in result.stdout


def test_json_is_one_line_per_turn(cli, agent):
    agent.post(RPC, json__method="SendMessage").mock(side_effect=answers(task("t-1", "TASK_STATE_COMPLETED"), task("t-2", "TASK_STATE_COMPLETED")))
    result = cli("chat", "-u", AGENT, "-o", "json", input="a\nb\n")
    assert result.exit_code == 0, result.stderr
    assert [json.loads(line)["task"]["id"] for line in result.stdout.splitlines()] == ["t-1", "t-2"]


def test_an_unfinished_task_is_waited_for_before_the_next_turn(cli, agent, monkeypatch):
    monkeypatch.setattr("time.sleep", lambda s: None)
    agent.post(RPC, json__method="SendMessage").mock(side_effect=answers(task("t-1", "TASK_STATE_WORKING")))
    poll = agent.post(RPC, json__method="GetTask").mock(side_effect=answers(task("t-1", "TASK_STATE_COMPLETED")["task"]))
    result = cli("chat", "-u", AGENT, input="slow one\n")
    assert result.exit_code == 0, result.stderr
    assert poll.call_count == 1 and "State: completed" in result.stdout


def test_off_a_terminal_the_first_error_ends_the_session_with_its_exit_code(cli, agent):
    route = agent.post(RPC, json__method="SendMessage").mock(side_effect=[httpx.Response(200, json=rpc_error(-32001, "Task not found"))])
    result = cli("chat", "-u", AGENT, "--task-id", "nope", input="hello\nnever sent\n")
    assert result.exit_code == 1
    assert route.call_count == 1 and sent(route)[0]["taskId"] == "nope"
    assert "TaskNotFoundError" in result.stderr


def test_at_a_terminal_an_error_is_said_and_the_session_goes_on(cli, agent, monkeypatch):
    monkeypatch.setattr("a2acli.flows.chat._ttys", lambda: (True, True))
    route = agent.post(RPC, json__method="SendMessage").mock(side_effect=[httpx.Response(200, json=rpc_error(-32001, "Task not found")), *answers(task("t-1", "TASK_STATE_COMPLETED"))])
    result = cli("chat", "-u", AGENT, "--task-id", "nope", input="hello\nagain\n/quit\nnot sent\n")
    assert result.exit_code == 0, result.stderr
    assert route.call_count == 2 and "TaskNotFoundError" in result.stderr
    assert result.stdout.count("you> ") == 3  # the prompt (input() writes it where the terminal is), before each line read
    assert result.stdout.split("you> ")[2] == "[completed]\n"  # a REPL's answer: the agent's words, here none, so the state


def test_a_terminal_reading_into_a_pipe_is_refused_rather_than_left_waiting(cli, agent, monkeypatch):
    monkeypatch.setattr("a2acli.flows.chat._ttys", lambda: (True, False))
    route = agent.post(RPC)
    result = cli("chat", "-u", AGENT, "-o", "json")
    assert result.exit_code == 2 and not route.called
    assert json.loads(result.stdout)["error"]["code"] == "A2ACLI_ERR_USAGE"


def test_offline_prints_each_turns_request(cli, agent):
    result = cli("chat", "-u", AGENT, "--offline", input="one\ntwo\n")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.count("POST <JSONRPC URL") == 2 and '"one"' in result.stdout and '"two"' in result.stdout


# -- a task that asks for authentication (A2A §7.6; A2ACLI_AUTH_011) -------------------------------

ASK = {"messageId": "m-ask", "role": "ROLE_AGENT", "parts": [{"text": "send the API key"}, {"data": {"securityScheme": "key"}}]}
KEY_CARD = {"key": {"apiKeySecurityScheme": {"location": "header", "name": "X-API-Key"}}}


def asks_auth(tid: str = "t-1") -> dict:
    return {"task": {"id": tid, "contextId": "c-1", "status": {"state": "TASK_STATE_AUTH_REQUIRED", "message": ASK}}}


@pytest.fixture
def keyed(respx_mock):
    """An agent whose card declares an API key scheme (header X-API-Key), as the demo's does."""
    respx_mock.get(CARD_URL).respond(json=v1_card(**BLOCKING, securitySchemes=KEY_CARD))
    return respx_mock


@pytest.fixture
def at_a_terminal(monkeypatch):
    """stdin and stdout are terminals; getpass answers from `typed` and records its prompts."""
    monkeypatch.setattr("a2acli.flows.chat._ttys", lambda: (True, True))
    typed: list[str] = []
    prompts: list[str] = []

    def getpass(prompt: str = "") -> str:
        prompts.append(prompt)
        return typed.pop(0)

    monkeypatch.setattr("getpass.getpass", getpass)
    return typed, prompts


@pytest.mark.spec("A2ACLI_AUTH_011")
def test_piped_a_task_asking_for_authentication_ends_the_session_with_the_command_that_continues_it(cli, keyed):
    route = keyed.post(RPC, json__method="SendMessage").mock(side_effect=answers(asks_auth(), task("t-2", "TASK_STATE_COMPLETED")))
    result = cli("chat", "-u", AGENT, input="do it\nnever sent\n")
    assert result.exit_code == 0, result.stderr  # a pipe cannot answer a prompt: it ends, as the turn was done
    assert route.call_count == 1
    assert "State: auth-required" in result.stdout and "send the API key" in result.stdout
    assert f"  a2a send --task-id t-1 --context-id c-1 -u {AGENT} --api-key KEY 'continue'\n" in result.stderr
    assert "chat ends here: it reads no credential from a pipe" in result.stderr


@pytest.mark.spec("A2ACLI_AUTH_011")
def test_at_a_terminal_the_credential_is_read_unechoed_and_sent_with_the_next_turn_only(cli, keyed, at_a_terminal):
    typed, prompts = at_a_terminal
    typed.append("k-s3cret")
    route = keyed.post(RPC, json__method="SendMessage").mock(side_effect=answers(asks_auth(), task("t-1", "TASK_STATE_COMPLETED"), task("t-2", "TASK_STATE_COMPLETED")))
    result = cli("chat", "-u", AGENT, input="do it\ngo on\nand then\n/quit\n")
    assert result.exit_code == 0, result.stderr
    assert prompts == ["API key for header X-API-Key (not shown; Enter to skip): "]
    first, second, third = route.calls
    assert "X-API-Key" not in first.request.headers and "X-API-Key" not in third.request.headers  # that turn only
    assert second.request.headers["X-API-Key"] == "k-s3cret"  # where the card's scheme says
    assert json.loads(second.request.content)["params"]["message"]["taskId"] == "t-1"  # on the same task
    assert "taskId" not in json.loads(third.request.content)["params"]["message"]  # it completed: the context goes on
    assert "the agent asks for the Agent Card's scheme 'key' (apiKey, header X-API-Key)" in result.stderr
    assert "the credential goes with your next line only, to task t-1 as header X-API-Key; it is not stored" in result.stderr
    assert "k-s3cret" not in result.stdout + result.stderr  # never printed


@pytest.mark.spec("A2ACLI_AUTH_011")
def test_at_a_terminal_enter_skips_the_credential_and_the_next_line_still_answers_the_task(cli, keyed, at_a_terminal):
    typed, _ = at_a_terminal
    typed.append("")
    route = keyed.post(RPC, json__method="SendMessage").mock(side_effect=answers(asks_auth(), task("t-1", "TASK_STATE_REJECTED")))
    result = cli("chat", "-u", AGENT, input="do it\nno, I will not\n/quit\n")
    assert result.exit_code == 0, result.stderr
    reply = route.calls[1].request
    assert "X-API-Key" not in reply.headers and json.loads(reply.content)["params"]["message"]["taskId"] == "t-1"
    assert "no credential: your next line answers task t-1 without one (/new leaves it)" in result.stderr


@pytest.mark.spec("A2ACLI_AUTH_011")
def test_at_a_terminal_a_bearer_scheme_takes_the_typed_token_as_authorization(cli, respx_mock, at_a_terminal):
    typed, prompts = at_a_terminal
    typed.append("tok-1")
    respx_mock.get(CARD_URL).respond(json=v1_card(**BLOCKING, securitySchemes={"sso": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}}))
    route = respx_mock.post(RPC, json__method="SendMessage").mock(side_effect=answers(asks_auth(), task("t-1", "TASK_STATE_COMPLETED")))
    result = cli("chat", "-u", AGENT, "--api-key", "not-for-this-card", input="do it\ngo on\n/quit\n")
    assert result.exit_code == 0, result.stderr
    assert prompts == ["bearer token for header Authorization: Bearer (not shown; Enter to skip): "]
    assert route.calls[1].request.headers["Authorization"] == "Bearer tok-1"
    assert "Authorization" not in route.calls[0].request.headers
    assert "tok-1" not in result.stdout + result.stderr


@pytest.mark.spec("A2ACLI_AUTH_011")
def test_at_a_terminal_a_basic_scheme_takes_user_colon_password_and_refuses_anything_else(cli, respx_mock, at_a_terminal):
    typed, prompts = at_a_terminal
    typed += ["no-colon-s3cret", "ada:pw-s3cret"]
    respx_mock.get(CARD_URL).respond(json=v1_card(**BLOCKING, securitySchemes={"b": {"httpAuthSecurityScheme": {"scheme": "Basic"}}}))
    route = respx_mock.post(RPC, json__method="SendMessage").mock(side_effect=answers(asks_auth(), asks_auth(), task("t-1", "TASK_STATE_COMPLETED")))
    result = cli("chat", "-u", AGENT, input="do it\nhere\nand here\n/quit\n")
    assert result.exit_code == 0, result.stderr
    assert prompts == ["USER:PASSWORD for header Authorization: Basic (not shown; Enter to skip): "] * 2
    assert "HTTP basic takes USER:PASSWORD (a colon between them): not sent" in result.stderr
    assert "Authorization" not in route.calls[1].request.headers  # the one without a colon went nowhere
    assert route.calls[2].request.headers["Authorization"] == "Basic YWRhOnB3LXMzY3JldA=="  # ada:pw-s3cret
    assert "s3cret" not in result.stdout + result.stderr and "YWRhOnB3LXMzY3JldA" not in result.stderr


# -- at a terminal: a REPL (issue 25) -----------------------------------------------------------------


@pytest.fixture
def terminal(monkeypatch):
    monkeypatch.setattr("a2acli.flows.chat._ttys", lambda: (True, True))


def echo_task(tid: str, text: str, state: str = "TASK_STATE_COMPLETED") -> dict:
    return {"task": {"id": tid, "contextId": "c-1", "status": {"state": state}, "artifacts": [{"artifactId": "a-1", "parts": [{"text": text}]}]}}


def test_at_a_terminal_a_banner_names_the_agent_and_how_to_leave(cli, agent, terminal):
    agent.post(RPC, json__method="SendMessage").mock(side_effect=answers(echo_task("t-1", "echo: hi")))
    result = cli("chat", "-u", AGENT, input="hi\n")
    assert result.exit_code == 0, result.stderr
    head = result.stderr.splitlines()[:3]
    assert head == ["a2a chat with Test agent 1.0.0", "jsonrpc at http://agent.test/rpc, A2A 1.0", "/help lists the commands; /quit or Ctrl-D leaves. Ctrl-C stops the turn (the task goes on at the agent) or clears the line."]


def test_at_a_terminal_slash_commands_are_handled_here_and_never_sent(cli, agent, terminal):
    route = agent.post(RPC, json__method="SendMessage").mock(side_effect=answers(echo_task("t-1", "echo: /etc is a path", "TASK_STATE_INPUT_REQUIRED")))
    result = cli("chat", "-u", AGENT, input="/help\n/task\n/hepl\n//etc is a path\n/task\n/quit\nnever\n")
    assert result.exit_code == 0, result.stderr
    assert [m["parts"][0]["text"] for m in sent(route)] == ["/etc is a path"]  # only the // line, one slash off
    err = result.stderr
    assert "  /task   the context and task ids of this session\n" in err and "  /quit   leave (also /exit, Ctrl-D)\n" in err  # /help
    assert "context: (none yet: the next message starts one)" in err  # /task before any turn
    assert "warning: no command /hepl: not sent; did you mean /help? (/help lists them; //text sends a line that starts with /)" in err
    assert "context: c-1" in err and "task: t-1 (waits for you: your next line answers it)" in err  # /task after it


def test_at_a_terminal_each_answer_is_the_agents_text_and_the_state_only_when_not_completed(cli, agent, terminal):
    asks = {"task": {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_INPUT_REQUIRED", "message": {"messageId": "m", "role": "ROLE_AGENT", "parts": [{"text": "Which colour?"}]}}}}
    message = {"message": {"messageId": "m-2", "contextId": "c-1", "role": "ROLE_AGENT", "parts": [{"text": "hi there"}, {"data": {"n": 1}}]}}
    agent.post(RPC, json__method="SendMessage").mock(side_effect=answers(echo_task("t-0", "echo: hello"), asks, echo_task("t-1", "blue it is"), message))
    result = cli("chat", "-u", AGENT, input="hello\npaint it\nblue\nhi\n")
    assert result.exit_code == 0, result.stderr
    answers_seen = result.stdout.split("you> ")[1:]
    assert answers_seen == ["echo: hello\n", "Which colour?\n[input-required]\n", "blue it is\n", 'hi there\n{"n": 1}\n', "\n"]  # the last: Ctrl-D's new line
    assert "Task:" not in result.stdout and "State:" not in result.stdout  # no task panel


# -- through a pseudo-terminal, against a real (local, threaded) agent ----------------------------------


class _Agent:
    """A JSON-RPC agent on 127.0.0.1: its card, and SendMessage answered with a completed task
    echoing the text; the text `slow` is held until the test ends (a turn to stop with Ctrl-C)."""

    def __init__(self) -> None:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        agent = self
        self.texts: list[str] = []
        self.release = threading.Event()

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def _send(self, doc):
                body = json.dumps(doc).encode()
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):  # the turn was stopped: nobody waits for this answer
                    pass

            def do_GET(self):
                self._send(v1_card(url=f"{agent.url}/rpc", **BLOCKING))

            def do_POST(self):
                req = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                text = req["params"]["message"]["parts"][0]["text"]
                agent.texts.append(text)
                if text == "slow":
                    agent.release.wait(30)
                n = len(agent.texts)
                self._send({"jsonrpc": "2.0", "id": req["id"], "result": {"task": {"id": f"t-{n}", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}, "artifacts": [{"artifactId": "a", "parts": [{"text": f"echo: {text}"}]}]}}})

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


class _Terminal:
    """`a2a ARGS` on a pseudo-terminal (its controlling terminal: Ctrl-C is a SIGINT from the line
    discipline, as at a real one); what it writes is read as it comes."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        import os
        import pty
        import sys

        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: becomes `a2a`
            os.execve(sys.executable, [sys.executable, "-m", "a2acli", *args], env)
        self.seen = ""
        self.before = ""  # what earlier expect() calls took: a failure shows where it stopped

    def expect(self, text: str, timeout: float = 20) -> str:
        """Read until `text` shows up; what was read up to and including it."""
        import os
        import re
        import select
        import time

        deadline = time.monotonic() + timeout
        while text not in self.seen:
            left = deadline - time.monotonic()
            assert left > 0, f"{text!r} not seen in:\n{self.seen}\n(after, already matched:\n{self.before[-600:]})"
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.fd, 4096).decode(errors="replace")
                except OSError:  # the child has ended
                    chunk = ""
                assert chunk, f"{text!r} not seen before the end:\n{self.seen}"
                self.seen += re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\r", "", chunk)  # control sequences and CRs out
        upto, _, self.seen = self.seen.partition(text)
        self.before += upto + text
        return upto + text

    def wait_for_a_key(self, timeout: float = 20) -> None:
        """Return once `a2a` waits for the next key: asleep in the select() of Python's readline
        loop (Linux: /proc/PID/stat and wchan), as it always is when a person types one.

        Needed before a Ctrl-C at the prompt. The echo of a key is written while readline is
        still handling that key, before it is back in select(); a SIGINT that comes in between
        is only noted by Python's signal handler, and CPython's readline loop
        (readline_until_enter_or_signal) looks at signals only when select() fails with EINTR:
        this Ctrl-C then does nothing until the line ends. A test writing Ctrl-C as soon as the
        echo shows lands in that gap whenever the child is slow to get back (a loaded machine)."""
        import time

        deadline = time.monotonic() + timeout
        while True:
            try:
                with open(f"/proc/{self.pid}/stat") as f:
                    state = f.read().rpartition(")")[2].split()[0]
                with open(f"/proc/{self.pid}/wchan") as f:
                    wchan = f.read()
            except OSError:  # no /proc (macOS): a person's pause between two keys
                time.sleep(0.5)
                return
            # S: asleep in a system call; wchan names it where the kernel tells (else "0")
            if state == "S" and (wchan in ("", "0") or "select" in wchan or "poll" in wchan):
                return
            assert time.monotonic() < deadline, f"a2a never waited for a key (state {state}, in {wchan!r})"
            time.sleep(0.005)

    def send(self, keys: str) -> None:
        import os

        os.write(self.fd, keys.encode())

    def wait(self, timeout: float = 20) -> int:
        import os
        import time

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            try:
                os.read(self.fd, 4096)  # keep the pty drained
            except OSError:
                time.sleep(0.05)
        raise AssertionError("a2a chat did not end")


@pytest.mark.skipif(__import__("sys").platform == "win32", reason="a POSIX pseudo-terminal")
def test_through_a_pseudo_terminal_chat_is_a_repl(tmp_path):
    import os
    import time

    agent = _Agent()
    history = tmp_path / "chat_history"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("A2ACLI_", "_TYPER", "TERMINAL_WIDTH"))}
    env.update({"A2ACLI_GLOBAL_CONFIG": os.devnull, "A2ACLI_LOCAL_CONFIG": os.devnull, "A2ACLI_CHAT_HISTORY": str(history), "TERM": "xterm", "NO_COLOR": "1", "COLUMNS": "80", "LINES": "24"})
    term = _Terminal(["chat", "-u", agent.url], env)
    try:
        banner = term.expect("you> ")
        assert "a2a chat with Test agent 1.0.0" in banner and "/quit or Ctrl-D leaves" in banner
        term.send("/help\r")  # handled here: nothing is sent
        assert "/task   the context and task ids of this session" in term.expect("you> ")
        term.send("hello\r")
        assert "echo: hello\n" in term.expect("you> ")
        term.send("\x1b[A\r")  # Up: the line before, recalled by line editing, sent again
        assert "echo: hello\n" in term.expect("you> ")
        term.send("slow\r")
        deadline = time.monotonic() + 20
        while agent.texts[-1:] != ["slow"] and time.monotonic() < deadline:
            time.sleep(0.05)
        term.send("\x03")  # Ctrl-C: the turn stops, the session goes on
        stopped = term.expect("you> ")
        assert "turn stopped before the agent answered" in stopped and "the agent may go on with it; this session goes on (Ctrl-D leaves)" in stopped
        assert "a2a tasks list --context-id c-1 -u " + agent.url in stopped  # how to find the task it may have started
        # Ctrl-C at the prompt: the line goes, the session stays. Typed once readline waits for
        # the next key, as a person types it: sent as soon as the line's echo showed, it was lost
        # now and then (see wait_for_a_key)
        term.send("half a line")
        term.expect("half a line")
        term.wait_for_a_key()
        term.send("\x03")
        term.expect("you> ")
        term.send("/task\r")
        assert "context: c-1" in term.expect("you> ")
        term.send("\x04")  # Ctrl-D leaves
        assert term.wait() == 0
    finally:
        agent.close()
        try:
            os.kill(term.pid, 9)
            os.waitpid(term.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
    assert agent.texts == ["hello", "hello", "slow"]  # /help, /task and the cleared line never went out
    assert history.read_text() == "/help\nhello\nslow\n/task\n"  # readline keeps a repeated line once; the cleared one is not kept
    assert oct(history.stat().st_mode & 0o777) == "0o600"


def test_at_a_terminal_ctrl_c_while_a_task_is_followed_names_it_and_the_session_goes_on(cli, agent, terminal, monkeypatch):
    monkeypatch.setattr("time.sleep", lambda s: None)
    route = agent.post(RPC, json__method="SendMessage").mock(side_effect=answers(task("t-1", "TASK_STATE_WORKING"), echo_task("t-2", "echo: next")))
    def ctrl_c(request):
        raise KeyboardInterrupt  # as SIGINT would, while the task is polled

    agent.post(RPC, json__method="GetTask").mock(side_effect=ctrl_c)
    result = cli("chat", "-u", AGENT, input="long job\nnext\n")
    assert result.exit_code == 0, result.stderr
    assert "turn stopped: task t-1 (context c-1) was working; resume with this (the Agent Card claims no streaming):" in result.stderr
    assert f"  a2a tasks get t-1 --wait -u {AGENT}\n" in result.stderr
    assert "task t-1 goes on at the agent; this session goes on (Ctrl-D leaves)" in result.stderr
    first, second = sent(route)
    assert second["contextId"] == "c-1" and "taskId" not in second  # the context carries; the stopped task is not answered
    assert "echo: next" in result.stdout


# -- slash commands piped as at a terminal; /data and /skill (issue 36) -----------------------------------


def test_piped_slash_commands_are_handled_as_at_a_terminal_never_sent(cli, agent):
    route = agent.post(RPC, json__method="SendMessage").mock(side_effect=answers(task("t-1", "TASK_STATE_COMPLETED")))
    result = cli("chat", "-u", AGENT, input="/help\n/hepl\n//help\n")
    assert result.exit_code == 0, result.stderr
    assert [m["parts"][0]["text"] for m in sent(route)] == ["/help"] and "Task: t-1" in result.stdout  # only the // line
    assert "  /task   the context and task ids of this session\n" in result.stderr  # /help, said here
    assert "warning: no command /hepl: not sent; did you mean /help?" in result.stderr


def test_data_and_skill_send_data_parts(cli, agent):
    route = agent.post(RPC, json__method="SendMessage").mock(side_effect=answers(task("t-1", "TASK_STATE_COMPLETED"), task("t-2", "TASK_STATE_COMPLETED")))
    result = cli("chat", "-u", AGENT, input='/data {"skill": "echo", "text": "x"}\n/skill create-user projectUserId=u1 age:=42\n')
    assert result.exit_code == 0, result.stderr
    assert [m["parts"] for m in sent(route)] == [
        [{"data": {"skill": "echo", "text": "x"}}],
        [{"data": {"skill": "create-user", "projectUserId": "u1", "age": 42}}],
    ]


@pytest.mark.parametrize("line,says", [("/data [1]", "/data takes a JSON object"), ("/skill", "/skill needs the skill's id"), ("/skill s bad", "is not key=value")])
def test_a_bad_data_or_skill_line_piped_ends_the_session_exit_2(cli, agent, line, says):
    route = agent.post(RPC, json__method="SendMessage").mock(side_effect=answers(task("t-1", "TASK_STATE_COMPLETED")))
    result = cli("chat", "-u", AGENT, input=f"{line}\nnever\n")
    assert result.exit_code == 2 and says in result.stderr, result.stderr
    assert not route.calls


@pytest.mark.parametrize("rest,said,hint", [
    ("create-user age:=x", "/skill create-user: age:=x: 'x' is not valid JSON", "use `=`: age=x;"),
    ("create-user nokey", "/skill create-user: 'nokey' is not key=value or key:=JSON", "e.g. projectUserId=user_123 age:=42"),
])  # fmt: skip
def test_a_bad_skill_word_is_said_in_slash_syntax_not_the_command_lines(rest, said, hint):
    """In a chat the fields are bare words after /skill NAME: no `-f` in what is said."""
    from a2acli.errors import UsageError
    from a2acli.flows.chat import slash_part

    with pytest.raises(UsageError) as e:
        slash_part("/skill", rest)
    assert e.value.message.startswith(said) and hint in (e.value.hint or "") and "-f" not in e.value.message + (e.value.hint or "")


# -- a card that claims streaming: each turn streams (issue 46) -----------------------------------------


def test_when_the_card_claims_streaming_a_turn_streams_and_shows_the_settled_task(cli, respx_mock):
    """Issue 46: a streaming skill showed only "waiting…" (one blocking SendMessage held until the
    end); the turn is a SendStreamingMessage, its events move the waiting display, and the answer
    is the settled task from GetTask (its artifacts), as `send` shows it."""
    respx_mock.get(CARD_URL).respond(json=v1_card())  # claims streaming
    working = {"task": {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}}}
    step = {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING", "message": {"messageId": "s", "role": "ROLE_AGENT", "parts": [{"text": "step 1/2"}]}}}}
    done = {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}}
    streamed = respx_mock.post(RPC, json__method="SendStreamingMessage").respond(content=sse(working, step, done), headers={"Content-Type": "text/event-stream"})
    final = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}, "artifacts": [{"artifactId": "a", "name": "result", "parts": [{"text": "done after 2 steps"}]}]}
    got = respx_mock.post(RPC, json__method="GetTask").respond(json=rpc_result(final))
    blocking = respx_mock.post(RPC, json__method="SendMessage").respond(json=rpc_result(task("t-9", "TASK_STATE_COMPLETED")))
    result = cli("chat", "-u", AGENT, input="slow\n")
    assert result.exit_code == 0, result.stderr
    assert streamed.call_count == 1 and got.call_count == 1 and blocking.call_count == 0
    assert "Task: t-1" in result.stdout and "done after 2 steps" in result.stdout
    assert "task t-1: working" in result.stderr and "task t-1: completed" in result.stderr  # off a terminal: the states as they came


def test_a_streamed_turn_answered_with_a_message_is_that_message(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    message = {"message": {"messageId": "m-1", "contextId": "c-7", "role": "ROLE_AGENT", "parts": [{"text": "hi there"}]}}
    route = respx_mock.post(RPC, json__method="SendStreamingMessage").respond(content=sse(message), headers={"Content-Type": "text/event-stream"})
    result = cli("chat", "-u", AGENT, input="hello\nagain\n")
    assert result.exit_code == 0, result.stderr
    assert route.call_count == 2 and result.stdout.count("hi there") == 2
    second = json.loads(route.calls[1].request.content)["params"]["message"]
    assert second["contextId"] == "c-7"  # the context carries, as after a blocking turn
