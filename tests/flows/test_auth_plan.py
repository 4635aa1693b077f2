"""`auth login`'s plan (flows.auth_plan.plan_login), apart from any request: which flow, which
endpoints and which client, from the flags and the profile; and the errors before any token is
asked for. The execution (token requests, the config file) is tested through the command in
test_auth*.py."""

from __future__ import annotations

import pytest

from a2acli.errors import UsageError
from a2acli.flows.auth_plan import LoginAsked, LoginConnection, plan_login
from a2acli.render.output import Output

TOKEN = "https://idp.example/token"


def conn(saved: dict | None = None) -> LoginConnection:
    return LoginConnection("p", False, {}, saved or {}, {}, None, None, None, None, None, None, None, False)


def asked(**given) -> LoginAsked:
    fields = dict.fromkeys(LoginAsked._fields)
    fields["scopes"] = ()
    return LoginAsked(**(fields | given))


def test_a_token_url_and_a_secret_plan_client_credentials():
    plan = plan_login(asked(token_url=TOKEN, client_id="cli", client_secret="s", scopes=("a", "b")), conn(), Output("text"))
    assert plan.flow == "client-credentials" and plan.cc.scope == "a b" and plan.cc.client_auth == "basic"
    assert plan.new_auth == {"token-url": TOKEN, "client-id": "cli", "client-secret": "s", "scope": "a b"}


def test_a_device_endpoint_implies_the_device_flow_and_a_public_client():
    saved = {"token-url": TOKEN, "client-id": "cli", "client-secret": "kept-for-client-credentials"}
    plan = plan_login(asked(device_authorization_url="https://idp.example/device"), conn(saved), Output("text"))
    assert plan.flow == "device-code" and plan.cc.client_secret is None  # a stored secret is not sent by a person's sign-in
    assert plan.new_auth == {"token-url": TOKEN, "client-id": "cli", "flow": "device-code", "device-authorization-url": "https://idp.example/device"}


def test_the_profile_keeps_the_flow_it_was_logged_in_with():
    saved = {"token-url": TOKEN, "client-id": "cli", "flow": "authorization-code", "authorization-url": "https://idp.example/authorize", "redirect-port": 8765}
    plan = plan_login(asked(), conn(saved), Output("text"))
    assert (plan.flow, plan.first_url, plan.cc.redirect_port) == ("authorization-code", "https://idp.example/authorize", 8765)


@pytest.mark.parametrize("given,says", [
    ({"client_id": "cli"}, "no token endpoint"),
    ({"token_url": TOKEN}, "no client id"),
    ({"token_url": TOKEN, "client_id": "cli"}, "no client secret"),
    ({"token_url": TOKEN, "client_id": "cli", "client_secret": "s", "client_auth": "jwt"}, "--client-auth 'jwt' is not basic or post"),
    ({"token_url": "ftp://idp.example/token", "client_id": "cli", "client_secret": "s"}, "--token-url"),
])
def test_what_is_missing_or_wrong_is_a_usage_error_before_any_request(given, says):
    with pytest.raises(UsageError, match=says.replace("(", r"\(")):
        plan_login(asked(**given), conn(), Output("text"))
