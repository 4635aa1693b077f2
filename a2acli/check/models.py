"""The Agent Card of both versions as pydantic models, written from the upstream schemas in
shared/a2a-spec/upstream: V1 from v1.0.1/a2a.proto in its ProtoJSON form (camelCase names, a
field is required when the proto marks it `(google.api.field_behavior) = REQUIRED`), V0 from
v0.3.0/a2a.json (its `required` lists). Types are strict (ProtoJSON and JSON Schema do not
coerce "true" into true); unknown fields are allowed here and judged in card.py, which also
checks what a schema cannot say (enum spellings, URLs, references between fields).

Imported only by `a2a check` and `card fetch --validate`: never at start-up."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator


class _Model(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)


# -- V1 (a2a.proto 1.0.1, ProtoJSON) ----------------------------------------------------------------


class V1AgentProvider(_Model):
    url: str
    organization: str


class V1AgentExtension(_Model):
    uri: str | None = None
    description: str | None = None
    required: bool | None = None
    params: dict[str, Any] | None = None


class V1AgentCapabilities(_Model):
    streaming: bool | None = None
    pushNotifications: bool | None = None
    extensions: list[V1AgentExtension] | None = None
    extendedAgentCard: bool | None = None


class V1StringList(_Model):
    values: list[str] | None = Field(default=None, alias="list")  # `list` would shadow the type


class V1SecurityRequirement(_Model):
    schemes: dict[str, V1StringList] | None = None


class V1AgentSkill(_Model):
    id: str
    name: str
    description: str
    tags: list[str]
    examples: list[str] | None = None
    inputModes: list[str] | None = None
    outputModes: list[str] | None = None
    securityRequirements: list[V1SecurityRequirement] | None = None


class V1AgentInterface(_Model):
    url: str
    protocolBinding: str
    tenant: str | None = None
    protocolVersion: str


class V1AgentCardSignature(_Model):
    protected: str
    signature: str
    header: dict[str, Any] | None = None


class V1APIKeySecurityScheme(_Model):
    description: str | None = None
    location: str
    name: str


class V1HTTPAuthSecurityScheme(_Model):
    description: str | None = None
    scheme: str
    bearerFormat: str | None = None


class V1AuthorizationCodeOAuthFlow(_Model):
    authorizationUrl: str
    tokenUrl: str
    refreshUrl: str | None = None
    scopes: dict[str, str]
    pkceRequired: bool | None = None


class V1ClientCredentialsOAuthFlow(_Model):
    tokenUrl: str
    refreshUrl: str | None = None
    scopes: dict[str, str]


class V1DeviceCodeOAuthFlow(_Model):
    deviceAuthorizationUrl: str
    tokenUrl: str
    refreshUrl: str | None = None
    scopes: dict[str, str]


class V1ImplicitOAuthFlow(_Model):  # deprecated in 1.0
    authorizationUrl: str | None = None
    refreshUrl: str | None = None
    scopes: dict[str, str] | None = None


class V1PasswordOAuthFlow(_Model):  # deprecated in 1.0
    tokenUrl: str | None = None
    refreshUrl: str | None = None
    scopes: dict[str, str] | None = None


V1_FLOWS = ("authorizationCode", "clientCredentials", "implicit", "password", "deviceCode")


class V1OAuthFlows(_Model):
    """A oneof: exactly one flow."""

    authorizationCode: V1AuthorizationCodeOAuthFlow | None = None
    clientCredentials: V1ClientCredentialsOAuthFlow | None = None
    implicit: V1ImplicitOAuthFlow | None = None
    password: V1PasswordOAuthFlow | None = None
    deviceCode: V1DeviceCodeOAuthFlow | None = None

    @model_validator(mode="after")
    def _one_flow(self) -> V1OAuthFlows:
        given = [f for f in V1_FLOWS if getattr(self, f) is not None]
        if len(given) != 1:
            raise ValueError(f"flows is a oneof: give exactly one of {', '.join(V1_FLOWS)} (found {len(given)})")
        return self


class V1OAuth2SecurityScheme(_Model):
    description: str | None = None
    flows: V1OAuthFlows
    oauth2MetadataUrl: str | None = None


class V1OpenIdConnectSecurityScheme(_Model):
    description: str | None = None
    openIdConnectUrl: str


class V1MutualTlsSecurityScheme(_Model):
    description: str | None = None


V1_SCHEME_KEYS = (
    "apiKeySecurityScheme",
    "httpAuthSecurityScheme",
    "oauth2SecurityScheme",
    "openIdConnectSecurityScheme",
    "mtlsSecurityScheme",
)


class V1SecurityScheme(_Model):
    """A oneof: exactly one of the scheme keys (checked in card.py, which names the nearest key)."""

    apiKeySecurityScheme: V1APIKeySecurityScheme | None = None
    httpAuthSecurityScheme: V1HTTPAuthSecurityScheme | None = None
    oauth2SecurityScheme: V1OAuth2SecurityScheme | None = None
    openIdConnectSecurityScheme: V1OpenIdConnectSecurityScheme | None = None
    mtlsSecurityScheme: V1MutualTlsSecurityScheme | None = None


class V1AgentCard(_Model):
    name: str
    description: str
    supportedInterfaces: list[V1AgentInterface]
    provider: V1AgentProvider | None = None
    version: str
    documentationUrl: str | None = None
    capabilities: V1AgentCapabilities
    securitySchemes: dict[str, V1SecurityScheme] | None = None
    securityRequirements: list[V1SecurityRequirement] | None = None
    defaultInputModes: list[str]
    defaultOutputModes: list[str]
    skills: list[V1AgentSkill]
    signatures: list[V1AgentCardSignature] | None = None
    iconUrl: str | None = None


# -- V0 (a2a.json 0.3.0) ------------------------------------------------------------------------------


class V0AgentProvider(_Model):
    organization: str
    url: str


class V0AgentExtension(_Model):
    uri: str
    description: str | None = None
    required: bool | None = None
    params: dict[str, Any] | None = None


class V0AgentCapabilities(_Model):
    streaming: bool | None = None
    pushNotifications: bool | None = None
    stateTransitionHistory: bool | None = None
    extensions: list[V0AgentExtension] | None = None


class V0AgentSkill(_Model):
    id: str
    name: str
    description: str
    tags: list[str]
    examples: list[str] | None = None
    inputModes: list[str] | None = None
    outputModes: list[str] | None = None
    security: list[dict[str, list[str]]] | None = None


class V0AgentInterface(_Model):
    url: str
    transport: str


class V0AgentCardSignature(_Model):
    protected: str
    signature: str
    header: dict[str, Any] | None = None


class V0APIKeySecurityScheme(_Model):
    type: str
    description: str | None = None
    name: str
    in_: str = Field(alias="in")  # `in` is a Python keyword


class V0HTTPAuthSecurityScheme(_Model):
    type: str
    description: str | None = None
    scheme: str
    bearerFormat: str | None = None


class V0AuthorizationCodeOAuthFlow(_Model):
    authorizationUrl: str
    tokenUrl: str
    refreshUrl: str | None = None
    scopes: dict[str, str]


class V0ClientCredentialsOAuthFlow(_Model):
    tokenUrl: str
    refreshUrl: str | None = None
    scopes: dict[str, str]


class V0ImplicitOAuthFlow(_Model):
    authorizationUrl: str
    refreshUrl: str | None = None
    scopes: dict[str, str]


class V0PasswordOAuthFlow(_Model):
    tokenUrl: str
    refreshUrl: str | None = None
    scopes: dict[str, str]


class V0OAuthFlows(_Model):
    authorizationCode: V0AuthorizationCodeOAuthFlow | None = None
    clientCredentials: V0ClientCredentialsOAuthFlow | None = None
    implicit: V0ImplicitOAuthFlow | None = None
    password: V0PasswordOAuthFlow | None = None


class V0OAuth2SecurityScheme(_Model):
    type: str
    description: str | None = None
    flows: V0OAuthFlows
    oauth2MetadataUrl: str | None = None


class V0OpenIdConnectSecurityScheme(_Model):
    type: str
    description: str | None = None
    openIdConnectUrl: str


class V0MutualTLSSecurityScheme(_Model):
    type: str
    description: str | None = None


V0_SCHEMES: dict[str, type[_Model]] = {  # `type` -> model
    "apiKey": V0APIKeySecurityScheme,
    "http": V0HTTPAuthSecurityScheme,
    "oauth2": V0OAuth2SecurityScheme,
    "openIdConnect": V0OpenIdConnectSecurityScheme,
    "mutualTLS": V0MutualTLSSecurityScheme,
}


class V0AgentCard(_Model):
    protocolVersion: str
    name: str
    description: str
    url: str
    preferredTransport: str | None = None  # schema default JSONRPC
    additionalInterfaces: list[V0AgentInterface] | None = None
    provider: V0AgentProvider | None = None
    iconUrl: str | None = None
    version: str
    documentationUrl: str | None = None
    capabilities: V0AgentCapabilities
    securitySchemes: dict[str, dict[str, Any]] | None = None  # by `type`: V0_SCHEMES
    security: list[dict[str, list[str]]] | None = None
    defaultInputModes: list[str]
    defaultOutputModes: list[str]
    skills: list[V0AgentSkill]
    supportsAuthenticatedExtendedCard: bool | None = None
    signatures: list[V0AgentCardSignature] | None = None
