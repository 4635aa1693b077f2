"""Every shell command in README.md and docs/*.md runs as written (issue 38, item 1).

The fenced `sh` and `console` blocks of each page are run in order (and a `text` block that shows a
command, `$ a2a …`, with its output, as a `console` block is), in a fresh working directory
and home of their own, by the installed `a2a` against the demo agent this session started; the
ids an earlier command printed stand in for the placeholders of later ones (`TASK_ID`, `5f0c…`).
A `console` block's output is compared with what the command printed: ids, times, durations and
ports normalised, `…` standing for anything, each line shown found in order among the lines
printed. A command with no output shown must exit 0, unless its comment says which exit it
expects (`# exits 1`, `# … exit 2`).

docs/reference.md is generated from each command's `--help`, whose examples stand alone (placeholder
ids, dumps named as if made): there each command must be a valid command line that a2a runs, its
exit code any but a usage error's (2) or the shell's (126, 127), and no internal error.

An output sample, a `text` or unlabelled block that shows no command (what a command prints,
written without its `$ a2a …` line), is compared the same way with the output of the command it
shows: the last command of the `sh` block right before it (nothing but blank lines between), or
the command its mark names, `<!-- docs-test: output of: COMMAND -->` (the page's latest command
that starts so; a server started in the background counts with what it has printed by then,
waited for). A sample that no command of the page prints (an identity provider's warning, a
signed card) is marked `<!-- docs-test: illustrative: REASON -->`, the reason naming the test
that checks it where one does; any other output sample fails the page. docs/reference.md's
unlabelled blocks are the usage lines of `--help`, which tests/test_docs.py compares.

A block that cannot run here is marked in the Markdown, on the line before its fence:
`<!-- docs-test: skip: REASON -->`. A block that is one script (a CI job's: `set -euo pipefail`,
variables from line to line) is marked `<!-- docs-test: script -->` and runs whole, in bash, with
exit 0 expected. Two kinds of command are skipped by rule, with their reason:
those that name a host of the reserved example domains (`agent.example`, `idp.example.com`: RFC
2606, reachable by no test; docs/reference.md's examples come from `--help`), and those that start
the demo agent (the test's own is running).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from tests.integration.conftest import DemoAgent, _free_port

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["README.md", *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md"))]
pytestmark = pytest.mark.integration

FENCE = re.compile(
    r"^(?:<!-- docs-test: (?P<kind>skip|script|illustrative|output of)(?:: (?P<reason>.+?))? -->\n)?"
    r"```(?P<lang>[\w-]*)\n(?P<body>.*?)^```[ \t]*$",
    re.M | re.S,
)
RUN = ("sh", "console", "text")  # the fences whose commands run (a text block: those it shows as `$ …`)
SAMPLE = ("text", "")  # the fences that hold output; json, toml and the like hold documents
UNPLACED = "an output sample that no command shows: put it right after its command, or mark it `<!-- docs-test: output of: COMMAND -->` or `<!-- docs-test: illustrative: REASON -->`"
UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
NOT_HERE = re.compile(r"https?://[\w.-]*\b(?:example\.(?:com|org)|[\w-]+\.example)\b|\bagent\.example\b|registry\.example")
BACKGROUND = ("a2a mock ", "a2a webhook listen", "a2a mcp --http")  # servers a page starts and later commands call
SHELL = shutil.which("bash") or "sh"  # the reader's shell (`eval "$(a2a completion bash)"`)
# what sends nothing to the hosts it names: the example domain is only data there (issue 46)
NO_NETWORK = re.compile(r"(^|\|\s*)a2a translate\b|\s--offline\b|^a2a config set\b")
SERVER_WAIT = 15.0  # seconds a server started in the background has to print what a sample shows
STARTS_THE_AGENT = re.compile(r"(^|\s)(a2a demo-server|sh examples/tour\.sh)\b")


Printed = tuple[
    str, Callable[[], str], bool
]  # a command as the page writes it, its output so far, whether in the background


@dataclass
class Step:
    page: str
    line: int
    command: str
    expected: list[str] | None  # the output a console block shows (None: an sh line)
    skip: str | None = None
    sample_of: str | None = None  # an output sample: the command (as the page writes it) whose output it shows
    problem: str | None = None  # what is wrong with the page here, found without running it


@dataclass
class Page:
    name: str
    steps: list[Step] = field(default_factory=list)


def _commands(text: str) -> Iterator[tuple[int, str]]:
    """(offset, command) of each command line of an sh block, `\\` continuations joined."""
    pending, start = "", 0
    for i, raw in enumerate(text.splitlines()):
        line = raw.rstrip()
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if not pending:
            start = i
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        yield start, pending + line
        pending = ""


def _console(text: str) -> Iterator[tuple[int, str, list[str]]]:
    """(offset, command, output lines) of each `$ command` of a console block."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            i += 1
            continue
        start, command = i, lines[i][2:]
        while command.rstrip().endswith("\\") and i + 1 < len(lines):
            i += 1
            command = command.rstrip()[:-1] + " " + lines[i].strip()
        i += 1
        out: list[str] = []
        while i < len(lines) and not lines[i].startswith("$ "):
            out.append(lines[i])
            i += 1
        yield start, command, out


def collect(name: str, text: str | None = None) -> Page:
    """The steps of page `name` (its text as given, else as in the checkout)."""
    text = (ROOT / name).read_text(encoding="utf-8") if text is None else text
    page = Page(name)
    previous: re.Match[str] | None = None
    for m in FENCE.finditer(text):
        after, previous = previous, m
        first = text.count("\n", 0, m.start("body")) + 1
        skip = m.group("reason") if m.group("kind") in ("skip", "illustrative") else None
        if m.group("kind") == "script":  # one script: run whole, its variables kept from line to line
            page.steps.append(Step(name, first, m.group("body"), None))
            continue
        if m.group("lang") in SAMPLE and not m.group("body").startswith("$ "):
            sample = _sample(name, first, m, after, text, page)
            if sample:
                page.steps.append(sample)
            continue
        if m.group("lang") not in RUN:
            continue
        if m.group("lang") == "sh":
            found = [(o, c, None) for o, c in _commands(m.group("body"))]
        else:
            found = list(_console(m.group("body")))
        for offset, command, expected in found:
            step = Step(name, first + offset, command, expected, skip)
            if step.skip is None:
                step.skip = _skip_by_rule(name, command)
            page.steps.append(step)
    return page


def _sample(name: str, line: int, m: re.Match[str], after: re.Match[str] | None, text: str, page: Page) -> Step | None:
    """The step that compares an output sample with the output of its command (None: the usage
    lines of docs/reference.md, which tests/test_docs.py checks)."""
    expected = m.group("body").splitlines()
    if m.group("kind") == "output of":
        return Step(name, line, "", expected, sample_of=m.group("reason") or "")
    if m.group("kind") in ("skip", "illustrative"):
        return Step(name, line, "", expected, skip=m.group("reason") or "illustrative", sample_of="")
    if name == "docs/reference.md":
        return None
    if after is not None and after.group("lang") == "sh" and not text[after.end() : m.start()].strip():
        block = text.count("\n", 0, after.start("body")) + 1
        ran = [s for s in page.steps if s.sample_of is None and s.line >= block]
        if ran:
            return Step(name, line, "", expected, skip=ran[-1].skip, sample_of=ran[-1].command)
    return Step(name, line, "", expected, sample_of="", problem=UNPLACED)


def _skip_by_rule(page: str, command: str) -> str | None:
    if STARTS_THE_AGENT.search(command):
        return "starts the demo agent: the test's own is running"
    if NOT_HERE.search(command) and not (NO_NETWORK.search(command) and "&&" not in command):
        return "names a host of the reserved example domains (RFC 2606), which no test can reach"
    return None


# -- running ----------------------------------------------------------------------------------------


class Runner:
    """One page's shell: its directory, environment, the ids seen so far, its background servers."""

    def __init__(self, agent: DemoAgent, bindir: Path, base: Path, a2a_env: Callable[..., dict[str, str]]) -> None:
        self.cwd = base / "work"
        self.cwd.mkdir(parents=True)
        home = base / "home"
        home.mkdir()
        port = agent.url.rsplit(":", 1)[1]
        grpc_port = (agent.grpc_target or "127.0.0.1:0").rsplit(":", 1)[1]
        self.ports = {"41241": port, "41242": grpc_port, "41299": str(_free_port()), "9000": str(_free_port())}
        self.env = a2a_env(
            HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_STATE_HOME=str(home / ".local/state"),
            XDG_CACHE_HOME=str(home / ".cache"), PATH=f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}",
            NO_COLOR="1", COLUMNS="120", TERM="dumb", A2ACLI_DEMO_PORT=port, VIRTUAL_ENV=None,
            SHELL=SHELL,  # the reader's login shell: CI runs with no $SHELL (`a2a completion install` reads it)
            A2ACLI_URL=agent.url,  # as README's tour sets it (`export A2ACLI_URL=…`) for the pages after it
        )  # fmt: skip
        self.ids: dict[str, str] = {}
        self.background: list[subprocess.Popen[str]] = []
        self.logs = base / "logs"  # what each background server prints (stdout and stderr)
        self.logs.mkdir()
        self.printed: list[Printed] = []
        self._fixtures()

    def dumps(self) -> None:
        """dump-v1 and dump-v0, which docs/reference.md's `a2a diff` examples compare."""
        for name, version in (("dump-v1", "1.0"), ("dump-v0", "0.3")):
            argv = f"a2a send --skill create-user -f projectUserId=u1 --a2a-version {version} --dump {name}"
            subprocess.run([SHELL, "-c", argv], cwd=self.cwd, env=self.env, stdin=subprocess.DEVNULL, capture_output=True, timeout=60, check=True)

    def _fixtures(self) -> None:
        """Files the examples name as if the reader had them (README's reader is in the checkout)."""
        shutil.copy2(ROOT / "README.md", self.cwd / "README.md")
        shutil.copytree(ROOT / "skills", self.cwd / "skills")
        (self.cwd / "request-v0.json").write_text(
            '{"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": {"kind": "message",'
            ' "messageId": "m-1", "role": "user", "parts": [{"kind": "text", "text": "hi"}]}}}\n'
        )
        (self.cwd / "payload.json").write_text('{"note": "from a file"}\n')
        url = self.env["A2ACLI_URL"]
        (self.cwd / "agents.json").write_text(json.dumps({"agents": [{"name": "weather", "description": "Forecasts", "url": url}]}))
        card = httpx.get(f"{url}/.well-known/agent-card.json", headers={"A2A-Version": "1.0"}, timeout=30)
        (self.cwd / "agent-card.json").write_text(card.text)
        (self.cwd / "agent.env").write_text(f"A2ACLI_URL={url}\n")
        (Path(self.env["HOME"]) / "agents").mkdir()
        (Path(self.env["HOME"]) / "agents" / "prod.env").write_text(f"A2ACLI_URL={url}\n")
        (self.cwd / "d.json").write_text('{"skill": "create-user", "projectUserId": "u1"}\n')
        (self.cwd / "report.pdf").write_bytes(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")

    def substitute(self, command: str) -> str:
        for doc, real in self.ports.items():
            command = re.sub(rf"(?<=[:=\s]){doc}\b", real, command)
            command = command.replace(f"127.0.0.1:{doc}", f"127.0.0.1:{real}").replace(f"localhost:{doc}", f"localhost:{real}")
        for name, key in (("TASK_ID", "task"), ("CONTEXT_ID", "context"), ("CONFIG_ID", "config")):
            if name in command and key in self.ids:
                command = command.replace(name, self.ids[key])
        if "context" in self.ids:
            command = re.sub(r"(--context-id\s+)[0-9a-f]{4,8}-?…", lambda m: m.group(1) + self.ids["context"], command)
        if "task" in self.ids:  # an id shortened in the page (`5482424b-…`, `5f0c…`): the last task
            command = re.sub(r"\b[0-9a-f]{4,8}-?…", self.ids["task"], command)
        return command

    def learn(self, text: str) -> None:
        """The ids a command printed, for the placeholders of the next ones."""
        for key, pattern in (
            ("task", rf"(?:^Task: |\"taskId\": ?\"|^task |a2a tasks get )({UUID})"),
            ("task", rf"\"task\": ?\{{[^{{}}]*?\"id\": ?\"({UUID})\""),
            ("context", rf"(?:^Context: |\"contextId\": ?\")({UUID})"),
            ("config", r"(?:^Config: |^Config ID: |^ID: |\"pushNotificationConfig\": ?\{[^{}]*?\"id\": ?\"|\"configId\": ?\")([\w.-]+)"),
        ):
            found = re.findall(pattern, text, re.M)
            if found:
                self.ids[key] = found[-1]

    def run(self, step: Step) -> subprocess.CompletedProcess[str] | str | None:
        """The finished command; None for an `export` (kept for the next ones) or a server left
        running; a string saying why a server did not start."""
        command = self.substitute(step.command)
        if command.startswith("export "):
            for word in shlex.split(command, comments=True)[1:]:
                name, _, value = word.partition("=")
                self.env[name] = os.path.expandvars(value)
            return None
        if command.startswith(BACKGROUND):
            return self._start(step.command, command)
        proc = subprocess.run(
            [SHELL, "-c", command], cwd=self.cwd, env=self.env, stdin=subprocess.DEVNULL,
            capture_output=True, text=True, timeout=120 if "\n" in command.strip() else 60,
        )  # fmt: skip
        self.learn(proc.stdout + "\n" + proc.stderr)
        self.printed.append((step.command, lambda: proc.stdout + proc.stderr, False))
        return proc

    def _start(self, written: str, command: str) -> str | None:
        self.close()  # one server at a time: the page stopped the last one before starting this
        command = re.sub(r"\s*&\s*(#.*)?$", "", command)  # `a2a mock … &`: this test keeps it in the background
        log = self.logs / f"{len(self.printed):03d}.log"
        with log.open("w") as sink:
            proc = subprocess.Popen(
                [SHELL, "-c", "exec " + command], cwd=self.cwd, env=self.env, stdin=subprocess.DEVNULL,
                stdout=sink, stderr=subprocess.STDOUT, text=True,
            )  # fmt: skip
        self.background.append(proc)
        self.printed.append((written, lambda: log.read_text(errors="replace"), True))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # within its first lines it says where it listens
            if "http://127.0.0.1:" in log.read_text(errors="replace"):
                return None
            if proc.poll() is not None:
                break
            time.sleep(0.05)
        return f"did not start: {log.read_text(errors='replace').strip()}"

    def output_of(self, written: str) -> tuple[Callable[[], str], bool] | None:
        """The output of the page's latest command that starts as `written`, and whether it is a
        server still printing."""
        for command, read, background in reversed(self.printed):
            if command.startswith(written):
                return read, background
        return None

    def close(self) -> None:
        while self.background:
            proc = self.background.pop()
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


# -- comparing ----------------------------------------------------------------------------------------

NORMALISE = [
    (re.compile(UUID), "<id>"),
    (re.compile(r"\b[0-9a-f]{4,8}-?…"), "<id>"),  # an id the page shortens (`5482424b-…`)
    (re.compile(r"\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT"), "<date>"),
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?"), "<time>"),
    (re.compile(r"(127\.0\.0\.1|localhost):\d+"), r"\1:<port>"),
    (re.compile(r"\b\d+(\.\d+)? ?(ms|s)\b"), "<dur>"),
    (re.compile(r'"ms": [\d.]+'), '"ms": <n>'),
    (re.compile(r"user-\d+"), "user-<n>"),
    # the demo numbers its users: a body's length follows the digits of the user's number
    (re.compile(r"^(content-length:) \d+$", re.IGNORECASE), r"\1 <n>"),
]


def normalise(line: str) -> str:
    for pattern, repl in NORMALISE:
        line = pattern.sub(repl, line)
    return line.rstrip()


def _line_pattern(expected: str) -> re.Pattern[str]:
    parts = normalise(expected).split("…")
    return re.compile(".*".join(re.escape(p) for p in parts) + r"\Z")


MEMBER = re.compile(r'^\s*"[^"]+": ')  # a line of a JSON object printed one member a line


def _members(lines: list[str], at: int) -> list[str]:
    """The run of JSON member lines from `at`, trailing commas dropped (their order is the agent's)."""
    run = []
    while at < len(lines) and MEMBER.match(lines[at]):
        run.append(lines[at].rstrip(","))
        at += 1
    return run


def missing_lines(expected: list[str], printed: str) -> list[str]:
    """The lines of `expected` not found, in order, among the lines printed. A run of JSON member
    lines matches a run printed with the same members in any order."""
    got = [normalise(line) for line in printed.splitlines()]
    shown = [line for line in expected if line.strip() and line.strip() != "…"]
    at, i, missing = 0, 0, []
    while i < len(shown):
        if MEMBER.match(shown[i]):
            want = _members([normalise(line) for line in shown], i)
            i += len(want)
            starts = [j for j in range(at, len(got)) if MEMBER.match(got[j]) and (j == 0 or not MEMBER.match(got[j - 1]))]
            found = next((j for j in starts if sorted(_members(got, j)) == sorted(want)), None)
            if found is None:
                missing.extend(want)
            else:
                at = found + len(want)
            continue
        pattern = _line_pattern(shown[i])
        i += 1
        for j in range(at, len(got)):
            if pattern.match(got[j]):
                at = j + 1
                break
        else:
            missing.append(shown[i - 1])
    return missing


def expected_exit(step: Step) -> int | None:
    """The exit the page says (`# exits 1`, `exit 2` in its comment, an error line shown), else 0;
    None when it shows a failure without saying which exit. A script runs to its end: exit 0."""
    if "\n" in step.command.strip():  # a `docs-test: script` block: its comments talk of its commands' exits
        return 0
    said = re.search(r"#.*\bexit(?:s)? (?:code )?(\d+)", step.command)
    if said:
        return int(said.group(1))
    if step.expected and any(line.startswith(("error:", "Error:")) for line in step.expected):
        return None
    return 0


@pytest.fixture(scope="module")
def a2a_bindir() -> Path:
    found = shutil.which("a2a", path=str(Path(sys.executable).parent))
    assert found, "the a2a command of this venv"
    return Path(found).parent


def run_page(
    name: str,
    agent: DemoAgent,
    bindir: Path,
    base: Path,
    a2a_env: Callable[..., dict[str, str]],
    text: str | None = None,
    server_wait: float = SERVER_WAIT,
) -> tuple[list[str], str]:
    """(failures, summary line) of one page (its text as given, else the checkout's) run from top
    to bottom in a directory of its own; a server's output sample waited for up to `server_wait` s."""
    page = collect(name, text)
    runner = Runner(agent, bindir, base, a2a_env)
    if name == "docs/reference.md":
        runner.dumps()
    failures: list[str] = []
    ran = skipped = 0
    took: list[tuple[float, str]] = []
    started = time.monotonic()
    try:
        for step in page.steps:
            if step.skip:
                skipped += 1
                continue
            if step.sample_of is not None:
                failures += compare_sample(step, runner, server_wait)
                continue
            began = time.monotonic()
            proc = runner.run(step)
            took.append((time.monotonic() - began, f"{step.page}:{step.line}"))
            ran += 1
            failures += _judge(name, step, proc)
    finally:
        runner.close()
    slowest = ", ".join(f"{where} {t:.1f}s" for t, where in sorted(took, reverse=True)[:3])
    return (
        failures,
        f"{name}: {ran} commands run, {skipped} skipped, {time.monotonic() - started:.1f}s (slowest: {slowest})",
    )


def compare_sample(step: Step, runner: Runner, server_wait: float = SERVER_WAIT) -> list[str]:
    """An output sample against what its command printed (a server's output waited for, up to
    `server_wait` s: it may print the lines later)."""
    where = f"{step.page}:{step.line}: the output sample"
    if step.problem:
        return [f"{where}\n  {step.problem}"]
    found = runner.output_of(step.sample_of or "")
    if found is None:
        return [f"{where}\n  no command of the page before it starts with {step.sample_of!r}"]
    read, background = found
    deadline = time.monotonic() + (server_wait if background else 0)
    while True:
        printed = read()
        gone = missing_lines(step.expected or [], printed)
        if not gone or time.monotonic() >= deadline:
            break
        time.sleep(0.1)
    if not gone:
        return []
    return [f"{where} of `{step.sample_of}`\n  not printed: {gone[:3]}\n  printed: {printed[-600:]!r}"]


def _judge(name: str, step: Step, proc: subprocess.CompletedProcess[str] | str | None) -> list[str]:
    where = f"{step.page}:{step.line}: {step.command}"
    if isinstance(proc, str):
        return [f"{where}\n  {proc}"]
    if proc is None:
        return []
    printed = proc.stdout + proc.stderr
    out = []
    if step.expected and step.command.startswith("ls "):  # columns at a terminal, one a line here
        gone = sorted(set(" ".join(step.expected).split()) - set(printed.split()))
        if gone:
            out.append(f"{where}\n  not listed: {gone}")
    elif step.expected:
        gone = missing_lines(step.expected, printed)
        if gone:
            out.append(f"{where}\n  not printed: {gone[:3]}\n  printed: {printed[-600:]!r}")
    if name == "docs/reference.md":  # --help's examples: each a valid command line, not a sequence
        if proc.returncode in (2, 126, 127) or "A2ACLI_ERR_INTERNAL" in printed:
            out.append(f"{where}\n  exit {proc.returncode}: not a valid command line here\n  printed: {printed[-600:]!r}")
        return out
    want = expected_exit(step)
    if want is not None and proc.returncode != want:
        out.append(f"{where}\n  exit {proc.returncode}, the page expects {want}\n  printed: {printed[-600:]!r}")
    return out


@pytest.fixture(scope="module")
def page_runs(demo_agent, a2a_bindir, a2a_env, tmp_path_factory) -> dict[str, tuple[list[str], str]]:
    """Every page run at once, each in its own directory and home against the one demo agent: the
    pages are independent, and the wall time is the longest page's, not their sum."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=len(PAGES)) as pool:
        futures = {name: pool.submit(run_page, name, demo_agent, a2a_bindir, tmp_path_factory.mktemp("docs"), a2a_env) for name in PAGES}
        return {name: f.result() for name, f in futures.items()}


@pytest.mark.parametrize("name", PAGES)
def test_every_command_of_the_page_runs_as_shown(name, page_runs):
    failures, summary = page_runs[name]
    print(summary)
    assert not failures, f"{len(failures)} commands of {name} do not run as shown ({summary}):\n" + "\n".join(failures)


def test_a_command_that_reaches_no_host_is_run_whatever_host_it_names():
    """Issue 46: three commands were skipped as naming an RFC 2606 host they never reach."""
    for command in (
        """echo '{"url":"https://cb.example/h"}' | a2a translate --to v1""",
        "a2a send hi --extension https://example.com/ext/timestamp/v1 --transport grpc --offline",
        "a2a config set --profile local catalog.team https://registry.example/agents.json",
    ):
        assert _skip_by_rule("x", command) is None, command
    for command in (
        "a2a card fetch -u https://agent.example --validate",
        "a2a config set catalog.team https://registry.example/agents.json && a2a card catalog team",
    ):
        assert _skip_by_rule("x", command), command


def test_a_text_block_that_shows_a_command_is_checked_as_a_console_block():
    """Issue 46: `text` samples of a command's output went stale unseen (the guide's `config show`)."""
    steps = [s for s in collect("docs/guide.md").steps if s.command.startswith("a2a send --skill create-user -f projectUserId=user_123 -f name=Ada")]
    assert steps and steps[0].expected and "State: completed" in steps[0].expected and steps[0].skip is None
    shown = [s for s in collect("docs/guide.md").steps if "a2a config show" in s.command and s.expected]
    assert shown and all(s.skip for s in shown)  # a project of its own: tests/commands/test_config.py rebuilds it


def test_every_output_sample_is_compared_or_marked_illustrative():
    """Issue 46: `text` samples of a command's output (the guide's `config show`, `webhook
    listen`'s lines) went stale unseen: each is now compared with the output of its command, or
    marked illustrative with its reason."""
    unplaced = [f"{s.page}:{s.line}" for name in PAGES for s in collect(name).steps if s.problem]
    assert not unplaced, unplaced
    samples = {s.line: s for s in collect("docs/webhooks.md").steps if s.sample_of is not None}
    assert [s.sample_of for s in samples.values() if not s.skip] == [
        "a2a webhook listen --port 9000 --token t1",
        "a2a webhook listen",
    ]
    page = "## A\n\n```sh\na2a card fetch\n```\n\nprose\n\n```text\nAgent: x\n```\n\n```\nwarning: y\n```\n"
    marked = page.replace("```text", "<!-- docs-test: illustrative: why -->\n```text")
    assert [s.problem == UNPLACED for s in collect("x.md", page).steps] == [False, True, True]
    assert [(s.skip, s.problem) for s in collect("x.md", marked).steps][1:] == [("why", None), (None, UNPLACED)]
    right_after = collect("x.md", page.replace("\nprose\n", ""))
    assert right_after.steps[1].sample_of == "a2a card fetch" and right_after.steps[1].expected == ["Agent: x"]


LISTEN = """```sh
a2a webhook listen --port 9000 --token t1
```

```text
listening for A2A push notifications on http://127.0.0.1:9000 (any path; Ctrl-C to stop)
push URL: http://127.0.0.1:9000/hook   (checking --token)
```

```sh
a2a send --skill create-user -f projectUserId=user_123 --push-url http://127.0.0.1:9000/hook --push-token t1
```

Terminal 1 then prints:

<!-- docs-test: output of: a2a webhook listen -->
```text
Notification: #1 POST /hook from 127.0.0.1
Shape: V1 StreamResponse (task)
```

```sh
a2a card fetch
```

```text
Agent: …
```
"""


def test_a_changed_output_sample_fails_the_check(demo_agent, a2a_bindir, a2a_env, tmp_path):
    """An output sample is compared for real: the page above passes against the demo agent, and
    each of its samples changed (a server's first lines, what it printed later, a command's
    output) fails, naming the line it did not print. (A changed line of a server never comes, and
    a run waits out its whole wait for it: these runs wait 4 s, not SERVER_WAIT; a line that does
    come ends the wait at once.)"""
    failures, _ = run_page("x.md", demo_agent, a2a_bindir, tmp_path / "as-is", a2a_env, LISTEN)
    assert failures == []
    for i, (shown, changed) in enumerate((
        ("(checking --token)", "(checking --auth)"),
        ("Shape: V1 StreamResponse (task)", "Shape: V0 task (kind)"),
        ("Agent: …", "Agent: Somebody else"),
    )):  # fmt: skip
        failures, _ = run_page(
            "x.md", demo_agent, a2a_bindir, tmp_path / str(i), a2a_env, LISTEN.replace(shown, changed), server_wait=4
        )
        assert len(failures) == 1 and "the output sample" in failures[0] and changed in failures[0], failures


def test_the_ci_scripts_of_the_readme_and_the_guide_run_whole_with_pipefail():
    """Issue 46: README's CI example piped `a2a send --expect-state` into jq under plain `set -e`,
    so a task that ended otherwise (exit 6) went unnoticed, and the guide's used an unset $TASK;
    both are scripts the runner runs whole against the demo agent."""
    for name in ("README.md", "docs/guide.md"):
        scripts = [s for s in collect(name).steps if "\n" in s.command.strip() and "set -euo pipefail" in s.command]
        assert len(scripts) == 1 and scripts[0].skip is None, name
        assert "--expect-state completed" in scripts[0].command and "$TASK" not in scripts[0].command


def test_the_comparison_takes_ids_times_ellipses_and_member_order_as_the_pages_mean_them():
    shown = ["Task: a6517bab-f12b-41fc-b840-0deaded7c519", "Updated: 2026-12-01T03:31:37.436780Z", "  {",
             '    "name": "X-API-Key",', '    "type": "apiKey"', "  }", "…", "State: completed"]  # fmt: skip
    printed = ("Task: 9d03aa95-5763-4942-ab65-88b65cfc6a49\nUpdated: 2026-12-02T08:09:32.270827Z\n  {\n"
               '    "type": "apiKey",\n    "name": "X-API-Key"\n  }\nHistory messages: 1\nState: completed\n')  # fmt: skip
    assert missing_lines(shown, printed) == []
    assert missing_lines(shown, printed.replace('"type": "apiKey"', '"type": "http"')) == ['    "name": "X-API-Key"', '    "type": "apiKey"']
    assert missing_lines(["a …", "c"], "a b\nc\n") == [] and missing_lines(["c", "a …"], "a b\nc\n") == ["a …"]
    assert missing_lines(["State: completed"], "State: failed\n") == ["State: completed"]


def test_blocks_are_collected_with_their_marks_and_the_rules():
    page = collect("docs/guide.md")
    reasons = {s.skip for s in page.steps if s.skip}
    assert any(r and "identity provider" in r for r in reasons)
    assert any(r and "RFC 2606" in r for r in reasons)
    assert sum(1 for s in page.steps if not s.skip) > 50
