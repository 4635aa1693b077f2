"""Pure choices made from an Agent Card: which interface (binding and URL) to call for a version, and
where an API key goes. Cards are first brought to canonical V1 (translate.to_core_card)."""

from collections.abc import Iterator
from typing import Any
from urllib.parse import urljoin, urlsplit

from a2acli.errors import CARD_INVALID, TRANSPORT_NOT_OFFERED, VERSION_NOT_SUPPORTED, A2acliError
from a2acli.records import Record
from a2acli.wire import Wire, is_pre_v03, version_of


def json_kind(value: Any, *, mapping: str = "an object") -> str:
    """`an array`, `a string`, `null` …: a JSON value's kind, for messages; `mapping` names a dict
    (a TOML file's is "a table")."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    kinds: dict[type, str] = {str: "a string", list: "an array", dict: mapping}
    return kinds.get(type(value), type(value).__name__)


def card_problems(card: Any) -> list[str]:
    """What makes a card (canonical V1) unusable, cheaply (here, not in wire.shapes with the
    answers' checks: `a2a card fetch` does not load those): the fields every A2A call relies on,
    of the wrong kind (`$.name is a number, not a string`). Not a validation (`a2a check card`
    does that): a note that the card will not carry a call as it is."""
    if not isinstance(card, dict):
        return [f"$ is {json_kind(card)}, not an object"]
    out: list[str] = []

    def kind(where: str, value: Any, want: type, what: str) -> bool:
        if isinstance(value, want):
            return True
        out.append(f"{where} is {json_kind(value)}, not {what}")
        return False

    for key in ("name", "description", "version"):
        if key in card or key == "name":
            kind(f"$.{key}", card.get(key), str, "a string")
    if kind("$.supportedInterfaces", card.get("supportedInterfaces", []), list, "an array"):
        for i, itf in enumerate(card.get("supportedInterfaces") or []):
            if kind(f"$.supportedInterfaces[{i}]", itf, dict, "an object"):
                kind(f"$.supportedInterfaces[{i}].url", itf.get("url"), str, "a string")
    if "capabilities" in card:
        kind("$.capabilities", card["capabilities"], dict, "an object")
    if kind("$.skills", card.get("skills", []), list, "an array"):
        for i, skill in enumerate(card.get("skills") or []):
            if kind(f"$.skills[{i}]", skill, dict, "an object"):
                kind(f"$.skills[{i}].id", skill.get("id"), str, "a string")
    return out


# The card's members a call reads, by the JSON kind it reads them as (A2A §4.4.1): what `usable_card`
# keeps. A list's items of another kind are dropped, a member of another kind goes.
_CARD_KINDS: dict[str, Any] = {
    "supportedInterfaces": [dict],
    "capabilities": {"extensions": [dict]},
    "skills": [
        {"tags": [str], "examples": [str], "inputModes": [str], "outputModes": [str], "securityRequirements": [dict]}
    ],
    "securitySchemes": {"*": dict},
    "securityRequirements": [dict],
    "provider": {},
    "signatures": [dict],
    "defaultInputModes": [str],
    "defaultOutputModes": [str],
}


def usable_card(card: Any) -> Any:
    """A copy of a card (canonical V1) with only members of the kind a call reads them as: a
    member of another kind dropped (`supportedInterfaces: true`, `capabilities: 5`), a list's items
    of another kind dropped, nested likewise (issue 35). card_problems says what was wrong; the
    card as fetched stays what `-o json` prints. Every reader of the session's card can then
    trust the kinds, and a wrong one is a clean error (no interface, no scheme), not a TypeError."""
    return _keep(card, _CARD_KINDS) if isinstance(card, dict) else card


def _keep(value: Any, shape: Any) -> Any:
    if isinstance(shape, list):  # a list of items of shape[0]
        want = shape[0]
        if isinstance(want, type):
            return [v for v in value if isinstance(v, want)]
        return [_keep(v, want) for v in value if isinstance(v, dict)]
    out = dict(value)
    for key, want in shape.items():
        if key == "*":  # every member: of this kind
            out = {k: v for k, v in out.items() if isinstance(v, want)}
            continue
        if key not in out:
            continue
        kind = list if isinstance(want, list) else dict
        if not isinstance(out[key], kind):
            del out[key]
        else:
            out[key] = _keep(out[key], want)
    return out


class VersionNotOfferedError(A2acliError):
    """The Agent Card offers no interface for the version asked for: the condition A2A names
    VersionNotSupportedError. When the version is offered, only not over the --transport asked
    for, X_A2A_TRANSPORT_NOT_OFFERED; a card with no interface at all is A2ACLI_ERR_CARD_INVALID."""

    code = VERSION_NOT_SUPPORTED


class Endpoint(Record):
    __slots__ = ("url", "tenant", "binding")
    url: str
    tenant: str
    binding: str  # the --transport spelling (wire.bindings.BINDINGS)

    def __init__(
        self,
        url: str,
        tenant: str = "",
        binding: str = "jsonrpc",
    ) -> None:
        self._set(url, tenant, binding)


def select_interface(
    core_card: dict[str, Any],
    wire: Wire,
    card_url: str,
    transports: tuple[str, ...] = (),
    skip: tuple[str, ...] = (),
) -> Endpoint:
    """The interface to call for `wire`: with `transports` (--transport, in order of preference)
    the first interface of the first binding named; otherwise the first interface, in card order,
    whose binding a2a speaks (V1 spec §8.3.2) and is not in `skip` (a binding whose extra is not
    installed). Never falls back to the other version: that would silently change what goes over
    the wire."""

    wanted = transports or tuple(b.flag for b in _spoken() if b.flag not in skip)
    for flag in wanted if transports else (None,):
        for itf, info in _interfaces(core_card):
            if info is None or (info.flag != flag if flag else info.flag not in wanted):
                continue
            if version_of(str(itf.get("protocolVersion") or "")) is wire:
                return Endpoint(
                    _interface_url(card_url, itf["url"], grpc=info.carrier_grpc),
                    str(itf.get("tenant") or ""),
                    info.flag,
                )
    raise _not_offered(core_card, wire, transports, skip)


def _interfaces(core_card: dict[str, Any]) -> Iterator[tuple[dict[str, Any], Any]]:
    """Each interface with a URL, in card order, with the binding a2a knows it by (None: one it
    does not speak)."""
    from a2acli.wire.bindings import binding_info

    for itf in core_card.get("supportedInterfaces") or []:
        if isinstance(itf, dict) and itf.get("url"):
            yield itf, binding_info(str(itf.get("protocolBinding") or "JSONRPC"))


def _not_offered(
    core_card: dict[str, Any], wire: Wire, transports: tuple[str, ...], skip: tuple[str, ...] = ()
) -> VersionNotOfferedError:
    """No interface fits: what the card offers, and what to pass instead (another --transport or
    --a2a-version, or --endpoint)."""
    from a2acli.wire.bindings import binding_info

    offered = [
        (info.card if info else str(itf.get("protocolBinding")), str(itf.get("protocolVersion") or "?"))
        for itf, info in _interfaces(core_card)
    ]
    listing = ", ".join(f"{b} {v}" for b, v in dict.fromkeys(offered)) or "none"
    known = [binding_info(t) for t in transports]
    names = (
        (" or ".join(b.card for b in known if b) + " interface")
        if transports
        else f"interface a2a speaks ({', '.join(b.card for b in _spoken() if b.flag not in skip)})"
    )
    other = "0.3" if wire is Wire.V1 else "1.0"
    code = VERSION_NOT_SUPPORTED
    if not offered:
        hint = "the card lists no interface to pick: --endpoint URL (with --transport) calls the agent without it"
        code = CARD_INVALID
    elif any(version_of(v) is wire for _, v in offered):
        hint = "pick one the card offers with --transport, or --endpoint URL to call an endpoint the card does not list"
        code = TRANSPORT_NOT_OFFERED
    else:
        hint = f"pass --a2a-version {other}, or --endpoint URL to call an endpoint the card does not list"
    return VersionNotOfferedError(
        f"the Agent Card offers no {names} for A2A {wire.version}; it offers: {listing}", hint=hint, code=code
    )


def _interface_url(card_url: str, url: Any, *, grpc: bool) -> str:
    """An interface's URL, resolved against the card's (a gRPC `host:port` target is no URL to
    resolve); one that is no URL (a number, `http://[::1`) is the card's fault, said as such."""
    from a2acli.errors import CardInvalidError

    if not isinstance(url, str):
        raise CardInvalidError(
            f"the Agent Card's interface URL is {type(url).__name__}, not a string: {str(url)[:80]!r}",
            hint="the card is broken; --endpoint URL calls the agent without it",
        )
    if grpc:
        return url
    try:
        return urljoin(card_url, url)
    except ValueError as e:  # "Invalid IPv6 URL"
        raise CardInvalidError(
            f"the Agent Card's interface URL {url[:100]!r} is not a URL: {e}",
            hint="the card is broken; --endpoint URL calls the agent without it",
        ) from None


def fallback_interface(
    core_card: dict[str, Any], wire: Wire, card_url: str, transports: tuple[str, ...]
) -> tuple[Endpoint, str] | None:
    """--transport (or A2ACLI_TRANSPORT) names no binding the card offers for `wire`: the card's
    own first choice (official CLI spec §13.1: "falls back to the card's order when none
    matches"), with the note that says so; None when the card offers the version on none of the
    bindings a2a speaks either (select_interface then names what it does offer)."""
    from a2acli.wire.bindings import binding_info

    if not transports:
        return None
    try:
        ep = select_interface(core_card, wire, card_url)
    except VersionNotOfferedError:
        return None
    asked = ", ".join(b.card if (b := binding_info(t)) else t for t in transports)
    chosen = b.card if (b := binding_info(ep.binding)) else ep.binding
    note = f"the Agent Card offers no {asked} interface for A2A {wire.version}: using its own first choice, {chosen} at {ep.url}"
    return ep, note


def card_extensions(core_card: dict[str, Any]) -> list[tuple[str, bool]]:
    """(uri, required) of each extension the card declares (capabilities.extensions, A2A §4.6)."""
    caps = core_card.get("capabilities") if isinstance(core_card.get("capabilities"), dict) else {}
    found = caps.get("extensions") if isinstance(caps, dict) else None
    return (
        [(str(e["uri"]), e.get("required") is True) for e in found if isinstance(e, dict) and e.get("uri")]
        if isinstance(found, list)
        else []
    )


def missing_required_extensions(core_card: dict[str, Any], given: tuple[str, ...]) -> list[str]:
    """The extensions the card marks required that --extension does not declare: the agent may
    refuse a request that does not (A2A §4.6.3)."""
    return [uri for uri, required in card_extensions(core_card) if required and uri not in given]


def offered_versions(core_card: dict[str, Any], transports: tuple[str, ...] = ()) -> dict[Wire, list[str]]:
    """The versions the card offers an interface for, on one of `transports` (--transport), or
    on a binding a2a speaks when none is given or the card offers none of them (§13.1): each
    with the protocolVersion strings the card spells it with."""
    mine = _offered_on(core_card, transports) if transports else {}
    return mine or _offered_on(core_card, tuple(b.flag for b in _spoken()))


def _offered_on(core_card: dict[str, Any], wanted: tuple[str, ...]) -> dict[Wire, list[str]]:
    from a2acli.wire.bindings import binding_info

    out: dict[Wire, list[str]] = {}
    for itf in core_card.get("supportedInterfaces") or []:
        if not isinstance(itf, dict) or not itf.get("url"):
            continue
        info = binding_info(str(itf.get("protocolBinding") or "JSONRPC"))
        wire = version_of(str(itf.get("protocolVersion") or ""))
        if info is not None and info.flag in wanted and wire is not None:
            spelt = out.setdefault(wire, [])
            if str(itf.get("protocolVersion")) not in spelt:
                spelt.append(str(itf.get("protocolVersion")))
    return out


def choose_version(core_card: dict[str, Any], transports: tuple[str, ...] = ()) -> tuple[Wire, str]:
    """--a2a-version auto: 1.0 when the card offers it, else 0.3; and the line that says so."""
    offered = offered_versions(core_card, transports)
    listing = " and ".join(v for vs in offered.values() for v in vs)
    if Wire.V1 in offered or Wire.V0 not in offered:
        wire = Wire.V1
        why = f"the card offers {listing}" if offered else "the card offers no version a2a speaks"
    else:
        wire = Wire.V0
        why = f"the card offers {listing}, not 1.0"
    return wire, f"--a2a-version auto: using {wire.version} ({why})"


def card_notes(
    core_card: dict[str, Any], doc: Any, card_url: str, asked_url: str, tried: tuple[str, ...] = ()
) -> list[tuple[str, str]]:
    """What a user must be told about the card that was read (stderr), as (level, text), level
    "note" or "warn": a card from before 0.3 read as 0.3, and a card found at the host root when
    the URL given has a path of its own (on a host with several agents, the root's card may be
    another agent's)."""
    notes = []
    doc = doc if isinstance(doc, dict) else {}
    pv = doc.get("protocolVersion")
    if isinstance(pv, str) and is_pre_v03(pv):
        notes.append(
            (
                "note",
                f"the Agent Card says protocolVersion {pv} (before 0.3): read as 0.3, the V0 wire such agents speak",
            )
        )
    given, used = urlsplit(asked_url), urlsplit(card_url)
    base = given.path.rstrip("/")
    if (
        tried
        and base
        and not given.path.endswith(".json")
        and given.netloc == used.netloc
        and not used.path.startswith(base + "/")
    ):
        name = doc.get("name")
        under = [t for t in tried if t.split(" (")[0] != asked_url] or list(
            tried
        )  # not the URL itself, tried as-is first
        why = under[0].rpartition(" (")[2].rstrip(")")
        named = f" ({name!r})" if isinstance(name, str) and name else ""
        text = f"no Agent Card under {asked_url.rstrip('/')} ({why}): using the host's card at {card_url}{named}; on a host with several agents it may be another agent's: pass the card's own URL to -u"
        notes.append(("warn", text))
    return notes


def version_note(core_card: dict[str, Any], wire: Wire, transports: tuple[str, ...], url: str) -> str | None:
    """`card fetch` under a version the card does not offer: the line that says so, with the
    command that would work."""
    offered = offered_versions(core_card, transports)
    if not offered or wire in offered:
        return None
    import shlex

    other = next(iter(offered))
    return (
        f"the card offers no interface for A2A {wire.version} (it offers {', '.join(v for vs in offered.values() for v in vs)}): "
        f"calls need --a2a-version {other.version}, e.g. a2a send -u {shlex.quote(url)} --a2a-version {other.version} hello"
    )


def _spoken() -> tuple[Any, ...]:
    from a2acli.wire.bindings import BINDINGS

    return tuple(b for b in BINDINGS if b.module)


def api_key_placement(core_card: dict[str, Any] | None) -> tuple[str, str]:
    """(location, name) of the card's apiKey scheme; ('header', 'X-API-Key') otherwise (wire.security)."""
    from a2acli.wire.security import api_key_placement

    return api_key_placement(core_card)
