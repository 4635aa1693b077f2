from __future__ import annotations

import pytest

from a2acli.wire.translate import (
    to_compat_inner_push_config,
    to_compat_push_config,
    to_compat_push_config_list,
    to_core_inner_push_config,
    to_core_push_config,
    to_core_push_config_list,
)

# REFERENCE §4.1 #7 result and #8/#9 results
FULL_V1 = {"id": "p-1", "taskId": "t-1", "url": "https://cb.example/h", "token": "tok-1",
           "authentication": {"scheme": "Bearer", "credentials": "s3cr3t"}}
FULL_V0 = {"taskId": "t-1", "pushNotificationConfig": {"id": "p-1", "url": "https://cb.example/h", "token": "tok-1",
                                                       "authentication": {"schemes": ["Bearer"], "credentials": "s3cr3t"}}}
SHORT_V1 = {"id": "p-1", "taskId": "t-1", "url": "https://cb.example/h"}
SHORT_V0 = {"taskId": "t-1", "pushNotificationConfig": {"id": "p-1", "url": "https://cb.example/h"}}
NO_ID_V1 = {"taskId": "t-1", "url": "https://cb.example/h", "token": "tok-1",
            "authentication": {"scheme": "Bearer", "credentials": "s3cr3t"}}
NO_ID_V0 = {"taskId": "t-1", "pushNotificationConfig": {"url": "https://cb.example/h", "token": "tok-1",
                                                        "authentication": {"schemes": ["Bearer"], "credentials": "s3cr3t"}}}

PAIRS = {
    "config": (to_core_push_config, to_compat_push_config, FULL_V1, FULL_V0),
    "config short": (to_core_push_config, to_compat_push_config, SHORT_V1, SHORT_V0),
    "config no id": (to_core_push_config, to_compat_push_config, NO_ID_V1, NO_ID_V0),
    "inner": (to_core_inner_push_config, to_compat_inner_push_config,
              {"url": "u", "authentication": {"scheme": "Basic"}}, {"url": "u", "authentication": {"schemes": ["Basic"]}}),
    "list": (to_core_push_config_list, to_compat_push_config_list, {"configs": [SHORT_V1, FULL_V1]}, [SHORT_V0, FULL_V0]),
    "empty list": (to_core_push_config_list, to_compat_push_config_list, {"configs": []}, []),
}
CASES = list(PAIRS.values())
IDS = list(PAIRS)


@pytest.mark.parametrize(("core", "compat", "v1", "v0"), CASES, ids=IDS)
def test_both_directions(tr, core, compat, v1, v0):
    assert tr(compat, v1) == (v0, [])
    assert tr(core, v0) == (v1, [])


@pytest.mark.parametrize(("core", "compat", "v1", "v0"), CASES, ids=IDS)
def test_round_trips_and_idempotence(core, compat, v1, v0):
    assert core(compat(v1)) == v1
    assert compat(core(v0)) == v0
    assert core(v1) == v1
    assert compat(v0) == v0


def test_v1_key_order_is_id_task_then_the_rest():
    assert list(to_core_push_config(FULL_V0)) == ["id", "taskId", "url", "token", "authentication"]


def test_only_the_first_scheme_survives_toward_v1(tr):
    v0 = {"taskId": "t", "pushNotificationConfig": {"url": "u", "authentication": {"schemes": ["Bearer", "Basic"], "credentials": "c"}}}
    assert tr(to_core_push_config, v0) == (
        {"taskId": "t", "url": "u", "authentication": {"scheme": "Bearer", "credentials": "c"}},
        ["push authentication: schemes ['Basic'] dropped (V1 takes one scheme)"])


def test_empty_schemes_and_empty_scheme(tr):
    assert tr(to_core_inner_push_config, {"url": "u", "authentication": {"schemes": []}}) == (
        {"url": "u", "authentication": {}}, [])
    assert tr(to_compat_inner_push_config, {"url": "u", "authentication": {"credentials": "c"}}) == (
        {"url": "u", "authentication": {"schemes": [], "credentials": "c"}}, [])


def test_tenant_is_dropped_toward_v0(tr):
    assert tr(to_compat_push_config, {"tenant": "acme", **SHORT_V1}) == (
        SHORT_V0, ["push config: tenant 'acme' dropped (V0 has no tenants)"])
    assert tr(to_compat_push_config, {"tenant": "", **SHORT_V1}) == (SHORT_V0, [])


def test_inline_config_loses_a_task_id(tr):
    assert tr(to_compat_inner_push_config, {"taskId": "", "url": "u"}) == ({"url": "u"}, [])
    assert tr(to_compat_inner_push_config, {"taskId": "t", "url": "u"}) == (
        {"url": "u"}, ["push config: taskId 't' dropped (the inner V0 config has no task id)"])


def test_list_paging_is_noted_toward_v0(tr):
    assert tr(to_compat_push_config_list, {"configs": [SHORT_V1], "nextPageToken": "n"}) == (
        [SHORT_V0], ["push config list: nextPageToken 'n' dropped (a V0 list is a bare array)"])
    assert tr(to_compat_push_config_list, {"configs": [SHORT_V1], "nextPageToken": ""}) == ([SHORT_V0], [])


def test_lenient_and_unknown_keys(tr):
    lenient = {"task_id": "t", "push_notification_config": {"id": "p", "url": "u", "x_inner": 1}, "x_outer": 2}
    assert tr(to_core_push_config, lenient) == ({"id": "p", "taskId": "t", "url": "u", "x_inner": 1, "x_outer": 2}, [])
    assert tr(to_compat_push_config, {"taskId": "t", "url": "u", "x": 1}) == (
        {"taskId": "t", "pushNotificationConfig": {"url": "u", "x": 1}}, [])
