"""Issue 25, item 7: `-u` pointed at the demo agent's gRPC port (a real grpcio server) says it looks
like gRPC, exit 3, and the command it suggests works."""

from __future__ import annotations

import os

import pytest

from tests.integration.conftest import HAS_GRPC

pytestmark = [pytest.mark.integration, pytest.mark.skipif(not HAS_GRPC, reason="the grpc extra")]


def test_the_url_of_a_grpc_port_is_named_as_one_and_the_hint_works(run_a2a, demo_agent):
    a2a = run_a2a.bound(env={"A2ACLI_GLOBAL_CONFIG": os.devnull, "A2ACLI_LOCAL_CONFIG": os.devnull})
    wrong = a2a("tasks", "list", "-u", f"http://{demo_agent.grpc_target}")
    assert wrong.returncode == 3, wrong.stderr
    assert f"error: {demo_agent.grpc_target} answers in HTTP/2 only: it looks like a gRPC port" in wrong.stderr
    suggested = f"--endpoint grpc://{demo_agent.grpc_target} --transport grpc"
    assert suggested in wrong.stderr
    right = a2a("send", "hi", *suggested.split(), "-o", "json")
    assert right.returncode == 0, right.stderr
