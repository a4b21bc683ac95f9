"""Two-step sign-in in a real browser (issue 20): a person in headless Chromium signs in, opens
the account page, turns TOTP on (reads the secret from the page, as someone typing it into an
app would; the code is computed here with hmac, RFC 6238), saves the recovery codes, signs
out, then signs in with the password and a code on the code step, after a wrong code is
refused on the page. Then an OAuth client's authorization request goes through the same
two-step sign-in and comes back with a code. Screenshots of the account page, the
enrolment page and the code step go to TIL_SCREENSHOTS."""

import base64
import hashlib
import hmac
import re
import struct
import time

import requests
from authlib.integrations.requests_client import OAuth2Session
from selenium.webdriver.common.by import By

from browser_login import HEIGHT, WIDTH, authorization_url, back_at_client, chromium, page_text, press, screenshot, wait_for
from proof import ADMIN_PASSWORD, TIL_URL, check, check_equal, discover, register_by_operator, summary
from redirect_catcher import RedirectCatcher

USERNAME, PASSWORD = "tessa", "correct horse battery staple"
SCOPE = "acronyms:write"


def totp(secret, step):
    """RFC 6238 with SHA-1, 6 digits, 30-second steps: what the authenticator app shows."""
    key = base64.b32decode(secret + "=" * (-len(secret) % 8))
    digest = hmac.new(key, struct.pack(">Q", step), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    return f"{(struct.unpack('>I', digest[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000:06d}"


def create_user():
    login = requests.post(f"{TIL_URL}/api/users/login", params={"scope": "users:write"}, auth=("admin", ADMIN_PASSWORD), timeout=10)
    check_equal(login.status_code, 200, "the admin logs in with users:write")
    created = requests.post(f"{TIL_URL}/api/users", timeout=10, headers={"Authorization": f"Bearer {login.json()['value']}"},
                            json={"name": "Tessa", "username": USERNAME, "password": PASSWORD})
    check_equal(created.status_code, 200, "a user for the proof")


def whole_page_screenshot(driver, name):
    """A page taller than the window, all of it: the viewport grown to the page for one shot."""
    height = max(HEIGHT, driver.execute_script("return document.documentElement.scrollHeight"))
    metrics = {"width": WIDTH, "deviceScaleFactor": 1, "mobile": False}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", dict(metrics, height=height))
    screenshot(driver, name)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", dict(metrics, height=HEIGHT))


def fill(driver, css, text):
    field = wait_for(driver, css, f"the page has {css}")
    field.clear()
    field.send_keys(text)
    return field


def submit(driver, field):
    press(driver, field.find_element(By.XPATH, "ancestor::form").find_element(By.CSS_SELECTOR, "button[type=submit]"))


def sign_in_with_password(driver):
    fill(driver, "input[name=username]", USERNAME)
    submit(driver, fill(driver, "input[name=password]", PASSWORD))


def enable_totp(driver):
    driver.get(f"{TIL_URL}/account")
    sign_in_with_password(driver)
    wait_for(driver, "#totp-heading", "signed in without return_to, the account page")
    check(driver.find_elements(By.CSS_SELECTOR, "meta[name=csrf-token]"), "the account page carries the CSRF meta for the script")
    press(driver, driver.find_element(By.XPATH, "//button[normalize-space()='Set up an authenticator app']"))
    svg = wait_for(driver, "figure.qr svg", "the enrolment page shows the QR code inline")
    check_equal(svg.get_attribute("role"), "img", "the QR code is an image to assistive technology")
    secret = wait_for(driver, "#totp-secret", "the key is shown for typing by hand").text.replace(" ", "")
    check(re.fullmatch(r"[A-Z2-7]{32}", secret), "the key is 160 bits of base32", secret)
    whole_page_screenshot(driver, "account-totp-setup.png")
    fill(driver, "input[name=code]", "000000" if totp(secret, int(time.time()) // 30) != "000000" else "111111")
    submit(driver, driver.find_element(By.CSS_SELECTOR, "input[name=code]"))
    alert = wait_for(driver, "[role=alert]", "a wrong first code is refused on the page")
    check("does not match" in alert.text, "it says why", alert.text)
    step = int(time.time()) // 30
    submit(driver, fill(driver, "input[name=code]", totp(secret, step)))
    codes = [element.text for element in driver.find_elements(By.CSS_SELECTOR, "ol.codes code")]
    check_equal(len(codes), 10, "confirmed: ten recovery codes, shown once")
    whole_page_screenshot(driver, "account-recovery-codes.png")
    press(driver, driver.find_element(By.LINK_TEXT, "Done"))
    wait_for(driver, ".badge.on", "the account page says two-step sign-in is on")
    check("10 recovery codes left" in page_text(driver), "and counts the recovery codes")
    return secret, step, codes


def sign_out(driver):
    press(driver, driver.find_element(By.XPATH, "//div[@class='account-bar']//button"))
    wait_for(driver, "main", "signed out")
    check("signed out" in page_text(driver), "the sign-out page says so")


def code_step(driver, secret, step, claim):
    field = wait_for(driver, "input[name=code]", claim)
    check_equal(field.get_attribute("autocomplete"), "one-time-code", "the code field: autocomplete=one-time-code")
    check_equal(field.get_attribute("inputmode"), "numeric", "the code field: a numeric keyboard")
    check(driver.find_elements(By.CSS_SELECTOR, "input[type=hidden][name=mfa_token]"), "the step carries its mfaToken")
    check(driver.find_elements(By.CSS_SELECTOR, "details summary"), "a recovery code is offered, without script")
    return field


def sign_in_with_code(driver, secret, step):
    driver.get(f"{TIL_URL}/login")
    sign_in_with_password(driver)
    code_step(driver, secret, step, "a correct password leads to the code step")
    screenshot(driver, "login-code-step.png")
    submit(driver, fill(driver, "input[name=code]", totp(secret, step)))
    alert = wait_for(driver, "[role=alert]", "the code already used to turn TOTP on is refused (replay)")
    check("wrong or was already used" in alert.text, "the step says so", alert.text)
    # The next step's code: within the ±1 window now, and never used.
    submit(driver, fill(driver, "input[name=code]", totp(secret, step + 1)))
    wait_for(driver, "#sessions-heading", "the right code signs in and lands on the account page")
    return step + 1


def oauth_through_two_steps(driver, endpoints, secret, used_step, recovery_code):
    """An authorization request from a client, signed in with the password and a recovery
    code on the way: the browser comes back to the client with a code that buys a token."""
    sign_out(driver)
    with RedirectCatcher() as catcher:
        name = "Proof two-step client"
        registered = register_by_operator(name, catcher.redirect_uri, SCOPE, "none", ["authorization_code"])
        client = OAuth2Session(registered["client_id"], token_endpoint_auth_method="none", scope=SCOPE,
                               redirect_uri=catcher.redirect_uri, code_challenge_method="S256")
        url, state, verifier = authorization_url(client, endpoints)
        driver.get(url)
        sign_in_with_password(driver)
        code_step(driver, secret, used_step, "the authorization request's login asks for the second step too")
        check(name in page_text(driver), "the code step names the client")
        driver.find_element(By.CSS_SELECTOR, "details summary").click()  # opens the disclosure, no page load
        submit(driver, fill(driver, "input[name=recovery_code]", recovery_code.lower()))
        press(driver, wait_for(driver, "button[name=decision][value=approve]", "on to the consent page"))
        redirect = back_at_client(driver, catcher, state, endpoints, "approve lands on the redirect URI")
        token = client.fetch_token(endpoints["token_endpoint"], code=redirect["code"], code_verifier=verifier,
                                   grant_type="authorization_code")
        check_equal(token.get("scope"), SCOPE, "the two-step sign-in's code buys a token")


def account_page(driver):
    """The account page after all that, with a command-line login beside the browser: its
    sessions, the application just allowed, and two-step sign-in on, one recovery code spent."""
    cli = requests.post(f"{TIL_URL}/api/users/login", auth=(USERNAME, PASSWORD), headers={"User-Agent": "til/1.4 (Linux)"}, timeout=10)
    check_equal(cli.status_code, 401, "the API asks the command line for a second factor too")
    check(cli.json().get("mfaRequired"), "with mfaRequired")
    driver.get(f"{TIL_URL}/account")
    text = page_text(driver)
    check("9 recovery codes left" in text, "the recovery code used is gone", text[:800])
    check("Proof two-step client" in text, "the application allowed is listed with a revoke button")
    check(driver.find_elements(By.CSS_SELECTOR, "form[action$='/revoke'] button"), "revoke is a button")
    whole_page_screenshot(driver, "account-page.png")


def main():
    endpoints = discover()
    create_user()
    driver = chromium()
    try:
        secret, step, codes = enable_totp(driver)
        sign_out(driver)
        used = sign_in_with_code(driver, secret, step)
        oauth_through_two_steps(driver, endpoints, secret, used, codes[0])
        account_page(driver)
    finally:
        driver.quit()
    summary("browser two-step sign-in")


if __name__ == "__main__":
    main()
