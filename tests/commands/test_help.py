"""--help shows the effective defaults; NO_COLOR / FORCE_COLOR and narrow terminals; the setup
commands and --help stay light (no httpx: it loads only when a request is made; no pydantic)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from a2a_testkit import clean_env

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def run(*args: str, env: dict[str, str] | None = None, columns: int | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("A2ACLI_", "_A2A_")) and k not in ("TERMINAL_WIDTH", "COLUMNS", "NO_COLOR", "FORCE_COLOR", "_TYPER_FORCE_DISABLE_TERMINAL")}
    base["A2ACLI_GLOBAL_CONFIG"] = os.devnull
    if columns:
        base["COLUMNS"] = str(columns)
    base.update(env or {})
    return subprocess.run([sys.executable, "-m", "a2acli", *args], env=base, capture_output=True, text=True, timeout=60)


def flat(text: str) -> str:
    """Help text with the box drawing and line wrapping taken out."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", ANSI.sub("", text)).split())


@pytest.mark.spec("A2ACLI_CLI_001", "A2ACLI_DEFAULT_001")
def test_help_shows_builtin_defaults():
    out = flat(run("help", "options", columns=200).stdout)
    assert "(default: 1.0; env: A2ACLI_A2A_VERSION)" in out
    assert "(default: auto; env: A2ACLI_OUTPUT)" in out
    assert "In effect:" not in flat(run("tasks", "get", "--help", columns=200).stdout)  # nothing but built-in defaults


@pytest.mark.spec("A2ACLI_CLI_001")
def test_help_shows_the_default_from_the_environment():
    env = {"A2ACLI_A2A_VERSION": "0.3", "A2ACLI_OUTPUT": "json", "A2ACLI_API_KEY": "sekrit-value"}
    result = run("help", "options", env=env, columns=200)
    out = flat(result.stdout)
    assert "(default: 0.3, from env A2ACLI_A2A_VERSION)" in out
    assert "(default: json, from env A2ACLI_OUTPUT)" in out
    assert "(set, from env A2ACLI_API_KEY)" in out and "sekrit-value" not in result.stdout  # never the secret
    # a command's own help says what is in effect that is not the built-in default
    result = run("tasks", "get", "--help", env=env, columns=200)
    out = flat(result.stdout)
    assert "In effect: --a2a-version 0.3 (env A2ACLI_A2A_VERSION); --api-key set (env A2ACLI_API_KEY); --output json (env A2ACLI_OUTPUT)." in out
    assert "sekrit-value" not in result.stdout


def test_help_shows_the_default_from_the_active_profile(tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_text('default-profile = "local"\n[profiles.local]\na2a-version = "0.3"\nurl = "http://127.0.0.1:41241"\n')
    out = flat(run("help", "options", env={"A2ACLI_GLOBAL_CONFIG": str(cfg)}, columns=200).stdout)
    assert "(default: 0.3, from profile local; env: A2ACLI_A2A_VERSION)" in out
    assert "(default: http://127.0.0.1:41241, from profile local; env: A2ACLI_URL)" in out
    assert "In effect: --a2a-version 0.3 (profile local); --url http://127.0.0.1:41241 (profile local)." in flat(run("send", "--help", env={"A2ACLI_GLOBAL_CONFIG": str(cfg)}, columns=200).stdout)
    # the environment beats the profile, in help as in a call
    out = flat(run("help", "options", env={"A2ACLI_GLOBAL_CONFIG": str(cfg), "A2ACLI_A2A_VERSION": "1.0"}, columns=200).stdout)
    assert "(default: 1.0, from env A2ACLI_A2A_VERSION)" in out


@pytest.mark.parametrize("argv", [("--profile", "staging", "help", "options"), ("--profile=staging", "tasks", "list", "--help")])
def test_help_shows_the_defaults_of_the_profile_named_on_the_command_line(tmp_path, argv):
    cfg = tmp_path / "config.toml"
    cfg.write_text('[profiles.staging]\na2a-version = "0.3"\n')
    out = flat(run(*argv, env={"A2ACLI_GLOBAL_CONFIG": str(cfg)}, columns=200).stdout)
    assert "(default: 0.3, from profile staging; env: A2ACLI_A2A_VERSION)" in out or "In effect: --a2a-version 0.3 (profile staging)." in out


def test_help_survives_a_broken_config(tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_text("not = = toml")
    result = run("help", "options", env={"A2ACLI_GLOBAL_CONFIG": str(cfg)})
    assert result.returncode == 0 and "(default: 1.0; env: A2ACLI_A2A_VERSION)" in flat(result.stdout)
    assert run("send", "--help", env={"A2ACLI_GLOBAL_CONFIG": str(cfg)}).returncode == 0


@pytest.mark.spec("A2ACLI_AUTH_002")
def test_help_says_flags_show_in_the_process_table():
    """Each credential flag names its env var and says a flag is exposed (process table, history)."""
    out = flat(run("help", "options", columns=200).stdout)
    for flag, env in (("--api-key", "A2ACLI_API_KEY"), ("--bearer", "A2ACLI_BEARER"), ("--basic", "A2ACLI_BASIC")):
        assert re.search(re.escape(flag) + r" .{0,300}?A flag shows in the process table and the shell history: prefer the env var\. \(env: " + env + r"\)", out), flag
    login = flat(run("auth", "login", "--help", columns=200).stdout)
    assert "A flag shows in the process table and the shell history" in login and "env: A2ACLI_CLIENT_SECRET" in login


@pytest.mark.spec("A2ACLI_AUTH_002")
def test_the_guide_gives_each_credential_its_env_var_and_says_flags_are_exposed():
    from pathlib import Path

    guide = (Path(__file__).parents[2] / "docs" / "guide.md").read_text(encoding="utf-8")
    section = guide.split("## Authentication and TLS", 1)[1].split("\n## ", 1)[0]
    for flag, env in (("--api-key KEY", "A2ACLI_API_KEY"), ("--bearer TOKEN", "A2ACLI_BEARER"), ("--basic USER:PASS", "A2ACLI_BASIC")):
        assert re.search(rf"\| `{re.escape(flag)}` \| `{env}` \|", section), flag
    assert "shows in the process table (`ps`) and stays in the shell history" in section
    assert "which a flag overrides" in section  # the precedence stays flag > environment


# -- colour and narrow terminals ------------------------------------------------------------------------


@pytest.fixture
def card_file(tmp_path):
    path = tmp_path / "card.json"
    path.write_text(json.dumps({
        "name": "A rather long agent name that will not fit in forty columns", "description": "d " * 60, "version": "1.0.0",
        "supportedInterfaces": [{"url": "http://127.0.0.1:41241/a/very/long/path/to/the/json-rpc/endpoint", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
        "capabilities": {"streaming": True}, "defaultInputModes": [], "defaultOutputModes": [],
        "skills": [{"id": "create-user", "name": "Create user", "description": "Makes a user " * 10, "tags": []}],
    }))
    return path


@pytest.mark.parametrize("force", [False, True])
@pytest.mark.parametrize(
    "args",
    [("--help",), ("send", "--help"), ("config", "show"), ("card", "fetch", "-u", "CARD"), ("auth", "login", "--help")],
)
def test_40_columns_stay_readable(args, force, card_file):
    args = tuple(card_file.as_uri() if a == "CARD" else a for a in args)
    env = {"FORCE_COLOR": "1"} if force else {}
    result = run(*args, env=env, columns=40)
    assert result.returncode == 0, result.stderr
    lines = ANSI.sub("", result.stdout).splitlines()
    assert lines
    if force or "--help" in args:  # rendered for a terminal: fits in 40 columns
        assert max(len(line) for line in lines) <= 40, "\n".join(line for line in lines if len(line) > 40)
    else:  # piped: one `Label: value` (or `name value source`) line per item, never hard-wrapped
        assert all(re.match(r"^(\S[^:]*: |\S+ +\S)", line) for line in lines if line.strip()), result.stdout
    text = flat(result.stdout)
    if args[:2] == ("card", "fetch"):
        assert "create-user" in text and "long agent name" in text
    if args == ("config", "show"):
        assert "a2a-version" in text


def test_no_color_and_force_color(card_file):
    plain = run("card", "fetch", "-u", card_file.as_uri(), env={"NO_COLOR": "1"})
    assert plain.returncode == 0 and "\x1b[" not in plain.stdout + plain.stderr
    forced = run("card", "fetch", "-u", card_file.as_uri(), env={"FORCE_COLOR": "1"}, columns=80)
    assert forced.returncode == 0 and "\x1b[" in forced.stdout  # rich, even though piped
    both = run("card", "fetch", "-u", card_file.as_uri(), env={"FORCE_COLOR": "1", "NO_COLOR": "1"}, columns=80)
    assert both.returncode == 0 and not re.search(r"\x1b\[[0-9;]*3[0-9]m", both.stdout)  # no colours


# -- start-up stays light -------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [["config", "--help"], ["auth", "--help"], ["completion", "--help"], ["config", "path"], ["completion", "bash"],
                                  ["--help"], ["send", "--help"], ["tasks", "get", "--help"]])
def test_setup_commands_and_help_do_not_import_httpx_or_pydantic(args):
    code = (
        "import sys\n"
        f"sys.argv = ['a2a', *{args!r}]\n"
        "from a2acli.main import app\n"
        "try:\n    app(prog_name='a2a')\nexcept SystemExit:\n    pass\n"
        "heavy = sorted(m for m in ('httpx', 'httpx_sse', 'pydantic') if m in sys.modules)\n"
        "print('HEAVY', heavy, file=sys.stderr)\n"
    )
    env = clean_env()
    env["A2ACLI_GLOBAL_CONFIG"] = os.devnull
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert "HEAVY []" in proc.stderr, proc.stderr


# -- help that fits a screen (issue 25) ---------------------------------------------------------------

_EVERY_HELP = r"""
import contextlib, io, json, sys
import typer
from typer.main import get_command
from a2acli.main import build_app

root = get_command(build_app())
found = []

def walk(cmd, path):
    found.append((path, cmd))
    ctx = typer.Context(cmd, info_name="a2a")
    for name in (cmd.list_commands(ctx) if hasattr(cmd, "list_commands") else []):
        sub = cmd.get_command(ctx, name)
        if not sub.hidden:
            walk(sub, path + [name])

walk(root, [])
pages = {}
for path, cmd in found:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        try:
            build_app()(path + ["--help"], prog_name="a2a", standalone_mode=False)
        except SystemExit:
            pass
    ctx = typer.Context(cmd, info_name="a2a")
    shown = [p for p in cmd.params if p.param_type_name == "option" and not p.hidden]
    sources = [cmd.help or "", cmd.epilog or ""] + [p.help or "" for p in cmd.params]
    pages[" ".join(path)] = {
        "text": buf.getvalue(),
        "names": [",".join(o for o in p.opts if o.startswith("--")) for p in shown],
        "metavars": [p.make_metavar(ctx) for p in shown if not p.is_flag],
        "sources": sources,
    }
print(json.dumps(pages))
"""


@pytest.fixture(scope="module")
def help_at_80():
    """Every command's --help as an 80-column terminal shows it (one process renders them all)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("A2ACLI_", "_A2A_")) and k not in ("TERMINAL_WIDTH", "FORCE_COLOR", "_TYPER_FORCE_DISABLE_TERMINAL")}
    env.update({"A2ACLI_GLOBAL_CONFIG": os.devnull, "COLUMNS": "80", "NO_COLOR": "1"})
    proc = subprocess.run([sys.executable, "-c", _EVERY_HELP], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_at_80_columns_the_root_help_lists_the_commands_first_and_fits_a_screen(help_at_80):
    lines = help_at_80[""]["text"].splitlines()
    first_command = next(i for i, line in enumerate(lines) if re.match(r"│ send\s", line))
    assert first_command < 40, "\n".join(lines[:45])
    assert len(lines) <= 80
    assert "a2a help options" in flat("\n".join(lines))


def test_at_80_columns_tasks_get_help_fits_a_screen_and_folds_the_shared_options(help_at_80):
    text = help_at_80["tasks get"]["text"]
    assert len(text.splitlines()) <= 80, text
    assert "--history-length" in text and "--wait" in text  # its own options
    assert "--insecure" not in text and "--svc-param" not in text  # the shared ones: named in one short section
    assert "Shared options: -u/--url," in flat(text) and "`a2a help options` explains each" in flat(text)


def test_at_80_columns_no_help_is_wider_cut_or_split(help_at_80):
    problems = []
    for path, page in help_at_80.items():
        text = page["text"]
        if any(len(line) > 80 for line in text.splitlines()):
            problems.append(f"{path or 'a2a'}: wider than 80 columns")
        for name in page["names"]:  # an option's names are never cut with …
            if name and name not in text:
                problems.append(f"{path}: {name} cut")
        for meta in page["metavars"]:  # nor its metavar split over two lines
            if meta not in text:
                problems.append(f"{path}: metavar {meta} split")
        sources = " ".join(page["sources"])
        for word in re.findall(r"(\S+)…", text):  # a word ending in … is the help's own (5f0c…), never a cut
            word = word.strip("│").lstrip("(`'\"[")
            if word and word + "…" not in sources:
                problems.append(f"{path}: cut at {word}…")
    assert not problems, "\n".join(problems)


def test_no_help_text_is_lost_as_rich_markup(help_at_80):
    """Help is rendered by rich: a lowercase `[...]` in it (a TOML table, `[key=value|…]`) is read
    as a style tag and vanishes from --help, unless escaped (`\\[`)."""
    from rich.markup import RE_TAGS

    lost = [
        f"{path or 'a2a'}: {m.group(0)}"
        for path, page in help_at_80.items()
        for source in page["sources"]
        for m in RE_TAGS.finditer(source)
        if not m.group(2)  # not escaped
    ]
    assert not lost, "\n".join(lost)
    assert "/skill NAME [key=value|key:=JSON …]" in flat(help_at_80["chat"]["text"])
    assert '([agents."https://…"])' in flat(help_at_80["config show"]["text"])
    assert "([catalogs] in the config" in flat(help_at_80["card catalog"]["text"])


def test_help_options_explains_every_shared_option_at_80_columns():
    from a2acli.commands.invocation import ARGS as COMMON

    result = run("help", "options", columns=80)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines and max(len(line) for line in lines) <= 80
    text = result.stdout
    assert "  -u, -a, --url, --agent-card URL|FILE|catalog:NAME\n" in text  # names and metavar whole, on one line
    for name in COMMON:
        assert "--" + name.replace("_", "-") in text or name in ("a2a_version", "svc_param", "as_version") and "--" + name.split("_")[0] in text, name
    assert "(default: 1.0; env: A2ACLI_A2A_VERSION)" in flat(text)  # the effective defaults, as --help showed them


def _shown(text: str) -> list[str]:
    """The lines of a help page with the box edges taken off (rstripped)."""
    return [re.sub(r"^│|│$", "", line.rstrip()).rstrip() for line in text.splitlines()]


def _example_paragraphs(help_text: str) -> list[list[str]]:
    """The paragraphs of a help text that are examples: every line indented."""
    import inspect

    paragraphs = re.split(r"\n[ \t]*\n", inspect.cleandoc(help_text))
    return [p.split("\n") for p in paragraphs if all(line.startswith(" ") for line in p.split("\n"))]


def test_at_80_columns_every_example_line_is_shown_whole_and_indented(help_at_80):
    """Issue 46: an example is never split mid-command (a pasted first line would run another
    command), nor shown flush left with the prose (`tasks list`); a long one is broken with ` \\`."""
    problems = []
    for path, page in help_at_80.items():
        shown = _shown(page["text"])
        examples = _example_paragraphs(page["sources"][0])
        if "Example" in page["sources"][0] or "Quick start" in page["sources"][0]:
            assert examples, f"{path or 'a2a'}: no indented examples"
        for para in examples:
            for i, line in enumerate(para):
                if " " + line.rstrip() not in shown:
                    problems.append(f"{path or 'a2a'}: {line.strip()!r} not shown whole and indented")
                if i and not para[i - 1].rstrip().endswith("\\"):
                    problems.append(f"{path or 'a2a'}: {line.strip()!r} continues a line that has no ` \\`")
    assert not problems, "\n".join(problems)


def test_at_80_columns_help_prose_flows(help_at_80):
    """Issue 46: a help paragraph is rich's to wrap: no line of it ends where the next line's first
    word would still have fit (the source's own line breaks, which gave long and short lines)."""
    problems = []
    for path, page in help_at_80.items():
        prose = []
        for line in _shown(page["text"]):
            if line.startswith("╭"):
                break
            prose.append(line)
        for line, after in zip(prose, prose[1:], strict=False):
            both_prose = line.strip() and after.strip() and not line.startswith("   ") and not after.startswith("   ")
            if both_prose and len(line) + 1 + len(after.split()[0]) <= 79:
                problems.append(f"{path or 'a2a'}: {line.strip()!r} / {after.strip()!r}")
    assert not problems, "\n".join(problems)


def test_at_80_columns_a_command_in_the_prose_is_never_split(help_at_80):
    """Issue 46 (the root's Quick start): a command quoted in a help paragraph (`a2a ...`) is on one line."""
    problems = []
    for path, page in help_at_80.items():
        text = "\n".join(_shown(page["text"]))
        for command in re.findall(r"`(a2a [^`]+)`", page["sources"][0]):
            if command not in text:
                problems.append(f"{path or 'a2a'}: `{command}`")
    assert not problems, "\n".join(problems)


def test_at_80_columns_no_metavar_is_a_type_and_a_range(help_at_80):
    """Issue 46: `<int range> [0<=x<=65535]` took a third of the width from the descriptions; a port
    is PORT, a count N."""
    wordy = [f"{path}: {m}" for path, page in help_at_80.items() for m in page["metavars"] if "range" in m]
    assert not wordy, "\n".join(wordy)
    assert not [path for path, page in help_at_80.items() if "<=x<=" in page["text"]]


@pytest.mark.parametrize(
    "args", [["demo-server", "--port", "70000"], ["webhook", "listen", "--port", "x"], ["mock", "d", "--port", "-1"]]
)
def test_a_port_out_of_range_is_a_usage_error(cli, args):
    result = cli(*args)
    assert result.exit_code == 2, result.output
    assert "is not a port number (0 for a free one, up to 65535)" in result.stderr
