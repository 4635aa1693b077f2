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


@pytest.mark.parametrize(
    "given",
    [
        "a\x85b.txt",  # NEL
        "a\u2028b.txt",  # line separator
        "a\u2029b.txt",  # paragraph separator
        "invoice\u202egpj.exe",  # right-to-left override: shows as invoiceexe.jpg
        "a\u2066b\u2069.txt",  # isolates
        "a\u200fb.txt",  # right-to-left mark
        "a\x9bb.txt",  # CSI (C1)
    ],
)
def test_safe_name_has_no_line_break_nor_bidi_control(given):
    """Issue 42: an agent's file name keeps no character that breaks a line (a listing, a script's
    `ls` loop) or reorders what is shown ("Trojan source"): each becomes `_`."""
    name = safe_name(given, "fallback")
    assert name.isprintable() and "_" in name, repr(name)


@pytest.mark.parametrize("given", ["\U0001f600" * 170, "\u00e9" * 200 + ".json", "\u4e2d" * 100 + ".txt"])
def test_safe_name_fits_a_file_system_in_bytes(given):
    """Issue 42: 170 emoji (under MAX_NAME characters, 680 bytes) gave OSError 'File name too long'
    (an internal error): the name is cut to MAX_NAME bytes of UTF-8, on a character boundary, keeping its extension."""
    name = safe_name(given, "fallback")
    assert len(name.encode("utf-8")) <= 180
    assert name.endswith(given[-5:]) if "." in given else name
    assert given.startswith(name.rsplit(".", 1)[0])
