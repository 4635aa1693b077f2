"""Agent Card resolution: a base URL (well-known paths), a card URL, or a file:// card."""

from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from a2acli.errors import A2acliError, CardInvalidError, CardNotFoundError, UsageError
from a2acli.records import Record
from a2acli.transport.client import Transport
from a2acli.transport.exchange import Exchange
from a2acli.wire import CARD_PATHS

if TYPE_CHECKING:
    from a2acli.transport.card_cache import CardCache


def read_document(ex: Exchange, what: str) -> Any:
    """The JSON of a card answer, or the error a non-2xx answer carries."""
    from a2acli.wire.bindings.base import json_body

    if not (ex.status and 200 <= ex.status < 300):
        from a2acli.wire.bindings.jsonrpc import JsonRpcBinding  # (an error only: off a card fetch's path)

        raise JsonRpcBinding().error(ex, what, call=False)
    return json_body(ex, what)


class FetchedCard(Record):
    __slots__ = ("url", "doc", "exchange", "tried")
    url: str
    doc: Any  # the card as the server spelt it
    exchange: Exchange | None  # None for file:// cards
    tried: tuple[str, ...]  # the places looked at first, each with why it was no card

    def __init__(
        self,
        url: str,
        doc: Any,
        exchange: Exchange | None,
        tried: tuple[str, ...] = (),
    ) -> None:
        self._set(url, doc, exchange, tried)


def card_candidates(url: str) -> list[str]:
    """Where to look for the card of `url`, in order."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise UsageError(f"--url must be http(s):// or file://, not {url!r}", hint="e.g. --url http://127.0.0.1:41241")
    if not parts.netloc:
        raise UsageError(f"--url {url!r} has no host", hint="e.g. --url http://127.0.0.1:41241")
    if parts.path.endswith(".json"):
        return [url]
    base = url.split("?")[0].rstrip("/")
    root = f"{parts.scheme}://{parts.netloc}"
    out = [base + p for p in CARD_PATHS]
    if base != root:  # a URL with a path: maybe the card's own (used as-is, SPEC §8.1), else an agent mounted there
        out = [url, *out, *(root + p for p in CARD_PATHS)]
    return out


def get_card(transport: Transport, url: str, cache: "CardCache | None" = None) -> Exchange:
    """The GET of a public Agent Card (A2ACLI_AUTH_008): no credential of any kind. The
    credential flags and a profile's token never reach it (transport.get adds none); of the
    headers the user gave (`-H`, `--svc-param`, a profile's headers), those that carry a secret by
    the rule `--debug` redacts by (redact.given_secret) are left out, the harmless ones (tracing,
    tenant, A2A-Extensions) go. With a `cache`: a fresh entry answers without the network, a stale
    one is revalidated (If-None-Match / If-Modified-Since) and a 304 gives it back refreshed; the
    exchange then holds the kept card (`Exchange.cache` says how it came)."""
    from a2acli.redact import given_secret

    secret = frozenset(name.lower() for name, _ in transport.cfg.headers if given_secret(name))
    if cache is None:
        return transport.get(url, label="card", drop=secret)
    import time

    from a2acli.transport.card_cache import carries_credentials

    request = transport.headers({"Accept": "application/json"}, drop=secret)
    if (
        carries_credentials(request, client_cert=bool(transport.cfg.cert))
        or (transport.cfg.insecure and urlsplit(url).scheme.lower() == "https")
        or "@" in urlsplit(url).netloc
    ):
        # its answer is neither served nor kept (and a URL's user:password@ is never written down);
        # nor is a card read without checking the agent's certificate (--insecure): a later run
        # that checks it must not take that card on trust
        return transport.get(url, label="card", drop=secret)
    entry = cache.lookup(url, request)
    if entry is not None and cache.usable(entry, request, time.time()):
        cache.hit(url, entry)
        return transport.from_cache(url, entry, request, "hit")
    ex = transport.get(url, label="card", drop=secret, headers=entry.validators() if entry is not None else None)
    if entry is not None and ex.status == 304:
        if entry.validated_by(ex):
            return transport.from_cache(url, cache.revalidated(url, request, entry, ex), request, "revalidated")
        # a 304 naming another ETag than the kept card's: that card is not the one it speaks of
        # (RFC 9111 §4.3.4), so it is asked for again, unconditionally
        ex = transport.get(url, label="card", drop=secret)
    cache.answered(url, request, ex)
    return ex


def fetch_card(transport: Transport, url: str, cache: "CardCache | None" = None) -> FetchedCard:
    if url.startswith("file://") or (not urlsplit(url).scheme and Path(url).suffix == ".json"):
        path = Path(unquote(urlsplit(url).path) if url.startswith("file://") else url)
        try:
            text = path.read_bytes()
        except OSError as e:
            raise CardNotFoundError(
                f"cannot read the card file {path}: {e.strerror or e}", hint="check the path"
            ) from None
        from a2acli.wire import envelope

        try:
            doc = envelope.loads(text, what=f"card file {path}")
        except A2acliError as e:
            raise CardInvalidError(e.message, hint="the file must hold an Agent Card's JSON") from None
        return FetchedCard(path.resolve().as_uri(), doc, None)
    tried: list[str] = []
    for cand in card_candidates(url):
        ex = get_card(transport, cand, cache)
        if cand == url and not urlsplit(url).path.endswith(
            ".json"
        ):  # the URL as given: a card, or where an agent is mounted
            try:
                doc = read_document(ex, what="the card endpoint") if ex.status and 200 <= ex.status < 300 else None
            except A2acliError:
                doc = None
            from a2acli.wire.catalog import is_card

            if is_card(doc):
                return FetchedCard(cand, doc, ex, tuple(tried))
            tried.append(
                f"{cand} ({f'HTTP {ex.status}' if not (ex.status and 200 <= ex.status < 300) else 'not an Agent Card'})"
            )
            continue
        if ex.status in (404, 410):  # nothing there: the next place may have the card
            tried.append(f"{cand} (HTTP {ex.status})")
            continue
        try:
            doc = read_document(ex, what="the card endpoint")
        except A2acliError as e:
            if not (ex.status and 200 <= ex.status < 300):
                raise
            # something is there, but no card: an error naming it, never a look elsewhere (the next
            # place, the host's root above all, may be another agent's card)
            raise broken_card(cand, ex, e, tried) from None
        if not isinstance(doc, dict):
            raise CardInvalidError(f"{cand} is not an Agent Card (a JSON {type(doc).__name__})", hint="check --url")
        return FetchedCard(cand, doc, ex, tuple(tried))
    raise CardNotFoundError(
        f"no Agent Card at {', '.join(tried)}",
        hint="check --url, or pass --endpoint URL (with --transport) to call the agent without a card",
    )


def broken_card(url: str, ex: Exchange, error: A2acliError, tried: list[str]) -> CardInvalidError:
    """A 2xx answer where a card should be that holds no card's JSON, said for what it is: an HTML
    page, an empty answer, bytes that are not UTF-8, JSON nested too deeply, or not JSON."""
    body = ex.response_body or b""
    head = body[:120].decode("utf-8", "replace").strip()
    hint = "a2a looks elsewhere only when nothing is there (HTTP 404 or 410): fix the card served there, or pass the card's own URL (-u URL.json) or --endpoint URL"
    if not body.strip():
        what = "an empty answer"
    elif (ex.content_type or "").startswith(("text/html", "application/xhtml")) or head[:1] == "<":
        what = f"an HTML page ({ex.content_type or 'no content type'}), not JSON"
        hint = "is that a web app's page? " + hint
    elif "nested too deeply" in error.message:
        what = "JSON nested too deeply to read"
    else:
        try:
            body.decode("utf-8")
        except UnicodeDecodeError as u:
            what = f"not UTF-8 text (byte 0x{body[u.start]:02x} at offset {u.start})"
        else:
            what = f"not JSON: {head[:60]!r}"
    before = f"; looked first at: {', '.join(tried)}" if tried else ""
    return CardInvalidError(f"the Agent Card at {url} is {what}{before}", hint=hint)
