"""Personal access tokens in a real browser (issue 21): a person in headless Chromium signs in,
opens the account page, makes a token with the tokens section's form (a name, two scopes
ticked, an expiry chosen), copies it from the page that shows it once, and a script (requests
here) uses it as a bearer token within its scopes: a write works, a route that manages the
account refuses it with 403 "needs a login, not a personal access token". The account page
then lists its last use, and revokes it with its button; the token is refused from then on.
Screenshots of the new-token page and of the account page's tokens go to TIL_SCREENSHOTS."""

import re

import requests
from selenium.webdriver.common.by import By

from browser_login import chromium, page_text, press, screenshot, wait_for
from browser_totp import fill, submit, whole_page_screenshot
from proof import TIL_URL, check, check_equal, create_user, summary

USERNAME, PASSWORD = "petra", "correct horse battery staple"
SCANNER = re.compile(r"til_pat_[A-Za-z0-9_-]{43}")


def make_token(driver):
    driver.get(f"{TIL_URL}/account")
    fill(driver, "input[name=username]", USERNAME)
    submit(driver, fill(driver, "input[name=password]", PASSWORD))
    wait_for(driver, "#tokens-heading", "the account page has a tokens section")
    check("No personal access tokens." in page_text(driver), "none yet")
    driver.find_element(By.XPATH, "//summary[normalize-space()='Create a token']").click()  # a disclosure, no script
    fill(driver, "#token-name", "Nightly import")
    for scope in ("acronyms:write", "categories:write"):
        box = driver.find_element(By.CSS_SELECTOR, f"input[type=checkbox][value='{scope}']")
        label = driver.find_element(By.CSS_SELECTOR, f"label[for='{box.get_attribute('id')}']")
        check(scope in label.text, f"the box for {scope} has its label")
        box.click()
    check(driver.find_element(By.CSS_SELECTOR, "fieldset legend").text, "the scopes are a fieldset with a legend")
    driver.find_element(By.CSS_SELECTOR, "#token-expiry option[value='7776000']").click()  # 90 days
    submit(driver, driver.find_element(By.CSS_SELECTOR, "#token-name"))
    field = wait_for(driver, "input#new-token", "the new token is shown once, in a field to copy from")
    token = field.get_attribute("value")
    check(SCANNER.fullmatch(token), "it matches the secret scanners' pattern", token[:12])
    check_equal(field.get_attribute("readonly"), "true", "read-only")
    check("only time TIL shows it" in page_text(driver), "the page says it is shown once")
    screenshot(driver, "account-token-created.png")
    press(driver, driver.find_element(By.LINK_TEXT, "Done"))
    wait_for(driver, "#tokens-heading", "back on the account page")
    check(token not in driver.page_source, "the account page never shows the value again")
    check("Nightly import" in page_text(driver), "the token is listed by name")
    return token


def use_token(token):
    bearer = {"Authorization": f"Bearer {token}"}
    me = requests.get(f"{TIL_URL}/api/users/me", headers=bearer, timeout=10)
    check_equal(me.json().get("username"), USERNAME, "the token says whose it is")
    acronym = requests.post(f"{TIL_URL}/api/acronyms", headers=bearer, json={"short": "PAT", "long": "Personal access token"}, timeout=10)
    check_equal(acronym.status_code, 200, "a write within its scopes works")
    user = requests.post(f"{TIL_URL}/api/users", headers=bearer, json={"name": "X", "username": "x", "password": "password"}, timeout=10)
    check_equal(user.status_code, 403, "a scope it was not given is refused")
    tokens = requests.get(f"{TIL_URL}/api/users/me/tokens", headers=bearer, timeout=10)
    check_equal(tokens.status_code, 403, "it cannot manage tokens")
    check_equal(tokens.json().get("reason"), "needs a login, not a personal access token", "and says why")


def revoke_token(driver, token):
    driver.get(f"{TIL_URL}/account")
    text = page_text(driver)
    check("from 127.0.0.1" in text, "the list shows the token's last use and where from", text[:600])
    section = driver.find_element(By.CSS_SELECTOR, "section[aria-labelledby=tokens-heading]")
    section.find_element(By.XPATH, ".//summary[normalize-space()='Create a token']").click()  # the form shown too
    whole_page_screenshot(driver, "account-tokens.png")
    button = section.find_element(By.XPATH, ".//button[normalize-space()='Revoke']")
    described = driver.find_element(By.ID, button.get_attribute("aria-describedby"))
    check_equal(described.text, "Nightly import", "the Revoke button is described by its token's name")
    press(driver, button)
    wait_for(driver, "p.notice[role=status]", "a notice says it is revoked")
    check("No personal access tokens." in page_text(driver), "and the list is empty")
    after = requests.get(f"{TIL_URL}/api/users/me", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    check_equal(after.status_code, 401, "the revoked token is refused at once")


def main():
    create_user("Petra", USERNAME, PASSWORD)
    driver = chromium()
    try:
        token = make_token(driver)
        use_token(token)
        revoke_token(driver, token)
    finally:
        driver.quit()
    summary("browser personal access tokens")


if __name__ == "__main__":
    main()
