"""The Agent Card cache (issue 47, RFC 9111): a fresh card is used without asking, a stale one is
revalidated and a 304 refreshes it, a changed ETag brings the new card; no-store, no-cache and
private are obeyed; Vary keys the entries; the extended card, a card that fails validation and
answers to requests with credentials are never kept; `card fetch` and `check` always ask the
network; --no-cache and A2ACLI_NO_CACHE bypass it, `a2a cache clear` empties it; --debug and
--dump say where the card came from; a corrupt entry is ignored and replaced. Each test has its
own cache directory (tests/conftest.py: card_cache_dir)."""

from __future__ import annotations

import json

import httpx
import pytest
from a2a_testkit import AGENT, RPC, rpc_result, v1_card

CARD_URL = f"{AGENT}/.well-known/agent-card.json"
TASK = {"id": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_COMPLETED"}}


class Agent:
    """A card route answering as HTTP caching says: `headers` on every answer, 304 to an
    If-None-Match naming the current ETag; each card request and its headers are kept."""

    def __init__(self, respx_mock, headers: dict[str, str], card: dict | None = None) -> None:
        self.headers, self.card, self.asked = headers, card or v1_card(), []
        respx_mock.get(CARD_URL).mock(side_effect=self.answer)
        self.rpc = respx_mock.post(RPC).respond(json=rpc_result(TASK))

    def answer(self, request: httpx.Request) -> httpx.Response:
        self.asked.append(request.headers)
        etag = self.headers.get("ETag")
        if etag and request.headers.get("If-None-Match") == etag:
            return httpx.Response(304, headers=self.headers)
        return httpx.Response(200, json=self.card, headers=self.headers)


def send(cli, *args: str, env: dict[str, str] | None = None):
    result = cli("send", "hi", "-u", AGENT, "-o", "json", *args, env=env)
    assert result.exit_code == 0, result.stderr
    return result


def age_entries(cache_dir, seconds: float) -> None:
    """The cache's entries as they will be `seconds` from now: as old as that (time passing)."""
    for path in cache_dir.glob("card-*.json"):
        doc = json.loads(path.read_text())
        for entry in doc["entries"]:
            entry["responseTime"] -= seconds
        path.write_text(json.dumps(doc))


def test_ten_runs_against_a_max_age_card_fetch_it_once(cli, respx_mock, card_cache_dir):
    agent = Agent(respx_mock, {"Cache-Control": "max-age=300", "ETag": '"v1"'})
    for _ in range(10):
        send(cli)
    assert len(agent.asked) == 1 and agent.rpc.call_count == 10
    assert [p.name.startswith("card-") for p in card_cache_dir.iterdir()] == [True]


@pytest.mark.parametrize("control", ["no-store", "max-age=300, no-store", "private, max-age=300"])
def test_a_no_store_or_private_card_is_fetched_every_time(cli, respx_mock, card_cache_dir, control):
    agent = Agent(respx_mock, {"Cache-Control": control, "ETag": '"v1"'})
    for _ in range(3):
        send(cli)
    assert len(agent.asked) == 3
    assert all("If-None-Match" not in h for h in agent.asked)  # nothing kept to revalidate
    assert not card_cache_dir.exists() or not list(card_cache_dir.glob("card-*.json"))


def test_a_card_without_caching_headers_is_fetched_every_time(cli, respx_mock):
    agent = Agent(respx_mock, {})
    for _ in range(3):
        send(cli)
    assert len(agent.asked) == 3  # no heuristic freshness


def test_after_max_age_a_304_is_used_and_refreshes_the_entry(cli, respx_mock, card_cache_dir):
    agent = Agent(respx_mock, {"Cache-Control": "max-age=300", "ETag": '"v1"'})
    send(cli)
    age_entries(card_cache_dir, 301)
    result = send(cli, "--debug")
    assert len(agent.asked) == 2 and agent.asked[1]["If-None-Match"] == '"v1"'
    assert "< HTTP 304" in result.stderr
    assert "* card from cache (age 0 s, revalidated by the 304 above)" in result.stderr
    assert agent.rpc.call_count == 2
    result = send(cli, "--debug")  # fresh again: not asked
    assert len(agent.asked) == 2
    assert "* card from cache (age 0 s): http://agent.test/.well-known/agent-card.json" in result.stderr
    age_entries(card_cache_dir, 120)
    assert "* card from cache (age 120 s)" in send(cli, "--debug").stderr


def test_a_changed_etag_brings_the_new_card(cli, respx_mock, card_cache_dir):
    agent = Agent(respx_mock, {"Cache-Control": "max-age=300", "ETag": '"v1"'})
    send(cli)
    moved = respx_mock.post("http://agent.test/v2").respond(json=rpc_result(TASK))
    agent.headers, agent.card = {"Cache-Control": "max-age=300", "ETag": '"v2"'}, v1_card("http://agent.test/v2")
    age_entries(card_cache_dir, 301)
    send(cli)
    assert agent.asked[1]["If-None-Match"] == '"v1"' and moved.call_count == 1  # the new card's interface
    send(cli)
    assert len(agent.asked) == 2 and moved.call_count == 2  # the new card kept


def test_a_no_cache_card_is_revalidated_on_every_run(cli, respx_mock):
    agent = Agent(respx_mock, {"Cache-Control": "no-cache", "ETag": '"v1"'})
    for _ in range(3):
        send(cli)
    assert len(agent.asked) == 3
    assert [h.get("If-None-Match") for h in agent.asked] == [None, '"v1"', '"v1"']


def test_last_modified_revalidates_with_if_modified_since(cli, respx_mock, card_cache_dir):
    stamp = "Sat, 05 Dec 2026 10:00:00 GMT"
    agent = Agent(respx_mock, {"Cache-Control": "max-age=60", "Last-Modified": stamp})
    send(cli)
    age_entries(card_cache_dir, 61)
    send(cli)
    assert agent.asked[1]["If-Modified-Since"] == stamp


def test_vary_keys_the_entry_by_the_a2a_version(cli, respx_mock):
    agent = Agent(respx_mock, {"Cache-Control": "max-age=300", "ETag": '"v1"', "Vary": "A2A-Version"})
    send(cli)
    send(cli, "--a2a-version", "0.3")  # another A2A-Version: another variant, fetched
    assert [h["A2A-Version"] for h in agent.asked] == ["1.0", "0.3"]
    send(cli)
    send(cli, "--a2a-version", "0.3")
    assert len(agent.asked) == 2  # each version's card kept apart


def test_vary_on_a_header_given_with_h(cli, respx_mock):
    agent = Agent(respx_mock, {"Cache-Control": "max-age=300", "Vary": "Accept-Language"})
    send(cli, "-H", "Accept-Language: fr")
    send(cli, "-H", "Accept-Language: de")
    send(cli, "-H", "Accept-Language: fr")
    assert [h["Accept-Language"] for h in agent.asked] == ["fr", "de"]


def test_vary_star_is_never_kept(cli, respx_mock):
    agent = Agent(respx_mock, {"Cache-Control": "max-age=300", "Vary": "*"})
    send(cli)
    send(cli)
    assert len(agent.asked) == 2


def test_card_fetch_always_asks_the_network(cli, respx_mock):
    agent = Agent(respx_mock, {"Cache-Control": "max-age=300", "ETag": '"v1"'})
    send(cli)
    result = cli("card", "fetch", "-u", AGENT, "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["name"] == "Test agent"  # the kept card, revalidated by a 304
    assert len(agent.asked) == 2 and agent.asked[1]["If-None-Match"] == '"v1"'


def test_card_fetch_keeps_the_card_it_fetched(cli, respx_mock):
    agent = Agent(respx_mock, {"Cache-Control": "max-age=300"})
    assert cli("card", "fetch", "-u", AGENT, "-o", "json").exit_code == 0
    send(cli)
    assert len(agent.asked) == 1


def test_no_cache_flag_and_variable_bypass_the_cache(cli, respx_mock, card_cache_dir):
    agent = Agent(respx_mock, {"Cache-Control": "max-age=300", "ETag": '"v1"'})
    send(cli, "--no-cache")
    send(cli, env={"A2ACLI_NO_CACHE": "1"})
    assert len(agent.asked) == 2 and not card_cache_dir.exists()  # neither read nor written
    send(cli)
    send(cli, "--no-cache")
    assert len(agent.asked) == 4 and "If-None-Match" not in agent.asked[3]


def test_cache_clear_empties_it(cli, respx_mock, card_cache_dir):
    agent = Agent(respx_mock, {"Cache-Control": "max-age=300"})
    send(cli)
    result = cli("cache", "clear")
    assert result.exit_code == 0, result.stderr
    assert f"1 card(s) removed from {card_cache_dir}" in result.stderr
    assert not list(card_cache_dir.iterdir())
    send(cli)
    assert len(agent.asked) == 2


def test_a_card_that_fails_validation_is_not_kept(cli, respx_mock, card_cache_dir):
    card = v1_card()
    del card["name"]
    agent = Agent(respx_mock, {"Cache-Control": "max-age=300"}, card=card)
    for _ in range(2):
        result = send(cli)
        assert "is not valid" in result.stderr
    assert len(agent.asked) == 2 and not card_cache_dir.exists()


def test_the_extended_card_is_never_kept(cli, respx_mock, card_cache_dir):
    card = v1_card(
        capabilities={"extendedAgentCard": True},
        securitySchemes={"key": {"apiKeySecurityScheme": {"location": "header", "name": "X-API-Key"}}},
        securityRequirements=[{"schemes": {"key": {"list": []}}}],
    )
    agent = Agent(respx_mock, {"Cache-Control": "max-age=300"}, card=card)
    extended = v1_card(name="Secret agent, for key holders")
    agent.rpc.respond(json=rpc_result(extended))
    for _ in range(2):
        result = cli("card", "extended", "-u", AGENT, "-o", "json", env={"A2ACLI_API_KEY": "k-123"})
        assert result.exit_code == 0, result.stderr
        assert json.loads(result.stdout)["name"] == "Secret agent, for key holders"
    assert agent.rpc.call_count == 2  # asked for each time
    kept = "".join(p.read_text() for p in card_cache_dir.glob("card-*.json"))
    assert "Test agent" in kept and "key holders" not in kept and "k-123" not in kept


def test_a_corrupt_entry_is_ignored_and_replaced(cli, respx_mock, card_cache_dir):
    agent = Agent(respx_mock, {"Cache-Control": "max-age=300"})
    send(cli)
    (entry,) = card_cache_dir.glob("card-*.json")
    for garbage in (
        b"",
        b'{"layout": 1, "entries": [{"url": 3}',
        b"\x00\xff",
        b'{"layout": 1, "entries": [{}]}',
        b"[]",
        b"[" * 100_000,  # nested past what the JSON reader takes
        plant(card_cache_dir, {"name": "x"}).replace(b'\\"name\\"', b"oops"),  # well-formed, its card no JSON
        plant(card_cache_dir, v1_card("http://evil.test/rpc")).replace(b'"initialAge": 0', b'"initialAge": -Infinity'),
        plant(card_cache_dir, v1_card("http://evil.test/rpc")).replace(b'"initialAge": 0', b'"initialAge": NaN'),
    ):
        entry.write_bytes(garbage)
        send(cli)  # no error: as if there were no entry
        assert json.loads(entry.read_text())["entries"][0]["url"] == CARD_URL  # replaced by the answer
    assert len(agent.asked) == 10


def test_dump_records_the_card_used(cli, respx_mock, card_cache_dir, tmp_path):
    agent = Agent(respx_mock, {"Cache-Control": "max-age=300", "ETag": '"v1"'})
    send(cli)
    send(cli, "--dump", str(tmp_path / "hit"))
    index = [json.loads(line) for line in (tmp_path / "hit" / "index.jsonl").read_text().splitlines()]
    assert [(e["method"], e.get("cache"), e.get("age")) for e in index] == [
        ("card", "hit", 0),
        ("SendMessage", None, None),
    ]
    assert json.loads((tmp_path / "hit" / "001-card.response.body").read_bytes())["name"] == "Test agent"
    assert "Age: 0" in (tmp_path / "hit" / "001-card.response.http").read_text()
    age_entries(card_cache_dir, 301)
    send(cli, "--dump", str(tmp_path / "revalidated"))
    index = [json.loads(line) for line in (tmp_path / "revalidated" / "index.jsonl").read_text().splitlines()]
    assert [(e["method"], e["status"], e.get("cache")) for e in index] == [
        ("card", 304, None),  # what crossed the wire
        ("card", 200, "revalidated"),  # the card used
        ("SendMessage", 200, None),
    ]
    assert len(agent.asked) == 2


def test_check_reads_the_card_from_the_network(cli, respx_mock):
    agent = Agent(respx_mock, {"Cache-Control": "max-age=300", "ETag": '"v1"'})
    send(cli)
    result = cli("check", "card", AGENT)
    assert len(agent.asked) == 2 and "If-None-Match" not in agent.asked[1], result.stderr


def test_no_cache_in_a_config_file(cli, respx_mock, card_cache_dir, cfg):
    cfg.parent.mkdir(parents=True)
    cfg.write_text("no-cache = true\n")
    agent = Agent(respx_mock, {"Cache-Control": "max-age=300"})
    send(cli)
    send(cli)
    assert len(agent.asked) == 2 and not card_cache_dir.exists()
    shown = cli("config", "show")
    assert "no-cache" in shown.stdout and "true" in shown.stdout.lower(), shown.stdout + shown.stderr


def test_a_url_with_a_password_is_never_written_down(cli, respx_mock, card_cache_dir):
    agent = Agent(respx_mock, {"Cache-Control": "max-age=300", "Set-Cookie": "session=s-42"})
    send(cli)  # a cookie the agent set is not kept either
    assert "s-42" not in "".join(p.read_text() for p in card_cache_dir.glob("card-*.json"))
    result = cli("card", "fetch", "-u", "http://bob:pw-123@agent.test", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert len(agent.asked) == 2
    assert "pw-123" not in "".join(p.read_text() for p in card_cache_dir.iterdir())


def entry_doc(cache_dir) -> dict:
    (path,) = cache_dir.glob("card-*.json")
    return json.loads(path.read_text())


def test_a_304_naming_another_etag_does_not_refresh_the_kept_card(cli, respx_mock, card_cache_dir):
    """RFC 9111 §4.3.4: a 304 whose ETag is not the kept card's speaks of another card: the kept
    one is not refreshed under the new ETag (it would then be revalidated as that card forever),
    the card is asked for again, unconditionally."""
    agent = Agent(respx_mock, {"Cache-Control": "max-age=300", "ETag": '"v1"'})
    send(cli)
    moved = respx_mock.post("http://agent.test/v2").respond(json=rpc_result(TASK))
    agent.headers, agent.card = {"Cache-Control": "max-age=300", "ETag": '"v2"'}, v1_card("http://agent.test/v2")
    answer = agent.answer
    agent.answer = lambda request: (  # type: ignore[method-assign]
        httpx.Response(304, headers=agent.headers) if request.headers.get("If-None-Match") else answer(request)
    )
    respx_mock.get(CARD_URL).mock(side_effect=lambda request: agent.answer(request))
    age_entries(card_cache_dir, 301)
    result = send(cli, "--debug")
    assert "< HTTP 304" in result.stderr and "revalidated" not in result.stderr
    assert moved.call_count == 1  # the new card's interface, from the GET that followed the 304
    (kept,) = entry_doc(card_cache_dir)["entries"]
    assert ["ETag", '"v2"'] in kept["headers"] and "agent.test/v2" in kept["body"]
    send(cli)
    assert moved.call_count == 2 and agent.rpc.call_count == 1


def test_a_304_with_a_weak_etag_of_the_same_card_refreshes_it(cli, respx_mock, card_cache_dir):
    agent = Agent(respx_mock, {"Cache-Control": "max-age=300", "ETag": '"v1"'})
    send(cli)
    agent.answer = lambda request: httpx.Response(304, headers={"Cache-Control": "max-age=300", "ETag": 'W/"v1"'})  # type: ignore[method-assign]
    respx_mock.get(CARD_URL).mock(side_effect=lambda request: agent.answer(request))
    age_entries(card_cache_dir, 301)
    assert "revalidated by the 304 above" in send(cli, "--debug").stderr  # W/"v1" and "v1": the weak comparison


@pytest.mark.parametrize("control", ["no-store, max-age=600", "private, max-age=600"])
def test_a_304_that_says_no_store_or_private_drops_the_entry(cli, respx_mock, card_cache_dir, control):
    agent = Agent(respx_mock, {"Cache-Control": "max-age=300", "ETag": '"v1"'})
    send(cli)
    agent.headers = {"Cache-Control": control, "ETag": '"v1"'}
    age_entries(card_cache_dir, 301)
    result = send(cli, "--debug")
    assert "revalidated by the 304 above" in result.stderr  # used for this run...
    assert not list(card_cache_dir.glob("card-*.json"))  # ...not kept
    send(cli)
    assert len(agent.asked) == 3 and "If-None-Match" not in agent.asked[2]


def test_two_cache_control_lines_are_read_together(cli, respx_mock, card_cache_dir):
    """RFC 9110 §5.3: `Cache-Control: max-age=300` and `Cache-Control: no-store` say both."""
    route = respx_mock.get(CARD_URL).respond(
        json=v1_card(), headers=[("Cache-Control", "max-age=300"), ("Cache-Control", "no-store")]
    )
    respx_mock.post(RPC).respond(json=rpc_result(TASK))
    send(cli)
    send(cli)
    assert route.call_count == 2 and not card_cache_dir.exists()


def test_an_answer_stale_as_it_came_with_no_validator_is_not_written(cli, respx_mock, card_cache_dir):
    for headers in ({"Expires": "not a date"}, {"Cache-Control": "max-age=300", "Age": "400"}):
        agent = Agent(respx_mock, headers)
        send(cli)
        send(cli)
        assert len(agent.asked) == 2 and not card_cache_dir.exists()  # nothing kept that could serve


@pytest.mark.parametrize("stale", [False, True])
def test_a_kept_card_that_no_longer_passes_validation_is_dropped(cli, respx_mock, card_cache_dir, stale):
    """A card used from the cache (fresh, or revalidated by a 304) that fails validation now (a
    stricter a2a, an entry changed on disk) is not used again: dropped, and fetched on the next run."""
    agent = Agent(respx_mock, {"Cache-Control": "max-age=300", "ETag": '"v1"'})
    send(cli)
    if stale:
        age_entries(card_cache_dir, 301)
    (path,) = card_cache_dir.glob("card-*.json")
    doc = json.loads(path.read_text())
    card = json.loads(doc["entries"][0]["body"])
    del card["name"]
    doc["entries"][0]["body"] = json.dumps(card)
    path.write_text(json.dumps(doc))
    assert "is not valid" in send(cli).stderr
    assert not path.exists()
    send(cli)
    assert len(agent.asked) == 2 + stale and "If-None-Match" not in agent.asked[-1]
    assert [h.get("If-None-Match") for h in agent.asked[1:-1]] == (['"v1"'] if stale else [])  # the 304


def test_an_entry_kept_later_than_now_is_stale(cli, respx_mock, card_cache_dir):
    """The clock went back since the card was kept (a machine that ran ahead, corrected): its
    age cannot be known, so it is revalidated, not used for the hours the clock was ahead."""
    agent = Agent(respx_mock, {"Cache-Control": "max-age=300", "ETag": '"v1"'})
    send(cli)
    age_entries(card_cache_dir, -3600)
    send(cli)
    assert len(agent.asked) == 2 and agent.asked[1]["If-None-Match"] == '"v1"'


def plant(cache_dir, card: dict) -> bytes:
    """The entry file another local user would write to make `a2a` use `card`."""
    import time

    cache_dir.mkdir(parents=True, exist_ok=True)
    entry = {
        "url": CARD_URL,
        "selecting": {},
        "status": 200,
        "reason": "OK",
        "headers": [["Cache-Control", "max-age=99999999"]],
        "body": json.dumps(card),
        "responseTime": time.time(),
        "initialAge": 0,
        "lifetime": 99999999,
    }
    return json.dumps({"layout": 1, "entries": [entry]}).encode()


def test_an_entry_another_user_could_write_is_not_used(cli, respx_mock, card_cache_dir, tmp_path):
    """A cache directory another local user can write to (a shared XDG_CACHE_HOME, a directory
    they made first): an entry file that is theirs, that they may write, or a symbolic link, is
    ignored, so they cannot make `a2a` send a message to an endpoint of their choosing."""
    import os

    agent = Agent(respx_mock, {"Cache-Control": "max-age=300"})
    evil = respx_mock.post("http://evil.test/rpc").respond(json=rpc_result(TASK))
    data = plant(card_cache_dir, v1_card("http://evil.test/rpc"))
    send(cli)  # the real card, kept
    (path,) = card_cache_dir.glob("card-*.json")
    planted = tmp_path / "planted.json"
    planted.write_bytes(data)
    tricks = ["world-writable", "symlink"] + (["another owner"] if hasattr(os, "geteuid") and os.geteuid() == 0 else [])
    for trick in tricks:
        path.unlink()
        if trick == "symlink":
            path.symlink_to(planted)
        else:
            path.write_bytes(data)
            os.chmod(path, 0o666 if trick == "world-writable" else 0o600)
            if trick == "another owner":
                os.chown(path, 12345, 12345)
        said = send(cli, "--debug").stderr
        assert evil.call_count == 0, trick
        assert planted.read_bytes() == data  # never written through the link
        why = "a symbolic link" if trick == "symlink" else "not a file of this user's alone"
        assert f"* card cache: ignored {path}: {why}" in said, said
    assert len(agent.asked) == 1 + len(tricks) and agent.rpc.call_count == 1 + len(tricks)


def test_a_card_read_with_insecure_is_neither_kept_nor_served(cli, respx_mock, card_cache_dir):
    """--insecure reads the card without checking the agent's certificate: a later run that
    checks it must not take that card on trust."""
    route = respx_mock.get("https://agent.test/.well-known/agent-card.json").respond(
        json=v1_card(), headers={"Cache-Control": "max-age=300"}
    )
    respx_mock.post(RPC).respond(json=rpc_result(TASK))
    result = cli("card", "fetch", "-u", "https://agent.test", "--insecure", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert not card_cache_dir.exists()
    assert cli("card", "fetch", "-u", "https://agent.test", "-o", "json").exit_code == 0  # kept (checked)
    assert cli("card", "fetch", "-u", "https://agent.test", "--insecure", "-o", "json").exit_code == 0
    assert route.call_count == 3 and "If-None-Match" not in route.calls[2].request.headers


def test_cache_clear_says_what_it_could_not_remove(cli, respx_mock, card_cache_dir):
    Agent(respx_mock, {"Cache-Control": "max-age=300"})
    send(cli)
    (card_cache_dir / "card-0000.json").mkdir()  # what `unlink` refuses, whoever runs the test
    result = cli("cache", "clear")
    assert result.exit_code == 1
    assert (
        f"cannot empty the Agent Card cache {card_cache_dir}: card-0000.json: Is a directory (1 card(s) removed)"
        in result.stderr
    )
    assert "X_A2A_CANNOT_WRITE" in result.stderr


def test_no_home_directory_means_no_cache_not_an_error(cli, respx_mock, monkeypatch):
    """HOME unset and a user the system does not know (a container's random uid), no
    XDG_CACHE_HOME: the calls work without a cache; `cache clear` says there is none."""
    import pwd

    def unknown(uid: int) -> pwd.struct_passwd:
        raise KeyError(uid)

    monkeypatch.delenv("HOME")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setattr(pwd, "getpwuid", unknown)
    agent = Agent(respx_mock, {"Cache-Control": "max-age=300"})
    send(cli)
    send(cli)
    assert len(agent.asked) == 2
    result = cli("cache", "clear")
    assert result.exit_code == 0 and "there is no Agent Card cache" in result.stderr


def test_a_relative_xdg_cache_home_is_ignored(cli, respx_mock, monkeypatch, tmp_path):
    """The XDG Base Directory spec: a relative path is invalid, and ignored (`~/.cache` from a
    file that does not expand `~`, docker's --env-file, made a directory `~` wherever a run started)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", "~/.cache")
    agent = Agent(respx_mock, {"Cache-Control": "max-age=300"})
    send(cli)
    send(cli)
    assert list(tmp_path.iterdir()) == []  # nothing where the run started
    assert len(agent.asked) == 1  # kept all the same: in the platform's cache directory


@pytest.mark.parametrize(
    ("headers", "asked"),
    [
        ({"Expires": "Sun, 06 Nov 99999 08:49:37 GMT", "ETag": '"v1"'}, 2),  # in the past: revalidated
        ({"Cache-Control": "max-age=300", "Date": "Fri, 01 Jan 10000000000 00:00:00 GMT"}, 1),  # no Date: age 0
        ({"Cache-Control": "max-age=0", "Last-Modified": "Sun, 06 Nov 99999 08:49:37 GMT"}, 2),
    ],
)
def test_a_date_out_of_range_is_no_date_not_an_error(cli, respx_mock, card_cache_dir, headers, asked):
    """RFC 9110 §5.6.7: an HTTP-date that does not read is none (an Expires that does not read
    is in the past): a year past what the clock holds is one, never an internal error."""
    agent = Agent(respx_mock, headers)
    send(cli)
    send(cli)
    assert len(agent.asked) == asked


@pytest.mark.parametrize("name", [b"Age", b"Cache-Control"])
def test_a_non_ascii_digit_is_no_number_not_an_error(cli, respx_mock, card_cache_dir, name):
    """`Age: ¹` (a latin-1 byte an agent sent): a digit to str.isdigit, none to int()."""
    value = b"\xb9" if name == b"Age" else b"max-age=\xb2"
    route = respx_mock.get(CARD_URL).respond(json=v1_card(), headers=[(name, value), (b"ETag", b'"v1"')])
    respx_mock.post(RPC).respond(json=rpc_result(TASK))
    send(cli)
    send(cli)
    assert route.call_count == 2


@pytest.mark.parametrize("name", ["Age", "Cache-Control"])
def test_a_delta_seconds_too_great_to_hold_is_2_to_the_31(cli, respx_mock, card_cache_dir, name):
    """RFC 9111 §1.2.2: `Age` or `max-age` of 400 digits (past a float, past int()'s digit limit
    at 5,000) is 2^31 seconds, not an internal error."""
    for digits in (400, 5000):
        value = "9" * digits if name == "Age" else f"max-age={'9' * digits}"
        route = respx_mock.get(CARD_URL).respond(json=v1_card(), headers={name: value, "ETag": '"v1"'})
        respx_mock.post(RPC).respond(json=rpc_result(TASK))
        send(cli)
        send(cli)
        assert route.call_count == (2 if name == "Age" else 1), digits  # as old as can be / fresh for 68 years
        route.reset()
        assert cli("cache", "clear").exit_code == 0


def test_debug_says_why_a_card_was_not_kept(cli, respx_mock, monkeypatch, tmp_path):
    """A cache directory that cannot be written costs the cache, silently but for --debug."""
    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "a-file"))
    agent = Agent(respx_mock, {"Cache-Control": "max-age=300"})
    quiet = send(cli)
    assert "card cache" not in quiet.stderr
    said = send(cli, "--debug").stderr
    assert f"* card cache: card not kept: cannot write in {tmp_path / 'a-file' / 'a2acli'}: Not a directory" in said, (
        said
    )
    assert said.count("* card cache:") == 1
    assert len(agent.asked) == 2
