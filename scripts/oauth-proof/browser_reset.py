"""A forgotten password in a real browser (issue 21): a person in headless Chromium follows
"Forgot your password?" from the sign-in form, asks for a link by email address, opens the
link the mail holds (read from the outbox row the request queued, with psql, or from the .eml
file the development sender wrote), chooses a new password, and signs in with it. Then an
account with two-step sign-in: the same link leads to the code step, a wrong code is refused
on the page, the right one sets the password. Screenshots of the forgot-password form, the
reset page and the code step go to TIL_SCREENSHOTS.

The accounts' addresses are marked verified with psql: this proof is the reset's, not the
verification's."""

import time

import requests
from selenium.webdriver.common.by import By

from browser_login import chromium, page_text, screenshot, wait_for
from browser_totp import code_step, fill, submit, totp
import mail_links
from mail_links import psql
from proof import ADMIN_PASSWORD, TIL_URL, check, check_equal, summary

PASSWORD = "first password of theirs"


def create_user(username, address):
    """A user made by the admin through the API, their address then marked verified."""
    login = requests.post(f"{TIL_URL}/api/users/login", params={"scope": "users:write"}, auth=("admin", ADMIN_PASSWORD), timeout=10)
    check_equal(login.status_code, 200, "the admin logs in with users:write")
    created = requests.post(f"{TIL_URL}/api/users", timeout=10, headers={"Authorization": f"Bearer {login.json()['value']}"},
                            json={"name": username.title(), "username": username, "password": PASSWORD})
    check_equal(created.status_code, 200, f"a user {username} for the proof")
    psql("UPDATE users SET email = :'v1', email_verified_at = now() WHERE username = :'v0'", username, address)


def enable_totp(username):
    """TOTP on through the API, as `til mfa enable` does it; the secret and the step it used."""
    login = requests.post(f"{TIL_URL}/api/users/login", params={"scope": "account"}, auth=(username, PASSWORD), timeout=10)
    bearer = {"Authorization": f"Bearer {login.json()['value']}"}
    secret = requests.post(f"{TIL_URL}/api/users/me/mfa/totp", headers=bearer, timeout=10).json()["secret"]
    step = int(time.time()) // 30
    confirmed = requests.post(f"{TIL_URL}/api/users/me/mfa/totp/confirm", headers=bearer, json={"code": totp(secret, step)}, timeout=10)
    check_equal(confirmed.status_code, 200, f"{username} turned TOTP on")
    return secret, step


def mailed_link(address):
    """The reset link of the newest mail to `address` (`mail_links.mailed_link`)."""
    return mail_links.mailed_link(address, kind="password-reset", page="reset-password", subject="password")


def ask_for_link(driver, login, address, shot=None):
    driver.get(f"{TIL_URL}/login")
    link = wait_for(driver, "a[href='/forgot-password']", "the sign-in form links to the forgot-password page")
    link.click()
    field = wait_for(driver, "input[name=login]", "the forgot-password form asks for a username or an email address")
    check_equal(field.get_attribute("autocomplete"), "username", "the login field: autocomplete=username")
    if shot:
        screenshot(driver, shot)
    submit(driver, fill(driver, "input[name=login]", login))
    wait_for(driver, "h1", "the request is answered with a page")
    check("Check your email" in page_text(driver), "it says to check the mail, whatever the login")
    return mailed_link(address)


def choose_password(driver, link, username, password, shot=None):
    driver.get(link)
    field = wait_for(driver, "input[name=new_password]", "the link opens the new-password form")
    check_equal(field.get_attribute("autocomplete"), "new-password", "autocomplete=new-password: a password manager offers one")
    check_equal(driver.find_element(By.CSS_SELECTOR, "input[name=username]").get_attribute("value"), username,
                "the form names the account, for the password manager")
    if shot:
        screenshot(driver, shot)
    submit(driver, fill(driver, "input[name=new_password]", password))


def reset_and_sign_in(driver):
    username, address = "rita", "rita@mail.example"
    create_user(username, address)
    link = ask_for_link(driver, address.upper(), address, shot="forgot-password.png")
    driver.get(link)
    wait_for(driver, "input[name=new_password]", "opening the link twice spends nothing")
    choose_password(driver, link, username, "a brand new password", shot="reset-password.png")
    wait_for(driver, "a[href='/login']", "the new password is set, with the way to sign in")
    check("Password changed" in page_text(driver), "the page says so")
    driver.get(link)
    wait_for(driver, "a[href='/forgot-password']", "the link works once: then it leads to a new one")
    driver.get(f"{TIL_URL}/login")
    fill(driver, "input[name=username]", username)
    submit(driver, fill(driver, "input[name=password]", "a brand new password"))
    wait_for(driver, "#sessions-heading", "signed in with the new password, on the account page")
    old = requests.post(f"{TIL_URL}/api/users/login", auth=(username, PASSWORD), timeout=10)
    check_equal(old.status_code, 401, "the old password no longer works")


def reset_with_code_step(driver):
    username, address = "tom", "tom@mail.example"
    create_user(username, address)
    secret, step = enable_totp(username)
    driver.delete_all_cookies()  # another person at another browser: rita's session stays hers
    link = ask_for_link(driver, username, address)
    choose_password(driver, link, username, "a password with two steps")
    code_step(driver, secret, step, "an account with two-step sign-in gets the code step")
    check("a password with two steps" not in driver.page_source, "the new password waits on the server, not in the page")
    screenshot(driver, "reset-code-step.png")
    submit(driver, fill(driver, "input[name=code]", totp(secret, step)))
    alert = wait_for(driver, "[role=alert]", "the code used to turn TOTP on is refused (replay)")
    check("wrong or was already used" in alert.text, "the step says why", alert.text)
    submit(driver, fill(driver, "input[name=code]", totp(secret, step + 1)))
    wait_for(driver, "a[href='/login']", "the right code sets the new password")
    login = requests.post(f"{TIL_URL}/api/users/login", auth=(username, "a password with two steps"), timeout=10)
    check_equal(login.status_code, 401, "the new password is the first step")
    check(login.json().get("mfaRequired"), "and TOTP is still asked for")


def main():
    driver = chromium()
    try:
        reset_and_sign_in(driver)
        reset_with_code_step(driver)
    finally:
        driver.quit()
    summary("browser password reset")


if __name__ == "__main__":
    main()
