"""A2ACLI_INTERACT_004 against the demo agent: the command `a2a` prints to continue a task that
needs input, run exactly as printed (same directory, same environment), continues it, over
JSON-RPC, HTTP+JSON and gRPC and under 1.0 and 0.3, when the agent, binding and version were chosen
by a --config file and flags. And A2ACLI_VER_002: a required extension the card declares is named
before the call, and sent when --extension declares it."""

from __future__ import annotations

import json
import shlex

import pytest

pytestmark = pytest.mark.integration


def printed(stderr: str) -> list[str]:
    return [line[2:] for line in stderr.splitlines() if line.startswith("  a2a ")]


@pytest.mark.spec("A2ACLI_INTERACT_004")
@pytest.mark.parametrize("version", ["1.0", "0.3"])
@pytest.mark.parametrize("transport", ["jsonrpc", "rest", "grpc"])
def test_the_printed_continue_command_runs_as_printed(run_a2a, demo_agent, tmp_path, transport, version):
    if transport == "grpc" and not demo_agent.grpc_url:
        pytest.skip("grpcio is not installed: the demo agent serves no gRPC")
    home = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "xdg")}  # no user config: only the file below
    a2a = run_a2a.bound(env=home, cwd=tmp_path)  # in tmp_path, as the printed command is run
    (tmp_path / "agentA.env").write_text(f"A2ACLI_URL={demo_agent.url}\n")
    flags = ["--transport", transport, "--a2a-version", version] + (["--plaintext"] if transport == "grpc" else [])

    first = a2a("--config", "agentA.env", "send", "--skill", "ask", *flags, "-o", "text", check=0)
    assert "State: input-required" in first.stdout
    (command,) = printed(first.stderr)
    assert " --config agentA.env " in command and f"--transport {transport}" in command
    argv = shlex.split(command)
    assert argv[0] == "a2a" and argv[-1] == "your reply"
    reply = a2a(*argv[1:-1], "blue", "-o", "json", check=0)
    doc = json.loads(reply.stdout)
    task = doc.get("task", doc)  # 0.3: the Task itself
    assert task["status"]["state"] in ("TASK_STATE_COMPLETED", "completed")
    if transport == "jsonrpc" and version == "1.0":  # and without the --config the printed command fails: nothing chose the agent
        bare = [a for a in argv[1:-1] if a not in ("--config", "agentA.env")]
        proc = a2a(*bare, "blue")
        assert proc.returncode == 2 and "no agent given" in proc.stderr


@pytest.mark.spec("A2ACLI_VER_002")
@pytest.mark.parametrize("transport", ["jsonrpc", "rest", "grpc"])
def test_a_required_extension_is_named_before_the_call_and_sent_when_declared(run_a2a, demo_agent, tmp_path, transport):
    """The demo agent's card, copied with a required extension added: the warning comes before the
    call, and --extension carries the URI in the request (--debug shows it), over each binding."""
    import httpx

    if transport == "grpc" and not demo_agent.grpc_url:
        pytest.skip("grpcio is not installed: the demo agent serves no gRPC")
    card = httpx.get(demo_agent.card_url, headers={"A2A-Version": "1.0"}, trust_env=False).json()
    uri = "https://ext.test/trace/v1"
    card["capabilities"]["extensions"] = [{"uri": uri, "required": True}]
    path = tmp_path / "card.json"
    path.write_text(json.dumps(card))
    a2a = run_a2a.bound(env={"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "xdg")})
    argv = ["send", "hi", "-u", path.as_uri(), "--transport", transport, "-o", "json", "--debug"] + (["--plaintext"] if transport == "grpc" else [])
    bare = a2a(*argv)
    assert bare.returncode == 0, bare.stderr
    warned = bare.stderr.index(f"the Agent Card requires the extension {uri}")
    assert warned < bare.stderr.index("> ")  # said before the request went
    declared = a2a(*argv, "--extension", uri)
    assert declared.returncode == 0, declared.stderr
    assert "requires the extension" not in declared.stderr and uri in declared.stderr.split("> ", 1)[1]
