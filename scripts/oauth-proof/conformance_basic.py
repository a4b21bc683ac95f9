"""The OpenID Foundation conformance suite's `oidcc-basic-certification-test-plan` (OIDCCBasicTestPlan,
openid-certification/conformance-suite 12f2a4d, August 2026), one test per module, in the plan's
order, variant response_type=code, client_secret_basic (client_secret_post for
ServerTestClientSecretPost), dynamic client. Each docstring says what the suite checks; "skipped"
and "warning" outcomes raise Unsupported with the suite's own words."""

import base64
import json
import time

import requests

import conformance_basic_session
from conformance_support import (
    REDIRECT_URI, Browser, Unsupported, code_flow, expect_callback, expect_error_page, random_token, signed_in, suite_warning)
from mail_links import verified_address
from proof import ADMIN_PASSWORD, check, check_equal, check_status


def test_ServerTest(op):
    """oidcc-server: the happy flow. Callback with state and iss, code redeemed with
    client_secret_basic, id_token valid (signature, iss, aud, exp, iat, nonce, at_hash, sub),
    userinfo 200."""
    code_flow(op, op.register(), Browser())


def test_ResponseTypeMissing(op):
    """oidcc-response-type-missing: no response_type. Redirect back with unsupported_response_type
    or invalid_request, or an error page saying so."""
    client = op.register()
    request = client.request(response_type=None)
    kind, answer = Browser().authorize(op, request)
    if kind == "callback":
        expect_callback((kind, answer), request, "response_type missing")
        check(answer.get("error") in ("invalid_request", "unsupported_response_type"), "the error names the request", answer)
    else:
        expect_error_page((kind, answer), "response_type missing")
        check("response_type" in answer.text, "the page says response_type is missing")


def test_IdTokenSignature(op):
    """oidcc-idtoken-signature: no id_token_signed_response_alg registered, so RS256; the
    header's kid names a key of jwks_uri and the signature verifies with it."""
    _, _, header = code_flow(op, op.register(), Browser())
    check_equal(header.get("alg"), "RS256", "the default algorithm is RS256")


def test_IdTokenUnsigned(op):
    """oidcc-idtoken-unsigned: skipped when id_token_signing_alg_values_supported lacks `none`
    ("which is acceptable for certification, servers are not required to support it")."""
    check("none" not in op["id_token_signing_alg_values_supported"], "alg none is not offered")
    response = requests.post(op["registration_endpoint"], timeout=10, json={
        "client_name": "unsigned", "redirect_uris": [REDIRECT_URI], "id_token_signed_response_alg": "none"},
        headers={"Authorization": f"Bearer {op._initial_access_token}"})
    check_equal(response.status_code, 400, "registering alg none is refused")
    raise Unsupported("'id_token_signing_alg_values_supported' doesn't support 'none' algorithm")


def test_UserInfoGet(op):
    """oidcc-userinfo-get: GET with the bearer header; JSON with the id_token's sub."""
    client, _, tokens, claims = signed_in(op)
    response = client.userinfo(tokens["access_token"])
    check(response.headers["Content-Type"].startswith("application/json"), "userinfo: JSON")
    check_equal(response.json()["sub"], claims["sub"], "userinfo: the id_token's sub")


def test_UserInfoPostHeader(op):
    """oidcc-userinfo-post-header: POST with the bearer header."""
    _, _, tokens, claims = signed_in(op)
    response = requests.post(op["userinfo_endpoint"], headers={"Authorization": f"Bearer {tokens['access_token']}"}, timeout=10)
    check_status(response, 200, "userinfo: POST with the bearer header")
    check_equal(response.json()["sub"], claims["sub"], "userinfo: the id_token's sub")


def test_UserInfoPostBody(op):
    """oidcc-userinfo-post-body: POST with access_token in a form body. "Support for passing an
    access token in the request body is not required by the standards - it is acceptable for
    servers not to implement this form, and the test will complete with a 'warning' if the
    server returns a http error response." TIL takes the token in the Authorization header only
    (issue 19's rule; RFC 6750 §2.2's body is optional and SHOULD NOT be used by clients that can
    send the header): 400 invalid_request with its Bearer challenge."""
    _, _, tokens, claims = signed_in(op)
    response = requests.post(op["userinfo_endpoint"], data={"access_token": tokens["access_token"]}, timeout=10)
    if response.ok:
        check_equal(response.json()["sub"], claims["sub"], "userinfo: the id_token's sub")
        return
    check_equal(response.status_code, 400, "userinfo: the body's token is refused as a bad request (RFC 6750 §3.1)")
    check('error="invalid_request"' in response.headers.get("WWW-Authenticate", ""), "userinfo: a Bearer invalid_request challenge")
    raise Unsupported("the token in the body is refused (issue 19: the Authorization header only); the suite: "
                      "'it is acceptable for servers not to implement this form, and the test will complete with a "
                      "'warning' if the server returns a http error response'")


def test_EnsureRequestWithoutNonceSucceedsForCodeFlow(op):
    """oidcc-ensure-request-without-nonce-succeeds-for-code-flow: a confidential client's code
    request without nonce gets a code; the id_token then has no nonce."""
    signed_in(op, nonce=False)


def test_ScopeProfile(op):
    """oidcc-scope-profile: scope `openid profile`; userinfo 200 with sub (the same as the
    id_token's); every standard profile claim (pyoidc's list) or a warning: TIL has name and
    preferred_username only."""
    client, _, tokens, claims = signed_in(op, scope="openid profile")
    info = client.userinfo(tokens["access_token"]).json()
    check_equal(info["sub"], claims["sub"], "userinfo: the id_token's sub")
    check("preferred_username" in info, "userinfo: profile's preferred_username")
    missing = sorted(set(PROFILE_CLAIMS) - set(info))
    suite_warning(not missing, "VerifyScopesReturnedInUserInfoClaims: 'claims' in userinfo doesn't contain all scope "
                  f"items of scope in authorization request (TIL keeps no {', '.join(missing)})")


PROFILE_CLAIMS = ("name", "given_name", "family_name", "middle_name", "nickname", "profile", "picture", "website",
                  "gender", "birthdate", "zoneinfo", "locale", "updated_at", "preferred_username")


def _scope_unsupported(op, scopes):
    """AbstractOIDCCReturnedClaimsServerTest.skipTestIfScopesNotSupported."""
    missing = [scope for scope in scopes if scope not in op["scopes_supported"]]
    check(missing, f"scopes_supported lacks one of {scopes}")
    raise Unsupported("scopes_supported from the discovery endpoint indicates the server doesn't support "
                      f"the scopes required for this test ({' '.join(missing)}); so the test has been skipped")


def test_ScopeEmail(op):
    """oidcc-scope-email: scope `openid email`; userinfo 200 with sub (the id_token's) and the
    scope's claims, `email` and `email_verified`, or a warning. The suite signs in as whoever
    the tester configured; here the admin, given a verified address first (through the API and
    the link mailed to it), since TIL answers the claims for a verified address only."""
    address = verified_address("admin", ADMIN_PASSWORD, "admin@til.example")
    client, _, tokens, claims = signed_in(op, client=op.register(scope="openid email"), scope="openid email")
    info = client.userinfo(tokens["access_token"]).json()
    check_equal(info["sub"], claims["sub"], "userinfo: the id_token's sub")
    missing = sorted({"email", "email_verified"} - set(info))
    suite_warning(not missing, "VerifyScopesReturnedInUserInfoClaims: 'claims' in userinfo doesn't contain all scope "
                  f"items of scope in authorization request ({', '.join(missing)})")
    check_equal(info.get("email"), address, "userinfo: the verified address")
    check_equal(info.get("email_verified"), True, "userinfo: email_verified")
    check_equal(claims.get("email"), address, "id_token: the verified address too")


def test_ScopeAddress(op):
    """oidcc-scope-address: skipped when scopes_supported lacks address."""
    _scope_unsupported(op, ["address"])


def test_ScopePhone(op):
    """oidcc-scope-phone: skipped when scopes_supported lacks phone."""
    _scope_unsupported(op, ["phone"])


def test_ScopeAll(op):
    """oidcc-scope-all: address, email, phone and profile; skipped when one is not supported."""
    _scope_unsupported(op, ["address", "email", "phone", "profile"])


def _reuse(op, wait):
    client = op.register()
    request = client.request()
    callback = expect_callback(Browser().authorize(op, request), request, "authorization")
    tokens = client.redeem(request, callback)
    time.sleep(wait)
    again = client.token_request({"grant_type": "authorization_code", "code": callback["code"],
                                  "redirect_uri": REDIRECT_URI, "code_verifier": request.verifier})
    check_status(again, 400, "the second use of the code gets 400")
    check(again.headers["Content-Type"].startswith("application/json"), "a JSON error")
    check_equal(again.json().get("error"), "invalid_grant", "invalid_grant (RFC 6749 §5.2)")
    return client, tokens


def test_AuthCodeReuse(op):
    """oidcc-codereuse: the code used a second time at once: 400, JSON, invalid_grant (a warning
    if the server allowed it)."""
    _reuse(op, wait=0)


def test_AuthCodeReuseAfter30Seconds(op):
    """oidcc-codereuse-30seconds: the code used again after 30 s: invalid_grant, and the tokens
    issued from it revoked (RFC 6749 §4.1.2 SHOULD; a warning if the access token still works).
    The wait is 1 s here, not 30: TIL's refusal and revocation do not depend on time while the
    code lives (AUTH_CODE_TTL, 60 s), and `make test` must stay fast."""
    client, tokens = _reuse(op, wait=1)
    response = requests.get(op["userinfo_endpoint"], headers={"Authorization": f"Bearer {tokens['access_token']}"}, timeout=10)
    check_equal(response.status_code, 401, "the access token issued from the reused code is revoked")


def test_EnsureRegisteredRedirectUri(op):
    """oidcc-ensure-registered-redirect-uri: a redirect_uri with random text appended: an error
    page, never a redirect to it nor to the registered one."""
    client = op.register()
    request = client.request(redirect_uri=REDIRECT_URI + random_token(8))
    expect_error_page(Browser().authorize(op, request), "an unregistered redirect_uri")


def test_EnsurePostRequestSucceeds(op):
    """oidcc-ensure-post-request-succeeds: the authorization request as a form POST (OpenID
    Connect Core §3.1.2.1: the OP MUST support GET and POST) completes."""
    client = op.register()
    browser = Browser()
    request = client.request()
    callback = expect_callback(browser.authorize(op, request, post=True), request, "POST authorization")
    client.redeem(request, callback)


def test_ServerTestClientSecretPost(op):
    """oidcc-server-client-secret-post: the happy flow with client_secret_post."""
    code_flow(op, op.register(auth_method="client_secret_post"), Browser())


def _request_object(op, client, parameter):
    def segment(value):
        return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()
    request = client.request()
    claims = {**request.parameters, "iss": client.id, "aud": op.issuer}
    unsigned = f"{segment({'alg': 'none'})}.{segment(claims)}."
    # as the suite: client_id, response_type, scope and redirect_uri stay outside too
    outside = {k: request.parameters[k] for k in ("client_id", "response_type", "scope", "redirect_uri")}
    request.parameters = {**outside, parameter: unsigned if parameter == "request" else "https://127.0.0.1:9/ro.jwt"}
    return request


def _skipped_when_request_objects_unsupported(op, parameter, error):
    """AbstractOIDCCServerTest.skipTestIfNoneUnsupported, then the module's own skip."""
    if "none" not in op.metadata.get("request_object_signing_alg_values_supported", ["none"]):
        raise Unsupported("'none' is not listed in request_object_signing_alg_values_supported - assuming it is not supported.")
    client = op.register()
    request = _request_object(op, client, parameter)
    kind, answer = Browser().authorize(op, request)
    check_equal(kind, "callback", f"{parameter}: the OP redirects to the client")
    check_equal(answer.get("error"), error, f"{parameter}: {error}")
    raise Unsupported(f"The '{error}' error from the authorization endpoint indicates that it does not support "
                      f"{'request objects' if parameter == 'request' else 'request_uri'} (which is permitted behaviour)")


def test_RequestUriUnsignedSupportedCorrectlyOrRejectedAsUnsupported(op):
    """oidcc-request-uri-unsigned-supported-correctly-or-rejected-as-unsupported: a request_uri
    to an unsigned request object: processed, or request_uri_not_supported (skipped)."""
    check_equal(op.metadata.get("request_uri_parameter_supported"), False, "discovery says request_uri is unsupported")
    _skipped_when_request_objects_unsupported(op, "request_uri", "request_uri_not_supported")


def test_UnsignedRequestObjectSupportedCorrectlyOrRejectedAsUnsupported(op):
    """oidcc-unsigned-request-object-supported-correctly-or-rejected-as-unsupported: an
    unsigned request object by value: processed, or request_not_supported (skipped)."""
    check_equal(op.metadata.get("request_parameter_supported"), False, "discovery says request is unsupported")
    _skipped_when_request_objects_unsupported(op, "request", "request_not_supported")


def test_ClaimsEssential(op):
    """oidcc-claims-essential: claims={"userinfo":{"name":{"essential":true}}} must succeed; the
    name in userinfo is a warning only (TIL ignores the claims parameter:
    claims_parameter_supported is false)."""
    client, _, tokens, _ = signed_in(op, claims='{"userinfo":{"name":{"essential":true}}}')
    suite_warning("name" in client.userinfo(tokens["access_token"]).json(),
                  "EnsureUserInfoContainsName: the essential name claim is not in userinfo (claims is ignored; name needs profile)")


def test_EnsureRequestObjectWithRedirectUri(op):
    """oidcc-ensure-request-object-with-redirect-uri: a request object holding the registered
    redirect_uri, an invalid one outside: the OP uses the object's, or shows an invalid
    redirect_uri page; request_not_supported sent to the registered URI fails the module.
    Skipped when request_object_signing_alg_values_supported lacks none."""
    if "none" not in op.metadata.get("request_object_signing_alg_values_supported", ["none"]):
        raise Unsupported("'none' is not listed in request_object_signing_alg_values_supported - assuming it is not supported.")
    client = op.register()
    request = _request_object(op, client, "request")
    request.parameters["redirect_uri"] = REDIRECT_URI + random_token(8)
    expect_error_page(Browser().authorize(op, request), "an invalid redirect_uri beside a request object")


def test_RefreshToken(op):
    """oidcc-refresh-token: offline_access with prompt=consent gives a refresh token; it works,
    its id_token keeps iss, sub, aud and auth_time, and another client cannot use it."""
    client = op.register(grant_types=("authorization_code", "refresh_token"))
    _, _, tokens, claims = signed_in(op, client=client, scope="openid offline_access", prompt="consent")
    check(tokens.get("refresh_token"), "a refresh token")
    refreshed = client.token_request({"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"]})
    check_status(refreshed, 200, "the refresh token works")
    answer = refreshed.json()
    check("id_token" in answer, "the refresh answer carries a new id_token (optional in the suite; TIL sends one)")
    again, _ = client.validate(answer["id_token"], access_token=answer["access_token"])
    check_equal((again["iss"], again["sub"], again["aud"], again.get("auth_time")),
                (claims["iss"], claims["sub"], claims["aud"], claims.get("auth_time")), "the refreshed id_token's claims")
    client.userinfo(answer["access_token"])
    other = op.register(grant_types=("authorization_code", "refresh_token"))
    stolen = other.token_request({"grant_type": "refresh_token", "refresh_token": answer.get("refresh_token", tokens["refresh_token"])})
    check_equal((stolen.status_code, stolen.json().get("error")), (400, "invalid_grant"), "another client's refresh is refused")


def test_EnsureRequestWithValidPkceSucceeds(op):
    """oidcc-ensure-request-with-valid-pkce-succeeds: a request with valid PKCE succeeds (the one
    module that sends PKCE; every reproduction here does)."""
    signed_in(op)


# The plan's order (OIDCCBasicTestPlan.testModulesWithVariants).
PLAN = """
ServerTest ResponseTypeMissing IdTokenSignature IdTokenUnsigned UserInfoGet UserInfoPostHeader UserInfoPostBody
EnsureRequestWithoutNonceSucceedsForCodeFlow ScopeProfile ScopeEmail ScopeAddress ScopePhone ScopeAll AlternateHappyFlow
DisplayPage DisplayPopup PromptLogin PromptNoneNotLoggedIn PromptNoneLoggedIn MaxAge1 MaxAge10000
EnsureRequestWithUnknownParameterSucceeds IdTokenHint LoginHint UiLocales ClaimsLocales EnsureRequestWithAcrValuesSucceeds
AuthCodeReuse AuthCodeReuseAfter30Seconds EnsureRegisteredRedirectUri EnsurePostRequestSucceeds ServerTestClientSecretPost
RequestUriUnsignedSupportedCorrectlyOrRejectedAsUnsupported UnsignedRequestObjectSupportedCorrectlyOrRejectedAsUnsupported
ClaimsEssential EnsureRequestObjectWithRedirectUri RefreshToken EnsureRequestWithValidPkceSucceeds
""".split()
TESTS = [getattr(conformance_basic_session, f"test_{name}", None) or globals()[f"test_{name}"] for name in PLAN]
