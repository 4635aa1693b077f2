"""flows.completion called directly with an Invocation, no CLI runner: the script a face hands it
printed on the invocation's stdout, or installed where the shell finds it; a shell it cannot tell
or does not know is a usage error."""

from __future__ import annotations

import io

import pytest

from a2acli.errors import UsageError
from a2acli.flows import completion
from a2acli.flows.invocation import Environment, Invocation


def script(shell: str) -> str:
    return f"# the {shell} script"


def test_the_script_goes_to_the_invocations_stdout():
    out = io.StringIO()
    assert completion.completion(Invocation(env=Environment(stdout=out)), "ZSH ", None, script) == 0
    assert out.getvalue() == "# the zsh script\n"


@pytest.mark.parametrize(
    ("shell", "extra", "message"), [("tcsh", None, "no completion for shell"), ("bash", "zsh", "unexpected argument")]
)
def test_a_shell_it_does_not_know_or_an_extra_argument_is_usage(shell, extra, message):
    with pytest.raises(UsageError, match=message):
        completion.completion(Invocation(), shell, extra, script)


def test_install_writes_the_script_where_the_shell_finds_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "conf"))
    assert completion.completion(Invocation(), "install", "fish", script) == 0
    assert (tmp_path / "conf" / "fish" / "completions" / "a2a.fish").read_text() == "# the fish script\n"
    assert "open a new shell" in capsys.readouterr().err


def test_install_takes_the_shell_from_SHELL_and_says_the_rc_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("SHELL", "/bin/zsh")
    assert completion.install(Invocation(), None, script) == 0
    assert (tmp_path / ".zfunc" / "_a2a").read_text() == "# the zsh script\n"
    assert "fpath=(~/.zfunc $fpath)" in capsys.readouterr().err
    monkeypatch.setenv("SHELL", "/bin/csh")
    with pytest.raises(UsageError, match="cannot tell which shell"):
        completion.install(Invocation(), None, script)


def test_install_target_of_bash_follows_XDG_DATA_HOME(tmp_path):
    path, rc = completion.install_target("bash", {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "d")})
    assert path == tmp_path / "d" / "bash-completion" / "completions" / "a2a"
    assert rc is not None and rc.startswith("[ -f ~/d/bash-completion/completions/a2a ]")
