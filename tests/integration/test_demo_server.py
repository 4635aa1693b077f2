"""The demo agent (`a2acli.demo.server`, a real a2a-sdk 1.3 server) over plain httpx, V1 and V0.

Observed shapes that surprised us (a2a-sdk 1.3.0, JSON-RPC, one URL for both versions):

Card
- The SDK's own card route serves one merged "hybrid" card (V1 keys plus V0 `url`,
  `protocolVersion`, ...) whatever A2A-Version says, so the demo has its own card route:
  `0.3` => pure V0 card, `1.0` => pure V1 card, no header => the SDK's merged card (what an
  a2a-sdk client, which sends no header, reads), `Vary: A2A-Version`.
  The SDK's V0 conversion spells `protocolVersion: "0.3"`; the public V0 card is patched to
  "0.3.0", but the V0 *extended* card (agent/getAuthenticatedExtendedCard) still says "0.3".
- V0 card: {"name":..,"url":"http://127.0.0.1:P/","preferredTransport":"JSONRPC",
  "protocolVersion":"0.3.0","supportsAuthenticatedExtendedCard":true,
  "capabilities":{"pushNotifications":true,"streaming":true},
  "securitySchemes":{"apiKey":{"type":"apiKey","in":"header","name":"X-API-Key",..}},..}
  plus "additionalInterfaces":[{JSONRPC at /}, {HTTP+JSON at the base URL}, {GRPC at 127.0.0.1:G}]
  (the demo lists the primary too, as 0.3 advises; the SDK's own conversion, used for the V0
  extended card, does not). GRPC comes last, after JSONRPC and HTTP+JSON, in the V1 card too;
  its URL is a bare gRPC target `127.0.0.1:G`, no scheme (what the SDK's clients dial).

gRPC (same task store; SDK services lf.a2a.v1.A2AService and 0.3 a2a.v1.A2AService)
- No `a2a-version` check at all. V1 errors: status code + details, and trailing metadata
  grpc-status-details-bin = google.rpc.Status with ErrorInfo{reason, domain a2a-protocol.org}.
  V0 errors: the same codes, details "TaskNotFoundError: Task not found", no trailing details.
- Extended card (V1 GetExtendedAgentCard, V0 GetAgentCard) without metadata x-api-key:
  UNAUTHENTICATED (demo's interceptor).

Versions and errors
- V1 method without the header => -32009 (data: [ErrorInfo VERSION_NOT_SUPPORTED]).
  V0 method WITH `A2A-Version: 1.0` => -32603 InternalError (the V0 adapter maps -32009,
  unknown to 0.3, to -32603), message "A2A version '1.0' is not supported by this handler...".
- V1 errors: {"code":-32001,"message":"Task not found","data":[{"@type":
  "type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":
  "a2a-protocol.org","metadata":{}}]}. V0 errors carry an explicit "data": null.
- V1 params: unknown keys (even `kind`) are ignored (ignore_unknown_fields=True), but a
  lowercase enum becomes UNSPECIFIED: role "user" => -32602 "Validation failed",
  data [ErrorInfo INVALID_PARAMS {errors:[{field:"message.role",...}]}, google.rpc.BadRequest].
- `tasks/list` (V0) => -32601 Method not found; ListTasks without the header => -32009.
- Extended card without/with a wrong X-API-Key => HTTP 401, WWW-Authenticate:
  ApiKey header="X-API-Key", body {"jsonrpc":"2.0","id":..,"error":{"code":-32000,"message":
  "Unauthorized: ..."}} (demo's choice; the SDK has no auth error). With the key: the card.
- GetTaskPushNotificationConfig with an unknown config id => -32001 TaskNotFound.

Results
- Numbers in data parts come back as doubles: {"age":42} is echoed as {"age":42.0}
  (protobuf Value); in requests too ("steps":2.0 in the stored history).
- Blocking V1 SendMessage / V0 message/send returns the task in its final or interrupted
  state with `history` (user message + agent status messages); V0 `blocking` may be omitted.
- returnImmediately / blocking:false returns the first Task: state SUBMITTED, no timestamp.
- ListTasks prints proto defaults inside tasks: parts carry "filename":"","mediaType":"",
  messages "extensions":[],"referenceTaskIds":[]; no `artifacts` unless includeArtifacts.
  {"tasks":[..],"nextPageToken":"<b64>"|"","pageSize":N,"totalSize":M}.
- Push config created without an id gets id == taskId (a second id-less create replaces it).
- Delete push config: V1 {"result":null,...}; V0 {"id":1,"jsonrpc":"2.0"} with NO result
  key at all (the adapter dumps with exclude_none). Deleting an unknown config id succeeds.
- V0 tasks/pushNotificationConfig/get without pushNotificationConfigId => -32602
  "Validation failed" (data {"errors":[{"field":"id","message":"Field is required."}]}).
- Webhook body is always the V1 StreamResponse ({"statusUpdate":..}/{"artifactUpdate":..}/
  {"task":..}), Content-Type application/json, even for a config registered over V0; headers
  X-A2A-Notification-Token: <token> and Authorization: <scheme> <credentials> when set.
  A config given inline in SendMessage also gets the initial {"task":..} (SUBMITTED).

Streams
- V1 SSE `data:` is `json.dumps` with spaces ({"result": {"task": ...}, "id": 7, ...}); V0
  compact. Slow with N steps: task(submitted), N x statusUpdate working, artifactUpdate
  (lastChunk true), statusUpdate completed, then close. V0 same with `kind`, `final:false`
  except the last (`final:true`); input-required ends the stream with final:false.
- CancelTask while a stream is open: the stream gets the canceled status update and closes.
- SubscribeToTask on a finished task: HTTP 200 application/json (not SSE) -32004
  "Task <id> is in terminal state: TASK_STATE_CANCELED". V0 tasks/resubscribe on a finished
  task: text/event-stream with ONE `data:` error envelope and no `event: error` line.
  On a running task the first event is the Task (V0: bare kind:"task").
- Cancel of a finished task => -32002 TaskNotCancelable. Send to a terminal task => -32004;
  to an unknown taskId => -32001 "Task <id> not found"; contextId mismatch => -32602.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

import httpx
import pytest
from a2a_testkit import wait_until

pytestmark = pytest.mark.integration

V1 = {"A2A-Version": "1.0"}
SKILLS = {"create-user", "slow", "fail", "ask", "auth", "echo"}
WIRES = ["v1", "v0"]


# --------------------------------------------------------------------------- helpers


@pytest.fixture(scope="module")
def http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=15.0, trust_env=False) as client:
        yield client


def headers(wire: str) -> dict[str, str]:
    return dict(V1) if wire == "v1" else {}


def text(wire: str, value: str) -> dict[str, Any]:
    return {"text": value} if wire == "v1" else {"kind": "text", "text": value}


def data(wire: str, value: dict[str, Any]) -> dict[str, Any]:
    return {"data": value} if wire == "v1" else {"kind": "data", "data": value}


def message(wire: str, *parts: dict[str, Any], task: dict[str, Any] | None = None) -> dict:
    msg: dict[str, Any] = {"messageId": str(uuid.uuid4()), "parts": list(parts)}
    if wire == "v1":
        msg["role"] = "ROLE_USER"
    else:
        msg.update(kind="message", role="user")
    if task is not None:
        msg.update(taskId=task["id"], contextId=task["contextId"])
    return msg


def state(wire: str, name: str) -> str:
    """`input-required` as the wire spells it."""
    return "TASK_STATE_" + name.upper().replace("-", "_") if wire == "v1" else name


def method(wire: str, v1_name: str) -> str:
    return v1_name if wire == "v1" else {
        "SendMessage": "message/send",
        "SendStreamingMessage": "message/stream",
        "GetTask": "tasks/get",
        "CancelTask": "tasks/cancel",
        "SubscribeToTask": "tasks/resubscribe",
    }[v1_name]


def rpc(http: httpx.Client, agent: Any, meth: str, params: Any = None, *,
        hdrs: dict[str, str] | None = None, status: int = 200) -> dict[str, Any]:
    """POST one JSON-RPC request; return the whole response envelope."""
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": 1, "method": meth}
    if params is not None:
        body["params"] = params
    response = http.post(agent.rpc_url, json=body, headers=hdrs or {})
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    envelope = response.json()
    assert envelope["jsonrpc"] == "2.0" and envelope["id"] == 1
    return envelope


def ok(envelope: dict[str, Any]) -> Any:
    assert "error" not in envelope, envelope
    return envelope["result"]


def send(http: httpx.Client, agent: Any, wire: str, *parts: dict, task: dict | None = None,
         config: dict | None = None) -> dict[str, Any]:
    """Send a message; return the result unwrapped to the Task (or Message) object."""
    params: dict[str, Any] = {"message": message(wire, *parts, task=task)}
    if config is not None:
        params["configuration"] = config
    result = ok(rpc(http, agent, method(wire, "SendMessage"), params, hdrs=headers(wire)))
    if wire == "v1":
        (key,) = result.keys()
        assert key in ("task", "message")
        return result[key]
    assert result["kind"] in ("task", "message")
    return result


def sse(response: httpx.Response) -> list[tuple[str, dict[str, Any]]]:
    """(event name, parsed data) per SSE event, per the W3C rules the CLI has to follow."""
    events: list[tuple[str, dict[str, Any]]] = []
    name, lines = "message", []
    for line in [*response.iter_lines(), ""]:
        if line == "":
            if lines:
                events.append((name, json.loads("\n".join(lines))))
            name, lines = "message", []
        elif not line.startswith(":"):
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "event":
                name = value
            elif field == "data":
                lines.append(value)
    return events


def stream(http: httpx.Client, agent: Any, meth: str, params: Any, hdrs: dict[str, str],
           ) -> tuple[str, list[tuple[str, dict[str, Any]]]]:
    """(content type, events); a JSON answer (error before the stream) is one 'json' event."""
    body = {"jsonrpc": "2.0", "id": 7, "method": meth, "params": params}
    with http.stream("POST", agent.rpc_url, json=body,
                     headers={"Accept": "text/event-stream", **hdrs}) as response:
        assert response.status_code == 200
        ctype = response.headers["content-type"]
        if ctype.startswith("application/json"):
            response.read()
            return ctype, [("json", response.json())]
        return ctype, sse(response)


def has_key(obj: Any, key: str) -> bool:
    if isinstance(obj, dict):
        return key in obj or any(has_key(v, key) for v in obj.values())
    if isinstance(obj, list):
        return any(has_key(v, key) for v in obj)
    return False


def wait_for(predicate: Any, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


class Webhook:
    """A loopback HTTP receiver that records every POST (headers, JSON body)."""

    def __init__(self) -> None:
        self.received: list[tuple[dict[str, str], Any]] = []
        received = self.received

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server API
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                received.append((dict(self.headers), json.loads(body)))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> Webhook:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()


# --------------------------------------------------------------------------- card


@pytest.mark.parametrize("path", ["/.well-known/agent-card.json", "/.well-known/agent.json"])
def test_card_is_v0_shaped_for_0_3(http, demo_agent, path):
    response = http.get(demo_agent.url + path, headers={"A2A-Version": "0.3"})
    assert response.status_code == 200
    assert "A2A-Version" in response.headers["vary"]
    card = response.json()
    assert card["name"] == "a2a demo agent"
    assert card["url"] == demo_agent.rpc_url
    assert card["protocolVersion"] == "0.3.0"
    assert card["preferredTransport"] == "JSONRPC"
    assert card["supportsAuthenticatedExtendedCard"] is True
    assert card["capabilities"] == {"streaming": True, "pushNotifications": True}
    assert card["securitySchemes"]["apiKey"] == {
        "type": "apiKey", "in": "header", "name": "X-API-Key",
        "description": "Needed only for the extended agent card and, mid-task, the auth skill.",
    }
    assert "security" not in card  # declared, never required card-wide
    assert {s["id"] for s in card["skills"]} == SKILLS
    assert "supportedInterfaces" not in card
    # 0.3 says additionalInterfaces SHOULD repeat the primary url/transport: all are listed
    assert card["additionalInterfaces"] == [
        {"url": demo_agent.rpc_url, "transport": "JSONRPC"},
        {"url": demo_agent.url, "transport": "HTTP+JSON"},
        *([{"url": demo_agent.grpc_url, "transport": "GRPC"}] if demo_agent.grpc_url else []),
    ]


def interfaces(agent: Any) -> list[dict[str, str]]:
    """The demo's V1 interfaces: JSON-RPC at `/`, HTTP+JSON at the base URL, then gRPC at
    `host:port` (when served), 1.0 then 0.3 each."""
    return [
        {"url": agent.rpc_url, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
        {"url": agent.rpc_url, "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
        {"url": agent.url, "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
        {"url": agent.url, "protocolBinding": "HTTP+JSON", "protocolVersion": "0.3"},
        *(
            [
                {"url": agent.grpc_url, "protocolBinding": "GRPC", "protocolVersion": "1.0"},
                {"url": agent.grpc_url, "protocolBinding": "GRPC", "protocolVersion": "0.3"},
            ]
            if agent.grpc_url
            else []
        ),
    ]


def test_card_without_the_header_is_read_by_clients_of_both_versions(http, demo_agent):
    response = http.get(demo_agent.card_url)
    assert response.status_code == 200 and "A2A-Version" in response.headers["vary"]
    card = response.json()
    # V1 readers
    assert {i["protocolVersion"] for i in card["supportedInterfaces"]} == {"1.0", "0.3"}
    assert card["capabilities"]["extendedAgentCard"] is True
    # V0 readers
    assert card["url"] == demo_agent.rpc_url and card["protocolVersion"] == "0.3.0"
    assert card["preferredTransport"] == "JSONRPC"
    assert [i["transport"] for i in card["additionalInterfaces"]] == ["JSONRPC", "HTTP+JSON"] + (["GRPC"] if demo_agent.grpc_url else [])
    # and `a2a`'s own reading of it: V1, all the interfaces
    from a2acli.wire.translate import card_version, to_core_card

    assert card_version(card) == "v1"
    assert to_core_card(card)["supportedInterfaces"] == interfaces(demo_agent)
    etags = {http.get(demo_agent.card_url, headers=h).headers["etag"] for h in ({}, {"A2A-Version": "0.3"}, V1)}
    assert len(etags) == 3  # one per shape, so a cache keyed on the header never mixes them


def test_card_is_v1_shaped_for_1_0(http, demo_agent):
    response = http.get(demo_agent.card_url, headers=V1)
    assert response.status_code == 200
    assert "A2A-Version" in response.headers["vary"]
    card = response.json()
    assert card["supportedInterfaces"] == interfaces(demo_agent)
    assert card["capabilities"] == {
        "streaming": True, "pushNotifications": True, "extendedAgentCard": True,
    }
    assert card["securitySchemes"]["apiKey"]["apiKeySecurityScheme"]["name"] == "X-API-Key"
    assert card["securitySchemes"]["apiKey"]["apiKeySecurityScheme"]["location"] == "header"
    assert "securityRequirements" not in card
    assert {s["id"] for s in card["skills"]} == SKILLS
    for v0_key in ("url", "protocolVersion", "preferredTransport", "supportsAuthenticatedExtendedCard"):
        assert v0_key not in card


def test_card_etag_revalidates(http, demo_agent):
    first = http.get(demo_agent.card_url, headers=V1)
    again = http.get(demo_agent.card_url, headers={**V1, "If-None-Match": first.headers["etag"]})
    assert again.status_code == 304
    v0 = http.get(demo_agent.card_url, headers={"If-None-Match": first.headers["etag"]})
    assert v0.status_code == 200  # the V0 card is another representation, another tag


# --------------------------------------------------------------------------- send


@pytest.mark.spec("A2ACLI_DEMO_SERVER_001")
def test_v1_send_create_user(http, demo_agent):
    params = {"message": {"messageId": str(uuid.uuid4()), "role": "ROLE_USER",
                          "parts": [{"data": {"skill": "create-user", "projectUserId": "user_123"}}]}}
    result = ok(rpc(http, demo_agent, "SendMessage", params, hdrs=V1))
    assert list(result) == ["task"]
    task = result["task"]
    assert task["status"]["state"] == "TASK_STATE_COMPLETED"
    (artifact,) = task["artifacts"]
    assert artifact["name"] == "user"
    (part,) = artifact["parts"]
    assert part["data"]["id"].startswith("user-")
    assert part["data"]["projectUserId"] == "user_123"
    assert not has_key(result, "kind")


def test_v0_send_create_user(http, demo_agent):
    params = {"message": {"kind": "message", "messageId": str(uuid.uuid4()), "role": "user",
                          "parts": [{"kind": "data", "data": {"skill": "create-user",
                                                              "projectUserId": "user_123"}}]},
              "configuration": {"blocking": True}}
    task = ok(rpc(http, demo_agent, "message/send", params))
    assert task["kind"] == "task"
    assert task["status"]["state"] == "completed"
    (artifact,) = task["artifacts"]
    assert artifact["name"] == "user"
    assert artifact["parts"] == [{"kind": "data", "data": {
        "id": artifact["parts"][0]["data"]["id"], "projectUserId": "user_123"}}]
    assert task["history"][0]["kind"] == "message" and task["history"][0]["role"] == "user"


@pytest.mark.spec("A2ACLI_DEMO_SERVER_001")
@pytest.mark.parametrize("wire", WIRES)
def test_text_echoes_in_a_task_and_message_gets_a_message(http, demo_agent, wire):
    task = send(http, demo_agent, wire, text(wire, "hello"))
    assert task["status"]["state"] == state(wire, "completed")
    assert task["artifacts"][0]["parts"] == [text(wire, "echo: hello")]

    reply = send(http, demo_agent, wire, text(wire, "message"))
    assert "status" not in reply
    assert reply["role"] == ("ROLE_AGENT" if wire == "v1" else "agent")
    assert reply["parts"][0]["text"].startswith("echo: message")
    if wire == "v0":
        assert reply["kind"] == "message"


@pytest.mark.parametrize("wire", WIRES)
def test_fail_ends_failed_with_a_reason(http, demo_agent, wire):
    task = send(http, demo_agent, wire, data(wire, {"skill": "fail"}))
    assert task["status"]["state"] == state(wire, "failed")
    assert "fail" in task["status"]["message"]["parts"][0]["text"]


@pytest.mark.parametrize("wire", WIRES)
def test_unknown_skill_is_rejected(http, demo_agent, wire):
    task = send(http, demo_agent, wire, data(wire, {"skill": "nope"}))
    assert task["status"]["state"] == state(wire, "rejected")


@pytest.mark.spec("A2ACLI_DEMO_SERVER_001")
@pytest.mark.parametrize("wire", WIRES)
def test_ask_needs_input_then_completes(http, demo_agent, wire):
    task = send(http, demo_agent, wire, data(wire, {"skill": "ask", "question": "Colour?"}))
    assert task["status"]["state"] == state(wire, "input-required")
    assert task["status"]["message"]["parts"][0]["text"].startswith("Colour?")

    done = send(http, demo_agent, wire, text(wire, "blue"), task=task)
    assert done["id"] == task["id"]
    assert done["status"]["state"] == state(wire, "completed")
    assert done["artifacts"][0]["parts"] == [text(wire, "got: blue")]

    again = send(http, demo_agent, wire, data(wire, {"skill": "ask"}))
    done = send(http, demo_agent, wire, data(wire, {"value": 7}), task=again)
    assert done["artifacts"][0]["parts"] == [text(wire, "got: 7")]


@pytest.mark.spec("A2ACLI_DEMO_SERVER_001")
@pytest.mark.parametrize("wire", WIRES)
def test_auth_asks_for_the_key_mid_task_then_completes_with_it(http, demo_agent, wire):
    def send_keyed(key: str | None, *parts: dict, task: dict | None = None) -> dict:
        hdrs = {**headers(wire), **({"X-API-Key": key} if key is not None else {})}
        result = ok(rpc(http, demo_agent, method(wire, "SendMessage"), {"message": message(wire, *parts, task=task)}, hdrs=hdrs))
        return result["task"] if wire == "v1" else result

    task = send_keyed(None, data(wire, {"skill": "auth"}))
    assert task["status"]["state"] == state(wire, "auth-required")
    ask = task["status"]["message"]["parts"]
    assert "header X-API-Key" in ask[0]["text"]
    assert ask[1] == data(wire, {"securityScheme": "apiKey", "type": "apiKey", "location": "header", "name": "X-API-Key"})
    # a follow-up without the key, or with a wrong one: asked again, the same task
    again = send_keyed(None, text(wire, "here"), task=task)
    assert (again["id"], again["status"]["state"]) == (task["id"], state(wire, "auth-required"))
    wrong = send_keyed("nope", text(wire, "here"), task=task)
    assert wrong["status"]["state"] == state(wire, "auth-required")
    assert wrong["status"]["message"]["parts"][0]["text"].startswith("The X-API-Key sent is not this agent's key.")
    done = send_keyed(demo_agent.api_key, text(wire, "here"), task=task)
    assert (done["id"], done["status"]["state"]) == (task["id"], state(wire, "completed"))
    assert done["artifacts"][0]["name"] == "authorized"
    # sent with the key in the first place: no need to ask
    at_once = send_keyed(demo_agent.api_key, data(wire, {"skill": "auth"}))
    assert at_once["status"]["state"] == state(wire, "completed")


def test_admin_report_needs_the_key(http, demo_agent):
    params = {"message": message("v1", data("v1", {"skill": "admin-report"}))}
    task = ok(rpc(http, demo_agent, "SendMessage", params, hdrs=V1))["task"]
    assert task["status"]["state"] == "TASK_STATE_REJECTED"
    params = {"message": message("v1", data("v1", {"skill": "admin-report"}))}
    task = ok(rpc(http, demo_agent, "SendMessage", params,
                  hdrs={**V1, "X-API-Key": demo_agent.api_key}))["task"]
    assert task["status"]["state"] == "TASK_STATE_COMPLETED"
    assert set(task["artifacts"][0]["parts"][0]["data"]) == {"tasksStarted", "usersCreated"}


# --------------------------------------------------------------------------- streams


SLOW3 = {"skill": "slow", "steps": 3, "delay": 0.05}


def test_v1_stream_slow(http, demo_agent):
    ctype, events = stream(http, demo_agent, "SendStreamingMessage",
                           {"message": message("v1", data("v1", SLOW3))}, V1)
    assert ctype.startswith("text/event-stream")
    assert all(name == "message" and env["id"] == 7 for name, env in events)
    results = [env["result"] for _, env in events]
    assert [next(iter(r)) for r in results] == [
        "task", "statusUpdate", "statusUpdate", "statusUpdate", "artifactUpdate", "statusUpdate",
    ]
    assert results[0]["task"]["status"]["state"] == "TASK_STATE_SUBMITTED"
    steps = [r["statusUpdate"]["status"]["message"]["parts"][0]["text"] for r in results[1:4]]
    assert steps == ["step 1/3", "step 2/3", "step 3/3"]
    assert results[4]["artifactUpdate"]["artifact"]["parts"] == [{"text": "done after 3 steps"}]
    assert results[4]["artifactUpdate"]["lastChunk"] is True
    assert results[5]["statusUpdate"]["status"]["state"] == "TASK_STATE_COMPLETED"
    assert not has_key(results, "final") and not has_key(results, "kind")


def test_v0_stream_slow(http, demo_agent):
    ctype, events = stream(http, demo_agent, "message/stream",
                           {"message": message("v0", data("v0", SLOW3))}, {})
    assert ctype.startswith("text/event-stream")
    results = [env["result"] for _, env in events]
    assert [r["kind"] for r in results] == [
        "task", "status-update", "status-update", "status-update", "artifact-update",
        "status-update",
    ]
    assert results[0]["status"]["state"] == "submitted"
    assert [r["final"] for r in results if r["kind"] == "status-update"] == [False, False, False, True]
    assert results[-1]["status"]["state"] == "completed"
    assert results[4]["artifact"]["parts"] == [{"kind": "text", "text": "done after 3 steps"}]


def test_v0_stream_stops_at_input_required_with_final_false(http, demo_agent):
    _, events = stream(http, demo_agent, "message/stream",
                       {"message": message("v0", data("v0", {"skill": "ask"}))}, {})
    last = events[-1][1]["result"]
    assert last["kind"] == "status-update"
    assert last["status"]["state"] == "input-required"
    assert last["final"] is False


@pytest.mark.parametrize("wire", WIRES)
def test_subscribe_to_running_task_starts_with_the_task(http, demo_agent, wire):
    config = {"returnImmediately": True} if wire == "v1" else {"blocking": False}
    task = send(http, demo_agent, wire, data(wire, {**SLOW3, "delay": 0.2}), config=config)
    _, events = stream(http, demo_agent, method(wire, "SubscribeToTask"), {"id": task["id"]},
                       headers(wire))
    first, last = events[0][1]["result"], events[-1][1]["result"]
    if wire == "v1":
        assert first["task"]["id"] == task["id"]
        assert last["statusUpdate"]["status"]["state"] == "TASK_STATE_COMPLETED"
    else:
        assert first["kind"] == "task" and first["id"] == task["id"]
        assert last["status"]["state"] == "completed" and last["final"] is True


def test_subscribe_to_finished_task(http, demo_agent):
    done = send(http, demo_agent, "v1", text("v1", "hi"))
    ctype, events = stream(http, demo_agent, "SubscribeToTask", {"id": done["id"]}, V1)
    assert ctype.startswith("application/json")  # an error before the stream: no SSE
    assert events[0][1]["error"]["code"] == -32004

    ctype, events = stream(http, demo_agent, "tasks/resubscribe", {"id": done["id"]}, {})
    assert ctype.startswith("text/event-stream")  # V0: the error comes as an SSE event...
    ((name, envelope),) = events
    assert name == "message"  # ...without `event: error`
    assert envelope["error"]["code"] == -32004


# --------------------------------------------------------------------------- cancel


def _steps(task: dict[str, Any]) -> list[dict[str, Any]]:
    """The slow skill's `step i/N` messages in the task's history."""
    return [m for m in task.get("history", []) if m["parts"][0].get("text", "").startswith("step")]


@pytest.mark.parametrize("wire", WIRES)
def test_cancel_slow_task(http, demo_agent, wire):
    config = {"returnImmediately": True} if wire == "v1" else {"blocking": False}
    task = send(http, demo_agent, wire, data(wire, {"skill": "slow", "steps": 4, "delay": 0.25}),
                config=config)
    assert task["status"]["state"] in (state(wire, "submitted"), state(wire, "working"))
    wait_until(lambda: _steps(ok(rpc(http, demo_agent, method(wire, "GetTask"), {"id": task["id"]},
                                     hdrs=headers(wire)))), what="the slow task's first step")
    canceled = ok(rpc(http, demo_agent, method(wire, "CancelTask"), {"id": task["id"]},
                      hdrs=headers(wire)))
    assert canceled["status"]["state"] == state(wire, "canceled")

    # A negative, so a wait of a set time: past the 1 s the four steps would have taken, no further
    # step came and no artifact (the executor stopped rather than went on unseen).
    time.sleep(1.2)
    later = ok(rpc(http, demo_agent, method(wire, "GetTask"), {"id": task["id"]},
                   hdrs=headers(wire)))
    assert later["status"]["state"] == state(wire, "canceled")
    assert "artifacts" not in later
    assert 1 <= len(_steps(later)) < 4

    again = rpc(http, demo_agent, method(wire, "CancelTask"), {"id": task["id"]}, hdrs=headers(wire))
    assert again["error"]["code"] == -32002


def test_cancel_during_a_v1_stream_ends_the_stream_canceled(http, demo_agent):
    body = {"jsonrpc": "2.0", "id": 7, "method": "SendStreamingMessage",
            "params": {"message": message("v1", data("v1", {"skill": "slow", "steps": 20,
                                                            "delay": 0.1}))}}
    seen: list[dict[str, Any]] = []
    with httpx.Client(timeout=15.0, trust_env=False) as other, \
            http.stream("POST", demo_agent.rpc_url, json=body, headers=V1) as response:
        for line in response.iter_lines():
            if not line.startswith("data:"):
                continue
            seen.append(json.loads(line[5:])["result"])
            if len(seen) == 2:
                task_id = seen[0]["task"]["id"]
                canceled = other.post(demo_agent.rpc_url, headers=V1, json={
                    "jsonrpc": "2.0", "id": 1, "method": "CancelTask", "params": {"id": task_id}})
                assert canceled.json()["result"]["status"]["state"] == "TASK_STATE_CANCELED"
    assert seen[-1]["statusUpdate"]["status"]["state"] == "TASK_STATE_CANCELED"
    assert len(seen) < 10


# --------------------------------------------------------------------------- tasks


def test_v1_list_tasks_pages_by_context(http, demo_agent):
    context_id = str(uuid.uuid4())
    for word in ("one", "two"):
        msg = message("v1", text("v1", word))
        msg["contextId"] = context_id
        ok(rpc(http, demo_agent, "SendMessage", {"message": msg}, hdrs=V1))

    page = ok(rpc(http, demo_agent, "ListTasks", {"contextId": context_id, "pageSize": 1}, hdrs=V1))
    assert page["pageSize"] == 1 and page["totalSize"] == 2
    assert len(page["tasks"]) == 1 and page["nextPageToken"]
    assert "artifacts" not in page["tasks"][0]
    last = ok(rpc(http, demo_agent, "ListTasks", {"contextId": context_id, "pageSize": 1,
                                                 "pageToken": page["nextPageToken"],
                                                 "includeArtifacts": True}, hdrs=V1))
    assert last["nextPageToken"] == ""
    assert last["tasks"][0]["id"] != page["tasks"][0]["id"]
    assert last["tasks"][0]["artifacts"][0]["name"] == "echo"

    everything = ok(rpc(http, demo_agent, "ListTasks", {"status": "TASK_STATE_COMPLETED"}, hdrs=V1))
    assert all(t["status"]["state"] == "TASK_STATE_COMPLETED" for t in everything["tasks"])

    assert rpc(http, demo_agent, "ListTasks", {})["error"]["code"] == -32009  # no header
    assert rpc(http, demo_agent, "tasks/list", {})["error"]["code"] == -32601


def test_get_unknown_task(http, demo_agent):
    error = rpc(http, demo_agent, "GetTask", {"id": "no-such-task"}, hdrs=V1)["error"]
    assert error["code"] == -32001
    assert error["data"][0]["reason"] == "TASK_NOT_FOUND"
    error = rpc(http, demo_agent, "tasks/get", {"id": "no-such-task"})["error"]
    assert error == {"code": -32001, "message": "Task not found", "data": None}


def test_version_header_decides_which_methods_answer(http, demo_agent):
    v1_params = {"message": message("v1", text("v1", "hi"))}
    assert rpc(http, demo_agent, "SendMessage", v1_params)["error"]["code"] == -32009
    v0_params = {"message": message("v0", text("v0", "hi"))}
    assert rpc(http, demo_agent, "message/send", v0_params, hdrs=V1)["error"]["code"] == -32603
    assert "result" in rpc(http, demo_agent, "message/send", v0_params, hdrs={"A2A-Version": "0.3"})


# --------------------------------------------------------------------------- push configs


def _finish_ask(http, demo_agent, wire, task) -> None:
    done = send(http, demo_agent, wire, text(wire, "blue"), task=task)
    assert done["status"]["state"] == state(wire, "completed")


def test_v1_push_config_crud_and_delivery(http, demo_agent):
    task = send(http, demo_agent, "v1", data("v1", {"skill": "ask"}))
    with Webhook() as hook:
        config = {"taskId": task["id"], "id": "cfg-1", "url": hook.url, "token": "tok-1",
                  "authentication": {"scheme": "Bearer", "credentials": "s3cr3t"}}
        created = ok(rpc(http, demo_agent, "CreateTaskPushNotificationConfig", config, hdrs=V1))
        assert created == config

        got = ok(rpc(http, demo_agent, "GetTaskPushNotificationConfig",
                     {"taskId": task["id"], "id": "cfg-1"}, hdrs=V1))
        assert got == config
        listed = ok(rpc(http, demo_agent, "ListTaskPushNotificationConfigs",
                        {"taskId": task["id"]}, hdrs=V1))
        assert listed == {"configs": [config]}

        _finish_ask(http, demo_agent, "v1", task)
        assert wait_for(lambda: any("statusUpdate" in b and b["statusUpdate"]["status"]["state"]
                                    == "TASK_STATE_COMPLETED" for _, b in hook.received))
        for hdrs_seen, body in hook.received:
            assert hdrs_seen["X-A2A-Notification-Token"] == "tok-1"
            assert hdrs_seen["Authorization"] == "Bearer s3cr3t"
            assert hdrs_seen["Content-Type"] == "application/json"
            (key,) = body
            assert key in ("statusUpdate", "artifactUpdate", "task")
            assert body[key].get("taskId", body[key].get("id")) == task["id"]

    deleted = rpc(http, demo_agent, "DeleteTaskPushNotificationConfig",
                  {"taskId": task["id"], "id": "cfg-1"}, hdrs=V1)
    assert "result" in deleted and deleted["result"] is None
    listed = ok(rpc(http, demo_agent, "ListTaskPushNotificationConfigs",
                    {"taskId": task["id"]}, hdrs=V1))
    assert listed.get("configs", []) == []
    missing = rpc(http, demo_agent, "GetTaskPushNotificationConfig",
                  {"taskId": task["id"], "id": "cfg-1"}, hdrs=V1)
    assert missing["error"]["code"] == -32001


def test_v1_push_config_id_defaults_to_the_task_id_and_urls_are_screened(http, demo_agent):
    task = send(http, demo_agent, "v1", data("v1", {"skill": "ask"}))
    created = ok(rpc(http, demo_agent, "CreateTaskPushNotificationConfig",
                     {"taskId": task["id"], "url": "http://127.0.0.1:9/hook"}, hdrs=V1))
    assert created["id"] == task["id"]
    blocked = rpc(http, demo_agent, "CreateTaskPushNotificationConfig",
                  {"taskId": task["id"], "url": "http://10.0.0.1/hook"}, hdrs=V1)
    assert blocked["error"]["code"] == -32602
    _finish_ask(http, demo_agent, "v1", task)


def test_v0_push_config_crud_and_delivery(http, demo_agent):
    task = send(http, demo_agent, "v0", data("v0", {"skill": "ask"}))
    with Webhook() as hook:
        inner = {"id": "cfg-0", "url": hook.url, "token": "tok-0",
                 "authentication": {"schemes": ["Bearer"], "credentials": "s0"}}
        created = ok(rpc(http, demo_agent, "tasks/pushNotificationConfig/set",
                         {"taskId": task["id"], "pushNotificationConfig": inner}))
        assert created == {"taskId": task["id"], "pushNotificationConfig": inner}

        got = ok(rpc(http, demo_agent, "tasks/pushNotificationConfig/get",
                     {"id": task["id"], "pushNotificationConfigId": "cfg-0"}))
        assert got == created
        listed = ok(rpc(http, demo_agent, "tasks/pushNotificationConfig/list", {"id": task["id"]}))
        assert listed == [created]

        _finish_ask(http, demo_agent, "v0", task)
        # Delivery is the V1 StreamResponse even for a config set over V0.
        assert wait_for(lambda: any(b.get("statusUpdate", {}).get("status", {}).get("state")
                                    == "TASK_STATE_COMPLETED" for _, b in hook.received))
        assert all(h["X-A2A-Notification-Token"] == "tok-0" for h, _ in hook.received)

    deleted = rpc(http, demo_agent, "tasks/pushNotificationConfig/delete",
                  {"id": task["id"], "pushNotificationConfigId": "cfg-0"})
    # JSON-RPC 2.0 §5 and 0.3 §7.8: a `result` member, null (a2a-sdk drops it; the demo puts it back, issue 45)
    assert deleted == {"jsonrpc": "2.0", "id": 1, "result": None}
    listed = ok(rpc(http, demo_agent, "tasks/pushNotificationConfig/list", {"id": task["id"]}))
    assert listed == []


# --------------------------------------------------------------------------- extended card


@pytest.mark.parametrize("wire", WIRES)
def test_extended_card_needs_the_key(http, demo_agent, wire):
    meth = "GetExtendedAgentCard" if wire == "v1" else "agent/getAuthenticatedExtendedCard"
    params = {} if wire == "v1" else None
    for bad in ({}, {"X-API-Key": "wrong"}):
        body: dict[str, Any] = {"jsonrpc": "2.0", "id": 1, "method": meth}
        if params is not None:
            body["params"] = params
        response = http.post(demo_agent.rpc_url, json=body, headers={**headers(wire), **bad})
        assert response.status_code == 401
        assert "X-API-Key" in response.headers["www-authenticate"]
        assert response.json()["error"]["code"] == -32000

    card = ok(rpc(http, demo_agent, meth, params,
                  hdrs={**headers(wire), "X-API-Key": demo_agent.api_key}))
    skills = {s["id"]: s for s in card["skills"]}
    assert set(skills) == SKILLS | {"admin-report"}
    if wire == "v1":
        assert card["capabilities"]["extendedAgentCard"] is True
        assert skills["admin-report"]["securityRequirements"] == [{"schemes": {"apiKey": {}}}]
    else:
        assert card["url"] == demo_agent.rpc_url
        assert card["protocolVersion"] == "0.3"  # the SDK's spelling, unlike the public card
        assert card["supportsAuthenticatedExtendedCard"] is True
        assert skills["admin-report"]["security"] == [{"apiKey": []}]


# --------------------------------------------------------------------------- HTTP+JSON (REST)
#
# The SDK's REST routes on the same port: V1 `/message:send`, `/tasks/{id}`, ... (header
# `A2A-Version: 1.0`), V0 `/v1/message:send`, ... (no header). Bodies are ProtoJSON: V1 like the
# JSON-RPC params; V0 the 0.3 *gRPC* proto (`content`, `ROLE_USER`, data part {"data": {"data"}}).
# Success: V1 `application/a2a+json`, V0 `application/json`; errors `application/json`
# {"error": {"code": <http>, "status": <grpc>, "message", "details": [ErrorInfo...]}}.
# SSE `data:` holds the bare StreamResponse ({"task"}/{"statusUpdate"}/...), no envelope.


def rest_message(wire: str, *parts: dict[str, Any], task: dict[str, Any] | None = None) -> dict:
    msg: dict[str, Any] = {"messageId": str(uuid.uuid4()), "role": "ROLE_USER"}
    msg["parts" if wire == "v1" else "content"] = list(parts)
    if task is not None:
        msg.update(taskId=task["id"], contextId=task["contextId"])
    return {"message": msg}


def rest_data(wire: str, value: dict[str, Any]) -> dict[str, Any]:
    return {"data": value} if wire == "v1" else {"data": {"data": value}}


def rest_path(wire: str, path: str) -> str:
    return path if wire == "v1" else "/v1" + path


def rest(http: httpx.Client, agent: Any, wire: str, verb: str, path: str, body: Any = None, *,
         hdrs: dict[str, str] | None = None, status: int = 200, params: Any = None) -> Any:
    """One REST call on the demo's base URL; checks the status and content type, returns JSON."""
    response = http.request(verb, agent.url + rest_path(wire, path), json=body, params=params,
                            headers={**headers(wire), **(hdrs or {})})
    assert response.status_code == status, response.text
    ctype = response.headers["content-type"]
    if status == 200 and wire == "v1":
        assert ctype.startswith("application/a2a+json")
    else:
        assert ctype.startswith("application/json")
    return response.json()


def rest_send(http: httpx.Client, agent: Any, wire: str, *parts: dict, task: dict | None = None,
              config: dict | None = None) -> dict[str, Any]:
    body = rest_message(wire, *parts, task=task)
    if config is not None:
        body["configuration"] = config
    result = rest(http, agent, wire, "POST", "/message:send", body)
    (key,) = result
    assert key in ("task", "message")
    return result[key]


def rest_stream(http: httpx.Client, agent: Any, wire: str, verb: str, path: str,
                body: Any = None) -> list[dict[str, Any]]:
    with http.stream(verb, agent.url + rest_path(wire, path), json=body,
                     headers={"Accept": "text/event-stream", **headers(wire)}) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        events = sse(response)
    assert all(name == "message" for name, _ in events)
    return [data for _, data in events]


@pytest.mark.parametrize("wire", WIRES)
def test_rest_send_get_and_the_task_is_shared_with_json_rpc(http, demo_agent, wire):
    task = rest_send(http, demo_agent, wire, rest_data(wire, {"skill": "create-user", "n": 1}))
    assert task["status"]["state"] == "TASK_STATE_COMPLETED"
    parts = task["artifacts"][0]["parts"]
    user = parts[0]["data"] if wire == "v1" else parts[0]["data"]["data"]
    assert user["id"].startswith("user-") and user["n"] == 1
    history = task["history"][0]
    assert history["role"] == "ROLE_USER" and ("parts" if wire == "v1" else "content") in history

    got = rest(http, demo_agent, wire, "GET", f"/tasks/{task['id']}", params={"historyLength": 1})
    assert got["id"] == task["id"] and len(got["history"]) == 1
    # one handler behind both bindings: JSON-RPC sees the task REST created
    same = ok(rpc(http, demo_agent, method(wire, "GetTask"), {"id": task["id"]}, hdrs=headers(wire)))
    assert same["id"] == task["id"]


@pytest.mark.parametrize("wire", WIRES)
def test_rest_direct_message_reply(http, demo_agent, wire):
    reply = rest_send(http, demo_agent, wire, {"text": "message"})
    assert reply["role"] == "ROLE_AGENT" and "taskId" not in reply


@pytest.mark.parametrize("wire", WIRES)
def test_rest_errors(http, demo_agent, wire):
    missing = rest(http, demo_agent, wire, "GET", "/tasks/no-such-task", status=404)["error"]
    assert missing["code"] == 404 and missing["status"] == "NOT_FOUND"
    assert missing["details"][0]["reason"] == "TASK_NOT_FOUND"
    assert missing["details"][0]["@type"] == "type.googleapis.com/google.rpc.ErrorInfo"

    done = rest_send(http, demo_agent, wire, {"text": "hi"})
    again = rest(http, demo_agent, wire, "POST", f"/tasks/{done['id']}:cancel", status=400)["error"]
    assert again["status"] == "FAILED_PRECONDITION"
    assert again["details"][0]["reason"] == "TASK_NOT_CANCELABLE"

    response = http.post(demo_agent.url + rest_path(wire, "/message:send"), content=b"{not json",
                         headers={"Content-Type": "application/json", **headers(wire)})
    assert response.status_code == 400
    assert response.json()["error"]["details"][0]["reason"] == "INVALID_REQUEST"

    # the version header decides, as for JSON-RPC: V1 routes want 1.0, V0 routes 0.3 (or none)
    other = {} if wire == "v1" else V1
    response = http.post(demo_agent.url + rest_path(wire, "/message:send"), headers=other,
                         json=rest_message(wire, {"text": "hi"}))
    assert response.status_code == 400
    assert response.json()["error"]["details"][0]["reason"] == "VERSION_NOT_SUPPORTED"


def test_rest_v1_list_tasks(http, demo_agent):
    context_id = str(uuid.uuid4())
    for word in ("one", "two"):
        body = rest_message("v1", {"text": word})
        body["message"]["contextId"] = context_id
        rest(http, demo_agent, "v1", "POST", "/message:send", body)
    page = rest(http, demo_agent, "v1", "GET", "/tasks", params={"contextId": context_id, "pageSize": 1})
    assert page["pageSize"] == 1 and page["totalSize"] == 2 and page["nextPageToken"]
    assert len(page["tasks"]) == 1 and "artifacts" not in page["tasks"][0]
    last = rest(http, demo_agent, "v1", "GET", "/tasks",
                params={"contextId": context_id, "pageSize": 1, "pageToken": page["nextPageToken"],
                        "includeArtifacts": "true"})
    assert last["nextPageToken"] == "" and last["tasks"][0]["artifacts"][0]["name"] == "echo"


@pytest.mark.parametrize("wire", WIRES)
def test_rest_stream_slow(http, demo_agent, wire):
    events = rest_stream(http, demo_agent, wire, "POST", "/message:stream",
                         rest_message(wire, rest_data(wire, SLOW3)))
    assert [next(iter(e)) for e in events] == [
        "task", "statusUpdate", "statusUpdate", "statusUpdate", "artifactUpdate", "statusUpdate"]
    assert events[0]["task"]["status"]["state"] == "TASK_STATE_SUBMITTED"
    assert events[-1]["statusUpdate"]["status"]["state"] == "TASK_STATE_COMPLETED"
    finals = [e["statusUpdate"].get("final") for e in events if "statusUpdate" in e]
    assert finals == ([None] * 4 if wire == "v1" else [None, None, None, True])


@pytest.mark.parametrize(("wire", "verb"), [(w, v) for w in WIRES for v in ("GET", "POST")])
def test_rest_subscribe_and_cancel(http, demo_agent, wire, verb):
    config = {"returnImmediately": True} if wire == "v1" else {"blocking": False}
    task = rest_send(http, demo_agent, wire, rest_data(wire, {**SLOW3, "delay": 0.2}), config=config)
    events = rest_stream(http, demo_agent, wire, verb, f"/tasks/{task['id']}:subscribe")
    assert events[0]["task"]["id"] == task["id"]
    assert events[-1]["statusUpdate"]["status"]["state"] == "TASK_STATE_COMPLETED"

    slow = rest_send(http, demo_agent, wire, rest_data(wire, {"skill": "slow", "steps": 4,
                                                              "delay": 0.25}), config=config)
    wait_until(lambda: rest(http, demo_agent, wire, "GET", f"/tasks/{slow['id']}")["status"]["state"]
               == "TASK_STATE_WORKING", what="the slow task working")
    canceled = rest(http, demo_agent, wire, "POST", f"/tasks/{slow['id']}:cancel")
    # the 0.3 proto spells it CANCELLED
    assert canceled["status"]["state"] == ("TASK_STATE_CANCELED" if wire == "v1" else "TASK_STATE_CANCELLED")


def test_rest_v1_subscribe_to_finished_task_is_a_json_error(http, demo_agent):
    done = rest_send(http, demo_agent, "v1", {"text": "hi"})
    error = rest(http, demo_agent, "v1", "GET", f"/tasks/{done['id']}:subscribe", status=400)["error"]
    assert error["details"][0]["reason"] == "UNSUPPORTED_OPERATION"


def test_rest_v1_push_config_crud(http, demo_agent):
    task = rest_send(http, demo_agent, "v1", rest_data("v1", {"skill": "ask"}))
    base = f"/tasks/{task['id']}/pushNotificationConfigs"
    config = {"id": "cfg-r", "url": "http://127.0.0.1:9/hook", "token": "tok",
              "authentication": {"scheme": "Bearer", "credentials": "s"}}
    created = rest(http, demo_agent, "v1", "POST", base, config)
    assert created == {**config, "taskId": task["id"]}
    assert rest(http, demo_agent, "v1", "GET", f"{base}/cfg-r") == created
    assert rest(http, demo_agent, "v1", "GET", base) == {"configs": [created]}
    assert rest(http, demo_agent, "v1", "DELETE", f"{base}/cfg-r") == {}
    assert rest(http, demo_agent, "v1", "GET", base) == {}  # an empty list prints as {}
    rest(http, demo_agent, "v1", "GET", f"{base}/cfg-r", status=404)
    _finish_ask(http, demo_agent, "v1", task)


def test_rest_v0_push_config(http, demo_agent):
    task = rest_send(http, demo_agent, "v0", rest_data("v0", {"skill": "ask"}))
    base = f"/tasks/{task['id']}/pushNotificationConfigs"
    inner = {"id": "cfg-r0", "url": "http://127.0.0.1:9/hook", "token": "tok",
             "authentication": {"schemes": ["Bearer"], "credentials": "s"}}
    # the whole CreateTaskPushNotificationConfigRequest: `parent` is required (the path's id wins)
    created = rest(http, demo_agent, "v0", "POST", base,
                   {"parent": f"tasks/{task['id']}", "config": {"pushNotificationConfig": inner}})
    assert created == {"name": f"tasks/{task['id']}/pushNotificationConfigs/cfg-r0",
                       "pushNotificationConfig": inner}
    assert rest(http, demo_agent, "v0", "GET", f"{base}/cfg-r0") == created
    assert rest(http, demo_agent, "v0", "GET", base) == {"configs": [created]}
    # DELETE: a route the demo adds (a2a-sdk 1.3 has none for 0.3); {} as the other 0.3 routes
    assert rest(http, demo_agent, "v0", "DELETE", f"{base}/cfg-r0") == {}
    assert rest(http, demo_agent, "v0", "GET", base) == {}
    error = rest(http, demo_agent, "v0", "DELETE", "/tasks/no-such-task/pushNotificationConfigs/x", status=404)["error"]
    assert error["status"] == "NOT_FOUND" and error["details"][0]["reason"] == "TASK_NOT_FOUND"
    # an unsupported version is refused as on the other 0.3 routes; 1.x still reaches the 1.0
    # route under the tenant "v1", as before the demo added the 0.3 one
    error = rest(http, demo_agent, "v0", "DELETE", f"{base}/cfg-r0", hdrs={"A2A-Version": "2.0"}, status=400)["error"]
    assert error["details"][0]["reason"] == "VERSION_NOT_SUPPORTED" and "Expected version '0.3'" in error["message"]
    response = http.delete(f"{demo_agent.url}/v1{base}/cfg-r0", headers=V1)
    assert response.status_code == 200 and response.json() == {}
    _finish_ask(http, demo_agent, "v0", task)


def test_rest_v0_list_tasks(http, demo_agent):
    """`GET /v1/tasks` (a route the demo adds): every task, a JSON array of 0.3 proto Tasks."""
    task = rest_send(http, demo_agent, "v0", {"text": "listed"})
    tasks = rest(http, demo_agent, "v0", "GET", "/tasks")
    assert isinstance(tasks, list)
    (mine,) = [t for t in tasks if t["id"] == task["id"]]
    assert mine["status"]["state"] == "TASK_STATE_COMPLETED"
    assert mine["artifacts"][0]["parts"][0] == {"text": "echo: listed"}  # 0.3 proto Task: artifacts, `content` in history
    assert "content" in mine["history"][0]
    # 1.x: the 1.0 ListTasks under the tenant "v1", as before
    page = http.get(f"{demo_agent.url}/v1/tasks", params={"pageSize": 1}, headers=V1).json()
    assert len(page["tasks"]) == 1 and page["nextPageToken"]


@pytest.mark.parametrize("wire", WIRES)
def test_rest_extended_card_needs_the_key(http, demo_agent, wire):
    path = "/extendedAgentCard" if wire == "v1" else "/card"
    for bad in ({}, {"X-API-Key": "wrong"}):
        error = rest(http, demo_agent, wire, "GET", path, hdrs=bad, status=401)["error"]
        assert error["code"] == 401 and error["status"] == "UNAUTHENTICATED"
    card = rest(http, demo_agent, wire, "GET", path, hdrs={"X-API-Key": demo_agent.api_key})
    assert "admin-report" in {s["id"] for s in card["skills"]}
    if wire == "v1":
        assert card["supportedInterfaces"] == interfaces(demo_agent)
    else:
        assert card["url"] == demo_agent.rpc_url and card["preferredTransport"] == "JSONRPC"


# --------------------------------------------------------------------------- gRPC


@pytest.fixture(scope="module")
def grpc_channel(demo_agent) -> Iterator[Any]:
    """A plaintext channel to the demo's gRPC port (skipped without grpcio, the `grpc` extra)."""
    grpc = pytest.importorskip("grpc")
    assert demo_agent.grpc_url, "grpcio is installed, so the demo serves gRPC"
    with grpc.insecure_channel(demo_agent.grpc_target) as channel:
        yield channel


def _grpc_status(call: Any) -> tuple[str, str, list[str]]:
    """(code name, details, ErrorInfo reasons from grpc-status-details-bin) of a failed call."""
    from google.rpc import error_details_pb2, status_pb2

    reasons = []
    for key, value in call.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            status = status_pb2.Status.FromString(value)
            for detail in status.details:
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info):
                    assert info.domain == "a2a-protocol.org"
                    reasons.append(info.reason)
    return call.code().name, call.details(), reasons


def test_grpc_get_unknown_task_is_not_found(grpc_channel):
    grpc = pytest.importorskip("grpc")
    from a2a.compat.v0_3 import a2a_v0_3_pb2, a2a_v0_3_pb2_grpc
    from a2a.types import a2a_pb2, a2a_pb2_grpc

    with pytest.raises(grpc.RpcError) as v1:
        a2a_pb2_grpc.A2AServiceStub(grpc_channel).GetTask(a2a_pb2.GetTaskRequest(id="no-such-task"), metadata=[("a2a-version", "1.0")], timeout=10)
    assert _grpc_status(v1.value) == ("NOT_FOUND", "Task not found", ["TASK_NOT_FOUND"])
    with pytest.raises(grpc.RpcError) as v0:
        a2a_v0_3_pb2_grpc.A2AServiceStub(grpc_channel).GetTask(a2a_v0_3_pb2.GetTaskRequest(name="tasks/no-such-task"), metadata=[("a2a-version", "0.3")], timeout=10)
    assert _grpc_status(v0.value) == ("NOT_FOUND", "TaskNotFoundError: Task not found", [])


def test_grpc_shares_tasks_with_http(http, demo_agent, grpc_channel):
    from a2a.types import a2a_pb2, a2a_pb2_grpc
    from google.protobuf.json_format import MessageToDict

    task = send(http, demo_agent, "v1", text("v1", "over http"))
    got = a2a_pb2_grpc.A2AServiceStub(grpc_channel).GetTask(a2a_pb2.GetTaskRequest(id=task["id"]), metadata=[("a2a-version", "1.0")], timeout=10)
    assert MessageToDict(got)["artifacts"][0]["parts"] == [{"text": "echo: over http"}]


def test_grpc_extended_card_needs_the_key(demo_agent, grpc_channel):
    grpc = pytest.importorskip("grpc")
    from a2a.compat.v0_3 import a2a_v0_3_pb2, a2a_v0_3_pb2_grpc
    from a2a.types import a2a_pb2, a2a_pb2_grpc

    calls = [
        (a2a_pb2_grpc.A2AServiceStub(grpc_channel).GetExtendedAgentCard, a2a_pb2.GetExtendedAgentCardRequest(), "1.0"),
        (a2a_v0_3_pb2_grpc.A2AServiceStub(grpc_channel).GetAgentCard, a2a_v0_3_pb2.GetAgentCardRequest(), "0.3"),
    ]
    for call, request, version in calls:
        for bad in ([], [("x-api-key", "wrong")]):
            with pytest.raises(grpc.RpcError) as denied:
                call(request, metadata=[("a2a-version", version), *bad], timeout=10)
            assert denied.value.code() == grpc.StatusCode.UNAUTHENTICATED
        card = call(request, metadata=[("a2a-version", version), ("x-api-key", demo_agent.api_key)], timeout=10)
        assert "admin-report" in {s.id for s in card.skills}
