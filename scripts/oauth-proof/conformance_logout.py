"""The conformance suite's `oidcc-rp-initiated-logout-certification-test-plan`
(OIDCCRpInitiatedLogoutTestPlan), one test per module. Every logout module first performs a
normal authorization flow (AbstractOIDCCRpInitiatedLogout), then sends the browser to
end_session_endpoint. "The OP must not redirect back and must either show an error screen or
confirm with the user" is checked as: no redirect to any client URI, and a page of TIL (an error,
or the sign-out confirmation); "the OP must log the user out" as: the page (confirmed when TIL
asks), then a prompt=none authorization fails with login_required."""

import base64
import json
import urllib.parse

from conformance_support import POST_LOGOUT_REDIRECT_URI, Browser, code_flow, expect_callback, random_token
from html_forms import forms_of
from proof import TIL_URL, check, check_equal
from conformance_config import endpoint_is_https


def test_RpInitiatedLogoutDiscoveryEndpointVerification(op):
    """oidcc-rp-initiated-logout-discovery-endpoint-verification: end_session_endpoint present
    and (CheckDiscEndpointAllEndpointsAreHttps) https, loopback http allowed in this run."""
    check(op.metadata.get("end_session_endpoint"), "end_session_endpoint is published")
    endpoint_is_https(op["end_session_endpoint"], "end_session_endpoint")


def _signed_in(op):
    client = op.register()
    browser = Browser()
    tokens, _, _ = code_flow(op, client, browser)
    return client, browser, tokens["id_token"]


def _end_session(op, browser, **parameters):
    response = browser.session.get(op["end_session_endpoint"], params=parameters, allow_redirects=False, timeout=10)
    check(response.status_code < 500, "end_session_endpoint never answers 5xx", response.text[:300])
    return response


def _signed_out(op, client, browser):
    """The suite's follow-up: prompt=none must now fail (the user has been logged out)."""
    request = client.request(prompt="none")
    answer = expect_callback(browser.authorize(op, request), request, "prompt=none after logout")
    check_equal(answer.get("error"), "login_required", "the browser session is over")


def _back_at_client(response, state):
    check(response.is_redirect, "the OP redirects", f"{response.status_code}: {response.text[:300]}")
    location = urllib.parse.urlsplit(response.headers["Location"])
    check_equal(urllib.parse.urlunsplit((*location[:3], "", "")), POST_LOGOUT_REDIRECT_URI, "to the post_logout_redirect_uri")
    query = dict(urllib.parse.parse_qsl(location.query))
    check_equal(query, {"state": state} if state else {}, "with the state sent, and nothing else")


def _no_redirect_back(response):
    """An error page or the confirmation: never a redirect to a client."""
    location = response.headers.get("Location", "")
    check(not response.is_redirect or urllib.parse.urljoin(TIL_URL, location).startswith(TIL_URL),
          "the OP does not redirect back", location)
    check(response.status_code in (200, 400), "an error page or a confirmation", f"{response.status_code}: {response.text[:300]}")


def _confirm_if_asked(op, browser, response):
    """A person presses "Sign out" on the confirmation (when TIL shows one)."""
    confirm = next((form for form in forms_of(response) if "csrf_token" in form.fields), None)
    if confirm is None:
        return response
    action = urllib.parse.urljoin(response.url, confirm.action)
    return browser.session.post(action, data=confirm.values(), allow_redirects=False, timeout=10)


def test_RpInitiatedLogout(op):
    """oidcc-rp-initiated-logout: id_token_hint, post_logout_redirect_uri and state: back at the
    post_logout_redirect_uri with the state; then prompt=none fails."""
    client, browser, id_token = _signed_in(op)
    state = random_token()
    _back_at_client(_end_session(op, browser, id_token_hint=id_token, post_logout_redirect_uri=POST_LOGOUT_REDIRECT_URI,
                                 state=state), state)
    _signed_out(op, client, browser)


def test_RpInitiatedLogoutBadLogoutRedirectUri(op):
    """oidcc-rp-initiated-logout-bad-post-logout-redirect-uri: an unregistered
    post_logout_redirect_uri: no redirect back; an error screen or a confirmation."""
    _, browser, id_token = _signed_in(op)
    _no_redirect_back(_end_session(op, browser, id_token_hint=id_token, state=random_token(),
                                   post_logout_redirect_uri="https://unregistered.example/logout"))


def test_RpInitiatedLogoutModifiedIdTokenHint(op):
    """oidcc-rp-initiated-logout-modified-id-token-hint: the id_token_hint's header changed to
    alg none (signature dropped): no redirect back."""
    _, browser, id_token = _signed_in(op)
    header = base64.urlsafe_b64encode(json.dumps({"alg": "none"}).encode()).rstrip(b"=").decode()
    modified = ".".join([header, id_token.split(".")[1], ""])
    _no_redirect_back(_end_session(op, browser, id_token_hint=modified, post_logout_redirect_uri=POST_LOGOUT_REDIRECT_URI,
                                   state=random_token()))


def test_RpInitiatedLogoutNoIdTokenHint(op):
    """oidcc-rp-initiated-logout-no-id-token-hint: post_logout_redirect_uri without id_token_hint:
    no redirect back (TIL cannot tell whose URI it is, or asks the user)."""
    _, browser, _ = _signed_in(op)
    _no_redirect_back(_end_session(op, browser, post_logout_redirect_uri=POST_LOGOUT_REDIRECT_URI, state=random_token()))


def test_RpInitiatedLogoutNoParams(op):
    """oidcc-rp-initiated-logout-no-params: no parameters: the OP logs the user out (TIL asks
    first: no hint names the user) and shows its "you are logged out" page."""
    client, browser, _ = _signed_in(op)
    page = _confirm_if_asked(op, browser, _end_session(op, browser))
    check_equal(page.status_code, 200, "the signed-out page")
    check("signed out" in page.text.lower(), "it says the user is signed out")
    _signed_out(op, client, browser)


def test_RpInitiatedLogoutNoPostLogoutRedirectUri(op):
    """oidcc-rp-initiated-logout-no-post-logout-redirect-uri: id_token_hint and state only: the
    OP logs the user out and shows its page."""
    client, browser, id_token = _signed_in(op)
    page = _end_session(op, browser, id_token_hint=id_token, state=random_token())
    check_equal(page.status_code, 200, "the signed-out page, no redirect")
    _signed_out(op, client, browser)


def test_RpInitiatedLogoutNoState(op):
    """oidcc-rp-initiated-logout-no-state: id_token_hint and post_logout_redirect_uri: back at
    the client with no state; then prompt=none fails."""
    client, browser, id_token = _signed_in(op)
    _back_at_client(_end_session(op, browser, id_token_hint=id_token, post_logout_redirect_uri=POST_LOGOUT_REDIRECT_URI), None)
    _signed_out(op, client, browser)


def test_RpInitiatedLogoutOnlyState(op):
    """oidcc-rp-initiated-logout-only-state: state alone: the OP logs the user out (after its
    confirmation) and shows its page."""
    client, browser, _ = _signed_in(op)
    page = _confirm_if_asked(op, browser, _end_session(op, browser, state=random_token()))
    check_equal(page.status_code, 200, "the signed-out page")
    _signed_out(op, client, browser)


def test_RpInitiatedLogoutQueryAddedToLogoutRedirectUri(op):
    """oidcc-rp-initiated-logout-query-added-to-post-logout-redirect-uri: the registered URI with
    ?foo=bar added is not registered: no redirect back."""
    _, browser, id_token = _signed_in(op)
    _no_redirect_back(_end_session(op, browser, id_token_hint=id_token, state=random_token(),
                                   post_logout_redirect_uri=POST_LOGOUT_REDIRECT_URI + "?foo=bar"))


TESTS = [value for name, value in list(globals().items()) if name.startswith("test_")]
