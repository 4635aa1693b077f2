"""Agent catalogs, read (A2ACLI_CARD_GET_005): each shape a catalog comes in gives the same
entries, an entry is found by name, id or the id's last segment, and a document that is no
catalog says what is wrong with it."""

from __future__ import annotations

import pytest
from a2a_testkit import v1_card

from a2acli.errors import CardInvalidError, CardNotFoundError, UsageError
from a2acli.net import agent_reference, catalog_entry, url_problem
from a2acli.wire.catalog import find_entry, parse_catalog

WEATHER = {"name": "weather", "url": "https://weather.example", "description": "Forecasts", "tags": ["weather", "demo"]}
V0_CARD = {"name": "old", "url": "http://old.example/rpc", "version": "1", "capabilities": {}, "skills": [], "protocolVersion": "0.3.0"}


@pytest.mark.spec("A2ACLI_CARD_GET_005")
def test_an_agents_list_and_a_bare_array_read_alike():
    doc = [WEATHER, {"id": "urn:x:research", "cardUrl": "https://r.example/card.json"}, v1_card(), V0_CARD]
    for shaped in (parse_catalog({"agents": doc}, "c"), parse_catalog(doc, "c")):
        weather, research, card, old = shaped.entries
        assert (weather.name, weather.url, weather.card, weather.description, weather.tags) == ("weather", "https://weather.example", None, "Forecasts", ("weather", "demo"))
        assert (research.name, research.url, research.id) == ("research", "https://r.example/card.json", "urn:x:research")  # named by its id's last segment
        assert (card.name, card.url, card.card) == ("Test agent", None, v1_card())  # an Agent Card is its own entry
        assert (old.name, old.card) == ("old", V0_CARD)  # a V0 card: its url is the endpoint, not where the card is
    assert parse_catalog({"agents": doc}, "c").shape == "agents list"


@pytest.mark.spec("A2ACLI_CARD_GET_005")
def test_an_ai_catalog_gives_its_a2a_agent_cards_and_says_what_it_skipped():
    doc = {
        "specVersion": "1.0",
        "entries": [
            {"identifier": "urn:air:example.com:mcp:weather", "type": "application/mcp-server-card+json", "url": "https://api.example.com/mcp"},
            {"identifier": "urn:air:example.com:a2a:research", "type": "application/a2a-agent-card+json", "url": "https://agents.example.com/research", "tags": ["research"]},
            {"identifier": "urn:air:example.com:catalog:more", "type": "application/ai-catalog+json", "url": "https://example.com/more.json"},
            {"identifier": "urn:air:example.com:a2a:inline", "type": "application/a2a-agent-card+json", "data": v1_card(name="Inline agent")},
            {"identifier": "urn:air:example.com:a2a:fin", "displayName": "Finance", "type": "application/a2a-agent-card+json", "url": "https://agents.example.com/fin"},
        ],
    }
    cat = parse_catalog(doc, "c")
    assert cat.shape == "AI Catalog"
    assert [(e.name, e.url, e.card is not None) for e in cat.entries] == [
        ("research", "https://agents.example.com/research", False),
        ("Inline agent", None, True),  # an inline card names itself
        ("Finance", "https://agents.example.com/fin", False),
    ]
    assert cat.skipped == (
        "urn:air:example.com:mcp:weather: application/mcp-server-card+json, not an A2A Agent Card",
        "urn:air:example.com:catalog:more: a nested catalog, not followed (pass its URL to --catalog)",
    )
    assert find_entry(cat, "urn:air:example.com:a2a:fin", "c").name == "Finance"
    assert find_entry(cat, "fin", "c").name == "Finance"


@pytest.mark.spec("A2ACLI_CARD_GET_005")
def test_an_rfc_9727_linkset_gives_items_and_contexts_that_link_their_card():
    doc = {
        "linkset": [
            {
                "anchor": "https://www.example.com/.well-known/api-catalog",
                "item": [{"href": "https://a.example/weather"}, {"href": "https://b.example", "title": "Bookings"}],
                "api-catalog": "https://other.example/.well-known/api-catalog",
            },
            {"anchor": "https://geo.example/a2a/route", "describedby": [{"href": "https://geo.example/a2a/route/agent.json", "type": "application/json"}]},
            {"anchor": "https://docs.example/api", "service-doc": [{"href": "https://docs.example/api/doc", "type": "text/html"}]},
        ]
    }
    cat = parse_catalog(doc, "c")
    assert cat.shape == "RFC 9727 API catalog"
    assert [(e.name, e.url) for e in cat.entries] == [
        ("a.example/weather", "https://a.example/weather"),
        ("Bookings", "https://b.example"),
        ("geo.example/a2a/route", "https://geo.example/a2a/route/agent.json"),
    ]
    assert find_entry(cat, "route", "c").url == "https://geo.example/a2a/route/agent.json"  # the anchor's last segment
    assert [s.split(":", 2)[-1].strip() for s in cat.skipped][0].startswith("a nested API catalog")
    assert cat.skipped[1] == "https://docs.example/api: no service-desc or describedby link to a JSON card"


@pytest.mark.spec("A2ACLI_CARD_GET_005")
@pytest.mark.parametrize(
    ("doc", "said"),
    [
        ("agents", "is a string, not a catalog"),
        ({"items": []}, "has no agents, entries or linkset (its keys: items)"),
        (v1_card(), "is an Agent Card, not a catalog"),
        ({"agents": {"weather": WEATHER}}, "$.agents of the catalog at c is an object, not an array"),
        ({"agents": ["https://weather.example"]}, "$.agents[0] is a string, not a catalog entry"),
        ({"agents": [{"url": "https://weather.example"}]}, "$.agents[0] has no name"),
        ({"agents": [{"name": "weather"}]}, "$.agents[0] (weather) says neither where its Agent Card is"),
        ({"agents": [{"name": "weather", "url": 42}]}, "$.agents[0].url is a number, not a string"),
        ({"agents": [{"name": "weather", "card": "inline"}]}, "$.agents[0].card (weather) is a string, not an Agent Card"),
        ({"linkset": [{"item": {"href": "x"}}]}, "$.linkset[0].item is not an array of link objects"),
        ({"linkset": [{"item": [{"title": "no href"}]}]}, "$.linkset[0].item[0] has no href"),
    ],
)
def test_a_document_that_is_no_catalog_says_what_is_wrong(doc, said):
    with pytest.raises(CardInvalidError) as e:
        parse_catalog(doc, "c")
    assert said in e.value.message
    assert e.value.code == "A2ACLI_ERR_CARD_INVALID"


@pytest.mark.spec("A2ACLI_CARD_GET_005")
def test_an_entry_is_found_exactly_then_ignoring_case_and_a_miss_names_the_closest():
    cat = parse_catalog([WEATHER, {"name": "Weather-EU", "url": "https://eu.example"}, {"name": "travel", "url": "https://t.example"}], "c")
    assert find_entry(cat, "weather", "c").url == "https://weather.example"
    assert find_entry(cat, "weather-eu", "c").url == "https://eu.example"
    with pytest.raises(CardNotFoundError) as e:
        find_entry(cat, "wether", "c")
    assert e.value.message == "no agent 'wether' in the catalog c"
    assert "did you mean 'weather'" in e.value.hint and "`a2a card catalog` lists its 3 agent(s)" in e.value.hint
    assert e.value.exit_code == 3 and e.value.code == "A2ACLI_ERR_CARD_NOT_FOUND"
    with pytest.raises(CardNotFoundError, match="lists no agents"):
        find_entry(parse_catalog({"agents": []}, "c"), "weather", "c")


def test_two_entries_of_one_name_are_told_apart_by_their_ids():
    cat = parse_catalog([{"name": "w", "id": "w-1", "url": "https://1.example"}, {"name": "w", "id": "w-2", "url": "https://2.example"}], "c")
    with pytest.raises(UsageError) as e:
        find_entry(cat, "w", "c")
    assert e.value.hint == "name one by its id: catalog:w-1, catalog:w-2"
    assert find_entry(cat, "w-2", "c").url == "https://2.example"


@pytest.mark.spec("A2ACLI_CARD_GET_005")
def test_a_catalog_reference_cannot_be_mistaken_for_a_host_a_url_or_a_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert catalog_entry("catalog:weather") == "weather"
    assert catalog_entry("catalog:team/weather") == "team/weather"
    assert catalog_entry("catalog:8080") is None and agent_reference("catalog:8080") == "https://catalog:8080"  # a host named catalog (bare: https)
    assert catalog_entry("catalog:8080/agent") is None
    assert catalog_entry("http://catalog:80/") is None and catalog_entry("./catalog:x") is None
    (tmp_path / "catalog:weather").write_text("{}")
    assert agent_reference("catalog:weather") == "catalog:weather"  # a file of that name is ./catalog:weather
    assert url_problem("catalog:weather", files=True) is None
    assert url_problem("catalog:Weather agent", files=True) is None  # a name may hold a space
    assert url_problem("catalog:", files=True) == "it names no catalog entry (catalog:NAME, or catalog:CATALOG/NAME)"
    assert url_problem("catalog:a\nb", files=True) == "it holds a line break or another control character"
