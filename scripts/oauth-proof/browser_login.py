"""A person in a real browser: headless Chromium (Debian's chromium and chromedriver, driven by
selenium) opens the authorization URL (PKCE S256, state) of a client the operator registered
(`til-server clients add`), sees TIL's login form, is refused a wrong password on the page,
logs in, approves consent and lands on the client's redirect URI with a code, the same state
and iss; another client is denied. Screenshots of the login, error and consent pages go to
TIL_SCREENSHOTS (docs/images/ for the README)."""

import os
import urllib.parse

from authlib.common.security import generate_token
from authlib.integrations.requests_client import OAuth2Session
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as shown
from selenium.webdriver.support.ui import WebDriverWait

from proof import (
    ADMIN_PASSWORD, TIL_URL, admin_session, check, check_equal, check_status, check_redirect, discover, register, register_by_operator,
    summary)
from redirect_catcher import RedirectCatcher

SCOPE = "acronyms:write categories:write"
REFUSAL = "Wrong username or password."
WIDTH, HEIGHT = 900, 600
SCREENSHOTS = os.environ["TIL_SCREENSHOTS"]


def chromium():
    """Debian's chromium through Debian's chromedriver: Selenium Manager is skipped (a driver
    path is given, and SE_OFFLINE is set), so nothing is downloaded."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    options.add_argument("--headless=new")
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")  # Chromium's sandbox refuses to run as root
    options.add_argument("--disable-dev-shm-usage")
    options.add_argument("--lang=en-US")
    options.add_argument(f"--window-size={WIDTH},{HEIGHT}")
    driver = webdriver.Chrome(options=options, service=Service(executable_path="/usr/bin/chromedriver"))
    # The same viewport whatever the window decorations: screenshots of a fixed size.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False})
    return driver


def screenshot(driver, name):
    """The page as a person sees it, without a blinking caret: the same pixels every run."""
    driver.execute_script("document.activeElement && document.activeElement.blur()")
    path = os.path.join(SCREENSHOTS, name)
    check(driver.save_screenshot(path), f"screenshot {path}")


def page_text(driver):
    return driver.find_element(By.TAG_NAME, "body").text


def wait_for(driver, css, claim):
    try:
        element = WebDriverWait(driver, 10).until(shown.visibility_of_element_located((By.CSS_SELECTOR, css)))
    except TimeoutException:
        check(False, claim, f"no {css} at {driver.current_url}:\n{page_text(driver)[:800]}")
    check(True, claim)
    return element


def check_login_form(driver, client_name):
    username = wait_for(driver, "input[name=username]", "the login form is shown")
    password = driver.find_element(By.CSS_SELECTOR, "input[name=password]")
    check_equal(password.get_attribute("type"), "password", "the password field hides what is typed")
    check_equal(username.get_attribute("autocomplete"), "username", "autocomplete=username")
    check_equal(password.get_attribute("autocomplete"), "current-password", "autocomplete=current-password")
    for field in (username, password):
        label = driver.find_elements(By.CSS_SELECTOR, f"label[for='{field.get_attribute('id')}']")
        check(label and label[0].text.strip(), f"the {field.get_attribute('name')} field has a label")
    csrf = driver.find_elements(By.CSS_SELECTOR, "input[type=hidden][name=csrf_token]")
    check(csrf and csrf[0].get_attribute("value"), "the form carries a CSRF token")
    check(client_name in page_text(driver), "the login page names the client")
    return username, password


def log_in(driver, client_name, password_text, username="admin"):
    """Fills the form as a person does and presses its button; returns once the page is gone."""
    username_field, password = check_login_form(driver, client_name)
    username_field.clear()
    username_field.send_keys(username)
    password.send_keys(password_text)
    press(driver, password.find_element(By.XPATH, "ancestor::form").find_element(By.CSS_SELECTOR, "button, input[type=submit]"))


def press(driver, button):
    button.click()
    WebDriverWait(driver, 10).until(gone(button))


def gone(element):
    """Whether `element` has left the document (its page replaced): selenium's staleness_of,
    also when Chromium answers mid-navigation that the node "does not belong to the document"
    (a WebDriverException of its own rather than a stale reference)."""
    def check_gone(_):
        try:
            element.is_enabled()
            return False
        except StaleElementReferenceException:
            return True
        except WebDriverException as error:
            if "does not belong to the document" in str(error):
                return True
            raise
    return check_gone


def authorization_url(client, endpoints):
    verifier = generate_token(64)
    url, state = client.create_authorization_url(endpoints["authorization_endpoint"], code_verifier=verifier)
    return url, state, verifier


def back_at_client(driver, catcher, state, endpoints, claim):
    try:
        WebDriverWait(driver, 10).until(shown.url_contains(catcher.redirect_uri))
    except TimeoutException:
        check(False, claim, f"still at {driver.current_url}:\n{page_text(driver)[:800]}")
    redirect = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(driver.current_url).query))
    check_redirect(redirect, catcher.next_redirect(), state, endpoints["issuer"], claim)
    return redirect


def approve(driver, endpoints, catcher):
    name = "Proof browser client"
    registered = register_by_operator(name, catcher.redirect_uri, SCOPE, "none", ["authorization_code", "refresh_token"])
    client = OAuth2Session(registered["client_id"], token_endpoint_auth_method="none", scope=SCOPE,
                           redirect_uri=catcher.redirect_uri, code_challenge_method="S256")
    url, state, verifier = authorization_url(client, endpoints)
    driver.get(url)
    check_login_form(driver, name)
    driver.find_element(By.CSS_SELECTOR, "input[name=username]").send_keys("admin")
    screenshot(driver, "oauth-login.png")

    log_in(driver, name, "not-the-password")
    alert = wait_for(driver, "[role=alert]", "a wrong password shows an error on the page")
    check_equal(alert.text, REFUSAL, "the error says what went wrong, not which half")
    check_equal(driver.find_element(By.CSS_SELECTOR, "input[name=password]").get_attribute("aria-invalid"), "true",
                "the error is tied to the fields (aria-invalid)")
    check(not driver.current_url.startswith(catcher.redirect_uri), "a wrong password does not go back to the client")
    screenshot(driver, "oauth-login-error.png")
    log_in(driver, name, "not-the-password", username="nobody-at-all")
    check_equal(wait_for(driver, "[role=alert]", "an unknown username is refused too").text, REFUSAL,
                "an unknown username gets the same words: the page never says whether a user exists")

    log_in(driver, name, ADMIN_PASSWORD)
    wait_for(driver, "button[name=decision][value=approve]", "the right password leads to the consent page")
    text = page_text(driver)
    check(name in text, "the consent page names the client", text[:800])
    for scope in SCOPE.split():
        check(scope in text, f"the consent page lists {scope}", text[:800])
    check(driver.find_elements(By.CSS_SELECTOR, "button[name=decision][value=deny]"), "the consent page offers deny beside approve")
    screenshot(driver, "oauth-consent.png")

    press(driver, driver.find_element(By.CSS_SELECTOR, "button[name=decision][value=approve]"))
    redirect = back_at_client(driver, catcher, state, endpoints, "approve lands on the redirect URI")
    check("code" in redirect, "approve: the redirect carries a code", redirect)
    token = client.fetch_token(endpoints["token_endpoint"], code=redirect["code"], code_verifier=verifier,
                               grant_type="authorization_code")
    check_status(client.get(f"{TIL_URL}/api/users/me", timeout=10), 200, "the browser's code buys a working token")
    check_equal(set(token["scope"].split()), set(SCOPE.split()), "the token has the consented scopes")


def deny(driver, endpoints, admin, catcher):
    registered = register(admin, {
        "client_name": "Proof denied client", "redirect_uris": [catcher.redirect_uri],
        "token_endpoint_auth_method": "none", "grant_types": ["authorization_code"], "scope": SCOPE},
        endpoints["registration_endpoint"])
    client = OAuth2Session(registered["client_id"], token_endpoint_auth_method="none", scope=SCOPE,
                           redirect_uri=catcher.redirect_uri, code_challenge_method="S256")
    url, state, _ = authorization_url(client, endpoints)
    driver.get(url)
    wait_for(driver, "button[name=decision][value=deny]", "signed in, another client goes straight to consent")
    press(driver, driver.find_element(By.CSS_SELECTOR, "button[name=decision][value=deny]"))
    redirect = back_at_client(driver, catcher, state, endpoints, "deny lands on the redirect URI")
    check_equal(redirect.get("error"), "access_denied", "deny: error=access_denied")
    check("code" not in redirect, "deny: no code")


def main():
    endpoints = discover()
    admin = admin_session()
    driver = chromium()
    try:
        with RedirectCatcher() as catcher:
            approve(driver, endpoints, catcher)
            deny(driver, endpoints, admin, catcher)
    finally:
        driver.quit()
    summary("browser login")


if __name__ == "__main__":
    main()
