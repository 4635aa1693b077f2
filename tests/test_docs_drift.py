"""Issue 25, item 8, docs drift: the guide's opening names every binding `a2a` speaks; the doc
generators print their help when asked instead of rewriting the docs. (The pictures:
tests/test_images.py; docs/reference.md: tests/test_docs.py; the guide's first-steps sample:
tests/integration/test_guide_sample_real.py.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_guides_opening_names_every_binding():
    opening = (ROOT / "docs" / "guide.md").read_text().split("\n\n", 2)[1]  # the paragraph under the title
    for binding in ("JSON-RPC", "HTTP+JSON", "gRPC"):
        assert binding in opening, binding


@pytest.mark.parametrize("script,writes", [("gen_reference.py", ["docs/reference.md"]), ("gen_compliance.py", ["docs/compliance.md", "docs/compliance-report.yaml"])])
@pytest.mark.parametrize("ask", ["--help", "-h", "--no-such-flag"])
def test_a_doc_generator_asked_for_help_or_given_a_wrong_flag_writes_nothing(script, writes, ask):
    before = {p: ((ROOT / p).stat().st_mtime_ns, (ROOT / p).read_bytes()) for p in writes}
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / script), ask], capture_output=True, text=True, timeout=120)
    after = {p: ((ROOT / p).stat().st_mtime_ns, (ROOT / p).read_bytes()) for p in writes}
    assert after == before  # not rewritten
    if ask == "--no-such-flag":
        assert proc.returncode == 2 and "unrecognized arguments: --no-such-flag" in proc.stderr
    else:
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.startswith(f"usage: {script} [-h] [--check]") and "--check" in proc.stdout
        assert "wrote" not in proc.stdout + proc.stderr


def test_the_docs_diff_samples_say_what_diff_says_now():
    """Issue 36: the diff samples of the README and the migration guide were re-recorded; each
    verdict and each line on what does not count has the form a2acli.recording.diff writes today (the
    old `N difference(s) in … (ids normalised, --keep-ids to compare them)` line is gone)."""
    import re

    verdict = re.compile(
        r"^(same: the answers agree, \d+ exchange\(s\) compared|different: \d+ difference\(s\) in \d+ of \d+ exchange\(s\)) \(canonical V1; ids and times aside\)$"
    )
    aside = re.compile(r"^\d+ difference\(s\) do not count: .+; -v shows them$")
    for doc in ("README.md", "docs/debugging-migration.md"):
        text = (ROOT / doc).read_text()
        assert "ids normalised, --keep-ids to compare them" not in text, doc
        said = [line for line in text.splitlines() if line.startswith(("same: ", "different: "))]
        assert said and all(verdict.match(line) for line in said), (doc, said)
        assert all(aside.match(line) for line in text.splitlines() if "do not count:" in line and line[0].isdigit()), doc


def test_the_guide_says_which_h_headers_the_card_fetch_gets(cli, respx_mock):
    """Issue 42: the guide said in one place that -H goes to the card fetch, in another that it does
    not. The code: only the known harmless names (redact.HARMLESS_HEADERS) go to the card GET."""
    from a2a_testkit import AGENT, v1_card

    card = respx_mock.get(f"{AGENT}/.well-known/agent-card.json").respond(json=v1_card())
    result = cli("card", "fetch", "-u", AGENT, "-H", "X-Team-Secret: s3", "-H", "traceparent: 00-ab-cd-01")
    assert result.exit_code == 0, result.stderr
    sent = card.calls.last.request.headers
    assert sent.get("traceparent") == "00-ab-cd-01" and "x-team-secret" not in sent
    guide = " ".join((ROOT / "docs" / "guide.md").read_text().split())
    assert "the card fetch included" not in guide
    assert "the card fetch gets only the known harmless ones" in guide


def test_the_docs_name_every_core_dependency():
    """Issue 46: the README's and the guide's sentence on the core install named six of the core
    dependencies (not idna, nor tomli on Python 3.10)."""
    import re

    text = (ROOT / "pyproject.toml").read_text()
    block = text.split("\ndependencies = [", 1)[1].split("\n]", 1)[0]
    deps = re.findall(r'^\s*"([A-Za-z0-9_.-]+)[^"]*"', block, re.M)
    assert {"typer", "httpx", "idna", "tomli"} <= set(deps)
    for doc, opening in (("README.md", "The core install pulls only"), ("docs/guide.md", "The base install is small")):
        page = " ".join((ROOT / doc).read_text().split())
        sentence = page.split(opening, 1)[1].split(". ", 1)[0].lower()
        missing = [d for d in deps if d.lower() not in sentence]
        assert not missing, (doc, missing)
        assert "tomli on python 3.10" in sentence, doc
