"""The one method table ties every other table: each method has its V0 name (or a reason for
none), translators for both wire shapes, routes for both REST versions, a shape check for what it
answers, a command, and goldens. A method added to METHODS without one of them fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from a2acli.wire import shapes
from a2acli.wire.bindings import BINDINGS
from a2acli.wire.methods import METHODS, V0_METHOD_NAMES, V1_METHOD_NAMES
from a2acli.wire.translate import TRANSLATORS
from a2acli.wire.translate.proto03 import PROTO03_TRANSLATORS

GOLDEN = Path(__file__).parent.parent / "golden"
UPSTREAM = Path(__file__).resolve().parents[3] / "shared" / "a2a-spec" / "upstream"


@pytest.mark.parametrize("name", sorted(METHODS))
def test_every_method_has_every_piece(name):
    spec = METHODS[name]
    assert V0_METHOD_NAMES.get(name) == spec.v0 and (spec.v0 is None or V1_METHOD_NAMES[spec.v0] == name)
    assert name in TRANSLATORS and name in PROTO03_TRANSLATORS
    assert spec.rest is not None and spec.rest_v0 is not None
    assert spec.rest.verb in ("GET", "POST", "DELETE") and spec.rest_v0.template.startswith("/v1/")
    assert spec.result == "empty" or spec.result in shapes._CHECKS
    for wire in ("v1", "v0"):
        for b in BINDINGS:
            no_form = b.flag == "grpc" and wire == "v0" and spec.grpc_v0 is None  # 0.3 gRPC has no ListTasks
            if b.module and not no_form:
                assert (GOLDEN / "offline-http" / f"{name}.{wire}.{b.flag}.http").is_file()


def test_the_tables_name_no_method_the_method_table_lacks():
    assert set(TRANSLATORS) == set(METHODS) == set(PROTO03_TRANSLATORS)
    assert set(V0_METHOD_NAMES) <= set(METHODS)


def _annotations(proto: Path) -> dict[str, tuple[str, str, str]]:
    """rpc name -> (verb, path, body) of the first google.api.http binding in a proto file."""
    text = proto.read_text()
    out = {}
    for m in re.finditer(r"rpc (\w+)\(.*?option \(google\.api\.http\) = \{\s*(get|post|delete): \"([^\"]+)\"(?:\s*body: \"([^\"]*)\")?", text, re.S):
        out[m.group(1)] = (m.group(2).upper(), m.group(3), m.group(4) or "")
    return out


@pytest.mark.skipif(not UPSTREAM.is_dir(), reason="needs ../shared/a2a-spec/upstream")
def test_v1_routes_are_the_protos_annotations():
    """The 1.0 routes are spelt as in v1.0.1/a2a.proto (field names in their JSON form)."""
    routes = _annotations(UPSTREAM / "v1.0.1" / "a2a.proto")
    for name, spec in METHODS.items():
        verb, path, body = routes[name]
        path = re.sub(r"\{(\w+)", lambda m: "{" + re.sub(r"_(\w)", lambda n: n.group(1).upper(), m.group(1)), path)
        assert (spec.rest.verb, spec.rest.template, spec.rest.body) == (verb, path, body), name


@pytest.mark.skipif(not UPSTREAM.is_dir(), reason="needs ../shared/a2a-spec/upstream")
def test_v0_routes_follow_the_03_proto_bar_its_documented_slips():
    routes = _annotations(UPSTREAM / "v0.3.0" / "a2a.proto")
    rpc = {"SubscribeToTask": "TaskSubscription", "ListTaskPushNotificationConfigs": "ListTaskPushNotificationConfig", "GetExtendedAgentCard": "GetAgentCard"}
    # the proto's typo `task/*`, where every server routes tasks/; its `body: "config"` is kept (a2a-sdk
    # reads the whole request: the route's other form, Route.other)
    slips = {"CreateTaskPushNotificationConfig": ("POST", "/v1/{parent=tasks/*}/pushNotificationConfigs", "config")}
    for name, spec in METHODS.items():
        if name == "ListTasks":  # no such rpc in 0.3
            continue
        want = slips.get(name) or routes[rpc.get(name, name)]
        assert (spec.rest_v0.verb, spec.rest_v0.template, spec.rest_v0.body) == want, name
