"""Integration fixtures: the installed `a2a` (`run_a2a`, the one way these tests run it; `a2a_env`,
the one environment for the few started in the background with Popen), and real a2a-sdk servers in subprocesses: the demo
agent (JSON-RPC + HTTP+JSON, and gRPC on a second port when grpcio is installed) and a REST-only
agent (`rest_only_server.py`)."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

START_TIMEOUT = 60.0  # seconds for the server to answer its card URL (generous: the suite runs in parallel, on machines that may be busy)
START_ATTEMPTS = 3  # a free port can be taken between probing and binding: retry with another
DEMO_API_KEY = "demo-key"  # serve()'s default
REST_ONLY_SERVER = Path(__file__).with_name("rest_only_server.py")
HAS_GRPC = importlib.util.find_spec("grpc") is not None  # the `grpc` extra: the demo serves gRPC too


@dataclass(frozen=True)
class DemoAgent:
    url: str  # base URL, no trailing slash: http://127.0.0.1:PORT
    api_key: str
    log: Path  # the server's stdout+stderr
    grpc_url: str | None = None  # the gRPC interface URL as the card lists it (grpc://127.0.0.1:PORT); None without grpcio

    @property
    def grpc_target(self) -> str | None:
        """host:port, as grpc dials it (and as a bare target, TLS by default to `a2a`)."""
        return self.grpc_url.removeprefix("grpc://") if self.grpc_url else None

    @property
    def rpc_url(self) -> str:
        """JSON-RPC endpoint (V1 and V0): the base URL's root."""
        return self.url + "/"

    @property
    def card_url(self) -> str:
        return self.url + "/.well-known/agent-card.json"


@dataclass(frozen=True)
class RestOnlyAgent:
    """The demo agent's skills behind the SDK's REST routes only (no JSON-RPC), V1 + V0."""

    url: str  # base URL, no trailing slash: V1 POST {url}/message:send, V0 POST {url}/v1/message:send
    api_key: str
    log: Path

    @property
    def card_url(self) -> str:
        return self.url + "/.well-known/agent-card.json"


@pytest.fixture(scope="session")
def a2a_bin() -> list[str]:
    """argv prefix that runs the installed CLI: the `a2a` console script next to this Python."""
    script = shutil.which("a2a", path=str(Path(sys.executable).parent))
    return [script] if script else [sys.executable, "-m", "a2acli"]


_UNSET: Any = object()
NO_CONFIG = {"A2ACLI_GLOBAL_CONFIG": os.devnull, "A2ACLI_LOCAL_CONFIG": os.devnull}  # no config file is read


def _a2a_env(**extra: str | None) -> dict[str, str]:
    """The environment of every `a2a` these tests start: this process's without the user's A2ACLI_*
    settings (`a2a_testkit.clean_env`, the one scrub), plus `extra` (a None value unsets)."""
    from a2a_testkit import clean_env

    return {k: v for k, v in (clean_env() | extra).items() if v is not None}


@pytest.fixture(scope="session")
def a2a_env() -> Callable[..., dict[str, str]]:
    """`a2a_env(**extra)` -> the env for an `a2a` that must run in the background (Popen: a server,
    `a2a mock`, a stream read line by line); everything else goes through `run_a2a`."""
    return _a2a_env


class A2aRunner:
    """Runs the installed `a2a ARGS… AFTER…` in a subprocess and returns the CompletedProcess
    (text stdout, stderr, returncode). The environment is this process's without the user's
    A2ACLI_* settings (`a2a_testkit.clean_env`) plus `env` (a None value unsets); stdin is /dev/null unless `input` is
    given; a run longer than `timeout` seconds fails the test (subprocess.TimeoutExpired). With
    `check` (an exit code), the exit code is asserted, with both streams in the message.
    `bound(...)` gives a runner with more arguments after ARGS (`-u URL`) or other defaults;
    `isolated()` one that reads no config file and asserts exit 0; `at(URL, EXTRA…)` the usual one:
    `a2a ARGS… -u URL EXTRA…`, isolated."""

    def __init__(
        self,
        prefix: list[str],
        *,
        after: tuple[str, ...] = (),
        env: dict[str, str | None] | None = None,
        check: int | None = None,
        cwd: Path | None = None,
        timeout: float = 60,
    ) -> None:
        self.prefix, self.after, self.env = list(prefix), tuple(after), dict(env or {})
        self.check, self.cwd, self.timeout = check, cwd, timeout

    def bound(
        self,
        *after: str,
        env: dict[str, str | None] | None = None,
        check: int | None = _UNSET,
        cwd: Path | None = _UNSET,
        timeout: float = _UNSET,
    ) -> A2aRunner:
        return A2aRunner(
            self.prefix,
            after=(*self.after, *after),
            env={**self.env, **(env or {})},
            check=self.check if check is _UNSET else check,
            cwd=self.cwd if cwd is _UNSET else cwd,
            timeout=self.timeout if timeout is _UNSET else timeout,
        )

    def isolated(self) -> A2aRunner:
        """This runner reading no config file (global or local), asserting exit 0 unless told."""
        return self.bound(env=NO_CONFIG, check=0)

    def at(self, url: str, *extra: str) -> A2aRunner:
        return self.isolated().bound("-u", url, *extra)

    def __call__(
        self,
        *args: str,
        check: int | None = _UNSET,
        env: dict[str, str | None] | None = None,
        input: str | None = None,
        cwd: Path | None = _UNSET,
        timeout: float = _UNSET,
    ) -> subprocess.CompletedProcess[str]:
        argv = [*self.prefix, *args, *self.after]
        proc = subprocess.run(
            argv,
            capture_output=True,
            text=True,
            env=_a2a_env(**{**self.env, **(env or {})}),
            input=input,
            stdin=None if input is not None else subprocess.DEVNULL,
            cwd=self.cwd if cwd is _UNSET else cwd,
            timeout=self.timeout if timeout is _UNSET else timeout,
        )
        expected = self.check if check is _UNSET else check
        if expected is not None:
            assert proc.returncode == expected, (
                f"{argv}\nexit {proc.returncode}\nstdout: {proc.stdout}\nstderr: {proc.stderr}"
            )
        return proc


@pytest.fixture(scope="session")
def run_a2a(a2a_bin: list[str]) -> A2aRunner:
    """The one way the integration tests run `a2a`: `run_a2a(*args, check=, env=, input=, cwd=,
    timeout=)` -> CompletedProcess; `run_a2a.bound("-u", url, check=0)` for a module's runner."""
    return A2aRunner(a2a_bin)


def _free_port(*not_these: int) -> int:
    while True:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        if port not in not_these:
            return port


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


def _wait_until_up(proc: subprocess.Popen[bytes], card_url: str, what: str = "demo agent") -> bool:
    """True once the card answers; False if the process died first. Bounded by START_TIMEOUT."""
    deadline = time.monotonic() + START_TIMEOUT
    with httpx.Client(timeout=1.0, trust_env=False) as client:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                return False
            try:
                if client.get(card_url).status_code == 200:
                    return True
            except httpx.TransportError:
                pass
            time.sleep(0.1)
    raise RuntimeError(f"{what} did not answer {card_url} within {START_TIMEOUT:.0f}s")


@contextlib.contextmanager
def _serve(argv: Callable[[int], list[str]], log: Path, what: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """Start `argv(port)` on a free port of 127.0.0.1 (stdout+stderr to `log`; `env`, this process's
    if None), yield its base URL once its card answers, stop it at the end. Retries on another port
    if the port was taken."""
    for _attempt in range(START_ATTEMPTS):
        port = _free_port()
        with log.open("wb") as out:
            proc = subprocess.Popen(argv(port), stdout=out, stderr=subprocess.STDOUT, env=env)
        url = f"http://127.0.0.1:{port}"
        try:
            up = _wait_until_up(proc, url + "/.well-known/agent-card.json", what)
        except BaseException:
            _stop(proc)
            raise
        if up:
            try:
                yield url
            finally:
                _stop(proc)
            return
        _stop(proc)
        if b"address already in use" not in log.read_bytes().lower():
            break
    raise RuntimeError(f"{what} failed to start:\n{log.read_text(errors='replace')}")


@pytest.fixture(scope="session")
def demo_agent(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoAgent]:
    """The demo agent on 127.0.0.1 and a free port (gRPC on another), started once per session,
    stopped at the end.

    Started with `python -c` so it does not depend on the `a2a` command (main.py)."""
    log = tmp_path_factory.mktemp("demo-agent") / "server.log"
    grpc_ports: list[int] = []

    def argv(port: int) -> list[str]:
        grpc_ports.append(_free_port(port))  # explicit: port + 1 (the default) may be taken
        return [sys.executable, "-c", f"from a2acli.demo.server import serve; serve(port={port}, grpc_port={grpc_ports[-1]})"]

    with _serve(argv, log, "demo agent") as url:
        grpc_url = f"grpc://127.0.0.1:{grpc_ports[-1]}" if HAS_GRPC else None
        yield DemoAgent(url=url, api_key=DEMO_API_KEY, log=log, grpc_url=grpc_url)


@pytest.fixture(scope="session")
def rest_only_agent(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RestOnlyAgent]:
    """A real a2a-sdk server with ONLY the REST routes (v0.3 compat on) and a card listing only
    HTTP+JSON (1.0 and 0.3), on 127.0.0.1 and a free port; once per session."""
    log = tmp_path_factory.mktemp("rest-only-agent") / "server.log"

    def argv(port: int) -> list[str]:
        return [sys.executable, str(REST_ONLY_SERVER), str(port)]

    with _serve(argv, log, "REST-only agent") as url:
        yield RestOnlyAgent(url=url, api_key=DEMO_API_KEY, log=log)
