"""The one httpx client, and the mapping of every transport failure to an A2acliError.

Only this module and sse.py touch httpx. The connections are httpx's own (`httpx.HTTPTransport`:
httpcore and h11), made on the first request of each scheme, so that a plain http:// call loads
no CA bundle. A call has one deadline (`--timeout`, a whole-call bound): each read waits at most
what is left of it, and when it runs out every connection of the call is shut, so a read blocked
on an answer's head or body ends at once (the sockets are known from httpx's `trace` extension)."""

import _thread
import socket
import ssl
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import httpx

from a2acli import __version__
from a2acli.errors import (
    A2acliError,
    ConnectionBrokenError,
    HttpError,
    TimeoutExpired,
    UnreachableError,
    main_thread_interrupts,
)
from a2acli.net import is_loopback
from a2acli.records import Record
from a2acli.transport.connections import environment_proxies, make_client, shown_proxy, shutdown
from a2acli.transport.exchange import Exchange, NullTap, Tap
from a2acli.transport.limits import ACCEPT_ENCODING, DEFAULT_MAX_BODY, DOCUMENT_CAPS, RawBody, capped, inflate

if TYPE_CHECKING:
    from a2acli.transport.sse import SseEvent
from a2acli.wire import VERSION_HEADER, extensions_header
from a2acli.wire.bindings.base import HttpRequest

USER_AGENT = f"a2acli/{__version__}"
# What a public GET (a card, a downloaded file) carries on when redirected to another origin: no
# -H value and no credential, only these.
_PUBLIC_HEADERS = frozenset(
    {
        "host",
        "user-agent",
        "accept",
        "accept-encoding",
        "a2a-version",
        "a2a-extensions",
        "x-a2a-extensions",
        "connection",
    }
)
# Time is always bounded (docs/guide.md, "Timeouts"): a connection must be made within
# CONNECT_TIMEOUT seconds, and without --timeout a read waits at most IDLE_TIMEOUT seconds for its
# next byte. A stream kept alive by comments (`: keep-alive`) is never idle; an agent silent that
# long is an error (exit 5). --timeout N bounds the whole call instead (reads wait up to what is left).
CONNECT_TIMEOUT = 10.0
IDLE_TIMEOUT = 300.0
# ...and a unary exchange (a call's answer, the card, a downloaded file) ends within UNARY_BOUND
# seconds in all, so an answer that trickles in a byte a minute cannot hold the CLI for ever
# (issue 27). Streams stay unbounded but idle-bounded. --timeout N replaces it; --timeout 0 drops it.
UNARY_BOUND = 600.0


@contextmanager
def _after(seconds: float, fire: Callable[[], None]) -> Iterator[None]:
    """Call `fire()` from another thread if the block still runs `seconds` from now. A bare thread
    waiting on a lock, not threading.Timer: Timer.start() waits until its thread has run, which
    on a busy machine costs milliseconds of wall time per request (benchmarks/startup.py)."""
    done = _thread.allocate_lock()
    done.acquire()

    def watch() -> None:
        if not done.acquire(timeout=min(max(seconds, 0.0), _thread.TIMEOUT_MAX)):
            fire()

    with main_thread_interrupts():  # a Ctrl-C goes to the thread that waits on the agent
        _thread.start_new_thread(watch, ())
    try:
        yield
    finally:
        done.release()


class Credentials:
    """Where the credentials go on JSON-RPC calls (never on the public card fetch)."""

    __slots__ = ("headers", "params", "cookies")

    def __init__(self) -> None:
        self.headers: dict[str, str] = {}
        self.params: dict[str, str] = {}
        self.cookies: dict[str, str] = {}


class TransportConfig(Record):
    """What every request of a transport is sent with (a record, a2acli.records: cheap to define at start-up)."""

    __slots__ = (
        "version", "headers", "extensions", "timeout", "insecure", "connect_timeout", "idle_timeout", "unary_bound",
        "cacert", "cert", "key", "max_body"
    )  # fmt: skip
    version: str  # A2A-Version header value
    headers: tuple[tuple[str, str], ...]  # -H and --svc-param, sent on every request
    extensions: tuple[str, ...]  # --extension URIs: the version's extensions service parameter
    timeout: float | None
    insecure: bool
    connect_timeout: float
    idle_timeout: float  # seconds a read waits for a byte when there is no --timeout
    unary_bound: float | None  # seconds one unary exchange may take in all when there is no --timeout (UNARY_BOUND)
    cacert: str | None  # PEM bundle trusted instead of the default CAs
    cert: str | None  # client certificate (mutual TLS); may hold the key too
    key: str | None  # its private key, when separate
    max_body: int  # bytes of one answer or one stream event, after decompression

    def __init__(
        self,
        version: str,
        headers: tuple[tuple[str, str], ...] = (),
        extensions: tuple[str, ...] = (),
        timeout: float | None = None,
        insecure: bool = False,
        connect_timeout: float = CONNECT_TIMEOUT,
        idle_timeout: float = IDLE_TIMEOUT,
        unary_bound: float | None = None,
        cacert: str | None = None,
        cert: str | None = None,
        key: str | None = None,
        max_body: int = DEFAULT_MAX_BODY,
    ) -> None:
        self._set(
            version, headers, extensions, timeout, insecure, connect_timeout, idle_timeout, unary_bound, cacert,
            cert, key, max_body
        )  # fmt: skip


def tls_verify(cfg: TransportConfig) -> ssl.SSLContext | bool:
    """httpx's `verify`: a bool for the defaults, an SSL context for --cacert / --cert or the
    environment's SSL_CERT_FILE / SSL_CERT_DIR (read as httpx reads them; --cacert wins, and
    --cert keeps them). Unreadable or non-PEM files are usage errors (exit 2), whichever named them."""
    import os

    env_file, env_dir = os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR")
    if not (cfg.cacert or cfg.cert or (not cfg.insecure and (env_file or env_dir))):
        return not cfg.insecure
    from a2acli.errors import UsageError

    named = cfg.cacert if cfg.cacert else f"SSL_CERT_FILE={env_file}" if env_file else f"SSL_CERT_DIR={env_dir}"
    try:
        if cfg.cacert:
            ctx = ssl.create_default_context(cafile=cfg.cacert)
        elif env_file or env_dir:
            if env_dir and not env_file and not os.path.isdir(env_dir):
                raise FileNotFoundError(2, "No such directory")
            ctx = ssl.create_default_context(cafile=env_file or None, capath=None if env_file else env_dir)
        else:  # --cert alone: httpx's default CAs (certifi's bundle)
            ctx = httpx.create_ssl_context(verify=True)
    except (OSError, ssl.SSLError) as e:
        raise UsageError(
            f"cannot load the CA bundle {named}: {getattr(e, 'strerror', None) or e}",
            hint="--cacert takes a PEM file of CA certificates"
            + ("" if cfg.cacert else "; fix or unset the environment variable (it names the CAs to trust)"),
        ) from None
    if cfg.insecure:
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
    if cfg.cert:
        try:
            ctx.load_cert_chain(cfg.cert, cfg.key)
        except (OSError, ssl.SSLError) as e:
            raise UsageError(
                f"cannot load the client certificate {cfg.cert}"
                + (f" with key {cfg.key}" if cfg.key else "")
                + f": {getattr(e, 'strerror', None) or e}",
                hint="--cert takes a PEM certificate (with its key, or the key in --key); the key must match it",
            ) from None
    return ctx


def tls_context(cfg: TransportConfig) -> ssl.SSLContext:
    """The TLS context of https:// calls: httpx's defaults (certifi's CA bundle, or SSL_CERT_FILE /
    SSL_CERT_DIR), or --cacert / --cert / --insecure."""
    verify = tls_verify(cfg)  # SSL_CERT_FILE / SSL_CERT_DIR are read (and refused) there
    return verify if not isinstance(verify, bool) else httpx.create_ssl_context(verify=verify)


class Transport:
    def __init__(self, cfg: TransportConfig, taps: list[Tap] | None = None) -> None:
        self.cfg = cfg
        self.taps: list[Tap] = taps or [NullTap()]
        self._client: httpx.Client | None = None
        self._seq = 0
        self._deadline = time.monotonic() + cfg.timeout if cfg.timeout else None
        self._cut: Exchange | None = None  # the exchange the unary bound cut off
        # the socket of every connection the client opened (httpx's trace extension reports them),
        # shut by _abort(); `_shut`: an abort happened, so a connection opened meanwhile is shut too
        self._sockets: list[socket.socket] = []
        self._shut = False
        self._dialed: tuple[str, Any] | None = None  # (host, port) of the last connection dialled
        self.last: Exchange | None = None

    # -- plumbing -------------------------------------------------------------------------------
    @property
    def client(self) -> httpx.Client:
        if self._client is None:
            self._client = make_client(lambda: tls_context(self.cfg), tls_now=bool(self.cfg.cacert or self.cfg.cert))
            # only the codings limits.inflate undoes, a bounded piece at a time
            self._client.headers["Accept-Encoding"] = ACCEPT_ENCODING  # in place: the header order stays httpx's
        return self._client

    def close(self) -> None:
        if self._client is not None:
            self._client.close()

    def time_left(self) -> float | None:
        """Seconds left of the whole-call --timeout (None: unbounded); may be <= 0."""
        return None if self._deadline is None else self._deadline - time.monotonic()

    def _remaining(self) -> float | None:
        left = self.time_left()
        if left is None:
            return None
        if left <= 0:
            raise self._expired()
        return left

    def _expired(self) -> TimeoutExpired:
        return TimeoutExpired(f"--timeout {self.cfg.timeout:g}s expired", hint="raise --timeout")

    def _past_deadline(self) -> bool:
        return self._deadline is not None and time.monotonic() >= self._deadline

    def _timeout(self) -> httpx.Timeout:
        left = self._remaining()
        connect = self.cfg.connect_timeout if left is None else min(left, self.cfg.connect_timeout)
        return httpx.Timeout(self.cfg.idle_timeout if left is None else left, connect=connect)

    def headers(self, extra: dict[str, str] | None = None, *, drop: frozenset[str] = frozenset()) -> dict[str, str]:
        """The request's headers: ours, then `extra`, then -H, each replacing a header of the same
        name in any spelling (-H 'a2a-version: 9.9' replaces A2A-Version; it is not sent twice).
        `drop`: lowercase names of -H headers left out (credentials kept from another origin)."""
        h = {"User-Agent": USER_AGENT, VERSION_HEADER: self.cfg.version}
        if self.cfg.extensions:
            h[extensions_header(self.cfg.version)] = ",".join(self.cfg.extensions)
        given = [(k, v) for k, v in self.cfg.headers if k.lower() not in drop]
        for k, v in [*(extra or {}).items(), *given]:  # -H wins over everything
            for same in [name for name in h if name.lower() == k.lower()]:
                del h[same]
            h[k] = v
        return h

    def _new_exchange(self, label: str, method: str, request: httpx.Request, streaming: bool) -> Exchange:
        self._seq += 1
        ex = Exchange(
            seq=self._seq,
            label=label,
            http_method=method,
            url=str(request.url),
            target=request.url.raw_path.decode("ascii"),
            request_headers=_raw_headers(request.headers),
            request_body=request.content,
            streaming=streaming,
        )
        self.last = ex
        return ex

    def _emit(self, name: str, *args: Any) -> None:
        for tap in self.taps:
            getattr(tap, name)(*args)

    @contextmanager
    def _errors(self, ex: Exchange) -> Iterator[None]:
        t0 = time.monotonic()
        try:
            yield
        except A2acliError as e:
            ex.error = e.message
            raise
        except httpx.TimeoutException as e:
            ex.error = f"timeout: {e}"
            if self.cfg.timeout:
                raise TimeoutExpired(
                    f"no answer from {ex.url} in time (--timeout {self.cfg.timeout:g}s)",
                    hint="raise --timeout, or check that the agent is up",
                ) from e
            if isinstance(e, httpx.ConnectTimeout):
                proxy = self._proxy_of(ex.url)
                raise TimeoutExpired(
                    f"no connection to {ex.url}{f' through the proxy {proxy}' if proxy else ''} within {self.cfg.connect_timeout:g}s",
                    hint="check that the agent is up and reachable",
                ) from e
            raise TimeoutExpired(
                f"{ex.url} sent nothing for {self.cfg.idle_timeout:g}s (the idle bound without --timeout)",
                hint="check that the agent is up; --timeout N waits up to N seconds in all",
            ) from e
        except (httpx.ConnectError, httpx.ProxyError) as e:
            ex.error = f"connect: {e}"
            proxy = self._proxy_of(ex.url, proxied=isinstance(e, httpx.ProxyError))
            if proxy is not None:  # the proxy is down, refused the call, or is no proxy of that kind
                raise UnreachableError(
                    f"cannot reach {ex.url} through the proxy {proxy}: {e or type(e).__name__}",
                    hint="check HTTP_PROXY / HTTPS_PROXY / ALL_PROXY, or list the agent's host in NO_PROXY",
                ) from e
            raise _connect_error(ex.url, e, what=_SETTING_OF.get(ex.label, "--url")) from e
        except (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError, httpx.StreamError) as e:
            ex.error = f"broken: {e}"
            raise self._broken(ex, e) from e
        except httpx.HTTPError as e:
            ex.error = str(e)
            raise UnreachableError(f"request to {ex.url} failed: {e}", hint="check the URL") from e
        finally:
            ex.elapsed = time.monotonic() - t0

    # -- requests -------------------------------------------------------------------------------
    def get(
        self, url: str, *, label: str, headers: dict[str, str] | None = None, drop: frozenset[str] = frozenset()
    ) -> Exchange:
        """GET (the public card, a downloaded file): never carries credentials beyond what -H and
        `headers` add; `drop` leaves those -H headers out (lowercase names)."""
        with _bad_url(url):
            parsed = httpx.URL(url)
        if parsed.userinfo:  # user:password@ in the URL: httpx would send it as Basic auth, and this GET is public
            parsed = parsed.copy_with(username=None, password=None)
        h = self.headers({"Accept": "application/json", **(headers or {})}, drop=drop)
        with _bad_url(url):
            req = self.client.build_request(
                "GET", parsed, headers=h, timeout=self._timeout(), extensions={"a2acli.public": True}
            )
        return self._exchange(req, label)

    def from_cache(self, url: str, entry: Any, request: dict[str, str], how: str) -> Exchange:
        """The answer an entry of the card cache (transport.card_cache.CachedCard) holds, as the
        exchange its GET would have been, with its Age; `how`: "hit" (nothing was sent) or
        "revalidated" (after a 304). The taps see it through `on_cached` (--debug says where the
        card came from, --dump records it)."""
        with _bad_url(url):
            req = self.client.build_request("GET", url, headers=request)  # as its GET would be (Host...), not sent
        ex = self._new_exchange("card", "GET", req, streaming=False)
        age = int(entry.age(time.time()))
        ex.status, ex.reason, ex.response_body, ex.elapsed, ex.cache = entry.status, entry.reason, entry.body, 0.0, how
        kept = [(k, v) for k, v in entry.headers if k.lower() not in ("age", "content-length")]
        ex.response_headers = [*kept, ("Content-Length", str(len(entry.body))), ("Age", str(age))]
        self._emit("on_cached", ex, age)
        return ex

    @staticmethod
    def public_headers(accept: str) -> dict[str, str]:
        """The headers of a public document's GET (get_public): our User-Agent and Accept only."""
        return {"User-Agent": USER_AGENT, "Accept": accept}

    def get_public(
        self, url: str, *, label: str, accept: str, timeout: float | None = None, https_only: bool = True
    ) -> Exchange:
        """GET a public document of another kind (a JWK Set, an agent catalog): only our
        User-Agent and Accept, never -H or credentials (it may be another origin; userinfo in the
        URL is dropped); at most `timeout` seconds when given; with `https_only`, a redirect to
        plain http (but on loopback) is refused."""
        t = self._timeout()
        bounded = (
            t
            if timeout is None
            else httpx.Timeout(min(t.read or timeout, timeout), connect=min(t.connect or timeout, timeout))
        )
        parsed = httpx.URL(url)
        if parsed.userinfo:
            parsed = parsed.copy_with(username=None, password=None)
        extensions = {"a2acli.public": True, "a2acli.https_only": True} if https_only else {"a2acli.public": True}
        req = self.client.build_request(
            "GET", parsed, headers=self.public_headers(accept), timeout=bounded, extensions=extensions
        )
        return self._exchange(req, label)

    def call_other(
        self, method: str, url: str, *, label: str, headers: dict[str, str], content: bytes | None = None
    ) -> Exchange:
        """A request to a service beside the agent (an OAuth2 token or device authorization
        endpoint): our User-Agent and `headers` only, never -H or the A2A headers (they are the
        agent's); redirects followed within its origin only; the answer read whole under its cap
        (limits.DOCUMENT_CAPS by `label`, or --max-body when lower), and seen by the taps (--debug,
        --dump, both redacted) like every call."""
        h = {"User-Agent": USER_AGENT, **headers}
        with _bad_url(url):
            req = self.client.build_request(method, url, headers=h, content=content, timeout=self._timeout())
        return self._exchange(req, label)

    def prepare(
        self,
        base_url: str,
        request: HttpRequest,
        *,
        creds: Credentials | None = None,
        headers: dict[str, str] | None = None,
    ) -> httpx.Request:
        """The one httpx.Request of a call: the binding's request description on the interface URL,
        with our headers, the credentials where they go, and -H last. `--offline`, `--debug`,
        `--dump` and the send all use this object."""
        creds = creds or Credentials()
        url = base_url.rstrip("/") + request.path if request.path else base_url
        params: list[tuple[str, str | int | float | bool | None]] = [*request.query, *creds.params.items()]
        h = self.headers({**dict(request.headers), **creds.headers, **(headers or {})})
        with _bad_url(url):
            return self.client.build_request(
                request.verb,
                url,
                content=request.body,
                headers=h,
                params=params or None,
                cookies=creds.cookies or None,
                timeout=self._timeout(),
            )

    def exchange(self, req: httpx.Request, *, label: str) -> Exchange:
        """Send a prepared request and read the whole answer (any HTTP status)."""
        return self._exchange(req, label)

    def _exchange(self, req: httpx.Request, label: str) -> Exchange:
        """Send one request and read the whole answer, reporting each step to the taps."""
        ex = self._new_exchange(label, req.method, req, streaming=False)
        self._emit("on_request", ex)
        try:
            with self._errors(ex), self._bounded(ex, unary=True):
                resp = self._send(req)
                try:
                    self._fill(ex, resp)
                    self._emit("on_response", ex)
                    chunks: list[bytes] = []
                    with self.body(resp, ex) as body:
                        try:
                            for chunk in body:
                                chunks.append(chunk)
                        finally:  # a body cut off (timeout, broken connection) still reaches the dump
                            ex.response_body = b"".join(chunks)
                    if self._shut:  # a body read to the connection's close, which the timer shut: cut short
                        raise self._timed_out(ex) or self._expired()
                finally:
                    resp.close()
        finally:
            self._emit("on_complete", ex)
        return ex

    @contextmanager
    def _bounded(self, ex: Exchange, *, unary: bool) -> Iterator[None]:
        """The one deadline over the block: with --timeout, every connection is shut when the
        whole call's time runs out; without, a unary exchange (or a stream's head: `unary`) ends
        within cfg.unary_bound seconds. A read blocked on the head or the body then ends at once,
        and the error it raises says why (_errors, _broken)."""
        self._shut = False
        left = self._remaining()
        if left is not None:
            with _after(left, self._abort):
                yield
        elif unary and self.cfg.unary_bound:

            def cut() -> None:
                self._cut = ex
                self._abort()

            with _after(self.cfg.unary_bound, cut):
                yield
        else:
            yield

    def _abort(self) -> None:
        """Shut every connection of the client now (from the deadline's timer thread): a read or
        a write blocked on one ends at once, and a connection opened meanwhile is shut as it is
        made (_trace). The pool notices a shut connection before it is used again."""
        self._shut = True
        for sock in list(self._sockets):
            shutdown(sock)

    def _trace(self, event: str, info: dict[str, Any]) -> None:
        """httpx's `trace` extension: keeps the socket of each connection made (a TCP connection,
        and its TLS layer), and the address dialled (the proxy's, when the call goes through one)."""
        if event.endswith("connect_tcp.started"):
            self._dialed = (str(info.get("host")), info.get("port"))
        elif event.endswith(".complete"):
            get = getattr(info.get("return_value"), "get_extra_info", None)
            sock = get("socket") if get is not None else None
            if isinstance(sock, socket.socket):
                self._sockets = [s for s in self._sockets if s.fileno() != -1]  # (closed ones: gone)
                self._sockets.append(sock)
                if self._shut:
                    shutdown(sock)

    def _proxy_of(self, url: str, *, proxied: bool = False) -> str | None:
        """The proxy (as it may be shown) a failed call to `url` went through, or None: the
        environment's proxy for its scheme, when the address dialled was not the agent's own (or
        httpx said the proxy failed: `proxied`)."""
        proxies = environment_proxies() if self._client is not None else {}
        target = httpx.URL(url)
        proxy = proxies.get(target.scheme) or proxies.get("all")
        if proxy is None:
            return None
        if not proxied:
            dialed = self._dialed
            if dialed is None or (dialed[0].strip("[]"), dialed[1]) == (
                target.host,
                target.port or (443 if target.scheme == "https" else 80),
            ):
                return None
        return shown_proxy(proxy)

    def _timed_out(self, ex: Exchange) -> TimeoutExpired | None:
        """The bound whose timer shut the connection of `ex` (the deadline, or the unary bound), if one did."""
        if self._past_deadline():
            return self._expired()
        if self._cut is ex:  # the unary bound's timer shut it
            return TimeoutExpired(
                f"{ex.url} did not finish its answer within {self.cfg.unary_bound:g}s (the bound of one request without --timeout)",
                hint="--timeout N waits up to N seconds in all (--timeout 0: no bound)",
            )
        return None

    def _broken(self, ex: Exchange, e: httpx.HTTPError | httpx.StreamError) -> A2acliError:
        """What a read or write that failed means: the deadline or the unary bound (which shut the
        connection), TLS, a gRPC port, a malformed answer (h11 names what is wrong), or a
        connection that broke."""
        timed_out = self._timed_out(ex)
        if timed_out is not None:
            return timed_out
        if _is_tls(e):  # TLS 1.3: a refused client certificate shows up on the first read
            return UnreachableError(f"TLS with {ex.url} failed: {e}", hint=TLS_HINT)
        text = _one_line(str(e) or type(e).__name__)
        if isinstance(e, httpx.RemoteProtocolError):
            from a2acli.transport.grpc_port import grpc_port_error, speaks_http2_only  # an error's path only

            if ex.status is None and speaks_http2_only(ex.url):
                return grpc_port_error(ex.url)
            if not any(text.startswith(eof) for eof in _CLOSED_EARLY):  # h11 refused what it read
                from a2acli.errors import InvalidResponseError

                return InvalidResponseError(
                    f"{ex.url} sent a malformed HTTP {'answer' if ex.status is None else 'body'}: {text}",
                    hint="the agent (or a proxy on the way) breaks HTTP/1.1; --debug shows what was read",
                )
        return ConnectionBrokenError(
            f"the connection to {ex.url} broke before the answer was complete ({text})",
            hint="the agent closed the stream early; retry, or see --debug",
        )

    @contextmanager
    def open_stream(self, req: httpx.Request, *, label: str) -> Iterator[tuple[Exchange, httpx.Response]]:
        """Send a prepared request and keep the answer open; the caller reads it (sse.py). A
        watchdog closes the response when the whole-call deadline passes, so a silent stream
        cannot hang the CLI."""
        ex = self._new_exchange(label, req.method, req, streaming=True)
        self._emit("on_request", ex)
        try:
            with self._errors(ex):
                with self._bounded(ex, unary=True):  # the head: bounded like a unary answer
                    resp = self._send(req)
                try:
                    self._fill(ex, resp)
                    self._emit("on_response", ex)
                    with self._bounded(ex, unary=False):
                        yield ex, resp
                finally:
                    resp.close()
        finally:
            self._emit("on_complete", ex)

    @contextmanager
    def stream(
        self, req: httpx.Request, *, label: str, idle: Callable[[], None] | None = None
    ) -> "Iterator[tuple[Exchange, Iterator[SseEvent]]]":
        """Send a prepared request and yield its exchange and its events as they arrive. A non-2xx
        answer is read whole into the exchange and has no events. `idle` is called before each
        read of the stream, once every event of what was read has been taken (sse.iter_events)."""
        from a2acli.transport.sse import iter_events

        with self.open_stream(req, label=label) as (ex, resp):
            if not 200 <= resp.status_code < 300:
                with self.body(resp, ex) as body:
                    ex.response_body = b"".join(body)
                yield ex, iter(())
                return
            events = iter_events(ex, resp, self.taps, self.cfg.max_body, idle)
            try:
                yield ex, self._timed(ex, events)
            finally:
                events.close()  # the answer's reader ends here on every path, not at exit

    def _timed(self, ex: Exchange, events: "Iterator[SseEvent]") -> "Iterator[SseEvent]":
        """The events, and how the stream ended: when the deadline's timer shut the connection, a
        stream whose body runs to the connection's close reads a clean end (or an event cut in
        the middle), and a JSON answer to it (no SSE: its one event) is what had come by then;
        that is --timeout's doing, not the agent's (exit 5)."""
        try:
            for event in events:
                if self._shut and not ex.streaming:  # the one JSON document, cut where the timer shut it
                    raise self._timed_out(ex) or self._expired()
                yield event
        except ConnectionBrokenError as e:
            if self._past_deadline():
                raise self._expired() from e
            raise
        if self._past_deadline():
            raise self._expired()

    @contextmanager
    def body(self, resp: httpx.Response, ex: Exchange) -> Iterator[Iterator[bytes]]:
        """The answer's body decoded, piece by piece, stopped at its cap (BodyTooLargeError): a
        public document's is its own (limits.DOCUMENT_CAPS: a card, a key set, a catalog), or
        --max-body when lower; any other answer's --max-body. Its reader ends with the block, and
        the exchange keeps the bytes as they crossed the wire when they were encoded (response_wire)."""
        raw = RawBody(resp)
        pieces = inflate(raw, raw.coding)
        own = DOCUMENT_CAPS.get(ex.label)
        try:
            if own is None:
                yield capped(pieces, self.cfg.max_body, f"the answer of {ex.url}")
            else:
                cap, what, hint = own
                yield capped(
                    pieces,
                    min(cap, self.cfg.max_body),
                    f"{what} at {ex.url}",
                    hint=None if self.cfg.max_body < cap else hint,
                )
        finally:
            ex.response_wire = raw.wire()
            raw.close()

    @staticmethod
    def describe(req: httpx.Request) -> tuple[str, list[tuple[str, str]], bytes]:
        """(request line, headers as sent, body) of a prepared request, for --offline."""
        return f"{req.method} {req.url}", _raw_headers(req.headers), req.content

    def _send(self, req: httpx.Request) -> httpx.Response:
        """Send, following redirects. A call (it carries the credentials: API key, cookies, bearer)
        follows them within its origin only: httpx drops Authorization on the way to another host
        but not X-API-Key or a cookie, so a redirect elsewhere is refused, naming the target. The
        public card's GET carries none and follows any."""
        public = bool(req.extensions.get("a2acli.public"))
        for _ in range(10):
            req.extensions = {**req.extensions, "trace": self._trace, "timeout": self._capped(req)}
            resp = self.client.send(req, stream=True, follow_redirects=False)
            if resp.status_code == 407:
                self._proxy_refused(req, resp)
            target = resp.next_request
            if target is None:
                return resp
            resp.close()
            if public:  # the card: followed anywhere, but -H values stay with the origin they were given for
                if (
                    req.extensions.get("a2acli.https_only")
                    and target.url.scheme != "https"
                    and not is_loopback(target.url.host)
                ):
                    raise HttpError(
                        f"{req.url} redirects (HTTP {resp.status_code}) to {target.url}, not https",
                        hint="keys are fetched over https only",
                    )
                if (target.url.scheme, target.url.host, target.url.port) != (
                    req.url.scheme,
                    req.url.host,
                    req.url.port,
                ):
                    for name in [
                        n for n in target.headers if n.lower() not in _PUBLIC_HEADERS
                    ]:  # -H, an API key of a download
                        del target.headers[name]
                target.extensions = {
                    **target.extensions,
                    **{k: v for k, v in req.extensions.items() if k.startswith("a2acli.")},
                }
                req = target
                continue
            if (target.url.scheme, target.url.host, target.url.port) != (req.url.scheme, req.url.host, req.url.port):
                raise HttpError(
                    f"{req.url} redirects (HTTP {resp.status_code}) to another origin, {target.url}: credentials are not sent there",
                    hint=f"if you trust it, call it directly: --endpoint {target.url}",
                )
            req = target
        raise HttpError(f"{req.url}: too many redirects", hint="check --url / --endpoint")

    def _capped(self, req: httpx.Request) -> dict[str, float | None]:
        """The request's timeouts (httpx's `timeout` extension), each capped at what is left of
        the whole call's --timeout, as it is sent (not when it was prepared)."""
        timeouts = dict(req.extensions.get("timeout") or self._timeout().as_dict())
        left = self._remaining()
        if left is not None:
            timeouts = {k: left if v is None else min(v, left) for k, v in timeouts.items()}
        return timeouts

    def _proxy_refused(self, req: httpx.Request, resp: httpx.Response) -> None:
        """A 407 is a proxy's answer, never the agent's: named as the proxy's when the environment
        names one for the URL (an https:// agent's proxy refuses the tunnel: httpx's ProxyError)."""
        proxies = environment_proxies()
        proxy = proxies.get(req.url.scheme) or proxies.get("all")
        if proxy is None or is_loopback(req.url.host):  # (loopback: called directly, never proxied)
            return
        resp.close()
        raise UnreachableError(
            f"the proxy {shown_proxy(proxy)} refused to carry the call to {req.url}: HTTP 407 {resp.reason_phrase}".rstrip(),
            hint="the proxy wants credentials: give them in its URL (HTTP_PROXY=http://USER:PASSWORD@HOST:PORT),"
            " or list the agent's host in NO_PROXY",
        )

    def check_deadline(self) -> None:
        if self._deadline is not None:  # (once per stream event: nothing to do without --timeout)
            self._remaining()

    @staticmethod
    def _fill(ex: Exchange, resp: httpx.Response) -> None:
        ex.status = resp.status_code
        ex.reason = resp.reason_phrase
        ex.http_version = resp.http_version
        ex.response_headers = _raw_headers(resp.headers)


@contextmanager
def _bad_url(url: str) -> Iterator[None]:
    """A URL httpx cannot send to (`http://[::1`, a host `xn--a.com` that is no IDNA name): an
    invalid answer naming it (-u and --endpoint were checked as usage errors already; this one
    came from the agent: its card, a file part)."""
    from a2acli.errors import InvalidResponseError

    try:
        yield
    except (httpx.InvalidURL, UnicodeError) as e:
        if isinstance(e, UnicodeError) and not type(e).__module__.startswith("idna"):
            raise
        shown = url if len(url) <= 100 else url[:100] + "…"
        raise InvalidResponseError(
            f"cannot call {shown!r}: it is not a valid URL ({e})",
            hint="the Agent Card (or the answer) names a broken URL; --endpoint URL calls one of your choice",
        ) from None


# The setting a URL of an exchange came from, by its label, for the hints of a failed connection.
_SETTING_OF = {
    "catalog": "--catalog",
    "oauth-token": "the token URL (a flag, the profile, or the Agent Card)",
    "oauth-device": "the device authorization URL (a flag, the profile, or the Agent Card)",
    "oauth-discovery": "the discovery URL (--discovery-url, or the Agent Card's)",
}

# How h11 words an answer that ended early (the connection closed): a broken connection, not a
# malformed answer.
_CLOSED_EARLY = ("Server disconnected", "peer closed")


def _one_line(text: str) -> str:
    """An error's text on one line, cut short: what an agent sent may be in it."""
    import re

    line = re.sub(r"bytearray\(b(['\"])(.*?)\1\)", r"\1\2\1", " ".join(text.split()))  # h11: bytearray(b'…')
    return line if len(line) <= 200 else line[:200] + "…"


def _raw_headers(headers: httpx.Headers) -> list[tuple[str, str]]:
    """Header lines as they crossed the wire: the sender's spelling of each name, repeats kept."""
    return [(k.decode("latin-1"), v.decode("latin-1")) for k, v in headers.raw]


TLS_HINT = "check the certificate: --cacert PATH trusts a private CA, --cert/--key give a client certificate; --insecure skips verification (unsafe)"


def _connect_error(url: str, e: Exception, *, what: str = "--url") -> A2acliError:
    """`what` names the setting the URL came from, for the hints."""
    text = str(e)
    low = text.lower()
    if isinstance(getattr(e, "__context__", None), ssl.SSLError) or "ssl" in low or "certificate" in low:
        return UnreachableError(f"TLS handshake with {url} failed: {text}", hint=TLS_HINT)
    if (
        "name or service not known" in low
        or "nodename nor servname" in low
        or "getaddrinfo" in low
        or "name resolution" in low
    ):
        return UnreachableError(f"cannot resolve the host of {url}", hint=f"check the spelling of {what}")
    if what != "--url":
        return UnreachableError(
            f"cannot connect to {url}: {text or 'connection refused'}", hint=f"is it up? check {what}"
        )
    return UnreachableError(
        f"cannot connect to {url}: {text or 'connection refused'}",
        hint="is the agent running? check --url (try `a2a demo-server`)",
    )


def _is_tls(e: BaseException) -> bool:
    seen: BaseException | None = e
    for _ in range(5):
        if seen is None:
            return False
        if isinstance(seen, ssl.SSLError):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def http_status_error(ex: Exchange, what: str = "the agent") -> A2acliError:
    """A non-2xx answer as an error (the card look-up; bindings read A2A errors first)."""
    from a2acli.wire.bindings.base import http_status_error as status_error

    return status_error(ex, what)
