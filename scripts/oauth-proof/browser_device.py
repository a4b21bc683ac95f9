"""RFC 8628 in a real browser: a device (here, requests as til-cli) asks for a code; a person in
headless Chromium opens verification_uri, signs in, types the code the way people do (lower
case, no dash), sees a wrong code refused on the page, then the consent page (always, even for
the trusted til-cli: RFC 8628 §5.4), approves, and the device's poll gets the pair.
Screenshots of the code page and of its consent step go to TIL_SCREENSHOTS."""

import time

import requests
from selenium.webdriver.common.by import By

from browser_login import chromium, log_in, page_text, press, screenshot, wait_for
from proof import ADMIN_PASSWORD, TIL_URL, check, check_equal, check_status, discover, summary

GRANT = "urn:ietf:params:oauth:grant-type:device_code"


def start_device(endpoints):
    response = requests.post(endpoints["device_authorization_endpoint"], data={"client_id": "til-cli"}, timeout=10)
    check_status(response, 200, "device: til-cli gets a device code")
    return response.json()


def poll(endpoints, codes):
    return requests.post(endpoints["token_endpoint"], timeout=10, data={
        "grant_type": GRANT, "device_code": codes["device_code"], "client_id": "til-cli"})


def main():
    endpoints = discover()
    codes = start_device(endpoints)
    driver = chromium()
    try:
        driver.get(codes["verification_uri"])
        log_in(driver, "", ADMIN_PASSWORD)
        field = wait_for(driver, "input[name=user_code]", "signed in, the verification page asks for the code")
        label = driver.find_elements(By.CSS_SELECTOR, f"label[for='{field.get_attribute('id')}']")
        check(label and label[0].text.strip(), "the code field has a label")
        check(driver.find_elements(By.CSS_SELECTOR, "input[type=hidden][name=csrf_token]"), "the code form carries a CSRF token")
        field.send_keys(codes["user_code"].replace("-", "").lower())
        screenshot(driver, "oauth-device.png")
        field.clear()
        field.send_keys("BBBB-BBBB" if codes["user_code"] != "BBBB-BBBB" else "CCCC-CCCC")
        press(driver, driver.find_element(By.CSS_SELECTOR, "form button"))
        alert = wait_for(driver, "[role=alert]", "a wrong code is refused on the page")
        check("No device is waiting" in alert.text, "the error says what went wrong", alert.text)
        check_equal(driver.find_element(By.CSS_SELECTOR, "input[name=user_code]").get_attribute("aria-invalid"), "true",
                    "the error is tied to the field (aria-invalid)")

        field = driver.find_element(By.CSS_SELECTOR, "input[name=user_code]")
        field.clear()
        field.send_keys(codes["user_code"].replace("-", "").lower())
        press(driver, driver.find_element(By.CSS_SELECTOR, "form button"))
        wait_for(driver, "button[name=decision][value=approve]", "the code leads to the consent page, for a trusted client too")
        text = page_text(driver)
        check("til command-line tool" in text, "the consent page names the device's client", text[:800])
        check(codes["user_code"] in text, "the consent page shows the code being approved", text[:800])
        check("account" in text, "the consent page lists the scopes", text[:800])
        screenshot(driver, "oauth-device-consent.png")
        check_equal(poll(endpoints, codes).json().get("error"), "authorization_pending", "the device waits while the person reads")
        press(driver, driver.find_element(By.CSS_SELECTOR, "button[name=decision][value=approve]"))
        check("Device connected" in page_text(driver), "approve says the device is connected")
    finally:
        driver.quit()
    # The last poll was a moment ago: the device waits its interval (5 s) first, as RFC 8628 asks.
    time.sleep(codes["interval"])
    answer = poll(endpoints, codes)
    check_status(answer, 200, "the device's next poll gets the pair")
    access = answer.json()["access_token"]
    me = requests.get(f"{TIL_URL}/api/users/me", headers={"Authorization": f"Bearer {access}"}, timeout=10)
    check_equal(me.json().get("username"), "admin", "the pair is the approving user's")
    summary("browser device")


if __name__ == "__main__":
    main()
