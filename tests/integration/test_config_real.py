"""Configuration files against the real demo agent: a project's `.env` (the official spec's form)
and `.a2acli.toml`, found from a directory below them; nothing of a call is stored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration


@pytest.fixture
def project(tmp_path: Path, run_a2a):
    """A project directory with a nested working directory, a global config dir and a $HOME of
    its own, and a runner of the installed `a2a` there (no -u: the files say where the agent is)."""
    proj = tmp_path / "home" / "work" / "proj"
    cwd = proj / "src" / "pkg"
    cwd.mkdir(parents=True)
    env = {
        "HOME": str(tmp_path / "home" / "work"),  # the project sits below $HOME, which is not searched
        "XDG_CONFIG_HOME": str(tmp_path / "xdg"),
    }  # no A2ACLI_GLOBAL_CONFIG: the global file at its platform path, $XDG_CONFIG_HOME/a2acli/config.toml
    return proj, tmp_path, run_a2a.bound(env=env, cwd=cwd, check=0)


@pytest.mark.spec("A2ACLI_CONFIG_002")
@pytest.mark.parametrize("name", ["A2ACLI_AGENT_CARD", "A2ACLI_URL"])
def test_a_project_env_and_toml_are_honoured_from_a_nested_directory(demo_agent, project, name):
    proj, _, run = project
    (proj / ".env").write_text(f"# the agent of this project\n{name}={demo_agent.url}\nDATABASE_URL=unrelated\n")
    (proj / ".a2acli.toml").write_text(f'output = "json"\n[agents."{demo_agent.url}"]\na2a-version = "0.3"\n')
    card = json.loads(run("card", "fetch").stdout)  # -o json from the TOML file
    assert card["name"] and card["protocolVersion"].startswith("0.3")  # the agent scope's version: the V0 card
    shown = json.loads(run("config", "show").stdout)["settings"]
    assert shown["url"] == {"value": demo_agent.url, "source": f"local {proj / '.env'}", "file": str(proj / ".env"), "section": None}
    assert shown["a2a-version"]["source"] == f"agent {demo_agent.url} (local {proj / '.a2acli.toml'})"
    assert shown["output"]["source"] == f"local {proj / '.a2acli.toml'}"
    # a flag and an env var still win over the files
    v1 = json.loads(run("card", "fetch", "--a2a-version", "1.0").stdout)
    assert {i["protocolVersion"] for i in v1["supportedInterfaces"]} == {"1.0", "0.3"}
    text = run("card", "fetch", "-o", "text")
    assert not text.stdout.lstrip().startswith("{")


@pytest.mark.spec("A2ACLI_CONFIG_002")
def test_config_file_names_the_agent_and_its_credentials(demo_agent, project):
    """A per-agent .env given with --config: the demo agent's extended card needs its API key."""
    _, tmp_path, run = project
    agent_env = tmp_path / "demo.env"
    agent_env.write_text(f"A2ACLI_AGENT_CARD={demo_agent.url}\nA2ACLI_API_KEY={demo_agent.api_key}\n")
    agent_env.chmod(0o600)
    proc = run("card", "extended", "-o", "json", "--config", str(agent_env))
    assert json.loads(proc.stdout)["name"] and "readable by others" not in proc.stderr
    missing = run("card", "extended", "-o", "json", "-u", demo_agent.url, check=None)
    assert missing.returncode != 0  # without the file, no key


@pytest.mark.spec("A2ACLI_CONFIG_001", "A2ACLI_INTERACT_005")
def test_nothing_of_a_send_is_stored(demo_agent, project):
    proj, tmp_path, run = project
    run("config", "set", "url", demo_agent.url)  # a global config file exists
    (proj / ".env").write_text(f"A2ACLI_URL={demo_agent.url}\n")
    out = json.loads(run("send", "--skill", "create-user", "-f", "projectUserId=u1", "-o", "json", "--as", "v1").stdout)
    task_id, context_id = out["task"]["id"], out["task"]["contextId"]
    run("tasks", "get", task_id, "-o", "json")
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    glob = tmp_path / "xdg" / "a2acli" / "config.toml"
    assert glob in files and oct(glob.stat().st_mode & 0o777) == "0o600"
    for p in files:
        text = p.read_text(errors="replace")
        assert task_id not in text and context_id not in text, p
