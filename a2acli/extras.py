"""The command that adds an optional extra (`grpc`, `server`, `verify`) to the `a2a` at hand, in the
words of what installed it: pipx (`pipx inject`), uv (`uv tool install --with`) or pip in this
interpreter's environment. The extra's requirements are read from the installed package's own
metadata (pyproject.toml is their one source), and the package itself is named as it was installed
(a source tree or a git URL, PEP 610's direct_url.json), since a2acli is not on PyPI yet.

Standard library only, and loaded only when a hint is shown (never on a start-up path)."""

from __future__ import annotations

import json
import re
import shlex
import sys
from importlib import metadata
from pathlib import Path

DIST = "a2acli"


def install_hint(extra: str) -> str:
    """`pipx inject a2acli 'a2a-sdk[grpc]<1.4,>=1.3'`, or uv's or pip's form of it."""
    requirements = extra_requirements(extra)
    if not requirements:  # not installed as a package (a bare source tree on sys.path)
        return f"install a2acli with its {extra} extra (from its source tree: pip install '.[{extra}]')"
    quoted = " ".join(shlex.quote(r) for r in requirements)
    prefix = Path(sys.prefix)
    if (prefix / "pipx_metadata.json").exists():  # --force: pipx leaves a package injected before (a2a-sdk) as it is
        return f"pipx inject --force {DIST} {quoted}"
    if (prefix / "uv-receipt.toml").exists():  # a new --with list replaces the old one: both are given
        asked = {_same(r) for r in requirements}
        kept = [r for r in uv_requirements(prefix / "uv-receipt.toml") if _same(r) not in asked]
        withs = " ".join(f"--with {shlex.quote(r)}" for r in [*kept, *requirements])
        return f"uv tool install {withs} {shlex.quote(installed_from())}"
    return f"{shlex.quote(sys.executable)} -m pip install {quoted}"


def _same(requirement: str) -> tuple[str, str]:
    """A requirement as compared: its name with extras, and its specifiers in order (uv's receipt
    writes `>=1.3,<1.4` for the metadata's `<1.4,>=1.3`)."""
    m = re.match(r"\s*([A-Za-z0-9._-]+(?:\[[^\]]*\])?)\s*(.*)", requirement)
    name, spec = (m.group(1), m.group(2)) if m else (requirement, "")
    return name.lower().replace("_", "-"), ",".join(sorted(s.strip() for s in spec.split(",") if s.strip()))


def uv_requirements(receipt: Path) -> list[str]:
    """What the uv tool was installed with besides a2acli (its --with list, and the requirements of
    the extras a2acli itself was installed with), from uv's receipt: `uv tool install --with X`
    installs X alone, so a hint that adds an extra repeats them. None readable: none."""
    try:
        if sys.version_info >= (3, 11):
            import tomllib
        else:  # pragma: no cover
            import tomli as tomllib
        listed = tomllib.loads(receipt.read_text(encoding="utf-8")).get("tool", {}).get("requirements", [])
    except (OSError, ValueError, AttributeError):
        return []
    found: list[str] = []
    for req in listed if isinstance(listed, list) else []:
        if not isinstance(req, dict) or not isinstance(req.get("name"), str):
            continue
        extras = [e for e in req.get("extras") or [] if isinstance(e, str)]
        if req["name"].lower().replace("_", "-") == DIST:
            found += [r for e in extras for r in extra_requirements(e)]
            continue
        spec = req.get("specifier") if isinstance(req.get("specifier"), str) else ""
        found.append(req["name"] + (f"[{','.join(extras)}]" if extras else "") + spec)
    return list(dict.fromkeys(found))


def extra_requirements(extra: str) -> list[str]:
    """The requirements `a2acli[extra]` adds, markers dropped (`a2a-sdk[grpc]<1.4,>=1.3`)."""
    try:
        requires = metadata.requires(DIST) or []
    except metadata.PackageNotFoundError:
        return []
    marker = re.compile(r"""extra\s*==\s*['"]""" + re.escape(extra) + """['"]""")
    return [r.split(";", 1)[0].strip() for r in requires if ";" in r and marker.search(r.split(";", 1)[1])]


def installed_from() -> str:
    """Where a2acli was installed from: a path, `git+URL@REV`, a URL, or its name (an index)."""
    try:
        text = metadata.distribution(DIST).read_text("direct_url.json")
        found = json.loads(text) if text else {}
    except (metadata.PackageNotFoundError, ValueError):
        return DIST
    url = found.get("url", "") if isinstance(found, dict) else ""
    if not isinstance(url, str) or not url:
        return DIST
    vcs = found.get("vcs_info")
    if isinstance(vcs, dict) and vcs.get("vcs") == "git":
        rev = vcs.get("requested_revision")
        return f"git+{url}" + (f"@{rev}" if isinstance(rev, str) and rev else "")
    if url.startswith("file://"):
        from urllib.parse import unquote, urlsplit

        return unquote(urlsplit(url).path)
    return url
