"""A signing-key rotation in the middle of a run (issue 19), as a relying party lives through it:
authlib signs in and validates its id_token; the operator runs `til-server keys rotate
--activate` on the same database and SECRET_KEY; the running server signs with the new key once
it reloads its keys (at most JWKS_MAX_AGE later, which the proof's server keeps short), and
authlib validates the id_tokens from before and after against the JWKS it fetches again: both
keys published, each token verifying under its own kid."""

import base64
import json
import os
import re
import subprocess
import time

import requests

from authlib_oidc import openid_configuration, registered_client, signed_in, validated
from proof import admin_session, check, check_equal, summary
from redirect_catcher import RedirectCatcher

NAME = "key rotation"


def kid_of(id_token):
    header = id_token.split(".")[0]
    return json.loads(base64.urlsafe_b64decode(header + "=" * (-len(header) % 4)))["kid"]


def published(metadata):
    """The kids at jwks_uri, fetched anew, and the max-age it may be cached for."""
    response = requests.get(metadata["jwks_uri"], timeout=10)
    max_age = re.search(r"max-age=(\d+)", response.headers.get("Cache-Control", ""))
    check(max_age, f"{NAME}: the JWKS says how long it may be cached", response.headers.get("Cache-Control"))
    return {key["kid"] for key in response.json()["keys"]}, int(max_age.group(1))


def rotate():
    """`til-server keys rotate --activate` as an operator runs it: the server's database and
    SECRET_KEY. Returns the new RS256 kid from its output."""
    command = [os.environ["TIL_SERVER_BIN"], "keys", "rotate", "--activate"]
    environment = dict(os.environ, DATABASE_URL=os.environ["TIL_DATABASE_URL"],
                       SECRET_KEY=os.environ["TIL_SECRET_KEY"], ENVIRONMENT="development")
    done = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=60)
    check(done.returncode == 0, f"{NAME}: til-server keys rotate --activate on the server's database", done.stderr)
    added = dict(re.findall(r"Added (RS256|ES256) key (\S+):", done.stdout))
    check_equal(sorted(added), ["ES256", "RS256"], f"{NAME}: it added an RS256 and an ES256 key")
    return added


def refreshed_until_signed_by(client, metadata, kid, deadline_seconds):
    """Refreshes (each answer carries a new id_token) until the server signs with `kid`: it
    must within its JWKS max-age, when it reloads the keys. Returns that token answer."""
    deadline = time.monotonic() + deadline_seconds
    while True:
        token = client.refresh_token(metadata["token_endpoint"])
        if kid_of(token["id_token"]) == kid or time.monotonic() > deadline:
            return token
        time.sleep(0.2)


def main():
    metadata = openid_configuration()
    admin = admin_session()
    browser = requests.Session()
    with RedirectCatcher() as catcher:
        client = registered_client(admin, metadata, catcher, "Proof relying party across a rotation")
        before, before_nonce = signed_in(client, metadata, browser, catcher, NAME)
        old_kid = kid_of(before["id_token"])
        kids, max_age = published(metadata)
        check(old_kid in kids, f"{NAME}: the first id_token's kid is published")
        claims = validated(before["id_token"], metadata, client.client_id, nonce=before_nonce, access_token=before["access_token"])
        check_equal(claims["nonce"], before_nonce, f"{NAME}: authlib validated the id_token signed before the rotation (kid {old_kid})")

        new_kid = rotate()["RS256"]
        check(new_kid != old_kid, f"{NAME}: the new key has a kid of its own")
        started = time.monotonic()
        refreshed = refreshed_until_signed_by(client, metadata, new_kid, max_age + 10)
        check_equal(kid_of(refreshed["id_token"]), new_kid, f"{NAME}: the running server signs with the new key once it reloads "
                    f"its keys (JWKS max-age {max_age} s): after {time.monotonic() - started:.1f} s")
        after, after_nonce = signed_in(client, metadata, browser, catcher, NAME)
        check_equal(kid_of(after["id_token"]), new_kid, f"{NAME}: a new sign-in's id_token carries the new kid")

    kids, _ = published(metadata)
    check({old_kid, new_kid} <= kids, f"{NAME}: the JWKS fetched again publishes both kids", kids)
    old = validated(before["id_token"], metadata, client.client_id, nonce=before_nonce, access_token=before["access_token"])
    new = validated(after["id_token"], metadata, client.client_id, nonce=after_nonce, access_token=after["access_token"])
    validated(refreshed["id_token"], metadata, client.client_id, access_token=refreshed["access_token"])
    check_equal(old["sub"], new["sub"], f"{NAME}: authlib validates the id_tokens from before and after against the refetched JWKS")
    summary(NAME)


if __name__ == "__main__":
    main()
