"""`a2a replay DUMP --to URL`: each recorded request sent again, once, to another agent (or the
next build of the same one), its new exchange dumped beside the old, and each answer compared
with the recorded one as `a2a diff` compares dumps.

- The requests are the recorded ones read back as canonical V1 params (a2acli.recording.playback), encoded
  by the pipeline for the version and binding chosen: the dump's own, or --a2a-version /
  --transport (the translation `a2a translate` does: the same wire translators).
- Ids carry over: the recorded answers are paired with the new ones, so the task a replayed send
  created is the one a later replayed `tasks get` asks for. Each message gets a new messageId.
- A message (SendMessage, SendStreamingMessage) is sent at most once in a run: no retry, no
  following of its task, and a message the dump holds twice (a retried send) is sent once.
- Dumps hold no credentials (they are redacted): the requests carry the credentials of replay's
  own options, and the recorded requests that carried one are named.

recording/ sits below the pipeline (the pipeline loads `recording.record` for `--dump`): replay
imports nothing of it. Its caller hands it the session to send through (`open_call`, the
pipeline's `Call`)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from a2acli.errors import A2acliError, TimeoutExpired, UnreachableError, UsageError
from a2acli.events import Note, Sink, Warn
from a2acli.recording.diff import Dump, Report, load_dump
from a2acli.recording.diff import compare as compare_dumps
from a2acli.recording.playback import (
    NON_IDEMPOTENT,
    Recorded,
    answer_results,
    id_pairs,
    read_calls,
    redacted_credentials,
    redacted_paths,
    rewrite,
)
from a2acli.wire.bindings import BindingInfo, by_flag


@dataclass
class Sent:
    call: Recorded
    outcome: str  # "answered", "error: …", "not sent: …"


@dataclass
class Run:
    old: Dump
    new_dir: str
    url: str
    version: str
    binding: BindingInfo
    sent: list[Sent] = field(default_factory=list)
    credentials: list[str] = field(default_factory=list)  # "002-SendMessage (X-API-Key)"
    notes: list[str] = field(default_factory=list)
    new: Dump | None = None

    @property
    def failed(self) -> list[Sent]:
        """Requests that could not be sent at all (no form under the version asked for, no answer)."""
        return [s for s in self.sent if s.outcome.startswith("not sent")]

    def to_json(self) -> dict[str, Any]:
        return {
            "dump": self.old.path,
            "saved": self.new_dir,
            "to": self.url,
            "version": self.version,
            "transport": self.binding.flag,
            "requests": [
                {"recorded": s.call.ex.stem, "method": s.call.method, "outcome": s.outcome} for s in self.sent
            ],
            "redactedCredentials": self.credentials,
            "notes": self.notes,
        }


def new_directory(old: str, save: str | None) -> Path:
    """Where the replay's exchanges go: --save (new or empty), else DUMP.replay, DUMP.replay-2, …"""
    if save:
        path = Path(save)
        if path.exists() and any(path.iterdir()):
            raise UsageError(f"{save} already holds files", hint="--save wants a new or empty directory")
        return path
    base = Path(old.rstrip("/"))
    for n in range(1, 1000):
        path = base.with_name(base.name + (".replay" if n == 1 else f".replay-{n}"))
        if not path.exists():
            return path
    raise UsageError(f"too many replays beside {old}", hint="give --save DIR")


def _explicit(opts: Any, name: str) -> bool:
    return (opts.sources or {}).get(name, "default") != "default"


OpenCall = Callable[[Any, Sink], AbstractContextManager[Any]]  # (options, sink) -> the session (pipeline.session.Call)


def replay(path: str, opts: Any, sink: Sink, open_call: OpenCall, *, save: str | None = None) -> Run:
    """Send the recorded requests of the dump at `path` to `opts.url`, each once, in order,
    through the session `open_call(options, sink)` opens (the pipeline's `Call`); what the run
    says on the way goes to `sink` as events (a2acli.events)."""
    from a2acli.wire import parse_wire

    old = load_dump(path)
    found = read_calls([old])
    if not found.calls:
        raise UsageError(
            f"{path} holds no recorded call to replay",
            hint="record one with --dump DIR on a method command (send, tasks get, …)",
        )
    first = found.calls[0]
    version = opts.wire.version if _explicit(opts, "a2a-version") else first.version
    binding = by_flag(opts.transports[0]) if opts.transports else first.binding
    target = new_directory(path, save)
    run = Run(old, str(target), opts.url, version, binding, notes=list(found.notes))
    mixed = {(c.version, c.binding) for c in found.calls}
    if len(mixed) > 1 and not (_explicit(opts, "a2a-version") and opts.transports):
        run.notes.append(
            f"the dump mixes versions or bindings ({', '.join(sorted(f'{v} {b.flag}' for v, b in mixed))}); every request is replayed under {version} over {binding.flag}"
        )
    _credentials(old, run, opts, sink)
    run_opts = opts._replace(
        wire=parse_wire(version),
        version_auto=False,
        transports=(binding.flag,),
        dump=str(target),
        dump_append=False,
        offline=False,
    )
    with open_call(run_opts, sink) as call:
        call.target.endpoint()  # the card of --to, once: unreachable here ends the run (exit 3)
        ids: dict[str, str] = {}
        messages: set[str] = set()
        for rec in found.calls:
            run.sent.append(_one(call, rec, ids, messages))
    run.new = load_dump(target)
    return run


def _credentials(old: Dump, run: Run, opts: Any, sink: Sink) -> None:
    for ex in old.exchanges:
        where = redacted_credentials(ex)
        if where:
            run.credentials.append(f"{ex.stem} ({', '.join(where)})")
    if run.credentials:
        given = any((opts.api_key, opts.bearer, opts.basic)) or any(
            k.lower() in ("authorization", "x-api-key") for k, _ in opts.headers
        )
        sink.emit(Note(f"recorded with a credential (redacted in the dump): {', '.join(run.credentials)}"))
        if not given:
            sink.emit(
                Warn(
                    "the dump's credentials are not in it: these requests go without one; pass --api-key, --bearer or -H as to any command"
                    " (a request whose body held one is not sent)"
                )
            )


def _one(call: Any, rec: Recorded, ids: dict[str, str], messages: set[str]) -> Sent:
    """Send one recorded request (at most once), and pair its answer's ids with the recorded ones."""
    from a2acli.wire.methods import METHODS

    spec = METHODS[rec.method]
    hidden = redacted_paths(rec.params)
    if hidden:  # a credential in the body the dump does not hold: sent as recorded or not at all
        return Sent(
            rec,
            f"not sent: {', '.join(hidden)} redacted in the dump (a credential it does not hold, which no option"
            " gives back); send this one by hand",
        )
    params = rewrite(rec.params, ids) if isinstance(rec.params, dict) else {}
    message = params.get("message") if isinstance(params.get("message"), dict) else None
    if message is not None:
        recorded_id = str(rec.params.get("message", {}).get("messageId") or "")
        if rec.method in NON_IDEMPOTENT and recorded_id and recorded_id in messages:
            return Sent(
                rec, "not sent again: the dump holds this message twice (a retried send); a message is sent once"
            )
        messages.add(recorded_id)
        fresh = str(uuid.uuid4())
        if recorded_id:
            ids[recorded_id] = fresh
        params = {**params, "message": {**message, "messageId": fresh}}
    try:
        enc = call.encode(spec, params, stream=spec.streaming)
    except UsageError as e:
        return Sent(rec, f"not sent: {e.message}")
    try:
        replies = list(call.invoke(enc))  # no retries: a message goes once
    except (UnreachableError, TimeoutExpired) as e:
        return Sent(rec, f"not sent: no answer ({e.message})")
    except A2acliError as e:
        return Sent(rec, f"error: {e.message}")
    recorded = answer_results(rec.ex, rec.binding)
    for old, reply in zip(recorded, replies, strict=False):
        id_pairs(old, reply.core, out=ids)
    return Sent(rec, "answered" + (f" ({len(replies)} event(s))" if enc.stream else ""))


def compare(
    run: Run, *, ignore: tuple[str, ...] | list[str] = (), keep_ids: bool = False, card: bool = False
) -> Report:
    """The recorded exchanges against the replayed ones, as `a2a diff` compares two dumps (one
    notion of "the same": diffing.compare). A dump that several runs appended to (`--dump-append`)
    holds a card fetch per run, and a replay fetches the card once: the recorded card fetches left
    unpaired are no difference."""
    assert run.new is not None
    report = compare_dumps(run.old, run.new, keep_ids=keep_ids, ignore=list(ignore), card=card)
    report.exchanges = [xd for xd in report.exchanges if not (xd.method == "card" and xd.right is None)]
    return report
