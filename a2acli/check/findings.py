"""The words of card validation: a Finding (severity, JSON path, one line saying what is wrong and
how to fix it), the CardReport, JSON paths, the nearest valid spelling, and what the pydantic
models of models.py find (missing required fields, wrong types, broken oneofs). Pure."""

from __future__ import annotations

import difflib
import re
from typing import Any, NamedTuple

from a2acli.wire.bindings import BINDINGS as _TABLE
from a2acli.wire.endpoints import json_kind

ERROR, WARNING, INFO = "error", "warning", "info"
SEVERITIES = (ERROR, WARNING, INFO)

BINDINGS = tuple(b.card for b in _TABLE)  # V1 protocolBinding / V0 TransportProtocol
V1_VERSIONS = ("1.0", "0.3")
API_KEY_LOCATIONS = ("header", "query", "cookie")
V0_ONLY = (
    "protocolVersion",
    "url",
    "preferredTransport",
    "additionalInterfaces",
    "supportsAuthenticatedExtendedCard",
    "security",
)
V1_ONLY = ("supportedInterfaces", "securityRequirements")


class Finding(NamedTuple):
    severity: str  # error, warning, info
    path: str  # JSON path into the card: $.supportedInterfaces[0].url
    message: str  # what is wrong, and the fix
    version: str  # the card version the rule belongs to: "1.0", "0.3"
    rule: str  # a short id: missing-field, wrong-type, unknown-enum, …

    def as_json(self) -> dict[str, str]:
        return {
            "severity": self.severity,
            "path": self.path,
            "message": self.message,
            "version": self.version,
            "rule": self.rule,
        }


class CardReport(NamedTuple):
    versions: tuple[str, ...]  # the versions the card was checked against ("1.0", "0.3")
    hybrid: bool
    findings: list[Finding]

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity == ERROR)

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.severity == WARNING)


# -- paths and words -----------------------------------------------------------------------------


def path_of(*parts: Any) -> str:
    out = "$"
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", str(p)):
            out += f".{p}"
        else:
            out += f"[{str(p)!r}]".replace("'", '"')
    return out


def nearest(value: Any, choices: tuple[str, ...] | list[str]) -> str | None:
    """The valid spelling closest to `value` (case aside first), or None when nothing is close."""
    text = str(value)
    for c in choices:
        if c.lower() == text.lower() or c.lower().replace("+", "") == text.lower().replace("+", "").replace(
            "_", ""
        ).replace("-", ""):
            return c
    close = difflib.get_close_matches(text, list(choices), n=1, cutoff=0.4) or difflib.get_close_matches(
        text.lower(), [c.lower() for c in choices], n=1, cutoff=0.4
    )
    if close:
        return next(c for c in choices if c.lower() == close[0].lower())
    return None


def _enum(
    findings: list[Finding],
    value: Any,
    choices: tuple[str, ...],
    path: str,
    version: str,
    what: str,
    severity: str = WARNING,
) -> None:
    if not isinstance(value, str) or value in choices:
        return
    near = nearest(value, choices)
    fix = f"did you mean {near!r}?" if near else f"use one of {', '.join(choices)}"
    findings.append(Finding(severity, path, f"unknown {what} {value!r}: {fix}", version, "unknown-enum"))


_TYPE_WORDS = {
    "string_type": "a string",
    "bool_type": "a boolean (true/false, not a string)",
    "list_type": "an array",
    "dict_type": "an object",
    "model_type": "an object",
    "model_attributes_type": "an object",
    "int_type": "an integer",
}


def _schema_findings(doc: dict[str, Any], model: Any, version: str) -> list[Finding]:
    """What the pydantic model says: missing required fields, wrong types, broken oneofs."""
    from pydantic import ValidationError

    try:
        model.model_validate(doc)
    except ValidationError as e:
        out = []
        for err in e.errors():
            loc = [p for p in err["loc"] if not (isinstance(p, str) and p.startswith("function-after"))]
            path = path_of(*loc)
            kind = err["type"]
            if kind == "missing":
                field = loc[-1] if loc else "?"
                if field == "tokenUrl":
                    text = "OAuth2 flow without tokenUrl: clients cannot get a token; add the token endpoint's absolute URL"
                    out.append(Finding(ERROR, path, text, version, "oauth2-token-url"))
                    continue
                out.append(
                    Finding(
                        ERROR,
                        path,
                        f"missing required field {field!r} (A2A {version}): add it",
                        version,
                        "missing-field",
                    )
                )
            elif kind in _TYPE_WORDS:
                got = type(err.get("input")).__name__
                out.append(
                    Finding(
                        ERROR,
                        path,
                        f"wrong type: {json_kind(err.get('input'))} where {_TYPE_WORDS[kind]} is required: fix the value"
                        if got
                        else "wrong type",
                        version,
                        "wrong-type",
                    )
                )
            else:
                msg = str(err.get("msg", "")).removeprefix("Value error, ")
                out.append(Finding(ERROR, path, f"{msg}", version, "schema"))
        return out
    return []
