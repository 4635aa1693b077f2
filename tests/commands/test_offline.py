"""`--offline` prints the exact request of every method in both versions (golden files), and the
seed's V0/V1 example requests come out of `a2a send --skill create-user`."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from a2acli.wire.bindings import BINDINGS
from a2acli.wire.methods import METHODS

GOLDEN = Path(__file__).parent.parent / "golden"
FIXED = ["--request-id", "req-1", "--rpc-url", "http://agent.test/rpc"]

# One command line per method: every method in the table must have one (checked below).
ARGV = {
    "SendMessage": ["send", "--skill", "create-user", "-f", "projectUserId=user_123", "--message-id", "msg-1"],
    "SendStreamingMessage": ["stream", "hello", "--data", '{"n": 1}', "--message-id", "msg-1", "--context-id", "ctx-1"],
    "GetTask": ["tasks", "get", "t-1", "--history-length", "2"],
    "ListTasks": ["tasks", "list", "--page-size", "20", "--page-token", "40", "--status", "working", "--context-id", "ctx-1"],
    "CancelTask": ["tasks", "cancel", "t-1", "--metadata", '{"reason": "test"}'],
    "SubscribeToTask": ["tasks", "subscribe", "t-1"],
    "CreateTaskPushNotificationConfig": ["push-config", "create", "t-1", "--webhook-url", "https://cb.example/h", "--config-id", "p-1", "--token", "tok-1", "--auth-scheme", "Bearer", "--auth-credentials", "s3cr3t"],
    "GetTaskPushNotificationConfig": ["push-config", "get", "t-1", "p-1"],
    "ListTaskPushNotificationConfigs": ["push-config", "list", "t-1"],
    "DeleteTaskPushNotificationConfig": ["push-config", "delete", "t-1", "p-1"],
    "GetExtendedAgentCard": ["card", "extended"],
}


def test_every_method_has_a_command_line():
    assert set(ARGV) == set(METHODS)


@pytest.mark.parametrize("version", ["1.0", "0.3"])
@pytest.mark.parametrize("method", sorted(METHODS))
def test_offline_golden(cli, method, version):
    extra = ["--dialect", "clix"] if method == "ListTasks" and version == "0.3" else []
    result = cli(*ARGV[method], *FIXED, "--a2a-version", version, "--offline", "-o", "raw", *extra)
    assert result.exit_code == 0, result.stderr
    sent = json.loads(result.stdout)
    wire = "v1" if version == "1.0" else "v0"
    assert sent["method"] == (METHODS[method].name if wire == "v1" else METHODS[method].v0)
    path = GOLDEN / "offline" / f"{method}.{wire}.json"
    if os.environ.get("A2ACLI_UPDATE_GOLDEN"):
        path.write_text(json.dumps(sent, indent=2) + "\n")
    assert sent == json.loads(path.read_text()), f"{path.name} differs; regenerate with A2ACLI_UPDATE_GOLDEN=1 and review"
    # The request line and headers go to stderr, so stdout stays the bare envelope.
    assert "POST http://agent.test/rpc" in result.stderr
    assert f"A2A-Version: {version}" in result.stderr


SEED_ARGV = ["send", "--skill", "create-user", "-f", "projectUserId=user_123", "--message-id", "msg-1", "--request-id", "req-1", "--offline", "-o", "raw", "-u", "http://agent.test"]


def seed(name: str) -> dict:
    return json.loads((GOLDEN / "seed" / name).read_text())


# The seed's requests are the default send's, byte for byte apart from ids (issue 21): one blocking
# SendMessage with no configuration. --follow and --async add returnImmediately (0.3: blocking false).
RETURN_IMMEDIATELY = {"0.3": {"blocking": False}, "1.0": {"returnImmediately": True}}


def seed_sent(cli, version: str, *extra: str) -> dict:
    """The request of SEED_ARGV (no other flag) under `version`."""
    result = cli(*SEED_ARGV, "--a2a-version", version, *extra)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def with_config(request: dict, version: str) -> dict:
    return {**request, "params": {**request["params"], "configuration": RETURN_IMMEDIATELY[version]}}


@pytest.mark.spec("A2ACLI_SEND_002")
def test_seed_v0_request(cli):
    assert seed_sent(cli, "0.3") == seed("v0-create-user.request.json")


@pytest.mark.spec("A2ACLI_SEND_002")
def test_seed_v1_request_clix_dialect_is_exact(cli):
    assert seed_sent(cli, "1.0", "--dialect", "clix") == seed("v1-create-user.request.json")


@pytest.mark.spec("A2ACLI_SEND_002")
def test_seed_v1_request_spec_dialect_differs_only_in_role_spelling(cli):
    expected = seed("v1-create-user.request.json")
    expected["params"]["message"]["role"] = "ROLE_USER"
    assert seed_sent(cli, "1.0") == expected


@pytest.mark.parametrize("version", ["1.0", "0.3"])
@pytest.mark.parametrize("flag", ["--follow", "--async"])
def test_follow_and_async_add_return_immediately_to_the_seed_request(cli, version, flag):
    assert seed_sent(cli, version, flag) == with_config(seed_sent(cli, version), version)


@pytest.mark.parametrize("version", ["1.0", "0.3"])
def test_blocking_call_is_the_default_request(cli, version):
    assert seed_sent(cli, version, "--blocking-call") == seed_sent(cli, version)


def test_offline_raw_is_the_compact_wire_bytes(cli):
    result = cli(*SEED_ARGV, "--a2a-version", "0.3")
    assert result.stdout.strip() == json.dumps(json.loads(result.stdout), separators=(",", ":"), ensure_ascii=False)


def test_offline_json_is_pretty_and_text_shows_request_line(cli):
    as_json = cli(*SEED_ARGV[:-4], "--offline", "-o", "json", "-u", "http://agent.test")
    assert as_json.exit_code == 0 and as_json.stdout.startswith("{\n")
    as_text = cli(*SEED_ARGV[:-4], "--offline", "--rpc-url", "http://agent.test/rpc")
    assert as_text.exit_code == 0
    assert as_text.stdout.startswith("POST http://agent.test/rpc\n")
    assert "A2A-Version: 1.0" in as_text.stdout and '"SendMessage"' in as_text.stdout


@pytest.mark.spec("A2ACLI_SEND_006")
def test_parts_keep_command_line_order(cli):
    result = cli("send", "first", "--data", '{"a": 1}', "--text", "second", "--media-type", "text/markdown", "--skill", "s", "-f", "k=v",
                 "--text", "third", "--offline", "-o", "raw", "--rpc-url", "http://x/rpc")
    assert result.exit_code == 0, result.stderr
    parts = json.loads(result.stdout)["params"]["message"]["parts"]
    assert parts == [
        {"text": "first"},
        {"data": {"a": 1}},
        {"text": "second", "mediaType": "text/markdown"},
        {"data": {"skill": "s", "k": "v"}},
        {"text": "third"},
    ]


def test_typed_fields_and_async(cli):
    result = cli("send", "--skill", "s", "-f", "age:=42", "-f", 'tags:=["a"]', "-f", "name=Ada", "--async", "--offline", "-o", "raw", "--rpc-url", "http://x/rpc", "--a2a-version", "0.3")
    assert result.exit_code == 0, result.stderr
    params = json.loads(result.stdout)["params"]
    assert params["message"]["parts"][0] == {"kind": "data", "data": {"skill": "s", "age": 42, "tags": ["a"], "name": "Ada"}}
    assert params["configuration"]["blocking"] is False


def test_file_part_inline(cli, tmp_path):
    f = tmp_path / "note.txt"
    f.write_bytes(b"hi there")
    result = cli("send", "--file", str(f), "--offline", "-o", "raw", "--rpc-url", "http://x/rpc")
    assert result.exit_code == 0, result.stderr
    (part,) = json.loads(result.stdout)["params"]["message"]["parts"]
    assert part == {"raw": "aGkgdGhlcmU=", "mediaType": "text/plain", "filename": "note.txt"}


@pytest.mark.parametrize("where,shows", [
    ("cookie", "Cookie: <redacted>"),
    ("query", "POST http://agent.test/rpc?k=<redacted>"),
    ("header", "X-Key: <redacted>"),
])
def test_offline_with_a_local_card_shows_what_a_real_call_sends(cli, tmp_path, where, shows):
    """The card's tenant goes into the params and the API key goes where the card says, as in a
    real call; its value stays hidden."""
    card = {"name": "t", "description": "d", "version": "1",
            "supportedInterfaces": [{"url": "http://agent.test/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0", "tenant": "acme"}],
            "securitySchemes": {"k": {"apiKeySecurityScheme": {"location": where, "name": "X-Key" if where == "header" else "k"}}}}
    path = tmp_path / "card.json"
    path.write_text(json.dumps(card))
    result = cli("tasks", "get", "t-1", "-u", path.as_uri(), "--api-key", "key-0123456789", "--offline", "--request-id", "req-1")
    assert result.exit_code == 0, result.stderr
    assert shows in result.stdout and "key-0123456789" not in result.stdout
    body = json.loads(result.stdout[result.stdout.index("{"):])
    assert body["params"] == {"id": "t-1", "tenant": "acme"}


# The whole request as `--offline` prints it (request line, headers, body) for every method, both
# versions and both bindings: what is sent, no more and no less (tests/golden/offline-http/).
HTTP_FIXED = ["--request-id", "req-1", "--endpoint", "http://agent.test/api"]
NO_V0_FORM = {"ListTasks"}  # 0.3 has none: --force sends the binding's extension form (one rule, every binding)


SPOKEN = [b.flag for b in BINDINGS if b.module]


def has_form(method: str, version: str, transport: str) -> bool:
    """Whether a binding has a form for a method under a version (0.3 gRPC has no ListTasks)."""
    return not (transport == "grpc" and version == "0.3" and METHODS[method].grpc_v0 is None)


@pytest.mark.parametrize("transport", SPOKEN)
@pytest.mark.parametrize("version", ["1.0", "0.3"])
@pytest.mark.parametrize("method", sorted(METHODS))
def test_offline_http_golden(cli, method, version, transport):
    argv = ARGV[method]
    extra = ["--force"] if method in NO_V0_FORM and version == "0.3" else []
    if extra:
        refused = cli(*argv, *HTTP_FIXED, "--transport", transport, "--a2a-version", version, "--offline")
        assert refused.exit_code == 2 and f"{method} has no V0 (0.3) form in the `spec` dialect" in refused.stderr
    if not has_form(method, version, transport):
        result = cli(*argv, *HTTP_FIXED, "--transport", transport, "--a2a-version", version, "--offline", *extra)
        assert result.exit_code == 2 and "has no gRPC form under A2A 0.3" in result.stderr
        return
    if method == "ListTasks" and version == "0.3":
        argv = ["tasks", "list"]  # 0.3's GET /v1/tasks takes no parameters
    result = cli(*argv, *HTTP_FIXED, "--transport", transport, "--a2a-version", version, "--offline", *extra)
    assert result.exit_code == 0, result.stderr
    if extra:
        assert f"0.3 has no {method}: sending the extension" in result.stderr
    text = result.stdout
    path = GOLDEN / "offline-http" / f"{method}.{'v1' if version == '1.0' else 'v0'}.{transport}.http"
    if os.environ.get("A2ACLI_UPDATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
    assert text == path.read_text(), f"{path.name} differs; regenerate with A2ACLI_UPDATE_GOLDEN=1 and review"
    head = text.split("\n\n")[0].splitlines()
    route = METHODS[method].rest if version == "1.0" else METHODS[method].rest_v0
    verb = route.verb if transport == "rest" else "POST"
    assert head[0].startswith(f"{verb} http://agent.test/api" if transport != "grpc" else f"{verb} grpc://agent.test:80/")
    assert f"A2A-Version: {version}" in head or f"a2a-version: {version}" in head
    if METHODS[method].streaming and transport != "grpc":
        assert "Accept: text/event-stream" in head and "Cache-Control: no-store" in head


def test_offline_shows_what_the_send_sends(cli, respx_mock):
    """--offline and the real send use one prepared request: same request line, headers, body."""
    import httpx

    seen: list[httpx.Request] = []
    respx_mock.route(host="agent.test").mock(side_effect=lambda r: seen.append(r) or httpx.Response(200, headers={"Content-Type": "text/event-stream"}, content=b'data: {"message": {"messageId": "m", "role": "ROLE_AGENT", "parts": [{"text": "hi"}]}}\n\n'))
    args = ["stream", "hello", "--message-id", "msg-1", *HTTP_FIXED, "--transport", "rest"]
    offline = cli(*args, "--offline").stdout
    assert cli(*args, "-o", "json").exit_code == 0
    (sent,) = seen
    head, _, body = offline.partition("\n\n")
    lines = head.splitlines()
    assert lines[0] == f"{sent.method} {sent.url}"
    assert lines[1:] == [f"{k.decode()}: {v.decode()}" for k, v in sent.headers.raw]
    assert json.loads(body) == json.loads(sent.content)
