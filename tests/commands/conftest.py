"""Fixtures of the command tests: a config file of the test's own, the OAuth2 / OpenID Connect
provider on 127.0.0.1 of the `auth login` tests (tests/oauth_provider.py), and the waits between
polls recorded instead of slept."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from oauth_provider import FakeServer, serve


@pytest.fixture
def cfg(tmp_path, monkeypatch):
    """A2ACLI_GLOBAL_CONFIG points at a config.toml (not yet written) in the test's own directory."""
    path = tmp_path / "cfg" / "config.toml"
    monkeypatch.setenv("A2ACLI_GLOBAL_CONFIG", str(path))
    return path


@pytest.fixture
def server() -> Iterator[FakeServer]:
    with serve() as fake:
        yield fake


@pytest.fixture
def no_sleep(monkeypatch):
    """The waits asked for, not wall time (no flakes, no slow tests)."""
    slept: list[float] = []
    monkeypatch.setattr("time.sleep", slept.append)
    return slept
