"""The lazy command table: a run builds only the command it was asked for."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from a2acli.main import COMMANDS, build_app


def _root():
    import typer

    root = typer.main.get_command(build_app())
    return root, root.make_context("a2a", ["--help"], resilient_parsing=True)


def test_the_root_builds_a_command_only_when_it_is_asked_for():
    """No argv pre-scan: the root group (registry.RootGroup) lists every command of the table and
    builds one when Click asks for it (`get_command`)."""
    root, ctx = _root()
    assert sorted(root.list_commands(ctx)) == sorted(COMMANDS)
    assert root.commands == {}  # nothing built yet
    assert root.get_command(ctx, "send").name == "send"
    assert sorted(root.commands) == ["send"]
    assert root.get_command(ctx, "nosuchcommand") is None


def test_a_group_builds_only_the_member_asked_for():
    root, ctx = _root()
    card = root.get_command(ctx, "card")
    assert sorted(card.list_commands(ctx)) == ["catalog", "extended", "fetch", "get"]
    assert card.commands == {}
    assert card.get_command(ctx, "fetch").name == "fetch"
    assert sorted(card.commands) == ["fetch"]
    tasks = root.get_command(ctx, "tasks")
    assert sorted(tasks.get_command(ctx, "push-config").list_commands(ctx)) == ["create", "delete", "get", "list"]
    assert sorted(tasks.commands) == ["push-config"]


def test_a_run_imports_only_the_module_of_its_command():
    code = (
        "import sys; from a2acli.main import run; sys.argv = ['a2a', 'card', 'fetch', '--help']\n"
        "try:\n    run()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('a2acli.commands.') and m.count('.') == 2), file=sys.stderr)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    loaded = eval(out.stderr.strip().splitlines()[-1])  # noqa: S307
    assert "a2acli.commands.card" in loaded
    assert not {"a2acli.commands.tasks", "a2acli.commands.message", "a2acli.commands.debug"} & set(loaded)


@pytest.mark.parametrize("argv,expect", [
    (["--version"], "a2a "),
    (["-u", "http://127.0.0.1:9", "tasks", "push-config", "--help"], "Push-notification"),
    (["send", "hi", "--offline", "-o", "raw", "--rpc-url", "http://x/"], '"method":"SendMessage"'),
    (["tasks", "get", "t-1", "--offline", "-o", "raw", "--rpc-url", "http://x/"], '"method":"GetTask"'),
    (["--offline", "-o", "raw", "tasks", "get", "t-1", "--rpc-url", "http://x/"], '"method":"GetTask"'),
])
def test_run_through_the_console_entry_point(argv, expect):
    out = subprocess.run([sys.executable, "-c", "import sys; from a2acli.main import run; sys.argv = ['a2a', *sys.argv[1:]]; run()", *argv],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert expect in out.stdout


def test_a_group_alone_shows_all_its_members():
    out = subprocess.run([sys.executable, "-c", "import sys; from a2acli.main import run; sys.argv = ['a2a', 'card']; run()"],
                         capture_output=True, text=True, timeout=60)
    assert "fetch" in out.stdout + out.stderr and "extended" in out.stdout + out.stderr


def test_the_entry_point_starts_without_collections_and_runs_the_command_with_them(monkeypatch):
    import gc

    import a2acli.__main__ as entry
    import a2acli.main as main

    seen = {}

    def fake_run():
        seen["starting"] = gc.isenabled()
        main._collect_from_here()
        seen["command"] = gc.isenabled()
        seen["frozen"] = gc.get_freeze_count()
        seen["threshold"] = gc.get_threshold()

    monkeypatch.setattr(main, "run", fake_run)
    before = gc.get_threshold()
    try:
        entry.main()
        assert seen["starting"] is False  # no collections while importing and building
        assert seen["command"] is True and seen["frozen"] > 0  # on for the command; start-up heap frozen
        assert seen["threshold"] == (main.RUN_GEN0_THRESHOLD, *before[1:])  # the first 50,000 objects uncollected
        assert gc.isenabled()  # and on afterwards (the process may be a test run)
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
        gc.enable()


def test_the_console_script_and_python_m_share_the_entry_point():
    from importlib.metadata import entry_points

    (script,) = entry_points(group="console_scripts", name="a2a")
    assert script.value == "a2acli.__main__:main"  # as installed, so a stale install fails here
    out = subprocess.run([sys.executable, "-m", "a2acli", "--version"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.startswith("a2a ")


def _run(argv: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    import os

    code = "import sys; from a2acli.__main__ import main; sys.argv = ['a2a', *sys.argv[1:]]; main()"
    return subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=60, env={**os.environ, **(env or {})})


@pytest.mark.parametrize("argv,env,says", [
    (["send", "hi", "--qqqqq", "-o", "json"], None, "no such option: --qqqqq"),
    (["-ojson", "send", "--history-length", "abc", "hi"], None, "invalid value for '--history-length'"),
    (["tasks", "get", "--output=json"], None, "missing argument 'TASK_ID'"),
    (["tasks", "get"], {"A2ACLI_OUTPUT": "json"}, "missing argument 'TASK_ID'"),
])
def test_a_usage_error_under_json_output_is_the_json_envelope(argv, env, says):
    out = _run(argv, env)
    assert out.returncode == 2
    err = json.loads(out.stdout)["error"]
    assert err["code"] == "A2ACLI_ERR_USAGE" and says in err["message"] and err["hint"].endswith("--help`")


def test_a_usage_error_in_text_output_is_in_our_voice(tmp_path):
    out = _run(["send", "hi", "--qqqqq"])
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.splitlines() == ["error: no such option: --qqqqq [A2ACLI_ERR_USAGE]", "usage: a2a send [OPTIONS] [TEXT]", "hint: see `a2a send --help`"]


def test_json_output_keeps_the_exit_codes_of_the_commands():
    assert _run(["send", "hi", "-o", "json", "-u", "http://127.0.0.1:9"]).returncode == 3
    ok = _run(["send", "hi", "-o", "json", "--offline", "--rpc-url", "http://x/"])
    assert ok.returncode == 0 and json.loads(ok.stdout)["method"] == "SendMessage"


@pytest.mark.parametrize("argv", [["task", "list", "--help"], ["help", "task", "list"]])
def test_piped_help_keeps_whole_flag_names(argv):
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    out = subprocess.run([sys.executable, "-m", "a2acli", *argv], capture_output=True, text=True, env=env, timeout=60).stdout
    assert "--history-length" in out and "--status-timestamp-after" in out
    assert not [line for line in out.splitlines() if "--" in line and "…" in line]


# -- the end of an `a2a` process: no interpreter teardown (a2acli/__main__.py) ----------------------

_ENDING = """
import atexit, os, sys, threading, time
sys.argv = [{argv0!r}, *sys.argv[1:]]  # what the console script's process has when a2acli is imported


# Registered before a2a's own exit handler, so run after it: only when the process is not ended there
atexit.register(lambda: os.write(2, b"teardown\\n"))
import a2acli.main as entry


def run():  # a command: output left in stdout's buffer, an exit handler and a thread of its own
    atexit.register(lambda: sys.stdout.write("handler;"))
    threading.Thread(target=lambda: (time.sleep(0.2), sys.stdout.write("thread;"))).start()
    sys.stdout.write("buffered;")
    {end}


entry.run = run
from a2acli.__main__ import main
main()
"""


def _ending(argv0: str = "a2a", end: str = "raise SystemExit(3)", *flags: str, **kw):
    import os

    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # stdout block-buffered, as usual
    code = _ENDING.format(argv0=argv0, end=end)
    return subprocess.run([sys.executable, *flags, "-c", code], env=env, timeout=60, **kw)


@pytest.mark.parametrize("end,status", [
    ("raise SystemExit(3)", 3), ("return", 0), ("raise SystemExit(None)", 0), ("raise SystemExit('bad')", 1),
    ("raise KeyboardInterrupt", 130), ("raise RuntimeError('bug')", 1),
])
def test_an_a2a_process_ends_without_teardown_and_loses_nothing(end, status):
    out = _ending("/usr/local/bin/a2a", end, capture_output=True, text=True)
    assert out.returncode == status, out.stderr
    # the thread was waited for, the later exit handler ran, and everything buffered was written
    assert out.stdout == "buffered;thread;handler;"
    assert "teardown" not in out.stderr  # the interpreter's teardown was skipped
    if status == 1:
        assert ("bad" if "bad" in end else "RuntimeError: bug") in out.stderr  # as Python says it


@pytest.mark.parametrize("argv0,flags", [("pytest", ()), ("a2a", ("-X", "dev"))])
def test_a_host_program_or_dev_mode_keeps_the_teardown(argv0, flags):
    out = _ending(argv0, "raise SystemExit(3)", *flags, capture_output=True, text=True)
    assert out.returncode == 3
    assert out.stdout == "buffered;thread;handler;"
    assert "teardown" in out.stderr


def test_a_reader_gone_at_the_end_changes_nothing():
    import os

    r, w = os.pipe()
    os.close(r)  # nobody reads: the last flush meets EPIPE
    try:
        out = _ending("a2a", "raise SystemExit(0)", stdout=w, stderr=subprocess.PIPE, text=True)
    finally:
        os.close(w)
    # Python's own end would say "Exception ignored ... BrokenPipeError" and exit 120
    assert out.returncode == 0 and out.stderr == ""


@pytest.mark.skipif(not __import__("os").path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_output_left_in_the_buffer_at_the_end_that_cannot_be_written_is_said():
    with open("/dev/full", "w") as full:
        out = _ending("a2a", "raise SystemExit(0)", stdout=full, stderr=subprocess.PIPE, text=True)
    assert out.returncode == 1  # the run had succeeded; what it wrote did not
    assert out.stderr.splitlines() == [
        "error: cannot write the output: No space left on device [X_A2A_CANNOT_WRITE]",
        "hint: free some space (or pick another place for the output: a file elsewhere, a pipe)",
    ]


def test_the_entry_point_as_a_command_ends_without_teardown():
    for argv in (["-m", "a2acli", "--version"], ["-m", "a2acli", "send", "--qqqqq"]):
        out = subprocess.run([sys.executable, *argv], capture_output=True, text=True, timeout=60)
        assert out.returncode == (0 if "--version" in argv else 2)
    import a2acli.__main__ as entry

    assert [entry.exit_status(c) for c in (None, 0, 5, 130, "x", True)] == [0, 0, 5, 130, 1, 1]


# A Ctrl-C at the edges of `main`: 130, as a Ctrl-C anywhere, not the 1 of a run whose status was never recorded

_EDGE = """
import atexit, gc, signal, sys
sys.argv = ["/usr/local/bin/a2a", "--version"]  # the console script's process
import a2acli  # (sets the start-up Ctrl-C handler: quiet, 130)
{patch}
from a2acli.__main__ import main
main()
"""

_CTRL_C_REGISTERING = """
real = atexit.register
def register(f, *a, **k):  # the Ctrl-C comes while a2a registers its exit handler
    real(f, *a, **k)
    signal.raise_signal(signal.SIGINT)
    return f
atexit.register = register
"""

_CTRL_C_ENDING = """
real, calls = gc.freeze, []
def freeze():  # the Ctrl-C comes as the run ends (its last gc.freeze, after the command's boundary)
    real()
    calls.append(1)
    if len(calls) == 2:
        signal.raise_signal(signal.SIGINT)
gc.freeze = freeze
"""


@pytest.mark.parametrize("patch", [_CTRL_C_REGISTERING, _CTRL_C_ENDING], ids=["registering", "ending"])
def test_a_ctrl_c_at_the_edges_of_main_still_exits_130(patch):
    code = _EDGE.format(patch=patch)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 130, out.stderr


# -- output that cannot be written: a full disk is said as such, not as a bug -----------------------


@pytest.mark.skipif(not __import__("os").path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("argv", [
    ["--version"], ["send", "--help"], ["send", "hi", "--offline", "--rpc-url", "http://x/", "-o", "raw"],
    ["send", "hi", "--offline", "--rpc-url", "http://x/", "-o", "json"],
])
def test_output_to_a_full_disk_is_a_clear_error(argv):
    with open("/dev/full", "w") as full:
        out = subprocess.run([sys.executable, "-m", "a2acli", *argv], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert out.returncode == 1
    assert out.stderr.splitlines()[-2:] == [
        "error: cannot write the output: No space left on device [X_A2A_CANNOT_WRITE]",
        "hint: free some space (or pick another place for the output: a file elsewhere, a pipe)",
    ]
    assert "Traceback" not in out.stderr and "internal error" not in out.stderr


def test_which_failures_are_failures_to_write():
    import errno

    from a2acli.errors import CANNOT_WRITE, cannot_write

    said = cannot_write(OSError(errno.ENOSPC, "No space left on device", "/data/dump/001-card.request.http"))
    assert said is not None and said.code == CANNOT_WRITE and int(said.exit_code) == 1
    assert said.message == "cannot write /data/dump/001-card.request.http: No space left on device"
    assert all(cannot_write(OSError(getattr(errno, n), "x")) is not None for n in ("EDQUOT", "EFBIG", "EROFS", "EIO"))
    assert cannot_write(OSError(errno.ENOENT, "No such file or directory")) is None  # not a write failure: a bug
    assert cannot_write(ValueError("x")) is None
