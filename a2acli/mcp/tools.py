"""`a2a mcp`'s tools: one per A2A method (and `check`, `translate`, `diff`), in a2a's names, each a
row of `TOOLS`: its input schema (what a model fills in: the agent, the version, the binding, the
message fields; never a credential), its output schema, its annotations and the flow it calls.
Headless (no MCP SDK here): `run(name, arguments, face)` returns the result as the protocol's own
JSON in V1 shape, with a short summary, or raises A2acliError; `a2acli.mcp.server` serves them.

Credentials come only from a2a's profiles, config files and environment, with a2a's scoping (a
section's credentials go only to its agent); no tool takes one, and none is in a result (the
session's redactor knows every secret it read)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from a2acli.errors import UsageError
from a2acli.flows.summary import summary

DEFAULT_TIMEOUT = 50.0  # seconds a call may take when neither the tool nor a2a's settings say (hosts give a tool 60)
PROGRESS_TEXT = 2000  # the last characters of the text so far that a progress notification carries


class Face:
    """What the server was started with (the shared options given to `a2a mcp`: --profile,
    --config…, by parameter name), and, during one tool call, where its progress goes."""

    def __init__(self, base: dict[str, Any] | None = None) -> None:
        from a2acli.flows.agents import new_redactor

        self.base = dict(base or {})
        # the tool call's redactor (one Face per call): every secret its options and session learn,
        # masked in its answer and in its error (flows.errors.document)
        self.redactor = new_redactor()
        self.progress: Callable[[int, str], None] | None = None  # (event number, "state: text so far")


class ToolOutcome(NamedTuple):
    structured: dict[str, Any]  # the protocol's JSON (V1 shapes): the tool's structuredContent
    text: str  # a short summary beside it


class Tool(NamedTuple):
    name: str
    title: str
    description: str
    inputs: dict[str, Any]  # property name -> JSON schema
    required: tuple[str, ...]
    output: dict[str, Any]  # the output JSON schema
    annotations: dict[str, Any]
    run: Callable[[dict[str, Any], Face], ToolOutcome]
    agent: bool = True  # calls an agent: takes agent, a2a_version, binding, timeout

    def input_schema(self) -> dict[str, Any]:
        properties = {**(_agent_inputs() if self.agent else {}), **self.inputs}
        schema: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
        if self.required:
            schema["required"] = list(self.required)
        return schema


def _agent_inputs() -> dict[str, Any]:
    from a2acli.flows.agents import VERSIONS, bindings

    return {
        "agent": {
            "type": "string",
            "description": "The agent: its URL (or host:port), or the name of a profile in a2a's config. Default: the profile a2a mcp was started with, or A2ACLI_URL.",
        },
        "a2a_version": {
            "type": "string",
            "enum": list(VERSIONS),
            "description": "The A2A version to speak (default: a2a's setting, 1.0 unless configured).",
        },
        "binding": {
            "type": "string",
            "enum": list(bindings()),
            "description": "The protocol binding (default: the first the Agent Card lists that a2a speaks).",
        },
        "timeout": {
            "type": "number",
            "exclusiveMinimum": 0,
            "description": f"Seconds the whole call may take, waits and streams included (default: a2a's configured timeout, else {DEFAULT_TIMEOUT:g}).",
        },
    }


# -- running a call against an agent ---------------------------------------------------------------


def _options(args: dict[str, Any], face: Face, warnings: list[str]) -> Any:
    """The options of this call: the agent, version, binding and timeout `args` name, over what
    the server was started with; a call is bounded (DEFAULT_TIMEOUT) unless a2a's settings bound it."""
    from a2acli.flows import agents

    opts = agents.options(
        face.base,
        agent=args.get("agent"),
        a2a_version=args.get("a2a_version"),
        binding=args.get("binding"),
        timeout=args.get("timeout"),
        warn=warnings.append,
        redactor=face.redactor,
    )
    if opts.timeout is None and not opts.no_timeout:
        opts = opts._replace(timeout=DEFAULT_TIMEOUT)  # within the host's tool timeout
    return opts._replace(offline=False)  # a tool sends (A2ACLI_OFFLINE would only print the request)


def _against_agent(args: dict[str, Any], face: Face, work: Callable[[Any], Any]) -> tuple[Any, list[str]]:
    """`work(call)` in one session with the agent `args` names; its value, and the warnings said."""
    from a2acli.flows.calls import against

    warnings: list[str] = []
    value, said = against(_options(args, face, warnings), work)
    return value, warnings + said


def _said(text: str, warnings: list[str]) -> str:
    return "\n".join([text, *(f"warning: {w}" for w in warnings)])


def _unary(method: str, params: Callable[[dict[str, Any]], Any], *, wait: bool = False, force: bool = False) -> Any:
    def run(args: dict[str, Any], face: Face) -> ToolOutcome:
        from a2acli.flows import calls

        value, warnings = _against_agent(
            args, face, lambda call: calls.unary(call, method, params(args), wait=wait, force=force).core
        )
        structured = value if isinstance(value, dict) else {}
        return ToolOutcome(structured, _said(summary(structured), warnings))

    return run


def _message(args: dict[str, Any]) -> dict[str, Any]:
    from a2acli.flows import messages

    messages.check_ids(
        message_id=args.get("message_id"), context_id=args.get("context_id"), task_id=args.get("task_id")
    )
    parts = messages.parts(args.get("text"), args.get("data"), args.get("skill"), args.get("fields"))
    if not parts:
        raise UsageError("nothing to send", hint="give text, data or skill")
    return messages.build_message(
        parts,
        message_id=args.get("message_id"),
        context_id=args.get("context_id"),
        task_id=args.get("task_id"),
        metadata=args.get("metadata"),
    )


def _send_params(args: dict[str, Any], *, return_immediately: bool = False) -> dict[str, Any]:
    from a2acli.flows.messages import send_configuration

    params: dict[str, Any] = {"message": _message(args)}
    configuration = send_configuration(
        None, args.get("history_length"), None, None, return_immediately=return_immediately
    )
    if configuration:
        params["configuration"] = configuration
    return params


def _send(args: dict[str, Any], face: Face) -> ToolOutcome:
    asynchronous = bool(args.get("async"))
    return _unary("SendMessage", lambda a: _send_params(a, return_immediately=asynchronous), wait=not asynchronous)(
        args, face
    )


def _streaming(method: str, params: Callable[[dict[str, Any]], Any]) -> Callable[[dict[str, Any], Face], ToolOutcome]:
    """A stream (or a subscription): a progress notification per event (the state and the text so
    far), and the task it ends with (read once more with GetTask: its history and artifacts)."""

    def run(args: dict[str, Any], face: Face) -> ToolOutcome:
        from a2acli.flows import calls

        def tell(n: int, state: str, text: str) -> None:
            if face.progress is not None:
                face.progress(n, f"{state}: {text[-PROGRESS_TEXT:]}" if text else state)

        def work(call: Any) -> dict[str, Any]:
            view = calls.Collected(tell)
            task = calls.stream(call, method, params(args), lambda: view, live=method != "SubscribeToTask")
            if task.get("id"):
                return {"task": calls.unary(call, "GetTask", {"id": task["id"]}).core}
            last = view.last.core if view.last is not None else None
            return last if isinstance(last, dict) else {}

        value, warnings = _against_agent(args, face, work)
        return ToolOutcome(value, _said(summary(value), warnings))

    return run


def _tasks_list(args: dict[str, Any], face: Face) -> ToolOutcome:
    from a2acli.flows import calls, tasks

    params = tasks.list_params(
        status=args.get("status"),
        context_id=args.get("context_id"),
        page_size=args.get("page_size"),
        page_token=args.get("page_token"),
        history_length=args.get("history_length"),
        include_artifacts=bool(args.get("include_artifacts")),
    )
    value, warnings = _against_agent(
        args, face, lambda call: calls.list_tasks(call, params, all_pages=bool(args.get("all_pages"))).core
    )
    return ToolOutcome(value, _said(summary(value), warnings))


def _card(extended: bool) -> Callable[[dict[str, Any], Face], ToolOutcome]:
    def run(args: dict[str, Any], face: Face) -> ToolOutcome:
        from a2acli.flows import card

        value, warnings = _against_agent(args, face, card.extended if extended else card.fetch)
        return ToolOutcome(value, _said(summary(value, card=True), warnings))

    return run


def _check(args: dict[str, Any], face: Face) -> ToolOutcome:
    from a2acli.flows import check

    warnings: list[str] = []
    opts = _options(args, face, warnings)
    document, code = check.check(opts, opts.url, card_only=bool(args.get("card_only")), warn=warnings.append)
    counts = document.get("summary") or {}
    verdict = "passed" if code == 0 else "FAILED" if code == 1 else f"failed (exit {code})"
    text = f"check of {document.get('target')}: {verdict}; " + ", ".join(f"{n} {s}" for s, n in counts.items())
    return ToolOutcome(document, _said(text, warnings))


def _translate(args: dict[str, Any], face: Face) -> ToolOutcome:
    from a2acli.flows import documents

    doc = args["document"]
    to = args.get("to") or documents.other_version([doc])
    result, notes = documents.translate(doc, to, args.get("method"))
    return ToolOutcome({"document": result, "notes": notes}, "\n".join(notes))


def _diff(args: dict[str, Any], face: Face) -> ToolOutcome:
    from a2acli.flows import documents

    found = documents.diff(
        args["left"],
        args["right"],
        raw=bool(args.get("raw")),
        keep_ids=bool(args.get("keep_ids")),
        ignore=tuple(args.get("ignore") or ()),
    )
    n = len(found["differences"])
    text = (
        "the same"
        if found["equal"]
        else f"{n} difference{'s' if n != 1 else ''}: "
        + "; ".join(f"{d['path']} {d['kind']}" for d in found["differences"][:10])
    )
    return ToolOutcome(found, text)


# -- the table -------------------------------------------------------------------------------------

_STR = {"type": "string"}
_TASK_ID = {"task_id": {"type": "string", "description": "The task's id."}}
_CONFIG_ID = {"config_id": {"type": "string", "description": "The push config's id."}}
_HISTORY = {"history_length": {"type": "integer", "minimum": 0, "description": "At most this many history messages."}}
_MESSAGE = {
    "text": {"type": "string", "description": "A text part."},
    "data": {"description": "A data part: any JSON value."},
    "skill": {"type": "string", "description": 'The skill to ask for: a data part {"skill": ID, ...fields}.'},
    "fields": {"type": "object", "description": "The skill's fields (with skill)."},
    "context_id": {"type": "string", "description": "Continue this context."},
    "task_id": {"type": "string", "description": "Continue this task (one that needs input)."},
    "message_id": {"type": "string", "description": "The messageId (default: a new UUID)."},
    "metadata": {"type": "object", "description": "Message metadata."},
    **_HISTORY,
}
_OBJECT = {"type": "object"}
_TASK = {"type": "object", "description": "A Task (V1 JSON).", "properties": {"id": _STR, "status": _OBJECT}}
_SEND_RESULT = {
    "type": "object",
    "description": "SendMessage's result in V1 JSON: {task} or {message}.",
    "properties": {"task": _OBJECT, "message": _OBJECT},
}
_CARD = {"type": "object", "description": "An Agent Card (V1 JSON).", "properties": {"name": _STR}}
_PUSH_CONFIG = {"type": "object", "description": "A TaskPushNotificationConfig (V1 JSON)."}
_READ = {"readOnlyHint": True, "openWorldHint": True}
_OFFLINE = {"readOnlyHint": True, "openWorldHint": False}
_WRITE = {"readOnlyHint": False, "destructiveHint": False, "openWorldHint": True}
_DESTROY = {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": True, "openWorldHint": True}

TOOLS: tuple[Tool, ...] = (
    Tool(
        "card_fetch",
        "Fetch the Agent Card",
        "The agent's public Agent Card (a2a card fetch): name, skills, capabilities, interfaces, security schemes. Sent without credentials.",
        {},
        (),
        _CARD,
        _READ,
        _card(extended=False),
    ),
    Tool(
        "card_extended",
        "Fetch the extended Agent Card",
        "The authenticated extended Agent Card (a2a card extended; GetExtendedAgentCard), with the credentials a2a's config gives this agent.",
        {},
        (),
        _CARD,
        _READ,
        _card(extended=True),
    ),
    Tool(
        "send",
        "Send a message",
        "Send a message (a2a send; SendMessage / message/send) and wait until the task is done or needs input; with async, return at once with the task's id. Returns {task} or {message}.",
        {
            **_MESSAGE,
            "async": {"type": "boolean", "description": "Return at once (returnImmediately) instead of waiting."},
        },
        (),
        _SEND_RESULT,
        _WRITE,
        _send,
    ),
    Tool(
        "stream",
        "Send a message and stream the task",
        "Send a message and follow its events (a2a stream; SendStreamingMessage / message/stream): a progress notification per event with the state and the text so far; returns the final {task} (or the {message} answered).",
        _MESSAGE,
        (),
        _SEND_RESULT,
        _WRITE,
        _streaming("SendStreamingMessage", lambda a: _send_params(a)),
    ),
    Tool(
        "tasks_get",
        "Get a task",
        "A task as it stands (a2a tasks get; GetTask / tasks/get).",
        {**_TASK_ID, **_HISTORY},
        ("task_id",),
        _TASK,
        _READ,
        _unary("GetTask", lambda a: _tasks().get_params(a["task_id"], a.get("history_length"))),
    ),
    Tool(
        "tasks_list",
        "List tasks",
        "The agent's tasks (a2a tasks list; ListTasks), one page or every page, filtered by state or context.",
        {
            "status": {"type": "string", "description": "One state: submitted, working, completed, failed…"},
            "context_id": {"type": "string", "description": "Only this context's tasks."},
            "page_size": {"type": "integer", "minimum": 1, "maximum": 100},
            "page_token": {"type": "string"},
            "include_artifacts": {"type": "boolean"},
            "all_pages": {"type": "boolean", "description": "Every page, merged."},
            **_HISTORY,
        },
        (),
        {
            "type": "object",
            "description": "ListTasks' result (V1 JSON): {tasks, nextPageToken…}.",
            "properties": {"tasks": {"type": "array"}},
        },
        _READ,
        _tasks_list,
    ),
    Tool(
        "tasks_cancel",
        "Cancel a task",
        "Cancel a task (a2a tasks cancel; CancelTask / tasks/cancel). Returns the task.",
        _TASK_ID,
        ("task_id",),
        _TASK,
        _DESTROY,
        _unary("CancelTask", lambda a: _tasks().task_params(a["task_id"])),
    ),
    Tool(
        "tasks_subscribe",
        "Subscribe to a task",
        "Follow a task's events until it ends (a2a tasks subscribe; SubscribeToTask / tasks/resubscribe): a progress notification per event; returns the final {task}.",
        _TASK_ID,
        ("task_id",),
        _SEND_RESULT,
        _READ,
        _streaming("SubscribeToTask", lambda a: _tasks().task_params(a["task_id"])),
    ),
    Tool(
        "push_config_create",
        "Register a webhook for a task",
        "Create a push-notification config (a2a push-config create; CreateTaskPushNotificationConfig). A token or authentication for the webhook is set with the CLI, not here.",
        {**_TASK_ID, "url": {"type": "string", "description": "The webhook's URL."}, **_CONFIG_ID},
        ("task_id", "url"),
        _PUSH_CONFIG,
        _WRITE,
        _unary("CreateTaskPushNotificationConfig", lambda a: _push_params(a)),
    ),
    Tool(
        "push_config_get",
        "Get a task's webhook config",
        "One push-notification config (a2a push-config get; GetTaskPushNotificationConfig).",
        {**_TASK_ID, **_CONFIG_ID},
        ("task_id", "config_id"),
        _PUSH_CONFIG,
        _READ,
        _unary("GetTaskPushNotificationConfig", lambda a: _tasks().push_config_ref(a["task_id"], a["config_id"])),
    ),
    Tool(
        "push_config_list",
        "List a task's webhook configs",
        "A task's push-notification configs (a2a push-config list; ListTaskPushNotificationConfigs).",
        _TASK_ID,
        ("task_id",),
        {"type": "object", "description": "{configs: [...]} (V1 JSON).", "properties": {"configs": {"type": "array"}}},
        _READ,
        _unary("ListTaskPushNotificationConfigs", lambda a: _tasks().push_list_params(a["task_id"])),
    ),
    Tool(
        "push_config_delete",
        "Delete a task's webhook config",
        "Delete a push-notification config (a2a push-config delete; DeleteTaskPushNotificationConfig).",
        {**_TASK_ID, **_CONFIG_ID},
        ("task_id", "config_id"),
        _OBJECT,
        _DESTROY,
        _unary("DeleteTaskPushNotificationConfig", lambda a: _tasks().push_config_ref(a["task_id"], a["config_id"])),
    ),
    Tool(
        "check",
        "Check an agent",
        "Validate the Agent Card and probe what the agent really speaks over each interface (a2a check --read-only: nothing is created on the agent). card_only validates the card alone. Returns the report (a2a check -o json).",
        {"card_only": {"type": "boolean", "description": "Validate the card alone, no probes."}},
        (),
        {
            "type": "object",
            "description": "The check report.",
            "properties": {"passed": {"type": "boolean"}, "checks": {"type": "array"}},
        },
        _READ,
        _check,
    ),
    Tool(
        "translate",
        "Translate an A2A document",
        "Translate an A2A JSON document (a request or response, a Task, Message, event, Agent Card, push config, webhook body) between V1 (1.0) and V0 (0.3), offline (a2a translate). Returns {document, notes}.",
        {
            "document": {"description": "The JSON document."},
            "to": {
                "type": "string",
                "enum": ["v1", "v0"],
                "description": "The version to write (default: the other one).",
            },
            "method": {"type": "string", "description": "The method a response answers (GetTask, tasks/get…)."},
        },
        ("document",),
        {
            "type": "object",
            "properties": {"document": {}, "notes": {"type": "array", "items": _STR}},
            "required": ["document", "notes"],
        },
        _OFFLINE,
        _translate,
        agent=False,
    ),
    Tool(
        "diff",
        "Compare two A2A documents",
        "Compare two A2A JSON documents, offline: both brought to canonical V1 (any version), generated ids and timestamps numbered, keys unordered, then every difference by JSON path (as a2a diff compares bodies). Returns {equal, differences, notes}.",
        {
            "left": {"description": "The first JSON document."},
            "right": {"description": "The second JSON document."},
            "raw": {"type": "boolean", "description": "Compare as given: no translation to V1."},
            "keep_ids": {"type": "boolean", "description": "Keep generated ids and timestamps."},
            "ignore": {"type": "array", "items": _STR, "description": "Paths to leave out (globs: $.id, *.timestamp)."},
        },
        ("left", "right"),
        {
            "type": "object",
            "properties": {"equal": {"type": "boolean"}, "differences": {"type": "array"}, "notes": {"type": "array"}},
            "required": ["equal", "differences"],
        },
        _OFFLINE,
        _diff,
        agent=False,
    ),
)
BY_NAME = {t.name: t for t in TOOLS}


def _tasks() -> Any:
    """flows.tasks (the task methods' parameters, checked as the CLI checks them), loaded when a tool runs."""
    from a2acli.flows import tasks

    return tasks


def _push_params(args: dict[str, Any]) -> dict[str, Any]:
    from a2acli.flows.tasks import push_config_params

    return push_config_params(args["task_id"], args["url"], config_id=args.get("config_id"))


def run(name: str, arguments: dict[str, Any], face: Face) -> ToolOutcome:
    """Call one tool; A2acliError when it fails (the server makes it a tool error)."""
    tool = BY_NAME.get(name)
    if tool is None:
        raise UsageError(f"no tool named {name!r}", hint="tools: " + ", ".join(BY_NAME))
    return tool.run(arguments, face)
