"""The names the official A2A CLI spec uses, accepted beside ours: `-a/--agent-card` and its
reference forms, `--history`, `--no-wait`/`--return-immediately`, `--watch`, `-v`, `a2a help`,
`--data FILE`, `card get --extended`, `--svc-param` and `--extension` (service parameters), the
spec's environment names, and the effective defaults in `--help`."""

from __future__ import annotations

import json
import os
from pathlib import Path

import httpx
import pytest
from a2a_testkit import AGENT, RPC, clean_env, rpc_result, v1_card

from a2acli.net import agent_reference

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}
ENDPOINT = ["--endpoint", "http://agent.test/rpc", "--request-id", "req-1"]
GOLDEN = Path(__file__).parent.parent / "golden" / "offline-service-params"


def offline_raw(cli, *args: str) -> dict:
    result = cli(*args, *ENDPOINT, "--offline", "-o", "raw")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


# -- -a/--agent-card and the forms of a card reference ---------------------------------------------


@pytest.mark.spec("A2ACLI_CARD_GET_001")
@pytest.mark.parametrize("flag", ["-a", "--agent-card", "-u", "--url"])
def test_agent_card_is_an_alias_of_url(cli, respx_mock, flag):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    result = cli("card", "get", flag, AGENT, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["name"] == "Test agent"


@pytest.mark.spec("A2ACLI_CARD_GET_001")
def test_agent_card_before_the_command(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    rpc = respx_mock.post(RPC).respond(json=rpc_result(TASK))
    result = cli("-a", AGENT, "task", "get", "t-1", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert rpc.called and json.loads(result.stdout) == TASK


@pytest.mark.spec("A2ACLI_CARD_GET_001")
@pytest.mark.parametrize("env", ["A2ACLI_AGENT_CARD", "A2ACLI_URL"])
def test_agent_card_from_the_environment(cli, respx_mock, env):
    respx_mock.get("http://127.0.0.1:41241/.well-known/agent-card.json").respond(json=v1_card())
    result = cli("card", "get", "-o", "json", env={env: "127.0.0.1:41241"})
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["name"] == "Test agent"


def test_the_url_env_var_wins_over_the_agent_card_one(cli, respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card())
    result = cli("card", "get", "-o", "json", env={"A2ACLI_URL": AGENT, "A2ACLI_AGENT_CARD": "http://other.test"})
    assert result.exit_code == 0, result.stderr


def test_config_show_names_the_agent_card_env_var(cli):
    result = cli("config", "show", "-o", "json", env={"A2ACLI_AGENT_CARD": "http://agent.test"})
    assert result.exit_code == 0, result.stderr
    assert "A2ACLI_AGENT_CARD" in result.stdout and "http://agent.test" in result.stdout


@pytest.mark.spec("A2ACLI_CARD_GET_001")
@pytest.mark.parametrize(
    "given,fetched",
    [
        ("agent.test", "https://agent.test/.well-known/agent-card.json"),  # a bare host: https (issue 35)
        ("agent.test:8080", "https://agent.test:8080/.well-known/agent-card.json"),
        ("127.0.0.1:41241", "http://127.0.0.1:41241/.well-known/agent-card.json"),
        ("localhost:41241/a2a", "http://localhost:41241/a2a/.well-known/agent-card.json"),
        ("https://agent.test", "https://agent.test/.well-known/agent-card.json"),
        ("https://agent.test/cards/me.json", "https://agent.test/cards/me.json"),
    ],
)
def test_a_bare_host_is_https_loopback_http_and_an_origin_gets_the_well_known_path(cli, respx_mock, given, fetched):
    respx_mock.get("http://localhost:41241/a2a").respond(404)  # a URL with a path is tried as-is first
    route = respx_mock.get(fetched).respond(json=v1_card())
    result = cli("card", "get", "-a", given, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert route.called


@pytest.mark.spec("A2ACLI_CARD_GET_001")
@pytest.mark.parametrize("path", ["/agentcard", "/cards/support.txt", "/v1/card?tenant=a"])
def test_a_full_card_url_is_used_as_is_whatever_its_name(cli, respx_mock, path):
    route = respx_mock.get(f"https://agent.test{path}").respond(json=v1_card(name="As is"))
    result = cli("card", "get", "-a", f"https://agent.test{path}", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert route.call_count == 1 and json.loads(result.stdout)["name"] == "As is"


def test_a_url_with_a_path_that_is_no_card_is_where_the_agent_is_mounted(cli, respx_mock):
    respx_mock.get("https://agent.test/a2a").respond(json={"status": "ok"})  # JSON, but no card
    under = respx_mock.get("https://agent.test/a2a/.well-known/agent-card.json").respond(json=v1_card(name="Mounted"))
    result = cli("card", "get", "-a", "https://agent.test/a2a", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert under.called and json.loads(result.stdout)["name"] == "Mounted"


@pytest.mark.spec("A2ACLI_CARD_GET_001")
@pytest.mark.parametrize("form", ["absolute", "relative", "file-uri", "no-suffix", "home"])
def test_a_local_card_file_is_read_and_its_interface_called(cli, respx_mock, tmp_path, monkeypatch, form):
    card = tmp_path / ("agent-card" if form == "no-suffix" else "card.json")
    card.write_text(json.dumps(v1_card()))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    given = {"absolute": str(card), "relative": card.name, "file-uri": card.as_uri(), "no-suffix": str(card), "home": "~/card.json"}[form]
    rpc = respx_mock.post(RPC).respond(json=rpc_result(TASK))  # no card fetch: the file's interface
    result = cli("task", "get", "t-1", "-a", given, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert rpc.called and json.loads(result.stdout) == TASK


def test_agent_reference_forms(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "agent.test").write_text("{}")  # a file wins over a host of the same name
    assert agent_reference("agent.test") == (tmp_path / "agent.test").resolve().as_uri()
    assert agent_reference("[::1]:8080") == "http://[::1]:8080"
    assert agent_reference("host.example.") == "https://host.example."
    assert agent_reference("127.1.2.3") == "http://127.1.2.3" and agent_reference("LOCALHOST:1") == "http://LOCALHOST:1"
    assert agent_reference("missing.json") == "missing.json"  # a card file to read (and say it is missing)
    assert agent_reference("./missing") == (tmp_path / "missing").as_uri()  # spelt as a path: a card file (missing: exit 3)
    assert agent_reference("http://x/a.json") == "http://x/a.json"
    assert agent_reference("bad host") == "bad host"


@pytest.mark.parametrize(
    "given,says",
    [
        ("bad host", "holds a space"),
        ("localhost:99999", "its port is not a number"),
        ("ftp://agent.test", "is not an http(s) URL"),
    ],
)
def test_a_reference_that_is_nothing_is_a_usage_error(cli, tmp_path, monkeypatch, given, says):
    monkeypatch.chdir(tmp_path)
    result = cli("card", "get", "-a", given)
    assert result.exit_code == 2, result.stdout
    assert says in result.stderr and "hint:" in result.stderr


@pytest.mark.parametrize("given", ["./missing", "/no/such/card", "missing.json", "~/no-such-card.json"])
def test_a_path_with_no_card_there_is_card_not_found_exit_3(cli, tmp_path, monkeypatch, given):
    monkeypatch.chdir(tmp_path)
    result = cli("card", "get", "-a", given, "-o", "json")
    assert result.exit_code == 3, result.stdout
    assert json.loads(result.stdout)["error"]["code"] == "A2ACLI_ERR_CARD_NOT_FOUND"
    assert "cannot read the card file" in json.loads(result.stdout)["error"]["message"]


def test_help_names_agent_card_and_its_env(cli):
    result = cli("help", "options")  # the shared options, folded in `card get --help`
    assert result.exit_code == 0
    assert "-u/--url" in cli("card", "get", "--help").stdout
    for word in ("--agent-card", "-a", "A2ACLI_AGENT_CARD", "host[:port]", "file://"):
        assert word in result.stdout, word


# -- --history, --no-wait / --return-immediately, --watch ------------------------------------------------


@pytest.mark.spec("A2ACLI_TASK_GET_001")
@pytest.mark.parametrize("flag", ["--history", "--history-length"])
@pytest.mark.parametrize("command", [["task", "get", "t-1"], ["tasks", "list"]])
def test_history_is_history_length(cli, flag, command):
    params = offline_raw(cli, *command, flag, "3")["params"]
    assert params["historyLength"] == 3


def test_history_on_send(cli):
    params = offline_raw(cli, "send", "hi", "--history", "2")["params"]
    assert params["configuration"]["historyLength"] == 2


def test_history_takes_no_negative_number(cli):
    result = cli("task", "get", "t-1", "--history", "-1", *ENDPOINT, "--offline")
    assert result.exit_code == 2


@pytest.mark.spec("A2ACLI_SEND_002")
@pytest.mark.parametrize("flag", ["--async", "--no-wait", "--return-immediately"])
@pytest.mark.parametrize("version,field,value", [("1.0", "returnImmediately", True), ("0.3", "blocking", False)])
def test_no_wait_and_return_immediately_are_async(cli, flag, version, field, value):
    params = offline_raw(cli, "send", "hi", flag, "--a2a-version", version)["params"]
    assert params["configuration"][field] is value


@pytest.mark.spec("A2ACLI_TASK_POLL_002", "A2ACLI_DEFAULT_001")
@pytest.mark.parametrize("version,field,value", [("1.0", "returnImmediately", True), ("0.3", "blocking", False)])
def test_the_default_send_is_one_blocking_call_and_follow_returns_immediately(cli, version, field, value):
    # the default send is one blocking SendMessage, exactly what was typed (issue 21); --wait and
    # --blocking-call say that default explicitly; --follow asks the agent to answer at once
    for flag in ([], ["--wait"], ["--blocking-call"]):
        assert "configuration" not in offline_raw(cli, "send", "hi", *flag, "--a2a-version", version)["params"]
    assert offline_raw(cli, "send", "hi", "--follow", "--a2a-version", version)["params"]["configuration"] == {field: value}


@pytest.mark.spec("A2ACLI_SEND_002")
@pytest.mark.parametrize("flags,said", [
    (["--wait", "--async"], "--wait and --async contradict each other"),
    (["--wait", "--no-wait"], "--wait and --async contradict each other"),
    (["--blocking-call", "--return-immediately"], "--blocking-call and --async contradict each other"),
    (["--blocking-call", "--stream"], "--blocking-call applies to send without --stream"),
    (["--follow", "--no-wait"], "--follow and --async contradict each other"),
    (["--follow", "--stream"], "--follow applies to send without --stream"),
    (["--stream", "--async"], "--stream and --async contradict each other"),
    (["--stream", "--no-wait"], "--stream and --async contradict each other"),
])
def test_wait_and_async_are_a_usage_error(cli, flags, said):
    result = cli("send", "hi", *flags, *ENDPOINT, "--offline")
    assert result.exit_code == 2 and said in result.stderr
    assert result.stdout == ""  # nothing built, nothing sent


@pytest.mark.spec("A2ACLI_TASK_POLL_001")
@pytest.mark.parametrize("flag", ["--wait", "--watch"])
def test_watch_is_wait(cli, respx_mock, flag):
    working = {**TASK, "status": {"state": "TASK_STATE_WORKING"}}
    rpc = respx_mock.post(RPC).mock(side_effect=[httpx.Response(200, json=rpc_result(working)), httpx.Response(200, json=rpc_result(TASK))])
    respx_mock.get(CARD_URL).respond(json=v1_card())
    result = cli("task", "get", "t-1", flag, "--poll-interval", "0.05", "-a", AGENT, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert rpc.call_count == 2 and json.loads(result.stdout)["status"]["state"] == "TASK_STATE_COMPLETED"


# -- -v/--version and `a2a help` ---------------------------------------------------------------------


@pytest.mark.spec("A2ACLI_CLI_001")
@pytest.mark.parametrize("flag", ["-v", "--version", "-V"])
def test_version_flags(cli, flag):
    from a2acli import __version__

    result = cli(flag)
    assert result.exit_code == 0
    assert result.stdout == f"a2a {__version__}\n"


@pytest.mark.spec("A2ACLI_CLI_001")
@pytest.mark.parametrize("words", [["send"], ["card", "fetch"], ["card", "get"], ["task", "get"], ["tasks", "push-config", "create"], ["config"], ["help"]])
def test_help_command_prints_the_usage_of_the_command(cli, words):
    via_help = cli("help", *words)
    direct = cli(*words, "--help")
    assert via_help.exit_code == 0 and direct.exit_code == 0
    assert via_help.stdout == direct.stdout
    assert f"Usage: a2a {' '.join(words)}" in via_help.stdout


@pytest.mark.spec("A2ACLI_CLI_001")
def test_help_alone_is_the_top_level_help_and_lists_help(cli):
    via_help = cli("help")
    assert via_help.exit_code == 0
    assert via_help.stdout == cli("--help").stdout
    assert "help" in via_help.stdout and "Show the usage of a2a" in via_help.stdout


@pytest.mark.spec("A2ACLI_CLI_001")
@pytest.mark.parametrize(
    "words,says,hint",
    [
        (["sned"], "no command 'sned'", "did you mean `a2a help send`?"),
        (["nosuch"], "no command 'nosuch'", "`a2a help` lists the commands"),
        (["card", "fecth"], "no such command 'fecth'", "fetch"),
    ],
)
def test_help_of_an_unknown_command_is_a_usage_error(cli, words, says, hint):
    result = cli("help", *words)
    assert result.exit_code == 2
    assert says in result.stderr and hint in result.stderr
    assert result.stdout == ""


def test_help_of_an_unknown_command_under_json_is_the_envelope(cli):
    result = cli("-o", "json", "help", "nosuch")
    assert result.exit_code == 2
    assert "no command 'nosuch'" in json.loads(result.stdout)["error"]["message"]


# -- --data FILE ------------------------------------------------------------------------------------


@pytest.mark.spec("A2ACLI_SEND_006")
def test_data_names_a_file(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d.json").write_text('{"a": 1}')
    (tmp_path / "list.json").write_text("[1, 2]")
    parts = offline_raw(cli, "send", "--data", "d.json", "--text", "between", "--data", str(tmp_path / "list.json"), "--data", "@d.json")["params"]["message"]["parts"]
    assert parts == [{"data": {"a": 1}}, {"text": "between"}, {"data": [1, 2]}, {"data": {"a": 1}}]


@pytest.mark.spec("A2ACLI_SEND_005")
def test_media_type_binds_to_a_data_file_given_by_its_path(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d.json").write_text('{"a": 1}')
    parts = offline_raw(cli, "send", "--text", "t", "--data", "d.json", "--media-type", "application/vnd.test+json")["params"]["message"]["parts"]
    assert parts == [{"text": "t"}, {"data": {"a": 1}, "mediaType": "application/vnd.test+json"}]
    early = cli("send", "--media-type", "text/plain", "--data", "d.json", *ENDPOINT, "--offline")
    assert early.exit_code == 2 and "--media-type text/plain comes before any part" in early.stderr
    # positional TEXT is no part flag: a media type in front of it (or after it) binds to nothing
    for argv in (["--media-type", "application/pdf", "hi"], ["hi", "--media-type", "application/pdf"]):
        loose = cli("send", *argv, *ENDPOINT, "--offline")
        assert loose.exit_code == 2 and "comes before any part flag" in loose.stderr and "--text hi --media-type application/pdf" in loose.stderr
    parts = offline_raw(cli, "send", "hi", "--text", "md", "--media-type", "text/markdown")["params"]["message"]["parts"]
    assert parts == [{"text": "hi"}, {"text": "md", "mediaType": "text/markdown"}]


def test_data_that_is_json_is_json_even_when_a_file_has_that_name(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "42").write_text('{"from": "the file"}')
    parts = offline_raw(cli, "send", "--data", "42")["params"]["message"]["parts"]
    assert parts == [{"data": 42}]


@pytest.mark.spec("A2ACLI_SEND_006")
def test_data_dash_stays_stdin(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "-").write_text('{"from": "the file"}')
    result = cli("send", "--data", "-", *ENDPOINT, "--offline", "-o", "raw", input='{"from": "stdin"}')
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["params"]["message"]["parts"] == [{"data": {"from": "stdin"}}]


@pytest.mark.parametrize("value", ["{not json", "not-json-nor-a-path"])
def test_data_that_is_neither_json_nor_a_file_is_a_usage_error(cli, tmp_path, monkeypatch, value):
    monkeypatch.chdir(tmp_path)
    result = cli("send", "--data", value, *ENDPOINT, "--offline")
    assert result.exit_code == 2
    assert "--data: the argument is not valid JSON" in result.stderr


def test_a_data_file_that_is_not_json_says_which_file(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d.txt").write_text("hello")
    result = cli("send", "--data", "d.txt", *ENDPOINT, "--offline")
    assert result.exit_code == 2
    assert "--data: d.txt is not valid JSON" in result.stderr


# -- card get --extended ---------------------------------------------------------------------------------


@pytest.mark.spec("A2ACLI_CARD_GET_001")
@pytest.mark.parametrize("command", [["card", "get"], ["card", "fetch"]])
def test_card_get_is_card_fetch_and_takes_extended(cli, command):
    plain = cli(*command, "-a", AGENT, "--offline")
    assert plain.exit_code == 0, plain.stderr
    assert plain.stdout.startswith("GET http://agent.test/.well-known/agent-card.json")
    extended = cli(*command, "--extended", "--endpoint", "http://agent.test/rpc", "--offline", "-o", "raw")
    assert extended.exit_code == 0, extended.stderr
    assert json.loads(extended.stdout)["method"] == "GetExtendedAgentCard"


# -- --svc-param and --extension ----------------------------------------------------------------------


def _headers(result) -> dict[str, str]:
    head = result.stdout.split("\n\n")[0].splitlines()[1:]
    return dict(line.split(": ", 1) for line in head)


@pytest.mark.spec("A2ACLI_AUTH_001")
@pytest.mark.parametrize("given", ["traceparent=00-abc-01", "traceparent:00-abc-01", "traceparent: 00-abc-01", "traceparent = 00-abc-01"])
def test_svc_param_name_value_and_name_colon_value(cli, respx_mock, given):
    route = respx_mock.post(RPC).respond(json=rpc_result(TASK))
    result = cli("task", "get", "t-1", "--svc-param", given, *ENDPOINT)
    assert result.exit_code == 0, result.stderr
    assert route.calls.last.request.headers["traceparent"] == "00-abc-01"


@pytest.mark.spec("A2ACLI_AUTH_001")
def test_svc_params_are_repeatable_and_keep_the_first_separator(cli, respx_mock):
    route = respx_mock.post(RPC).respond(json=rpc_result(TASK))
    result = cli("task", "get", "t-1", "--svc-param", "X-Tenant=acme", "--svc-param", "X-Route:a=b:c", *ENDPOINT)
    assert result.exit_code == 0, result.stderr
    sent = route.calls.last.request.headers
    assert sent["X-Tenant"] == "acme" and sent["X-Route"] == "a=b:c"


@pytest.mark.parametrize("given", ["s3cr3t-alone", "=s3cr3t-v", ":s3cr3t-v", "X-A=s3cr3t-v\ns3cr3t-w", "X-A=s3cr3t-é"])
def test_a_bad_svc_param_is_a_usage_error_that_never_shows_the_value(cli, given):
    result = cli("task", "get", "t-1", "--svc-param", given, *ENDPOINT, "--offline")
    assert result.exit_code == 2
    assert "--svc-param" in result.stderr and "hint:" in result.stderr
    assert "s3cr3t" not in result.stderr + result.stdout


def test_a_bad_svc_param_name_is_named(cli):
    result = cli("task", "get", "t-1", "--svc-param", "bad name=v", *ENDPOINT, "--offline")
    assert result.exit_code == 2
    assert "--svc-param: 'bad name' is not a header name" in result.stderr


@pytest.mark.spec("A2ACLI_AUTH_001", "A2ACLI_AUTH_004")
@pytest.mark.parametrize("how", ["--offline", "--debug"])
def test_a_credential_looking_svc_param_is_redacted(cli, respx_mock, tmp_path, how):
    respx_mock.post(RPC).respond(json=rpc_result(TASK))
    dump = tmp_path / "dump"
    result = cli("task", "get", "t-1", "--svc-param", "X-Api-Token=sekrit-123", "--svc-param", "X-Vendor-Key:vk-secret", "--svc-param", "traceparent=00-abc-01", "--svc-param", "x-trace-id:t-77", *ENDPOINT, how, "--dump", str(dump))
    assert result.exit_code == 0, result.stderr
    seen = result.stdout + result.stderr + "".join(p.read_text() for p in dump.rglob("*") if p.is_file())
    assert "sekrit-123" not in seen and "vk-secret" not in seen
    assert "X-Api-Token: <redacted>" in seen and "X-Vendor-Key: <redacted>" in seen
    assert "traceparent: 00-abc-01" in seen and "x-trace-id: t-77" in seen  # harmless names are shown (the spec's own example)
    if how == "--debug":
        assert any(p.is_file() for p in dump.rglob("*"))


@pytest.mark.spec("A2ACLI_AUTH_001")
def test_svc_param_is_documented_as_a_service_parameter_not_authentication(cli):
    out = cli("help", "options").stdout
    panels = out.split("\n\n")
    (svc,) = [p for p in panels if p.startswith("Service parameters:")]
    (auth,) = [p for p in panels if p.startswith("Authentication")]
    assert "--svc-param" in svc and "--extension" in svc and "service parameter" in svc
    assert "--svc-param" not in auth
    assert "auth" not in svc.lower()


def test_a_header_given_with_h_wins_over_a_svc_param_of_the_same_name(cli, respx_mock):
    route = respx_mock.post(RPC).respond(json=rpc_result(TASK))
    result = cli("task", "get", "t-1", "--svc-param", "X-Team=svc", "-H", "x-team: h", *ENDPOINT)
    assert result.exit_code == 0, result.stderr
    assert route.calls.last.request.headers.get_list("x-team") == ["h"]


@pytest.mark.spec("A2ACLI_VER_002")
@pytest.mark.parametrize("version,header", [("1.0", "A2A-Extensions"), ("0.3", "X-A2A-Extensions")])
def test_extension_sends_the_versions_extensions_header(cli, respx_mock, version, header):
    route = respx_mock.post(RPC).respond(json=rpc_result({**TASK, "kind": "task", "status": {"state": "completed"}} if version == "0.3" else TASK))
    result = cli("task", "get", "t-1", "--extension", "https://ext.test/a/v1", "--extension", "urn:ext:b,https://ext.test/a/v1", "--a2a-version", version, *ENDPOINT)
    assert result.exit_code == 0, result.stderr
    sent = route.calls.last.request.headers
    assert sent[header] == "https://ext.test/a/v1,urn:ext:b"  # in order, each once
    other = "X-A2A-Extensions" if version == "1.0" else "A2A-Extensions"
    assert other not in sent


@pytest.mark.spec("A2ACLI_VER_002")
def test_extension_under_auto_follows_the_version_the_card_offers(cli, respx_mock):
    card = v1_card(supportedInterfaces=[{"url": RPC, "protocolBinding": "JSONRPC", "protocolVersion": "0.3"}])
    respx_mock.get(CARD_URL).respond(json=card)
    route = respx_mock.post(RPC).respond(json=rpc_result({**TASK, "kind": "task", "status": {"state": "completed"}}))
    result = cli("task", "get", "t-1", "--extension", "urn:ext:a", "--a2a-version", "auto", "-a", AGENT)
    assert result.exit_code == 0, result.stderr
    assert route.calls.last.request.headers["X-A2A-Extensions"] == "urn:ext:a"


@pytest.mark.parametrize("given", ["", "a b", "urn:x,,urn:y", "urn:é"])
def test_a_bad_extension_is_a_usage_error(cli, given):
    result = cli("task", "get", "t-1", "--extension", given, *ENDPOINT, "--offline")
    assert result.exit_code == 2
    assert "--extension" in result.stderr and "hint:" in result.stderr


# The whole --offline request with service parameters and extensions, over the three bindings
# under both versions (tests/golden/offline-service-params/): the names each binding and version
# sends them under.


@pytest.mark.spec("A2ACLI_VER_002", "A2ACLI_AUTH_001")
@pytest.mark.parametrize("transport", ["jsonrpc", "rest", "grpc"])
@pytest.mark.parametrize("version", ["1.0", "0.3"])
def test_offline_golden_service_params_and_extensions(cli, version, transport):
    args = ["task", "get", "t-1", "--extension", "https://ext.test/a/v1", "--extension", "urn:ext:b", "--svc-param", "traceparent=00-abc-01", "--svc-param", "X-Tenant-Key:t-secret"]
    result = cli(*args, "--request-id", "req-1", "--endpoint", "http://agent.test/api", "--transport", transport, "--a2a-version", version, "--offline")
    assert result.exit_code == 0, result.stderr
    path = GOLDEN / f"GetTask.{'v1' if version == '1.0' else 'v0'}.{transport}.http"
    if os.environ.get("A2ACLI_UPDATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(result.stdout)
    assert result.stdout == path.read_text(), f"{path.name} differs; regenerate with A2ACLI_UPDATE_GOLDEN=1 and review"
    headers = _headers(result)
    name = {"1.0": "A2A-Extensions", "0.3": "X-A2A-Extensions"}[version]
    if transport == "grpc":  # metadata keys are lowercase
        assert headers[name.lower()] == "https://ext.test/a/v1,urn:ext:b"
        assert headers["traceparent"] == "00-abc-01" and headers["x-tenant-key"] == "<redacted>"
        assert all(k == k.lower() for k in headers)
    else:
        assert headers[name] == "https://ext.test/a/v1,urn:ext:b"
        assert headers["traceparent"] == "00-abc-01" and headers["X-Tenant-Key"] == "<redacted>"
    assert "t-secret" not in result.stdout + result.stderr


def test_diff_forwards_service_params_and_extensions(cli, respx_mock):
    seen: list[httpx.Request] = []
    respx_mock.post("http://agent.test/rpc").mock(side_effect=lambda r: seen.append(r) or httpx.Response(200, json=rpc_result(TASK)))
    result = cli("diff", "--endpoint", "http://agent.test/rpc", "--svc-param", "traceparent=00-abc-01", "--extension", "urn:ext:a", "--", "task", "get", "t-1")
    assert result.exit_code in (0, 1), result.stderr
    assert len(seen) == 2
    assert all(r.headers["traceparent"] == "00-abc-01" for r in seen)
    assert seen[0].headers["A2A-Extensions"] == "urn:ext:a" and seen[1].headers["X-A2A-Extensions"] == "urn:ext:a"


# -- the spec's environment names, and defaults in --help ------------------------------------------------


def test_every_setting_env_var_is_a2acli_and_the_long_flag():
    """§5.2: `A2ACLI_` + the long flag in upper snake case (an alias names no variable of its
    own; our --url has the spec's A2ACLI_AGENT_CARD beside it)."""
    from a2acli import settings

    for name, s in settings.SETTINGS.items():
        assert s.env == "A2ACLI_" + name.upper().replace("-", "_"), name
    assert settings.SETTINGS["url"].old == "agent-card"


@pytest.mark.spec("A2ACLI_CLI_001", "A2ACLI_DEFAULT_001")
def test_help_shows_the_effective_defaults_of_the_spec(cli):
    out = " ".join((cli("send", "--help").stdout + cli("help", "options").stdout).replace("│", " ").split())
    for shown in (
        "Default: wait until the task is done or needs input",  # task completion
        "Default: the card's order",  # transport
        "(default: auto; env: A2ACLI_OUTPUT)",  # output
        "(default: 1.0; env: A2ACLI_A2A_VERSION)",  # protocol version
        "Default: certificates are verified",  # TLS
    ):
        assert shown in out, shown


# -- through the console entry point (a run builds only the command it names) --------------------------


@pytest.mark.parametrize(
    "argv,command",
    [
        (["-a", "h:1", "send", "hi"], "a2a send"),
        (["--agent-card", "h:1", "task", "get"], "a2a task get"),
        (["--svc-param", "a=b", "--extension", "urn:x", "card", "get"], "a2a card get"),
        (["-v"], None),
    ],
)
def test_the_new_root_options_take_their_value(cli, argv, command):
    """The root options that take a value take the word after them: the command is the one after."""
    result = cli(*argv, "--help")
    assert result.exit_code == 0, result.stderr
    if command:
        assert f"Usage: {command}" in result.stdout
    else:
        assert result.stdout.startswith("a2a ")


@pytest.mark.spec("A2ACLI_CLI_001")
def test_help_through_the_entry_point_shows_effective_defaults_and_stays_light(tmp_path):
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from a2acli.main import run\n"
        "sys.argv = ['a2a', 'help', 'send']\n"
        "try:\n    run()\nexcept SystemExit:\n    pass\n"
        "heavy = sorted(m for m in ('httpx', 'httpx_sse', 'pydantic') if m in sys.modules)\n"
        "print('HEAVY', heavy, file=sys.stderr)\n"
    )
    env = clean_env()
    env.update(A2ACLI_GLOBAL_CONFIG=os.devnull, A2ACLI_A2A_VERSION="0.3")
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert "HEAVY []" in proc.stderr, proc.stderr
    assert "Usage: a2a send" in proc.stdout
    assert "In effect: --a2a-version 0.3 (env A2ACLI_A2A_VERSION)." in " ".join(proc.stdout.replace("│", " ").split())


@pytest.mark.parametrize("value", ["nope.json", "./data/nope", "~/nope.json"])
def test_data_naming_a_file_that_does_not_exist_says_so(cli, tmp_path, monkeypatch, value):
    monkeypatch.chdir(tmp_path)
    result = cli("send", "--data", value, *ENDPOINT, "--offline")
    assert result.exit_code == 2 and f"--data: no such file {value}" in result.stderr and "not valid JSON" not in result.stderr
