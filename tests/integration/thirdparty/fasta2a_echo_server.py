"""A tiny echo agent on fasta2a (run by its own venv): `python fasta2a_echo_server.py PORT`."""

import sys
import uuid
from typing import Any

import uvicorn
from fasta2a import FastA2A, Worker
from fasta2a.broker import InMemoryBroker
from fasta2a.storage import InMemoryStorage


class Echo(Worker[list[Any]]):
    async def run_task(self, params: Any) -> None:
        task = await self.storage.load_task(params["id"])
        assert task is not None
        await self.storage.update_task(task["id"], state="working")
        text = " ".join(p.get("text", "") for p in params["message"].get("parts", []) if isinstance(p, dict))
        artifact = {"artifact_id": str(uuid.uuid4()), "name": "echo", "parts": [{"text": f"echo: {text}"}]}
        await self.storage.update_task(task["id"], state="completed", new_artifacts=[artifact])

    async def cancel_task(self, params: Any) -> None:
        # fasta2a hands the worker a cancel of any id, known or not; an unknown one would end the worker's loop
        if await self.storage.load_task(params["id"]) is not None:
            await self.storage.update_task(params["id"], state="canceled")

    def build_message_history(self, history: Any) -> list[Any]:
        return list(history)

    def build_artifacts(self, result: Any) -> list[Any]:
        return []


def main() -> None:
    port = int(sys.argv[1])
    storage: InMemoryStorage[list[Any]] = InMemoryStorage()
    broker = InMemoryBroker()
    worker = Echo(broker=broker, storage=storage)

    from contextlib import asynccontextmanager

    @asynccontextmanager
    async def lifespan(app: FastA2A):  # type: ignore[no-untyped-def]
        async with app.task_manager, worker.run():
            yield

    app = FastA2A(storage=storage, broker=broker, name="fasta2a echo", url=f"http://127.0.0.1:{port}/", lifespan=lifespan)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main()
