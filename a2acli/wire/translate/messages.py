# Messages. Same fields in both versions; V0 adds `kind: "message"`, spells the role `user`/`agent`
# instead of ROLE_USER/ROLE_AGENT and its parts carry `kind`. V1 (ProtoJSON) may write empty
# defaults (`contextId: ""`, `referenceTaskIds: []`) that V0 simply omits.
from __future__ import annotations

from typing import Any

from ._common import Notes, entity, map_list, map_value, omit_empty, with_kind
from .enums import to_compat_role, to_core_role
from .parts import to_compat_part, to_core_part

_OPTIONAL = ("contextId", "taskId", "referenceTaskIds", "extensions")


@entity("message")
def to_core_message(msg: dict[str, Any], notes: Notes) -> dict[str, Any]:
    map_value(msg, "role", to_core_role, notes)
    map_list(msg, "parts", to_core_part, notes)
    return msg


@entity("message")
def to_compat_message(msg: dict[str, Any], notes: Notes) -> dict[str, Any]:
    map_value(msg, "role", to_compat_role, notes)
    map_list(msg, "parts", to_compat_part, notes)
    return with_kind("message", omit_empty(msg, _OPTIONAL))
