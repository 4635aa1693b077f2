"""The settings table: one row per setting (flags, help, environment variable, config key, default)."""

from typing import Any

from a2acli.records import Record
from a2acli.wire import VERSION_CHOICES
from a2acli.wire.bindings import TRANSPORT_CHOICES

CONN = "Connection"
AUTH = "Authentication and TLS"
OUT = "Output and debugging"
SVC = "Service parameters"
PS = "A flag shows in the process table and the shell history: prefer the env var."
OUTPUT_MODES = ("auto", "text", "json", "raw")  # auto: the rich view at a terminal, else text (the floor)
MAX_BODY = "32M"  # the one default of --max-body: one answer, one stream event, one input file
MAX_BODY_BYTES = 32 * 1024 * 1024  # the same, in bytes (tests/test_architecture.py ties the two)


class Setting(Record):
    """One option every method command shares, declared once: the Typer option
    (commands._options), the environment variable and config key (precedence), how a value is
    checked and parsed into its CallOptions field (values.parse_setting, values.check_value),
    completion, and `config show` are all derived from this row. A record (a2acli.records): cheap to
    define at start-up, where the table is built."""

    __slots__ = (
        "name", "help", "flags", "panel", "metavar", "kind", "setting", "default", "secret", "old", "parse", "also",
        "choices", "complete", "param"
    )  # fmt: skip
    name: str  # --NAME, the config key, A2ACLI_<NAME>
    help: str
    flags: tuple[str, ...]  # other spellings (`-u`, `--agent-card`)
    panel: str
    metavar: str | None
    kind: str  # value | switch (a flag without value) | list (repeatable)
    setting: bool  # also read from the environment and the config files (else a flag only)
    default: Any  # as a file would write it
    secret: bool
    old: str  # another name (`rpc-url`, the old one; `agent-card`, the spec's): also read from env A2ACLI_<OLD> and profiles
    parse: str  # how a value becomes its CallOptions field: values.PARSERS
    also: tuple[type, ...]  # the TOML types a file may give besides a string
    choices: tuple[str, ...]  # the values it takes (completion; parse "choice" checks them)
    complete: str  # a completer of commands._options by name, when choices do not do
    param: str  # the Python parameter name when NAME is not one (`as`)

    def __init__(
        self,
        name: str,
        help: str = "",
        flags: tuple[str, ...] = (),
        panel: str = CONN,
        metavar: str | None = None,
        kind: str = "value",
        setting: bool = True,
        default: Any = None,
        secret: bool = False,
        old: str = "",
        parse: str = "text",
        also: tuple[type, ...] = (),
        choices: tuple[str, ...] = (),
        complete: str = "",
        param: str = "",
    ) -> None:
        self._set(
            name, help, flags, panel, metavar, kind, setting, default, secret, old, parse, also, choices, complete,
            param
        )  # fmt: skip

    @property
    def env(self) -> str:
        return "A2ACLI_" + self.name.upper().replace("-", "_")

    @property
    def arg(self) -> str:
        """The parameter name of the option in a command's signature (and in CallOptions where the
        field has the same meaning)."""
        return self.param or self.name.replace("-", "_")


OPTIONS: dict[str, Setting] = {
    s.name: s
    for s in (
        Setting(
            "url",
            "The agent, by its Agent Card: an origin or host[:port] (https:// when no scheme is given, http:// for localhost and 127.x/::1; the card is looked up at /.well-known/agent-card.json), the card's URL, a card file (file:// or a path), or an entry of an agent catalog, catalog:NAME (catalog:CATALOG/NAME for a named one). A2ACLI_AGENT_CARD works too.",
            ("-u", "--agent-card", "-a"),
            metavar="URL|FILE|catalog:NAME",
            old="agent-card",
            parse="url",
            complete="agents",
        ),
        Setting(
            "catalog",
            "The agent catalog that -u catalog:NAME reads: its http(s) URL (an origin: its /.well-known/ai-catalog.json, then /.well-known/api-catalog) or a file. Read like the public card, with no credentials; `a2a card catalog` lists it.",
            metavar="URL|FILE",
            parse="catalog",
        ),
        Setting(
            "endpoint",
            "Call this endpoint with the chosen --transport (default jsonrpc) and skip the card look-up.",
            ("-e", "--rpc-url"),
            metavar="URL",
            old="rpc-url",
            parse="endpoint",
        ),
        Setting(
            "transport",
            f"Binding: {', '.join(TRANSPORT_CHOICES)} (or the card's JSONRPC, HTTP+JSON, GRPC); repeatable, in order of preference. Default: the card's order.",
            metavar="jsonrpc|rest|grpc",
            kind="list",
            parse="transports",
            also=(list,),
            choices=TRANSPORT_CHOICES,
        ),
        Setting(
            "a2a-version",
            "Wire form: 1.0 or 0.3; auto reads the card and uses 1.0 when it is offered, else 0.3 (says which on stderr).",
            metavar="1.0|0.3|auto",
            default="1.0",
            parse="version",
            also=(int, float),  # `a2a-version = 1.0` unquoted
            choices=VERSION_CHOICES,
        ),
        Setting(
            "dialect",
            "Vendor deviations: spec or clix.",
            metavar="spec|clix",
            default="spec",
            parse="dialect",
            choices=("spec", "clix"),
        ),
        Setting(
            "header",
            "Extra header 'Name: value' (repeatable).",
            ("-H",),
            metavar="'NAME: VALUE'",
            kind="list",
            setting=False,
        ),
        Setting(
            "svc-param",
            "An A2A service parameter NAME=VALUE (or NAME:VALUE), repeatable: sent as an HTTP header (JSON-RPC, HTTP+JSON) or as gRPC metadata (the name in lowercase). Like -H values, a value is shown as <redacted> in --debug, --dump and --offline unless its name is a known harmless one.",
            panel=SVC,
            metavar="NAME=VALUE",
            kind="list",
            setting=False,
        ),
        Setting(
            "extension",
            "Ask for this A2A extension, by URI (repeatable, or a comma list): sent as the version's extensions service parameter, A2A-Extensions (X-A2A-Extensions under 0.3).",
            panel=SVC,
            metavar="URI",
            kind="list",
            setting=False,
        ),
        Setting(
            "api-key",
            f"API key, sent only where the card declares an apiKey scheme, placed where it says (header, query or cookie; header X-API-Key with --endpoint, no card). {PS}",
            panel=AUTH,
            metavar="KEY",
            secret=True,
            parse="credential",
        ),
        Setting(
            "bearer",
            f"Bearer token for Authorization, sent only where the card declares an http bearer, oauth2 or openIdConnect scheme. {PS}",
            panel=AUTH,
            metavar="TOKEN",
            secret=True,
            parse="credential",
        ),
        Setting(
            "basic",
            f"HTTP Basic credentials USER:PASSWORD, sent only where the card declares an http basic scheme. {PS}",
            panel=AUTH,
            metavar="USER:PASS",
            secret=True,
            parse="basic",
        ),
        Setting(
            "cacert",
            "Trust this CA bundle (PEM) instead of the default ones.",
            panel=AUTH,
            metavar="PATH",
            parse="path",
        ),
        Setting(
            "cert",
            "Client certificate (PEM) for mutual TLS; may hold the key too.",
            panel=AUTH,
            metavar="PATH",
            parse="path",
        ),
        Setting(
            "key", "Private key (PEM) of --cert, when it is a separate file.", panel=AUTH, metavar="PATH", parse="path"
        ),
        Setting(
            "timeout",
            "Whole-call bound: seconds, or a duration (30s, 2m, 500ms); exit 5 when it expires.",
            metavar="DURATION",
            parse="duration",
            also=(int, float),
        ),
        Setting(
            "max-body",
            "Cap on one answer, one stream event or one input file (bytes, or with K, M, G); reading stops there, exit 1.",
            metavar="SIZE",
            default=MAX_BODY,
            parse="size",
            also=(int,),
        ),
        Setting(
            "plaintext",
            "gRPC: no TLS for a host:port interface URL (http:// and grpc:// URLs are plaintext already).",
            panel=AUTH,
            kind="switch",
            setting=False,
            parse="switch",
        ),
        Setting(
            "strict-origin",
            "Refuse to send credentials to any origin but --url's (a card naming another host is an error): for CI.",
            panel=AUTH,
            kind="switch",
            default=False,
            parse="bool",
            also=(bool,),
        ),
        Setting(
            "no-cache",
            "Bypass the Agent Card cache for this run: the card is fetched, and nothing is kept (`a2a cache clear` empties the cache).",
            kind="switch",
            default=False,
            parse="bool",
            also=(bool,),
        ),
        Setting(
            "insecure",
            "Skip TLS certificate verification (unsafe; warns on every call). Default: certificates are verified.",
            panel=AUTH,
            kind="switch",
            setting=False,
            parse="switch",
        ),
        Setting(
            "profile",
            "Named settings from the config file (`a2a config show`). (env: A2ACLI_PROFILE)",
            metavar="NAME",
            setting=False,
            complete="profiles",
        ),
        Setting(
            "config",
            "Read settings from this .env or TOML file instead of the local one (the nearest .env / .a2acli.toml from here up); flags and env vars still win; the global file stays under it ($A2ACLI_GLOBAL_CONFIG, else the platform's config dir: `a2a config path`). (env: A2ACLI_CONFIG)",
            ("--env-file",),
            metavar="FILE",
            setting=False,
        ),
        Setting(
            "output",
            "auto (the rich view at a terminal, text elsewhere), text (the plain `Label: value` floor everywhere), json or raw.",
            ("-o",),
            panel=OUT,
            metavar="|".join(OUTPUT_MODES),
            default="auto",
            parse="choice",
            choices=OUTPUT_MODES,
        ),
        Setting(
            "as",
            "With -o json: convert what was received to canonical v1 JSON.",
            panel=OUT,
            metavar="v1",
            setting=False,
            choices=("v1",),
            param="as_version",
        ),
        Setting(
            "offline",
            "Print the request(s) exactly as they would be sent; send nothing.",
            panel=OUT,
            kind="switch",
            setting=False,
            parse="switch",
        ),
        Setting(
            "quiet",
            "stderr keeps warnings and errors only: no notes, progress or hints meant for a person watching.",
            ("-q",),
            panel=OUT,
            kind="switch",
            default=False,
            parse="bool",
            also=(bool,),
        ),
        Setting(
            "dump",
            "Write every exchange byte for byte into this directory (created when missing); one that holds another run's dump is refused unless --dump-append.",
            panel=OUT,
            metavar="DIR",
        ),
        Setting(
            "dump-append",
            "With --dump: add this run's exchanges to the dump the directory holds, numbered on.",
            panel=OUT,
            kind="switch",
            default=False,
            parse="bool",
            also=(bool,),
        ),
        Setting(
            "verbose",
            "Text output: the full breakdown (history, metadata, every part); concise by default.",
            panel=OUT,
            kind="switch",
            setting=False,
            parse="switch",
        ),
        Setting(
            "debug",
            "Requests and responses on stderr (credentials redacted); tracebacks.",
            panel=OUT,
            kind="switch",
            setting=False,
            parse="switch",
        ),
    )
}
SETTINGS: dict[str, Setting] = {name: s for name, s in OPTIONS.items() if s.setting}  # read from env and files too


def env_names(s: Setting) -> tuple[str, ...]:
    """The environment variables (and .env names) of a setting, the first set one wins."""
    old = ("A2ACLI_" + s.old.upper().replace("-", "_"),) if s.old else ()
    return (s.env, *old)


CLIENT_CREDENTIALS = "client-credentials"  # the OAuth2 flows `auth.flow` may name (a2acli.auth runs them)
DEVICE_CODE = "device-code"
AUTHORIZATION_CODE = "authorization-code"
FLOWS = (CLIENT_CREDENTIALS, DEVICE_CODE, AUTHORIZATION_CODE)
AUTH_KEYS: dict[str, bool] = {  # [profiles.NAME.auth] key -> secret?
    "token-url": False,
    "client-id": False,
    "client-secret": True,
    "scope": False,
    "client-auth": False,
    "flow": False,  # client-credentials (default), device-code or authorization-code
    "device-authorization-url": False,
    "authorization-url": False,
    "redirect-port": False,  # authorization-code: the loopback redirect's port (0: a free one)
}
PATH_SETTINGS = frozenset({"cacert", "cert", "key"})
# patterns compiled on first use (re's cache), not at every start
_HEADER_NAME = r"[!#$%&'*+.^_`|~0-9A-Za-z-]+"  # RFC 9110 token
_CATALOG_NAME = r"[A-Za-z0-9][A-Za-z0-9_-]*"  # no `/`: catalog:CATALOG/NAME splits there
