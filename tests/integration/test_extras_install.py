"""The hint that adds an extra works as printed, one extra after another, where a2a was installed
with pipx or as a uv tool (issue 46: a second `pipx inject` of a2a-sdk did nothing without
--force; a second `uv tool install --with` dropped the first one's packages). Each test installs a
copy of the repository with the tool in a home of its own, runs the hint for grpc, then the one
for server, then the one for verify, exactly as a2a prints them, and imports what all three bring.
Skipped where the tool is not installed (pipx and uv are no dependencies of the project)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.test_install import _copy_sources, _env

pytestmark = pytest.mark.integration
EXTRAS = ("grpc", "server", "verify")
BROUGHT = "import grpc, uvicorn, starlette, cryptography"  # what grpc, server and verify add


def _run(argv: list[str] | str, env: dict[str, str], **kw) -> subprocess.CompletedProcess[str]:
    shell = isinstance(argv, str)
    return subprocess.run(argv, shell=shell, env=env, capture_output=True, text=True, timeout=600, **kw)


def _each_hint_in_turn(python: Path, env: dict[str, str]) -> list[str]:
    """Run the hint a2a gives for each extra, asked after the previous one ran (the demo server's
    own message for server: the hint as a user reads it)."""
    hints = []
    for extra in EXTRAS:
        if extra == "server":
            said = _run([str(python.parent / "a2a"), "demo-server", "--port", "0"], env)
            assert said.returncode == 1, said.stdout + said.stderr
            hint = _run(
                [str(python), "-c", "from a2acli.extras import install_hint; print(install_hint('server'))"], env
            )
            assert hint.stdout.strip() in said.stderr, said.stderr
        else:
            hint = _run(
                [str(python), "-c", f"from a2acli.extras import install_hint; print(install_hint({extra!r}))"], env
            )
        command = hint.stdout.strip()
        hints.append(command)
        done = _run(command, env)
        assert done.returncode == 0, (command, done.stdout + done.stderr)
    return hints


@pytest.mark.skipif(shutil.which("pipx") is None, reason="pipx is not installed here")
def test_pipx_inject_hints_add_one_extra_after_another(tmp_path):
    env = _env() | {"PIPX_HOME": str(tmp_path / "pipx"), "PIPX_BIN_DIR": str(tmp_path / "bin")}
    installed = _run(["pipx", "install", "--python", sys.executable, str(_copy_sources(tmp_path))], env)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    python = tmp_path / "pipx" / "venvs" / "a2acli" / "bin" / "python"
    hints = _each_hint_in_turn(python, env)
    brought = _run([str(python), "-c", BROUGHT], env)
    assert brought.returncode == 0, (hints, brought.stderr)
    assert all(h.startswith("pipx inject --force a2acli ") for h in hints), hints


@pytest.mark.skipif(shutil.which("uv") is None, reason="uv is not installed here")
def test_uv_tool_hints_add_one_extra_after_another(tmp_path):
    env = _env() | {
        "UV_TOOL_DIR": str(tmp_path / "tools"),
        "UV_TOOL_BIN_DIR": str(tmp_path / "bin"),
        "UV_PYTHON": sys.executable,
    }
    installed = _run(["uv", "tool", "install", str(_copy_sources(tmp_path))], env)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    python = tmp_path / "tools" / "a2acli" / "bin" / "python"
    hints = _each_hint_in_turn(python, env)
    assert all(h.startswith("uv tool install --with ") for h in hints), hints
    assert hints[-1].count("--with") == 4  # grpc's, server's two, verify's: each said once
    assert _run([str(python), "-c", BROUGHT], env).returncode == 0
    assert os.access(tmp_path / "bin" / "a2a", os.X_OK)
