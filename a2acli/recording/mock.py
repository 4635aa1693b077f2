"""`a2a mock DUMP...`: the exchanges of one or more dumps served as an A2A agent on 127.0.0.1, on
the stdlib http.server (no new dependency on the start-up path).

- The card: as recorded (the one recorded under the version the client asks for, by A2A-Version),
  its interface URLs moved to the mock's own address, the gRPC ones to its gRPC port (when the
  dumps hold gRPC exchanges and the `grpc` extra is installed; else they are left out). A signed
  card is served without its `signatures`: its URLs moved, they would not verify (said once at
  start).
- A request: the recorded answer of the matching recorded request, same binding, version and
  method, params compared in canonical V1 with generated values (ids, UUIDs, timestamps)
  ignored. Of several matches the closest (most ids equal), then the least used, then the first
  recorded: repeating a request walks through its recordings in order.
- Ids: the JSON-RPC id is the request's; an id the client sent in place of a recorded one (its
  messageId, the task id it got from the mock, its contextId) replaces that recorded id in this
  answer and every later one, and a task keeps the context the mock first gave it: a recorded
  send followed by `tasks get` of its task works even when the two were recorded in other runs.
- Streams: event by event, each after its recorded delay (`speed`: 2 is twice as fast, 0 no wait).
- Content coding: an answer recorded gzip- (or deflate-) encoded is served encoded, with its
  Content-Encoding, as the agent sent it (the recorded bytes when the body is unchanged; a stream
  flushed per event), when the request accepts the coding; inflated without the header otherwise.
- No match: the binding's own error (JSON-RPC -32601 for a method not recorded, -32602 for params
  no recording has; HTTP+JSON 404 with a google.rpc.Status; gRPC UNIMPLEMENTED), naming the
  closest recorded request and the field that differs.
- gRPC (a2acli/recording/mock_grpc.py, loaded only when the dumps hold gRPC exchanges): a second port,
  both services (1.0 and 0.3), unary and server-streaming rpcs, the same matching and timing."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from typing import Any

from a2acli.errors import CANNOT_LISTEN, A2acliError, UsageError
from a2acli.net import listen_failure
from a2acli.recording import forms
from a2acli.recording.diff import MISSING, Dump
from a2acli.recording.forms import (
    MockAnswer,
    _grpc_error,
    _listing,
    _short,
    _status_error,
    _tasks,
)
from a2acli.recording.mock_asked import (  # noqa: F401
    _HOP,
    Asked,
    RequestReading,
    Unmatched,
    _dumps,
    _json,
    _sse,
    _status_code,
    _target,
    path_of,
)
from a2acli.recording.mock_card import CardServing
from a2acli.recording.playback import Calls, Recorded, differences, id_pairs, read_calls, rewrite, same_ids, version_of
from a2acli.serving import GuardedHandler, GuardedServer, Limits, Refused
from a2acli.wire.bindings import GRPC, ErrorForm

CARD_SUFFIXES = ("/.well-known/agent-card.json", "/.well-known/agent.json")
MAX_BODY = 16 * 1024 * 1024
# The methods about one task: a task the mock neither recorded nor served is TaskNotFoundError.
TASK_METHODS = frozenset(
    {
        "GetTask",
        "CancelTask",
        "SubscribeToTask",
        "CreateTaskPushNotificationConfig",
        "GetTaskPushNotificationConfig",
        "ListTaskPushNotificationConfigs",
        "DeleteTaskPushNotificationConfig",
    }
)


class Mock(RequestReading, CardServing):
    def __init__(
        self,
        dumps: list[Dump],
        *,
        port: int = 0,
        speed: float = 1.0,
        log: Callable[[str], None] | None = None,
        grpc_port: int = 0,
        limits: Limits | None = None,
    ) -> None:
        self.found: Calls = read_calls(dumps)
        self.speed = speed
        self.log = log or (lambda line: None)
        self.alias: dict[str, str] = {}  # recorded id -> the id the client knows it by
        self.contexts: dict[str, str] = {}  # task id served -> its context id served
        self.lock = threading.Lock()
        self.no_grpc: str | None = None  # why the recorded gRPC exchanges are not served
        self.grpc: Any = None  # mock_grpc.GrpcFront: the gRPC port, when served
        self.grpc_url: str | None = None
        if not self.found.calls and not self.found.cards:
            raise UsageError(
                "the dumps hold no call to answer", hint="record one with --dump DIR on any method command"
            )
        try:
            self.server = GuardedServer(
                ("127.0.0.1", port), _handler(self), limits=limits, label="a2a mock", on_error=self.log
            )
        except OSError as e:
            raise A2acliError(  # as webhook listen's: the machine's state, not the command line (exit 1)
                f"cannot listen on 127.0.0.1:{port}: {listen_failure(e)}",
                hint="choose another --port (--port 0 picks a free one)",
                code=CANNOT_LISTEN,
            ) from None
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._thread: threading.Thread | None = None
        self._tasks_seen: set[str] | None = None
        if any(c.binding.carrier_grpc for c in self.found.calls):
            self._grpc_front(grpc_port)

    def _grpc_front(self, port: int) -> None:
        """The gRPC port, when the extra is installed (grpc is imported here only)."""
        from a2acli.errors import MissingExtraError

        try:
            from a2acli.recording import mock_grpc

            self.grpc = mock_grpc.GrpcFront(self, port)
        except (MissingExtraError, ImportError) as e:
            from a2acli.extras import install_hint

            self.no_grpc = f"{getattr(e, 'message', None) or e}; add it: {install_hint('grpc')}"
            return
        except A2acliError:
            self.server.server_close()
            raise
        self.grpc_url = self.grpc.url

    # -- running -------------------------------------------------------------------------------------

    def start(self) -> Mock:
        if self.grpc is not None:
            self.grpc.start()
        self._thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        if self.grpc is not None:
            self.grpc.close()

    def __enter__(self) -> Mock:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def summary(self) -> list[str]:
        """What the mock answers, one line per recorded call, for stderr at start."""
        lines = [
            f"card: {len(self.found.cards)} recorded"
            if self.found.cards
            else "card: none recorded; one is made from the calls"
        ]
        lines += [
            f"{c.name}: {c.method} under {c.version} over {c.binding.label}"
            + (f", {len(c.ex.events)} event(s)" if c.ex.stream else "")
            for c in self.found.calls
        ]
        if self.grpc_url:
            lines.append(f"gRPC on {self.grpc_url} (plaintext)")
        return lines

    def warnings(self) -> list[str]:
        """What the operator should know before a client relies on the mock, for stderr at start."""
        out = []
        if self.no_grpc:
            out.append(f"the recorded gRPC exchanges are not served: {self.no_grpc}")
        signed = [ex.stem for _, ex in self.found.cards if b'"signatures"' in ex.response_body]
        if signed:
            out.append(
                f"the recorded card ({', '.join(signed)}) is signed; its URLs are moved to the mock, so its "
                "signatures would not verify: it is served without them"
            )
        return out

    # -- answering -----------------------------------------------------------------------------------

    def answer(self, verb: str, target: str, headers: dict[str, str], body: bytes) -> MockAnswer:
        path = target.split("?", 1)[0]
        if verb == "GET" and (path.endswith(CARD_SUFFIXES) or any(path == _target(ex) for _, ex in self.found.cards)):
            return self.card(headers.get("a2a-version", ""))
        try:
            self._version_supported(verb, target, headers, body)
            asked = self.read(verb, target, headers, body)
            with self.lock:  # an answer recorded gzip-encoded is served so (forms.in_recorded_coding)
                return forms.in_recorded_coding(self.replay(asked), headers.get("accept-encoding", ""))
        except Unmatched as e:
            return e.answer

    def answer_grpc(self, path: str, body: bytes) -> MockAnswer:
        """The answer to a gRPC request (method path, message bytes)."""
        from a2acli.recording import mock_grpc

        try:
            version, method, params = mock_grpc.read(path, body)
        except mock_grpc.Unreadable as e:
            recorded = sorted({f"{_target(c.ex)} ({c.name})" for c in self.found.calls if c.binding.carrier_grpc})
            held = f"; the dumps hold {_listing(recorded)}" if e.code == "UNIMPLEMENTED" else ""
            return _grpc_error(e.message + held, None, None, e.code)
        try:
            with self.lock:
                return self.replay(Asked(GRPC, version, method, params))
        except Unmatched as e:
            return e.answer

    def replay(self, asked: Asked) -> MockAnswer:
        """The recorded answer of the closest matching recorded call, its ids rewritten."""
        same = [
            c
            for c in self.found.calls
            if c.binding == asked.binding and c.version == asked.version and c.method == asked.method
        ]
        if not same and asked.binding.mock_transcodes:  # recorded in another version or binding: answered in this one
            same = [c for c in self.found.calls if c.method == asked.method]
        where = f"{asked.method} under {asked.version} over {asked.binding.label}"
        self._known_task(asked)  # about a task the mock does not know: recorded method or not, as an agent says
        if not same:
            near = [c for c in self.found.calls if c.binding == asked.binding] or self.found.calls
            others = [f"{c.method} under {c.version} over {c.binding.label} ({c.name})" for c in near]
            message = f"no recorded {where}; the dumps hold {_listing(others)}"
            raise Unmatched(forms.unmatched(asked.binding, asked.rpc_id, message))
        known = {v: k for k, v in self.alias.items()}  # the ids the client got from us, back to the recorded ones
        given = rewrite(asked.params, known)
        scored = [
            (differences(c.params, given) if c.params is not MISSING else [("params", None, None)], i, c)
            for i, c in enumerate(same)
        ]
        matches = [(i, c) for diffs, i, c in scored if not diffs]
        if not matches:
            diffs, _, closest = min(scored, key=lambda s: (len(s[0]), s[1]))
            path, was, got = diffs[0]
            message = (
                f"no recorded {where} has these params; the closest, {closest.name}, differs in {path}: recorded {_short(was)}, got {_short(got)}"
                + (f" (and {len(diffs) - 1} more)" if len(diffs) > 1 else "")
            )
            data = {"closest": closest.name, "field": path, "recorded": was, "got": got}
            raise Unmatched(
                forms.unmatched(asked.binding, asked.rpc_id, message, closest=closest.name, field=path, data=data)
            )
        _, chosen = max(matches, key=lambda m: (same_ids(m[1].params, given), -m[1].uses, -m[0]))
        chosen.uses += 1
        self.alias.update(id_pairs(chosen.params, asked.params))
        return self._recorded_answer(chosen, asked)

    def _known_task(self, asked: Asked) -> None:
        """A call about a task neither recorded nor served gets TaskNotFoundError, in the binding's form."""
        if asked.method not in TASK_METHODS or not isinstance(asked.params, dict):
            return
        task = asked.params.get("id") if asked.method in ("GetTask", "CancelTask", "SubscribeToTask") else None
        task = task or asked.params.get("taskId")
        if not isinstance(task, str) or not task or task in self.alias.values() or task in self._recorded_tasks():
            return
        message = f"task {task} is not in the recording (the mock knows the tasks its dumps hold and those it served)"
        if asked.binding.errors is ErrorForm.JSONRPC:
            doc = forms.rpc_error_doc(asked.rpc_id, forms.TASK_NOT_FOUND, message, asked.version)
            raise Unmatched(
                MockAnswer(
                    200, [("Content-Type", "application/json")], [(0.0, _dumps(doc))], line=f"TaskNotFoundError: {task}"
                )
            )
        status, doc = forms.status_doc(forms.TASK_NOT_FOUND, message, {"taskId": task})
        if asked.binding.errors is ErrorForm.GRPC_STATUS:
            raise Unmatched(MockAnswer(status, [], [], line=f"NOT_FOUND: task {task}", failure=(0.0, doc)))
        raise Unmatched(
            MockAnswer(
                status,
                [("Content-Type", "application/json")],
                [(0.0, _dumps(doc))],
                line=f"404 TaskNotFoundError: {task}",
            )
        )

    def _recorded_tasks(self) -> set[str]:
        """The ids of every task the recorded requests name or the recorded answers hold (read once)."""
        if self._tasks_seen is None:
            from a2acli.recording.playback import answer_results

            seen: set[str] = set()
            for c in self.found.calls:
                for doc in (c.params, *answer_results(c.ex, c.binding)):
                    seen.update(t for t, _ in _tasks(doc))
                    if isinstance(doc, dict):
                        seen.update(v for k in ("id", "taskId") if isinstance(v := doc.get(k), str) and v)
            self._tasks_seen = seen
        return self._tasks_seen

    def _transcoded(self, call: Recorded, asked: Asked) -> MockAnswer:
        """A call recorded in another version or binding, answered in the asked one: its answer
        brought to canonical V1 and written in the asked form."""
        from a2acli.recording.playback import answer_results
        from a2acli.wire.methods import METHODS

        spec = METHODS[call.method]
        status, docs = forms.answer_docs(spec, answer_results(call.ex, call.binding), asked.binding, asked.version)
        docs = self._ids(docs, asked)
        headers = [
            ("Content-Type", forms.media_type(asked.binding, asked.version, call.ex.stream)),
            ("X-A2A-Mock", call.name),
        ]
        delays = call.delays(self.speed) + [0.0] * len(docs)
        line = f"{call.name} (recorded under {call.version} over {call.binding.label})"
        if call.ex.stream:
            pieces = [
                (wait, f"data: {json.dumps(doc, ensure_ascii=False)}\n\n".encode())
                for doc, wait in zip(docs, delays, strict=False)
                if doc is not MISSING
            ]
            return MockAnswer(200, headers, pieces, stream=True, line=f"{line}, {len(pieces)} event(s)")
        body = _dumps(docs[0]) if docs and docs[0] is not MISSING else call.ex.response_body
        return MockAnswer(status, headers, [(delays[0], body)], line=line)

    def _recorded_answer(self, call: Recorded, asked: Asked) -> MockAnswer:
        if (call.binding, call.version) != (asked.binding, asked.version):
            return self._transcoded(call, asked)
        if call.binding.carrier_grpc:
            from a2acli.recording import mock_grpc

            got = mock_grpc.recorded_answer(call, self.speed, lambda docs: self._ids(docs, asked))
            return MockAnswer(got.status, got.headers, got.pieces, got.stream, got.line, got.failure)
        ex = call.ex
        status = _status_code(ex.status_line)
        headers = [(k, v) for k, v in ex.response_headers if k.lower() not in _HOP]
        headers.append(("X-A2A-Mock", call.name))
        coding = next((v for k, v in ex.response_headers if k.lower() == "content-encoding"), None)
        delays = call.delays(self.speed)
        if ex.stream:
            events = _sse(ex)
            docs = self._ids([_json(data) for _, data in events], asked)
            pieces = []
            for (name, data), doc, wait in zip(events, docs, delays + [0.0] * len(events), strict=False):
                text = data if doc is MISSING else json.dumps(doc, ensure_ascii=False)
                pieces.append(
                    (
                        wait,
                        (
                            (f"event: {name}\n" if name != "message" else "")
                            + "".join(f"data: {line}\n" for line in text.split("\n"))
                            + "\n"
                        ).encode(),
                    )
                )
            line = f"{call.name}, {len(pieces)} event(s)"
            return MockAnswer(status, headers, pieces, stream=True, line=line, coding=coding)
        doc = _json(ex.response_body.decode("utf-8", "replace"))
        (doc,) = self._ids([doc], asked)
        body = (
            ex.response_body if doc is MISSING else json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()
        )
        wire = (ex.response_body, ex.response_wire) if ex.response_wire is not None else None
        return MockAnswer(
            status, headers, [(delays[0] if delays else 0.0, body)], line=call.name, coding=coding, wire=wire
        )

    def _ids(self, docs: list[Any], asked: Asked) -> list[Any]:
        """Recorded answer documents with the ids the client knows: the alias table (a task
        keeps the context it was first served with), and the request's JSON-RPC id."""
        for doc in docs:
            for task, context in _tasks(doc):
                served = self.alias.get(task, task)
                if served in self.contexts and context not in self.alias and self.contexts[served] != context:
                    self.alias[context] = self.contexts[served]
        out = []
        for doc in docs:
            if doc is MISSING:
                out.append(doc)
                continue
            doc = rewrite(doc, self.alias)
            if asked.binding.envelope and isinstance(doc, dict) and "id" in doc:
                doc["id"] = asked.rpc_id
            for task, context in _tasks(doc):
                self.contexts.setdefault(task, context)
            out.append(doc)
        return out


def _handler(mock: Mock) -> type[BaseHTTPRequestHandler]:
    class MockHandler(GuardedHandler):
        protocol_version = "HTTP/1.1"
        server_version = "a2a-mock"
        disable_nagle_algorithm = True  # TCP_NODELAY: no answer waits for the client's delayed ACK

        def _serve(self, verb: str) -> None:
            try:
                body = self.read_body(MAX_BODY)  # framing checked, capped (a2acli.serving)
            except Refused as e:
                mock.log(f"{verb} {self.path} -> refused: HTTP {e.status} {e.reason}")
                self._send(_refused(e))
                return
            headers = {k.lower(): v for k, v in self.headers.items()}
            try:
                answer = mock.answer(verb, self.path, headers, body)
            except Exception as e:  # noqa: BLE001 - a bug of ours: said to the client and on stderr, the mock goes on
                answer = _status_error(f"the mock failed: {type(e).__name__}: {e}", None, None, status=500)
            mock.log(f"{verb} {self.path} -> {answer.line}")
            self._send(answer)

        def _send(self, answer: MockAnswer) -> None:
            self.send_response(answer.status)
            for k, v in answer.headers:
                self.send_header(k, v)
            if answer.stream or self.close_connection:  # a stream, or a request refused (serving.Refused)
                self.send_header("Connection", "close")
                self.close_connection = True
            if not answer.stream:
                self.send_header("Content-Length", str(sum(len(b) for _, b in answer.pieces)))
            self.end_headers()
            try:
                for wait, piece in answer.pieces:
                    if wait > 0:
                        time.sleep(wait)
                    self.wfile.write(piece)
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):  # the client left mid-stream
                self.close_connection = True

        def do_GET(self) -> None:  # noqa: N802 - http.server API
            self._serve("GET")

        def do_POST(self) -> None:  # noqa: N802
            self._serve("POST")

        def do_DELETE(self) -> None:  # noqa: N802
            self._serve("DELETE")

        def do_PUT(self) -> None:  # noqa: N802
            self._serve("PUT")

        def do_PATCH(self) -> None:  # noqa: N802
            self._serve("PATCH")

    return MockHandler


def _refused(e: Refused) -> MockAnswer:
    """The answer to a request whose framing the mock refuses (a google.rpc.Status-like error)."""
    doc = {"error": {"code": e.status, "message": e.reason}}
    return MockAnswer(e.status, [("Content-Type", "application/json")], [(0.0, _dumps(doc))], line=f"HTTP {e.status}")


def load(paths: list[str]) -> list[Dump]:
    from a2acli.recording.diff import load_dump

    return [load_dump(p) for p in paths]


__all__ = ["Mock", "load", "version_of"]
