"""HTTP transport: one httpx client, card resolution, JSON-RPC posts and SSE streams.

Every exchange is reported to taps (debug printer, dump writer, X-Request-ID reporter) with the
bytes exactly as they crossed the wire."""

from __future__ import annotations

import sys
import types
from typing import Any

if "httpx" not in sys.modules:
    # httpx imports its own command-line tool (click, rich, pygments: ~40 ms of start-up) when
    # those happen to be installed. A None entry makes that optional import fail at once, which
    # httpx handles; `a2a` never uses httpx's CLI.
    sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]


class _OnFirstUse(types.ModuleType):
    """A stand-in in sys.modules for a module loaded only when one of its attributes is first
    read: httpcore imports anyio (its async locks and backend: ~3 ms) and certifi (~1.5 ms with
    importlib.resources) as it loads, and `a2a`'s calls are sync (no anyio) and trust the CA
    bundle only over https:// (certifi.where()). The first read imports the module itself, which
    takes the stand-in's place in sys.modules; the stand-in then holds the module's attributes,
    so that what imported it (httpcore) reads them from it as it would from the module."""

    def __getattr__(self, attr: str) -> Any:
        import importlib

        name = self.__name__
        if sys.modules.get(name) is self:
            del sys.modules[name]
        module = importlib.import_module(name)
        self.__dict__.update(module.__dict__)
        return getattr(module, attr)


def _on_first_use(name: str) -> None:
    if name not in sys.modules:
        sys.modules[name] = _OnFirstUse(name)


if "httpcore" not in sys.modules:
    _on_first_use("anyio")
    _on_first_use("certifi")
