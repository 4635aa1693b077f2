"""V1 (A2A 1.0, ProtoJSON) <-> V0 (A2A 0.3) translation of plain JSON values.

`to_core_*` turns V0, V1 or lenient vendor V1 into canonical V1; `to_compat_*` turns V1 (or V0)
into canonical V0. Pure functions, stdlib only; inputs are never modified and unknown keys pass
through. Each takes an optional `notes` list that collects what could not be carried across.
"""

from .card import card_version, to_compat_card, to_core_card
from .detect import Detected, detect, translate_document
from .enums import (
    INTERRUPTED_STATES, TERMINAL_STATES, is_interrupted, is_terminal, lowercase_v1_enums,
    to_compat_role, to_compat_task_state, to_core_role, to_core_task_state,
)
from .errors import A2A_ERRORS, error_name, error_reason, to_compat_error, to_core_error
from .messages import to_compat_message, to_core_message
from .parts import to_compat_part, to_core_part
from .push import (
    to_compat_inner_push_config, to_compat_push_config, to_compat_push_config_list,
    to_core_inner_push_config, to_core_push_config, to_core_push_config_list,
)
from .requests import TRANSLATORS, V0_METHOD_NAMES, V1_METHOD_NAMES, MethodTranslators
from .tasks import (
    stream_kind, to_compat_artifact, to_compat_artifact_update, to_compat_send_result,
    to_compat_status_update, to_compat_stream_response, to_compat_task, to_compat_task_list,
    to_compat_task_status, to_core_artifact, to_core_artifact_update, to_core_send_result,
    to_core_status_update, to_core_stream_response, to_core_task, to_core_task_list,
    to_core_task_status,
)

__all__ = [
    "A2A_ERRORS", "INTERRUPTED_STATES", "TERMINAL_STATES", "TRANSLATORS", "V0_METHOD_NAMES",
    "V1_METHOD_NAMES", "Detected", "MethodTranslators", "card_version", "detect", "error_name",
    "error_reason", "is_interrupted", "is_terminal", "lowercase_v1_enums", "stream_kind",
    "to_compat_artifact", "to_compat_artifact_update", "to_compat_card", "to_compat_error",
    "to_compat_inner_push_config", "to_compat_message", "to_compat_part", "to_compat_push_config",
    "to_compat_push_config_list", "to_compat_role", "to_compat_send_result",
    "to_compat_status_update", "to_compat_stream_response", "to_compat_task",
    "to_compat_task_list", "to_compat_task_state", "to_compat_task_status", "to_core_artifact",
    "to_core_artifact_update", "to_core_card", "to_core_error", "to_core_inner_push_config",
    "to_core_message", "to_core_part", "to_core_push_config", "to_core_push_config_list",
    "to_core_role", "to_core_send_result", "to_core_status_update", "to_core_stream_response",
    "to_core_task", "to_core_task_list", "to_core_task_state", "to_core_task_status",
    "translate_document",
]
