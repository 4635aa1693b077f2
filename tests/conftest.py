"""Test-wide settings, applied before a2acli is imported: a fixed terminal, no colour, no user
config or A2ACLI_* variables leaking in from the machine running the tests. Each test gets a HOME,
XDG directories and a global config path of its own (`_own_home`): the suite runs in parallel
(pytest-xdist, README), and no test may see what another wrote there."""

from __future__ import annotations

import os
import sys
from typing import Any

os.environ["TERMINAL_WIDTH"] = "100"
os.environ["_TYPER_FORCE_DISABLE_TERMINAL"] = "1"
os.environ["NO_COLOR"] = "1"
os.environ.pop("FORCE_COLOR", None)
for _k in [k for k in os.environ if k.startswith("A2ACLI_") and k != "A2ACLI_UPDATE_GOLDEN"]:
    del os.environ[_k]
os.environ["A2ACLI_GLOBAL_CONFIG"] = os.path.join(os.path.dirname(__file__), "no-such-config.toml")
os.environ["A2ACLI_LOCAL_CONFIG"] = os.devnull  # no .env / .a2acli.toml of the checkout's directories
# the Agent Card cache never the user's: a directory of the test run's own (each test gets its own, below)
import tempfile  # noqa: E402

os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="a2acli-tests-cache-")

# Hypothesis keeps its files (an example database, a cache of the source's constants) in
# ./.hypothesis unless told: here in a directory of this process (each pytest-xdist worker has its
# own), outside the working tree, removed when the process ends.
if "HYPOTHESIS_STORAGE_DIRECTORY" not in os.environ:
    import atexit
    import shutil
    import tempfile

    _HYPOTHESIS_DIR = tempfile.mkdtemp(prefix="a2acli-tests-hypothesis-")
    os.environ["HYPOTHESIS_STORAGE_DIRECTORY"] = _HYPOTHESIS_DIR
    atexit.register(shutil.rmtree, _HYPOTHESIS_DIR, ignore_errors=True)

# Byte-code (issue 43: the suite's time). Where PYTHONDONTWRITEBYTECODE is set, as on the shared
# machine, no run keeps what it compiles: every `a2a` a test starts would compile a2acli's modules
# again (about 0.1 s of CPU each, hundreds of times), and every pytest-xdist worker would rewrite the
# asserts of every test module again (some 6 s of its collection). So: a2acli is compiled to its
# __pycache__ once, before any test runs (as benchmarks/startup.py does, as pip does for an installed
# package); and this process keeps its own byte-code (the rewritten test modules too) under
# .pytest_cache/bytecode, outside the source tree (sys.pycache_prefix), where the next run finds it.
if sys.dont_write_bytecode and sys.pycache_prefix is None:
    import compileall
    from pathlib import Path

    _ROOT = Path(__file__).resolve().parent.parent
    if "PYTEST_XDIST_WORKER" not in os.environ:  # the controller, before it starts the workers
        compileall.compile_dir(_ROOT / "a2acli", quiet=1)
    sys.pycache_prefix = str(_ROOT / ".pytest_cache" / "bytecode")
    sys.dont_write_bytecode = False

import pytest  # noqa: E402
import respx.mocks  # noqa: E402

# respx intercepts at httpx's Client (its "httpx" mocker), above any transport: the same whether the
# client was built over a2a's lazy transports or, behind a proxy, over httpx's (transport/connections.py).
respx.mocks.DEFAULT_MOCKER = "httpx"
from typer.testing import CliRunner  # noqa: E402

from a2acli.main import app  # noqa: E402


@pytest.fixture(autouse=True)
def card_cache_dir(monkeypatch, tmp_path_factory):
    """Each test its own Agent Card cache (XDG_CACHE_HOME; a2a makes the directory when it first
    keeps a card), so a card one test's agent served is never another test's, and runs in a test
    (in-process or subprocess) share it as a user's runs do. Returns a2a's cache directory."""
    base = tmp_path_factory.mktemp("xdg-cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(base))
    return base / "a2acli"


@pytest.fixture
def cli():
    """Run `a2a ARGS…` in-process; returns the Result (stdout and stderr kept apart)."""
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Any:
        return runner.invoke(app, list(args), input=input, env=env, prog_name="a2a")

    return invoke


@pytest.fixture(autouse=True)
def _own_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """This test's HOME and XDG directories (empty), and its global config path (no file yet):
    `a2a config set`, `a2a auth login` (tokens sit beside the config) and `a2a completion install`
    write there, and an `a2a` a test starts (its A2ACLI_* scrubbed) reads its config from there."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    for name, sub in (("XDG_CONFIG_HOME", ".config"), ("XDG_CACHE_HOME", ".cache"), ("XDG_STATE_HOME", ".local/state"), ("XDG_DATA_HOME", ".local/share")):
        monkeypatch.setenv(name, str(home / sub))
    monkeypatch.setenv("A2ACLI_GLOBAL_CONFIG", str(home / ".config" / "a2acli" / "config.toml"))


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto` (the README's test command): two pytest-xdist workers a core. Most of the suite's
    time is waiting, not computing (servers' delays, timeouts that must expire, `a2a` and agents
    started in subprocesses): with one worker a core the cores idle about 40% of the run.
    PYTEST_XDIST_AUTO_NUM_WORKERS, when set, still decides (xdist's own rule, None here)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return 2 * len(os.sched_getaffinity(0))
