"""The Agent Card cache: the public card's answers kept as HTTP caching says (RFC 9111), so that a
run whose card is still fresh calls the agent without asking for it again.

One file per card URL in the platform's cache directory (`settings.cache_dir`), holding its
variants (one per set of values of the request headers the answer `Vary`s on: A2A-Version among
them). A file is written whole, to a temporary file then renamed over the old one, so a run beside
another (a CI matrix) reads the old entry or the new one, never half of either; a file that does
not read (cut short, corrupt, another layout) is ignored, and replaced by the next answer. Only
this user's own files that no one else may write are read, never through a symbolic link: a
cache directory others can write to cannot hand a run their card. When a new card's file is
stored, entries not written for 30 days are swept (`_prune`).

What is kept: a 200 to a GET that carried no credential (no credential header, no client
certificate) and checked the agent's certificate (not `--insecure`: transport.card), whose answer has a freshness lifetime (max-age, or Expires) or a validator (ETag,
Last-Modified), and is neither `no-store` nor `private` (the cache serves every profile of the
user, so it keeps nothing meant for one principal), nor `Vary: *`; the pipeline keeps it only once
the card has been read as a usable Agent Card (`settle`). A fresh entry is used without asking; a
stale one (or any, for `no-cache` answers and `card fetch`) is revalidated with If-None-Match /
If-Modified-Since, and a 304 refreshes it (one naming another ETag speaks of another card: the
card is asked for again). No heuristic freshness: an answer that says nothing is
revalidated every time. The extended card (a call, not a GET) never comes here.

hishel (the RFC 9111 library for httpx) was measured against this module: it costs some 25 ms of
imports on every run (anyio, sqlite3 and its async storage load with it), more than the whole
margin of `a2a card fetch`'s start-up target; see docs/architecture.md, "The Agent Card cache"."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from a2acli.transport.exchange import Exchange

# How a card fetch uses the cache: USE a fresh entry without asking (the calls), REVALIDATE any
# entry (`card fetch`: always the network, a GET or a revalidation), BYPASS it (`--no-cache`, `check`).
USE, REVALIDATE, BYPASS = "use", "revalidate", "bypass"
LAYOUT = 1  # the entry files' layout: a file of another is ignored (and replaced)
PRUNE_AFTER = 30 * 86400.0  # seconds: an entry not written for so long goes when a new card is stored
_CREDENTIAL_HEADERS = ("authorization", "proxy-authorization", "cookie")
# the headers of a 304 that do not replace the stored ones (RFC 9111 §3.2), and that are not kept:
# the body is kept decoded, and a cookie is the agent's word to one client, never written down here
_NOT_UPDATED = frozenset(
    {"content-length", "content-encoding", "transfer-encoding", "content-range", "connection", "set-cookie"}
)
# Cache-Control directives: a token, then `=token` or `="quoted, string"` (compiled on first use)
_DIRECTIVE = r'\s*([!#$%&\'*+.^_`|~0-9A-Za-z-]+)(?:\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*)))?\s*(?:,|$)'


def cache_control(value: str | None) -> dict[str, str | None]:
    """A Cache-Control header's directives, names in lowercase (RFC 9111 §5.2). A value with no
    quoted string (`max-age=60, no-cache`: nearly all) is split at its commas; one with a quoted
    string (`private="Set-Cookie, X"`) is read by the grammar's pattern, compiled then only."""
    out: dict[str, str | None] = {}
    if not value:
        return out
    if '"' not in value:
        for item in value.split(","):
            name, eq, arg = item.partition("=")
            if name.strip():
                out.setdefault(name.strip().lower(), arg.strip() if eq else None)
        return out
    import re

    for m in re.finditer(_DIRECTIVE, value):
        out.setdefault(m.group(1).lower(), m.group(2) if m.group(2) is not None else m.group(3))
    return out


def _seconds(value: str | None) -> int | None:
    """A delta-seconds value (max-age, Age), or None when it is none; past 2^31, 2^31 (RFC 9111
    §1.2.2: a value too great to hold, however many digits it has)."""
    value = (value or "").strip()
    if not (value.isascii() and value.isdigit()):  # ("²".isdigit(), and int() refuses it)
        return None
    return min(int(value), 2**31) if len(value) < 12 else 2**31


def _date(value: str | None) -> float | None:
    """An HTTP-date as a POSIX time, or None (RFC 9110 §5.6.7: an invalid date is none)."""
    if not value:
        return None
    from email.utils import mktime_tz, parsedate_tz

    parsed = parsedate_tz(value)
    try:
        return float(mktime_tz(parsed)) if parsed is not None else None
    except (ValueError, OverflowError):  # a year out of range (`Sun, 06 Nov 99999 ...`)
        return None


def _header(headers: list[tuple[str, str]] | list[list[str]], name: str) -> str | None:
    """The first header of that name (any case), or None."""
    for k, v in headers:
        if k.lower() == name:
            return v
    return None


def _control(headers: list[tuple[str, str]] | list[list[str]]) -> dict[str, str | None]:
    """The directives of every Cache-Control header of an answer, combined (RFC 9110 §5.3: two
    lines `max-age=60` and `no-store` say both)."""
    return cache_control(", ".join(v for k, v in headers if k.lower() == "cache-control"))


def _opaque(etag: str) -> str:
    """An entity tag without its weakness (`W/"x"` and `"x"` compare equal: the weak comparison,
    RFC 9110 §8.8.3.2)."""
    etag = etag.strip()
    return etag[2:] if etag[:2] in ("W/", "w/") else etag


def _vary(headers: list[tuple[str, str]] | list[list[str]]) -> list[str]:
    """The request headers an answer varies on, in lowercase ("*": on anything)."""
    return [n.strip().lower() for v in headers if v[0].lower() == "vary" for n in v[1].split(",") if n.strip()]


def carries_credentials(headers: dict[str, str], client_cert: bool) -> bool:
    """A request that carries a credential (RFC 9111 §3.5): a credential header, a header the user
    gave that `--debug` would redact (the public card's GET leaves those out), or a client
    certificate. Its answer may be meant for that principal alone: never kept, never served."""
    if client_cert:
        return True
    from a2acli.redact import HARMLESS_HEADERS, given_secret

    return any(
        k.lower() in _CREDENTIAL_HEADERS or (k.lower() not in HARMLESS_HEADERS and given_secret(k)) for k in headers
    )


class CachedCard:
    """One kept answer and what its age and freshness are computed from (RFC 9111 §4.2)."""

    __slots__ = ("url", "selecting", "status", "reason", "headers", "body", "response_time", "initial_age", "lifetime")

    def __init__(
        self,
        url: str,
        selecting: dict[str, str | None],
        status: int,
        reason: str,
        headers: list[tuple[str, str]],
        body: bytes,
        response_time: float,
        initial_age: float,
        lifetime: float | None,
    ) -> None:
        self.url = url
        self.selecting = selecting  # the request's values of the headers the answer varies on
        self.status, self.reason, self.headers, self.body = status, reason, headers, body
        self.response_time = response_time  # when the answer came, by this machine's clock
        self.initial_age = initial_age  # its corrected initial age (§4.2.3)
        self.lifetime = lifetime  # its freshness lifetime (§4.2.1); None: none given

    @classmethod
    def of(
        cls, url: str, request: dict[str, str], status: int, reason: str, headers: list[tuple[str, str]], body: bytes
    ) -> CachedCard:
        """The entry of an answer that came now, to a request that left `request` seconds ago."""
        now = time.time()
        lower = {k.lower(): v for k, v in request.items()}
        selecting = {name: lower.get(name) for name in _vary(headers)}
        return cls(url, selecting, status, reason, list(headers), body, now, *_age_and_lifetime(headers, now))

    def age(self, now: float) -> float:
        """Its current age (§4.2.3)."""
        return self.initial_age + max(0.0, now - self.response_time)

    def fresh(self, now: float) -> bool:
        """Usable without asking: within its lifetime, and not `no-cache` (§4.2, §5.2.2.4)."""
        if self.lifetime is None or "no-cache" in _control(self.headers):
            return False
        if self.response_time > now + 1:  # kept "later" than now: the clock went back since; not trusted
            return False
        return self.age(now) < self.lifetime

    def validators(self) -> dict[str, str]:
        """The conditional headers that revalidate it (§4.3.1), empty when it has no validator."""
        out = {}
        if etag := _header(self.headers, "etag"):
            out["If-None-Match"] = etag
        if modified := _header(self.headers, "last-modified"):
            out["If-Modified-Since"] = modified
        return out

    def validated_by(self, answer: Exchange) -> bool:
        """Whether a 304 speaks of this entry (RFC 9111 §4.3.4): its ETag, or else its
        Last-Modified, is this entry's (a 304 that names neither is taken as this entry's). A 304
        naming another representation must not refresh this one's body."""
        etag, modified = _header(answer.response_headers, "etag"), _header(answer.response_headers, "last-modified")
        mine = _header(self.headers, "etag")
        if etag is not None and mine is not None:
            return _opaque(etag) == _opaque(mine)
        if modified is not None and (kept := _header(self.headers, "last-modified")) is not None:
            return _date(modified) == _date(kept)
        return etag is None or mine is None

    def readable(self) -> bool:
        """Its body is a JSON object (a card): an entry corrupted inside a well-formed file is
        ignored, as a file that does not read is."""
        try:
            return isinstance(json.loads(self.body), dict)
        except (ValueError, RecursionError):
            return False

    def matches(self, request: dict[str, str]) -> bool:
        """Selected by this request (§4.1): the headers the answer varies on have its values."""
        lower = {k.lower(): v for k, v in request.items()}
        return "*" not in self.selecting and all(lower.get(k) == v for k, v in self.selecting.items())

    def refreshed(self, answer: Exchange) -> CachedCard:
        """The entry as a 304 leaves it (§4.3.4): its headers replaced by the 304's, its age and
        lifetime computed again."""
        given = {k.lower() for k, _ in answer.response_headers if k.lower() not in _NOT_UPDATED}
        headers = [(k, v) for k, v in self.headers if k.lower() not in given]
        headers += [(k, v) for k, v in answer.response_headers if k.lower() in given]
        now = time.time()
        return CachedCard(
            self.url,
            self.selecting,
            self.status,
            self.reason,
            headers,
            self.body,
            now,
            *_age_and_lifetime(headers, now),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "url": self.url,
            "selecting": self.selecting,
            "status": self.status,
            "reason": self.reason,
            "headers": self.headers,
            "body": self.body.decode("utf-8"),
            "responseTime": self.response_time,
            "initialAge": self.initial_age,
            "lifetime": self.lifetime,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> CachedCard:
        return cls(
            str(d["url"]),
            {str(k): None if v is None else str(v) for k, v in d["selecting"].items()},
            int(d["status"]),
            str(d["reason"]),
            [(str(k), str(v)) for k, v in d["headers"]],
            str(d["body"]).encode("utf-8"),
            _finite(d["responseTime"]),
            _finite(d["initialAge"]),
            None if d["lifetime"] is None else _finite(d["lifetime"]),
        )


def _finite(value: Any) -> float:
    """A time or a number of seconds read from an entry file: a number within reason, else the
    file does not read (ValueError): `-Infinity` or `NaN` (JSON as Python reads it) would make
    an entry fresh for ever, or an age no integer holds."""
    number = float(value)
    if not -1e15 < number < 1e15:
        raise ValueError(f"not a time: {value!r}")
    return number


def _age_and_lifetime(headers: list[tuple[str, str]], response_time: float) -> tuple[float, float | None]:
    """The corrected initial age (§4.2.3, the request's delay counted as nothing: the card's GET
    is one short exchange) and the freshness lifetime (§4.2.1: max-age, else Expires - Date; no
    heuristic) of an answer."""
    date = _date(_header(headers, "date"))
    apparent = max(0.0, response_time - date) if date is not None else 0.0
    initial = max(apparent, float(_seconds(_header(headers, "age")) or 0))
    directives = _control(headers)
    max_age = _seconds(directives.get("max-age"))
    if max_age is not None:
        return initial, float(max_age)
    expires = _header(headers, "expires")
    if expires is not None:
        when = _date(expires)  # an invalid Expires is a time in the past (§5.3)
        return initial, max(0.0, when - (date if date is not None else response_time)) if when is not None else 0.0
    return initial, None


def storable(status: int, request: dict[str, str], headers: list[tuple[str, str]]) -> bool:
    """Whether an answer to the card's GET may be kept (§3, and this cache's own rules above)."""
    if status != 200:
        return False
    asked = cache_control(next((v for k, v in request.items() if k.lower() == "cache-control"), None))
    said = _control(headers)
    if "no-store" in asked or "no-store" in said or "private" in said or "*" in _vary(headers):
        return False
    return (
        "max-age" in said
        or _header(headers, "expires") is not None
        or _header(headers, "etag") is not None
        or _header(headers, "last-modified") is not None
    )


class CardCache:
    """The cache directory's entries, read and written by one run, used as `mode` says."""

    def __init__(self, directory: Path, mode: str = USE) -> None:
        self.dir = directory
        self.mode = mode
        # url -> the request and the entry a 304 refreshed (kept by settle, unless the 304 forbids it)
        self._found: dict[str, tuple[dict[str, str], CachedCard]] = {}
        self._hits: dict[str, CachedCard] = {}  # url -> the entry used without asking (settle drops it if unusable)
        self._answers: dict[str, tuple[dict[str, str], Exchange]] = {}  # url -> a 200 that came
        self._files: dict[str, list[CachedCard]] = {}  # url -> its variants as read (or written) by this run
        self.notes: list[str] = []  # what --debug says of the cache: an entry ignored, one not written

    def _path(self, url: str) -> Path:
        import hashlib

        return self.dir / f"card-{hashlib.sha256(url.encode('utf-8', 'surrogateescape')).hexdigest()[:40]}.json"

    def _read(self, url: str) -> list[CachedCard]:
        """The variants kept for `url`; none when its file is missing or does not read. Read once
        a run (the look-up's reading serves the write that follows it)."""
        if url not in self._files:
            self._files[url] = self._read_file(url)
        return self._files[url]

    def _read_file(self, url: str) -> list[CachedCard]:
        path = self._path(url)
        try:
            # never through a symbolic link, and only a file of this user's that no one else may
            # write: a cache directory another local user can write to (a shared XDG_CACHE_HOME,
            # a directory they made) must not hand this user a card of their making
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0))
            with os.fdopen(fd, "rb") as f:
                if not _own_file(os.fstat(f.fileno())):
                    self.notes.append(
                        f"ignored {path}: not a file of this user's alone (another owns it, or may write it)"
                    )
                    return []
                doc = json.loads(f.read())
            if doc.get("layout") != LAYOUT:
                self.notes.append(f"ignored {path}: another layout")
                return []
            entries = [CachedCard.from_json(d) for d in doc["entries"]]
        except (FileNotFoundError, NotADirectoryError):
            return []  # none kept (or no directory to keep one in: the write says so)
        except OSError as e:
            self.notes.append(f"ignored {path}: {'a symbolic link' if _is_link(path) else e.strerror or e}")
            return []
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
            self.notes.append(f"ignored {path}: it does not read (cut short, or corrupt)")
            return []  # as if there were none (the next answer replaces it)
        return [e for e in entries if e.url == url]

    def lookup(self, url: str, request: dict[str, str]) -> CachedCard | None:
        """The entry this request selects, or None (`no-cache` or `max-age=0` in the request's own
        Cache-Control makes any entry one to revalidate, as a stale one)."""
        if self.mode == BYPASS:
            return None
        entry = next((e for e in self._read(url) if e.matches(request)), None)
        return entry if entry is not None and entry.readable() else None

    def usable(self, entry: CachedCard, request: dict[str, str], now: float) -> bool:
        """Whether `entry` answers `request` without asking the agent."""
        asked = cache_control(next((v for k, v in request.items() if k.lower() == "cache-control"), None))
        fresh_enough = "no-cache" not in asked and _seconds(asked.get("max-age")) != 0
        return self.mode == USE and fresh_enough and entry.fresh(now)

    def hit(self, url: str, entry: CachedCard) -> None:
        """`entry` answers without asking: dropped if its card proves unusable (settle)."""
        self._hits[url] = entry

    def revalidated(self, url: str, request: dict[str, str], entry: CachedCard, answer: Exchange) -> CachedCard:
        """A 304 came for `entry`: the refreshed entry, kept when the card proves usable and the
        304 lets it be kept (settle)."""
        new = entry.refreshed(answer)
        self._found[url] = (request, new)
        return new

    def answered(self, url: str, request: dict[str, str], answer: Exchange) -> None:
        """A 200 (or anything else) came for `url`: kept when the card proves usable (settle)."""
        self._answers[url] = (request, answer)

    def settle(self, url: str, usable: bool) -> None:
        """The card read from `url` proved a usable Agent Card (`usable`), or not: its answer kept
        (a 304's refreshed entry, or a storable 200), or its entry dropped (a card that fails
        validation, an answer that may not be kept: `no-store`, `private`...)."""
        if self.mode == BYPASS:
            return
        entry: CachedCard | None = self._hits.pop(url, None)
        if entry is not None:  # used as kept: dropped if its card no longer passes (a stricter a2a)
            hit = entry.selecting
            if not usable:
                self._write(url, None, lambda e: e.selecting == hit)
            return
        found = self._found.pop(url, None)
        if found is not None:  # a 304's refreshed entry: kept unless the 304 says otherwise (no-store...)
            request, entry = found
            selecting = entry.selecting
            keep = usable and storable(entry.status, request, entry.headers)
            self._write(url, entry if keep else None, lambda e: e.selecting == selecting)
            return
        if url not in self._answers:
            return
        request, ex = self._answers.pop(url)
        if usable and ex.status is not None and storable(ex.status, request, ex.response_headers):
            try:
                ex.response_body.decode("utf-8")
            except UnicodeDecodeError:
                usable = False
            headers = [(k, v) for k, v in ex.response_headers if k.lower() not in _NOT_UPDATED]
            entry = CachedCard.of(url, request, ex.status, ex.reason, headers, ex.response_body)
            if not entry.fresh(entry.response_time) and not entry.validators():
                entry = None  # stale as it came, and nothing to revalidate it with: of no use kept
        self._write(url, entry if usable else None, lambda e: e.matches(request))

    def _write(self, url: str, entry: CachedCard | None, same: Any) -> None:
        """The file of `url` with `entry` in place of the variants `same(variant)` says it
        replaces (None: those dropped), written to a temporary file then renamed: a run beside this
        one reads the old file or the new, whole. A cache that cannot be written is no error."""
        old = self._read(url)
        kept = [e for e in old if not same(e) and (entry is None or e.selecting != entry.selecting)]
        if entry is None and len(kept) == len(old):
            return  # nothing to drop
        variants = ([entry] if entry is not None else []) + kept[:7]  # a few variants: versions, encodings
        path = self._path(url)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{time.monotonic_ns()}.tmp")
        self._files[url] = variants
        try:
            if not variants:
                path.unlink(missing_ok=True)
                return
            data = json.dumps({"layout": LAYOUT, "entries": [e.to_json() for e in variants]}).encode()
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileNotFoundError:  # the first entry: the directory made (the owner's only)
                self.dir.mkdir(parents=True, mode=0o700, exist_ok=True)
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
            if not old:  # a new card's file (or one that did not read): the old ones are swept
                self._prune(time.time())
        except OSError as e:
            self.notes.append(f"card not kept: cannot write in {self.dir}: {e.strerror or e}")
            try:
                tmp.unlink(missing_ok=True)
            except OSError:
                pass

    def _prune(self, now: float) -> None:
        """Entries not written for PRUNE_AFTER seconds, and temporary files a killed run left for
        a day, removed: the cache of a CI runner that calls agents on ever new ports stays small.
        Done only when a new card's file is stored (a listing of the directory), on this user's own
        files alone, never through a link; what cannot be removed stays, and is no error."""
        try:
            with os.scandir(self.dir) as listing:
                found = [(d.name, d.path) for d in listing]
        except OSError:
            return
        for name, where in found:
            if name.startswith("card-") and name.endswith(".json"):
                limit = PRUNE_AFTER
            elif name.startswith(".card-") and name.endswith(".tmp"):
                limit = 86400.0
            else:
                continue
            try:
                st = os.lstat(where)
                if _own_file(st) and now - st.st_mtime > limit:  # (the file just written is not old)
                    os.unlink(where)
            except OSError:  # gone meanwhile (a run beside this one), or not ours to remove
                pass

    def clear(self) -> tuple[int, list[str]]:
        """Every entry removed (`a2a cache clear`): how many files went, and what could not be
        removed, each with why (a directory that is not there, or is no directory, holds none)."""
        removed, failed = 0, []
        try:
            names = list(self.dir.iterdir())
        except (FileNotFoundError, NotADirectoryError):
            return 0, []
        except OSError as e:
            return 0, [str(e.strerror or e)]
        for p in names:
            if p.name.startswith(("card-", ".card-")) and p.name.endswith((".json", ".tmp")):
                try:
                    p.unlink()
                    removed += not p.name.startswith(".")
                except FileNotFoundError:
                    pass  # a run beside this one renamed its temporary file, or removed it
                except OSError as e:
                    failed.append(f"{p.name}: {e.strerror or e}")
        return removed, failed


def _is_link(path: Path) -> bool:
    try:
        return path.is_symlink()
    except OSError:
        return False


def _own_file(st: os.stat_result) -> bool:
    """A regular file of this user's that no other may write (POSIX; elsewhere, any regular file)."""
    import stat

    if not stat.S_ISREG(st.st_mode):
        return False
    if not hasattr(os, "geteuid"):
        return True
    return st.st_uid == os.geteuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
