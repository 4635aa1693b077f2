"""Issue 25, item 7: the demo agent's log goes to a file when asked (`a2a demo-server --log-file`),
and the tour (examples/tour.sh) keeps it out of its output unless asked (A2ACLI_DEMO_LOG)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.integration.conftest import _free_port

pytestmark = [pytest.mark.integration, pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell")]
ROOT = Path(__file__).resolve().parents[2]


def test_log_file_takes_the_servers_log_and_stderr_keeps_the_banner(a2a_bin, a2a_env, tmp_path):
    log = tmp_path / "demo.log"
    port = _free_port()
    env = a2a_env(A2ACLI_GLOBAL_CONFIG=os.devnull, A2ACLI_LOCAL_CONFIG=os.devnull)
    proc = subprocess.Popen([*a2a_bin, "demo-server", "--port", str(port), "--grpc-port", "0", "--log-level", "info", "--log-file", str(log)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/.well-known/agent-card.json", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        httpx.post(f"http://127.0.0.1:{port}/", json={"jsonrpc": "2.0", "id": 1, "method": "nope"}, timeout=5)
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    assert f"a2a demo agent on http://127.0.0.1:{port}" in err
    assert "INFO" not in err and "uvicorn" not in err, err  # the log is not printed...
    written = log.read_text()
    assert "INFO:  uvicorn.error: Application startup complete." in written  # ...it is in the file


def test_log_file_that_cannot_be_written_is_a_usage_error(run_a2a, tmp_path):
    done = run_a2a("demo-server", "--port", "0", "--log-file", str(tmp_path / "no" / "such" / "demo.log"), env={"A2ACLI_GLOBAL_CONFIG": os.devnull, "A2ACLI_LOCAL_CONFIG": os.devnull}, timeout=30)
    assert done.returncode == 2
    assert "--log-file: cannot write" in done.stderr and "No such file or directory" in done.stderr


def test_the_tour_keeps_the_demo_agents_log_out_of_its_output(a2a_bin, a2a_env, tmp_path):
    bindir = Path(a2a_bin[0]).parent if os.path.isabs(a2a_bin[0]) else Path(sys.executable).parent
    assert shutil.which("a2a", path=str(bindir)), "the tour runs the installed `a2a`"
    log = tmp_path / "tour-demo.log"
    port = _free_port()
    # (issue 46: the file is named as `a2a demo-server` names it, A2ACLI_DEMO_LOG_FILE)
    env = a2a_env(A2ACLI_GLOBAL_CONFIG=os.devnull, A2ACLI_LOCAL_CONFIG=os.devnull, A2ACLI_DEMO_PORT=str(port), A2ACLI_DEMO_LOG_FILE=str(log), A2ACLI_DEMO_LOG_LEVEL="info")
    env["PATH"] = f"{bindir}{os.pathsep}{env.get('PATH', '')}"
    done = subprocess.run(["sh", str(ROOT / "examples" / "tour.sh")], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=180)
    assert done.returncode == 0, done.stderr
    assert f"the demo agent is on http://127.0.0.1:{port} (its log: {log})" in done.stderr
    for noise in ("INFO", "WARNING", "uvicorn", "a2a demo agent on"):
        assert noise not in done.stderr and noise not in done.stdout, noise
    written = log.read_text()
    assert f"a2a demo agent on http://127.0.0.1:{port}" in written and "INFO:  uvicorn.error: Application startup complete." in written


def test_the_tour_never_runs_against_another_agent_on_its_port(a2a_bin, a2a_env, demo_agent, tmp_path):
    """Issue 46: when its own agent could not start (the port taken), the tour went on against
    whatever agent answered there."""
    bindir = Path(a2a_bin[0]).parent if os.path.isabs(a2a_bin[0]) else Path(sys.executable).parent
    taken = demo_agent.url.rsplit(":", 1)[1]
    env = a2a_env(A2ACLI_GLOBAL_CONFIG=os.devnull, A2ACLI_LOCAL_CONFIG=os.devnull, A2ACLI_DEMO_PORT=taken, A2ACLI_DEMO_LOG_FILE=str(tmp_path / "log"))
    env["PATH"] = f"{bindir}{os.pathsep}{env.get('PATH', '')}"
    done = subprocess.run(["sh", str(ROOT / "examples" / "tour.sh")], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert done.returncode == 3, done.stderr
    assert f"an agent already answers on http://127.0.0.1:{taken}: stop it, or pick another port" in done.stderr
    assert "a2a card fetch" not in done.stderr and done.stdout == ""  # no step of the tour ran


def test_the_tour_stops_when_its_agent_exits_before_answering(a2a_bin, a2a_env, tmp_path):
    bindir = Path(a2a_bin[0]).parent if os.path.isabs(a2a_bin[0]) else Path(sys.executable).parent
    env = a2a_env(A2ACLI_GLOBAL_CONFIG=os.devnull, A2ACLI_LOCAL_CONFIG=os.devnull, A2ACLI_DEMO_PORT=str(_free_port()), A2ACLI_DEMO_LOG_FILE=str(tmp_path / "log"), A2ACLI_DEMO_HOST="no-such-host.invalid")
    env["PATH"] = f"{bindir}{os.pathsep}{env.get('PATH', '')}"
    started = time.monotonic()
    done = subprocess.run(["sh", str(ROOT / "examples" / "tour.sh")], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert done.returncode == 3, done.stderr
    assert "the demo agent exited before it answered" in done.stderr and time.monotonic() - started < 12
