"""Issue 10 against the real servers that show each symptom: a2a-sdk 0.3.x and 0.2.x, @a2a-js/sdk
0.3.x and fasta2a, each a tiny echo agent (tests/integration/thirdparty/) on 127.0.0.1 and a free
port. None of them can share the test venv (a2a-sdk 1.x): each gets a venv (or npm folder) of its
own under .cache/servers/ in the repo (git-ignored), made by the first run from the package
registries and reused (under a lock: the suite runs in parallel, and two workers may want the same
one). A registry that refuses a package skips that server's tests, loudly."""

from __future__ import annotations

import contextlib
import fcntl
import json
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from a2a_testkit import tool_env

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".cache" / "servers"
HERE = Path(__file__).with_name("thirdparty")
INSTALL_TIMEOUT = 240  # seconds for one venv or npm folder (cached afterwards)
START_TIMEOUT = 60.0  # generous: the suite runs in parallel on machines that may be busy
# a registry (or the network to it) refused: skip, saying so; any other failure fails the test
REFUSED = ("No matching distribution", "Could not find a version", "E404", "ETARGET", "ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ConnectionError", "NewConnectionError", "403", "Network is unreachable", "timed out")

PYTHON_SERVERS = {
    "sdk03": ("a2a-sdk[http-server]>=0.3,<0.4", "uvicorn"),
    "sdk02": ("a2a-sdk>=0.2,<0.3", "uvicorn"),
    "fasta2a": ("fasta2a", "uvicorn"),
    "pya2a": ("python-a2a==0.5.10",),
}
NPM_SERVERS = {"js03": ("@a2a-js/sdk@^0.3", "express@^4"), "js13": ("@a2a-js/sdk@^1.3", "express@^4")}


def _cached(name: str, spec: tuple[str, ...]) -> bool:
    stamp = CACHE / f"{name}.stamp"
    return stamp.is_file() and stamp.read_text() == " ".join(spec) and (CACHE / name).is_dir()


@contextlib.contextmanager
def _locked(name: str) -> Iterator[None]:
    """CACHE/name for this process alone while it is checked or made (another pytest-xdist worker
    waits, then finds it made)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    with (CACHE / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _installed(name: str, spec: tuple[str, ...], make: list[list[str]], cwd: Path) -> Path:
    """CACHE/name, made once by running `make` (stamped with `spec`), reused afterwards. pip and npm
    run with the machine's HOME (their mirror and registry settings), not the test's."""
    target, stamp = CACHE / name, CACHE / f"{name}.stamp"
    if _cached(name, spec):
        return target
    log = []
    try:
        for argv in make:
            proc = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=INSTALL_TIMEOUT, env=tool_env())
            log.append(proc.stdout + proc.stderr)
            if proc.returncode != 0:
                break
        else:
            stamp.write_text(" ".join(spec))
            return target
    except subprocess.TimeoutExpired:
        pytest.skip(f"REGISTRY: installing {' '.join(spec)} into {target} took over {INSTALL_TIMEOUT}s; server tests skipped")
    text = "\n".join(log)[-2000:]
    if any(r in text for r in REFUSED):
        pytest.skip(f"REGISTRY REFUSED {' '.join(spec)}: its server tests are skipped\n{text}")
    pytest.fail(f"installing {' '.join(spec)} into {target} failed:\n{text}")


def python_env(name: str) -> Path:
    spec = PYTHON_SERVERS[name]
    target = CACHE / name
    with _locked(name):
        if not _cached(name, spec):
            shutil.rmtree(target, ignore_errors=True)
        pip = [str(target / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check", *spec]
        return _installed(name, spec, [[sys.executable, "-m", "venv", str(target)], pip], ROOT) / "bin" / "python"


def npm_folder(name: str) -> Path:
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are needed for the @a2a-js/sdk server")
    spec = NPM_SERVERS[name]
    target = CACHE / name
    with _locked(name):
        if not _cached(name, spec):
            shutil.rmtree(target, ignore_errors=True)
            target.mkdir(parents=True)
            (target / "package.json").write_text('{"private": true}\n')
        return _installed(name, spec, [["npm", "install", "--no-audit", "--no-fund", "--silent", *spec]], target)


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def serve(argv: list[str], card_path: str, log: Path, *, cwd: Path | None = None, env: dict[str, str] | None = None) -> Iterator[str]:
    """Start `argv + [port]` on a free port of 127.0.0.1; its base URL once `card_path` answers."""
    port = _free_port()
    with log.open("wb") as out:
        proc = subprocess.Popen([*argv, str(port)], stdout=out, stderr=subprocess.STDOUT, cwd=cwd, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT
        with httpx.Client(timeout=1.0, trust_env=False) as client:
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"{argv} exited:\n{log.read_text(errors='replace')}")
                with contextlib.suppress(httpx.TransportError):
                    if client.get(url + card_path).status_code == 200:
                        break
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{argv} did not answer {card_path} in {START_TIMEOUT:.0f}s:\n{log.read_text(errors='replace')}")
                time.sleep(0.1)
        yield url
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)


@pytest.fixture(scope="module")
def sdk03(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    python = python_env("sdk03")
    with serve([str(python), str(HERE / "sdk_echo_server.py")], "/.well-known/agent-card.json", tmp_path_factory.mktemp("sdk03") / "log") as url:
        yield url


@pytest.fixture(scope="module")
def sdk03rest(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The echo agent on a2a-sdk 0.3's HTTP+JSON application (the /v1 routes at the root)."""
    python = python_env("sdk03")
    with serve([str(python), str(HERE / "sdk_rest_echo_server.py")], "/.well-known/agent-card.json", tmp_path_factory.mktemp("sdk03rest") / "log") as url:
        yield url


@pytest.fixture(scope="module")
def sdk02(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    python = python_env("sdk02")
    with serve([str(python), str(HERE / "sdk_echo_server.py")], "/.well-known/agent.json", tmp_path_factory.mktemp("sdk02") / "log") as url:
        yield url


@pytest.fixture(scope="module")
def js03(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = npm_folder("js03")
    script = folder / "js_echo_server.mjs"  # beside node_modules: ESM resolves packages from the script's folder
    shutil.copyfile(HERE / "js_echo_server.mjs", script)
    with serve(["node", str(script)], "/.well-known/agent-card.json", tmp_path_factory.mktemp("js03") / "log", cwd=folder) as url:
        yield url


@pytest.fixture(scope="module")
def js03rest(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The same echo agent on a2a-js 0.3's HTTP+JSON mount (/rest): errors are {"code", "message"}."""
    folder = npm_folder("js03")
    script = folder / "js_rest_echo_server.mjs"
    shutil.copyfile(HERE / "js_rest_echo_server.mjs", script)
    with serve(["node", str(script)], "/.well-known/agent-card.json", tmp_path_factory.mktemp("js03rest") / "log", cwd=folder) as url:
        yield url


@pytest.fixture(scope="module")
def js13(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """@a2a-js/sdk 1.x: a card built from the SDK's objects (security scheme in its $case form)."""
    folder = npm_folder("js13")
    script = folder / "js1_echo_server.mjs"
    shutil.copyfile(HERE / "js1_echo_server.mjs", script)
    with serve(["node", str(script)], "/.well-known/agent-card.json", tmp_path_factory.mktemp("js13") / "log", cwd=folder) as url:
        yield url


@pytest.fixture(scope="module")
def js13compat(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """@a2a-js/sdk 1.x with its 0.3 compat layer on: JSON-RPC and HTTP+JSON (/rest) in 1.0 and 0.3."""
    folder = npm_folder("js13")
    script = folder / "js1_compat_echo_server.mjs"
    shutil.copyfile(HERE / "js1_compat_echo_server.mjs", script)
    with serve(["node", str(script)], "/.well-known/agent-card.json", tmp_path_factory.mktemp("js13compat") / "log", cwd=folder) as url:
        yield url


@pytest.fixture(scope="module")
def fasta2a(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    python = python_env("fasta2a")
    with serve([str(python), str(HERE / "fasta2a_echo_server.py")], "/.well-known/agent-card.json", tmp_path_factory.mktemp("fasta2a") / "log") as url:
        yield url


@pytest.fixture(scope="module")
def pya2a(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    python = python_env("pya2a")
    with serve([str(python), str(HERE / "python_a2a_echo_server.py")], "/.well-known/agent.json", tmp_path_factory.mktemp("pya2a") / "log") as url:
        yield url


SETTINGS = {"A2ACLI_GLOBAL_CONFIG": "/nonexistent/a2a.toml", "NO_COLOR": "1"}


@pytest.fixture(scope="module")
def a2a(run_a2a):
    """`a2a ARGS…` without a config file or colour (exit code not asserted: the tests read it)."""
    return run_a2a.bound(env=SETTINGS)


def index(d: Path) -> list[dict]:
    return [json.loads(line) for line in (d / "index.jsonl").read_text().splitlines()]


# -- a2a-sdk 0.2.x: a card from before 0.3 ---------------------------------------------------------


def test_sdk02_card_is_read_as_v0_with_one_note(a2a, sdk02):
    sent = a2a("send", "hello", "-u", sdk02, "--a2a-version", "0.3")
    assert sent.returncode == 0, sent.stderr
    assert "echo: hello" in sent.stdout
    assert sent.stderr.count("protocolVersion 0.2.6 (before 0.3): read as 0.3") == 1
    refused = a2a("send", "hello", "-u", sdk02)
    assert refused.returncode == 1 and "pass --a2a-version 0.3" in refused.stderr


def test_sdk02_auto_chooses_0_3(a2a, sdk02, tmp_path):
    sent = a2a("send", "hello", "-u", sdk02, "--dump", str(tmp_path), env={"A2ACLI_A2A_VERSION": "auto"})
    assert sent.returncode == 0, sent.stderr
    assert "--a2a-version auto: using 0.3 (the card offers 0.2.6, not 1.0)" in sent.stderr
    assert [e["version"] for e in index(tmp_path) if e.get("files") and e["method"] != "card"] == ["0.3"]


# -- a2a-sdk 0.3.x ---------------------------------------------------------------------------------


def test_sdk03_card_fetch_notes_the_version_not_offered(a2a, sdk03):
    fetched = a2a("card", "fetch", "-u", sdk03)
    assert fetched.returncode == 0
    assert f"calls need --a2a-version 0.3, e.g. a2a send -u {sdk03} --a2a-version 0.3 hello" in fetched.stderr


def test_sdk03_a_path_without_a_card_names_the_host_card(a2a, sdk03):
    sent = a2a("send", "hi", "-u", f"{sdk03}/agents/billing", "--a2a-version", "0.3")
    assert sent.returncode == 0, sent.stderr
    assert f"no Agent Card under {sdk03}/agents/billing (HTTP 404): using the host's card at {sdk03}/.well-known/agent-card.json ('sdk echo')" in sent.stderr


def test_sdk03_hints(a2a, sdk03):
    listed = a2a("tasks", "list", "-u", sdk03, "--a2a-version", "0.3")
    assert listed.returncode == 2 and "--a2a-version 1.0" not in listed.stderr and "offers only 0.3" in listed.stderr
    missing = a2a("tasks", "get", "nope", "-u", sdk03, "--a2a-version", "0.3")
    assert "TaskNotFoundError" in missing.stderr and "tasks list" not in missing.stderr
    unknown = a2a("call", "GetTask", '{"id": "x"}', "--rpc-url", sdk03 + "/")
    assert "MethodNotFoundError" in unknown.stderr and "pass --a2a-version 0.3" in unknown.stderr  # the wire code stays in -o json's a2aCode


def test_sdk03_subscribe_to_a_finished_task_and_push_config_ids(a2a, sdk03):
    sent = a2a("send", "hi", "-u", sdk03, "--a2a-version", "0.3", "-o", "json")
    task_id = json.loads(sent.stdout)["id"]
    sub = a2a("tasks", "subscribe", task_id, "-u", sdk03, "--a2a-version", "0.3")
    assert sub.returncode == 0, sub.stderr
    assert "already finished (completed)" in sub.stderr and "echo: hi" in sub.stdout
    created = a2a("push-config", "create", task_id, "--webhook-url", "http://127.0.0.1:9/hook", "-u", sdk03, "--a2a-version", "0.3")
    assert created.returncode == 0, created.stderr
    got = a2a("push-config", "get", task_id, "another-id", "-u", sdk03, "--a2a-version", "0.3")
    assert "asked for push config 'another-id', the agent answered config" in got.stderr
    deleted = a2a("push-config", "delete", task_id, "unknown-id", "-u", sdk03, "--a2a-version", "0.3")
    assert deleted.returncode == 0 and "an id they do not know as well" in deleted.stderr


def test_sdk03_refused_run_is_recorded_in_the_dump(a2a, sdk03, tmp_path):
    refused = a2a("send", "hi", "-u", sdk03, "--dump", str(tmp_path))
    assert refused.returncode == 1
    assert index(tmp_path)[-1]["refused"].startswith("the Agent Card offers no interface")


# -- @a2a-js/sdk 0.3.x ----------------------------------------------------------------------------


def test_js03_additional_interfaces_are_merged_and_auto_works(a2a, js03):
    card = a2a("card", "fetch", "-u", js03, "-o", "json", "--as", "v1")
    assert json.loads(card.stdout)["supportedInterfaces"] == [{"url": js03 + "/", "protocolBinding": "JSONRPC", "protocolVersion": "0.3.0"}]
    sent = a2a("send", "hi", "-u", js03, "--a2a-version", "auto")
    assert sent.returncode == 0, sent.stderr
    assert "echo: hi" in sent.stdout and "--a2a-version auto: using 0.3" in sent.stderr


# -- fasta2a: V1-shaped answers to 0.3 calls --------------------------------------------------------


def test_fasta2a_v1_shaped_answers_are_warned_once_recorded_and_diffed(a2a, fasta2a, tmp_path):
    v0, v1 = tmp_path / "v0", tmp_path / "v1"
    sent = a2a("send", "hi", "--endpoint", fasta2a + "/", "--a2a-version", "0.3", "--dump", str(v0))
    assert sent.returncode == 0, sent.stderr
    assert sent.stderr.count("answer is V1-shaped under 0.3") == 1
    assert "lowercase enum values: this agent speaks the clix dialect" in sent.stderr
    assert any("V1-shaped under 0.3" in e.get("shape", "") for e in index(v0))
    ok = a2a("send", "hi", "-u", fasta2a, "--dump", str(v1))
    assert ok.returncode == 0 and "-shaped under" not in ok.stderr  # (the dump note names the path, which holds this test's name)
    diff = a2a("diff", str(v1), str(v0), "-o", "json")
    paths = [d["path"] for d in json.loads(diff.stdout)["differences"]]
    assert any(p.startswith("response.shape") for p in paths), paths


def test_fasta2a_500_is_not_a_json_rpc_answer_and_raw_prints_it(a2a, fasta2a):
    failed = a2a("call", "tasks/get", '{"x": 1}', "--rpc-url", fasta2a + "/", "--a2a-version", "0.3", "-o", "raw")
    assert failed.returncode == 1
    assert failed.stdout.strip() == "Internal Server Error"
    assert "not a JSON-RPC answer" in failed.stderr and "retry later" not in failed.stderr


# -- issue 24: `a2a check` against 0.3-only servers ------------------------------------------------


def test_sdk03_check_judges_version_unsupported_by_the_version_it_speaks(a2a, sdk03):
    """-32009 exists only in 1.0: a 0.3-only agent's clean refusal of `A2A-Version: 99.0` passes."""
    proc = a2a("check", sdk03, "-o", "json")
    checks = {c["id"]: c for c in json.loads(proc.stdout)["checks"]}
    probe = checks["jsonrpc-0.3.version-unsupported"]
    assert probe["status"] == "pass" and probe["detail"].startswith("-32001 TaskNotFoundError: a clean refusal"), probe
    assert checks["jsonrpc-0.3.reachable"]["status"] == "pass"
    # its failures: a rule of issue 37 (an empty message is answered -32603), and issue 45's delete
    # answered without its `result` member (JSON-RPC 2.0 §5)
    assert [c["id"] for c in checks.values() if c["status"] == "fail"] == ["jsonrpc-0.3.message-empty-parts", "jsonrpc-0.3.push-delete-result"]


@pytest.mark.spec("A2ACLI_CONFORM_001")
def test_sdk02_check_finds_the_envelope_deviations_the_tck_finds(a2a, sdk02):
    """Issue 45: a2a-sdk 0.2.16 runs a request without `method` and answers errors without the
    request's id (JSON-RPC 2.0 §4, §5); its 0.2.6 card at agent.json is no failure of the new path."""
    proc = a2a("check", sdk02, "-o", "json")
    checks = {c["id"]: c for c in json.loads(proc.stdout)["checks"]}
    assert checks["jsonrpc-0.3.no-method"]["status"] == "fail" and "expected -32600 (the request was run as a call, not refused)" in checks["jsonrpc-0.3.no-method"]["detail"]
    ids = checks["jsonrpc-0.3.error-id"]
    assert ids["status"] == "fail" and "method-not-found: id missing" in ids["detail"] and "jsonrpc-version: id missing" in ids["detail"], ids
    assert checks["jsonrpc-0.3.push-delete-result"]["status"] == "fail"
    assert checks["card.path.agent-card.json"]["status"] == "skip" and checks["card.path.agent.json"]["status"] == "pass"
    assert checks["card.cache-control"]["status"] == "skip"  # a 0.2.6 card: 1.0 §8.6.1 is not its rule
    assert proc.returncode == 1


# -- issue 24: python-a2a answers every call with a non-JSON-RPC HTTP 500 ---------------------------


def test_pya2a_check_passes_reachable_only_on_evidence(a2a, pya2a):
    proc = a2a("check", pya2a, "-o", "json")
    doc = json.loads(proc.stdout)
    mine = [c for c in doc["checks"] if c["id"].startswith("jsonrpc-0.3.")]
    reachable = mine[0]  # first in its group, as before
    assert reachable["id"] == "jsonrpc-0.3.reachable"
    assert reachable["status"] == "fail" and reachable["detail"].startswith("reachable, but no call got an A2A answer (first: the agent answered HTTP 500"), reachable
    assert proc.returncode == 1 and doc["passed"] is False


# -- issue 24: a2a-js HTTP+JSON errors are {"code": -32001, "message": ...} -------------------------


def test_js03_rest_errors_are_read_by_their_a2a_code(a2a, js03rest):
    missing = a2a("tasks", "get", "nope", "-u", js03rest, "--a2a-version", "0.3", "-o", "json")
    assert missing.returncode == 1
    assert json.loads(missing.stdout)["error"]["code"] == "TaskNotFoundError", missing.stdout
    sent = a2a("send", "hi", "-u", js03rest, "--a2a-version", "0.3", "-o", "json", "--as", "v1")
    assert sent.returncode == 0, sent.stderr
    task_id = json.loads(sent.stdout)["task"]["id"]
    cancel = a2a("tasks", "cancel", task_id, "-u", js03rest, "--a2a-version", "0.3")
    assert cancel.returncode == 1
    assert cancel.stderr.startswith("error: TaskNotCancelableError: Task not cancelable"), cancel.stderr
    assert "HTTP 409" not in cancel.stderr and "--debug" not in cancel.stderr
    checked = a2a("check", js03rest, "-o", "json")
    fails = [c["id"] for c in json.loads(checked.stdout)["checks"] if c["status"] == "fail"]
    assert fails == ["rest-0.3.message-empty-parts"], fails  # a rule of issue 37 (an empty message accepted)


# -- issue 24: @a2a-js/sdk 1.x serves security schemes as {"scheme": {"$case": ..., "value": ...}} ---


def test_js13_security_scheme_in_the_sdk_internal_form_is_read(a2a, js13):
    shown = a2a("card", "fetch", "-u", js13, "-o", "text")
    assert shown.returncode == 0, shown.stderr
    assert "Security type: apiKey\nSecurity location: header X-Echo-Key\nSecurity flag: --api-key KEY" in shown.stdout, shown.stdout
    extended = a2a("card", "extended", "-u", js13, "--api-key", "echo-key", "--transport", "rest", "-o", "json")
    assert extended.returncode == 0 and "not sent" not in extended.stderr, extended.stderr
    assert json.loads(extended.stdout)["name"].startswith("js1 echo")
    refused = a2a("card", "extended", "-u", js13, "--transport", "rest")
    assert refused.returncode == 4, refused.stderr  # the key is what the server checks: it went where the card says
    checked = a2a("check", "card", js13 + "/.well-known/agent-card.json", "-o", "json")
    found = [f for f in json.loads(checked.stdout)["cards"][0]["findings"] if f["rule"] == "scheme-shape"]
    assert [(f["severity"], f["path"]) for f in found] == [("warning", "$.securitySchemes.echoKey")], found
    assert "$case: 'apiKeySecurityScheme'" in found[0]["message"]


# -- issue 24: a subscription that falls back to polling says the end state once ------------------


def read_until(proc: subprocess.Popen[str], marker: str, timeout: float = 30) -> str:
    """What `proc` wrote to stderr up to and including `marker` (read from the pipe as it comes,
    bounded by `timeout`); the rest is left for communicate()."""
    import os
    import select

    assert proc.stderr is not None
    fd, got = proc.stderr.fileno(), b""
    deadline = time.monotonic() + timeout
    while marker.encode() not in got:
        left = deadline - time.monotonic()
        assert left > 0, f"{marker!r} not said within {timeout:g}s: {got.decode(errors='replace')}"
        if select.select([fd], [], [], left)[0]:
            chunk = os.read(fd, 65536)
            assert chunk, f"ended before saying {marker!r}: {got.decode(errors='replace')}"
            got += chunk
    return got.decode(errors="replace")


def test_js03_subscribe_polled_after_the_snapshot_says_canceled_once(a2a, a2a_bin, a2a_env, js03):
    """a2a-js 0.3 answers a subscription to a task no longer running with its snapshot, then
    closes: the task is polled; cancelled meanwhile, its `task …: canceled` line comes once."""
    sent = a2a("send", "hold", "--async", "-u", js03, "--a2a-version", "0.3", "-o", "json")
    assert sent.returncode == 0, sent.stderr
    task_id = json.loads(sent.stdout)["id"]
    argv = [*a2a_bin, "tasks", "subscribe", task_id, "-u", js03, "--a2a-version", "0.3", "--poll-interval", "0.2"]
    sub = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=a2a_env(**SETTINGS))
    try:
        said = read_until(sub, "snapshot then close")  # subscribed, the snapshot shown, polling from now on
        assert sub.poll() is None, sub.communicate()
        canceled = a2a("tasks", "cancel", task_id, "-u", js03, "--a2a-version", "0.3")
        assert canceled.returncode == 0, canceled.stderr
        out, err = sub.communicate(timeout=30)
        err = said + err
    finally:
        if sub.poll() is None:
            sub.kill()
    assert sub.returncode == 0, err
    assert "snapshot then close" in err, err
    assert err.count(f"task {task_id}: canceled") == 1, err
    assert "canceled" in out


# -- issue 24: `tasks list` under 0.3, one rule for every binding ----------------------------------


def test_tasks_list_under_0_3_is_refused_on_every_binding_and_forced_in_its_extension_form(a2a, js03, js03rest, js13compat, tmp_path):
    """0.3 has no ListTasks: refused up front over JSON-RPC and HTTP+JSON alike (a2a-js 0.3.14),
    with the same hint; --force sends the binding's extension form, which a2a-js 0.3 does not
    serve (404: the agent lacks it, not a wrong URL) and a2a-js 1.3's 0.3 mount answers."""
    for url, form in ((js03, "tasks/list (limit/offset)"), (js03rest, "GET /v1/tasks")):
        refused = a2a("tasks", "list", "-u", url, "--a2a-version", "0.3")
        assert refused.returncode == 2, refused.stderr
        assert f"this agent offers only 0.3 (its card lists no 1.0 interface), and 0.3 has no ListTasks; --force sends the extension {form} anyway" in refused.stderr
    forced = a2a("tasks", "list", "-u", js03rest, "--a2a-version", "0.3", "--force")
    assert forced.returncode == 1
    assert "0.3 has no ListTasks: sending the extension GET /v1/tasks anyway (--force)" in forced.stderr
    assert "HTTP 404" in forced.stderr and "the agent probably does not implement ListTasks (GET /v1/tasks)" in forced.stderr, forced.stderr
    assert "check --url" not in forced.stderr
    refused = a2a("tasks", "list", "-u", js13compat, "--a2a-version", "0.3", "--transport", "rest")
    assert refused.returncode == 2 and "use --a2a-version 1.0 (the card offers it), or --force sends the extension GET /v1/tasks anyway" in refused.stderr, refused.stderr
    listed = a2a("tasks", "list", "-u", js13compat, "--a2a-version", "0.3", "--transport", "rest", "--force", "-o", "json", "--dump", str(tmp_path))
    assert listed.returncode == 0, listed.stderr
    assert "tasks" in json.loads(listed.stdout)
    heads = [p.read_text().splitlines()[0] for p in sorted(tmp_path.glob("*.request.http"))]
    assert heads[-1] == "GET /rest/v1/tasks HTTP/1.1", heads


# -- issue 24: a non-JSON-RPC 500 from the endpoint the card names blames the method ----------------


def test_fasta2a_500_on_a_method_it_lacks_blames_the_method_not_the_url(a2a, fasta2a):
    """fasta2a has no 1.0 push-config methods and answers them with a bare HTTP 500."""
    sent = a2a("send", "hi", "-u", fasta2a, "-o", "json")
    assert sent.returncode == 0, sent.stderr
    task_id = json.loads(sent.stdout)["task"]["id"]
    failed = a2a("push-config", "list", task_id, "-u", fasta2a, "--force")
    assert failed.returncode == 1
    assert "HTTP 500" in failed.stderr and "(not a JSON-RPC answer)" in failed.stderr
    assert f"hint: {fasta2a}/ is the endpoint the Agent Card names: the agent probably does not implement ListTaskPushNotificationConfigs" in failed.stderr, failed.stderr
    assert "the agent's JSON-RPC endpoint" not in failed.stderr


# -- issue 24: a method 0.3 brought, called on a 0.2 card ------------------------------------------


def test_sdk02_extended_card_forced_says_the_card_predates_the_method(a2a, sdk02):
    """a2a-sdk 0.2 validates the method name against its own: -32600 with kilobytes of pydantic
    errors as `data`. The hint names the cause; the text view cuts the data, -o json keeps it."""
    forced = a2a("card", "extended", "-u", sdk02, "--a2a-version", "0.3", "--force")
    assert forced.returncode == 1
    assert "InvalidRequestError" in forced.stderr
    assert "hint: the Agent Card says protocolVersion 0.2.6, and agent/getAuthenticatedExtendedCard came with 0.3: the agent predates the method" in forced.stderr, forced.stderr
    assert "request envelope" not in forced.stderr
    data_line = next(line for line in forced.stderr.splitlines() if line.startswith("  data: "))
    assert len(data_line) < 400 and data_line.endswith("characters; -o json shows it whole)"), data_line
    as_json = a2a("card", "extended", "-u", sdk02, "--a2a-version", "0.3", "--force", "-o", "json")
    error = json.loads(as_json.stdout)["error"]
    assert len(json.dumps(error["data"])) > 2000 and "predates the method" in error["hint"]


# -- issue 24: --async against an agent that ignores blocking: false -------------------------------


def test_sdk02_async_notes_that_the_agent_held_the_answer(a2a, sdk02, sdk03):
    """a2a-sdk 0.2 ignores `blocking: false` (a TODO in its handler): the answer comes when the
    task is done. a2a-sdk 0.3 honours it: the working task at once, and no note."""
    held = a2a("send", "slow", "--async", "-u", sdk02, "--a2a-version", "0.3", "-o", "json")
    assert held.returncode == 0, held.stderr
    assert json.loads(held.stdout)["status"]["state"] == "completed"
    task_id = json.loads(held.stdout)["id"]
    assert f"until task {task_id} was completed: it does not honour blocking: false" in held.stderr, held.stderr
    assert float(re.search(r"the agent held the answer (\d+\.\d)s", held.stderr).group(1)) >= 2.0, held.stderr  # the agent's 2.5 s
    quick = a2a("send", "slow", "--async", "-u", sdk03, "--a2a-version", "0.3", "-o", "json")
    assert quick.returncode == 0, quick.stderr
    assert json.loads(quick.stdout)["status"]["state"] != "completed" and "held the answer" not in quick.stderr, quick.stderr


# -- issue 24: 0.3 HTTP+JSON push-config create, the body the 0.3 proto's route defines ------------


def _created(a2a, url: str, dump: Path) -> tuple[subprocess.CompletedProcess[str], list[dict]]:
    """A task, then a push config for it over 0.3 HTTP+JSON; the create requests as they went."""
    sent = a2a("send", "hi", "-u", url, "--a2a-version", "0.3", "--transport", "rest", "-o", "json")
    assert sent.returncode == 0, sent.stderr
    doc = json.loads(sent.stdout)
    task_id = doc.get("id") or doc["task"]["id"]
    created = a2a("push-config", "create", task_id, "--webhook-url", "http://127.0.0.1:9/h", "--config-id", "c-1", "-u", url, "--a2a-version", "0.3", "--transport", "rest", "-o", "json", "--as", "v1", "--dump", str(dump))
    assert created.returncode == 0, created.stderr
    assert json.loads(created.stdout)["id"] == "c-1" and json.loads(created.stdout)["taskId"] == task_id
    creates = [e for e in index(dump) if e["method"] == "CreateTaskPushNotificationConfig"]
    assert [e["status"] >= 400 for e in creates] == [True] * (len(creates) - 1) + [False], creates
    assert all(e["error"] is None for e in creates), creates  # no refusal pinned on the create that worked
    return created, [json.loads((dump / f"{e['files']}.request.body").read_text()) for e in creates]


def test_js13_v0_rest_push_config_create_body_is_the_config(a2a, js13compat, tmp_path):
    """a2a-js 1.3's 0.3 mount reads the body as the proto says (`body: "config"`): one request."""
    created, bodies = _created(a2a, js13compat, tmp_path)
    assert len(bodies) == 1 and set(bodies[0]) == {"name", "pushNotificationConfig"}, bodies
    assert "once more" not in created.stderr


@pytest.mark.parametrize("server", ["sdk03rest", "js03rest"])
def test_v0_rest_push_config_create_refused_in_the_proto_form_is_sent_once_in_the_whole_request_form(a2a, server, request, tmp_path):
    """a2a-sdk 0.3 (HTTP 500: it cannot parse the proto's form) and a2a-js 0.3 (400, "Request must
    include a `config` object") read the whole request as the body: one more try in that form."""
    created, bodies = _created(a2a, request.getfixturevalue(server), tmp_path)
    assert [set(b) for b in bodies] == [{"name", "pushNotificationConfig"}, {"parent", "configId", "config"}], bodies
    assert created.stderr.count("sending it once more with the whole request as the body") == 1, created.stderr


# -- issue 37: `a2a check`'s rules (a2acli/check/rules.py) against servers that break some of them ------


def _checked(a2a, url: str) -> tuple[subprocess.CompletedProcess[str], dict[str, dict]]:
    proc = a2a("check", url, "-o", "json")
    return proc, {c["id"]: c for c in json.loads(proc.stdout)["checks"]}


def _is(check: dict, status: str, words: str = "") -> bool:
    return check["status"] == status and words in check["detail"]


@pytest.mark.spec("A2ACLI_CONFORM_001")
def test_sdk03_check_finds_what_it_breaks_and_passes_what_it_keeps(a2a, sdk03):
    proc, checks = _checked(a2a, sdk03)
    # input validation: a message with no parts is an internal error, not InvalidParams (A2A 0.3 §10.2, MUST)
    assert _is(checks["jsonrpc-0.3.message-empty-parts"], "fail", "-32603 InternalError, expected -32602"), checks["jsonrpc-0.3.message-empty-parts"]
    assert checks["jsonrpc-0.3.message-empty-parts"]["spec"] == "A2A 0.3 §10.2 (MUST); TCK CORE-ERR-002"
    # operation semantics and streaming: a finished task is refused in other words than UnsupportedOperation (0.3 states no MUST: warnings)
    assert _is(checks["jsonrpc-0.3.continue-terminal"], "warn", "-32602")
    # 0.3 has no rule on subscribing to a finished task (issue 45): information, citing 1.0's
    assert _is(checks["jsonrpc-0.3.subscribe-terminal"], "pass", "-32602") and "0.3 has no such rule" in checks["jsonrpc-0.3.subscribe-terminal"]["spec"]
    # push configs: a deleted config read back is an internal error; the delete answers without `result` (JSON-RPC 2.0 §5)
    assert _is(checks["jsonrpc-0.3.push-get-deleted"], "warn", "-32603")
    assert _is(checks["jsonrpc-0.3.push-delete-result"], "fail", "no `result` member"), checks["jsonrpc-0.3.push-delete-result"]
    # card caching: A2A 1.0 §8.6.1's SHOULDs are not applied to a card that declares only 0.3 (issue 45)
    assert _is(checks["card.cache-control"], "skip", "no Cache-Control") and _is(checks["card.etag"], "skip")
    # what it keeps passes: the data model, the unknown task everywhere (the SSE error envelope too), a finished task not cancelable
    for name in ("data-model", "message-no-role", "send-unknown-task", "cancel-unknown", "cancel-terminal", "stream-order", "push-get-by-task"):
        assert checks[f"jsonrpc-0.3.{name}"]["status"] == "pass", checks[f"jsonrpc-0.3.{name}"]
    assert "as an error event in the SSE stream" in checks["jsonrpc-0.3.subscribe-unknown"]["detail"]
    assert proc.returncode == 1


@pytest.mark.spec("A2ACLI_CONFORM_001")
def test_js03_check_finds_what_it_breaks_and_passes_what_it_keeps(a2a, js03, js03rest):
    proc, checks = _checked(a2a, js03)
    for name in ("message-no-role", "message-empty-parts"):  # accepted (A2A 0.3 §10.2: MUST validate)
        assert _is(checks[f"jsonrpc-0.3.{name}"], "fail", "answered with success"), checks[f"jsonrpc-0.3.{name}"]
    assert _is(checks["jsonrpc-0.3.subscribe-terminal"], "pass", "answered with success")  # streams a finished task (0.3: no rule, information)
    assert _is(checks["jsonrpc-0.3.continue-terminal"], "warn", "-32600")
    assert _is(checks["card.cache-control"], "skip") and _is(checks["card.etag"], "pass", "ETag: ")  # a 0.3 card: no caching rule
    for name in ("data-model", "send-unknown-task", "subscribe-unknown", "cancel-terminal", "stream-order", "get-task", "unclaimed-push"):
        assert checks[f"jsonrpc-0.3.{name}"]["status"] == "pass", checks[f"jsonrpc-0.3.{name}"]
    assert proc.returncode == 1
    _, rest = _checked(a2a, js03rest)  # HTTP+JSON: the error's HTTP status kept, the stream's error not A2A's
    assert _is(rest["rest-0.3.error-status"], "pass", "HTTP status: 404 for TaskNotFoundError")
    assert _is(rest["rest-0.3.subscribe-unknown"], "warn", "-32603 InternalError")


@pytest.mark.spec("A2ACLI_CONFORM_001")
def test_fasta2a_check_finds_what_it_breaks_and_passes_what_it_keeps(a2a, fasta2a):
    proc, checks = _checked(a2a, fasta2a)
    key = "jsonrpc-1.0."
    expect = {
        "data-model": ("fail", "no zone (1.0 wants UTC with 'Z')"),  # A2A 1.0 §5.6.1, TCK DM-SERIAL-003
        "error-info": ("warn", "no google.rpc.ErrorInfo in error.data"),  # §9.5 (SHOULD over JSON-RPC), JSONRPC-ERR-003
        "blocking": ("fail", "TASK_STATE_SUBMITTED"),  # §3.2.2, CORE-EXECUTION-MODE-001
        "send-unknown-task": ("fail", "answered with success"),  # §3.4.2, CORE-MULTI-004
        # §3.3.2, CORE-ERR-002: accepted (or, right after fasta2a's HTTP 500 to the message without a role, the kept-alive connection reset)
        "message-empty-parts": ("fail", "-32602"),
        "history-length": ("warn", "historyLength 0 gave"),  # §3.2.4 SHOULD, CORE-HIST-001
        "unclaimed-push": ("fail", "expected -32003"),  # §3.3.4, CORE-CAP-001: an HTTP 500 instead
        "unclaimed-extended-card": ("fail", "expected -32004"),  # §3.3.4, CORE-CAP-003: an HTTP 500 instead
    }
    for name, (status, words) in expect.items():
        assert _is(checks[key + name], status, words), checks[key + name]
    assert checks[key + "data-model"]["spec"].startswith("A2A 1.0 §4.1, §5.5, §5.6.1 (MUST); TCK DM-TASK-001")
    assert _is(checks["card.cache-control"], "warn") and _is(checks["card.etag"], "warn")
    for name in ("task-not-found", "subscribe-unknown", "stream-order", "cancel-unknown", "get-task"):
        assert checks[key + name]["status"] == "pass", checks[key + name]
    assert proc.returncode == 1
