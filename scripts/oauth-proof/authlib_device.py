"""RFC 8628 with authlib as the device: authlib ships the device grant for servers only
(authlib.oauth2.rfc8628 has the endpoint and the grant, no client class), so the device's side
is authlib's own OAuth2Session: a POST to the device authorization endpoint found by discovery,
then fetch_token with grant_type=urn:ietf:params:oauth:grant-type:device_code, polled as
RFC 8628 §3.5 says (the interval, five seconds more after slow_down). The person's side is
html_forms: sign in, the code, consent, approve (or deny)."""

import time

import requests
from authlib.integrations.base_client import OAuthError
from authlib.integrations.requests_client import OAuth2Session

from html_forms import approve_device
from proof import ADMIN_PASSWORD, TIL_URL, check, check_equal, check_status, discover, summary

GRANT = "urn:ietf:params:oauth:grant-type:device_code"
CLIENT_ID = "til-cli"


def start(device, endpoints):
    response = device.post(endpoints["device_authorization_endpoint"], data={"client_id": CLIENT_ID}, withhold_token=True, timeout=10)
    check_status(response, 200, "device: the device authorization endpoint answers til-cli")
    codes = response.json()
    for field in ("device_code", "user_code", "verification_uri", "verification_uri_complete", "expires_in", "interval"):
        check(field in codes, f"device: the answer has {field}")
    check_equal(codes["verification_uri"], f"{TIL_URL}/device", "device: verification_uri is TIL's page")
    return codes


def poll(device, endpoints, codes):
    return device.fetch_token(endpoints["token_endpoint"], grant_type=GRANT, device_code=codes["device_code"])


def expect(error, claim, device, endpoints, codes):
    try:
        answer = poll(device, endpoints, codes)
    except OAuthError as failure:
        check_equal(failure.error, error, claim)
        return
    check(False, claim, f"expected {error}, got {answer!r}")


def poll_until_decided(device, endpoints, codes, interval):
    """The device's loop: wait, poll; pending → again; slow_down → five seconds more."""
    deadline = time.monotonic() + codes["expires_in"]
    while time.monotonic() < deadline:
        time.sleep(interval)
        try:
            return poll(device, endpoints, codes)
        except OAuthError as failure:
            if failure.error == "slow_down":
                interval += 5
            elif failure.error != "authorization_pending":
                raise
    check(False, "device: decided before the code expired")


def main():
    endpoints = discover()
    check(GRANT in endpoints.get("grant_types_supported", []), "discovery: the device grant is supported")
    check(str(endpoints.get("device_authorization_endpoint", "")).startswith(TIL_URL), "discovery: device_authorization_endpoint")

    device = OAuth2Session(CLIENT_ID, token_endpoint_auth_method="none")
    codes = start(device, endpoints)
    expect("authorization_pending", "device: before the person decides, authorization_pending", device, endpoints, codes)
    expect("slow_down", "device: polling at once again is slow_down", device, endpoints, codes)
    person = requests.Session()
    page = approve_device(person, codes["verification_uri_complete"], codes["user_code"], "admin", ADMIN_PASSWORD)
    check("Device connected" in page.text, "device: the person approved on TIL's page")
    token = poll_until_decided(device, endpoints, codes, codes["interval"] + 5)
    check(token.get("access_token") and token.get("refresh_token"), "device: authlib's fetch_token got the pair")
    check_status(device.get(f"{TIL_URL}/api/users/me", timeout=10), 200, "device: the pair works at TIL's API")
    expect("invalid_grant", "device: the device code is redeemed once", device, endpoints, codes)
    refreshed = device.refresh_token(endpoints["token_endpoint"])
    check(refreshed.get("access_token") != token["access_token"], "device: authlib refreshes the pair as til-cli")

    denied = start(OAuth2Session(CLIENT_ID, token_endpoint_auth_method="none"), endpoints)
    page = approve_device(requests.Session(), denied["verification_uri_complete"], denied["user_code"], "admin", ADMIN_PASSWORD,
                          decision="deny")
    check("Device refused" in page.text, "device: the person denied on TIL's page")
    expect("access_denied", "device: a denied code is access_denied", OAuth2Session(CLIENT_ID, token_endpoint_auth_method="none"),
           endpoints, denied)
    summary("authlib device")


if __name__ == "__main__":
    main()
