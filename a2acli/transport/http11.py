"""HTTP/1.1 for httpx over the standard library's `http.client`: the transport of every call.

Why not httpx's own (httpcore and h11): they cost ~12 ms of every start-up to import (issue 26),
while `http.client` is loaded already (httpx's cookie jar imports it). httpx keeps doing everything
above the connection: URLs, headers, cookies, redirects, decoding. This module only opens
connections, writes the request as httpx prepared it, and hands the answer back as it came:
the status line's version and reason, each header line in the sender's spelling, the body as it
arrives (one read of the socket at a time, so a stream's events are not held back).

Connections are kept per origin and reused only when the answer before was read to its end and
the agent did not ask to close; an idle connection the agent has closed meanwhile is noticed
before anything is written to it. Nothing is ever sent twice: a request that fails after being
written fails. Failures come out as httpx's exceptions, as httpcore's would (client.py maps them).
Proxies: HTTP_PROXY, HTTPS_PROXY, ALL_PROXY and NO_PROXY (either case; NO_PROXY as curl reads it,
net.bypasses_proxy); an agent on this machine (localhost, 127.0.0.0/8, ::1) is
never proxied, as Go's net/http does. A proxied request goes through httpx's
own transport (httpcore, loaded then), with the same TLS context."""

from __future__ import annotations

import http.client
import select
import socket
import ssl
import threading
from collections.abc import Callable, Iterator
from typing import Any

import httpx

# One read of the socket at most: what is there is passed on at once (a stream's events stay live).
READ_SIZE = 64 * 1024
_VERSIONS = {9: b"HTTP/0.9", 10: b"HTTP/1.0", 11: b"HTTP/1.1"}
_Origin = tuple[str, str, int]


def ssl_context(verify: ssl.SSLContext | bool) -> ssl.SSLContext:
    """httpx's TLS context for `verify` (True: certifi's CA bundle, or SSL_CERT_FILE / SSL_CERT_DIR;
    False: no verification; or a context of the caller's), offering HTTP/1.1 by ALPN."""
    ctx = httpx.create_ssl_context(verify=verify)
    ctx.set_alpn_protocols(["http/1.1"])
    return ctx


class Http11Transport(httpx.BaseTransport):
    """`tls` makes the TLS context, on the first https:// request (loading the CA bundle costs
    ~20 ms that a plain http:// agent does not pay)."""

    def __init__(self, tls: Callable[[], ssl.SSLContext]) -> None:
        self._tls = tls
        self._context: ssl.SSLContext | None = None
        self._lock = threading.Lock()
        self._idle: dict[_Origin, list[http.client.HTTPConnection]] = {}
        # each with its socket: http.client drops `conn.sock` when the answer ends the connection
        # (Connection: close, HTTP/1.0), and abort() must still reach it
        self._busy: dict[http.client.HTTPConnection, socket.socket | None] = {}
        self._proxies: dict[str, str] | None = None  # the environment's, read on the first request
        self._aborts = 0  # abort() calls so far: one that lands while a connection is opened cuts it too
        self._proxied: dict[tuple[str, bool], httpx.BaseTransport] = {}  # by proxy URL, and TLS or not

    # -- httpx.BaseTransport --------------------------------------------------------------------
    def handle_request(self, request: httpx.Request) -> httpx.Response:
        url = request.url
        if url.scheme not in ("http", "https"):
            raise httpx.UnsupportedProtocol(f"Request URL has an unsupported protocol '{url.scheme}://'.")
        proxy = self._proxy(url)
        if proxy is not None:
            return self._through(proxy, url).handle_request(request)
        # the host as the Host header names it: IDNA 2008 (`xn--strae-oqa`), not the IDNA 2003 that
        # the socket and ssl modules would make of `straße` (`strasse`, another host)
        origin = (url.scheme, url.raw_host.decode("ascii"), url.port or (443 if url.scheme == "https" else 80))
        timeouts = request.extensions.get("timeout", {})
        aborts = self._aborts
        conn = self._reuse(origin) or self._connect(origin, timeouts.get("connect"))
        sock = conn.sock
        with self._lock:
            self._busy[conn] = sock
            cut = self._aborts != aborts  # abort() ran while the connection was being opened or taken
        try:
            if cut:
                raise httpx.ReadError("the connection was closed")
            _settimeout(conn, timeouts.get("read"))
            try:
                _write(conn, request)
            except httpx.WriteError as unsent:
                # An agent may answer before it has read the whole request (a 413, or a gRPC port's
                # opening frames) and close: its answer is read, as httpcore does; none: the write's error.
                try:
                    resp = _read_head(conn)
                except httpx.TransportError:
                    raise unsent from None
            else:
                resp = _read_head(conn)
            if self._lost(conn):  # abort() shut it: http.client takes the end of file for the head's end
                raise httpx.ReadError("the connection was closed")
        except BaseException:
            self._discard(conn)
            raise
        headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in resp.msg.items()]
        return httpx.Response(
            resp.status,
            headers=headers,
            stream=_Body(self, origin, conn, sock, resp),
            extensions={
                "http_version": _VERSIONS.get(resp.version, b"HTTP/1.1"),
                "reason_phrase": resp.reason.encode("latin-1", "replace"),
            },
        )

    def close(self) -> None:
        self.abort()

    # -- proxies --------------------------------------------------------------------------------
    def proxy_for(self, url: httpx.URL) -> str | None:
        """The proxy `url` goes through, as it may be shown (no user or password), or None."""
        proxy = self._proxy(url)
        if proxy is None:
            return None
        return _shown(proxy)

    def _proxy(self, url: httpx.URL) -> str | None:
        """The proxy URL the environment names for `url`, or None (direct)."""
        if self._proxies is None:
            from urllib.request import getproxies  # (loaded already: httpx imports it)

            self._proxies = {k: v for k, v in getproxies().items() if v}
        proxies = self._proxies
        proxy = proxies.get(url.scheme) or proxies.get("all")
        if not proxy:
            return None
        from a2acli.net import bypasses_proxy, is_loopback

        if is_loopback(url.host):
            return None
        port = url.port or (443 if url.scheme == "https" else 80)
        if bypasses_proxy(url.raw_host.decode("ascii"), port, proxies.get("no", "")):
            return None
        return proxy if "://" in proxy else f"http://{proxy}"

    def _through(self, proxy: str, url: httpx.URL) -> httpx.BaseTransport:
        """httpx's own transport through `proxy`; with the TLS context when TLS is spoken (to an
        https:// agent, or to an https:// proxy), else none (no CA bundle is loaded for it)."""
        tls = url.scheme == "https" or proxy.startswith("https:")
        with self._lock:
            transport = self._proxied.get((proxy, tls))
        if transport is None:
            try:
                made = httpx.HTTPTransport(proxy=proxy, verify=self._tls_context() if tls else False)
            except (ValueError, ImportError) as e:  # a scheme httpx has no transport for; socks5 without socksio
                from a2acli.errors import UsageError

                why = str(e) if isinstance(e, ImportError) else f"no {proxy.partition('://')[0]}:// proxies"
                raise UsageError(
                    f"the proxy {_shown(proxy)} (from the environment) is not one a2a can use: {why}",
                    hint="HTTP_PROXY / HTTPS_PROXY / ALL_PROXY take an http:// or https:// proxy URL"
                    " (socks5:// with `pip install 'httpx[socks]'`); NO_PROXY lists hosts to call directly",
                ) from None
            with self._lock:
                transport = self._proxied.setdefault((proxy, tls), made)
        return transport

    # -- connections ----------------------------------------------------------------------------
    def abort(self) -> None:
        """Shut every connection now, those in use too: a read blocked on one ends at once (it
        fails, and client.py says why). Safe from another thread."""
        with self._lock:
            conns = [*self._busy.items(), *((c, c.sock) for idle in self._idle.values() for c in idle)]
            proxied = list(self._proxied.values())
            self._busy.clear()
            self._aborts += 1
            self._idle.clear()
            self._proxied.clear()
        for conn, sock in conns:
            _shut(conn, sock)
        for transport in proxied:
            transport.close()

    def _reuse(self, origin: _Origin) -> http.client.HTTPConnection | None:
        while True:
            with self._lock:
                idle = self._idle.get(origin)
                if not idle:
                    return None
                conn = idle.pop()
            if _alive(conn):
                return conn
            conn.close()  # the agent closed it while it was idle: a new one

    def _connect(self, origin: _Origin, timeout: float | None) -> http.client.HTTPConnection:
        scheme, host, port = origin
        conn: http.client.HTTPConnection
        if scheme == "https":
            conn = http.client.HTTPSConnection(host, port, timeout=timeout, context=self._tls_context())
        else:
            conn = http.client.HTTPConnection(host, port, timeout=timeout)
        conn.auto_open = False  # one connection per request: closed (abort()), it is not opened again
        try:
            conn.connect()
        except TimeoutError as e:
            conn.close()
            raise httpx.ConnectTimeout(str(e) or "timed out") from e
        except OSError as e:  # refused, unresolvable, unreachable, a TLS handshake that failed
            conn.close()
            raise httpx.ConnectError(str(e)) from e
        return conn

    def _tls_context(self) -> ssl.SSLContext:
        """The TLS context, made on first use."""
        if self._context is None:
            self._context = self._tls()
        return self._context

    def _lost(self, conn: http.client.HTTPConnection) -> bool:
        """Whether abort() took `conn` away while it was in use."""
        with self._lock:
            return conn not in self._busy

    def _release(self, origin: _Origin, conn: http.client.HTTPConnection, reusable: bool) -> None:
        with self._lock:
            held = conn in self._busy  # not when abort() took it meanwhile
            self._busy.pop(conn, None)
            if reusable and held:
                self._idle.setdefault(origin, []).append(conn)
                return
        conn.close()

    def _discard(self, conn: http.client.HTTPConnection) -> None:
        with self._lock:
            self._busy.pop(conn, None)
        conn.close()


class _Body(httpx.SyncByteStream):
    """The answer's body as it arrives. Its connection goes back to the pool once the body was
    read to its end (and the agent keeps it open); closed early, the connection is shut."""

    def __init__(
        self,
        pool: Http11Transport,
        origin: _Origin,
        conn: http.client.HTTPConnection,
        sock: socket.socket | None,  # conn.sock is None once the answer owns the connection
        resp: http.client.HTTPResponse,
    ) -> None:
        self._pool, self._origin, self._conn, self._sock, self._resp = pool, origin, conn, sock, resp
        self._ended = False
        self._closed = False

    def __iter__(self) -> Iterator[bytes]:
        resp = self._resp
        while not self._ended:
            try:
                chunk = resp.read1(READ_SIZE)
            except TimeoutError as e:
                raise httpx.ReadTimeout(str(e) or "timed out") from e
            except http.client.IncompleteRead as e:  # (expected: None for a chunk cut off or its size unreadable)
                detail = "incomplete chunked read" if e.expected is None else f"{e.expected} bytes of a chunk short"
                raise httpx.RemoteProtocolError(
                    f"peer closed connection without sending complete message body ({detail})"
                ) from e
            except http.client.HTTPException as e:
                raise httpx.RemoteProtocolError(str(e) or type(e).__name__) from e
            except (OSError, ValueError, AttributeError) as e:  # reset; or shut by abort() or close() meanwhile
                raise httpx.ReadError(str(e) or "the connection was closed") from e
            if chunk:
                yield chunk
                continue
            if self._closed or self._pool._lost(self._conn):  # shut by close() or abort(), not ended
                raise httpx.ReadError("the connection was closed")
            if resp.length:  # a Content-Length the agent did not reach
                raise httpx.RemoteProtocolError(
                    f"peer closed connection without sending complete message body ({resp.length} bytes short)"
                )
            self._ended = True

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        reusable = self._ended and not self._resp.will_close
        if not reusable:
            _shut(self._conn, self._sock)  # first: a read blocked in another thread ends now
        self._resp.close()
        self._pool._release(self._origin, self._conn, reusable)


def _shown(proxy: str) -> str:
    """A proxy URL as it may be shown: without its user and password."""
    scheme, sep, rest = proxy.partition("://")
    return scheme + sep + rest.rpartition("@")[2] if sep else proxy.rpartition("@")[2]


def _write(conn: http.client.HTTPConnection, request: httpx.Request) -> None:
    """The request line, the headers as httpx prepared them (its Host and Accept-Encoding, no
    others), then the body."""
    body = request.read()
    chunked = any(k.lower() == b"transfer-encoding" for k, _ in request.headers.raw)
    try:
        conn.putrequest(request.method, request.url.raw_path.decode("ascii"), skip_host=True, skip_accept_encoding=True)
        for name, value in request.headers.raw:
            conn.putheader(name, value)
        conn.endheaders(([body] if body else []) if chunked else (body or None), encode_chunked=chunked)
    except TimeoutError as e:
        raise httpx.WriteTimeout(str(e) or "timed out") from e
    except OSError as e:
        raise httpx.WriteError(str(e)) from e
    except http.client.NotConnected as e:  # abort() closed it meanwhile
        raise httpx.WriteError("the connection was closed") from e


def _read_head(conn: http.client.HTTPConnection) -> http.client.HTTPResponse:
    try:
        resp = conn.getresponse()
        while 100 <= resp.status < 200 and resp.status != 101:  # 103 Early Hints and the like: the answer follows
            resp = _next_response(conn, resp)
    except TimeoutError as e:
        raise httpx.ReadTimeout(str(e) or "timed out") from e
    except http.client.RemoteDisconnected as e:
        raise httpx.RemoteProtocolError("Server disconnected without sending a response.") from e
    except http.client.HTTPException as e:  # not HTTP/1.x: an illegal status line, a header too long
        line = str(e).strip()  # (the line as read: its CRLF, up to 64 KB of whatever the port sent)
        raise httpx.RemoteProtocolError(
            f"illegal status line or header: {line[:100] + '…' if len(line) > 100 else line}"
        ) from e
    except (OSError, ValueError, AttributeError) as e:
        raise httpx.ReadError(str(e) or "the connection was closed") from e
    return resp


def _next_response(
    conn: http.client.HTTPConnection, informational: http.client.HTTPResponse
) -> http.client.HTTPResponse:
    """The answer after an informational one (http.client skips only 100 Continue itself)."""
    resp = conn.response_class(conn.sock, method=informational._method)  # type: ignore[attr-defined]
    resp.fp.close()
    # what was read past the informational head stays in its buffer: the next head is read from it
    resp.fp = informational.fp
    informational.fp = None  # type: ignore[assignment]  # (its finalizer would close what it shares)
    resp.begin()
    conn._HTTPConnection__response = resp  # type: ignore[attr-defined]
    return resp


def _settimeout(conn: http.client.HTTPConnection, seconds: Any) -> None:
    if conn.sock is not None:
        conn.sock.settimeout(seconds)


def _alive(conn: http.client.HTTPConnection) -> bool:
    """An idle connection the agent has not closed: nothing is readable on it (an end of file,
    or bytes nobody asked for, mean it cannot carry a request)."""
    sock = conn.sock
    if sock is None:
        return False
    try:
        readable, _, _ = select.select([sock], [], [], 0)
    except (OSError, ValueError):
        return False
    return not readable


def _shut(conn: http.client.HTTPConnection, sock: socket.socket | None) -> None:
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
    conn.close()
