"""`a2a webhook listen`, headless: the receiver (a2acli/webhook.py) run with the invocation's
Output until its count, its timeout or Ctrl-C; its exit code."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from a2acli.flows.invocation import Invocation


def run_listen(
    inv: Invocation,
    *,
    host: str = "127.0.0.1",
    port: int = 9000,
    count: int | None = None,
    timeout: str | None = None,
    token: str | None = None,
    auth: str | None = None,
    output: str | None = None,
    as_v: str | None = None,
    dump: str | None = None,
) -> int:
    """Listen for push notifications on host:port and say each one (in the invocation's output
    mode; `output`, the -o the command was given, is checked here); exit 0 after `count` of them
    (or at `timeout` with nothing asked), 5 at `timeout` short of them, 130 on Ctrl-C. `as_v`:
    "v1" writes each one as a canonical V1 StreamResponse."""
    from a2acli import webhook
    from a2acli.errors import UsageError
    from a2acli.render.output import MODES, named
    from a2acli.settings.values import parse_duration, parse_timeout

    # (--dump and --as are the listener's own, not a call's: their parameter names differ from the shared ones)
    if output and output.lower() not in MODES:
        raise UsageError(f"unknown output mode {output!r}", hint=f"-o {named()}")
    if as_v and as_v.lower() not in ("v1", "1.0"):
        raise UsageError(f"--as {as_v!r} is not supported", hint="--as v1 (canonical V1 JSON)")
    out = inv.output()  # -o: as given, A2ACLI_OUTPUT, the config files
    result = webhook.listen(
        out,
        host=host,
        port=port,
        token=token,
        auth=auth,
        dump=dump,
        count=count,
        timeout=0.0 if parse_duration(timeout) == 0 else parse_timeout(timeout),  # 0: at once
        as_v1=bool(as_v),
        agent_set=_agent_set(inv),
    )
    return 130 if result.interrupted else 0


def _agent_set(inv: Invocation) -> bool:
    """Whether a `send` finds its agent without -u: A2ACLI_URL or a config file's url, in the
    profile and config file given before the command (`a2a --profile p webhook listen`)."""
    from a2acli import settings
    from a2acli.errors import A2acliError

    try:
        return bool(settings.resolve({}, inv.given.get("profile"), inv.given.get("config")).values.get("url"))
    except A2acliError:  # a broken config file: the send would say so; the example names -u
        return False
