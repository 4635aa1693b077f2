"""`a2a auth login --flow authorization-code`: OpenID Connect sign-in in a browser with PKCE (RFC
7636) and a loopback redirect (RFC 8252), against a real provider on 127.0.0.1
(tests/oauth_provider.py). The test plays the browser (auth.browser.BROWSER): it visits the sign-in link,
and the provider's redirect brings it back to the address `a2a` listens on. Also: the discovery
document's issuer checked against its URL, the ID token's claims and signature checked, a denied
sign-in, a forged redirect, the wait bounded by --timeout, Ctrl-C; and off a terminal, in a
separate process, the link read from stderr."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from typing import Any
from urllib.parse import parse_qs, urlsplit

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

import httpx
import pytest
from a2a_testkit import make_key, token_entry, token_key, v1_card
from oauth_provider import CODE_REFRESH, CODE_TOKEN, Browser, FakeServer

from a2acli import auth
from a2acli.wire.oidc import pkce_challenge

CLIENT = "a2a-cli"


@pytest.fixture
def browser(monkeypatch) -> Browser:
    b = Browser()
    monkeypatch.setattr(auth.browser, "BROWSER", b)
    return b


def oidc_card(server: FakeServer) -> dict[str, Any]:
    return v1_card(f"{server.base}/rpc", securitySchemes={"sso": {"openIdConnectSecurityScheme": {"openIdConnectUrl": server.discovery_url}}})


def login(cli, server: FakeServer, *extra: str):
    server.card = server.card or oidc_card(server)
    return cli("auth", "login", "--profile", "me", "-u", server.base, "--flow", "authorization-code", "--client-id", CLIENT, *extra)


def query_of(url: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}


def posts(server: FakeServer, path: str) -> list[dict[str, list[str]]]:
    return [form for method, p, form, _ in server.requests if method == "POST" and p == path]


def nothing_stored(cfg) -> bool:
    return not cfg.exists() and not cfg.with_name("tokens.json").exists()


@pytest.mark.spec("A2ACLI_AUTH_010", "A2ACLI_AUTH_007")
def test_browser_sign_in_with_pkce_and_a_verified_id_token(cli, cfg, server, browser):
    """The endpoints come from the card's openIdConnectUrl; the browser goes to the authorization
    endpoint with an S256 challenge, state and nonce and comes back to 127.0.0.1; the code and
    its verifier buy the token; the ID token is checked against the provider's JWK Set; the
    token is stored like the other flows' (refresh token included), sent to the agent, and
    refreshed when it expires. `auth status` shows who signed in."""
    result = login(cli, server)
    assert result.exit_code == 0, result.stderr
    (link,) = browser.links
    q = query_of(link)
    assert link.startswith(f"{server.base}/authorize?") and link in result.stderr
    assert q["response_type"] == "code" and q["client_id"] == CLIENT and q["scope"] == "openid"
    assert q["code_challenge_method"] == "S256" and len(q["state"]) >= 16 and len(q["nonce"]) >= 16
    redirect = urlsplit(q["redirect_uri"])
    assert (redirect.scheme, redirect.hostname, redirect.path) == ("http", "127.0.0.1", "/callback") and redirect.port
    # the browser got a short page back from the loopback listener
    assert browser.pages[0].status_code == 200 and "Signed in" in browser.pages[0].text
    # the code was exchanged with the verifier whose S256 is the challenge (the provider checks it too)
    (form,) = posts(server, "/token")
    assert form["grant_type"] == ["authorization_code"] and form["redirect_uri"] == [q["redirect_uri"]] and form["client_id"] == [CLIENT]
    assert pkce_challenge(form["code_verifier"][0]) == q["code_challenge"] and len(form["code_verifier"][0]) >= 43
    assert ("GET", "/jwks") in [(m, p) for m, p, _, _ in server.requests]
    assert result.stdout.startswith(f"Logged in: profile me, client {CLIENT} at {server.base}/token (authorization code) as alice (alice@example.test), issuer {server.base}")
    for shown in (result.stdout, result.stderr):
        assert CODE_TOKEN not in shown and CODE_REFRESH not in shown and "code-1" not in shown and form["code_verifier"][0] not in shown
    assert "warning" not in result.stderr
    # stored as the other flows: settings in the profile, the token (with its refresh token) 0600
    prof = tomllib.loads(cfg.read_text())["profiles"]["me"]["auth"]
    assert prof == {"token-url": f"{server.base}/token", "client-id": CLIENT, "scope": "openid", "flow": "authorization-code", "authorization-url": f"{server.base}/authorize"}
    cache = cfg.with_name("tokens.json")
    assert stat.S_IMODE(cache.stat().st_mode) == 0o600
    entry = token_entry(cache, "me")
    assert entry["access_token"] == CODE_TOKEN and entry["refresh_token"] == CODE_REFRESH and entry["flow"] == "authorization-code"
    assert entry["identity"]["sub"] == "alice" and entry["identity"]["iss"] == server.base
    assert entry["identity"]["signature"] == f"verified (kid k1, ES256, key from {server.base}/jwks)"
    # who signed in
    status = cli("auth", "status", "--profile", "me")
    assert status.exit_code == 0, status.stderr
    assert f"Signed in as: alice (alice@example.test), issuer {server.base}" in status.stdout
    assert "ID token signature: verified (kid k1, ES256" in status.stdout and f"Authorization URL: {server.base}/authorize" in status.stdout
    doc = json.loads(cli("auth", "status", "--profile", "me", "-o", "json").stdout)
    assert doc["flow"] == "authorization-code" and doc["refreshable"] is True
    assert doc["idToken"]["subject"] == "alice" and doc["idToken"]["issuer"] == server.base and doc["idToken"]["signature"].startswith("verified")
    # sent to the agent
    call = cli("tasks", "get", "t-1", "--profile", "me")
    assert call.exit_code == 0, call.stderr
    assert [h for _, p, _, h in server.requests if p == "/rpc"][-1]["authorization"] == f"Bearer {CODE_TOKEN}"
    # expired: renewed with the refresh token, the identity kept
    data = json.loads(cache.read_text())
    data[token_key(cache, "me")]["expires_at"] = 0
    cache.write_text(json.dumps(data))
    server.token_script = [{"access_token": "ac-token-2", "token_type": "Bearer", "expires_in": 3600}]
    call = cli("tasks", "get", "t-1", "--profile", "me")
    assert call.exit_code == 0, call.stderr
    assert [h for _, p, _, h in server.requests if p == "/rpc"][-1]["authorization"] == "Bearer ac-token-2"
    assert posts(server, "/token")[-1] == {"grant_type": ["refresh_token"], "refresh_token": [CODE_REFRESH], "client_id": [CLIENT]}
    entry = token_entry(cache, "me")
    assert entry["refresh_token"] == CODE_REFRESH and entry["identity"]["sub"] == "alice"


@pytest.mark.spec("A2ACLI_AUTH_010")
def test_json_result_and_a_flow_from_the_card(cli, cfg, server, browser):
    """A V1 oauth2 scheme declaring the authorizationCode flow (no discovery): no openid asked,
    so no ID token; -o json says the flow, the endpoints and that the token can be refreshed."""
    server.card = v1_card(
        f"{server.base}/rpc",
        securitySchemes={"o": {"oauth2SecurityScheme": {"flows": {"authorizationCode": {"authorizationUrl": f"{server.base}/authorize", "tokenUrl": f"{server.base}/token", "scopes": {"a2a": "call"}}}}}},
    )
    result = login(cli, server, "--scope", "a2a", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert "authorization-code endpoints from the Agent Card's oauth2 scheme 'o'" in result.stderr
    assert query_of(browser.links[0])["scope"] == "a2a" and "nonce" not in query_of(browser.links[0])
    doc = json.loads(result.stdout)
    assert doc == {**doc, "flow": "authorization-code", "authorizationUrl": f"{server.base}/authorize", "tokenUrl": f"{server.base}/token", "refreshable": True}
    assert "idToken" not in doc and CODE_TOKEN not in result.stdout
    card = cli("card", "fetch", "-u", server.base)
    assert "`a2a auth login --flow authorization-code` (browser sign-in)" in card.stdout


@pytest.mark.spec("A2ACLI_AUTH_010")
def test_a_forged_redirect_with_another_state_is_refused(cli, cfg, server, browser):
    """A redirect that does not carry this sign-in's state is refused (a 400 page), said once on
    stderr, and the listener waits on: no code from it is ever exchanged, and it cannot end the
    sign-in either. Nobody signs in here: exit 5 at --timeout, the refused redirect named."""
    server.redirect = {"code": "stolen-code", "state": "not-this-sign-in"}
    result = login(cli, server, "--timeout", "2")
    assert result.exit_code == 5, result.stderr
    assert "without this sign-in's state was refused" in result.stderr and "still waiting" in result.stderr
    assert "(1 redirect(s) with another state refused)" in result.stderr
    assert browser.pages[0].status_code == 400 and "state mismatch" in browser.pages[0].text
    assert posts(server, "/token") == [] and nothing_stored(cfg)


@pytest.mark.spec("A2ACLI_AUTH_010")
def test_a_forged_redirect_cannot_end_the_real_sign_in(cli, cfg, server, monkeypatch):
    """Any web page can GET the loopback address: a forged redirect (another state, or none) that
    comes before the browser's is refused, and the real sign-in then completes."""
    real = Browser()

    def page_then_browser(url: str) -> bool:
        redirect_uri = query_of(url)["redirect_uri"]
        for forged in ({"code": "x", "state": "evil"}, {"error": "access_denied"}):
            assert httpx.get(redirect_uri, params=forged, timeout=5).status_code == 400
        return real(url)

    monkeypatch.setattr(auth.browser, "BROWSER", page_then_browser)
    result = login(cli, server)
    assert result.exit_code == 0, result.stderr
    assert real.pages[0].status_code == 200
    assert "without this sign-in's state was refused" in result.stderr
    (exchanged,) = posts(server, "/token")  # one code exchanged: the real one
    assert exchanged["code"] != ["x"]


@pytest.mark.spec("A2ACLI_AUTH_010")
@pytest.mark.parametrize(
    ("redirect", "says"),
    [
        ({"error": "access_denied", "error_description": "the user said no"}, "the sign-in was denied (access_denied: the user said no)"),
        ({"error": "invalid_scope"}, "the authorization server refused the sign-in (invalid_scope)"),
        ({"code": "code-x", "iss": "https://other.test"}, "comes from the issuer 'https://other.test'"),
    ],
)
def test_an_error_on_the_redirect_ends_the_sign_in(cli, cfg, server, browser, redirect, says):
    """error= on the redirect (RFC 6749 §4.1.2.1), or an iss that is not the provider's (RFC 9207)."""
    original = server.authorize

    def keep_state(query: dict[str, str]) -> Any:  # the answer carries this sign-in's state
        server.redirect = {**redirect, "state": query["state"]}
        return original(query)

    server.authorize = keep_state  # type: ignore[method-assign]
    result = login(cli, server, "-o", "json")
    assert result.exit_code == 4, result.stderr
    err = json.loads(result.stdout)["error"]
    assert err["code"] == "A2ACLI_ERR_AUTH_FAILED" and says in err["message"] and err["hint"]
    assert posts(server, "/token") == [] and nothing_stored(cfg)
    assert browser.pages[0].status_code in (200, 400)


@pytest.mark.spec("A2ACLI_AUTH_010")
@pytest.mark.parametrize("flow", ["authorization-code", "device-code"])
def test_a_discovery_document_of_another_issuer_is_refused(cli, cfg, server, browser, flow):
    """OpenID Connect Discovery §4.3: the document's issuer is the URL's; else no endpoint of it
    is used (no browser, no device code, nothing stored)."""
    server.discovery = {"issuer": "https://evil.test"}
    result = cli("auth", "login", "--profile", "me", "--discovery-url", server.discovery_url, "--flow", flow, "--client-id", CLIENT, "-o", "json")
    assert result.exit_code == 4, result.stderr
    err = json.loads(result.stdout)["error"]
    assert err["code"] == "A2ACLI_ERR_AUTH_FAILED"
    assert err["message"] == f"the discovery document {server.discovery_url} names the issuer https://evil.test, not {server.base}, the issuer its URL belongs to"
    assert "--token-url" in err["hint"]
    assert browser.links == [] and posts(server, "/device") == [] and nothing_stored(cfg)


@pytest.mark.spec("A2ACLI_AUTH_010")
def test_a_discovery_document_without_issuer_is_refused_from_the_card(cli, cfg, server, browser):
    server.discovery = {"issuer": None}
    result = login(cli, server)
    assert result.exit_code == 4 and "names no issuer" in result.stderr
    assert browser.links == [] and nothing_stored(cfg)


@pytest.mark.spec("A2ACLI_AUTH_010")
@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"aud": "someone-else"}, "its audience 'someone-else' is not this client (a2a-cli)"),
        ({"exp": int(time.time()) - 3600}, "it expired"),
        ({"iss": "https://evil.test"}, "it was issued by 'https://evil.test'"),
        ({"nonce": "replayed"}, "its nonce is not the one this login sent"),
        ({"sub": None}, "it names no subject"),
    ],
)
def test_an_id_token_with_wrong_claims_fails_the_login(cli, cfg, server, browser, change, says):
    server.id_claims = change
    result = login(cli, server)
    assert result.exit_code == 4, result.stderr
    (err,) = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert f"the ID token from {server.base}/token is not good for this login: {says}" in err
    assert "hint:" in result.stderr and nothing_stored(cfg) and CODE_TOKEN not in result.stderr


@pytest.mark.spec("A2ACLI_AUTH_010")
def test_an_id_token_signed_with_another_key_fails_the_login(cli, cfg, server, browser):
    server.id_key, _ = make_key("ES256")  # same kid, another key: not the provider's signature
    result = login(cli, server)
    assert result.exit_code == 4, result.stderr
    assert "is not signed by the provider (kid k1, ES256" in result.stderr and "the signature does not match the ID token" in result.stderr
    assert nothing_stored(cfg)


def test_an_id_token_of_an_unknown_key_is_stored_unverified_with_a_warning(cli, cfg, server, browser):
    """A key the JWK Set does not hold is no verdict on the signature: the claims were checked,
    the token came from the token endpoint over TLS (OpenID Connect Core §3.1.3.7); said."""
    server.jwks = {"keys": []}
    result = login(cli, server)
    assert result.exit_code == 0, result.stderr
    assert "warning: the ID token's signature was not checked (no key with kid 'k1' in the JWK Set" in result.stderr
    status = cli("auth", "status", "--profile", "me")
    assert "ID token signature: not verified: no key with kid 'k1'" in status.stdout


@pytest.mark.spec("A2ACLI_AUTH_010")
def test_the_wait_for_the_browser_ends_at_timeout(cli, cfg, server, monkeypatch):
    """Nobody signs in: exit 5 at --timeout, nothing stored, the listener closed."""
    seen: list[str] = []
    monkeypatch.setattr(auth.browser, "BROWSER", lambda url: seen.append(url) or False)
    t0 = time.monotonic()
    result = login(cli, server, "--timeout", "1")
    assert result.exit_code == 5, result.stderr
    assert 0.9 <= time.monotonic() - t0 < 10
    assert "To sign in, open this link in a browser on this machine:" in result.stderr and seen[0] in result.stderr
    assert "no sign-in came back to http://127.0.0.1:" in result.stderr and "within 1 s" in result.stderr
    assert nothing_stored(cfg)
    with pytest.raises(httpx.ConnectError):  # the listener is gone
        httpx.get(query_of(seen[0])["redirect_uri"], timeout=2)


@pytest.mark.spec("A2ACLI_AUTH_010")
def test_no_browser_opens_nothing(cli, cfg, server, monkeypatch):
    seen: list[str] = []
    monkeypatch.setattr(auth.browser, "BROWSER", seen.append)
    result = login(cli, server, "--no-browser", "--timeout", "0.3")
    assert result.exit_code == 5 and seen == []
    assert f"{server.base}/authorize?" in result.stderr


@pytest.mark.spec("A2ACLI_AUTH_010")
def test_ctrl_c_while_waiting_is_130_and_stores_nothing(cli, cfg, server, monkeypatch):
    def interrupted(url: str) -> bool:
        raise KeyboardInterrupt

    monkeypatch.setattr(auth.browser, "BROWSER", interrupted)
    result = login(cli, server)
    assert result.exit_code == 130
    assert "Traceback" not in result.stderr and "error:" not in result.stderr and nothing_stored(cfg)


def test_the_card_offering_only_a_browser_sign_in_needs_the_flag_off_a_terminal(cli, cfg, server, browser):
    """Off a terminal (here, CI) the authorization-code flow is never chosen by itself."""
    server.card = v1_card(
        f"{server.base}/rpc",
        securitySchemes={"o": {"oauth2SecurityScheme": {"flows": {"authorizationCode": {"authorizationUrl": f"{server.base}/authorize", "tokenUrl": f"{server.base}/token", "scopes": {}}}}}},
    )
    result = cli("auth", "login", "--profile", "me", "-u", server.base, "--client-id", CLIENT)
    assert result.exit_code == 2 and "offers only the authorization-code flow" in result.stderr and "--flow authorization-code" in result.stderr
    assert browser.links == [] and nothing_stored(cfg)


def test_at_a_terminal_the_browser_sign_in_is_the_default_of_several():
    offered = {auth.CLIENT_CREDENTIALS, auth.DEVICE_CODE, auth.AUTHORIZATION_CODE}
    assert auth.pick_flow(offered, have_secret=False, browser=True) == auth.AUTHORIZATION_CODE
    assert auth.pick_flow(offered, have_secret=False, browser=False) == auth.DEVICE_CODE
    assert auth.pick_flow(offered, have_secret=True, browser=True) == auth.CLIENT_CREDENTIALS
    assert auth.pick_flow({auth.AUTHORIZATION_CODE}, have_secret=False, browser=False) is None


def test_flags_and_a_profile_remember_the_flow(cli, cfg, server, browser):
    """--authorization-url implies the flow; the profile then logs in again with it alone."""
    result = cli("auth", "login", "--profile", "me", "--authorization-url", f"{server.base}/authorize", "--token-url", f"{server.base}/token", "--client-id", CLIENT, "--redirect-port", "0")
    assert result.exit_code == 0, result.stderr
    again = cli("auth", "login", "--profile", "me")
    assert again.exit_code == 0, again.stderr
    assert len(browser.links) == 2 and "(authorization code)" in again.stdout
    bad = cli("auth", "login", "--device", "--flow", "authorization-code", "--token-url", f"{server.base}/token", "--client-id", CLIENT)
    assert bad.exit_code == 2 and "contradict" in bad.stderr
    plain = cli("auth", "login", "--authorization-url", "http://idp.test/authorize", "--token-url", "https://idp.test/token", "--client-id", CLIENT)
    assert plain.exit_code == 4 and "is not https" in plain.stderr and len(browser.links) == 2


def test_the_redirect_port_and_the_config_keys(cli, cfg, server, browser):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = login(cli, server, "--redirect-port", str(port))
        assert result.exit_code == 1 and f"cannot listen on 127.0.0.1:{port}" in result.stderr and "--redirect-port" in result.stderr
    assert browser.links == []
    result = login(cli, server, "--redirect-port", str(port))  # free again: the redirect URI uses it, the profile keeps it
    assert result.exit_code == 0, result.stderr
    assert query_of(browser.links[0])["redirect_uri"] == f"http://127.0.0.1:{port}/callback"
    assert tomllib.loads(cfg.read_text())["profiles"]["me"]["auth"]["redirect-port"] == port
    assert cli("config", "set", "auth.flow", "authorization-code", "--profile", "other").exit_code == 0
    bad = cli("config", "set", "auth.flow", "browser-ish", "--profile", "other")
    assert bad.exit_code == 2 and "client-credentials, device-code or authorization-code" in bad.stderr
    bad = cli("config", "set", "auth.redirect-port", "80000", "--profile", "other")
    assert bad.exit_code == 2 and "not a port number" in bad.stderr


# -- off a terminal, as a separate process: the link read from stderr ----------------------------------


def _run_a2a(server: FakeServer, tmp_path, *extra: str) -> subprocess.Popen[str]:
    server.card = oidc_card(server)
    env = {**os.environ, "A2ACLI_GLOBAL_CONFIG": str(tmp_path / "cfg" / "config.toml"), "A2ACLI_LOCAL_CONFIG": os.devnull}
    argv = [sys.executable, "-m", "a2acli", "auth", "login", "--profile", "me", "-u", server.base, "--flow", "authorization-code", "--client-id", CLIENT, *extra]
    return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _link(proc: subprocess.Popen[str]) -> tuple[str, list[str]]:
    """Read stderr up to the sign-in link; (the link, the lines read)."""
    lines: list[str] = []
    assert proc.stderr is not None
    for line in proc.stderr:
        lines.append(line)
        if line.strip().startswith("http") and "/authorize?" in line:
            return line.strip(), lines
    raise AssertionError("".join(lines))


@pytest.mark.spec("A2ACLI_AUTH_010")
def test_off_a_terminal_the_link_is_printed_and_the_sign_in_completes(server, tmp_path):
    proc = _run_a2a(server, tmp_path, "--timeout", "30")
    try:
        link, lines = _link(proc)
        assert "To sign in, open this link in a browser on this machine:" in "".join(lines)  # no browser was opened
        page = httpx.get(link, follow_redirects=True, timeout=10)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill() if proc.poll() is None else None
    assert proc.returncode == 0, err
    assert page.status_code == 200 and "Signed in" in page.text
    assert out.startswith("Logged in: profile me") and "as alice" in out
    assert CODE_TOKEN in (tmp_path / "cfg" / "tokens.json").read_text()


@pytest.mark.spec("A2ACLI_AUTH_010")
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_of_the_waiting_process_is_130(server, tmp_path):
    proc = _run_a2a(server, tmp_path)
    try:
        link, _ = _link(proc)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill() if proc.poll() is None else None
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted" in err
    assert not (tmp_path / "cfg" / "tokens.json").exists()
    with pytest.raises(httpx.ConnectError):  # the listener is gone with the process
        httpx.get(query_of(link)["redirect_uri"], timeout=2)
