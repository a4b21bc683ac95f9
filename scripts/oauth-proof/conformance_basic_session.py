"""The `oidcc-basic-certification-test-plan` modules about the authorization request's
optional parameters and the browser session (prompt, max_age, id_token_hint, display, hints,
locales, acr_values, order): see conformance_basic.py for the plan."""

import time

from conformance_support import Browser, code_flow, expect_callback, random_token, signed_in, suite_warning
from proof import check, check_equal


def test_AlternateHappyFlow(op):
    """oidcc-alternate-happy-flow: the scope's entries reversed and the query in another order."""
    client = op.register()
    request = client.request(scope="profile openid")
    request.parameters = dict(reversed(list(request.parameters.items())))
    code_flow(op, client, Browser(), request=request)


def _fresh_login_with(op, **parameters):
    """A request with an extra parameter "must not cause an error": a fresh browser signs in."""
    browser = Browser()
    code_flow(op, op.register(), browser, **parameters)
    check_equal(browser.pages[0], "login", "the login page is shown")


def test_DisplayPage(op):
    """oidcc-display-page: display=page must not cause an error; the normal login page."""
    _fresh_login_with(op, display="page")


def test_DisplayPopup(op):
    """oidcc-display-popup: display=popup must not cause an error."""
    _fresh_login_with(op, display="popup")


def test_PromptLogin(op):
    """oidcc-prompt-login: a second authorization with prompt=login asks the user to log in
    again; its auth_time is later than the first."""
    client, browser, _, first = signed_in(op)
    time.sleep(1.1)  # auth_time counts seconds: the second sign-in must be in a later one
    _, second, _ = code_flow(op, client, browser, prompt="login")
    check_equal(browser.pages[0], "login", "prompt=login shows the login page again")
    check(second["auth_time"] > first["auth_time"], "the second auth_time is later")
    check_equal(second["sub"], first["sub"], "the same sub")


def test_PromptNoneNotLoggedIn(op):
    """oidcc-prompt-none-not-logged-in: no session, prompt=none, a 128-character state: a
    redirect with interaction_required, login_required, account_selection_required or
    consent_required, and the state intact."""
    client = op.register()
    request = client.request(prompt="none", state=random_token(96))
    answer = expect_callback(Browser().authorize(op, request), request, "prompt=none without a session")
    check(answer.get("error") in ("interaction_required", "login_required", "account_selection_required", "consent_required"),
          "an error that requires a user interface", answer)


def _silent_again(op, **parameters):
    """The second authorization in the same browser must not show any page."""
    client, browser, _, first = signed_in(op, **parameters.pop("first", {}))
    _, second, _ = code_flow(op, client, browser, **parameters)
    check_equal(browser.pages, [], "no login or consent page the second time")
    check_equal((second["sub"], second.get("auth_time")), (first["sub"], first.get("auth_time")),
                "sub and auth_time are the first sign-in's")
    return first


def test_PromptNoneLoggedIn(op):
    """oidcc-prompt-none-logged-in: signed in, prompt=none answers without a page; sub and
    auth_time consistent."""
    _silent_again(op, prompt="none")


def test_MaxAge1(op):
    """oidcc-max-age-1: signed in, 2 s later max_age=1: a new login (the second login page),
    auth_time present, later than the first and recent."""
    client, browser, _, first = signed_in(op)
    time.sleep(2)  # the suite's WaitFor2Seconds: the first sign-in must be older than max_age
    _, second, _ = code_flow(op, client, browser, max_age="1")
    check_equal(browser.pages[0], "login", "max_age=1 shows the login page again")
    check(second["auth_time"] > first["auth_time"], "auth_time is later than the first")
    check(abs(time.time() - second["auth_time"]) < 60, "auth_time is recent")


def test_MaxAge10000(op):
    """oidcc-max-age-10000: max_age=15000 then max_age=10000: no login the second time,
    auth_time present in both and the same, the same sub."""
    first = _silent_again(op, first={"max_age": "15000"}, max_age="10000")
    check("auth_time" in first, "auth_time in the first id_token (max_age)")


def test_EnsureRequestWithUnknownParameterSucceeds(op):
    """oidcc-ensure-request-with-unknown-parameter-succeeds: extra=foobar is ignored."""
    signed_in(op, extra="foobar")


def test_IdTokenHint(op):
    """oidcc-id-token-hint: prompt=none with the first id_token as id_token_hint answers at once."""
    client, browser, tokens, first = signed_in(op)
    _, second, _ = code_flow(op, client, browser, prompt="none", id_token_hint=tokens["id_token"])
    check_equal(browser.pages, [], "no page with a valid id_token_hint")
    check_equal((second["sub"], second["auth_time"]), (first["sub"], first["auth_time"]), "sub and auth_time consistent")


def test_LoginHint(op):
    """oidcc-login-hint: login_hint=buffy@<issuer host> must not cause an error."""
    _fresh_login_with(op, login_hint="buffy@127.0.0.1")


def test_UiLocales(op):
    """oidcc-ui-locales: ui_locales=se must not cause an error."""
    _fresh_login_with(op, ui_locales="se")


def test_ClaimsLocales(op):
    """oidcc-claims-locales: claims_locales=se must not cause an error."""
    _fresh_login_with(op, claims_locales="se")


def test_EnsureRequestWithAcrValuesSucceeds(op):
    """oidcc-ensure-request-with-acr-values-succeeds: acr_values (acr_values_supported, or
    "1 2") must succeed; an acr claim is a SHOULD (a warning without one)."""
    requested = op.metadata.get("acr_values_supported", ["1", "2"])
    _, _, _, claims = signed_in(op, acr_values=" ".join(requested))
    suite_warning(claims.get("acr") in requested, "ValidateIdTokenACRClaimAgainstAcrValuesRequest: no acr claim "
                  "with one of the requested values (TIL publishes no acr_values_supported)")
