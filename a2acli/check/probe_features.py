"""The steps of an interface's probe that check what the card claims: a message round trip,
streaming, push-notification configs and a delivery to a local receiver (--webhook), the extended
card, and ListTasks paging. Each records its check (ProbeSteps); probe.py runs them in order."""

from __future__ import annotations

import secrets
import time
import uuid
from typing import Any

from a2acli.check.checks import FAIL, PASS, SKIP, WARN, ProbeSteps, _call, _code_name
from a2acli.errors import A2acliError, AuthError, TimeoutExpired, UnreachableError
from a2acli.wire import Wire
from a2acli.wire.methods import METHODS

WEBHOOK_WAIT = 10.0  # seconds `--webhook` waits for a push delivery when --timeout is not given


class FeatureSteps(ProbeSteps):
    """The capability steps of one interface's probe (what the card claims, checked)."""

    def _send(self, call: Any) -> str | None:
        spec = METHODS["SendMessage"]
        params = {
            "message": {
                "messageId": str(uuid.uuid4()),
                "role": "ROLE_USER",
                "parts": [{"text": "hello from a2a check"}],
            }
        }
        try:
            reply = call.unary(spec, params)
        except (UnreachableError, TimeoutExpired):
            raise
        except A2acliError as e:
            self.saw(e)
            self.rule("message-send", FAIL, e.message, call.ids.take())
            return None
        self.saw()
        ids = call.ids.take()
        self.inspect(reply.result, "SendMessage")
        core = reply.core if isinstance(reply.core, dict) else {}
        task = core.get("task") if isinstance(core.get("task"), dict) else None
        self.task = task
        what = (
            f"a task, state {(task.get('status') or {}).get('state')}"
            if task
            else "a message"
            if "message" in core
            else "an answer"
        )
        odd = self._shape(reply.result)
        if odd:
            self.rule("message-send", FAIL, f"{what}, but: " + "; ".join(odd), ids)
        else:
            self.rule("message-send", PASS, f"{what}, shaped as {self.itf.wire.version}", ids)
        return str(task.get("id")) if task and task.get("id") else None

    def _streaming(self, call: Any, kinds: list[str]) -> bool:
        """The streaming round trip; `kinds` gets each event's kind, in order. True when the
        stream ended with a final event."""
        from a2acli.wire.shapes import ends_stream, peek_event

        how = "gRPC server streaming" if self.itf.info.carrier_grpc else "SSE"
        title = f"streaming ({how}) as the card claims"
        if not self.caps.get("streaming"):
            self.rule("streaming", SKIP, "the card does not claim streaming", title=title)
            return False
        if self.read_only:
            self.rule("streaming", SKIP, "--read-only", title=title)
            return False
        params = {
            "message": {
                "messageId": str(uuid.uuid4()),
                "role": "ROLE_USER",
                "parts": [{"text": "hello from a2a check (stream)"}],
            }
        }
        events, last, odd = 0, None, []
        try:
            for reply in call.stream(METHODS["SendStreamingMessage"], params):
                self.saw()
                events += 1
                last = reply
                odd += [t for t in self._shape(reply.result) if t not in odd]
                self.inspect(reply.result, "SendStreamingMessage")
                facts = peek_event(reply.result)
                kinds.append(facts.kind if facts is not None else "?")
        except (UnreachableError, TimeoutExpired):
            raise
        except A2acliError as e:
            self.saw(e)
            self.rule("streaming", FAIL, f"after {events} event(s): {e.message}", call.ids.take(), title=title)
            return False
        ended = last is not None and ends_stream(last.result, last.core)
        if odd:
            self.rule("streaming", FAIL, f"{events} event(s), but: " + "; ".join(odd), call.ids.take(), title=title)
            return ended
        if not ended:
            self.rule(
                "streaming",
                FAIL,
                f"{events} event(s), and the stream closed without a final event",
                call.ids.take(),
                title=title,
            )
        else:
            self.rule("streaming", PASS, f"{events} event(s), ending in a final one", call.ids.take(), title=title)
        return ended

    def _push(self, call: Any, task_id: str | None) -> None:
        if not self.caps.get("pushNotifications"):
            self.rule("push-config", SKIP, "the card does not claim push notifications")
            return
        if self.read_only or not task_id:
            self.rule(
                "push-config",
                SKIP,
                "--read-only" if self.read_only else "no task to attach a config to (the round trip gave none)",
            )
            return
        config_id = f"a2acli-check-{uuid.uuid4().hex[:8]}"
        steps = [
            (
                "CreateTaskPushNotificationConfig",
                {"taskId": task_id, "id": config_id, "url": "http://127.0.0.1:9/a2a-check"},
            ),
            ("GetTaskPushNotificationConfig", {"taskId": task_id, "id": config_id}),
            ("ListTaskPushNotificationConfigs", {"taskId": task_id}),
            ("DeleteTaskPushNotificationConfig", {"taskId": task_id, "id": config_id}),
        ]
        done: list[str] = []
        for method, params in steps:
            try:
                call.unary(METHODS[method], params)
                self.saw()
            except (UnreachableError, TimeoutExpired):
                raise
            except A2acliError as e:
                self.saw(e)
                self.rule(
                    "push-config",
                    FAIL,
                    f"{method} refused: {e.message}" + (f" (after {', '.join(done)})" if done else ""),
                    call.ids.take(),
                )
                return
            done.append(method[: method.index("Task")].lower() if "Task" in method else method)
        self.rule("push-config", PASS, "create, get, list and delete accepted", call.ids.take())

    def _push_delivery(self, call: Any) -> None:
        """--webhook: a new task sent with a push config (a fresh token, the receiver's URL); passes
        when a delivery about that task carrying that token reaches the receiver in time."""
        if not self.caps.get("pushNotifications"):
            self.rule("push-delivery", SKIP, "the card does not claim push notifications")
            return
        if self.read_only or self.receiver is None:
            self.rule(
                "push-delivery",
                SKIP,
                "--read-only" if self.read_only else "needs --webhook (a receiver on 127.0.0.1; creates a task)",
            )
            return
        token = secrets.token_urlsafe(16)
        url = f"{self.receiver.url}/a2a-check/{self.itf.key}"
        message = {
            "messageId": str(uuid.uuid4()),
            "role": "ROLE_USER",
            "parts": [{"text": "hello from a2a check (push)"}],
        }
        params = {"message": message, "configuration": {"taskPushNotificationConfig": {"url": url, "token": token}}}
        try:
            reply = call.unary(METHODS["SendMessage"], params)
        except (UnreachableError, TimeoutExpired):
            raise
        except A2acliError as e:
            self.rule(
                "push-delivery", FAIL, f"SendMessage with a push config to {url} refused: {e.message}", call.ids.take()
            )
            return
        ids = call.ids.take()
        core = reply.core if isinstance(reply.core, dict) else {}
        task = core.get("task") if isinstance(core.get("task"), dict) else None
        if not task or not task.get("id"):
            self.rule("push-delivery", SKIP, "the agent answered the message with no task: nothing to push about", ids)
            return
        wait = self.opts.timeout or WEBHOOK_WAIT
        status, detail = await_delivery(self.receiver, str(task["id"]), token, wait)
        self.rule("push-delivery", status, detail, ids)

    def _extended(self, call: Any) -> None:
        if not self.caps.get("extendedAgentCard"):
            self.rule("extended-card", SKIP, "the card does not claim an extended card")
            return
        method = METHODS["GetExtendedAgentCard"]
        bare = self.opts._replace(
            api_key=None,
            bearer=None,
            basic=None,
            oauth=(),
            headers=tuple(h for h in self.opts.headers if h[0].lower() not in ("authorization", "x-api-key")),
        )
        refused = ""
        with _call(bare) as anon:
            try:
                anon.unary(method, {})
                refused = "answered WITHOUT credentials"
            except (UnreachableError, TimeoutExpired):
                raise
            except AuthError as e:
                refused = ""
                del e
            except A2acliError as e:
                refused = f"without credentials: {_code_name(e)} instead of an auth refusal"
            ids = anon.ids.take()
        creds = self.opts.api_key or self.opts.bearer or self.opts.basic or self.opts.oauth
        if not creds:
            # answered without credentials: the rule broken; refused in another form than an auth
            # error (a -32603): a finding of its own (the refusal's form, SHOULD); refused as asked:
            # the rest needs credentials
            status = FAIL if refused.startswith("answered") else WARN if refused else SKIP
            rest = "" if status == FAIL else "; pass --api-key or --bearer to check it answers with them"
            self.rule("extended-card", status, (refused or "refused without credentials") + rest, ids)
            return
        try:
            reply = call.unary(method, {})
        except (UnreachableError, TimeoutExpired):
            raise
        except A2acliError as e:
            self.saw(e)
            self.rule("extended-card", FAIL, f"with credentials: {e.message}", ids + call.ids.take())
            return
        self.saw()
        name = (reply.core or {}).get("name") if isinstance(reply.core, dict) else None
        if refused:
            self.rule(
                "extended-card", WARN if not refused.startswith("answered") else FAIL, refused, ids + call.ids.take()
            )
        else:
            self.rule(
                "extended-card", PASS, f"refused without, answered with credentials ({name!r})", ids + call.ids.take()
            )

    def _paging(self, call: Any) -> None:
        if self.itf.wire is Wire.V0:
            self.rule("list-tasks", SKIP, "0.3 has no ListTasks")
            return
        method = METHODS["ListTasks"]
        try:
            first = call.unary(method, {"pageSize": 1}).core or {}
            self.saw()
            tasks = first.get("tasks") or []
            if len(tasks) > 1:
                self.rule("list-tasks", FAIL, f"pageSize 1 gave {len(tasks)} tasks", call.ids.take())
                return
            token = first.get("nextPageToken")
            if not token:
                self.rule("list-tasks", PASS, f"pageSize 1 gave {len(tasks)} task(s), no next page", call.ids.take())
                return
            second = call.unary(method, {"pageSize": 1, "pageToken": token}).core or {}
        except (UnreachableError, TimeoutExpired):
            raise
        except A2acliError as e:
            self.saw(e)
            self.rule("list-tasks", FAIL, e.message, call.ids.take())
            return
        again = [t.get("id") for t in second.get("tasks") or []]
        if tasks and tasks[0].get("id") in again:
            self.rule("list-tasks", FAIL, "the page after pageToken repeats the first page's task", call.ids.take())
        else:
            self.rule(
                "list-tasks",
                PASS,
                f"pageSize 1 honoured; pageToken gave the next page ({len(again)} task(s))",
                call.ids.take(),
            )


# -- push delivery (--webhook) -----------------------------------------------------------------------


class _HeaderView:
    """A delivery's headers as webhook.check_credentials reads them (case-insensitive get)."""

    def __init__(self, delivery: Any) -> None:
        self.delivery = delivery

    def get(self, name: str) -> str | None:
        return self.delivery.header(name)


def delivered_task(delivery: Any) -> str | None:
    """The task id a delivery is about (any body shape the receiver recognises), or None."""
    shape = delivery.shape
    core = shape.core if shape is not None else None
    if not isinstance(core, dict):
        return None
    task = core.get("task")
    if isinstance(task, dict):
        return str(task.get("id")) if task.get("id") else None
    for member in ("statusUpdate", "artifactUpdate", "message"):
        event = core.get(member)
        if isinstance(event, dict) and event.get("taskId"):
            return str(event["taskId"])
    return None


def await_delivery(receiver: Any, task_id: str, token: str, timeout: float) -> tuple[str, str]:
    """Wait up to `timeout` seconds for a delivery about `task_id` that carries `token` (as
    `a2a webhook listen --token` checks it). Deliveries about other tasks (an earlier
    interface's) are passed over. Returns the check's status and detail."""
    from a2acli.webhook import TOKEN_HEADERS, check_credentials

    start = time.monotonic()
    deadline = start + timeout
    refused: list[str] = []
    other = 0
    while True:
        left = deadline - time.monotonic()
        delivery = receiver.next(left) if left > 0 else None
        if delivery is None:
            break
        if delivered_task(delivery) != task_id:
            other += 1
            continue
        problem = delivery.problem or check_credentials(_HeaderView(delivery), token=token, auth=None)
        problem = problem and problem.replace("--token", "the config's token")
        if problem:
            refused.append(problem)
            continue
        header = next(h for h in TOKEN_HEADERS if delivery.header(h) is not None)
        shape = delivery.shape.name if delivery.shape is not None else "a body"
        return PASS, f"{shape} about task {task_id}, token in {header} (waited {time.monotonic() - start:.1f}s)"
    detail = f"no delivery about task {task_id} with its token reached {receiver.url} within {timeout:g}s"
    if refused:
        detail += f"; {len(refused)} about it without the right token (first: {refused[0]})"
    if other:
        detail += f"; {other} other request(s) (other tasks, or not A2A events)"
    if not refused and not other:
        detail += "; the receiver got no request at all (can the agent reach 127.0.0.1 on this machine?)"
    return FAIL, detail
