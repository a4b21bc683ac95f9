"""Re-authentication in a real browser (issue 21, RFC 9470 step-up on the pages): a person in
headless Chromium changes their password on the account page (the form: current password, the
new one twice), then — their sign-in made older than REAUTH_WINDOW with psql, as if they had
left the page open — tries to set up TOTP and is sent through a fresh sign-in (the username
filled in, a sentence saying why) that comes back to the account page; the same for adding a
passkey, where the passkeys script follows the server's `next`. A screenshot of the password
form goes to TIL_SCREENSHOTS (docs/images/account-password.png)."""

import os
import subprocess
import urllib.parse

import requests
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from browser_login import chromium, page_text, press, screenshot, wait_for
from browser_passkeys import virtual_authenticator
from proof import TIL_URL, check, check_equal, check_status, create_user, summary

USERNAME, PASSWORD, NEW_PASSWORD = "step-up-person", "a-long-first-password", "a-longer-second-password"
# WebAuthn refuses IP addresses: the pages by name, as browser_passkeys.py opens them.
PAGES = TIL_URL.replace("://127.0.0.1:", "://localhost:")


def age_sign_in():
    """The browser's sign-in 11 minutes older: past the default REAUTH_WINDOW of 10, without waiting."""
    subprocess.run(["psql", os.environ["TIL_DATABASE_URL"], "-q", "-v", "ON_ERROR_STOP=1", "-c",
                    "UPDATE sessions SET auth_time = now() - interval '11 minutes' "
                    f"WHERE user_id = (SELECT id FROM users WHERE username = '{USERNAME}')"], check=True)


def settled(driver, condition, seconds=15):
    WebDriverWait(driver, seconds, ignored_exceptions=(StaleElementReferenceException,)).until(condition)


def submit(driver, field):
    press(driver, field.find_element(By.XPATH, "ancestor::form").find_element(By.CSS_SELECTOR, "button[type=submit]"))


def sign_in(driver):
    driver.get(f"{PAGES}/account")
    wait_for(driver, "input[name=username]", "signed out: the sign-in form").send_keys(USERNAME)
    password = driver.find_element(By.CSS_SELECTOR, "input[name=password]")
    password.send_keys(PASSWORD)
    submit(driver, password)
    wait_for(driver, "#password-heading", "signed in: the account page, with its password section")


# The password section's own fields: other sections' forms (the email's) have a current_password too.
SECTION = "section[aria-labelledby=password-heading]"


def change_password(driver):
    summary_element = driver.find_element(By.XPATH, "//section[@aria-labelledby='password-heading']//summary")
    summary_element.click()  # opens the disclosure, no page load
    fields = {name: driver.find_element(By.CSS_SELECTOR, f"{SECTION} input[name={name}]")
              for name in ("current_password", "new_password", "repeat_password")}
    check_equal(fields["new_password"].get_attribute("autocomplete"), "new-password", "the new password: autocomplete=new-password")
    for name, field in fields.items():
        label = driver.find_elements(By.CSS_SELECTOR, f"label[for='{field.get_attribute('id')}']")
        check(label, f"{name} has a label")
    fields["current_password"].send_keys(PASSWORD)
    fields["new_password"].send_keys(NEW_PASSWORD)
    fields["repeat_password"].send_keys(NEW_PASSWORD)
    driver.execute_script("document.getElementById('password-heading').scrollIntoView()")
    screenshot(driver, "account-password.png")  # filled in as a person would, both new passwords alike
    fields["repeat_password"].send_keys("-typo")  # then a typo, which the page must refuse
    submit(driver, fields["repeat_password"])
    alert = wait_for(driver, "#password-error", "two different new passwords are refused on the page")
    check("differ" in alert.text, "it says why", alert.text)
    driver.find_element(By.CSS_SELECTOR, f"{SECTION} input[name=current_password]").send_keys(PASSWORD)
    driver.find_element(By.CSS_SELECTOR, f"{SECTION} input[name=new_password]").send_keys(NEW_PASSWORD)
    repeat = driver.find_element(By.CSS_SELECTOR, f"{SECTION} input[name=repeat_password]")
    repeat.send_keys(NEW_PASSWORD)
    submit(driver, repeat)
    settled(driver, lambda d: "password is changed" in page_text(d))
    check("Your password is changed" in page_text(driver), "the account page says so, still signed in")
    login = requests.post(f"{TIL_URL}/api/users/login", auth=(USERNAME, NEW_PASSWORD), timeout=10)
    check_status(login, 200, "the new password logs in")


def fresh_sign_in(driver, claim):
    """The sign-in page a too-old sign-in is sent to: why, the username, then back."""
    settled(driver, lambda d: urllib.parse.urlsplit(d.current_url).path == "/login")
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(driver.current_url).query)
    check_equal(query.get("max_age"), ["600"], claim)
    check("needs a recent sign-in" in page_text(driver), "the page says why")
    check_equal(driver.find_element(By.CSS_SELECTOR, "input[name=username]").get_attribute("value"), USERNAME, "the username filled in")
    password = driver.find_element(By.CSS_SELECTOR, "input[name=password]")
    password.send_keys(NEW_PASSWORD)
    submit(driver, password)
    settled(driver, lambda d: "signed in again" in page_text(d))
    check("You signed in again" in page_text(driver), "back on the account page, which says the change can be made now")


def step_up_for_totp(driver):
    age_sign_in()
    press(driver, driver.find_element(By.XPATH, "//button[normalize-space()='Set up an authenticator app']"))
    fresh_sign_in(driver, "an old sign-in setting up TOTP is sent to /login with max_age")
    press(driver, driver.find_element(By.XPATH, "//button[normalize-space()='Set up an authenticator app']"))
    wait_for(driver, "figure.qr svg", "signed in again: the enrolment page")
    driver.get(f"{PAGES}/account")


def step_up_for_a_passkey(driver, authenticator):
    age_sign_in()
    form = wait_for(driver, "form#passkey-add", "the account page offers to add a passkey")
    form.find_element(By.CSS_SELECTOR, "input[name=name]").send_keys("Step-up key")
    press(driver, form.find_element(By.CSS_SELECTOR, "button, input[type=submit]"))
    fresh_sign_in(driver, "the passkeys script follows the server's next to the fresh sign-in")
    stored = driver.execute_cdp_cmd("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    check_equal(len(stored), 0, "no passkey was made before the fresh sign-in")
    form = wait_for(driver, "form#passkey-add", "the form again")
    form.find_element(By.CSS_SELECTOR, "input[name=name]").send_keys("Step-up key")
    press(driver, form.find_element(By.CSS_SELECTOR, "button, input[type=submit]"))
    settled(driver, lambda d: "Step-up key" in page_text(d))
    check("Step-up key" in page_text(driver), "signed in again: the passkey is added")


def main():
    create_user("Step Up", USERNAME, PASSWORD)
    driver = chromium()
    try:
        authenticator = virtual_authenticator(driver)
        sign_in(driver)
        change_password(driver)
        step_up_for_totp(driver)
        step_up_for_a_passkey(driver, authenticator)
    finally:
        driver.quit()
    summary("browser re-authentication")


if __name__ == "__main__":
    main()
