"""Issue 27: a gRPC call's time bounds, as docs/guide.md "Timeouts" says them, against a real
grpcio server on 127.0.0.1 (the idle bound shortened). Without --timeout a unary call's deadline is
the idle bound (its answer sends nothing until it is complete); a stream has no deadline, only the
idle bound between messages; --timeout N is the deadline of either."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from concurrent import futures
from typing import Any

import pytest

grpc = pytest.importorskip("grpc")
a2a_pb2 = pytest.importorskip("a2a.types.a2a_pb2")
a2a_pb2_grpc = pytest.importorskip("a2a.types.a2a_pb2_grpc")

from a2acli.errors import TimeoutExpired  # noqa: E402
from a2acli.transport.client import Transport, TransportConfig  # noqa: E402
from a2acli.transport.grpc import GrpcTransport  # noqa: E402
from a2acli.wire.bindings.base import HttpRequest  # noqa: E402

SERVICE = "/lf.a2a.v1.A2AService"
RELEASE = threading.Event()  # set at the end of each test: no handler outlives it


def _status(state: int) -> Any:
    event = a2a_pb2.StreamResponse()
    event.status_update.task_id, event.status_update.context_id = "t-1", "c-1"
    event.status_update.status.state = state
    return event


class _Slow(a2a_pb2_grpc.A2AServiceServicer):
    def GetTask(self, request: Any, context: Any) -> Any:  # noqa: N802 - the rpc's name
        RELEASE.wait(10)  # answers nothing until the test is over
        return a2a_pb2.Task(id="t-1")

    def SubscribeToTask(self, request: Any, context: Any) -> Any:  # noqa: N802
        for _ in range(6):  # a message every 0.2 s, 1.2 s in all: never idle for 0.5 s
            time.sleep(0.2)
            yield _status(a2a_pb2.TASK_STATE_WORKING)
        yield _status(a2a_pb2.TASK_STATE_COMPLETED)


@pytest.fixture(scope="module")
def agent() -> Iterator[str]:
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    a2a_pb2_grpc.add_A2AServiceServicer_to_server(_Slow(), server)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server.add_insecure_port(f"127.0.0.1:{port}")
    server.start()
    try:
        yield f"grpc://127.0.0.1:{port}"
    finally:
        RELEASE.set()
        server.stop(0)


def _carrier(**cfg: Any) -> GrpcTransport:
    return GrpcTransport(Transport(TransportConfig(version="1.0", **cfg)))


def _request(carrier: GrpcTransport, url: str, rpc: str) -> Any:
    return carrier.prepare(url, HttpRequest("POST", f"{SERVICE}/{rpc}", (), (), b'{"id": "t-1"}'))


def test_a_unary_call_without_timeout_ends_at_the_idle_bound(agent):
    carrier = _carrier(idle_timeout=0.5)
    t0 = time.monotonic()
    with pytest.raises(TimeoutExpired, match=r"no answer from grpc://127\.0\.0\.1:\d+/lf\.a2a\.v1\.A2AService/GetTask within 0\.5s \(the idle bound without --timeout\)"):
        carrier.exchange(_request(carrier, agent, "GetTask"), label="GetTask")
    assert time.monotonic() - t0 < 4


def test_a_unary_call_with_timeout_ends_at_it(agent):
    carrier = _carrier(idle_timeout=60, timeout=0.5)
    t0 = time.monotonic()
    with pytest.raises(TimeoutExpired, match=r"in time \(--timeout 0\.5s\)"):
        carrier.exchange(_request(carrier, agent, "GetTask"), label="GetTask")
    assert time.monotonic() - t0 < 4


def test_a_stream_without_timeout_has_no_deadline_only_the_idle_bound(agent):
    carrier = _carrier(idle_timeout=0.5)  # the stream lasts 1.4 s: more than the idle bound, never idle that long
    with carrier.stream(_request(carrier, agent, "SubscribeToTask"), label="SubscribeToTask") as (ex, events):
        got = list(events)
    assert ex.status == 200 and len(got) == 7
    assert "TASK_STATE_COMPLETED" in got[-1].data
