"""A certified relying party signs its users in with TIL (issue 19): Apache httpd with
mod_auth_openidc, an OpenID Certified RP, configured only by TIL's discovery URL, a client this
proof registers, and PKCE S256 (apache_instance.py). A `requests` session is the person: it opens
Apache's protected page, signs in on TIL's pages, and reads back the `sub` and
`preferred_username` that Apache took from the id_token and userinfo. Then RP-initiated logout
through Apache ends both sessions: Apache's and TIL's."""

import base64
import html
import json
import re
import sys
import urllib.parse

import requests

from apache_instance import ApacheRelyingParty, PortTaken, free_loopback_port
from html_forms import forms_of, sign_in
from proof import ADMIN_PASSWORD, TIL_URL, admin_session, check, check_equal, check_status, register, summary

NAME = "mod_auth_openidc"
DISCOVERY_URL = f"{TIL_URL}/.well-known/openid-configuration"


def query_of(url):
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))


def hops(response):
    """Every URL the browser was sent to on the way to `response`, in order."""
    return [step.url for step in response.history] + [response.url]


def shown(page, field):
    """A value the protected page echoes (mod_include escaped it as HTML)."""
    found = re.search(rf'<dd id="{field}">(.*?)</dd>', page.text, re.S)
    check(found, f"{NAME}: the protected page shows {field}", page.text[:800])
    return html.unescape(found.group(1))


def admin_id():
    users = requests.get(f"{TIL_URL}/api/users", timeout=10)
    check_status(users, 200, "TIL lists its users")
    return next(user["id"] for user in users.json() if user["username"] == "admin")


def main():
    metadata = requests.get(DISCOVERY_URL, timeout=10).json()
    admin = admin_session()
    for algorithm in ("RS256", "ES256"):
        relying_party(admin, metadata, algorithm)
    summary("mod_auth_openidc relying party")


def relying_party(admin, metadata, algorithm):
    """Registers the relying party's client (its id_token signed with `algorithm`) for a free
    loopback port and runs Apache there; a port another process took in between means another
    port and another client."""
    for attempt in range(3):
        base = f"http://127.0.0.1:{free_loopback_port()}"
        registered = register(admin, {
            "client_name": "Apache mod_auth_openidc", "redirect_uris": [ApacheRelyingParty.redirect_uri_at(base)],
            "post_logout_redirect_uris": [ApacheRelyingParty.logged_out_url_at(base)],
            "token_endpoint_auth_method": "client_secret_basic", "grant_types": ["authorization_code"],
            "scope": "openid profile", "id_token_signed_response_alg": algorithm}, metadata["registration_endpoint"])
        client = (registered["client_id"], registered["client_secret"])
        apache = ApacheRelyingParty(base, DISCOVERY_URL, registered["client_id"], registered["client_secret"])
        try:
            with apache:
                try:
                    prove(apache, client, metadata, algorithm)
                except SystemExit:
                    print(f"--- Apache's error log:\n{apache.error_log()}", file=sys.stderr)
                    raise
            return
        except PortTaken:
            check(attempt < 2, f"{NAME}: a free loopback port for Apache in three tries")
        except RuntimeError as error:
            check(False, f"{NAME}: Apache starts with TIL's discovery URL and the registered client", str(error))


def active(metadata, client, token):
    """RFC 7662, asked as Apache's own confidential client."""
    answer = requests.post(metadata["introspection_endpoint"], data={"token": token}, auth=client, timeout=10)
    check_status(answer, 200, f"{NAME}: TIL introspects the access token Apache holds")
    return answer.json().get("active")


def jws_header(compact):
    encoded = compact.split(".")[0]
    return json.loads(base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)))


def prove(apache, client, metadata, algorithm):
    client_id = client[0]
    browser = requests.Session()
    user_id = admin_id()

    # Sign-in: Apache sends the browser to TIL's authorization endpoint with PKCE S256 and a nonce.
    page = browser.get(apache.claims_url, timeout=10)
    request = next((url for url in hops(page) if url.startswith(metadata["authorization_endpoint"])), None)
    check(request, f"{NAME}: the protected page sends the browser to TIL's authorization endpoint", hops(page))
    asked = query_of(request)
    check_equal((asked.get("response_type"), asked.get("client_id"), asked.get("redirect_uri")),
                ("code", client_id, apache.redirect_uri), f"{NAME}: a code request of the registered client")
    check_equal(asked.get("code_challenge_method"), "S256", f"{NAME}: PKCE S256")
    check(asked.get("code_challenge") and asked.get("nonce") and asked.get("state"), f"{NAME}: with a code_challenge, nonce and state", asked)
    check_equal(set(asked.get("scope", "").split()), {"openid", "profile"}, f"{NAME}: scope openid profile")

    page, pages = sign_in(browser, page, apache.base, "admin", ADMIN_PASSWORD)
    check_equal(pages, ["login", "consent"], f"{NAME}: the person signs in and consents on TIL's pages")
    back = next((url for url in hops(page) if url.startswith(apache.redirect_uri)), None)
    check(back, f"{NAME}: TIL sends the browser back to Apache's redirect URI", hops(page))
    answer = query_of(back)
    check_equal((answer.get("state"), answer.get("iss")), (asked["state"], TIL_URL),
                f"{NAME}: the authorization response carries its state and TIL's iss")
    check_status(page, 200, f"{NAME}: Apache redeemed the code and shows the protected page")
    check_equal(page.url, apache.claims_url, f"{NAME}: the page first asked for")

    sub = user_id.lower()
    check_equal(shown(page, "sub"), sub, f"{NAME}: OIDC_CLAIM_sub is the user's id")
    check_equal(shown(page, "remote_user"), sub, f"{NAME}: REMOTE_USER is sub (OIDCRemoteUserClaim)")
    check_equal(shown(page, "preferred_username"), "admin", f"{NAME}: OIDC_CLAIM_preferred_username is the username")
    id_token = json.loads(shown(page, "id_token_payload"))
    check_equal((id_token.get("iss"), id_token.get("aud"), id_token.get("sub"), id_token.get("nonce")),
                (TIL_URL, client_id, sub, asked["nonce"]), f"{NAME}: the id_token it validated: iss, aud, sub, nonce")
    check_equal(id_token.get("preferred_username"), "admin", f"{NAME}: the id_token's preferred_username")
    header = jws_header(shown(page, "id_token"))
    published = {key["kid"]: key for key in requests.get(metadata["jwks_uri"], timeout=10).json()["keys"]}
    check_equal((header.get("alg"), published.get(header.get("kid"), {}).get("kty")), (algorithm, "EC" if algorithm == "ES256" else "RSA"),
                f"{NAME}: it verified a {algorithm} id_token against a key published at jwks_uri")
    userinfo = json.loads(shown(page, "userinfo_json"))
    check_equal((userinfo.get("sub"), userinfo.get("preferred_username")), (sub, "admin"),
                f"{NAME}: userinfo's sub and preferred_username, fetched by Apache with the access token")
    again = browser.get(apache.claims_url, timeout=10, allow_redirects=False)
    check_status(again, 200, f"{NAME}: Apache's own session serves the page again without TIL")
    access_token = shown(page, "access_token")
    check_equal(active(metadata, client, access_token), True, f"{NAME}: its access token is active")

    # RP-initiated logout: Apache ends its session and sends the browser to TIL's end_session_endpoint.
    gone = browser.get(apache.redirect_uri, params={"logout": apache.logged_out_url}, timeout=10)
    ending = next((url for url in hops(gone) if url.startswith(metadata["end_session_endpoint"])), None)
    check(ending, f"{NAME}: Apache's logout sends the browser to TIL's end_session_endpoint", hops(gone))
    said = query_of(ending)
    check(said.get("id_token_hint"), f"{NAME}: with the id_token as id_token_hint", said)
    check_equal(said.get("post_logout_redirect_uri"), apache.logged_out_url, f"{NAME}: and the registered post_logout_redirect_uri")
    check_status(gone, 200, f"{NAME}: TIL signs out at once and returns to Apache's page")
    check_equal(gone.url.split("?")[0], apache.logged_out_url, f"{NAME}: the logged-out page")
    check_equal(active(metadata, client, access_token), False, f"{NAME}: Apache revoked its access token at TIL (RFC 7009) on the way out")

    after = browser.get(apache.claims_url, timeout=10, allow_redirects=False)
    check(after.status_code in (302, 303) and after.headers.get("Location", "").startswith(metadata["authorization_endpoint"]),
          f"{NAME}: Apache's session is over: the protected page sends the browser to TIL again",
          f"{after.status_code} {after.headers.get('Location')}")
    login = browser.get(after.headers["Location"], timeout=10)
    check(login.url.startswith(TIL_URL) and any("password" in form.fields for form in forms_of(login)),
          f"{NAME}: TIL's session is over: the authorization endpoint shows the login form again", login.url)
    print(f"ok      {NAME} with {algorithm}: signed in, showed sub {sub} and preferred_username admin, signed out of both")


if __name__ == "__main__":
    main()
