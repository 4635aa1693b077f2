"""Values: the keys a profile may hold and how each setting's value is checked and parsed (durations, sizes, booleans, URLs, catalogs)."""

from __future__ import annotations

import math
import os
import re
from pathlib import Path
from typing import Any

from a2acli.errors import UsageError
from a2acli.settings.table import _CATALOG_NAME, _HEADER_NAME, AUTH_KEYS, FLOWS, OPTIONS, PATH_SETTINGS, SETTINGS

# -- keys a profile may hold, and their validation ------------------------------------------------


def profile_keys() -> list[str]:
    """Every key `a2a config set` accepts, for help and hints."""
    return list(SETTINGS) + ["header.NAME", "catalog.NAME"] + [f"auth.{k}" for k in AUTH_KEYS] + ["default-profile"]


def _key_hint() -> str:
    return "keys: " + ", ".join(profile_keys())


def parse_key(key: str) -> tuple[str, str]:
    """`config set/unset KEY`: (table, name). table is "" for a profile's own settings, "headers",
    "catalogs" (named agent catalogs), "auth", or "top" for default-profile. UsageError for anything else."""
    from a2acli.errors import UsageError

    k = key.strip()
    low = k.lower()
    if low.replace("_", "-") in ("task-id", "context-id", "taskid", "contextid", "task", "context"):
        raise UsageError(
            f"{k!r} cannot be stored: task and context ids are never kept in the config",
            hint="pass --task-id / --context-id on each call",
        )
    if low == "default-profile":
        return "top", "default-profile"
    if low.startswith(("header.", "headers.")):
        name = k.split(".", 1)[1].strip()
        if not re.fullmatch(_HEADER_NAME, name):
            raise UsageError(f"{name!r} is not a header name", hint="e.g. a2a config set header.X-Team qa")
        return "headers", name
    if low.startswith(("catalog.", "catalogs.")):
        name = k.split(".", 1)[1].strip()
        if not re.fullmatch(_CATALOG_NAME, name):
            raise UsageError(
                f"{name!r} is not a catalog name",
                hint="letters, digits, - and _ (catalog:NAME/ENTRY names an entry of it), e.g. a2a config set catalog.team https://registry.example/agents.json",
            )
        return "catalogs", name
    if low.startswith("auth."):
        sub = low.split(".", 1)[1]
        if sub not in AUTH_KEYS:
            raise UsageError(
                f"unknown auth key {sub!r}", hint="auth keys: " + ", ".join(f"auth.{a}" for a in AUTH_KEYS)
            )
        return "auth", sub
    renamed = {s.old: s.name for s in SETTINGS.values() if s.old}
    low = renamed.get(low, low)
    if low not in SETTINGS:
        raise UsageError(f"unknown config key {k!r}", hint=_key_hint())
    return "", low


def validate(key: str, value: str) -> tuple[str, str, Any]:
    """Check `config set KEY VALUE`: (table, name, value to store); UsageError when bad."""
    from a2acli.errors import UsageError

    table, name = parse_key(key)
    if table == "headers":
        if "\n" in value or "\r" in value:
            raise UsageError(f"the value of header {name} has a line break", hint="header values are one line")
        if not value.isascii():
            raise UsageError(
                f"the value of header {name} is not ASCII",
                hint="header values travel as ASCII: percent-encode or base64 it",
            )
        return table, name, value
    if table == "catalogs":
        check_catalog(value, f"catalog.{name}")
        return table, name, _catalog_stored(value)
    if table == "auth":
        if name in ("token-url", "device-authorization-url", "authorization-url"):
            check_url(value, f"auth.{name}", files=False)
        if name == "flow":
            if value.lower() not in FLOWS:
                raise UsageError(
                    f"auth.flow {value!r} is not {', '.join(FLOWS[:-1])} or {FLOWS[-1]}",
                    hint=f"{FLOWS[0]} (the default), {', '.join(FLOWS[1:])}",
                )
            value = value.lower()
        if name == "redirect-port":
            if not value.strip().isdigit() or int(value) > 65535:
                raise UsageError(
                    f"auth.redirect-port {value!r} is not a port number", hint="0 (a free port, the default) to 65535"
                )
            return table, name, int(value)
        if name == "client-auth":
            if value.lower() not in ("basic", "post"):
                raise UsageError(
                    f"auth.client-auth {value!r} is not basic or post",
                    hint="basic (HTTP Basic, the default) or post (client_secret_post)",
                )
            value = value.lower()
        return table, name, value
    if table == "top":
        return table, name, value
    return table, name, check_value(name, value)


def check_url(value: str, what: str, *, files: bool = False, grpc: bool = False, example: str = "") -> None:
    """A URL to call, or a usage error naming what is wrong with it (a2acli.net.url_problem)."""
    from a2acli.errors import UsageError
    from a2acli.net import url_problem

    problem = url_problem(str(value), files=files, grpc=grpc)
    if problem:
        example = example or (
            "https://idp.example/oauth/token"
            if "token" in what
            else "127.0.0.1:50051 (gRPC) or http://127.0.0.1:41241"
            if grpc
            else "http://127.0.0.1:41241"
        )
        shown = str(value) if len(str(value)) <= 100 else str(value)[:100] + "…"
        said = problem[3:] if problem.startswith("it is not an") else f"is not a valid URL: {problem}"
        raise UsageError(f"{what} {shown!r} {said}", hint=f"e.g. {example}")


def check_catalog(value: Any, what: str) -> None:
    """An agent catalog's location (--catalog, a named catalog), or a usage error naming what is
    wrong with it (a2acli.net.catalog_problem)."""
    from a2acli.errors import UsageError
    from a2acli.net import catalog_problem

    problem = catalog_problem(str(value))
    if problem:
        said = (
            problem[3:] if problem.startswith("it is not an") else f"is not an agent catalog's URL or file: {problem}"
        )
        raise UsageError(
            f"{what} {str(value)[:100]!r} {said}",
            hint="e.g. https://registry.example/agents.json, an origin serving /.well-known/ai-catalog.json, or a file's path",
        )


def _catalog_stored(value: str) -> str:
    """A catalog as `config set` stores it: a URL as given, a file's path made absolute (the
    config is read from any directory)."""
    text = value.strip()
    return text if "://" in text else str(Path(os.path.expanduser(text)).absolute())


MAX_TIMEOUT = 1_000_000  # seconds (11.6 days): longer is a typo, and overflows timers


_DURATION_UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}
_DURATION = r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:ms|s|m|h)"  # compiled on first use (re's cache)


def parse_duration(value: Any) -> float | None:
    """A duration in seconds: a plain number of seconds (`2`, `0.5`), or a number with a unit,
    ms, s, m or h, pieces summed (`500ms`, `2s`, `1m`, `1m30s`); None when it is neither."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    text = str(value).strip().lower()
    try:
        return float(text)
    except ValueError:
        pass
    if not text or "".join(re.findall(_DURATION, text)) != text:
        return None
    total = 0.0
    for piece in re.findall(_DURATION, text):
        number = piece.rstrip("mhs")
        unit = piece[len(number) :]
        total += float(number) * _DURATION_UNITS[unit]
    return total


def parse_timeout(value: Any, what: str = "--timeout") -> float | None:
    """A timeout from any source (flag, env, profile), in seconds or as a duration (`30s`,
    `1m`, `500ms`): None when unset or 0, which means "no whole-call bound" everywhere. nan,
    inf, negative, huge and boolean values are usage errors."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    text = str(value).strip()
    t = parse_duration(value)
    if t is None or not math.isfinite(t) or t < 0 or t > MAX_TIMEOUT:
        raise UsageError(
            f"{what} {text!r} is not a duration from 0 to {MAX_TIMEOUT} seconds",
            hint="e.g. --timeout 30, 30s, 2m or 500ms (0: no whole-call bound)",
        )
    if t == 0 and re.search(r"[1-9]", text.lower().partition("e")[0]):  # 1e-400: a bound too small to be a number
        raise UsageError(
            f"{what} {text!r} is too small to be a duration: it would read as 0, which means no bound at all",
            hint="e.g. --timeout 30, 30s, 2m or 500ms (0: no whole-call bound)",
        )
    return t or None


MIN_POLL_INTERVAL = 0.05  # seconds: a shorter wait between polls is a busy loop


def parse_poll_interval(value: Any, what: str = "--poll-interval") -> float:
    """--poll-interval: seconds or a duration (`2`, `2s`, `500ms`, `1m`), at least 50 ms."""
    text = str(value).strip()
    t = parse_duration(value)
    if t is None or not math.isfinite(t) or t < MIN_POLL_INTERVAL or t > MAX_TIMEOUT:
        raise UsageError(
            f"{what} {text!r} is not a duration from {MIN_POLL_INTERVAL:g}s to {MAX_TIMEOUT} seconds",
            hint="e.g. --poll-interval 2, 2s, 500ms or 1m",
        )
    return t


def check_value(name: str, value: Any) -> Any:
    """Validate one setting's value (as text from the command line or a file); return what to store."""
    from a2acli.errors import UsageError

    text = str(value).strip()
    if name == "a2a-version":
        from a2acli.wire import AUTO, parse_version_choice

        try:
            wire = parse_version_choice(text)
        except ValueError as e:
            raise UsageError(
                str(e), hint="a2a-version is 1.0, 0.3 or auto (1.0 when the card offers it, else 0.3)"
            ) from None
        return wire.version if wire is not None else AUTO
    if name == "dialect":
        from a2acli.wire.dialects import get_dialect

        try:
            return get_dialect(text).name
        except ValueError as e:
            raise UsageError(str(e), hint="dialect is spec or clix") from None
    if SETTINGS[name].parse == "choice":
        return parse_setting(name, text, name)
    if name == "timeout":  # stored as written: `30` an integer, `2.5` a float; 0 is "no bound", as on the flag
        parse_timeout(text, "timeout")
        if re.fullmatch(r"[0-9]{1,15}", text):
            return int(text)
        try:
            return float(text)
        except ValueError:
            return text  # a duration: `30s`, `2m`
    if SETTINGS[name].parse == "bool":
        return parse_bool(text, name)
    if name == "max-body":
        parse_size(text, "max-body")
        return text
    if name == "transport":
        return ",".join(parse_transports(text))
    if name == "catalog":
        check_catalog(text, "catalog")
        return _catalog_stored(text)
    if name in ("url", "endpoint"):
        from a2acli.net import agent_reference

        check_url(agent_reference(text) if name == "url" else text, name, files=name == "url", grpc=name == "endpoint")
        return text
    if name == "basic" and ":" not in text:
        raise UsageError("basic must be USER:PASSWORD", hint="e.g. a2a config set basic alice:s3cret (or A2ACLI_BASIC)")
    if name in PATH_SETTINGS:
        p = Path(os.path.expanduser(text))
        if not p.is_file():
            raise UsageError(f"{name} {text!r}: no such file", hint="give the path of a PEM file")
        return str(p.resolve())
    return text


_SIZE = re.compile(r"([0-9]{1,13})\s*([kmg]?)(?:i?b)?", re.I)


def parse_bool(value: Any, name: str) -> bool:
    """true/false, yes/no, on/off, 1/0 (a TOML boolean as it is)."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("", "0", "false", "no", "off", "none"):
        return False
    raise UsageError(f"{name}: {value!r} is not true or false", hint="true or false (also yes/no, on/off, 1/0)")


def parse_size(value: Any, name: str = "--max-body") -> int:
    """A size in bytes: `1048576`, `512K`, `64M`, `1G` (powers of 1024; `MB`/`MiB` alike)."""
    text = str(value).strip()
    m = _SIZE.fullmatch(text) if not isinstance(value, bool) else None
    n = int(m.group(1)) * 1024 ** "_kmg".index(m.group(2).lower() or "_") if m else 0
    if n <= 0 or n > 1024**4:
        raise UsageError(
            f"{name} {text!r} is not a size", hint=f"a number of bytes with an optional K, M or G, e.g. {name} 64M"
        )
    return n


# -- a resolved value as its CallOptions field (one parser per `parse` kind of the table) ----------


def named(flag: str, source: str) -> str:
    """`--timeout`, or `--timeout (env A2ACLI_TIMEOUT)` when the value came from elsewhere."""
    return flag if source == "flag" else f"{flag} ({source})"


def check_credential(value: object, what: str) -> None:
    """A bearer token or API key travels in a header: printable ASCII, one line."""
    if value in (None, ""):
        return
    text = str(value)
    if not text.isascii() or any(ord(c) < 0x20 or ord(c) == 0x7F for c in text):
        raise UsageError(
            f"{what} holds a non-ASCII or control character (the value is not shown)",
            hint="credentials travel in headers as ASCII: percent-encode or base64 it",
        )


def _url(value: Any, what: str) -> Any:
    if value in (None, ""):
        return value
    from a2acli.net import agent_reference

    ref = agent_reference(str(value))
    check_url(ref, what, files=True)
    return ref


def _catalog(value: Any, what: str) -> Any:
    if value in (None, ""):
        return None
    check_catalog(value, what)
    return value


def _credential(value: Any, what: str) -> Any:
    check_credential(value, what)
    return value


def _basic(value: Any, what: str) -> Any:
    if value and ":" not in str(value):
        source = what.partition(" (")[2].rstrip(")") or "flag"
        raise UsageError(
            f"--basic must be USER:PASSWORD ({source})", hint="e.g. --basic alice:s3cret, or A2ACLI_BASIC=alice:s3cret"
        )
    return value


def _path(value: Any, what: str) -> str | None:
    if not value:
        return None
    p = Path(os.path.expanduser(str(value)))
    if not p.is_file():
        flag, _, source = what.partition(" (")
        raise UsageError(
            f"{flag} {value}: no such file" + (f" ({source}" if source else " (flag)"),
            hint=f"give the path of a PEM file to {flag}",
        )
    return str(p)


def _choice(name: str, value: Any, what: str) -> str:
    """One of the row's choices (lowercase), or a usage error that lists them."""
    s = OPTIONS[name]
    text = str(value).lower()
    if text in s.choices:
        return text
    listed = f"{', '.join(s.choices[:-1])} or {s.choices[-1]}"
    message = f"unknown {name} mode {text!r}" if name == "output" else f"{what}: {text!r} is not {listed}"
    raise UsageError(message, hint=f"{(s.flags or (f'--{name}',))[0]} {listed}")


def parse_transports(given: Any, source: str = "") -> tuple[str, ...]:
    """--transport, the one reading of it: repeatable, or comma lists (a file may give a list), in
    any spelling the binding table knows (`jsonrpc`, the card's `JSONRPC`…); the bindings' flags in
    order of preference, each once. An unknown one is a usage error naming where it came from."""
    from a2acli.wire.bindings import parse_transport

    flags: list[str] = []
    items = given if isinstance(given, (list, tuple)) else str(given or "").split(",")
    for item in items:
        for spelling in str(item).split(","):
            if not spelling.strip():
                continue
            try:
                flag = parse_transport(spelling).flag
            except UsageError as e:
                raise UsageError(f"{e.message} ({source})" if source else e.message, hint=e.hint) from None
            if flag not in flags:
                flags.append(flag)
    return tuple(flags)


def parse_setting(name: str, value: Any, source: str = "flag") -> Any:
    """A setting's resolved value (from its source) as its CallOptions field: checked, and a usage
    error that names the flag and where the value came from when it is not one."""
    s = OPTIONS[name]
    what = named(f"--{name}", source)
    kind = s.parse
    if kind == "duration":
        return parse_timeout(value, what)
    if kind == "size":
        return parse_size(value, f"--{name} ({source})" if source != "flag" else f"--{name}")
    if kind == "bool":
        return parse_bool(value, source)
    if kind == "switch":
        return bool(value)
    if kind == "choice":
        return _choice(name, value, what)
    if kind == "transports":
        return parse_transports(value, source)
    parser = {"url": _url, "catalog": _catalog, "credential": _credential, "basic": _basic, "path": _path}.get(kind)
    return parser(value, what) if parser else value


# -- the values of the commands' own options (their Typer parsers: commands._options.typed) --------
# Each takes the value as typed and the option's name, and returns the value to send, or raises a
# usage error naming the option: a typed command sends only what it types (`a2a call` sends anything).


_ID_HINTS = {
    "TASK_ID": "give the task's id (`a2a tasks list` lists them)",
    "CONFIG_ID": "give the push config's id (`a2a push-config list TASK_ID` lists them)",
    "METHOD": "give a method's name, e.g. GetTask (`a2a call --help`)",
}


def check_id(value: str, what: str) -> str:
    """An id the user gives (a task, context, message or push config id; a method's name): not
    blank. What it holds beyond that travels as given (a binding encodes it)."""
    if not str(value).strip():
        raise UsageError(f"{what} is empty", hint=_ID_HINTS.get(what) or f"give {what} a value, or leave {what} out")
    return value


def check_page_size(value: str, what: str = "--page-size") -> int:
    """Tasks per page: a whole number from 1 to 100 (A2A 1.0's pageSize bounds; V0 dialects take the
    same as their limit)."""
    text = str(value).strip()
    if not text.isdigit() or not 1 <= int(text) <= 100:
        raise UsageError(f"{what} {text!r} is not a number from 1 to 100", hint=f"e.g. {what} 20 (at most 100)")
    return int(text)


def check_push_url(value: str, what: str) -> str:
    """A webhook URL the agent will call (--push-url, --webhook-url): http(s) with a host."""
    check_url(value, what, example=f"{what} https://hooks.example/a2a (or http://127.0.0.1:9000/hook)")
    return value


def check_file_ref(value: str, what: str = "--file") -> str:
    """--file: a path (read later), or an http(s) URL the agent fetches, which must be one."""
    text = str(value)
    if text.startswith(("http://", "https://")):  # as the part reads it (flows.inputs.file_part)
        check_url(text, what, example=f"{what} https://files.example/report.pdf (or a file's path)")
    elif not text.strip():
        raise UsageError(f"{what} is empty", hint=f"{what} PATH (a file to send inline) or an http(s) URL")
    return value


# RFC 6838 §4.2 restricted-name: a type and a subtype; then RFC 9110 parameters (`; charset=utf-8`).
_RESTRICTED_NAME = r"[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}"
_PARAMETER = (
    r"""[ \t]*;[ \t]*[!#$%&'*+.^_`|~0-9A-Za-z-]+=(?:[!#$%&'*+.^_`|~0-9A-Za-z-]+|"(?:[^"\\\x00-\x1f\x7f]|\\.)*")"""
)


def check_media_type(value: str, what: str = "--media-type") -> str:
    """A media type (RFC 6838: type/subtype, with optional parameters)."""
    text = str(value)
    if not re.fullmatch(f"{_RESTRICTED_NAME}/{_RESTRICTED_NAME}(?:{_PARAMETER})*", text):
        shown = text if len(text) <= 80 else text[:80] + "…"
        raise UsageError(
            f"{what} {shown!r} is not a media type (type/subtype, RFC 6838)",
            hint=f"e.g. {what} application/pdf, text/plain or 'text/plain; charset=utf-8'",
        )
    return value


_RFC3339 = r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:[Zz]|[+-]\d{2}:\d{2})"


def check_timestamp(value: str, what: str) -> str:
    """A point in time as the protocol carries one (a protobuf Timestamp in JSON: RFC 3339, with
    its offset), and a real one (no month 13)."""
    from datetime import datetime

    text = str(value).strip()
    ok = re.fullmatch(_RFC3339, text) is not None
    if ok:
        try:  # fromisoformat takes at most 6 fractional digits, the protocol 9: the range is what is checked
            datetime.fromisoformat(re.sub(r"\.\d+", "", text).replace("z", "Z").replace("t", "T"))
        except ValueError:
            ok = False
    if not ok:
        shown = text if len(text) <= 80 else text[:80] + "…"
        raise UsageError(
            f"{what} {shown!r} is not a date and time with its offset (RFC 3339)",
            hint=f"e.g. {what} 2026-05-01T00:00:00Z (or 2026-05-01T09:30:00+02:00)",
        )
    return text


def check_header_value(name: str, value: str, what: str) -> str:
    """A header value that can be sent (wire.headers: as h11 checks it) and is ASCII; else a usage
    error that never quotes the value (it may be a credential)."""
    from a2acli.wire.headers import value_problem

    if value_problem(value) == "it has a line break":
        raise UsageError(
            f"{what}: the value of {name} has a line break (the value is not shown)", hint="header values are one line"
        )
    if not value.isascii():
        raise UsageError(
            f"{what}: the value of {name} is not ASCII (the value is not shown)",
            hint="header names and values travel as ASCII: percent-encode or base64 the value",
        )
    if value_problem(value):
        raise UsageError(
            f"{what}: the value of {name} holds a control character (the value is not shown)",
            hint="header values are printable text",
        )
    return value


def check_idempotency_key(value: str, what: str = "--idempotency-key") -> str:
    """--idempotency-key: not empty, and a value its header can carry (checked as -H is)."""
    check_id(value, what)
    return check_header_value("the idempotency key", value, what)
