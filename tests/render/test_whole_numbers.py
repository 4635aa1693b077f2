"""Issue 46: `-f age:=42` came back `42.0` in the text view (an agent on protobuf's Struct sends
every number as a double); the text views show whole numbers as written, -o json keeps the wire's."""

from __future__ import annotations

import json

from a2a_testkit import AGENT, RPC, rpc_result, v1_card

from a2acli.render.views import compact, pretty, whole_numbers

DATA = {"age": 42.0, "height": 1.5, "big": 1e300, "nested": [{"n": -3.0}], "flag": True, "text": "42.0"}


def test_whole_numbers_only_change_floats_that_are_whole():
    assert whole_numbers(DATA) == {
        "age": 42,
        "height": 1.5,
        "big": 1e300,
        "nested": [{"n": -3}],
        "flag": True,
        "text": "42.0",
    }
    assert '"age": 42,' in pretty(DATA) and '"n": -3' in compact(DATA)


def test_the_text_view_of_a_data_artifact_shows_42_and_json_keeps_42_0(cli, respx_mock):
    task = {
        "id": "t-1",
        "contextId": "c-1",
        "status": {"state": "TASK_STATE_COMPLETED"},
        "artifacts": [{"artifactId": "a-1", "name": "user", "parts": [{"data": {"age": 42.0}}]}],
    }
    respx_mock.get(f"{AGENT}/.well-known/agent-card.json").respond(json=v1_card())
    respx_mock.post(RPC).respond(json=rpc_result({"task": task}))
    text = cli("send", "--skill", "echo", "-f", "age:=42", "-u", AGENT, "-o", "text")
    assert text.exit_code == 0, text.stderr
    assert '"age": 42\n' in text.stdout and "42.0" not in text.stdout
    as_json = cli("send", "--skill", "echo", "-f", "age:=42", "-u", AGENT, "-o", "json")
    assert '"age": 42.0' in as_json.stdout and json.loads(as_json.stdout)["task"]["artifacts"][0]["parts"][0][
        "data"
    ] == {"age": 42.0}
