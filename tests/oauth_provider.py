"""A real OAuth2 / OpenID Connect provider and an A2A agent in one HTTP server on 127.0.0.1, for
the `a2a auth login` tests: RFC 8628 device authorization, an authorization endpoint that
redirects the browser back with a code (RFC 6749 §4.1, PKCE checked at the token endpoint, RFC
7636), a token endpoint (device-code answers from a script), OpenID Connect discovery, a JWK Set
and ID tokens signed with a key made here, an Agent Card and JSON-RPC."""

from __future__ import annotations

import base64
import hashlib
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx
from a2a_testkit import jwt, make_key, rpc_result

DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"
TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}
GRANT = {"device_code": "dev-code-secret", "user_code": "WDJB-MJHT", "expires_in": 600, "interval": 5}
CODE_TOKEN = "ac-token-1"  # the access token an authorization code buys
CODE_REFRESH = "ac-refresh-1"


class FakeServer:
    """The provider's behaviour is set by the test through these attributes; every request is
    kept in `requests` as (method, path with query, form, headers)."""

    def __init__(self) -> None:
        self.base = ""
        self.card: dict[str, Any] = {}
        self.token_script: list[dict[str, Any]] = []  # device-code and refresh answers, in turn
        self.requests: list[tuple[str, str, dict[str, list[str]], dict[str, str]]] = []
        self.discovery: dict[str, Any] = {}  # members of the discovery document to change (None: drop)
        self.redirect: dict[str, str] | None = None  # the redirect's query instead of code and state
        self.codes: dict[str, dict[str, str]] = {}  # code -> the authorization request that got it
        self.key, jwk = make_key("ES256")
        self.jwks = {"keys": [{**jwk, "kid": "k1", "use": "sig", "alg": "ES256"}]}
        self.id_claims: dict[str, Any] = {}  # ID token claims to change (None: drop)
        self.id_key: Any = None  # sign ID tokens with this key instead (not the JWK Set's)

    @property
    def discovery_url(self) -> str:
        return f"{self.base}/.well-known/openid-configuration"

    def document(self) -> dict[str, Any]:
        doc = {
            "issuer": self.base,
            "authorization_endpoint": f"{self.base}/authorize",
            "device_authorization_endpoint": f"{self.base}/device",
            "token_endpoint": f"{self.base}/token",
            "jwks_uri": f"{self.base}/jwks",
            "grant_types_supported": [DEVICE_GRANT, "authorization_code", "refresh_token"],
            "response_types_supported": ["code"],
            "code_challenge_methods_supported": ["S256"],
            "scopes_supported": ["openid", "a2a"],
        }
        doc.update(self.discovery)
        return {k: v for k, v in doc.items() if v is not None}

    def id_token(self, client_id: str, nonce: str | None) -> str:
        claims = {"iss": self.base, "sub": "alice", "aud": client_id, "exp": int(time.time()) + 600, "iat": int(time.time()), "email": "alice@example.test"}
        if nonce:
            claims["nonce"] = nonce
        claims.update(self.id_claims)
        return jwt({k: v for k, v in claims.items() if v is not None}, self.id_key or self.key, kid="k1")

    def authorize(self, query: dict[str, str]) -> tuple[int, Any, dict[str, str]]:
        """The browser's visit: a real provider would show a sign-in page; this one approves (or
        answers self.redirect) and sends the browser back to redirect_uri."""
        if query.get("response_type") != "code" or query.get("code_challenge_method") != "S256" or not query.get("code_challenge"):
            return 400, {"error": "invalid_request"}, {}
        answer = self.redirect
        if answer is None:
            code = f"code-{len(self.codes) + 1}"
            self.codes[code] = query
            answer = {"code": code, "state": query.get("state", "")}
        return 302, {}, {"Location": f"{query['redirect_uri']}?{urlencode(answer)}"}

    def exchange(self, form: dict[str, list[str]]) -> tuple[int, Any]:
        """The token endpoint for a code: the redirect URI and client it was issued to, and the
        PKCE verifier whose S256 is the challenge (RFC 7636 §4.6)."""
        one = {k: v[0] for k, v in form.items()}
        request = self.codes.pop(one.get("code", ""), None)
        if request is None:
            return 400, {"error": "invalid_grant", "error_description": "unknown or used code"}
        challenge = base64.urlsafe_b64encode(hashlib.sha256(one.get("code_verifier", "").encode()).digest()).rstrip(b"=").decode()
        if challenge != request["code_challenge"] or one.get("redirect_uri") != request["redirect_uri"] or one.get("client_id") != request["client_id"]:
            return 400, {"error": "invalid_grant", "error_description": "PKCE, redirect_uri or client_id do not match"}
        body = {"access_token": CODE_TOKEN, "token_type": "Bearer", "expires_in": 3600, "refresh_token": CODE_REFRESH, "scope": request.get("scope", "")}
        if "openid" in request.get("scope", "").split():
            body["id_token"] = self.id_token(request["client_id"], request.get("nonce"))
        return 200, body

    def answer(self, method: str, target: str, form: dict[str, list[str]]) -> tuple[int, Any, dict[str, str]]:
        path, query = urlsplit(target).path, {k: v[0] for k, v in parse_qs(urlsplit(target).query).items()}
        if method == "GET" and path == "/.well-known/agent-card.json":
            return 200, self.card, {}
        if method == "GET" and path == "/.well-known/openid-configuration":
            return 200, self.document(), {}
        if method == "GET" and path == "/jwks":
            return 200, self.jwks, {}
        if method == "GET" and path == "/authorize":
            return self.authorize(query)
        if method == "POST" and path == "/device":
            return 200, {**GRANT, "verification_uri": f"{self.base}/activate", "verification_uri_complete": f"{self.base}/activate?user_code=WDJB-MJHT"}, {}
        if method == "POST" and path == "/token":
            if form.get("grant_type") == ["authorization_code"]:
                return (*self.exchange(form), {})
            step = self.token_script.pop(0)
            return (400 if "error" in step else 200), step, {}
        if method == "POST" and path == "/rpc":
            return 200, rpc_result(TASK), {}
        return 404, {"error": "not_found"}, {}


@contextmanager
def serve() -> Iterator[FakeServer]:
    fake = FakeServer()

    class Handler(BaseHTTPRequestHandler):
        def _serve(self, method: str) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length).decode() if length else ""
            form = parse_qs(raw) if "x-www-form-urlencoded" in (self.headers.get("Content-Type") or "") else {}
            fake.requests.append((method, self.path, form, {k.lower(): v for k, v in self.headers.items()}))
            status, body, headers = fake.answer(method, self.path, form)
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802
            self._serve("GET")

        def do_POST(self) -> None:  # noqa: N802
            self._serve("POST")

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    fake.base = f"http://127.0.0.1:{httpd.server_address[1]}"
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        httpd.shutdown()
        httpd.server_close()


class Browser:
    """Plays the user's browser: visits the sign-in link, follows the provider's redirect to the
    loopback address `a2a` listens on, and keeps each link and the page it got back."""

    def __init__(self) -> None:
        self.links: list[str] = []
        self.pages: list[httpx.Response] = []

    def __call__(self, url: str) -> bool:
        self.links.append(url)
        with httpx.Client(follow_redirects=True, timeout=10) as client:
            self.pages.append(client.get(url))
        return True
