"""`a2a check` (the installed command) against the real demo agent: every binding x version the card
lists is probed, and each check reports what the a2a-sdk server really does. The demo agent passes
in full (exit 0), push-notification delivery (--webhook) included."""

from __future__ import annotations

import json
import os
import subprocess
import xml.etree.ElementTree as ET
from typing import Any

import pytest

pytestmark = pytest.mark.integration

# What a2a-sdk 1.3 really does, named by the checks that say so (.rest_facts.md, .grpc_facts.md):
# warnings, which do not fail the check (the demo serves the 0.3 REST DELETE push-config route the
# SDK lacks, so nothing fails).
KNOWN_WARNINGS = {
    # malformed params are answered InvalidRequestError (-32600), not InvalidParamsError
    "jsonrpc-0.3.invalid-params": ("warn", "-32600"),
    "rest-1.0.invalid-params": ("warn", "-32600"),
    "rest-0.3.invalid-params": ("warn", "-32600"),
    # a 0.3 JSON-RPC message without a role: InvalidRequestError, not InvalidParamsError
    "jsonrpc-0.3.message-no-role": ("warn", "-32600"),
    # 0.3's deprecated TaskIdParams form of tasks/pushNotificationConfig/get is refused
    "jsonrpc-0.3.push-get-by-task": ("warn", "-32602"),
}
# The rules of check/rules.py (issue 37), each passed by the demo on every interface it applies to
# (or skipped with the reason the demo's answers give: its echo task completes at once).
RULE_PASSES = {
    "1.0": ("error-info", "push-get-deleted", "message-empty-parts", "send-unknown-task", "blocking", "get-task", "continue-terminal", "stream-order", "subscribe-unknown", "subscribe-terminal", "list-tasks-last-page", "list-tasks-artifacts", "list-tasks-filter", "cancel-unknown", "cancel-terminal", "data-model"),
    "0.3": ("message-empty-parts", "send-unknown-task", "get-task", "continue-terminal", "stream-order", "subscribe-unknown", "subscribe-terminal", "cancel-unknown", "cancel-terminal", "data-model", "push-get-deleted"),
}


@pytest.fixture(scope="module")
def a2a(run_a2a):
    """`a2a ARGS…` without the user's global config (exit code not asserted: the tests read it)."""
    return run_a2a.bound(env={"A2ACLI_GLOBAL_CONFIG": os.devnull}, timeout=120)


def check(a2a, *args: str) -> tuple[subprocess.CompletedProcess[str], Any]:
    proc = a2a("check", *args, "-o", "json")
    return proc, json.loads(proc.stdout)


@pytest.mark.spec("A2ACLI_CONFORM_001")
def test_check_passes_in_full_on_every_interface_of_the_demo_agent(a2a, demo_agent, tmp_path):
    junit = tmp_path / "check.xml"
    logged = demo_agent.log.stat().st_size
    proc, doc = check(a2a, demo_agent.url, "--plaintext", "--api-key", demo_agent.api_key, "--webhook", "--timeout", "20", "--junit", str(junit))
    # issue 45: the demo's terminal (its stderr, here its log) gets one line a record, no traceback
    said = demo_agent.log.read_text(errors="replace")[logged:]
    assert "Traceback" not in said and "During handling" not in said, said[:3000]
    checks = {c["id"]: c for c in doc["checks"]}
    assert len(checks) == len(doc["checks"])  # ids are unique
    bindings = ("jsonrpc", "rest", "grpc") if demo_agent.grpc_url else ("jsonrpc", "rest")
    for b in bindings:
        for v in ("1.0", "0.3"):
            key = f"{b}-{v}"
            for name in ("reachable", "task-not-found", "message-send", "streaming", "push-config", "push-delivery", "extended-card"):
                assert checks[f"{key}.{name}"]["status"] == "pass", checks[f"{key}.{name}"]
            assert "token in X-A2A-Notification-Token" in checks[f"{key}.push-delivery"]["detail"]
    assert checks["jsonrpc-1.0.version-unsupported"]["status"] == "pass"
    assert checks["rest-1.0.version-unsupported"]["status"] == "pass"
    assert checks["jsonrpc-0.3.version-missing"]["status"] == "pass"
    assert checks["jsonrpc-1.0.method-not-found"]["status"] == "pass"
    assert checks["jsonrpc-1.0.invalid-params"]["status"] == "pass"
    assert checks["jsonrpc-1.0.list-tasks"]["status"] == "pass" and checks["rest-1.0.list-tasks"]["status"] == "pass"
    assert checks["card.valid.1.0"]["status"] == "pass" and checks["card.valid.0.3"]["status"] == "pass"
    assert checks["card.path.agent-card.json"]["status"] == "pass"
    assert checks["card.cache-control"]["status"] == checks["card.etag"]["status"] == "pass"
    for b in bindings:
        for v, names in RULE_PASSES.items():
            for name in names:
                assert checks[f"{b}-{v}.{name}"]["status"] == "pass", checks[f"{b}-{v}.{name}"]
        assert checks[f"{b}-1.0.data-model"]["spec"].startswith("A2A 1.0 §4.1")
        assert checks[f"{b}-0.3.data-model"]["spec"].startswith("A2A 0.3 §6.1")
    for b in ("rest", "grpc") if demo_agent.grpc_url else ("rest",):
        assert checks[f"{b}-1.0.error-status"]["status"] == checks[f"{b}-0.3.error-status"]["status"] == "pass"
    assert "gRPC server streaming" in checks["grpc-1.0.streaming"]["title"] if demo_agent.grpc_url else True
    assert checks["jsonrpc-0.3.push-delete-result"]["status"] == "pass" and checks["jsonrpc-0.3.push-delete-result"]["detail"] == "null"
    # issue 45: the demo's own deviations are gone: 0.3 POST subscribe guarded, gRPC reads A2A-Version
    for v in ("1.0", "0.3"):
        assert checks[f"rest-{v}.subscribe-unknown-post"]["status"] == "pass", checks[f"rest-{v}.subscribe-unknown-post"]
        for name in ("jsonrpc-version", "no-method", "error-id"):
            assert checks[f"jsonrpc-{v}.{name}"]["status"] == "pass", checks[f"jsonrpc-{v}.{name}"]
    if demo_agent.grpc_url:
        assert checks["grpc-1.0.version-unsupported"]["status"] == "pass", checks["grpc-1.0.version-unsupported"]
    for cid, (status, words) in KNOWN_WARNINGS.items():
        if cid in checks:
            assert checks[cid]["status"] == status and words in checks[cid]["detail"], checks[cid]
    assert [c for c in doc["checks"] if c["status"] == "fail"] == []
    assert sorted(c["id"] for c in doc["checks"] if c["status"] == "warn") == sorted(c for c in KNOWN_WARNINGS if c in checks)
    assert proc.returncode == 0, proc.stderr
    assert doc["passed"] is True and doc["summary"]["fail"] == 0
    root = ET.parse(junit).getroot()  # JUnit XML that parses, one testcase per check, each with its severity
    cases = list(root.iter("testcase"))
    severity = {c.get("name").split(":")[0]: c.find("properties/property[@name='severity']").get("value") for c in cases}
    assert {severity[c] for c in KNOWN_WARNINGS if c in checks} == {"warning"} and severity["card.fetch"] == "passed"
    assert int(root.get("tests")) == len(cases) == len(doc["checks"])
    assert int(root.get("failures")) == 0
    assert [c.get("name").split(":")[0] for c in cases] == [c["id"] for c in doc["checks"]]


def test_check_passes_on_the_demo_agent_as_the_readme_starts_it(a2a, demo_agent):
    """Issue 24, item 12: a newcomer's first `a2a check URL`, no flags. The card lists gRPC as
    grpc://HOST:PORT (the scheme says plaintext), so gRPC is probed as served, not over TLS."""
    proc, doc = check(a2a, demo_agent.url)
    assert proc.returncode == 0, [c for c in doc["checks"] if c["status"] == "fail"]
    checks = {c["id"]: c for c in doc["checks"]}
    if demo_agent.grpc_url:
        assert demo_agent.grpc_url.startswith("grpc://")
        for v in ("1.0", "0.3"):
            assert checks[f"grpc-{v}.reachable"]["status"] == "pass", checks[f"grpc-{v}.reachable"]
            assert checks[f"grpc-{v}.message-send"]["status"] == "pass"
    text = a2a("check", demo_agent.url)
    assert text.returncode == 0 and "  FAIL  " not in text.stdout, text.stdout  # (FAILED_PRECONDITION may be a detail)


@pytest.mark.parametrize("binding", ["jsonrpc", "rest", "grpc"])
def test_check_passes_per_binding(a2a, demo_agent, binding):
    """Each binding alone (--transport) passes over both versions, push delivery included."""
    if binding == "grpc" and not demo_agent.grpc_url:
        pytest.skip("no gRPC (grpcio not installed)")
    proc, doc = check(a2a, demo_agent.url, "--transport", binding, "--plaintext", "--api-key", demo_agent.api_key, "--webhook", "--timeout", "20")
    assert proc.returncode == 0, [c for c in doc["checks"] if c["status"] == "fail"]
    ids = {c["id"]: c for c in doc["checks"]}
    for version in ("1.0", "0.3"):
        assert ids[f"{binding}-{version}.push-delivery"]["status"] == "pass", ids[f"{binding}-{version}.push-delivery"]
    others = tuple(f"{b}-" for b in {"jsonrpc", "rest", "grpc"} - {binding})
    assert not [c for c in ids if c.startswith(others)]


def test_read_only_check_creates_nothing_and_passes(a2a, demo_agent):
    proc, doc = check(a2a, demo_agent.url, "--read-only", "--transport", "jsonrpc")
    statuses = {c["id"]: c["status"] for c in doc["checks"]}
    assert statuses["jsonrpc-1.0.message-send"] == "skip" and statuses["jsonrpc-1.0.streaming"] == "skip"
    assert not [c for c in statuses if c.startswith(("rest-", "grpc-"))]  # --transport: that binding only
    assert proc.returncode == 0, proc.stdout


@pytest.mark.spec("A2ACLI_CARD_GET_002")
def test_check_card_validates_the_served_card(a2a, demo_agent):
    proc, doc = check(a2a, "card", demo_agent.card_url)
    assert proc.returncode == 0, proc.stdout
    assert doc["cards"][0]["versions"] == ["1.0"]
    assert all(f["severity"] == "info" for f in doc["cards"][0]["findings"])


def test_a_server_that_is_not_an_agent_gets_the_report_in_every_form(a2a, a2a_env, tmp_path):
    """Issue 36 item 5: `python3 -m http.server` has no card: the failed discovery is the report's
    finding as text, -o json and --junit, and the exit code stays 3 (no card there)."""
    import socket
    import sys
    import time

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"], cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=a2a_env())
    try:
        url = f"http://127.0.0.1:{port}"
        for _ in range(100):  # until it listens
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        junit = tmp_path / "check.xml"
        proc, doc = check(a2a, url, "--junit", str(junit))
        text = a2a("check", url)
    finally:
        server.terminate()
        server.wait(timeout=5)
    assert proc.returncode == text.returncode == 3
    (finding,) = doc["checks"]
    assert finding["id"] == "card.fetch" and finding["status"] == "fail" and "HTTP 404" in finding["detail"]
    assert "FAIL  Agent Card found: no Agent Card at" in text.stdout and "1 failed" in text.stdout
    case = ET.parse(junit).getroot().find("testsuite/testcase")
    assert case.get("name") == "card.fetch: Agent Card found" and case.find("failure") is not None


def test_without_the_grpc_extra_grpc_rows_are_skipped_not_blamed(a2a, demo_agent, tmp_path):
    """Issue 38 item 3: a core install (grpcio missing) skips each gRPC interface with the reason,
    and the demo agent still passes."""
    if not demo_agent.grpc_url:
        pytest.skip("the demo serves no gRPC here")
    fake = tmp_path / "nogrpc" / "grpc"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text('raise ImportError("No module named \'grpc\'", name="grpc")\n')
    proc = a2a("check", demo_agent.url, "-o", "json", env={"PYTHONPATH": str(fake.parent)})
    doc = json.loads(proc.stdout)
    grpc_rows = [c for c in doc["checks"] if c["id"].startswith("grpc-")]
    assert [(c["id"], c["status"]) for c in grpc_rows] == [("grpc-1.0.probe", "skip"), ("grpc-0.3.probe", "skip")]
    assert all("needs the grpc extra" in c["detail"] for c in grpc_rows)
    assert proc.returncode == 0, [c for c in doc["checks"] if c["status"] == "fail"]
