#!/usr/bin/env python3
"""Generate docs/reference.md from the CLI itself: every command's usage, help and options.

    python scripts/gen_reference.py          # rewrite docs/reference.md
    python scripts/gen_reference.py --check  # exit 1 when it is stale (tests/test_docs.py does this too)

It walks the Typer app through `typer.main.get_command(app)` with a clean environment (no
A2ACLI_* variables, no config file), so the defaults shown are the built-in ones."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "docs" / "reference.md"

PANEL_ORDER = ["Connection", "Authentication and TLS", "Output and debugging"]


def clean_environment() -> None:
    """Built-in defaults only: the help text of an option shows what the environment sets."""
    for k in [k for k in os.environ if k.startswith("A2ACLI_") and k != "A2ACLI_UPDATE_GOLDEN"]:
        del os.environ[k]
    os.environ["A2ACLI_GLOBAL_CONFIG"] = str(ROOT / "docs" / ".no-such-config.toml")


def _unescape(text: str) -> str:
    """Help as --help shows it: rich reads `\\[` as a literal `[` (a lowercase `[...]` would be a tag)."""
    return str(text).replace("\\[", "[")


def _cell(text: str) -> str:
    return " ".join(_unescape(text).split()).replace("|", "\\|")


def _help_markdown(text: str) -> str:
    """Docstring to Markdown: indented paragraphs (examples) become one ```sh block each run."""
    out: list[str] = []
    code: list[str] = []
    for para in re.split(r"\n\s*\n", _unescape(text).strip()):
        lines = para.split("\n")
        if all(line.startswith("  ") for line in lines):
            code += [line[2:].rstrip() for line in lines]  # (a continued line keeps its indent)
            continue
        if code:
            out.append("```sh\n" + "\n".join(code) + "\n```")
            code = []
        out.append(" ".join(line.strip() for line in lines))
    if code:
        out.append("```sh\n" + "\n".join(code) + "\n```")
    return "\n\n".join(out)


def _metavar(param: Any, ctx: Any) -> str:
    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        return ""
    if getattr(param, "metavar", None):
        return str(param.metavar)
    return str(getattr(param.type, "name", "value")).replace(" ", "-").upper()


def _option_row(param: Any, ctx: Any) -> str:
    names = ", ".join(f"`{n}`" for n in [*param.opts, *param.secondary_opts])
    meta = _metavar(param, ctx)
    help_text = _cell(param.help or "")
    default = param.default
    if param.show_default and default not in (None, False, (), []) and not callable(default):
        help_text += f" [default: {default}]"
    if param.multiple:
        help_text += " (repeatable)" if "repeatable" not in help_text else ""
    return f"| {names}{' ' + _cell(meta) if meta else ''} | {help_text} |"


def _arg_usage(arg: Any) -> str:
    """An argument in the usage line, as `--help` shows it: a metavar the command gives is used as
    written (`[FILE|-]`, `DUMP...`, `SHELL|install`), in brackets when optional and not already;
    otherwise the name in capitals, in brackets
    when optional, with `...` when it takes several."""
    if arg.metavar:
        shown = str(arg.metavar)
        return shown if arg.required or shown.startswith("[") else f"[{shown}]"
    name = arg.name.upper()
    name = name if arg.required else f"[{name}]"
    return name + ("..." if arg.multiple or arg.nargs != 1 else "")


_COMMON_DECLS: dict[str, tuple[str, ...]] = {}


def _is_common(param: Any) -> bool:
    """One of the shared options (same name and flags as on the root command)."""
    return _COMMON_DECLS.get(param.name) == tuple(getattr(param, "opts", ()))


def _options_tables(params: list[Any], ctx: Any, *, panels: bool) -> list[str]:
    groups: dict[str, list[Any]] = {}
    for p in params:
        groups.setdefault(getattr(p, "rich_help_panel", None) or "Options", []).append(p)
    order = sorted(groups, key=lambda g: (g != "Options", PANEL_ORDER.index(g) if g in PANEL_ORDER else len(PANEL_ORDER), g))
    out: list[str] = []
    for g in order:
        if panels or len(order) > 1:
            out.append(f"{g}:\n")
        out.append("| Option | Description |\n| --- | --- |\n" + "\n".join(_option_row(p, ctx) for p in groups[g]) + "\n")
    return out


def _walk(cmd: Any, ctx: Any, found: list[tuple[Any, Any]]) -> None:
    import typer

    found.append((cmd, ctx))
    if hasattr(cmd, "commands"):
        for name in cmd.list_commands(ctx):
            sub = cmd.get_command(ctx, name)
            if getattr(sub, "hidden", False):
                continue
            _walk(sub, typer.Context(sub, info_name=name, parent=ctx), found)


def _anchor(path: str) -> str:
    return re.sub(r"[^a-z0-9 -]", "", path.lower()).replace(" ", "-")


def render() -> str:
    import typer
    from typer.main import get_command

    from a2acli.commands.invocation import ARGS
    from a2acli.main import app

    root = get_command(app)
    _COMMON_DECLS.clear()
    _COMMON_DECLS.update({p.name: tuple(p.opts) for p in root.params if p.name in ARGS})
    found: list[tuple[Any, Any]] = []
    _walk(root, typer.Context(root, info_name="a2a"), found)
    lines = [
        "# `a2a` command reference",
        "",
        "<!-- Generated by scripts/gen_reference.py from the CLI itself; do not edit by hand. -->",
        "",
        "Every command also answers `--help` (`-h`). Defaults shown here are the built-in ones: `--help`",
        "shows the effective ones, from the environment and the config files. Precedence: flag >",
        "environment > local file (`--config`, else `.env` / `.a2acli.toml` from the working directory up) >",
        "global file > built-in default (`a2a config show` says where each value came from).",
        "",
        "## Commands",
        "",
    ]
    for cmd, ctx in found[1:]:
        summary = (cmd.get_short_help_str(limit=200) if hasattr(cmd, "get_short_help_str") else "") or ""
        lines.append(f"- [`{ctx.command_path}`](#{_anchor(ctx.command_path)}): {_cell(summary)}")
    lines.append("")
    common = [p for p in root.params if _is_common(p)]
    lines += [
        "## Common options",
        "",
        "Every command that talks to an agent accepts these, after the subcommand or before it",
        "(`a2a -u URL tasks get ID`). Credential flags show in the process table: prefer their environment variables.",
        "",
        *_options_tables(common, found[0][1], panels=True),
    ]
    for cmd, ctx in found:
        path = ctx.command_path
        params = [p for p in cmd.get_params(ctx) if p.name not in ("help",)]
        # a command takes the common options when it has all of them (translate has its own --debug)
        takes_common = cmd is not root and sum(_is_common(p) for p in params) == len(_COMMON_DECLS)
        args = [p for p in params if p.param_type_name == "argument"]
        # a hidden option of its own (an old or alias name: `--token`, `--blocking-call`) stays out, as in --help
        opts = [
            p
            for p in params
            if p.param_type_name == "option"
            and not (_is_common(p) and (takes_common or cmd is root))
            and not (getattr(p, "hidden", False) and not _is_common(p))
        ]
        usage = " ".join([path, "[OPTIONS]", *(_arg_usage(a) for a in args)] + (["COMMAND [ARGS]..."] if hasattr(cmd, "commands") else []))
        lines += [f"## {path}", "", "```", usage, "```", ""]
        if cmd.help:
            lines += [_help_markdown(cmd.help), ""]
        if args:
            lines.append("Arguments:\n")
            lines += [f"- `{(a.metavar or a.name).upper()}`{'' if a.required else ' (optional)'}: {_cell(getattr(a, 'help', '') or '')}" for a in args]
            lines.append("")
        if opts:
            lines += _options_tables(opts, ctx, panels=False)
        if takes_common:
            lines += ["Also the [common options](#common-options).", ""]
        if hasattr(cmd, "commands"):
            subs = [n for n in cmd.list_commands(ctx) if not getattr(cmd.get_command(ctx, n), "hidden", False)]
            lines += ["Subcommands: " + ", ".join(f"[`{n}`](#{_anchor(path + ' ' + n)})" for n in subs), ""]
    return "\n".join(line.rstrip() for line in "\n".join(lines).split("\n")).rstrip() + "\n"


def main(argv: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="gen_reference.py", description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="exit 1 when docs/reference.md is stale, without writing it")
    check = parser.parse_args(argv).check  # --help prints this and exits 0; an unknown argument exits 2, writing nothing
    clean_environment()
    sys.path.insert(0, str(ROOT))
    text = render()
    if check:
        if not REFERENCE.exists() or REFERENCE.read_text() != text:
            print(f"{REFERENCE} is stale: run python scripts/gen_reference.py", file=sys.stderr)
            return 1
        return 0
    REFERENCE.parent.mkdir(exist_ok=True)
    REFERENCE.write_text(text)
    print(f"wrote {REFERENCE.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
