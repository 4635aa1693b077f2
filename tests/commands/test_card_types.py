"""Issue 35: a card with a wrong JSON type anywhere (`supportedInterfaces: true`,
`additionalInterfaces: 5`, a scheme that is a list...) is a clean error or a warning, never an
internal error, in `card fetch`, `send` and `check`. Each field of a 1.0 and a 0.3 card is given
each JSON type it does not have."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from a2a_testkit import AGENT, RPC, rpc_result, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
TASK = {"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_COMPLETED"}}
V0_TASK = {"kind": "task", "id": "t", "contextId": "c", "status": {"state": "completed"}}
SCHEMES = {
    "key": {"apiKeySecurityScheme": {"location": "header", "name": "X-API-Key"}},
    "bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}},
    "oauth": {"oauth2SecurityScheme": {"flows": {"clientCredentials": {"tokenUrl": "https://idp.test/token", "scopes": {"a": "b"}}}}},
    "oidc": {"openIdConnectSecurityScheme": {"openIdConnectUrl": "https://idp.test/.well-known/openid-configuration"}},
}
V1 = v1_card(
    securitySchemes=SCHEMES,
    securityRequirements=[{"schemes": {"key": {"list": []}}}],
    provider={"organization": "o", "url": "https://o.test"},
    documentationUrl="https://o.test/doc",
    iconUrl="https://o.test/i.png",
)
V1["capabilities"]["extensions"] = [{"uri": "https://ext.test/x", "required": False, "params": {}}]
V1["skills"][0].update(examples=["hi"], inputModes=["text/plain"], outputModes=["text/plain"], securityRequirements=[{"schemes": {"bearer": {"list": []}}}])
V0 = {
    "name": "x", "description": "d", "version": "1", "url": RPC, "protocolVersion": "0.3.0", "preferredTransport": "JSONRPC",
    "additionalInterfaces": [{"url": RPC, "transport": "JSONRPC"}],
    "capabilities": {"streaming": True, "extensions": [{"uri": "https://ext.test/x"}]},
    "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
    "skills": [{"id": "s", "name": "S", "description": "d", "tags": ["t"], "security": [{"k": []}]}],
    "securitySchemes": {"k": {"type": "apiKey", "in": "header", "name": "X-Key"}, "o": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "https://idp.test/token", "scopes": {}}}}},
    "security": [{"k": []}],
    "signatures": [{"protected": "e30", "signature": "AA"}],
}
# for each JSON kind a field has, the value of another kind most likely to trip a reader: a
# container becomes a scalar (not iterable, no .get), a string a container, a scalar a string
WRONG = {dict: [5], list: 5, str: {"a": 5}, bool: "x", int: "x"}


def _paths(doc: Any, at: tuple = ()) -> list[tuple]:
    out = [at] if at else []
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, (*at, k))
    elif isinstance(doc, list) and doc:
        out += _paths(doc[0], (*at, 0))
    return out


def _mutants(card: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in _paths(card):
        doc = copy.deepcopy(card)
        holder = doc
        for k in path[:-1]:
            holder = holder[k]
        bad = WRONG[type(holder[path[-1]])]
        holder[path[-1]] = bad
        out.append((".".join(map(str, path)) + "=" + type(bad).__name__, doc))
    return out


MUTANTS = [("1.0", name, doc) for name, doc in _mutants(V1)] + [("0.3", name, doc) for name, doc in _mutants(V0)]
# every field under `send` (the card read, the interface chosen, the credentials placed, the
# capabilities read) and `card fetch` (the card's screen); the top-level ones under -o json and
# --validate (check's models) too
COMMANDS = {"card": ["card", "fetch"], "send": ["send", "hi", "--api-key", "k-1234", "--bearer", "b-1234"]}
TOP = {"card-json": ["card", "fetch", "-o", "json"], "validate": ["card", "fetch", "--validate"]}


def _clean(result: Any) -> None:
    said = result.stdout + result.stderr
    assert "internal error" not in said and "Traceback" not in said, said[-2000:]
    assert result.exit_code in (0, 1, 2, 3, 4), said[-2000:]


@pytest.mark.parametrize(("version", "name", "card"), MUTANTS, ids=[f"{v}:{n}" for v, n, _ in MUTANTS])
def test_a_wrong_type_anywhere_in_the_card_is_no_internal_error(cli, respx_mock, version, name, card):
    respx_mock.get(CARD_URL).respond(json=card)
    respx_mock.post(url__startswith=RPC).respond(json=rpc_result(TASK if version == "1.0" else V0_TASK))
    top = "." not in name.split("=")[0]
    for args in [*COMMANDS.values(), *(TOP.values() if top else ())]:
        _clean(cli(*args, "-u", AGENT, "--a2a-version", version))


@pytest.mark.parametrize(
    "card",
    [
        {**v1_card(), "supportedInterfaces": True},
        {**v1_card(), "supportedInterfaces": {"url": RPC}},
        {"name": "x", "url": RPC, "protocolVersion": "0.3.0", "additionalInterfaces": True},
        {"name": "x", "url": RPC, "protocolVersion": "0.3.0", "additionalInterfaces": 5},
    ],
)
@pytest.mark.parametrize("command", [["card", "fetch"], ["send", "hi"], ["check"]])
def test_interfaces_of_the_wrong_type(cli, respx_mock, card, command):
    respx_mock.get(url__startswith=AGENT).respond(json=card)
    respx_mock.post(url__startswith=RPC).respond(json=rpc_result(TASK))
    result = cli(*command, "-u", AGENT)
    _clean(result)


# -- header names from the card and the user, checked as h11 checks them, before anything is sent ---

BAD_NAMES = {"space": "X API Key", "tab": "X\tKey", "nul": "X\x00Key", "esc": "X\x1bKey", "del": "X\x7fKey", "colon": "X:Key", "crlf": "X\r\nInjected: 1\r\nY"}


@pytest.mark.parametrize("where", ["header", "cookie"])
@pytest.mark.parametrize("bad", sorted(BAD_NAMES))
def test_a_card_naming_a_malformed_header_sends_nothing(cli, bad, where):
    from hostile_server import hostile, rpc_answer

    with hostile() as a:
        scheme = {"k": {"apiKeySecurityScheme": {"location": where, "name": BAD_NAMES[bad]}}}
        a.card(v1_card(url=f"{a.url}/rpc", securitySchemes=scheme))
        a.rpc(rpc_answer(TASK))
        result = cli("tasks", "get", "t", "-u", a.url, "--api-key", "k-secret-1")
        _clean(result)
        assert result.exit_code == 1, result.stderr
        assert f"the Agent Card's apiKey scheme puts the key in the {where}" in result.stderr and "nothing was sent" in result.stderr
        assert [s.method for s in a.seen] == ["GET"]  # the card, and nothing after it
        assert "\x1b" not in result.stderr and "\x00" not in result.stderr and "k-secret-1" not in result.stderr


@pytest.mark.parametrize("bad", sorted(set(BAD_NAMES) - {"colon"}))  # -H 'X:Key: v' is the header X
def test_a_malformed_h_name_is_a_usage_error(cli, respx_mock, bad):
    result = cli("tasks", "get", "t", "-u", AGENT, "-H", f"{BAD_NAMES[bad]}: v")
    _clean(result)
    assert result.exit_code == 2, result.stderr
    assert not respx_mock.calls


@pytest.mark.parametrize("value", ["a\x00b", "a\x1bb", "a\x7fb", "a\rb"])
def test_a_malformed_h_value_is_a_usage_error(cli, respx_mock, value):
    result = cli("tasks", "get", "t", "-u", AGENT, "-H", f"X-Team: {value}")
    assert result.exit_code == 2 and "the value is not shown" in result.stderr, result.stderr
    assert not respx_mock.calls


@pytest.mark.parametrize("name", ["Content-Length", "transfer-encoding"])
def test_a_card_putting_the_key_in_a_framing_header_sends_nothing(cli, name):
    """Issue 42: a card whose apiKey header is Content-Length was an internal error (h11's
    LocalProtocolError), Transfer-Encoding exit 3 (unreachable): the card is at fault, exit 1."""
    from hostile_server import hostile, rpc_answer

    with hostile() as a:
        scheme = {"k": {"apiKeySecurityScheme": {"location": "header", "name": name}}}
        a.card(v1_card(url=f"{a.url}/rpc", securitySchemes=scheme))
        a.rpc(rpc_answer(TASK))
        result = cli("tasks", "get", "t", "-u", a.url, "--api-key", "12")
        _clean(result)
        assert result.exit_code == 1, result.stderr
        assert "the Agent Card's apiKey scheme puts the key in the header" in result.stderr
        assert "nothing was sent" in result.stderr
        assert [s.method for s in a.seen] == ["GET"]


@pytest.mark.parametrize("header", ["Content-Length: 5", "Transfer-Encoding: chunked", "content-length: 0"])
def test_a_framing_h_header_is_a_usage_error(cli, header):
    """Issue 42: `-H 'Content-Length: 5'` was an internal error; `-H 'Transfer-Encoding: chunked'`
    sent a body framed both ways (the answer: a broken connection). a2a frames the body itself."""
    from hostile_server import hostile, rpc_answer

    with hostile() as a:
        a.card(v1_card(url=f"{a.url}/rpc"))
        a.rpc(rpc_answer(TASK))
        result = cli("tasks", "get", "t", "-u", a.url, "-H", header)
        _clean(result)
        assert result.exit_code == 2, result.stderr
        assert "-H" in result.stderr and "hint:" in result.stderr
        assert not [s for s in a.seen if s.method == "POST"]
