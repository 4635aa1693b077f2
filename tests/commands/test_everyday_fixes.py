"""Issue 25, item 7, the smaller ones seen on the way: `a2a call` with a near-miss method name gets
a did-you-mean; a refused credential gets as exact a hint as a missing one; `--offline` shows one
placeholder style for every binding; `tasks list` says how many tasks there are when the agent
gives a total. (Also in item 7: tests/transport/test_grpc_port.py, tests/commands/test_translate_cmd.py,
tests/commands/test_output_contract.py, tests/integration/test_demo_log_real.py.)"""

from __future__ import annotations

import json

import pytest
from a2a_testkit import AGENT, ANY_CREDENTIAL, RPC, rpc_result, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
KEY_CARD = v1_card(securitySchemes={"key": {"apiKeySecurityScheme": {"location": "header", "name": "X-Shop-Key"}}}, securityRequirements=[{"schemes": {"key": {"list": []}}}])


@pytest.fixture
def agent(respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    return respx_mock


def sent(route, n: int = -1) -> dict:
    return json.loads(route.calls[n].request.content)


# -- a2a call: did you mean -----------------------------------------------------------------------------


@pytest.mark.parametrize("typed,meant,version", [("GetTsk", "GetTask", "1.0"), ("gettask", "GetTask", "1.0"), ("tasks/gte", "tasks/get", "0.3"), ("ListTask", "ListTasks", "1.0")])
def test_call_of_a_near_miss_name_the_agent_does_not_know_says_which_method_it_resembles(cli, agent, typed, meant, version):
    route = agent.post(RPC).respond(json={"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}})
    result = cli("call", typed, '{"id": "t-1"}', "-u", AGENT, "--a2a-version", version)
    assert result.exit_code == 1, result.stderr
    assert sent(route)["method"] == typed  # sent as given, once: an unknown name may be a vendor's
    assert route.call_count == 1
    assert f"hint: did you mean {meant}? (otherwise: the agent does not know this method" in result.stderr


def test_over_http_json_a_near_miss_is_refused_before_sending_with_the_name_it_resembles(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card(supportedInterfaces=[{"url": AGENT, "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}]))
    result = cli("call", "GetTsk", '{"id": "t-1"}', "-u", AGENT)
    assert result.exit_code == 2
    assert "hint: did you mean GetTask?" in result.stderr


def test_a_vendor_method_far_from_every_name_keeps_the_plain_hint(cli, agent):
    agent.post(RPC).respond(json={"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}})
    result = cli("call", "x-vendor/ping", "{}", "-u", AGENT)
    assert result.exit_code == 1 and "did you mean" not in result.stderr
    assert "hint: the agent does not know this method" in result.stderr


# -- a refused credential: as exact a hint as a missing one ---------------------------------------------


def test_a_missing_and_a_refused_key_both_name_the_flag_and_where_it_goes(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=KEY_CARD)
    respx_mock.post(RPC).respond(401)
    missing = cli("tasks", "get", "t-1", "-u", AGENT)
    assert missing.exit_code == 4 and "pass --api-key KEY" in missing.stderr and "header X-Shop-Key" in missing.stderr
    refused = cli("tasks", "get", "t-1", "-u", AGENT, "--api-key", "wrong")
    assert refused.exit_code == 4 and "refused the credentials" in refused.stderr
    assert "hint: the agent refused the API key (--api-key), sent in header X-Shop-Key: check it, or give another" in refused.stderr
    from_env = cli("tasks", "get", "t-1", "-u", AGENT, env={"A2ACLI_API_KEY": "wrong"})
    assert "hint: the agent refused the API key from env A2ACLI_API_KEY (--api-key), sent in header X-Shop-Key" in from_env.stderr
    assert "wrong" not in refused.stderr + from_env.stderr  # named, never shown


@pytest.mark.parametrize(
    "argv,says",
    [
        (["--bearer", "nope"], "the bearer token (--bearer), sent in header Authorization"),
        (["--basic", "u:p"], "USER:PASSWORD (--basic), sent in header Authorization"),
        (["-H", "Authorization: Bearer nope"], "the -H Authorization header"),
    ],
)
def test_each_refused_credential_is_named(cli, respx_mock, argv, says):
    respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes=ANY_CREDENTIAL))
    respx_mock.post(RPC).respond(403)
    result = cli("tasks", "get", "t-1", "-u", AGENT, *argv)
    assert result.exit_code == 4
    assert f"hint: the agent refused {says}: check it, or give another" in result.stderr


# -- --offline: one placeholder style -------------------------------------------------------------------


@pytest.mark.parametrize("transport,binding,path", [("jsonrpc", "JSONRPC", ""), ("rest", "HTTP+JSON", "/tasks/t-1"), ("grpc", "GRPC", "/lf.a2a.v1.A2AService/GetTask")])
def test_offline_without_the_card_shows_the_same_placeholder_for_every_binding(cli, transport, binding, path):
    result = cli("tasks", "get", "t-1", "-u", "https://agent.example", "--offline", "--transport", transport)
    assert result.exit_code == 0, result.stderr
    first = result.stdout.splitlines()[0]
    assert first.split(" ", 1)[1] == f"<{binding} URL from the Agent Card of https://agent.example>{path}"
    assert "agent-card.invalid" not in result.stdout + result.stderr


# -- tasks list: how many there are ---------------------------------------------------------------------


def page(n: int, total: int | None, token: str = "") -> dict:
    tasks = [{"id": f"t-{i}", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}} for i in range(n)]
    doc: dict = {"tasks": tasks, "nextPageToken": token, "pageSize": n}
    if total is not None:
        doc["totalSize"] = total
    return doc


def test_tasks_list_says_how_many_there_are_when_the_agent_gives_a_total(cli, agent):
    agent.post(RPC).respond(json=rpc_result(page(2, 17, "next")))
    result = cli("tasks", "list", "--page-size", "2", "-u", AGENT)
    assert result.exit_code == 0, result.stderr
    assert "\n2 tasks of 17\n" in "\n" + result.stderr
    assert result.stdout.count("Task: ") == 2 and "17" not in result.stdout  # the records stay the text floor's


def test_tasks_list_without_a_total_says_no_count(cli, agent):
    agent.post(RPC).respond(json=rpc_result(page(2, None)))
    result = cli("tasks", "list", "-u", AGENT)
    assert result.exit_code == 0 and " of " not in result.stderr and "tasks" not in result.stderr


def test_an_empty_page_of_a_longer_list_says_so(cli, agent):
    agent.post(RPC).respond(json=rpc_result(page(0, 5)))
    assert "no tasks on this page, of 5 tasks" in cli("tasks", "list", "-u", AGENT).stderr


def test_at_a_terminal_the_count_titles_the_table():
    import io

    from rich.console import Console

    from a2acli.render.output import Output
    from a2acli.render.present import present

    class Reply:
        core = result = page(2, 17, "next")
        raw, exchange = b"", None

    buf = io.StringIO()
    out = Output("text", stdout=buf, stderr=io.StringIO())
    out.rich = True
    out._console = Console(file=buf, width=120, no_color=True)
    present("task-list", Reply(), out)
    assert buf.getvalue().lstrip().startswith("2 tasks of 17")
