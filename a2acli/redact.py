"""Secrets kept out of every output: the one redaction every path goes through.

One `Redactor` per invocation (the run's: `flows.invocation.Invocation.redactor`, handed to its
Outputs, its options and its sessions; an Output made outside a run masks URL userinfo only),
told every secret as soon as it is known: the credential flags and settings (`--api-key`,
`--bearer`, `--basic`, a profile's OAuth2 client secret and token), every `-H` value whose name
is not a known harmless one, URL userinfo, and the push-config `token`/`credentials` of any body it is shown. Every output path uses it: the
stderr lines and the error envelope (render.output), `--debug` (request and response lines,
bodies, tracebacks with their chained exceptions), `--dump` files and the dump index. Each secret
is hidden in the forms it travels in: as written, JSON-escaped, URL-encoded and base64. Header
values are hidden, never header names.

Stdlib only: render, transport and the pipeline all import it."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote, quote_plus

REDACTED = "<redacted>"
SECRET_HEADERS = frozenset(
    {
        "authorization",
        "proxy-authorization",
        "cookie",
        "set-cookie",
        "x-api-key",
        "x-a2a-notification-token",
        "x-a2a-token",
        "api-key",
    }
)
# Any other header whose name says it carries a secret (X-Auth-Token, X-Session-Id, ...).
# Idempotency-Key is not a credential and stays visible (it is what a retry is checked by).
# (This module's patterns are compiled on first use, by re's cache: not on every start.)
_SECRET_HEADER = r"(?i)(^|[-_])(auth|authorization|token|secret|password|passwd|api[-_]?key|apikey|session|cookie|credentials?)($|[-_])"
# `-H` values are secret unless their name is one of these (what a header of that name carries is
# never a credential): redacting an unknown `X-Access-Key` costs a `<redacted>` in a debug line,
# showing it costs the key.
HARMLESS_HEADERS = frozenset(
    {
        "accept",
        "accept-charset",
        "accept-encoding",
        "accept-language",
        "a2a-version",
        "a2a-extensions",
        "x-a2a-extensions",
        "cache-control",
        "connection",
        "content-language",
        "content-type",
        "content-length",
        "content-encoding",
        "host",
        "idempotency-key",
        "if-match",
        "if-none-match",
        "origin",
        "pragma",
        "prefer",
        "referer",
        "traceparent",
        "tracestate",
        "user-agent",
        "x-b3-traceid",
        "x-b3-spanid",
        "x-correlation-id",
        "x-forwarded-for",
        "x-request-id",
        "x-trace-id",
        "x-tenant-id",
    }
)


def given_secret(name: str) -> bool:
    """Whether a header the user gave (`-H`, `--svc-param`, a profile's headers) carries a secret:
    unless its name is a known harmless one (HARMLESS_HEADERS), it does. The one rule for both
    what `--debug` and `--dump` redact and what the public Agent Card fetch leaves out (A2ACLI_AUTH_008)."""
    low = name.strip().lower()
    return low not in HARMLESS_HEADERS or low in SECRET_HEADERS or bool(re.search(_SECRET_HEADER, low))


# JSON keys whose string values are secrets wherever they appear in a body: the webhook `token`
# and `authentication.credentials` of push configs (requests, answers, send configurations), and
# what an OAuth2 endpoint answers (RFC 6749 §5.1, RFC 8628 §3.2, OpenID Connect's ID token).
SECRET_KEYS = frozenset(
    {"token", "credentials", "access_token", "refresh_token", "id_token", "device_code", "client_secret"}
)
# ...and the fields of a form body (an OAuth2 request, RFC 6749 §4 and §6, RFC 7636, RFC 8628)
# whose values are secrets: a `code` there is an authorization code (in JSON, `code` is an error's).
FORM_SECRET_KEYS = SECRET_KEYS | {"code", "code_verifier", "client_assertion", "assertion", "password"}
MIN_SECRET = 3  # shorter values would redact half the document
# userinfo of a URL (`//bob:pw@host`, `//TOKEN@host`): the password, or a lone user (a token)
_USERINFO = r"(//)([^/@\s?#:\"'<>]*)(?::([^/@\s?#\"'<>]*))?@"


def _userinfo(m: re.Match[str]) -> str:
    if m.group(3) is None:
        return f"{m.group(1)}{REDACTED}@" if m.group(2) and m.group(2) != REDACTED else m.group(0)
    return f"{m.group(1)}{m.group(2)}:{REDACTED}@" if m.group(3) != REDACTED else m.group(0)


def forms(secret: str) -> set[str]:
    """The forms a secret travels in: as written, JSON-escaped, URL-encoded, base64."""
    import base64

    out = {secret}
    for escaped in (
        json.dumps(secret)[1:-1],
        json.dumps(secret, ensure_ascii=False)[1:-1],
        quote(secret, safe=""),
        quote_plus(secret),
    ):
        out.add(escaped)
    raw = secret.encode("utf-8", "surrogateescape")
    for encode in (base64.b64encode, base64.urlsafe_b64encode):
        b64 = encode(raw).decode("ascii")
        out |= {b64, b64.rstrip("=")}
    return {s for s in out if len(s) >= MIN_SECRET}


class Redactor:
    """Knows the secrets of one invocation and hides them: credential headers by name, secret
    values wherever they occur (in every form they travel in), learning new ones from the
    secret-named headers and the `token`/`credentials` keys of the bodies it is shown."""

    def __init__(self, secrets: set[str] | None = None, header_names: set[str] | None = None) -> None:
        self.secrets: set[str] = set()
        self.header_names = SECRET_HEADERS | {h.lower() for h in (header_names or set())}
        self._query_names: set[str] = set()
        self._query: re.Pattern[str] | None = None  # `name=value` of those query parameters
        self._order: list[str] = []  # secrets, longest first (kept sorted as they are added)
        self.add(*(secrets or ()))

    def add(self, *secrets: str | None, header: str | None = None, query: str | None = None) -> None:
        """Secret values (redacted wherever they occur), a secret header name, or the name of a
        query parameter that carries a secret (its value is redacted in every URL, however short
        or percent-encoded it is)."""
        grew = False
        for s in secrets:
            if isinstance(s, str) and len(s) >= MIN_SECRET and s not in self.secrets:
                new = forms(s) - self.secrets
                self.secrets |= new
                grew = grew or bool(new)
        if grew:
            self._order = sorted(self.secrets, key=len, reverse=True)
        if header:
            self.header_names = self.header_names | {header.lower()}
        if query:
            self._query_names |= {query, quote_plus(query)}
            alternatives = "|".join(re.escape(n) for n in sorted(self._query_names))
            self._query = re.compile(rf"([?&](?:{alternatives})=)[^&#\s]*")

    def header_value(self, name: str, value: str, *, given: bool = False) -> None:
        """A header the user gave (`-H`, a profile's headers): its value is a secret unless the
        name is a known harmless one (`given`: from the user, so unknown names count as secret:
        given_secret, the rule the public card fetch leaves such headers out by)."""
        low = name.strip().lower()
        if self.is_secret_header(low) or (given and given_secret(low)):
            self.add(header=low)
            self.add(value.strip(), *value.split(None, 1)[1:])

    def is_secret_header(self, name: str) -> bool:
        name = name.lower()
        return name in self.header_names or (name != "www-authenticate" and bool(re.search(_SECRET_HEADER, name)))

    def url(self, url: str | None) -> None:
        """Learn the userinfo of a URL (`http://bob:pw@host`): the password, and what httpx sends."""
        if not url or "@" not in url:
            return
        from urllib.parse import unquote, urlsplit

        try:
            parts = urlsplit(url)
        except ValueError:
            return
        user, password = parts.username, parts.password
        if password:
            self.add(password, unquote(password))
        elif user:
            self.add(user, unquote(user))
        if user is not None:
            self.add(f"{unquote(user)}:{unquote(password or '')}")

    def learn(self, doc: Any) -> None:
        """Register the secret values of a JSON value (push-config token and credentials)."""
        if isinstance(doc, dict):
            for k, v in doc.items():
                if k in SECRET_KEYS and isinstance(v, str):
                    self.add(v)
                else:
                    self.learn(v)
        elif isinstance(doc, list):
            for v in doc:
                self.learn(v)

    def learn_bytes(self, data: bytes | str) -> None:
        """Register the secret values of a body: a JSON document's (learn), or a form's
        (`application/x-www-form-urlencoded`: FORM_SECRET_KEYS)."""
        if not data:
            return
        try:
            self.learn(json.loads(data))
            return
        except (ValueError, UnicodeDecodeError, RecursionError):
            pass
        try:
            text = data.decode("ascii") if isinstance(data, bytes) else data
        except UnicodeDecodeError:
            return
        if "=" in text and not any(c.isspace() for c in text):
            from urllib.parse import parse_qsl

            self.add(*(v for k, v in parse_qsl(text) if k in FORM_SECRET_KEYS))

    def mask(self, data: bytes) -> bytes:
        """Each secret overwritten with as many `*` (binary data whose lengths count: protobuf)."""
        for s in self._order:
            b = s.encode("utf-8", "surrogateescape")
            if b in data:
                data = data.replace(b, b"*" * len(b))
        return data

    def text(self, text: str) -> str:
        if self._query is not None:
            text = self._query.sub(lambda m: m.group(1) + REDACTED, text)
        if "@" in text:
            text = re.sub(_USERINFO, _userinfo, text)
        for s in self._order:
            if s in text:
                text = text.replace(s, REDACTED)
        return text

    def bytes(self, data: bytes) -> bytes:
        for s in self._order:
            b = s.encode("utf-8", "surrogateescape")
            if b in data:
                data = data.replace(b, REDACTED.encode())
        return data

    def value(self, obj: Any) -> Any:
        """A JSON value with every string (keys included) redacted."""
        if isinstance(obj, str):
            return self.text(obj)
        if isinstance(obj, dict):
            return {self.text(k) if isinstance(k, str) else k: self.value(v) for k, v in obj.items()}
        if isinstance(obj, (list, tuple)):
            return [self.value(v) for v in obj]
        return obj

    def longest(self) -> int:
        return len(self._order[0].encode("utf-8", "surrogateescape")) if self._order else 0

    def headers(self, headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
        out = []
        for k, v in headers:
            if self.is_secret_header(k):
                self.add(v, *v.split(None, 1)[1:])  # the whole value and the token after "Bearer "
                out.append((k, REDACTED))
            else:
                out.append((k, self.text(v)))
        return out


class StreamRedactor:
    """Redacts a body written a chunk at a time, a secret split across chunks included: the last
    bytes of each chunk that could start a secret wait for the next one (or for `flush`)."""

    def __init__(self, redactor: Redactor) -> None:
        self.redactor = redactor
        self.pending = b""

    def feed(self, chunk: bytes) -> bytes:
        buf = self.pending + chunk
        keep = max(self.redactor.longest() - 1, 0)
        cut = max(len(buf) - keep, 0)
        moved = True
        while moved:  # no secret may straddle the cut: it moves back to the secret's start
            moved = False
            for s in self.redactor._order:
                b = s.encode("utf-8", "surrogateescape")
                start = buf.find(b, max(cut - len(b) + 1, 0), cut + len(b) - 1)
                if start != -1 and start < cut:
                    cut, moved = start, True
        self.pending = buf[cut:]
        return self.redactor.bytes(buf[:cut])

    def flush(self) -> bytes:
        out, self.pending = self.redactor.bytes(self.pending), b""
        return out


# -- masking (a setting shown by `config show`) ---------------------------------------------------


def mask(value: Any) -> str:
    """`****cret`: at most the last 4 characters, and never more than a quarter of the secret."""
    s = str(value)
    if not s:
        return ""
    return "****" + s[len(s) - min(4, len(s) // 4) :] if len(s) >= 4 else "****"


def mask_setting(name: str, value: Any) -> str:
    if name == "basic" and ":" in str(value):
        user, _, password = str(value).partition(":")
        return f"{user}:{mask(password)}"
    return mask(value)


SECRET_HEADER_WORDS = ("authorization", "cookie", "key", "token", "secret", "password")


def is_secret_header(name: str) -> bool:
    low = name.lower()
    return any(w in low for w in SECRET_HEADER_WORDS)
