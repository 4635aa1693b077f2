"""Shared test helpers (a module of its own, so `from a2a_testkit import …` means the same thing
whichever test directory pytest collects first)."""

from __future__ import annotations

import json
import re
from typing import Any

AGENT = "http://agent.test"
RPC = "http://agent.test/rpc"


def v1_card(url: str = RPC, **extra: Any) -> dict[str, Any]:
    card = {
        "name": "Test agent",
        "description": "for tests",
        "version": "1.0.0",
        "supportedInterfaces": [
            {"url": url, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
            {"url": url, "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
        ],
        "capabilities": {"streaming": True, "pushNotifications": True},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "echo", "name": "Echo", "description": "Repeats input", "tags": ["demo"]}],
    }
    card.update(extra)
    return card


# Security schemes of a card that takes every credential: an API key in header X-API-Key, a bearer
# token, HTTP basic, and OAuth2 (client credentials). `a2a` sends a credential only to a card that
# declares a scheme taking it (A2ACLI_AUTH_008): tests about something else use this.
ANY_CREDENTIAL: dict[str, Any] = {
    "key": {"apiKeySecurityScheme": {"location": "header", "name": "X-API-Key"}},
    "bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}},
    "basic": {"httpAuthSecurityScheme": {"scheme": "Basic"}},
    "oauth": {"oauth2SecurityScheme": {"flows": {"clientCredentials": {"tokenUrl": "https://idp.test/oauth/token", "scopes": {}}}}},
}


def rpc_result(result: Any, request_id: Any = 1) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def sse(*results: Any, error: dict[str, Any] | None = None, request_id: Any = 1) -> bytes:
    """An SSE body of JSON-RPC responses, one event each."""
    chunks = [f"data: {json.dumps(rpc_result(r, request_id))}\n\n" for r in results]
    if error:
        chunks.append(f"event: error\ndata: {json.dumps({'jsonrpc': '2.0', 'id': request_id, 'error': error})}\n\n")
    return "".join(chunks).encode()


def cli_runner(a2a_bin: list[str], url: str, *extra: str) -> Any:
    """Runs the installed `a2a ARGS… -u URL EXTRA…` apart from the user's settings; asserts the exit
    code (`check`) unless it is None."""
    import os
    import subprocess

    env = {k: v for k, v in os.environ.items() if not k.startswith("A2ACLI_")}
    env["A2ACLI_CONFIG"] = os.devnull
    env["A2ACLI_LOCAL_CONFIG"] = os.devnull  # no .env / .a2acli.toml found from the working directory

    def run(*args: str, check: int | None = 0, timeout: float = 60, input: str | None = None) -> subprocess.CompletedProcess[str]:
        argv = [*a2a_bin, *args, "-u", url, *extra]
        proc = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=timeout, input=input, stdin=None if input is not None else subprocess.DEVNULL)
        if check is not None:
            assert proc.returncode == check, f"{argv}\nexit {proc.returncode}\nstdout: {proc.stdout}\nstderr: {proc.stderr}"
        return proc

    return run


# -- the text floor --------------------------------------------------------------------------------

FIELD = re.compile(r"^([^:\s][^:]*): (.*)$")
BLOCK = re.compile(r"^([^:\s][^:]*):$")


def assert_floor(text: str) -> list[str]:
    """The text floor (official CLI spec §9.2). Every line a `Label: value` field, a block's `Label:` line, the block's (indented) content,
    or a blank line; every label from the one table; no control sequence. The labels, in order."""
    from a2acli.render.views import LABELS

    assert "\x1b" not in text and "\r" not in text
    labels: list[str] = []
    in_block = False
    lines = text.split("\n")
    assert lines[-1] == "", "output ends with a newline"
    for n, line in enumerate(lines[:-1]):
        if in_block:
            if line == "":
                in_block = False
                continue
            assert line.startswith("  "), f"line {n}: block content not indented: {line!r}"
            continue
        if line == "":
            continue
        if m := BLOCK.match(line):
            assert m.group(1) in LABELS, f"line {n}: block label {m.group(1)!r} not in the label table"
            assert lines[n + 1].startswith("  "), f"line {n}: block {line!r} has no content"
            labels.append(m.group(1))
            in_block = True
            continue
        m = FIELD.match(line)
        assert m, f"line {n}: not a field: {line!r}"
        assert m.group(1) in LABELS, f"line {n}: label {m.group(1)!r} not in the label table"
        labels.append(m.group(1))
    assert not in_block, "a block is closed by a blank line"
    return labels


def floor_block(text: str, label: str) -> list[str]:
    """The content lines of each `label` block, de-indented, one string per block."""
    found, lines = [], text.split("\n")
    for i, line in enumerate(lines):
        if line == f"{label}:":
            content = []
            for nxt in lines[i + 1 :]:
                if nxt == "":
                    break
                content.append(nxt[2:])
            found.append("\n".join(content))
    return found
