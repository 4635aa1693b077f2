"""Issue 14, section 4: secrets never leak. Known secrets are planted in every input (--bearer,
--api-key, --basic, an OAuth2 token, push tokens, -H values, URL userinfo) and every stream and
every file written is grepped for them as written, JSON-escaped, URL-encoded and base64."""

from __future__ import annotations

import base64
import json
import stat
import sys
from pathlib import Path
from urllib.parse import quote, quote_plus

import httpx
import pytest
from a2a_testkit import AGENT, ANY_CREDENTIAL, RPC, rpc_result, sse, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
TOKEN_URL = "https://idp.test/oauth/token"
V1_TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}

S = {
    "bearer": "bear-S3cret/+=1",
    "api_key": 'key-S3cret-"2"',
    "basic": "pw-S3cret&3",
    "access": "hkey-S3cret-4",  # -H X-Access-Key: a name no list knows
    "custom": "cust-S3cret-5",  # -H X-Custom: unknown names are secret too
    "push": "push-S3cret-6",
    "oauth": "oauth-S3cret-7",
    "client": "client-S3cret-8",
    "userinfo": "ui-S3cret-9",
}
ARGS = [
    "--bearer",
    S["bearer"],
    "--api-key",
    S["api_key"],
    "-H",
    f"X-Access-Key: {S['access']}",
    "-H",
    f"X-Custom: {S['custom']}",
]


def leaked_forms(secret: str) -> set[str]:
    raw = secret.encode()
    return {
        secret,
        json.dumps(secret)[1:-1],
        quote(secret, safe=""),
        quote_plus(secret),
        base64.b64encode(raw).decode(),
        base64.b64encode(raw).decode().rstrip("="),
    }


def assert_nowhere(streams: dict[str, str], secrets: tuple[str, ...]) -> None:
    for where, text in streams.items():
        for secret in secrets:
            for form in leaked_forms(secret):
                assert form not in text, f"{secret!r} leaked into {where} as {form!r}"


def everything(result, *dirs: Path) -> dict[str, str]:
    out = {"stdout": result.stdout, "stderr": result.stderr}
    for d in dirs:
        for p in d.rglob("*"):
            if p.is_file():
                out[str(p)] = p.read_bytes().decode("utf-8", "replace")
    return out


@pytest.fixture
def agent(respx_mock):
    respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes=ANY_CREDENTIAL))
    return respx_mock


def echo_error(*secrets: str) -> dict:
    """A JSON-RPC error whose message and `data` echo the credentials of the run back."""
    first = secrets[0]
    return {
        "jsonrpc": "2.0",
        "id": 1,
        "error": {
            "code": -32602,
            "message": f"bad token {first}",
            "data": {"seen": list(secrets), "nested": [{"h": f"Bearer {first}"}]},
        },
    }


PLANTED = ("bearer", "api_key", "access", "custom", "push")


@pytest.mark.spec("A2ACLI_AUTH_004")
@pytest.mark.parametrize("output", ["text", "json"])
def test_an_error_echoing_every_secret_leaks_none(cli, agent, tmp_path, output):
    agent.post(RPC).respond(json=echo_error(*(S[k] for k in PLANTED)))
    dump = tmp_path / "dump"
    result = cli(
        "send",
        "hi",
        "--push-url",
        "https://cb.example/h",
        "--push-token",
        S["push"],
        "-u",
        AGENT,
        "-o",
        output,
        "--debug",
        "--dump",
        str(dump),
        *ARGS,
    )
    assert result.exit_code == 1
    assert "InvalidParamsError" in (result.stdout + result.stderr)
    if output == "json":
        err = json.loads(result.stdout)["error"]
        assert err["data"]["seen"] == ["<redacted>"] * len(PLANTED) and err["message"].endswith("bad token <redacted>")
    assert_nowhere(everything(result, dump), tuple(S[k] for k in PLANTED))
    head = next(dump.glob("*SendMessage.request.http")).read_text()
    assert "X-Access-Key: <redacted>" in head and "X-Custom: <redacted>" in head  # values, not names


@pytest.mark.spec("A2ACLI_AUTH_004")
def test_basic_and_the_oauth_token_and_client_secret(cli, respx_mock, tmp_path, monkeypatch):
    cfg = tmp_path / "config.toml"
    cfg.write_text(
        f'[profiles.p.auth]\ntoken-url = "{TOKEN_URL}"\nclient-id = "cli"\nclient-secret = "{S["client"]}"\n'
    )
    cfg.chmod(0o600)
    monkeypatch.setenv("A2ACLI_GLOBAL_CONFIG", str(cfg))
    respx_mock.post(TOKEN_URL).respond(json={"access_token": S["oauth"], "token_type": "bearer", "expires_in": 3600})
    respx_mock.get(CARD_URL).respond(json=v1_card(securitySchemes=ANY_CREDENTIAL))
    respx_mock.post(RPC).mock(
        side_effect=[
            httpx.Response(200, json=echo_error(S["oauth"], S["client"])),
            httpx.Response(200, json=echo_error(S["basic"], f"alice:{S['basic']}")),
        ]
    )
    dump = tmp_path / "dump"
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--profile", "p", "--debug", "--dump", str(dump))
    assert result.exit_code == 1
    basic = cli(
        "tasks", "get", "t-1", "-u", AGENT, "--basic", f"alice:{S['basic']}", "--debug", "--dump", str(tmp_path / "d2")
    )
    assert basic.exit_code == 1
    assert_nowhere(everything(result, dump), (S["oauth"], S["client"]))
    assert_nowhere(everything(basic, tmp_path / "d2"), (S["basic"], f"alice:{S['basic']}"))


def chunked(body: bytes, *cuts: int) -> httpx.Response:
    pieces = [body[a:b] for a, b in zip((0, *cuts), (*cuts, len(body)), strict=True)]
    return httpx.Response(200, headers={"Content-Type": "text/event-stream"}, content=iter(pieces))


@pytest.mark.spec("A2ACLI_AUTH_004")
def test_a_secret_split_across_chunks_of_a_stream_stays_out_of_the_raw_body(cli, agent, tmp_path):
    body = sse({"task": V1_TASK | {"metadata": {"echo": S["bearer"], "h": S["access"]}}})
    a, b = body.index(S["bearer"].encode()) + 4, body.index(S["access"].encode()) + 1
    agent.post(RPC).mock(return_value=chunked(body, a, a + 3, b))
    dump = tmp_path / "dump"
    result = cli("stream", "hi", "-u", AGENT, "--dump", str(dump), *ARGS)
    assert result.exit_code == 0, result.stderr
    raw = next(dump.glob("*.response.body")).read_text()
    assert raw.count("<redacted>") == 2 and raw.endswith("\n\n")  # everything else written, to the last byte
    assert_nowhere(everything(result, dump), tuple(S[k] for k in ("bearer", "api_key", "access", "custom")))


def test_url_userinfo_stays_out_of_the_debug_line_and_the_dump_index(cli, respx_mock, tmp_path):
    respx_mock.post(RPC).respond(json=rpc_result(V1_TASK))
    dump = tmp_path / "dump"
    endpoint = f"http://bob:{S['userinfo']}@agent.test/rpc"
    result = cli("tasks", "get", "t-1", "--endpoint", endpoint, "--debug", "--dump", str(dump))
    assert result.exit_code == 0, result.stderr
    assert "> POST http://bob:<redacted>@agent.test/rpc" in result.stderr
    assert "bob:<redacted>@" in (dump / "index.jsonl").read_text()
    assert_nowhere(everything(result, dump), (S["userinfo"], f"bob:{S['userinfo']}"))


@pytest.mark.parametrize("header", ["Authorization Bearer SECRETVALUE", "Authorization=SECRETVALUE", "SECRETVALUE"])
def test_a_malformed_header_is_not_echoed(cli, header):
    for output in ("text", "json"):
        result = cli("tasks", "get", "t-1", "-u", AGENT, "-H", header, "-o", output)
        assert result.exit_code == 2
        assert "SECRETVALUE" not in result.stdout + result.stderr
        assert "is not 'Name: value'" in result.stdout + result.stderr


@pytest.mark.spec("A2ACLI_AUTH_004")
def test_debug_traceback_redacts_chained_exceptions(cli, respx_mock):
    respx_mock.post(RPC).mock(side_effect=httpx.LocalProtocolError(f"Illegal header value b'Bearer {S['bearer']}'"))
    result = cli("tasks", "get", "t-1", "--endpoint", RPC, "--debug", *ARGS)
    assert result.exit_code == 3
    assert "Traceback (most recent call last)" in result.stderr and "LocalProtocolError" in result.stderr
    assert_nowhere(everything(result), tuple(S[k] for k in ("bearer", "api_key", "access", "custom")))


def test_the_internal_error_traceback_is_redacted_too(capsys):
    from a2acli.flows.boundary import redacted_excepthook
    from a2acli.redact import Redactor

    try:
        try:
            raise ValueError(f"Illegal header value b'{S['bearer']}'")
        except ValueError:
            raise RuntimeError("boom")  # noqa: B904 - the chained one is what is checked
    except RuntimeError as e:
        redacted_excepthook(Redactor({S["bearer"]}))(type(e), e, e.__traceback__)
    err = capsys.readouterr().err
    assert "ValueError" in err and "RuntimeError: boom" in err
    assert_nowhere({"stderr": err}, (S["bearer"],))


def test_dump_files_and_directories_are_private(cli, agent, tmp_path):
    agent.post(RPC).respond(content=sse({"task": V1_TASK}), headers={"Content-Type": "text/event-stream"})
    dump = tmp_path / "new" / "dump"
    result = cli("stream", "hi", "-u", AGENT, "--dump", str(dump))
    assert result.exit_code == 0, result.stderr
    assert stat.S_IMODE(dump.stat().st_mode) == 0o700
    files = list(dump.iterdir())
    assert len(files) > 5 and all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in files)


@pytest.mark.spec("A2ACLI_CONFIG_001")
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")
@pytest.mark.parametrize(("mode", "warned"), [(0o644, True), (0o640, True), (0o600, False)])
def test_a_config_file_others_can_read_that_holds_a_secret_is_warned_about(
    cli, respx_mock, tmp_path, monkeypatch, mode, warned
):
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'default-profile = "p"\n[profiles.p]\nbearer = "{S["bearer"]}"\n')
    cfg.chmod(mode)
    monkeypatch.setenv("A2ACLI_GLOBAL_CONFIG", str(cfg))
    result = cli("tasks", "get", "t-1", "-u", AGENT, "--offline")
    assert result.exit_code == 0, result.stderr
    assert ("readable by others" in result.stderr and "chmod 600" in result.stderr) is warned
    assert_nowhere(everything(result), (S["bearer"],))
    no_secret = tmp_path / "plain.toml"
    no_secret.write_text('[profiles.p]\nurl = "http://agent.test"\n')
    no_secret.chmod(0o644)
    monkeypatch.setenv("A2ACLI_GLOBAL_CONFIG", str(no_secret))
    assert "readable by others" not in cli("tasks", "get", "t-1", "--profile", "p", "--offline").stderr


def test_the_stream_redactor_finds_a_secret_at_any_cut():
    from a2acli.redact import Redactor, StreamRedactor

    r = Redactor({"SECRET-abc", "other-xyz"})
    text = b"head SECRET-abc mid other-xyz SECRET-abcSECRET-abc tail"
    for size in range(1, len(text) + 1):
        s = StreamRedactor(r)
        out = b"".join(s.feed(text[i : i + size]) for i in range(0, len(text), size)) + s.flush()
        assert out == r.bytes(text), size


def test_grpc_dumps_mask_secrets_before_base64():
    from a2acli.redact import Redactor

    r = Redactor({"push-S3cret-6"})
    data = b"\x0a\x0dpush-S3cret-6\x10\x01"
    masked = r.mask(data)
    assert len(masked) == len(data) and b"S3cret" not in masked
    assert_nowhere({"b64": base64.b64encode(masked).decode()}, ("push-S3cret-6",))
