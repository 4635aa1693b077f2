"""Issue 42: an id is one path segment of an HTTP+JSON route. `.` and `..` (which a URL parser,
httpx's included, removes: `tasks/..` would be the base URL, `tasks/.` ListTasks), `/`, `?`, `#`
and `%` are percent-encoded, so no id names another resource; an empty id is refused before
anything is sent. The URL that crossed the wire is asserted (respx), and --offline's."""

from __future__ import annotations

import httpx
import pytest
from a2a_testkit import AGENT, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
REST = f"{AGENT}/api"
TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}
CARD = v1_card(
    supportedInterfaces=[
        {"url": REST, "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
        {"url": REST, "protocolBinding": "HTTP+JSON", "protocolVersion": "0.3"},
    ]
)
V0_CONFIG = {"name": "tasks/t1/pushNotificationConfigs/c", "pushNotificationConfig": {"url": "https://hook.test/x"}}

# (command line, wire, the path that must cross it)
CASES = [
    (["tasks", "get", ".."], "v1", "/api/tasks/%2E%2E"),
    (["tasks", "get", "."], "v1", "/api/tasks/%2E"),
    (["tasks", "get", "a/../b"], "v1", "/api/tasks/a%2F..%2Fb"),
    (["tasks", "get", "x?y#z%"], "v1", "/api/tasks/x%3Fy%23z%25"),
    (["tasks", "cancel", ".."], "v1", "/api/tasks/%2E%2E:cancel"),
    (["push-config", "delete", "t1", ".."], "v1", "/api/tasks/t1/pushNotificationConfigs/%2E%2E"),
    (["push-config", "get", "..", "c"], "v1", "/api/tasks/%2E%2E/pushNotificationConfigs/c"),
    (["push-config", "list", "."], "v1", "/api/tasks/%2E/pushNotificationConfigs"),
    (["tasks", "get", ".."], "v0", "/api/v1/tasks/%2E%2E"),
    (["tasks", "get", "."], "v0", "/api/v1/tasks/%2E"),
    (["push-config", "delete", "t1", ".."], "v0", "/api/v1/tasks/t1/pushNotificationConfigs/%2E%2E"),
    (["push-config", "get", "..", "c"], "v0", "/api/v1/tasks/%2E%2E/pushNotificationConfigs/c"),
    (["push-config", "list", ".."], "v0", "/api/v1/tasks/%2E%2E/pushNotificationConfigs"),
]


def _answer(request: httpx.Request) -> httpx.Response:
    if request.method == "DELETE":
        return httpx.Response(200, json={})
    if "pushNotificationConfigs" in request.url.path:
        return httpx.Response(200, json={"configs": []} if request.url.path.endswith("Configs") else V0_CONFIG)
    return httpx.Response(200, json=TASK)


@pytest.mark.parametrize(("args", "wire", "path"), CASES)
def test_an_id_stays_one_path_segment(cli, respx_mock, args, wire, path):
    respx_mock.get(CARD_URL).respond(json=CARD)
    route = respx_mock.route(host="agent.test", path__startswith="/api").mock(side_effect=_answer)
    result = cli(*args, "-u", AGENT, "--transport", "rest", "--a2a-version", wire, "-o", "json")
    assert route.call_count == 1, result.stderr
    assert route.calls.last.request.url.raw_path.decode() == path
    offline = cli(*args, "--endpoint", REST, "--transport", "rest", "--a2a-version", wire, "--offline")
    assert offline.exit_code == 0, offline.stderr
    assert f"{AGENT}{path}" in offline.stdout + offline.stderr
    assert route.call_count == 1  # --offline sent nothing


def test_a_dot_tenant_stays_one_path_segment(cli, respx_mock):
    card = v1_card(
        supportedInterfaces=[{"url": REST, "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0", "tenant": ".."}]
    )
    respx_mock.get(CARD_URL).respond(json=card)
    route = respx_mock.route(host="agent.test", path__startswith="/api").mock(side_effect=_answer)
    result = cli("tasks", "get", "t1", "-u", AGENT, "--transport", "rest", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert route.calls.last.request.url.raw_path.decode() == "/api/%2E%2E/tasks/t1"


@pytest.mark.parametrize("wire", ["v1", "v0"])
def test_an_empty_id_is_refused_before_sending(cli, respx_mock, wire):
    respx_mock.get(CARD_URL).respond(json=CARD)
    route = respx_mock.route(host="agent.test", path__startswith="/api").mock(side_effect=_answer)
    result = cli("push-config", "delete", "t1", "", "-u", AGENT, "--transport", "rest", "--a2a-version", wire)
    assert result.exit_code == 2, result.stderr
    assert not route.called
