"""The flows called directly, with no CLI runner: what a face (a2a mcp, a test) gets back is the
protocol's own value in V1 shape, or an A2acliError; notes go to the sink it gives."""

from __future__ import annotations

import json

import pytest
from a2a_testkit import AGENT, RPC, rpc_result, sse, v1_card

from a2acli.errors import A2acliError, UsageError
from a2acli.events import Recording
from a2acli.flows import agents, calls, card, documents, messages, tasks

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
SSE = {"Content-Type": "text/event-stream"}
DONE = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}


@pytest.fixture
def agent(respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card(capabilities={"streaming": True, "extendedAgentCard": True}))
    return respx_mock


def test_a_blocking_send_returns_the_answer_in_v1_shape(agent):
    route = agent.post(RPC).respond(json=rpc_result({"task": DONE}))
    message = messages.build_message(
        messages.parts(text="hi", skill="echo", fields={"n": 1}),
        message_id="m-1",
        context_id=None,
        task_id=None,
        metadata=None,
    )
    with calls.opened(agents.options(agent=AGENT), Recording()) as call:
        reply = calls.unary(call, "SendMessage", {"message": message}, wait=True)
    assert reply.core == {"task": DONE}
    sent = json.loads(route.calls[0].request.content)
    assert sent["method"] == "SendMessage"
    assert sent["params"]["message"]["parts"] == [{"text": "hi"}, {"data": {"skill": "echo", "n": 1}}]


def test_the_same_send_in_v0_comes_back_in_v1_shape(agent):
    v0 = {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "completed"}}
    route = agent.post(RPC).respond(json=rpc_result(v0))
    message = messages.build_message(
        messages.parts(text="hi"), message_id="m-1", context_id=None, task_id=None, metadata=None
    )
    with calls.opened(agents.options(agent=AGENT, a2a_version="0.3"), Recording()) as call:
        reply = calls.unary(call, "SendMessage", {"message": message})
    assert json.loads(route.calls[0].request.content)["method"] == "message/send"
    assert reply.core["task"]["status"]["state"] == "TASK_STATE_COMPLETED"


def test_a_stream_tells_each_event_its_state_and_the_text_so_far(agent):
    body = sse(
        {"task": {**DONE, "status": {"state": "TASK_STATE_SUBMITTED"}}},
        {
            "artifactUpdate": {
                "taskId": "t-1",
                "contextId": "c-1",
                "artifact": {"artifactId": "a", "parts": [{"text": "Hel"}]},
            }
        },
        {
            "artifactUpdate": {
                "taskId": "t-1",
                "contextId": "c-1",
                "append": True,
                "artifact": {"artifactId": "a", "parts": [{"text": "lo"}]},
            }
        },
        {"statusUpdate": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}},
    )
    agent.post(RPC).respond(content=body, headers=SSE)
    seen: list[tuple[int, str, str]] = []
    message = messages.build_message(
        messages.parts(text="hi"), message_id=None, context_id=None, task_id=None, metadata=None
    )
    view = calls.Collected(lambda n, state, text: seen.append((n, state, text)))
    with calls.opened(agents.options(agent=AGENT), Recording()) as call:
        task = calls.stream(call, "SendStreamingMessage", {"message": message}, lambda: view)
    assert seen == [(1, "submitted", ""), (2, "submitted", "Hel"), (3, "submitted", "Hello"), (4, "completed", "Hello")]
    assert task["id"] == "t-1"


def test_tasks_list_every_page_is_merged_and_each_page_handed_over(agent):
    first = {"tasks": [DONE], "nextPageToken": "p2"}
    second = {"tasks": [{**DONE, "id": "t-2"}], "nextPageToken": ""}
    agent.post(RPC).mock(side_effect=[__import__("httpx").Response(200, json=rpc_result(p)) for p in (first, second)])
    pages = []
    with calls.opened(agents.options(agent=AGENT), Recording()) as call:
        reply = calls.list_tasks(call, tasks.list_params(status="completed"), all_pages=True, page=pages.append)
    assert [t["id"] for t in reply.core["tasks"]] == ["t-1", "t-2"]
    assert len(pages) == 2


def test_the_extended_card_is_the_answer_in_v1_shape_and_the_public_card_too(agent):
    agent.post(RPC).respond(json=rpc_result({"name": "extended", "description": "d", "version": "1"}))
    with calls.opened(agents.options(agent=AGENT), Recording()) as call:
        assert card.fetch(call)["supportedInterfaces"][0]["url"] == RPC
        assert card.extended(call)["name"] == "extended"


def test_an_agent_error_is_an_a2acli_error_with_its_code_and_hint(agent):
    agent.post(RPC).respond(json={"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "no such task"}})
    with pytest.raises(A2acliError) as raised, calls.opened(agents.options(agent=AGENT), Recording()) as call:
        calls.unary(call, "GetTask", {"id": "nope"})
    assert raised.value.wire_code == -32001
    assert raised.value.code


def test_an_agent_name_is_a_profile_when_the_config_defines_one(tmp_path, monkeypatch):
    config = tmp_path / "config.toml"
    config.write_text(f'[profiles.staging]\nurl = "{AGENT}"\n')
    monkeypatch.setenv("A2ACLI_GLOBAL_CONFIG", str(config))
    assert agents.profiles() == ["staging"]
    opts = agents.options(agent="staging", a2a_version="0.3", binding="rest", timeout=2.5)
    assert (opts.url, opts.profile, opts.wire.version, opts.transports, opts.timeout) == (
        AGENT,
        "staging",
        "0.3",
        ("rest",),
        2.5,
    )
    assert agents.options(agent="http://other.test").url == "http://other.test"
    with pytest.raises(UsageError):
        agents.options(agent=AGENT, timeout=0)


def test_an_agent_name_is_a_profile_wherever_a_run_would_find_that_profile(tmp_path, monkeypatch):
    """A profile of the global file stays a profile when a --config file is given too, and one of
    the local file a run finds (or A2ACLI_CONFIG names) is one too: the names a run can select
    (`a2a --config FILE --profile P` finds P in either). Only the --config file was read, else only
    the global one, and the other file's profile name was taken for a host (https://staging/)."""
    home = tmp_path / "config.toml"
    home.write_text(f'[profiles.staging]\nurl = "{AGENT}"\n')
    monkeypatch.setenv("A2ACLI_GLOBAL_CONFIG", str(home))
    local = tmp_path / "team.toml"
    local.write_text('[profiles.team]\nurl = "http://team.test"\n')
    assert agents.profiles(str(local)) == ["staging", "team"]
    assert agents.options({"config": str(local)}, agent="staging").url == AGENT
    assert agents.options({"config": str(local)}, agent="team").url == "http://team.test"
    monkeypatch.setenv("A2ACLI_CONFIG", str(local))
    assert agents.options(agent="team").url == "http://team.test"
    project = tmp_path / "project"
    project.mkdir()
    (project / ".a2acli.toml").write_text('[profiles.here]\nurl = "http://here.test"\n')
    monkeypatch.delenv("A2ACLI_CONFIG")
    monkeypatch.delenv("A2ACLI_LOCAL_CONFIG", raising=False)  # (the suite's: no file of the checkout)
    monkeypatch.chdir(project)
    assert agents.options(agent="here").url == "http://here.test"


def test_the_agent_a_call_names_replaces_the_one_the_face_was_started_with(tmp_path, monkeypatch):
    """`a2a mcp -u URL` (or --endpoint) gives every tool call its default agent; a tool's `agent`
    replaces it. A profile's name lost to the base's -u (a flag beats a profile's url), so the call
    went to the default agent, without the profile's credentials."""
    home = tmp_path / "config.toml"
    home.write_text(f'[profiles.staging]\nurl = "{AGENT}"\n')
    monkeypatch.setenv("A2ACLI_GLOBAL_CONFIG", str(home))
    base = {"url": "http://default.test"}
    assert agents.options(base).url == "http://default.test"
    assert (agents.options(base, agent="staging").url, agents.options(base, agent="staging").profile) == (
        AGENT,
        "staging",
    )
    other = agents.options({"endpoint": "http://default.test/rpc"}, agent="http://other.test")
    assert (other.url, other.endpoint) == ("http://other.test", None)


def test_translate_returns_the_document_and_what_was_said_of_it():
    v0 = {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "completed"}}
    result, notes = documents.translate(v0, "v1")
    assert result["status"]["state"] == "TASK_STATE_COMPLETED"
    assert notes[0] == "recognised: V0 (0.3) Task; written as V1 (1.0)"
    assert documents.other_version([v0]) == "v1"
    with pytest.raises(UsageError):
        documents.translate({"hello": 1}, "v1")


def test_diff_of_two_documents_is_semantic_unless_raw():
    v0 = {"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "completed"}}
    v1 = {"id": "t-9", "contextId": "c-9", "status": {"state": "TASK_STATE_COMPLETED"}}
    assert documents.diff(v0, v1)["equal"] is True
    failed = {**v1, "status": {"state": "TASK_STATE_FAILED"}}
    found = documents.diff(v1, failed)
    assert found["equal"] is False
    assert found["differences"] == [
        {"path": "$.status.state", "kind": "changed", "left": "TASK_STATE_COMPLETED", "right": "TASK_STATE_FAILED"}
    ]
    assert documents.diff(v1, failed, ignore=("$.status.*",))["equal"] is True
    assert documents.diff(v0, v1, raw=True)["equal"] is False
