"""Issue 46: usage errors that lead somewhere. `a2a record` points at --dump DIR (not at `card`), a
bare group prints its help and exits 2, and an option without its value shows the command's usage."""

from __future__ import annotations

import pytest


def test_record_points_at_dump_not_at_the_closest_name(cli):
    result = cli("record")
    assert result.exit_code == 2
    assert "error: no such command 'record'" in result.stderr
    assert "hint: --dump DIR records any command's exchanges" in result.stderr
    assert "a2a card" not in result.stderr


@pytest.mark.parametrize("group", ["tasks", "card", "push-config", "config", "auth", "webhook"])
def test_a_bare_group_prints_its_help_and_exits_2(cli, group):
    result = cli(group)
    assert result.exit_code == 2
    assert f"Usage: a2a {group} [OPTIONS] COMMAND [ARGS]..." in result.stdout
    assert result.stderr == ""


def test_an_option_without_its_value_shows_the_commands_usage(cli):
    result = cli("tasks", "list", "--page-size")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "error: option '--page-size' requires an argument [A2ACLI_ERR_USAGE]",
        "usage: a2a tasks list [OPTIONS]",
        "hint: see `a2a tasks list --help`",
    ]


@pytest.mark.parametrize("argv", [["card", "fetch"], ["tasks", "get", "t-1"], ["send", "hi"]])
def test_v_after_a_command_points_at_verbose(cli, argv):
    """Issue 46: -v is the version before a command (the spec's), --verbose in `diff`, unknown to
    `card fetch`, whose view suggests --verbose: the error says which is which."""
    result = cli(*argv, "-v", "-u", "http://agent.test")
    assert result.exit_code == 2
    assert "error: no such option: -v" in result.stderr
    assert (
        "hint: here --verbose gives the full view (-v is `a2a -v`, the version; only `a2a diff` takes -v for --verbose)"
        in result.stderr
    )


def test_v_is_still_the_version_before_a_command(cli):
    from a2acli import __version__

    assert cli("-v").stdout == f"a2a {__version__}\n"
