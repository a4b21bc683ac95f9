"""authlib as an OpenID Connect relying party of TIL (issue 19): discovery through
/.well-known/openid-configuration, the code flow with PKCE and a nonce, the id_token validated by
authlib's own JOSE and OpenID Connect code (authlib.jose.jwt with CodeIDToken: signature against
the keys at jwks_uri, iss, aud, exp, iat, nonce, at_hash), userinfo, a refresh that keeps the
sign-in, and RP-initiated logout back to the client with its state."""

import urllib.parse
import warnings

import requests
from authlib.common.security import generate_token
from authlib.integrations.requests_client import OAuth2Session

from html_forms import authorize
from proof import ADMIN_PASSWORD, TIL_URL, check, check_equal, check_redirect, check_status, register

warnings.filterwarnings("ignore", message=".*authlib.jose module is deprecated.*")
from authlib.jose import JsonWebKey, jwt  # noqa: E402  (after the filter: authlib 1.x warns on import)
from authlib.oidc.core import CodeIDToken  # noqa: E402

SCOPE = "openid profile offline_access"


def openid_configuration():
    response = requests.get(f"{TIL_URL}/.well-known/openid-configuration", timeout=10)
    check_status(response, 200, "OpenID Connect: GET /.well-known/openid-configuration")
    metadata = response.json()
    check_equal(metadata.get("issuer"), TIL_URL, "OpenID Connect: the issuer is TIL's URL")
    for endpoint in ("userinfo_endpoint", "jwks_uri", "end_session_endpoint", "authorization_endpoint", "token_endpoint"):
        check(str(metadata.get(endpoint, "")).startswith(TIL_URL), f"OpenID Connect: {endpoint} on the issuer")
    check(set(SCOPE.split()) <= set(metadata.get("scopes_supported", [])), "OpenID Connect: openid, profile, offline_access supported")
    check_equal(metadata.get("id_token_signing_alg_values_supported"), ["RS256", "ES256"], "OpenID Connect: RS256 and ES256")
    check_equal(metadata.get("request_uri_parameter_supported"), False, "OpenID Connect: request_uri said unsupported")
    return metadata


def validated(id_token, metadata, client_id, nonce=None, access_token=None):
    """The id_token's claims once authlib has checked it all against the published keys."""
    keys = requests.get(metadata["jwks_uri"], timeout=10)
    check_status(keys, 200, "OpenID Connect: the JWKS answers")
    params = {"client_id": client_id, "access_token": access_token}
    if nonce is not None:
        params["nonce"] = nonce
    claims = jwt.decode(id_token, JsonWebKey.import_key_set(keys.json()), claims_cls=CodeIDToken,
                        claims_options={"iss": {"essential": True, "value": metadata["issuer"]}}, claims_params=params)
    claims.validate(leeway=5)
    return claims


def registered_client(admin, metadata, catcher, client_name):
    """A confidential relying party registered by RFC 7591, as authlib's OAuth2Session."""
    registered = register(admin, {
        "client_name": client_name, "redirect_uris": [catcher.redirect_uri],
        "post_logout_redirect_uris": [catcher.redirect_uri], "token_endpoint_auth_method": "client_secret_basic",
        "grant_types": ["authorization_code"], "scope": SCOPE}, metadata["registration_endpoint"])
    return OAuth2Session(registered["client_id"], registered["client_secret"], scope=SCOPE, token_endpoint_auth_method="client_secret_basic",
                         redirect_uri=catcher.redirect_uri, code_challenge_method="S256")


def signed_in(client, metadata, browser, catcher, name):
    """One OpenID Connect sign-in through TIL's pages (PKCE, a nonce): the token answer and the nonce."""
    verifier, nonce = generate_token(64), generate_token(20)
    url, state = client.create_authorization_url(metadata["authorization_endpoint"], code_verifier=verifier, nonce=nonce)
    redirect, _ = authorize(browser, url, catcher.redirect_uri, "admin", ADMIN_PASSWORD)
    check_redirect(redirect, catcher.next_redirect(), state, metadata["issuer"], name)
    token = client.fetch_token(metadata["token_endpoint"], authorization_response=f"{catcher.redirect_uri}?{urllib.parse.urlencode(redirect)}",
                               code_verifier=verifier, state=state)
    check("id_token" in token, f"{name}: the token answer carries an id_token")
    return token, nonce


def relying_party(admin, browser, catcher):
    name = "OpenID Connect relying party"
    metadata = openid_configuration()
    client = registered_client(admin, metadata, catcher, "Proof relying party")
    client_id = client.client_id
    token, nonce = signed_in(client, metadata, browser, catcher, name)
    check(token.get("refresh_token"), f"{name}: offline_access buys a refresh token without the refresh_token grant")
    claims = validated(token["id_token"], metadata, client_id, nonce=nonce, access_token=token["access_token"])
    check_equal(claims.get("nonce"), nonce, f"{name}: authlib validated the id_token (signature, iss, aud, exp, nonce, at_hash)")
    check_equal(claims.get("preferred_username"), "admin", f"{name}: profile's preferred_username")

    info = client.get(metadata["userinfo_endpoint"], timeout=10)
    check_status(info, 200, f"{name}: userinfo answers the access token")
    check_equal(info.json().get("sub"), claims["sub"], f"{name}: userinfo's sub is the id_token's")
    check_equal(info.json().get("preferred_username"), "admin", f"{name}: userinfo's preferred_username")

    refreshed = client.refresh_token(metadata["token_endpoint"])
    again = validated(refreshed["id_token"], metadata, client_id, access_token=refreshed["access_token"])
    check_equal((again["sub"], again["auth_time"]), (claims["sub"], claims["auth_time"]),
                f"{name}: a refresh carries a new id_token of the same sign-in (sub, auth_time)")

    logout_state = generate_token(16)
    response = browser.get(metadata["end_session_endpoint"], timeout=10, params={
        "id_token_hint": token["id_token"], "post_logout_redirect_uri": catcher.redirect_uri, "state": logout_state})
    check_status(response, 200, f"{name}: RP-initiated logout lands back at the client")
    check_equal(catcher.next_redirect(), {"state": logout_state}, f"{name}: ... with its state")
    silent, _ = client.create_authorization_url(metadata["authorization_endpoint"], code_verifier=generate_token(64),
                                                nonce=generate_token(20), prompt="none")
    response = browser.get(silent, timeout=10)
    check_equal(catcher.next_redirect().get("error"), "login_required", f"{name}: the browser session is over (prompt=none)")
