"""Catalog resolution end to end (A2ACLI_CARD_GET_005): a catalog file served by a real HTTP
server on 127.0.0.1 names the real demo agent (a2a-sdk server); the installed `a2a` resolves
`-u catalog:demo` to its card and talks to it."""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

pytestmark = [pytest.mark.integration, pytest.mark.spec("A2ACLI_CARD_GET_005")]


class _Quiet(SimpleHTTPRequestHandler):
    requests: list[str] = []  # noqa: RUF012  (the paths asked for, with the headers that came)

    def do_GET(self) -> None:  # noqa: N802
        _Quiet.requests.append(f"{self.path} {sorted(k.lower() for k in self.headers)}")
        super().do_GET()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def catalog(tmp_path: Path, demo_agent) -> Iterator[str]:
    """A catalog with the demo agent (by its origin) and a second entry, served over HTTP."""
    (tmp_path / "agents.json").write_text(
        json.dumps({"agents": [{"name": "demo", "url": demo_agent.url, "description": "the demo agent"}, {"name": "elsewhere", "url": "http://127.0.0.1:9"}]})
    )
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(tmp_path)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Quiet.requests.clear()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/agents.json"
    finally:
        server.shutdown()
        server.server_close()


def test_send_and_card_fetch_through_a_catalog_entry(run_a2a, demo_agent, catalog):
    a2a = run_a2a.at("catalog:demo", "--catalog", catalog)
    card = a2a("card", "fetch", "-o", "json")
    assert json.loads(card.stdout)["supportedInterfaces"][0]["url"].startswith(demo_agent.url)
    assert f"catalog:demo: 'demo', {demo_agent.url}, from the catalog {catalog}" in card.stderr
    sent = a2a("send", "hi", "-o", "json", "--api-key", demo_agent.api_key)
    answer = json.loads(sent.stdout)
    assert answer["task"]["status"]["state"] == "TASK_STATE_COMPLETED"
    assert "echo: hi" in json.dumps(answer)
    # the catalog was asked twice, with no credential and no -H header
    assert [r.split(" ")[0] for r in _Quiet.requests] == ["/agents.json", "/agents.json"]
    assert all("x-api-key" not in r and "authorization" not in r for r in _Quiet.requests)


def test_card_catalog_and_a_missing_entry_against_the_served_catalog(run_a2a, catalog):
    a2a = run_a2a.at("catalog:dmeo", "--catalog", catalog)
    listed = a2a("card", "catalog", "-o", "json")
    assert [a["reference"] for a in json.loads(listed.stdout)["agents"]] == ["catalog:demo", "catalog:elsewhere"]
    missing = a2a("send", "hi", check=3)
    assert "no agent 'dmeo' in the catalog" in missing.stderr and "did you mean 'demo'?" in missing.stderr
    unreachable = run_a2a.at("catalog:elsewhere", "--catalog", catalog)("send", "hi", check=3)
    assert "cannot connect to http://127.0.0.1:9" in unreachable.stderr
