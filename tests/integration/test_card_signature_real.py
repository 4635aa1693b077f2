"""Agent Card signatures against the real demo agent (a2a-sdk server): its card is not signed,
which is `absent` (no failure) unless --verify-signature requires a verified one."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.integration


@pytest.mark.spec("A2ACLI_CARD_GET_004")
def test_the_demo_agents_unsigned_card_is_absent_not_a_failure(run_a2a, demo_agent):
    a2a = run_a2a.at(demo_agent.url)
    text = a2a("card", "fetch")
    assert "Signature: absent\n" in text.stdout
    assert "signature" not in text.stderr.lower()
    as_json = a2a("card", "fetch", "-o", "json")
    assert "signatures" not in json.loads(as_json.stdout)
    required = a2a("card", "fetch", "--verify-signature", "-o", "json", check=1)
    assert json.loads(required.stdout)["error"]["code"] == "X_A2A_SIGNATURE"
    check = json.loads(a2a("check", "card", demo_agent.url, "-o", "json").stdout)
    assert next(c for c in check["checks"] if c["id"] == "card.signature")["status"] == "skip"
