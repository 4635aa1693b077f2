"""Issue 22 item 2: the output modes are classes (render.output.MODES), and every operation the
commands call runs under every mode (the hf CLI's test_cli_output.py pattern): each test below is
parametrized over the mode table and asserts on what reached stdout and stderr. A new mode added to
MODES without its expectations here fails test_every_mode_has_its_expectations."""

from __future__ import annotations

import io
import json

import pytest

from a2acli.render.output import MODES, AutoOutput, JsonOutput, Output, RawOutput, TextOutput, named, pick
from a2acli.settings.table import OUTPUT_MODES

TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}
RESULT = {"id": "t-1", "contextId": "c-1", "kind": "task", "status": {"state": "completed"}}  # as the wire spelt it (0.3)
RAW = b'{"jsonrpc":"2.0","id":1,"result":{"id":"t-1","kind":"task"}}'

# What each mode promises, per mode name: stdout is a JSON document (json), the wire's bytes (raw)
# or a person's records (text; auto off a terminal is the text floor too).
EXPECT = {
    "auto": "human",
    "text": "human",
    "json": "json",
    "raw": "raw",
}
MODE_NAMES = list(MODES)


class Reply:
    def __init__(self, core=TASK, result=RESULT, raw=RAW):
        self.core, self.result, self.raw, self.exchange = core, result, raw, None


def run(mode: str, fn, **kw) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    fn(Output(mode, stdout=out, stderr=err, **kw))
    return out.getvalue(), err.getvalue()


@pytest.fixture(autouse=True)
def _plain(monkeypatch):
    monkeypatch.delenv("FORCE_COLOR", raising=False)  # StringIO is no terminal: auto is the text floor


def no_control(*texts: str) -> bool:
    return not any(c in t for t in texts for c in ("\x1b", "\x9b", "\r"))


# -- the table ----------------------------------------------------------------------------------------


def test_the_mode_table_is_the_settings_choices():
    assert set(MODES) == set(OUTPUT_MODES)  # -o's choices, completion and `config set output` read OUTPUT_MODES
    assert named() == "auto, text, json or raw"


def test_every_mode_has_its_expectations():
    assert set(EXPECT) == set(MODES)


@pytest.mark.parametrize("mode", MODE_NAMES)
def test_output_of_a_name_is_that_mode_s_class(mode):
    o = Output(mode.upper(), stdout=io.StringIO())
    assert type(o) is MODES[mode] and o.name == mode
    assert type(MODES[mode](stdout=io.StringIO())) is MODES[mode]  # a class builds itself too
    assert o.human == (EXPECT[mode] == "human")


def test_an_unknown_mode_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown output mode 'yaml'"):
        Output("yaml")


def test_commands_that_offer_some_modes_pick_among_classes():
    report = (JsonOutput, TextOutput)  # auth, diff: reports with no wire bytes
    assert [pick(m, among=report) for m in ("json", "TEXT", "raw", "auto", None, "bogus")] == [
        JsonOutput,
        TextOutput,
        AutoOutput,
        AutoOutput,
        AutoOutput,
        AutoOutput,
    ]
    assert [pick(m, among=(JsonOutput,), otherwise=TextOutput) for m in ("json", "auto", "raw", None)] == [
        JsonOutput,
        TextOutput,
        TextOutput,
        TextOutput,
    ]  # mock
    assert pick("raw") is RawOutput and pick(None) is AutoOutput


# -- each operation under each mode -----------------------------------------------------------------


@pytest.mark.parametrize("mode", MODE_NAMES)
def test_reply(mode):
    stdout, stderr = run(mode, lambda o: o.reply("task", Reply()))
    if EXPECT[mode] == "json":
        assert json.loads(stdout) == RESULT  # the result as the wire spelt it
    elif EXPECT[mode] == "raw":
        assert stdout == RAW.decode() + "\n"  # the bytes unchanged
    else:
        assert stdout == "Task: t-1\nContext: c-1\nState: completed\n\n"
    assert stderr == "" and no_control(stdout)


@pytest.mark.parametrize("mode", MODE_NAMES)
def test_reply_as_v1_and_as_a_line(mode):
    stdout, _ = run(mode, lambda o: (o.reply("task", Reply(), as_v1=True, lines=True), o.reply("empty", Reply(None, None, b""))))
    if EXPECT[mode] == "json":
        first, second = stdout.splitlines()
        assert json.loads(first) == TASK and json.loads(second) == {}  # canonical V1; Empty is `{}` on every binding
    elif EXPECT[mode] == "raw":
        assert stdout == RAW.decode() + "\n"  # a reply without bytes (a merged list) shows nothing
    else:
        assert "Task: t-1" in stdout and "Deleted: true" in stdout


@pytest.mark.parametrize("mode", MODE_NAMES)
def test_event(mode):
    seen = []
    stdout, _ = run(mode, lambda o: [o.event(Reply(), seen.append, as_v1=v1) for v1 in (False, True)])
    if EXPECT[mode] == "json":
        assert [json.loads(line) for line in stdout.splitlines()] == [RESULT, TASK]  # JSON Lines
        assert seen == []
    elif EXPECT[mode] == "raw":
        assert stdout == (RAW.decode() + "\n") * 2 and seen == []
    else:
        assert stdout == "" and len(seen) == 2  # the view's own drawing


@pytest.mark.parametrize("mode", MODE_NAMES)
def test_item(mode):
    built = []

    def doc():
        built.append(1)
        return [{"n": 1}, {"n": 2}]

    stdout, _ = run(
        mode,
        lambda o: (
            o.item(b"wire bytes\n", doc, lambda: o.text("a person's view"), each=True),
            o.item(None, {"n": 3}, lambda: o.text("second"), lines=True),
        ),
    )
    if EXPECT[mode] == "json":
        assert [json.loads(line) for line in stdout.splitlines()] == [{"n": 1}, {"n": 2}, {"n": 3}]
    elif EXPECT[mode] == "raw":
        assert stdout == "wire bytes\n" and not built  # no bytes: nothing; the document never built
    else:
        assert stdout == "a person's view\nsecond\n" and not built


@pytest.mark.parametrize("mode", MODE_NAMES)
def test_document(mode):
    stdout, stderr = run(
        mode,
        lambda o: o.document(lambda: {"report": [1, "é"]}, lambda: o.text("Report: 1"), raw=lambda: o.text("report.txt")),
    )
    if EXPECT[mode] == "json":
        assert json.loads(stdout) == {"report": [1, "é"]}
    elif EXPECT[mode] == "raw":
        assert stdout == "report.txt\n"  # the command's raw form
    else:
        assert stdout == "Report: 1\n"
    no_raw_form, _ = run(mode, lambda o: o.document({"a": 1}, lambda: o.text("A: 1")))
    assert no_raw_form == ('{\n  "a": 1\n}\n' if EXPECT[mode] == "json" else "A: 1\n")  # raw: the text
    assert stderr == ""


@pytest.mark.parametrize("mode", MODE_NAMES)
def test_request(mode):
    head = ["POST /a2a HTTP/1.1", "Content-Type: application/json"]
    body = b'{"jsonrpc":"2.0","id":1,"method":"GetTask"}'
    document = {"jsonrpc": "2.0", "id": 1, "method": "GetTask"}
    stdout, stderr = run(mode, lambda o: o.request(head, body, document))
    whole, _ = run(mode, lambda o: o.request(head, body, document, whole={"method": "POST", "body": document}))
    if EXPECT[mode] == "json":
        assert json.loads(stdout) == document and json.loads(whole) == {"method": "POST", "body": document}
        assert stderr.splitlines() == head
    elif EXPECT[mode] == "raw":
        assert stdout == body.decode() + "\n" and stderr.splitlines() == head
    else:
        assert stdout.startswith("POST /a2a HTTP/1.1\nContent-Type: application/json\n\n{") and stderr == ""
        assert '"method": "GetTask"' in stdout and whole == stdout


@pytest.mark.parametrize("mode", MODE_NAMES)
def test_passthrough(mode):
    stdout, _ = run(mode, lambda o: (o.passthrough(b'{"error":{"code":-32001}}'), o.passthrough(b"")))
    assert stdout == ('{"error":{"code":-32001}}\n' if EXPECT[mode] == "raw" else "")


@pytest.mark.parametrize("mode", MODE_NAMES)
def test_notes_remarks_and_next_steps(mode):
    stdout, stderr = run(
        mode,
        lambda o: (
            o.note("a note"),
            o.warn("careful"),
            o.remark("3 notification(s) received"),
            o.next_step("more tasks; the next page:", "a2a tasks list --page-token X"),
            o.note_unless_viewed("signature: verified"),
        ),
    )
    assert stdout == "" and no_control(stderr)
    human = ["a note", "warning: careful", "3 notification(s) received", "more tasks; the next page:", "  a2a tasks list --page-token X"]
    machine = ["a note", "warning: careful", "signature: verified"]
    assert stderr.splitlines() == (human if EXPECT[mode] == "human" else machine)
    _, quiet = run(mode, lambda o: (o.note("a note"), o.remark("a remark"), o.warn("careful")), quiet=True)
    assert quiet == "warning: careful\n"  # -q keeps warnings only


@pytest.mark.parametrize("mode", MODE_NAMES)
def test_error(mode):
    def fail(o):
        o.error(message="task not found", hint="check the id", code="TaskNotFoundError", a2a_code=-32001, data={"id": "t-9"}, request_id="r-1")

    stdout, stderr = run(mode, fail)
    if EXPECT[mode] == "json":
        assert json.loads(stdout) == {
            "error": {"code": "TaskNotFoundError", "message": "task not found", "hint": "check the id", "a2aCode": -32001, "data": {"id": "t-9"}, "requestId": "r-1"}
        }
        assert stderr == ""
    else:
        assert stdout == ""
        assert stderr.splitlines() == ["error: task not found [TaskNotFoundError]", '  data: {"id": "t-9"}', "hint: check the id", "X-Request-ID: r-1"]
    after, late = run(mode, lambda o: (o.reply("task", Reply()), fail(o)))
    if EXPECT[mode] == "json":  # stdout holds one document already: the error goes to stderr as text
        assert json.loads(after) == RESULT and late.startswith("error: task not found")


@pytest.mark.parametrize("mode", MODE_NAMES)
def test_error_document(mode):
    stdout, stderr = run(mode, lambda o: o.error_document(message="interrupted (Ctrl-C)", hint=None, code="INTERRUPTED"))
    if EXPECT[mode] == "json":
        assert json.loads(stdout)["error"] == {"code": "INTERRUPTED", "message": "interrupted (Ctrl-C)", "hint": None, "a2aCode": None}
    else:
        assert stdout == stderr == ""  # a note on stderr says it


@pytest.mark.parametrize("mode", MODE_NAMES)
def test_error_context(mode):
    stdout, _ = run(mode, lambda o: o.error_context("task", Reply()))
    expected = {"json": "", "raw": RAW.decode() + "\n", "human": "Task: t-1\nContext: c-1\nState: completed\n\n"}
    assert stdout == expected[EXPECT[mode]]  # -o json: stdout is the one error document that follows


@pytest.mark.parametrize("mode", MODE_NAMES)
def test_task_page(mode):
    class Page:
        core = {"tasks": [TASK, {**TASK, "id": "t-2"}]}
        result = {"tasks": [RESULT]}
        raw = b'{"tasks":[]}'

    stdout, _ = run(mode, lambda o: o.task_page(Page()))
    v1, _ = run(mode, lambda o: o.task_page(Page(), as_v1=True))
    if EXPECT[mode] == "json":
        assert [json.loads(line) for line in stdout.splitlines()] == [RESULT]
        assert [json.loads(line)["id"] for line in v1.splitlines()] == ["t-1", "t-2"]
    elif EXPECT[mode] == "raw":
        assert stdout == v1 == '{"tasks":[]}\n'
    else:
        assert stdout.count("Task: ") == 2 and no_control(stdout)


@pytest.mark.parametrize("mode", MODE_NAMES)
def test_hostile_text_never_reaches_a_terminal_as_control_sequences(mode):
    evil = {**TASK, "id": "t-\x1b[2J1", "status": {"state": "TASK_STATE_FAILED", "message": {"role": "ROLE_AGENT", "parts": [{"text": "\x1b]0;pwned\x07boom"}]}}}
    stdout, stderr = run(mode, lambda o: (o.reply("task", Reply(evil, evil)), o.note("agent says \x1b[31mred")))
    assert "\x1b" not in stderr
    if EXPECT[mode] == "human":
        assert no_control(stdout) and "boom" in stdout
    elif EXPECT[mode] == "json":
        assert json.loads(stdout)["id"] == "t-\x1b[2J1"  # the document keeps the value (JSON escapes it)
        assert "\x1b" not in stdout


def test_only_json_is_one_document_on_stdout():
    """`card fetch --validate` replaces the card by the error naming its findings where stdout is one
    JSON document; the other modes show the card and the findings on stderr."""
    from a2acli.render.output import MODES

    assert [name for name, cls in MODES.items() if cls.one_document] == ["json"]


def test_a_new_mode_is_one_class_that_names_itself():
    """Issue 22: a new output mode is one class (it joins MODES as it is defined) plus its name in
    settings.table.OUTPUT_MODES."""

    class ProbeOutput(TextOutput):
        name = "probe-mode"

    try:
        assert MODES["probe-mode"] is ProbeOutput
        assert type(Output("probe-mode", stdout=io.StringIO())) is ProbeOutput
        assert pick("PROBE-MODE") is ProbeOutput
    finally:
        del MODES["probe-mode"]
    assert "probe-mode" not in MODES and set(MODES) == set(OUTPUT_MODES)
