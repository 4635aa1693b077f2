"""-q against the demo agent (issue 36): quiet means quiet. stderr keeps warnings, errors and
verdicts; no hint or note, not even the command that continues an input-required task."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.integration


def test_send_to_a_task_that_needs_input_says_nothing_under_quiet(run_a2a, demo_agent):
    loud = run_a2a("send", "--skill", "ask", "-u", demo_agent.url)
    assert loud.returncode == 0 and "continue with:" in loud.stderr
    quiet = run_a2a("send", "--skill", "ask", "-u", demo_agent.url, "-q", "-o", "json")
    assert quiet.returncode == 0 and quiet.stderr == ""
    assert json.loads(quiet.stdout)["task"]["status"]["state"] == "TASK_STATE_INPUT_REQUIRED"


def test_webhook_listen_takes_a_duration_and_its_printed_send_carries_the_token(run_a2a):
    done = run_a2a("webhook", "listen", "--port", "0", "--timeout", "200ms", "--token", "t0k")
    assert done.returncode == 5  # nothing arrived in 200 ms: the timeout's exit code, not a usage error
    assert "--push-token t0k" in done.stderr
