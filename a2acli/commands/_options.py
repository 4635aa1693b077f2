"""The options every method command shares, declared once and injected into each command.

`@method_options` adds them to a command's signature (so they work after the subcommand), the
root callback accepts them too (before it), and both are merged into one frozen CallOptions."""

from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass, field
from typing import Annotated, Any, Callable, Optional

import typer

from a2acli.wire import VERSION_CHOICES, Wire

CONN = "Connection"
OUT = "Output and debugging"


def _opt(*decls: str, help: str, panel: str = CONN, **kw: Any) -> Any:
    return typer.Option(*decls, help=help, rich_help_panel=panel, show_default=False, **kw)


# name -> (annotation, default). Env vars are resolved in settings.py so `config show` can say
# where each value came from; the help text names them.
COMMON: dict[str, tuple[Any, Any]] = {
    "url": (Annotated[Optional[str], _opt("--url", "-u", help="The agent: base URL, Agent Card URL, or file:// card. (env: A2ACLI_URL)")], None),
    "rpc_url": (Annotated[Optional[str], _opt("--rpc-url", help="POST JSON-RPC here and skip the card look-up. (env: A2ACLI_RPC_URL)")], None),
    "a2a_version": (Annotated[Optional[str], _opt("--a2a-version", help=f"Wire form: {' or '.join(VERSION_CHOICES)}. (default: 1.0; env: A2ACLI_A2A_VERSION)", autocompletion=lambda: list(VERSION_CHOICES))], None),
    "dialect": (Annotated[Optional[str], _opt("--dialect", help="Vendor deviations: spec or clix. (default: spec; env: A2ACLI_DIALECT)", autocompletion=lambda: ["spec", "clix"])], None),
    "header": (Annotated[Optional[list[str]], _opt("--header", "-H", help="Extra header 'Name: value' (repeatable).")], None),
    "api_key": (Annotated[Optional[str], _opt("--api-key", help="API key, placed where the card's apiKey scheme says (X-API-Key header otherwise). Flags show in the process table: prefer the env var. (env: A2ACLI_API_KEY)")], None),
    "bearer": (Annotated[Optional[str], _opt("--bearer", help="Bearer token for Authorization. Prefer the env var. (env: A2ACLI_BEARER)")], None),
    "timeout": (Annotated[Optional[float], _opt("--timeout", help="Whole-call bound in seconds; exit 5 when it expires. (env: A2ACLI_TIMEOUT)", min=0.0)], None),
    "insecure": (Annotated[bool, _opt("--insecure", help="Skip TLS certificate verification (unsafe).")], False),
    "profile": (Annotated[Optional[str], _opt("--profile", help="Named settings from the config file. (env: A2ACLI_PROFILE)")], None),
    "output": (Annotated[Optional[str], _opt("--output", "-o", help="text, json or raw. (default: text; env: A2ACLI_OUTPUT)", panel=OUT, autocompletion=lambda: ["text", "json", "raw"])], None),
    "as_version": (Annotated[Optional[str], _opt("--as", help="With -o json: convert what was received to canonical v1 JSON.", panel=OUT, autocompletion=lambda: ["v1"])], None),
    "offline": (Annotated[bool, _opt("--offline", help="Print the request(s) exactly as they would be sent; send nothing.", panel=OUT)], False),
    "dump": (Annotated[Optional[str], _opt("--dump", help="Write every exchange byte for byte into this directory. (env: A2ACLI_DUMP)", panel=OUT)], None),
    "debug": (Annotated[bool, _opt("--debug", help="Requests and responses on stderr (credentials redacted); tracebacks.", panel=OUT)], False),
}


@dataclass(frozen=True)
class CallOptions:
    url: str | None = None
    rpc_url: str | None = None
    wire: Wire = Wire.V1
    dialect_name: str = "spec"
    headers: tuple[tuple[str, str], ...] = ()
    api_key: str | None = None
    bearer: str | None = None
    timeout: float | None = None
    insecure: bool = False
    output: str = "text"
    as_v1: bool = False
    offline: bool = False
    dump: str | None = None
    debug: bool = False
    profile: str | None = None
    sources: dict[str, str] = field(default_factory=dict)

    @property
    def dialect(self):  # noqa: ANN201
        from a2acli.wire.dialects import get_dialect

        return get_dialect(self.dialect_name)


def parse_header(text: str) -> tuple[str, str]:
    name, sep, value = text.partition(":")
    if not sep or not name.strip() or any(c.isspace() for c in name.strip()):
        from a2acli.errors import UsageError

        raise UsageError(f"-H {text!r} is not 'Name: value'", hint="e.g. -H 'X-Team: qa'")
    return name.strip(), value.strip()


def build_options(raw: dict[str, Any], root: dict[str, Any] | None = None) -> CallOptions:
    """Merge leaf flags over root flags, then resolve env / profile / defaults."""
    from a2acli import settings
    from a2acli.errors import UsageError
    from a2acli.wire import parse_wire
    from a2acli.wire.dialects import get_dialect

    root = root or {}
    merged = {k: (raw.get(k) if raw.get(k) not in (None, False, []) else root.get(k)) for k in COMMON}
    flags = {k.replace("_", "-"): v for k, v in merged.items()}
    res = settings.resolve(flags, merged.get("profile"))
    v = res.values
    try:
        wire = parse_wire(str(v["a2a-version"]))
    except ValueError as e:
        raise UsageError(str(e), hint="--a2a-version 1.0 (default) or 0.3") from None
    try:
        get_dialect(str(v["dialect"]))
    except ValueError as e:
        raise UsageError(str(e), hint="--dialect spec (default) or clix") from None
    output = str(v["output"]).lower()
    if output not in ("text", "json", "raw"):
        raise UsageError(f"unknown output mode {output!r}", hint="-o text, json or raw")
    as_v = (merged.get("as_version") or "").lower()
    if as_v not in ("", "v1", "1.0"):
        raise UsageError(f"--as {merged['as_version']!r} is not supported", hint="--as v1 (canonical V1 JSON)")
    timeout = v.get("timeout")
    try:
        timeout = float(timeout) if timeout not in (None, "") else None
    except ValueError:
        raise UsageError(f"--timeout {timeout!r} is not a number of seconds", hint="e.g. --timeout 30") from None
    headers = list(res.profile_headers) + [parse_header(h) for h in (merged.get("header") or [])]
    return CallOptions(
        url=v["url"],
        rpc_url=v["rpc-url"],
        wire=wire,
        dialect_name=str(v["dialect"]).lower(),
        headers=tuple(headers),
        api_key=v["api-key"],
        bearer=v["bearer"],
        timeout=timeout,
        insecure=bool(merged.get("insecure")),
        output=output,
        as_v1=bool(as_v),
        offline=bool(merged.get("offline")),
        dump=v["dump"],
        debug=bool(merged.get("debug")),
        profile=res.profile,
        sources=res.sources,
    )


def common_parameters() -> list[inspect.Parameter]:
    return [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=ann) for name, (ann, default) in COMMON.items()]


def method_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Give a command the shared options; it receives them merged as `opts: CallOptions`."""
    sig = inspect.signature(fn, eval_str=True)
    own = [p for p in sig.parameters.values() if p.name not in ("opts", "ctx")]
    wants_ctx = "ctx" in sig.parameters
    ctx_param = inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context)

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        ctx = kwargs.pop("ctx")
        raw = {k: kwargs.pop(k) for k in list(kwargs) if k in COMMON}
        root = ctx.find_root().obj if isinstance(ctx.find_root().obj, dict) else {}

        from a2acli.commands._run import boundary

        with boundary(output_hint=raw.get("output") or root.get("output"), debug=bool(raw.get("debug") or root.get("debug"))):
            opts = build_options(raw, root)
        if wants_ctx:
            kwargs["ctx"] = ctx
        return fn(*args, opts=opts, **kwargs)

    return with_signature(wrapper, sig.replace(parameters=[ctx_param] + own + common_parameters()))


def with_signature(fn: Callable[..., Any], sig: inspect.Signature) -> Callable[..., Any]:
    """Make Typer read `sig` (annotations already evaluated) instead of fn's own."""
    fn.__signature__ = sig  # type: ignore[attr-defined]
    fn.__annotations__ = {p.name: p.annotation for p in sig.parameters.values() if p.annotation is not inspect.Parameter.empty}
    if hasattr(fn, "__wrapped__"):
        del fn.__wrapped__
    return fn
