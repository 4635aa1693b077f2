"""`a2a webhook listen`: a local receiver for A2A push notifications, on the stdlib http.server.

Every body shape met in practice is accepted and named:

- a V1 StreamResponse (`{"statusUpdate": …}` / `{"artifactUpdate": …}` / `{"task": …}` /
  `{"message": …}`): the V1 spec, and a2a-python 1.x (which posts it as application/json);
- a V0 bare Task, Message or event with `kind` (the 0.3 spec's example; a2a-js for V0 configs);
- a JSON-RPC request `{"method": "tasks/pushNotification", "params": {"result": <event>}}`
  (a vendor shape, seed 001, in no spec).

Request threads only read, check and answer (2xx at once, 401 for a credential mismatch, 400 for a
body that is not JSON, the framing guards of a2acli.serving for the rest); the caller's thread
prints, in arrival order, from a queue."""

from __future__ import annotations

import hmac
import json
import queue
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

from a2acli.errors import CANNOT_LISTEN, A2acliError, TimeoutExpired, UsageError
from a2acli.net import is_loopback, listen_failure, port_taken
from a2acli.render import views
from a2acli.render.output import Output
from a2acli.serving import GuardedHandler, GuardedServer, GuardedServer6, Limits, Refused

TOKEN_HEADERS = ("X-A2A-Notification-Token", "X-A2A-Token")
# What the receiver takes (docs/guide.md, "Load"): a notification is one event, so a body is capped
# at 4 MiB (413 past it, read no further); credentials are checked from the headers before any body
# is read (401, the body never read); a connection silent for SOCKET_TIMEOUT seconds is closed; up
# to BACKLOG connections wait to be accepted; the framing guards, the worker threads and their
# bound are a2acli.serving's (Limits).
MAX_BODY = 4 * 1024 * 1024
SOCKET_TIMEOUT = 10.0
BACKLOG = 512
WEBHOOK_METHOD = "tasks/pushNotification"


# -- what a body is -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shape:
    name: str  # a phrase for humans: "V1 StreamResponse (statusUpdate)"
    event: Any  # the event itself, unwrapped from any JSON-RPC envelope
    core: Any  # canonical V1 StreamResponse, or None when the body is not an A2A event


def classify(doc: Any) -> Shape:
    """Name a notification body's shape and bring its event to a canonical V1 StreamResponse."""
    from a2acli.wire.translate import to_core_stream_response
    from a2acli.wire.translate.detect import detect

    found = detect(doc)
    if found.kind == "webhook-jsonrpc":
        params = doc.get("params")
        result = params.get("result") if isinstance(params, dict) else None
        inner = classify(result) if result is not None else None
        if inner is None or inner.core is None:
            return Shape(f"JSON-RPC {WEBHOOK_METHOD} without an event under params.result", doc, None)
        return Shape(f"JSON-RPC {WEBHOOK_METHOD}, params.result: {inner.name}", result, inner.core)
    if found.kind in ("stream-response", "send-result"):
        member = next(
            (k for k in ("task", "message", "statusUpdate", "artifactUpdate") if isinstance(doc.get(k), dict)), "?"
        )
        return Shape(f"V1 StreamResponse ({member})", doc, to_core_stream_response(doc))
    if found.kind in ("task", "message", "status-update", "artifact-update"):
        if found.version == "v0":
            return Shape(f"V0 {found.kind} (kind)", doc, to_core_stream_response(doc))
        return Shape(f"bare V1 {found.kind} (no StreamResponse wrapper)", doc, to_core_stream_response(doc))
    if found.kind == "jsonrpc-request":
        return Shape(f"JSON-RPC request {doc.get('method')!r} (not a notification shape)", doc, None)
    return Shape("JSON, not an A2A notification shape", doc, None)


# -- credentials ------------------------------------------------------------------------------------


def _same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


def check_credentials(headers: Any, *, token: str | None, auth: str | None) -> str | None:
    """None when the request carries what --token / --auth ask for; otherwise what is wrong
    (never quoting the received value)."""
    if token is not None:
        got = [(h, headers.get(h)) for h in TOKEN_HEADERS if headers.get(h) is not None]
        if not got:
            return f"no {TOKEN_HEADERS[0]} or {TOKEN_HEADERS[1]} header (--token is set)"
        bad = [h for h, v in got if not _same(v.strip(), token)]
        if bad:
            return f"{bad[0]} does not match --token"
    if auth is not None:
        got_auth = headers.get("Authorization")
        if got_auth is None:
            return "no Authorization header (--auth is set)"
        want_scheme, _, want_cred = auth.strip().partition(" ")
        got_scheme, _, got_cred = got_auth.strip().partition(" ")
        # `--auth 'SCHEME CREDENTIALS'`: the scheme in any case, then the credentials; without a scheme: the whole header value
        ok = (
            (want_scheme.lower() == got_scheme.lower() and _same(got_cred.strip(), want_cred.strip()))
            if want_cred
            else _same(got_auth.strip(), auth.strip())
        )
        if not ok:
            return "Authorization does not match --auth"
    return None


# -- deliveries -------------------------------------------------------------------------------------


@dataclass
class Delivery:
    seq: int  # every request, accepted or not (the --dump number)
    client: str
    method: str
    path: str
    headers: list[tuple[str, str]]
    body: bytes
    status: int = 200
    problem: str | None = None  # why it was refused (401/400/413), None when accepted
    doc: Any = None
    shape: Shape | None = None
    received: float = field(default_factory=time.time)

    @property
    def accepted(self) -> bool:
        return self.problem is None

    def header(self, name: str) -> str | None:
        name = name.lower()
        return next((v for k, v in self.headers if k.lower() == name), None)


class Receiver:
    """The HTTP server in a background thread; deliveries come out of `next()` in order."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 9000,
        *,
        token: str | None = None,
        auth: str | None = None,
        dump: str | None = None,
        max_body: int = MAX_BODY,
        limits: Limits | None = None,
    ) -> None:
        self.token = token
        self.auth = auth
        self.max_body = max_body
        self.queue: queue.Queue[Delivery] = queue.Queue()
        self._seq = 0
        self._seq_lock = threading.Lock()
        self.dumper = _Dumper(dump, {token, auth.partition(" ")[2] if auth else None, auth}) if dump else None
        cls = GuardedServer6 if ":" in host else GuardedServer
        limits = limits or Limits(read_timeout=SOCKET_TIMEOUT, backlog=BACKLOG)
        try:
            self.server = cls((host.strip("[]"), port), _handler(self), limits=limits, label="a2a webhook listen")
        except OSError as e:
            why = listen_failure(e)
            if not port_taken(e):  # an address this machine does not have, or not an address at all
                raise UsageError(
                    f"cannot listen on {host}:{port}: {why}",
                    hint="--host takes an address of this machine (127.0.0.1, ::1, 0.0.0.0)",
                ) from None
            raise A2acliError(
                f"cannot listen on {host}:{port}: {why}",
                hint="choose another --port (--port 0 picks a free one)",
                code=CANNOT_LISTEN,
            ) from None
        self.host = host
        self.port = self.server.server_address[1]
        self._thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)

    @property
    def url(self) -> str:
        shown = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(self.host, self.host)
        if ":" in shown:
            shown = f"[{shown.strip('[]')}]"
        return f"http://{shown}:{self.port}"

    def start(self) -> Receiver:
        self._thread.start()
        return self

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self) -> Receiver:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def next_seq(self) -> int:
        with self._seq_lock:
            self._seq += 1
            return self._seq

    def next(self, timeout: float | None) -> Delivery | None:
        """The next delivery, or None after `timeout` seconds. Waits in short slices so Ctrl-C
        is seen at once."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = 0.2 if deadline is None else min(0.2, deadline - time.monotonic())
            if left <= 0:
                return None
            try:
                return self.queue.get(timeout=left)
            except queue.Empty:
                continue


def send_example(url: str, token: str | None, auth: str | None, *, agent_set: bool = True) -> str:
    """A `send` that makes the agent post to this receiver and passes its checks: the token it
    wants (`--push-token`); an --auth value has no `send` option, so it is named to set. Without
    an agent in the environment or the config files (`agent_set`), it names where `-u` goes."""
    import shlex

    example = f"a2a send --skill create-user --push-url {url}/hook"
    if token:
        example += f" --push-token {shlex.quote(token)}"
    if not agent_set:
        example += " -u AGENT_URL"
    if auth:
        example += "   # and have the agent send Authorization as --auth says (push-config create --auth-scheme/--auth-credentials)"
    return example


def _handler(rx: Receiver) -> type[BaseHTTPRequestHandler]:
    class PushHandler(GuardedHandler):
        server_version = "a2a-webhook"
        sys_version = ""
        disable_nagle_algorithm = True  # TCP_NODELAY: no answer waits for the client's delayed ACK

        def _answer(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self) -> None:  # noqa: N802 - http.server API
            d = Delivery(
                rx.next_seq(), self.client_address[0], self.command, self.path, list(self.headers.items()), b""
            )
            problem = check_credentials(self.headers, token=rx.token, auth=rx.auth)  # before reading any body
            if problem is not None:
                self.close_connection = True  # the body is never read
                d.status, d.problem = 401, problem
                self.send_response(401)
                self.send_header("WWW-Authenticate", "Bearer" if rx.auth else 'Token header="X-A2A-Notification-Token"')
                self.send_header("Content-Length", "0")
                self.end_headers()
            else:
                try:
                    d.body = self.read_body(rx.max_body)  # framing checked, capped (a2acli.serving)
                except Refused as e:
                    d.status, d.problem = e.status, e.reason
                else:
                    _read_event(d)
                self._answer(d.status, {"received": d.seq} if d.accepted else {"error": d.problem})
            if rx.dumper is not None:
                rx.dumper.write(d)
            rx.queue.put(d)

        do_PUT = do_POST  # noqa: N815

        def do_GET(self) -> None:  # noqa: N802
            data = b"a2a webhook listener: POST A2A push notifications to this URL\n"
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return PushHandler


def _read_event(d: Delivery) -> None:
    """The delivery's body read as JSON and its shape named; a 400 with why when it is no event."""
    try:
        d.doc = json.loads(d.body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        d.status, d.problem = 400, "the body is not JSON"
        return
    try:
        d.shape = classify(d.doc)
    except Exception as e:  # noqa: BLE001 - whatever a body holds, the sender gets a 400, not a dropped connection
        d.doc, d.status, d.problem = None, 400, f"the body is not an A2A event ({type(e).__name__})"


class _Dumper:
    """DIR/NNN-webhook.request.http (request line and headers, credential headers redacted),
    DIR/NNN-webhook.request.body (the body as received, known secrets redacted), DIR/index.jsonl."""

    def __init__(self, directory: str, secrets: set[str | None]) -> None:
        from a2acli.recording.record import Redactor, make_private_dir

        self.dir = Path(directory)
        try:
            make_private_dir(self.dir)  # 0700, its files 0600: they hold what the agent sent
        except OSError as e:
            raise UsageError(
                f"cannot create the dump directory {directory}: {e.strerror}", hint="choose another --dump DIR"
            ) from None
        self.redactor = Redactor({s for s in secrets if s})
        self.offset = len(list(self.dir.glob("*-webhook.request.http")))
        self.lock = threading.Lock()

    def write(self, d: Delivery) -> None:
        stem = self.dir / f"{d.seq + self.offset:03d}-webhook"
        from a2acli.recording.record import http_head, open_private, write_private

        head = http_head(f"{d.method} {d.path} HTTP/1.1", self.redactor.headers(d.headers))
        with self.lock:
            write_private(f"{stem}.request.http", head)
            write_private(f"{stem}.request.body", self.redactor.bytes(d.body))
            entry = {
                "seq": d.seq + self.offset,
                "http": d.method,
                "path": d.path,
                "client": d.client,
                "status": d.status,
                "problem": d.problem,
                "bytes": len(d.body),
                "contentType": d.header("content-type"),
                "shape": d.shape.name if d.shape else None,
                "receivedAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(d.received)),
                "files": stem.name,
            }
            with open_private(self.dir / "index.jsonl", "a") as idx:
                idx.write(json.dumps(entry) + "\n")


# -- the listen loop --------------------------------------------------------------------------------


def _rows(d: Delivery) -> views.Rows:
    assert d.shape is not None
    auth = [h for h in ("Authorization", *TOKEN_HEADERS) if d.header(h) is not None]
    rows: views.Rows = [("Notification", f"#{d.seq} {d.method} {d.path} from {d.client}"), ("Shape", d.shape.name)]
    if auth:
        rows.append(("Credentials", ", ".join(auth)))
    if isinstance(d.shape.core, dict):
        rows += views.event_rows(d.shape.core)
    else:
        rows.append(("Body", views.compact(d.doc, 2000)))
    return rows


@dataclass
class ListenResult:
    received: int
    rejected: int
    interrupted: bool = False


def listen(
    out: Output,
    *,
    host: str = "127.0.0.1",
    port: int = 9000,
    token: str | None = None,
    auth: str | None = None,
    dump: str | None = None,
    count: int | None = None,
    timeout: float | None = None,
    as_v1: bool = False,
    agent_set: bool = True,
) -> ListenResult:
    """Serve until `count` notifications were accepted, `timeout` seconds passed (TimeoutExpired
    unless something arrived without --count), or Ctrl-C (`interrupted`)."""
    if not is_loopback(host):
        out.warn(
            f"listening on {host}: other machines can reach this receiver and post to it"
            + ("" if token or auth else "; set --token or --auth so only the agent is accepted")
        )
    received = rejected = 0
    with Receiver(host, port, token=token, auth=auth, dump=dump) as rx:
        try:  # from the first line on: a script that reads the URL may stop the receiver at once
            out.note(f"listening for A2A push notifications on {rx.url} (any path; Ctrl-C to stop)")
            checks = " and ".join(x for x, on in (("--token", token), ("--auth", auth)) if on)
            out.note(f"push URL: {rx.url}/hook" + (f"   (checking {checks})" if checks else ""))
            out.command(send_example(rx.url, token, auth, agent_set=agent_set))
            deadline = None if timeout is None else time.monotonic() + timeout
            with out.holding():  # deliveries already queued are written together; flushed before waiting
                while count is None or received < count:
                    left = None if deadline is None else deadline - time.monotonic()
                    if rx.queue.empty():
                        out.flush()
                    d = rx.next(left)
                    if d is None:
                        if received and count is None:
                            out.note(f"--timeout {timeout:g}s: {received} notification(s) received")
                            break
                        want = f"{received} of {count} notification(s)" if received else "no notification"
                        raise TimeoutExpired(
                            f"{want} within --timeout {timeout:g}s",
                            hint="check the agent's push config (`a2a push-config list TASK_ID`) and that it can reach this URL; raise --timeout",
                        )
                    if not d.accepted:
                        rejected += 1
                        out.warn(
                            f"refused delivery #{d.seq} {d.method} {d.path} from {d.client}: HTTP {d.status}, {d.problem}"
                        )
                        continue
                    received += 1
                    _show(out, d, as_v1)
        except KeyboardInterrupt:
            out.note(
                f"interrupted: {received} notification(s) received" + (f", {rejected} refused" if rejected else "")
            )
            return ListenResult(received, rejected, interrupted=True)
    out.remark(f"{received} notification(s) received" + (f", {rejected} refused" if rejected else ""))
    return ListenResult(received, rejected)


def _show(out: Output, d: Delivery, as_v1: bool) -> None:
    shape = d.shape
    assert shape is not None

    def doc() -> Any:  # -o json only (--as v1 applies there)
        if as_v1 and shape.core is None:
            out.warn(f"delivery #{d.seq} is not an A2A event ({shape.name}): shown as received, not as V1")
        return shape.core if as_v1 and shape.core is not None else d.doc

    out.item(d.body, doc, lambda: out.rows(_rows(d), title=f"#{d.seq} {shape.name}", style="magenta"), lines=True)
