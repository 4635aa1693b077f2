"""V1 (A2A 1.0, ProtoJSON) <-> V0 (A2A 0.3) translation of plain JSON values.

`to_core_*` turns V0, V1 or lenient vendor V1 into canonical V1; `to_compat_*` turns V1 (or V0)
into canonical V0. Pure functions, stdlib only; inputs are never modified and unknown keys pass
through. Each takes an optional `notes` list that collects what could not be carried across.

The package loads lazily: `from a2acli.wire.translate import to_core_card` imports the card module
alone, so `a2a card fetch` does not pay for the request and stream translators at start-up.
"""

from __future__ import annotations

import importlib
from typing import Any

# Where each public name lives; a module's names are bound together on first use.
_EXPORTS: dict[str, tuple[str, ...]] = {
    "card": ("card_version", "to_compat_card", "to_core_card"),
    "detect": ("Detected", "detect", "translate_document"),
    "enums": (
        "INTERRUPTED_STATES",
        "TERMINAL_STATES",
        "is_interrupted",
        "is_terminal",
        "lowercase_v1_enums",
        "to_compat_role",
        "to_compat_task_state",
        "to_core_role",
        "to_core_task_state",
    ),
    "errors": ("A2A_ERRORS", "error_name", "error_reason", "to_compat_error", "to_core_error"),
    "messages": ("to_compat_message", "to_core_message"),
    "parts": ("to_compat_part", "to_core_part"),
    "push": (
        "to_compat_inner_push_config",
        "to_compat_push_config",
        "to_compat_push_config_list",
        "to_core_inner_push_config",
        "to_core_push_config",
        "to_core_push_config_list",
    ),
    "proto03": (
        "PROTO03_MESSAGES",
        "PROTO03_TRANSLATORS",
        "from_proto03_artifact",
        "from_proto03_artifact_update",
        "from_proto03_card",
        "from_proto03_message",
        "from_proto03_part",
        "from_proto03_push_config",
        "from_proto03_push_config_list",
        "from_proto03_send_result",
        "from_proto03_status_update",
        "from_proto03_stream_response",
        "from_proto03_task",
        "from_proto03_task_list",
        "from_proto03_task_status",
        "parse_push_config_name",
        "parse_task_name",
        "push_config_name",
        "task_name",
        "to_proto03_artifact",
        "to_proto03_artifact_update",
        "to_proto03_card",
        "to_proto03_message",
        "to_proto03_part",
        "to_proto03_push_config",
        "to_proto03_push_config_list",
        "to_proto03_send_result",
        "to_proto03_status_update",
        "to_proto03_stream_response",
        "to_proto03_task",
        "to_proto03_task_list",
        "to_proto03_task_state",
        "to_proto03_task_status",
    ),
    "requests": ("TRANSLATORS", "MethodTranslators"),
    "tasks": (
        "stream_kind",
        "to_compat_artifact",
        "to_compat_artifact_update",
        "to_compat_send_result",
        "to_compat_status_update",
        "to_compat_stream_response",
        "to_compat_task",
        "to_compat_task_list",
        "to_compat_task_status",
        "to_core_artifact",
        "to_core_artifact_update",
        "to_core_send_result",
        "to_core_status_update",
        "to_core_stream_response",
        "to_core_task",
        "to_core_task_list",
        "to_core_task_status",
    ),
}
_WHERE = {name: module for module, names in _EXPORTS.items() for name in names}
__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    loaded = importlib.import_module(f".{module}", __name__)
    # Bind the module's names here, so later look-ups skip this function. This also replaces
    # the submodule attribute `detect` (set by the import) with the function of that name.
    globals().update({n: getattr(loaded, n) for n in _EXPORTS[module]})
    return globals()[name]


def __dir__() -> list[str]:
    return __all__
