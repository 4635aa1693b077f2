"""The hint that adds an optional extra fits how `a2a` was installed: pipx, uv's tools or pip (the
markers pipx and uv leave in the environment they make), with the extra's requirements read from
the installed package's metadata and the package named as it was installed (PEP 610)."""

from __future__ import annotations

import json
import sys
from importlib import metadata

import pytest

from a2acli import extras

REQUIRES = [
    "typer<0.29,>=0.28",
    "a2a-sdk[grpc]<1.4,>=1.3; extra == 'grpc'",
    "a2a-sdk[http-server]<1.4,>=1.3; extra == \"server\"",
    "uvicorn<1,>=0.30; extra == 'server'",
    "tomli<3,>=2.0; python_version < '3.11'",
]


class Dist:
    def __init__(self, direct_url: dict | None) -> None:
        self.direct_url = direct_url

    def read_text(self, name: str) -> str | None:
        return json.dumps(self.direct_url) if name == "direct_url.json" and self.direct_url else None


@pytest.fixture
def env(monkeypatch, tmp_path):
    """A fake environment: sys.prefix at tmp_path, a2acli's metadata as given."""
    monkeypatch.setattr(sys, "prefix", str(tmp_path))
    monkeypatch.setattr(sys, "executable", "/opt/a2a venv/bin/python")
    monkeypatch.setattr(metadata, "requires", lambda name: REQUIRES)

    def installed_from(direct_url: dict | None) -> None:
        monkeypatch.setattr(metadata, "distribution", lambda name: Dist(direct_url))

    installed_from(None)
    return tmp_path, installed_from


def test_the_extra_requirements_come_from_the_metadata_markers_dropped(env):
    assert extras.extra_requirements("server") == ["a2a-sdk[http-server]<1.4,>=1.3", "uvicorn<1,>=0.30"]
    assert extras.extra_requirements("grpc") == ["a2a-sdk[grpc]<1.4,>=1.3"]
    assert extras.extra_requirements("nope") == []


def test_pip_installs_into_the_environment_a2a_runs_in(env):
    assert extras.install_hint("server") == (
        "'/opt/a2a venv/bin/python' -m pip install 'a2a-sdk[http-server]<1.4,>=1.3' 'uvicorn<1,>=0.30'"
    )


def test_pipx_injects_into_its_venv(env):
    prefix, _ = env
    (prefix / "pipx_metadata.json").write_text("{}")
    assert extras.install_hint("grpc") == "pipx inject --force a2acli 'a2a-sdk[grpc]<1.4,>=1.3'"  # (issue 46: a2a-sdk may be injected already)


@pytest.mark.parametrize(
    ("direct_url", "source"),
    [
        ({"url": "file:///home/me/a2a%20cli", "dir_info": {}}, "'/home/me/a2a cli'"),
        ({"url": "https://git.example/a2acli.git", "vcs_info": {"vcs": "git", "commit_id": "ab12", "requested_revision": "v0.2"}}, "git+https://git.example/a2acli.git@v0.2"),
        ({"url": "https://git.example/a2acli.git", "vcs_info": {"vcs": "git", "commit_id": "ab12"}}, "git+https://git.example/a2acli.git"),
        (None, "a2acli"),
    ],
)
def test_uv_installs_the_tool_again_from_where_it_came_with_the_extra(env, direct_url, source):
    prefix, installed_from = env
    (prefix / "uv-receipt.toml").write_text("[tool]\n")
    installed_from(direct_url)
    assert extras.install_hint("grpc") == f"uv tool install --with 'a2a-sdk[grpc]<1.4,>=1.3' {source}"


def test_a_source_tree_that_is_not_installed_names_the_extra(monkeypatch):
    def missing(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "requires", missing)
    assert extras.install_hint("verify") == "install a2acli with its verify extra (from its source tree: pip install '.[verify]')"


def test_uv_keeps_what_the_tool_was_installed_with(env, monkeypatch):
    """Issue 46: `uv tool install --with X` replaces the earlier --with list, so the grpc hint after
    the server extra removed the server's packages; the hint repeats them, from uv's receipt (and
    the extras a2acli itself was installed with)."""
    prefix, installed_from = env
    (prefix / "uv-receipt.toml").write_text(
        "[tool]\nrequirements = [\n"
        '  { name = "a2acli", extras = ["verify"], directory = "/home/me/a2acli" },\n'
        '  { name = "a2a-sdk", extras = ["http-server"], specifier = "<1.4,>=1.3" },\n'
        '  { name = "uvicorn", specifier = "<1,>=0.30" },\n'
        "]\n"
    )
    installed_from({"url": "file:///home/me/a2acli", "dir_info": {}})
    reqs = REQUIRES + ["cryptography>=42; extra == 'verify'"]
    monkeypatch.setattr(metadata, "requires", lambda name: reqs)
    assert extras.install_hint("grpc") == (
        "uv tool install --with 'cryptography>=42' --with 'a2a-sdk[http-server]<1.4,>=1.3' --with 'uvicorn<1,>=0.30'"
        " --with 'a2a-sdk[grpc]<1.4,>=1.3' /home/me/a2acli"
    )
    assert extras.install_hint("server").count("uvicorn") == 1  # what the new extra brings is not said twice


def test_an_unreadable_uv_receipt_keeps_the_plain_hint(env):
    prefix, _ = env
    (prefix / "uv-receipt.toml").write_text("not toml [")
    assert extras.install_hint("grpc") == "uv tool install --with 'a2a-sdk[grpc]<1.4,>=1.3' a2acli"


def test_uv_does_not_repeat_a_requirement_its_receipt_spells_in_another_order(env):
    """uv's receipt writes a specifier sorted (`>=1.3,<1.4`), the metadata as built (`<1.4,>=1.3`):
    the same requirement, said once."""
    prefix, _ = env
    (prefix / "uv-receipt.toml").write_text(
        '[tool]\nrequirements = [{ name = "a2acli" }, { name = "uvicorn", specifier = ">=0.30,<1" },'
        ' { name = "a2a-sdk", extras = ["http-server"], specifier = ">=1.3,<1.4" }]\n'
    )
    assert extras.install_hint("server") == (
        "uv tool install --with 'a2a-sdk[http-server]<1.4,>=1.3' --with 'uvicorn<1,>=0.30' a2acli"
    )
