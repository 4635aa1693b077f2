"""`a2a send` and `a2a stream` take their message options from their class (issue 43): declared once
(commands._message_options), reaching the command as one MessageInput, never as parameters."""

from __future__ import annotations

import inspect
import json

import pytest
import typer

from a2acli.commands import message
from a2acli.commands._message_options import MESSAGE_OPTIONS
from a2acli.commands.registry import full_app

OFFLINE = ("--offline", "-o", "raw", "--rpc-url", "http://agent.test/rpc")


@pytest.mark.parametrize("command", [message.send, message.stream_command])
def test_the_functions_list_no_message_option(command):
    assert list(inspect.signature(command).parameters) == ["ctx"]


def _declared(name: str) -> list[str]:
    root = typer.main.get_command(full_app())
    ctx = root.make_context("a2a", [name], resilient_parsing=True)
    cmd = root.get_command(ctx, name)
    return [p.name for p in cmd.get_params(ctx) if p.name != "help"]


def test_each_message_option_is_declared_once_in_the_table_order():
    rows = [row.name for row in MESSAGE_OPTIONS]
    assert _declared("send")[: len(rows)] == rows
    streamed = [row.name for row in MESSAGE_OPTIONS if not row.send_only]
    assert _declared("stream")[: len(streamed)] == streamed
    assert "retry" not in _declared("stream") and "follow" not in _declared("stream")


def _sent(cli, *args: str) -> dict:
    result = cli(*args, *OFFLINE)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_the_hidden_aliases_fill_the_option_they_name(cli):
    hook = ("--push-url", "http://127.0.0.1:9/hook")
    config = _sent(cli, "send", "hi", *hook, "--token", "t-old")["params"]["configuration"]
    assert config["taskPushNotificationConfig"] == {"url": "http://127.0.0.1:9/hook", "token": "t-old"}
    both = _sent(cli, "send", "hi", *hook, "--push-token", "t-new", "--token", "t-old")["params"]["configuration"]
    assert both["taskPushNotificationConfig"]["token"] == "t-new"
    assert _sent(cli, "send", "hi", "--return-immediately")["params"]["configuration"] == {"returnImmediately": True}


def test_stream_sends_the_message_options_it_was_given(cli):
    sent = _sent(cli, "stream", "hi", "--context-id", "c-1", "-f", "n:=3", "--history-length", "2")
    assert sent["method"] == "SendStreamingMessage"
    assert sent["params"]["message"]["contextId"] == "c-1"
    assert sent["params"]["message"]["parts"] == [{"text": "hi"}, {"data": {"n": 3}}]
    assert sent["params"]["configuration"] == {"historyLength": 2}
