"""The echo agent of sdk_echo_server.py on a2a-sdk 0.3.x's HTTP+JSON application (routes /v1/...
at the host root): `python sdk_rest_echo_server.py PORT`. Its push-config create reads the whole
CreateTaskPushNotificationConfigRequest from the body ({parent, configId, config})."""

import sys

import httpx
import uvicorn
from a2a.server.apps.rest.fastapi_app import A2ARESTFastAPIApplication
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.tasks import BasePushNotificationSender, InMemoryPushNotificationConfigStore, InMemoryTaskStore
from a2a.types import AgentCapabilities, AgentCard, AgentSkill
from sdk_echo_server import Echo


def main() -> None:
    port = int(sys.argv[1])
    card = AgentCard(
        name="sdk rest echo",
        description="echoes the text it is sent",
        url=f"http://127.0.0.1:{port}",
        preferred_transport="HTTP+JSON",
        version="1.0.0",
        capabilities=AgentCapabilities(streaming=True, push_notifications=True),
        default_input_modes=["text/plain"],
        default_output_modes=["text/plain"],
        skills=[AgentSkill(id="echo", name="echo", description="echo", tags=["echo"])],
    )
    store = InMemoryPushNotificationConfigStore()
    handler = DefaultRequestHandler(agent_executor=Echo(), task_store=InMemoryTaskStore(), push_config_store=store, push_sender=BasePushNotificationSender(httpx.AsyncClient(), store))
    uvicorn.run(A2ARESTFastAPIApplication(agent_card=card, http_handler=handler).build(), host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main()
