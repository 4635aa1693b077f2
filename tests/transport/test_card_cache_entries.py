"""transport.card_cache on its own: RFC 9111's age and freshness, what may be kept, credentials,
and two runs writing one entry at once (tests/commands/test_card_cache.py drives it through `a2a`)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from email.utils import formatdate

import pytest

from a2acli.transport.card_cache import USE, CachedCard, CardCache, cache_control, carries_credentials, storable
from a2acli.transport.exchange import Exchange

URL = "http://agent.test/.well-known/agent-card.json"
REQUEST = {"User-Agent": "a2acli/0", "A2A-Version": "1.0", "Accept": "application/json"}


def answer(headers: dict[str, str], body: bytes = b'{"name": "x"}', status: int = 200) -> Exchange:
    ex = Exchange(1, "card", "GET", URL, list(REQUEST.items()))
    ex.status, ex.reason, ex.response_headers, ex.response_body = status, "OK", list(headers.items()), body
    return ex


def test_cache_control_directives():
    assert cache_control('max-age=60, private="Set-Cookie, X-Y", No-Cache') == {
        "max-age": "60",
        "private": "Set-Cookie, X-Y",
        "no-cache": None,
    }
    assert cache_control(None) == {} and cache_control('max-age="30"') == {"max-age": "30"}


def test_age_counts_the_date_and_the_age_header():
    now = time.time()
    old = CachedCard.of(
        URL, REQUEST, 200, "OK", [("Date", formatdate(now - 100, usegmt=True)), ("Cache-Control", "max-age=300")], b"{}"
    )
    assert 99 <= old.age(time.time()) <= 102 and old.fresh(time.time())
    aged = CachedCard.of(URL, REQUEST, 200, "OK", [("Age", "400"), ("Cache-Control", "max-age=300")], b"{}")
    assert not aged.fresh(time.time())  # served by a cache that kept it longer than its lifetime


def test_expires_gives_the_lifetime_without_max_age():
    now = time.time()
    entry = CachedCard.of(
        URL,
        REQUEST,
        200,
        "OK",
        [("Date", formatdate(now, usegmt=True)), ("Expires", formatdate(now + 120, usegmt=True))],
        b"{}",
    )
    assert 118 <= (entry.lifetime or 0) <= 121 and entry.fresh(time.time())
    bad = CachedCard.of(URL, REQUEST, 200, "OK", [("Expires", "0")], b"{}")
    assert bad.lifetime == 0 and not bad.fresh(time.time())  # an invalid Expires: already expired


@pytest.mark.parametrize(
    ("status", "request_headers", "headers", "kept"),
    [
        (200, {}, {"Cache-Control": "max-age=60"}, True),
        (200, {}, {"ETag": '"a"'}, True),  # no lifetime, a validator: kept to be revalidated
        (200, {}, {}, False),  # nothing to go by: no heuristic freshness
        (200, {}, {"Cache-Control": "no-store, max-age=60"}, False),
        (200, {}, {"Cache-Control": "private, max-age=60"}, False),
        (200, {}, {"Cache-Control": "max-age=60", "Vary": "*"}, False),
        (200, {"Cache-Control": "no-store"}, {"Cache-Control": "max-age=60"}, False),
        (404, {}, {"Cache-Control": "max-age=60"}, False),
    ],
)
def test_what_may_be_kept(status, request_headers, headers, kept):
    assert storable(status, request_headers, list(headers.items())) is kept


def test_credentials_are_any_credential_header_or_a_client_certificate():
    assert not carries_credentials(REQUEST, client_cert=False)
    assert carries_credentials({**REQUEST, "Authorization": "Bearer t"}, client_cert=False)
    assert carries_credentials({**REQUEST, "Cookie": "s=1"}, client_cert=False)
    assert carries_credentials({**REQUEST, "X-Session-Token": "s"}, client_cert=False)
    assert carries_credentials(REQUEST, client_cert=True)


def test_a_304_refreshes_the_headers_and_the_age(tmp_path):
    cache = CardCache(tmp_path, USE)
    cache.answered(URL, REQUEST, answer({"Cache-Control": "max-age=60", "ETag": '"a"', "X-Old": "1"}))
    cache.settle(URL, usable=True)
    (entry,) = CardCache(tmp_path, USE)._read(URL)
    entry.response_time -= 100
    assert not entry.fresh(time.time()) and entry.validators() == {"If-None-Match": '"a"'}
    fresh = cache.revalidated(
        URL, REQUEST, entry, answer({"Cache-Control": "max-age=600", "ETag": '"a"', "Content-Length": "0"}, b"", 304)
    )
    assert fresh.fresh(time.time()) and fresh.lifetime == 600 and fresh.body == b'{"name": "x"}'
    assert ("X-Old", "1") in fresh.headers and ("Content-Length", "0") not in fresh.headers
    cache.settle(URL, usable=True)
    assert CardCache(tmp_path, USE).lookup(URL, REQUEST).lifetime == 600  # type: ignore[union-attr]


WRITER = """
import sys, time
from pathlib import Path
from a2acli.transport.card_cache import CardCache, USE
from a2acli.transport.exchange import Exchange

directory, name = Path(sys.argv[1]), sys.argv[2]
url = "http://agent.test/.well-known/agent-card.json"
request = {"A2A-Version": "1.0"}
body = ('{"name": "%s", "pad": "%s"}' % (name, name * 200_000)).encode()
end = time.monotonic() + 2.0
while time.monotonic() < end:
    ex = Exchange(1, "card", "GET", url, list(request.items()))
    ex.status, ex.reason, ex.response_headers, ex.response_body = 200, "OK", [("Cache-Control", "max-age=60")], body
    cache = CardCache(directory, USE)
    cache.answered(url, request, ex)
    cache.settle(url, usable=True)
"""


def test_two_runs_writing_at_once_never_leave_half_an_entry(tmp_path):
    """Two processes write the entry of one card over and over (each a 200 KB card) while this one
    reads it: every read is one whole entry, the one or the other, never a mix or a cut."""
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path), name]) for name in ("a", "b")]
    seen, reads = set(), 0
    path = CardCache(tmp_path)._path(URL)
    try:
        while any(w.poll() is None for w in writers):
            try:
                raw = path.read_bytes()
            except FileNotFoundError:
                continue
            reads += 1
            doc = json.loads(raw)  # never half-written: this would fail
            (entry,) = doc["entries"]
            card = json.loads(entry["body"])
            assert card["pad"] == card["name"] * 200_000
            seen.add(card["name"])
            assert CardCache(tmp_path).lookup(URL, {"A2A-Version": "1.0"}) is not None
    finally:
        for w in writers:
            w.wait(timeout=30)
    assert all(w.returncode == 0 for w in writers)
    assert reads > 0 and seen <= {"a", "b"}
    assert not list(tmp_path.glob(".*.tmp"))  # no temporary file left behind


def test_two_a2a_runs_at_once_share_the_cache(tmp_path, card_cache_dir):
    """A CI matrix: two `a2a card fetch` runs at a time, four times over, against one agent whose
    card may be kept: every run succeeds, and what is left is one whole entry."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    card = {
        "name": "matrix",
        "description": "d",
        "version": "1",
        "supportedInterfaces": [{"url": "http://127.0.0.1:1/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
        "pad": "p" * 100_000,
    }

    class Card(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802
            body = json.dumps(card).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Cache-Control", "max-age=300")
            self.send_header("ETag", '"m"')
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Card)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}"
    try:
        for _ in range(4):
            runs = [
                subprocess.Popen(
                    [sys.executable, "-m", "a2acli", "card", "fetch", "-o", "json", "-u", url],
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                )
                for _ in range(2)
            ]
            for run in runs:
                out, err = run.communicate(timeout=60)
                assert run.returncode == 0, err
                assert json.loads(out)["name"] == "matrix"
    finally:
        httpd.shutdown()
        httpd.server_close()
    (entry,) = card_cache_dir.glob("card-*.json")
    assert json.loads(json.loads(entry.read_text())["entries"][0]["body"])["pad"] == "p" * 100_000
    assert not list(card_cache_dir.glob(".*.tmp"))


@pytest.mark.parametrize(
    "value",
    [
        "max-age=60, no-cache",
        " Max-Age = 60 ,no-store",
        "private, max-age=0",
        'no-cache="Set-Cookie", max-age=5',
        "public,,max-age=7",
    ],
)
def test_the_quick_split_and_the_grammar_read_directives_alike(value):
    import re

    from a2acli.transport.card_cache import _DIRECTIVE

    by_grammar: dict[str, str | None] = {}
    for m in re.finditer(_DIRECTIVE, value):
        by_grammar.setdefault(m.group(1).lower(), m.group(2) if m.group(2) is not None else m.group(3))
    assert cache_control(value) == by_grammar


def test_storing_a_new_card_sweeps_entries_not_written_for_30_days(tmp_path):
    """A CI runner calling agents on ever new ports: when a new card's file is stored, entries not
    written for PRUNE_AFTER (30 days) go, and temporary files a killed run left for a day; recent
    ones, the one just written, links and other files stay."""
    import os

    from a2acli.transport.card_cache import PRUNE_AFTER

    now = time.time()
    old, recent = tmp_path / ("card-" + "0" * 40 + ".json"), tmp_path / ("card-" + "1" * 40 + ".json")
    left_tmp, fresh_tmp = tmp_path / ".card-x.json.1.2.tmp", tmp_path / ".card-y.json.3.4.tmp"
    other = tmp_path / "notes.txt"
    for path in (old, recent, left_tmp, fresh_tmp, other):
        path.write_text("{}")
        os.chmod(path, 0o600)
    os.utime(old, (now - PRUNE_AFTER - 60, now - PRUNE_AFTER - 60))
    os.utime(other, (now - PRUNE_AFTER - 60, now - PRUNE_AFTER - 60))
    os.utime(left_tmp, (now - 2 * 86400, now - 2 * 86400))
    os.utime(recent, (now - PRUNE_AFTER + 3600, now - PRUNE_AFTER + 3600))
    link = tmp_path / ("card-" + "2" * 40 + ".json")
    link.symlink_to(old)  # (an old one, through a link: the link is not followed, nor removed)
    os.utime(link, (now - PRUNE_AFTER - 60, now - PRUNE_AFTER - 60), follow_symlinks=False)

    cache = CardCache(tmp_path, USE)
    cache.answered(URL, REQUEST, answer({"Cache-Control": "max-age=60"}))
    cache.settle(URL, usable=True)
    new = cache._path(URL)
    assert new.exists()
    assert not old.exists() and not left_tmp.exists()
    assert recent.exists() and fresh_tmp.exists() and other.exists() and link.is_symlink()

    # an entry rewritten (not new): nothing is listed or swept
    os.utime(recent, (now - PRUNE_AFTER - 60, now - PRUNE_AFTER - 60))
    again = CardCache(tmp_path, USE)
    again.answered(URL, REQUEST, answer({"Cache-Control": "max-age=60", "ETag": '"b"'}))
    again.settle(URL, usable=True)
    assert recent.exists()
