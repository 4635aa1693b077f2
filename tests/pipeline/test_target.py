"""pipeline.target: which agent a session talks to (a URL, a card file, a catalog entry), which of
the card's interfaces (binding and URL) it calls, and which protocol version (`--a2a-version auto`
chosen from the card). Through a Call over respx: no terminal, no command."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from pipeline_kit import AGENT, CARD_URL, RPC, rpc_answer

from a2acli.errors import CardInvalidError, UsageError
from a2acli.wire import Wire
from a2acli.wire.endpoints import VersionNotOfferedError
from a2acli.wire.methods import METHODS


def itf(url: str, binding: str = "JSONRPC", version: str = "1.0") -> dict[str, str]:
    return {"url": url, "protocolBinding": binding, "protocolVersion": version}


def card(*interfaces: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "name": "t",
        "description": "d",
        "version": "1",
        "supportedInterfaces": list(interfaces),
        "capabilities": {},
        **extra,
    }


# Both versions, two bindings of 1.0, REST listed first.
MIXED = card(
    itf(f"{AGENT}/rest", "HTTP+JSON"),
    itf(RPC),
    itf(f"{AGENT}/v03", version="0.3"),
)


def serve(mock, doc: Any, **headers: str) -> Any:
    return mock.get(CARD_URL).mock(return_value=httpx.Response(200, json=doc, headers=headers))


# -- which interface, for which version and --transport -----------------------------------------


@pytest.mark.parametrize(
    ("wire", "transports", "url", "binding"),
    [
        (Wire.V1, (), f"{AGENT}/rest", "rest"),  # the card's order
        (Wire.V1, ("jsonrpc",), RPC, "jsonrpc"),
        (Wire.V1, ("rest",), f"{AGENT}/rest", "rest"),
        (Wire.V1, ("jsonrpc", "rest"), RPC, "jsonrpc"),  # the first --transport offered wins
        (Wire.V0, (), f"{AGENT}/v03", "jsonrpc"),
        (Wire.V0, ("jsonrpc",), f"{AGENT}/v03", "jsonrpc"),
    ],
)
def test_the_interface_is_the_cards_for_the_version_and_the_first_transport_it_offers(
    mock, make_call, recorder, wire, transports, url, binding
):
    serve(mock, MIXED)
    c = make_call(url=AGENT, wire=wire, transports=transports)
    ep = c.target.endpoint()
    assert (ep.url, ep.binding) == (url, binding)
    assert c.target.binding.info.flag == binding
    assert not recorder.said  # nothing to say: the card offered what was asked


def test_a_transport_the_card_does_not_offer_falls_back_to_the_cards_first_choice_said(mock, make_call, recorder):
    serve(mock, card(itf(RPC), itf(f"{AGENT}/v03", version="0.3")))
    ep = make_call(url=AGENT, transports=("rest",)).target.endpoint()
    assert (ep.url, ep.binding) == (RPC, "jsonrpc")
    assert recorder.notes == [
        f"the Agent Card offers no HTTP+JSON interface for A2A 1.0: using its own first choice, JSONRPC at {RPC}"
    ]


def test_a_relative_interface_url_is_resolved_against_the_cards(mock, make_call):
    serve(mock, card(itf("/a2a/v1")))
    assert make_call(url=AGENT).target.endpoint().url == f"{AGENT}/a2a/v1"


def test_an_interface_with_a_tenant_keeps_it(mock, make_call):
    serve(mock, card({**itf(RPC), "tenant": "acme"}))
    assert make_call(url=AGENT).target.endpoint().tenant == "acme"


def test_an_interface_of_a_binding_a2a_does_not_speak_is_passed_over(mock, make_call):
    serve(mock, card(itf(f"{AGENT}/carrier-pigeon", "PIGEON"), itf(RPC)))
    assert make_call(url=AGENT).target.endpoint().url == RPC


@pytest.mark.parametrize(
    ("offered", "asked", "hint"),
    [
        ([itf(RPC, version="0.3")], Wire.V1, "pass --a2a-version 0.3"),
        ([itf(RPC, version="1.0")], Wire.V0, "pass --a2a-version 1.0"),
    ],
)
def test_a_version_the_card_does_not_offer_is_refused_naming_the_other(mock, make_call, offered, asked, hint):
    serve(mock, card(*offered))
    with pytest.raises(VersionNotOfferedError) as refused:
        make_call(url=AGENT, wire=asked).target.endpoint()
    assert hint in (refused.value.hint or "")
    assert f"for A2A {asked.version}" in refused.value.message


def test_a_card_with_no_interface_is_an_invalid_card(mock, make_call):
    serve(mock, card())
    with pytest.raises(VersionNotOfferedError) as refused:
        make_call(url=AGENT).target.endpoint()
    assert refused.value.code == "A2ACLI_ERR_CARD_INVALID" and "it offers: none" in refused.value.message
    assert "lists no interface to pick" in refused.value.hint and "--transport" in refused.value.hint  # not "pick one"


def test_the_bindings_a2a_speaks_are_named_from_the_table_but_those_without_their_extra():
    from a2acli.wire import Wire
    from a2acli.wire.endpoints import _not_offered

    said = _not_offered({"supportedInterfaces": []}, Wire.V1, ()).args[0]
    assert "(JSONRPC, HTTP+JSON, GRPC)" in said
    assert "(JSONRPC, HTTP+JSON)" in _not_offered({"supportedInterfaces": []}, Wire.V1, (), ("grpc",)).args[0]


def test_an_interface_url_that_is_no_url_is_the_cards_fault(mock, make_call):
    serve(mock, card(itf("http://[::1")))
    with pytest.raises(CardInvalidError, match="is not a URL"):
        make_call(url=AGENT).target.endpoint()


def test_a_grpc_interface_first_is_skipped_without_the_grpc_extra(mock, make_call, recorder, monkeypatch):
    monkeypatch.setattr("a2acli.transport.grpc.installed", lambda: False)
    serve(mock, card(itf("127.0.0.1:50051", "GRPC"), itf(RPC)))
    ep = make_call(url=AGENT).target.endpoint()
    assert (ep.url, ep.binding) == (RPC, "jsonrpc")
    (note,) = recorder.notes
    assert note.startswith("skipping the Agent Card's gRPC interface 127.0.0.1:50051: the grpc extra is not installed")


def test_a_grpc_interface_asked_for_is_kept_without_the_extra(mock, make_call, recorder, monkeypatch):
    monkeypatch.setattr("a2acli.transport.grpc.installed", lambda: False)
    serve(mock, card(itf("127.0.0.1:50051", "GRPC"), itf(RPC)))
    ep = make_call(url=AGENT, transports=("grpc",)).target.endpoint()
    assert (ep.url, ep.binding) == ("127.0.0.1:50051", "grpc")  # exact: the call names the extra to add
    assert not recorder.notes


# -- the version: --a2a-version auto -------------------------------------------------------------


@pytest.mark.parametrize(
    ("offered", "chosen", "line"),
    [
        (
            [itf(RPC), itf(f"{AGENT}/v03", version="0.3")],
            Wire.V1,
            "--a2a-version auto: using 1.0 (the card offers 1.0 and 0.3)",
        ),
        ([itf(f"{AGENT}/v03", version="0.3")], Wire.V0, "--a2a-version auto: using 0.3 (the card offers 0.3, not 1.0)"),
        (
            [itf(f"{AGENT}/v03", version="0.3.0")],
            Wire.V0,
            "--a2a-version auto: using 0.3 (the card offers 0.3.0, not 1.0)",
        ),
    ],
)
def test_version_auto_takes_1_0_when_offered_else_0_3_and_says_so(mock, make_call, recorder, offered, chosen, line):
    serve(mock, card(*offered))
    c = make_call(url=AGENT, version_auto=True)
    c.target.endpoint()
    assert c.opts.wire is chosen and not c.opts.version_auto
    assert c.transport.cfg.version == chosen.version  # every later request carries it
    assert line in recorder.notes


def test_version_auto_over_a_transport_counts_only_that_binding(mock, make_call):
    serve(mock, card(itf(f"{AGENT}/rest", "HTTP+JSON", "0.3"), itf(RPC)))
    c = make_call(url=AGENT, version_auto=True, transports=("rest",))
    assert c.target.endpoint().url == f"{AGENT}/rest"
    assert c.opts.wire is Wire.V0  # over HTTP+JSON the card offers 0.3 only


def test_version_auto_is_recorded_in_the_dump_on_the_first_call(mock, make_call, tmp_path):
    serve(mock, card(itf(f"{AGENT}/v03", version="0.3")))
    mock.post(f"{AGENT}/v03").mock(
        side_effect=rpc_answer({"kind": "task", "id": "t-1", "contextId": "c-1", "status": {"state": "working"}})
    )
    c = make_call(url=AGENT, version_auto=True, dump=str(tmp_path / "dump"))
    c.unary(METHODS["GetTask"], {"id": "t-1"})
    c.close()
    index = [json.loads(line) for line in (tmp_path / "dump" / "index.jsonl").read_text().splitlines()]
    assert [(e["method"], e["version"], e.get("versionChoice")) for e in index] == [
        ("card", None, None),  # read before any version was chosen
        ("tasks/get", "0.3", "--a2a-version auto: using 0.3 (the card offers 0.3, not 1.0)"),
    ]


def test_the_version_chosen_is_returned_and_the_session_adopts_it(mock, make_call, recorder):
    serve(mock, card(itf(f"{AGENT}/v03", version="0.3")))
    c = make_call(url=AGENT, version_auto=True)
    c.target.fetch_card()
    chosen = c.target.choose_version()
    assert chosen == (Wire.V0, "--a2a-version auto: using 0.3 (the card offers 0.3, not 1.0)")
    assert c.opts.wire is Wire.V1 and c.opts.version_auto  # returned: nothing written into the session
    assert c.transport.cfg.version == Wire.V1.version and not any("auto" in n for n in recorder.notes)
    c.target.settle_version()  # adopted by the session (Call.adopt), said once
    assert c.opts.wire is Wire.V0 and not c.opts.version_auto and c.transport.cfg.version == "0.3"
    assert recorder.notes.count(chosen[1]) == 1
    assert c.target.choose_version() is None  # chosen: nothing more to choose


def test_a_given_version_is_not_chosen(mock, make_call):
    serve(mock, MIXED)
    c = make_call(url=AGENT, wire=Wire.V0)
    c.target.fetch_card()
    assert c.target.choose_version() is None


def test_a_fixed_version_reads_the_card_without_choosing(mock, make_call, recorder):
    serve(mock, MIXED)
    c = make_call(url=AGENT, wire=Wire.V0)
    c.target.endpoint()
    assert c.opts.wire is Wire.V0 and not any("auto" in n for n in recorder.notes)


# -- --endpoint: no card, unless auto needs one ----------------------------------------------------


def test_an_endpoint_is_called_as_given_without_reading_a_card(mock, make_call):
    route = serve(mock, MIXED)
    c = make_call(endpoint=f"{AGENT}/mine", transports=("rest",))
    ep = c.target.endpoint()
    assert (ep.url, ep.binding) == (f"{AGENT}/mine", "rest") and not route.called
    assert c.target.card is None


def test_an_endpoint_with_no_transport_is_json_rpc(make_call):
    assert make_call(endpoint=f"{AGENT}/mine").target.endpoint().binding == "jsonrpc"


def test_an_endpoint_with_version_auto_reads_the_card_of_the_url_and_stays_exact(mock, make_call):
    route = serve(mock, card(itf(f"{AGENT}/v03", version="0.3")))
    c = make_call(url=AGENT, endpoint=f"{AGENT}/mine", version_auto=True)
    assert c.target.endpoint().url == f"{AGENT}/mine" and route.call_count == 1
    assert c.opts.wire is Wire.V0


def test_an_endpoint_with_version_auto_and_no_url_is_a_usage_error(make_call):
    with pytest.raises(UsageError, match="--a2a-version auto reads the Agent Card, and --endpoint skips it"):
        make_call(endpoint=f"{AGENT}/mine", version_auto=True).target.endpoint()


# -- the card ----------------------------------------------------------------------------------------


def test_no_agent_at_all_is_a_usage_error_naming_the_demo(make_call):
    with pytest.raises(UsageError, match="no agent given") as e:
        make_call().target.endpoint()
    assert "a2a demo-server" in (e.value.hint or "")


@pytest.mark.parametrize("doc", [[1, 2], "a card", 7])
def test_a_card_that_is_no_json_object_is_refused(mock, make_call, doc):
    serve(mock, doc)
    with pytest.raises(CardInvalidError, match="is not an Agent Card"):
        make_call(url=AGENT).target.endpoint()


def test_a_card_with_a_field_of_the_wrong_kind_is_warned_of_and_still_used(mock, make_call, recorder):
    serve(mock, {**card(itf(RPC)), "name": 5})
    assert make_call(url=AGENT).target.endpoint().url == RPC
    (warning,) = recorder.warnings
    assert warning.startswith(f"the Agent Card at {CARD_URL} is not valid: $.name is a number, not a string")


def test_a_card_from_before_0_3_is_read_as_0_3_with_a_note(mock, make_call, recorder):
    serve(
        mock,
        {
            "name": "old",
            "description": "d",
            "version": "1",
            "url": RPC,
            "protocolVersion": "0.2.5",
            "capabilities": {},
            "skills": [],
        },
    )
    c = make_call(url=AGENT, wire=Wire.V0)
    assert c.target.endpoint().url == RPC
    assert any("protocolVersion 0.2.5 (before 0.3): read as 0.3" in n for n in recorder.notes)


def test_the_card_is_read_once_per_session(mock, make_call):
    route = serve(mock, MIXED)
    c = make_call(url=AGENT)
    assert c.resolve() is c.target.endpoint() is c.target.known_endpoint()  # resolved once, then reused
    assert route.call_count == 1


@pytest.mark.parametrize(
    ("vary", "varies"), [("A2A-Version", True), ("Accept, a2a-version", True), ("Accept", False), ("", False)]
)
def test_a_card_that_varies_by_version_is_noted(mock, make_call, vary, varies):
    serve(mock, MIXED, **({"Vary": vary} if vary else {}))
    c = make_call(url=AGENT)
    c.target.endpoint()
    assert c.target.card_varies is varies


def test_a_required_extension_not_declared_is_warned_of_with_the_flag(mock, make_call, recorder):
    ext = {"uri": "urn:x:needed", "required": True}
    serve(mock, {**card(itf(RPC)), "capabilities": {"extensions": [ext, {"uri": "urn:x:optional"}]}})
    make_call(url=AGENT).target.endpoint()
    (warning,) = recorder.warnings
    assert "requires the extension urn:x:needed" in warning and "pass --extension urn:x:needed" in warning


def test_a_required_extension_declared_is_not_warned_of(mock, make_call, recorder):
    serve(mock, {**card(itf(RPC)), "capabilities": {"extensions": [{"uri": "urn:x:needed", "required": True}]}})
    make_call(url=AGENT, extensions=("urn:x:needed",)).target.endpoint()
    assert not recorder.warnings


# -- without the network: card files, --offline ---------------------------------------------------


@pytest.mark.parametrize(
    ("url", "local"),
    [
        ("file:///tmp/card.json", True),
        ("card.json", True),
        ("./cards/agent.json", True),
        ("http://a.test/card.json", False),
        (AGENT, False),
    ],
)
def test_a_card_file_is_local_a_url_is_not(make_call, url, local):
    c = make_call(url=url)
    assert c.target.card_is_local() is local
    assert c.target.card_in_hand() is local


def test_offline_with_a_url_knows_no_endpoint_and_uses_the_first_transport(mock, make_call):
    route = serve(mock, MIXED)
    c = make_call(url=AGENT, offline=True, transports=("rest",))
    assert c.resolve() is None and c.target.binding.info.flag == "rest"
    assert not route.called


def test_a_card_file_is_read_under_offline(tmp_path, make_call):
    path = tmp_path / "card.json"
    path.write_text(json.dumps(MIXED))
    c = make_call(url=str(path), offline=True, transports=("jsonrpc",))
    ep = c.resolve()
    assert ep is not None and ep.url == RPC and c.target.card is not None


# -- catalog references --------------------------------------------------------------------------


def catalog_file(tmp_path, entries: list[dict[str, Any]]) -> str:
    path = tmp_path / "agents.json"
    path.write_text(json.dumps({"agents": entries}))
    return str(path)


def test_a_catalog_entry_becomes_the_agent_said_once(tmp_path, mock, make_call, recorder):
    serve(mock, MIXED)
    c = make_call(
        url="catalog:test", catalog=catalog_file(tmp_path, [{"name": "test", "url": AGENT}]), transports=("jsonrpc",)
    )
    assert c.target.endpoint().url == RPC
    assert c.opts.url == AGENT and c.target.located.reference == "catalog:test"
    assert [n for n in recorder.notes if n.startswith("catalog:test: ")] == [
        f"catalog:test: 'test', {AGENT}, from the catalog {c.target.located.catalog}"
    ]


def test_the_agent_a_catalog_names_is_returned_and_adopted_by_the_session_once(tmp_path, mock, make_call, recorder):
    serve(mock, MIXED)
    entries = [{"name": "test", "url": AGENT}]
    c = make_call(url="catalog:test", catalog=catalog_file(tmp_path, entries))
    assert c.target.resolve_agent() == AGENT
    assert c.opts.url == "catalog:test"  # returned: the session's options are the session's to change
    other = make_call(url="catalog:test", catalog=catalog_file(tmp_path, entries))
    other.target.fetch_card()  # reading the agent resolves it first, and the session adopts it
    assert other.opts.url == AGENT
    other.target.fetch_card()
    assert len([n for n in recorder.notes if n.startswith("catalog:test: ")]) == 2  # once per session


def test_no_catalog_reference_resolves_to_no_other_agent(make_call):
    assert make_call(url=AGENT).target.resolve_agent() is None


def test_a_card_the_catalog_holds_is_used_without_the_network(tmp_path, mock, make_call):
    route = serve(mock, MIXED)
    c = make_call(
        url="catalog:inline",
        catalog=catalog_file(tmp_path, [{"name": "inline", "card": card(itf(f"{AGENT}/inline"))}]),
        offline=True,
    )
    assert c.target.card_in_hand()
    ep = c.resolve()
    assert ep is not None and ep.url == f"{AGENT}/inline" and not route.called


def test_offline_does_not_read_a_catalog_on_the_network(mock, make_call, recorder):
    catalog = mock.get("http://registry.test/agents.json")
    c = make_call(url="catalog:test", catalog="http://registry.test/agents.json", offline=True)
    assert c.resolve() is None and c.target.catalog_pending()
    assert not catalog.called
    assert recorder.notes == [
        "--offline: the catalog http://registry.test/agents.json is not read, so the agent catalog:test is not known"
    ]
    with pytest.raises(UsageError, match="--offline does not read the catalog"):
        c.target.fetch_card()
