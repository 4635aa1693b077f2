"""a2acli/artifacts.py: file names that never leave the directory, and what each part becomes."""

from __future__ import annotations

import pytest

from a2acli.artifacts import inside, plan, safe_name
from a2acli.errors import InvalidResponseError


@pytest.mark.parametrize("given,expected", [
    ("report.pdf", "report.pdf"),
    ("../../etc/passwd", "passwd"),
    ("/etc/shadow", "shadow"),
    ("..\\..\\win.ini", "win.ini"),
    ("..", "fallback"),
    (".bashrc", "bashrc"),
    ("a\x00b<c>.txt", "a_b_c_.txt"),
    ("dir/", "fallback"),
    ("", "fallback"),
    (None, "fallback"),
    ("x" * 300 + ".json", "x" * 175 + ".json"),
])
def test_safe_name(given, expected):
    assert safe_name(given, "fallback") == expected


def test_plan_names_each_part_by_kind():
    task = {"artifacts": [
        {"artifactId": "a-1", "name": "user", "parts": [{"data": {"id": 1}}, {"data": {"id": 2}}, {"text": "hi"}]},
        {"artifactId": "a-2", "parts": [{"raw": "aGk=", "mediaType": "image/png"}, {"url": "https://x.example/d/report%201.pdf"},
                                         {"url": "https://x.example/blob", "mediaType": "application/pdf"}]},
        {"artifactId": "a-3", "name": "../../evil", "parts": [{"text": "x", "filename": "../../.ssh/authorized_keys"}, {"text": "y"}]},
        {"artifactId": "a-4", "name": "USER", "parts": [{"data": {}}]},
    ]}
    assert [(p.name, p.kind) for p in plan(task)] == [
        ("user.json", "data"), ("user-2.json", "data"), ("user.txt", "text"),
        ("a-2.png", "file"), ("report 1.pdf", "file"), ("a-2.pdf", "file"),
        ("authorized_keys", "text"), ("evil.txt", "text"),
        ("USER-3.json", "data"),  # names are unique ignoring case (case-insensitive file systems)
    ]


def test_inside_refuses_to_leave_the_directory(tmp_path):
    assert inside(tmp_path, "ok.txt") == (tmp_path / "ok.txt").resolve()
    with pytest.raises(InvalidResponseError):
        inside(tmp_path, "../escape.txt")
