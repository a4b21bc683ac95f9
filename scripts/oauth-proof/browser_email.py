"""Email verification in a real browser (issue 21): a person whose account was created with an
address signs in, sees it unverified on the account page, opens the link of the mail (read
from the outbox, as the mail carries it), finds a page that only shows a button (opening it
verified nothing), presses it and lands on the account page saying "Verified". Then they
change the address with the account page's form and the current password, see the change
pending, and follow the new link: the new address is the account's. Screenshots of the account
page's email section and of the link's page go to TIL_SCREENSHOTS."""

import requests
from selenium.webdriver.common.by import By

from browser_login import chromium, page_text, press, screenshot, wait_for
from browser_totp import fill, submit
from mail_links import mailed_link, newest_eml_text, psql
from proof import ADMIN_PASSWORD, TIL_URL, check, check_equal, summary

EMIL, EMIL_PASSWORD = "emil", "emil's long pass phrase"
FIRST, SECOND = "emil@til.example", "emil.new@til.example"


def create_user():
    login = requests.post(f"{TIL_URL}/api/users/login", params={"scope": "users:write"}, auth=("admin", ADMIN_PASSWORD), timeout=10)
    check_equal(login.status_code, 200, "the admin logs in with users:write")
    created = requests.post(f"{TIL_URL}/api/users", timeout=10, headers={"Authorization": f"Bearer {login.json()['value']}"},
                            json={"name": "Emil", "username": EMIL, "password": EMIL_PASSWORD, "email": FIRST})
    check_equal(created.status_code, 200, "a user created with an address")
    check("email" not in created.json(), "the public user shows no address")


def verified(address):
    return psql("SELECT count(*) FROM users WHERE email = :'v0' AND email_verified_at IS NOT NULL", address) == "1"


def follow(driver, link, address, claim):
    """Opens `link` (twice: a scanner would), then presses its one button."""
    for _ in range(2):
        driver.get(link)
        wait_for(driver, "form[action='/verify-email'] button", f"{claim}: the link's page shows a button")
    check(not verified(address), f"{claim}: opening the link verified nothing")
    forms = driver.find_elements(By.CSS_SELECTOR, "main form")
    check_equal(len(forms), 1, f"{claim}: one form, one button")
    return forms[0].find_element(By.CSS_SELECTOR, "button[type=submit]")


def main():
    create_user()
    driver = chromium()
    try:
        driver.get(f"{TIL_URL}/account")
        fill(driver, "input[name=username]", EMIL)
        submit(driver, fill(driver, "input[name=password]", EMIL_PASSWORD))
        wait_for(driver, "#email-heading", "the account page has an email section")
        check("Not verified" in page_text(driver), "the address is shown unverified")
        check(driver.find_elements(By.XPATH, "//button[normalize-space()='Send the link again']"), "with a button to send the link again")

        button = follow(driver, mailed_link(FIRST), FIRST, "the first address")
        screenshot(driver, "verify-email.png")
        press(driver, button)
        wait_for(driver, ".notice[role=status]", "back on the account page, with a notice")
        check("Your email address is confirmed." in page_text(driver), "the notice says the address is confirmed")
        badge = driver.find_element(By.CSS_SELECTOR, "section[aria-labelledby=email-heading] .badge.on")
        check_equal(badge.text, "Verified", "the account page shows the address verified")
        check(verified(FIRST), "the database agrees")

        driver.find_element(By.XPATH, "//summary[normalize-space()='Change your email address']").click()
        fill(driver, "#email-new", SECOND)
        fill(driver, "#email-password", "not the password")
        submit(driver, driver.find_element(By.CSS_SELECTOR, "#email-password"))
        alert = wait_for(driver, "#email-error[role=alert]", "a wrong password is refused at the form")
        check_equal(alert.text, "The current password is wrong.", "it says why")
        fill(driver, "#email-new", SECOND)
        submit(driver, fill(driver, "#email-password", EMIL_PASSWORD))
        wait_for(driver, ".notice[role=status]", "the change is sent")
        check(f"Waiting for you to confirm {SECOND}" in page_text(driver), "the new address is pending")
        check(FIRST in page_text(driver), "the old one stays in force")
        queued = psql("SELECT count(*) FROM mail_outbox WHERE kind = 'email-changed' AND recipient = :'v0'", FIRST)
        check(queued == "1" or newest_eml_text(FIRST, "being changed"), "the old address is told of the change")
        screenshot(driver, "account-email.png")

        press(driver, follow(driver, mailed_link(SECOND), SECOND, "the new address"))
        wait_for(driver, ".notice[role=status]", "back on the account page")
        check(SECOND in page_text(driver) and "Waiting" not in page_text(driver), "the new address is the account's, verified")
        check(verified(SECOND), "the database agrees")
    finally:
        driver.quit()
    summary("browser email verification")


if __name__ == "__main__":
    main()
