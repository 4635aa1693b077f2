"""Typer commands: one thin file per method group. Only this package and main.py import typer."""
