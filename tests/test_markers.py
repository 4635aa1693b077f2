"""Issue 46: every module of tests/integration/ drives real servers, so carries the `integration`
marker (`-m "not integration"` deselects them all; test_card_signature_real.py lacked it)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_integration_module_carries_the_integration_marker():
    unmarked = [
        p.name
        for p in sorted((ROOT / "tests" / "integration").glob("test_*.py"))
        if "pytest.mark.integration" not in p.read_text(encoding="utf-8")
    ]
    assert not unmarked, f"without pytestmark = pytest.mark.integration: {unmarked}"
