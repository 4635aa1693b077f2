"""The integration tests run `a2a` one way (issue 22, item 6): `run_a2a` in
tests/integration/conftest.py, whose environment is `a2a_env`'s (the one scrub of the user's
A2ACLI_* settings). Outside conftest.py, a test module may start a program with `subprocess.run`
only when the call names another program (`sh`, `script`…); it may start `a2a` in the background
with Popen (a server, `a2a mock`, a stream read line by line), never with this process's own
environment; and it scrubs no environment of its own."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

INTEGRATION = Path(__file__).resolve().parent / "integration"
# Modules and functions that run a program by hand on purpose, each with its reason.
ALLOWED = {
    "test_install.py": "builds a wheel, installs it into a fresh venv and runs THAT venv's `a2a`, with its own scrub (PYTHON*, PIP_*)",
    "test_extras_install.py": "installs the repository with pipx or uv and runs THAT tool's `a2a` and the hints it prints, with test_install's scrub (_env)",
    "test_third_party.py:_installed": "npm / pip installs of the third-party servers, not `a2a`",
    "test_docs_run.py": "runs the pages' shell lines as written (pipes, redirections, `$(…)`) with the reader's shell, in an environment from a2a_env",
}
FOREGROUND = {"run", "call", "check_call", "check_output"}


def _names_another_program(argv: ast.expr | None) -> bool:
    """argv is a list literal whose first item is a string other than `a2a`."""
    return (
        isinstance(argv, ast.List)
        and bool(argv.elts)
        and isinstance(argv.elts[0], ast.Constant)
        and isinstance(argv.elts[0].value, str)
        and Path(argv.elts[0].value).name != "a2a"
    )


def _argv(call: ast.Call) -> ast.expr | None:
    if call.args:
        return call.args[0]
    return next((k.value for k in call.keywords if k.arg == "args"), None)


def _offences_of(node: ast.AST, where: str) -> list[str]:
    if isinstance(node, ast.ImportFrom) and node.module == "a2a_testkit" and any(a.name == "clean_env" for a in node.names):
        return ["imports clean_env (use the a2a_env fixture)"]
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return []
    if node.func.attr == "startswith" and any(isinstance(a, ast.Constant) and a.value == "A2ACLI_" for a in node.args):
        return ["scrubs A2ACLI_* itself (use run_a2a or a2a_env)"]
    if not (isinstance(node.func.value, ast.Name) and node.func.value.id == "subprocess"):
        return []
    what = node.func.attr
    if what in FOREGROUND and where not in ALLOWED and not _names_another_program(_argv(node)):
        return [f"subprocess.{what} of `a2a` (use run_a2a)"]
    if what == "Popen":
        env = next((k.value for k in node.keywords if k.arg == "env"), None)
        if env is None or (isinstance(env, ast.Constant) and env.value is None):
            return ["Popen with this process's environment (pass env=a2a_env(...))"]
    return []


def offences(source: str, module: str) -> list[str]:
    """What in `source` (the module `module` of tests/integration/) runs `a2a` past run_a2a/a2a_env."""
    if module in ALLOWED:
        return []
    tree = ast.parse(source)
    found: list[str] = []

    def visit(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = f"{module}:{child.name}" if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else where
            found.extend(f"{inner} line {getattr(child, 'lineno', 0)}: {o}" for o in _offences_of(child, inner))
            visit(child, inner)

    visit(tree, module)
    return found


def test_integration_tests_run_a2a_only_through_run_a2a_and_a2a_env():
    modules = sorted(p for p in INTEGRATION.glob("*.py") if p.name != "conftest.py")
    assert len(modules) > 20  # the directory is where this test thinks it is
    found = [o for p in modules for o in offences(p.read_text(), p.name)]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize(
    "source",
    [
        # the closures item 6 removed
        "def a2a(a2a_bin):\n    def run(*args):\n        return subprocess.run([*a2a_bin, *args], capture_output=True)\n    return run\n",
        "def run(argv):\n    return subprocess.run(argv, env=env, timeout=60)\n",
        "def test_x(a2a_bin):\n    subprocess.run(args=[*a2a_bin, 'diff'])\n",
        "def test_x():\n    subprocess.check_output(['a2a', 'card', 'fetch'])\n",
        # their own scrub
        "from a2a_testkit import assert_floor, clean_env\n",
        "env = {k: v for k, v in os.environ.items() if not k.startswith('A2ACLI_')}\n",
        # a background a2a that inherits the user's settings
        "def mock(a2a_bin):\n    return subprocess.Popen([*a2a_bin, 'mock', 'dump'])\n",
        "def mock(a2a_bin):\n    return subprocess.Popen([*a2a_bin, 'mock', 'dump'], env=None)\n",
    ],
)
def test_the_check_finds_a2a_run_by_hand(source):
    assert offences(source, "test_example.py")


@pytest.mark.parametrize(
    "source",
    [
        "def test_x(run_a2a):\n    run_a2a('card', 'fetch', check=0)\n",
        "def test_x(a2a_env):\n    subprocess.run(['sh', 'tour.sh'], env=a2a_env())\n",
        "def test_x(a2a_bin, a2a_env):\n    subprocess.Popen([*a2a_bin, 'mock'], env=a2a_env(NO_COLOR='1'))\n",
    ],
)
def test_the_check_lets_run_a2a_other_programs_and_popen_with_a2a_env_pass(source):
    assert offences(source, "test_example.py") == []
