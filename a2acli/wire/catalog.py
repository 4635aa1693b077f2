"""Agent catalogs (official CLI spec §8.1, A2ACLI_CARD_GET_005): the shapes a catalog document
comes in, read as one list of entries, and an entry found by the name a `catalog:NAME` reference
gives. Pure: reading the document is transport.catalog's.

A2A defines card resolution, not a registry, and no catalog format (its agent-discovery topic:
"does not prescribe a standard API for curated registries"). These shapes are read:

- `{"agents": [ENTRY, …]}`, or a bare `[ENTRY, …]`: the simplest list;
- an AI Catalog (`{"specVersion": "1.0", "entries": […]}`, the ai-catalog.org draft, served at
  /.well-known/ai-catalog.json): entries of type `application/a2a-agent-card+json`, named by
  `displayName` or the last segment of `identifier`, the card at `url` or inline in `data`;
  entries of other types (MCP servers, skills, nested catalogs) are skipped, and said;
- an RFC 9727 API catalog (`{"linkset": […]}`, application/linkset+json, served at
  /.well-known/api-catalog): each `item` link is an agent (its `href` where the card is, its
  `title` its name), as is each context whose `service-desc` or `describedby` link is its card.

An ENTRY is an Agent Card itself (a `name`, and `supportedInterfaces`, or a V0 card's `url` with
its `capabilities`, `skills` or `protocolVersion`), or a reference: a name (`name`, `displayName`,
`title`, `id`, `identifier`) and where its card is (`url`, `cardUrl`, `agentCardUrl`, `href`: an
agent's origin or its card's URL, read as -u reads it) or the card itself (`card`, `data`).
`description` and `tags` are shown by `a2a card catalog`."""

from __future__ import annotations

from typing import Any, NamedTuple

from a2acli.errors import CardInvalidError, CardNotFoundError, UsageError

A2A_CARD_TYPE = "application/a2a-agent-card+json"  # the AI Catalog's type of an A2A Agent Card
NAME_KEYS = ("displayName", "name", "title")  # the first one set names the entry
ID_KEYS = ("id", "identifier")
WHERE_KEYS = ("url", "cardUrl", "agentCardUrl", "href")  # where the card is (an origin or the card's URL)
CARD_KEYS = ("card", "data")  # the card itself, inline
CARD_RELATIONS = ("service-desc", "describedby")  # RFC 9727 linkset: a context's card
SHAPES = {"agents": "agents list", "entries": "AI Catalog", "linkset": "RFC 9727 API catalog"}


class Entry(NamedTuple):
    name: str  # what the listing shows, and catalog:NAME matches first
    url: str | None  # where the card is, as the catalog spells it (an origin, a card URL, a path)
    card: dict[str, Any] | None = None  # the card itself, when the catalog holds it
    id: str | None = None  # an identifier, which catalog:ID matches too
    description: str | None = None
    tags: tuple[str, ...] = ()
    path: str = "$"  # where in the document (for messages): $.agents[2]

    @property
    def keys(self) -> tuple[str, ...]:
        """The names catalog:NAME finds this entry by: its name, its id, the id's last segment."""
        tail = _tail(self.id) if self.id else None
        return tuple(dict.fromkeys(k for k in (self.name, self.id, tail) if k))


class Catalog(NamedTuple):
    shape: str  # one of SHAPES' values, or "list of entries"
    entries: tuple[Entry, ...]
    skipped: tuple[str, ...] = ()  # entries that are no A2A agent, and why (said on stderr)


def _tail(identifier: str) -> str:
    """The last segment of an identifier (`urn:air:example.com:a2a:research` -> `research`), as
    the AI Catalog resolves a display name when none is given."""
    return identifier.rstrip(":/").replace("/", ":").rsplit(":", 1)[-1] or identifier


def _kind(value: Any) -> str:
    return {
        dict: "an object",
        list: "an array",
        str: "a string",
        bool: "a boolean",
        int: "a number",
        float: "a number",
        type(None): "null",
    }.get(type(value), type(value).__name__)


def _text(entry: dict[str, Any], keys: tuple[str, ...], path: str) -> str | None:
    """The first of `keys` set in `entry`, a string (CardInvalidError when it is another JSON type)."""
    for k in keys:
        value = entry.get(k)
        if value is None or value == "":
            continue
        if not isinstance(value, str):
            raise CardInvalidError(f"{path}.{k} is {_kind(value)}, not a string", hint="fix the catalog entry")
        return value
    return None


def is_card(doc: Any) -> bool:
    """An Agent Card (V1: supportedInterfaces; V0: a url with the card's capabilities, skills or
    protocolVersion), rather than a reference to one."""
    if not isinstance(doc, dict) or not isinstance(doc.get("name"), str):
        return False
    return "supportedInterfaces" in doc or (
        "url" in doc and any(k in doc for k in ("capabilities", "skills", "protocolVersion"))
    )


def parse_entry(entry: Any, path: str) -> Entry:
    """One entry of a list or an AI Catalog: a card, or a reference to one."""
    if not isinstance(entry, dict):
        raise CardInvalidError(
            f"{path} is {_kind(entry)}, not a catalog entry (an object)",
            hint='an entry is an Agent Card, or {"name": …, "url": …}',
        )
    tags = entry.get("tags")
    tags = tuple(str(t) for t in tags if isinstance(t, (str, int, float))) if isinstance(tags, list) else ()
    if is_card(entry):
        description = entry.get("description") if isinstance(entry.get("description"), str) else None
        return Entry(str(entry["name"]), None, entry, _text(entry, ID_KEYS, path), description, tags, path)
    ident = _text(entry, ID_KEYS, path)
    card = next((entry[k] for k in CARD_KEYS if entry.get(k) is not None), None)
    own = card if isinstance(card, dict) else {}  # an inline card names and describes itself
    name = (
        _text(entry, NAME_KEYS, path)
        or (own["name"] if isinstance(own.get("name"), str) and own["name"] else None)
        or (_tail(ident) if ident else None)
    )
    if not name:
        raise CardInvalidError(
            f"{path} has no name ({', '.join(NAME_KEYS + ID_KEYS)})", hint="give each catalog entry a name"
        )
    if card is not None and not isinstance(card, dict):
        key = next(k for k in CARD_KEYS if entry.get(k) is not None)
        raise CardInvalidError(
            f"{path}.{key} ({name}) is {_kind(card)}, not an Agent Card (an object)", hint="fix the catalog entry"
        )
    url = _text(entry, WHERE_KEYS, path)
    description = _text(entry, ("description",), path) or (
        own["description"] if isinstance(own.get("description"), str) else None
    )
    if card is None and url is None:
        raise CardInvalidError(
            f"{path} ({name}) says neither where its Agent Card is ({', '.join(WHERE_KEYS)}) nor holds it ({', '.join(CARD_KEYS)})",
            hint="give the entry the agent's URL, or its card",
        )
    return Entry(name, None if card is not None else url, card, ident, description, tags, path)


def parse_catalog(doc: Any, where: str) -> Catalog:
    """The catalog document `doc` (read from `where`) as its entries; CardInvalidError saying
    what is wrong when it is no catalog of a shape read here."""
    hint = 'a catalog is {"agents": [...]}, an array of entries, an AI Catalog ({"entries": [...]}) or an RFC 9727 linkset ({"linkset": [...]})'
    if isinstance(doc, list):
        return Catalog("list of entries", tuple(parse_entry(e, f"$[{i}]") for i, e in enumerate(doc)))
    if not isinstance(doc, dict):
        raise CardInvalidError(f"the catalog at {where} is {_kind(doc)}, not a catalog", hint=hint)
    key = next((k for k in SHAPES if k in doc), None)
    if key is None:
        if is_card(doc):
            raise CardInvalidError(
                f"{where} is an Agent Card, not a catalog", hint="pass it to -u (--agent-card) instead of --catalog"
            )
        keys = ", ".join(sorted(str(k) for k in doc)[:8]) or "none"
        raise CardInvalidError(
            f"the catalog at {where} has no agents, entries or linkset (its keys: {keys})", hint=hint
        )
    items = doc[key]
    if not isinstance(items, list):
        raise CardInvalidError(f"$.{key} of the catalog at {where} is {_kind(items)}, not an array", hint=hint)
    if key == "agents":
        return Catalog(SHAPES[key], tuple(parse_entry(e, f"$.agents[{i}]") for i, e in enumerate(items)))
    if key == "entries":
        return _ai_catalog(items)
    return _linkset(items)


def _ai_catalog(items: list[Any]) -> Catalog:
    """An AI Catalog's entries: the A2A Agent Cards (by `type`); the others skipped."""
    entries: list[Entry] = []
    skipped: list[str] = []
    for i, item in enumerate(items):
        path = f"$.entries[{i}]"
        kind = item.get("type") if isinstance(item, dict) else None
        if isinstance(item, dict) and kind is not None and kind != A2A_CARD_TYPE:
            label = _text(item, ("displayName", "identifier"), path) or path
            nested = kind == "application/ai-catalog+json"
            skipped.append(
                f"{label}: a nested catalog, not followed (pass its URL to --catalog)"
                if nested
                else f"{label}: {kind}, not an A2A Agent Card"
            )
            continue
        entries.append(parse_entry(item, path))
    return Catalog(SHAPES["entries"], tuple(entries), tuple(skipped))


def _links(context: dict[str, Any], rel: str, path: str) -> list[dict[str, Any]]:
    links = context.get(rel)
    if links is None:
        return []
    if isinstance(links, str):  # a bare URL, as some publishers write it
        return [{"href": links}]
    if not isinstance(links, list) or not all(isinstance(link, dict) for link in links):
        raise CardInvalidError(
            f"{path}.{rel} is not an array of link objects", hint='RFC 9264: each relation is an array of {"href": …}'
        )
    return links


def _link_entry(link: dict[str, Any], path: str, anchor: str | None = None) -> Entry:
    """A link to an agent's card: named by its title, else by the URL of the agent (the context's
    anchor, or the link's href), which is its id too."""
    href = _text(link, ("href",), path)
    if not href:
        raise CardInvalidError(f"{path} has no href", hint="RFC 9264: a link object has an href")
    title = _text(link, ("title",), path)
    if not title and isinstance(link.get("title*"), list) and link["title*"] and isinstance(link["title*"][0], dict):
        title = _text(link["title*"][0], ("value",), f"{path}.title*[0]")
    ident = anchor or href
    return Entry(title or _name_of_url(ident), href, None, ident, None, (), path)


def _name_of_url(url: str) -> str:
    """A name for an untitled link: its host and path (`agents.example/weather`)."""
    rest = url.split("://", 1)[-1].split("?", 1)[0].split("#", 1)[0].rstrip("/")
    return rest.removesuffix("/.well-known/agent-card.json") or url


def _linkset(contexts: list[Any]) -> Catalog:
    """An RFC 9727 API catalog: `item` links, and contexts that link their card."""
    entries: list[Entry] = []
    skipped: list[str] = []
    for i, context in enumerate(contexts):
        path = f"$.linkset[{i}]"
        if not isinstance(context, dict):
            raise CardInvalidError(
                f"{path} is {_kind(context)}, not a link context (an object)",
                hint="RFC 9264: the linkset is an array of objects with an anchor",
            )
        for j, link in enumerate(_links(context, "item", path)):
            entries.append(_link_entry(link, f"{path}.item[{j}]"))
        for link in _links(context, "api-catalog", path):
            skipped.append(f"{link.get('href')}: a nested API catalog, not followed (pass it to --catalog)")
        anchor = context.get("anchor") if isinstance(context.get("anchor"), str) else None
        cards = [(rel, link) for rel in CARD_RELATIONS for link in _links(context, rel, path)]
        jsonish = [
            (rel, link)
            for rel, link in cards
            if str(link.get("type") or "application/json").split(";")[0].strip().endswith("json")
        ]
        if jsonish:
            rel, link = jsonish[0]
            entries.append(_link_entry(link, f"{path}.{rel}[{_links(context, rel, path).index(link)}]", anchor))
        elif anchor and not context.get("item") and not context.get("api-catalog"):
            skipped.append(f"{anchor}: no service-desc or describedby link to a JSON card")
    return Catalog(SHAPES["linkset"], tuple(entries), tuple(skipped))


def find_entry(catalog: Catalog, name: str, where: str, *, listing: str = "a2a card catalog") -> Entry:
    """The entry `name` names: its name, id or id's last segment, exactly, else ignoring case.
    CardNotFoundError (exit 3) naming the closest names when none does; UsageError when several
    do (an id tells them apart)."""
    for fold in (False, True):
        want = name.casefold() if fold else name
        found = [e for e in catalog.entries if want in ((k.casefold() for k in e.keys) if fold else e.keys)]
        if len(found) == 1:
            return found[0]
        if found:
            ids = [e.id for e in found if e.id]
            raise UsageError(
                f"{name!r} names {len(found)} entries of the catalog {where} ({', '.join(e.path for e in found)})",
                hint=f"name one by its id: {', '.join('catalog:' + i for i in ids)}"
                if len(set(ids)) == len(found)
                else "the catalog names them alike: tell its publisher",
            )
    import difflib

    if not catalog.entries:
        raise CardNotFoundError(
            f"no agent {name!r}: the catalog {where} lists no agents",
            hint=f"check --catalog; `{listing}` shows what it lists",
        )
    names = [k for e in catalog.entries for k in e.keys]
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.5) or difflib.get_close_matches(
        name.casefold(), [n.casefold() for n in names], n=3, cutoff=0.5
    )
    said = f"did you mean {', '.join(repr(c) for c in close)}? " if close else ""
    raise CardNotFoundError(
        f"no agent {name!r} in the catalog {where}", hint=f"{said}`{listing}` lists its {len(catalog.entries)} agent(s)"
    )
