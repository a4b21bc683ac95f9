"""authlib (pinned, from PyPI) as TIL's third-party client: everything an OAuth client does
with TIL goes through authlib's OAuth2Session (authorization URL with PKCE S256, code exchange,
refresh, revocation, introspection, client_credentials), and each step proves its outcome
against TIL's API; then OpenID Connect (authlib_oidc.py). Only the forms a person fills in
are posted by html_forms.authorize."""

import urllib.parse
import uuid

import requests
from authlib.common.security import generate_token
from authlib.integrations.base_client import OAuthError
from authlib.integrations.requests_client import OAuth2Session

from authlib_oidc import relying_party
from html_forms import authorize
from proof import (
    ADMIN_PASSWORD, TIL_URL, admin_session, check, check_equal, check_redirect, check_status, discover, register, summary)
from redirect_catcher import RedirectCatcher

SCOPE = "acronyms:write categories:write"


def expect_oauth_error(error, claim, call, *args, **kwargs):
    try:
        answer = call(*args, **kwargs)
    except OAuthError as failure:
        check_equal(failure.error, error, claim)
        return
    check(False, claim, f"expected the error {error}, got {answer!r}")


def create_category(client, expected_status, claim):
    response = client.post(f"{TIL_URL}/api/categories", json={"name": f"oauth-{uuid.uuid4().hex[:12]}"}, timeout=10)
    check_status(response, expected_status, claim)


def create_acronym(client, expected_status, claim):
    response = client.post(f"{TIL_URL}/api/acronyms", json={"short": "PKCE", "long": "Proof Key for Code Exchange"}, timeout=10)
    check_status(response, expected_status, claim)


def code_flow(client, endpoints, browser, catcher, name):
    """Code + PKCE through TIL's pages, the code exchanged by authlib's fetch_token. Returns the
    token, the code and its verifier (to replay them), and the pages the person went through."""
    verifier = generate_token(64)
    url, state = client.create_authorization_url(endpoints["authorization_endpoint"], code_verifier=verifier)
    redirect, pages = authorize(browser, url, catcher.redirect_uri, "admin", ADMIN_PASSWORD)
    check_redirect(redirect, catcher.next_redirect(), state, endpoints["issuer"], name)
    check("code" in redirect, f"{name}: a code", redirect)
    authorization_response = f"{catcher.redirect_uri}?{urllib.parse.urlencode(redirect)}"
    token = client.fetch_token(endpoints["token_endpoint"], authorization_response=authorization_response,
                               code_verifier=verifier, state=state)
    check_equal(token.get("token_type"), "Bearer", f"{name}: fetch_token gets a Bearer token")
    return token, redirect["code"], verifier, pages


def public_client(endpoints, admin, browser, catcher):
    name = "public client"
    registered = register(admin, {
        "client_name": "Proof public client", "redirect_uris": [catcher.redirect_uri],
        "token_endpoint_auth_method": "none", "grant_types": ["authorization_code", "refresh_token"],
        "scope": SCOPE}, endpoints["registration_endpoint"])
    check("client_secret" not in registered, f"{name}: no client_secret for a public client")
    client = OAuth2Session(registered["client_id"], token_endpoint_auth_method="none", scope=SCOPE,
                           redirect_uri=catcher.redirect_uri, code_challenge_method="S256")

    token, code, verifier, pages = code_flow(client, endpoints, browser, catcher, name)
    check_equal(pages, ["login", "consent"], f"{name}: a first request shows the login form, then consent")
    check_equal(set(token["scope"].split()), set(SCOPE.split()), f"{name}: the token has the scopes asked for")
    check(token.get("refresh_token"), f"{name}: a refresh token, as the client registered that grant")
    check_status(client.get(f"{TIL_URL}/api/users/me", timeout=10), 200, f"{name}: the access token works on TIL's API")
    create_acronym(client, 200, f"{name}: the token creates an acronym (acronyms:write)")

    narrowed = client.refresh_token(endpoints["token_endpoint"], scope="categories:write")
    check_equal(narrowed["scope"], "categories:write", f"{name}: refresh narrows the scope to categories:write")
    create_category(client, 200, f"{name}: the narrowed token creates a category")
    create_acronym(client, 403, f"{name}: the narrowed token may not create an acronym")
    widened = client.refresh_token(endpoints["token_endpoint"], scope="acronyms:write")
    check_equal(widened["scope"], "acronyms:write", f"{name}: a later refresh gets another part of the original grant")
    expect_oauth_error("invalid_scope", f"{name}: a refresh never widens beyond the grant",
                       client.refresh_token, endpoints["token_endpoint"], scope="users:write")

    revoked = client.token["refresh_token"]
    response = client.revoke_token(endpoints["revocation_endpoint"], token=revoked, token_type_hint="refresh_token")
    check_status(response, 200, f"{name}: revoke_token of the refresh token answers 200")
    check_status(client.get(f"{TIL_URL}/api/users/me", timeout=10), 401, f"{name}: the revoked session's access token gets 401")
    expect_oauth_error("invalid_grant", f"{name}: the revoked refresh token refreshes no more",
                       client.refresh_token, endpoints["token_endpoint"], refresh_token=revoked)
    expect_oauth_error("invalid_client", f"{name}: client_credentials needs a client that can authenticate",
                       client.fetch_token, endpoints["token_endpoint"], grant_type="client_credentials")

    token, code, verifier, pages = code_flow(client, endpoints, browser, catcher, f"{name}, again")
    check_equal(pages, [], f"{name}: a second request within the granted scopes skips login and consent")
    expect_oauth_error("invalid_grant", f"{name}: a code is redeemed only once",
                       client.fetch_token, endpoints["token_endpoint"], code=code, code_verifier=verifier,
                       grant_type="authorization_code")
    check_status(client.get(f"{TIL_URL}/api/users/me", timeout=10), 401,
                 f"{name}: a replayed code revokes the token it had issued (RFC 6749 §4.1.2)")
    return client


def confidential_client(endpoints, admin, browser, catcher, public):
    name = "confidential client"
    registered = register(admin, {
        "client_name": "Proof confidential client", "redirect_uris": [catcher.redirect_uri],
        "token_endpoint_auth_method": "client_secret_basic",
        "grant_types": ["authorization_code", "refresh_token", "client_credentials"],
        "scope": SCOPE}, endpoints["registration_endpoint"])
    check(len(registered.get("client_secret", "")) >= 43, f"{name}: a client_secret of 256 bits")
    check_equal(registered.get("client_secret_expires_at"), 0, f"{name}: client_secret_expires_at is 0")
    client = OAuth2Session(registered["client_id"], registered["client_secret"], scope=SCOPE,
                           token_endpoint_auth_method="client_secret_basic",
                           redirect_uri=catcher.redirect_uri, code_challenge_method="S256")

    token, _, _, pages = code_flow(client, endpoints, browser, catcher, name)
    check_equal(pages, ["consent"], f"{name}: signed in already, the person sees only the consent page")
    access = token["access_token"]
    create_category(client, 200, f"{name}: its access token creates a category")

    answer = client.introspect_token(endpoints["introspection_endpoint"], token=access, token_type_hint="access_token")
    check_status(answer, 200, f"{name}: introspect_token answers 200")
    info = answer.json()
    check_equal(info.get("active"), True, f"{name}: introspection: its token is active")
    check_equal(info.get("client_id"), registered["client_id"], f"{name}: introspection names the client")
    check_equal(info.get("username"), "admin", f"{name}: introspection names the user")
    check_equal(set(info.get("scope", "").split()), set(SCOPE.split()), f"{name}: introspection gives the scope")
    check(all(isinstance(info.get(claim), int) for claim in ("exp", "iat")), f"{name}: introspection gives exp and iat")
    answer = client.introspect_token(endpoints["introspection_endpoint"], token="not-a-token")
    check_equal(answer.json(), {"active": False}, f"{name}: an unknown token introspects as exactly {{'active': false}}")
    stranger = OAuth2Session(registered["client_id"], "wrong-secret", token_endpoint_auth_method="client_secret_basic")
    check_status(stranger.introspect_token(endpoints["introspection_endpoint"], token=access), 401,
                 f"{name}: a wrong client secret cannot introspect")

    response = public.revoke_token(endpoints["revocation_endpoint"], token=access)
    check_status(response, 400, f"{name}: another client may not revoke its token")
    check_equal(response.json().get("error"), "unauthorized_client", f"{name}: ... with unauthorized_client")
    check_status(client.get(f"{TIL_URL}/api/users/me", timeout=10), 200, f"{name}: ... and the token stays valid")
    check_status(client.revoke_token(endpoints["revocation_endpoint"], token=access, token_type_hint="access_token"),
                 200, f"{name}: revoke_token of its own access token answers 200")
    check_status(client.get(f"{TIL_URL}/api/users/me", timeout=10), 401, f"{name}: the revoked access token gets 401")
    answer = client.introspect_token(endpoints["introspection_endpoint"], token=access)
    check_equal(answer.json(), {"active": False}, f"{name}: the revoked token introspects as inactive")

    machine = OAuth2Session(registered["client_id"], registered["client_secret"],
                            token_endpoint_auth_method="client_secret_basic")
    token = machine.fetch_token(endpoints["token_endpoint"], grant_type="client_credentials")
    check_equal(token.get("scope"), "categories:write", f"{name}: client_credentials gets the scopes that need no user")
    check("refresh_token" not in token, f"{name}: client_credentials issues no refresh token")
    create_category(machine, 200, f"{name}: the client_credentials token creates a category")
    expect_oauth_error("invalid_scope", f"{name}: acronyms:write is never granted without a user",
                       machine.fetch_token, endpoints["token_endpoint"], grant_type="client_credentials",
                       scope="acronyms:write")


def service_client(endpoints, admin):
    """A confidential client registered for client_credentials alone, authenticating in the body."""
    name = "service client"
    registered = register(admin, {
        "client_name": "Proof service", "redirect_uris": [], "token_endpoint_auth_method": "client_secret_post",
        "grant_types": ["client_credentials"], "scope": "categories:write"}, endpoints["registration_endpoint"])
    service = OAuth2Session(registered["client_id"], registered["client_secret"], token_endpoint_auth_method="client_secret_post")
    token = service.fetch_token(endpoints["token_endpoint"], grant_type="client_credentials", scope="categories:write")
    check_equal(token.get("scope"), "categories:write", f"{name}: client_credentials with client_secret_post")
    create_category(service, 200, f"{name}: its token creates a category")
    check_status(service.get(f"{TIL_URL}/api/users/me", timeout=10), 403, f"{name}: a token without a user gets 403 on a user route")
    expect_oauth_error("unauthorized_client", f"{name}: a grant it did not register is refused",
                       service.fetch_token, endpoints["token_endpoint"], grant_type="authorization_code",
                       code="any", code_verifier=generate_token(64), redirect_uri="http://127.0.0.1/callback")


def main():
    endpoints = discover()
    admin = admin_session()
    with RedirectCatcher() as catcher:
        browser = requests.Session()
        public = public_client(endpoints, admin, browser, catcher)
        confidential_client(endpoints, admin, browser, catcher, public)
        relying_party(admin, browser, catcher)
    service_client(endpoints, admin)
    summary("authlib client")


if __name__ == "__main__":
    main()
