"""The connections under the one httpx client: httpx's own transport (`httpx.HTTPTransport`:
httpcore and h11), made on the first request of each scheme so that a plain http:// call loads
no CA bundle; behind a proxy named by the environment, httpx's own proxy handling (trust_env)."""

from __future__ import annotations

import socket
import ssl
from collections.abc import Callable

import httpx


class Connections(httpx.BaseTransport):
    """httpx's own transport (`httpx.HTTPTransport`), one per scheme, made on its first request:
    the TLS context (`tls()`; the CA bundle: ~20 ms) is made only when an https:// URL is called,
    or at once with `tls_now` (--cacert / --cert: a bad file is a usage error before anything is sent)."""

    def __init__(self, tls: Callable[[], ssl.SSLContext], *, tls_now: bool = False) -> None:
        self._tls = tls
        self._made: dict[str, httpx.BaseTransport] = {}
        if tls_now:
            self._made["https"] = httpx.HTTPTransport(verify=tls())

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        scheme = request.url.scheme
        transport = self._made.get(scheme)
        if transport is None:
            if scheme not in ("http", "https"):
                raise httpx.UnsupportedProtocol(f"Request URL has an unsupported protocol '{scheme}://'.")
            # http://: no TLS is spoken, so no CA bundle is loaded (verify=False: httpx's bare context)
            verify: ssl.SSLContext | bool = self._tls() if scheme == "https" else False
            transport = self._made[scheme] = httpx.HTTPTransport(verify=verify)
        return transport.handle_request(request)

    def close(self) -> None:
        for transport in self._made.values():
            transport.close()


# An agent on this machine is called directly whatever the proxy variables say (as Go's net/http
# does): httpx's mounts, `None` meaning "no proxy" for the pattern.
LOOPBACK_DIRECT: dict[str, httpx.BaseTransport | None] = {
    "all://localhost": None,
    "all://127.0.0.1": None,
    "all://[::1]": None,
}


def environment_proxies() -> dict[str, str]:
    """The proxies the environment names (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY, either case), by
    scheme (`http`, `https`, `all`), as httpx reads them (`urllib.request.getproxies`)."""
    from urllib.request import getproxies  # (loaded already: httpx imports it)

    return {
        k: v if "://" in v else f"http://{v}" for k, v in getproxies().items() if v and k in ("http", "https", "all")
    }


def shown_proxy(proxy: str) -> str:
    """A proxy URL as it may be shown: without its user and password."""
    scheme, sep, rest = proxy.partition("://")
    return scheme + sep + rest.rpartition("@")[2] if sep else proxy.rpartition("@")[2]


def make_client(tls: Callable[[], ssl.SSLContext], *, tls_now: bool = False) -> httpx.Client:
    """The one httpx client of a Transport. With no proxy in the environment (the usual case), over Connections;
    behind one, httpx reads HTTP_PROXY / HTTPS_PROXY / ALL_PROXY / NO_PROXY itself (trust_env) and
    builds its transports at once, so the TLS context is made then."""
    proxies = environment_proxies()
    if not proxies:
        return httpx.Client(transport=Connections(tls, tls_now=tls_now), follow_redirects=True)
    try:
        return httpx.Client(verify=tls(), trust_env=True, mounts=LOOPBACK_DIRECT, follow_redirects=True)
    except (ValueError, ImportError) as e:  # a scheme httpx has no transport for; socks5 without socksio
        from a2acli.errors import UsageError

        bad = [p for p in proxies.values() if not p.startswith(("http://", "https://"))] or list(proxies.values())
        why = str(e) if isinstance(e, ImportError) else f"no {bad[0].partition('://')[0]}:// proxies"
        raise UsageError(
            f"the proxy {shown_proxy(bad[0])} (from the environment) is not one a2a can use: {why}",
            hint="HTTP_PROXY / HTTPS_PROXY / ALL_PROXY take an http:// or https:// proxy URL"
            " (socks5:// with `pip install 'httpx[socks]'`); NO_PROXY lists hosts to call directly",
        ) from None


def shutdown(sock: socket.socket) -> None:
    """End every read and write on `sock` now, from any thread (closing it would not wake a read
    blocked on it); its owner closes it."""
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:  # closed already, or never connected
        pass
