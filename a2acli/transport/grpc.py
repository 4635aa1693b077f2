"""The gRPC carrier: moves the gRPC binding's requests with grpcio and the official a2a-sdk's
generated modules (the `grpc` extra). Imported only when a gRPC interface is used.

The binding's request description holds the method path and the request message as ProtoJSON;
here it becomes protobuf (google.protobuf.json_format) and goes out with metadata in place of
headers. Each answer is written back into an Exchange as JSON, so the taps (`--debug`, `--dump`),
the binding and everything after it see what they see over HTTP: the status as its HTTP twin
(NOT_FOUND 404, UNAUTHENTICATED 401, …), the metadata as headers, and a failure as a
google.rpc.Status body with its details (ErrorInfo) decoded."""

from __future__ import annotations

import base64
import json
import ssl
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from a2acli.errors import (
    A2acliError,
    ConnectionBrokenError,
    MissingExtraError,
    TimeoutExpired,
    UnreachableError,
    UsageError,
)
from a2acli.transport.exchange import Exchange
from a2acli.transport.sse import SseEvent

# The generated module that registers each service's messages (from the official a2a-sdk).
SERVICE_MODULES = {"lf.a2a.v1.A2AService": "a2a.types.a2a_pb2", "a2a.v1.A2AService": "a2a.compat.v0_3.a2a_v0_3_pb2"}
HTTP_TWIN = {
    "OK": 200, "CANCELLED": 499, "UNKNOWN": 500, "INVALID_ARGUMENT": 400, "DEADLINE_EXCEEDED": 504, "NOT_FOUND": 404,
    "ALREADY_EXISTS": 409, "PERMISSION_DENIED": 403, "RESOURCE_EXHAUSTED": 429, "FAILED_PRECONDITION": 400, "ABORTED": 409,
    "OUT_OF_RANGE": 400, "UNIMPLEMENTED": 501, "INTERNAL": 500, "UNAVAILABLE": 503, "DATA_LOSS": 500, "UNAUTHENTICATED": 401,
}  # fmt: skip
PLAINTEXT_SCHEMES = ("http", "grpc")
TLS_SCHEMES = ("https", "grpcs")


class GrpcRequest(NamedTuple):
    url: str  # as shown: grpc://host:port/service/rpc (grpcs:// with TLS)
    target: str  # host:port, as grpc dials it
    secure: bool
    path: str  # /service/rpc
    metadata: tuple[tuple[str, str], ...]
    body: bytes  # the request message as ProtoJSON


def grpc_target(url: str, plaintext: bool) -> tuple[str, bool]:
    """(host:port, TLS?) of an interface URL: `http://` and `grpc://` are plaintext, `https://` and
    `grpcs://` TLS; a bare `host:port` (as a2a-sdk cards list gRPC) is TLS unless --plaintext."""
    parts = urlsplit(url if "://" in url else f"//{url}")
    if parts.scheme and parts.scheme not in PLAINTEXT_SCHEMES + TLS_SCHEMES:
        raise UsageError(
            f"a gRPC interface URL is host:port, grpc:// or grpcs://, not {url!r}",
            hint="e.g. --endpoint 127.0.0.1:50051 --transport grpc --plaintext",
        )
    if not parts.hostname:
        raise UsageError(
            f"the gRPC interface URL {url!r} has no host", hint="e.g. --endpoint 127.0.0.1:50051 --transport grpc"
        )
    port = parts.port or (443 if parts.scheme in TLS_SCHEMES or (not parts.scheme and not plaintext) else 80)
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    secure = parts.scheme in TLS_SCHEMES or (not parts.scheme and not plaintext)
    return f"{host}:{port}", secure


def _grpc() -> Any:
    """grpcio, imported on the first call that sends (preparing and --offline need none of it)."""
    import os

    os.environ.setdefault("GRPC_VERBOSITY", "NONE")  # grpc's C core logs to stderr; failures are reported here
    try:
        import grpc
        from google.protobuf import json_format  # noqa: F401 - fails without protobuf
    except ImportError as e:  # the extra is missing
        raise MissingExtraError(f"gRPC needs the grpc extra ({e.name} is not installed)", hint=extra_hint()) from None
    return grpc


def installed() -> bool:
    """Whether the grpc extra is here (grpcio, protobuf, the a2a-sdk), found without importing
    it: a core install skips a card's gRPC interfaces for the next one it lists."""
    from importlib.util import find_spec

    try:
        return all(find_spec(name) is not None for name in ("grpc", "google.protobuf", "a2a"))
    except (ImportError, ValueError):  # a parent that is no package, a module whose spec is unset
        return False


def extra_hint() -> str:
    from a2acli.extras import install_hint

    return "add the grpc extra: " + install_hint("grpc")


def message_classes(path: str) -> tuple[Any, Any]:
    """(request class, response class) of a method path `/service/rpc`, from the SDK's modules."""
    import importlib

    _grpc()
    from google.protobuf import descriptor_pool
    from google.protobuf.message_factory import GetMessageClass

    service, _, rpc = path.strip("/").partition("/")
    try:
        importlib.import_module(SERVICE_MODULES[service])
        method = descriptor_pool.Default().FindServiceByName(service).methods_by_name[rpc]
    except ImportError as e:
        raise MissingExtraError(
            f"gRPC needs the official a2a-sdk's generated modules ({e.name} is not installed)", hint=extra_hint()
        ) from None
    except KeyError:
        raise UsageError(f"{service} has no rpc {rpc}", hint="see the method table: `a2a call --help`") from None
    return GetMessageClass(method.input_type), GetMessageClass(method.output_type)


def to_json(message: Any) -> bytes:
    from google.protobuf import json_format

    return json.dumps(json_format.MessageToDict(message), ensure_ascii=False, separators=(",", ":")).encode()


class GrpcTransport:
    """Moves gRPC requests; shares the HTTP transport's configuration, taps and deadline."""

    def __init__(self, http: Any, *, plaintext: bool = False) -> None:
        self.http = http
        self.cfg = http.cfg
        self.taps = http.taps
        self.plaintext = plaintext
        self._channels: dict[tuple[str, bool], Any] = {}

    def close(self) -> None:
        for channel in self._channels.values():
            channel.close()

    # -- preparing ------------------------------------------------------------------------------------
    def prepare(
        self, base_url: str, request: Any, *, creds: Any = None, headers: dict[str, str] | None = None
    ) -> GrpcRequest:
        """The call: target, method path, metadata (what headers carry over HTTP: a2a-version,
        credentials, -H, …; names lowercase, as gRPC wants) and the message."""
        target, secure = grpc_target(base_url, self.plaintext)
        merged = self.http.headers({**(creds.headers if creds else {}), **(headers or {})})
        metadata = [(k.lower(), v) for k, v in merged.items() if k.lower() not in ("user-agent", "content-type")]
        if creds is not None:
            metadata += [(k.lower(), v) for k, v in creds.params.items()]  # an API key the card puts in the query
            if creds.cookies:
                metadata.append(("cookie", "; ".join(f"{k}={v}" for k, v in creds.cookies.items())))
        return GrpcRequest(
            f"{'grpcs' if secure else 'grpc'}://{target}{request.path}",
            target,
            secure,
            request.path,
            tuple(metadata),
            request.body or b"{}",
        )

    @staticmethod
    def describe(req: GrpcRequest) -> tuple[str, list[tuple[str, str]], bytes]:
        return f"POST {req.url}", list(req.metadata), req.body

    # -- sending ---------------------------------------------------------------------------------------
    def _begin(self, req: GrpcRequest, label: str, *, streaming: bool) -> tuple[Any, Any, Exchange]:
        """(response class, request message, exchange) of a call about to go out; the taps told."""
        request_cls, response_cls = message_classes(req.path)
        message = self._message(req, request_cls)
        ex = self._new_exchange(req, label, streaming=streaming)
        ex.protobuf["request"] = message.SerializeToString()
        self._emit("on_request", ex)
        return response_cls, message, ex

    def exchange(self, req: GrpcRequest, *, label: str) -> Exchange:
        """One unary call; the answer (or the failure) written into the exchange."""
        grpc = _grpc()
        response_cls, message, ex = self._begin(req, label, streaming=False)
        try:
            with self._errors(ex, req):
                call = self._channel(req).unary_unary(
                    req.path, request_serializer=_serialize, response_deserializer=response_cls.FromString
                )
                try:
                    response, state = call.with_call(message, metadata=req.metadata, timeout=self._timeout(idle=True))
                except grpc.RpcError as e:
                    self._failed(ex, e, req, unary=True)
                else:
                    self._ok(ex, state)
                    ex.response_body = to_json(response)
                    ex.protobuf["response"] = response.SerializeToString()
                    self._emit("on_response", ex)
        finally:
            self._emit("on_complete", ex)
        return ex

    @contextmanager
    def stream(
        self, req: GrpcRequest, *, label: str, idle: Callable[[], None] | None = None
    ) -> Iterator[tuple[Exchange, Iterator[SseEvent]]]:
        """A server-streaming call: the exchange, and each response message as an event (data: its
        ProtoJSON). A failure before the first message is the exchange's status, with no events; a
        failure later is an `error` event holding the status. `idle` is called before waiting for
        the next message (gRPC hands them out one at a time: a read per message)."""
        grpc = _grpc()
        response_cls, message, ex = self._begin(req, label, streaming=True)
        try:
            with self._errors(ex, req):
                call = self._channel(req).unary_stream(
                    req.path, request_serializer=_serialize, response_deserializer=response_cls.FromString
                )(message, metadata=req.metadata, timeout=self._timeout())
                watchdog = _Idle(call, None if self.cfg.timeout else self.cfg.idle_timeout)
                try:
                    try:
                        first = next(call, None)
                    except grpc.RpcError as e:
                        watchdog.check(req)
                        self._failed(ex, e, req)
                        yield ex, iter(())
                        return
                    self._ok(ex, call)
                    self._emit("on_response", ex)
                    yield ex, self._events(ex, req, call, first, watchdog, idle)
                finally:
                    watchdog.stop()
        finally:
            self._emit("on_complete", ex)

    def _events(
        self,
        ex: Exchange,
        req: GrpcRequest,
        call: Any,
        first: Any,
        idle: _Idle,
        on_wait: Callable[[], None] | None = None,
    ) -> Iterator[SseEvent]:
        grpc = _grpc()
        index = 0
        pending = first
        while pending is not None:
            data = to_json(pending).decode()
            for tap in self.taps:
                tap.on_chunk(ex, base64.b64encode(pending.SerializeToString()) + b"\n")
            ex.events = index + 1
            for tap in self.taps:
                tap.on_event(ex, index, "message", data)
            yield SseEvent(index, "message", data)
            index += 1
            idle.reset()
            if on_wait is not None:
                on_wait()
            try:
                pending = next(call, None)
            except grpc.RpcError as e:
                idle.check(req)
                code = e.code()
                if code == grpc.StatusCode.DEADLINE_EXCEEDED:
                    raise TimeoutExpired(
                        f"--timeout {self.cfg.timeout:g}s expired during the stream"
                        if self.cfg.timeout
                        else "the stream's deadline expired",
                        hint="raise --timeout",
                    ) from None
                if code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED):
                    raise ConnectionBrokenError(
                        f"the gRPC stream from {req.target} broke: {e.details()}",
                        hint="the agent closed the stream early; retry, or see --debug",
                    ) from None
                data = json.dumps(_status_doc(e)).encode().decode()
                for tap in self.taps:
                    tap.on_event(ex, index, "error", data)
                yield SseEvent(index, "error", data)
                return

    # -- plumbing --------------------------------------------------------------------------------------
    def _channel(self, req: GrpcRequest) -> Any:
        grpc = _grpc()
        key = (req.target, req.secure)
        if key not in self._channels:
            options = [("grpc.primary_user_agent", dict(self.http.headers()).get("User-Agent", "a2acli"))]
            if req.secure:
                creds, override = self._tls(req.target)
                if override:
                    options.append(("grpc.ssl_target_name_override", override))
                self._channels[key] = grpc.secure_channel(req.target, creds, options=options)
            else:
                self._channels[key] = grpc.insecure_channel(req.target, options=options)
        return self._channels[key]

    def _tls(self, target: str) -> tuple[Any, str | None]:
        """Channel credentials: --cacert (else the default roots), --cert/--key; --insecure trusts
        the certificate the server presents (fetched first), as gRPC cannot skip verification."""
        grpc = _grpc()
        cfg = self.cfg

        def read(path: str | None) -> bytes | None:
            if not path:
                return None
            try:
                with open(path, "rb") as f:
                    return f.read()
            except OSError as e:
                raise UsageError(f"cannot read {path}: {e.strerror}", hint="check the path") from None

        roots = read(cfg.cacert)
        override = None
        if cfg.insecure:
            host, _, port = target.rpartition(":")
            try:
                roots = ssl.get_server_certificate((host.strip("[]"), int(port))).encode()
            except (OSError, ValueError) as e:
                raise UnreachableError(
                    f"cannot fetch the TLS certificate of {target}: {e}",
                    hint="is it up, and does it speak TLS? (--plaintext if not)",
                ) from None
            override = host.strip("[]")
        chain = read(cfg.cert)
        key = read(cfg.key) if cfg.key else chain if chain else None
        return grpc.ssl_channel_credentials(root_certificates=roots, private_key=key, certificate_chain=chain), override

    def _message(self, req: GrpcRequest, cls: Any) -> Any:
        from google.protobuf import json_format

        try:
            return json_format.ParseDict(json.loads(req.body), cls(), ignore_unknown_fields=False)
        except (json_format.ParseError, ValueError) as e:
            raise UsageError(
                f"the request does not fit {cls.DESCRIPTOR.full_name}: {e}",
                hint="compare with --offline; params are in V1 form",
            ) from None

    def _timeout(self, *, idle: bool = False) -> float | None:
        """What is left of --timeout; without it, with `idle`, the idle bound (a unary answer
        sends nothing until it is complete, so the bound is its deadline)."""
        left = self.http.time_left()
        if left is not None and left <= 0:
            raise TimeoutExpired(f"--timeout {self.cfg.timeout:g}s expired", hint="raise --timeout")
        return self.cfg.idle_timeout if left is None and idle else left

    def _new_exchange(self, req: GrpcRequest, label: str, *, streaming: bool) -> Exchange:
        self.http._seq += 1  # one numbering for every exchange of the call, whatever carried it
        ex = Exchange(self.http._seq, label, "POST", req.url, list(req.metadata), req.body, streaming, target=req.path)
        ex.request_version = ex.http_version = "HTTP/2"
        self.http.last = ex
        return ex

    def _emit(self, name: str, *args: Any) -> None:
        for tap in self.taps:
            getattr(tap, name)(*args)

    @staticmethod
    def _ok(ex: Exchange, state: Any) -> None:
        ex.status, ex.reason = 200, "OK"
        ex.response_headers = [("content-type", "application/grpc"), *_metadata(state.initial_metadata())]

    def _failed(self, ex: Exchange, e: Any, req: GrpcRequest, *, unary: bool = False) -> None:
        """An answered failure, kept in the exchange for the binding to read; one that says the
        agent is out of reach (UNAVAILABLE) or the deadline passed is raised here (exit 3, 5)."""
        name = e.code().name
        ex.status, ex.reason = HTTP_TWIN.get(name, 500), name
        ex.response_headers = [
            ("content-type", "application/grpc"),
            ("grpc-status", str(e.code().value[0])),
            ("grpc-message", e.details() or ""),
            *_metadata(e.trailing_metadata()),
        ]
        ex.response_body = json.dumps(_status_doc(e), ensure_ascii=False).encode()
        self._emit("on_response", ex)
        if name == "UNAVAILABLE":
            raise _unreached(e, req)
        if name == "DEADLINE_EXCEEDED":
            if (
                unary and not self.cfg.timeout
            ):  # its deadline was the idle bound (_timeout): the answer sends nothing until complete
                raise TimeoutExpired(
                    f"no answer from {req.url} within {self.cfg.idle_timeout:g}s (the idle bound without --timeout)",
                    hint="pass --timeout SECONDS to wait longer, or check that the agent is up",
                )
            raise TimeoutExpired(
                f"no answer from {req.url} in time"
                + (f" (--timeout {self.cfg.timeout:g}s)" if self.cfg.timeout else ""),
                hint="raise --timeout, or check that the agent is up",
            )

    @contextmanager
    def _errors(self, ex: Exchange, req: GrpcRequest) -> Iterator[None]:
        """Failures of the connection and of the deadline; an answered status stays in the
        exchange for the binding to read."""
        grpc = _grpc()
        t0 = time.monotonic()
        try:
            yield
        except A2acliError as e:
            ex.error = e.message
            raise
        except grpc.RpcError as e:
            ex.error = f"{e.code().name}: {e.details()}"
            raise _unreached(e, req) from None
        finally:
            ex.elapsed = time.monotonic() - t0


class _Idle:
    """Without --timeout, a stream that sends no message for the idle bound is cancelled and
    reported as a timeout (exit 5), as an HTTP stream that sends no byte for that long."""

    def __init__(self, call: Any, bound: float | None) -> None:
        self.call, self.bound, self.fired = call, bound, False
        self._timer: threading.Timer | None = None
        self.reset()

    def _fire(self) -> None:
        self.fired = True
        self.call.cancel()

    def reset(self) -> None:
        if self.bound is None:
            return
        self.stop()
        self._timer = threading.Timer(self.bound, self._fire)
        self._timer.daemon = True
        self._timer.start()

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def check(self, req: GrpcRequest) -> None:
        if self.fired:
            raise TimeoutExpired(
                f"{req.url} sent nothing for {self.bound:g}s (the idle bound without --timeout)",
                hint="pass --timeout SECONDS to wait longer, or check the agent",
            )


def _serialize(message: Any) -> bytes:
    return bytes(message.SerializeToString())


def _metadata(pairs: Any) -> list[tuple[str, str]]:
    out = []
    for k, v in pairs or ():
        if k == "grpc-status-details-bin":
            continue  # decoded into the body
        out.append((k, base64.b64encode(v).decode() if isinstance(v, bytes) else str(v)))
    return out


def _status_doc(e: Any) -> dict[str, Any]:
    """A gRPC failure as the google.rpc.Status body HTTP+JSON would carry, details decoded."""
    name = e.code().name
    status: dict[str, Any] = {"code": HTTP_TWIN.get(name, 500), "status": name, "message": e.details() or ""}
    for k, v in e.trailing_metadata() or ():
        if k == "grpc-status-details-bin" and isinstance(v, bytes):
            try:
                from google.protobuf import json_format
                from google.rpc import error_details_pb2, status_pb2  # noqa: F401 - registers ErrorInfo, BadRequest

                status["details"] = json_format.MessageToDict(status_pb2.Status.FromString(v)).get("details", [])
            except Exception:  # noqa: BLE001 - undecodable details: the status words stay
                status["details"] = [{"@type": "bytes", "value": base64.b64encode(v).decode()}]
    return {"error": status}


TLS_WORDS = ("ssl", "tls", "handshake", "certificate")
PLAINTEXT_HINT = "the server may not speak TLS: pass --plaintext (or a grpc:// URL)"
TLS_HINT = "the server speaks TLS: drop --plaintext, or use a grpcs:// URL"
CERT_HINT = "check the certificate: --cacert PATH trusts a private CA, --cert/--key give a client certificate; --insecure skips verification (unsafe)"


def _tls_reason(text: str) -> str:
    """The OpenSSL reason in grpc's multi-clause TLS failure (`...:OPENSSL_internal:WRONG_VERSION_NUMBER: ...`),
    else its last clause: one short line in place of the whole chain."""
    import re

    found = re.findall(r"routines:[^:]*:([A-Z][A-Z0-9_]+)", text)
    if found:
        return found[-1]
    return text.rsplit(": ", 1)[-1][:120]


def _unreached(e: Any, req: GrpcRequest) -> A2acliError:
    text = e.details() or e.code().name
    low = text.lower()
    if any(w in low for w in TLS_WORDS):
        reason = _tls_reason(text)
        if "wrong_version_number" in low or "wrong version" in low:  # TLS spoken to a plaintext port, or the reverse
            said, hint = (
                ("the server did not answer in TLS", PLAINTEXT_HINT)
                if req.secure
                else ("the server answered in TLS", TLS_HINT)
            )
        elif "verify" in low or "certificate" in low or "issuer" in low:
            said, hint = "the server's certificate was not accepted", CERT_HINT
        else:
            said, hint = "the handshake failed", PLAINTEXT_HINT if req.secure else TLS_HINT
        return UnreachableError(f"TLS with {req.target} failed: {said} ({reason})", hint=hint)
    return UnreachableError(
        f"cannot reach the gRPC endpoint {req.target}: {text}",
        hint="is the agent up? check --url / --endpoint" + ("; without TLS: --plaintext" if req.secure else ""),
    )
