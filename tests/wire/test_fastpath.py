"""Issue 33: the stream's one pass (wire.fastpath.vouch) answers for an event of any usual shape,
canonical V1, V1 with other enum spellings (the clix dialect) and bare V0, exactly as the long way
does: the canonical form to_core_stream_response gives (same value, keys in the same order), the
check passing, peek_event's facts. Anything else it leaves to the long way."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from a2acli.errors import InvalidResponseError
from a2acli.wire import fastpath
from a2acli.wire.fastpath import core_of, fast_events, vouch
from a2acli.wire.shapes import check_result, peek_event
from a2acli.wire.translate import to_core_stream_response
from a2acli.wire.translate.enums import lowercase_v1_enums


def facts_of(f: Any) -> Any:
    return None if f is None else (f.kind, f.task_id, f.context_id, f.state, f.final, f.ends)


def long_way(event: Any) -> tuple[Any, Any, bool]:
    """(canonical form, facts, whether the check passes) as the long way gives them."""
    core = to_core_stream_response(event)
    try:
        check_result("event", core, "SendStreamingMessage")
        ok = True
    except InvalidResponseError:
        ok = False
    return core, facts_of(peek_event(event)), ok


def agrees(event: Any) -> bool:
    """The one pass, where it answers, gives what the long way gives; True when it answered."""
    before = copy.deepcopy(event)
    facts = vouch(event)
    if facts is None:
        return False
    core, want_facts, ok = long_way(event)
    assert ok, "vouched for an event the check refuses"
    assert facts_of(facts) == want_facts
    got = event if facts.same else core_of(event)
    assert json.dumps(got) == json.dumps(core)  # the same value, keys in the same order
    assert event == before, "the fast path modified the event"
    return True


# -- every shape, with what servers add to it --------------------------------------------------------

META = {"trace_id": "x", "kind": "free", "nested": {"state": "working"}}
PARTS_V1 = [
    {"text": "héllo 🙂 \u202e\n", "metadata": META},
    {"data": {"a": [1, 2.5, None]}, "mediaType": "application/json"},
    {"data": [1, 2]},
    {"url": "https://files.example/r.pdf", "mediaType": "application/pdf", "filename": "r.pdf"},
    {"raw": "aGVsbG8=", "mediaType": "text/plain", "filename": "h.txt"},
    {"text": "x", "x-vendor": {"k": 1}},
]
PARTS_V0 = [
    {"kind": "text", "text": "héllo 🙂 \u202e\n", "metadata": META},
    {"kind": "data", "data": {"a": [1, 2.5, None]}},
    {"kind": "data", "data": {"value": [1, 2]}, "metadata": {"data_part_compat": True}},
    {"kind": "file", "file": {"uri": "https://files.example/r.pdf", "mimeType": "application/pdf", "name": "r.pdf"}},
    {"kind": "file", "file": {"bytes": "aGVsbG8=", "mimeType": "text/plain"}},
    {"kind": "text", "text": "x", "x-vendor": {"k": 1}},
]
MSG_V1 = {
    "messageId": "m-1",
    "role": "ROLE_AGENT",
    "parts": PARTS_V1,
    "contextId": "c-1",
    "taskId": "t-1",
    "extensions": ["https://ext.example/v1"],
    "metadata": META,
    "referenceTaskIds": ["t-0"],
}
MSG_V0 = {
    "kind": "message",
    "messageId": "m-1",
    "role": "agent",
    "parts": PARTS_V0,
    "contextId": "c-1",
    "taskId": "t-1",
    "extensions": ["https://ext.example/v1"],
    "metadata": META,
}
ART_V1 = {
    "artifactId": "a-1",
    "name": "story ✍",
    "description": "d",
    "parts": PARTS_V1,
    "extensions": ["e"],
    "metadata": META,
}
ART_V0 = {**ART_V1, "parts": PARTS_V0}
TASK_V1 = {
    "id": "t-1",
    "contextId": "c-1",
    "status": {"state": "TASK_STATE_WORKING", "message": MSG_V1, "timestamp": "2026-01-01T00:00:00Z"},
    "artifacts": [ART_V1],
    "history": [MSG_V1, {**MSG_V1, "role": "ROLE_USER"}],
    "metadata": META,
}
TASK_V0 = {
    "kind": "task",
    "id": "t-1",
    "contextId": "c-1",
    "status": {"state": "working", "message": MSG_V0, "timestamp": "2026-01-01T00:00:00Z"},
    "artifacts": [ART_V0],
    "history": [MSG_V0, {**MSG_V0, "role": "user"}],
    "metadata": META,
}


def v1_events() -> dict[str, Any]:
    su = {
        "taskId": "t-1",
        "contextId": "c-1",
        "status": {"state": "TASK_STATE_WORKING", "timestamp": "2026-01-01T00:00:00Z"},
    }
    au = {"taskId": "t-1", "contextId": "c-1", "artifact": ART_V1, "append": True, "lastChunk": False}
    return {
        "status update": {"statusUpdate": su},
        "status update with a message": {"statusUpdate": {**su, "status": {**su["status"], "message": MSG_V1}}},
        "status update, unknown fields": {
            "statusUpdate": {**su, "x-vendor": [1], "metadata": META, "status": {**su["status"], "x": {}}}
        },
        "status update, every state": {"statusUpdate": {**su, "status": {"state": "TASK_STATE_INPUT_REQUIRED"}}},
        "status update, completed": {"statusUpdate": {**su, "status": {"state": "TASK_STATE_COMPLETED"}}},
        "status update, unspecified": {"statusUpdate": {**su, "status": {"state": "TASK_STATE_UNSPECIFIED"}}},
        "status update, no state": {"statusUpdate": {**su, "status": {}}},
        "status update, a state of the vendor's own": {"statusUpdate": {**su, "status": {"state": "pondering"}}},
        "status update, final flag (not V1)": {"statusUpdate": {**su, "final": True}},
        "status update, kind inside the wrapper": {"statusUpdate": {"kind": "status-update", **su}},
        "status update, null message": {
            "statusUpdate": {**su, "status": {"state": "TASK_STATE_WORKING", "message": None}}
        },
        "artifact update": {"artifactUpdate": au},
        "artifact update, last chunk, final": {
            "artifactUpdate": {**au, "append": False, "lastChunk": True, "final": True}
        },
        "artifact update, no parts": {"artifactUpdate": {**au, "artifact": {"artifactId": "a"}}},
        "task": {"task": TASK_V1},
        "task, bare minimum": {"task": {"id": "t-1", "status": {}}},
        "message": {"message": MSG_V1},
        "message, no parts": {"message": {"messageId": "m", "role": "ROLE_USER"}},
    }


V1 = v1_events()
CLIX = {name: lowercase_v1_enums(event) for name, event in V1.items()}  # the vendor's lowercase enums
V0 = {
    "status update": {
        "kind": "status-update",
        "taskId": "t-1",
        "contextId": "c-1",
        "status": {"state": "working", "timestamp": "2026-01-01T00:00:00Z"},
        "final": False,
    },
    "status update with a message": {
        "kind": "status-update",
        "taskId": "t-1",
        "contextId": "c-1",
        "status": {"state": "input-required", "message": MSG_V0},
        "final": True,
    },
    "status update, final and completed": {
        "kind": "status-update",
        "taskId": "t-1",
        "contextId": "c-1",
        "status": {"state": "completed"},
        "final": True,
    },
    "status update, final on working": {
        "kind": "status-update",
        "taskId": "t-1",
        "status": {"state": "working"},
        "final": True,
    },
    "status update, unknown state": {
        "kind": "status-update",
        "taskId": "t-1",
        "status": {"state": "unknown"},
        "final": False,
    },
    "status update, unknown fields": {
        "kind": "status-update",
        "taskId": "t-1",
        "status": {"state": "working", "x": 1},
        "metadata": META,
        "x-vendor": "v",
    },
    "artifact update": {
        "kind": "artifact-update",
        "taskId": "t-1",
        "contextId": "c-1",
        "artifact": ART_V0,
        "append": True,
        "lastChunk": False,
    },
    "artifact update, last chunk": {
        "kind": "artifact-update",
        "taskId": "t-1",
        "artifact": {"artifactId": "a", "parts": [{"kind": "text", "text": "é"}]},
        "lastChunk": True,
    },
    "task": TASK_V0,
    "message": MSG_V0,
}
SHAPES = (
    {f"V1 {k}": v for k, v in V1.items()}
    | {f"clix {k}": v for k, v in CLIX.items()}
    | {f"V0 {k}": v for k, v in V0.items()}
)


@pytest.mark.parametrize("event", SHAPES.values(), ids=SHAPES)
def test_every_usual_shape_takes_the_one_pass_and_gets_what_the_long_way_gives(event):
    assert agrees(event)


def test_only_canonical_v1_is_its_own_canonical_form():
    assert all(vouch(e).same for k, e in V1.items() if not any(w in k for w in ("final", "kind")))
    assert not any(vouch(e).same for e in V0.values())
    assert not any(vouch(e).same for k, e in CLIX.items() if json.dumps(e) != json.dumps(V1[k]))


def test_the_spellings_table_is_the_translators():
    from a2acli.wire.translate.enums import to_core_role, to_core_task_state

    assert all(to_core_task_state(s) == c for s, c in fastpath._STATE_OF.items())
    assert all(to_core_role(s) == c for s, c in fastpath._ROLE_OF.items())
    assert {
        "working",
        "input-required",
        "canceled",
        "cancelled",
        "CANCELLED",
        "unknown",
        "TASK_STATE_AUTH_REQUIRED",
    } <= set(fastpath._STATE_OF)


# -- what the one pass leaves to the long way ---------------------------------------------------------

MALFORMED = {
    "status not an object": {"statusUpdate": {"taskId": "t", "status": "working"}},
    "no status": {"statusUpdate": {"taskId": "t"}},
    "V0 status update, no status": {"kind": "status-update", "taskId": "t", "final": False},
    "message not an object": {"statusUpdate": {"taskId": "t", "status": {"state": "working", "message": "hi"}}},
    "parts not an array": {"message": {"messageId": "m", "parts": {"text": "x"}}},
    "parts null": {"message": {"messageId": "m", "parts": None}},
    "part not an object": {"kind": "message", "messageId": "m", "parts": ["hi"]},
    "artifact not an object": {"artifactUpdate": {"taskId": "t", "artifact": []}},
    "no artifact": {"kind": "artifact-update", "taskId": "t"},
    "task without an id": {"kind": "task", "status": {"state": "working"}},
    "task with an empty id": {"task": {"id": "", "status": {}}},
    "task without a status": {"task": {"id": "t"}},
    "task, artifacts not an array": {"task": {"id": "t", "status": {}, "artifacts": {}}},
    "task, history item not an object": {"task": {"id": "t", "status": {}, "history": [None]}},
    "unknown kind": {"kind": "status", "taskId": "t"},
    "kind not a string": {"kind": [], "taskId": "t"},
    "not an object": ["statusUpdate"],
    "wrapper around a non-object": {"statusUpdate": None},
}
RARE = {  # valid, but spelt in a way the translators rewrite beyond enums and `kind`: the long way
    "snake_case keys": {"statusUpdate": {"task_id": "t-1", "status": {"state": "TASK_STATE_WORKING"}}},
    "snake_case in a status": {"statusUpdate": {"taskId": "t-1", "status": {"state": "working", "time_stamp": "x"}}},
    "wrapper with another key": {"statusUpdate": {"taskId": "t-1", "status": {}}, "x": 1},
    "bare V1 event without kind": {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}},
    "0.3 proto-JSON wrapper": {"msg": {"messageId": "m", "role": "ROLE_AGENT", "content": [{"text": "hi"}]}},
    "state not a string (the check passes it; peek_event reads no state from it)": {
        "statusUpdate": {"taskId": "t", "status": {"state": []}}
    },
    "non-string key": {"statusUpdate": {1: "x", "taskId": "t", "status": {}}},
}


@pytest.mark.parametrize("event", MALFORMED.values(), ids=MALFORMED)
def test_a_malformed_event_takes_the_long_way_which_names_it(event):
    assert vouch(event) is None
    assert not long_way(event)[2]


@pytest.mark.parametrize("event", RARE.values(), ids=RARE)
def test_rare_spellings_take_the_long_way(event):
    assert vouch(event) is None


# -- property: events built from well- and ill-formed pieces of every shape --------------------------

FUZZ = settings(
    max_examples=600, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck), database=None
)
junk = st.none() | st.booleans() | st.integers() | st.text(max_size=3) | st.just([]) | st.just({})
states = (
    st.sampled_from(
        [
            "TASK_STATE_WORKING",
            "TASK_STATE_COMPLETED",
            "TASK_STATE_UNSPECIFIED",
            "working",
            "input-required",
            "CANCELLED",
            "cancelled",
            "TASK_STATE_CANCELLED",
            "completed",
            "",
            "unknown",
            " Working ",
            "pondering",
        ]
    )
    | junk
)
roles = st.sampled_from(["ROLE_USER", "ROLE_AGENT", "ROLE_UNSPECIFIED", "user", "agent", "USER", "", "robot"]) | junk
extra_keys = st.sampled_from(
    ["kind", "final", "task_id", "media_type", "x_custom", "metadata", "extensions", "contextId", "x-vendor", "status"]
)


def obj(required: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    optional = st.fixed_dictionaries({}, optional=required)
    stray = st.one_of(
        st.just({}),
        st.just({}),
        st.just({}),
        st.dictionaries(extra_keys, junk | st.just("task") | st.just({"state": "working"}), max_size=2),
    )
    return st.tuples(optional, stray).map(lambda t: {**t[0], **t[1]})


def maybe(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(strategy, strategy, strategy, strategy, junk)  # mostly well formed


parts = maybe(
    st.lists(
        maybe(
            st.one_of(
                obj({"text": st.text(max_size=3), "kind": st.just("text")}),
                obj(
                    {
                        "data": junk,
                        "kind": st.just("data"),
                        "metadata": st.sampled_from(
                            [{}, {"data_part_compat": True}, {"data_part_compat": False}, None]
                        ),
                    }
                ),
                obj({"url": st.just("u"), "mediaType": st.just("m")}),
                obj(
                    {
                        "kind": st.just("file"),
                        "file": maybe(
                            obj(
                                {
                                    "uri": st.just("u"),
                                    "bytes": st.just("Zg=="),
                                    "mimeType": st.just("m"),
                                    "name": st.just("n"),
                                }
                            )
                        ),
                    }
                ),
            )
        ),
        max_size=3,
    )
)
message = obj({"kind": st.just("message"), "messageId": st.just("m"), "role": roles, "parts": parts})
status = obj({"state": states, "timestamp": st.just("2026-01-01T00:00:00Z"), "message": maybe(message) | st.none()})
artifact = obj({"artifactId": st.just("a"), "parts": parts})
status_update = obj(
    {"taskId": st.just("t"), "contextId": st.just("c"), "status": maybe(status) | st.none(), "final": st.booleans()}
)
artifact_update = obj(
    {
        "taskId": st.just("t"),
        "artifact": maybe(artifact) | st.none(),
        "append": st.booleans(),
        "lastChunk": st.booleans(),
    }
)
task = obj(
    {
        "id": st.sampled_from(["t", ""]) | junk,
        "status": maybe(status),
        "artifacts": maybe(st.lists(maybe(artifact), max_size=2)),
        "history": maybe(st.lists(maybe(message), max_size=2)),
    }
)
inner = {"statusUpdate": status_update, "artifactUpdate": artifact_update, "task": task, "message": message}
KINDS = {"statusUpdate": "status-update", "artifactUpdate": "artifact-update", "task": "task", "message": "message"}
events = st.one_of(
    *(inner[k].map(lambda v, k=k: {k: v}) for k in inner),  # a V1 wrapper
    *(inner[k].map(lambda v, k=k: {**v, "kind": KINDS[k]}) for k in inner),  # a bare V0 event
    *(inner[k].map(lambda v, k=k: {k: v, "x": 1}) for k in ("statusUpdate", "task")),  # a wrapper with a stray key
    *inner.values(),  # a bare event as generated
)


@seed(33)
@FUZZ
@given(event=events)
def test_the_one_pass_gives_what_the_long_way_gives(event):
    agrees(event)


def every_fact(f: Any) -> Any:
    return None if f is None else (*facts_of(f), f.same)


@seed(33)
@FUZZ
@given(event=events)
def test_the_flat_pass_of_a_status_update_gives_what_the_general_pass_gives(event):
    """vouch answers the bulk of a stream (a status update whose status is a state and a timestamp)
    in one flat pass before its general one: same facts, `same` included, on every fuzzed event."""
    assert every_fact(vouch(event)) == every_fact(fastpath._vouch(event))


@pytest.mark.parametrize("event", [
    {"statusUpdate": {"taskId": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING", "timestamp": "x"}}},
    {"statusUpdate": {"taskId": "t", "status": {"state": "working"}}},
    {"kind": "status-update", "taskId": "t", "contextId": "c", "status": {"state": "working"}, "final": False},
])  # fmt: skip
def test_the_usual_status_update_takes_the_flat_pass(event, monkeypatch):
    want = every_fact(fastpath._vouch(event))
    monkeypatch.setattr(fastpath, "_vouch", lambda e: pytest.fail("took the general pass"))
    assert want is not None and every_fact(vouch(event)) == want


def test_the_fuzzed_events_take_the_one_pass_often():
    """The property above is not vacuous: many of its events are vouched for, canonical as they
    stand and built alike (the rest are malformed, or carry snake_case keys, often both)."""
    found = []

    @seed(33)
    @FUZZ
    @given(event=events)
    def collect(event):
        facts = vouch(event)
        found.append("long" if facts is None else "same" if facts.same else "built")

    collect()
    assert found.count("same") >= 10 and found.count("built") >= 40, {k: found.count(k) for k in set(found)}


# -- which streams take it ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "binding,version,fast",
    [
        ("jsonrpc", "1.0", True),
        ("jsonrpc", "0.3", True),
        ("rest", "1.0", True),
        ("grpc", "1.0", True),
        ("rest", "0.3", False),  # 0.3's proto-JSON translators: every event decoded in full
        ("grpc", "0.3", False),
    ],
)
def test_the_one_pass_is_taken_where_the_translator_is_the_one_it_stands_for(binding, version, fast):
    from a2acli.wire import Wire
    from a2acli.wire.bindings import get_binding, parse_transport
    from a2acli.wire.dialects import get_dialect
    from a2acli.wire.methods import METHODS

    b = get_binding(parse_transport(binding))
    wire = Wire.V1 if version == "1.0" else Wire.V0
    enc = b.encode(
        METHODS["SendStreamingMessage"],
        {"message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "hi"}]}},
        wire=wire,
        dialect=get_dialect("spec"),
        tenant="",
        request_id=1,
        stream=True,
    )

    def decode(result):
        core = b.to_core(enc, result)
        check_result("event", core, enc.method)
        return core

    assert (fast_events(decode) is vouch) is fast


def test_a_decoder_that_translates_otherwise_gets_no_fast_path():
    assert fast_events(lambda r: r) is None  # returns a V0 event untranslated
    assert fast_events(lambda r: 1 / 0) is None
