"""`a2a mock`: the card it serves (the recorded one, moved to the mock's addresses, or one made
from the calls)."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from a2acli.recording.dumps import MISSING
from a2acli.recording.forms import MockAnswer, _binding_and_version, _is_grpc
from a2acli.recording.mock_asked import _HOP, _json, _status_code, _target, path_of
from a2acli.recording.playback import Calls, version_of
from a2acli.wire.bindings import BINDINGS, JSONRPC, BindingInfo


class CardServing:
    """Mock's card (a part of recording.mock.Mock)."""

    found: Calls
    url: str
    grpc: Any
    grpc_url: str | None

    # the card ------------------------------------------------------------------------------------

    def card(self, asked_version: str) -> MockAnswer:
        wanted = "0.3" if asked_version.strip().startswith("0.") else "1.0" if asked_version.strip() else None
        cards = self.found.cards
        chosen = next((ex for v, ex in cards if v == wanted), None) or (cards[0][1] if cards else None)
        if chosen is None:
            doc: Any = self._made_card()
            headers = [("Content-Type", "application/json")]
            name = "a card made from the calls"
        else:
            doc = _json(chosen.response_body.decode("utf-8", "replace"))
            headers = [(k, v) for k, v in chosen.response_headers if k.lower() not in _HOP]
            name = chosen.stem
            if doc is MISSING:
                return MockAnswer(_status_code(chosen.status_line), headers, [(0.0, chosen.response_body)], line=name)
            doc = self._in_version(self._moved(doc), wanted or version_of(chosen))
        return MockAnswer(
            200,
            [*headers, ("X-A2A-Mock", name)],
            [(0.0, json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode())],
            line=f"card ({name})",
        )

    def _moved(self, doc: Any) -> Any:
        """The card with its interface URLs moved to the mock (gRPC ones to its gRPC port, or left
        out when it serves no gRPC), and without the signatures that no longer match it."""
        if not isinstance(doc, dict):
            return doc
        doc = {k: v for k, v in doc.items() if k != "signatures"}
        if isinstance(doc.get("supportedInterfaces"), list):
            served = [i for i in doc["supportedInterfaces"] if self.grpc_url or not _is_grpc(i, "protocolBinding")]
            # the interfaces the recordings can answer (a client picks the first): all when none can
            answered = [i for i in served if _binding_and_version(i) in self._answerable()]
            doc["supportedInterfaces"] = [self._itf(i, "protocolBinding") for i in answered or served]
        if isinstance(doc.get("additionalInterfaces"), list):
            doc["additionalInterfaces"] = [
                self._itf(i, "transport")
                for i in doc["additionalInterfaces"]
                if self.grpc_url or not _is_grpc(i, "transport")
            ]
        if isinstance(doc.get("url"), str):
            if _is_grpc(doc, "preferredTransport") and self.grpc_url:
                doc["url"] = self._grpc_url(doc["url"])
            elif _is_grpc(doc, "preferredTransport"):
                other = next(iter(doc.get("additionalInterfaces") or []), None)
                doc["url"], doc["preferredTransport"] = (
                    (other["url"], other.get("transport"))
                    if isinstance(other, dict)
                    else (self.url + "/", JSONRPC.card)
                )
            else:
                doc["url"] = self._url(doc["url"])
        return doc

    def _in_version(self, doc: Any, wanted: str) -> Any:
        """The card as a client of `wanted` reads it, listing every interface the mock answers:
        each binding of the recorded card under both versions (a call recorded in one is answered
        in the other), built from the card's canonical V1 form."""
        from a2acli.wire.translate import to_compat_card, to_core_card
        from a2acli.wire.translate.card import card_version

        if not isinstance(doc, dict):
            return doc
        core = to_core_card(doc, []) if card_version(doc) == "v0" else doc
        interfaces = [i for i in core.get("supportedInterfaces") or [] if isinstance(i, dict)]
        answerable = self._answerable()
        done = {_binding_and_version(i) for i in interfaces}
        wide = []
        for version in ("1.0", "0.3") if wanted == "1.0" else ("0.3", "1.0"):
            for itf in interfaces:
                found = _binding_and_version(itf)
                if found is None or (found[0], version) not in answerable:
                    continue
                same = (found[0], version) in done and found[1] == version
                if same or (found[0], version) not in done:
                    entry = itf if same else {**itf, "protocolVersion": version}
                    if entry not in wide:
                        wide.append(entry)
        core = {**core, "supportedInterfaces": wide or interfaces}
        return to_compat_card(core, []) if wanted == "0.3" else core

    def _answerable(self) -> set[tuple[BindingInfo, str]]:
        """(binding, version) pairs the mock answers: JSON-RPC and HTTP+JSON under both versions
        (a call recorded in another form is written in the asked one), gRPC as recorded."""
        found = {(c.binding, c.version) for c in self.found.calls if not c.binding.mock_transcodes}
        if self.found.calls:
            found |= {(b, v) for b in BINDINGS if b.module and b.mock_transcodes for v in ("1.0", "0.3")}
        return found

    def _itf(self, itf: Any, key: str) -> Any:
        if not (isinstance(itf, dict) and isinstance(itf.get("url"), str)):
            return itf
        return {**itf, "url": self._grpc_url(itf["url"]) if _is_grpc(itf, key) else self._url(itf["url"])}

    def _grpc_url(self, url: str) -> str:
        """A recorded gRPC interface URL at the mock's gRPC port, in the recorded form
        (`grpc://host:port`, `http://host:port`, or a bare `host:port`)."""
        assert self.grpc is not None
        scheme, sep, _ = url.partition("://")
        return f"{scheme}://127.0.0.1:{self.grpc.port}" if sep else f"127.0.0.1:{self.grpc.port}"

    def _url(self, url: str) -> str:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https"):
            return url
        return self.url + (parts.path or "") + (f"?{parts.query}" if parts.query else "")

    def _made_card(self) -> dict[str, Any]:
        """A card for dumps that recorded none (--endpoint): one interface per binding and version called."""
        interfaces = []
        for c in self.found.calls:
            if c.binding.carrier_grpc and not self.grpc_url:
                continue
            target = path_of(_target(c.ex)) if c.binding.envelope else ""
            itf = {
                "url": self.grpc_url
                if c.binding.carrier_grpc
                else self.url + (target or "/" if c.binding.envelope else ""),
                "protocolBinding": c.binding.card,
                "protocolVersion": c.version,
            }
            if itf not in interfaces:
                interfaces.append(itf)
        streaming = any(c.ex.stream for c in self.found.calls)
        return {
            "name": "a2a mock",
            "description": "Recorded exchanges served by `a2a mock` (no card was recorded).",
            "version": "0",
            "supportedInterfaces": interfaces,
            "capabilities": {"streaming": streaming},
            "defaultInputModes": ["text/plain"],
            "defaultOutputModes": ["text/plain"],
            "skills": [],
        }


# -- helpers ---------------------------------------------------------------------------------------
