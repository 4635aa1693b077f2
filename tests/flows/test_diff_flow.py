"""`a2a diff` and `a2a translate`'s flows (flows.diff) called directly with an Invocation, no CLI
runner: a command run under 1.0 and 0.3 through a `capture` the test gives, two dumps compared,
the verdict as the exit code, and a document translated from the invocation's stdin."""

from __future__ import annotations

import io
import json
from typing import Any

import httpx
import pytest
from a2a_testkit import AGENT, RPC, rpc_result, v1_card

from a2acli.errors import UsageError
from a2acli.flows import diff, runs
from a2acli.flows.invocation import Captured, Environment, Invocation

CARD_URL = f"{AGENT}/.well-known/agent-card.json"


def by_version(state_v0: str = "working"):
    def answer(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        if body["method"] == "GetTask":
            return httpx.Response(
                200,
                json=rpc_result(
                    {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}}, body["id"]
                ),
            )
        return httpx.Response(
            200,
            json=rpc_result(
                {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": state_v0}}, body["id"]
            ),
        )

    return answer


@pytest.fixture
def agent(respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    return respx_mock


def get_task(seen: list[list[str]]):
    """A face's capture: `tasks get t-1` with the connection flags diff forwards (recorded)."""

    def capture(argv: list[str], redactor: Any) -> Captured:  # (the diff's redactor: the sides mask through it)
        seen.append(argv)
        opts = Invocation({"url": argv[argv.index("--url") + 1]}, redactor=redactor).options()
        return Captured(runs.run_unary, ("GetTask", {"id": "t-1"}), {}, opts)

    return capture


def test_a_command_runs_under_both_versions_and_agreeing_answers_are_exit_0(agent, capsys, tmp_path):
    route = agent.post(RPC).mock(side_effect=by_version())
    seen: list[list[str]] = []
    inv = Invocation({"url": AGENT, "output": "json"})
    code = diff.run_diff(inv, [], ["tasks", "get", "t-1"], capture=get_task(seen), save=str(tmp_path / "kept"))
    assert code == 0 and inv.verdict == 0
    assert seen == [["tasks", "get", "t-1", "--url", AGENT]]  # parsed once, the connection options forwarded
    assert [json.loads(c.request.content)["method"] for c in route.calls] == ["GetTask", "tasks/get"]
    doc = json.loads(capsys.readouterr().out)
    assert doc["equal"] is True and [r["version"] for r in doc["runs"]] == ["1.0", "0.3"]
    assert (tmp_path / "kept" / "v1").is_dir() and (tmp_path / "kept" / "v0").is_dir()
    # the kept dumps, compared as two dumps: the same verdict
    assert (
        diff.run_diff(
            Invocation({"output": "json"}),
            [str(tmp_path / "kept" / "v1"), str(tmp_path / "kept" / "v0")],
            None,
            capture=get_task([]),
        )
        == 0
    )


def test_answers_that_differ_are_exit_1_with_the_difference(agent, capsys):
    agent.post(RPC).mock(side_effect=by_version("failed"))
    inv = Invocation({"url": AGENT, "output": "json"})
    assert diff.run_diff(inv, [], ["tasks", "get", "t-1"], capture=get_task([])) == 1
    doc = json.loads(capsys.readouterr().out)
    assert inv.verdict == 1 and [d["path"] for d in doc["differences"]] == ["response.body.result.status.state"]


@pytest.mark.parametrize(
    ("dumps", "command", "says"),
    [
        (["a"], ["tasks", "get", "t-1"], "either two dumps or a command"),
        (["a"], None, "two dump directories, got 1"),
        ([], [], "no command after --"),
        ([], ["translate"], "is not a method command"),
    ],
)
def test_bad_arguments_are_usage_errors_before_any_call(agent, dumps, command, says):
    route = agent.post(RPC)
    with pytest.raises(UsageError, match=says):
        diff.run_diff(Invocation({"url": AGENT, "output": "json"}), dumps, command, capture=get_task([]))
    assert not route.called


def test_translate_reads_the_invocations_stdin_and_writes_the_other_version(capsys):
    v0 = {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "completed"}}
    inv = Invocation(env=Environment(stdin=io.StringIO(json.dumps(v0))))
    diff.run_translate(inv, None, compact=True)
    out, err = capsys.readouterr()
    assert json.loads(out)["status"]["state"] == "TASK_STATE_COMPLETED" and "\n" not in out.strip()
    assert "recognised: V0 (0.3) Task; written as V1 (1.0)" in err
    with pytest.raises(UsageError, match="is not a version"):
        diff.run_translate(Invocation(env=Environment(stdin=io.StringIO("{}"))), None, to="v9")
