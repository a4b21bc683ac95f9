"""Passkeys in a real browser: headless Chromium with the DevTools virtual authenticator
(WebAuthn.enable, WebAuthn.addVirtualAuthenticator: CTAP2, internal transport, resident keys,
user verification) through selenium. A person signs in with their password, adds a passkey on
the account page, signs out, and signs in on the login page with the passkey only, no username
typed. The pages are opened at http://localhost:PORT: WebAuthn refuses IP addresses, and TIL's
RP ID for a loopback-IP issuer is `localhost`. Screenshots of the passkey sign-in page and of
the account page with the passkey go to TIL_SCREENSHOTS (docs/images/ for the README)."""

import urllib.parse

import requests
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from browser_login import chromium, page_text, press, screenshot, wait_for
import proof
from proof import TIL_URL, check, check_equal, check_status, summary

USERNAME, PASSWORD, NAME = "passkey-person", "a-long-passkey-proof-password", "Proof laptop"
# The same server by name: the origin passkeys are bound to.
PAGES = TIL_URL.replace("://127.0.0.1:", "://localhost:")


def settled(driver, condition, seconds=15):
    """Waits for `condition`, reading the page again whenever the script's navigation replaced
    it under the read (a stale element is a page on its way, not a failure)."""
    WebDriverWait(driver, seconds, ignored_exceptions=(StaleElementReferenceException,)).until(condition)


def create_user():
    proof.create_user("Passkey Person", USERNAME, PASSWORD)


def virtual_authenticator(driver):
    """A platform authenticator as Chrome's DevTools protocol simulates it: it keeps discoverable
    credentials and verifies its user (as a fingerprint would) without a prompt."""
    driver.execute_cdp_cmd("WebAuthn.enable", {"enableUI": False})
    made = driver.execute_cdp_cmd("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True, "automaticPresenceSimulation": True}})
    check(made.get("authenticatorId"), "Chromium has a virtual authenticator (ctap2, internal, resident keys, UV)")
    return made["authenticatorId"]


def sign_in_with_password(driver):
    driver.get(f"{PAGES}/login")
    wait_for(driver, "input[name=username]", "the login page")
    driver.find_element(By.CSS_SELECTOR, "input[name=username]").send_keys(USERNAME)
    password = driver.find_element(By.CSS_SELECTOR, "input[name=password]")
    password.send_keys(PASSWORD)
    press(driver, password.find_element(By.XPATH, "ancestor::form").find_element(By.CSS_SELECTOR, "button, input[type=submit]"))


def add_passkey(driver, authenticator):
    driver.get(f"{PAGES}/account")
    form = wait_for(driver, "form#passkey-add", "the account page offers to add a passkey (the script un-hides its form)")
    form.find_element(By.CSS_SELECTOR, "input[name=name]").send_keys(NAME)
    press(driver, form.find_element(By.CSS_SELECTOR, "button, input[type=submit]"))
    settled(driver, lambda d: NAME in page_text(d))
    check(NAME in page_text(driver), "the account page lists the new passkey by its name")
    stored = driver.execute_cdp_cmd("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    check_equal(len(stored), 1, "the authenticator holds one credential")
    check(stored[0]["isResidentCredential"], "a discoverable credential (a passkey)")
    check_equal(stored[0]["rpId"], "localhost", "bound to the RP ID localhost")
    driver.execute_script("document.getElementById('passkeys-heading').scrollIntoView()")
    screenshot(driver, "passkey-account.png")
    return stored[0]


def sign_out(driver):
    driver.get(f"{PAGES}/logout")
    button = wait_for(driver, "form button, form input[type=submit]", "the sign-out page asks first")
    press(driver, button)
    check("signed out" in page_text(driver).lower(), "signed out", page_text(driver)[:400])


def sign_in_with_passkey(driver, credential, authenticator):
    driver.get(f"{PAGES}/login")
    button = wait_for(driver, "#passkey-sign-in", "the login page shows 'sign in with a passkey' (the script un-hid it)")
    check(not driver.find_element(By.CSS_SELECTOR, "input[name=username]").get_attribute("value"), "no username typed")
    screenshot(driver, "passkey-sign-in.png")
    button.click()
    settled(driver, lambda d: urllib.parse.urlsplit(d.current_url).path != "/login"
            or d.find_elements(By.CSS_SELECTOR, ".passkey-error"))
    errors = driver.find_elements(By.CSS_SELECTOR, ".passkey-error")
    check(not errors, "the passkey sign-in went through", errors[0].text if errors else None)
    settled(driver, lambda d: USERNAME in page_text(d))
    check(USERNAME in page_text(driver), f"signed in as {USERNAME} with the passkey alone", page_text(driver)[:600])
    again = driver.execute_cdp_cmd("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"][0]
    check(again["signCount"] > credential["signCount"], "the authenticator signed once more")


def check_headers():
    login = requests.get(f"{PAGES}/login", timeout=10)
    csp = login.headers.get("Content-Security-Policy", "")
    check("script-src 'self'" in csp, "the login page's CSP lets only TIL's own script run", csp)
    check("<script src=\"/assets/passkeys.js\"" in login.text and "<script>" not in login.text, "one script file, nothing inline")
    script = requests.get(f"{PAGES}/assets/passkeys.js", timeout=10)
    check_status(script, 200, "GET /assets/passkeys.js")
    check(script.headers["Content-Type"].startswith("text/javascript"), "served as JavaScript")


def main():
    create_user()
    check_headers()
    driver = chromium()
    try:
        authenticator = virtual_authenticator(driver)
        sign_in_with_password(driver)
        credential = add_passkey(driver, authenticator)
        sign_out(driver)
        sign_in_with_passkey(driver, credential, authenticator)
        listed = requests.get(f"{TIL_URL}/api/users/me/passkeys", timeout=10, headers={"Authorization": "Bearer " + requests.post(
            f"{TIL_URL}/api/users/login", auth=(USERNAME, PASSWORD), timeout=10).json()["value"]}).json()
        check_equal([p["name"] for p in listed], [NAME], "the API lists the passkey")
        check(listed[0]["lastUsedAt"], "its last use is recorded")
    finally:
        driver.quit()
    summary("browser passkeys")


if __name__ == "__main__":
    main()
