"""A demo A2A agent on the official a2a-sdk server: V1 (1.0) and V0 (0.3), JSON-RPC and HTTP+JSON
(REST) on one port, and gRPC (both versions) on a second one.

Imported only by `a2a demo-server` and the integration tests, because it needs the
`server` extra (a2a-sdk[http-server], uvicorn); every SDK/uvicorn/starlette import is here.

Layout (base URL `http://HOST:PORT`):

- `POST /`: JSON-RPC, V1 and V0 on the same URL (`enable_v0_3_compat=True`; the SDK
  routes on the method name and checks `A2A-Version` per method).
- HTTP+JSON under the base URL, the SDK's REST routes with v0.3 compat: V1 `POST /message:send`,
  `GET /tasks/{id}`, ... (also under any `/{tenant}` prefix) and V0 `POST /v1/message:send`,
  `GET /v1/tasks/{id}`, ... (`A2A-Version` decides as for JSON-RPC: absent means 0.3). Two 0.3
  routes the SDK lacks are added here: `DELETE /v1/tasks/{id}/pushNotificationConfigs/{cid}`
  and `GET /v1/tasks` (every task, a JSON array of 0.3 Tasks).
- `GET /.well-known/agent-card.json` and `GET /.well-known/agent.json`: the public card,
  V1-shaped for `A2A-Version: 1.x`, V0-shaped for `0.x`, and without the header the SDK's
  merged card that both kinds of client read (`Vary: A2A-Version`). Interfaces, in order:
  JSONRPC 1.0, JSONRPC 0.3 (at `http://HOST:PORT/`), HTTP+JSON 1.0, HTTP+JSON 0.3 (at
  `http://HOST:PORT`), then GRPC 1.0, GRPC 0.3 (at `grpc://HOST:GRPC_PORT`: the scheme says
  plaintext, as gRPC without one means TLS to clients that follow grpcurl; a2a-sdk clients hand
  the URL to their own channel factory, which dials `HOST:GRPC_PORT`) when gRPC is served; the 0.3 card: `url` + `preferredTransport: JSONRPC`,
  and `additionalInterfaces` listing every 0.3 transport (the primary one included, as 0.3 advises).
- gRPC on `HOST:GRPC_PORT` (plaintext; default: the HTTP port + 1): the SDK's V1 service
  `lf.a2a.v1.A2AService` and its 0.3 one `a2a.v1.A2AService` on the same server, sharing the task
  store with the HTTP side. Needs grpcio (the `grpc` extra), imported only here and only then;
  without it the agent serves HTTP alone.

Skills, chosen by the `skill` key of the first data part, else plain text => echo:
`create-user`, `slow`, `fail`, `ask`, `auth`, `echo`; an unknown skill ends the task rejected.
Only the extended card needs `X-API-Key` (JSON-RPC method, `GET /extendedAgentCard`, `GET /v1/card`;
over gRPC the metadata `x-api-key` on `GetExtendedAgentCard` / V0 `GetAgentCard`) to be answered;
the `auth` skill asks for it mid-task (AUTH_REQUIRED, A2A §7.6) and completes once a message on
the task carries it; every other call works without credentials.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import hashlib
import importlib
import json
import logging
import os
import re
import socket
import urllib.parse
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import httpx
import uvicorn
from a2a.compat.v0_3 import proto_utils as proto_utils_v03
from a2a.compat.v0_3 import types as types_v03
from a2a.compat.v0_3.context_builders import V03ServerCallContextBuilder
from a2a.compat.v0_3.conversions import to_compat_agent_card, to_compat_task
from a2a.compat.v0_3.request_handler import RequestHandler03
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.context import ServerCallContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.request_handlers.response_helpers import agent_card_to_dict
from a2a.server.routes import create_jsonrpc_routes, create_rest_routes
from a2a.server.routes.common import DefaultServerCallContextBuilder
from a2a.server.tasks import (
    BasePushNotificationSender,
    InMemoryPushNotificationConfigStore,
    InMemoryTaskStore,
    TaskUpdater,
)
from a2a.types.a2a_pb2 import (
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    AgentSkill,
    APIKeySecurityScheme,
    GetTaskRequest,
    ListTasksRequest,
    Message,
    Part,
    Role,
    SecurityRequirement,
    SecurityScheme,
    StringList,
    Task,
    TaskState,
    TaskStatus,
)
from a2a.utils.constants import PROTOCOL_VERSION_0_3, VERSION_HEADER
from a2a.utils.error_handlers import rest_error_handler
from a2a.utils.errors import InvalidParamsError, UnsupportedOperationError, VersionNotSupportedError
from a2a.utils.push_url_validator import validate_push_notification_url
from a2a.utils.version_validator import validate_version
from google.protobuf import struct_pb2
from google.protobuf.json_format import MessageToDict, ParseDict
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from a2acli.net import is_loopback

__all__ = ["API_KEY_HEADER", "RPC_PATH", "base_url", "build_app", "build_handler", "grpc_target", "grpc_url", "serve"]

logger = logging.getLogger("a2acli.demo")

RPC_PATH = "/"
CARD_PATHS = ("/.well-known/agent-card.json", "/.well-known/agent.json")
API_KEY_HEADER = "X-API-Key"
API_KEY_SCHEME = "apiKey"
EXTENDED_CARD_METHODS = frozenset({"GetExtendedAgentCard", "agent/getAuthenticatedExtendedCard"})
# The REST forms of the extended card: V1 (optionally under a tenant segment) and V0.
EXTENDED_CARD_REST_PATH = re.compile(r"^/(?:[^/]+/)?extendedAgentCard$|^/v1/card$")
JSONRPC = "JSONRPC"
HTTP_JSON = "HTTP+JSON"
GRPC = "GRPC"
# The gRPC methods that return the extended card (V1, V0): they need metadata `x-api-key`.
EXTENDED_CARD_GRPC_METHODS = frozenset(
    {"/lf.a2a.v1.A2AService/GetExtendedAgentCard", "/a2a.v1.A2AService/GetAgentCard"}
)
GRPC_GRACE = 1.0  # seconds running gRPC calls get at shutdown
AGENT_NAME = "a2a demo agent"
AGENT_VERSION = "0.1.0"

SLOW_MAX_STEPS = 1000
SLOW_MAX_DELAY = 60.0


# --------------------------------------------------------------------------- the card


def _hostport(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"{shown}:{port}"


def base_url(host: str, port: int) -> str:
    """`http://host:port` with IPv6 literals bracketed and no trailing slash."""
    return f"http://{_hostport(host, port)}"


def grpc_target(host: str, port: int) -> str:
    """`host:port` (IPv6 bracketed): the target grpc dials."""
    return _hostport(host, port)


def grpc_url(host: str, port: int) -> str:
    """`grpc://host:port`: the gRPC interface URL on the card. The scheme says plaintext: a bare
    `host:port` means TLS to clients that default to it (grpcurl, the official Go CLI, `a2a`)."""
    return f"grpc://{_hostport(host, port)}"


def _skill(skill_id: str, name: str, description: str, examples: list[str], *, needs: str | None = None) -> AgentSkill:
    """A skill; `needs`: the security scheme it requires (a securityRequirements entry)."""
    skill = AgentSkill(
        id=skill_id,
        name=name,
        description=description,
        tags=["demo"],
        examples=examples,
    )
    if needs is not None:
        skill.security_requirements.append(SecurityRequirement(schemes={needs: StringList(list=[])}))
    return skill


_PUBLIC_SKILLS = [
    _skill(
        "create-user",
        "Create user",
        "Data part {skill: 'create-user', ...fields}: submitted -> working -> completed with an artifact 'user' holding {id: 'user-<n>', ...fields}.",
        ['{"skill": "create-user", "projectUserId": "user_123"}'],
    ),
    _skill(
        "slow",
        "Slow task",
        "Data part {skill: 'slow', steps: 5, delay: 0.5}: one working status 'step i/N' per step, then an artifact 'done after N steps' and completed. Cancellable.",
        ['{"skill": "slow", "steps": 5, "delay": 0.5}'],
    ),
    _skill(
        "fail",
        "Fail",
        "Data part {skill: 'fail', reason?}: working, then failed with a status message.",
        ['{"skill": "fail"}'],
    ),
    _skill(
        "ask",
        "Ask for input",
        "Data part {skill: 'ask', question?}: ends input-required; a follow-up message on the same task (taskId + contextId) whose text or data {value} gives the value completes it.",
        ['{"skill": "ask", "question": "Which colour?"}'],
    ),
    _skill(
        "auth",
        "Needs a credential mid-task",
        f"Data part {{skill: 'auth'}}: working, then auth-required: the status message asks for the card's '{API_KEY_SCHEME}' scheme (text, and a data part {{securityScheme, type, location, name}} naming header {API_KEY_HEADER}). A follow-up message on the same task (taskId + contextId) sent with {API_KEY_HEADER} completes it with an artifact 'authorized'; without the key it stays auth-required with the same ask. Sent with the key in the first place, it completes at once.",
        ['{"skill": "auth"}'],
        needs=API_KEY_SCHEME,
    ),
    _skill(
        "echo",
        "Echo",
        "Plain text (no skill): a completed task with an artifact 'echo: <text>'. The exact text 'message' gets a direct Message reply instead of a Task.",
        ["hello", "message"],
    ),
]


def _interfaces(rpc_url: str, rest_url: str, bindings: tuple[str, ...], grpc_url: str = "") -> list[AgentInterface]:
    """One interface per binding and version, binding-major: each binding's 1.0 then its 0.3."""
    urls = {JSONRPC: rpc_url, HTTP_JSON: rest_url, GRPC: grpc_url}
    return [
        AgentInterface(url=urls[binding], protocol_binding=binding, protocol_version=version)
        for binding in bindings
        for version in ("1.0", "0.3")
    ]


def _build_card(
    url: str,
    *,
    extended: bool,
    rest_url: str | None = None,
    bindings: tuple[str, ...] = (JSONRPC, HTTP_JSON),
    grpc_url: str | None = None,
) -> AgentCard:
    """The card. `url` is the JSON-RPC endpoint, `rest_url` the HTTP+JSON base (default: `url`
    without its trailing slash); `bindings` chooses which of them the card lists, in order.
    `grpc_url` (`grpc://host:port`) adds the GRPC interfaces after them."""
    if grpc_url is not None:
        bindings = (*bindings, GRPC)
    skills = list(_PUBLIC_SKILLS)
    if extended:
        admin = _skill(
            "admin-report",
            "Admin report",
            "Listed only on the extended card. Data part {skill: 'admin-report'} sent with X-API-Key: completed with an artifact 'report' (counters); without it: rejected.",
            ['{"skill": "admin-report"}'],
            needs=API_KEY_SCHEME,
        )
        skills.append(admin)
    return AgentCard(
        name=AGENT_NAME,
        description=(
            "Built-in demo agent of the a2a CLI (a2a-sdk server). Serves A2A 1.0 and 0.3 "
            f"over {_spoken(bindings)}. Skills: create-user, slow, fail, ask, auth, echo."
            + (" Extended card." if extended else "")
        ),
        version=AGENT_VERSION,
        supported_interfaces=_interfaces(
            url, rest_url if rest_url is not None else url.rstrip("/"), bindings, grpc_url or ""
        ),
        capabilities=AgentCapabilities(streaming=True, push_notifications=True, extended_agent_card=True),
        # Declared but not required card-wide (no securityRequirements): only the extended
        # card and the `auth` skill (mid-task) check it, so plain calls work without credentials.
        security_schemes={
            API_KEY_SCHEME: SecurityScheme(
                api_key_security_scheme=APIKeySecurityScheme(
                    location="header",
                    name=API_KEY_HEADER,
                    description="Needed only for the extended agent card and, mid-task, the auth skill.",
                )
            )
        },
        default_input_modes=["text/plain", "application/json"],
        default_output_modes=["text/plain", "application/json"],
        skills=skills,
    )


def _spoken(words: tuple[str, ...]) -> str:
    """Words joined: "A", "A and B", "A, B and C"."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _card_shape(request: Request) -> str:
    """From the `A2A-Version` header (or query parameter): "v1" for 1.x and later, "v0" for
    0.x, "merged" without one (a client of either version that sends no header)."""
    raw = request.headers.get("a2a-version") or request.query_params.get("A2A-Version") or ""
    major = raw.strip().split(".", 1)[0]
    if not major:
        return "merged"
    return "v0" if major == "0" else "v1"


def _v0_interfaces(card: AgentCard) -> list[dict[str, str]]:
    """Every 0.3 interface, the primary one (`url` + `preferredTransport`) first: the 0.3 spec
    says `additionalInterfaces` SHOULD include the main url/transport too (the SDK's conversion
    lists only the others)."""
    return [
        {"url": i.url, "transport": i.protocol_binding}
        for i in card.supported_interfaces
        if i.protocol_version.split(".", 1)[0] == "0"
    ]


def _v0_endpoint_fix(data: dict[str, Any], card: AgentCard) -> dict[str, Any]:
    # The SDK copies the interface's "0.3"; a 0.3 card spells the full version.
    data["protocolVersion"] = "0.3.0"
    interfaces = _v0_interfaces(card)
    if len(interfaces) > 1:
        data["additionalInterfaces"] = interfaces
    else:
        data.pop("additionalInterfaces", None)
    return data


def _v0_card_dict(card: AgentCard) -> dict[str, Any]:
    data = to_compat_agent_card(card).model_dump(mode="json", by_alias=True, exclude_none=True)
    return _v0_endpoint_fix(data, card)


def _merged_card_dict(card: AgentCard) -> dict[str, Any]:
    data = agent_card_to_dict(card)  # the SDK's: V1 keys plus the V0 ones (url, protocolVersion …)
    return _v0_endpoint_fix(data, card)


def _card_route_endpoint(card: AgentCard) -> Callable[[Request], Any]:
    """One card, three shapes. The SDK's own card route serves its merged V1+V0 card whatever
    the header; this route gives a client that names its version that version's card alone."""
    bodies = {
        "v1": json.dumps(MessageToDict(card), separators=(",", ":")).encode(),
        "v0": json.dumps(_v0_card_dict(card), separators=(",", ":")).encode(),
        "merged": json.dumps(_merged_card_dict(card), separators=(",", ":")).encode(),
    }
    etags = {k: f'W/"{hashlib.sha256(v).hexdigest()[:32]}"' for k, v in bodies.items()}

    async def get_card(request: Request) -> Response:
        shape = _card_shape(request)
        headers = {"Vary": "A2A-Version", "ETag": etags[shape], "Cache-Control": "max-age=60"}  # A2A 1.0 §8.6.1
        inm = request.headers.get("if-none-match", "")
        if inm and etags[shape] in [c.strip() for c in inm.split(",")]:
            return Response(status_code=304, headers=headers)
        return Response(bodies[shape], media_type="application/json", headers=headers)

    return get_card


# --------------------------------------------------------------------------- the agent


def _text_part(text: str) -> Part:
    return Part(text=text)


def _data_part(data: Any) -> Part:
    return Part(data=ParseDict(data, struct_pb2.Value()))


def _plain(value: Any) -> Any:
    """Whole-number floats back to ints (protobuf Value stores doubles), so that
    `{"value": 7}` reads "got: 7" and `steps` is a count. The wire still says 7.0."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _parts(message: Message | None) -> tuple[list[str], list[Any]]:
    texts: list[str] = []
    datas: list[Any] = []
    for part in message.parts if message is not None else []:
        if part.HasField("text"):
            texts.append(part.text)
        elif part.HasField("data"):
            datas.append(_plain(MessageToDict(part.data)))
    return texts, datas


def _number(fields: dict[str, Any], key: str, default: float, low: float, high: float) -> float:
    try:
        value = float(fields.get(key, default))
    except (TypeError, ValueError):
        value = default
    return min(max(value, low), high)


class DemoAgentExecutor(AgentExecutor):
    """The skills. Each task enqueues a Task first (the SDK requires it), then updates."""

    def __init__(self, api_key: str) -> None:
        self._api_key = api_key
        self._users_created = 0
        self._tasks_started = 0
        self._slow_canceled: dict[str, bool] = {}  # running slow task id -> cancel asked

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        message = context.message
        task_id = context.task_id or str(uuid.uuid4())
        context_id = context.context_id or str(uuid.uuid4())
        texts, datas = _parts(message)
        current = context.current_task
        updater = TaskUpdater(event_queue, task_id, context_id)

        if current is not None and current.status.state == TaskState.TASK_STATE_INPUT_REQUIRED:
            await self._answer(updater, texts, datas)
            return
        if current is not None and current.status.state == TaskState.TASK_STATE_AUTH_REQUIRED:
            await self._auth(updater, self._key_sent(context), again=True)
            return

        first = datas[0] if datas and isinstance(datas[0], dict) else None
        skill = first.get("skill") if first is not None else None
        fields = {k: v for k, v in (first or {}).items() if k != "skill"}

        if skill is None and " ".join(texts).strip() == "message":
            # The one skill-less input answered with a direct Message (no task).
            await event_queue.enqueue_event(
                Message(
                    message_id=str(uuid.uuid4()),
                    context_id=context_id,
                    role=Role.ROLE_AGENT,
                    parts=[_text_part("echo: message (a direct Message, no task)")],
                )
            )
            return

        if current is None:
            self._tasks_started += 1
            await event_queue.enqueue_event(
                Task(
                    id=task_id,
                    context_id=context_id,
                    status=TaskStatus(state=TaskState.TASK_STATE_SUBMITTED),
                    history=[message] if message is not None else [],
                )
            )

        await self._run_skill(skill, context, updater, texts, datas, fields)

    async def _run_skill(
        self,
        skill: Any,
        context: RequestContext,
        updater: TaskUpdater,
        texts: list[str],
        datas: list[Any],
        fields: dict[str, Any],
    ) -> None:
        """The skill the first data part names (none: echo); an unknown one is rejected."""
        if skill is None or skill == "echo":
            await self._echo(updater, texts, datas, fields)
        elif skill == "create-user":
            await self._create_user(updater, fields)
        elif skill == "slow":
            await self._slow(updater, fields)
        elif skill == "fail":
            await self._fail(updater, fields)
        elif skill == "ask":
            await self._ask(updater, fields)
        elif skill == "auth":
            await self._auth(updater, self._key_sent(context))
        elif skill == "admin-report":
            await self._admin_report(updater, self._key_sent(context) == "right")
        else:
            known = ", ".join(s.id for s in _PUBLIC_SKILLS)
            await updater.reject(
                updater.new_agent_message([_text_part(f"unknown skill {skill!r}; this agent knows: {known}")])
            )

    def _key_sent(self, context: RequestContext) -> str:
        """The request's API key header (gRPC: metadata x-api-key): "right", "wrong" or "none"."""
        state = context.call_context.state if context.call_context is not None else {}
        sent = state.get("headers", {}).get(API_KEY_HEADER.lower())
        return "none" if sent is None else "right" if sent == self._api_key else "wrong"

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        # The SDK calls this, then cancels the running execute() (CancelledError).
        task_id = context.task_id or ""
        if task_id in self._slow_canceled:
            self._slow_canceled[task_id] = True
        updater = TaskUpdater(event_queue, task_id, context.context_id or "")
        await updater.cancel(updater.new_agent_message([_text_part("canceled on request")]))

    async def _echo(self, updater: TaskUpdater, texts: list[str], datas: list[Any], fields: dict[str, Any]) -> None:
        text = fields.get("text") if isinstance(fields.get("text"), str) else None
        if text is None:
            text = "\n".join(texts) if texts else json.dumps(datas, separators=(",", ":"))
        await updater.add_artifact([_text_part(f"echo: {text}")], name="echo", last_chunk=True)
        await updater.complete()

    async def _create_user(self, updater: TaskUpdater, fields: dict[str, Any]) -> None:
        await updater.start_work()
        self._users_created += 1
        user = {"id": f"user-{self._users_created}", **fields}
        await updater.add_artifact([_data_part(user)], name="user", last_chunk=True)
        await updater.complete()

    async def _slow(self, updater: TaskUpdater, fields: dict[str, Any]) -> None:
        steps = int(_number(fields, "steps", 5, 1, SLOW_MAX_STEPS))
        delay = _number(fields, "delay", 0.5, 0, SLOW_MAX_DELAY)
        task_id = updater.task_id
        self._slow_canceled[task_id] = False
        try:
            for i in range(1, steps + 1):
                if self._slow_canceled[task_id]:
                    return
                await updater.start_work(updater.new_agent_message([_text_part(f"step {i}/{steps}")]))
                await asyncio.sleep(delay)
            if self._slow_canceled[task_id]:
                return
            await updater.add_artifact([_text_part(f"done after {steps} steps")], name="result", last_chunk=True)
            await updater.complete()
        except asyncio.CancelledError:
            logger.info("slow task %s stopped (canceled)", task_id)
            raise
        finally:
            del self._slow_canceled[task_id]

    async def _fail(self, updater: TaskUpdater, fields: dict[str, Any]) -> None:
        await updater.start_work()
        reason = fields.get("reason") or "the 'fail' skill always fails (on purpose, for demos)"
        await updater.failed(updater.new_agent_message([_text_part(f"failed: {reason}")]))

    async def _ask(self, updater: TaskUpdater, fields: dict[str, Any]) -> None:
        question = fields.get("question") or "Which value should I use?"
        await updater.start_work()
        await updater.requires_input(
            updater.new_agent_message(
                [
                    _text_part(
                        f'{question} Reply on this task (same taskId and contextId) with text, or a data part {{"value": ...}}.'
                    )
                ]
            )
        )

    async def _auth(self, updater: TaskUpdater, key: str, *, again: bool = False) -> None:
        """In-task authorization (A2A §7.6): the task asks for the card's API key scheme in its
        status message (AUTH_REQUIRED) and returns; the next message on the task carries the key
        in the header the card declares. The key goes where the card says, never in the message."""
        if not again:
            await updater.start_work()
        if key != "right":
            wrong = f"The {API_KEY_HEADER} sent is not this agent's key. " if key == "wrong" else ""
            ask = (
                f"{wrong}This task needs a credential to go on: the API key of the Agent Card's security scheme "
                f"'{API_KEY_SCHEME}', in header {API_KEY_HEADER}. Send it with a message on this task (same taskId and contextId)."
            )
            scheme = {"securityScheme": API_KEY_SCHEME, "type": "apiKey", "location": "header", "name": API_KEY_HEADER}
            await updater.requires_auth(updater.new_agent_message([_text_part(ask), _data_part(scheme)]))
            return
        if again:
            await updater.start_work()
        await updater.add_artifact(
            [_text_part(f"authorized with {API_KEY_HEADER}: the protected step is done")],
            name="authorized",
            last_chunk=True,
        )
        await updater.complete(updater.new_agent_message([_text_part("authorized, done")]))

    async def _admin_report(self, updater: TaskUpdater, authorized: bool) -> None:
        if not authorized:
            await updater.reject(
                updater.new_agent_message([_text_part(f"admin-report needs header {API_KEY_HEADER} with the demo key")])
            )
            return
        await updater.start_work()
        report = {"tasksStarted": self._tasks_started, "usersCreated": self._users_created}
        await updater.add_artifact([_data_part(report)], name="report", last_chunk=True)
        await updater.complete()

    async def _answer(self, updater: TaskUpdater, texts: list[str], datas: list[Any]) -> None:
        value: Any
        if datas:
            first = datas[0]
            value = first.get("value", first) if isinstance(first, dict) else first
        else:
            value = "\n".join(texts)
        shown = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
        await updater.start_work()
        await updater.add_artifact([_text_part(f"got: {shown}")], name="answer", last_chunk=True)
        await updater.complete(updater.new_agent_message([_text_part(f"thanks, got: {shown}")]))


# --------------------------------------------------------------------------- push URL policy


async def demo_push_url_validator(url: str) -> bool:
    """The SDK's SSRF screen (`validate_push_notification_url`) rejects loopback, which
    is where a local `a2a webhook listen` runs. Loopback http(s) URLs are accepted here;
    anything else still goes through the SDK's screen."""
    try:
        parsed = urllib.parse.urlparse(url)
    except ValueError:
        return False
    if parsed.scheme in ("http", "https") and parsed.hostname and is_loopback(parsed.hostname):
        return True
    return await validate_push_notification_url(url)


# --------------------------------------------------------------------------- the app


def _unauthorized_rest() -> JSONResponse:
    """401 in the SDK's REST error shape (google.rpc.Status-like; the SDK has no auth error)."""
    return JSONResponse(
        {
            "error": {
                "code": 401,
                "status": "UNAUTHENTICATED",
                "message": f"Unauthorized: the extended agent card needs header {API_KEY_HEADER}",
            }
        },
        status_code=401,
        headers={"WWW-Authenticate": f'ApiKey header="{API_KEY_HEADER}"'},
    )


class _ExtendedCardKey:
    """ASGI middleware: the REST extended-card routes (`GET /extendedAgentCard`, also under a
    tenant segment, and V0 `GET /v1/card`) answer 401 without the right `X-API-Key`."""

    def __init__(self, app: ASGIApp, api_key: str) -> None:
        self.app = app
        self.api_key = api_key

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and EXTENDED_CARD_REST_PATH.match(scope.get("path", "")):
            request = Request(scope)
            if request.headers.get(API_KEY_HEADER) != self.api_key:
                await _unauthorized_rest()(scope, receive, send)
                return
        await self.app(scope, receive, send)


# The guards below stand in for what a2a-sdk 1.3 does not do on its 0.3 HTTP+JSON and gRPC services
# (docs/compliance.md, "Known deviations of a2a-sdk"): it reads a message without a role as the
# agent's (the 0.3 proto's ROLE_UNSPECIFIED) instead of refusing it (A2A 0.3 §10.2: servers MUST
# validate every parameter), and it answers a 0.3 subscribe to an unknown or finished task by
# opening the stream and dropping it. The demo refuses both first, in the SDK's own error form.
V03_SEND_PATHS = ("/v1/message:send", "/v1/message:stream")
V03_SUBSCRIBE_PATH = re.compile(r"/v1/tasks/(?P<id>[^/]+):subscribe")
NO_ROLE = "message.role is required: ROLE_USER or ROLE_AGENT"
TERMINAL = (
    TaskState.TASK_STATE_COMPLETED,
    TaskState.TASK_STATE_FAILED,
    TaskState.TASK_STATE_CANCELED,
    TaskState.TASK_STATE_REJECTED,
)


def _without_role(body: bytes) -> bool:
    """A 0.3 SendMessageRequest body (`message`, or the proto's `request`) whose message has no role."""
    try:
        doc = json.loads(body or b"null")
    except ValueError:
        return False  # the SDK refuses what is not JSON
    message = (doc.get("message") or doc.get("request")) if isinstance(doc, dict) else None
    return isinstance(message, dict) and message.get("role") in (None, "", 0, "ROLE_UNSPECIFIED")


class _V03Guards:
    """ASGI middleware: a 0.3 HTTP+JSON message without a role is InvalidParamsError; a 0.3
    subscribe to an unknown task is TaskNotFoundError, to a finished one UnsupportedOperationError
    (A2A 1.0 §3.1.6), before the SDK opens the stream. A request asking for 1.x passes untouched."""

    def __init__(self, app: ASGIApp, handler: DefaultRequestHandler) -> None:
        self.app = app
        self.handler = handler

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or Request(scope).headers.get(VERSION_HEADER, "").strip().startswith("1"):
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        if scope["method"] == "POST" and path in V03_SEND_PATHS:
            body, more = b"", True
            while more:
                event = await receive()
                body, more = body + event.get("body", b""), event.get("more_body", False)
            if _without_role(body):
                await (await self._refuse(InvalidParamsError(message=NO_ROLE)))(scope, receive, send)
                return
            await self.app(scope, _replay(body, receive), send)
            return
        # GET as the 0.3 proto annotates it, POST as 0.3 §7.9 and its §3.5.3 table give it
        if scope["method"] in ("GET", "POST") and (m := V03_SUBSCRIBE_PATH.fullmatch(path)):
            refusal = await self._subscribable(urllib.parse.unquote(m.group("id")))
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)

    @rest_error_handler
    async def _refuse(self, error: Exception) -> Response:
        raise error

    async def _subscribable(self, task_id: str) -> Response | None:
        try:
            task = await self.handler.on_get_task(GetTaskRequest(id=task_id), ServerCallContext())
        except Exception as e:  # noqa: BLE001 - TaskNotFoundError and the like: the SDK's REST form
            return await self._refuse(e)
        if task is not None and task.status.state in TERMINAL:
            return await self._refuse(UnsupportedOperationError(message=f"task {task_id} is in a terminal state"))
        return None


def _replay(body: bytes, receive: Receive) -> Receive:
    """The request's body, read once, handed on to the app as if unread."""
    done = False

    async def replay() -> Any:
        nonlocal done
        if done:
            return await receive()
        done = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


# a2a-sdk's 0.3 adapter drops `"result": null` from the answer to a push-config delete (its models
# exclude None): JSON-RPC 2.0 §5 requires the member on success, and 0.3 §7.8 makes it null.
V03_DELETE_PUSH_CONFIG = "tasks/pushNotificationConfig/delete"


def _with_result(answer: Response) -> Response:
    """A JSON-RPC success answer without its `result` member, given one (null)."""
    try:
        doc = json.loads(bytes(answer.body))
    except (AttributeError, ValueError):
        return answer
    if not isinstance(doc, dict) or "result" in doc or "error" in doc:
        return answer
    return JSONResponse({**doc, "result": None}, status_code=answer.status_code)


def _unauthorized(request_id: Any) -> JSONResponse:
    return JSONResponse(
        {
            "jsonrpc": "2.0",
            "id": request_id,
            "error": {
                "code": -32000,
                "message": f"Unauthorized: the extended agent card needs header {API_KEY_HEADER}",
            },
        },
        status_code=401,
        headers={"WWW-Authenticate": f'ApiKey header="{API_KEY_HEADER}"'},
    )


def build_handler(
    public_card: AgentCard, extended_card: AgentCard, api_key: str
) -> tuple[DefaultRequestHandler, httpx.AsyncClient]:
    """The SDK request handler over the demo executor and in-memory stores, and the httpx
    client it pushes webhooks with (close both at shutdown)."""
    task_store = InMemoryTaskStore()
    push_store = InMemoryPushNotificationConfigStore()
    push_client = httpx.AsyncClient(timeout=10.0)
    handler = DefaultRequestHandler(
        agent_executor=DemoAgentExecutor(api_key),
        task_store=task_store,
        agent_card=public_card,
        push_config_store=push_store,
        push_sender=BasePushNotificationSender(push_client, push_store, push_url_validator=demo_push_url_validator),
        extended_agent_card=extended_card,
        push_url_validator=demo_push_url_validator,
    )
    return handler, push_client


# --------------------------------------------------------------------------- 0.3 REST routes the SDK lacks

V03_LIST_PAGE = 100  # tasks per page read from the store for 0.3 `GET /v1/tasks` (which has no paging)


class _V03Extras:
    """0.3 HTTP+JSON routes a2a-sdk 1.3 does not serve: `DELETE /v1/tasks/{id}/pushNotificationConfigs/{push_id}`
    and `GET /v1/tasks` (0.3 ListTasks, which the 0.3 spec's REST mapping names but its proto has
    no rpc for). Without them both fall to the SDK's 1.0 routes under its `/{tenant}` mount
    (tenant "v1") and a 0.3 client gets VERSION_NOT_SUPPORTED.

    Built as the SDK's REST03Adapter builds the other 0.3 routes: the same request handler behind
    the 0.3 RequestHandler03, the A2A-Version check (absent = 0.3), the same call-context builder,
    and errors in the SDK's REST shape (`rest_error_handler`: google.rpc.Status). A request that
    says `A2A-Version: 1.x` still reaches the SDK's 1.0 route under tenant "v1", as before."""

    def __init__(self, handler: DefaultRequestHandler, v1_routes: list[BaseRoute]) -> None:
        self.handler = handler
        self.handler03 = RequestHandler03(request_handler=handler)
        self.context_builder = V03ServerCallContextBuilder(DefaultServerCallContextBuilder())
        # the SDK's 1.0 endpoints by (path, method), for a 1.x request with tenant "v1"
        self.v1 = {(r.path, m): r.endpoint for r in v1_routes if isinstance(r, Route) for m in r.methods or ()}

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/v1/tasks/{id}/pushNotificationConfigs/{push_id}", self.delete_push_config, methods=["DELETE"]),
            Route("/v1/tasks", self.list_tasks, methods=["GET"]),
        ]

    async def _v1_tenant(self, request: Request, path: str, method: str) -> Response | None:
        """The SDK's 1.0 answer (tenant "v1") when the request asks for 1.x, else None."""
        asked = (request.headers.get(VERSION_HEADER) or "").strip()
        if asked.split(".")[0] != "1":
            return None
        request.scope.setdefault("path_params", {})["tenant"] = "v1"
        response: Response = await self.v1[(path, method)](request)
        return response

    @rest_error_handler
    async def delete_push_config(self, request: Request) -> Response:
        v1 = await self._v1_tenant(request, "/tasks/{id}/pushNotificationConfigs/{push_id}", "DELETE")
        if v1 is not None:
            return v1
        await self._delete_push_config(request, self.context_builder.build(request))
        return JSONResponse(content={})

    @validate_version(PROTOCOL_VERSION_0_3)
    async def _delete_push_config(self, request: Request, context: ServerCallContext) -> None:
        params = types_v03.DeleteTaskPushNotificationConfigParams(
            id=request.path_params["id"], push_notification_config_id=request.path_params["push_id"]
        )
        await self.handler03.on_delete_task_push_notification_config(
            types_v03.DeleteTaskPushNotificationConfigRequest(id="", params=params), context
        )

    @rest_error_handler
    async def list_tasks(self, request: Request) -> Response:
        v1 = await self._v1_tenant(request, "/tasks", "GET")
        if v1 is not None:
            return v1
        return JSONResponse(content=await self._list_tasks(request, self.context_builder.build(request)))

    @validate_version(PROTOCOL_VERSION_0_3)
    async def _list_tasks(self, request: Request, context: ServerCallContext) -> list[dict[str, Any]]:
        """Every task, as a JSON array of 0.3 proto Tasks (artifacts included: a 0.3 Task carries them)."""
        tasks: list[dict[str, Any]] = []
        token = ""
        while True:
            page = await self.handler.on_list_tasks(
                ListTasksRequest(page_size=V03_LIST_PAGE, page_token=token, include_artifacts=True), context
            )
            tasks += [MessageToDict(proto_utils_v03.ToProto.task(to_compat_task(t))) for t in page.tasks]
            token = page.next_page_token
            if not token:
                return tasks


def build_app(*, host: str, port: int, api_key: str, grpc_url: str | None = None) -> Starlette:
    """The ASGI app: JSON-RPC (V1 + V0) at `/`, HTTP+JSON (V1 + V0) under the base URL, the
    card at the well-known paths; its cards list the gRPC interfaces at `grpc_url` when given.

    `app.state.handler` is the SDK request handler (for the gRPC services to share), and
    `app.state.on_shutdown` a list of coroutine functions the lifespan awaits first at shutdown."""
    rest_url = base_url(host, port)
    url = rest_url + RPC_PATH
    public_card = _build_card(url, extended=False, rest_url=rest_url, grpc_url=grpc_url)
    extended_card = _build_card(url, extended=True, rest_url=rest_url, grpc_url=grpc_url)
    handler, push_client = build_handler(public_card, extended_card, api_key)
    on_shutdown: list[Callable[[], Awaitable[None]]] = []

    (sdk_rpc_route,) = create_jsonrpc_routes(handler, rpc_url=RPC_PATH, enable_v0_3_compat=True)
    sdk_rpc = sdk_rpc_route.endpoint

    async def rpc(request: Request) -> Response:
        # The extended card is the one call that needs the key: answered HTTP 401 here,
        # before the SDK sees it. Starlette caches the body, so the SDK can re-read it.
        try:
            body = await request.json()
        except Exception:  # noqa: BLE001 - the SDK reports bad JSON itself
            body = None
        if (
            isinstance(body, dict)
            and body.get("method") in EXTENDED_CARD_METHODS
            and request.headers.get(API_KEY_HEADER) != api_key
        ):
            request_id = body.get("id")
            if isinstance(request_id, bool) or not isinstance(request_id, str | int):
                request_id = None
            return _unauthorized(request_id)
        answer = await sdk_rpc(request)
        if isinstance(body, dict) and body.get("method") == V03_DELETE_PUSH_CONFIG:
            return _with_result(answer)
        return answer

    card_endpoint = _card_route_endpoint(public_card)
    # Order matters: the REST routes end with a catch-all `Mount("/{tenant}")` that would
    # swallow any later two-segment path (the card's, the 0.3 extras'), so they come last.
    rest_routes = create_rest_routes(handler, enable_v0_3_compat=True)
    routes: list[BaseRoute] = [Route(path, card_endpoint, methods=["GET"]) for path in CARD_PATHS]
    routes.append(Route(RPC_PATH, rpc, methods=["POST"]))
    routes += _V03Extras(handler, rest_routes).routes()
    routes += rest_routes

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            for hook in on_shutdown:
                await hook()
            await handler.aclose()
            await push_client.aclose()

    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(_ExtendedCardKey, api_key=api_key), Middleware(_V03Guards, handler=handler)],
    )
    app.state.handler = handler
    app.state.on_shutdown = on_shutdown
    return app


# --------------------------------------------------------------------------- gRPC


def _grpc_server(host: str, port: int, api_key: str) -> tuple[Any, int]:
    """A grpc.aio server bound to `host:port` (0 picks a free port) with the extended-card key
    check, not started, and its real port. Call inside the event loop that will run it.

    Raises ImportError without grpcio, OSError when the address cannot be bound."""
    grpc = importlib.import_module("grpc")  # the `grpc` extra; importlib keeps mypy off its missing stubs

    async def intercept_service(_self: Any, continuation: Callable[[Any], Awaitable[Any]], details: Any) -> Any:
        """`GetExtendedAgentCard` (V1) and `GetAgentCard` (V0) answer UNAUTHENTICATED without
        metadata `x-api-key` holding the key (gRPC metadata keys are lowercase)."""
        if details.method in EXTENDED_CARD_GRPC_METHODS:
            sent = [v for k, v in details.invocation_metadata or () if k == API_KEY_HEADER.lower()]
            if sent != [api_key]:

                async def deny(_request: Any, context: Any) -> None:
                    await context.abort(
                        grpc.StatusCode.UNAUTHENTICATED,
                        f"Unauthorized: the extended agent card needs metadata {API_KEY_HEADER.lower()}",
                    )

                return grpc.unary_unary_rpc_method_handler(deny)
        return await continuation(details)

    # Made with type(): its base comes from the lazily imported module.
    key_check = type("ExtendedCardKey", (grpc.aio.ServerInterceptor,), {"intercept_service": intercept_service})()
    address = _hostport(host, port)
    if port:
        # A trial bind first: the real reason (in use, not allowed...), without grpc's own log line.
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM) as trial:
            trial.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as grpc binds
            try:
                trial.bind((host, port))
            except OSError as exc:
                raise OSError(exc.errno, exc.strerror, f"{address} (gRPC)") from None
    # so_reuseport off: a second server on a taken port fails instead of sharing it silently.
    server = grpc.aio.server(interceptors=[key_check], options=[("grpc.so_reuseport", 0)])
    try:
        real_port = server.add_insecure_port(address)
    except RuntimeError:  # taken since the trial; grpc says only "Failed to bind to address"
        raise OSError(errno.EADDRINUSE, os.strerror(errno.EADDRINUSE), f"{address} (gRPC)") from None
    return server, real_port


def _grpc_add_services(server: Any, handler: DefaultRequestHandler) -> None:
    """The SDK's V1 and 0.3 gRPC services over `handler`. The call context carries the call's
    text metadata as `headers`, as over HTTP (the admin-report skill reads `x-api-key` there)."""
    from a2a.compat.v0_3 import a2a_v0_3_pb2_grpc
    from a2a.compat.v0_3.grpc_handler import CompatGrpcHandler
    from a2a.server.request_handlers.grpc_handler import DefaultGrpcServerCallContextBuilder, GrpcHandler
    from a2a.types import a2a_pb2_grpc

    class MetadataAsHeaders(DefaultGrpcServerCallContextBuilder):
        def build(self, context: Any) -> ServerCallContext:
            call_context = super().build(context)
            call_context.state["headers"] = {k: v for k, v in context.invocation_metadata() or () if isinstance(v, str)}
            return call_context

    grpc = importlib.import_module("grpc")

    class RoleRequired(CompatGrpcHandler):  # the 0.3 guard of _V03Guards, over gRPC
        async def SendMessage(self, request: Any, context: Any) -> Any:  # noqa: N802 - the rpc's name
            if not request.request.role:
                await context.abort(grpc.StatusCode.INVALID_ARGUMENT, NO_ROLE)
            return await super().SendMessage(request, context)

        async def SendStreamingMessage(self, request: Any, context: Any) -> Any:  # noqa: N802
            if not request.request.role:
                await context.abort(grpc.StatusCode.INVALID_ARGUMENT, NO_ROLE)
            async for event in super().SendStreamingMessage(request, context):
                yield event

    class VersionRead(MetadataAsHeaders):
        """The 1.0 service reads the a2a-version metadata too (A2A 1.0 §3.6.2: a version the
        interface does not serve is VersionNotSupportedError), though its package names 1.0."""

        def build(self, context: Any) -> ServerCallContext:
            call_context = super().build(context)
            asked = str(call_context.state["headers"].get(VERSION_HEADER.lower(), "")).strip()
            if asked and asked.split(".")[:2] not in (["1"], ["1", "0"]):
                raise VersionNotSupportedError(message=f"A2A-Version {asked} is not served here (1.0)")
            return call_context

    builder = MetadataAsHeaders()
    a2a_pb2_grpc.add_A2AServiceServicer_to_server(GrpcHandler(handler, context_builder=VersionRead()), server)
    a2a_v0_3_pb2_grpc.add_A2AServiceServicer_to_server(RoleRequired(handler, context_builder=builder), server)


class _OneLine(logging.Formatter):
    """A log record on the terminal as one line: the first line of its message, without the
    traceback a library attaches (the log file, or --log-level debug, keeps it): `check` probing
    the demo makes the SDK underneath log detached contexts, destroyed pending tasks and parse
    errors that read as the demo crashing."""

    def format(self, record: logging.LogRecord) -> str:
        lines = record.getMessage().splitlines()
        return f"{record.levelname}:  {record.name}: {lines[0] if lines else ''}"


def _log_to(log_file: str | None, level: str) -> None:
    """Every logger of the server (the SDK's, uvicorn's, its own, asyncio's and the rest through
    the root logger, Python warnings) into one handler: the file, with tracebacks, or stderr, one
    line a record (tracebacks too under debug)."""
    handler = logging.FileHandler(log_file, encoding="utf-8") if log_file else logging.StreamHandler()
    full = bool(log_file) or level in ("DEBUG", "TRACE")
    handler.setFormatter(logging.Formatter("%(levelname)s:  %(name)s: %(message)s") if full else _OneLine())
    for name in ("a2a", logger.name, "uvicorn", "uvicorn.error", "uvicorn.access", "py.warnings"):
        named = logging.getLogger(name)
        named.setLevel(level if level != "TRACE" else "DEBUG")
        named.handlers = [handler]
        named.propagate = False
    root = logging.getLogger()  # asyncio, opentelemetry, grpc...: what the libraries log elsewhere
    root.handlers = [handler]
    root.setLevel(max(logging.WARNING, logging.getLevelName(level) if level != "TRACE" else logging.DEBUG))
    logging.captureWarnings(True)


def serve(
    *,
    host: str = "127.0.0.1",
    port: int = 41241,
    api_key: str = "demo-key",
    log_level: str = "warning",
    grpc_port: int | None = None,
    on_listen: Callable[[str, str | None], None] | None = None,
    on_note: Callable[[str], None] | None = None,
    log_file: str | None = None,
) -> None:
    """Bind, build the app for the bound ports (`port=0` picks a free one), then serve HTTP and
    gRPC on one event loop until interrupted. `on_listen(base_url, grpc_url)` runs once the
    sockets are bound (`grpc_url` None when gRPC is not served); `on_note(text)` gets the
    reason gRPC is not served when grpcio is missing (default: a logged warning).

    `grpc_port`: None = the HTTP port + 1 (a free port when `port` is 0), 0 = no gRPC.
    `log_file`: the server's log (the SDK's, uvicorn's, its own, and Python warnings) is appended
    there instead of going to stderr.

    Raises OSError when an address cannot be bound (its `filename` names it)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(128)
    sock.setblocking(False)
    real_port = sock.getsockname()[1]
    if grpc_port is None:
        grpc_port = real_port + 1 if 0 < port < 65535 else -1  # -1: any free port

    _log_to(log_file, log_level.upper())
    # A wildcard bind has no address to advertise; the card and banner name loopback.
    shown_host = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)

    async def run() -> None:
        # gRPC first: its bound port goes on the card. grpc.aio objects belong to the loop they
        # are made on, so everything is built here, on the loop uvicorn then serves on.
        grpc_server: Any = None
        grpc_at: str | None = None
        if grpc_port != 0:
            try:
                grpc_server, bound = _grpc_server(host, max(grpc_port, 0), api_key)
            except ImportError:
                from a2acli.extras import install_hint

                (on_note or logger.warning)(
                    f"no gRPC: grpcio is not installed (add the grpc extra: {install_hint('grpc')})"
                )
            else:
                grpc_at = grpc_url(shown_host, bound)
        app = build_app(host=shown_host, port=real_port, api_key=api_key, grpc_url=grpc_at)
        stopped = False

        async def stop_grpc() -> None:
            nonlocal stopped
            if grpc_server is not None and not stopped:
                stopped = True
                await grpc_server.stop(GRPC_GRACE)

        if grpc_server is not None:
            _grpc_add_services(grpc_server, app.state.handler)
            await grpc_server.start()
            # Stopped in the app's lifespan shutdown, within uvicorn's graceful shutdown
            # (before uvicorn re-raises the Ctrl-C / SIGTERM it caught).
            app.state.on_shutdown.append(stop_grpc)
        # log_config None: uvicorn's loggers go through _log_to's handler, as every other
        config = uvicorn.Config(app, log_level=log_level, lifespan="on", timeout_graceful_shutdown=2, log_config=None)
        server = uvicorn.Server(config)
        if on_listen is not None:
            on_listen(base_url(shown_host, real_port), grpc_at)
        try:
            await server.serve(sockets=[sock])
        finally:
            await stop_grpc()  # when the lifespan did not get to it (startup failed, forced exit)

    try:
        asyncio.run(run())
    finally:
        sock.close()
