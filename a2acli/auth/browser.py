"""The authorization-code flow with PKCE and a loopback redirect (RFC 7636, RFC 8252 §7.3): the
authorization request, the listener the browser comes back to, and the code exchanged for a token."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, NamedTuple

from a2acli.auth.client import ClientCredentials
from a2acli.auth.discovery import browser_at_hand
from a2acli.auth.id_token import signed_in
from a2acli.auth.oauth import _client_form, _grant, require_tls
from a2acli.errors import CANNOT_LISTEN, A2acliError, AuthError, TimeoutExpired
from a2acli.net import listen_failure
from a2acli.settings.table import AUTHORIZATION_CODE

BROWSER_WAIT = 300.0  # seconds the authorization-code flow waits for the browser without --timeout
CALLBACK_PATH = "/callback"


class AuthorizationRequest(NamedTuple):
    url: str  # where the browser goes
    redirect_uri: str
    state: str
    verifier: str  # the PKCE code_verifier: sent with the code, never to the browser
    nonce: str | None  # sent when the scope asks for openid


def authorization_request(cc: ClientCredentials, redirect_uri: str) -> AuthorizationRequest:
    """A fresh state, PKCE verifier (S256) and nonce, and the authorization URL carrying them."""
    import secrets

    from a2acli.wire import oidc
    from a2acli.wire.signing import b64url_encode

    require_tls(cc.authorization_url or "", "authorization endpoint", "your sign-in")
    state, verifier = b64url_encode(secrets.token_bytes(16)), b64url_encode(secrets.token_bytes(32))
    nonce = b64url_encode(secrets.token_bytes(16)) if oidc.wants_openid(cc.scope) else None
    params = {
        "response_type": "code",
        "client_id": cc.client_id,
        "redirect_uri": redirect_uri,
        "scope": cc.scope or "",
        "state": state,
        "code_challenge": oidc.pkce_challenge(verifier),
        "code_challenge_method": "S256",
        "nonce": nonce or "",
    }
    return AuthorizationRequest(
        oidc.authorization_url(cc.authorization_url or "", params), redirect_uri, state, verifier, nonce
    )


_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>a2a: {title}</title></head>
<body style="font-family: sans-serif; margin: 3em"><h1>{title}</h1><p>{text}</p></body></html>
"""


class RedirectListener:
    """The loopback redirect of RFC 8252 §7.3: an HTTP server on 127.0.0.1 (a free port, or the
    one given) that takes the browser's one GET of /callback carrying this sign-in's state,
    answers it with a short page and keeps its query; other paths get 404. A GET of /callback with
    another state (any web page the user has open can send one to a loopback port) is refused
    with a 400 page and counted, and the listener waits on: it can neither hand a code in nor end
    the sign-in. Served from a thread; `wait` blocks in short slices (Ctrl-C is seen at once)."""

    def __init__(self, port: int = 0) -> None:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        from urllib.parse import parse_qs, urlsplit

        self.query: dict[str, str] | None = None
        self.done = threading.Event()
        lock = threading.Lock()  # the first answer with this sign-in's state is the one kept
        self.expected_state = ""
        self.refused = 0  # GETs of /callback with another state (or none), refused
        listener = self

        class RedirectHandler(BaseHTTPRequestHandler):
            timeout = 10  # a browser's idle preconnection is dropped, not waited for

            def do_GET(self) -> None:  # noqa: N802
                parts = urlsplit(self.path)
                if parts.path != CALLBACK_PATH:
                    self._page(404, "Not found", "This address only takes the sign-in's redirect.")
                    return
                query = {k: v[0] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
                ours = bool(listener.expected_state) and query.get("state") == listener.expected_state
                with lock:
                    first = ours and not listener.done.is_set()
                    if first:
                        listener.query = query
                    elif not ours:
                        listener.refused += 1
                if not ours:
                    self._page(
                        400,
                        "Not this sign-in",
                        "This answer does not belong to the sign-in a2a is waiting for (state mismatch): it was refused.",
                    )
                elif not first:
                    self._page(409, "Already answered", "The sign-in was already answered; look at the terminal.")
                elif query.get("error"):
                    self._page(
                        400, "Sign-in failed", f"The authorization server said: {query['error']}. Look at the terminal."
                    )
                else:
                    self._page(200, "Signed in", "You can close this window and go back to the terminal.")
                if first:
                    listener.done.set()

            def _page(self, status: int, title: str, text: str) -> None:
                import html

                data = _PAGE.format(title=html.escape(title), text=html.escape(text)).encode()
                self.send_response(status)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Cache-Control", "no-store")
                self.send_header("Referrer-Policy", "no-referrer")
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        try:
            self.server = ThreadingHTTPServer(("127.0.0.1", port), RedirectHandler)
        except OSError as e:
            raise A2acliError(
                f"cannot listen on 127.0.0.1:{port} for the sign-in's redirect: {listen_failure(e)}",
                hint="choose another --redirect-port (0 picks a free one)",
                code=CANNOT_LISTEN,
            ) from None
        self.server.daemon_threads = True
        self.redirect_uri = f"http://127.0.0.1:{self.server.server_address[1]}{CALLBACK_PATH}"
        self._thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)

    def __enter__(self) -> RedirectListener:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()

    def begin(self, cc: ClientCredentials) -> AuthorizationRequest:
        """A new authorization request redirecting here; its state is the one answers must carry."""
        request = authorization_request(cc, self.redirect_uri)
        self.expected_state = request.state
        return request

    def wait(
        self,
        request: AuthorizationRequest,
        cc: ClientCredentials,
        *,
        timeout: float,
        warn: Callable[[str], None] | None = None,
    ) -> str:
        """The authorization code the browser brings back within `timeout` seconds: the answer's
        state must be the request's, an `error` is the sign-in's end, and an `iss` (RFC 9207)
        must be the discovered issuer. Redirects with another state are refused as they come,
        `warn`ed once, and named if no sign-in comes back."""
        deadline = time.monotonic() + timeout
        refused = (
            f"a redirect to {request.redirect_uri} without this sign-in's state was refused"
            " (a forged one, or the link of an earlier sign-in)"
        )
        warned = False
        while not self.done.wait(min(0.2, max(0.0, deadline - time.monotonic()))):
            if self.refused and not warned and warn is not None:
                warned = True
                warn(refused + "; still waiting for this one")
            if time.monotonic() >= deadline:
                said = f" ({self.refused} redirect(s) with another state refused)" if self.refused else ""
                raise TimeoutExpired(
                    f"no sign-in came back to {request.redirect_uri} within {timeout:g} s{said}",
                    hint="sign in sooner, or raise --timeout (the link is valid once; run `a2a auth login --flow authorization-code` again)",
                )
        if self.refused and not warned and warn is not None:  # (before this sign-in's own came back)
            warn(refused)
        query = self.query or {}
        again = "run `a2a auth login --flow authorization-code` again"
        if query.get("state") != request.state:
            raise AuthError(
                "the redirect to the loopback address does not carry this sign-in's state: it was not started here (a forged redirect?)",
                hint=again + " and use the link it prints",
            )
        if query.get("error"):
            why = query["error"] + (f": {query['error_description']}" if query.get("error_description") else "")
            said = (
                "the sign-in was denied"
                if query["error"] == "access_denied"
                else "the authorization server refused the sign-in"
            )
            raise AuthError(
                f"{said} ({why})",
                hint=again
                + (
                    " and approve the request"
                    if query["error"] == "access_denied"
                    else "; check --client-id and --scope"
                ),
            )
        if cc.issuer and query.get("iss") not in (None, cc.issuer):
            raise AuthError(
                f"the sign-in's answer comes from the issuer {query['iss']!r}, not {cc.issuer} (RFC 9207: a mix-up?)",
                hint=again,
            )
        if not query.get("code"):
            raise AuthError("the redirect to the loopback address carries no authorization code", hint=again)
        return query["code"]


def open_browser(url: str) -> bool:
    """Open the sign-in link in the user's browser; only when browser_at_hand (never in CI, never
    off a terminal, where the printed link is all). True when a browser took it."""
    if not browser_at_hand():
        return False
    import webbrowser

    try:
        return bool(webbrowser.open(url))
    except webbrowser.Error:
        return False


BROWSER: Callable[[str], bool] = open_browser  # how the sign-in link is opened: tests play the browser here


def exchange_code(
    cc: ClientCredentials,
    code: str,
    request: AuthorizationRequest,
    *,
    transport: Any,
    note: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """RFC 6749 §4.1.3 with RFC 7636 §4.5: the code, the redirect URI and the PKCE verifier to the
    token endpoint; the token's cache entry (signed_in: its ID token checked)."""
    require_tls(cc.token_url, "token endpoint", "the authorization code and the token")
    form = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": request.redirect_uri,
        "code_verifier": request.verifier,
    }
    auth = _client_form(cc, form)
    if note:
        note(f"exchanging the authorization code at {cc.token_url} (client {cc.client_id})")
    body, t0 = _grant(
        cc,
        form,
        auth,
        "the authorization code",
        "run `a2a auth login --flow authorization-code` again; check --client-id",
        transport=transport,
    )
    return signed_in(body, t0, cc, AUTHORIZATION_CODE, nonce=request.nonce, transport=transport)
