"""pipeline.policies.capabilities: what the Agent Card claims before a capability-gated call
(A2ACLI_VER_003): only `true` claims; the field named as the card spells it; --force sends anyway,
said; and the checks of a push config the agent answered."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from pipeline_kit import AGENT, CARD_URL, RPC

from a2acli.errors import NotClaimedError
from a2acli.pipeline.policies import (
    ABSENT,
    CAPABILITY,
    check_push_config_answer,
    gate,
    note_push_url,
    require_capability,
    unclaimed,
)
from a2acli.wire import Wire


def v1_card(**caps: Any) -> dict[str, Any]:
    return {
        "name": "t",
        "description": "d",
        "version": "1",
        "supportedInterfaces": [{"url": RPC, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
        "capabilities": caps,
    }


def v0_card(**fields: Any) -> dict[str, Any]:
    return {
        "name": "t",
        "description": "d",
        "version": "1",
        "url": RPC,
        "protocolVersion": "0.3.0",
        "capabilities": {},
        "skills": [],
        **fields,
    }


def call_with(mock, make_call, doc: Any, **opts: Any):
    mock.get(CARD_URL).mock(return_value=httpx.Response(200, json=doc))
    c = make_call(url=AGENT, **opts)
    c.resolve()
    return c


@pytest.mark.parametrize(
    ("method", "capability"),
    [
        ("SendStreamingMessage", "streaming"),
        ("SubscribeToTask", "streaming"),
        ("CreateTaskPushNotificationConfig", "pushNotifications"),
        ("ListTaskPushNotificationConfigs", "pushNotifications"),
        ("GetExtendedAgentCard", "extendedAgentCard"),
    ],
)
@pytest.mark.parametrize(
    ("value", "claimed"), [(True, True), (False, False), (ABSENT, False), ("true", False), (1, False)]
)
def test_only_a_true_claim_is_a_claim(mock, make_call, method, capability, value, claimed):
    caps = {} if value is ABSENT else {capability: value}
    claim = unclaimed(call_with(mock, make_call, v1_card(**caps)), method)
    if claimed:
        assert claim is None
    else:
        assert claim is not None and (claim.capability, claim.field, claim.value) == (
            capability,
            f"capabilities.{capability}",
            value,
        )


@pytest.mark.parametrize("method", ["SendMessage", "GetTask", "CancelTask", "ListTasks"])
def test_a_method_that_needs_no_capability_is_never_gated(mock, make_call, method):
    assert method not in CAPABILITY
    assert unclaimed(call_with(mock, make_call, v1_card()), method) is None


def test_without_a_card_nothing_is_gated(make_call):
    assert unclaimed(make_call(endpoint=RPC), "SubscribeToTask") is None


def test_under_offline_the_request_is_shown_whatever_the_card_claims(tmp_path, make_call):
    import json

    path = tmp_path / "card.json"
    path.write_text(json.dumps(v1_card(streaming=False)))
    c = make_call(url=str(path), offline=True)
    c.resolve()
    assert c.target.card is not None and unclaimed(c, "SubscribeToTask") is None


@pytest.mark.parametrize(
    ("value", "says"),
    [
        (False, "the card says capabilities.streaming is false"),
        (ABSENT, "the card does not set capabilities.streaming (so does not claim it)"),
        (None, "the card says capabilities.streaming is null"),
    ],
)
def test_the_claim_says_what_the_card_says(mock, make_call, value, says):
    caps = {} if value is ABSENT else {"streaming": value}
    claim = unclaimed(call_with(mock, make_call, v1_card(**caps)), "SubscribeToTask")
    assert claim is not None and claim.says == says


@pytest.mark.parametrize(
    ("doc", "field"),
    [
        (v0_card(supportsAuthenticatedExtendedCard=False), "supportsAuthenticatedExtendedCard"),
        (v0_card(), "supportsAuthenticatedExtendedCard"),  # a 0.3 card: its own field
        (v1_card(), "capabilities.extendedAgentCard"),
        (
            v0_card(capabilities={"extendedAgentCard": False}, supportsAuthenticatedExtendedCard=True),
            "capabilities.extendedAgentCard",
        ),  # both: the 1.0 field decides
    ],
)
def test_the_extended_card_claim_is_named_by_the_cards_own_field(mock, make_call, doc, field):
    claim = unclaimed(
        call_with(mock, make_call, doc, wire=Wire.V0 if "url" in doc else Wire.V1), "GetExtendedAgentCard"
    )
    assert claim is not None and claim.field == field


def test_a_0_3_card_claiming_the_extended_card_in_its_field_is_claimed(mock, make_call):
    c = call_with(mock, make_call, v0_card(supportsAuthenticatedExtendedCard=True), wire=Wire.V0)
    assert unclaimed(c, "GetExtendedAgentCard") is None


def test_force_sends_anyway_and_says_so(mock, make_call, recorder):
    c = call_with(mock, make_call, v1_card(streaming=False))
    assert gate(c, "SubscribeToTask", force=False) is not None and not recorder.said
    assert gate(c, "SubscribeToTask", force=True) is None
    assert recorder.notes == ["the card says capabilities.streaming is false; --force: calling SubscribeToTask anyway"]


@pytest.mark.parametrize(
    ("method", "offers", "code"),
    [
        ("ListTaskPushNotificationConfigs", "push notifications", "PushNotificationNotSupportedError"),
        ("GetExtendedAgentCard", "an extended Agent Card", "ExtendedAgentCardNotConfiguredError"),
        ("SubscribeToTask", "streaming", None),  # no error of its own: the class's code
    ],
)
def test_require_capability_refuses_before_the_call_naming_the_claim(mock, make_call, method, offers, code):
    c = call_with(mock, make_call, v1_card())
    with pytest.raises(NotClaimedError) as refused:
        require_capability(c, method, force=False)
    assert refused.value.message.startswith(f"the agent does not offer {offers}: the card does not set")
    assert refused.value.hint.endswith("; --force sends anyway")
    if code:
        assert refused.value.code == code
    require_capability(c, method, force=True)  # forced: no error


def test_require_capability_passes_a_claimed_capability(mock, make_call, recorder):
    require_capability(
        call_with(mock, make_call, v1_card(pushNotifications=True)), "CreateTaskPushNotificationConfig", force=False
    )
    assert not recorder.said


PUSH = {"message": {}, "configuration": {"taskPushNotificationConfig": {"url": "https://hook.test/h"}}}


@pytest.mark.parametrize(
    ("claimed", "params", "warned"), [(False, PUSH, True), (True, PUSH, False), (False, {"message": {}}, False)]
)
def test_a_push_url_to_an_agent_that_does_not_claim_push_is_warned_of(
    mock, make_call, recorder, claimed, params, warned
):
    note_push_url(call_with(mock, make_call, v1_card(pushNotifications=claimed)), params)
    assert bool(recorder.saying("--push-url: the card says capabilities.pushNotifications is false")) is warned


@pytest.mark.parametrize(("answered", "warned"), [("cfg-2", True), ("cfg-1", False), (None, False)])
def test_a_push_config_answered_under_another_id_is_warned_of(make_call, recorder, answered, warned):
    core = {"taskId": "t-1", "url": "https://hook.test"} | ({"id": answered} if answered else {})
    check_push_config_answer(
        make_call(endpoint=RPC), "GetTaskPushNotificationConfig", {"taskId": "t-1", "id": "cfg-1"}, core
    )
    said = recorder.saying("asked for push config 'cfg-1', the agent answered config 'cfg-2'")
    assert bool(said) is warned
    if warned:
        assert "`a2a push-config list t-1` shows them all" in said[0]


def test_a_deleted_push_config_is_said_with_how_to_check(make_call, recorder):
    check_push_config_answer(
        make_call(endpoint=RPC), "DeleteTaskPushNotificationConfig", {"taskId": "t-1", "id": "cfg-1"}, None
    )
    assert recorder.notes == [
        "the agent reports push config 'cfg-1' of task t-1 deleted; agents report this for an id they do not know as well: `a2a push-config list t-1` shows what is left"
    ]


def test_other_push_config_answers_say_nothing(make_call, recorder):
    check_push_config_answer(
        make_call(endpoint=RPC), "CreateTaskPushNotificationConfig", {"taskId": "t-1", "id": "cfg-1"}, {"id": "other"}
    )
    assert not recorder.said
