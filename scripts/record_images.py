"""Record the pictures of the README and docs (docs/images/*.svg) from real runs against the demo
agent, so they show what `a2a` prints today: the live stream view, a task panel, an Agent Card.

    .venv/bin/python scripts/record_images.py [--out docs/images] [--url URL]

Without --url it starts `a2a demo-server` on a free 127.0.0.1 port (needs the `server` extra) and
stops it at the end. Each command runs as a subprocess with colours forced and a non-interactive
terminal (rich then prints a live view's final frame), 100 columns wide; rich turns the output
into SVG. tests/test_images.py runs this script, so it fails when the script no longer works.
"""

from __future__ import annotations

import argparse
import io
import os
import shlex
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WIDTH = 100
SHOTS = [  # file name, title, the command's arguments
    ("stream", "a2a stream: the live view", ["stream", "--skill", "slow", "-f", "steps:=3", "-f", "delay:=0.2"]),
    ("task", "a2a send: a task panel", ["send", "--skill", "create-user", "-f", "projectUserId=user_123"]),
    ("card", "a2a card fetch: how to call the agent", ["card", "fetch"]),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_demo() -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([sys.executable, "-m", "a2acli", "demo-server", "--port", str(port), "--grpc-port", "0"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    import httpx

    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the demo agent did not start: {proc.stderr.read().decode() if proc.stderr else ''}")
        try:
            if httpx.get(f"{url}/.well-known/agent-card.json", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the demo agent did not answer within 20 s")


def run(args: list[str], url: str) -> str:
    """The command's stdout as a terminal would show it (ANSI styles kept)."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR",) and not k.startswith("A2ACLI_")}
    env.update({"A2ACLI_URL": url, "FORCE_COLOR": "1", "TTY_INTERACTIVE": "0", "COLUMNS": str(WIDTH), "A2ACLI_GLOBAL_CONFIG": os.devnull})
    proc = subprocess.run([sys.executable, "-m", "a2acli", *args], env=env, capture_output=True, text=True, timeout=60)
    if proc.returncode != 0:
        raise SystemExit(f"`a2a {shlex.join(args)}` failed ({proc.returncode}): {proc.stderr}")
    return proc.stdout


def record(name: str, title: str, args: list[str], url: str, out: Path) -> Path:
    from rich.console import Console
    from rich.text import Text

    console = Console(record=True, width=WIDTH, file=io.StringIO(), force_terminal=True, color_system="truecolor")
    console.print(Text(f"$ a2a {shlex.join(args)}", style="bold"))
    console.print(Text.from_ansi(run(args, url).rstrip("\n")))
    path = out / f"{name}.svg"
    console.save_svg(str(path), title=title)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images", help="where the SVG files go")
    parser.add_argument("--url", help="a running demo agent (default: start one)")
    ns = parser.parse_args(argv)
    ns.out.mkdir(parents=True, exist_ok=True)
    proc, url = (None, ns.url) if ns.url else start_demo()
    try:
        for name, title, args in SHOTS:
            print(record(name, title, args, url, ns.out))
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
