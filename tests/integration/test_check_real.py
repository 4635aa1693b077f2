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
    # the gRPC services are versioned by package; the a2a-version metadata is not read
    "grpc-1.0.version-unsupported": ("warn", "-32001"),
    # malformed params are answered InvalidRequestError (-32600), not InvalidParamsError
    "jsonrpc-0.3.invalid-params": ("warn", "-32600"),
    "rest-1.0.invalid-params": ("warn", "-32600"),
    "rest-0.3.invalid-params": ("warn", "-32600"),
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
    proc, doc = check(a2a, demo_agent.url, "--plaintext", "--api-key", demo_agent.api_key, "--webhook", "--timeout", "20", "--junit", str(junit))
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
    for cid, (status, words) in KNOWN_WARNINGS.items():
        if cid in checks:
            assert checks[cid]["status"] == status and words in checks[cid]["detail"], checks[cid]
    assert [c for c in doc["checks"] if c["status"] == "fail"] == []
    assert sorted(c["id"] for c in doc["checks"] if c["status"] == "warn") == sorted(c for c in KNOWN_WARNINGS if c in checks)
    assert proc.returncode == 0, proc.stderr
    assert doc["passed"] is True and doc["summary"]["fail"] == 0
    root = ET.parse(junit).getroot()  # JUnit XML that parses, one testcase per check
    cases = list(root.iter("testcase"))
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
    assert text.returncode == 0 and "FAIL" not in text.stdout, text.stdout


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
