"""Issue 46: --debug printed each body as one unwrapped line; at a terminal a JSON body is shown
indented, elsewhere (a log, a pipe) as it crossed the wire; each line behind its mark (issue 42: no
line of the agent's starts a line of ours)."""

from __future__ import annotations

import io

from a2a_testkit import AGENT, RPC, v1_card

from a2acli.events import DebugBody
from a2acli.render.events import Presenter
from a2acli.render.output import Output

BODY = '{"jsonrpc":"2.0","id":"r-1","result":{"id":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_COMPLETED"}}}'


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def shown(err: io.StringIO, body: str, mode: str = "text") -> str:
    Presenter(Output(mode, stdout=io.StringIO(), stderr=err)).emit(DebugBody("<", body))
    return err.getvalue()


def test_at_a_terminal_a_json_body_is_indented(monkeypatch):
    monkeypatch.setenv("TERM", "xterm-256color")
    text = shown(Tty(), BODY)
    assert text.splitlines()[:3] == ["< {", '<   "jsonrpc": "2.0",', '<   "id": "r-1",']
    assert '<       "state": "TASK_STATE_COMPLETED"' in text
    assert all(line.startswith("<") for line in text.splitlines())


def test_elsewhere_and_for_other_bodies_it_is_as_it_came(monkeypatch):
    monkeypatch.setenv("TERM", "xterm-256color")
    assert shown(io.StringIO(), BODY) == "< " + BODY + "\n"
    assert shown(Tty(), "not json {") == "< not json {\n"


def test_debug_of_a_call_shows_both_bodies(cli, respx_mock):
    respx_mock.get(f"{AGENT}/.well-known/agent-card.json").respond(json=v1_card())
    respx_mock.post(RPC).respond(text=BODY, headers={"Content-Type": "application/json"})
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--debug", "--request-id", "r-1")
    assert result.exit_code == 0, result.stderr
    lines = result.stderr.splitlines()
    assert "< " + BODY in lines  # not a terminal: the answer's body on one line, as it came
    at = lines.index("< " + BODY)
    assert lines[at - 1] == "<" and lines[at + 1].startswith("* ")
    assert any(line.startswith('> {"jsonrpc"') and '"GetTask"' in line for line in lines)
