"""Words both the pipeline and the views say: a task state's label (`input-required`) and how a
security scheme's credential is given on the command line (`--api-key KEY`, in header X-API-Key).
Pure text: the pipeline's notes and render's views use the one copy here."""

from __future__ import annotations

from typing import Any, NamedTuple

_LABELS: dict[str, str] = {}  # the labels worked out, by state: a stream says the same few states


def state_label(state: Any) -> str:
    """`TASK_STATE_INPUT_REQUIRED` -> `input-required` (already-lowercase spellings pass through)."""
    label = _LABELS.get(state) if type(state) is str else None
    if label is None:
        s = str(state or "unknown")
        if s.startswith("TASK_STATE_"):
            s = s[len("TASK_STATE_") :]
        label = s.lower().replace("_", "-")
        if type(state) is str and len(_LABELS) < 64:  # (an agent's made-up states do not grow it)
            _LABELS[state] = label
    return label


class Way(NamedTuple):
    """How the credential of one security scheme is given on the command line."""

    kind: str  # "apiKey", "http bearer", "oauth2 clientCredentials", "mutual TLS", …
    where: str  # where it goes: "header X-API-Key", "header Authorization: Bearer", …
    flag: str  # the flag that sends it ("--api-key KEY"); "" when the login gives it, or none does
    option: str  # the option a typed secret fills (api_key, bearer, basic); "" for none (mTLS)
    login: str = ""  # the command that gets it first ("a2a auth login --device")
    login_how: str = ""  # that command's flow, in words ("device code")


def scheme_way(scheme: Any) -> Way:
    """A V1 security scheme's Way: `Way("apiKey", "header X-API-Key", "--api-key KEY", "api_key")`."""
    if not isinstance(scheme, dict) or not scheme:
        return Way("?", "", "", "")
    key = str(next(iter(scheme)))
    body = scheme[key] if isinstance(scheme[key], dict) else {}
    kind = key.replace("SecurityScheme", "")
    bearer = "header Authorization: Bearer"
    if kind == "apiKey":  # where the card says; what it leaves out is said missing, never made up
        where = f"{body.get('location') or 'location not given'} {body.get('name') or '(name not given)'}"
        return Way(kind, where, "--api-key KEY", "api_key")
    if kind == "httpAuth":
        http = str(body.get("scheme") or "bearer")
        if http.lower() == "basic":
            return Way(f"http {http}", "header Authorization: Basic", "--basic USER:PASS", "basic")
        return Way(f"http {http}", f"header Authorization: {http.capitalize()}", "--bearer TOKEN", "bearer")
    if kind == "oauth2":
        flows: dict[str, Any] = body["flows"] if isinstance(body.get("flows"), dict) else {}
        flow = str(next(iter(flows), ""))
        login = {
            "clientCredentials": ("a2a auth login", "client credentials"),
            "deviceCode": ("a2a auth login --device", "device code"),
            "authorizationCode": ("a2a auth login --flow authorization-code", "browser sign-in"),
        }.get(flow)
        return Way(
            f"oauth2{' ' + flow if flow else ''}", bearer, "" if login else "--bearer TOKEN", "bearer", *(login or ())
        )
    if kind == "openIdConnect":
        return Way(kind, bearer, "--bearer TOKEN", "bearer", "a2a auth login", "OpenID Connect discovery")
    if kind == "mtls":
        return Way("mutual TLS", "the TLS handshake", "--cert PATH --key PATH", "")
    return Way(kind, "", "", "")


def scheme_how(scheme: Any) -> tuple[str, str, str]:
    """A V1 security scheme as (kind, where the credential goes, how to supply it):
    `("apiKey", "header X-API-Key", "--api-key KEY")`."""
    way = scheme_way(scheme)
    how = " or ".join(([f"`{way.login}` ({way.login_how})"] if way.login else []) + ([way.flag] if way.flag else []))
    return way.kind, way.where, how
