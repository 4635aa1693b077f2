"""a2acli/webhook.py: naming a notification body's shape, and the credential checks."""

from __future__ import annotations

import pytest

from a2acli.net import is_loopback
from a2acli.webhook import check_credentials, classify

STATUS = {"taskId": "t-1", "contextId": "c-1", "status": {"state": "TASK_STATE_WORKING"}}


@pytest.mark.parametrize("body,name,core", [
    ({"statusUpdate": STATUS}, "V1 StreamResponse (statusUpdate)", {"statusUpdate": STATUS}),
    ({"message": {"messageId": "m", "role": "ROLE_AGENT", "parts": [{"text": "hi"}]}}, "V1 StreamResponse (message)", {"message": {"messageId": "m", "role": "ROLE_AGENT", "parts": [{"text": "hi"}]}}),
    ({"kind": "status-update", "final": True, **STATUS, "status": {"state": "completed"}}, "V0 status-update (kind)", {"statusUpdate": {**STATUS, "status": {"state": "TASK_STATE_COMPLETED"}}}),
    (STATUS, "bare V1 status-update (no StreamResponse wrapper)", {"statusUpdate": STATUS}),
    ({"jsonrpc": "2.0", "method": "tasks/pushNotification", "params": {"result": {"statusUpdate": STATUS}}},
     "JSON-RPC tasks/pushNotification, params.result: V1 StreamResponse (statusUpdate)", {"statusUpdate": STATUS}),
    ({"jsonrpc": "2.0", "method": "tasks/pushNotification", "params": {}}, "JSON-RPC tasks/pushNotification without an event under params.result", None),
    ({"jsonrpc": "2.0", "method": "x/ping"}, "JSON-RPC request 'x/ping' (not a notification shape)", None),
    ({"hello": "world"}, "JSON, not an A2A notification shape", None),
    ([1, 2], "JSON, not an A2A notification shape", None),
])
def test_classify(body, name, core):
    shape = classify(body)
    assert shape.name == name and shape.core == core


@pytest.mark.parametrize("headers,token,auth,problem", [
    ({}, None, None, None),
    ({"X-A2A-Token": "t1"}, "t1", None, None),
    ({"X-A2A-Notification-Token": "t1", "X-A2A-Token": "t2"}, "t1", None, "X-A2A-Token does not match --token"),
    ({"Authorization": "Bearer s3cret"}, None, "Bearer s3cret", None),
    ({"Authorization": "BEARER s3cret"}, None, "Bearer s3cret", None),
    ({"Authorization": "Basic s3cret"}, None, "Bearer s3cret", "Authorization does not match --auth"),
    ({"Authorization": "raw-key"}, None, "raw-key", None),
    ({"X-A2A-Token": "t1"}, "t1", "Bearer x", "no Authorization header (--auth is set)"),
])
def test_check_credentials(headers, token, auth, problem):
    assert check_credentials(headers, token=token, auth=auth) == problem


def test_loopback():
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("[::1]") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.2") and not is_loopback("example.com")
