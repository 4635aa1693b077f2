"""What `a2a check` reports and how its probes call: a Check (one result), the statuses and the A2A
error codes the probe expects, the pipeline Call a probe uses (quiet, its X-Request-IDs kept), and
ProbeSteps, the recording half of one interface's probe (which steps, in probe.py and
probe_features.py).

A probe expects errors (an unknown task must give TaskNotFoundError): each step catches the
A2acliError it provokes and turns it into a check result. That is this package's own boundary."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

from a2acli.check.rules import MAY, MUST, RULES, SHOULD, cite, keyword
from a2acli.errors import A2acliError, TimeoutExpired, UnreachableError
from a2acli.pipeline.options import CallOptions
from a2acli.transport.exchange import NullTap
from a2acli.wire import Wire
from a2acli.wire.bindings import BindingInfo, by_flag

PASS, FAIL, WARN, SKIP = "pass", "fail", "warn", "skip"

# A2A error codes the probe expects (the same over every binding: wire/translate/errors.py)
TASK_NOT_FOUND, METHOD_NOT_FOUND, INVALID_PARAMS, INVALID_REQUEST, VERSION_NOT_SUPPORTED = (
    -32001,
    -32601,
    -32602,
    -32600,
    -32009,
)


GRADE = {MUST: FAIL, SHOULD: WARN, MAY: PASS}  # a rule broken, by its level: a MAY only informs


def graded(name: str, status: str, wire: Wire | None = None) -> tuple[str, str]:
    """(status, level) of a result of rule `name`: the level decides, never the call site. FAIL
    means the rule broken, graded by its level (MUST fail, SHOULD warn, MAY information); WARN a
    lesser finding (an exact error code where the refusal the rule asks for came), at SHOULD
    level, never above the rule's own; pass and skip carry the rule's level."""
    level = keyword(name, wire)
    if status == WARN and level == MUST:
        level = SHOULD
    if status in (FAIL, WARN):
        return GRADE[level], level
    return status, level


def finding(
    name: str,
    status: str,
    detail: str,
    *,
    group: str = "card",
    check_id: str = "",
    wire: Wire | None = None,
    title: str = "",
    ids: tuple[str, ...] = (),
) -> Check:
    """The one way a Check is made: rule `name` of check.rules gives its title, its citation and
    the level its status follows (graded)."""
    status, level = graded(name, status, wire)
    return Check(
        check_id or name, group, title or RULES[name].what, status, detail, cite(name, wire, level), ids, name, level
    )


def counted(n: int, word: str) -> str:
    """`1 warning`, `2 warnings`, `0 errors`."""
    return f"{n} {word}" + ("" if n == 1 else "s")


class Check(NamedTuple):
    id: str  # stable: card.valid.1.0, jsonrpc-1.0.message-send
    group: str  # "card", or the interface: "JSONRPC 1.0 http://…"
    title: str
    status: str  # pass, fail, warn, skip
    detail: str
    spec: str  # where the rule comes from, with the level of the finding
    request_ids: tuple[str, ...] = ()
    rule: str = ""  # its row of check.rules
    level: str = ""  # MUST, SHOULD, MAY: the level the status follows

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "group": self.group,
            "title": self.title,
            "status": self.status,
            "detail": self.detail,
            "spec": self.spec,
            "rule": self.rule,
            "level": self.level,
            "requestIds": list(self.request_ids),
        }


class _Ids(NullTap):
    """A tap that keeps the X-Request-ID of every answer (the check reports them)."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.last: Any = None  # the last exchange answered (per-binding error checks read it)

    def on_response(self, ex: Any) -> None:
        self.last = ex
        if ex.request_id:
            self.ids.append(ex.request_id)

    def take(self) -> tuple[str, ...]:
        out, self.ids = tuple(self.ids), []
        return out


@contextmanager
def _call(opts: CallOptions) -> Iterator[Any]:
    from a2acli.events import Silent
    from a2acli.pipeline.session import Call

    # the probe's calls say nothing as they go: what it found (and the X-Request-IDs) is in the report;
    # each reads the card from the network (its caching headers are checked), not the card cache
    with Call(opts._replace(no_cache=True), Silent()) as call:
        ids = _Ids()
        call.transport.taps.append(ids)
        call.ids = ids  # type: ignore[attr-defined]  # the probe's own tap, kept on its Call
        yield call


def _code_name(e: A2acliError) -> str:
    return (
        f"{e.a2a_code} {e.message.split(': ', 1)[0].split(' ', 1)[-1]}"
        if e.a2a_code is not None
        else f"{type(e).__name__}: {e.message}"
    )


class Interface(NamedTuple):
    binding: str  # --transport spelling
    card_binding: str  # JSONRPC, HTTP+JSON, GRPC
    wire: Wire
    url: str

    @property
    def label(self) -> str:
        return f"{self.card_binding} {self.wire.version} {self.url}"

    @property
    def info(self) -> BindingInfo:
        """The binding's row of wire.bindings.BINDINGS: what a check asks of the binding."""
        return by_flag(self.binding)

    @property
    def key(self) -> str:
        return f"{self.binding}-{self.wire.version}"


class ProbeSteps:
    """One interface's probe as it records: its options (the interface's binding and version), the
    card's capabilities, the checks so far, and whether anything answered A2A."""

    def __init__(
        self,
        itf: Interface,
        opts: CallOptions,
        core_card: dict[str, Any],
        read_only: bool,
        both: bool = False,
        receiver: Any = None,
    ) -> None:
        self.itf, self.core_card, self.read_only = itf, core_card, read_only
        self.receiver = receiver  # the --webhook receiver (a2acli.webhook.Receiver), None without --webhook
        self.both = both  # the card lists this binding under 1.0 too
        self.opts = opts._replace(
            wire=itf.wire,
            version_auto=False,
            transports=(itf.binding,),
            endpoint=None,
            output="json",
            as_v1=False,
            offline=False,
        )
        self.checks: list[Check] = []
        self.caps = core_card.get("capabilities") or {}
        self.answered = False  # some call got an A2A answer (a result, or an error with an A2A code)
        self.not_a2a = ""  # the first answer that was not A2A (a non-JSON-RPC HTTP 500...)
        self.task: dict[str, Any] | None = None  # the round trip's task (canonical V1), once made
        self.model: list[Any] = []  # data-model problems (check.datamodel.Problem) in every answer
        self.inspected: dict[str, int] = {}  # what the data-model check saw: "SendMessage" -> answers
        self.a2a_errors: list[tuple[int, Any]] = []  # (A2A error code, its exchange): the error-form checks read them

    def saw(self, e: A2acliError | None = None) -> None:
        """Evidence for "answers A2A": a decoded result (`e` None) or an error with an A2A code."""
        if e is None or e.a2a_code is not None:
            self.answered = True
        elif not self.not_a2a:
            self.not_a2a = e.message

    def rule(
        self, name: str, status: str, detail: str, ids: tuple[str, ...] = (), title: str = "", graded_by: str = ""
    ) -> None:
        """A result of rule `name` (check.rules) on this interface: its title, citation and grade
        from the row (checks.finding); `graded_by`: another row holds this check on this binding."""
        self.checks.append(
            finding(
                graded_by or name,
                status,
                detail,
                group=self.itf.label,
                check_id=f"{self.itf.key}.{name}",
                wire=self.itf.wire,
                title=title or RULES[name].what,
                ids=ids,
            )
        )

    def expect_error(
        self,
        call: Any,
        name: str,
        run: Callable[[], Any],
        want: tuple[int, ...],
        also: tuple[int, ...] = (),
    ) -> A2acliError | None:
        """Run a step of rule `name` that must fail with one of `want` (`also`: a refusal in
        another code, a lesser finding)."""
        try:
            run()
        except (UnreachableError, TimeoutExpired):
            raise
        except A2acliError as e:
            self.saw(e)
            ids = call.ids.take() or ((e.request_id,) if e.request_id else ())
            code = e.a2a_code
            if code is not None and -32099 <= code <= -32001:
                self.a2a_errors.append((code, call.ids.last))
            if code is None and self.itf.info.carrier_grpc and e.wire_code == "INVALID_ARGUMENT":
                code = INVALID_PARAMS  # gRPC's validation error (A2A 1.0 §3.3.2), no A2A error of its own
            if code in want:
                self.rule(name, PASS, _code_name(e), ids)
            elif code in also:
                self.rule(name, WARN, f"{_code_name(e)} (expected {', '.join(map(str, want))})", ids)
            else:
                self.rule(name, FAIL, f"{_code_name(e)}, expected {', '.join(map(str, want))}", ids)
            return e
        self.saw()
        self.rule(
            name, FAIL, f"the agent answered with success, expected error {', '.join(map(str, want))}", call.ids.take()
        )
        return None

    def inspect(self, result: Any, what: str) -> None:
        """Hold one answer (or stream event), as the wire spelt it, to the data model."""
        from a2acli.check import datamodel

        form = datamodel.V0 if self.itf.wire is Wire.V0 else datamodel.V1
        if self.itf.wire is Wire.V0 and not self.itf.info.envelope:
            form = datamodel.ANY  # the 0.3 proto-JSON: servers spell its enums both ways
        self.inspected[what] = self.inspected.get(what, 0) + 1
        for p in datamodel.problems(result, self.itf.wire.version, form):
            self.model.append(p._replace(text=f"{what}: {p.path}: {p.text}"))

    def _invoke(self, call: Any, method: str, params: Any) -> Any:
        """A call sent as given (`a2a call`): malformed params reach the agent as written."""
        call.target.endpoint()
        return list(call.invoke(call.encode_call(method, params)))

    def _shape(self, result: Any) -> list[str]:
        """What in an answer is not shaped as the version asks: kind present in 0.3 and absent
        in 1.0, enum spellings (lowercase V1 enums are the clix dialect)."""
        from a2acli.wire.shapes import answer_shape

        if self.itf.info.proto_json:  # ProtoJSON under both versions: no kind to tell them by
            return []
        return answer_shape(result, self.itf.wire.version, lowercase_ok=False)
