"""The session's parts apart from any command (issue 22): the target resolves the agent, card,
endpoint and version once; invoke under --offline prints the prepared request and sends nothing;
the credentials go only where the card's schemes take them; tracking follows the task in hand."""

from __future__ import annotations

import json

import httpx
import pytest
import respx

from a2acli.pipeline.options import CallOptions
from a2acli.pipeline.session import Call, OfflineShown
from a2acli.pipeline.tracking import Tracking
from a2acli.render.events import Presenter
from a2acli.render.output import Output
from a2acli.wire import Wire
from a2acli.wire.methods import METHODS

AGENT = "http://agent.test"
CARD = {
    "name": "t",
    "description": "d",
    "version": "1",
    "supportedInterfaces": [
        {"url": f"{AGENT}/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
        {"url": f"{AGENT}/v03", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
    ],
    "capabilities": {},
    "securitySchemes": {"bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}},
    "securityRequirements": [{"schemes": {"bearer": {"list": []}}}],
}
TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}}


def call(**opts) -> Call:
    return Call(CallOptions(**opts), Presenter(Output("json")))


@pytest.fixture
def agent():
    """The agent on respx: its card and its JSON-RPC endpoint (a Task for any call). Routes need
    not all be called; the tests say which were."""
    with respx.mock(assert_all_called=False) as mock:
        card = mock.get(f"{AGENT}/.well-known/agent-card.json").mock(return_value=httpx.Response(200, json=CARD))
        rpc = mock.post(f"{AGENT}/rpc").mock(
            side_effect=lambda r: httpx.Response(
                200, json={"jsonrpc": "2.0", "id": json.loads(r.content)["id"], "result": TASK}
            )
        )
        yield mock, card, rpc


# -- target: which agent, card, endpoint and version ----------------------------------------------


def test_the_target_is_resolved_once_however_often_it_is_asked(agent):
    mock, card, _ = agent
    with call(url=AGENT, version_auto=True) as c:
        first = c.resolve()
        assert first is not None and first.url == f"{AGENT}/rpc"
        assert c.resolve() is first and c.target.endpoint() is first and c.target.known_endpoint() is first
        c.unary(METHODS["GetTask"], {"id": "t-1"})
        assert card.call_count == 1  # one card read for the whole session
        assert c.opts.wire is Wire.V1 and not c.opts.version_auto  # auto chose 1.0, and the session carries it
        assert c.transport.cfg.version == "1.0"


def test_the_target_under_offline_reads_no_card_on_the_network(agent):
    mock, card, rpc = agent
    with call(url=AGENT, offline=True) as c:
        assert c.resolve() is None  # not known without the network: the request shows a placeholder
        assert c.target.card is None
    assert not card.called and not rpc.called


def test_the_target_under_offline_reads_a_card_file(tmp_path, agent):
    path = tmp_path / "card.json"
    path.write_text(json.dumps(CARD))
    with call(url=path.as_uri(), offline=True, wire=Wire.V0) as c:
        ep = c.resolve()
        assert ep is not None and ep.url == f"{AGENT}/v03"  # the 0.3 interface of the card
        assert c.target.card is not None and c.target.card_in_hand()


# -- invoke: the one place a prepared request is sent ---------------------------------------------


def test_invoke_under_offline_prints_the_request_and_sends_nothing(agent, capsys):
    mock, card, rpc = agent
    with call(endpoint=f"{AGENT}/rpc", offline=True, bearer="tok-123") as c:
        enc = c.encode(METHODS["GetTask"], {"id": "t-1"}, "req-1")
        with pytest.raises(OfflineShown):
            list(c.invoke(enc, headers={"X-Trace": "1"}))
        with pytest.raises(OfflineShown):  # unary and stream go through invoke too
            c.unary(METHODS["GetTask"], {"id": "t-1"})
        with pytest.raises(OfflineShown):
            list(c.stream(METHODS["SubscribeToTask"], {"id": "t-1"}))
    assert not [route for route in mock.routes if route.called]  # nothing reached the network
    out, err = capsys.readouterr()
    first = json.loads(out.split("\n}\n")[0] + "\n}")
    assert first["method"] == "GetTask" and first["id"] == "req-1" and first["params"] == {"id": "t-1"}
    assert "POST http://agent.test/rpc" in err and "X-Trace: 1" in err
    assert "tok-123" not in out + err  # the credential is shown redacted


def test_invoke_without_offline_sends_the_request_once(agent):
    mock, card, rpc = agent
    with call(endpoint=f"{AGENT}/rpc") as c:
        (reply,) = c.invoke(c.encode(METHODS["GetTask"], {"id": "t-1"}))
        assert reply.core["id"] == "t-1"
    assert rpc.call_count == 1 and not card.called


def test_the_entry_point_ends_with_exit_0_where_invoke_printed_the_request(cli, agent):
    """Under --offline no entry point sends: a blocking send (no wait, no follow), a stream, a
    list of every page, `a2a call`, a download, each chat line."""
    mock, card, rpc = agent
    for argv in (
        ["send", "hi", "--wait"],
        ["stream", "hi"],
        ["tasks", "subscribe", "t-1"],
        ["tasks", "list", "--all"],
        ["tasks", "get", "t-1", "--wait"],
        ["call", "GetTask", '{"id": "t-1"}'],
        ["tasks", "download", "t-1"],
    ):
        result = cli(*argv, "-u", AGENT, "--offline", "-o", "json")
        assert result.exit_code == 0, (argv, result.stderr)
        assert "http://agent.test" in result.stderr, argv  # the request line, on stderr under -o json
        assert json.loads(result.stdout)["method"], argv
    chat = cli("chat", "-u", AGENT, "--offline", "-o", "json", input="one\ntwo\n")
    assert chat.exit_code == 0, chat.stderr
    assert chat.stdout.count('"SendMessage"') == 2  # each line a turn: the offline print does not end the chat
    assert not [route for route in mock.routes if route.called]


def test_offline_shows_a_gated_call_whatever_a_card_file_claims(cli, tmp_path, agent):
    """A card file that claims no extended card and no streaming: --offline still shows the
    request each command would send (the capability checks are for calls that go out)."""
    mock, card, rpc = agent
    path = tmp_path / "card.json"
    path.write_text(json.dumps(CARD))
    extended = cli("card", "extended", "-u", str(path), "--offline", "-o", "json")
    assert extended.exit_code == 0, extended.stderr
    assert json.loads(extended.stdout)["method"] == "GetExtendedAgentCard"
    streamed = cli("stream", "hi", "-u", str(path), "--offline", "-o", "json")
    assert streamed.exit_code == 0, streamed.stderr
    assert json.loads(streamed.stdout)["method"] == "SendStreamingMessage"  # not a SendMessage and a poll
    assert not [route for route in mock.routes if route.called]


# -- credentials: which, to which origin ------------------------------------------------------------


def test_credentials_go_only_where_the_card_takes_them(agent, capsys):
    mock, card, rpc = agent
    with call(url=AGENT, api_key="key-1", bearer="tok-1") as c:
        c.resolve()
        creds = c.creds.for_request(f"{AGENT}/rpc")
        assert creds.headers == {"Authorization": "Bearer tok-1"}  # the card declares bearer, no API key
        assert c.creds.sent == {"bearer"} and c.creds.withheld == ["api-key"]
        c.creds.for_request(f"{AGENT}/rpc")
    assert capsys.readouterr().err.count("--api-key not sent") == 1  # said once


def test_a_turn_credential_is_carried_inside_the_turn_only():
    with call(endpoint=f"{AGENT}/rpc") as c:
        with c.turn_credentials({"bearer": "once"}):
            assert c.creds.credentials().headers == {"Authorization": "Bearer once"}
        assert c.creds.credentials().headers == {}
        assert c.redactor.text("Bearer once") != "Bearer once"  # redacted from the moment it was known


# -- tracking: the task in hand ---------------------------------------------------------------------


def test_tracking_follows_the_task_and_what_it_asks_for():
    t = Tracking()
    t.track({"task": TASK})
    assert t.task == {"id": "t-1", "contextId": "c-1", "state": "TASK_STATE_WORKING"} and t.ask is None
    asks = {"role": "ROLE_AGENT", "parts": [{"text": "which city?"}]}
    t.track({"statusUpdate": {"taskId": "t-1", "status": {"state": "TASK_STATE_INPUT_REQUIRED", "message": asks}}})
    assert t.task["state"] == "TASK_STATE_INPUT_REQUIRED" and t.ask == asks
    t.track({"statusUpdate": {"taskId": "t-1", "status": {"state": "TASK_STATE_COMPLETED"}}})
    assert t.ask is None  # a new state drops the question
    t.track({"message": {"role": "ROLE_AGENT"}})
    assert t.task["state"] == "TASK_STATE_COMPLETED"  # a message is no task


# -- the printed command's connection flags ---------------------------------------------------------


def test_conn_flags_repeat_what_was_given_as_a_flag_in_one_order():
    from types import MappingProxyType, SimpleNamespace

    from a2acli.pipeline.options import conn_flags

    names = ("catalog", "url", "endpoint", "transport", "a2a-version", "dialect", "cacert", "cert", "key", "api-key")
    names += ("bearer", "strict-origin")
    opts = CallOptions(
        config="my cfg.toml",
        profile="p",
        resolved=SimpleNamespace(profile_source="flag"),
        catalog="./agents.json",
        url="http://a.test",
        endpoint="http://a.test/rpc",
        transports=("rest", "jsonrpc"),
        wire=Wire.V0,
        dialect_name="clix",
        extensions=("urn:x",),
        cacert="ca.pem",
        cert="c.pem",
        key="k.pem",
        api_key="secret-key",
        bearer="secret-token",
        basic="u:p",  # from the environment: not repeated
        plaintext=True,
        insecure=True,
        strict_origin=True,
        sources=MappingProxyType(dict.fromkeys(names, "flag")),
    )
    assert conn_flags(opts) == (
        " --config 'my cfg.toml' --profile p --catalog ./agents.json -u http://a.test --endpoint http://a.test/rpc"
        " --transport rest --transport jsonrpc --a2a-version 0.3 --dialect clix --extension urn:x --cacert ca.pem"
        " --cert c.pem --key k.pem --api-key KEY --bearer TOKEN --plaintext --insecure --strict-origin"
    )
    assert "KEY" not in conn_flags(opts, secrets=False) and "secret" not in conn_flags(opts)
    assert conn_flags(CallOptions(url="http://a.test", version_auto=True)) == ""  # nothing given as a flag


def test_offline_shows_the_first_page_of_a_list_as_it_is_sent(cli):
    """`tasks list --all` under 0.3 asks for pages of 50 (clix limit/offset): --offline shows that
    request, the one the real run sends first (it showed the request without the limit before
    invoke handled --offline)."""
    argv = ["tasks", "list", "--all", "--force", "--endpoint", f"{AGENT}/rpc", "--a2a-version", "0.3", "-o", "raw"]
    seen: list[httpx.Request] = []
    with respx.mock() as mock:
        mock.post(f"{AGENT}/rpc").mock(
            side_effect=lambda r: (
                seen.append(r)
                or httpx.Response(200, json={"jsonrpc": "2.0", "id": json.loads(r.content)["id"], "result": []})
            )
        )
        assert cli(*argv).exit_code == 0
    offline = cli(*argv, "--offline")
    assert offline.exit_code == 0, offline.stderr
    shown, sent = json.loads(offline.stdout), json.loads(seen[0].content)
    assert shown["params"] == sent["params"] == {"limit": 50} and shown["method"] == sent["method"] == "tasks/list"
