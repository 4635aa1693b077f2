"""The official CLI spec's names against the real demo agent (a2a-sdk): `-a/--agent-card` in each
reference form, `a2a help`, `-v`, `--history`, `--no-wait`, `--watch`, `--data FILE`,
`--svc-param` and `--extension` over every binding."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.integration
BINDINGS = ["jsonrpc", "rest", "grpc"]


@pytest.fixture(scope="module")
def a2a(run_a2a):
    """`a2a ARGS…` (no -u added: each test names the agent its own way); asserts the exit code."""
    return run_a2a.bound(env={"A2ACLI_GLOBAL_CONFIG": os.devnull}, check=0)


def doc(proc: subprocess.CompletedProcess[str]) -> Any:
    return json.loads(proc.stdout)


def over(transport: str, demo_agent: Any) -> list[str]:
    """The flags that pick a binding (the demo's gRPC is plaintext on host:port)."""
    if transport == "grpc" and not demo_agent.grpc_url:
        pytest.skip("grpcio is not installed: the demo agent serves no gRPC")
    return ["--transport", transport] + (["--plaintext"] if transport == "grpc" else [])


@pytest.fixture(scope="module")
def card_file(a2a, demo_agent, tmp_path_factory) -> Path:
    """The demo agent's card, saved as a local file (its interfaces point at the running agent)."""
    path = tmp_path_factory.mktemp("card") / "agent-card.json"
    path.write_text(a2a("card", "get", "-a", demo_agent.url, "-o", "json").stdout)
    return path


def reference(form: str, demo_agent: Any, card_file: Path) -> tuple[str, Path | None]:
    """(the -a value, the working directory to run in) for each form of an Agent Card reference."""
    host_port = demo_agent.url.removeprefix("http://")
    return {
        "host:port": (host_port, None),
        "localhost:port": ("localhost:" + host_port.split(":")[1], None),
        "origin": (demo_agent.url, None),
        "card URL": (demo_agent.card_url, None),
        "file URL": (card_file.as_uri(), None),
        "absolute path": (str(card_file), None),
        "relative path": (card_file.name, card_file.parent),
    }[form]


FORMS = ["host:port", "localhost:port", "origin", "card URL", "file URL", "absolute path", "relative path"]


@pytest.mark.spec("A2ACLI_CARD_GET_001")
@pytest.mark.parametrize("form", FORMS)
def test_card_get_with_each_form_of_agent_card(a2a, demo_agent, card_file, form):
    ref, cwd = reference(form, demo_agent, card_file)
    card = doc(a2a("card", "get", "--agent-card", ref, "-o", "json", cwd=cwd))
    assert card["name"] == "a2a demo agent"
    assert any(i["protocolBinding"] == "JSONRPC" for i in card["supportedInterfaces"])


@pytest.mark.spec("A2ACLI_CARD_GET_001")
@pytest.mark.parametrize("transport", ["jsonrpc", "rest"])
@pytest.mark.parametrize("form", FORMS)
def test_send_through_each_form_uses_the_cards_interfaces(a2a, demo_agent, card_file, form, transport):
    ref, cwd = reference(form, demo_agent, card_file)
    out = doc(a2a("send", "hello", "-a", ref, "--transport", transport, "-o", "json", cwd=cwd))
    task = out["task"]
    assert task["status"]["state"] == "TASK_STATE_COMPLETED"
    assert task["artifacts"][0]["parts"][0]["text"] == "echo: hello"


@pytest.mark.spec("A2ACLI_CARD_GET_001")
def test_agent_card_from_the_environment(a2a, demo_agent):
    out = doc(a2a("task", "list", "--page-size", "1", "-o", "json", env={"A2ACLI_AGENT_CARD": demo_agent.url.removeprefix("http://")}))
    assert "tasks" in out


@pytest.mark.spec("A2ACLI_CLI_001")
def test_help_send_is_send_help(a2a):
    via_help = a2a("help", "send")
    assert via_help.stdout == a2a("send", "--help").stdout
    assert "Usage: a2a send" in via_help.stdout and "Shared options: -u/--url" in via_help.stdout
    assert "--svc-param NAME=VALUE" in a2a("help", "options").stdout  # the shared options, each explained
    top = a2a("help")
    assert top.stdout == a2a("--help").stdout and "help" in top.stdout
    unknown = a2a("help", "sendd", check=2)
    assert "no command 'sendd'" in unknown.stderr and "a2a help send" in unknown.stderr


@pytest.mark.spec("A2ACLI_CLI_001")
@pytest.mark.parametrize("flag", ["-v", "--version"])
def test_version(a2a, flag):
    from a2acli import __version__

    assert a2a(flag).stdout.strip() == f"a2a {__version__}"


@pytest.mark.spec("A2ACLI_TASK_GET_001")
@pytest.mark.parametrize("transport", ["jsonrpc", "rest"])
def test_task_get_history(a2a, demo_agent, transport):
    """A task with a few turns (`ask`, then the answer): --history N caps the history returned."""
    conn = ["-a", demo_agent.url, "--transport", transport]
    asked = doc(a2a("send", "--skill", "ask", *conn, "-o", "json"))["task"]
    a2a("send", "--task-id", asked["id"], "Ada", *conn, "-o", "json")
    full = doc(a2a("task", "get", asked["id"], *conn, "-o", "json"))
    assert len(full["history"]) >= 3
    for n in (0, 1, 2):
        got = doc(a2a("task", "get", asked["id"], "--history", str(n), *conn, "-o", "json"))
        assert len(got.get("history", [])) == n, got
        assert got["artifacts"]  # artifacts come whatever the history length


@pytest.mark.spec("A2ACLI_SEND_002", "A2ACLI_TASK_POLL_001")
@pytest.mark.parametrize("flag", ["--no-wait", "--return-immediately"])
def test_no_wait_then_watch(a2a, demo_agent, flag):
    sent = doc(a2a("send", "--skill", "slow", "-f", "steps:=3", "-f", "delay:=0.3", flag, "-a", demo_agent.url, "-o", "json"))
    task = sent["task"]
    assert task["id"] and task["contextId"]
    assert task["status"]["state"] in ("TASK_STATE_SUBMITTED", "TASK_STATE_WORKING")
    done = doc(a2a("task", "get", task["id"], "--watch", "--poll-interval", "0.1", "-a", demo_agent.url, "-o", "json"))
    assert done["status"]["state"] == "TASK_STATE_COMPLETED"


@pytest.mark.spec("A2ACLI_SEND_006")
def test_data_names_a_file(a2a, demo_agent, tmp_path):
    (tmp_path / "d.json").write_text('{"n": 1}')
    out = doc(a2a("send", "--data", "d.json", "-a", demo_agent.url, "-o", "json", cwd=tmp_path))
    assert out["task"]["artifacts"][0]["parts"][0]["text"] == 'echo: [{"n":1}]'


@pytest.mark.spec("A2ACLI_AUTH_001")
@pytest.mark.parametrize("transport", BINDINGS)
def test_svc_param_reaches_the_agent(a2a, demo_agent, transport):
    """The demo's admin-report skill completes only when the agent received its X-API-Key
    header (gRPC: metadata); here it travels as a plain service parameter."""
    conn = ["-a", demo_agent.url, *over(transport, demo_agent), "-o", "json"]
    without = doc(a2a("send", "--skill", "admin-report", *conn))["task"]
    assert without["status"]["state"] == "TASK_STATE_REJECTED"
    proc = a2a("send", "--skill", "admin-report", "--svc-param", f"X-API-Key:{demo_agent.api_key}", "--svc-param", "traceparent=00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", *conn, "--debug")
    task = doc(proc)["task"]
    assert task["status"]["state"] == "TASK_STATE_COMPLETED"
    assert task["artifacts"][0]["name"] == "report"
    # --debug shows the service parameters it sent, a credential's value redacted
    sent = [line for line in proc.stderr.splitlines() if line.startswith("> ")]
    assert any(line.lower() == "> traceparent: 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" for line in sent)
    assert any(line.lower() == "> x-api-key: <redacted>" for line in sent)
    assert demo_agent.api_key not in proc.stderr


@pytest.mark.spec("A2ACLI_VER_002")
@pytest.mark.parametrize("transport", BINDINGS)
@pytest.mark.parametrize("version", ["1.0", "0.3"])
def test_extension_is_sent_under_the_versions_name(a2a, demo_agent, transport, version):
    proc = a2a("send", "hello", "--extension", "https://ext.test/a/v1", "--extension", "urn:ext:b", "-a", demo_agent.url, *over(transport, demo_agent), "--a2a-version", version, "-o", "json", "--debug")
    out = doc(proc)
    task = out.get("task", out)  # 0.3: a bare Task over JSON-RPC, wrapped over HTTP+JSON and gRPC
    assert task["status"]["state"] in ("TASK_STATE_COMPLETED", "completed")
    name = "A2A-Extensions" if version == "1.0" else "X-A2A-Extensions"
    calls = proc.stderr.split("\n> POST ")[1:]  # the call, after the card's GET
    assert calls, proc.stderr
    sent = [line.lower() for line in calls[-1].splitlines() if line.startswith("> ")]
    assert f"> {name.lower()}: https://ext.test/a/v1,urn:ext:b" in sent
    other = "x-a2a-extensions" if version == "1.0" else "a2a-extensions"
    assert not any(line.startswith(f"> {other}:") for line in sent)
