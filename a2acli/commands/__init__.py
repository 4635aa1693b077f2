"""Typer commands: one thin file per method group. Only this package and main.py import typer."""

COMPLETE_VAR = "_A2A_COMPLETE"  # set when the shell asks a run for completions (commands.completion)
