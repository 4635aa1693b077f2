"""The application, headless: what each command does, as functions of the resolved options (or the
session opened on them) and their own typed arguments, returning what the face presents. No Typer
or Click here: the CLI (`commands/`) and `a2a mcp` (`mcp/`) both call these, and so do tests."""
