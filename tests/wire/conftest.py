"""Shared by the translator tests: call a translator, check it left its input alone."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest


def _run(fn: Callable[..., Any], obj: Any, **kwargs: Any) -> tuple[Any, list[str]]:
    before = copy.deepcopy(obj)
    notes: list[str] = []
    out = fn(obj, notes=notes, **kwargs)
    assert obj == before, f"{fn.__name__} modified its input"
    return out, notes


@pytest.fixture
def tr() -> Callable[..., tuple[Any, list[str]]]:
    """tr(fn, obj) -> (result, notes); fails if fn mutated obj."""
    return _run
