"""Dependencies as imported (issue 33): every third-party module a2acli imports is declared in
pyproject.toml (the core's as a dependency, an optional feature's in its extra), and every
declared dependency of the core and of the feature extras is imported by a2acli. Read from the
source (its import statements, walked with ast) and the installed distributions' metadata."""

from __future__ import annotations

import ast
import functools
import re
import sys
from collections.abc import Mapping
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "a2acli"
# Extras that are features of a2acli (its own modules import them); bench and dev are tools.
FEATURE_EXTRAS = ("server", "grpc", "verify", "mcp")
# Modules that come with a declared requirement's extra rather than as a requirement of their own:
# the official SDK's server (starlette) and gRPC stubs (grpcio, protobuf, googleapis-common-protos);
# the MCP SDK's event loop (anyio), which `a2a mcp` runs its flows' threads on, and its JSON Schema
# validator (jsonschema), which checks a tool's arguments.
THROUGH = {"starlette": "a2a-sdk", "grpc": "a2a-sdk", "google": "a2a-sdk", "anyio": "mcp", "jsonschema": "mcp"}
# The standard library of a newer Python than the oldest supported: Python 3.10's
# sys.stdlib_module_names lacks tomllib (3.11), which a2acli imports where it exists (tomli before).
NEWER_STDLIB = {"tomllib"}


def _pyproject() -> dict:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def _name(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def imported_modules() -> set[str]:
    """The top-level names of every absolute import in a2acli that is neither stdlib nor a2acli."""
    skip = {*sys.stdlib_module_names, *NEWER_STDLIB, "a2acli"}
    return {m for m in _absolute_imports() if m not in skip}


@functools.lru_cache(maxsize=1)
def _absolute_imports() -> frozenset[str]:
    """The top-level names of every absolute import in a2acli (the source parsed once a process)."""
    found: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
    return frozenset(found)


def declared() -> dict[str, str]:
    """Each declared distribution (lowercase, dashes) and where: `core` or the extra's name."""
    project = _pyproject()["project"]
    where = {_name(r): "core" for r in project["dependencies"]}
    for extra in FEATURE_EXTRAS:
        for r in project["optional-dependencies"][extra]:
            where.setdefault(_name(r), extra)
    return where


def _distribution(module: str) -> str:
    if module in THROUGH:
        return THROUGH[module]
    if module == "tomli":  # Python 3.10's TOML reader, declared for it alone (not installed on 3.11+)
        return "tomli"
    names = _top_level_names().get(module) or [module]  # (cached: RECORDs are read once)
    return names[0].lower().replace("_", "-")


@functools.lru_cache(maxsize=1)
def _top_level_names() -> dict[str, list[str]]:
    return _with_records(packages_distributions())


def _with_records(known: Mapping[str, list[str]]) -> dict[str, list[str]]:
    """Each importable top-level name and its distributions: packages_distributions(), and, for the
    distributions it misses, the top-level names their RECORD lists. Python 3.10's version reads
    top_level.txt alone, which hatch-built wheels (a2a-sdk's) do not have; 3.11 infers from RECORD."""
    found = {name: list(dists) for name, dists in known.items()}
    for name, dist in _recorded_top_levels():
        if dist not in found.get(name, []):
            found.setdefault(name, []).append(dist)
    return found


@functools.lru_cache(maxsize=1)
def _recorded_top_levels() -> tuple[tuple[str, str], ...]:
    """(top-level name, distribution) of each file every installed distribution's RECORD lists, in
    order (the RECORDs read once a process)."""
    from importlib.metadata import distributions

    pairs = []
    for dist in distributions():
        named = dist.metadata["Name"]  # (its METADATA parsed once, not once a file)
        for path in dist.files or ():
            top = path.parts[0] if path.parts else ""
            name = top[:-3] if top.endswith(".py") else top
            if name.isidentifier():
                pairs.append((name, named))
    return tuple(pairs)


def test_every_imported_module_is_declared():
    want = declared()
    missing = sorted(f"{m} ({_distribution(m)})" for m in imported_modules() if _distribution(m) not in want)
    assert missing == [], f"imported by a2acli but not declared in pyproject.toml: {missing}"


def test_every_declared_dependency_is_imported():
    used = {_distribution(m) for m in imported_modules()}
    unused = sorted(f"{name} [{where}]" for name, where in declared().items() if name not in used)
    assert unused == [], f"declared in pyproject.toml but imported by no module of a2acli: {unused}"


def test_each_declared_dependency_has_a_range():
    project = _pyproject()["project"]
    for r in [*project["dependencies"], *(r for e in FEATURE_EXTRAS for r in project["optional-dependencies"][e])]:
        spec = r.split(";")[0]
        assert ">=" in spec and "<" in spec.split(">=", 1)[1], f"{r}: no tested range (>=low,<high)"


def test_a_hatch_built_wheel_is_found_without_top_level_txt(monkeypatch):
    """Issue 46: on Python 3.10 packages_distributions() reads top_level.txt only, which a2a-sdk's
    hatch-built wheel lacks, so `a2a` was taken for an undeclared distribution named a2a."""
    import importlib.util

    import pytest

    if importlib.util.find_spec("a2a") is None:
        pytest.skip("a2a-sdk is not installed (the server extra)")
    as_on_310 = _with_records({})  # packages_distributions() as 3.10 sees a2a-sdk: nothing
    assert as_on_310["a2a"] == ["a2a-sdk"] and as_on_310["httpx_sse"] == ["httpx-sse"]


def test_tomllib_is_the_standard_library_on_python_3_10_too(monkeypatch):
    """Issue 46: on Python 3.10 sys.stdlib_module_names has no tomllib, which was then taken for an
    undeclared dependency (a2acli imports it on 3.11+, tomli before)."""
    monkeypatch.setattr(sys, "stdlib_module_names", frozenset(sys.stdlib_module_names) - {"tomllib"})
    found = imported_modules()
    assert "tomllib" not in found and "tomli" in found
