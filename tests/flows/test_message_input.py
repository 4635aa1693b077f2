"""A message's inputs as one value (flows.messages.MessageInput), used with no CLI runner: the parts
in the order of the command line it carries, the configuration asked for, the idempotency header,
and how to wait as one choice."""

from __future__ import annotations

import pytest

from a2acli.errors import UsageError
from a2acli.flows.messages import MessageInput

LIMIT = 1 << 20


def test_the_parts_follow_the_command_line_it_carries():
    given = MessageInput(
        argv=("first", "--data", '{"a": 1}', "--text", "second", "--media-type", "text/markdown", "-f", "k=v"),
        text="first",
        text_part=("second",),
        data=('{"a": 1}',),
        media_type=("text/markdown",),
        field=("k=v",),
        message_id="m-1",
        context_id="c-1",
    )
    params = given.params(LIMIT)
    assert params == {
        "message": {
            "messageId": "m-1",
            "role": "ROLE_USER",
            "contextId": "c-1",
            "parts": [
                {"text": "first"},
                {"data": {"a": 1}},
                {"text": "second", "mediaType": "text/markdown"},
                {"data": {"k": "v"}},
            ],
        }
    }


def test_the_configuration_is_only_what_was_asked_for():
    given = MessageInput(text="hi", history_length=0, push_url="http://127.0.0.1:9/hook", push_token="t", follow=True)
    assert given.params(LIMIT)["configuration"] == {
        "historyLength": 0,
        "taskPushNotificationConfig": {"url": "http://127.0.0.1:9/hook", "token": "t"},
        "returnImmediately": True,
    }
    assert "configuration" not in MessageInput(text="hi").params(LIMIT)


def test_the_idempotency_key_given_or_made_for_retries():
    assert MessageInput().headers("Idempotency-Key") == {}
    assert MessageInput(idempotency_key="k-1").headers("Idempotency-Key") == {"Idempotency-Key": "k-1"}
    made = MessageInput(retry=2).headers("X-Clix-Idempotency-Key")["X-Clix-Idempotency-Key"]
    assert len(made) == 36


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ({"async_": True, "wait": True}, "--wait and --async contradict each other"),
        ({"async_": True, "stream": True}, "--stream and --async contradict each other"),
        ({"follow": True, "stream": True}, "--follow applies to send without --stream"),
        ({"follow": True, "blocking_call": True}, "--follow and --blocking-call contradict each other"),
    ],
)
def test_how_to_wait_is_one_choice(given, said):
    with pytest.raises(UsageError, match=said):
        MessageInput(text="hi", **given).check_waiting()
    MessageInput(text="hi", stream=True).check_waiting()  # one choice: fine
