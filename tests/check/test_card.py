"""Card validation (a2acli/check/card.py): every kind of finding, on hand-made cards of both
versions; each with its severity, JSON path and fix."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from a2acli.check.card import declared_versions, nearest, validate_card

CARD_URL = "https://agent.example/.well-known/agent-card.json"

V1: dict[str, Any] = {
    "name": "Echo",
    "description": "Echo agent",
    "version": "1.0.0",
    "supportedInterfaces": [
        {"url": "https://agent.example/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
        {"url": "https://agent.example/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
    ],
    "capabilities": {"streaming": True, "pushNotifications": False},
    "securitySchemes": {"bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}},
    "securityRequirements": [{"schemes": {"bearer": {"list": []}}}],
    "defaultInputModes": ["text/plain"],
    "defaultOutputModes": ["text/plain"],
    "skills": [{"id": "echo", "name": "Echo", "description": "Repeats input", "tags": ["demo"], "examples": ["hi"], "inputModes": ["text/plain"]}],
}
V0: dict[str, Any] = {
    "protocolVersion": "0.3.0",
    "name": "Echo",
    "description": "Echo agent",
    "version": "1.0.0",
    "url": "https://agent.example/rpc",
    "preferredTransport": "JSONRPC",
    "capabilities": {"streaming": True, "pushNotifications": False},
    "securitySchemes": {"bearer": {"type": "http", "scheme": "Bearer"}},
    "security": [{"bearer": []}],
    "defaultInputModes": ["text/plain"],
    "defaultOutputModes": ["text/plain"],
    "skills": [{"id": "echo", "name": "Echo", "description": "Repeats input", "tags": ["demo"], "examples": ["hi"], "inputModes": ["text/plain"]}],
}


def card(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for k, v in changes.items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = v
    return out


def findings(doc: Any, url: str | None = CARD_URL) -> list[tuple[str, str, str]]:
    return [(f.severity, f.path, f.rule) for f in validate_card(doc, url).findings]


def one(doc: Any, rule: str, url: str | None = CARD_URL):
    found = [f for f in validate_card(doc, url).findings if f.rule == rule]
    assert len(found) == 1, validate_card(doc, url).findings
    return found[0]


@pytest.mark.parametrize("base", [V1, V0], ids=["v1", "v0"])
def test_the_spec_minimal_cards_are_clean(base):
    assert findings(base) == []


def test_versions_declared():
    assert declared_versions(V1) == (("1.0",), False)
    assert declared_versions(V0) == (("0.3",), False)
    assert declared_versions(hybrid_card()) == (("1.0", "0.3"), True)


def test_a_hybrid_card_with_v1_schemes_only_is_unreadable_by_v0_clients():
    doc = {**copy.deepcopy(V0), **copy.deepcopy(V1)}
    f = one(doc, "missing-field")
    assert (f.version, f.path) == ("0.3", "$.securitySchemes.bearer.type")


def hybrid_card() -> dict[str, Any]:
    """V0 top-level fields next to supportedInterfaces, each scheme spelt both ways (a2a-js compat)."""
    doc = {**copy.deepcopy(V0), **copy.deepcopy(V1)}
    doc["securitySchemes"] = {"bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}, "type": "http", "scheme": "Bearer"}}
    return doc


def test_hybrid_card_is_checked_against_both_and_other_version_fields_are_fine():
    hybrid = hybrid_card()
    report = validate_card(hybrid, CARD_URL)
    assert report.versions == ("1.0", "0.3") and report.hybrid
    assert report.findings == []
    broken = card(hybrid, name=None)
    paths = {(f.path, f.version) for f in validate_card(broken, CARD_URL).findings}
    assert ("$.name", "1.0") in paths  # one finding per path (both versions say it alike)


@pytest.mark.parametrize("base", [V1, V0], ids=["v1", "v0"])
def test_missing_required_field(base):
    f = one(card(base, description=None), "missing-field")
    assert (f.severity, f.path) == ("error", "$.description")
    assert "missing required field 'description'" in f.message and "add it" in f.message


def test_v1_required_fields_follow_field_behavior():
    f = one(card(V1, supportedInterfaces=[{"url": "https://agent.example/rpc", "protocolBinding": "JSONRPC"}]), "missing-field")
    assert f.path == "$.supportedInterfaces[0].protocolVersion"


def test_v0_card_needs_url_and_protocol_version():
    rules = findings(card(V0, url=None, protocolVersion=None), None)  # preferredTransport: still a 0.3 card
    assert ("error", "$.url", "missing-field") in rules and ("error", "$.protocolVersion", "missing-field") in rules


@pytest.mark.parametrize("base", [V1, V0], ids=["v1", "v0"])
def test_wrong_type(base):
    f = one(card(base, capabilities={"streaming": "true"}), "wrong-type")
    assert (f.severity, f.path) == ("error", "$.capabilities.streaming")
    assert "a string where a boolean" in f.message


def test_unknown_enum_value_names_the_nearest():
    doc = card(V1)
    doc["supportedInterfaces"][0]["protocolBinding"] = "JSON-RPC"
    f = one(doc, "unknown-enum")
    assert f.severity == "warning" and f.path == "$.supportedInterfaces[0].protocolBinding" and "did you mean 'JSONRPC'" in f.message
    f = one(card(V0, preferredTransport="HTTP_JSON"), "unknown-enum")
    assert f.path == "$.preferredTransport" and "'HTTP+JSON'" in f.message
    f = one(card(V0, securitySchemes={"k": {"type": "apikey", "in": "header", "name": "X"}}, security=[{"k": []}]), "unknown-enum")
    assert f.severity == "error" and f.path == "$.securitySchemes.k.type" and "did you mean 'apiKey'" in f.message
    f = one(card(V1, securitySchemes={"k": {"apiKeySecurityScheme": {"location": "headr", "name": "X"}}}, securityRequirements=None), "unknown-enum")
    assert "did you mean 'header'" in f.message


def test_nearest():
    assert nearest("grpc", ("JSONRPC", "HTTP+JSON", "GRPC")) == "GRPC"
    assert nearest("HTTP_JSON", ("JSONRPC", "HTTP+JSON", "GRPC")) == "HTTP+JSON"
    assert nearest("zzzzzz", ("JSONRPC", "HTTP+JSON", "GRPC")) is None


def test_relative_interface_url_is_an_error():
    doc = card(V1)
    doc["supportedInterfaces"][0]["url"] = "/rpc"
    f = one(doc, "relative-url")
    assert (f.severity, f.path) == ("error", "$.supportedInterfaces[0].url") and "absolute" in f.message
    f = one(card(V0, url="rpc"), "relative-url")
    assert f.path == "$.url"


def test_interface_on_another_host_is_a_warning():
    doc = card(V1)
    doc["supportedInterfaces"][1]["url"] = "https://elsewhere.example/rpc"
    f = one(doc, "other-host")
    assert (f.severity, f.path) == ("warning", "$.supportedInterfaces[1].url") and "elsewhere.example" in f.message
    assert [r for r in findings(doc, None) if r[2] == "other-host"] == []  # a card from stdin: no host to compare


@pytest.mark.parametrize("card_host,interface_host", [("localhost", "127.0.0.1"), ("127.0.0.1", "localhost"), ("localhost", "[::1]")])
def test_this_machines_names_are_one_host(card_host, interface_host):
    """A card fetched from localhost whose interfaces say 127.0.0.1 (the demo, most SDK samples)."""
    doc = card(V1)
    for iface in doc["supportedInterfaces"]:
        iface["url"] = f"http://{interface_host}:9/rpc"
    assert [r for r in findings(doc, f"http://{card_host}:9/.well-known/agent-card.json") if r[2] == "other-host"] == []
    doc["supportedInterfaces"][0]["url"] = "http://elsewhere.example:9/rpc"  # this machine and another: still said
    assert one(doc, "other-host", f"http://{card_host}:9/.well-known/agent-card.json").path == "$.supportedInterfaces[0].url"


def test_grpc_host_port_is_no_relative_url():
    doc = card(V1)
    doc["supportedInterfaces"].append({"url": "agent.example:50051", "protocolBinding": "GRPC", "protocolVersion": "1.0"})
    assert findings(doc) == []


def test_duplicate_interfaces():
    doc = card(V1)
    doc["supportedInterfaces"].append(dict(doc["supportedInterfaces"][0], url="https://agent.example/rpc/"))
    f = one(doc, "duplicate-interface")
    assert (f.severity, f.path) == ("warning", "$.supportedInterfaces[2]") and "supportedInterfaces[0]" in f.message
    v0 = card(V0, additionalInterfaces=[{"url": "https://agent.example/rpc", "transport": "JSONRPC"}] * 2)
    assert one(v0, "duplicate-interface").path == "$.additionalInterfaces[1]"


def test_security_requirement_naming_an_undefined_scheme():
    f = one(card(V1, securityRequirements=[{"schemes": {"berer": {"list": []}}}]), "undefined-scheme")
    assert (f.severity, f.path) == ("error", "$.securityRequirements[0].schemes.berer") and "did you mean 'bearer'" in f.message
    f = one(card(V0, security=[{"oauth": []}]), "undefined-scheme")
    assert f.path == "$.security[0].oauth"
    doc = card(V0)
    doc["skills"][0]["security"] = [{"nope": []}]
    assert one(doc, "undefined-scheme").path == "$.skills[0].security[0].nope"


@pytest.mark.parametrize("base", [V1, V0], ids=["v1", "v0"])
def test_skill_without_examples_or_input_modes(base):
    doc = card(base)
    del doc["skills"][0]["examples"], doc["skills"][0]["inputModes"]
    # issue 45: examples are optional in both versions: information, never a warning (card.valid passes)
    assert ("info", "$.skills[0]", "skill-examples") in findings(doc)
    assert ("info", "$.skills[0]", "skill-input-modes") in findings(doc)
    assert validate_card(doc, None).warnings == 0


def test_oauth2_without_token_url():
    v1 = card(V1, securitySchemes={"o": {"oauth2SecurityScheme": {"flows": {"clientCredentials": {"scopes": {}}}}}}, securityRequirements=None)
    f = one(v1, "oauth2-token-url")
    assert (f.severity, f.path) == ("error", "$.securitySchemes.o.oauth2SecurityScheme.flows.clientCredentials.tokenUrl")
    v0 = card(V0, securitySchemes={"o": {"type": "oauth2", "flows": {"clientCredentials": {"scopes": {}}}}}, security=None)
    assert one(v0, "oauth2-token-url").path == "$.securitySchemes.o.flows.clientCredentials.tokenUrl"
    empty = card(V0, securitySchemes={"o": {"type": "oauth2", "flows": {}}}, security=None)
    assert one(empty, "oauth2-token-url").path == "$.securitySchemes.o.flows"


def test_v1_oauth_flows_are_a_oneof():
    flows = {"clientCredentials": {"tokenUrl": "https://a/t", "scopes": {}}, "authorizationCode": {"authorizationUrl": "https://a/a", "tokenUrl": "https://a/t", "scopes": {}}}
    f = one(card(V1, securitySchemes={"o": {"oauth2SecurityScheme": {"flows": flows}}}, securityRequirements=None), "schema")
    assert "exactly one" in f.message


def test_v1_security_scheme_spelt_the_v0_way():
    """Issue 24: many 1.0 cards carry the 0.3 form; read, and warned as not the version's own."""
    doc = card(V1, securitySchemes={"bearer": {"type": "http", "scheme": "Bearer"}})
    f = one(doc, "scheme-shape")
    assert f.severity == "warning" and "'httpAuthSecurityScheme'" in f.message and f.path == "$.securitySchemes.bearer"
    assert [r for r in findings(doc) if r[0] == "error"] == []


JS_CASE = {"scheme": {"$case": "apiKeySecurityScheme", "value": {"description": "k", "location": "header", "name": "X-Echo-Key"}}}


@pytest.mark.parametrize("base", ["V1", "V0"])
def test_security_scheme_in_the_a2a_js_internal_form_is_warned_and_read(base):
    """Issue 24: cards built from @a2a-js/sdk 1.x objects serve {scheme: {$case, value}}."""
    doc = card(V1 if base == "V1" else V0, securitySchemes={"bearer": JS_CASE})
    f = one(doc, "scheme-shape")
    assert f.severity == "warning" and "$case: 'apiKeySecurityScheme'" in f.message
    assert [r for r in findings(doc) if r[0] == "error"] == []
    bad = card(V1, securitySchemes={"bearer": {"scheme": {"$case": "apiKeySecurityScheme", "value": {"location": "header"}}}})
    assert one(bad, "scheme-shape") and [r for r in findings(bad) if r[0] == "error"]  # the content is still checked (no name)


def test_v0_card_with_a_v1_scheme_is_warned():
    doc = card(V0, securitySchemes={"bearer": {"apiKeySecurityScheme": {"location": "header", "name": "X-K"}}})
    assert one(doc, "scheme-shape").severity == "warning"
    assert [r for r in findings(doc) if r[0] == "error"] == []


def test_v0_url_disagreeing_with_its_preferred_transport_interface():
    doc = card(V0, additionalInterfaces=[{"url": "https://agent.example/a2a/jsonrpc", "transport": "JSONRPC"}, {"url": "https://agent.example/rest", "transport": "HTTP+JSON"}])
    f = one(doc, "preferred-url")
    assert (f.severity, f.path) == ("error", "$.url") and "additionalInterfaces[0]" in f.message
    ok = card(V0, additionalInterfaces=[{"url": "https://agent.example/rpc", "transport": "JSONRPC"}, {"url": "https://agent.example/rest", "transport": "HTTP+JSON"}])
    assert findings(ok) == []


def test_v1_card_leaking_kind():
    doc = card(V1, kind="agent-card")
    doc["skills"][0]["kind"] = "skill"
    rules = [r for r in findings(doc) if r[2] == "v1-kind"]
    assert sorted(rules) == [("warning", "$.kind", "v1-kind"), ("warning", "$.skills[0].kind", "v1-kind")]


def test_v0_card_with_a_v1_only_field():
    f = one(card(V0, capabilities={"extendedAgentCard": True}), "other-version-field")
    assert f.path == "$.capabilities.extendedAgentCard"


def test_unknown_field_is_information_with_the_nearest_name():
    f = one(card(V1, documentationURL="https://x"), "unknown-field")
    assert f.severity == "info" and "did you mean 'documentationUrl'" in f.message


def test_old_protocol_version_is_noted():
    assert ("info", "$.protocolVersion", "old-version") in findings(card(V0, protocolVersion="0.2.5"))


def test_not_an_object():
    report = validate_card(["x"])
    assert [(f.severity, f.path) for f in report.findings] == [("error", "$")]


def test_findings_are_ordered_by_severity():
    doc = card(V1, description=None, documentationURL="x")
    del doc["skills"][0]["examples"]
    severities = [f.severity for f in validate_card(doc, CARD_URL).findings]
    assert severities == sorted(severities, key=["error", "warning", "info"].index)


@pytest.mark.parametrize("where", ["header", "cookie"])
@pytest.mark.parametrize("bad", ["X API Key", "X-Key:", "X\nKey", ""])
def test_an_api_key_name_http_cannot_carry_is_an_error(where, bad):
    """Issue 42: `a2a` refuses to send the key under such a name (wire.headers), so the card is broken."""
    v1 = card(V1, securitySchemes={"k": {"apiKeySecurityScheme": {"location": where, "name": bad}}}, securityRequirements=None)
    f = one(v1, "api-key-name")
    assert (f.severity, f.path) == ("error", "$.securitySchemes.k.apiKeySecurityScheme.name")
    assert f"is no {where} name" in f.message and "\n" not in f.message
    v0 = card(V0, securitySchemes={"k": {"type": "apiKey", "in": where, "name": bad}}, security=None)
    assert one(v0, "api-key-name").path == "$.securitySchemes.k.name"


def test_an_api_key_in_the_query_may_have_any_name():
    v1 = card(V1, securitySchemes={"k": {"apiKeySecurityScheme": {"location": "query", "name": "api key"}}}, securityRequirements=None)
    assert "api-key-name" not in [f.rule for f in validate_card(v1, CARD_URL).findings]


def test_check_card_says_the_bad_header_name(cli, tmp_path):
    import json

    path = tmp_path / "card.json"
    path.write_text(json.dumps(card(V1, securitySchemes={"k": {"apiKeySecurityScheme": {"location": "header", "name": "X API Key"}}}, securityRequirements=None)))
    result = cli("check", "card", str(path))
    assert result.exit_code == 1, result.stdout + result.stderr
    assert "card valid: 0 errors" not in result.stdout + result.stderr
    assert "$.securitySchemes.k.apiKeySecurityScheme.name" in result.stdout + result.stderr


@pytest.mark.parametrize("name", ["Content-Length", "Transfer-Encoding"])
def test_an_api_key_in_a_framing_header_is_an_error(name):
    """Issue 42: `a2a` refuses to send the key in a header that frames the body (wire.headers.FRAMING)."""
    v1 = card(V1, securitySchemes={"k": {"apiKeySecurityScheme": {"location": "header", "name": name}}}, securityRequirements=None)
    f = one(v1, "api-key-name")
    assert f.severity == "error" and "frames the body" in f.message
    cookie = card(V1, securitySchemes={"k": {"apiKeySecurityScheme": {"location": "cookie", "name": name}}}, securityRequirements=None)
    assert "api-key-name" not in [f.rule for f in validate_card(cookie, CARD_URL).findings]


def test_check_card_of_a_url_loads_the_http_stack_first_and_of_a_file_not(respx_mock, tmp_path, monkeypatch):
    """`a2a check card URL` fetches the card over HTTP: httpx and httpcore are loaded from the
    check's first frames (transport.load, as a live check does; a chunk mapped and unmapped 773
    times, now 64); `a2a check card FILE` sends nothing and loads neither."""
    import json

    from a2a_testkit import AGENT, v1_card

    from a2acli import transport
    from a2acli.check.run import gather
    from a2acli.flows.invocation import Invocation

    loads: list[int] = []
    monkeypatch.setattr(transport, "load", lambda: loads.append(1))
    respx_mock.get(f"{AGENT}/.well-known/agent-card.json").respond(json=v1_card())
    opts = Invocation({"output": "json"}).options()
    fetched = gather(["card", AGENT], opts, lambda _: None, read_only=True)
    assert loads == [1] and fetched.checks
    loads.clear()
    card = tmp_path / "card.json"
    card.write_text(json.dumps(v1_card()))
    from_file = gather(["card", str(card)], opts, lambda _: None, read_only=True)
    assert loads == [] and from_file.checks
