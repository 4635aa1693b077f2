"""Credentials against the real demo agent, whose card declares one scheme (apiKey in header
X-API-Key) that only its extended card checks: each credential goes only where a declared scheme
takes it (A2ACLI_AUTH_008), the extended card is fetched with the scheme the public card
advertises (A2ACLI_CARD_GET_003), and `--debug` shows which headers went, values redacted
(A2ACLI_AUTH_004). Over JSON-RPC and HTTP+JSON, in both versions."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration
BEARER = "bearer-0123456789abcdef"
CASES = [("jsonrpc", "1.0"), ("jsonrpc", "0.3"), ("rest", "1.0"), ("rest", "0.3")]


@pytest.fixture
def a2a(run_a2a, demo_agent, tmp_path):
    """The installed `a2a … -u DEMO`, with a config file of its own under tmp_path; asserts exit 0 unless told."""
    return run_a2a.bound("-u", demo_agent.url, env={"A2ACLI_GLOBAL_CONFIG": str(tmp_path / "config.toml")}, check=0)


def extended_block(stderr: str) -> str:
    """The `> …` lines (request line and headers) --debug printed for the extended-card call:
    the one request that is not the public card GET."""
    blocks: list[list[str]] = []
    for line in stderr.splitlines():
        if line.startswith("> ") and line[2:].split(" ", 1)[0] in ("GET", "POST"):
            blocks.append([line])
        elif line.startswith(">") and blocks:
            blocks[-1].append(line)
    calls = [b for b in blocks if "agent-card.json" not in b[0] and "agent.json" not in b[0]]
    assert len(calls) == 1, stderr
    return "\n".join(calls[0])


@pytest.mark.spec("A2ACLI_AUTH_008", "A2ACLI_CARD_GET_003", "A2ACLI_AUTH_004", "A2ACLI_AUTH_001")
@pytest.mark.parametrize(("transport", "version"), CASES)
def test_the_extended_card_gets_the_api_key_and_not_the_bearer(a2a, demo_agent, transport, version):
    proc = a2a("card", "extended", "--transport", transport, "--a2a-version", version, "--api-key", demo_agent.api_key, "--bearer", BEARER, "--debug", "-o", "json", "--as", "v1")
    assert "admin-report" in [s["id"] for s in json.loads(proc.stdout)["skills"]]
    sent = extended_block(proc.stderr)
    assert "> X-API-Key: <redacted>" in sent and "Authorization" not in sent
    assert "warning: --bearer not sent: the Agent Card takes no bearer" in proc.stderr
    for secret in (demo_agent.api_key, BEARER):
        assert secret not in proc.stderr and secret not in proc.stdout


@pytest.mark.spec("A2ACLI_AUTH_008", "A2ACLI_CARD_GET_003")
@pytest.mark.parametrize(("transport", "version"), CASES)
def test_a_bearer_alone_is_withheld_and_the_extended_card_refused(a2a, transport, version):
    proc = a2a("card", "extended", "--transport", transport, "--a2a-version", version, "--bearer", BEARER, check=4)
    assert "error: the agent requires credentials and none were sent" in proc.stderr
    assert "not sent, the card declares no scheme for it: bearer" in proc.stderr
    assert "--api-key KEY" in proc.stderr  # the scheme the card does declare


@pytest.mark.spec("A2ACLI_AUTH_001")
@pytest.mark.parametrize("transport", ["jsonrpc", "rest"])
def test_the_api_key_from_the_environment(a2a, demo_agent, transport):
    proc = a2a("card", "extended", "--transport", transport, "-o", "json", "--as", "v1", env={"A2ACLI_API_KEY": demo_agent.api_key})
    assert "admin-report" in [s["id"] for s in json.loads(proc.stdout)["skills"]]


@pytest.mark.spec("A2ACLI_AUTH_008", "A2ACLI_AUTH_007")
def test_a_stored_oauth_token_is_not_sent_to_an_api_key_only_agent(a2a, demo_agent, tmp_path):
    """A profile with a valid stored token (as `auth login` leaves it): the demo's card declares no
    scheme that takes a bearer token, so the token is withheld, and no token endpoint is asked."""
    token_url = "https://idp.invalid/token"  # never asked: the token is in the cache, and withheld anyway
    (tmp_path / "config.toml").write_text(f'[profiles.p]\n[profiles.p.auth]\ntoken-url = "{token_url}"\nclient-id = "cli"\n', encoding="utf-8")
    (tmp_path / "config.toml").chmod(0o600)
    entry = {"access_token": BEARER, "token_type": "Bearer", "expires_at": time.time() + 3600, "token_url": token_url, "client_id": "cli"}
    cache = Path(tmp_path / "tokens.json")
    cache.write_text(json.dumps({f"p {token_url}": entry}), encoding="utf-8")
    cache.chmod(0o600)
    proc = a2a("send", "hello", "--profile", "p", "--debug")
    assert "Authorization" not in proc.stderr.split("POST", 1)[1]
    assert "the profile's OAuth2 token not sent: the Agent Card takes no oauth" in proc.stderr
    assert BEARER not in proc.stderr and BEARER not in proc.stdout
