"""pipeline.options: a call's resolved options, and the connection flags a printed command repeats
(what was given as a flag, in one order; a credential by its placeholder, never its value)."""

from __future__ import annotations

from types import MappingProxyType, SimpleNamespace
from typing import Any

import pytest

from a2acli.pipeline.options import CallOptions, conn_flags
from a2acli.settings.table import MAX_BODY_BYTES
from a2acli.wire import Wire


def given(*names: str, source: str = "flag") -> MappingProxyType:
    return MappingProxyType(dict.fromkeys(names, source))


def test_the_defaults_are_a_1_0_call_of_the_spec_dialect():
    opts = CallOptions()
    assert opts.wire is Wire.V1 and not opts.version_auto
    assert opts.dialect.name == "spec" and opts.output == "auto"
    assert opts.max_body == MAX_BODY_BYTES and opts.headers == () and opts.transports == ()


@pytest.mark.parametrize("name", ["spec", "clix", " CLIX "])
def test_the_dialect_is_looked_up_by_name(name):
    assert CallOptions(dialect_name=name).dialect.name == name.strip().lower()


def test_an_unknown_dialect_is_named():
    with pytest.raises(ValueError, match="unknown dialect 'nope'"):
        CallOptions(dialect_name="nope").dialect  # noqa: B018 - the property raises


def test_options_are_replaced_not_changed():
    opts = CallOptions(url="http://a.test")
    other = opts._replace(wire=Wire.V0)
    assert opts.wire is Wire.V1 and other.wire is Wire.V0 and other.url == "http://a.test"


@pytest.mark.parametrize(
    ("opts", "flags"),
    [
        ({}, ""),
        ({"url": "http://a.test", "sources": given("url")}, " -u http://a.test"),
        ({"url": "http://a.test", "sources": given("url", source="env")}, ""),  # the same environment gives it again
        ({"url": "http://a.test", "sources": given("url", source="file")}, ""),
        ({"url": "http://a.test/my agent", "sources": given("url")}, " -u 'http://a.test/my agent'"),
        ({"endpoint": "http://a.test/rpc", "sources": given("endpoint")}, " --endpoint http://a.test/rpc"),
        ({"catalog": "./agents.json", "sources": given("catalog")}, " --catalog ./agents.json"),
        ({"config": "c.toml"}, " --config c.toml"),  # as given on the command line: always
        ({"profile": "p", "resolved": SimpleNamespace(profile_source="flag")}, " --profile p"),
        ({"profile": "p", "resolved": SimpleNamespace(profile_source="env")}, ""),
        ({"profile": "p"}, ""),
        ({"transports": ("grpc", "rest"), "sources": given("transport")}, " --transport grpc --transport rest"),
        ({"transports": ("grpc",), "sources": given("transport", source="env")}, ""),
        ({"wire": Wire.V1, "sources": given("a2a-version")}, ""),  # 1.0 is the default
        ({"wire": Wire.V0, "sources": given("a2a-version")}, " --a2a-version 0.3"),
        ({"version_auto": True, "sources": given("a2a-version")}, " --a2a-version auto"),
        ({"wire": Wire.V0, "sources": given("a2a-version", source="env")}, ""),
        ({"dialect_name": "clix", "sources": given("dialect")}, " --dialect clix"),
        ({"dialect_name": "spec", "sources": given("dialect")}, ""),
        ({"extensions": ("urn:a", "urn:b c")}, " --extension urn:a --extension 'urn:b c'"),
        ({"cacert": "ca dir/ca.pem", "sources": given("cacert")}, " --cacert 'ca dir/ca.pem'"),
        ({"cert": "c.pem", "key": "k.pem", "sources": given("cert")}, " --cert c.pem"),  # the key from elsewhere
        ({"plaintext": True}, " --plaintext"),
        ({"insecure": True}, " --insecure"),
        ({"strict_origin": True, "sources": given("strict-origin")}, " --strict-origin"),
        ({"strict_origin": True}, ""),
    ],
)
def test_conn_flags_repeat_what_was_given_as_a_flag(opts: dict[str, Any], flags):
    assert conn_flags(CallOptions(**opts)) == flags


@pytest.mark.parametrize(
    ("name", "field", "placeholder"),
    [
        ("api-key", "api_key", "--api-key KEY"),
        ("bearer", "bearer", "--bearer TOKEN"),
        ("basic", "basic", "--basic USER:PASS"),
    ],
)
def test_a_credential_flag_is_named_by_its_placeholder_never_its_value(name, field, placeholder):
    opts = CallOptions(**{field: "s3cret-value"}, sources=given(name))
    assert conn_flags(opts) == " " + placeholder
    assert conn_flags(opts, secrets=False) == ""
    assert conn_flags(opts._replace(sources=given(name, source="env"))) == ""  # not given as a flag


def test_conn_flags_keep_one_order_whatever_the_options_order():
    opts = CallOptions(
        insecure=True,
        api_key="k",
        url="http://a.test",
        transports=("rest",),
        sources=given("url", "transport", "api-key"),
        config="c.toml",
    )
    assert conn_flags(opts) == " --config c.toml -u http://a.test --transport rest --api-key KEY --insecure"
