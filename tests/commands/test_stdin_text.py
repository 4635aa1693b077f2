"""Issue 46: text from standard input. `echo hi | a2a send` sends "hi" (no part given and stdin no
terminal), `--text -` reads it explicitly, in its place among the parts; stdin is read once."""

from __future__ import annotations

import json

import pytest

OFFLINE = ["--offline", "-o", "raw", "--rpc-url", "http://agent.test/rpc"]


def parts(result) -> list[dict]:
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)["params"]["message"]["parts"]


@pytest.mark.parametrize("command", ["send", "stream"])
def test_piped_text_is_the_message_when_no_part_is_given(cli, command):
    assert parts(cli(command, *OFFLINE, input="hi there\n")) == [{"text": "hi there"}]


def test_text_dash_reads_stdin_in_its_place_among_the_parts(cli):
    result = cli("send", "--data", '{"a": 1}', "--text", "-", "--text", "after", *OFFLINE, input="line 1\nline 2\n\n")
    assert parts(result) == [{"data": {"a": 1}}, {"text": "line 1\nline 2"}, {"text": "after"}]


def test_stdin_is_not_read_when_a_part_is_given(cli):
    assert parts(cli("send", "hello", *OFFLINE, input="not this\n")) == [{"text": "hello"}]
    assert parts(cli("send", "--skill", "echo", *OFFLINE, input="nor this\n")) == [{"data": {"skill": "echo"}}]


def test_an_empty_stdin_is_still_nothing_to_send_and_the_hint_says_a_pipe_works(cli):
    result = cli("send", *OFFLINE, input="\n")
    assert result.exit_code == 2
    assert "nothing to send" in result.stderr and "echo hello | a2a send" in result.stderr


def test_stdin_is_read_once(cli):
    result = cli("send", "--text", "-", "--data", "-", *OFFLINE, input='{"a": 1}')
    assert result.exit_code == 2
    assert "standard input can be read once" in result.stderr


def test_stdin_that_is_not_utf8_is_a_usage_error(cli):
    result = cli("send", "--text", "-", *OFFLINE, input=b"\xff\xfe")
    assert result.exit_code == 2
    assert "--text: standard input is not UTF-8" in result.stderr
