"""`a2a demo-server`'s flow (flows.demo) called directly with an Invocation, no CLI runner: a port
already taken is an error naming the option to change (the real server, which needs the server
extra), and what the server says as it starts goes to the invocation's stderr."""

from __future__ import annotations

import io
import socket

import pytest

from a2acli.errors import A2acliError
from a2acli.flows import demo
from a2acli.flows.invocation import Environment, Invocation


def test_a_taken_port_is_an_error_naming_the_port_option():
    pytest.importorskip("a2a.server", reason="the demo agent needs the server extra")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(A2acliError) as e:
            demo.run_demo_server(Invocation(env=Environment(stderr=io.StringIO())), port=port, grpc_port=0)
    assert (
        e.value.message == f"cannot listen on 127.0.0.1:{port}: address already in use"
        and e.value.hint == "choose another --port (0 picks a free one)"
    )


def test_where_it_listens_is_said_on_the_invocations_stderr_and_ctrl_c_ends_it(monkeypatch):
    asked: dict = {}

    def serve(**kw) -> None:
        asked.update(kw)
        kw["on_listen"](f"http://127.0.0.1:{kw['port'] or 5555}", "127.0.0.1:5556")  # (nothing listens: a fake serve)
        raise KeyboardInterrupt

    monkeypatch.setattr(demo, "_load_serve", lambda: serve)
    err = io.StringIO()
    demo.run_demo_server(Invocation(env=Environment(stderr=err)), port=0, api_key="k-1", log_level="INFO")
    assert asked["port"] == 0 and asked["log_level"] == "info" and asked["api_key"] == "k-1"
    assert err.getvalue().splitlines() == [
        "a2a demo agent on http://127.0.0.1:5555  (V1 and V0; Ctrl-C to stop)",
        "gRPC (V1 and V0, plaintext) on 127.0.0.1:5556",
        "extended card and the auth skill: send header X-API-Key: k-1",
    ]
