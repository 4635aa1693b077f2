"""A tiny echo agent on a2a-sdk 0.3.x or 0.2.x (run by that SDK's own venv, not the test venv):
`python sdk_echo_server.py PORT [PATH]` serves JSON-RPC at PATH (default /) and the card the SDK
serves (0.3: /.well-known/agent-card.json and agent.json; 0.2: /.well-known/agent.json) at the
host root, as these SDKs do. The text "slow" takes SLOW seconds (working meanwhile) to complete."""

import asyncio
import sys

import uvicorn
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.apps import A2AStarletteApplication
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.tasks import InMemoryPushNotificationConfigStore, InMemoryTaskStore, TaskUpdater
from a2a.types import AgentCapabilities, AgentCard, AgentSkill, Part, TextPart
from a2a.utils import new_task

try:  # 0.3
    from a2a.server.tasks import BasePushNotificationSender
except ImportError:  # 0.2
    BasePushNotificationSender = None


SLOW = 2.5  # seconds


class Echo(AgentExecutor):
    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        task = context.current_task or new_task(context.message)
        await event_queue.enqueue_event(task)
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        if context.get_user_input() == "slow":
            await updater.start_work()
            await asyncio.sleep(SLOW)
        await updater.add_artifact([Part(root=TextPart(text=f"echo: {context.get_user_input()}"))], name="echo")
        await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        raise NotImplementedError


def main() -> None:
    port = int(sys.argv[1])
    path = sys.argv[2] if len(sys.argv) > 2 else "/"
    card = AgentCard(
        name="sdk echo",
        description="echoes the text it is sent",
        url=f"http://127.0.0.1:{port}{path}",
        version="1.0.0",
        capabilities=AgentCapabilities(streaming=True, push_notifications=True),
        default_input_modes=["text/plain"],
        default_output_modes=["text/plain"],
        skills=[AgentSkill(id="echo", name="echo", description="echo", tags=["echo"])],
    )
    kw = {}
    if BasePushNotificationSender is not None:
        import httpx

        store = InMemoryPushNotificationConfigStore()
        kw = {"push_config_store": store, "push_sender": BasePushNotificationSender(httpx.AsyncClient(), store)}
    handler = DefaultRequestHandler(agent_executor=Echo(), task_store=InMemoryTaskStore(), **kw)
    app = A2AStarletteApplication(agent_card=card, http_handler=handler).build(rpc_url=path)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main()
