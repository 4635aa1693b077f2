"""The demo agent with one skill changed, for `a2a replay` to find: create-user's artifact gains a
field (`role: admin`). Run: python changed_demo_server.py PORT."""

from __future__ import annotations

import sys

from a2acli.demo import server


async def _create_user(self, updater, fields):  # noqa: ANN001, ANN202 - the executor's method, patched
    await updater.start_work()
    self._users_created += 1
    user = {"id": f"user-{self._users_created}", **fields, "role": "admin"}
    await updater.add_artifact([server._data_part(user)], name="user", last_chunk=True)
    await updater.complete()


server.DemoAgentExecutor._create_user = _create_user

if __name__ == "__main__":
    server.serve(port=int(sys.argv[1]), grpc_port=-1)  # gRPC on a free port (HTTP alone without grpcio)
