"""The package installs from the repository into a fresh virtual environment without extras, and
the installed `a2a` runs: --version, --help, and demo-server names the extra it needs (exit 1).

pip resolves the real dependencies (its wheel cache keeps this to a few seconds once warm). The
sources are copied first so the build never writes into the working tree."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest
from a2a_testkit import tool_env

from a2acli import __version__

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.integration


def _env() -> dict[str, str]:
    # the machine's HOME (pip's mirror settings), not the test's own (tests/conftest.py)
    env = {k: v for k, v in tool_env().items() if not k.startswith(("A2ACLI_", "PYTHON", "PIP_", "VIRTUAL_ENV"))}
    env["A2ACLI_GLOBAL_CONFIG"] = os.devnull
    env["NO_COLOR"] = "1"
    return env


def _copy_sources(base: Path) -> Path:
    src = base / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE", "CHANGELOG.md"):
        shutil.copy2(ROOT / name, src / name)
    shutil.copytree(ROOT / "a2acli", src / "a2acli", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return src


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """bin/ of a fresh venv with `pip install <copy of the repo>` (no extras) done."""
    base = tmp_path_factory.mktemp("install")
    src = _copy_sources(base)
    env_dir = base / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    bindir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    proc = subprocess.run(
        [str(bindir / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(src)],
        env=_env(), capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return bindir


def a2a(bindir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    exe = bindir / ("a2a.exe" if os.name == "nt" else "a2a")
    return subprocess.run([str(exe), *args], env=_env(), capture_output=True, text=True, timeout=60, cwd=bindir)


def test_version(installed):
    result = a2a(installed, "--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"a2a {__version__}"


def test_help_and_a_setup_command(installed):
    result = a2a(installed, "--help")
    assert result.returncode == 0, result.stderr
    for word in ("send", "tasks", "config", "auth", "completion", "demo-server"):
        assert word in result.stdout
    assert a2a(installed, "completion", "bash").returncode == 0
    assert a2a(installed, "config", "path").stdout.strip() == os.devnull


def test_it_is_the_copy_not_the_checkout(installed):
    """The installed package, not this repository (a2acli is importable here too)."""
    code = "import a2acli, sys; print(a2acli.__file__)"
    proc = subprocess.run([str(installed / "python"), "-c", code], env=_env(), capture_output=True, text=True, timeout=60, cwd=installed)
    assert proc.returncode == 0 and str(ROOT) not in proc.stdout and "site-packages" in proc.stdout


def test_demo_server_needs_the_extra(installed):
    result = a2a(installed, "demo-server", "--port", "0")
    assert result.returncode == 1
    # in words that work for this install (pip in its venv; the package is not on PyPI)
    assert f"{installed / 'python'} -m pip install 'a2a-sdk[http-server]<1.4,>=1.3' 'uvicorn<1,>=0.30'" in result.stderr


def test_mcp_needs_the_extra(installed):
    result = a2a(installed, "mcp")
    assert result.returncode == 1 and "a2a mcp needs the mcp extra" in result.stderr
    assert f"{installed / 'python'} -m pip install 'mcp<2,>=1.27'" in result.stderr
    assert result.stdout == ""  # stdout is the protocol's: nothing else, not even this error


def test_no_server_deps_came_along(installed):
    proc = subprocess.run([str(installed / "python"), "-m", "pip", "list", "--format=freeze", "--disable-pip-version-check"], env=_env(), capture_output=True, text=True, timeout=120)
    names = {line.split("==")[0].lower() for line in proc.stdout.splitlines()}
    assert "a2acli" in names and "httpx" in names and "typer" in names
    assert "a2a-sdk" not in names and "uvicorn" not in names
    assert sys.version_info >= (3, 10)


def test_the_licence_is_in_the_wheel_it_installed_with_its_spdx_expression(installed):
    code = (
        "import importlib.metadata as m; d = m.distribution('a2acli');"
        "print(d.metadata['License-Expression']);"
        "print(sorted(str(f) for f in d.files if 'licenses' in str(f)))"
    )
    proc = subprocess.run([str(installed / "python"), "-c", code], env=_env(), capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    expression, files = proc.stdout.splitlines()
    assert expression == "Apache-2.0"
    assert files == f"['a2acli-{__version__}.dist-info/licenses/LICENSE']"


def test_the_licence_is_in_the_sdist(installed, tmp_path):
    """The sdist as hatchling (the build backend, at the floor pyproject.toml asks for) builds it."""
    import tarfile

    src = _copy_sources(tmp_path)
    pip = [str(installed / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    proc = subprocess.run([*pip, "--target", str(tmp_path / "hatch"), "hatchling>=1.27,<2"], env=_env(), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    code = f"import sys; sys.path.insert(0, {str(tmp_path / 'hatch')!r}); from hatchling.build import build_sdist; print(build_sdist({str(tmp_path / 'dist')!r}))"
    proc = subprocess.run([str(installed / "python"), "-c", code], env=_env(), capture_output=True, text=True, timeout=120, cwd=src)
    assert proc.returncode == 0, proc.stderr
    with tarfile.open(tmp_path / "dist" / proc.stdout.strip()) as sdist:
        names = sdist.getnames()
    assert f"a2acli-{__version__}/LICENSE" in names
    assert (ROOT / "LICENSE").read_text().startswith("\n                                 Apache License\n")


def test_the_core_install_sends_to_a_card_that_lists_grpc_first_over_the_next_interface(installed, demo_agent, tmp_path):
    """No grpc extra here: the card's gRPC interface (listed first) is skipped, with a note, for the
    next one in card order; the message goes once, over JSON-RPC, and the task completes."""
    import json

    if demo_agent.grpc_url is None:
        pytest.skip("the demo agent needs the grpc extra in the test venv to list a gRPC interface")
    import httpx

    card = httpx.get(demo_agent.card_url, headers={"A2A-Version": "1.0"}).json()
    interfaces = card["supportedInterfaces"]
    card["supportedInterfaces"] = [i for i in interfaces if i["protocolBinding"] == "GRPC"] + [i for i in interfaces if i["protocolBinding"] != "GRPC"]
    path = tmp_path / "grpc-first.json"
    path.write_text(json.dumps(card))
    result = a2a(installed, "send", "-u", str(path), "-o", "json", "hello")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["task"]["status"]["state"] == "TASK_STATE_COMPLETED"
    assert f"skipping the Agent Card's gRPC interface {demo_agent.grpc_url}: the grpc extra is not installed" in result.stderr
    assert f"-m pip install 'a2a-sdk[grpc]<1.4,>=1.3'); using JSONRPC at {demo_agent.url}/" in result.stderr
