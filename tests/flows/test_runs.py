"""The method commands' flows (flows.runs) called directly with an Invocation, no CLI runner: each
returns its exit code and writes its answer through the invocation's Output; an error it raises is
said by flows.boundary in the invocation's mode, as its code. And settings are resolved once per
run, through the CLI runner as a user runs it."""

from __future__ import annotations

import json

import httpx
import pytest
import respx
from a2a_testkit import AGENT, RPC, rpc_result, v1_card

from a2acli.errors import A2acliError, UsageError
from a2acli.flows import runs
from a2acli.flows.boundary import guarded, run_captured
from a2acli.flows.invocation import Invocation

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
DONE = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}


@pytest.fixture
def agent(respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    return respx_mock


def json_inv(**given) -> Invocation:
    return Invocation({"url": AGENT, "output": "json", **given})


def test_a_unary_flow_returns_0_and_writes_the_answer(agent, capsys):
    route = agent.post(RPC).respond(json=rpc_result(DONE))
    inv = json_inv()
    assert runs.run_unary(inv, "GetTask", {"id": "t-1"}) == 0
    assert json.loads(route.calls[0].request.content)["params"] == {"id": "t-1"}
    assert json.loads(capsys.readouterr().out)["id"] == "t-1"
    assert inv.call is not None and inv.call.tracking.task.get("id") == "t-1"  # the call in flight is the invocation's


def test_a_list_flow_pages_through_every_page(agent, capsys):
    first = {"tasks": [DONE], "nextPageToken": "p2", "pageSize": 1, "totalSize": 2}
    second = {"tasks": [{**DONE, "id": "t-2"}], "nextPageToken": "", "pageSize": 1, "totalSize": 2}
    route = agent.post(RPC).mock(side_effect=[httpx.Response(200, json=rpc_result(p)) for p in (first, second)])
    assert runs.run_list_tasks(json_inv(), {"pageSize": 1}, all_pages=True) == 0
    assert [json.loads(c.request.content)["params"].get("pageToken") for c in route.calls] == [None, "p2"]
    assert [t["id"] for t in json.loads(capsys.readouterr().out)["tasks"]] == ["t-1", "t-2"]


def test_an_offline_flow_sends_nothing_and_returns_0(respx_mock, capsys):
    inv = Invocation({"endpoint": RPC, "output": "json", "offline": True})
    assert runs.run_unary(inv, "GetTask", {"id": "t-1"}) == 0
    assert not respx_mock.calls
    assert json.loads(capsys.readouterr().out)["params"] == {"id": "t-1"}  # the request, on stdout


def test_an_error_is_said_by_the_boundary_as_its_exit_code(agent, capsys):
    agent.post(RPC).respond(json={"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "no such task"}})
    inv = json_inv()
    code = guarded(inv, lambda: runs.run_unary(inv, "GetTask", {"id": "gone"}))
    assert code == 1 and inv.error is not None and inv.error.code == "TaskNotFoundError"
    assert json.loads(capsys.readouterr().out)["error"]["a2aCode"] == -32001


def test_a_catalog_flow_refuses_a_name_it_does_not_know(tmp_path):
    with pytest.raises(UsageError, match="no catalog named 'nope'"):
        runs.run_catalog(json_inv(), "nope")


def test_a_captured_flow_is_recorded_not_run_then_run_with_other_options(agent, capsys):
    """`a2a diff -- CMD`: an invocation that captures records the flow and its arguments; each
    side runs it with its own invocation and options."""
    route = agent.post(RPC).respond(json=rpc_result(DONE))
    inv = json_inv().capturing()
    assert inv.run(runs.run_unary, "GetTask", {"id": "t-1"}) == 0
    assert not route.calls and inv.captured is not None
    (captured,) = inv.captured
    assert captured.opts.url == AGENT
    code, error = run_captured(captured, captured.opts._replace(output="text"))
    assert (code, error) == (0, None) and len(route.calls) == 1
    assert "t-1" in capsys.readouterr().out


def test_settings_are_resolved_once_per_run(cli, respx_mock, monkeypatch):
    """One `settings.resolve` per run, the options' (issue 43), for a send and a list alike."""
    from a2acli import settings

    respx_mock.get(CARD_URL).respond(json=v1_card())
    respx_mock.post(RPC).respond(json=rpc_result({"tasks": [DONE], "nextPageToken": ""}))
    real, calls = settings.resolve, []

    def counting(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(settings, "resolve", counting)
    for argv in (
        ("send", "hi", "--offline", "--rpc-url", RPC, "-o", "json"),
        ("tasks", "list", "-u", AGENT, "-o", "json"),
        ("tasks", "list", "-u", AGENT),
    ):
        calls.clear()
        result = cli(*argv)
        assert result.exit_code == 0, result.stderr
        assert len(calls) == 1, (argv, calls)


def test_the_card_flow_fetches_the_card_and_writes_it(agent, capsys):
    assert runs.run_card_fetch(json_inv()) == 0
    assert json.loads(capsys.readouterr().out)["name"] == v1_card()["name"]


def test_the_download_flow_saves_each_artifact_part(agent, tmp_path):
    task = {**DONE, "artifacts": [{"artifactId": "a", "name": "report", "parts": [{"text": "hello"}]}]}
    agent.post(RPC).respond(json=rpc_result(task))
    assert runs.run_download(json_inv(), "t-1", str(tmp_path / "out")) == 0
    assert [p.read_text() for p in (tmp_path / "out").iterdir()] == ["hello"]


def test_the_call_flow_names_the_method_a_misspelt_one_resembles(agent):
    agent.post(RPC).respond(json={"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}})
    with pytest.raises(A2acliError, match="Method not found") as said:
        runs.run_call(json_inv(), "GetTsk", {"id": "t-1"})
    assert said.value.hint is not None and said.value.hint.startswith("did you mean GetTask?")


def test_the_invocation_carries_the_environment_the_run_sees(tmp_path, monkeypatch):
    """Streams (the process's unless given), tty, width, the config and cache dirs, the clock."""
    import io
    import sys

    from a2acli.flows.invocation import Environment

    monkeypatch.setenv("COLUMNS", "99")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    out = io.StringIO()
    env = Invocation(env=Environment(stdout=out)).env
    assert env.streams() == (sys.stdin, out, sys.stderr) and env.tty() is False
    assert env.width() == 99 and env.cache_dir() == tmp_path / "cache" / "a2acli"
    assert env.config_path().name == "config.toml" and env.clock() <= env.clock()


def test_diff_captures_card_fetch_validate_and_runs_it_once_a_side(cli, respx_mock):
    """`card fetch --validate` hands its flow to the invocation like every method command: `a2a
    diff` captures it (it fetched the card once while reading the command line, then said it made
    no call to compare) and runs it under 1.0 and under 0.3."""
    route = respx_mock.get(CARD_URL).respond(json=v1_card())
    result = cli("diff", "-u", AGENT, "--", "card", "fetch", "--validate")
    assert "makes no call to compare" not in result.stderr
    assert len(route.calls) == 2, result.stderr  # one GET a side, none while the command line is read


def test_the_redactor_is_the_runs_own_and_every_output_masks_through_it(agent, capsys):
    """Issue 43: no redactor in a module global. The invocation owns one; its options, its session
    and its Outputs share it, so a secret it was given is masked in what it writes; another
    invocation in the same process knows nothing of it; an Output made outside a run masks URL
    userinfo only."""
    from a2acli.render.output import Output

    secret = "bearer-s3cret-43"
    agent.post(RPC).respond(json={"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": f"no {secret}"}})
    inv = json_inv(bearer=secret)
    assert guarded(inv, lambda: runs.run_unary(inv, "GetTask", {"id": "t-1"})) == 1
    out = capsys.readouterr().out
    assert secret not in out and "<redacted>" in json.loads(out)["error"]["message"]
    assert inv.call is not None and inv.call.redactor is inv.redactor is inv.output().redactor
    assert inv.options().redactor is inv.redactor and inv.error_output().redactor is inv.redactor
    other = Invocation()
    assert other.redactor is not inv.redactor and other.bare_output().redactor.text(secret) == secret
    assert Output("text").redactor.text("https://bob:pw-43@host/") == "https://bob:<redacted>@host/"


def test_a_flow_writes_to_the_streams_its_environment_gives(agent, capsys):
    """A face that gives the invocation its streams (`Environment(stdout=…, stderr=…)`) gets the
    flow's answer, its notes and its error there, not on the process's: the Output the invocation
    builds, and the one an error is said through, write to them."""
    import io

    from a2acli.flows.invocation import Environment

    agent.post(RPC).mock(
        side_effect=[
            httpx.Response(200, json=rpc_result(DONE)),
            httpx.Response(200, json={"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "gone"}}),
            httpx.Response(200, json={"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "gone"}}),
        ]
    )
    out, err = io.StringIO(), io.StringIO()
    inv = Invocation({"url": AGENT, "output": "json"}, env=Environment(stdout=out, stderr=err))
    assert runs.run_unary(inv, "GetTask", {"id": "t-1"}) == 0
    assert json.loads(out.getvalue())["id"] == "t-1"
    text_out, text_err = io.StringIO(), io.StringIO()
    failing = Invocation({"url": AGENT, "output": "text"}, env=Environment(stdout=text_out, stderr=text_err))
    assert guarded(failing, lambda: runs.run_unary(failing, "GetTask", {"id": "gone"})) == 1
    assert "TaskNotFoundError" in text_err.getvalue() and text_out.getvalue() == ""
    debug_err = io.StringIO()
    debugged = Invocation({"url": AGENT, "debug": True}, env=Environment(stdout=io.StringIO(), stderr=debug_err))
    assert guarded(debugged, lambda: runs.run_unary(debugged, "GetTask", {"id": "gone"})) == 1
    assert "Traceback (most recent call last)" in debug_err.getvalue()  # --debug's traceback: there too
    assert capsys.readouterr() == ("", "")  # nothing on the process's streams
    before = Invocation({"output": "json"}, env=Environment(stdout=io.StringIO()))
    before.error_output().error(message="m", hint=None, code="C", a2a_code=None)  # before any Output was built
    assert json.loads(before.env.stdout.getvalue())["error"]["code"] == "C"


def test_the_check_flow_writes_its_report_and_returns_the_verdict(agent, tmp_path):
    """`a2a check` is a flow like the others (flows.check.run_check, issue 43's review: its work was
    in the CLI's command): the report in the invocation's Output, the verdict as its exit code and
    the invocation's, a --dump of the run summed up."""
    import io

    from a2acli.flows import check
    from a2acli.flows.invocation import Environment

    out, err = io.StringIO(), io.StringIO()
    inv = Invocation(
        {"url": AGENT, "output": "json", "dump": str(tmp_path / "d")}, env=Environment(stdout=out, stderr=err)
    )
    assert check.run_check(inv, ["card"]) == 0 and inv.verdict == 0
    assert json.loads(out.getvalue())["passed"] is True
    assert "dump: 1 exchange(s) written to" in err.getvalue() and (tmp_path / "d" / "index.jsonl").exists()


def test_the_cache_flow_empties_the_environments_cache_and_says_so(tmp_path, monkeypatch):
    """`a2a cache clear` is a flow (flows.cache.clear; its work was in the CLI's command)."""
    import io

    from a2acli.flows import cache
    from a2acli.flows.invocation import Environment

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    err = io.StringIO()
    inv = Invocation(env=Environment(stderr=err))
    assert cache.clear(inv) == 0
    assert f"0 card(s) removed from {inv.env.cache_dir()}" in err.getvalue()


def test_a_captured_flow_runs_in_the_environment_it_is_given(agent, capsys):
    """A side of `a2a diff -- CMD` writes to streams of its own (flows.diff gives them), not to the
    process's swapped for the while (contextlib.redirect_stdout: process-wide run state)."""
    import io

    from a2acli.flows.invocation import Environment

    agent.post(RPC).respond(json=rpc_result(DONE))
    inv = json_inv().capturing()
    inv.run(runs.run_unary, "GetTask", {"id": "t-1"})
    (captured,) = inv.captured or []
    out, err = io.StringIO(), io.StringIO()
    assert run_captured(captured, captured.opts, Environment(stdout=out, stderr=err)) == (0, None)
    assert json.loads(out.getvalue())["id"] == "t-1" and capsys.readouterr() == ("", "")


def test_the_http_stack_is_loaded_first_only_by_a_session_that_sends_over_http(monkeypatch):
    """flows.runs.session loads httpx and httpcore from its first frames (transport.load) when it
    will send over HTTP: a send with a file: card does (its interface is an HTTP URL); not under
    --offline, for a file: card that is all the flow reads (card fetch), nor for --endpoint over
    gRPC (grpcio carries every call: httpcore, h11 and their patterns would cost the run for nothing)."""
    from a2acli import transport
    from a2acli.pipeline import session as pipeline_session

    class Stop(Exception):
        pass

    def built(*args, **kwargs):
        raise Stop

    loads: list[int] = []
    monkeypatch.setattr(transport, "load", lambda: loads.append(1))
    monkeypatch.setattr(pipeline_session, "Call", built)
    cases = (
        ({"url": AGENT}, 1),
        ({"endpoint": RPC}, 1),
        ({"endpoint": "grpc://127.0.0.1:1", "transport": ["grpc"]}, 0),
        ({"endpoint": "127.0.0.1:1", "transport": ["grpc"], "plaintext": True}, 0),
        ({"url": AGENT, "transport": ["grpc"]}, 1),  # the card comes over HTTP
        ({"url": AGENT, "offline": True}, 0),
        ({"url": "file:///tmp/card.json"}, 1),  # the card is read from a file, the call goes to its interface
        ({}, 0),  # no agent: "no agent given" follows
    )
    for given, expected in cases:
        loads.clear()
        with pytest.raises(Stop), runs.session(Invocation(given)):
            pass
        assert len(loads) == expected, given
    # a flow that reads the card alone (card fetch, --validate): a file: card sends nothing
    for given, expected in (({"url": "file:///tmp/card.json"}, 0), ({"url": AGENT}, 1)):
        loads.clear()
        with pytest.raises(Stop), runs.session(Invocation(given), card_only=True):
            pass
        assert len(loads) == expected, given


def test_a_catalog_file_listed_loads_no_http_stack(monkeypatch, tmp_path, capsys):
    """`a2a card catalog --catalog FILE` reads a file and sends nothing: the session does not load
    httpx and httpcore first (transport.load), as it does for a catalog URL."""
    from a2acli import transport

    loads: list[int] = []
    monkeypatch.setattr(transport, "load", lambda: loads.append(1))
    listed = tmp_path / "catalog.json"
    listed.write_text(json.dumps({"agents": [{"name": "demo", "url": AGENT}]}))
    assert runs.run_catalog(Invocation({"catalog": str(listed), "output": "json"}), None) == 0
    assert loads == []
    assert json.loads(capsys.readouterr().out)["agents"][0]["name"] == "demo"
    with respx.mock() as router:  # a catalog URL: loaded first, as for any send
        router.get(f"{AGENT}/catalog.json").respond(json={"agents": [{"name": "demo", "url": AGENT}]})
        assert runs.run_catalog(Invocation({"catalog": f"{AGENT}/catalog.json", "output": "json"}), None) == 0
    assert loads == [1]
