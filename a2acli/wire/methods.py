"""The method table: one entry per A2A method. Commands, codecs, golden files and `a2a call`
are all driven from METHODS; nothing else in the package spells a method name."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from a2acli.errors import UsageError
from a2acli.wire import CARD_PATHS as CARD_PATHS  # (defined with the version header: off the card's path)
from a2acli.wire import Wire

if TYPE_CHECKING:
    from a2acli.wire.dialects import Dialect
    from a2acli.wire.translate.requests import MethodTranslators


class Route(NamedTuple):
    """An HTTP+JSON route, spelt as the proto's `google.api.http` annotation: `{field}` and
    `{field=pattern}` take the request message's field; `body` is `*` (every field the path does
    not take), a field name, `=` (the whole message, path fields included: what a2a-sdk's 0.3
    server reads where its proto says `config`), or "" (no body: the fields left go to the query).
    `other`: a second body form servers read, tried once when the first is refused (only where
    sending the request again in the other form is safe: a server reads one form or the other)."""

    verb: str
    template: str
    body: str = ""
    other: str = ""


class NoV0FormError(UsageError):
    """A method 0.3 does not have (in the dialect chosen)."""

    def __init__(self, message: str, *, hint: str, spec: MethodSpec) -> None:
        super().__init__(message, hint=hint)
        self.spec = spec


class MethodSpec(NamedTuple):  # NamedTuple: cheaper than a dataclass to define at start-up
    name: str  # V1 (PascalCase) name: the key everywhere
    v0: str | None  # V0 (slash) name; None when 0.3 has no such method
    streaming: bool
    command: str  # the `a2a` command that calls it
    result: str  # what the result holds: send|task|task-list|push-config|push-config-list|empty|card|event
    summary: str
    v0_vendor_only: bool = False  # the V0 name exists only in a vendor dialect
    rest: Route | None = None  # HTTP+JSON under 1.0 (v1.0.1 a2a.proto); `/{tenant}` prefixes it
    rest_v0: Route | None = None  # HTTP+JSON under 0.3 (v0.3.0 a2a.proto): bodies are its proto-JSON
    grpc_v0: str | None = None  # the rpc of 0.3's a2a.v1.A2AService (1.0's lf.a2a.v1 rpcs are the V1 names)
    v0_since_0_3: bool = False  # its V0 name came with 0.3: agents of 0.1/0.2 cards do not have it

    def wire_name(self, wire: Wire, dialect: Dialect, binding: Any = None) -> str:
        """The JSON-RPC method name sent under `wire`; a UsageError when that version has none
        (`binding`, the JSON-RPC binding's row of wire.bindings.BINDINGS, names its extension form)."""
        if wire is Wire.V1:
            return self.name
        self.refuse_v0(dialect, binding)
        assert self.v0 is not None
        return self.v0

    def refuse_v0(self, dialect: Dialect, binding: Any) -> None:
        """NoV0FormError when 0.3 has no such method in `dialect`: the one rule of every binding.
        A method that exists under 0.3 only as an extension (ListTasks: JSON-RPC `tasks/list`, HTTP+JSON
        `GET /v1/tasks`) goes only in a dialect that takes it (clix) or when forced (the caller
        passes the dialect with `v0_list_tasks` set)."""
        if self.v0 is None or (self.v0_vendor_only and not dialect.v0_list_tasks):
            raise NoV0FormError(
                f"{self.name} has no V0 (0.3) form in the `{dialect.name}` dialect",
                hint=self.no_v0_hint(None, binding),
                spec=self,
            )

    def v0_extension(self, binding: Any) -> str:
        """The extension form `--force` sends over `binding` under 0.3 ("" when it has none).
        `binding` is a row of wire.bindings.BINDINGS (typed Any: the method table sits below the
        bindings, which read it), or None when none is in use."""
        if not self.v0_vendor_only or binding is None:
            return ""
        if binding.envelope:
            return f"{self.v0} (limit/offset)"
        if binding.routes and self.rest_v0 is not None:
            return f"{self.rest_v0.verb} {self.rest_v0.template}"
        return ""

    def no_v0_hint(self, offers_v1: bool | None, binding: Any) -> str:
        """What to do about a method 0.3 lacks, from what the card says (None: no card read) and
        the binding in use (its extension form, if any, is what --force sends)."""
        form = self.v0_extension(binding)
        if form:
            vendor = f"--force sends the extension {form} anyway, which only some 0.3 agents answer"
        elif self.v0_vendor_only:
            vendor = "with --transport jsonrpc or rest, --force sends an extension form some 0.3 agents answer"
        else:
            vendor = ""
        if offers_v1 is False:
            hint = f"this agent offers only 0.3 (its card lists no 1.0 interface), and 0.3 has no {self.name}"
            return f"{hint}; {vendor}" if vendor else f"{hint}: `a2a {self.command}` has no way to work with it"
        hint = "use --a2a-version 1.0" + (" if the agent offers it" if offers_v1 is None else " (the card offers it)")
        return f"{hint}, or {vendor}" if vendor else hint

    @property
    def translators(self) -> MethodTranslators:
        if not _TRANSLATORS:  # loaded on first use (read once per stream event: no import each time)
            from a2acli.wire.translate.requests import TRANSLATORS

            _TRANSLATORS.update(TRANSLATORS)
        return _TRANSLATORS[self.name]


_TRANSLATORS: dict[str, MethodTranslators] = {}


_TABLE = (
    MethodSpec(
        "SendMessage",
        "message/send",
        False,
        "send",
        "send",
        "Send a message; wait for the task (or a direct reply).",
        rest=Route("POST", "/message:send", "*"),
        rest_v0=Route("POST", "/v1/message:send", "*"),
        grpc_v0="SendMessage",
    ),
    MethodSpec(
        "SendStreamingMessage",
        "message/stream",
        True,
        "stream",
        "event",
        "Send a message and stream the task's events live.",
        rest=Route("POST", "/message:stream", "*"),
        rest_v0=Route("POST", "/v1/message:stream", "*"),
        grpc_v0="SendStreamingMessage",
    ),
    MethodSpec(
        "GetTask",
        "tasks/get",
        False,
        "tasks get",
        "task",
        "Get a task by id.",
        rest=Route("GET", "/tasks/{id=*}"),
        rest_v0=Route("GET", "/v1/{name=tasks/*}"),
        grpc_v0="GetTask",
    ),
    # 0.3 has no ListTasks rpc; some 0.3 REST servers answer `GET /v1/tasks` (no paging parameters)
    MethodSpec(
        "ListTasks",
        "tasks/list",
        False,
        "tasks list",
        "task-list",
        "List tasks, page by page.",
        v0_vendor_only=True,
        rest=Route("GET", "/tasks"),
        rest_v0=Route("GET", "/v1/tasks"),
    ),
    MethodSpec(
        "CancelTask",
        "tasks/cancel",
        False,
        "tasks cancel",
        "task",
        "Cancel a task.",
        rest=Route("POST", "/tasks/{id=*}:cancel", "*"),
        rest_v0=Route("POST", "/v1/{name=tasks/*}:cancel", "*"),
        grpc_v0="CancelTask",
    ),
    # the 1.0 proto binds GET (the spec's prose says POST; servers accept both)
    MethodSpec(
        "SubscribeToTask",
        "tasks/resubscribe",
        True,
        "tasks subscribe",
        "event",
        "Stream the events of an existing task.",
        rest=Route("GET", "/tasks/{id=*}:subscribe"),
        rest_v0=Route("GET", "/v1/{name=tasks/*}:subscribe"),
        grpc_v0="TaskSubscription",
    ),
    # the 0.3 proto spells this route `{parent=task/*/pushNotificationConfigs}` (a typo) with `body: "config"`:
    # the TaskPushNotificationConfig is the body (a2a-js reads that), configId goes to the query; a2a-sdk's
    # 0.3 servers route tasks/ and read the whole request (parent included) from the body: the other form
    MethodSpec(
        "CreateTaskPushNotificationConfig",
        "tasks/pushNotificationConfig/set",
        False,
        "push-config create",
        "push-config",
        "Register a webhook for a task.",
        rest=Route("POST", "/tasks/{taskId=*}/pushNotificationConfigs", "*"),
        rest_v0=Route("POST", "/v1/{parent=tasks/*}/pushNotificationConfigs", "config", other="="),
        grpc_v0="CreateTaskPushNotificationConfig",
    ),
    MethodSpec(
        "GetTaskPushNotificationConfig",
        "tasks/pushNotificationConfig/get",
        False,
        "push-config get",
        "push-config",
        "Get a task's webhook config.",
        rest=Route("GET", "/tasks/{taskId=*}/pushNotificationConfigs/{id=*}"),
        rest_v0=Route("GET", "/v1/{name=tasks/*/pushNotificationConfigs/*}"),
        grpc_v0="GetTaskPushNotificationConfig",
    ),
    MethodSpec(
        "ListTaskPushNotificationConfigs",
        "tasks/pushNotificationConfig/list",
        False,
        "push-config list",
        "push-config-list",
        "List a task's webhook configs.",
        rest=Route("GET", "/tasks/{taskId=*}/pushNotificationConfigs"),
        rest_v0=Route("GET", "/v1/{parent=tasks/*}/pushNotificationConfigs"),
        grpc_v0="ListTaskPushNotificationConfig",
    ),
    MethodSpec(
        "DeleteTaskPushNotificationConfig",
        "tasks/pushNotificationConfig/delete",
        False,
        "push-config delete",
        "empty",
        "Delete a task's webhook config.",
        rest=Route("DELETE", "/tasks/{taskId=*}/pushNotificationConfigs/{id=*}"),
        rest_v0=Route("DELETE", "/v1/{name=tasks/*/pushNotificationConfigs/*}"),
        grpc_v0="DeleteTaskPushNotificationConfig",
    ),
    MethodSpec(
        "GetExtendedAgentCard",
        "agent/getAuthenticatedExtendedCard",
        False,
        "card extended",
        "card",
        "Fetch the authenticated extended Agent Card.",
        rest=Route("GET", "/extendedAgentCard"),
        rest_v0=Route("GET", "/v1/card"),
        grpc_v0="GetAgentCard",
        v0_since_0_3=True,  # 0.2 agents (a2a-sdk 0.2) serve an extended card by HTTP GET /agent/authenticatedExtendedCard
    ),
)

METHODS: dict[str, MethodSpec] = {m.name: m for m in _TABLE}
V0_METHOD_NAMES: dict[str, str] = {m.name: m.v0 for m in _TABLE if m.v0}  # V1 name -> V0 name
V1_METHOD_NAMES: dict[str, str] = {v0: v1 for v1, v0 in V0_METHOD_NAMES.items()}  # V0 name -> V1 name
_BY_V0: dict[str, MethodSpec] = {m.v0: m for m in _TABLE if m.v0}

# The public Agent Card is an HTTP GET, not a JSON-RPC method; it is listed for the docs and goldens.
CARD_FETCH = "card fetch"


def find_method(name: str) -> MethodSpec | None:
    """Look a method up by its V1 or V0 name (exact, then case-insensitive on V1 names)."""
    if name in METHODS:
        return METHODS[name]
    if name in _BY_V0:
        return _BY_V0[name]
    folded = {k.lower(): v for k, v in METHODS.items()}
    return folded.get(name.lower())
