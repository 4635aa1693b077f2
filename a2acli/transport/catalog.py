"""Agent catalogs (official CLI spec §8.1, A2ACLI_CARD_GET_005): which catalog a `catalog:NAME`
reference means, reading it, and where the card of the entry it names is.

A catalog is read like the public card: a GET with our User-Agent and Accept only (no -H, no
credentials: it is public, and may be another origin than the agent), its body capped
(limits.CATALOG_MAX), every step seen by the taps (--debug, --dump); or a file, read with the same
cap. The shapes it may have are wire.catalog's."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import unquote, urljoin, urlsplit

from a2acli.errors import A2acliError, CardInvalidError, UnreachableError, UsageError
from a2acli.net import agent_reference, catalog_entry, url_problem
from a2acli.transport.client import Transport
from a2acli.transport.exchange import Exchange
from a2acli.transport.limits import CATALOG_MAX, too_large
from a2acli.wire.catalog import Catalog, Entry, parse_catalog

# An origin given to --catalog: the well-known places of the two published catalog formats.
CATALOG_PATHS = ("/.well-known/ai-catalog.json", "/.well-known/api-catalog")
ACCEPT = "application/json, application/ai-catalog+json, application/linkset+json"
SET_ONE = "pass --catalog URL|FILE (or set A2ACLI_CATALOG, or `a2a config set catalog URL`)"


class Located(NamedTuple):
    """A catalog reference, located: the entry's name in which catalog."""

    reference: str  # as given: catalog:NAME, catalog:CATALOG/NAME
    name: str  # the entry's name
    catalog: str  # the catalog as messages name it: its URL or file, or `team (URL)`
    location: str  # what to read: an http(s) URL, or a file:// URL


class ReadCatalog(NamedTuple):
    location: str  # where it was read (after the well-known look-up, for an origin)
    catalog: Catalog
    exchange: Exchange | None  # None for a file
    raw: bytes  # the document's bytes (-o raw)


def catalog_location(value: str) -> str:
    """A catalog setting (--catalog, a named catalog) as what to read: an http(s) or file:// URL
    as given; anything else is a file's path (its file:// URL)."""
    text = str(value).strip()
    if "://" in text:
        return text
    try:
        return Path(os.path.expanduser(text)).absolute().as_uri()
    except (OSError, ValueError, RuntimeError):  # ~user unknown, a NUL: no file (reading it says so)
        return text


def locate(reference: str | None, default: str | None, named: tuple[tuple[str, str], ...] = ()) -> Located | None:
    """The catalog and entry `reference` names (None: it is no catalog reference). CATALOG/NAME
    is an entry of the named catalog CATALOG when there is one by that name; otherwise (and for a
    plain NAME) the whole is an entry's name in the default catalog, `default` (--catalog)."""
    rest = catalog_entry(reference)
    if rest is None or reference is None:
        return None
    catalogs = dict(named)
    head, sep, tail = rest.partition("/")
    if sep and head in catalogs and tail:
        location = catalog_location(catalogs[head])
        return Located(reference, tail, f"{head} ({location})", location)
    if not default:
        known = f"; named catalogs: {', '.join(sorted(catalogs))} (catalog:CATALOG/NAME)" if catalogs else ""
        raise UsageError(f"{reference} names an entry of an agent catalog, and no catalog is set", hint=SET_ONE + known)
    location = catalog_location(default)
    return Located(reference, rest, location, location)


def is_file(location: str) -> bool:
    return location.startswith("file://")


def candidates(location: str) -> list[str]:
    """Where to read the catalog at `location`: the URL itself, or for an origin (no path) its
    well-known catalog paths, in order; userinfo left out (it is never sent to a catalog)."""
    parts = urlsplit(location)
    netloc = parts.netloc.rpartition("@")[2]
    if parts.path in ("", "/") and not parts.query:
        return [f"{parts.scheme}://{netloc}{p}" for p in CATALOG_PATHS]
    return [parts._replace(netloc=netloc).geturl()]


def read_catalog(transport: Transport | None, location: str) -> ReadCatalog:
    """The catalog at `location` (an http(s) URL, an origin, a file:// URL), parsed.
    UnreachableError (exit 3) when it cannot be read; CardInvalidError when it is no catalog.
    Without a transport (completion), only a file is read."""
    from a2acli.wire import envelope

    if is_file(location):
        path = Path(unquote(urlsplit(location).path))
        try:
            with path.open("rb") as f:
                raw = f.read(CATALOG_MAX + 1)
        except OSError as e:
            raise UnreachableError(
                f"cannot read the catalog file {path}: {e.strerror or e}",
                hint="check --catalog (a file's path, or an http(s) URL)",
            ) from None
        if len(raw) > CATALOG_MAX:
            raise too_large(
                f"the agent catalog {path}", CATALOG_MAX, hint="an agent catalog is a list of agents: check --catalog"
            )
        return ReadCatalog(path.as_uri(), _parse(raw, str(path)), None, raw)
    if not location.startswith(("http://", "https://")):
        raise UsageError(
            f"the catalog {location!r} is not an http(s) URL or a file",
            hint="e.g. --catalog https://registry.example/agents.json, or --catalog ./agents.json",
        )
    if transport is None:
        raise UsageError(f"the catalog {location} is on the network: not read here", hint="`a2a card catalog` reads it")
    tried: list[str] = []
    refused = False  # a 401/403: the catalog wants credentials, which a2a never sends it
    urls = candidates(location)
    for i, url in enumerate(urls):
        ex = transport.get_public(url, label="catalog", accept=ACCEPT, https_only=False)
        more = i + 1 < len(urls)
        if ex.status in (404, 410) and more:
            tried.append(f"{url} (HTTP {ex.status} {ex.reason}".rstrip() + ")")
            continue
        if not (ex.status and 200 <= ex.status < 300):
            tried.append(f"{url} (HTTP {ex.status} {ex.reason}".rstrip() + ")")
            refused = ex.status in (401, 403)
            break
        try:
            doc = envelope.loads(ex.response_body, what=f"catalog at {url}")
        except A2acliError as e:
            if more:  # a web app's catch-all page at a well-known path: the next may be the catalog
                tried.append(f"{url} ({ex.content_type or 'no content type'}, not JSON)")
                continue
            raise CardInvalidError(
                e.message, hint="an agent catalog is JSON: check --catalog; --debug shows the answer"
            ) from None
        return ReadCatalog(url, parse_catalog(doc, url), ex, ex.response_body)
    raise UnreachableError(
        f"no agent catalog at {', '.join(tried)}",
        hint="a2a sends no credentials to a catalog (it is public, like the Agent Card)"
        if refused
        else "check --catalog: a catalog's URL, or an origin that serves " + " or ".join(CATALOG_PATHS),
    )


def _parse(raw: bytes, where: str) -> Catalog:
    from a2acli.wire import envelope

    try:
        doc = envelope.loads(raw, what=f"catalog {where}")
    except A2acliError as e:
        raise CardInvalidError(e.message, hint="an agent catalog is JSON: check --catalog") from None
    return parse_catalog(doc, where)


_HOST_PORT = re.compile(
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.%]+\]):[0-9]{1,5}(?:[/?#].*)?", re.S
)


def entry_reference(entry: Entry, location: str) -> str:
    """Where the card of `entry` is, as an agent reference -u would take: an http(s) URL as given;
    `host:port` as http://; in a catalog on the network, any other reference relative to the
    catalog's URL (RFC 3986); in a catalog file, a path relative to the file's directory (or a
    bare host as -u reads it). A catalog on the network never points a2a at a local file."""
    url = (entry.url or "").strip()
    remote = not is_file(location)
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    if scheme == "file" and remote:
        raise CardInvalidError(
            f"{entry.path} ({entry.name}) points at a local file, {url!r}: a catalog on the network cannot",
            hint="the catalog's entries must be http(s) URLs",
        )
    if scheme or catalog_entry(url) is not None:
        ref = url
    elif _HOST_PORT.fullmatch(url):
        ref = agent_reference(url)
    elif remote:
        ref = urljoin(location, url)
    else:
        base = Path(unquote(urlsplit(location).path)).parent
        spelt_as_path = (
            url.startswith(("/", "./", "../", "~")) or url.lower().endswith(".json") or (base / url).exists()
        )
        ref = (base / Path(os.path.expanduser(url))).absolute().as_uri() if spelt_as_path else agent_reference(url)
    if catalog_entry(ref) is not None:
        raise CardInvalidError(
            f"{entry.path} ({entry.name}) is another catalog reference, {url!r}: not followed",
            hint="a catalog entry names the agent's URL or card",
        )
    problem = url_problem(ref, files=True)
    if problem or not ref.startswith(("http://", "https://", "file://")):
        raise CardInvalidError(
            f"{entry.path} ({entry.name}): {url!r} is not where an Agent Card can be read ({problem or 'not an http(s) URL or a file'})",
            hint="fix the catalog entry",
        )
    return ref


class ResolvedEntry(NamedTuple):
    read: ReadCatalog
    entry: Entry
    agent: str  # the agent reference to use instead: where the card is, or the catalog itself for an inline card
    card: Any  # transport.card.FetchedCard of a card the catalog holds, else None

    @property
    def note(self) -> str:
        """The line that says what the reference resolved to (stderr)."""
        where = "its Agent Card is in the catalog" if self.card is not None else self.agent
        return f"{self.entry.name!r}, {where}"


def resolve(transport: Transport | None, located: Located) -> ResolvedEntry:
    """The agent a located catalog reference names: the catalog read, its entry found
    (wire.catalog.find_entry), and where the entry's card is (or the card it holds)."""
    from urllib.parse import quote

    from a2acli.transport.card import FetchedCard
    from a2acli.wire.catalog import find_entry

    read = read_catalog(transport, located.location)
    entry = find_entry(read.catalog, located.name, located.catalog)
    if entry.card is not None:  # read from the catalog: its URL, with the entry's name as the fragment
        return ResolvedEntry(
            read, entry, read.location, FetchedCard(f"{read.location}#{quote(entry.name, safe='')}", entry.card, None)
        )
    return ResolvedEntry(read, entry, entry_reference(entry, read.location), None)


def listing(read: ReadCatalog, prefix: str = "") -> list[dict[str, Any]]:
    """The catalog's entries as `a2a card catalog -o json` lists them: name, id, description,
    tags, where the card is (or that it is inline), and the reference that names it."""
    out = []
    for e in read.catalog.entries:
        item: dict[str, Any] = {"name": e.name}
        if e.id:
            item["id"] = e.id
        if e.description:
            item["description"] = e.description
        if e.tags:
            item["tags"] = list(e.tags)
        if e.card is not None:
            item["card"] = "inline"
        else:
            try:
                item["url"] = entry_reference(e, read.location)
            except CardInvalidError as err:
                item["url"], item["problem"] = e.url, err.message
        item["reference"] = f"catalog:{prefix}{e.name}"
        out.append(item)
    return out
