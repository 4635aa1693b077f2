"""The fastest plain consumer of an Agent Card on a2a's own libraries: a bare Typer app with one
`card fetch -u URL -o json` command that GETs /.well-known/agent-card.json with httpx and prints
it as JSON. benchmarks/startup.py times it beside `a2a card fetch -o json`: what lies between the
two is a2a's own cost (its modules, the settings table and config files, the card cache, the
output modes, redaction), and this row over httpie is the floor of the start-up ratio for any CLI
built on typer and httpx. It starts as a2a does (no garbage collection while importing, the
command's first 50,000 objects left uncollected, httpx without its own command-line tool, no
interpreter teardown at the end) and, like a2a, makes no CA bundle for an http:// URL: the same
shortcuts, so the difference is a2a's work alone.

    python benchmarks/bare_card_fetch.py card fetch -u http://127.0.0.1:41241 -o json
"""

from __future__ import annotations

import gc
import os
import sys

gc.disable()
sys.modules["httpx._main"] = None  # type: ignore[assignment]  # httpx's CLI (rich, pygments, click): a2a keeps it out too

import json  # noqa: E402

import httpx  # noqa: E402
import typer  # noqa: E402

app = typer.Typer(add_completion=False)
card = typer.Typer()
app.add_typer(card, name="card")


@card.command("fetch")
def fetch(url: str = typer.Option(..., "-u"), output: str = typer.Option("text", "-o")) -> None:
    with httpx.Client(verify=url.startswith("https:")) as client:
        answer = client.get(url.rstrip("/") + "/.well-known/agent-card.json")
        answer.raise_for_status()
    sys.stdout.write(json.dumps(answer.json(), indent=2) + "\n")


@app.command()
def version() -> None:  # a second command, so that `card` is a group as a2a's is
    sys.stdout.write("0\n")


if __name__ == "__main__":
    gc.freeze()
    gc.set_threshold(50_000, *gc.get_threshold()[1:])  # a2acli.main.RUN_GEN0_THRESHOLD, as a2a runs its command
    gc.enable()
    status = 0
    try:
        app()
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else 1
    sys.stdout.flush()
    os._exit(status)
