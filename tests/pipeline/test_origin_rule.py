"""pipeline.origin: what an origin is, where credentials may go from the URL the user gave, and
which `-H` headers carry a credential (they follow the same rule). Pure functions: tables."""

from __future__ import annotations

import pytest

from a2acli.errors import CredentialsWithheldError
from a2acli.pipeline.origin import (
    check_origin,
    credential_header,
    credential_headers,
    origin,
    same_origin,
    scheme_header_names,
)


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("http://agent.test", ("http", "agent.test", 80)),
        ("https://agent.test/a2a", ("https", "agent.test", 443)),
        ("https://Agent.TEST:8443/x", ("https", "agent.test", 8443)),
        ("http://127.0.0.1:9999/", ("http", "127.0.0.1", 9999)),
        ("agent.test:50051", ("grpc", "agent.test", 50051)),  # a gRPC host:port
        ("grpc://agent.test:443", ("grpc", "agent.test", 443)),
        ("http://[::1]:8000/", ("http", "::1", 8000)),
        ("ftp://files.test/card.json", ("ftp", "files.test", None)),  # no default port a2a knows
        ("http://[::1", ("http", "http://[::1", None)),  # no URL at all: an origin of its own
        ("http://agent.test:99999/", ("http", "http://agent.test:99999/", None)),  # port out of range
    ],
)
def test_an_origin_is_scheme_host_and_port(url, expected):
    assert origin(url) == expected


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("http://agent.test", "http://agent.test:80/rpc", True),
        ("https://agent.test", "https://AGENT.test:443/", True),
        ("http://agent.test", "https://agent.test", False),
        ("http://agent.test", "http://agent.test:8080", False),
        ("http://agent.test", "http://other.test", False),
        ("http://a.agent.test", "http://agent.test", False),  # a subdomain is another origin
    ],
)
def test_same_origin(a, b, same):
    assert same_origin(a, b) is same


@pytest.mark.parametrize(
    ("given", "target", "strict", "insecure", "says"),
    [
        ("http://agent.test", "http://agent.test/rpc", False, False, None),
        (
            "http://agent.test",
            "http://calls.test/rpc",
            False,
            False,
            "credentials go to calls.test:80, named by the Agent Card at http://agent.test",
        ),
        (
            "http://agent.test",
            "https://calls.test/rpc",
            False,
            False,
            "credentials go to calls.test:443, named by the Agent Card at http://agent.test",
        ),
        (
            "https://agent.test",
            "http://agent.test/rpc",
            False,
            True,
            "credentials go to agent.test:80, named by the Agent Card at https://agent.test",
        ),
        (
            "http://agent.test",
            "calls.test:50051",
            False,
            False,
            "credentials go to calls.test:50051, named by the Agent Card at http://agent.test",
        ),
        ("https://agent.test", "https://agent.test:443/rpc", True, False, None),  # strict: the same origin is fine
    ],
)
def test_check_origin_says_where_credentials_go_when_it_is_elsewhere(given, target, strict, insecure, says):
    assert check_origin(given, target, strict=strict, insecure=insecure) == says


@pytest.mark.parametrize(
    ("given", "target", "strict", "insecure", "message", "hint"),
    [
        (
            "http://agent.test",
            "http://calls.test/rpc",
            True,
            False,
            "--strict-origin keeps the credentials at agent.test",
            "--endpoint http://calls.test/rpc",
        ),
        (
            "https://agent.test",
            "https://calls.test/rpc",
            True,
            True,
            "--strict-origin keeps the credentials at agent.test",
            "drop --strict-origin",
        ),
        (
            "https://agent.test",
            "http://agent.test/rpc",
            False,
            False,
            "over plain http: the credentials would cross the network in clear",
            "--insecure",
        ),
        (
            "https://agent.test",
            "calls.test:50051",
            False,
            False,
            "over plain http",
            "pass --endpoint with the https URL",
        ),
    ],
)
def test_check_origin_refuses_what_would_leak(given, target, strict, insecure, message, hint):
    with pytest.raises(CredentialsWithheldError) as refused:
        check_origin(given, target, strict=strict, insecure=insecure)
    assert message in refused.value.message and hint in (refused.value.hint or "")


@pytest.mark.parametrize(
    ("name", "carries"),
    [
        ("Authorization", True),
        ("proxy-authorization", True),
        ("Cookie", True),
        ("X-API-Key", True),
        ("apikey", True),
        ("X-Auth-Token", True),
        ("Private-Token", True),
        ("X-Access-Key", True),
        ("X-Session-Id", True),
        ("X-Secret", True),
        ("X-Client-Credentials", True),
        ("X-Signature", True),
        ("  Authorization  ", True),  # as typed, spaces and all
        ("X-Clix-Idempotency-Key", False),  # a request's key, not a credential
        ("Idempotency-Key", False),
        ("X-Request-ID", False),
        ("Content-Type", False),
        ("Accept", False),
        ("X-Trace", False),
        ("X-Keyboard-Layout", False),  # `key` only as a word of its own
        ("X-Monkey", False),
    ],
)
def test_which_h_header_carries_a_credential(name, carries):
    assert credential_header(name) is carries


CARD = {
    "securitySchemes": {
        "v1": {"apiKeySecurityScheme": {"location": "header", "name": "X-Tenant-Pass"}},
        "v0": {"type": "apiKey", "in": "header", "name": " X-Legacy "},
        "query": {"apiKeySecurityScheme": {"location": "query", "name": "code"}},
        "bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}},
    }
}


def test_the_header_names_the_cards_api_key_schemes_use():
    assert scheme_header_names(CARD) == {"x-tenant-pass", "x-legacy"}  # header schemes only, of either shape
    assert scheme_header_names(None) == set() and scheme_header_names({"securitySchemes": "none"}) == set()


def test_a_header_the_cards_scheme_names_carries_a_credential_whatever_its_name():
    assert credential_header("X-Tenant-Pass", CARD) and not credential_header("X-Tenant-Pass")


def test_credential_headers_lists_the_ones_given_in_their_own_spelling():
    given = [("X-Trace", "1"), ("authorization", "Bearer x"), ("X-Legacy", "k"), ("Accept", "*/*")]
    assert credential_headers(given, CARD) == ["authorization", "X-Legacy"]
    assert credential_headers([], CARD) == []
